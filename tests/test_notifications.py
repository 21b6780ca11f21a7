"""Being told it is your turn (docs/notifications.md): mail through a real SMTP server and webhooks to a real HTTPS
receiver on 127.0.0.1, reading what arrived. The outbox's sender is driven by hand here (`send_due`), so that what
did not arrive is known not to have, but in the test of a node killed mid-send, where it runs as it does in a server."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from server.app import RiscServer
from server.clock import ManualClock
from server.notify.mail import header_safe
from server.notify.sender import WEBHOOK_TRIES, retry_after
from tests.days_support import DAY, account, place_and_commit
from tests.notify_support import Mailbox, Receiver, arrived, https_receiver, smtp_server
from tests.server_support import FAST, Client, Message, running_server
from tests.test_server_process import start_server

PAGE = "https://risc.example/"


@contextlib.asynccontextmanager
async def notifying(
    tmp_path: Path, clock: ManualClock, **settings: Any
) -> AsyncIterator[tuple[RiscServer, Mailbox, Receiver]]:
    """A server that mails through a real SMTP server and may reach the HTTPS receiver (allowed by name), its sender
    stopped so that the test sends what is due (`send_due`)."""
    mailbox, receiver = Mailbox(), Receiver()
    mail_server, mail_port = await smtp_server(mailbox)
    hook_server, hook_port, cert = await https_receiver(receiver, tmp_path)
    settings.setdefault("webhook_allow", ("127.0.0.1",))
    try:
        async with running_server(
            clock=clock,
            smtp=f"smtp://127.0.0.1:{mail_port}",
            mail_from="risc@risc.example",
            page_url=PAGE,
            webhook_cafile=str(cert),
            **settings,
            **FAST,
        ) as server:
            await server.notifier.sender.close()
            server.hook_url = f"https://127.0.0.1:{hook_port}/hook"  # type: ignore[attr-defined]
            yield server, mailbox, receiver
    finally:
        mail_server.close()
        hook_server.close()


async def send_due(server: RiscServer) -> None:
    """Send whatever the outbox holds that is due now, as the sender does."""
    while await server.notifier.sender.run_once():
        pass


async def mailed(client: Client, address: str = "ann@mail.test") -> Message:
    reply = await client.request(type="set_notifications", mail=address)
    assert reply["type"] == "notification_settings" and reply["mail"] == address, reply
    return reply


async def mailed_away(server: RiscServer) -> Client:
    """Ann, signed up, told by mail, her page hidden."""
    ann = await account(server, "Ann")
    await mailed(ann)
    await away(ann)
    return ann


async def away(client: Client) -> None:
    """The player's page is hidden: they look at no game."""
    await client.send(type="looking", game_id=None)
    await client.request(type="list_games", limit=1)  # what was sent before has been read


async def game_for(server: RiscServer, ann: Client, others: list[str], **settings: Any) -> tuple[str, list[Client]]:
    """A game of a day a turn where Ann (already signed up) sits with new accounts."""
    clients = [await account(server, name) for name in others]
    settings = {"map": "seed", "players": 1 + len(others), "initial_units": 4, "turn_seconds": DAY, **settings}
    game_id = (await ann.request(type="create_game", settings=settings))["game"]["game_id"]
    for client, name in [(ann, "Ann"), *zip(clients, others, strict=True)]:
        assert (await client.request(type="join_game", game_id=game_id, name=name))["type"] == "joined"
    return game_id, clients


