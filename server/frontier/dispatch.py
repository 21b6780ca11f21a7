"""What each client message does: one branch per type, each handing the work to the lobby or to a game's match."""

from __future__ import annotations

from server.accounts.desk import AccountDesk, signed_in
from server.frontier.guesses import address_of
from server.lobby.lobby import Lobby
from server.match import Subscriber
from server.refusal import Refusal
from shared.protocol.codes import ErrorCode
from shared.protocol.messages import (
    AskStatistics,
    Chat,
    ClientMessage,
    Commit,
    CreateGame,
    GameCreated,
    Games,
    HandOver,
    Hello,
    IssueOrder,
    IssueOrders,
    JoinGame,
    LeaveGame,
    LegalOrders,
    ListGames,
    ListMaps,
    ListOrders,
    ListRuleSets,
    Maps,
    MoveOrderTo,
    OpenReplay,
    Rematch,
    ReplayTurn,
    Resign,
    Resume,
    RuleSets,
    Statistics,
    WatchGame,
    WithdrawOrder,
)
from shared.protocol.notifications import Looking, Nudge
from shared.protocol.ratings import (
    AnswerChallenge,
    AskGameRatings,
    AskLeaderboard,
    AskProfile,
    Challenge,
    LeaveQuickPlay,
    QuickPlay,
)


async def dispatch(lobby: Lobby, desk: AccountDesk, sub: Subscriber, message: ClientMessage) -> None:
    """Carry out one validated message. Raises Refusal, having changed nothing, when it cannot."""
    match message:
        case ListGames():
            lobby.lobby_room.enter(sub)  # who looks at the lobby hears its chat while they follow no game, or watch it
            games, total = await lobby.page(message.offset, message.limit)
            lobby.watch_lobby(sub, message.watch)
            sub.send(Games(games=games, total=total, offset=message.offset, ref=message.ref))
        case ListMaps():
            sub.send(Maps(maps=lobby.maps(), ref=message.ref))
        case ListRuleSets():
            sub.send(RuleSets(rulesets=lobby.rulesets(), ref=message.ref))
        case CreateGame():
            if signed_in(sub) is None:
                desk.check_guest_may_play()
            desk.check_may_rate(sub, message.settings)
            game = await lobby.create(message.settings, message.map_upload, sub)
            sub.send(GameCreated(game=game.summary(), ref=message.ref))
        case JoinGame():
            name, account = await desk.seat_name(sub, message.name)
            await (await lobby.find_typed(message.game_id)).join(
                sub, name, message.group, message.ref, message.request_id, account
            )
        case LeaveGame():
            await lobby.leave(sub, message.game_id, message.ref)
        case WatchGame():
            await (await lobby.find_typed(message.game_id)).watch(sub, message.last_seq, message.follow, message.ref)
        case Resume():
            signed = signed_in(sub)
            await (await lobby.find(message.game_id)).resume(
                sub, message.token, message.last_seq, message.ref, None if signed is None else signed.account_id
            )
        case IssueOrder():
            await (await lobby.find(message.game_id)).issue(
                sub, message.turn, message.order, message.ref, message.request_id
            )
        case IssueOrders():
            await (await lobby.find(message.game_id)).issue_batch(
                sub, message.turn, message.orders, message.ref, message.request_id, message.commit
            )
        case WithdrawOrder():
            await (await lobby.find(message.game_id)).withdraw(
                sub, message.turn, message.index, message.ref, message.request_id
            )
        case MoveOrderTo():
            await (await lobby.find(message.game_id)).move(
                sub, message.turn, message.index, message.to, message.ref, message.request_id
            )
        case ListOrders():
            await (await lobby.find(message.game_id)).list_orders(sub, message.ref)
        case LegalOrders():
            await (await lobby.find(message.game_id)).legal_orders(sub, message.ref)
        case Commit():
            await (await lobby.find(message.game_id)).commit(sub, message.turn, message.ref, message.request_id)
        case Rematch():
            await (await lobby.find(message.game_id)).request_rematch(sub, message.ref)
        case HandOver():
            await lobby.hand_over(sub, message.game_id, message.player, message.ref)
        case Chat():
            speaker = await desk.speaker_name(sub, message.name)
            await lobby.chat(sub, message.game_id, message.text, message.to, speaker, message.ref)
        case Resign():
            await (await lobby.find(message.game_id)).resign(sub, message.ref)
        case AskStatistics():
            statistics = await lobby.replays.statistics(message.game_id, _address(sub))
            sub.send(Statistics(game_id=message.game_id, statistics=statistics, ref=message.ref))
        case OpenReplay():
            sub.send(await lobby.replays.open(message.game_id, message.sight, message.ref, _address(sub)))
        case ReplayTurn():
            replays = lobby.replays
            sub.send(
                await replays.turn(message.game_id, message.sight, message.index, message.ref, sub.words, _address(sub))
            )
        case Nudge():
            await (await lobby.find(message.game_id)).nudge(sub, message.player, message.ref)
        case Looking():
            setattr(sub, "looking", message.game_id)  # noqa: B010  # a connection's own (followers.looking): no answer
        case (
            AskLeaderboard()
            | AskProfile()
            | AskGameRatings()
            | QuickPlay()
            | LeaveQuickPlay()
            | Challenge()
            | (AnswerChallenge())
        ):
            if desk.people is not None:
                await desk.people.handle(sub, message)
        case Hello():
            raise Refusal(ErrorCode.INVALID_MESSAGE, "hello comes once, as the first message")
        case _:
            await desk.handle(sub, message)  # type: ignore[arg-type]  # a connection is a desk's Member


def _address(sub: Subscriber) -> str:
    """Where a connection comes from, as paces per address count it (an IPv6 address by its /64)."""
    return address_of(str(getattr(sub, "address", "?")))
