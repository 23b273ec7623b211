"""Board pictures: a position as SVG text, for documents, reports and notebooks.

The picture is built with ElementTree (no drawing library to install) and is the same text for the
same position and options: elements and attributes come in a fixed order and numbers are written
with at most two decimals. Each thing drawn carries classes that say what it is and where it stands
(`square c3 level-2`, `worker A1 team-A c3`, `arrow move` with `data-from` and `data-to`), so a
style sheet can restyle a picture and a test can read one back.

Nothing is told by colour alone, so a picture printed in grey still reads: levels are nested
squares with their number, domes are caps, workers carry their names (the team's letter), moves are
solid arrows and forced moves dashed ones, builds a dashed frame with a badge saying what was built.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from ...dsl.errors import SantoriniError
from ...dsl.vocabulary import Sex
from .board import COLUMNS, SIZE, SQUARES, parse_square, square_name
from .notation import format_board, format_turn
from .state import GameState, TurnRecord

#: A square as a caller names it: its index (a1 = 0, e5 = 24) or its name ('c3').
Square = int | str

# ---- layout, in the picture's own units (the `size` option scales the whole picture)
SQUARE = 100
MARGIN = 30
BOARD = SIZE * SQUARE
WIDTH = BOARD + 2 * MARGIN
#: Where the legend's first line stands, and the height of each line.
LEGEND_TOP = MARGIN + BOARD + 52
LINE = 24
#: Characters of legend text per line, before a line is wrapped (about 8 units a character).
LINE_CHARACTERS = 64
#: How far in from the square's edge each level's block is drawn (levels 1 to 3): nested squares,
#: as the pieces stand on the table.
TIER_INSET = (4, 18, 32)
#: How far from the centre of its first square an arrow starts.
START = 14

# ---- colours: each paired with a shape, a dash or a letter, never the only sign of anything
BACKGROUND = "#ffffff"
INK = "#222222"
GROUND = "#e9efdc"
TIER_FILLS = ("#d8d2c4", "#b3aa97", "#8c826d")
TIER_STROKE = "#4e473b"
DOME_FILL, DOME_STROKE = "#1d4f91", "#0b2a55"
#: The teams' colours (fill, ink for their names), in team order; a seventh team takes the first
#: colour again, and its letter tells it apart.
TEAM_COLOURS = (("#c62828", "#ffffff"), ("#1565c0", "#ffffff"), ("#2e7d32", "#ffffff"),
                ("#f9a825", "#000000"), ("#6a1b9a", "#ffffff"), ("#00838f", "#ffffff"))
LAST_TURN = "#e65100"
LAST_SQUARES = "#f6dc7a"
REMOVED = "#b71c1c"
HIGHLIGHT_FILL, HIGHLIGHT_STROKE = "#4fc3f7", "#01579b"
EXTRA_ARROW = "#15781b"

SEX_SIGNS = {Sex.FEMALE: "\u2640", Sex.MALE: "\u2642"}


class PictureError(SantoriniError, ValueError):
    """Options a picture cannot be drawn with: a square off the board, a size that is not positive."""


class ArrowKind(Enum):
    """Why an arrow is drawn: it sets the arrow's class, colour and dash."""

    MOVE = "move"      # the last turn moved a worker
    FORCE = "force"    # the last turn forced a worker (a power moved it)
    TOKEN = "token"    # the last turn moved a token
    EXTRA = "extra"    # the caller asked for it


class MarkKind(Enum):
    """What the last turn did on a square besides moving: the badge drawn there."""

    BUILD = "build"
    UNBUILD = "unbuild"
    PLACE = "place"
    REMOVE = "remove"
    TOKEN = "token"


@dataclass(frozen=True)
class Arrow:
    """An arrow to draw, from square `tail` to square `head`."""

    kind: ArrowKind
    tail: int
    head: int


@dataclass(frozen=True)
class Mark:
    """All the last turn did on one square but move: its kinds, in the order done, and the badge."""

    kinds: tuple[MarkKind, ...]
    square: int
    label: str


