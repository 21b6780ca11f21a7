"""One server per data directory: two servers writing the same games would each act on a state the other changed.

The server holds an OS lock (flock on POSIX, msvcrt.locking on Windows) on a lock file in the data directory for as
long as it runs. The OS lets go of it when the process ends however it ends, so a killed server never leaves a stale
lock behind; the file itself stays, holding the last holder's process id for the message to a server refused.
Readers (`risc replay`) open the database read-only and take no lock.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

LOCK_NAME = "server.lock"


class DirectoryLocked(Exception):
    """Another process holds the data directory."""


def _try_lock(file: IO[str]) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            file.seek(0)  # msvcrt locks bytes from the current position
            msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError when held; flock is per open file, so a second open here is refused too
        return False
    return True


class DataDirLock:
    def __init__(self, data_dir: Path) -> None:
        """Take the lock on `data_dir`. Raises DirectoryLocked naming the directory if another server holds it."""
        self.path = data_dir / LOCK_NAME
        self._file: IO[str] | None = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
        if not _try_lock(self._file):
            try:
                self._file.seek(0)
                holder = self._file.read().strip()
            except OSError:  # Windows does not let others read a locked byte
                holder = ""
            self._file.close()
            self._file = None
            raise DirectoryLocked(
                f"another RISC server is running on the data directory {data_dir} (it holds "
                f"{self.path}{f', process {holder}' if holder.isdigit() else ''}): stop it "
                "first, or give this one another --data-dir"
            )
        self._file.seek(0)
        self._file.truncate()
        self._file.write(str(os.getpid()))
        self._file.flush()

    def release(self) -> None:
        """Let go of the directory (closing the file releases the lock)."""
        if self._file is not None:
            self._file.close()
            self._file = None
