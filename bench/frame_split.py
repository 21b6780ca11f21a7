"""Where the served server's event loop spends a frame: a py-spy profile split into the steps a frame goes through.

Run by hand on a profile of bench/server_load.py (`--profile FILE`: py-spy's collapsed stacks of the server process):
`python bench/frame_split.py FILE [--cpu-us-per-frame 65]`. Only the event loop's thread counts (the SQLite writer
thread's samples are told apart: py-spy counts its waits on the disk too). Each sample goes to the step of the
innermost frame of its stack that names one (the patterns below, tried from the leaf up), else to the event loop
itself. With --cpu-us-per-frame (the server's CPU time over the frames it carried, from the same run), each step's
share is also given in microseconds of a frame.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

STEPS: list[tuple[str, tuple[str, ...]]] = [
    ("idle: waiting in epoll", ("select (selectors.py", "EpollSelector.select", "Loop.run_forever (uvloop")),
    (
        "validate: the message's schema and the order's type (pydantic)",
        ("validate_python", "validate_json", "model_validate", "TypeAdapter.validate", "validate_strings"),
    ),
    (
        "decode: the frame's JSON, its size and nesting",
        ("parse_frame (server/frontier/frames.py", "loads (orjson", "batch_frame (server/frontier/frames.py"),
    ),
    (
        "check: the order against the rules, the command's decision",
        (
            "issue (server/core/playing.py",
            "read_order (server/core/playing.py",
            "commit (server/core/playing.py",
            "shared/game/turns.py",
            "check_order",
            "Table.evolve",
            "running (server/core/playing.py",
        ),
    ),
    ("resolve: the turn", ("_resolve_if_ready (server/core/playing.py", "resolution_entries (server/core/playing.py")),
    ("store: rows and the writer thread's round trip", ("server/storage/", "Runner._save", "server/match/keeping.py")),
    (
        "encode: replies, updates, views, patches, summaries",
        (
            "server/match/updates.py",
            "server/core/entries.py",
            "summary (server/core/table.py",
            "Table.status (server/core/table.py",
            "summary_status (server/core/table.py",
            "shared/protocol/messages.py",
            "shared/protocol/patch.py",
            "Runner._frames",
            "server/match/followers.py",
            "Runner._broadcast",
            "reply_text",
        ),
    ),
    (
        "send: writing frames (transport, websockets, the socket)",
        (
            "Connection._write_now",
            "Connection.send (server/frontier/transport.py",
            "_can_write_now",
            "Outbound.",
            "Connection._write",
            "websockets/asyncio/connection.py:send",
            "_SelectorSocketTransport.write",
            "UVStream.write",
        ),
    ),
    (
        "read: frames off the socket (websockets, transport)",
        (
            "Transport._serve",
            "data_received",
            "websockets/protocol.py",
            "websockets/frames.py",
            "websockets/streams.py",
            "_read_ready",
            "Connection.recv",
            "recv_messages",
        ),
    ),
    (
        "dispatch and the match's lock",
        (
            "dispatch (server/frontier/dispatch.py",
            "Playing.issue (server/match/playing.py",
            "Playing.commit (server/match/playing.py",
            "Transport._carry_out",
            "Lock.acquire",
            "Lobby.find",
            "TokenBucket",
        ),
    ),
]
WRITER = "risc-sqlite-writer"


def step_of(stack: list[str]) -> str:
    for frame in reversed(stack):
        for step, patterns in STEPS:
            if any(p in frame for p in patterns):
                return step
    return "the event loop: asyncio's callbacks, futures and tasks"


def split(path: Path) -> tuple[Counter[str], int, int]:
    steps: Counter[str] = Counter()
    loop = other = 0
    for line in path.read_text().splitlines():
        stack_text, _, count_text = line.rpartition(" ")
        stack, count = stack_text.split(";"), int(count_text)
        if stack[0].startswith("Thread._bootstrap"):  # another thread: the store's writer
            other += count
            continue
        loop += count
        steps[step_of(stack)] += count
    return steps, loop, other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--cpu-us-per-frame", type=float, default=None)
    args = parser.parse_args()
    steps, loop, other = split(args.profile)
    busy = loop - steps["idle: waiting in epoll"]
    print(f"event loop thread: {loop} samples ({busy} busy); other threads: {other} samples")
    print("| step | share of the loop's busy samples |" + (" µs a frame |" if args.cpu_us_per_frame else ""))
    print("|---|---|" + ("---|" if args.cpu_us_per_frame else ""))
    for step, count in steps.most_common():
        if step.startswith("idle"):
            continue
        share = count / max(1, busy)
        extra = f" {share * args.cpu_us_per_frame:.1f} |" if args.cpu_us_per_frame else ""
        print(f"| {step} | {share * 100:.1f} % |{extra}")
    print(f"(idle: {steps['idle: waiting in epoll'] / max(1, loop) * 100:.1f} % of the loop's samples)")


if __name__ == "__main__":
    main()
