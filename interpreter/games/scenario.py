"""Scenario files (docs/spec/scenarios.md): load a position, check its expectations, perft.

Loading is strict: a scenario that names an unknown pack, card or worker, or whose history holds
an illegal turn, is a bad file (ScenarioError, located), not a failed expectation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...dsl.errors import SantoriniError, SourceError, SourceErrors
from ...dsl.source import Document, KeyPath, load_document
from ...dsl.vocabulary import Counter, Sex, Verb, WorkerSelector, direction_counter, nested
from ..engine.engine import IllegalTurn
from ..model.board import parse_square
from ..model.notation import HEADING_NAMES, HEADINGS, NotationError, format_turn, parse_board, parse_cell, parse_turn
from ..model.state import GameState
from .game import Game, SetupError, new_game, parse_players, placing_seats, resolve_all_stuck, seat_index
from .packs import PackError, UnknownName, resolve_pack
from .setup import add_reserve_workers, legal_placements, placement_fault, seat_setup, worker_kind


class ScenarioError(SourceErrors):
    """A scenario file that is not valid; every error is located in the file."""


#: The error for a fault at a key path of the scenario's file, with its message.
Fail = Callable[[KeyPath, str], ScenarioError]
#: A fact an expectation writes (`includes`, `excludes`, `after`): data as the file has it, which
#: the schema checked.
Fact = dict[str, Any]


@dataclass
class Scenario:
    name: str
    document: Document
    game: Game

    @property
    def state(self) -> GameState:
        return self.game.state


def load_scenario(path: str | Path, text: str | None = None) -> Scenario:
    """Read a scenario file and set up its position (history played); ScenarioError if invalid.
    `text`: the file's text, where it is not read from `path` (which then only names it, and says
    where a pack's folder is relative to)."""
    document = load_document(path, "scenario", text)
    data = document.data
    given: tuple[str, ...] = ()  # (the keys a position string gave: their faults are the string's)

    def fail(key_path: KeyPath, message: str) -> ScenarioError:
        if key_path and key_path[0] in given:
            key_path = (POSITION,)
        line, column = document.position(key_path)
        return ScenarioError([SourceError(document.path, line, column, message)])

    if POSITION in data:
        given = _position_keys(data, fail)

    try:
        pack = resolve_pack(data["edition"], relative_to=Path(document.path).parent)
    except UnknownName as err:
        raise fail(("edition",), str(err)) from None
    except PackError as err:
        raise ScenarioError(err.errors) from None
    try:
        game = new_game(pack, parse_players(data["players"]), data.get("mode"))
    except SetupError as err:
        raise fail(("players",), str(err)) from None
    _check_teams(document, game, fail)
    for key in ("die", "rolls"):
        if key in data:  # part of the spec, but no rule of the language reads them yet
            raise fail((key,), f"'{key}' is given, but no power in this game uses {key}; "
                               "remove it (nothing is silently ignored)")
    state = game.state
    try:
        cells = parse_board(data["board"])
    except NotationError as err:
        raise fail(("board",), str(err)) from None
    for square, (height, dome) in enumerate(cells):
        state.set_height(square, height)
        state.set_dome(square, dome)
    _place_workers(document, game, fail)
    _put_tokens(document, game, fail)
    _set_cards(document, game, fail)
    _set_out(document, game, fail)
    if "placing" in data:
        if data.get("history"):
            raise fail(("history",), "a position in setup ('placing') has no history of turns")
        for key in ("to_move", "out"):
            if key in data:
                raise fail((key,), f"a position in setup ('placing') has no '{key}': the placing seat is the one "
                                   "to act, and no one has lost yet")
        try:
            seat = seat_index(state, data["placing"])
        except SetupError as err:
            raise fail(("placing",), str(err)) from None
        if seat not in placing_seats(game):
            placers = ", ".join(state.seats[s].letter for s in placing_seats(game))
            raise fail(("placing",), f"seat {data['placing']} does not place workers: one seat of each team "
                                     f"does ({placers}, in this order)")
        state.to_move = seat
        _check_expectation_keys(document, fail, setup=True)
        _check_placement_texts(document, fail)
        return Scenario(data["name"], document, game)
    if "to_move" in data:
        try:
            state.to_move = seat_index(state, data["to_move"])
        except SetupError as err:
            raise fail(("to_move",), str(err)) from None
    if state.to_move in state.out:
        letter = state.seats[state.to_move].letter
        raise fail(("to_move",) if "to_move" in data else ("out",),
                   f"seat {letter} is out and does not move; say which seat does ('to_move')")
    for index, turn_text in enumerate(data.get("history", [])):
        resolve_all_stuck(game)  # seat order: with three or more teams a stuck seat is out, then the next plays
        if game.state.winner is not None:
            raise fail(("history", index), f"history turn {index + 1} '{turn_text}': the game is over "
                                           f"(winner {game.state.team_letters[game.state.winner]})")
        try:
            game.state = game.engine.play(game.state, parse_turn(game.state, turn_text))
        except (NotationError, IllegalTurn) as err:
            raise fail(("history", index), f"history turn {index + 1} '{turn_text}': {err}") from None
    _check_expectation_keys(document, fail, setup=False)
    _check_expectation_texts(document, game, fail)
    return Scenario(data["name"], document, game)


