"""Giving freed memory back to the operating system.

CPython frees the objects a closed connection held (its queued frames), but the C allocator under it keeps freed
memory for reuse rather than return it: a server that once held a few hundred megabytes for clients that stopped
reading would hold them for the rest of its life. And a closed connection leaves reference cycles (its tasks,
exceptions and their tracebacks) that only the cycle collector frees, which runs when objects are allocated, not
when a server goes quiet. So: collect, then trim. glibc's malloc_trim returns what it can; elsewhere (musl, macOS,
Windows) there is nothing to call, and only the collection is done.
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
if sys.platform.startswith("linux"):
    try:
        _trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        _trim = None


def give_memory_back() -> bool:
    """Free what only cycles hold, and return the free memory of the C heap to the OS; False where the platform has
    no way to return it. Takes milliseconds (a full collection): call it after a large release, not often."""
    gc.collect()
    if _trim is None:
        return False
    _trim(0)
    return True
