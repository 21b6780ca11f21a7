"""One line per notable event on stderr: games created, players joining, turns resolved, errors."""

from __future__ import annotations

import logging
import sys


def setup_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%Y-%m-%d %H:%M:%S"))
    root = logging.getLogger("risc")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
    # The websockets library logs every connection at INFO; only its warnings are news here.
    logging.getLogger("websockets").setLevel(logging.WARNING)
