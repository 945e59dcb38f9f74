"""The app's widgets, one family per module: chat, sidebar, prompt, results, keybar."""
