"""The fast engine (`Engine(..., fast=True)`: today the fast paths of interpreter/fast/, tomorrow
the engine derived from the typed parts, issue 19) must agree exactly with the generic chain it
stands in for, on any position.

`disagreement` is the comparison, and it does not look inside the fast engine: on one position a
fast engine and a generic one (`fast=False`) must give the same outcomes in the same order, the
same turns, the same answer to "can it win at once?", the same random turn from equal generators
(leaving the generators alike), the same turn at every index of a random pick (a stand-in
generator gives the index), the same state after playing a turn picked at a few indices and at
random (and the same outcomes of the reply to it), the same verdict on variants of a turn, and the
same perft to depth 2 where that is cheap. `playout_disagreement` plays whole random games from
the position with both engines and equal generators: the same turns, byte for byte, and the same
final state and history (in a game of three or more, a stuck seat is settled as in play and the
game goes on).

Here every card of every pack (the shipped packs and tests/invented, read from the packs: a card
added to a pack is compared without a change here) is compared on `POSITIONS` random positions,
against a Mortal or another card of its pack on either side; tests/test_fast_matchups.py compares
pairings with bindings, games of three and four, and random cards (tests/random_cards.py).
Further tests show that the comparison bites, on any fast engine: a fast engine wrapped to change
one thing (drop an outcome, draw the next index, play a turn otherwise...) is caught. A few tests
are about today's fast paths (the gate of fast/shape.py, the counting pickers) and go with them.

Positions are set as a game's setup would set them (`states`), on boards of random levels up to a
random highest one (a low board has more turns): each team's workers as many as its cards say,
female where a card says so, extra workers waiting on the card; the cards' own state at random
(coins, used once-per-game powers, tokens on the board); often a plausible last turn of the seat
before (a move, often up, then a build); with three teams, sometimes a team already out.

Known disagreements of today's fast engine are marked where they show (`KNOWN`, `KNOWN_TEAMS`):
xfail, strict, naming the disagreement; tests/test_fast_matchups.py holds the smallest position of
each. The marks go when the fast engine agrees (issue 19's derived engine).
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import islice
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from random_cards import set_workers

from santorini.dsl.vocabulary import Counter, Modality, Verb, direction_counter
from santorini.interpreter.engine.engine import Engine, IllegalTurn
from santorini.interpreter.games.game import Game, SetupError, new_game, parse_players, settle_stuck
from santorini.interpreter.games.packs import MORTAL, Pack, load_pack, pack_names, resolve_pack
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.games.setup import seat_setup
from santorini.interpreter.model.board import NEIGHBOURS, square_name
from santorini.interpreter.model.notation import format_board, format_turn
from santorini.interpreter.model.state import GameState, TurnRecord
from support import REPO

#: Under HYPOTHESIS_PROFILE=explore the comparisons draw this many times more positions and cards.
SCALE = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "explore" else 1
#: The comparisons do not shrink a failing example in CI (a known disagreement, marked xfail,
#: would be shrunk on every run, for minutes); under explore they do.
PHASES = tuple(Phase) if SCALE > 1 else (Phase.explicit, Phase.reuse, Phase.generate)
#: The invented gods' pack (extends bga), compared like the shipped packs.
INVENTIONS = "inventions"
PACKS = [*pack_names(), INVENTIONS]


@cache
def pack_of(name: str) -> Pack:
    """A shipped pack by name, or the invented gods' pack."""
    if name == INVENTIONS:
        return resolve_pack(str(REPO / "tests" / "invented" / "inventions"))
    return load_pack(name)


def own_cards(pack: str) -> list[str]:
    """The pack's cards; for the invented pack, only its own (it extends bga, compared already)."""
    cards = pack_of(pack).cards
    if pack == INVENTIONS:
        return sorted(name for name, card in cards.items() if "invented" in card.path)
    return sorted(cards)


#: Every card of every pack, as (pack, card name): read from the packs, not listed here.
CARDS = [(pack, name) for pack in PACKS for name in own_cards(pack)]
#: Random positions per card (issue 19: at least 30 a card in CI).
POSITIONS = 30 * SCALE
#: Random-turn draws compared per position (each with its own seed).
SEEDS = 3
#: Perft 2 is compared where it walks about this many leaves at most (Hermes's thousands of turns
#: against Poseidon's would take minutes; the replies to the turns played are compared anyway).
PERFT_WORK = 30_000
#: The same bound for the many positions of `test_fast_engine_equals_generic`: perft 2 there is
#: a sample, compared where it is cheap.
PERFT_WORK_PER_CARD = 2_000
#: Every index of a random pick is compared up to this many turns; past it, a spread of indices
#: (an engine that lists its turns for each pick would list them once per index).
EVERY_INDEX = 64
#: Turns picked by index then played, compared per position (with the first and the last).
PLAYED = 6
#: The turns of `Engine.turns_in_random_order` compared (its first ones: each drawn by its index).
IN_RANDOM_ORDER = 8
#: Variants of a two-step turn's last step compared per position (a refused turn's explanation
#: is what a comparison spends most on).
VARIANTS = 4
#: Turns of a compared playout at most (a random game ends well before).
PLAYOUT_TURNS = 200


# ---- games ----------------------------------------------------------------------------------------

def game_pair(pack: Pack, seats: Sequence[str]) -> tuple[Game, Engine] | None:
    """The game of these seats (with its fast engine) and a generic engine for the same rules
    (the same teams); None for seats the pack does not let play together (a ban, a player count
    the card is not for, a Mortal where the mode requires powers)."""
    try:
        game = new_game(pack, parse_players(list(seats)))
    except SetupError:
        return None
    return game, generic_of(game)


def generic_of(game: Game) -> Engine:
    """The generic chain for the rules of a game (its pack's base card, its seats' powers and teams)."""
    pack = game.pack
    return Engine(pack.base.power, [[c.power for c in seat] for seat in game.cards], fast=False,
                  teams=[seat.team for seat in game.state.seats], if_possible=pack.if_possible)


