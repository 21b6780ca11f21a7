"""The pictures of the catalogue's maps over plain HTTP: GET /maps/ID/picture, for the web page's board.

A request names a map of the catalogue by its id, never a file: the id is looked up among the maps the server read
when it started, and the picture sent is the one read then from beside that map (server/lobby/catalogue.py). An id
is matched exactly, with no decoding, so no spelling of a path can reach anything else; anything else under /maps/
is a 404.
"""

from __future__ import annotations

import re

from websockets.http11 import Request, Response

from server.frontier.web import WebFile, file_response, not_found
from server.lobby.catalogue import Catalogue

PREFIX = "/maps/"
_PICTURE = re.compile(r"/maps/([A-Za-z0-9_.-]{1,64})/picture")


def is_picture_request(request: Request) -> bool:
    return request.path.startswith(PREFIX)


def picture_response(request: Request, catalogue: Catalogue) -> Response:
    """The picture of the catalogue map a GET names by its id, or a 404 that says there is none."""
    path = request.path.split("?", 1)[0]
    found = _PICTURE.fullmatch(path)
    picture = catalogue.picture(found.group(1)) if found else None
    if picture is None:
        return not_found("This server has no such map picture.\n")
    return file_response(request, WebFile(picture.data, picture.facts.content_type, picture.etag))