def board_svg(state: GameState, *, last_turn: TurnRecord | None = None, arrows: Iterable[tuple[Square, Square]] = (),
              highlights: Iterable[Square] = (), size: int | None = 400, legend: bool = True) -> str:
    """The position as SVG text: levels, domes, workers by team, tokens, and a legend.

    `last_turn` (usually `state.history[-1]`) is marked from its events, which know where each
    worker came from: moves and forced moves as arrows, builds, placements and removals as marks.
    `arrows` are extra (from, to) pairs (a pair of one square draws a ring), `highlights` squares
    to stand out; squares are indexes or names. `size` is the width in pixels (None: no size, the
    picture fills its container); `legend` adds the teams, the last turn's notation and what the
    token letters stand for, under the board."""
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
        raise PictureError(f"a picture's size is a positive number of pixels; found {size!r}")
    extra = [Arrow(ArrowKind.EXTRA, *_pair(pair)) for pair in arrows]
    lit = sorted({_square(square) for square in highlights})
    turn_arrows, marks = _last_turn_drawing(state, last_turn)
    abbreviations = _token_abbreviations(state, last_turn)
    lines = _legend_lines(state, last_turn, abbreviations) if legend else []
    height = LEGEND_TOP + len(lines) * LINE - 8 if lines else MARGIN + BOARD + 34

    root = ET.Element("svg", _attributes({
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1", "viewBox": f"0 0 {WIDTH} {height}",
        **({"width": size, "height": round(size * height / WIDTH)} if size is not None else {}),
        "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif"}))
    _add(root, "title", {}, _title(state))
    _add(root, "desc", {}, format_board(state, with_workers=True))
    _add(root, "rect", {"class": "background", "x": 0, "y": 0, "width": WIDTH, "height": height, "fill": BACKGROUND})
    moved = {s for arrow in turn_arrows if arrow.kind is not ArrowKind.TOKEN for s in (arrow.tail, arrow.head)}
    _draw_squares(_add(root, "g", {"class": "board"}), state, moved)
    _draw_coordinates(_add(root, "g", {"class": "coordinates", "font-size": 18, "fill": INK}))
    _draw_highlights(_add(root, "g", {"class": "highlights"}), lit)
    _draw_domes(_add(root, "g", {"class": "domes"}), state)
    _draw_tokens(_add(root, "g", {"class": "tokens"}), state, abbreviations)
    _draw_workers(_add(root, "g", {"class": "workers"}), state)
    _draw_marks(_add(root, "g", {"class": "last-turn-marks"}), marks)
    _draw_arrows(_add(root, "g", {"class": "arrows"}), [*turn_arrows, *extra])
    if lines:
        _draw_legend(_add(root, "g", {"class": "legend", "font-size": 16, "fill": INK}), state, lines)
    return ET.tostring(root, encoding="unicode")


# ---- geometry
def corner(square: int) -> tuple[int, int]:
    """The top-left corner of a square in the picture: row 5 at the top, column a on the left."""
    column, row = square % SIZE, square // SIZE
    return MARGIN + column * SQUARE, MARGIN + (SIZE - 1 - row) * SQUARE


def centre(square: int) -> tuple[int, int]:
    x, y = corner(square)
    return x + SQUARE // 2, y + SQUARE // 2


def _square(value: Square) -> int:
    """A square given by index or name, checked: a negative index would quietly name another one."""
    if isinstance(value, str):
        try:
            return parse_square(value)
        except ValueError as err:
            raise PictureError(str(err)) from None
    if isinstance(value, bool) or not isinstance(value, int) or value not in SQUARES:
        raise PictureError(f"{value!r} is not a square: give an index 0 (a1) to 24 (e5) or a name such as 'c3'")
    return value


def _pair(pair: object) -> tuple[int, int]:
    """An extra arrow, (from, to), checked: anything else is one clear error, not an unpacking fault."""
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise PictureError(f"an arrow is a pair of squares, (from, to) such as ('c3', 'd4'); found {pair!r}")
    return _square(pair[0]), _square(pair[1])