#: The expectations of a position in setup ('placing'), and those of a position in play.
SETUP_EXPECTATIONS = {"placements", "order", "legal", "illegal"}
PLAY_EXPECTATIONS = {"turns", "win", "lose", "legal", "illegal", "includes", "excludes", "after", "perft"}


def _check_teams(document: Document, game: Game, fail: Fail) -> None:
    """A team written with a seat (`{god: Name, team: A}`) must be the one the mode puts the
    seat in, by the letter of that team's first seat: `team: Q` in a game of two names no team,
    and a file that says it is not a file the reader can trust."""
    state = game.state
    for index, entry in enumerate(document.data["players"]):
        written = entry.get("team") if isinstance(entry, dict) else None
        if written is None:
            continue
        seat = state.seats[index]
        letter = state.team_letters[seat.team]
        if str(written).upper() != letter:
            raise fail(("players", index, "team"), f"seat {seat.letter}'s team '{written}' is not its team in mode "
                                                   f"'{game.mode.name}': the game's teams are {_teams(state)}; "
                                                   f"write team: {letter}")


def _teams(state: GameState) -> str:
    """'A (seats A, C), B (seats B, D)': each team by its letter, with its seats."""
    parts = []
    for team, letter in enumerate(state.team_letters):
        seats = [s.letter for s in state.seats if s.team == team]
        parts.append(f"{letter} (seat{'s' if len(seats) > 1 else ''} {', '.join(seats)})")
    return ", ".join(parts)


def _check_expectation_keys(document: Document, fail: Fail, setup: bool) -> None:
    """An expectation that the position cannot have is a fault, not a check that never runs."""
    allowed = SETUP_EXPECTATIONS if setup else PLAY_EXPECTATIONS
    for key in document.data.get("expect", {}):
        if key not in allowed:
            why = ("a position in setup ('placing') expects placements: "
                   f"{', '.join(sorted(SETUP_EXPECTATIONS))}" if setup else
                   f"'{key}' is about a position in setup: add 'placing: SEAT'")
            raise fail(("expect", key), f"'{key}' cannot be checked here: {why}")


def _check_expectation_texts(document: Document, game: Game, fail: Fail) -> None:
    """Every turn and worker an expectation writes must be well-formed and name workers of the
    position: a typo in an `illegal:` turn is a fault of the file, not a turn the rules refuse."""
    expect = document.data.get("expect", {})
    state = game.state
    for key in ("legal", "illegal"):
        for index, text in enumerate(expect.get(key, [])):
            try:
                parse_turn(state, text)
            except NotationError as err:
                raise fail(("expect", key, index), f"{key} turn '{text}' is not well-formed: {err}") from None
    facts: list[tuple[KeyPath, Fact]] = [(("expect", key, index), fact) for key in ("includes", "excludes")
                                         for index, fact in enumerate(expect.get(key, []))]
    if "after" in expect:
        try:
            parse_turn(state, expect["after"]["turn"])
        except NotationError as err:
            raise fail(("expect", "after", "turn"), f"after turn '{expect['after']['turn']}' is not well-formed: "
                                                   f"{err}") from None
        facts.append((("expect", "after"), expect["after"]))
    for where, fact in facts:
        _card_counts(fact.get("cards", {}), (*where, "cards"), game, fail)
        for name in fact.get("workers", {}):
            try:
                state.worker_by_name(name)
            except ValueError as err:
                raise fail((*where, "workers", name), str(err)) from None


