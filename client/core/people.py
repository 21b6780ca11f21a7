"""Ratings, quick play and challenges in the text client: a rule set's ladder and a player's profile (in the words of
client/ladder_text.py, as `risc ratings` says them), asking for a game and the wait, a game found put on screen,
inviting an account to a game and answering an invitation."""

from __future__ import annotations

from client import commands as cmd
from client.core import effects as fx
from client.core.effects import Effect, Later, Plan, Show
from client.core.lobby import open_account_seat, settings_of
from client.core.news import TITLES
from client.core.state import State, answer, error
from client.ladder_text import leaderboard_text, profile_text
from shared.protocol import ratings as people


def ladder(state: State, ruleset: str | None) -> Plan[None]:
    name = ruleset or _current_ruleset(state) or "risc"
    board = yield from answer(fx.Said(people.AskLeaderboard(ruleset=name, limit=20)), people.Leaderboard)
    if board is not None:
        yield Show(leaderboard_text(board, TITLES.get(name, name)))


def profile(state: State, name: str | None) -> Plan[None]:
    who = name or state.signed_in
    if who is None:
        yield error("Whose profile? profile NAME (signed in, profile alone shows yours).")
        return
    found = yield from answer(fx.Said(people.AskProfile(name=who)), people.Profile)
    if found is not None:
        yield Show(profile_text(found, TITLES))


def quick(state: State, command: cmd.Quick) -> Plan[None]:
    if command.stop:
        left = yield from answer(fx.Said(people.LeaveQuickPlay()), people.QuickPlayLeft)
        if left is not None:
            state.queued_said = None
            yield Show("You are out of the quick play queue.")
        return
    if state.signed_in is None:
        yield error("Quick play is an account's: signin NAME first (signup NAME makes one).")
        return
    ask = people.QuickPlay.model_validate(
        {
            "ruleset": command.ruleset,
            "players": command.players,
            "pace": command.pace,
            "computers_after": command.computers_after,
        }
    )
    waiting = yield from answer(fx.Said(ask), people.QuickPlayWaiting)
    if waiting is not None:
        state.queued_said = None
        yield from _said(on_quick_play(state, waiting))
        yield Show("quick stop stops waiting; you keep playing meanwhile, and the game comes on screen when found.")


def _said(effects: list[Effect]) -> Plan[None]:
    yield from effects


def on_quick_play(state: State, news: people.QuickPlayWaiting | people.QuickPlayFound) -> list[Effect]:
    """The wait, said when who is queued for what changes; a game found, put on screen."""
    if isinstance(news, people.QuickPlayFound):
        state.queued_said = None
        rated = "a rated game" if news.rated else "a game (computers filled it: not rated)"
        return [
            Show(f"Quick play found you {rated}: game {news.game_id}, you play as {news.player}.", "class:win"),
            Later(open_account_seat(state, news.game_id, news.player)),
        ]
    queued = "; ".join(
        f"{TITLES.get(q.ruleset, q.ruleset)} {q.players} {q.pace}: {', '.join(q.names)}" for q in news.queued
    )
    if queued == state.queued_said:
        return []
    state.queued_said = queued
    after = "" if news.computers_in is None else f", computers fill it in {news.computers_in:.0f} s"
    return [
        Show(
            f"Waiting for a {news.pace} {TITLES.get(news.ruleset, news.ruleset)} game of {news.players} (your rating "
            f"{news.rating}, players within {news.window} of each other{after}). Queued: {queued}.",
            "class:hint",
        )
    ]


def challenge(state: State, command: cmd.ChallengeTo) -> Plan[None]:
    settings = settings_of(command.game)
    if isinstance(settings, str):
        yield error(settings)
        return
    sent = yield from answer(fx.Said(people.Challenge(name=command.name, settings=settings)), people.ChallengeSent)
    if sent is not None and state.signed_in is not None:
        yield Show(f"You challenged {sent.to}: game {sent.game_id} waits for them (you sit in it; home lists it).")
        yield from open_account_seat(state, sent.game_id, state.signed_in)


def answer_challenge(state: State, game_id: str, accept: bool) -> Plan[None]:
    said = yield from answer(fx.Said(people.AnswerChallenge(game_id=game_id, accept=accept)), people.ChallengeAnswered)
    if said is None:
        return
    if not accept:
        yield Show(f"You declined the challenge to game {game_id}.")
        return
    yield Show(f"You accepted: you sit in game {game_id}.")
    yield from open_account_seat(state, game_id, said.name)


def _current_ruleset(state: State) -> str | None:
    t = state.tracker
    return None if t is None or t.followed.game is None else t.followed.game.settings.ruleset
