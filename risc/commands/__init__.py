"""One module per `risc` subcommand."""
