"""A request that cannot be granted: raised before anything changes, so a refusal changes nothing."""

from __future__ import annotations

from shared.game.errors import RuleError


class Refusal(Exception):
    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        """The field of the refused message at fault, as a path (`order.units`), when one is."""

    @classmethod
    def of(cls, error: RuleError) -> Refusal:
        return cls(error.code, error.message)
