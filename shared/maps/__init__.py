"""Maps: the model, the readers (native, Domination, Conquest), validation and starting groups."""

from shared.maps.findings import Finding, FindingCode, MapError, Severity
from shared.maps.loader import MapReport, bundled_map_names, check_map_file, load_map
from shared.maps.model import Continent, FileDetails, GameMap, Territory, build_map

__all__ = [
    "Continent",
    "FileDetails",
    "Finding",
    "FindingCode",
    "GameMap",
    "MapError",
    "MapReport",
    "Severity",
    "Territory",
    "build_map",
    "bundled_map_names",
    "check_map_file",
    "load_map",
]
