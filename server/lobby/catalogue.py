"""The maps a server offers, by id, and maps uploaded by a game's creator.

A client never names a file: it picks a map of the catalogue by id (the bundled maps, and the maps in the folders
the operator gives with `risc server --maps DIR`), or uploads a map file's text, which is read and checked like any
file and refused with the findings when it cannot be played. Every catalogue map is read once, when the server
starts; nothing a client sends makes the server open a path. A map read without coordinates is laid out then
(shared/maps/layout.py), so the map a game's followers are sent always says where to draw each territory.

A catalogue map may name a picture to be drawn under it (shared/maps/pictures.py): a file beside the map, named
alone, read once with the map, checked to be a picture of a size a browser can draw, and kept in memory (all of them
together within MAX_PICTURES_BYTES). The web page asks for it by the map's id (server/frontier/pictures.py), so a
request names a map, never a file.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from server.refusal import Refusal
from shared.maps.findings import Severity
from shared.maps.layout import has_positions, with_positions
from shared.maps.limits import MAX_MAP_BYTES
from shared.maps.loader import MapReport, bundled_maps_dir, check_map_bytes
from shared.maps.model import GameMap
from shared.maps.pictures import MAX_PICTURE_BYTES, PictureFacts, name_problem, read_picture
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import MapInfo, MapPicture

logger = logging.getLogger("risc.server")

MAP_SUFFIXES = (".toml", ".map")
FINDINGS_SHOWN = 6
MAX_PICTURES_BYTES = 64 * 1024 * 1024
"""The catalogue's pictures together: past this, a map is offered without its picture (and the log says so)."""


@dataclass(frozen=True)
class CataloguePicture:
    """A catalogue map's picture, read when the server started: its bytes, its kind and size, its ETag."""

    data: bytes
    facts: PictureFacts
    etag: str


@dataclass(frozen=True)
class CatalogueMap:
    info: MapInfo
    game_map: GameMap
    picture: CataloguePicture | None = None


def _map_id(stem: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.")[:56] or "map"
    candidate, number = base, 2
    while candidate.casefold() in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate.casefold())
    return candidate


def _picture_file(path: Path, name: str) -> bytes | str:
    """The bytes of the picture `name` beside the map file at `path`, or why it cannot be had: a name alone (never a
    folder), a regular file whose real place is that folder, no larger than a picture may be."""
    problem = name_problem(name)
    if problem is not None:
        return problem
    try:
        folder = path.parent.resolve(strict=True)
        found = (folder / name).resolve(strict=True)
        if found.parent != folder or not found.is_file():
            return f'"{name}" is not a file beside the map'
        size = found.stat().st_size
        if size > MAX_PICTURE_BYTES:
            return f'"{name}" has {size:,} bytes; a map\'s picture may have at most {MAX_PICTURE_BYTES:,}'
        return found.read_bytes()
    except OSError as exc:
        return f'"{name}" cannot be read ({exc.strerror or exc})'


def findings_text(report: MapReport) -> str:
    """The reasons a map cannot be played, as a few sentences naming the territories and continents concerned."""
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    shown = "; ".join(f.message for f in errors[:FINDINGS_SHOWN])
    more = f" (and {len(errors) - FINDINGS_SHOWN} more)" if len(errors) > FINDINGS_SHOWN else ""
    return shown + more if shown else "it cannot be read"


