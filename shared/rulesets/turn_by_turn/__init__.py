"""The turn-by-turn core classic Risk and the grid game share: one player acts at a time and each action resolves at
once with fresh dice, a taken territory waits for its move-in, and the turn passes round the seats.

Not a rule set of its own (the registry names none here): the two rule sets build on it, each keeping its own
board, orders, events and words.
"""
