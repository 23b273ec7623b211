"""`santorini render`: a picture (SVG) of a position, a scenario's or a game record's after a turn.

The position is read here and drawn by model/svg.py. A record is replayed under its own pack up to
the turn asked for, which is then marked as the last turn; a scenario is shown after its history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ...dsl.errors import SantoriniError, SourceError, SourceErrors
from ..model.state import GameState, TurnRecord
from .common import bad_input, reports_bad_input

if TYPE_CHECKING:
    from ...dsl.source import KeyPath
    from ..games.game import Game

#: The error for a fault at a key path of the record, with its message.
Located = Callable[["KeyPath", str], SourceErrors]


class RenderError(SantoriniError, ValueError):
    """A position that cannot be shown as asked: a turn the record does not have, a file that is
    neither a scenario nor a record."""


@dataclass(frozen=True)
class Position:
    """What a picture shows: a state, and the turn that led to it (None after setup or a scenario
    without history)."""

    state: GameState
    last_turn: TurnRecord | None


def load_position(source: str, turn: int | None = None) -> Position:
    """The position that SOURCE names: a scenario file (after its history) or a game record (after
    `turn` turns, by default all of them; 0 is the position after setup).

    Bad input raises a SantoriniError: SourceErrors located in the file, or RenderError."""
    path = Path(source)
    if path.exists():
        from ...dsl.source import load_document, top_level_keys
        keys = top_level_keys(path)
        if "board" in keys:
            return _scenario_position(path, turn)
        if "placements" in keys or "turns" in keys:
            return record_position(path, turn)
        if not keys:  # not a readable mapping: the loader says why, where
            load_document(path, "record")
        raise SourceErrors([SourceError(str(path), 1, 1, "this is neither a scenario (it has no 'board') nor a game "
                                                         "record (it has no 'placements'): render shows one of them")])
    if " " in source.strip():  # (a one-line position string: docs/scenarios.md, 'Position strings')
        if turn is not None:
            raise RenderError(f"--turn {turn}: a position string is one position; --turn picks a turn of a game record")
        from ..games.position import game_from_position
        game, _ = game_from_position(source)
        return Position(game.state, None)
    raise RenderError(f"no such file: {source} (give a scenario file, a game record or a position string)")


def _scenario_position(path: Path, turn: int | None) -> Position:
    from ..games.scenario import load_scenario
    state = load_scenario(path).state
    if turn is not None:
        played = len(state.history)
        raise RenderError(f"--turn {turn}: {path} is a scenario, shown after its history ({played} "
                          f"turn{'s' if played != 1 else ''}); --turn picks a turn of a game record")
    return Position(state, state.history[-1] if state.history else None)


def record_position(path: str | Path, turn: int | None = None) -> Position:
    """A game record's position after `turn` turns (default: all), replayed under the record's own
    pack: a turn that pack refuses is a fault of the file, located at the turn."""
    from ...dsl.source import load_document
    from ..games.game import SetupError, end_of_setup, new_game, parse_players, resolve_all_stuck
    from ..games.packs import UnknownName, resolve_pack
    document = load_document(path, "record")
    data: dict[str, Any] = document.data

    def located(key_path: KeyPath, message: str) -> SourceErrors:
        line, column = document.position(key_path)
        return SourceErrors([SourceError(document.path, line, column, message)])

    turns: list[str] = data["turns"]
    if turn is None:
        turn = len(turns)
    if not 0 <= turn <= len(turns):
        raise RenderError(f"--turn {turn}: {path} has {len(turns)} turn{'s' if len(turns) != 1 else ''}; "
                          f"give 0 (after setup) to {len(turns)}")
    try:
        pack = resolve_pack(data["pack"], Path(document.path).parent)
    except UnknownName as err:
        raise located(("pack",), str(err)) from None
    try:
        game = new_game(pack, parse_players(data["players"]), data.get("mode"))
    except SetupError as err:
        raise located(("players",), str(err)) from None
    if _place(game, data, located):  # a game stopped in setup: the workers placed, the next seat to place
        return Position(game.state, game.state.history[-1] if game.state.history else None)
    end_of_setup(game)
    for number, text in enumerate(turns[:turn], start=1):
        resolve_all_stuck(game)
        if game.state.winner is not None:
            raise located(("turns", number - 1), f"turn {number}: the game is over before it "
                                                 f"(winner {game.state.team_letters[game.state.winner]})")
        game.state = _played(game, number, text, located)
    resolve_all_stuck(game)  # (who is to move next, or who won because the next seat cannot play)
    return Position(game.state, game.state.history[-1] if game.state.history else None)


def _place(game: Game, data: dict[str, Any], located: Located) -> bool:
    """The record's placements, each checked as `replay` checks them. Returns whether the game
    stopped in setup (fewer placements than seats that place, no turn and no winner: a game quit
    before its end); the seat to move is then the one that places next."""
    from ..games.game import SetupError, place_as_written, placing_seats
    from ..model.notation import NotationError
    placements: list[str] = data["placements"]
    seats = placing_seats(game)
    stopped = len(placements) < len(seats) and not data["turns"] and "result" in data \
        and (data["result"] or {}).get("winner") is None
    if len(placements) != len(seats) and not stopped:
        raise located(("placements",), f"the record has {len(placements)} placements; {len(seats)} seats place workers")
    for index, (seat, text) in enumerate(zip(seats, placements, strict=False)):
        try:
            place_as_written(game, seat, text)
        except (SetupError, NotationError) as err:
            raise located(("placements", index), str(err)) from None
    if stopped:
        game.state.to_move = seats[len(placements)]
    return stopped


def _played(game: Game, number: int, text: str, located: Located) -> GameState:
    """The state after the record's turn `number`, played by the rules."""
    from ..engine.engine import IllegalTurn
    from ..model.notation import NotationError, parse_turn
    try:
        return game.engine.play(game.state, parse_turn(game.state, text))
    except (NotationError, IllegalTurn) as err:
        raise located(("turns", number - 1), f"turn {number} '{text}': {err}") from None


