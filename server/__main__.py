"""`python -m server`: the same as `risc server`."""

from __future__ import annotations

import argparse
import sys

from server.app import add_arguments, run


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m server", description="Run a RISC game server.")
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
