"""The `risc` command: the one place that composes the server, the client and the tools for the command line."""
