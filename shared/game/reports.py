"""A turn's fights and moves told in a few lines, whatever the rule set: what the text client prints as a turn
resolves, where `report` prints the turn in full.

A big map's turn has dozens of fights and moves; a line each buried the player's own under everyone else's (a turn on
a 180-territory map printed over a hundred lines). So the brief report says first what concerns the viewer, a
fight in a few words each, grouped by the other side (`You lost 2 territories, to Bob: s4 (19 from s3 against 10, 1
left), s5 (...)`), then everything else in one line of counts (`Elsewhere: Bob took 6 (5 from Cy, 1 from neutral);
3 attacks failed; 34 moves, 120 units in all`). A rule set turns its own events into `Fight`s and `Move`s; the words
are the same in every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.game.presentation import Fragments, Palette, joined, plural, units


@dataclass(frozen=True)
class Fight:
    """One attack on one territory, fought to its end."""

    territory: str
    attacker: str
    defender: str | None
    """Who held it (None: nobody, neutral)."""
    attacking: int
    defending: int
    taken: bool
    left: int
    """Units in the territory afterwards: the attacker's survivors when taken, else the defenders left."""
    sources: tuple[str, ...] = ()
    """Where the attack came from, as far as the viewer was told."""

    def forces(self) -> str:
        came = f" from {' and '.join(self.sources)}" if self.sources else ""
        return f"{self.attacking}{came} against {self.defending}, {self.left} left"


@dataclass(frozen=True)
class Move:
    player: str
    units: int
    source: str
    target: str


def _by_side(fights: Sequence[Fight], side: str, palette: Palette, attacker: bool) -> Fragments:
    """Fights grouped by the other side, named once (`to Bob: s4 (19 from s3 against 10, 1 left), e10 (...); to
    Cy: ...`): `side` says how the other side is introduced ("to", "against", "from"), `attacker` whether it is
    the attacker (else the defender)."""

    def other(fight: Fight) -> str | None:
        return fight.attacker if attacker else fight.defender

    groups: list[Fragments] = []
    for whom in dict.fromkeys(other(f) for f in fights):
        theirs = [f for f in fights if other(f) == whom]
        groups.append(
            [
                ("", f"{side} "),
                *palette.name(whom),
                ("", ": "),
                *joined([[("", f"{f.territory} ({f.forces()})")] for f in theirs]),
            ]
        )
    return joined(groups, "; ")


def brief(fights: Sequence[Fight], moves: Sequence[Move], palette: Palette, you: str | None) -> Fragments:
    """The viewer's fights a few words each (what they lost first, then took, then held), their moves, then one
    line of counts for the rest; a spectator reads the counts alone."""
    out: Fragments = []
    mine = [f for f in fights if you is not None and you in (f.attacker, f.defender)]
    lost = [f for f in mine if f.defender == you and f.taken]
    held = [f for f in mine if f.defender == you and not f.taken]
    took = [f for f in mine if f.attacker == you and f.taken]
    failed = [f for f in mine if f.attacker == you and not f.taken]
    if lost:
        out += [
            ("class:error", f"You lost {plural(len(lost), 'territory', 'territories')}, "),
            *_by_side(lost, "to", palette, True),
            ("", ".\n"),
        ]
    if took:  # before what was held: a territory taken may then be held against a later attack of the turn
        out += [
            ("class:ok", f"You took {plural(len(took), 'territory', 'territories')}, "),
            *_by_side(took, "from", palette, False),
            ("", ".\n"),
        ]
    if held:
        out += [
            ("", f"You held {plural(len(held), 'territory', 'territories')}, "),
            *_by_side(held, "against", palette, True),
            ("", ".\n"),
        ]
    if failed:
        out += [
            ("", f"{plural(len(failed), 'attack')} of yours failed, "),
            *_by_side(failed, "against", palette, False),
            ("", ".\n"),
        ]
    own_moves = [m for m in moves if m.player == you]
    if own_moves:
        out.append(
            ("", "You moved " + ", ".join(f"{m.units} from {m.source} to {m.target}" for m in own_moves) + ".\n")
        )
    out += elsewhere(
        [f for f in fights if f not in mine],
        [m for m in moves if m.player != you],
        palette,
        "Elsewhere" if you is not None else "Fights",
    )
    return out


def elsewhere(fights: Sequence[Fight], moves: Sequence[Move], palette: Palette, heading: str) -> Fragments:
    """Fights and moves in one line of counts: who took how many from whom, how many attacks failed, how many
    moves (`report` tells each one)."""
    if not fights and not moves:
        return []
    parts: list[Fragments] = []
    attackers = list(dict.fromkeys(f.attacker for f in fights if f.taken))
    for attacker in attackers:
        taken = [f for f in fights if f.attacker == attacker and f.taken]
        losers = list(dict.fromkeys(f.defender for f in taken))
        if len(losers) == 1:
            whom: Fragments = [("", " from "), *palette.name(losers[0])]
        else:  # palette.name(None) is "neutral"
            whom = [
                ("", " ("),
                *joined(
                    [
                        [("", f"{sum(1 for f in taken if f.defender == loser)} from "), *palette.name(loser)]
                        for loser in losers
                    ],
                    ", ",
                ),
                ("", ")"),
            ]
        parts.append([*palette.name(attacker), ("", f" took {len(taken)}"), *whom])
    failed = sum(1 for f in fights if not f.taken)
    if failed:
        parts.append([("", f"{plural(failed, 'attack')} failed")])
    if moves:
        parts.append([("", f"{plural(len(moves), 'move')}, {units(sum(m.units for m in moves))} in all")])
    return [
        ("class:title", f"{heading}: "),
        *joined(parts, "; "),
        ("class:muted", " (report tells every one)"),
        ("", ".\n"),
    ]