class Catalogue:
    def __init__(self, folders: Sequence[Path] = (), *, bundled: bool = True) -> None:
        self._maps: dict[str, CatalogueMap] = {}
        self._picture_bytes = 0
        taken: set[str] = set()
        sources: list[tuple[Path, str]] = []
        if bundled:
            sources += [(p, "bundled") for p in sorted(bundled_maps_dir().glob("*.toml"))]
        for folder in folders:
            sources += [
                (p, "server") for p in sorted(folder.iterdir()) if p.is_file() and p.suffix.lower() in MAP_SUFFIXES
            ]
        for path, source in sources:
            self._add(path, source, taken)

    def _add(self, path: Path, source: str, taken: set[str]) -> None:
        try:
            if path.stat().st_size > MAX_MAP_BYTES:  # not read: the largest real maps are a few tens of kilobytes
                logger.warning("map %s left out of the catalogue: larger than %s bytes", path, f"{MAX_MAP_BYTES:,}")
                return
            report = check_map_bytes(path.name, path.read_bytes(), path.suffix.lower(), path.stem)
        except OSError as exc:
            logger.warning("map %s left out of the catalogue: %s", path, exc)
            return
        if not report.playable or report.game_map is None:
            logger.warning("map %s left out of the catalogue: %s", path, findings_text(report))
            return
        coordinates = has_positions(report.game_map)
        game_map = with_positions(report.game_map)
        map_id = _map_id(path.stem, taken)
        picture = self._picture(path, game_map) if coordinates else None  # laid out here: not measured on one
        self._maps[map_id] = CatalogueMap(
            MapInfo(
                id=map_id,
                name=game_map.name,
                territories=len(game_map.territories),
                continents=len(game_map.continents),
                source=source,
                coordinates=coordinates,
                picture=picture is not None,
            ),
            game_map,
            picture,
        )

    def _picture(self, path: Path, game_map: GameMap) -> CataloguePicture | None:
        """The picture the map at `path` names, read from beside it, or None (logged) where it cannot be shown."""
        name = game_map.details.picture
        if name is None:
            return None
        found = _picture_file(path, name)
        if isinstance(found, str):
            logger.warning("map %s is offered without its picture: %s", path, found)
            return None
        if len(found) + self._picture_bytes > MAX_PICTURES_BYTES:
            logger.warning(
                "map %s is offered without its picture: the maps' pictures together may have at most %s bytes",
                path,
                f"{MAX_PICTURES_BYTES:,}",
            )
            return None
        facts = read_picture(found)
        if isinstance(facts, str):
            logger.warning("map %s is offered without its picture %s: %s", path, name, facts)
            return None
        self._picture_bytes += len(found)
        return CataloguePicture(found, facts, '"' + hashlib.sha256(found).hexdigest()[:32] + '"')

    def picture(self, map_id: str) -> CataloguePicture | None:
        """The picture of the map with exactly this id, if it has one."""
        found = self._maps.get(map_id)
        return None if found is None else found.picture

    def picture_for(self, map_id: str | None, game_map: GameMap) -> MapPicture | None:
        """What a game's followers are told of its picture: the catalogue map's, where the game is played on that
        map as the catalogue holds it (an uploaded map, or one the catalogue changed since, has none)."""
        found = self._maps.get(map_id) if map_id is not None else None
        if found is None or found.picture is None or found.game_map != game_map:
            return None
        facts = found.picture.facts
        return MapPicture(url=f"/maps/{map_id}/picture", width=facts.width, height=facts.height)

    def infos(self) -> list[MapInfo]:
        return [m.info for m in self._maps.values()]

    def ids(self) -> list[str]:
        return list(self._maps)

    def get(self, map_id: str) -> GameMap:
        found = self._maps.get(map_id)
        if found is None:
            lowered = {k.casefold(): v for k, v in self._maps.items()}
            found = lowered.get(map_id.casefold())
        if found is None:
            raise Refusal(
                ErrorCode.BAD_MAP,
                f'this server has no map "{map_id[:64]}" (its maps: '
                f"{', '.join(self._maps) or 'none'}); or upload a map file",
                field="settings.map",
            )
        return found.game_map


def read_upload(name: str, text: str) -> GameMap:
    """An uploaded map file's text, read and checked; refused with the findings when it cannot be played."""
    suffix = Path(name).suffix.lower()
    stem = Path(name).stem or "uploaded map"
    report = check_map_bytes(name, text.encode("utf-8"), suffix if suffix in MAP_SUFFIXES else "", stem)
    if not report.playable or report.game_map is None:
        raise Refusal(
            ErrorCode.BAD_MAP,
            f"the uploaded map {name} cannot be played: {findings_text(report)}",
            field="map_upload.text",
        )
    return with_positions(report.game_map)
