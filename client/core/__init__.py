"""The text client's decisions, pure: what the player typed and what the server said in; what to show, what to ask,
what to send out. No prompt_toolkit, no waiting, no socket and no file: a decision is a plan (client/core/effects.py)
that yields each effect and is handed back its answer, run by the terminal (client/app.py) and by the tests alike.

  effects.py   the effects a plan yields (show, ask, a request, a seat to keep), and the request vocabulary
  state.py     what the decisions read and keep: the game on screen, those parked, what was told of each
  news.py      what the server says unasked: updates (held while a command is answered), notices, the link
  lobby.py     starting, names, the lists, creating, joining, watching and resuming, the game put on screen
  account.py   signing up, in and out, the password, the sessions; a session that ends elsewhere
  home.py      the account's games across the server, numbered to open
  playing.py   the game on screen: orders, what is shown of it, chat, resigning, rematches
  commands.py  a typed line to the plan that answers it
  paging.py    a long answer a screen at a time, in a terminal
  status.py    the prompt and the status bar
"""