# ---- what the last turn did
def _last_turn_drawing(state: GameState, record: TurnRecord | None) -> tuple[list[Arrow], list[Mark]]:
    """The arrows and marks of a turn, read from its events (a step names only where a worker
    went; the event also says where it came from). What was done on one square makes one mark, in
    the order of the events: a build and the token it brings read '+1 C'."""
    if record is None:
        return [], []
    arrows: list[Arrow] = []
    done: dict[int, list[tuple[MarkKind, str]]] = {}
    abbreviations = _token_abbreviations(state, record)
    for event in record.events:
        kind = event[0]
        if kind in ("move", "force") and event[2] >= 0 and event[2] != event[3]:
            arrows.append(Arrow(ArrowKind.MOVE if kind == "move" else ArrowKind.FORCE, event[2], event[3]))
        elif kind == "build":
            done.setdefault(event[2], []).append((MarkKind.BUILD, "D" if event[4] else "+"))
        elif kind == "unbuild":
            done.setdefault(event[2], []).append((MarkKind.UNBUILD, "-"))
        elif kind == "place":
            done.setdefault(event[2], []).append((MarkKind.PLACE, "P"))
        elif kind == "remove":
            done.setdefault(event[2], []).append((MarkKind.REMOVE, ""))
        elif kind == "token":
            _, _, name, origin, target = event
            if origin >= 0 and target >= 0:
                arrows.append(Arrow(ArrowKind.TOKEN, origin, target))
            if target >= 0 or origin >= 0:  # (placed or moved: where it is now; taken off: where it was)
                label = abbreviations[name] if target >= 0 else f"-{abbreviations[name]}"
                done.setdefault(target if target >= 0 else origin, []).append((MarkKind.TOKEN, label))
    return arrows, [Mark(tuple(dict.fromkeys(k for k, _ in parts)), square, _badge(parts))
                    for square, parts in done.items()]


def _badge(parts: Sequence[tuple[MarkKind, str]]) -> str:
    """A mark's badge: blocks counted ('+2'), a dome 'D', blocks taken off counted ('-1'), a
    placement 'P', tokens by their letters; a removal is the cross, not a word."""
    labels = [label for _, label in parts]
    blocks, taken = labels.count("+"), labels.count("-")
    words = [f"+{blocks}" if blocks else "", "D" if "D" in labels else "", f"-{taken}" if taken else ""]
    words += [label for kind, label in parts if kind in (MarkKind.PLACE, MarkKind.TOKEN)]
    return " ".join(word for word in words if word)


def _token_abbreviations(state: GameState, record: TurnRecord | None) -> dict[str, str]:
    """Each token kind on the board (or in the last turn) as its shortest capitalised prefix that
    no other kind shares: 'C' for coin, 'T' for talus."""
    kinds = {kind for kind, _ in state.tokens.values()}
    if record is not None:
        kinds |= {event[2] for event in record.events if event[0] == "token"}
    ordered = sorted(kinds)
    found: dict[str, str] = {}
    for kind in ordered:
        length = 1
        while length < len(kind) and any(o != kind and o[:length] == kind[:length] for o in ordered):
            length += 1
        found[kind] = kind[:length].capitalize()
    return found


# ---- drawing
def _draw_squares(group: ET.Element, state: GameState, moved: set[int]) -> None:
    """Each square: the ground, a nested block per level, and the level's number in its corner.
    The ground of a square the last turn's moves left or reached is tinted (as a chess board
    shows the last move), under the blocks, so that its level still reads."""
    for row in range(SIZE - 1, -1, -1):
        for column in range(SIZE):
            square = row * SIZE + column
            level = state.heights[square]
            classes = f"square {square_name(square)} level-{level}" + (" domed" if state.domes[square] else "") \
                + (" last" if square in moved else "")
            cell = _add(group, "g", {"class": classes})
            x, y = corner(square)
            _add(cell, "rect", {"x": x, "y": y, "width": SQUARE, "height": SQUARE,
                                "fill": LAST_SQUARES if square in moved else GROUND,
                                "stroke": TIER_STROKE, "stroke-width": 1})
            for tier in range(min(level, len(TIER_INSET))):
                inset = TIER_INSET[tier]
                _add(cell, "rect", {"class": f"block block-{tier + 1}", "x": x + inset, "y": y + inset,
                                    "width": SQUARE - 2 * inset, "height": SQUARE - 2 * inset,
                                    "fill": TIER_FILLS[tier], "stroke": TIER_STROKE, "stroke-width": 2})
            if level:
                _add(cell, "text", {"class": "level", "x": x + 7, "y": y + 17, "font-size": 13,
                                    "font-weight": "bold", "fill": INK}, str(level))


