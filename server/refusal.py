"""A request that cannot be granted: raised before anything changes, so a refusal changes nothing."""

from __future__ import annotations

from shared.game.errors import RuleError


class Refusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @classmethod
    def of(cls, error: RuleError) -> Refusal:
        return cls(error.code, error.message)


class Redirect(Exception):
    """The request is about a game another node plays: the client is sent there (a `redirect` message). `url`: the
    owner's address, None while it is not known yet (the transport looks it up)."""

    def __init__(self, game_id: str, url: str | None) -> None:
        super().__init__(f"game {game_id} is played by another node")
        self.game_id = game_id
        self.url = url
