"""The text client: thin (the server decides everything), quick to type, clear to read, and hard to lose."""
