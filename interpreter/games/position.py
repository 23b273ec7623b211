"""The one-line position string: a scenario's position (docs/spec/scenarios.md, "Position") on one
line, as a bot, a test, a bug report or a web page passes a position around.

    bga/standard Mortal,Mortal 00000/00100/00000/00000/1D0000 A1c3,A2a1,B1c4,B2e5 A

Fields, separated by one space: the pack and its mode (`PACK/MODE`); the seats in turn order,
separated by ',' (a seat with two cards `A+B`, a team label `NAME:X`); the board, rows 5 to 1
separated by '/', each cell a level 0-3 with `D` if domed; the workers on the board (`A1c3`, a
worker's sex after ':', `A1c3:female`; `-` for none); the seat to act. Then, in this order and only
where they hold something, `key=value` fields: `tokens=d2:whirlpool`, `counters=A.coin:2`,
`used=A.your_move` (a once-per-game power used, by its section's timing), `out=C` (seats that have
lost, three or more teams), and the bare word `placing` for a position in setup (the seat to act
places its workers next). In names, a space is written '_'; '%', '_', ',', '+', '/', ':', '=' and
'.' are written %25, %5F, %2C, %2B, %2F, %3A, %3D and %2E.

Like a scenario's position, it holds no history: a rule that reads an earlier turn ('if one of your
workers moved up on your last turn') sees none. The string is read by turning it into a scenario's
position and loading that (scenario.py), so it is checked exactly as a scenario file is; a fault is
one PositionError naming its column and what was expected. Printing and reading are inverses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ...dsl.errors import SantoriniError, SourceErrors
from ..model.board import parse_square, square_name
from .game import Game
from .packs import package_root
from .scenario import USED, Scenario, load_scenario, marks_of

#: Characters a name writes escaped (the separators), and how.
_ESCAPED = {"%": "%25", "_": "%5F", ",": "%2C", "+": "%2B", "/": "%2F", ":": "%3A", "=": "%3D", ".": "%2E"}
_CELLS = re.compile(r"[0-3]D?")
_WORKER = re.compile(r"([A-Za-z])(\d+)([a-eA-E][1-5])(?::(female|male))?")
#: The optional fields, in the order they are printed.
_EXTRAS = ("tokens", "counters", "used", "out")


class PositionError(SantoriniError):
    """A position string that is not one: the column of the fault and what was expected."""

    def __init__(self, column: int, message: str) -> None:
        self.column = column
        self.message = message
        super().__init__(f"position string, column {column}: {message}")


def escape(name: str) -> str:
    """A name as the string writes it: spaces as '_', the separators %-escaped."""
    return "".join(_ESCAPED.get(char, char) for char in name).replace(" ", "_")


def unescape(text: str) -> str:
    return unquote(text.replace("_", " "))


# ---- printing
def position_string(game: Game, placing: int | None = None) -> str:
    """The game's position as one line; `placing`: the seat that places its workers next, for a
    position in setup."""
    state = game.state
    root = (package_root() / "powers" / game.pack.name).resolve()
    pack = game.pack.name if Path(game.pack.path).resolve() == root else str(Path(game.pack.path).resolve())
    seats = []
    for player in game.players:
        names = "+".join(escape(name) for name in player.powers) or "Mortal"
        seats.append(names if player.team is None else f"{names}:{escape(player.team)}")
    rows = []
    for row in range(4, -1, -1):
        rows.append("".join(f"{state.heights[s]}{'D' if state.domes[s] else ''}" for s in range(row * 5, row * 5 + 5)))
    workers = []
    on_board = [w for w, square in enumerate(state.worker_pos) if square >= 0]
    for worker in sorted(on_board, key=lambda w: (state.worker_names[w][0], state.worker_number[w])):  # (by id)
        sex = state.worker_sex[worker]
        square = state.worker_pos[worker]
        workers.append(f"{state.worker_name(worker)}{square_name(square)}{'' if sex is None else ':' + sex.value}")
    seat = placing if placing is not None else state.to_move
    fields = [f"{escape(pack)}/{escape(game.mode.name)}", ",".join(seats), "/".join(rows), ",".join(workers) or "-",
              state.seats[seat].letter]
    letters = [info.letter for info in state.seats]
    tokens = [f"{square_name(square)}:{escape(kind)}" for square, (kind, _) in sorted(state.tokens.items())]
    counters = [f"{letters[s]}.{escape(name)}:{value}" for (s, name), value in sorted(state.counters.items())]
    used = []
    for s, mark in sorted(state.marks):
        timing = {name: timing for timing, name in marks_of(game, s).items()}.get(mark, mark)
        used.append(f"{letters[s]}.{escape(timing)}")
    out = [letters[s] for s in sorted(state.out) if state.seats[s].letter == state.team_letters[state.seats[s].team]]
    for key, values in zip(_EXTRAS, (tokens, counters, used, [] if placing is not None else out), strict=True):
        if values:
            fields.append(f"{key}={','.join(values)}")
    if placing is not None:
        fields.append("placing")
    return " ".join(fields)


# ---- reading
def position_data(text: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The scenario position a string gives (the keys of a scenario file), and the column each
    key's field starts at; PositionError for a field that is not what its place expects."""
    fields: list[tuple[int, str]] = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]
    if "\n" in text.strip() or len(fields) < 5:
        raise PositionError(len(text) + 1, "a position string is one line of at least five fields: PACK/MODE "
                                           "SEATS BOARD WORKERS SEAT-TO-ACT (e.g. 'bga/standard Mortal,Mortal "
                                           "00000/00000/00000/00000/00000 A1b3,A2d3,B1c4,B2c2 A')")
    columns: dict[str, int] = {}
    data: dict[str, Any] = {"name": "position string"}
    (at, pack), (seats_at, seats), (board_at, board), (workers_at, workers), (seat_at, seat) = fields[:5]
    edition, slash, mode = pack.partition("/")
    if not edition:
        raise PositionError(at, f"'{pack}' is not PACK/MODE (e.g. bga/standard)")
    data["edition"], columns["edition"] = unescape(edition), at
    if slash:
        data["mode"], columns["mode"] = unescape(mode), at
    data["players"], columns["players"] = [_seat(entry) for entry in seats.split(",")], seats_at
    data["board"], columns["board"] = _board(board, board_at), board_at
    data["workers"], columns["workers"] = _workers(workers, workers_at), workers_at
    if not re.fullmatch(r"[A-Za-z]", seat):
        raise PositionError(seat_at, f"'{seat}' is not the letter of the seat to act (A, B, ...)")
    placing = False
    extras: dict[str, tuple[int, str]] = {}
    for column, field in fields[5:]:
        key, equals, value = field.partition("=")
        if field == "placing":
            placing = True
            continue
        if not equals or key not in _EXTRAS:
            raise PositionError(column, f"'{field}' is not an extra field: "
                                        f"{', '.join(k + '=...' for k in _EXTRAS)} or placing")
        if key in extras:
            raise PositionError(column, f"'{key}' is given twice")
        extras[key] = (column, value)
    key = "placing" if placing else "to_move"
    data[key], columns[key] = seat.upper(), seat_at
    if "tokens" in extras:
        column, value = extras["tokens"]
        data["tokens"], columns["tokens"] = _pairs(value, column, "tokens", "SQUARE:KIND"), column
    cards: dict[str, dict[str, Any]] = {}
    if "counters" in extras:
        column, value = extras["counters"]
        for letter, name, count in _seat_values(value, column, "counters", "SEAT.NAME:COUNT"):
            if not count.isdigit():
                raise PositionError(column, f"counters: '{count}' is not a count (a whole number, 0 or more)")
            cards.setdefault(letter, {})[name] = int(count)
        columns["cards"] = column
    if "used" in extras:
        column, value = extras["used"]
        for letter, name, _ in _seat_values(value, column, "used", "SEAT.TIMING"):
            cards.setdefault(letter, {}).setdefault(USED, []).append(name)
        columns.setdefault("cards", column)
    if cards:
        data["cards"] = cards
    if "out" in extras:
        column, value = extras["out"]
        data["out"], columns["out"] = value.split(","), column
    return data, columns