def _arrow(text: str) -> tuple[str, str]:
    """'c3-d4' (or 'c3d4') as a pair of square names, checked."""
    joined = text.replace("-", "").strip()
    if len(joined) != 4:
        bad_input(f"--arrow {text}: write two squares, e.g. --arrow c3-d4")
    return _square_option("--arrow", joined[:2], text), _square_option("--arrow", joined[2:], text)


def _square_option(option: str, name: str, given: str | None = None) -> str:
    """A square named in an option, checked: one message naming the option if it is not one."""
    from ..model.board import parse_square
    try:
        parse_square(name)
    except ValueError as err:
        bad_input(f"{option} {given or name}: {err}")
    return name


@click.command()
@click.argument("source", metavar="POSITION|RECORD")
@click.option("--turn", type=click.IntRange(min=0), default=None, metavar="N",
              help="With a game record: the position after N turns, that turn marked (default: the last; "
                   "0: after setup).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the picture to this file (default: standard output).")
@click.option("--size", type=click.IntRange(16, 8192), default=400, show_default=True, help="Width in pixels.")
@click.option("--arrow", "arrows", multiple=True, metavar="FROM-TO", help="An extra arrow, e.g. c3-d4 (repeatable).")
@click.option("--highlight", "highlights", multiple=True, metavar="SQUARE",
              help="A square to highlight, e.g. c3 (repeatable).")
@click.option("--no-legend", is_flag=True, help="The board alone, without the teams and the last turn under it.")
@reports_bad_input
def render(source: str, turn: int | None, output: str | None, size: int, arrows: tuple[str, ...],
           highlights: tuple[str, ...], no_legend: bool) -> None:
    """Draw a position as an SVG picture: a scenario file (after its history) or a game record
    written by `play --record` (after --turn N turns).

    Levels are nested squares with their number, domes are caps, workers are discs in their team's
    colour with their names; the last turn's moves are arrows (dashed: forced) and its builds are
    framed, with a badge saying what was built."""
    from ..model.svg import board_svg
    position = load_position(source, turn)
    pairs = [_arrow(text) for text in arrows]
    for square in highlights:
        _square_option("--highlight", square)
    picture = board_svg(position.state, last_turn=position.last_turn, arrows=pairs, highlights=highlights, size=size,
                        legend=not no_legend)
    if output is None:
        click.echo(picture)
        return
    try:
        Path(output).write_text(picture + "\n", encoding="utf-8")
    except OSError as err:
        bad_input(f"-o {output}: cannot write the picture: {(err.strerror or str(err)).lower()}")
    click.echo(f"picture written to {output}")
