"""Challenges waiting for an answer (docs/ratings.md, "Challenges"): kept in the store beside the games, so that an
invitation outlives a restart as the game it invites to does, and any node answers it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True)
class Invitation:
    """`account` is invited to sit in `game_id` by the player named `by`."""

    game_id: str
    account: str
    by: str


class InvitationStore(ABC):
    @abstractmethod
    async def invite(self, invitation: Invitation) -> None:
        """Keep an invitation (the same one again changes nothing)."""

    @abstractmethod
    async def invitations(self, account: str) -> list[Invitation]:
        """The invitations waiting for `account`'s answer, by game id."""

    @abstractmethod
    async def answer(self, game_id: str, account: str) -> Invitation | None:
        """Drop an invitation being answered; None if there is none."""


class MemoryInvitations(InvitationStore):
    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], Invitation] = {}

    async def invite(self, invitation: Invitation) -> None:
        self._kept.setdefault((invitation.game_id, invitation.account), invitation)

    async def invitations(self, account: str) -> list[Invitation]:
        return [i for (_, a), i in self._kept.items() if a == account]

    async def answer(self, game_id: str, account: str) -> Invitation | None:
        return self._kept.pop((game_id, account), None)
