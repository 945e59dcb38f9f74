"""The app's screens: conversation, results, session picker, help."""