def _draw_coordinates(group: ET.Element) -> None:
    for column, letter in enumerate(COLUMNS):
        _add(group, "text", {"x": MARGIN + column * SQUARE + SQUARE // 2, "y": MARGIN + BOARD + 22,
                             "text-anchor": "middle"}, letter)
    for row in range(SIZE):
        _add(group, "text", {"x": MARGIN // 2, "y": MARGIN + (SIZE - 1 - row) * SQUARE + SQUARE // 2 + 6,
                             "text-anchor": "middle"}, str(row + 1))


def _draw_highlights(group: ET.Element, squares: Sequence[int]) -> None:
    for square in squares:
        x, y = corner(square)
        _add(group, "rect", {"class": f"highlight {square_name(square)}", "x": x + 3, "y": y + 3,
                             "width": SQUARE - 6, "height": SQUARE - 6, "fill": HIGHLIGHT_FILL, "fill-opacity": 0.35,
                             "stroke": HIGHLIGHT_STROKE, "stroke-width": 6})


def _draw_domes(group: ET.Element, state: GameState) -> None:
    """A dome is a cap (half a disc on its base), whatever the level under it: never a circle,
    which is a worker."""
    for square in SQUARES:
        if state.domes[square]:
            cx, cy = centre(square)
            r, base = 27, cy + 14
            _add(group, "path", {"class": f"dome {square_name(square)}",
                                 "d": f"M {cx - r} {base} A {r} {r} 0 0 1 {cx + r} {base} Z",
                                 "fill": DOME_FILL, "stroke": DOME_STROKE, "stroke-width": 2})


def _draw_tokens(group: ET.Element, state: GameState, abbreviations: dict[str, str]) -> None:
    """A token is a diamond in the square's top-right corner, in its holder's team colour, with
    its kind's letter (the legend says which kind)."""
    for square in sorted(state.tokens):
        kind, seat = state.tokens[square]
        fill, ink = _team_colour(state.seats[seat].team)
        x, y = corner(square)
        cx, cy, r = x + SQUARE - 17, y + 17, 14
        token = _add(group, "g", {"class": f"token {square_name(square)}", "data-kind": kind,
                                  "data-seat": state.seats[seat].letter})
        _add(token, "title", {}, f"{kind} token of seat {state.seats[seat].letter} on {square_name(square)}")
        _add(token, "polygon", {"points": f"{cx},{cy - r} {cx + r},{cy} {cx},{cy + r} {cx - r},{cy}",
                                "fill": fill, "stroke": INK, "stroke-width": 2})
        _add(token, "text", {"x": cx, "y": cy + 5, "text-anchor": "middle", "font-size": 13, "font-weight": "bold",
                             "fill": ink}, abbreviations[kind])


def _draw_workers(group: ET.Element, state: GameState) -> None:
    """A worker is a disc in its team's colour with its name (the team's letter and number), and
    its sex where the game gives one."""
    for worker in sorted(range(len(state.worker_pos)), key=lambda w: state.worker_pos[w]):
        square = state.worker_pos[worker]
        if square < 0:
            continue
        name, team, sex = state.worker_name(worker), state.worker_team[worker], state.worker_sex[worker]
        fill, ink = _team_colour(team)
        cx, cy = centre(square)
        piece = _add(group, "g", {"class": f"worker {name} team-{state.team_letters[team]} {square_name(square)}",
                                  **({"data-sex": sex.value} if sex is not None else {})})
        described = f"{name}{f' ({sex.value})' if sex is not None else ''} on {square_name(square)}, " \
                    f"level {state.heights[square]}"
        _add(piece, "title", {}, described)
        _add(piece, "circle", {"cx": cx, "cy": cy + 2, "r": 28, "fill": fill, "stroke": INK, "stroke-width": 3})
        _add(piece, "text", {"class": "name", "x": cx, "y": cy + (4 if sex is not None else 9), "text-anchor": "middle",
                             "font-size": 20, "font-weight": "bold", "fill": ink}, name)
        if sex is not None:
            _add(piece, "text", {"class": "sex", "x": cx, "y": cy + 22, "text-anchor": "middle", "font-size": 15,
                                 "fill": ink}, SEX_SIGNS[sex])


