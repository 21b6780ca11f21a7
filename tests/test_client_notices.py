"""The text client told of a game not on its screen (docs/notifications.md): a bell and a line for a nudge, a word
that names the player, a challenge; nothing for the game on screen, which tells it itself."""

from __future__ import annotations

from client.core import effects as fx
from client.core import news
from client.core.commands import execute
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


def test_vacation_and_notify_say_what_the_server_answered_and_a_guest_is_told_to_sign_in() -> None:
    from shared.protocol.notifications import AskVacation, NotificationSettings, SetNotifications, VacationStatus
    from tests.client_core_support import Known, Run
    from tests.test_client_accounts_core import ANN

    state = state_of()
    sent: list[object] = []

    def server(request: fx.Request) -> object:
        assert isinstance(request, fx.Said)
        sent.append(request.message)
        if isinstance(request.message, AskVacation):
            return VacationStatus(until=None, used_days=1.5, allowed_days=30)
        return NotificationSettings(
            mail="ann@example.org", webhook=None, webhook_secret=None, events=["your_turn"], page=True,
            terminal=True, mail_paused=None, webhook_paused=None,
        )  # fmt: skip

    run = Run(server=server)
    run(execute(state, "vacation 3"))
    assert sent == [] and "not signed in" in run.shown.lower(), "a guest has no vacation"
    assert isinstance(state.known, Known)
    state.known.account, state.known.accounts = ANN, "optional"
    run = Run(server=server)
    run(execute(state, "vacation end"))
    assert sent == [AskVacation(days=0.0)] and "No vacation under way (1.5 of 30 days taken" in run.shown
    run(execute(state, "notify mail ann@example.org"))
    assert sent[-1] == SetNotifications(mail="ann@example.org")
    assert "mail:     ann@example.org" in run.shown
    run(execute(state, "notify mail off"))
    assert sent[-1] == SetNotifications(mail=None) and "mail" in sent[-1].model_fields_set
