"""A part's calls back to what owns it, held weakly.

A match owns its keeper and the pace of its presence news, and each calls the match back. Held strongly, such a call
(a bound method, a closure over `self`) makes the match and its parts a cycle of references, which only the cycle
collector frees once the lobby lets the game go, and a server of thousands of games walks everything it holds whole
only rarely (server/collector.py). Held weakly, the match is freed by reference counting the moment it is let go.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import ParamSpec

P = ParamSpec("P")


def weakly(method: Callable[P, None]) -> Callable[P, None]:
    """A bound `method`, called while its object lives; once it is gone, a call does nothing."""
    held = weakref.WeakMethod(method)

    def call(*args: P.args, **kwargs: P.kwargs) -> None:
        found = held()
        if found is not None:
            found(*args, **kwargs)

    return call
