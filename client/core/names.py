"""Whether a player name will do, said before the server is asked: the command line and the prompt check it alike."""

from __future__ import annotations

from pydantic import TypeAdapter, ValidationError

from client import commands as cmd
from shared.protocol import wording
from shared.protocol.lobby import PlayerName

_NAME: TypeAdapter[str] = TypeAdapter(PlayerName)


def name_problem(name: str) -> str | None:
    """Why this player name will not do, said before asking the server: one the server would refuse, or one that
    looks like a command (`join 6da` typed where the client asked for a name), which other players would read as
    one."""
    try:
        _NAME.validate_python(name)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        if errors and errors[0].get("type") == "value_error":  # a character players could not see, said by name
            return wording.plain(errors[0])
        return "a name has 1 to 20 letters, digits, spaces, . ' - or _, and does not start or end with a space"
    words = name.casefold().split()
    commands = {word for spec in cmd.SPECS for word in (spec.name, *spec.aliases)}
    if words and (name.casefold() in commands or (words[0] in commands and len(words) > 1)):
        return (
            f'"{name}" looks like a command, not a name: type the name the other players will know you by '
            "(such as Alice); commands come after, at the lobby> prompt"
        )
    return None
