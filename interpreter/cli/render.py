"""`santorini render`: a picture (SVG) of a position, a scenario's or a game record's after a turn.

The position is read here and drawn by model/svg.py. A record is replayed under its own pack up to
the turn asked for, which is then marked as the last turn; a scenario is shown after its history.
"""

from __future__ import annotations

from pathlib import Path

import click

from ...dsl.errors import SantoriniError, SourceError, SourceErrors
from ..games.frames import Position
from .common import bad_input, reports_bad_input


class RenderError(SantoriniError, ValueError):
    """A position that cannot be shown as asked: a turn the record does not have, a file that is
    neither a scenario nor a record."""


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
    pack (games/frames.py): a turn that pack refuses is a fault of the file, located at the turn."""
    from ...dsl.source import load_document
    from ..games.frames import record_frames
    document = load_document(path, "record")
    turns = len(document.data["turns"])
    if turn is None:
        turn = turns
    if not 0 <= turn <= turns:
        raise RenderError(f"--turn {turn}: {path} has {turns} turn{'s' if turns != 1 else ''}; "
                          f"give 0 (after setup) to {turns}")
    *_, position = record_frames(document, upto=turn)  # (a game stopped in setup has one)
    return position


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