def _draw_marks(group: ET.Element, marks: Sequence[Mark]) -> None:
    """A build, placement or token is a dashed frame with a badge in the bottom-left corner; a
    worker removed is a cross."""
    for mark in marks:
        x, y = corner(mark.square)
        shown = _add(group, "g", {"class": " ".join(["mark", *(k.value for k in mark.kinds), square_name(mark.square)]),
                                  "data-label": mark.label})
        if MarkKind.REMOVE in mark.kinds:
            for x1, y1, x2, y2 in ((18, 18, 82, 82), (82, 18, 18, 82)):
                _add(shown, "line", {"x1": x + x1, "y1": y + y1, "x2": x + x2, "y2": y + y2, "stroke": REMOVED,
                                     "stroke-width": 8, "stroke-linecap": "round", "stroke-opacity": 0.85})
        if not mark.label:
            continue
        _add(shown, "rect", {"x": x + 6, "y": y + 6, "width": SQUARE - 12, "height": SQUARE - 12, "fill": "none",
                             "stroke": LAST_TURN, "stroke-width": 5, "stroke-dasharray": "12 6"})
        width = 12 + 9 * len(mark.label)
        _add(shown, "rect", {"x": x + 4, "y": y + SQUARE - 28, "width": width, "height": 24, "rx": 8,
                             "fill": LAST_TURN, "stroke": INK, "stroke-width": 1})
        _add(shown, "text", {"x": x + 4 + width / 2, "y": y + SQUARE - 10, "text-anchor": "middle", "font-size": 15,
                             "font-weight": "bold", "fill": "#ffffff"}, mark.label)


def _draw_arrows(group: ET.Element, arrows: Sequence[Arrow]) -> None:
    """An arrow from near a square's centre towards another's (its head stops at the edge of a
    worker standing there); a pair of one square is a ring. Two arrows between the same squares in
    opposite directions (a swap) are each moved aside to their right, so that both show."""
    pairs = {(arrow.tail, arrow.head) for arrow in arrows}
    for arrow in arrows:
        colour = EXTRA_ARROW if arrow.kind is ArrowKind.EXTRA else LAST_TURN
        shown = _add(group, "g", {"class": f"arrow {arrow.kind.value}", "data-from": square_name(arrow.tail),
                                  "data-to": square_name(arrow.head)})
        (x1, y1), (x2, y2) = centre(arrow.tail), centre(arrow.head)
        if arrow.tail == arrow.head:
            _add(shown, "circle", {"cx": x1, "cy": y1, "r": 42, "fill": "none", "stroke": colour, "stroke-width": 8,
                                   "stroke-opacity": 0.8})
            continue
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, dy / length
        aside = 14 if (arrow.head, arrow.tail) in pairs else 0
        # Aside to the right of the direction (y grows downwards), and from the start square's
        # centre out by START: a worker standing there keeps its name readable, as at the tip.
        sx, sy = x1 - uy * aside + ux * START, y1 + ux * aside + uy * START
        thin = arrow.kind is ArrowKind.TOKEN
        tip = length - START - 24
        head, half = (22, 12) if thin else (30, 18)
        base_x, base_y = sx + ux * (tip - head), sy + uy * (tip - head)
        line: dict[str, str | int | float] = {"x1": sx, "y1": sy, "x2": base_x, "y2": base_y, "stroke": colour,
                                              "stroke-width": 6 if thin else 12, "stroke-opacity": 0.8}
        if arrow.kind in (ArrowKind.FORCE, ArrowKind.TOKEN):
            line["stroke-dasharray"] = "8 6"
        _add(shown, "line", line)
        points = ((sx + ux * tip, sy + uy * tip), (base_x - uy * half, base_y + ux * half),
                  (base_x + uy * half, base_y - ux * half))
        # A forced move's head is hollow: with its dashes, it tells a push from a move in grey too.
        head_style: dict[str, str | int | float] = {"fill": colour, "fill-opacity": 0.8} \
            if arrow.kind is not ArrowKind.FORCE else {"fill": "#ffffff", "stroke": colour, "stroke-width": 4}
        _add(shown, "polygon", {"points": " ".join(f"{_number(px)},{_number(py)}" for px, py in points), **head_style})


