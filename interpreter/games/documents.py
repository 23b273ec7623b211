"""Positions written as the spec writes them (docs/spec/scenarios.md), for agents outside the
process: a scenario document without expectations, which `load_scenario` reads back.

Two documents describe a game in progress:
- `position_document`: the position now (board, workers, tokens, card state, seats out, the
  seat to move). What a rule remembers of earlier turns (what a seat did on its last turn) is
  not part of a position, so it is lost here.
- `game_document`: the position play started from (the placed workers on the empty board) and
  every turn since, as its `history`; reading it replays the turns, so nothing is lost.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ..model.board import square_name
from ..model.notation import format_board, format_turn
from ..model.state import GameState
from .game import Game
from .packs import package_root
from .setup import first_turn_seat

__all__ = ["Document", "dump", "game_document", "position_document"]

#: A position or a game as a YAML document (the spec's scenario format): plain data.
Document = dict[str, object]


def position_document(game: Game, placing: int | None = None) -> Document:
    """The game's position now. With `placing` (a seat), a position in setup: that seat places
    its workers next, and the workers placed so far stand on the board."""
    state = game.state
    document = _heading(game, f"seat {state.seats[placing if placing is not None else state.to_move].letter} "
                              f"{'places' if placing is not None else 'to move'}")
    if placing is not None:
        document["placing"] = state.seats[placing].letter
    else:
        document["to_move"] = state.seats[state.to_move].letter
    document["board"] = format_board(state) + "\n"
    document["workers"] = {state.worker_name(w): _worker(state, w, state.worker_pos[w])
                           for w in _by_name(state) if state.worker_pos[w] >= 0}
    if state.tokens:
        document["tokens"] = {square_name(square): kind for square, (kind, _) in sorted(state.tokens.items())}
    cards = _cards(game)
    if cards:
        document["cards"] = cards
    if state.out and placing is None:
        document["out"] = [state.seats[seat].letter for seat in sorted(state.out)]
    return document


def game_document(game: Game) -> Document:
    """The position play started from and the turns played since. A game that was not set up
    by placing workers (a position loaded from a file) has no known start: its document is the
    position now, with no history."""
    state = game.state
    placed = [step for steps in game.placements for step in steps if step[0] == "place"]
    if not placed:
        return position_document(game)
    document = _heading(game, f"seat {state.seats[state.to_move].letter} to move after {len(state.history)} turns")
    document["to_move"] = state.seats[first_turn_seat(game)].letter
    document["board"] = "0 0 0 0 0\n" * 5
    by_name = sorted(placed, key=lambda step: _name_key(state, step[1]))
    document["workers"] = {state.worker_name(w): _worker(state, w, square) for _, w, square in by_name}
    if state.history:
        document["history"] = [format_turn(state, record.steps) for record in state.history]
    return document


def dump(document: Document) -> str:
    """The document as YAML text, the board as a literal block (as scenario files write it)."""
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, width=1000, allow_unicode=True)


class _Dumper(yaml.SafeDumper):
    """Safe YAML with multi-line strings written as literal blocks."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def _heading(game: Game, name: str) -> Document:
    """name, edition (a shipped pack by name, an author's pack by its folder), mode, players."""
    shipped = Path(game.pack.path).resolve() == (package_root() / "powers" / game.pack.name).resolve()
    players: list[object] = []
    for spec in game.players:
        if spec.team is None:
            players.append(spec.label if len(spec.powers) <= 1 else {"gods": list(spec.powers)})
        else:
            seat: dict[str, object] = {"god": spec.label} if len(spec.powers) <= 1 else {"gods": list(spec.powers)}
            players.append({**seat, "team": spec.team})
    return {"name": name, "edition": game.pack.name if shipped else str(Path(game.pack.path).resolve()),
            "mode": game.mode.name, "players": players}


def _worker(state: GameState, worker: int, square: int) -> object:
    """A worker's entry: its space, or {at, sex} where a card tells workers apart by sex."""
    sex = state.worker_sex[worker]
    return square_name(square) if sex is None else {"at": square_name(square), "sex": sex.value}


def _name_key(state: GameState, worker: int) -> tuple[str, int]:
    return state.team_letters[state.worker_team[worker]], state.worker_number[worker]


def _by_name(state: GameState) -> list[int]:
    return sorted(range(len(state.worker_pos)), key=lambda w: _name_key(state, w))


def _cards(game: Game) -> dict[str, dict[str, object]]:
    """Card state by seat letter: counters (coins) and the once-per-game powers used."""
    from ..games.scenario import USED, marks_of  # the reader's names for marks, read backwards
    state = game.state
    cards: dict[str, dict[str, object]] = {}
    for (seat, name), value in sorted(state.counters.items()):
        if value:
            cards.setdefault(state.seats[seat].letter, {})[name] = value
    used: dict[str, list[str]] = {}
    for seat, name in sorted(state.marks):
        timing = {mark: timing for timing, mark in marks_of(game, seat).items()}.get(name)
        if timing is not None:
            used.setdefault(state.seats[seat].letter, []).append(timing)
    for letter, timings in used.items():
        cards.setdefault(letter, {})[USED] = timings
    return cards
