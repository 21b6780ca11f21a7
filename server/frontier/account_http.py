"""The web page's way in to an account: plain HTTP POSTs on the game's port that sign in, sign up or sign out, and
keep the session in a cookie the page's scripts cannot read.

The page never holds a session token: `POST /account/sign-in` (or `/account/sign-up`) carries the name and password in
an `Authorization: Basic` header (never in the URL; WebSocket servers read no request body), and the answer sets
`risc_session` as an HttpOnly, SameSite=Strict cookie (Secure when the page came over https), which the browser then
sends with the page's WebSocket handshake. A server with a password (`--password`) wants it in the
`X-Risc-Server-Password` header of a sign-in or a sign-up, as a hello carries it. `POST /account/sign-out` ends the
cookie's session and clears it. A request from a page of another origin is refused (403), as its WebSocket handshakes
are; the cookie's SameSite keeps other sites' pages from sending it at all.
"""

from __future__ import annotations

import base64
import binascii
import http
import json
from http.cookies import CookieError, SimpleCookie

from pydantic import TypeAdapter, ValidationError
from websockets.http11 import Request, Response

from server.accounts.service import SESSION_DAYS, Accounts, SignedIn
from server.frontier.web import response
from server.refusal import Refusal
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import PlayerName

SESSION_COOKIE = "risc_session"
SERVER_PASSWORD_HEADER = "X-Risc-Server-Password"
"""Where a page signing in to a server that has a password (`--password`) gives it, as a hello would."""
PATHS = ("/account/sign-in", "/account/sign-up", "/account/sign-out")

_NAME: TypeAdapter[str] = TypeAdapter(PlayerName)

_STATUS = {
    ErrorCode.BAD_CREDENTIALS: http.HTTPStatus.UNAUTHORIZED,
    ErrorCode.NAME_TAKEN: http.HTTPStatus.CONFLICT,
    ErrorCode.SIGN_IN_WAIT: http.HTTPStatus.TOO_MANY_REQUESTS,
    ErrorCode.BUSY: http.HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.STORAGE_FAILED: http.HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.ACCOUNTS_OFF: http.HTTPStatus.NOT_FOUND,
    ErrorCode.BAD_PASSWORD: http.HTTPStatus.UNAUTHORIZED,
}


def session_cookie(request: Request) -> str | None:
    """The session token a request's cookie carries, if any."""
    jar = SimpleCookie()
    for header in request.headers.get_all("Cookie"):
        try:
            jar.load(header)
        except CookieError:
            continue
    morsel = jar.get(SESSION_COOKIE)
    return None if morsel is None or not morsel.value else morsel.value


def _secure(request: Request) -> bool:
    """Whether the page came over https (itself, or through a proxy that says so): the cookie is then Secure."""
    origin = request.headers.get("Origin", "")
    return origin.startswith("https://") or request.headers.get("X-Forwarded-Proto", "").lower() == "https"


def _cookie(request: Request, token: str, max_age: float) -> str:
    secure = "; Secure" if _secure(request) else ""
    return f"{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={int(max_age)}{secure}"


def _json(status: http.HTTPStatus, body: object, cookie: str | None = None) -> Response:
    extra = [("Cache-Control", "no-store")]
    if cookie is not None:
        extra.append(("Set-Cookie", cookie))
    return response(status, "application/json", json.dumps(body).encode(), extra)


def _refused(code: str, message: str, field: str | None = None) -> Response:
    status = _STATUS.get(code, http.HTTPStatus.BAD_REQUEST)  # type: ignore[call-overload]
    return _json(status, {"code": code, "message": message, "field": field})


def _credentials(request: Request) -> tuple[str, str] | Response:
    """The name and password of a Basic Authorization header, the name checked as a seat's name is."""
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic" or not encoded:
        return _refused(ErrorCode.INVALID_MESSAGE, "give the name and password in an Authorization: Basic header")
    try:
        name, colon, password = base64.b64decode(encoded.strip(), validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return _refused(ErrorCode.INVALID_MESSAGE, "the Authorization header is not base64 of UTF-8 NAME:PASSWORD")
    if not colon:
        return _refused(ErrorCode.INVALID_MESSAGE, "the Authorization header holds no NAME:PASSWORD")
    try:
        name = _NAME.validate_python(name)
    except ValidationError as exc:
        return _refused(ErrorCode.INVALID_MESSAGE, exc.errors(include_url=False)[0]["msg"], field="name")
    if not 1 <= len(password) <= 1024:
        return _refused(ErrorCode.WEAK_PASSWORD, "a password has 8 to 256 characters", field="password")
    return name, password


def password_refused(given: bool, wait: float) -> Response:
    """A sign-in or sign-up on a server with a password that was not given (or not right) in its header."""
    if wait:
        return _refused(ErrorCode.BAD_PASSWORD, f"too many wrong passwords from your address: try again in {wait:g} s")
    return _refused(ErrorCode.BAD_PASSWORD, "wrong server password" if given else "this server needs a password")


class AccountHttp:
    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts

    async def respond(self, request: Request, address: str) -> Response:
        """Answer one POST to /account/...; `address`: the client's, which failed sign-ins are counted by."""
        path = request.path.split("?", 1)[0]
        if request.method != "POST":
            answer = _refused(ErrorCode.INVALID_MESSAGE, f"{path} takes a POST")
            answer.headers["Allow"] = "POST"
            return answer
        try:
            if path == "/account/sign-out":
                return await self._sign_out(request)
            found = _credentials(request)
            if isinstance(found, Response):
                return found
            name, password = found
            if path == "/account/sign-up":
                signed, token = await self.accounts.sign_up(name, password, "the web page")
                status = http.HTTPStatus.CREATED
            else:
                signed, token = await self.accounts.sign_in(name, password, address, "the web page")
                status = http.HTTPStatus.OK
        except Refusal as refusal:
            return _refused(refusal.code, refusal.message, refusal.field)
        return _json(status, {"account": signed.info.model_dump()}, _cookie(request, token, SESSION_DAYS * 86_400))

    async def _sign_out(self, request: Request) -> Response:
        everywhere = request.headers.get("X-Risc-Everywhere", "") == "1"
        token = session_cookie(request)
        if token is not None:
            signed = await self.accounts.session(token)
            if isinstance(signed, SignedIn):
                await self.accounts.sign_out(signed, everywhere)
        return _json(http.HTTPStatus.OK, {"signed_out": True, "everywhere": everywhere}, _cookie(request, "", 0))
