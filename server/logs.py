"""One line per notable event on stderr: games created, players joining, turns resolved, errors.

On a server of several nodes every line names its node (`[node-2]`), so that the lines of nodes gathered in one place
still say where each came from; `--log-format json` writes each line as one JSON object (time, level, node, logger,
message, and the exception's trace when there is one), for log collectors.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Literal

LogFormat = Literal["text", "json"]
FORMATS: tuple[LogFormat, ...] = ("text", "json")


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def __init__(self, node: str | None) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}",
            "level": record.levelname,
            "node": self.node,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def setup_logging(level: int = logging.INFO, *, node: str | None = None, log_format: LogFormat = "text") -> None:
    """The server's log on stderr; `node`: the node every line names (a server of several nodes)."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonFormatter(node))
    else:
        named = f"[{node}] " if node else ""
        handler.setFormatter(
            logging.Formatter(f"%(asctime)s %(levelname)s {named.replace('%', '%%')}%(message)s", "%Y-%m-%d %H:%M:%S")
        )
    root = logging.getLogger("risc")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
    # The websockets library logs every connection at INFO; only its warnings are news here.
    logging.getLogger("websockets").setLevel(logging.WARNING)
    # psycopg's pool says when it drops a broken connection: the node's own line says what happened.
    logging.getLogger("psycopg").handlers[:] = [handler]
    logging.getLogger("psycopg").propagate = False
