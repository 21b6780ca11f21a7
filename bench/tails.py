"""Where a capacity step's slow turns came from: read what `bench/capacity.py --tails FILE` wrote.

Run by hand: `python bench/tails.py FILE [--over 100] [--bucket 0.5]`. For each step measured: the turns' p50, p99
and max, how many took over OVER ms and from which client process; the slowest turns (rule set, client process,
when); the stretches of BUCKET seconds whose slow turns stood out (their p90 over 60 % of OVER), with the client
process most of their slow turns came from; and every stall past 20 ms, the servers' (their event loop, their
collector's generations; where their loop was, the stacks seen most) and each client process's, and the disk's slow
flushes, as seconds into the window. A stretch of slow turns that follows one client process's stall is that process
reading its results late, not the server answering late.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


def _stalls(stalls: list[list[Any]], start: float) -> str:
    return " ".join(f"{at - start:.2f}s {took * 1000:.0f} ms {what}" for at, took, what in stalls) or "none"


def told(step: dict[str, Any], over: float, bucket: float) -> list[str]:
    turns = [(float(at), float(ms), str(kind), int(worker)) for at, ms, kind, worker in step["turns"]]
    if not turns:
        return [f"{step['setup']} at {step['games']:,} games: no turn measured"]
    start = turns[0][0]
    took = sorted(t[1] for t in turns)
    slow = [t for t in turns if t[1] > over]
    lines = [
        f"{step['setup']} at {step['games']:,} games: {len(turns):,} turns, p50 {statistics.median(took):.1f} ms, "
        f"p99 {took[min(len(took) - 1, int(len(took) * 0.99))]:.1f} ms, max {took[-1]:.0f} ms; {len(slow)} over "
        f"{over:g} ms, by client process: {dict(sorted(Counter(t[3] for t in slow).items()))}",
        "  slowest: "
        + ", ".join(
            f"{ms:.0f} ms ({kind}, client {worker}, {at - start:.2f}s)"
            for at, ms, kind, worker in sorted(turns, key=lambda t: -t[1])[:6]
        ),
    ]
    stretches: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for at, ms, _, worker in turns:
        stretches[int((at - start) / bucket)].append((ms, worker))
    for index in sorted(stretches):
        times = sorted(ms for ms, _ in stretches[index])
        p90 = times[int(len(times) * 0.9)]
        if p90 > 0.6 * over:
            whose = Counter(worker for ms, worker in stretches[index] if ms > over).most_common(1)
            lines.append(
                f"  {index * bucket:5.1f}s: {len(times)} turns, p50 {times[len(times) // 2]:.0f} ms, p90 {p90:.0f} ms"
                + (f", most slow ones from client {whose[0][0]} ({whose[0][1]})" if whose else "")
            )
    lines.append(f"  the servers' stalls: {_stalls(step.get('stalls', []), start)}")
    for worker, stalls in enumerate(step.get("players_stalls", [])):
        lines.append(f"  client {worker}'s stalls: {_stalls(stalls, start)}")
    stacks = sorted(step.get("stacks", {}).items(), key=lambda item: -item[1])
    for stack, seen in stacks[:5]:
        lines.append(
            f"  where a server's loop was while it stalled ({seen}): {' <- '.join(reversed(stack.split(';')))}"
        )
    flushes = step.get("flushes")
    if flushes and flushes.get("count"):
        slow_flushes = " ".join(f"{at - start:.2f}s {d * 1000:.0f} ms" for at, d in flushes["slow"]) or "none"
        lines.append(
            f"  the disk: {flushes['count']} flushes, median {flushes['median'] * 1000:.2f} ms, longest "
            f"{flushes['longest'] * 1000:.1f} ms; past 20 ms: {slow_flushes}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="what bench/capacity.py --tails wrote")
    parser.add_argument("--over", type=float, default=100.0, help="a slow turn takes over this many ms")
    parser.add_argument("--bucket", type=float, default=0.5, help="seconds of the stretches told apart")
    args = parser.parse_args()
    for line in args.file.read_text().splitlines():
        if line.strip():
            print("\n".join(told(json.loads(line), args.over, args.bucket)))


if __name__ == "__main__":
    main()
