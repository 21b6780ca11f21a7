"""Finished games told again: a stored game re-played from its seed and orders and checked against the store
(replay.py, `risc replay`), and statistics and replays of finished games for any client (service.py)."""
