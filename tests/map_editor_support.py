"""Helpers for the map editor's tests: sessions driven line by line, and the real map files of ../shared/maps."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from client.map_editor import look_at_picture
from shared.maps import GameMap, check_map_file
from shared.maps.editor import Action, EditorState, Reply, new_map, opened_map, picture_taken, run_line
from shared.maps.saving import write_atomically
from shared.maps.validate import MapRules

SHARED_MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"


def shared_maps() -> Path:
    """../shared/maps, or a failure that says it is missing: the real-map tests must not pass by skipping."""
    assert SHARED_MAPS.is_dir(), f"the real map files are missing: {SHARED_MAPS} (../shared/maps from the project root)"
    return SHARED_MAPS


MISSING = "(../shared/maps is missing)"


def valid_real_maps_or_missing() -> list[str]:
    """For parametrising at collection: the valid maps, or one stand-in whose test then fails and says why, since
    an empty parameter list would make pytest skip the test."""
    return valid_real_maps() if (SHARED_MAPS / "README.md").is_file() else [MISSING]


def valid_real_maps() -> list[str]:
    """The files the README's table calls VALID (its verdict column), as paths relative to ../shared/maps."""
    readme = shared_maps() / "README.md"
    assert readme.is_file(), f"{readme} is missing"
    found: list[str] = []
    folder = ""
    columns: list[str] = []
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            folder = line[3:].strip().rstrip("/")
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "verdict" in cells:
            columns = cells
        elif columns and len(cells) == len(columns) and cells[columns.index("verdict")].startswith("VALID"):
            found.append(f"{folder}/{cells[columns.index('file')]}")
    assert found, f"no VALID map found in the table of {readme}"
    return found


@dataclass
class Session:
    """An editor session as a person drives it: each line through the pure core, saves written for real."""

    state: EditorState
    replies: list[Reply] = field(default_factory=list)

    @classmethod
    def new(cls, path: Path, rules: MapRules = MapRules.COURSE) -> Session:
        return cls(new_map(path, rules))

    @classmethod
    def open(cls, path: Path, rules: MapRules = MapRules.COURSE) -> Session:
        state = opened_map(path, check_map_file(path), rules)
        assert state is not None, f"{path} holds no map"
        return cls(state)

    def run(self, line: str) -> Reply:
        reply = run_line(self.state, line)
        assert reply is not None, f"{line!r} is not a command"
        if reply.action is Action.LOOK_AT_PICTURE:  # the file named looked at as the shell does
            assert reply.picture is not None
            reply = picture_taken(self.state, reply.picture, look_at_picture(reply.picture.path))
        if reply.action is Action.SAVE:
            assert reply.save is not None
            assert SHARED_MAPS not in reply.save.path.resolve().parents, "the real maps are never written"
            write_atomically(reply.save.path, reply.save.data)
            reply = Reply(reply.save.after, reply.save.lines)
        self.state = reply.state
        self.replies.append(reply)
        return reply

    def ok(self, line: str) -> str:
        """Run a line that must succeed; its reply as one text."""
        reply = self.run(line)
        assert reply.ok, f"{line!r} failed: {reply.lines}"
        return "\n".join(reply.lines)

    def fails(self, line: str) -> str:
        """Run a line that must fail and leave the map as it was; its reply as one text."""
        before = self.state.draft
        reply = self.run(line)
        assert not reply.ok, f"{line!r} succeeded: {reply.lines}"
        assert self.state.draft == before
        return "\n".join(reply.lines)

    @property
    def map(self) -> GameMap:
        return self.state.draft


def two_way(game_map: GameMap) -> set[frozenset[str]]:
    """The borders as unordered pairs (every editor border goes both ways)."""
    return {frozenset((a, b)) for a in game_map.names for b in game_map.neighbours(a) if a != b}
