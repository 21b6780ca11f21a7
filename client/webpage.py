"""Where the web page's files are: client/web/, shipped inside the package as data files.

The server never imports the client; whoever composes the two (`risc server`, `risc play --web`) asks here for the
folder and hands it to the server's config (`ServerConfig.web_root`).
"""

from __future__ import annotations

from pathlib import Path

WEB_ROOT = Path(__file__).resolve().parent / "web"


def web_root() -> Path:
    """The page's folder (index.html, style.css, js/)."""
    if not (WEB_ROOT / "index.html").is_file():
        raise FileNotFoundError("the web page's files are missing from this installation")
    return WEB_ROOT
