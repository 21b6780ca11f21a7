"""The lobby: the games a server holds (lobby.py), the maps it offers (catalogue.py), a game named by the start of its
id (game_ids.py), and the lobby's chat (chat.py)."""
