"""Accounts under attack, through a real server and real connections from many 127.0.0.x addresses (docs/security.md,
"Accounts"): guessing a password from one address and from fifty, telling an unknown name from a wrong password by
the time the answer takes, and sessions of another server."""

from __future__ import annotations

import asyncio
import statistics
import time

from tests.server_support import FAST, Client, running_server

PASSWORD = "correct horse battery"


async def sign_in(client: Client, name: str, password: str) -> str:
    reply = await client.request(type="sign_in", name=name, password=password)
    return str(reply.get("code") or reply["type"])


async def test_a_thousand_wrong_passwords_from_one_address_cost_a_handful_of_hashes_and_open_nothing() -> None:
    async with running_server(**FAST) as server:
        await (await Client.connect(server)).request(type="sign_up", name="Ann", password=PASSWORD)
        hashed_before = server.accounts.passwords.hashed
        attackers = [await Client.connect(server, source="127.0.0.9") for _ in range(20)]

        async def guess(client: Client, start: int) -> list[str]:
            return [await sign_in(client, "Ann", f"guess-number-{start + i:04d}") for i in range(50)]

        answers = [
            a for batch in await asyncio.gather(*(guess(c, 50 * n) for n, c in enumerate(attackers))) for a in batch
        ]
        assert len(answers) == 1000 and "signed_in" not in answers
        assert set(answers) <= {"bad-credentials", "sign-in-wait"}
        checked = server.accounts.passwords.hashed - hashed_before
        assert checked <= 12, f"{checked} of 1,000 guesses were hashed"
        waited = await sign_in(await Client.connect(server, source="127.0.0.9"), "Ann", PASSWORD)
        assert waited == "sign-in-wait"  # even the right password waits: the name is locked for a while


async def test_fifty_addresses_guessing_one_account_are_held_by_its_name_s_lock() -> None:
    async with running_server(**FAST) as server:
        await (await Client.connect(server)).request(type="sign_up", name="Ann", password=PASSWORD)
        hashed_before = server.accounts.passwords.hashed

        async def guess(n: int) -> list[str]:
            client = await Client.connect(server, source=f"127.0.0.{10 + n}")
            return [await sign_in(client, "Ann", f"guess {n} number {i}") for i in range(20)]

        answers = [a for batch in await asyncio.gather(*(guess(n) for n in range(50))) for a in batch]
        assert len(answers) == 1000 and "signed_in" not in answers
        checked = server.accounts.passwords.hashed - hashed_before
        assert checked <= 100, f"{checked} of 1,000 guesses were hashed"
        locked = await (await Client.connect(server, source="127.0.0.99")).request(
            type="sign_in", name="Ann", password="another guess"
        )
        assert locked["code"] == "sign-in-wait" and "try again in" in locked["message"]


async def test_an_unknown_name_and_a_wrong_password_take_the_same_work_and_time() -> None:
    """Each sign-in from an address of its own (its failures neither wait nor lock), interleaved, so that the
    machine's load falls on both alike. The work is counted exactly: one Argon2id check each, a dummy hash's for the
    unknown name; the time is measured too, loosely (a shared machine's load moves it): the medians within a factor
    of two of each other."""
    async with running_server(**FAST) as server:
        for n in range(24):
            await (await Client.connect(server)).request(type="sign_up", name=f"Player {n}", password=PASSWORD)
        unknown: list[float] = []
        wrong: list[float] = []
        for n in range(24):
            for name, times in ((f"Nobody {n}", unknown), (f"Player {n}", wrong)):
                source = f"127.0.{2 + (times is wrong)}.{1 + n}"
                client = await Client.connect(server, source=source)
                hashed = server.accounts.passwords.hashed
                start = time.perf_counter()
                assert await sign_in(client, name, "not the password") == "bad-credentials"
                times.append(time.perf_counter() - start)
                assert server.accounts.passwords.hashed == hashed + 1, "one check of a hash, whoever the name is"
        ratio = statistics.median(unknown) / statistics.median(wrong)
        assert 0.5 < ratio < 2.0, (statistics.median(unknown), statistics.median(wrong))
        assert min(unknown) > 0.005  # a hash's work is in it: an unknown name is not answered at once


async def test_a_session_of_another_server_signs_nothing_in() -> None:
    async with running_server(**FAST) as first, running_server(**FAST) as second:
        session = (await (await Client.connect(first)).request(type="sign_up", name="Ann", password=PASSWORD))[
            "session"
        ]
        elsewhere = await Client.connect(second, session=session)
        assert elsewhere.welcome["account"] is None
        assert "not one of this server's" in elsewhere.welcome["session_problem"]
        forged = await Client.connect(first, session=session[:-2] + ("AA" if not session.endswith("AA") else "BB"))
        assert forged.welcome["account"] is None
