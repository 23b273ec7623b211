"""The board and tables on a terminal, with rich: colours for the teams, levels and domes that
read at a glance. Sent to a pipe or a file, the output is the plain text of the notation module
(format_board), unchanged, so scripts and the spec's formats are not disturbed. Human play marks
the last turn's squares (games/human.py: '*' moved to, '.' moved from, '+' built on) in both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import click
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..games.human import marked_board
from ..model.board import COLUMNS, SIZE
from ..model.notation import format_board
from ..model.state import GameState

#: The teams' colours, in team order.
TEAM_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold yellow", "bold cyan")
#: A cell's background by its level (0 to 3); a dome is shown on its own.
LEVEL_STYLES = ("on grey15", "on grey35", "on grey50", "on grey66")
DOME_STYLE = "bold white on dark_blue"
#: A marked square's mark (the last turn's squares, in human play).
MARK_STYLE = "bold yellow"


def console() -> Console:
    return Console(highlight=False)


def on_terminal() -> bool:
    return console().is_terminal


def board_table(state: GameState, marks: Mapping[int, str] | None = None) -> Table:
    """The board as a grid: row 5 first, each cell its level (a shade, and the number), 'D' for a
    dome, the worker standing there in its team's colour, and its mark if it has one."""
    table = Table(box=box.SQUARE, show_header=True, header_style="bold", show_lines=True, padding=(0, 1))
    table.add_column("", justify="right", style="bold")
    for name in COLUMNS:
        table.add_column(name, justify="center", min_width=5)
    for rank in range(SIZE - 1, -1, -1):
        cells: list[Text | str] = [str(rank + 1)]
        for column in range(SIZE):
            square = rank * SIZE + column
            cells.append(_cell(state, square, (marks or {}).get(square)))
        table.add_row(*cells)
    return table


def _cell(state: GameState, square: int, mark: str | None = None) -> Text:
    height, domed = state.heights[square], state.domes[square]
    worker = state.occupant[square]
    text = Text(f"{height}D" if domed else str(height), style=DOME_STYLE if domed else LEVEL_STYLES[height])
    if worker >= 0:
        team = state.worker_team[worker]
        text.append(" " + state.worker_name(worker), style=f"{TEAM_STYLES[team % len(TEAM_STYLES)]} "
                                                          f"{LEVEL_STYLES[height]}")
    token = state.tokens.get(square)
    if token is not None:
        text.append(f" {token[0]}", style="italic yellow")
    if mark:
        text.append(f" {mark}", style=MARK_STYLE)
    return text


def show_board(state: GameState, marks: Mapping[int, str] | None = None) -> None:
    """The board: a coloured grid on a terminal, the plain board text otherwise; `marks` (human
    play) follow their squares' cells in both."""
    out = console()
    if out.is_terminal:
        out.print(board_table(state, marks))
    elif marks is None:
        click.echo(format_board(state, with_workers=True))
    else:
        click.echo(marked_board(state, marks))


def show_table(headers: Sequence[str], rows: Sequence[Sequence[str]], plain: Sequence[str]) -> None:
    """A table on a terminal; the `plain` lines otherwise."""
    out = console()
    if not out.is_terminal:
        for line in plain:
            click.echo(line)
        return
    table = Table(box=box.SIMPLE_HEAD, header_style="bold")
    for header in headers:
        table.add_column(header)
    for row in rows:
        table.add_row(*row)
    out.print(table)
