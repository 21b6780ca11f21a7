"""The web page's way in to an account (server/frontier/account_http.py), through real HTTP requests to a real server:
the session lands in a cookie the page's scripts cannot read, the page's WebSocket handshake carries it, and pages of
other sites are refused."""

from __future__ import annotations

import asyncio
import base64
import http.client
import json
from http.cookies import SimpleCookie

from tests.server_support import FAST, Client, running_server

PASSWORD = "correct horse battery"


def post(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], dict[str, object]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", path, headers=headers)
        answer = connection.getresponse()
        body = answer.read()
        headers = {k.lower(): v for k, v in answer.getheaders()}
        shown = json.loads(body) if headers.get("content-type") == "application/json" else {"text": body.decode()}
        return answer.status, headers, shown
    finally:
        connection.close()


def basic(name: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()}


async def test_signing_in_from_the_page_sets_an_http_only_strict_cookie_that_the_page_s_handshake_signs_in() -> None:
    async with running_server(**FAST) as server:
        origin = {"Origin": f"http://127.0.0.1:{server.port}"}
        status, headers, body = await asyncio.to_thread(
            post, server.port, "/account/sign-up", {**basic("Ann", PASSWORD), **origin}
        )
        assert status == 201 and body["account"]["name"] == "Ann"  # type: ignore[index]
        cookie = SimpleCookie(headers["set-cookie"])["risc_session"]
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/"
        assert not cookie["secure"]  # plain http; over https it is Secure (below)
        assert int(cookie["max-age"]) == 30 * 86_400
        assert cookie.value not in json.dumps(body)  # the page's script never sees the token

        page = await Client.connect(server, headers={"Cookie": f"risc_session={cookie.value}", **origin})
        assert page.welcome["account"]["name"] == "Ann"
        assert (await page.request(type="my_games"))["type"] == "my_games"

        status, headers, _ = await asyncio.to_thread(
            post, server.port, "/account/sign-in", {**basic("ann", PASSWORD), **origin, "X-Forwarded-Proto": "https"}
        )
        assert status == 200 and SimpleCookie(headers["set-cookie"])["risc_session"]["secure"]

        status, headers, _ = await asyncio.to_thread(
            post, server.port, "/account/sign-out", {"Cookie": f"risc_session={cookie.value}", **origin}
        )
        assert status == 200 and SimpleCookie(headers["set-cookie"])["risc_session"]["max-age"] == "0"
        await page.wait_type("signed_out")
        await page.closed.wait()
        after = await Client.connect(server, headers={"Cookie": f"risc_session={cookie.value}", **origin})
        assert after.welcome["account"] is None and "ended" in after.welcome["session_problem"]


async def test_the_page_s_sign_in_is_refused_clearly_and_never_from_another_site() -> None:
    async with running_server(**FAST) as server:
        await asyncio.to_thread(post, server.port, "/account/sign-up", basic("Ann", PASSWORD))
        status, headers, body = await asyncio.to_thread(
            post, server.port, "/account/sign-in", basic("Ann", "nope-nope")
        )
        assert status == 401 and body["code"] == "bad-credentials" and "set-cookie" not in headers
        status, _, body = await asyncio.to_thread(post, server.port, "/account/sign-in", basic("Nobody", "nope-nope"))
        assert status == 401 and body["code"] == "bad-credentials"
        status, _, body = await asyncio.to_thread(post, server.port, "/account/sign-up", basic("Ann", PASSWORD))
        assert status == 409 and body["code"] == "name-taken"
        status, _, body = await asyncio.to_thread(post, server.port, "/account/sign-up", basic("Bob", "short"))
        assert status == 400 and body["code"] == "weak-password"
        status, _, body = await asyncio.to_thread(post, server.port, "/account/sign-in", {})
        assert status == 400 and "Authorization" in str(body["message"])
        evil = {"Origin": "https://evil.example", **basic("Ann", PASSWORD)}
        status, headers, body = await asyncio.to_thread(post, server.port, "/account/sign-in", evil)
        assert status == 403 and "set-cookie" not in headers and "evil.example" in str(body["text"])


async def test_a_cookie_from_a_page_of_another_site_opens_no_game_connection() -> None:
    async with running_server(**FAST) as server:
        _, headers, _ = await asyncio.to_thread(post, server.port, "/account/sign-up", basic("Ann", PASSWORD))
        token = SimpleCookie(headers["set-cookie"])["risc_session"].value
        try:
            await Client.connect(server, headers={"Cookie": f"risc_session={token}", "Origin": "https://evil.example"})
        except Exception as exc:  # the handshake itself is refused: 403
            assert "403" in str(exc)
        else:
            raise AssertionError("a page of another site opened a connection with the player's cookie")


async def test_a_server_with_a_password_makes_and_signs_in_no_account_without_it() -> None:
    """The page's HTTP way in skipped the server's password, which a hello must give: now it wants it too."""
    async with running_server(password="s3cret", **FAST) as server:
        status, headers, body = await asyncio.to_thread(post, server.port, "/account/sign-up", basic("Ann", PASSWORD))
        assert status == 401 and body["code"] == "bad-password" and "set-cookie" not in headers
        wrong = {**basic("Ann", PASSWORD), "X-Risc-Server-Password": "guess"}
        status, _, body = await asyncio.to_thread(post, server.port, "/account/sign-up", wrong)
        assert status == 401 and body["message"] == "wrong server password"
        right = {**basic("Ann", PASSWORD), "X-Risc-Server-Password": "s3cret"}
        status, headers, _ = await asyncio.to_thread(post, server.port, "/account/sign-up", right)
        assert status == 201 and "risc_session" in headers["set-cookie"]
        status, _, body = await asyncio.to_thread(post, server.port, "/account/sign-in", basic("Ann", PASSWORD))
        assert status == 401 and body["code"] == "bad-password"
