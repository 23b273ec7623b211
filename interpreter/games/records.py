"""Game records: write a played game as YAML, and replay one under its own or another pack.

Replaying under another pack answers "where do the editions part ways": the first turn the other
pack does not allow, or the first turn that ends the game differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ...dsl.errors import SourceError, SourceErrors
from ...dsl.source import Document, KeyPath, load_document
from ..engine.engine import IllegalTurn
from ..model.notation import NotationError, parse_turn
from .game import (
    Game,
    SetupError,
    end_of_setup,
    new_game,
    parse_players,
    place_as_written,
    placing_seats,
    resolve_stuck,
)
from .packs import UnknownName, package_root, resolve_pack
from .play import GameLog, seats_gone
from .position import position_string


def record_text(game: Game, log: GameLog, seed: int | None) -> str:
    """The record format of schema/record.schema.json, as YAML text."""
    players = [p.label if len(p.powers) <= 1 else {"gods": list(p.powers)} for p in game.players]
    data: dict[str, object] = {
        "pack": game.pack.name if _shipped(game) else str(Path(game.pack.path).resolve()),
        "mode": game.mode.name,
        "seed": seed,
        "players": players,
        "placements": log.placements,
        "turns": log.turns,
        "result": {"winner": log.winner, "reason": log.reason},
    }
    result = data.pop("result")
    if log.out:  # who left a game of three or more, and when (after the turns, before the result)
        data["out"] = [{"seat": letter, "after_turn": turns} for letter, turns in log.out]
    if len(log.placements) == len(placing_seats(game)):  # (a game stopped in setup has no position to act from)
        data["position"] = position_string(game)
    data["result"] = result
    return yaml.safe_dump(data, sort_keys=False, width=1000)


def scenario_record_text(document: Document, game: Game, log: GameLog) -> str:
    """A game played on from a scenario's position (`play --from`), recorded as a scenario: the
    record format starts from an empty board, so the record is the scenario's position with the
    turns played added to its history, its expectations left out and the result in its name.
    `santorini play --from` plays on from it, and `santorini check` or `santorini scenario`
    replays its history by the rules."""
    from .documents import dump
    data: dict[str, object] = {key: value for key, value in document.data.items() if key != "expect"}
    result = f"winner {log.winner}" if log.winner else "no winner"
    data["name"] = f"{document.data['name']}; played on: {result} ({log.reason})"
    data["edition"] = game.pack.name if _shipped(game) else str(Path(game.pack.path).resolve())
    history = [*document.data.get("history", []), *log.turns]
    if history:
        data["history"] = history
    heading = (f"# A game played on from {document.path} ({len(log.turns)} turns): the position, and the\n"
               "# turns played as its history. `santorini play --from` plays on from it.\n")
    return heading + dump(data)


def _shipped(game: Game) -> bool:
    """Whether the game's pack is a shipped one (a record names it), not an author's folder."""
    return Path(game.pack.path).resolve() == (package_root() / "powers" / game.pack.name).resolve()


@dataclass
class ReplayReport:
    same: bool
    message: str
    #: Where in the record they part (a key path: ("turns", 4), ("result",)); () if they do not.
    at: KeyPath = ()
    #: The record's file, which knows where each entry is written (None if they do not part).
    document: Document | None = None


def replay(path: str, pack_name: str | None) -> ReplayReport:
    """Replay the record; `same` is False at the first turn where the pack parts ways.

    A record that is malformed (bad notation, an impossible placement) is bad input: SourceErrors
    located at the entry. A turn that the pack does not allow is a parting of ways, not an error.
    """
    document = load_document(path, "record")
    data = document.data

    def located(key_path: KeyPath, message: str) -> SourceErrors:
        line, column = document.position(key_path)
        return SourceErrors([SourceError(document.path, line, column, message)])

    name = pack_name or data["pack"]
    try:
        pack = resolve_pack(pack_name) if pack_name else resolve_pack(data["pack"], Path(document.path).parent)
        game = new_game(pack, parse_players(data["players"]), data.get("mode"))
    except (SetupError, UnknownName) as err:
        raise located(("players",), str(err)) from None
    seats = placing_seats(game)
    recorded_winner = (data.get("result") or {}).get("winner")
    in_setup = (len(data["placements"]) < len(seats) and not data["turns"] and "result" in data
                and recorded_winner is None)
    if len(data["placements"]) != len(seats) and not in_setup:  # (a game stopped in setup has fewer)
        raise located(("placements",), f"the record has {len(data['placements'])} placements; "
                                       f"{len(seats)} seats place workers")
    for index, (seat, text) in enumerate(zip(seats, data["placements"], strict=False)):
        try:
            place_as_written(game, seat, text)
        except (SetupError, NotationError) as err:
            raise located(("placements", index), str(err)) from None
    if in_setup:
        return ReplayReport(True, f"replayed the setup under {name}: the record stops after "
                                  f"{len(data['placements'])} of {len(seats)} placements, with no winner "
                                  "(a game stopped before its end)")
    end_of_setup(game)
    turns = data["turns"]
    gone: list[tuple[str, int]] = []

    def settle(played: int) -> None:
        """Settle stuck seats one by one, as a game does, noting who leaves."""
        for _ in game.state.seats:
            seat = game.state.to_move
            if resolve_stuck(game) is None:
                break
            gone.extend(seats_gone(game.state, seat, played))
    for number, text in enumerate(turns, start=1):
        settle(number - 1)
        state = game.state
        if state.winner is not None:
            return ReplayReport(False, f"turn {number}: under {name} the game is over before it "
                                       f"(winner {state.team_letters[state.winner]})", ("turns", number - 1), document)
        letter = state.seats[state.to_move].letter
        try:
            steps = parse_turn(state, text)
        except NotationError as err:
            raise located(("turns", number - 1), f"turn {number}: {err}") from None
        try:
            game.state = game.engine.play(state, steps)
        except IllegalTurn as err:
            return ReplayReport(False, f"turn {number} ({letter}) '{text}' is not allowed under {name}: {err}",
                                ("turns", number - 1), document)
        if game.state.winner is not None and number < len(turns):
            return ReplayReport(False, f"turn {number} ({letter}) '{text}' wins under {name}; "
                                       f"in the record the game goes on", ("turns", number - 1), document)
    settle(len(turns))
    recorded_out = [(entry["seat"].upper(), entry["after_turn"]) for entry in data.get("out", [])]
    if "out" in data and gone != recorded_out:
        shown = ", ".join(f"{seat} after turn {turn}" for seat, turn in gone) or "nobody"
        return ReplayReport(False, f"under {name} the seats that leave the game are {shown}; the record says "
                                   f"{', '.join(f'{s} after turn {t}' for s, t in recorded_out) or 'nobody'}",
                            ("out",), document)
    if "position" in data:  # (under another pack the first field, the pack, differs: the rest must not)
        reached = position_string(game).split(" ", 1)[1]
        if str(data["position"]).split(" ", 1)[1:] != [reached]:
            return ReplayReport(False, f"after turn {len(turns)} under {name} the game stands in another position "
                                       f"than the record's: {reached}", ("position",), document)
    found = None if game.state.winner is None else game.state.team_letters[game.state.winner]
    recorded = (data.get("result") or {}).get("winner")
    if "result" in data and found != recorded:
        return ReplayReport(False, f"after turn {len(turns)} the game ends differently under {name}: "
                                   f"winner {found}, recorded {recorded}", ("result",), document)
    return ReplayReport(True, f"replayed {len(turns)} turns under {name}: every turn is allowed and "
                              f"the result is the same (winner {found})")
