"""Saving a map: which format a file gets, what that format cannot hold, and writing it without risk.

The counterpart of loader.py. Rendering is pure (a map and a format give bytes); write_atomically is the one place
that touches the disk, so that a crash or a full disk in the middle of a save never leaves half a map where the
old one was: the bytes go to a temporary file beside the target, reach the disk, and only then take its name.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from shared.maps.conquest import read_conquest
from shared.maps.conquest_writer import conquest_problems, write_conquest
from shared.maps.domination import read_domination
from shared.maps.domination_writer import domination_problems, write_domination
from shared.maps.findings import Finding, FindingCode, warning
from shared.maps.model import GameMap
from shared.maps.native import read_native, write_native


class MapFormat(StrEnum):
    NATIVE = "native"
    DOMINATION = "domination"
    CONQUEST = "conquest"

    @property
    def label(self) -> str:
        return "native" if self is MapFormat.NATIVE else self.value.capitalize()


@dataclass(frozen=True)
class FormatError:
    """Why a file cannot be written in the format asked for."""

    message: str


_FORMAT_WORDS = {
    "native": MapFormat.NATIVE,
    "toml": MapFormat.NATIVE,
    "risc": MapFormat.NATIVE,
    "domination": MapFormat.DOMINATION,
    "conquest": MapFormat.CONQUEST,
}


def parse_format(word: str) -> MapFormat | None:
    """A format by name, ignoring case; a unique prefix is enough (`dom`)."""
    wanted = word.strip().casefold()
    found = {fmt for name, fmt in _FORMAT_WORDS.items() if wanted and name.startswith(wanted)}
    return found.pop() if len(found) == 1 else None


def choose_format(path: Path, requested: MapFormat | None, source: MapFormat | None) -> MapFormat | FormatError:
    """The format a file is written in, or why that cannot be.

    A `.toml` file is native and a native map is a `.toml` file, because that is how the loader tells them
    apart; any other name gets the format asked for, else the format the map was read from when that was a .map
    format, else Domination (the format of the course projects' maps).
    """
    is_toml = path.suffix.lower() == ".toml"
    if requested is not None:
        if is_toml and requested is not MapFormat.NATIVE:
            return FormatError(
                f"{path.name} would be read back as a native map: give a name ending in .map for {requested.label}"
            )
        if requested is MapFormat.NATIVE and not is_toml:
            return FormatError(f"a native map is read only from a .toml file, not {path.name}")
        return requested
    if is_toml:
        return MapFormat.NATIVE
    if source in (MapFormat.DOMINATION, MapFormat.CONQUEST):
        return source
    return MapFormat.DOMINATION


def _not_kept(game_map: GameMap, fmt: MapFormat) -> list[str]:
    """What the map holds that a file in `fmt` cannot, in words; nothing the rules need is among it."""
    lost: list[str] = []
    details = game_map.details
    if fmt is not MapFormat.NATIVE:
        lost += [f"the starting groups for {n} players" for n in sorted(game_map.starting_groups)]
        sized = [t.name for t in game_map.territories if t.size != 1]
        if sized:
            lost.append(f"the sizes of {len(sized)} territories")
        fractional = [t.name for t in game_map.territories for v in (t.x, t.y) if v is not None and v != round(v)]
        if fractional:
            lost.append("fractions of pixels in positions (rounded)")
    if fmt is MapFormat.CONQUEST and game_map.description and details.source != "conquest":
        lost.append("the description")
    if details.source == "domination" and fmt is not MapFormat.DOMINATION:
        files = [key for key, _ in details.files if key != "pic"]  # the picture is kept in every format
        if files:
            lost.append("Domination's [files] entries (" + ", ".join(files) + ")")
        if details.colours:
            lost.append("the continents' colours")
        if details.properties:
            lost.append("the lines before [files] (" + ", ".join(key for key, _ in details.properties) + ")")
    settings = [key for key, _ in details.properties if key.casefold() != "image"]  # the picture is kept
    if details.source == "conquest" and fmt is not MapFormat.CONQUEST and settings:
        lost.append("Conquest's [Map] settings (" + ", ".join(settings) + ")")
    return lost


def format_findings(game_map: GameMap, fmt: MapFormat) -> list[Finding]:
    """What stops the map being written in `fmt` (errors), and what changes or is left out (warnings)."""
    findings: list[Finding] = []
    if fmt is MapFormat.DOMINATION:
        findings += domination_problems(game_map)
    elif fmt is MapFormat.CONQUEST:
        findings += conquest_problems(game_map)
    lost = _not_kept(game_map, fmt)
    if lost:
        findings.append(warning(FindingCode.FORMAT_LIMIT, f"not kept in the {fmt.label} format: " + "; ".join(lost)))
    return findings


def render_map(game_map: GameMap, fmt: MapFormat, path: Path) -> bytes:
    """The bytes of `path` holding the map in `fmt`; raises ValueError for a map format_findings refuses."""
    if fmt is MapFormat.DOMINATION:
        return write_domination(game_map)
    if fmt is MapFormat.CONQUEST:
        return write_conquest(game_map, image=f"{path.stem}.bmp")
    return write_native(game_map).encode("utf-8")


def read_rendered(data: bytes, fmt: MapFormat, path: Path) -> GameMap | None:
    """The map as reading `path` back will give it (names as the format holds them, a position for every
    territory, a name from the file where the format has none): what the editor holds once it has saved."""
    if fmt is MapFormat.DOMINATION:
        game_map, _ = read_domination(data)
    elif fmt is MapFormat.CONQUEST:
        game_map, _ = read_conquest(data)
    else:
        game_map, _ = read_native(data.decode("utf-8"))
    if game_map is not None and not game_map.name:
        game_map = dataclasses.replace(game_map, name=path.stem)
    return game_map


def write_atomically(path: Path, data: bytes) -> None:
    """Replace `path` by `data` all at once: a reader sees the old file or the new one, never a part.

    The temporary file lives in the target's folder (os.replace is atomic only within one file system) and is
    created with the usual permissions (0666 less the umask), so the map ends as readable as any new file. A
    symbolic link is followed, so that the file it points to is the one replaced. On any failure the temporary
    file is removed and the old file is left as it was.
    """
    target = Path(os.path.realpath(path))
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if target.exists():
            os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Make the new name itself durable; not every system can open a folder, and the file is written anyway."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
