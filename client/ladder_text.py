"""A ladder and a profile in a terminal's words, at 80 columns and in a screen of 24 lines: the leaderboard's rows,
and a profile's ratings by rule set, its rating history as a line of bars, and its last games (`risc ratings`)."""

from __future__ import annotations

import time

from shared.protocol.ratings import Leaderboard, Profile

BARS = "▁▂▃▄▅▆▇█"
CHART_POINTS = 60


def _rating(rating: int, provisional: bool) -> str:
    return f"{rating}{'?' if provisional else ' '}"


def leaderboard_text(board: Leaderboard, title: str) -> str:
    """The leaderboard: place, name, rating (? while provisional), games, wins and win rate, one line each."""
    if not board.players:
        return f"{title}: nobody has played a rated game of it lately."
    shown = board.offset + len(board.players)
    lines = [
        f"{title} ladder ({board.offset + 1}-{shown} of {board.total}; ? provisional)",
        f"{'#':>4}  {'player':22} {'rating':>7} {'games':>6} {'wins':>5} {'win rate':>9}",
    ]
    for entry in board.players:
        rate = f"{100 * entry.wins / entry.games:.0f}%" if entry.games else "-"
        lines.append(
            f"{entry.place:>4}  {entry.name[:22]:22} {_rating(entry.rating, entry.provisional):>7} "
            f"{entry.games:>6} {entry.wins:>5} {rate:>9}"
        )
    return "\n".join(lines)


def chart(ratings: list[int], points: int = CHART_POINTS) -> str:
    """The last `points` ratings as a line of bars, lowest to highest."""
    shown = ratings[-points:]
    if not shown:
        return ""
    low, high = min(shown), max(shown)
    span = max(1, high - low)
    return "".join(BARS[round((r - low) * (len(BARS) - 1) / span)] for r in shown)


def profile_text(profile: Profile, titles: dict[str, str], recent: int = 8) -> str:
    """A profile: a rating a rule set (with games, wins), the history of the last rule set played as bars, the last
    games."""
    who = f"{profile.name}{' (a computer strategy)' if profile.computer else ''}"
    if not profile.ratings:
        return f"{who}: no rated game yet."
    lines = [f"{who}: ratings (? provisional)"]
    for r in profile.ratings:
        rate = f"{100 * r.wins / r.games:.0f}%" if r.games else "-"
        lines.append(
            f"  {titles.get(r.ruleset, r.ruleset)[:22]:22} {_rating(r.rating, r.provisional):>7} "
            f"{r.games:>5} games {r.wins:>4} wins ({rate})"
        )
    last = profile.games[-1].ruleset if profile.games else None
    history = [g.rating for g in profile.games if g.ruleset == last]
    if len(history) > 1:
        lines.append(
            f"{titles.get(last or '', last)} rating, last {min(len(history), CHART_POINTS)} games: "
            f"{min(history[-CHART_POINTS:])}-{max(history[-CHART_POINTS:])}"
        )
        lines.append("  " + chart(history))
    lines.append("last games:")
    for game in profile.games[-recent:][::-1]:
        when = time.strftime("%Y-%m-%d", time.localtime(game.at))
        lines.append(
            f"  {when} {game.game_id:8} {titles.get(game.ruleset, game.ruleset)[:18]:18} "
            f"{game.place} of {game.players}  {_rating(game.rating, game.provisional):>6} ({game.change:+d})"
        )
    return "\n".join(lines)