def _seat(entry: str) -> str | dict[str, Any]:
    names, colon, team = entry.partition(":")
    gods = [unescape(name) for name in names.split("+")]
    if not colon:
        return gods[0] if len(gods) == 1 else {"gods": gods}
    return {"god": gods[0], "team": unescape(team)} if len(gods) == 1 else {"gods": gods, "team": unescape(team)}


def _board(text: str, column: int) -> str:
    rows = text.split("/")
    if len(rows) != 5:
        raise PositionError(column, f"the board is 5 rows (row 5 first) separated by '/'; found {len(rows)}")
    lines = []
    for index, row in enumerate(rows):
        cells = _CELLS.findall(row)
        if "".join(cells) != row or len(cells) != 5:
            at = column + sum(len(r) + 1 for r in rows[:index])
            raise PositionError(at, f"row {5 - index} '{row}' is not 5 cells, each a level 0-3 with D if domed "
                                    "(e.g. 0012D3D)")
        lines.append(" ".join(cells))
    return "\n".join(lines)


def _workers(text: str, column: int) -> dict[str, Any]:
    workers: dict[str, Any] = {}
    if text == "-":
        return workers
    offset = column
    for entry in text.split(","):
        match = _WORKER.fullmatch(entry)
        if match is None:
            raise PositionError(offset, f"'{entry}' is not a worker on a space: its id and its space, with ':female' "
                                        "or ':male' where a card tells workers apart (e.g. A1c3)")
        letter, number, square, sex = match.groups()
        name = f"{letter.upper()}{int(number)}"
        if name in workers:
            raise PositionError(offset, f"worker {name} is given twice")
        workers[name] = square.lower() if sex is None else {"at": square.lower(), "sex": sex}
        offset += len(entry) + 1
    return workers


