"""The server's own computer players: seats it plays (players.py), and the share of its time their turns take, after
people's (share.py)."""
