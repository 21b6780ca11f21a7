"""The text client told of a game not on its screen (docs/notifications.md): a bell and a line for a nudge, a word
that names the player, a challenge; nothing for the game on screen, which tells it itself."""

from __future__ import annotations

from client.core import effects as fx
from client.core import news
from client.tracker import Tracker
from shared.protocol.notifications import Notice
from tests.client_core_support import seed_followed, state_of


def nudge(game_id: str) -> Notice:
    return Notice(
        id="n1", kind="nudged", game_id=game_id, text=f"Ann nudged you in game {game_id}.", body={"by": "Ann"}
    )


def test_a_nudge_of_a_game_not_on_screen_rings_the_bell_and_says_where_to_go() -> None:
    state = state_of(seed_followed("g1", "Bob"), seed_followed("g2", "Bob"))
    state.tracker = Tracker(state.known.followed["g1"])
    told = news.on_game_notice(state, nudge("g2"))
    assert isinstance(told[0], fx.Bell)
    assert isinstance(told[1], fx.Show) and told[1].text == "Ann nudged you in game g2. (join g2 to play it)"


def test_the_game_on_screen_tells_its_own_news() -> None:
    state = state_of(seed_followed("g1", "Bob"))
    state.tracker = Tracker(state.known.followed["g1"])
    assert news.on_game_notice(state, nudge("g1")) == []
