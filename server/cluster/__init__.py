"""This server as one node of several sharing a PostgreSQL store: who plays each game, heartbeats, fencing, the
sweeper, and what nodes tell each other (node.py); the address others reach this machine at (network.py)."""