def _check_placement_texts(document: Document, fail: Fail) -> None:
    """The placements a setup scenario writes must be well-formed ('place A1 a1; place A2 e5',
    'token abyss c3')."""
    expect = document.data.get("expect", {})
    for key in ("legal", "illegal"):
        for index, text in enumerate(expect.get(key, [])):
            try:
                _placement_squares(text)
            except (NotationError, ValueError) as err:
                raise fail(("expect", key, index), f"{key} placement '{text}' is not well-formed: {err}") from None


def _put_tokens(document: Document, game: Game, fail: Fail) -> None:
    """`tokens: {d2: talus}`: each kind is the token of the one seat whose card uses it."""
    state = game.state
    users: dict[str, list[int]] = {}
    for rules in game.engine.seat_rules:
        for kind in {d.token.value for d in rules.dome_likes} | rules.placed_token_kinds():
            users.setdefault(kind, []).append(rules.seat)
    for space, kind in document.data.get("tokens", {}).items():
        kind = kind.lower()
        holders = users.get(kind, [])
        if len(holders) != 1:
            known = ", ".join(sorted(users)) or "none"
            why = "no card in this game uses it" if not holders else "several seats use it"
            raise fail(("tokens", space), f"token '{kind}' on {space}: {why} (tokens of this game: {known})")
        square = parse_square(space)
        if state.domes[square] or square in state.tokens:  # (a worker may stand on one: a card's own coin)
            raise fail(("tokens", space), f"token '{kind}': {space} already holds a dome or a token")
        state.set_token(square, (kind, holders[0]))


def _set_out(document: Document, game: Game, fail: Fail) -> None:
    """`out: [C]`: seats that have lost already; their team leaves with them, and nothing of
    theirs may be on the board."""
    state = game.state
    letters = [letter.upper() for letter in document.data.get("out", [])]
    if not letters:
        return
    if "placing" in document.data:
        raise fail(("out",), "a position in setup ('placing') has no 'out': no one has lost yet")
    if len(state.team_letters) < 3:
        raise fail(("out",), "only a game of three or more teams goes on after a player loses")
    for index, letter in enumerate(letters):
        try:
            seat = seat_index(state, letter)
        except SetupError as err:
            raise fail(("out", index), str(err)) from None
        team = state.seats[seat].team
        if state.team_workers(team):
            names = ", ".join(state.worker_name(w) for w in state.team_workers(team))
            raise fail(("out", index), f"seat {letter} is out, so its workers are not on the board ({names} are)")
        state.out.update(i for i, other in enumerate(state.seats) if other.team == team)
    if len(state.teams_in_play()) < 2:
        raise fail(("out",), "at least two teams must still be playing")


def _set_cards(document: Document, game: Game, fail: Fail) -> None:
    """`cards: {A: {coins: 2, used: [your move]}}`: counters on a seat's card, by the names the
    cards count, and the once-per-game powers it has used, by their sections' timing."""
    state = game.state
    for seat, key, value in _card_counts(document.data.get("cards", {}), ("cards",), game, fail):
        if isinstance(value, list):  # (the USED entry)
            for mark in value:
                state.set_mark(seat, mark, True)
        else:
            state.set_counter(seat, key, value)


#: The card-state entry that lists the once-per-game powers a seat has used.
USED = "used"
#: The key of a position written as one line (games/position.py), and the keys it stands for.
POSITION = "position"
POSITION_KEYS = ("edition", "mode", "players", "to_move", "board", "workers", "tokens", "cards", "out", "placing")


