"""Find and read a map: a bundled map's name, or the path of a file in any supported format."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shared.maps.conquest import read_conquest
from shared.maps.domination import read_domination
from shared.maps.findings import Finding, FindingCode, MapError, Severity, error
from shared.maps.limits import MAX_MAP_BYTES, too_large
from shared.maps.model import GameMap
from shared.maps.native import read_native
from shared.maps.validate import validate_map

Reader = Callable[[bytes], tuple[GameMap | None, list[Finding]]]

_HERE = Path(__file__).resolve().parent


def bundled_maps_dir() -> Path:
    """maps/ beside the packages in a source checkout; shared/bundled_maps inside an installed wheel."""
    for candidate in (_HERE.parent.parent / "maps", _HERE.parent / "bundled_maps"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the bundled maps folder is missing from this installation")


def bundled_map_names() -> list[str]:
    return sorted(p.stem for p in bundled_maps_dir().glob("*.toml"))


def _decode_text(data: bytes) -> str:
    """UTF-8 (with or without a BOM) where it decodes, else Latin-1, as real map files need."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _read_native_bytes(data: bytes) -> tuple[GameMap | None, list[Finding]]:
    return read_native(_decode_text(data))


def _sniff_format(path: Path, data: bytes) -> str:
    if path.suffix.lower() == ".toml":
        return "native"
    head = _decode_text(data[:65536]).lower()
    if "[territories]" in head:
        return "conquest"
    if "[countries]" in head or "[borders]" in head or "[continents]" in head:
        return "domination"
    if path.suffix.lower() == ".map":
        return "domination"
    return "native"


def _readers() -> dict[str, Reader]:
    return {"native": _read_native_bytes, "domination": read_domination, "conquest": read_conquest}


@dataclass(frozen=True)
class MapReport:
    """What reading and checking one file gave: the map (None when it does not parse) and every finding."""

    source: str
    format: str
    game_map: GameMap | None
    findings: list[Finding]

    @property
    def playable(self) -> bool:
        return self.game_map is not None and not any(f.severity is Severity.ERROR for f in self.findings)


def resolve_map_path(ref: str | Path) -> Path:
    """A bundled map's name ("seed") or a path; raises MapError naming the bundled maps when neither exists."""
    path = Path(ref)
    if path.is_file():
        return path
    bundled = bundled_maps_dir() / f"{ref}.toml"
    if isinstance(ref, str) and "/" not in ref and bundled.is_file():
        return bundled
    names = ", ".join(bundled_map_names())
    raise MapError(
        str(ref), [error(FindingCode.PARSE, f'no map file "{ref}" and no bundled map of that name (bundled: {names})')]
    )


def check_map_file(ref: str | Path) -> MapReport:
    """Read and validate without raising: the basis of `risc maps check` and of load_map."""
    path = resolve_map_path(ref)
    size = path.stat().st_size
    if size > MAX_MAP_BYTES:  # refused unread
        return MapReport(str(path), "unread", None, [dataclasses.replace(too_large(size), file=str(path))])
    with path.open("rb") as file:
        data = file.read(MAX_MAP_BYTES + 1)  # not more, should the file have grown meanwhile
    return check_map_bytes(str(path), data, path.suffix, path.stem)


def check_map_bytes(source: str, data: bytes, suffix: str = "", stem: str = "") -> MapReport:
    """Read and validate a map's bytes: `source` names it in findings (a file's path, an upload's name), `suffix`
    (".toml", ".map") helps tell the format, `stem` names a map whose file gives it no name."""
    if len(data) > MAX_MAP_BYTES:
        return MapReport(source, "unread", None, [dataclasses.replace(too_large(len(data)), file=source)])
    fmt = _sniff_format(Path(f"map{suffix}"), data)
    reader = _readers().get(fmt)
    if reader is None:
        return MapReport(source, fmt, None, [error(FindingCode.PARSE, f"{fmt} maps cannot be read yet")])
    game_map, findings = reader(data)
    if game_map is not None and not game_map.name:  # Conquest maps, and Domination maps without a `name` line
        game_map = dataclasses.replace(game_map, name=stem or "unnamed map")
    if game_map is not None:
        findings = findings + validate_map(game_map)
        if not any(f.severity is Severity.ERROR for f in findings):
            game_map = _without_self_borders(game_map)
    findings = [dataclasses.replace(f, file=source) for f in findings]
    return MapReport(source, fmt, game_map, findings)


def _without_self_borders(game_map: GameMap) -> GameMap:
    if not any(name in targets for name, targets in game_map.borders.items()):
        return game_map
    borders = {name: targets - {name} for name, targets in game_map.borders.items()}
    return dataclasses.replace(game_map, borders=borders)


def load_map(ref: str | Path) -> GameMap:
    """A playable map, or MapError with every finding: the one entry point the engine and server use."""
    report = check_map_file(ref)
    if not report.playable or report.game_map is None:
        raise MapError(report.source, report.findings)
    return report.game_map
