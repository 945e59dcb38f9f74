"""One module per `sizer-agent` subcommand (discovered by `sizer_agent.cli`)."""