def _position_keys(data: dict[str, Any], fail: Fail) -> tuple[str, ...]:
    """`position: '<one line>'`: the keys it stands for, put into the scenario's data (a fault of
    the string is located at it, with the column in the string); a key written beside it is refused."""
    from .position import PositionError, position_data
    both = [key for key in POSITION_KEYS if key in data]
    if both:
        raise fail((both[0],), f"'{both[0]}' is given twice: the position string gives it; write the position "
                               "either as one line or key by key")
    try:
        parsed, _ = position_data(data[POSITION])
    except PositionError as err:
        raise fail((POSITION,), f"column {err.column} of the position: {err.message}") from None
    parsed.pop("name")
    data.update(parsed)
    return tuple(parsed)


def marks_of(game: Game, seat: int) -> dict[str, str]:
    """The seat's once-per-game powers: their timing as written (lower case) -> the mark's name."""
    rules = game.engine.seat_rules[seat]
    names = [p.once_per_game for p in rules.programs] + \
            [o.once_per_game for options in rules.options.values() for o in options] + \
            [s.once_per_game for s in (*rules.turn_ends, *rules.turn_begins)]
    return {name.split(": ", 1)[1].removesuffix(" (once per game)"): name for name in names if name}


def _counter_names(game: Game, seat: int) -> set[str]:
    """The counters the seat's cards keep (their coins, the tokens they placed)."""
    rules = game.engine.seat_rules[seat]
    names = {c.counter.value for c in rules.turn_starts}
    names |= {c.counter.value for p in rules.programs for s in p.steps for c in s.cost}
    names |= {c.counter.value for o in (*rules.options.values(),) for opt in o for c in opt.step.cost}
    names |= {f"{s.token.value} tokens placed" for f in rules.followups for s in (f.step,)
              if s.token is not None and s.per_game is not None}
    if rules.grants_turns:  # (the additional turns the seat is owed: 'additional turns: 1')
        names.add(Counter.ADDITIONAL_TURN.value)
    return names | _direction_names(game, seat)


def _direction_names(game: Game, seat: int) -> set[str]:
    """The counters of where the seat's tokens point ('wind direction: north')."""
    rules = game.engine.seat_rules[seat]
    steps = [s for step in rules.turn_ends for s in (step, step.otherwise) if s is not None]
    return {direction_counter(step.token) for step in steps if step.verb is Verb.POINT and step.token is not None}


def _used_marks(game: Game, seat: int, value: object, at: KeyPath, fail: Fail) -> list[str]:
    """`used: [your move]`: the marks of the seat's once-per-game powers named by their timing."""
    marks = marks_of(game, seat)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(at, "'used' lists the timings of once-per-game powers, e.g. [your move]")
    known = ", ".join(sorted(marks)) or "none"
    found = []
    for timing in value:
        key = " ".join(timing.lower().split())
        if key not in marks:
            raise fail(at, f"'{timing}' is not a once-per-game power of this seat's cards (theirs: {known})")
        found.append(marks[key])
    return found


def _counter_key(game: Game, seat: int, name: str) -> str:
    """The counter a fact names: 'coins' is the 'coin' counter."""
    return name[:-1] if name.endswith("s") and name[:-1] in _counter_names(game, seat) else name


def _card_counts(cards: dict[str, Any], at: KeyPath, game: Game, fail: Fail) -> list[tuple[int, str, int | list[str]]]:
    """`{A: {coins: 2}}` as (seat, counter, value), each name one the seat's cards count; `used`
    as (seat, USED, the marks)."""
    counts: list[tuple[int, str, int | list[str]]] = []
    for letter, values in cards.items():
        try:
            seat = seat_index(game.state, letter)
        except SetupError as err:
            raise fail((*at, letter), str(err)) from None
        names = _counter_names(game, seat)
        for name, value in values.items():
            if name == USED:
                counts.append((seat, USED, _used_marks(game, seat, value, (*at, letter, name), fail)))
                continue
            key = _counter_key(game, seat, name)
            if key not in names:
                known = ", ".join(sorted(names)) or "none"
                raise fail((*at, letter, name), f"seat {letter}'s cards count no '{name}' (they count: {known})")
            if key in _direction_names(game, seat):  # (a name, or its number as a position string writes it)
                number = HEADINGS.get(value.lower()) if isinstance(value, str) else (
                    value if type(value) is int and value in HEADING_NAMES else None)
                if number is None:
                    raise fail((*at, letter, name), f"'{name}' is where a token points: {', '.join(HEADINGS)} "
                                                    "(or its number, 0 to 8)")
                counts.append((seat, key, number))
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise fail((*at, letter, name), f"'{name}' is a count: a whole number, 0 or more")
            counts.append((seat, key, value))
    return counts