async def test_a_turn_waiting_is_mailed_with_a_link_to_the_game_and_a_one_click_unsubscribe(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await mailed_away(server)
        game_id, _ = await game_for(server, ann, ["Bob"])
        await send_due(server)
        await arrived(mailbox, 1)
        (message,) = mailbox.messages
        assert message["To"] == "ann@mail.test" and message["From"] == "risc@risc.example"
        assert message["Subject"] == "RISC: 1 game waits for your orders, 1 other thing happened"
        body = message.get_content()
        assert f"Turn 0 of game {game_id} (RISC on Seed example) waits for your orders." in body
        assert f"{PAGE}#game={game_id}" in body
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        unsubscribe = message["List-Unsubscribe"].strip("<>")
        assert unsubscribe.startswith(PAGE + "account/unsubscribe?key=")
        assert message["Message-ID"].startswith("<risc-")
        assert "session" not in body and "token" not in body.lower()
        assert (await server.storage.notices().pending()) == 0


async def test_mail_is_gathered_into_one_message_an_hour_however_many_games_wait(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await mailed_away(server)
        first, (bob,) = await game_for(server, ann, ["Bob"])
        await send_due(server)
        await arrived(mailbox, 1)
        for other in ("Cy", "Di", "Ed"):
            await game_for(server, ann, [other])
        await place_and_commit(bob, first, "Bob")  # Ann still awaited: no news of that game
        clock.advance(600)
        await send_due(server)
        assert len(mailbox.messages) == 1, "within the hour: nothing more"
        clock.advance(3000)
        await send_due(server)
        await arrived(mailbox, 2)
        digest = mailbox.messages[1]
        assert digest["Subject"] == "RISC: 3 games wait for your orders, 3 other things happened"
        assert digest.get_content().count("waits for your orders") == 3
        assert len(mailbox.messages) == 2


async def test_a_turn_played_before_its_mail_goes_is_left_out_of_it(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await mailed_away(server)
        await game_for(server, ann, ["Bob"])
        await send_due(server)
        await arrived(mailbox, 1)
        second, _ = await game_for(server, ann, ["Cy"])
        await place_and_commit(ann, second, "Ann")  # she played it meanwhile
        clock.advance(3600)
        await send_due(server)
        await arrived(mailbox, 2)
        digest = mailbox.messages[1].get_content()
        assert f"Game {second} (RISC on Seed example) started" in digest, "still news"
        assert "waits for your orders" not in digest, "her turn, played meanwhile, is no news"
        assert (await server.storage.notices().pending()) == 0


async def test_the_one_click_unsubscribe_stops_the_mail(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await mailed_away(server)
        await game_for(server, ann, ["Bob"])
        await send_due(server)
        await arrived(mailbox, 1)
        link = urlsplit(mailbox.messages[0]["List-Unsubscribe"].strip("<>"))
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        body = b"List-Unsubscribe=One-Click"
        writer.write(
            f"POST {link.path}?{link.query} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
            f"application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        answer = await reader.read(4096)
        writer.close()
        assert answer.startswith(b"HTTP/1.1 200"), answer
        settings = await ann.request(type="notifications")
        assert settings["mail_paused"] == "unsubscribed"
        await game_for(server, ann, ["Cy"])
        clock.advance(3600)
        await send_due(server)
        assert len(mailbox.messages) == 1, "no more mail"
        home = await ann.request(type="my_games")
        assert home["problems"] == [], "an unsubscribe is the player's choice, not a problem"


async def test_nobody_is_mailed_about_a_game_they_are_looking_at(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await account(server, "Ann")
        await mailed(ann)
        game_id, (bob,) = await game_for(server, ann, ["Bob"])  # Ann's page is on screen: she looks at it
        await send_due(server)
        assert mailbox.messages == [] and (await server.storage.notices().pending()) == 0
        await ann.send(type="looking", game_id="another")
        await ann.request(type="list_games", limit=1)
        assert (await bob.request(type="chat", game_id=game_id, text="ann, your move"))["type"] == "chat_sent"
        await send_due(server)
        await arrived(mailbox, 1)
        assert "Bob named you in game" in mailbox.messages[0]["Subject"]


async def test_a_notification_says_no_more_than_the_player_could_see(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, receiver):
        ann = await account(server, "Ann")
        await mailed(ann)
        await ann.request(type="set_notifications", webhook=server.hook_url)  # type: ignore[attr-defined]
        await away(ann)
        game_id, (bob, cy) = await game_for(server, ann, ["Bob", "Cy"], evolution=3)  # fog of war
        for client, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
            await place_and_commit(client, game_id, name)
        said = await bob.request(type="chat", game_id=game_id, text="Ann holds little, take her", to="Cy")
        assert said["type"] == "chat_sent"
        clock.advance(3600)
        await send_due(server)
        await arrived(mailbox, 1)
        await arrived(receiver, 3)
        told = " ".join(m.get_content() + str(m["Subject"]) for m in mailbox.messages)
        told += " ".join(d.body.decode() for d in receiver.got)
        territories = [t.name for t in server.lobby.get(game_id).game_map.territories]
        told = re.sub(r"unsubscribe\?key=[\w-]+", "unsubscribe?key=", told)  # random letters, not the board's
        assert not [t for t in territories if re.search(rf"\b{re.escape(t)}\b", told)], "nothing of the board"
        assert "take her" not in told, "a word said to Cy alone is not Ann's to be told"


async def test_webhooks_are_signed_and_a_receiver_checks_the_signature_and_drops_duplicates_by_id(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, _, receiver):
        ann = await account(server, "Ann")
        settings = await ann.request(type="set_notifications", webhook=server.hook_url)  # type: ignore[attr-defined]
        secret = settings["webhook_secret"]
        assert settings["type"] == "notification_settings" and len(secret) == 64
        await away(ann)
        game_id, _ = await game_for(server, ann, ["Bob"])
        await send_due(server)
        await arrived(receiver, 2)
        assert receiver.verified(secret) == receiver.got, "every delivery signed with the account's secret"
        assert receiver.verified("another secret") == []
        kinds = {d.json["risc"]["kind"] for d in receiver.got}
        assert kinds == {"game_started", "your_turn"}
        delivery = next(d for d in receiver.got if d.json["risc"]["kind"] == "your_turn")
        assert delivery.json["content"] == delivery.json["text"], "what Discord and Slack show"
        assert f"game {game_id}" in delivery.json["content"]
        assert delivery.headers["x-risc-delivery"] == delivery.json["risc"]["id"]
        assert delivery.headers["content-type"] == "application/json"


async def test_a_failing_webhook_is_retried_with_backoff_then_paused_and_the_home_says_so(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, _, receiver):
        receiver.status = 500
        ann = await account(server, "Ann")
        await ann.request(type="set_notifications", webhook=server.hook_url)  # type: ignore[attr-defined]
        await away(ann)
        await game_for(server, ann, ["Bob"])
        await send_due(server)
        await arrived(receiver, 1)
        for tries in range(1, WEBHOOK_TRIES):
            clock.advance(retry_after(tries) - 1)
            await send_due(server)
            assert len(receiver.got) == tries, "not before its backoff"
            clock.advance(1)
            await send_due(server)
            await arrived(receiver, tries + 1)
        settings = await ann.request(type="notifications")
        assert settings["webhook_paused"].startswith("it failed 6 times running")
        home = await ann.request(type="my_games")
        assert [p["channel"] for p in home["problems"]] == ["webhook"]
        assert (await server.storage.notices().pending()) == 0
        receiver.status = 200
        await ann.request(type="set_notifications", webhook=server.hook_url)  # type: ignore[attr-defined]
        assert (await ann.request(type="my_games"))["problems"] == [], "set again: on again"


async def test_a_bouncing_address_is_retried_a_few_times_then_paused(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        mailbox.refuse.add("gone@mail.test")
        ann = await account(server, "Ann")
        await mailed(ann, "gone@mail.test")
        await away(ann)
        await game_for(server, ann, ["Bob"])
        for tries in range(1, 6):
            await send_due(server)
            clock.advance(retry_after(tries))
        await send_due(server)
        settings = await ann.request(type="notifications")
        assert settings["mail_paused"] is not None and "refused the address" in settings["mail_paused"]
        assert [p["channel"] for p in (await ann.request(type="my_games"))["problems"]] == ["mail"]
        assert mailbox.messages == []


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://127.0.0.1/hook", "a loopback address"),
        ("https://[::1]/hook", "a loopback address"),
        ("https://10.1.2.3/hook", "a private address"),
        ("https://192.168.0.10/hook", "a private address"),
        ("https://169.254.169.254/latest/meta-data", "a cloud metadata address"),
        ("https://[fd00:ec2::254]/", "a cloud metadata address"),
        ("https://[2002:7f00:1::1]/hook", "a loopback address"),  # 6to4 carrying 127.0.0.1
        ("https://[2002:a01:203::]/hook", "a private address"),  # 6to4 carrying 10.1.2.3
        ("https://[fec0::1]/hook", "a private address"),  # site-local, as private as 10/8 where it is still used
        ("https://169.254.3.4/", "a link-local address"),
        ("https://localhost:8443/hook", "a loopback address"),  # a name that resolves to one
        ("https://metadata.google.internal/", "a cloud metadata address"),
        ("http://hooks.example.com/", "must be https"),
        ("https://user:pw@hooks.example.com/", "no user name or password"),
    ],
)
async def test_webhook_urls_into_the_server_s_own_network_are_refused(url: str, why: str, tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock, webhook_allow=()) as (server, _, _):
        ann = await account(server, "Ann")
        reply = await ann.request(type="set_notifications", webhook=url)
        assert reply["type"] == "error" and reply["code"] == "bad-channel" and reply["field"] == "webhook", reply
        assert why in reply["message"], reply
        assert (await ann.request(type="notifications"))["webhook"] is None


async def test_a_webhook_whose_name_resolves_to_a_loopback_address_at_send_time_is_paused(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock, webhook_allow=("127.0.0.1",)) as (server, _, receiver):
        ann = await account(server, "Ann")
        await ann.request(type="set_notifications", webhook=server.hook_url)  # type: ignore[attr-defined]
        server.notifier.outgoing = server.notifier.sender.outgoing = type(server.notifier.outgoing)(
            **{**server.notifier.outgoing.__dict__, "webhook_allow": frozenset()}
        )  # the operator no longer allows it: checked again at the send
        await away(ann)
        await game_for(server, ann, ["Bob"])
        await send_due(server)
        assert receiver.got == []
        paused = (await ann.request(type="notifications"))["webhook_paused"]
        assert "a loopback address" in paused


async def test_a_player_s_words_reach_a_mail_header_without_line_breaks(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await account(server, "Ann")
        await mailed(ann)
        refused = await ann.request(type="chat", game_id=None, text="hi\r\nBcc: all@x.test", name="Ann")
        assert refused["type"] == "error" and refused["code"] == "invalid-message", "the chat takes no line break"
        account_id = next(iter(a.account_id for a in await server.accounts.store.accounts()))
        await server.notifier.challenge(account_id, "Bob", "a game?\r\nBcc: all@x.test\r\n\r\nowned", clock.wall())
        await send_due(server)
        await arrived(mailbox, 1)
        message = mailbox.messages[0]
        assert message["Bcc"] is None and "\n" not in message["Subject"] and "\r" not in message["Subject"]
        assert message["Subject"] == "RISC: Bob challenges you: a game? Bcc: all@x.test owned"
        assert header_safe("a\u2028b\x00c\x7fd") == "a b c d"


async def test_an_outbox_survives_a_sigkill_of_the_node_between_the_change_and_the_send(tmp_path: Path) -> None:
    mailbox = Mailbox(hold=asyncio.Event())
    mail_server, mail_port = await smtp_server(mailbox)
    where = ["--data-dir", str(tmp_path), "--smtp", f"smtp://127.0.0.1:{mail_port}", "--notify-lease", "1"]
    process, port = await start_server(*where)
    try:
        ann = await Client.connect(port)
        assert (await ann.request(type="sign_up", name="Ann", password="correct horse battery"))["type"] == "signed_in"
        await mailed(ann)
        await away(ann)
        game_id, _ = await game_for(port, ann, ["Bob"])  # type: ignore[arg-type]  # a server by its port
        await asyncio.wait_for(mailbox.data_reached.wait(), 10)  # the change is kept; its mail is being sent
        process.kill()
        await process.wait()
        assert mailbox.messages == [], "the kill came before the mail server took it"
        mailbox.hold.set()  # type: ignore[union-attr]
        process, port = await start_server(*where)
        await arrived(mailbox, 1, timeout=20)
        message = mailbox.messages[-1]
        assert f"Turn 0 of game {game_id}" in message.get_content()
        assert message["Message-ID"].startswith("<risc-")
    finally:
        if process.returncode is None:
            process.kill()
            await asyncio.wait_for(process.wait(), 10)
        mail_server.close()


async def test_a_nudge_reaches_the_player_waited_for_once_a_day(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await account(server, "Ann")
        game_id, (bob,) = await game_for(server, ann, ["Bob"])
        await place_and_commit(bob, game_id, "Bob")
        await mailed(ann)
        await away(ann)
        nudged = await bob.request(type="nudge", game_id=game_id, player="ann")
        assert nudged == {"ref": nudged["ref"], "type": "nudged", "game_id": game_id, "player": "Ann"}
        again = await bob.request(type="nudge", game_id=game_id, player="Ann")
        assert again["type"] == "error" and again["code"] == "rate-limited" and "a day" in again["message"]
        not_awaited = await ann.request(type="nudge", game_id=game_id, player="Bob")
        assert not_awaited["code"] == "not-awaited"
        await send_due(server)
        await arrived(mailbox, 1)
        assert (
            mailbox.messages[0]["Subject"]
            == f"RISC: Bob nudged you in game {game_id} (RISC on Seed example): it waits for your orders."
        )
        clock.advance(DAY)
        from_home = await Client.connect(server)  # Bob on another device, following no game
        signed = await from_home.request(type="sign_in", name="Bob", password="correct horse battery")
        assert signed["type"] == "signed_in"
        assert (await from_home.request(type="nudge", game_id=game_id, player="Ann"))["type"] == "nudged"


async def test_a_live_connection_of_the_account_is_told_at_once(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, _, _):
        ann = await account(server, "Ann")
        elsewhere = await Client.connect(server, session=None)
        assert (await elsewhere.request(type="sign_in", name="Ann", password="correct horse battery"))[
            "type"
        ] == "signed_in"
        await away(ann)
        game_id, _ = await game_for(server, ann, ["Bob"])
        notice = await elsewhere.wait_for(lambda m: m["type"] == "notice" and m["kind"] == "your_turn")
        assert notice["game_id"] == game_id and "waits for your orders" in notice["text"]
        assert (await elsewhere.request(type="set_notifications", terminal=False))["terminal"] is False


async def test_a_challenge_made_by_a_player_is_mailed_to_the_account_challenged(tmp_path: Path) -> None:
    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, _):
        ann = await mailed_away(server)
        bob = await account(server, "Bob")
        sent = await bob.request(type="challenge", name="ann", settings={"map": "seed", "players": 2})
        assert sent["type"] == "challenge_sent" and sent["to"] == "Ann", sent
        await send_due(server)
        await arrived(mailbox, 1)
        message = mailbox.messages[0]
        assert message["To"] == "ann@mail.test"
        assert message["Subject"].startswith("RISC: Bob challenges you: a game of RISC"), message["Subject"]
        assert sent["game_id"] in message["Subject"]
        home = await ann.request(type="my_games")
        assert [c["game_id"] for c in home["challenges"]] == [sent["game_id"]]


async def test_an_operator_sees_notifications_kept_sent_retried_and_how_late_in_the_metrics(tmp_path: Path) -> None:
    from tests.test_metrics import scraped

    clock = ManualClock()
    async with notifying(tmp_path, clock) as (server, mailbox, receiver):
        receiver.status = 500
        ann = await mailed_away(server)
        await ann.request(type="set_notifications", webhook=server.hook_url)  # type: ignore[attr-defined]
        await game_for(server, ann, ["Bob"])
        await send_due(server)
        await arrived(mailbox, 1)
        await arrived(receiver, 1)
        figures = await scraped(server.port)
        kept = {k: v for k, v in figures.items() if k.startswith("risc_notifications_kept_total")}
        assert kept == {  # for Ann and for Bob each: the game started, and a turn waits
            'risc_notifications_kept_total{kind="game_started"}': 2,
            'risc_notifications_kept_total{kind="your_turn"}': 2,
        }
        assert mailbox.messages[0]["Subject"] == "RISC: 1 game waits for your orders, 1 other thing happened"
        assert figures['risc_notifications_sent_total{channel="mail",outcome="sent"}'] == 2  # Ann's two, in one mail
        assert figures['risc_notifications_sent_total{channel="webhook",outcome="retry"}'] == 1
        assert figures["risc_notifications_late_seconds"] == 0  # claimed as they fell due
        receiver.status = 200
        clock.advance(retry_after(1) + 20)  # the sender looks 20 s after the retry fell due
        await send_due(server)
        await arrived(receiver, 2)
        figures = await scraped(server.port)
        assert figures['risc_notifications_sent_total{channel="webhook",outcome="sent"}'] >= 1
        assert figures["risc_notifications_late_seconds"] == pytest.approx(20, abs=1)


async def test_an_account_signed_in_on_another_node_is_told_live_of_a_game_played_on_this_one(
    postgres_dsn: str,
) -> None:
    from tests.cluster_support import nodes

    async with nodes(postgres_dsn, 2) as (here, there):
        ann = await account(here, "Ann")
        await away(ann)
        elsewhere = await Client.connect(there, session=None)
        signed = await elsewhere.request(type="sign_in", name="Ann", password="correct horse battery")
        assert signed["type"] == "signed_in", signed
        game_id, _ = await game_for(here, ann, ["Bob"])
        notice = await elsewhere.wait_for(lambda m: m["type"] == "notice" and m["kind"] == "your_turn")
        assert notice["game_id"] == game_id and "waits for your orders" in notice["text"]