@cache
def games(pack: str, seats: tuple[str, ...]) -> tuple[Game, Engine] | None:
    """`game_pair` for a pack given by name (cached: compiling an engine costs more than a
    comparison)."""
    return game_pair(pack_of(pack), seats)


def team_games(pack: str, seats: tuple[str, ...]) -> tuple[Game, Engine] | None:
    """`games` for a four-player team game (kept for its name: `games` tells the generic engine
    the teams of any game)."""
    return games(pack, seats)


def may_meet(pack: str, first: str, second: str) -> bool:
    """Whether neither card bans the other (read from the cards: compiling every pairing's engine
    to find out would cost more than the comparisons)."""
    cards = pack_of(pack).cards
    return not ({b.lower() for b in cards[first].bans} & {second.lower()}
                or {b.lower() for b in cards[second].bans} & {first.lower()})


def opponents(pack: str, card: str) -> list[str]:
    """The other cards of the pack that may play against `card`."""
    return [other for other in sorted(pack_of(pack).cards) if other != card and may_meet(pack, card, other)]


# ---- positions ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """A random position: heights, domes, four workers (A1 B1 A2 B2), the seat to move, and
    maybe the other seat's last turn (a move of one of its own workers, then a build). Kept for
    the tests of single fast paths; `states` sets a position as a game's setup would."""

    heights: tuple[int, ...]
    domes: tuple[bool, ...]
    squares: tuple[int, ...]
    to_move: int
    last: TurnRecord | None

    def on(self, state: GameState) -> GameState:
        """Set this position on an empty state (the workers are added in the order A1 B1 A2 B2)."""
        for square in range(25):
            state.set_height(square, self.heights[square])
            state.set_dome(square, self.domes[square])
        for index, square in enumerate(self.squares):
            state.add_worker(index % 2, index // 2 + 1, square)
        state.to_move = self.to_move
        if self.last is not None:
            state.history.append(self.last)
        return state


@st.composite
def positions(draw, seats: int = 2) -> Position:
    """With four seats, two teams: seats A and C play team A's workers, B and D team B's."""
    heights = tuple(draw(st.integers(0, 3)) for _ in range(25))
    squares = tuple(draw(st.lists(st.integers(0, 24), min_size=4, max_size=4, unique=True)))
    domes = tuple(square not in squares and draw(st.integers(0, 9)) == 0 for square in range(25))
    to_move = draw(st.integers(0, seats - 1))
    before = (to_move - 1) % seats
    last = draw(last_turns(heights, domes, squares, before, before % 2)) if draw(st.booleans()) else None
    return Position(heights, domes, squares, to_move, last)


@st.composite
def last_turns(draw, heights, domes, squares, seat: int, team: int | None = None) -> TurnRecord | None:
    """A plausible last turn of `seat` (of team `team`, by default `seat`; the team's workers
    are the indices team and team + 2)."""
    team = seat if team is None else team
    return draw(last_turn(heights, domes, squares, seat, (team, team + 2)))


@st.composite
def last_turn(draw, heights: Sequence[int], domes: Sequence[bool], where: Sequence[int], seat: int,
              workers: Sequence[int]) -> TurnRecord | None:
    """A plausible last turn of `seat`, by one of `workers` (indices into `where`, the squares
    of all workers): it came from a free neighbouring space, without climbing more than one level
    or winning, then built next to where it stands; often a move up (Athena reads it)."""
    workers = [w for w in workers if where[w] >= 0]
    if not workers:
        return None
    worker = draw(st.sampled_from(workers))
    here = where[worker]
    around = [s for s in NEIGHBOURS[here] if s not in where]
    built = [s for s in around if heights[s] > 0 or domes[s]]
    if not built:
        return None
    build = draw(st.sampled_from(built))

    def level_then(square: int) -> int:  # its height before the build
        return heights[square] - 1 if square == build and not domes[square] else heights[square]
    origins = [s for s in around if (not domes[s] or s == build)
               and level_then(s) >= heights[here] - 1 and not (heights[here] == 3 > level_then(s))]
    if not origins:
        return None
    if draw(st.booleans()) and any(level_then(s) < heights[here] for s in origins):
        origins = [s for s in origins if level_then(s) < heights[here]]
    origin = draw(st.sampled_from(origins))
    verb = "dome" if domes[build] and heights[build] < 3 else "build"
    return TurnRecord((seat, (("move", worker, here), (verb, worker, build)),
                       (("move", worker, origin, here, level_then(origin), heights[here]),
                        ("build", worker, build, heights[build], domes[build]))))


def fill_board(draw, state: GameState) -> None:
    """A random position (`positions`) on an empty state."""
    draw(positions()).on(state)


def card_state(game: Game, seat: int) -> tuple[list[str], set[str], dict[str, tuple[int, bool]]]:
    """What the seat's cards keep, read from its rules: the marks of its once-per-game powers,
    its counters, and its kinds of token with (how many it may have on the board, whether they
    are counted as placed: 'up to N times in the game')."""
    rules = game.engine.seat_rules[seat]
    marks = [p.once_per_game for p in rules.programs if p.once_per_game]
    marks += [o.once_per_game for options in rules.options.values() for o in options if o.once_per_game]
    steps = [*(s for p in rules.programs for s in p.steps), *(o.step for opts in rules.options.values() for o in opts),
             *(f.step for f in rules.followups), *rules.turn_ends]
    counters = {c.counter.value for c in rules.turn_starts} | {c.counter.value for s in steps for c in s.cost}
    if rules.grants_turns:  # (the additional turns the seat is owed)
        counters.add(Counter.ADDITIONAL_TURN.value)
    # (where its tokens point: nowhere, north, northeast or east)
    counters |= {direction_counter(s.token) for step in steps for s in (step, step.otherwise)
                 if s is not None and s.verb is Verb.POINT and s.token is not None}
    tokens: dict[str, tuple[int, bool]] = {d.token.value: (1, False) for d in rules.dome_likes}
    for s in steps:
        if s.verb is Verb.TOKEN and s.token is not None:
            automatic = s.modality is Modality.AUTOMATIC
            tokens[s.token.value] = ((s.per_game or 3) if automatic else 1, automatic and s.per_game is not None)
    return sorted(set(marks)), counters, tokens


@st.composite
def states(draw, game: Game, to_move: int | None = None) -> GameState:
    """A random position of `game` (see the module's docstring), on a new state."""
    state = game.restart().state
    teams = len(state.team_letters)
    placers = {state.seats[seat].team: seat for seat in reversed(range(len(state.seats)))}
    counts = [seat_setup(game, placers[team]).count for team in range(teams)]
    squares = draw(st.lists(st.integers(0, 24), min_size=sum(counts), max_size=sum(counts), unique=True))
    top = draw(st.integers(1, 3), label="highest level")  # (a low board has more turns, and more ways to differ)
    for square in range(25):
        state.set_height(square, draw(st.integers(0, top)))
        state.set_dome(square, square not in squares and draw(st.integers(0, 9)) == 0)
    starts = [sum(counts[:team]) for team in range(teams)]
    set_workers(dataclasses.replace(game, state=state),
                [squares[start:start + count] for start, count in zip(starts, counts, strict=True)])
    if teams >= 3 and to_move is None and draw(st.integers(0, 4)) == 0:
        state.eliminate(draw(st.integers(0, teams - 1)))
    playing = [seat for seat in range(len(state.seats)) if seat not in state.out]
    state.to_move = draw(st.sampled_from(playing)) if to_move is None else to_move
    for seat in playing:
        marks, counters, tokens = card_state(game, seat)
        for mark in marks:
            state.set_mark(seat, mark, draw(st.booleans()))
        for counter in sorted(counters):
            state.set_counter(seat, counter, draw(st.integers(0, 3)))
        for kind, (most, counted) in sorted(tokens.items()):
            free = [s for s in range(25) if not state.blocked[s] and s not in state.tokens]
            placed = draw(st.lists(st.sampled_from(free), max_size=most, unique=True)) if free else []
            for square in placed:
                state.set_token(square, (kind, seat))
            if counted:
                state.set_counter(seat, f"{kind} tokens placed", min(most, len(placed) + draw(st.integers(0, 1))))
    seats = len(state.seats)
    before = next(seat for seat in ((state.to_move - k) % seats for k in range(1, seats + 1)) if seat not in state.out)
    if before != state.to_move and draw(st.booleans()):
        last = draw(last_turn(state.heights, state.domes, state.worker_pos, before,
                              state.members.get(state.seats[before].team, ())))
        if last is not None:
            state.history.append(last)
    return state


class _Literal(yaml.SafeDumper):
    """Writes a text of several lines (the board) as a literal block, as scenario files do."""


_Literal.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def describe(game: Game, state: GameState) -> str:
    """The position in the scenario format (docs/scenarios.md), for a report: paste it into a
    scenario file to replay it. Its last turn, if any, is given as a comment (a scenario's history
    replays legal turns from an earlier position, which a random position does not have)."""
    workers = {}
    for worker, square in enumerate(state.worker_pos):
        if square >= 0:
            sex = state.worker_sex[worker]
            workers[state.worker_name(worker)] = (square_name(square) if sex is None
                                                  else {"at": square_name(square), "sex": sex.value})
    cards: dict[str, dict] = {}
    for (seat, name), value in sorted(state.counters.items()):
        cards.setdefault(state.seats[seat].letter, {})[name] = value
    for seat, mark in sorted(state.marks):
        cards.setdefault(state.seats[seat].letter, {}).setdefault("used", []).append(
            mark.split(": ", 1)[1].removesuffix(" (once per game)"))
    shipped = game.pack.name in pack_names()
    data = {"name": "a position where the fast engine and the generic chain disagree",
            "edition": game.pack.name if shipped else game.pack.path, "players": [spec.label for spec in game.players],
            "board": format_board(state) + "\n", "workers": workers,
            "to_move": state.seats[state.to_move].letter}
    if state.tokens:
        data["tokens"] = {square_name(s): kind for s, (kind, _) in sorted(state.tokens.items())}
    if cards:
        data["cards"] = cards
    if state.out:
        data["out"] = sorted({state.seats[s].letter for s in state.out})
    text = yaml.dump(data, Dumper=_Literal, sort_keys=False)
    if state.history:
        text += f"# last turn: {state.history[-1]!r}\n"
    return text


# ---- the comparison -------------------------------------------------------------------------------

class _Drawn:
    """A stand-in for a random generator whose draw is given: the picker must count exactly the
    list's length and find the turn at every index."""

    def __init__(self, index: int) -> None:
        self.index, self.bound, self.calls = index, None, 0

    def randrange(self, bound: int) -> int:
        self.bound, self.calls = bound, self.calls + 1
        return self.index


def _left(state: GameState) -> tuple:
    """What a played turn leaves: the board, the workers, the cards' state, the log."""
    return (state.heights, state.domes, state.worker_pos, state.hash, state.history, state.to_move, state.winner,
            state.marks, state.counters, state.tokens, state.reserve, state.out)


def _untouched(state: GameState) -> tuple:
    """What a query must leave as it found it."""
    return (tuple(state.heights), tuple(state.domes), tuple(state.worker_pos), bytes(state.blocked),
            tuple(state.occupant), state.hash, len(state.history), state.to_move, state.winner,
            frozenset(state.marks), tuple(sorted(state.counters.items())), tuple(sorted(state.tokens.items())))


def _indices(fast: Engine, state: GameState, count: int, most: int = EVERY_INDEX) -> Sequence[int]:
    """The indices of a draw to check: every one up to `most` turns, or where today's fast engine
    says the seat has a picker (which counts its way to the index); else a spread of `most`
    indices, the first and the last among them (the draw is an index into the list: an engine that
    lists for each draw would list the turns once per index)."""
    pickers = getattr(fast, "_pickers", None)
    if count <= most or (pickers is not None and pickers[state.to_move] is not None):
        return range(count)
    return sorted({0, count - 1, *range(0, count, max(1, count // max(1, most - 2)))})


def disagreement(fast: Engine, generic: Engine, state: GameState, seeds: Sequence[int],
                 perft_work: int = PERFT_WORK, picks: int = EVERY_INDEX) -> str | None:
    """The first way in which `fast` and `generic` disagree on `state` (a message with the
    position), or None when they agree on everything below. `seeds`: the random-turn draws;
    `perft_work`: perft 2 is compared where it walks about that many leaves at most; `picks`: the
    indices of a random pick compared where the fast engine does not count (see `_indices`)."""
    before = _untouched(state)
    where = (f"\n{format_board(state, with_workers=True)}\nto move: {state.seats[state.to_move].letter}"
             f"; last turn: {state.history[-1] if state.history else None}")

    def differ(what: str, mine: object, theirs: object) -> str:
        return f"{what}: fast {mine!r} != generic {theirs!r}{where}"

    def turn(steps: Sequence) -> str:
        return format_turn(state, steps) if steps else repr(steps)

    mine, theirs = fast.outcomes(state), generic.outcomes(state)
    if list(mine.items()) != list(theirs.items()):
        only_fast = [turn(t) for k, t in mine.items() if k not in theirs]
        only_generic = [turn(t) for k, t in theirs.items() if k not in mine]
        return differ("outcomes (only in fast, only in generic)" if only_fast or only_generic
                      else "outcomes (order or turns)", only_fast or list(mine.values())[:5],
                      only_generic or list(theirs.values())[:5])
    turns = list(theirs.values())
    if fast.turns(state) != turns:
        return differ("turns", fast.turns(state), turns)
    if fast.can_win(state) != generic.can_win(state):
        return differ("can_win", fast.can_win(state), generic.can_win(state))
    for seed in seeds:
        rng_fast, rng_generic = random.Random(seed), random.Random(seed)
        picked, expected = fast.random_turn(state, rng_fast), generic.random_turn(state, rng_generic)
        if picked != expected:
            return differ(f"random_turn (seed {seed})", picked, expected)
        if rng_fast.getstate() != rng_generic.getstate():
            return differ(f"the generator after random_turn (seed {seed})", rng_fast.random(), rng_generic.random())
    pickers = getattr(fast, "_pickers", None)
    played_at = {0, len(turns) - 1, *random.Random(seeds[0]).sample(range(len(turns)), min(len(turns), PLAYED))}
    for index in _indices(fast, state, len(turns), picks):
        expected, drawn = turns[index], _Drawn(index)
        picked = fast.random_turn(state, drawn)
        if picked != expected or (drawn.bound, drawn.calls) != (len(turns), 1):
            return differ(f"random_turn drawing index {index} (the bound asked, the draws)",
                          (picked, drawn.bound, drawn.calls), (expected, len(turns), 1))
        said = getattr(pickers[state.to_move], "event_kinds", None) if pickers else None  # (counted.Picker)
        events = fast._picked[5] if getattr(fast, "_picked", None) is not None else None
        if said is not None and events is not None and not {event[0] for event in events} <= said:
            return differ(f"the kinds of event of the turn picked at index {index}, against the picker's "
                          "event_kinds", sorted({event[0] for event in events}), sorted(said))
        if index not in played_at:
            continue
        played = state.copy()  # played at once with the events the picker made for it
        fast.play_in_place(played, fast.random_turn(played, _Drawn(index)))
        if _left(played) != _left(generic.play(state, expected)):
            return differ(f"the state after the turn picked at index {index}", _left(played),
                          _left(generic.play(state, expected)))
    if not turns and fast.random_turn(state, _Drawn(0)) is not None:
        return differ("random_turn with no turn", fast.random_turn(state, _Drawn(0)), None)
    rng_fast, rng_generic = random.Random(seeds[0]), random.Random(seeds[0])
    shuffled = list(islice(fast.turns_in_random_order(state, rng_fast), IN_RANDOM_ORDER))
    expected_order = list(islice(generic.turns_in_random_order(state, rng_generic), IN_RANDOM_ORDER))
    if shuffled != expected_order or rng_fast.getstate() != rng_generic.getstate():
        return differ(f"turns_in_random_order (seed {seeds[0]}, the first {IN_RANDOM_ORDER})", shuffled,
                      expected_order)
    for steps in shuffled:  # accepted with the events the draw kept for it, as an agent plays it on a copy
        if fast.accept(state.copy(), steps) != generic.accept(state, steps):
            return differ(f"the events of {turn(steps)} drawn by turns_in_random_order",
                          fast.accept(state.copy(), steps), generic.accept(state, steps))
    replies = []  # the other seat's outcomes after the turns played below: a sample of perft's second ply
    for seed in seeds:  # a turn picked by random_turn, then played in place
        mine_state, their_state = state.copy(), state.copy()
        picked = fast.random_turn(mine_state, random.Random(seed))
        expected = generic.random_turn(their_state, random.Random(seed))
        if expected is None:
            break
        fast.play_in_place(mine_state, picked)
        generic.play_in_place(their_state, expected)
        if _left(mine_state) != _left(their_state):
            return differ(f"the state after random_turn then play_in_place (seed {seed})",
                          _left(mine_state), _left(their_state))
        unpicked = state.copy()  # the same turn, not picked by the fast engine: checked, then played
        fast.play_in_place(unpicked, expected)
        if _left(unpicked) != _left(their_state):
            return differ(f"the state after play_in_place of {turn(expected)}", _left(unpicked), _left(their_state))
        if their_state.winner is None:  # the reply, with the turn just played as the last one
            reply, their_reply = fast.outcomes(mine_state), generic.outcomes(their_state)
            if list(reply.items()) != list(their_reply.items()):
                return differ(f"the outcomes of the reply to {turn(expected)}", list(reply.values())[:5],
                              list(their_reply.values())[:5])
            replies.append(len(their_reply))
    if turns:  # variants of a turn, most of them illegal, are judged alike by both
        steps = turns[random.Random(seeds[0]).randrange(len(turns))]
        first = 1 if steps and steps[0][0] == "use" else 0  # (an announced turn's first step names no square)
        variants = [steps[:-1], steps + steps[-1:]]
        if first < len(steps) and isinstance(steps[first][2], int):
            variants.append(steps[:first] + (steps[first][:2] + ((steps[first][2] + 7) % 25,),) + steps[first + 1:])
        if len(steps) == first + 2:  # the last build elsewhere, or a dome: a sample of the 50
            elsewhere = [steps[:-1] + ((verb, steps[-1][1], square),)
                         for square in range(25) for verb in ("build", "dome")]
            variants += random.Random(seeds[0]).sample(elsewhere, VARIANTS)
        for variant in variants:
            results = []
            for engine in (fast, generic):
                try:
                    after = engine.play(state, variant)
                    results.append((after.outcome_key(), after.history[-1], after.to_move, after.winner))
                except IllegalTurn:
                    results.append(None)
            if results[0] != results[1]:
                return differ(f"play of {turn(variant)}", results[0], results[1])
    if len(turns) * max(replies, default=1) <= perft_work and fast.perft(state, 2) != generic.perft(state, 2):
        return differ("perft 2", fast.perft(state, 2), generic.perft(state, 2))
    if _untouched(state) != before:
        return f"the queries changed the state{where}"
    return None


def playout_disagreement(game: Game, generic: Engine, state: GameState, seed: int,
                         limit: int = PLAYOUT_TURNS) -> str | None:
    """Random games from `state` played by the game's fast engine and by `generic`, each seat
    drawing from its own generator, equal on both sides: the first difference (in the turns
    played, the final state and its history, or the generators after), or None. With three or
    more teams a seat with no turn is settled as in play (it is out) and the game goes on."""
    sides = [(game.engine, state.copy()), (generic, state.copy())]
    rngs = [[random.Random(seed * 16 + seat) for seat in range(len(state.seats))] for _ in sides]
    played: list[list] = [[], []]
    settled: list[list[str]] = [[], []]
    for _ in range(len(state.seats)):
        for side, (engine, after) in enumerate(sides):
            engine.playout(after, rngs[side], limit - len(played[side]), played[side])
        if played[0] != played[1]:
            at = next((i for i, (a, b) in enumerate(zip(played[0], played[1], strict=False)) if a != b),
                      min(map(len, played)))
            return (f"playout (seed {seed}): turn {at + 1} is {played[0][at:at + 1]} (fast) and "
                    f"{played[1][at:at + 1]} (generic)")
        left = [_left(after) for _, after in sides] + [[r.getstate() for r in side] for side in rngs]
        if left[0] != left[1] or left[2] != left[3]:
            what = "state" if left[0] != left[1] else "generators"
            return f"playout (seed {seed}): the same turns, another final {what}"
        after = sides[1][1]
        if after.winner is not None or len(played[1]) >= limit or len(after.team_letters) < 3:
            return None
        for side, (engine, after) in enumerate(sides):  # a stuck seat in a game of three or more: out
            settled[side].append(settle_stuck(dataclasses.replace(game, engine=engine, state=after)))
        if settled[0] != settled[1]:
            return f"playout (seed {seed}): settled {settled[0]} (fast) and {settled[1]} (generic)"
    return None


def assert_agree(game: Game, generic: Engine, state: GameState, seeds: Sequence[int], perft_work: int = PERFT_WORK,
                 playout_turns: int = PLAYOUT_TURNS, picks: int = EVERY_INDEX) -> None:
    """Assert that the game's fast engine agrees with `generic` on `state`, in everything
    `disagreement` and `playout_disagreement` compare; the message gives the position in the
    scenario format."""
    found = disagreement(game.engine, generic, state, seeds, perft_work, picks) or \
        playout_disagreement(game, generic, state, seeds[0], playout_turns)
    seats = " v ".join(spec.label for spec in game.players)
    assert found is None, f"{game.pack.name}: {seats}: {found}\n{describe(game, state)}"


def compare(pack: str, seats: tuple[str, ...], state: GameState, seeds: Sequence[int],
            perft_work: int = PERFT_WORK) -> None:
    """`assert_agree` for the game of these seats in a pack given by name."""
    game, generic = games(pack, seats)
    assert_agree(game, generic, state, seeds, perft_work)


# ---- every card of every pack ---------------------------------------------------------------------

#: Cards on which today's fast paths disagree with the generic chain (tests/test_fast_matchups.py
#: holds a reproduction of each): (pack, card) -> what differs. The marks go when the derived
#: engine lands (issue 19).
KNOWN: dict[tuple[str, str], str] = {}
#: The same for the games of four, by pack.
KNOWN_TEAMS: dict[str, str] = {}
#: Teams the games of four leave out, with the strict reproduction that holds each to account: a
#: random draw meets them or not (the pack's cards change what it draws), so an xfail here could
#: pass by chance. (pack, a card both seats of a team hold) -> why.
KNOWN_TEAM_CARDS: dict[tuple[str, str], str] = {}


def marked(known: dict, key: object) -> list[pytest.MarkDecorator]:
    """The mark of a known disagreement (xfail, strict: it must fail on the comparison until the
    fast engine agrees, and then the mark goes), or none."""
    if key not in known:
        return []
    return [pytest.mark.xfail(strict=True, raises=AssertionError, reason=known[key])]


def card_params(known: dict[tuple[str, str], str] = KNOWN) -> list:
    """CARDS as test parameters, each known disagreement marked."""
    return [pytest.param(pack, card, id=f"{pack}-{card}", marks=marked(known, (pack, card))) for pack, card in CARDS]


def pack_params(known: dict[str, str]) -> list:
    """PACKS as test parameters, each known disagreement marked."""
    return [pytest.param(pack, id=pack, marks=marked(known, pack)) for pack in PACKS]


@pytest.mark.parametrize(("pack", "card"), card_params())
@settings(max_examples=POSITIONS, deadline=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_fast_engine_equals_generic(pack: str, card: str, data: st.DataObject, seeds: list[int]) -> None:
    """The card against a Mortal or another card of its pack, on either side, on one random
    position (the card's seat to move or not): the fast engine and the generic one agree."""
    others = opponents(pack, card)
    other = data.draw(st.one_of(st.just(MORTAL), st.sampled_from(others)) if others else st.just(MORTAL), label="other")
    seats = (card, other) if data.draw(st.booleans(), label="card first") else (other, card)
    if games(pack, seats) is None:  # (a card the mode requires a power against)
        seats = (card, others[0]) if seats[0] == card else (others[0], card)
    game, _ = games(pack, seats)
    compare(pack, seats, data.draw(states(game), label="position"), seeds, PERFT_WORK_PER_CARD)


def four_player_cards(pack: str) -> list[str]:
    return sorted(name for name, card in pack_of(pack).cards.items() if 4 in card.players)


@pytest.mark.parametrize("pack", pack_params(KNOWN_TEAMS))
@settings(max_examples=40 * SCALE, deadline=None, phases=PHASES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_fast_engine_equals_generic_in_team_games(pack: str, data: st.DataObject, seeds: list[int]) -> None:
    """Four seats in two teams sharing their workers, each seat with its own card (or none): the
    fast engine must see a teammate's rules as a teammate's, and an opponent's as binding both
    seats."""
    names = [MORTAL, *four_player_cards(pack)]
    seats = tuple(data.draw(st.lists(st.sampled_from(names), min_size=4, max_size=4), label="seats"))
    if games(pack, seats) is None:  # a ban, or a Mortal where the mode requires powers
        seats = tuple(data.draw(st.lists(st.sampled_from(names[1:]), min_size=4, max_size=4), label="powers"))
    if games(pack, seats) is None:
        return
    if any(seats[first] == seats[first + 2] and (pack, seats[first]) in KNOWN_TEAM_CARDS for first in (0, 1)):
        return
    game, _ = games(pack, seats)
    compare(pack, seats, data.draw(states(game), label="position"), seeds)


def test_every_pack_has_cards_to_compare() -> None:
    assert {pack for pack, _ in CARDS} == set(PACKS) and len(CARDS) >= 10 * len(PACKS)


def test_positions_are_set_as_the_cards_set_up() -> None:
    """A card's setup shapes the positions: Graeae's three workers, Selene's female worker,
    Jason's worker waiting on the card."""
    checks: dict[str, Callable[[GameState], bool]] = {
        "Graeae": lambda s: len(s.team_workers(0)) == 3,
        "Selene": lambda s: [sex and sex.value for sex in s.worker_sex[:2]] == ["female", "male"],
        "Jason": lambda s: len(s.reserve) == 1}
    games_of = {card: games("bga", (card, MORTAL))[0] for card in checks}
    found: list[tuple[str, bool]] = []

    @settings(max_examples=6, deadline=None, database=None)
    @given(data=st.data())
    def look(data: st.DataObject) -> None:
        for card, check in checks.items():
            found.append((card, check(data.draw(states(games_of[card])))))
    look()
    assert all(ok for _, ok in found) and {card for card, _ in found} == set(checks), found


def test_a_described_position_is_the_same_position_as_a_scenario(tmp_path: Path) -> None:
    """`describe` writes a position as a scenario file that loads back to the same position (the
    board, the workers and their sexes, the tokens, the cards' counters and marks, who is out and
    who moves): a reported disagreement can be replayed from its text."""
    seatings = [("bga", ("Selene", "Clio")), ("bga", ("Bellerophon", "Europa & Talus")), ("bga", ("Morpheus", "Jason")),
                ("bga", ("Apollo", "Athena", "Pan")), (INVENTIONS, ("Tholia", "Horistes"))]
    loaded = []

    def workers(state: GameState) -> dict[str, tuple[int, object]]:
        return {state.worker_name(w): (square, state.worker_sex[w]) for w, square in enumerate(state.worker_pos)
                if square >= 0}

    @settings(max_examples=10, deadline=None, database=None)
    @given(data=st.data())
    def look(data: st.DataObject) -> None:
        for pack, seats in seatings:
            game, _ = games(pack, seats)
            state = data.draw(states(game))
            path = tmp_path / "position.yaml"
            path.write_text(describe(game, state), encoding="utf-8")
            again = load_scenario(path).game.state
            assert (again.hash, again.to_move, again.out, again.counters, again.marks, again.tokens) == \
                (state.hash, state.to_move, state.out, state.counters, state.marks, state.tokens), describe(game, state)
            assert workers(again) == workers(state), describe(game, state)
            loaded.append(bool(state.tokens or state.counters or state.marks or state.out))
    look()
    assert any(loaded)


def test_the_mortal_and_the_simple_gods_run_fast() -> None:
    """Today's gate (fast/shape.py) lets the plain turn and every simple god (tier: simple),
    against a Mortal on either side, run on the fast paths: a change that sends one of them to the
    generic chain is caught here, not in a benchmark."""
    for pack in pack_names():
        simple = sorted(name for name, card in load_pack(pack).cards.items() if card.tier == "simple")
        assert simple, pack
        for seats in [(MORTAL, MORTAL)] + [(god, MORTAL) for god in simple] + [(MORTAL, god) for god in simple]:
            game, _ = games(pack, seats)
            assert [shape is not None for shape in game.engine._shapes] == [True, True], (pack, seats)


# ---- the comparison bites, on any fast engine ----------------------------------------------------

class Tampered:
    """A fast engine with one deliberate change (`change`); everything else is the engine's."""

    def __init__(self, engine: Engine, change: str) -> None:
        self.engine, self.change = engine, change

    def __getattr__(self, name: str) -> object:
        return getattr(self.engine, name)

    def outcomes(self, state: GameState) -> dict:
        found = self.engine.outcomes(state)
        items = list(found.items())
        if self.change == "drops the last outcome" and len(items) > 1:
            items.pop()
        if self.change == "swaps the first two outcomes" and len(items) > 1:
            items[0], items[1] = items[1], items[0]
        return dict(items)

    def turns(self, state: GameState) -> list:
        return list(self.outcomes(state).values())

    def random_turn(self, state: GameState, rng: random.Random) -> tuple | None:
        if self.change == "draws the next index":
            class Next:
                def randrange(self, bound: int) -> int:
                    return (rng.randrange(bound) + 1) % bound
            return self.engine.random_turn(state, Next())
        return self.engine.random_turn(state, rng)

    def play_in_place(self, state: GameState, steps: Sequence) -> None:
        self.engine.play_in_place(state, steps)
        if self.change == "plays a dome too" and state.winner is None:
            free = [s for s in range(25) if not state.blocked[s]]
            if free:
                state.set_dome(free[-1], True)

    def playout(self, state: GameState, rngs: Sequence[random.Random], limit: int, played: list | None = None) -> list:
        if self.change == "draws once more in a playout":
            rngs[0].random()
        return self.engine.playout(state, rngs, limit, played)

    def perft(self, state: GameState, depth: int) -> int:
        return self.engine.perft(state, depth) + (self.change == "counts one more leaf")


CHANGES = ["drops the last outcome", "swaps the first two outcomes", "draws the next index", "plays a dome too",
           "draws once more in a playout", "counts one more leaf"]


@pytest.mark.parametrize("change", CHANGES)
def test_the_comparison_catches_a_fast_engine_changed_by_hand(change: str) -> None:
    """Whatever the fast engine is, one thing changed in it is found on some random position of
    Demeter against Apollo (a second build, a swap: turns of several kinds)."""
    game, generic = games("bga", ("Demeter", "Apollo"))
    tampered = dataclasses.replace(game, engine=Tampered(game.engine, change))
    found = []

    @settings(max_examples=15, deadline=None, database=None)
    @given(state=states(game), seed=st.integers(0, 2**16))
    def search(state: GameState, seed: int) -> None:
        found.append(disagreement(tampered.engine, generic, state, [seed], perft_work=PERFT_WORK)
                     or playout_disagreement(tampered, generic, state, seed))
    search()
    assert any(found), change


DEMETER = "Your Build:\n  after your worker builds, it may build one additional time, not on the same space."
#: Demeter with one more constraint, which the fast paths do not know.
DEMETER_OFF_THE_PERIMETER = ("Your Build:\n  after your worker builds, it may build one additional time, "
                             "not on the same space, not on a perimeter space.")


def compiled(text: str, name: str):  # noqa: ANN201 - a Power
    from santorini.dsl.semantics.compiler import compile_rules
    from santorini.dsl.syntax.parser import Origin, parse_rules
    origin = Origin(f"{name}.yaml", 1)
    return compile_rules(parse_rules(text, origin), origin, name)


def test_the_gate_sends_a_part_it_does_not_know_to_the_generic_chain() -> None:
    base = load_pack("bga").base.power
    assert Engine(base, [[compiled(DEMETER, "Demeter")], []])._shapes[0] is not None
    assert Engine(base, [[compiled(DEMETER_OFF_THE_PERIMETER, "Demeter-inland")], []])._shapes[0] is None


@settings(max_examples=30, deadline=None)
@given(position=positions(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_the_comparison_catches_a_fast_path_that_ignores_a_part(position: Position, seeds: list[int]) -> None:
    """A fast engine for plain Demeter stands in for a generic engine of Demeter who may not
    build a second time on the perimeter: wherever Demeter can build twice on the perimeter (an
    outcome the variant cannot reach), the comparison finds them apart."""
    fast, generic, state = inland_engines()
    position.on(state)
    perimeter = {s for s in range(25) if s // 5 in (0, 4) or s % 5 in (0, 4)}
    twice_on_perimeter = any(len(turn) == 3 and {turn[1][2], turn[2][2]} <= perimeter for turn in fast.turns(state))
    found = disagreement(fast, generic, state, seeds)
    if twice_on_perimeter:
        assert found is not None and found.startswith("outcomes"), found


def inland_engines() -> tuple[Engine, Engine, GameState]:
    """A fast engine for plain Demeter, a generic one for Demeter off the perimeter (against a
    Mortal), and an empty state for them."""
    from santorini.interpreter.model.state import Seat
    base = load_pack("bga").base.power
    fast = Engine(base, [[compiled(DEMETER, "Demeter")], []])
    generic = Engine(base, [[compiled(DEMETER_OFF_THE_PERIMETER, "Demeter")], []], fast=False)
    return fast, generic, GameState(seats=[Seat("A", 0, ("Demeter",)), Seat("B", 1, ())], team_letters=["A", "B"])


def test_the_comparison_finds_the_difference_on_some_random_position() -> None:
    """The comparison of the parametrised test, run on random positions, reports a difference
    on some of them (and the gate test above says that in real use this card runs generic)."""
    found = []

    @settings(max_examples=20, deadline=None, database=None)
    @given(position=positions())
    def search(position: Position) -> None:
        fast, generic, state = inland_engines()
        found.append(disagreement(fast, generic, position.on(state), [1, 2, 3]))
    search()
    assert any(f is not None for f in found), found


# ---- special shapes --------------------------------------------------------------------------------

def test_the_counting_pickers_serve_the_shapes_they_are_for() -> None:
    """Each shape of counted.py is recognised for the seats it is written for (else the test
    above would compare the generic chain with itself)."""
    from santorini.interpreter.fast.counted import counted_picker
    for pack in ("bga", "pantheon", "first-edition"):
        for god in ("Artemis", "Demeter", "Hephaestus", "Prometheus"):
            game = new_game(load_pack(pack), parse_players([god, "Mortal"]))
            assert counted_picker(game.engine._shapes[0]) is not None, (pack, god)
        game = new_game(load_pack(pack), parse_players(["Hermes", "Apollo"]))
        assert [counted_picker(shape) if shape else None for shape in game.engine._shapes] == [None, None]


def test_a_picked_turn_is_trusted_only_for_the_state_it_was_picked_for() -> None:
    game = new_game(load_pack("bga"), parse_players(["Mortal", "Mortal"]))
    for index, square in enumerate((7, 17, 12, 13)):
        game.state.add_worker(index % 2, index // 2 + 1, square)
    state, engine = game.state, game.engine
    steps = engine.random_turn(state, random.Random(4))
    state.set_height(steps[0][2], 2)  # the move now climbs two levels: the turn is illegal
    with pytest.raises(IllegalTurn):
        engine.play_in_place(state, steps)


#: A follow-up move that may come back to its start: no card of the packs says so, but an author
#: may write it. Two workers that both come back and build on one square make one outcome, so
#: the turn is not counted by the hand-tuned picker of a second move.
COME_BACK = "Your Move:\n  after your worker moves, it may move one additional time."


def come_back_engines() -> tuple[Engine, Engine, GameState]:
    """A seat with the COME_BACK power against a Mortal: the fast engine and the generic one."""
    from santorini.interpreter.fast.counted import counted_picker
    from santorini.interpreter.model.state import Seat

    power = compiled(COME_BACK, "Come-back")
    base = load_pack("bga").base.power
    fast, generic = (Engine(base, [[power], []], fast=on) for on in (True, False))
    assert counted_picker(fast._shapes[0]) is None
    state = GameState(seats=[Seat("A", 0, ("Come-back",)), Seat("B", 1, ())], team_letters=["A", "B"])
    return fast, generic, state


def assert_every_index(fast: Engine, generic: Engine, state: GameState) -> list:
    turns = generic.turns(state)
    for index, expected in enumerate(turns):
        drawn = _Drawn(index)
        assert fast.random_turn(state, drawn) == expected, index
        assert drawn.bound == len(turns)
    return turns


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_second_move_that_may_come_back_is_drawn_from_the_list(data: st.DataObject) -> None:
    fast, generic, state = come_back_engines()
    fill_board(data.draw, state)
    assert fast._shapes[0] is not None
    assert disagreement(fast, generic, state, [1, 2, 3]) is None


def test_two_workers_coming_back_make_one_outcome() -> None:
    fast, generic, state = come_back_engines()
    for team, number, square in ((0, 1, 12), (0, 2, 6), (1, 1, 24), (1, 2, 19)):
        state.add_worker(team, number, square)  # A1 on c3, A2 on b2: both next to b3, c2...
    turns = assert_every_index(fast, generic, state)
    back = [turn for turn in turns if len(turn) == 3 and turn[1][2] == state.worker_pos[turn[0][1]]]
    built = [turn[2][2] for turn in back]
    assert back and len(built) == len(set(built))  # ...where only one of them comes back to build
    assert {11, 7} <= set(built)
    assert disagreement(fast, generic, state, [1, 2, 3]) is None


def test_explaining_a_refused_turn_ends_when_repeated_moves_can_cycle() -> None:
    """Found by the team-game comparison: Triton (B) on an almost domed board, a refused variant
    of a turn. Explaining it searches past the written steps, where Triton's moves along the
    perimeter can come back to a state: that search must know it has been there (it recursed
    without end when the depth of the search was part of what it remembered)."""
    position = Position(heights=(0,) * 25, domes=tuple(i in (3, 4, 7, 8, 9, 10, 11) or i >= 13 for i in range(25)),
                        squares=(12, 6, 2, 1), to_move=1, last=None)
    game, generic = team_games("bga", ("Aphrodite", "Triton", "Aphrodite", "Aphrodite"))
    state = position.on(game.restart().state)
    assert disagreement(game.engine, generic, state, [0, 0, 0]) is None


@pytest.mark.parametrize("owed", [0, 1])
@pytest.mark.parametrize("rules", [
    "Your Build:\n  each time a worker builds a complete tower, you may take an additional turn.\nAdditional Turn:\n"
    "  one of an opponent's workers moves.\n  that worker builds.\n  no player can win during this turn.",
    "End of Your Turn:\n  if one of your workers moved up this turn, you may take an additional turn.",
    "End of Your Turn:\n  you may take an additional turn.",
])
def test_an_owed_additional_turn_agrees_with_the_generic_chain(rules: str, owed: int) -> None:
    """A seat owed an additional turn takes it on the generic chain and its usual turns on the
    derived code (the third card's usual turn is drawn whole by its kernels): on positions with
    and without a turn owed, the fast engine agrees with the generic one in everything the
    comparison looks at (outcomes, counts, draws, perft, playouts)."""
    from random_cards import card_text, load, pack_with
    card = load(card_text(rules))
    pair = game_pair(pack_with(card), (card.name, MORTAL))
    assert pair is not None
    game, generic = pair
    if owed:
        assert "generic: an additional turn the seat is owed" in " ".join(game.engine.paths(0))
    for seed in range(6):
        state = _owed_position(game, seed, owed)
        assert_agree(game, generic, state, [seed, seed + 1])


def _owed_position(game: Game, seed: int, owed: int) -> GameState:
    """A position of mixed levels with the card's seat to move, owed `owed` additional turns."""
    rng = random.Random(seed)
    state = game.restart().state
    squares = rng.sample(range(25), 4)
    for square in range(25):
        state.set_height(square, rng.choice((0, 0, 1, 2, 3)))
    set_workers(dataclasses.replace(game, state=state), [squares[:2], squares[2:]])
    state.to_move = 0
    state.set_counter(0, Counter.ADDITIONAL_TURN.value, owed)
    return state
