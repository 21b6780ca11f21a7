"""A hostile client against ratings, quick play and challenges (docs/ratings.md, docs/security.md): what one account
may make the server tell another, and what an invitation may hold, through a real server and real connections."""

from __future__ import annotations

from server.clock import ManualClock
from tests.server_support import FAST, Client, running_server, until
from tests.test_accounts import signed_up

GAME = {"map": "seed", "players": 2}


async def test_challenges_to_one_account_are_paced_and_a_closed_game_s_invitation_goes_with_it() -> None:
    """A challenge sent, its game left (closed), sent again, sixty times in 0.2 s, told the account challenged sixty
    times (a webhook's POST each) and left sixty invitations to games gone in its home, none of which it could
    accept or be rid of but by declining each."""
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        bob, _ = await signed_up(server, "Bob")
        sent = []
        for _ in range(10):
            reply = await ann.request(type="challenge", name="bob", settings=GAME)
            if reply["type"] != "challenge_sent":
                assert reply["code"] == "rate-limited" and "Bob" in reply["message"], reply
                break
            sent.append(reply["game_id"])
            assert (await ann.request(type="leave_game", game_id=reply["game_id"]))["type"] == "left"
        assert len(sent) == 3, "three challenges to one account at once, then one every ten minutes"
        home = await bob.request(type="my_games")
        assert home["challenges"] == [], "each game left went, and its invitation with it"
        told = [m for m in bob.frames if m["type"] == "notice" and m["kind"] == "challenge"]
        assert len(told) == 3
        # another account may still challenge Bob, and Ann another account
        cy, _ = await signed_up(server, "Cy")
        assert (await cy.request(type="challenge", name="Bob", settings=GAME))["type"] == "challenge_sent"
        assert (await ann.request(type="challenge", name="Cy", settings=GAME))["type"] == "challenge_sent"


async def test_an_invitation_whose_game_is_gone_is_dropped_when_accepted() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        bob, _ = await signed_up(server, "Bob")
        sent = await ann.request(type="challenge", name="Bob", settings=GAME)
        await ann.request(type="leave_game", game_id=sent["game_id"])
        refused = await bob.request(type="answer_challenge", game_id=sent["game_id"], accept=True)
        assert refused["type"] == "error" and refused["code"] == "no-such-game", refused
        assert (await bob.request(type="my_games"))["challenges"] == [], "no longer there to accept, nor to decline"


async def test_a_challenge_keeps_a_seat_for_the_account_challenged() -> None:
    """A challenge whose computers filled every other seat started at once without the account challenged, who was
    told of it all the same and could never accept."""
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        bob, _ = await signed_up(server, "Bob")
        refused = await ann.request(type="challenge", name="Bob", settings={**GAME, "bots": 1})
        assert refused["type"] == "error" and refused["code"] == "bad-settings", refused
        assert refused["field"] == "settings.bots"
        assert (await bob.request(type="my_games"))["challenges"] == []
        assert not [m for m in bob.frames if m["type"] == "notice"]
        three = await ann.request(type="challenge", name="Bob", settings={**GAME, "players": 3, "bots": 1})
        assert three["type"] == "challenge_sent", three
        accepted = await bob.request(type="answer_challenge", game_id=three["game_id"], accept=True)
        assert accepted["type"] == "challenge_answered" and accepted["accepted"], accepted


async def test_quick_play_with_computers_counts_against_the_asker_as_a_game_they_create() -> None:
    """Games the server's computers play alone are bounded for whoever makes them (3 a connection, 10 an address):
    asked through quick play with computers, each resigned at once, they were not, and one address left ten such games
    playing on under a limit of two."""
    clock = ManualClock()
    async with running_server(clock=clock, open_games_per_address=2, **FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        ask = {"type": "quick_play", "ruleset": "grid", "players": 5, "computers_after": 5}
        for _ in range(2):
            assert (await ann.request(**ask))["type"] == "quick_play_waiting"
            clock.advance(5)
            found = await ann.wait_for(lambda m: m["type"] == "quick_play_found")
            ann.frames.remove(found)
            assert not found["rated"]
            game_id = found["game_id"]
            assert (await ann.request(type="resume", game_id=game_id))["type"] == "resumed"
            assert (await ann.request(type="resign", game_id=game_id))["type"] == "resigned"
            await until(lambda g=game_id: server.lobby.get(g).computers_alone, "the computers play on alone", ann)
        refused = await ann.request(**ask)
        assert refused["type"] == "error" and refused["code"] == "too-many-games", refused
        refused = await ann.request(type="create_game", settings={"ruleset": "grid", "map": None, "players": 3})
        assert refused["type"] == "error" and refused["code"] == "too-many-games", refused
        alone = [m for m in server.lobby.matches.values() if m.computers_alone]
        assert len(alone) == 2
        # quick play among people alone is no game of computers: it is not counted, nor refused
        assert (await ann.request(type="quick_play", ruleset="grid", players=3))["type"] == "quick_play_waiting"


async def test_leaderboards_are_read_at_a_pace_per_address() -> None:
    """Each leaderboard sorts every rated player of its rule set while the store's one connection waits (30 ms at
    offset 0 and 170 to 300 ms at offset 99,000 with 100,000 players, the store's lock held throughout): a guest's
    connection asked a hundred a second, and every game's saves waited behind them."""
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        guest = await Client.connect(server)
        for i in range(12):
            await guest.send(type="leaderboard", ruleset="risc", offset=1_000_000, ref=f"l{i}")
        answers = [await guest.wait_for(lambda m, r=f"l{i}": m.get("ref") == r) for i in range(12)]
        assert [a["type"] for a in answers[:8]] == ["leaderboard"] * 8
        assert all(a["type"] == "error" and a["code"] == "rate-limited" for a in answers[8:]), answers[8:]
        other = await Client.connect(server)  # the same address: more connections buy nothing
        refused = await other.request(type="leaderboard", ruleset="grid")
        assert refused["type"] == "error" and refused["code"] == "rate-limited", refused
        assert (await other.request(type="profile", name="bot:random"))["type"] == "profile", "read by its index"
        assert (await other.request(type="game_ratings", game_id="abc123"))["type"] == "game_ratings"
        clock.advance(1)
        assert (await other.request(type="leaderboard", ruleset="grid"))["type"] == "leaderboard"
