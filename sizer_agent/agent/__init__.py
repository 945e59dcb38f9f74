"""The sizing agent: intake, conversation engines and the events they emit."""