def _pairs(text: str, column: int, key: str, shape: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for entry in text.split(","):
        square, colon, kind = entry.partition(":")
        try:
            parse_square(square)
        except ValueError:
            raise PositionError(column, f"{key}: '{entry}' is not {shape}") from None
        if not colon or not kind:
            raise PositionError(column, f"{key}: '{entry}' is not {shape}")
        pairs[square.lower()] = unescape(kind)
    return pairs


def _seat_values(text: str, column: int, key: str, shape: str) -> list[tuple[str, str, str]]:
    found = []
    for entry in text.split(","):
        letter, dot, rest = entry.partition(".")
        name, _, value = rest.partition(":")
        if not dot or not re.fullmatch(r"[A-Za-z]", letter) or not name:
            raise PositionError(column, f"{key}: '{entry}' is not {shape}")
        found.append((letter.upper(), unescape(name), value))
    return found


def game_from_position(text: str, relative_to: Path | None = None) -> tuple[Game, bool]:
    """The game at the string's position, loaded as a scenario's position is (every check of a
    scenario file), and whether it is in setup (`placing`); PositionError for any fault, at the
    column of the field at fault."""
    scenario = scenario_from_position(text, relative_to)
    return scenario.game, "placing" in scenario.document.data


def scenario_from_position(text: str, relative_to: Path | None = None) -> Scenario:
    """The string's position as a scenario with no expectations (its document has the position's
    keys): what a command that takes a scenario's position takes (`play --from`)."""
    data, columns = position_data(text)
    # (one key a line, each value as JSON, which is YAML on one line: a fault's line is its field)
    lines = [(columns.get(key, 1), f"{key}: {json.dumps(value)}") for key, value in data.items()]
    document = "\n".join(line for _, line in lines) + "\n"
    where = (relative_to or Path.cwd()) / "position string"
    try:
        scenario = load_scenario(where, text=document)
    except SourceErrors as err:
        first = err.errors[0]
        column = lines[first.line - 1][0] if 0 < first.line <= len(lines) else 1
        raise PositionError(column, first.message) from None
    return scenario


__all__ = ["PositionError", "escape", "game_from_position", "position_data", "position_string",
           "scenario_from_position", "unescape"]