def _place_workers(document: Document, game: Game, fail: Fail) -> None:
    state = game.state
    letters = {letter: team for team, letter in enumerate(state.team_letters)}
    entries = sorted(document.data["workers"].items(), key=lambda kv: (kv[0][0].upper(), int(kv[0][1:])))
    setups = {state.seats[seat].team: seat_setup(game, seat) for seat in placing_seats(game)}
    placed: dict[str, int] = {}
    names: dict[str, str] = {}
    for name, _ in entries:
        same = names.setdefault(name.upper(), name)
        if same != name:
            raise fail(("workers", name), f"worker '{name}' is '{same}' again: worker ids ignore case")
    reads_sexes = _reads_sexes(game)
    for name, value in entries:
        where = value if isinstance(value, str) else value["at"]
        sex_name = value.get("sex") if isinstance(value, dict) else None
        if sex_name is not None and not reads_sexes:
            raise fail(("workers", name, "sex"), f"worker '{name}': no card in this game tells workers apart by sex "
                                                 "(a sex would make them count as different workers)")
        kind = 1 if sex_name == "female" else 0
        sex = {"female": Sex.FEMALE, "male": Sex.MALE}.get(sex_name) if sex_name is not None else None
        letter_key = name[0].upper()
        team_setup = setups.get(letters.get(letter_key, -1))
        if sex is None and team_setup is not None and team_setup.female:  # the card's sexes, as setup gives them
            kind, sex = worker_kind(team_setup, placed.get(letter_key, 0))
        placed[letter_key] = placed.get(letter_key, 0) + 1
        letter = name[0].upper()
        if letter not in letters:
            raise fail(("workers", name), f"worker '{name}': no team '{letter}' (workers are named "
                                          f"by a team's first seat: {', '.join(letters)})")
        square = parse_square(where)
        if state.occupant[square] >= 0 or state.domes[square]:
            raise fail(("workers", name), f"worker '{name}': {where} already holds a worker or a dome")
        state.add_worker(letters[letter], int(name[1:]), square, kind, sex)
    _reserve_workers(game)


def _reads_sexes(game: Game) -> bool:
    """Whether some card of the game tells workers apart by sex (its setup makes one female, or
    one of its rules names a female or male worker)."""
    if any(seat_setup(game, seat).female for seat in placing_seats(game)):
        return True
    return any(isinstance(part, WorkerSelector) and part.sex is not None
               for seat in game.cards for card in seat for part in nested(card.power))


def _reserve_workers(game: Game) -> None:
    """The extra workers a seat's card keeps (setup: 'you have 1 extra worker on your card') wait
    on the card, numbered after the team's workers on the board."""
    for seat in placing_seats(game):
        add_reserve_workers(game, seat)


