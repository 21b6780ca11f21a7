"""The frontier: where the network meets the server. Connections and their limits (transport.py), a frame read into a
validated message (frames.py), a message handed to the lobby or its game (dispatch.py), the web page's files
(web.py), which pages may connect (origins.py), the addresses read out to the table (addresses.py), wrong server
passwords per address (guesses.py), and memory given back after slow readers are closed (memory.py). Nothing here
knows a game's rules."""
