"""Game records: write a played game as YAML, and replay one under its own or another pack.

Replaying under another pack answers "where do the editions part ways": the first turn the other
pack does not allow, or the first turn that ends the game differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ..dsl.source import load_document
from .engine import IllegalTurn
from .game import Game, SetupError, end_of_setup, new_game, parse_players, place_workers, placing_seats, resolve_stuck
from .notation import NotationError, parse_placement, parse_turn
from .packs import load_pack
from .play import GameLog

def write_record(path: str, game: Game, log: GameLog, seed: int | None) -> None:
    """The record format of schema/record.schema.json."""
    players = [p.label if len(p.powers) <= 1 else {"gods": list(p.powers)} for p in game.players]
    data = {
        "pack": game.pack.name,
        "mode": game.mode.name,
        "seed": seed,
        "players": players,
        "placements": log.placements,
        "turns": log.turns,
        "result": {"winner": log.winner, "reason": log.reason},
    }
    Path(path).write_text(yaml.safe_dump(data, sort_keys=False, width=1000), encoding="utf-8")


@dataclass
class ReplayReport:
    same: bool
    message: str


def replay(path: str, pack_name: str | None) -> ReplayReport:
    """Replay the record; `same` is False at the first turn where the pack parts ways."""
    document = load_document(path, "record")
    data = document.data
    name = pack_name or data["pack"]
    game = new_game(load_pack(name), parse_players(data["players"]), data.get("mode"))
    seats = placing_seats(game)
    if len(data["placements"]) != len(seats):
        raise SetupError(f"{path}: the record has {len(data['placements'])} placements; "
                         f"{len(seats)} seats place workers")
    for seat, text in zip(seats, data["placements"]):
        place_workers(game, seat, [square for _, square in parse_placement(text)])
    end_of_setup(game)
    recorded = data.get("result", {}).get("winner")
    turns = data["turns"]
    for number, text in enumerate(turns, start=1):
        resolve_stuck(game)
        state = game.state
        if state.winner is not None:
            return ReplayReport(False, f"turn {number}: under {name} the game is over before it "
                                       f"(winner {state.team_letters[state.winner]})")
        letter = state.seats[state.to_move].letter
        try:
            game.state = game.engine.play(state, parse_turn(state, text))
        except (IllegalTurn, NotationError) as err:
            return ReplayReport(False, f"turn {number} ({letter}) '{text}' is not allowed under {name}: {err}")
        winner = game.state.winner
        if winner is not None and number < len(turns):
            return ReplayReport(False, f"turn {number} ({letter}) '{text}' wins under {name}; "
                                       f"in the record the game goes on")
        if number == len(turns):
            found = None if winner is None else game.state.team_letters[winner]
            if recorded is not None and found != recorded and resolve_stuck(game) is None:
                return ReplayReport(False, f"turn {number} ({letter}) '{text}' ends differently under "
                                           f"{name}: winner {found}, recorded {recorded}")
    return ReplayReport(True, f"replayed {len(turns)} turns under {name}: every turn is allowed and "
                              f"the result is the same (winner {recorded})")