# ---- expectations
def check(scenario: Scenario) -> list[str]:
    """What fails in the scenario's expectations (empty when it passes)."""
    if "placing" in scenario.document.data:
        return _check_placement(scenario)
    expect = scenario.document.data.get("expect", {})
    game = scenario.game
    engine, state = game.engine, game.state
    failures: list[str] = []
    if "turns" in expect:
        count = len(engine.outcomes(state))
        if count != expect["turns"]:
            failures.append(f"turns: expected {expect['turns']}, found {count}")
    if "win" in expect and engine.can_win(state) != expect["win"]:
        failures.append(f"win: expected {expect['win']}, found {not expect['win']}")
    if "lose" in expect and (not engine.has_turn(state)) != expect["lose"]:
        failures.append(f"lose: expected {expect['lose']}, found {not expect['lose']}")
    for text in expect.get("legal", []):
        try:
            engine.play(state, parse_turn(state, text))
        except (IllegalTurn, NotationError) as err:
            failures.append(f"legal '{text}' was rejected: {err}")
    for text in expect.get("illegal", []):
        try:
            engine.play(state, parse_turn(state, text))
            failures.append(f"illegal '{text}' was accepted")
        except (IllegalTurn, NotationError):
            pass
    if "includes" in expect or "excludes" in expect:
        outcomes = [engine.play(state, steps) for steps in engine.outcomes(state).values()]
        for fact in expect.get("includes", []):
            if not any(_fact_holds(o, fact, game) is None for o in outcomes):
                failures.append(f"includes {fact}: no outcome matches")
        for fact in expect.get("excludes", []):
            matching = [o for o in outcomes if _fact_holds(o, fact, game) is None]
            if matching:
                failures.append(f"excludes {fact}: an outcome matches "
                                f"('{format_turn(state, matching[0].history[-1].steps)}')")
    if "after" in expect:
        after = expect["after"]
        try:
            result = engine.play(state, parse_turn(state, after["turn"]))
            mismatch = _fact_holds(result, after, game, exact_workers=True)
            if mismatch:
                failures.append(f"after '{after['turn']}': {mismatch}")
        except (IllegalTurn, NotationError) as err:
            failures.append(f"after '{after['turn']}' was rejected: {err}")
    for depth, count in sorted(expect.get("perft", {}).items(), key=lambda kv: int(kv[0])):
        found = engine.perft(state, int(depth))
        if found != count:
            failures.append(f"perft {depth}: expected {count}, found {found}")
    return failures


def _check_placement(scenario: Scenario) -> list[str]:
    """Expectations of a position in setup: how many placements the placing seat has, the
    placing order, and placements written as turns ('place A1 a1; place A2 e5')."""
    expect = scenario.document.data.get("expect", {})
    game, seat = scenario.game, scenario.state.to_move
    failures: list[str] = []
    legal = {tuple(sorted(p)) for p in legal_placements(game, seat)}
    if "placements" in expect and len(legal) != expect["placements"]:
        failures.append(f"placements: expected {expect['placements']}, found {len(legal)}")
    if "order" in expect:
        order = [scenario.state.seats[s].letter for s in placing_seats(game)]
        wanted = [letter.upper() for letter in expect["order"]]
        if order != wanted:
            failures.append(f"order: expected {', '.join(wanted)}, found {', '.join(order)}")
    for key, should in (("legal", True), ("illegal", False)):
        for text in expect.get(key, []):
            squares = _placement_squares(text)
            fault = placement_fault(game, seat, squares)
            if (fault is None) != should:
                failures.append(f"{key} '{text}' was " + ("rejected: " + str(fault) if should else "accepted"))
    return failures


def _placement_squares(text: str) -> tuple[int, ...]:
    """The spaces of a placement written as steps: 'place A1 a1; place A2 e5' (in a token round,
    'token abyss c3')."""
    squares = []
    for step in text.split(";"):
        words = step.split()
        if len(words) != 3 or words[0].lower() not in ("place", "token"):
            raise NotationError(f"'{step.strip()}': a placement is written 'place WORKER SPACE', e.g. 'place A1 a1' "
                                "(a setup token's, 'token KIND SPACE')")
        squares.append(parse_square(words[2]))
    return tuple(squares)


