"""One game's single owner, the match: the runner around the pure decisions of server/core/.

Its parts, each a module of its own: lifecycle.py (`Match` put together: made, restored, closed), runner.py (what
every command shares: a decision saved, made current, told and timed), seating.py (who sits and watches, and their
chat), playing.py (orders, commits, resigning, a computer's seat), handing_on.py (hand-over votes, rematches),
followers.py (who follows the game and how an update reaches them), keeping.py (the writes to the store),
answers.py (requests sent again), timing.py (the turn's timer and the pace of presence news).
"""

from server.match.followers import Followed, Subscriber
from server.match.lifecycle import RESUME_EVENT_LIMIT, Match, RematchFactory

__all__ = ["RESUME_EVENT_LIMIT", "Followed", "Match", "RematchFactory", "Subscriber"]
