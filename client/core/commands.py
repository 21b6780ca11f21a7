"""A line the player typed, read (client/commands.py) and answered: the plan each command is carried out by."""

from __future__ import annotations

from typing import TypeVar

from client import commands as cmd
from client.core import account, away, home, lobby, people, playing
from client.core.effects import Plan, Show
from client.core.news import answering
from client.core.paging import paged
from client.core.state import State, error
from client.help import help_text

T = TypeVar("T")


def answered(state: State, plan: Plan[T]) -> Plan[T]:
    """`plan` (a command's answer, or the first screen) a screen at a time while the game's news waits, then the
    news."""
    result: T = yield from answering(state, paged(state, plan))
    return result


def execute(state: State, line: str) -> Plan[None]:
    """The line's command carried out, then the news."""
    yield from answered(state, _execute(state, line))


def _execute(state: State, line: str) -> Plan[None]:
    setting = state.setting()
    command = cmd.parse(line, setting)
    if isinstance(command, cmd.ParseError):
        yield error(str(command))
        return
    match command:
        case cmd.Empty():
            pass
        case cmd.Help("create", detail):
            yield from lobby.help_create(detail, setting)
        case cmd.Help(topic):
            yield Show(help_text(topic, setting, state.columns - 1))
        case cmd.Quit():
            yield from lobby.quit_client(state)
        case cmd.Games():
            yield from lobby.list_games(state)
        case cmd.Ladder(ruleset):
            yield from people.ladder(state, ruleset)
        case cmd.ProfileOf(name):
            yield from people.profile(state, name)
        case cmd.Quick():
            yield from people.quick(state, command)
        case cmd.ChallengeTo():
            yield from people.challenge(state, command)
        case cmd.AnswerInvitation(game_id, accept):
            yield from people.answer_challenge(state, game_id, accept)
        case cmd.Maps():
            yield from lobby.list_maps(state)
        case cmd.Create():
            yield from lobby.create(state, command)
        case cmd.Join(game_id, group):
            yield from lobby.join(state, game_id, group)
        case cmd.Watch(game_id, follow):
            yield from lobby.watch(state, game_id, follow)
        case cmd.Leave():
            yield from lobby.leave(state)
        case cmd.Issue():
            yield from playing.issue(state, command)
        case cmd.Show(shown):
            yield from playing.show_own(state, shown)
        case cmd.ListOrders():
            yield from playing.list_orders(state)
        case cmd.Withdraw(number):
            yield from playing.withdraw(state, number)
        case cmd.Reorder(number, place):
            yield from playing.reorder(state, number, place)
        case cmd.Done():
            yield from playing.commit(state)
        case cmd.Board() | cmd.Summary() | cmd.History() | cmd.Report():
            yield from playing.show(state, command)
        case cmd.MapPicture(region):
            yield from playing.draw_map(state, region)
        case cmd.HandOverCommand(player):
            yield from playing.hand_over(state, player)
        case cmd.Resign():
            yield from playing.resign(state)
        case cmd.Say(text, to):
            yield from playing.say(state, text, to)
        case cmd.RematchCommand():
            yield from playing.rematch(state)
        case cmd.Home(None):
            yield from home.show_home(state)
        case cmd.Home(number) if number is not None:
            yield from lobby.open_home_game(state, number)
        case cmd.SignUp(name):
            yield from account.sign_up(state, name)
        case cmd.SignIn(name):
            yield from account.sign_in(state, name)
        case cmd.SignOut(everywhere):
            yield from account.sign_out(state, everywhere)
        case cmd.Password():
            yield from account.change_password(state)
        case cmd.Sessions(end):
            yield from account.sessions(state, end)
        case cmd.NudgeCommand(player):
            yield from away.nudge(state, player)
        case cmd.VacationCommand(days):
            yield from away.vacation(state, days)
        case cmd.NotifyCommand(channel, value):
            yield from away.notify(state, channel, value)
