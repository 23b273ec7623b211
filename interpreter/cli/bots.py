"""The --bot-stderr option, for the commands that run external bots (`balance`; `play` can take it
as it is): where a bot's standard error goes besides the last lines kept for error messages.

It is one value, as click options are: `show`, `hide`, `log:FILE`, or `log` alone where the
command has a log file of its own (a balance run's folder). Each command picks its default
(docs/agents.md says which and why).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

if TYPE_CHECKING:  # (the agents are imported when a command runs, not for --help)
    from ..agents.external import BotStderr

F = TypeVar("F", bound=Callable[..., object])

#: What the option does, for the help of every command that has it.
HELP = ("Where an external bot's standard error goes: show (on ours, each line after [BOT, seat X]), "
        "log:FILE (appended to FILE), or hide. Its last lines are kept for error messages in all three.")


def bot_stderr_option(default: str, own_log: str | None = None) -> Callable[[F], F]:
    """The --bot-stderr option with the command's `default`; `own_log` says, in the help, which file
    `log` alone means (None: the command has none, and `log` needs its FILE). The value is checked
    here (bad: click's message, exit 2) and handed to the command as text: make it a BotStderr with
    `bot_stderr_of`, once the command knows its own log file."""
    def check(context: click.Context, parameter: click.Parameter, value: str) -> str:
        from ..agents.base import AgentError
        try:
            bot_stderr_of(value, Path("bot-stderr.log") if own_log else None)
        except AgentError as err:
            raise click.BadParameter(str(err)) from None
        return value.strip()
    metavar = "show|log[:FILE]|hide" if own_log else "show|log:FILE|hide"
    more = f" log alone: {own_log}." if own_log else ""
    return click.option("--bot-stderr", "bot_stderr", default=default, show_default=True, metavar=metavar,
                        callback=check, help=HELP + more)


def bot_stderr_of(value: str, own_log: Path | None = None) -> BotStderr:
    """The option's value as a BotStderr: `log` alone is the file `own_log`."""
    from ..agents.registry import parse_bot_stderr
    return parse_bot_stderr(value, own_log)
