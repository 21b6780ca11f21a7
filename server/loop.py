"""Which event loop the server runs: uvloop where it is installed (the default on Linux and macOS), else asyncio's.

uvloop reads and writes sockets in C: under load it gives the server a fifth to a third more frames a second for the
same CPU (docs/performance.md). It is an optional dependency: installed with the project where it builds, and the
server runs the same on asyncio's own loop without it (`risc server --loop asyncio` chooses that one).
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

LOOPS = ("auto", "uvloop", "asyncio")


@dataclass(frozen=True)
class LoopChoice:
    name: str
    """What the server says it runs: "uvloop 0.23.0" or "asyncio"."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None
    """The loop's maker for asyncio.Runner; None for asyncio's own."""


def _uvloop() -> ModuleType | None:
    try:
        return importlib.import_module("uvloop")
    except ImportError:
        return None


def choose_loop(wanted: str = "auto", found: ModuleType | bool | None = True) -> LoopChoice:
    """The loop `wanted` names: "auto" takes uvloop where it is installed, else asyncio's; "uvloop" insists on it
    (ValueError without it). `found`: uvloop's module, None where it is missing (True: look for it)."""
    if wanted not in LOOPS:
        raise ValueError(f"--loop {wanted}: choose one of {', '.join(LOOPS)}")
    module = _uvloop() if found is True else found
    if wanted == "asyncio" or (wanted == "auto" and not isinstance(module, ModuleType)):
        return LoopChoice("asyncio", None)
    if not isinstance(module, ModuleType):
        raise ValueError("--loop uvloop: uvloop is not installed (pip install uvloop), or run with --loop asyncio")
    return LoopChoice(f"uvloop {getattr(module, '__version__', '')}".strip(), module.new_event_loop)
