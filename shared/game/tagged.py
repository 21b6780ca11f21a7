"""Orders and events: frozen values told apart by their `kind`, and how an order reads.

Every rule set declares its orders and events alike, `class Attack(Order, kind="attack")` with its fields below; the
base makes each a frozen dataclass whose last field, `kind` (keyword-only, so a subclass may add fields), holds that
word, typed as its Literal so that pydantic tells a union of them apart (`Field(discriminator="kind")`) and JSON
carries it. A subclass that names no kind keeps its parent's (classic Risk's elimination says who took the last
country, and is still a `player_eliminated`).

An order says how it reads, once, as templates of its fields: `said`, the command a player types ("attack {source}
{target} {dice}"), and `worded`, a person's words for a page that offers it or says it was done (`said` unless
given). `said_of` and `words_of` fill them in for every rule set: a field in braces is the field's value (a tuple's
items joined by spaces); a name that is no field is the order's property of that name, for words that reckon with
the values ("1 spy", "2 spies").
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, dataclass_transform


@dataclass_transform(frozen_default=True)
class Tagged:
    """A frozen dataclass with a `kind` (see the module's words)."""

    kind: ClassVar[str]

    def __init_subclass__(cls, *, kind: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind is not None:
            cls.__annotations__ = {**inspect.get_annotations(cls), "kind": Literal[kind]}
            setattr(cls, "kind", dataclasses.field(default=kind, kw_only=True))  # noqa: B010 (a field, not a str)
        dataclasses.dataclass(frozen=True)(cls)


class Order(Tagged):
    """An order of a rule set, with its words (see the module's words)."""

    said: ClassVar[str] = "{kind}"
    """The command a player types for it."""
    worded: ClassVar[str | None] = None
    """A person's words for it; None: as `said`."""


class _Fields(Mapping[str, Any]):
    """An order's fields, and its properties, as `str.format_map` reads them."""

    def __init__(self, order: Order) -> None:
        self.order = order

    def __getitem__(self, name: str) -> Any:
        value = getattr(self.order, name)
        return " ".join(str(item) for item in value) if isinstance(value, tuple) else value

    def __iter__(self) -> Any:
        return iter(f.name for f in dataclasses.fields(self.order))

    def __len__(self) -> int:
        return len(dataclasses.fields(self.order))


def said_of(order: Order) -> str:
    """The order as a player types it: its `said` filled in."""
    return order.said.format_map(_Fields(order))


def words_of(order: Order) -> str:
    """The order in a person's words: its `worded` (else its `said`) filled in."""
    return (order.worded or order.said).format_map(_Fields(order))