# ---- the legend
@dataclass(frozen=True)
class LegendLine:
    text: str
    #: The team whose colour the line's swatch shows (None: no swatch).
    team: int | None = None


def _legend_lines(state: GameState, record: TurnRecord | None, abbreviations: dict[str, str]) -> list[LegendLine]:
    """The teams (their seats and powers, who is to move, who won, who is out), the last turn in
    notation, and what each token letter stands for."""
    lines: list[LegendLine] = []
    for team, letter in enumerate(state.team_letters):
        seats = [i for i, seat in enumerate(state.seats) if seat.team == team]
        described = [f"{'seat ' + state.seats[i].letter + ' ' if len(seats) > 1 else ''}"
                     f"{' + '.join(state.seats[i].powers) or 'no power'}" for i in seats]
        notes = []
        if state.winner == team:
            notes.append("winner")
        elif all(i in state.out for i in seats):
            notes.append("out")
        elif state.winner is None and state.to_move in seats:
            notes.append("to move" if len(seats) == 1 else f"seat {state.seats[state.to_move].letter} to move")
        text = f"{letter}: {', '.join(described)}{' - ' + ', '.join(notes) if notes else ''}"
        lines.extend(LegendLine(part, team if index == 0 else None) for index, part in enumerate(_wrap(text)))
    if record is not None:
        lines.extend(LegendLine(part) for part in _wrap(f"last turn ({state.seats[record.seat].letter}): "
                                                        f"{format_turn(state, record.steps) or 'no step'}"))
    if abbreviations:
        lines.extend(LegendLine(part) for part in _wrap(
            "tokens: " + ", ".join(f"{short} {kind}" for kind, short in abbreviations.items())))
    return lines


def _wrap(text: str) -> list[str]:
    """Legend text in lines of at most LINE_CHARACTERS (a word longer than that keeps its line)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= LINE_CHARACTERS:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _draw_legend(group: ET.Element, state: GameState, lines: Sequence[LegendLine]) -> None:
    for index, line in enumerate(lines):
        y = LEGEND_TOP + index * LINE
        if line.team is not None:
            fill, ink = _team_colour(line.team)
            _add(group, "circle", {"class": f"swatch team-{state.team_letters[line.team]}", "cx": MARGIN + 10,
                                   "cy": y - 6, "r": 10, "fill": fill, "stroke": INK, "stroke-width": 2})
            _add(group, "text", {"x": MARGIN + 10, "y": y - 1, "text-anchor": "middle", "font-size": 13,
                                 "font-weight": "bold", "fill": ink}, state.team_letters[line.team])
        _add(group, "text", {"class": "line", "x": MARGIN + 28, "y": y}, line.text)


def _title(state: GameState) -> str:
    if state.winner is not None:
        return f"Santorini position: {state.team_letters[state.winner]} won"
    return f"Santorini position: seat {state.seats[state.to_move].letter} to move"


# ---- writing elements
def _team_colour(team: int) -> tuple[str, str]:
    return TEAM_COLOURS[team % len(TEAM_COLOURS)]


def _number(value: float) -> str:
    """A coordinate with at most two decimals and no '-0': the same text on every machine."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attributes(values: dict[str, str | int | float]) -> dict[str, str]:
    return {key: _number(value) if isinstance(value, float) else str(value) for key, value in values.items()}


def _add(parent: ET.Element, tag: str, attributes: dict[str, str | int | float], text: str | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag, _attributes(attributes))
    if text is not None:
        element.text = text
    return element
