"""The web page's files, served over plain HTTP on the game's port.

The server knows the page only as a folder it was given (`ServerConfig.web_root`, set by whoever composes the
server with a client: `risc server`, `risc play --web`); it never imports the client. The folder is read once, when
the server starts: only regular files whose real place is inside it are kept (a symlink out of it is left out), so a
request can reach nothing but those files, whatever it names. A request is still checked for what no file name of
the bundle holds (`..`, a backslash, a NUL, an absolute path, once percent-decoded) and refused before any lookup.

Every file goes out with its content type and an ETag, and `Cache-Control: no-cache`: a browser keeps the files and
asks each time whether they changed, so a new release is picked up on the next load without a version in every URL.
"""

from __future__ import annotations

import email.utils
import hashlib
import http
import logging
import mimetypes
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

logger = logging.getLogger("risc.server")

INDEX = "index.html"
MAX_FILE_BYTES = 4 * 1024 * 1024
"""A file of the bundle larger than this is not served: the whole page is a few hundred kilobytes."""
MAX_FILES = 500

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}


@dataclass(frozen=True)
class WebFile:
    body: bytes
    content_type: str
    etag: str


def content_type(name: str) -> str:
    suffix = Path(name).suffix.lower()
    return CONTENT_TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def _read_bundle(root: Path) -> dict[str, WebFile]:
    """Every regular file under `root` whose real path stays inside it, by its path relative to it ("js/main.js")."""
    real_root = root.resolve(strict=True)
    files: dict[str, WebFile] = {}
    for path in sorted(real_root.rglob("*")):
        if len(files) >= MAX_FILES:
            logger.warning("web page: more than %d files under %s; the rest are not served", MAX_FILES, root)
            break
        try:
            real = path.resolve(strict=True)
        except OSError:
            continue
        if not real.is_file() or not real.is_relative_to(real_root) or path.name.startswith("."):
            continue
        relative = path.relative_to(real_root).as_posix()
        if any(part.startswith(".") or part == "__pycache__" for part in relative.split("/")):
            continue
        body = real.read_bytes()
        if len(body) > MAX_FILE_BYTES:
            logger.warning("web page: %s is larger than %d bytes and is not served", relative, MAX_FILE_BYTES)
            continue
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        files[relative] = WebFile(body, content_type(relative), etag)
    return files


def bundle_path(request_path: str) -> str | None:
    """The bundle's file a request's path names ("" for the page itself), or None when it names something no file
    of a bundle could be: a parent folder, an absolute path, a backslash or a NUL, once percent-decoded (twice, so
    that %252e%252e is refused too)."""
    path = request_path.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        return None
    decoded = unquote(unquote(path, errors="strict"), errors="strict")
    relative = decoded[1:]
    if "\\" in relative or "\x00" in relative or relative.startswith("/") or ":" in relative:
        return None
    parts = relative.split("/")
    if any(part in ("..", ".") for part in parts):
        return None
    if relative == "" or relative.endswith("/"):
        relative += INDEX
    return relative


class WebRoot:
    """The page's files, read once; `respond` answers one plain HTTP GET."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = _read_bundle(root)
        if INDEX not in self.files:
            logger.warning("web page: %s has no %s", root, INDEX)

    def respond(self, request: Request, cluster: bool = False) -> Response:
        """The file a GET asks for. `cluster`: the server runs as several nodes, and the page may connect to
        whichever plays its game (the address a `redirect` names, which may be a node that started after the page
        was loaded): its policy lets it open a WebSocket anywhere, where a server alone lets it reach its own
        origin only."""
        try:
            name = bundle_path(request.path)
        except UnicodeDecodeError:
            name = None
        found = None if name is None else self.files.get(name)
        if found is None:
            return not_found("There is no such page on this server.\n")
        return file_response(request, found, cluster)


def file_response(request: Request, found: WebFile, cluster: bool = False) -> Response:
    """A file with its content type and ETag, or 304 Not Modified for a browser that holds it already."""
    headers = _headers(found.content_type, found.etag, cluster)
    if request.headers.get("If-None-Match") == found.etag:
        return Response(http.HTTPStatus.NOT_MODIFIED.value, http.HTTPStatus.NOT_MODIFIED.phrase, headers, b"")
    headers["Content-Length"] = str(len(found.body))
    return Response(http.HTTPStatus.OK.value, http.HTTPStatus.OK.phrase, headers, found.body)


def not_found(text: str) -> Response:
    return _plain(http.HTTPStatus.NOT_FOUND, text)


def _headers(kind: str, etag: str | None = None, cluster: bool = False) -> Headers:
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Type", kind),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ]
    )
    if etag is not None:
        headers["ETag"] = etag
        headers["Cache-Control"] = "no-cache"
        if kind.startswith("text/html"):
            connect = "'self' ws: wss:" if cluster else "'self'"
            headers["Content-Security-Policy"] = (
                f"default-src 'self'; connect-src {connect}; img-src 'self' data:; style-src 'self'; script-src 'self'"
            )
    return headers


def _plain(status: http.HTTPStatus, text: str) -> Response:
    return response(status, "text/plain; charset=utf-8", text.encode())


def response(status: http.HTTPStatus, kind: str, body: bytes, extra: Sequence[tuple[str, str]] = ()) -> Response:
    """A plain HTTP answer (not a page's file): its body, of the type `kind`, with the page's usual headers and
    `extra` ones."""
    headers = _headers(kind)
    for name, value in extra:
        headers[name] = value
    headers["Content-Length"] = str(len(body))
    return Response(status.value, status.phrase, headers, body)


def is_upgrade(request: Request) -> bool:
    """A WebSocket handshake, as opposed to a page's plain GET."""
    return "websocket" in request.headers.get("Upgrade", "").lower()
