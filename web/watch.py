"""Watch: a pasted game record, scenario or position string as pictures to step through.

A record (what `santorini play --record` writes) is played again under its own pack
(games/frames.py): one picture after the setup and one after each turn, the turn marked. A
scenario file is its position after its history; a position string, its one position. The text
is read from the request only: a record of an author's pack folder names a path on the server's
machine, which a page may not make it read, so only the shipped packs' records are watched, and
those of the packs the server was started with (`santorini serve --pack DIR`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml

from ..dsl.source import load_document
from ..interpreter.games.frames import Position, record_frames
from ..interpreter.games.packs import pack_names
from ..interpreter.games.position import game_from_position
from ..interpreter.games.scenario import load_scenario
from ..interpreter.model.notation import format_turn
from ..interpreter.model.svg import board_svg
from .tables import WebError
from .views import Json

#: The name a pasted text goes by in messages ('pasted text:3:7: ...').
PASTED = "pasted text"
#: The most pictures one request makes.
MOST_FRAMES = 1000


def watch(text: str, served: Callable[[str], bool] = lambda pack: False) -> Json:
    """The pictures of a pasted record, scenario or position string, with a caption each (of a
    shipped pack, or of a pack folder that `served` allows: one the server was started with)."""
    stripped = text.strip()
    if not stripped:
        raise WebError("paste a game record, a scenario or a position string")
    if "\n" not in stripped and "/" in stripped.split()[0]:  # ('bga/standard Apollo,Athena ...')
        return _position_string(stripped)
    keys = _top_keys(stripped)
    if "board" in keys:
        return _scenario(text)
    if "placements" in keys or "turns" in keys:
        return _record(text, served)
    raise WebError("this is neither a game record (it has no 'placements' or 'turns'), a scenario (no "
                   "'board') nor a position string (one line)")


def _top_keys(text: str) -> set[str]:
    """The keys at the top of a YAML mapping (none for text that is not one: the loader then says
    where it is not)."""
    try:
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError:
        load_document(PASTED, "record", text)  # (raises the located fault)
        raise
    return set(data) if isinstance(data, dict) else set()


def _shipped(name: object, served: Callable[[str], bool] = lambda pack: False) -> None:
    if name not in pack_names() and not (isinstance(name, str) and served(name)):
        raise WebError(f"the playground watches games of the shipped packs ({', '.join(pack_names())}) and of "
                       f"the packs it was started with (serve --pack DIR); this one is of {name!r}")


def _record(text: str, served: Callable[[str], bool]) -> Json:
    document = load_document(PASTED, "record", text)
    _shipped(document.data["pack"], served)
    turns = document.data["turns"]
    if len(turns) >= MOST_FRAMES:
        raise WebError(f"the record has {len(turns)} turns: the playground shows at most {MOST_FRAMES - 1}")
    frames = []
    for number, position in enumerate(record_frames(document)):
        caption = "after the setup" if number == 0 else f"turn {number}: {_told(position)}"
        frames.append(_frame(position, caption))
    return {"kind": "record", "frames": frames}


def _scenario(text: str) -> Json:
    document = load_document(PASTED, "scenario", text)
    _shipped(document.data.get("pack", "bga"))
    state = load_scenario(PASTED, text).state
    position = Position(state, state.history[-1] if state.history else None)
    return {"kind": "scenario", "frames": [_frame(position, "the scenario's position")]}


def _position_string(text: str) -> Json:
    _shipped(text.split("/", 1)[0].split()[0])
    game, _ = game_from_position(text)
    return {"kind": "position", "frames": [_frame(Position(game.state, None), "the position")]}


def _told(position: Position) -> str:
    """The last turn as the record writes it, with its seat."""
    turn = position.last_turn
    if turn is None:
        return ""
    state = position.state  # (its workers' names are those the turn's steps went by)
    return f"{state.seats[turn.seat].letter}: {format_turn(state, turn.steps)}"


def _frame(position: Position, caption: str) -> Json:
    return {"caption": caption, "svg": board_svg(position.state, last_turn=position.last_turn, size=None)}


__all__ = ["MOST_FRAMES", "PASTED", "watch"]
