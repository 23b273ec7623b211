"""Turn notation and board text (docs/spec/scenarios.md): parse and format.

Steps are written `move A1 c4`, `build A1 c5`, `dome A1 c5`, `place A3 a1`, `use NAME`, `pass`,
`point wind north` (a token of the card pointed in a direction, or `nowhere`);
a turn is steps separated by ';'. Parsing needs the state, since worker names are resolved to
the workers on the board. Output is always lower-case spaces and canonical steps (`build` for a
dome on level 3).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...dsl.errors import SantoriniError
from ...dsl.vocabulary import Compass
from .board import COLUMNS, SIZE, parse_square, square_name
from .state import Action, GameState

#: The verbs of the spec's turn notation, and `unbuild` (this project's: a worker takes the top
#: block off a space, 'unbuild A1 c3'; docs/scenarios.md).
VERBS = ("move", "build", "dome", "force", "remove", "place", "token", "use", "pass", "unbuild", "point")
#: Where `point KIND ...` points a token of the card: its direction counter's values (0 nowhere).
HEADINGS = {"nowhere": 0, **{direction.value: direction.number for direction in Compass}}
HEADING_NAMES = {number: name for name, number in HEADINGS.items()}


class NotationError(SantoriniError, ValueError):
    """Text that is not valid turn notation or board text; the message says what is accepted."""


def parse_step(state: GameState, text: str) -> Action:
    """One step, e.g. 'move A1 c4', as an action tuple for the interpreter."""
    words = text.split()
    if not words:
        raise NotationError("empty step: write a step such as 'move A1 c4'")
    verb = words[0].lower()
    if verb not in VERBS:
        raise NotationError(f"unknown verb '{words[0]}' in '{text.strip()}'; steps are: {', '.join(VERBS)}")
    if verb == "use":
        if len(words) < 2:
            raise NotationError(f"'{text.strip()}': write 'use NAME'")
        return ("use", -1, " ".join(words[1:]))
    if verb == "pass":
        if len(words) != 1:
            raise NotationError(f"'{text.strip()}': 'pass' stands alone")
        return ("pass", -1, -1)
    if verb == "remove":  # a worker the player chooses to remove from the game (chain/steps.py remove_worker)
        if len(words) != 2:
            raise NotationError(f"'{text.strip()}': write 'remove WORKER', e.g. 'remove B1'")
        try:
            return ("remove", state.worker_by_name(words[1]), -1)
        except ValueError as err:
            raise NotationError(f"'{text.strip()}': {err}") from None
    if verb == "point":  # a token of the card pointed in a direction (chain/steps.py point_step)
        if len(words) != 3 or words[2].lower() not in HEADINGS:
            raise NotationError(f"'{text.strip()}': write 'point KIND DIRECTION', e.g. 'point wind north' (a "
                                f"direction: {', '.join(HEADINGS)})")
        return ("point", words[1].lower(), HEADINGS[words[2].lower()])
    if verb == "token":
        if len(words) != 3:
            raise NotationError(f"'{text.strip()}': write 'token KIND SPACE', e.g. 'token talus d2'")
        try:
            return ("token", words[1].lower(), parse_square(words[2]))
        except ValueError as err:
            raise NotationError(f"'{text.strip()}': {err}") from None
    if len(words) != 3:
        raise NotationError(f"'{text.strip()}': write '{verb} WORKER SPACE', e.g. '{verb} A1 c4'")
    try:
        worker = state.worker_by_name(words[1])
        square = parse_square(words[2])
    except ValueError as err:
        raise NotationError(f"'{text.strip()}': {err}") from None
    return (verb, worker, square)


def parse_turn(state: GameState, text: str) -> tuple[Action, ...]:
    """A whole turn: steps separated by ';' (spaces around them do not matter)."""
    parts = text.split(";")
    if not text.strip():
        raise NotationError("empty turn: write steps separated by ';', e.g. 'move A1 c4; build A1 c5'")
    if any(not part.strip() for part in parts):
        raise NotationError(f"'{text.strip()}': an empty step between ';'")
    return tuple(parse_step(state, part) for part in parts)


def parse_placement(text: str) -> list[tuple[str, int]]:
    """A placement turn ('place A1 c3; place A2 d2') as (worker name, square) pairs: the workers
    do not exist yet, so names are kept as written."""
    return _placed(text, "place", "a placement is 'place WORKER SPACE', e.g. 'place A1 c3'", str.upper)


def parse_token_placement(text: str) -> list[tuple[str, int]]:
    """A placement of tokens at setup ('token abyss c3') as (kind, square) pairs."""
    return _placed(text, "token", "a token's placement is 'token KIND SPACE', e.g. 'token abyss c3'", str.lower)


def _placed(text: str, verb: str, expected: str, name: Callable[[str], str]) -> list[tuple[str, int]]:
    """The steps `VERB NAME SPACE` of a placement, as (name, square) pairs."""
    placed = []
    for part in text.split(";"):
        words = part.split()
        if len(words) != 3 or words[0].lower() != verb:
            raise NotationError(f"'{part.strip()}': {expected}")
        try:
            placed.append((name(words[1]), parse_square(words[2])))
        except ValueError as err:
            raise NotationError(f"'{part.strip()}': {err}") from None
    return placed


def format_step(state: GameState, action: Action) -> str:
    verb, worker, target = action
    if verb == "use":
        return f"use {target}"
    if verb == "pass":
        return "pass"
    if verb == "remove":
        return f"remove {state.worker_name(worker)}"
    if verb == "token":
        return f"token {worker} {square_name(target)}"
    if verb == "point":
        return f"point {worker} {HEADING_NAMES[target]}"
    return f"{verb} {state.worker_name(worker)} {square_name(target)}"


def format_turn(state: GameState, actions: tuple[Action, ...] | list[Action]) -> str:
    return "; ".join(format_step(state, a) for a in actions)


# ---- board text
_CELL = re.compile(r"^([0-3])(D?)$", re.IGNORECASE)


def parse_cell(text: str) -> tuple[int, bool]:
    """'2' -> (2, False), '3D' -> (3, True); a cell is a block count 0-3 plus D if domed."""
    match = _CELL.match(str(text).strip())
    if not match:
        raise NotationError(f"'{text}' is not a cell: write a block count 0-3, with D if domed (e.g. 2, 3D, 0D)")
    return int(match.group(1)), bool(match.group(2))


def format_cell(height: int, dome: bool) -> str:
    return f"{height}{'D' if dome else ''}"


def parse_board(text: str) -> list[tuple[int, bool]]:
    """Five rows of five cells, row 5 first; returns cells indexed by square (a1 = 0)."""
    rows = [row.split() for row in str(text).strip().splitlines() if row.strip()]
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        shape = ", ".join(str(len(r)) for r in rows)
        raise NotationError(f"a board is 5 rows of 5 cells, row 5 first; found {len(rows)} rows "
                            f"with {shape or 'no'} cells")
    cells: list[tuple[int, bool]] = [(0, False)] * (SIZE * SIZE)
    for row_index, row in enumerate(rows):
        rank = SIZE - 1 - row_index
        for column, cell in enumerate(row):
            cells[rank * SIZE + column] = parse_cell(cell)
    return cells


def format_board(state: GameState, with_workers: bool = False) -> str:
    """The board text of the spec (row 5 first). With workers, each cell also shows the worker
    standing there, and rows and columns are labelled, for people watching a game."""
    lines = []
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for column in range(SIZE):
            square = rank * SIZE + column
            cell = format_cell(state.heights[square], state.domes[square])
            if with_workers:
                worker = state.occupant[square]
                cell = f"{cell}{':' + state.worker_name(worker) if worker >= 0 else ''}".ljust(6)
            cells.append(cell)
        row = " ".join(cells).rstrip()
        lines.append(f"{rank + 1}  {row}" if with_workers else row)
    if with_workers:
        lines.append("   " + " ".join(f"{c:<6}" for c in COLUMNS).rstrip())
    return "\n".join(lines)
