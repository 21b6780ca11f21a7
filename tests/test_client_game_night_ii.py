"""Game night II, through a real server and the real text client: what players met on a second game night, each
item with the test that holds it (the terminal's own screen is tests/test_terminal_game_night.py's)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from client.tracker import Tracker
from risc.cli import main
from server.clock import ManualClock
from server.storage import SqliteStorage
from server.storage.sqlite import DATABASE_NAME
from shared.game.presentation import Palette
from shared.rulesets import RULESETS
from shared.rulesets.grid.events import TurnStarted
from tests.client_support import Driver, driven
from tests.server_support import FAST, Client, bob_commits_placement, create_game, join, running_server, url
from tests.test_client_game_night import game_id_of, until
from tests.toy_ruleset import RaceToTwenty


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def others_committed(tracker: Tracker) -> bool:
    game = tracker.followed.game
    return game is not None and not any(s.awaited and not s.committed and s.name != tracker.player for s in game.seats)


async def played_out(player: Driver, clock: ManualClock, seconds: float, turns: int = 60) -> str:
    """Let the turn's time run out for `player` until the game ends, each time once every other player has
    committed: what was printed meanwhile."""
    tracker = player.app.tracker
    assert tracker is not None
    start = len(player.app.text())
    for _ in range(turns):
        if tracker.finished:
            return player.app.text()[start:]
        await player._until(lambda: others_committed(tracker), "the others to commit")
        turn = tracker.turn
        clock.advance(seconds)
        await player._until(lambda: tracker.turn != turn or tracker.finished, "the turn to resolve")  # noqa: B023
    raise AssertionError(f"the game did not end in {turns} turns:\n{player.app.text()[-3000:]}")


# ---- watching -------------------------------------------------------------------------------------------------------


async def test_warzone_a_card_drawn_is_told_once_to_the_player_who_lost() -> None:
    """At the end every entry is public: the loser was told `bot drew a reinforcement card.` and then, for the same
    draw, `bot drew a card.`."""
    clock = ManualClock()
    async with (
        running_server(clock=clock, seeds=lambda: 3, min_turn_seconds=1, **FAST) as server,
        driven(url(server), name="Eve") as eve,
    ):
        await eve.type(
            "create twin-keeps 2 rules=warzone bots=1 strategy=aggressive time=5 initial_units=8 initial_cards=1"
        )
        await eve.expect("The game starts")
        shown = await played_out(eve, clock, 5)
        last_turn = shown[shown.rfind("executes in this order") :]
        assert "bot-aggressive-1 drew a" in last_turn, last_turn
        assert "bot-aggressive-1 drew a card." not in last_turn, last_turn


async def played_until(player: Driver, clock: ManualClock, seconds: float, turn: int) -> None:
    """Let the turn's time run out for `player`, once every other player has committed, until `turn` begins."""
    tracker = player.app.tracker
    assert tracker is not None
    while tracker.turn < turn:
        await player._until(lambda: others_committed(tracker), "the others to commit")
        step = tracker.followed.game.step if tracker.followed.game else 0
        clock.advance(seconds)
        await player._until(
            lambda: tracker.followed.game is not None and tracker.followed.game.step != step,  # noqa: B023
            "the turn to resolve",
        )


