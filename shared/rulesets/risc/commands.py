"""The commands a RISC player types, in every evolution: Evolution 1's `place`, `move` and `attack` (moves and attacks
of the evolutions name unit levels, N@LEVEL), Evolution 2's `upgrade` and `research`, Evolution 3's `spy` and `cloak`.
"""

from __future__ import annotations

from shared.game.presentation import ArgKind, OrderCommand

PLACE = OrderCommand(
    "place",
    ("p",),
    "place N TERRITORY...",
    "place 5 Narnia",
    "put N units of your pool on one of your territories, or spread them over several (name "
    "them all, or * for all yours); place rest TERRITORY puts what is left (placement)",
    (ArgKind.UNITS, ArgKind.OWN),
    ("placement",),
    repeat=True,
)
MOVE = OrderCommand(
    "move",
    ("m",),
    "move N FROM TO",
    "move 5 Narnia Oz",
    "move N units between your territories, through your own territories (Evolutions 2 and 3: "
    "the lowest levels first, or N@LEVEL such as 2@3)",
    (ArgKind.UNITS, ArgKind.OWN, ArgKind.TARGET),
    ("orders",),
)
ATTACK = OrderCommand(
    "attack",
    ("a",),
    "attack N FROM TO",
    "attack 10 Midkemia Scadrial",
    "attack an adjacent territory someone else holds (Evolutions 2 and 3: the lowest levels "
    "first, or N@LEVEL such as 2@3)",
    (ArgKind.UNITS, ArgKind.OWN, ArgKind.ENEMY),
    ("orders",),
)
UPGRADE = OrderCommand(
    "upgrade",
    ("u",),
    "upgrade N TERRITORY FROM TO",
    "upgrade 4 Narnia 0 2",
    "raise N units on your territory from level FROM to level TO, for technology (Evolutions 2 and 3)",
    (ArgKind.UNITS, ArgKind.OWN, ArgKind.NUMBER, ArgKind.NUMBER),
    ("orders",),
)
RESEARCH = OrderCommand(
    "research",
    (),
    "research [cloaking]",
    "research",
    "raise your maximum technology level by one, from the next turn; `research cloaking` learns cloaking (Evolution 3)",
    (ArgKind.CHOICE,),
    ("orders",),
    ("cloaking",),
)
SPY = OrderCommand(
    "spy",
    (),
    "spy N TERRITORY | spy N FROM TO",
    "spy 1 Narnia",
    "turn N level-0 units on your territory into spies, or move N spies from one territory to another (Evolution 3)",
    (ArgKind.UNITS, ArgKind.TERRITORY, ArgKind.TERRITORY),
    ("orders",),
)
CLOAK = OrderCommand(
    "cloak",
    (),
    "cloak TERRITORY",
    "cloak Narnia",
    "hide your territory from other players' sight for the next 3 turns (Evolution 3, once cloaking is researched)",
    (ArgKind.OWN,),
    ("orders",),
)

EVOLUTION_COMMANDS = {
    1: (PLACE, MOVE, ATTACK),
    2: (PLACE, MOVE, ATTACK, UPGRADE, RESEARCH),
    3: (PLACE, MOVE, ATTACK, UPGRADE, RESEARCH, SPY, CLOAK),
}
"""The orders of each evolution: Evolution 2 adds upgrades and research, Evolution 3 spies and cloaks."""
EVERY_COMMAND = EVOLUTION_COMMANDS[3]
"""Every RISC command: each evolution's presentation knows them all, so that one of another evolution is explained."""


def usage(command: OrderCommand) -> str:
    return f"usage: {command.usage}, e.g. {command.example}"
