"""`python -m client`: the same as `risc client`."""

from __future__ import annotations

import argparse
import sys

from client.main import add_arguments, run


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m client", description="Play RISC from a terminal.")
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
