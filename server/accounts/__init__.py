"""People: accounts, their sessions and their passwords, and what a connection signed in may ask (docs/security.md)."""
