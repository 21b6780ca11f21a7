"""The games a server holds: creating them, finding them by id, listing them, restoring them from the store."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from server.clock import Clock, LoopClock, Timer
from server.computers.players import ServerBot, check_strategy, reseat_bots, seat_bots, seat_substitute
from server.computers.share import ComputerTime
from server.core.table import Table, Vacation
from server.frontier.guesses import address_of
from server.lobby.catalogue import Catalogue, read_upload
from server.lobby.chat import ChatPace, LobbyRoom
from server.lobby.directory import RESTORED_LOG_ENTRIES, Directory, Elsewhere, Hooks, LocalDirectory
from server.lobby.game_ids import unique_game
from server.match import Followed, Match, Subscriber
from server.metrics import Metrics
from server.refusal import Redirect, Refusal
from server.replays.service import Replays
from server.storage.base import SeatRecord, Storage, StorageError, is_damage
from server.storage.codec import map_from_dict
from server.storage.notices import OutboxRow
from server.tasks import BackgroundTasks
from shared.game.ruleset import AnyRuleSet
from shared.maps.model import GameMap
from shared.protocol import wording
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings, GameSummary, MapInfo, RuleSetInfo
from shared.protocol.messages import ChatSent, GameListed, MapUpload
from shared.protocol.messages import Redirect as RedirectMessage
from shared.rulesets import RULESETS, get_ruleset

if TYPE_CHECKING:
    from server.notify.desk import Notifier

logger = logging.getLogger("risc.server")

HANDED_AT_ONCE = 8
"""Games handed to this node taken over at once (their reads from the store overlap)."""


@functools.cache
def ruleset_info(ruleset: AnyRuleSet) -> RuleSetInfo:
    """What `list_rulesets` tells of a rule set, made once (its options' JSON schema leaves cycles of garbage behind
    each time it is made: server/collector.py). Shared by every answer: never change it."""
    defaults = ruleset.options({})
    return RuleSetInfo(
        name=ruleset.name,
        title=ruleset.title,
        blurb=ruleset.blurb,
        simultaneous=ruleset.simultaneous,
        own_map=ruleset.own_map,
        players=ruleset.player_counts(defaults),
        strategies=sorted(ruleset.strategies),
        default_strategy=ruleset.default_strategy,
        options=ruleset.options_type.model_json_schema(),
        orders=ruleset.order_kinds(),
    )


def _options_problem(exc: ValidationError) -> str:
    return wording.problems(exc)


def _options_field(exc: ValidationError) -> str:
    """The option at fault, as a path into create_game (`settings.options.initial_units`)."""
    loc = exc.errors(include_url=False)[0]["loc"]
    return ".".join(["settings", "options", *(str(part) for part in loc)])


class Lobby:
    def __init__(
        self,
        storage: Storage,
        max_games: int = 500,
        *,
        finished_games_kept: int = 200,
        bot_turn_pause: float = 0.0,
        catalogue: Catalogue | None = None,
        seeds: Callable[[], int] | None = None,
        clock: Clock | None = None,
        min_turn_seconds: float = 0.0,
        hand_over_after: float = 120.0,
        open_games_per_connection: int = 3,
        open_games_per_address: int = 10,
        computer_games: int = 20,
        computer_share: float = 0.5,
        unstarted_expiry: float = 600.0,
        lonely_expiry: float = 1800.0,
        newcomers_share: float = 0.1,
        directory: Directory | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.storage = storage
        self.metrics = metrics or Metrics()
        """The server's figures (server/metrics.py): take-overs, games handed on, redirects, turns resolved."""
        self.directory = directory or LocalDirectory(storage, finished_games_kept, RESTORED_LOG_ENTRIES)
        """Where each game of the server is played: here alone, or on one node of several (lobby/directory.py)."""
        self.max_games = max_games
        self.finished_games_kept = finished_games_kept
        self.computer_time = ComputerTime(computer_share, bot_turn_pause, clock)
        """Where the server's own players' turns wait theirs, after people's (server/computers/share.py)."""
        self.catalogue = catalogue if catalogue is not None else Catalogue()
        self.min_turn_seconds = min_turn_seconds
        self.hand_over_after = hand_over_after
        self.open_games_per_connection = open_games_per_connection
        self.open_games_per_address = open_games_per_address
        self.computer_games = computer_games
        self._created: dict[int, dict[str, None]] = {}
        """The games here that may still count against the connection that created each, by connection."""
        self._finished: dict[str, None] = {}
        """The games held that are over, in the order they ended (some perhaps let go of since): counted as they end,
        so that creating a game does not ask every game held whether it is over."""
        self.unstarted_expiry = unstarted_expiry
        """How long an unstarted game may go without a player in it before it is closed (0: for ever)."""
        self.lonely_expiry = lonely_expiry
        """How long a game may wait for players with at most one person in it (nobody else joined) before it is
        closed (0: for ever), counted from when this server began to hold it."""
        self.newcomers_share = newcomers_share
        """The share of `max_games` kept for addresses that hold no game waiting for players (newcomers): a crowd
        holding waiting games cannot keep a newcomer from starting one."""
        self._seeds = seeds or (lambda: secrets.randbits(63))
        self._clock: Clock = clock or LoopClock()
        self.matches: dict[str, Match] = {}
        self._creating = asyncio.Lock()
        self.bots: list[ServerBot] = []
        self._idle_timers: dict[str, Timer] = {}
        self._tasks = BackgroundTasks()
        self.chat_pace = ChatPace(self._clock.now)
        self.lobby_room = LobbyRoom()
        self.lobby_watchers: set[Subscriber] = set()
        """Connections told of every game created (`list_games` with `watch`)."""
        self._claims: dict[str, asyncio.Lock] = {}
        """One claim at a time per game, so that two requests for a game nobody holds take it over once."""
        self.replays = Replays(storage, self._clock.now, pictures=self.catalogue.picture_for)
        """Finished games told again (statistics, replays), from the store."""
        self._parked: dict[str, dict[Subscriber, Followed]] = {}
        """The followers of games this node lost with its store (the database restarted) while no node plays them:
        kept connected, each with its seat and what it was sent last, and seated again where the game is taken back
        (here, or sent to the node that took it)."""
        self.stopping = False
        """The server is stopping: its games go to other nodes, and it takes none over."""
        self._handed_to: dict[str, str] = {}
        """Where each game this stopping node gave away went: a request for it still on its way here is sent there."""
        self.notifier: Notifier | None = None
        """The server's notifications (vacations, live notices, the outbox's sender), once it is made."""

    async def restore(self) -> int:
        """Bring back the games the directory says this server plays from its start (a server alone: every
        unfinished game of its store, and the most recent finished ones, listed, watched and rematched as before the
        stop; a node of several: none, each is taken over when a client asks for it, or by the sweeper if it plays
        by itself); returns how many unfinished games came back.

        Games played on the same map share one map object, built once (maps are immutable).
        """
        games = await self.directory.start(
            Hooks(
                lost=self._lost,
                listed=self._listed,
                orphans=self._sweep,
                handed=self._handed,
                heard=self._heard,
                back=self._back,
                noticed=self._noticed,
            )
        )
        maps: dict[str, GameMap] = {}
        restored = []
        for game in games:
            # the list's order
            try:
                game_map = maps.get(game.map_key)
                if game_map is None:
                    game_map = maps[game.map_key] = map_from_dict(game.record.game_map)
                match = Match.restore(game, self.storage, self._rematch, game_map, self._clock)
            except Exception as exc:  # a damaged game is set aside, untouched; the others are restored
                self.storage.set_aside(game.record.game_id, exc)
                continue
            self._adopt(match)
            restored.append(match)
        settled = []
        for match in restored:
            try:  # a turn committed before the stop resolves now; one the rules cannot resolve is damage too
                if match.unsettled:
                    await match.settle()
            except Exception as exc:
                self.storage.set_aside(match.game_id, exc)
                del self.matches[match.game_id]
                await match.close()
                continue
            settled.append(match)
        for match in settled:
            if match.settings.bots or match.table.handed_over:
                self.bots += await reseat_bots(match, self.get, self.computer_time)
            self._watch_unstarted(match)
            self._watch_lonely(match)
        return sum(not match.finished for match in settled)

    def get(self, game_id: str) -> Match:
        """A game this server plays now. Raises Refusal if there is none (see `find` for a node of several)."""
        match = self.matches.get(game_id)
        if match is None:
            raise Refusal(ErrorCode.NO_SUCH_GAME, f'there is no game "{game_id}"')
        return match

    async def find_typed(self, typed: str) -> Match:
        """The game a person named to join or watch: its id, or the start of it when no other game of the server
        starts so (server/lobby/game_ids.py)."""
        ids: set[str] = set(self.matches)
        if typed not in ids:
            try:
                ids = await self.directory.ids_starting(typed, self.matches)
            except StorageError as exc:
                raise Refusal(ErrorCode.STORAGE_FAILED, f"the game list cannot be read right now ({exc})") from None
        return await self.find(unique_game(typed, ids))

    async def find(self, game_id: str) -> Match:
        """The game a request is about: one this server plays, or one the directory lets it take over from the store
        (on a node of several, when no node holds it). Raises Redirect when another node plays it, Refusal when there
        is none."""
        match = self.matches.get(game_id)
        if match is not None:
            return match
        lock = self._claims.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                match = self.matches.get(game_id)
                if match is not None:
                    return match
                try:
                    match = await self._take_over(game_id)
                except Redirect as moved:
                    if moved.url is not None:
                        self._send_parked_on(game_id, moved.url)
                    raise
                await self._seat_parked(match)
                return match
        finally:
            if not lock.locked() and self._claims.get(game_id) is lock:
                del self._claims[game_id]

    async def _take_over(self, game_id: str) -> Match:
        if self.stopping:  # its games are going to other nodes: one of them takes this one
            raise Redirect(game_id, self._handed_to.get(game_id))
        try:
            claim = await self.directory.claim(game_id)
        except (StorageError, OSError) as exc:
            raise Refusal(
                ErrorCode.STORAGE_FAILED, f"the server cannot reach its store right now ({exc}); try again"
            ) from None
        if claim is None:
            raise Refusal(ErrorCode.NO_SUCH_GAME, f'there is no game "{game_id}"')
        if isinstance(claim, Elsewhere):
            raise Redirect(game_id, claim.url)
        try:
            game = await self.storage.restore(game_id, RESTORED_LOG_ENTRIES)
            if game is None:
                raise StorageError(f"game {game_id} is gone from the store")
            match = Match.restore(game, self.storage, self._rematch, map_from_dict(game.record.game_map), self._clock)
        except Exception as exc:
            await self.directory.release(game_id)
            if isinstance(exc, StorageError) and not is_damage(game_id, exc):  # the store failed, not the game
                raise Refusal(
                    ErrorCode.STORAGE_FAILED, f"the server cannot read game {game_id} from its store now; try again"
                ) from None
            self.storage.set_aside(game_id, exc)
            raise Refusal(
                ErrorCode.STORAGE_FAILED,
                f"game {game_id} cannot be read back from the store: it is set aside, untouched",
            ) from None
        match.taken_over = match.started and not match.finished
        self._adopt(match)
        self.metrics.take_overs.inc()
        if match.unsettled:
            await match.settle()
        if match.settings.bots or match.table.handed_over:
            self.bots += await reseat_bots(match, self.get, self.computer_time)
        match.rearm()
        self._watch_unstarted(match)
        self._watch_lonely(match)
        return match

    def _adopt(self, match: Match) -> None:
        self.matches[match.game_id] = match
        match.followers.picture = self.catalogue.picture_for(match.settings.map, match.game_map)
        match.on_moved = self._moved
        match.on_resolved = self.metrics.turns.inc
        notifier = self.notifier
        if notifier is not None:
            match.on_notices = notifier.kept
            match.vacations = self._vacations_of
            match.on_played = self._played
        match.on_finished = partial(self._ended, match.game_id)
        if match.finished:
            self._ended(match.game_id)

    def _vacations_of(self, table: Table) -> dict[str, Vacation]:
        """The latest vacation of each seat's account, as the match's deadlines read them."""
        if self.notifier is None:
            return {}
        found = {}
        for seat in table.seats:
            vacation = self.notifier.vacations.of(seat.account) if seat.account is not None else None
            if vacation is not None:
                found[seat.name] = vacation
        return found

    def _played(self, accounts: list[str]) -> None:
        """Accounts took a turn: a vacation under way ends an hour later."""
        if self.notifier is not None:
            for account in accounts:
                self._tasks.spawn(self.notifier.vacations.took_turn(account), "ending a vacation after a turn failed")

    def vacation_changed(self, account_id: str) -> None:
        """An account's vacation was taken or ended (here or on another node): its games arm their deadlines again."""
        for match in list(self.matches.values()):
            if any(seat.account == account_id for seat in match.table.seats):
                match.rearm()

    def still_news(self, row: OutboxRow) -> bool:
        """Whether a notification is still news by the time its mail goes: a turn that waited for the player's
        orders still does (a game another node plays is taken as news)."""
        notice = row.notice
        if notice.kind not in ("your_turn", "nudged") or notice.game_id is None:
            return True
        match = self.matches.get(notice.game_id)
        if match is None:
            return True
        player = next((s.name for s in match.table.seats if s.account == notice.account_id), None)
        step = notice.body.get("step")
        game = match.game
        if player is None or game is None or not match.awaits(player):
            return False
        return step is None or notice.kind != "your_turn" or game.step == step

    def _moved(self, match: Match) -> None:
        """The store refused a change of `match`: another node owns it now."""
        self._tasks.spawn(self._lost(match.game_id), f"game {match.game_id}: letting it go failed")

    async def _lost(self, game_id: str) -> None:
        """Let go of a game another node owns now (or may own: this node lost its session), sending its followers
        to the node that plays it; while none does, they stay, parked, until a node takes it (this one, once it has
        its store again: they are seated again here, and notice nothing but the wait)."""
        match = self.matches.get(game_id)
        if match is None:
            return
        match.moved = True
        bots = self._sitting_in(game_id)
        followers = self._people_following(match)
        await match.close()
        await self._let_go(match, bots)
        url = await self.owner_url(game_id)
        if url is not None or self.stopping:
            self._send_on(game_id, list(followers), url or self.directory.own_url)
            logger.info("game %s: let go (node %s plays it now)", game_id, url)
            return
        self._parked.setdefault(game_id, {}).update(followers)
        logger.info("game %s: let go; its %d followers wait until a node takes it", game_id, len(followers))

    @staticmethod
    def _people_following(match: Match) -> dict[Subscriber, Followed]:
        """Who follows a game over the network (the server's own players are seated again by the node taking it)."""
        return {sub: f for sub, f in match.followed_by().items() if not isinstance(sub, ServerBot)}

    def _send_on(self, game_id: str, followers: list[Subscriber], url: str) -> None:
        self.metrics.redirects.inc(len(followers))
        for sub in followers:
            sub.games.discard(game_id)
            sub.views.pop(game_id, None)
            sub.send(RedirectMessage(game_id=game_id, url=url))

    def _send_parked_on(self, game_id: str, url: str) -> None:
        """Another node took a game whose followers wait here: they go there."""
        parked = self._parked.pop(game_id, None)
        if parked:
            self._send_on(game_id, list(parked), url)

    async def _seat_parked(self, match: Match) -> None:
        """This node took back a game whose followers wait here: each follows it again from where it was."""
        parked = self._parked.pop(match.game_id, None)
        for sub, followed in (parked or {}).items():
            await match.follow_again(sub, followed)

    async def _back(self) -> None:
        """This node has its store again: it takes back the games whose followers wait here (or sends them to the
        node that took each meanwhile). The store may answer a moment later than the session: a few tries."""
        for pause in (0.0, 0.25, 0.5, 1.0, 2.0, 4.0):
            if not self._parked:
                return
            await asyncio.sleep(pause)
            for game_id in list(self._parked):
                try:
                    await self.find(game_id)
                except Redirect as moved:
                    self._send_parked_on(game_id, moved.url or self.directory.own_url)
                except Refusal as refusal:
                    if refusal.code != ErrorCode.STORAGE_FAILED:  # gone (closed, damaged): they ask again themselves
                        self._send_parked_on(game_id, self.directory.own_url)
        for game_id in list(self._parked):
            self._send_parked_on(game_id, self.directory.own_url)

    async def _handed(self, game_ids: list[str]) -> None:
        """A stopping node gave these games to this one: take them now, before their players come, a few at once
        (each waits on the database for most of its time)."""
        pending = iter(game_ids)

        async def take() -> None:
            for game_id in pending:
                try:
                    await self.find(game_id)
                except (Refusal, Redirect):
                    continue

        await asyncio.gather(*(take() for _ in range(HANDED_AT_ONCE)))
        logger.info("%d game%s handed to this node", len(game_ids), "s" * (len(game_ids) != 1))

    async def _heard(self, name: str, text: str) -> None:
        """A word said in another node's lobby: this one's hears it too."""
        self.lobby_room.tell(name, text, self.lobby_watchers)

    async def _noticed(self, told: list[Any]) -> None:
        """Notifications another node's games made: this node's connections of their accounts are told live."""
        if self.notifier is not None:
            await self.notifier.heard(told)

    async def _sweep(self, game_ids: list[str]) -> None:
        """Take over games nobody holds that play by themselves (the node's sweeper found them)."""
        for game_id in game_ids:
            if self._running() >= self.max_games:
                return
            try:
                await self.find(game_id)
            except (Refusal, Redirect):
                continue
            logger.info("game %s: taken over by the sweeper", game_id)

    async def owner_url(self, game_id: str) -> str | None:
        """Where the node playing a game is reached (a node of several), for a request this node cannot carry out."""
        try:
            return await self.directory.owner_url(game_id)
        except (ConnectionError, StorageError, OSError):
            return None

    def _running(self) -> int:
        return len(self.matches) - len(self._held_finished())

    def _held_finished(self) -> list[Match]:
        """The games held that are over, those that ended first first."""
        self._finished = {g: None for g in self._finished if g in self.matches}
        return [self.matches[g] for g in self._finished]

    def _ended(self, game_id: str) -> None:
        self._finished[game_id] = None

    def held_by_status(self) -> dict[str, int]:
        """How many games this server plays now, by status (for /metrics)."""
        counts: dict[str, int] = {}
        for match in self.matches.values():
            status = "finished" if match.finished else "playing" if match.started else "lobby"
            counts[status] = counts.get(status, 0) + 1
        return counts

    def summaries(self) -> list[GameSummary]:
        return [m.summary() for m in self.matches.values()]

    async def page(self, offset: int, limit: int) -> tuple[list[GameSummary], int]:
        """A page of the lobby, newest games first, and how many games there are in all: on a node of several, every
        game of the store, those it plays as they are now, the others as their node last saved them."""
        try:
            return await self.directory.page(offset, limit, self.matches)
        except StorageError as exc:
            raise Refusal(ErrorCode.STORAGE_FAILED, f"the game list cannot be read right now ({exc})") from None

    # ---- lobby watchers --------------------------------------------------------------------------------------------

    def watch_lobby(self, sub: Subscriber, watch: bool) -> None:
        if watch:
            self.lobby_watchers.add(sub)
        else:
            self.lobby_watchers.discard(sub)

    def _tell_listed(self, summary: GameSummary) -> None:
        if not self.lobby_watchers:
            return
        message = GameListed(game=summary)
        text = message.model_dump_json()
        for sub in list(self.lobby_watchers):
            sub.send(message, text)

    async def _listed(self, summary: GameSummary) -> None:
        """A game was created (on any node of the server): the lobby's watchers hear of it."""
        self._tell_listed(summary)

    def maps(self) -> list[MapInfo]:
        return self.catalogue.infos()

    def rulesets(self) -> list[RuleSetInfo]:
        return [ruleset_info(r) for _, r in sorted(RULESETS.items())]

    async def create(
        self, settings: GameSettings, upload: MapUpload | None = None, creator: Subscriber | None = None
    ) -> Match:
        await self._let_go_of_finished()
        await self.check_creator(creator, settings)  # at once, before the settings and the map are read
        settings, game_map = await self.checked(settings, upload)
        async with self._creating:
            address = await self.check_creator(creator, settings)  # again: others may have created games meanwhile
            game_id = await self._new_id(address)
            try:
                match = await Match.create(
                    game_id, settings, game_map, self.storage, self._seeds(), self._rematch, clock=self._clock
                )
            except BaseException:
                await self.directory.release(game_id)
                raise
            self._adopt(match)
            if creator is not None:
                self._created.setdefault(id(creator), {})[match.game_id] = None
        logger.info(
            "game %s created: %s on %s, %d players%s",
            match.game_id,
            match.ruleset.title,
            game_map.name,
            settings.players,
            f", {settings.turn_seconds:g} s per turn" if settings.turn_seconds else "",
        )
        self.bots += await seat_bots(match, self.get, self.computer_time)
        self._watch_unstarted(match)
        self._watch_lonely(match)
        try:  # every lobby of the server (this one's too) tells its watchers
            await self.directory.announce(match.game_id, match.summary())
        except (StorageError, OSError) as exc:
            logger.warning("game %s: other nodes could not be told of it: %s", match.game_id, exc)
        return match

    async def new_id(self) -> str:
        """A new game's id, held for this server (quick play forms a game under it, then makes it: `create_formed`)."""
        return await self._new_id(None)

    async def create_formed(self, game_id: str, settings: GameSettings, seats: list[SeatRecord]) -> Match:
        """A game formed by quick play under an id held already (`new_id`), its players' seats taken, the server's
        computers seated in the rest when the settings ask for them."""
        try:
            settings, game_map = await self.checked(settings, None)
            async with self._creating:
                match = await Match.create(
                    game_id, settings, game_map, self.storage, self._seeds(), self._rematch, seats, clock=self._clock
                )
                self._adopt(match)
        except BaseException:
            await self.directory.release(game_id)
            raise
        logger.info("game %s formed by quick play: %s", game_id, ", ".join(s.name for s in seats))
        self.bots += await seat_bots(match, self.get, self.computer_time)
        self._watch_unstarted(match)
        try:
            await self.directory.announce(match.game_id, match.summary())
        except (StorageError, OSError) as exc:
            logger.warning("game %s: other nodes could not be told of it: %s", match.game_id, exc)
        return match

    def quick_map(self, ruleset: AnyRuleSet, players: int) -> str | None:
        """The map quick play plays a rule set's game of `players` on: none for a rule set with its own board, else
        the first map of the catalogue that fits (by id)."""
        if ruleset.own_map:
            return None
        options = ruleset.options({})
        for info in sorted(self.catalogue.infos(), key=lambda m: m.id):
            if ruleset.map_problem(self.catalogue.get(info.id), options, players) is None:
                return info.id
        raise Refusal(ErrorCode.BAD_SETTINGS, f"no map of this server fits a {ruleset.title} game of {players}")

    async def check_creator(self, creator: Subscriber | None, settings: GameSettings | None) -> str | None:
        """Refuse a connection (or an address, counted across the whole server) that holds too many games no player
        is in yet or any more: those waiting for players, and those the server's computers play alone, which play
        on by themselves (a client asked for hundreds, and took a whole core). And refuse a game of computers alone
        past this server's number of them, whoever asks (`settings`: the game asked for, if it is known yet).
        Returns the creator's address."""
        alone = settings is not None and settings.bots >= settings.players
        if alone and sum(1 for m in self.matches.values() if self._of_computers(m)) >= self.computer_games:
            raise Refusal(
                ErrorCode.TOO_MANY_GAMES,
                f"this server already plays {self.computer_games} games of "
                "computers alone: join one, or create a game with a seat for "
                "a player",
                field="settings.bots",
            )
        if creator is None:
            return None
        created = self._created.get(id(creator), {})
        for game_id in [g for g in created if g not in self.matches]:
            del created[game_id]  # let go of
        what = "games waiting for players or played by computers alone"
        mine = sum(1 for g in created if self.matches[g].waits)
        if mine >= self.open_games_per_connection:
            raise Refusal(
                ErrorCode.TOO_MANY_GAMES,
                f"you already have {self.open_games_per_connection} {what}: "
                "fill, leave or finish one before creating another",
            )
        address = address_of(str(getattr(creator, "address", "?")))
        try:
            held = await self.directory.waiting_games(address, self.matches)
        except StorageError as exc:
            raise Refusal(ErrorCode.STORAGE_FAILED, f"the server cannot reach its store right now ({exc})") from None
        if held >= self.open_games_per_address:
            raise Refusal(ErrorCode.TOO_MANY_GAMES, f"your computer already has {self.open_games_per_address} {what}")
        kept = int(self.max_games * self.newcomers_share)
        if held and kept and self.max_games - kept <= self._running() < self.max_games:
            raise Refusal(
                ErrorCode.TOO_MANY_GAMES,
                f"this server's last games are kept for players who wait for none: fill, leave or finish your "
                f"{held} first (or join a game: list_games)",
            )
        return address

    async def credit(self, game_id: str, creator: Subscriber) -> None:
        """Count a game made without a creator (quick play's) against the connection of a player in it, and its
        address, as one they created: one the server's computers fill plays on alone once its people resign."""
        self._created.setdefault(id(creator), {})[game_id] = None
        try:
            await self.directory.credit(game_id, address_of(str(getattr(creator, "address", "?"))))
        except StorageError as exc:
            logger.warning("game %s: its player's address could not be noted: %s", game_id, exc)

    @staticmethod
    def _of_computers(match: Match) -> bool:
        """A game the server's computers play alone, or will once its computers are seated (they are seated just
        after it is made)."""
        settings = match.settings
        return match.computers_alone or (not match.started and settings.bots >= settings.players)

    async def _rematch(self, old: Match, seats: list[SeatRecord]) -> Match:
        """R27: the same settings and map, the players who asked in the same seats, each keeping their seat token."""
        settings = old.settings
        bots = sum(1 for s in seats if s.name.startswith("bot-"))
        if len(seats) != settings.players:
            settings = settings.model_copy(update={"players": len(seats), "bots": min(bots, len(seats))})
        async with self._creating:
            game_id = await self._new_id(None)
            try:
                match = await Match.create(
                    game_id,
                    settings,
                    old.game_map,
                    self.storage,
                    self._seeds(),
                    self._rematch,
                    seats,
                    clock=self._clock,
                )
            except BaseException:
                await self.directory.release(game_id)
                raise
            self._adopt(match)
        logger.info("game %s created as a rematch: %s", match.game_id, ", ".join(s.name for s in seats))
        return match

    async def _let_go_of_finished(self) -> None:
        """Keep the newest `finished_games_kept` finished games in memory; the store keeps every game."""
        finished = self._held_finished()
        for match in finished[: max(0, len(finished) - self.finished_games_kept)]:
            await match.close()
            await self._let_go(match)

    async def _let_go(self, match: Match, bots: list[ServerBot] | None = None) -> None:
        """Forget a closed game, and the server's players who sat in it (`bots`: those who did, when closing it made
        them leave already) and nowhere else."""
        self.matches.pop(match.game_id, None)
        await self.directory.release(match.game_id)
        timer = self._idle_timers.pop(match.game_id, None)
        if timer is not None:
            timer.cancel()
        for bot in bots if bots is not None else [b for b in self.bots if match.game_id in b.games]:
            bot.games.discard(match.game_id)
            if not bot.games:
                self.bots.remove(bot)
                await bot.close()

    # ---- unstarted games nobody sits in ----------------------------------------------------------------------------

    def _watch_lonely(self, match: Match) -> None:
        """Close a waiting game that nobody else joined within `lonely_expiry` (one person at most in it): a crowd
        of addresses cannot hold the server's waiting games for ever with one seat each."""
        if self.lonely_expiry <= 0 or match.started:
            return
        game_id = match.game_id

        def due() -> None:
            self._tasks.spawn(self._check_lonely(game_id), f"game {game_id}: checking it for players failed")

        self._clock.call_later(self.lonely_expiry, due)

    async def _check_lonely(self, game_id: str) -> None:
        match = self.matches.get(game_id)
        if match is None or match.started or match.people_in() > 1:
            return
        minutes = self.lonely_expiry / 60
        shown = f"{minutes:g} minutes" if minutes >= 1 else f"{self.lonely_expiry:g} s"
        bots = self._sitting_in(game_id)
        if await match.close_unstarted(f"game {game_id} was closed: nobody else joined it in {shown}", lonely=True):
            await self._let_go(match, bots)

    def _watch_unstarted(self, match: Match, delay: float | None = None) -> None:
        """Look again at an unstarted game after `delay` (the expiry by default): closed if nobody was in it all
        that time. Games that have started are left alone."""
        if self.unstarted_expiry <= 0 or match.started:
            return
        game_id = match.game_id

        def due() -> None:
            self._idle_timers.pop(game_id, None)
            self._tasks.spawn(self._check_unstarted(game_id), f"game {game_id}: checking it for players failed")

        self._idle_timers[game_id] = self._clock.call_later(self.unstarted_expiry if delay is None else delay, due)

    async def _check_unstarted(self, game_id: str) -> None:
        match = self.matches.get(game_id)
        if match is None or match.started:
            return
        left = match.idle_left(self.unstarted_expiry)
        if left is not None and left <= 0:
            minutes = self.unstarted_expiry / 60
            shown = f"{minutes:g} minutes" if minutes >= 1 else f"{self.unstarted_expiry:g} s"
            bots = self._sitting_in(game_id)
            if await match.close_unstarted(f"game {game_id} was closed: nobody sat in it for {shown}"):
                await self._let_go(match, bots)
                return
        self._watch_unstarted(match, left if left is not None and left > 0 else None)

    async def leave(self, sub: Subscriber, game_id: str, ref: str | None) -> None:
        """Leave a game; an unstarted game whose last player left has nobody to wait for, and closes at once."""
        match = await self.find(game_id)
        await match.leave(sub, ref)
        if match.started or match.people_seated():
            return
        bots = self._sitting_in(game_id)
        if await match.close_unstarted(f"game {game_id} was closed: its last player left", at_once=True):
            await self._let_go(match, bots)

    def _sitting_in(self, game_id: str) -> list[ServerBot]:
        return [b for b in self.bots if game_id in b.games]

    async def checked(self, settings: GameSettings, upload: MapUpload | None) -> tuple[GameSettings, GameMap]:
        """The settings as the rule set completes them, and the map: or a refusal saying what is wrong."""
        if self._running() >= self.max_games:
            raise Refusal(
                ErrorCode.TOO_MANY_GAMES,
                f"this server already holds {self.max_games} games in play; try again when one has ended",
            )
        try:
            ruleset = get_ruleset(settings.ruleset)
        except ValueError as exc:
            raise Refusal(ErrorCode.BAD_SETTINGS, str(exc), field="settings.ruleset") from None
        try:
            options = ruleset.options(settings.options)
        except ValidationError as exc:
            raise Refusal(
                ErrorCode.BAD_SETTINGS, f"{ruleset.title} options: {_options_problem(exc)}", field=_options_field(exc)
            ) from None
        ruleset = ruleset.variant(options)
        fewest, most = ruleset.player_counts(options)
        if not fewest <= settings.players <= most:
            raise Refusal(
                ErrorCode.BAD_SETTINGS,
                wording.player_count(ruleset.title, fewest, most, settings.players),
                field="settings.players",
            )
        if settings.turn_seconds is not None and settings.turn_seconds < self.min_turn_seconds:
            raise Refusal(
                ErrorCode.BAD_SETTINGS,
                f"a turn's time limit is at least {self.min_turn_seconds:g} seconds on this server",
                field="settings.turn_seconds",
            )
        strategy = settings.bot_strategy or ruleset.default_strategy
        settings = settings.model_copy(
            update={
                "options": options.model_dump(mode="json"),
                "bot_strategy": strategy if settings.bots else settings.bot_strategy,
            }
        )
        if settings.bots or settings.bot_strategy is not None:
            check_strategy(ruleset, strategy)
        game_map = await self._map(ruleset, settings, upload, options)
        problem = ruleset.map_problem(game_map, options, settings.players)
        if problem is not None:
            raise Refusal(ErrorCode.BAD_SETTINGS, problem, field="settings.map" if upload is None else "map_upload")
        return settings, game_map

    async def _map(
        self, ruleset: AnyRuleSet, settings: GameSettings, upload: MapUpload | None, options: object
    ) -> GameMap:
        if ruleset.own_map:
            if settings.map is not None or upload is not None:
                raise Refusal(
                    ErrorCode.BAD_MAP,
                    f"{ruleset.title} is played on its own board: choose no map",
                    field="settings.map" if upload is None else "map_upload",
                )
            return ruleset.make_map(options)
        if upload is not None:
            if settings.map is not None:
                raise Refusal(
                    ErrorCode.BAD_MAP, "give a map of the catalogue or upload one, not both", field="settings.map"
                )
            return await asyncio.to_thread(read_upload, upload.name, upload.text)
        if settings.map is None:
            raise Refusal(
                ErrorCode.BAD_MAP,
                "choose a map (list_maps gives this server's maps) or upload one",
                field="settings.map",
            )
        return self.catalogue.get(settings.map)

    async def _new_id(self, creator: str | None) -> str:
        """A new game's id: one no game here has, and that the directory holds for this server (on a node of several,
        the store refuses an id some other node gave meanwhile), noting the address that asked for it."""
        while True:
            game_id = secrets.token_hex(3)
            if game_id not in self.matches and await self.directory.reserve(game_id, creator):
                return game_id

    async def hand_over(self, sub: Subscriber, game_id: str, player: str, ref: str | None) -> None:
        """A vote to hand an absent player's seat to the server's computer player; once decided, it sits down."""
        match = await self.find(game_id)
        handed = await match.vote_hand_over(sub, player, self.hand_over_after, ref)
        if handed is not None:
            self.bots += await seat_substitute(match, handed, self.get, self.computer_time)

    async def chat(
        self, sub: Subscriber, game_id: str | None, text: str, to: str | None, name: str | None, ref: str | None
    ) -> None:
        """A word to the lobby (no game) or in a game's chat, paced whatever it is said to."""
        self.chat_pace.take(sub)
        if game_id is not None:
            await (await self.find(game_id)).chat(sub, text, to, name, ref)
            return
        if to is not None:
            raise Refusal(ErrorCode.INVALID_MESSAGE, "the lobby's chat is said to everyone in it: no one to say it to")
        if name is None:
            raise Refusal(ErrorCode.INVALID_MESSAGE, "the lobby's chat is said under a name: give one")
        self.chat_pace.take_lobby(sub)
        sub.send(ChatSent(game_id=None, ref=ref))
        self.lobby_room.say(sub, name, text, self.lobby_watchers)
        try:
            await self.directory.say(name, text)
        except StorageError as exc:
            logger.warning("the lobby's chat could not be told to the other nodes: %s", exc)

    async def disconnect(self, sub: Subscriber) -> None:
        self._created.pop(id(sub), None)  # its id may be a new connection's next: it starts with none of these
        for parked in self._parked.values():
            parked.pop(sub, None)
        self.chat_pace.forget(sub)
        self.lobby_room.leave(sub)
        self.lobby_watchers.discard(sub)
        for game_id in list(sub.games):
            match = self.matches.get(game_id)
            if match is not None:
                await match.disconnect(sub)

    async def settled(self) -> None:
        """Until the lobby's own background work (an idle game looked at, a game let go) is done."""
        await self._tasks.settled()

    async def close(self) -> None:
        """Stop: on a node of several, every game handed to a live node at once and its followers sent there; then
        every game closed and let go."""
        self.stopping = True
        for timer in self._idle_timers.values():
            timer.cancel()
        self._idle_timers.clear()
        await asyncio.gather(*self._tasks.cancel(), return_exceptions=True)
        for bot in self.bots:
            await bot.close()
        self.computer_time.close()
        await self._hand_off()
        for match in list(self.matches.values()):
            await match.close()
        await self.directory.stop()

    async def _hand_off(self) -> None:
        """Give every game to another live node (in turn), at once: each match finishes the change under way and
        refuses the next with a redirect, its lock is let go and its new node told to take it, and only then are
        its followers sent there, so that they find it taken or free to take, never still held here."""
        try:
            targets = await self.directory.leaving()
        except StorageError:
            targets = []
        if not targets or not self.matches:
            return
        given = {game_id: targets[index % len(targets)] for index, game_id in enumerate(self.matches)}
        self._handed_to.update(given)
        matches = [self.matches[g] for g in given]
        followers = {m.game_id: self._people_following(m) for m in matches}
        async with contextlib.AsyncExitStack() as handing:
            await asyncio.gather(*(handing.enter_async_context(m.handing_off(given[m.game_id])) for m in matches))
            await self.directory.hand_off(given)
        self.metrics.handed_off.inc(len(given))
        for match in matches:
            self._send_on(match.game_id, list(followers[match.game_id]), given[match.game_id])
            self.matches.pop(match.game_id, None)
        for game_id, parked in list(self._parked.items()):
            self._send_on(game_id, list(parked), targets[0])
        self._parked.clear()
        logger.info(
            "%d game%s handed to %d other node%s",
            len(given),
            "s" * (len(given) != 1),
            len(targets),
            "s" * (len(targets) != 1),
        )