def _fact_holds(state: GameState, fact: Fact, game: Game, exact_workers: bool = False) -> str | None:
    """None if every fact written holds in `state`, else what differs.

    An outcome does not know which of two interchangeable workers stands where (spec:
    'Outcomes'), so worker facts about outcomes hold up to swapping such workers; after one
    given turn (`exact_workers`) the names are compared as written."""
    for space, cell in fact.get("board", {}).items():
        height, dome = parse_cell(str(cell))
        square = parse_square(space)
        if (state.heights[square], state.domes[square]) != (height, dome):
            shown = f"{state.heights[square]}{'D' if state.domes[square] else ''}"
            return f"{space} is {shown}, expected {cell}"
    mismatch = (_workers_hold if exact_workers else _workers_hold_up_to_swaps)(state, fact.get("workers", {}))
    if mismatch:
        return mismatch
    for space, kind in fact.get("tokens", {}).items():
        token = state.tokens.get(parse_square(space))
        held = token[0] if token is not None else None
        if (held or None) != (kind.lower() if isinstance(kind, str) else None):
            return f"{space} holds {'a ' + held + ' token' if held else 'no token'}, expected {kind or 'none'}"
    for letter, values in fact.get("cards", {}).items():
        seat = next(i for i, info in enumerate(state.seats) if info.letter == letter.upper())
        for name, value in values.items():
            if name == USED:
                wanted = {marks_of(game, seat)[" ".join(t.lower().split())] for t in value}
                used = {mark for holder, mark in state.marks if holder == seat}
                if used != wanted:
                    return (f"seat {letter.upper()} has used {sorted(used) or 'nothing'}, "
                            f"expected {sorted(wanted) or 'nothing'}")
                continue
            found = state.counters.get((seat, _counter_key(game, seat, name)), 0)
            if isinstance(value, str):  # (a direction: 'north' ... 'nowhere')
                if HEADING_NAMES[found] != value.lower():
                    return f"seat {letter.upper()}'s {name}: {HEADING_NAMES[found]}, expected {value}"
            elif found != value:
                return f"seat {letter.upper()}'s {name}: {found}, expected {value}"
    if "winner" in fact:
        winner = None if state.winner is None else state.team_letters[state.winner]
        expected = fact["winner"].upper() if isinstance(fact["winner"], str) else fact["winner"]
        if winner != expected:
            return f"winner is {winner}, expected {expected}"
    return None


def _workers_hold(state: GameState, workers: dict[str, str | None]) -> str | None:
    for name, where in workers.items():
        position = state.worker_pos[state.worker_by_name(name)]
        if where is None:
            if position >= 0:
                return f"{name} is on the board, expected removed"
        elif position != parse_square(where):
            return f"{name} is not on {where}"
    return None


def _workers_hold_up_to_swaps(state: GameState, workers: dict[str, str | None]) -> str | None:
    """Per class of interchangeable workers: the spaces named are held by that class, and as
    many of its workers are off the board as the fact removes."""
    wanted: dict[int, list[int | None]] = {}
    for name, where in workers.items():
        worker = state.worker_by_name(name)
        wanted.setdefault(state.worker_class[worker], []).append(None if where is None else parse_square(where))
    for cls, squares in wanted.items():
        members = [w for w, c in enumerate(state.worker_class) if c == cls]
        held = {state.worker_pos[w] for w in members if state.worker_pos[w] >= 0}
        named = {sq for sq in squares if sq is not None}
        removed = sum(1 for sq in squares if sq is None)
        if not named <= held or removed > len(members) - len(held):
            names = ", ".join(f"{n}: {w}" for n, w in workers.items())
            return f"no worker placement matches {{{names}}}"
    return None


@dataclass
class RunResult:
    """What a run of scenario files found: the scenarios that passed and failed, one line each
    in the order run, and the files that are not valid scenarios (each fault's message, which
    names the file, line and column: also among the lines, as `ERROR message`)."""

    passed: int
    failed: int
    lines: list[str]
    faults: list[str] = field(default_factory=list)


def scenario_files(paths: list[str]) -> list[Path]:
    """Files named, and every *.yaml under folders named, in a stable order."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(path.rglob("*.yaml")))
        else:
            found.append(path)
    return found


def run_scenarios(paths: list[str], on_file: Callable[[Path], None] | None = None) -> RunResult:
    """Run every scenario file under `paths`: one line per scenario, then the tally;
    `on_file(path)` hears of each file run.

    A file that is not a valid scenario (a fault of its own, a card its pack lacks) is reported
    in `faults` and among the lines, and the other files are run all the same: one bad file in a
    folder hides nothing of the rest (the runner then exits 2).
    """
    result = RunResult(0, 0, [])
    for path in scenario_files(paths):
        if on_file is not None:
            on_file(path)
        try:
            scenario = load_scenario(path)
            failures = check(scenario)
        except SantoriniError as err:
            for fault in err.errors if isinstance(err, SourceErrors) else [err]:
                message = str(fault) if str(path) in str(fault) else f"{path}: {fault}"
                result.faults.append(message)
                result.lines.append(f"ERROR {message}")
            continue
        if failures:
            result.failed += 1
            result.lines.append(f"FAIL {scenario.name}: {'; '.join(failures)}")
        else:
            result.passed += 1
            result.lines.append(f"PASS {scenario.name}")
    return result