async def test_a_late_watcher_sees_the_game_from_its_start_as_its_players_do() -> None:
    """A spectator who came at turn 3 had the standings of turn 3 on, where the players had turns 1 to 3: now every
    watcher is sent the log from the game's start, whose standings and events the client keeps."""
    clock = ManualClock()
    async with (
        running_server(clock=clock, seeds=lambda: 5, min_turn_seconds=1, **FAST) as server,
        driven(url(server), name="Alice") as alice,
    ):
        await alice.type("create seed 3 bots=2 time=5")
        await alice.expect("The game starts")
        game_id = game_id_of(alice)
        await played_until(alice, clock, 5, 3)
        played = alice.app.tracker
        assert played is not None and sorted(played.history) == ["1", "2", "3"]
        async with driven(url(server), name="Eve") as eve:
            shown = await eve.type(f"watch {game_id}")
            await eve._until(
                lambda: eve.app.tracker is not None and eve.app.tracker.followed.view is not None, "the game on screen"
            )
            shown += await eve.type("history")
            assert (
                f"Game {game_id} is at turn 3; what happened before you came is kept, turns 1 to 2: history:" in shown
            ), shown
            assert " attacked " not in shown, "the log from the start is summed up, not printed whole"
            watched = eve.app.tracker
            assert watched is not None
            assert watched.history == played.history, "the same standings, turn by turn, as the player's"
            table = shown.split("Territories/units per turn:")[1]
            assert all(f"  {turn} " in table or f" {turn}  " in table for turn in ("1", "2", "3")), table
            for turn in (1, 2):
                assert watched.turn_report(turn) == played.turn_report(turn) != []
            first = await eve.type("report 1")
            assert first.startswith("Turn 1:\n") and "New units: " in first
            assert "Nothing was told of turn 9 (this client has turns 1 to 2)." in await eve.type("report 9")
            clock.advance(5)  # the watcher goes on from there as the players do
            await eve._until(lambda: watched.turn == 4, "turn 4")
            await eve._until(lambda: "4" in watched.history, "turn 4's standings")
            assert watched.history["4"] == played.history["4"]


async def test_the_grid_game_s_help_speaks_of_cells_and_d_is_done_as_in_every_game() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create rules=grid 3 bots=2")
        await alice.expect("Deploy one troop: deploy ROW,COL")
        shown = await alice.type("help orders")
        assert "Orders in this game (cells as ROW,COL: 2,3 or 2 3, rows and columns 0 to 4; Tab completes):" in shown
        assert "prefix" not in shown and "territory names" not in shown
        assert "deploy ROW,COL [dep]" in shown
        refused = await alice.type("d 2,3")
        assert "there is nothing to commit: in this game players take turns" in refused, refused


def test_the_grid_game_counts_new_troops_and_territories_in_good_english() -> None:
    presentation = RULESETS["grid"].presentation
    shown = "".join(p for _, p in presentation.events([TurnStarted(4, "Ann", 0, 1)], Palette(("Ann",)), None))
    assert "(Ann): 0 new troops for 1 territory." in shown, shown
    shown = "".join(p for _, p in presentation.events([TurnStarted(5, "Ann", 1, 3)], Palette(("Ann",)), None))
    assert "(Ann): 1 new troop for 3 territories." in shown, shown


# ---- the lobby ------------------------------------------------------------------------------------------------------


async def test_the_text_lobby_takes_how_computer_players_play_as_the_web_form_does() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        shown = await alice.type("help create warzone")
        assert "strategy=aggressive|benevolent|cheater|neutral|random|strategist" in shown, shown
        shown = await alice.type("create seed 2 bots=1 strategy=aggressive")
        assert "Refused" not in shown and "will not do" not in shown, shown
        await alice.expect("The game starts")
        tracker = alice.app.tracker
        assert tracker is not None and tracker.followed.game is not None
        assert tracker.followed.game.settings.bot_strategy == "aggressive"
        assert [s.name for s in tracker.followed.game.seats] == ["bot-aggressive-1", "Alice"]


async def test_join_by_the_start_of_a_game_s_id_is_resolved_by_the_server_even_when_the_list_is_stale() -> None:
    async with (
        running_server(**FAST) as server,
        driven(url(server), name="Alice") as alice,
        driven(url(server), name="Bob") as bob,
    ):
        await bob.expect("No games yet")  # Bob's list is read before Alice creates her game, and not again
        await alice.type("create seed 2")
        game_id = game_id_of(alice)
        shown = await bob.type(f"join {game_id[:2]}")
        assert f"You sit in game {game_id} as Bob." in shown, shown
        await bob.expect("The game starts")


