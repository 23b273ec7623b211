"""What the commands share: the exit codes, one clear message for bad input, the --pack option."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import NoReturn, ParamSpec, TypeVar

import click

from ...dsl.errors import SantoriniError, SourceError, SourceErrors
from ..games.game import SetupError
from ..games.packs import PackError, UnknownName
from ..model.notation import NotationError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2

P = ParamSpec("P")
R = TypeVar("R")


def bad_input(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def reports_bad_input(command: Callable[P, R]) -> Callable[P, R]:
    """Turn the errors that mean 'bad input' into one message and exit code 2."""
    @wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (SourceErrors, PackError) as err:
            click.echo(str(err), err=True)
            sys.exit(EXIT_BAD_INPUT)
        except (SourceError, UnknownName, SetupError, NotationError) as err:
            bad_input(str(err))
        except SantoriniError as err:  # any other error of the package's own: one message, never a traceback
            bad_input(str(err))
    return run


PACK_OPTION = click.option("--pack", "pack_name", default="bga", show_default=True,
                           help="Rule pack: a shipped one (bga, pantheon, first-edition) or the folder "
                                "of your own (with a pack.yaml).")
