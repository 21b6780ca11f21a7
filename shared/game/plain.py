"""How a rule set reads in the text client when it says nothing of its own: a command for each kind of order, its
fields as the command's words in their order, and every order, event and view as its fields say.

A new game is played at once this way (tests/toy_ruleset.py is); a presentation of its own (shared/rulesets/*/)
says it better. Everything is read from the rule set's order schema: nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from shared.game import grammar
from shared.game.grammar import ParseError
from shared.game.presentation import (
    COUNT_WORD,
    ArgKind,
    Context,
    Fragments,
    OrderCommand,
    Palette,
    Presentation,
    Shown,
    line,
)
from shared.maps.model import GameMap

if TYPE_CHECKING:
    from shared.game.ruleset import AnyRuleSet

Field = tuple[str, bool]
"""An order's field: its name, and whether it is a whole number."""


def order_fields(schema: dict[str, Any]) -> dict[str, list[Field]]:
    """Each kind of order in a rule set's order schema, with its fields in order (its `kind` left out)."""
    kinds: dict[str, list[Field]] = {}
    defs = schema.get("$defs", {})
    for variant in schema.get("oneOf", schema.get("anyOf", [schema])):
        body = defs.get(variant["$ref"].rsplit("/", 1)[-1], {}) if "$ref" in variant else variant
        properties = body.get("properties", {})
        kind = properties.get("kind", {}).get("const", properties.get("kind", {}).get("default"))
        if kind is not None:
            kinds[str(kind)] = [
                (name, spec.get("type") == "integer") for name, spec in properties.items() if name != "kind"
            ]
    return kinds


def in_words(data: dict[str, Any]) -> str:
    """An order, event or view as its fields say: "add 3", "added: player ann, amount 3, total 12"."""
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in data.items() if key != "kind")


class PlainPresentation(Presentation):
    def __init__(self, ruleset: AnyRuleSet) -> None:
        self.ruleset = ruleset
        self.fields = order_fields(ruleset.order_type.json_schema())
        self.commands = tuple(self._command(kind, fields) for kind, fields in self.fields.items())

    @staticmethod
    def _command(kind: str, fields: list[Field]) -> OrderCommand:
        usage = " ".join([kind, *(name.upper() for name, _ in fields)])
        example = " ".join([kind, *("1" if number else name for name, number in fields)])
        args = tuple(ArgKind.NUMBER if number else ArgKind.TERRITORY for _, number in fields)
        return OrderCommand(kind, (), usage, example, f"a {kind} order", args)

    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        fields = self.fields[command.name]
        usage = f"usage: {command.usage}, e.g. {command.example}"
        if len(args) != len(fields):
            return ParseError(usage)
        data: dict[str, Any] = {"kind": command.name}
        for (name, number), word in zip(fields, args, strict=True):
            value = grammar.count(word, name.replace("_", " "), usage) if number else word
            if isinstance(value, ParseError):
                return value
            data[name] = value
        try:
            return [self.ruleset.load_order(data)]
        except ValidationError as exc:
            return ParseError(f"{exc.errors()[0]['msg']}; {usage}")

    def describe(self, order: Any) -> str:
        return self._said(self.ruleset.dump_order(order))

    def describe_offer(self, order: Any, count_field: str | None) -> str:
        """The count said as N in the order's fields (the order itself would not dump with a word for a number)."""
        data = self.ruleset.dump_order(order)
        if count_field in data:
            data[count_field] = COUNT_WORD
        return self._said(data)

    @staticmethod
    def _said(data: dict[str, Any]) -> str:
        return " ".join([str(data["kind"]), *(str(value) for key, value in data.items() if key != "kind")])

    def events(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        out: Fragments = []
        for event in events:
            data = self.ruleset.dump_event(event)
            out += line(("", f"{data['kind'].replace('_', ' ')}: {in_words(data)}"))
        return out

    def draw(self, asked: Shown) -> Fragments:
        return line(("", in_words(self.ruleset.dump_view(asked.view))))

    def summary(self, view: Any, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        return self.board(view, game_map, palette, you)