async def test_an_ambiguous_start_of_a_game_s_id_says_which_games_it_could_mean() -> None:
    """Seventeen games' ids, of sixteen hexadecimal digits, share a first letter somewhere."""
    async with (
        running_server(open_games_per_connection=20, open_games_per_address=20, **FAST) as server,
        driven(url(server), name="Bob") as bob,
    ):
        await bob.expect("No games yet")
        creator = await Client.connect(server)
        ids = [await create_game(creator, map="seed", players=2) for _ in range(17)]
        first = next(c for c in "0123456789abcdef" if sum(i.startswith(c) for i in ids) > 1)
        sharing = sorted(i for i in ids if i.startswith(first))
        shown = await bob.type(f"join {first}")
        assert f"could be any of the games {', '.join(sharing[:6])}" in shown, shown
        assert bob.app.tracker is None
        shown = await bob.type(f"watch {sharing[0][:5]}")
        assert f"Watching game {sharing[0]}." in shown, shown
        await creator.close()


async def test_the_game_list_shows_what_changes_the_game() -> None:
    async with running_server(min_turn_seconds=1, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.expect("No games yet")
        creator = await Client.connect(server)
        fog = await create_game(
            creator, map="twin-keeps", players=3, turn_seconds=120, evolution=3, bots=1, bot_strategy="aggressive"
        )
        cards = await create_game(
            creator, ruleset="classic", map="cataract", players=3, card_schedule="increasing", mode="mission"
        )
        plain = await create_game(creator, map="seed", players=2)
        shown = await alice.type("games")
        assert (
            f"  {fog:<12} RISC on Twin Keeps (8 territories) [Evolution 3: fog of war, spies and cloaking; 120 s "
            "a turn; 1 computer player (aggressive)]: 2 of 3 seats free"
        ) in shown, shown
        assert "[cards increasing; secret missions]: 3 of 3 seats free" in shown.replace("\n      ", " "), shown
        assert f"  {plain:<12} RISC on Seed example (9 territories): 2 of 2 seats free" in shown  # nothing to note
        assert cards in shown
        await creator.close()


async def test_recent_finished_games_are_listed_again_after_a_restart(tmp_path: Path, race: RaceToTwenty) -> None:
    """Before, the finished games vanished from `games` after a restart (risc replay still found them); a game closed
    before it started is not one of them."""
    database = tmp_path / DATABASE_NAME
    async with running_server(SqliteStorage(database), **FAST) as server:
        creator = await Client.connect(server)
        played = await create_game(creator, ruleset="race", map=None, players=2, bots=2)
        closed = await create_game(creator, map="seed", players=2)
        await join(creator, closed, "Ann")
        assert (await creator.request(type="leave_game", game_id=closed))["type"] == "left"
        match = server.lobby.get(played)
        assert (await creator.request(type="watch_game", game_id=played))["type"] == "watching"
        await until(lambda: match.finished, "the computer players to finish their game", creator)
        winner = match.summary().winner
        await creator.close()
    async with running_server(SqliteStorage(database), **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.expect("Games:")
        shown = await alice.type("games")
        assert f"  {played:<12} Race to twenty on " in shown and f"finished, {winner} won" in shown, shown
        assert closed not in shown
        shown = await alice.type(f"watch {played}")
        assert f"Watching game {played}." in shown
        await alice.expect(f"{winner} won game {played}")


# ---- resigning ----------------------------------------------------------------------------------------------------


async def resign(player: Driver) -> str:
    asked = await player.type("resign")
    assert "You will be out for good (yes/no)" in asked, asked
    return await player.type("yes")


async def test_risc_a_player_resigns_their_territories_turn_neutral_and_they_watch_on() -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create seed 3 bots=1")
        bob = await Client.connect(server)
        await join(bob, game_id_of(alice), "Bob")  # who places nothing until the test says: the board holds still
        await alice.expect("Place your")
        tracker = alice.app.tracker
        assert tracker is not None and tracker.view is not None
        hers = {n: t.units for n, t in tracker.view.territories.items() if t.owner == "Alice"}
        refused = await alice.type("leave")
        assert "resign" in refused, refused
        assert "You play on." in await alice.type("resign") + await alice.type("no")
        shown = await resign(alice)
        assert f"You resigned game {tracker.game_id}: you may watch it to its end, or leave." in shown, shown
        await alice.expect("Alice (you) resigned: your territories are neutral now, with your units.")
        await until(
            lambda: tracker.view is not None and all(tracker.view.territories[n].owner is None for n in hers),
            "her territories to turn neutral",
            alice,
        )
        assert {n: tracker.view.territories[n].units for n in hers} == hers
        assert tracker.lost and not tracker.active
        await bob_commits_placement(bob, tracker.game_id)
        await alice.expect("Turn 1")  # the others play on, and she watches
        refused = await alice.type("place 1 " + next(iter(hers)))
        assert "Refused: you have been eliminated and can only watch" in refused, refused
        game = server.lobby.get(tracker.game_id)
        assert game.status() is not None and "Alice" in game.status().eliminated  # type: ignore[union-attr]


async def test_warzone_the_last_player_left_after_a_resignation_wins() -> None:
    async with running_server(seeds=lambda: 3, **FAST) as server, driven(url(server), name="Eve") as eve:
        await eve.type("create twin-keeps 2 rules=warzone bots=1")
        await eve.expect("The game starts")
        tracker = eve.app.tracker
        assert tracker is not None
        await resign(eve)
        await eve.expect(f"bot-strategist-1 won game {tracker.game_id}")
        assert "your cards went back to the deck" in eve.app.text()
        assert tracker.followed.game is not None and tracker.followed.game.winner == "bot-strategist-1"
        assert server.lobby.get(tracker.game_id).finished


async def test_classic_a_player_who_resigns_on_their_turn_passes_it_and_keeps_their_countries() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create cataract 3 rules=classic bots=2")
        await alice.expect("Place a starting army: placearmy COUNTRY, or placeall.")
        tracker = alice.app.tracker
        assert tracker is not None
        await alice.type("placeall")
        await alice.expect("reinforce COUNTRY NUM", timeout=10)
        hers = {n for n, t in tracker.view.territories.items() if t.owner == "Alice"}
        await resign(alice)
        await alice.expect("Alice (you) resigned: your countries stay yours with your armies")
        await until(lambda: "Alice" not in tracker.followed.waiting_for(), "her turn to pass on", alice)
        assert {n for n, t in tracker.view.territories.items() if t.owner == "Alice"} <= hers
        assert tracker.lost
        assert server.lobby.get(tracker.game_id).status().acting != {"Alice"}  # type: ignore[union-attr]


async def test_the_grid_game_a_player_who_resigns_while_deploying_is_passed_by() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create rules=grid 3 bots=2")
        await alice.expect("Deploy one troop: deploy ROW,COL")
        tracker = alice.app.tracker
        assert tracker is not None
        await resign(alice)
        await alice.expect("Alice (you) resigned: your cells stay yours with your troops")
        await alice.expect(" Turn 1 ", timeout=10)  # the computer players deploy without her and play on
        assert "Alice" in server.lobby.get(tracker.game_id).status().eliminated  # type: ignore[union-attr]


@pytest.mark.parametrize("rules", ["risc", "warzone", "classic", "grid"])
async def test_a_game_with_a_resignation_replays_from_its_store(
    tmp_path: Path, rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The resignation is logged as a resolution of its own, so `risc replay` plays it again, and what the rule set
    made of it, with the game's dice. The computer players play three seats; the fourth resigns at once."""
    database = tmp_path / DATABASE_NAME
    settings: dict[str, Any] = {"grid": {"map": None}, "risc": {"map": "seed"}}.get(rules, {"map": "cataract"})
    async with running_server(SqliteStorage(database), seeds=lambda: 11, **FAST) as server:
        client = await Client.connect(server)
        game_id = await create_game(
            client, ruleset=rules, players=4 if rules != "grid" else 3, bots=3 if rules != "grid" else 2, **settings
        )
        await join(client, game_id, "Quitter")
        assert (await client.request(type="resign", game_id=game_id))["type"] == "resigned"
        match = server.lobby.get(game_id)
        await until(
            lambda: match.finished or (match.game is not None and match.game.step >= 4),
            "the others to play on after it",
            client,
            timeout=20,
        )
        await client.close()
    assert await asyncio.to_thread(main, ["replay", game_id, "--data-dir", str(tmp_path)]) == 0, capsys.readouterr()
    replayed = capsys.readouterr().out
    assert "resolutions replayed from the seed give the stored game" in replayed.splitlines()[-1], replayed
    # the resignation is told as one, before what the rules made of it
    said = RULESETS[rules].presentation.resignation
    assert f"\n    Quitter resigned: {said}.\n" in replayed, replayed


# ---- several games at once -----------------------------------------------------------------------------------------


async def test_one_name_plays_several_games_at_once_and_is_told_where_it_is_awaited() -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create seed 2 bots=1")
        await alice.expect("Place your")
        first = game_id_of(alice)
        shown = await alice.type("create twin-keeps 2 bots=1")
        assert "play it out" not in shown, shown
        assert f"Game {first} goes on without being on screen: join {first} goes back to it." in shown
        await alice.expect("Place your")
        second = game_id_of(alice)
        assert second != first and set(server.lobby.matches) >= {first, second}
        placed = await alice.type("place rest *")
        assert "Refused" not in placed, placed
        await alice.type("done")
        await alice.expect("Turn 1")
        shown = await alice.type(f"join {first[:4]}")
        assert f"Back to game {first}, where you play as Alice." in shown, shown
        assert "Place your" in shown or "units left to place" in shown, shown
        assert "Refused" not in await alice.type("place rest *")
        await alice.type("done")
        await alice.expect("Turn 1")
        both = [server.lobby.get(g).status() for g in (first, second)]
        assert all(s is not None and s.turn >= 1 for s in both)
        shown = await alice.type(f"join {second}")
        assert f"Back to game {second}" in shown and "Turn 1" in shown, shown


async def test_a_join_or_watch_the_server_refuses_leaves_the_game_on_screen_where_it_was() -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create seed 2 bots=1")
        await alice.expect("Place your")
        first = game_id_of(alice)
        for typed in ("join zzz", "watch zzz"):
            shown = await alice.type(typed)
            assert 'Refused: there is no game "zzz"' in shown, shown
            assert "goes on without being on screen" not in shown, shown
            assert alice.app.tracker is not None and alice.app.tracker.game_id == first, typed
        assert "Refused" not in await alice.type("place rest *"), "her game is still the one on screen"
        assert server.lobby.get(first) is not None


async def test_a_game_created_for_computers_alone_is_watched_not_refused_a_seat() -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.expect("No games yet")
        shown = await alice.type("create seed 2 bots=2")
        assert "Refused" not in shown, shown
        assert "Every seat of game " in shown and "is a computer's: you watch it." in shown, shown
        tracker = alice.app.tracker
        assert tracker is not None and tracker.player is None and tracker.game_id in server.lobby.matches


# ---- chat -----------------------------------------------------------------------------------------------------------


async def test_chat_in_the_lobby_in_a_game_to_one_player_and_among_those_who_watch() -> None:
    async with (
        running_server(seeds=lambda: 4, **FAST) as server,
        driven(url(server), name="Alice") as alice,
        driven(url(server), name="Bob") as bob,
    ):
        await alice.expect("No games yet")
        await bob.expect("No games yet")
        await bob.type("say anyone for a game?")
        await alice.expect("[lobby] Bob: anyone for a game?")
        await alice.type("create seed 3")
        game_id = game_id_of(alice)
        await bob.type(f"join {game_id}")
        cy = await Client.connect(server)
        await join(cy, game_id, "Cy")
        await alice.expect("Place your")
        await bob.expect("Place your")
        await alice.type("say good luck, all")
        await bob.expect("[chat] Alice: good luck, all")
        await alice.type("tell bob shall we take Cy first?")  # names ignore case
        await bob.expect("[to you] Alice: shall we take Cy first?")
        told = [
            e["event"] for f in cy.frames if f["type"] == "update" for e in f["events"] if e["event"]["kind"] == "chat"
        ]
        assert [t["text"] for t in told] == ["good luck, all"], "Cy hears what is said to all, not to Bob"

        async with driven(url(server), name="Dee") as dee:  # a spectator: talks with the other watchers
            await dee.type(f"watch {game_id}")
            shown = await dee.type("say who is winning?")
            assert "Refused" not in shown, shown
            await dee.expect("[watchers] Dee (watching): who is winning?")
            shown = await dee.type("tell Alice psst")
            assert "Refused: Alice plays on: those who watch talk among themselves until the game is over" in shown
            refused = await cy.request(type="chat", game_id=game_id, text="x" * 301)
            assert refused["type"] == "error" and refused["code"] == "invalid-message"
            forged = await cy.request(type="chat", game_id=game_id, text="hi\n[chat] Alice: I resign")
            assert forged["type"] == "error" and "does not show" in forged["message"]
        await alice.type("say still here")
        assert "who is winning?" not in alice.app.text() and "who is winning?" not in bob.app.text()
        await cy.close()


async def test_a_word_too_long_for_the_chat_is_refused_with_its_length_and_the_client_goes_on() -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create seed 2 bots=1")
        await alice.expect("Place your")
        for typed in ("say " + "x" * 310, "tell bot-strategist-1 " + "y" * 301):
            shown = await alice.type(typed)
            assert "a word in the chat has at most 300 characters, this one has 3" in shown, shown
        shown = await alice.type("say a\u200bb")  # a character that does not show: the chat refuses it
        assert "Not sent: " in shown and "U+200B, a character that does not show" in shown, shown
        assert "[chat] Alice (you): ok" in await alice.type("say ok"), "the client goes on"
        assert server.lobby.get(game_id_of(alice)) is not None


async def test_a_player_who_comes_back_is_shown_the_chat_and_words_are_paced(tmp_path: Path) -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create seed 2")
        game_id = game_id_of(alice)
        bob = await Client.connect(server)
        bob_token = await join(bob, game_id, "Bob")
        await alice.expect("Place your")
        await bob.close()
        await alice.type("say are you there, Bob?")
        back = await Client.connect(server)
        resumed = await back.request(type="resume", game_id=game_id, token=bob_token, last_seq=1)
        assert resumed["type"] == "resumed"
        update = await back.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id)
        said = [e["event"] for e in update["events"] if e["event"]["kind"] == "chat"]
        assert said == [
            {
                "player": "Alice",
                "text": "are you there, Bob?",
                "to": None,
                "watchers": False,
                "watching": False,
                "kind": "chat",
            }
        ]
        answers = [await back.request(type="chat", game_id=game_id, text=f"yes {n}") for n in range(7)]
        assert [a["type"] for a in answers[:5]] == ["chat_sent"] * 5
        assert answers[5]["type"] == "error" and answers[5]["code"] == "rate-limited", answers[5]
        await back.close()


async def test_a_spectator_of_a_fog_game_is_told_why_and_a_player_who_resigned_follows_another() -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.type("create twin-keeps 3 evolution=3 bots=2")
        await alice.expect("The game starts")
        game_id = game_id_of(alice)
        async with driven(url(server), name="Dee") as dee:
            shown = await dee.type(f"watch {game_id}")
            assert "under fog of war (Evolution 3): a spectator sees only what is public" in shown, shown
            assert "A player who is out may follow a player still in" in shown
        await resign(alice)
        shown = await alice.type(f"watch {game_id} BOT-STRATEGIST-1")  # names ignore case
        assert f"Watching game {game_id} through bot-strategist-1's eyes." in shown, shown
