"""The fast paths (plain.py, counted.py, enumeration.py, known_turns.py) must agree exactly with
the generic chain they stand in for, on any position.

Every card of every shipped pack is compared, read from the packs (a card added to a pack is
compared without a change here): on random positions, the card against a Mortal on either side
and against another card of its pack, a fast engine and a generic one (`fast=False`) must give
the same outcomes in the same order, the same turns, the same random turn from equal generators
(leaving the generators alike), the same turn at every index of a counted pick, the same state
after playing a picked turn (and the same outcomes of the reply to it), the same verdict on
variants of a turn, and the same perft to depth 2. `disagreement` makes that comparison; a test
shows that it does catch a fast path that ignores a part of the rules, and another says which
seats the gate (fast/shape.py) must let run fast, so that none of them drifts to the generic
chain unnoticed."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from santorini.interpreter.engine.engine import Engine, IllegalTurn
from santorini.interpreter.games.game import Game, SetupError, new_game, parse_players
from santorini.interpreter.games.packs import MORTAL, load_pack, pack_names
from santorini.interpreter.model.board import NEIGHBOURS
from santorini.interpreter.model.notation import format_board, format_turn
from santorini.interpreter.model.state import GameState, TurnRecord

#: Every card of every shipped pack, as (pack, card name): read from the packs, not listed here.
CARDS = [(pack, name) for pack in pack_names() for name in sorted(load_pack(pack).cards)]
#: Random-turn draws compared per position (each with its own seed).
SEEDS = 3
#: Perft 2 is compared where it walks about this many leaves at most (Hermes's thousands of turns
#: against Poseidon's would take minutes; the replies to the turns played are compared anyway).
PERFT_WORK = 30_000
#: Random positions per card: a budget for the whole comparison shared among the cards, so that
#: the file stays well under a minute as the packs grow (each card keeps at least a few).
EXAMPLES = max(2, 200 // len(CARDS))


# ---- positions ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """A random position: heights, domes, four workers (A1 B1 A2 B2), the seat to move, and
    maybe the other seat's last turn (a move of one of its own workers, then a build)."""

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
    are the indices team and team + 2): one of its workers came from a free neighbouring space,
    without climbing more than one level or winning, then built next to where it stands; often a
    move up (Athena reads it)."""
    team = seat if team is None else team
    worker = draw(st.sampled_from((team, team + 2)))
    here = squares[worker]
    around = [s for s in NEIGHBOURS[here] if s not in squares]
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
    """What a played turn leaves."""
    return (state.heights, state.domes, state.worker_pos, state.hash, state.history, state.to_move, state.winner)


def _untouched(state: GameState) -> tuple:
    """What a query must leave as it found it."""
    return (tuple(state.heights), tuple(state.domes), tuple(state.worker_pos), bytes(state.blocked),
            tuple(state.occupant), state.hash, len(state.history), state.to_move, state.winner)


def _indices(fast: Engine, state: GameState, count: int) -> range | list[int]:
    """The indices of a draw to check: every one where the seat has a picker (which counts its
    way to the index), else a few (the draw is an index into the list: checking every one would
    list the turns once per index)."""
    if fast.pickers[state.to_move] is not None or count <= 8:
        return range(count)
    return sorted({0, count - 1, *range(0, count, count // 6)})


def disagreement(fast: Engine, generic: Engine, state: GameState, seeds) -> str | None:  # noqa: ANN001
    """The first way in which `fast` and `generic` disagree on `state` (a message with the
    position), or None when they agree on everything below. `seeds`: the random-turn draws."""
    before = _untouched(state)
    where = (f"\n{format_board(state, with_workers=True)}\nto move: {state.seats[state.to_move].letter}"
             f"; last turn: {state.history[-1] if state.history else None}")

    def differ(what: str, mine: object, theirs: object) -> str:
        return f"{what}: fast {mine!r} != generic {theirs!r}{where}"

    def turn(steps) -> str:  # noqa: ANN001
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
    for index in _indices(fast, state, len(turns)):
        expected, drawn = turns[index], _Drawn(index)
        picked = fast.random_turn(state, drawn)
        if picked != expected or (drawn.bound, drawn.calls) != (len(turns), 1):
            return differ(f"random_turn drawing index {index} (the bound asked, the draws)",
                          (picked, drawn.bound, drawn.calls), (expected, len(turns), 1))
        said = getattr(fast.pickers[state.to_move], "event_kinds", None)  # (counted.Picker)
        events = fast._picked[5] if fast._picked is not None else None
        if said is not None and events is not None and not {event[0] for event in events} <= said:
            return differ(f"the kinds of event of the turn picked at index {index}, against the picker's "
                          "event_kinds", sorted({event[0] for event in events}), sorted(said))
        played = state.copy()  # played at once with the events the picker made for it
        fast.play_in_place(played, fast.random_turn(played, _Drawn(index)))
        if _left(played) != _left(generic.play(state, expected)):
            return differ(f"the state after the turn picked at index {index}", _left(played),
                          _left(generic.play(state, expected)))
    if not turns and fast.random_turn(state, _Drawn(0)) is not None:
        return differ("random_turn with no turn", fast.random_turn(state, _Drawn(0)), None)
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
        first = 1 if steps[0][0] == "use" else 0  # (an announced turn's first step names no square)
        variants = [steps[:-1], steps + steps[-1:]]
        if first < len(steps) and isinstance(steps[first][2], int):
            variants.append(steps[:first] + (steps[first][:2] + ((steps[first][2] + 7) % 25,),) + steps[first + 1:])
        if len(steps) == first + 2:
            variants += [steps[:-1] + ((verb, steps[-1][1], square),) for square in range(25)
                         for verb in ("build", "dome")]
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
    if len(turns) * max(replies, default=1) <= PERFT_WORK and fast.perft(state, 2) != generic.perft(state, 2):
        return differ("perft 2", fast.perft(state, 2), generic.perft(state, 2))
    if _untouched(state) != before:
        return f"the queries changed the state{where}"
    return None


# ---- every card of every pack ---------------------------------------------------------------------

@cache
def games(pack: str, seats: tuple[str, str]) -> tuple[Game, Engine] | None:
    """The game of these seats (with its fast engine) and a generic engine for the same rules;
    None for seats the pack does not let play together (a ban)."""
    try:
        game = new_game(load_pack(pack), parse_players(list(seats)))
    except SetupError:
        return None
    generic = Engine(load_pack(pack).base.power, [[c.power for c in seat] for seat in game.cards], fast=False,
                     if_possible=load_pack(pack).if_possible)
    return game, generic


def opponents(pack: str, card: str) -> list[str]:
    """The other cards of the pack that may play against `card`."""
    return [other for other in sorted(load_pack(pack).cards)
            if other != card and games(pack, (card, other)) is not None]


@pytest.mark.parametrize(("pack", "card"), CARDS, ids=[f"{pack}-{card}" for pack, card in CARDS])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), data=st.data(),
       seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_fast_engine_equals_generic(pack: str, card: str, position: Position, data, seeds) -> None:  # noqa: ANN001
    """The card against a Mortal on either side and against another card of its pack, on one
    random position: the fast engine and the generic one agree."""
    seatings = [(card, MORTAL), (MORTAL, card)]
    others = opponents(pack, card)
    if others:
        other = data.draw(st.sampled_from(others), label="other card")
        seatings.append((card, other) if data.draw(st.booleans(), label="card first") else (other, card))
    for seats in seatings:
        game, generic = games(pack, seats)
        state = position.on(game.restart().state)
        found = disagreement(game.engine, generic, state, seeds)
        assert found is None, f"{pack}: {' v '.join(seats)}: {found}"


@cache
def team_games(pack: str, seats: tuple[str, ...]) -> tuple[Game, Engine] | None:
    """`games` for a four-player team game (the generic engine told the seats' teams)."""
    try:
        game = new_game(load_pack(pack), parse_players(list(seats)))
    except SetupError:
        return None
    generic = Engine(load_pack(pack).base.power, [[c.power for c in seat] for seat in game.cards],
                     teams=[seat.team for seat in game.state.seats], fast=False,
                     if_possible=load_pack(pack).if_possible)
    return game, generic


def four_player_cards(pack: str) -> list[str]:
    return sorted(name for name, card in load_pack(pack).cards.items() if 4 in card.players)


@pytest.mark.parametrize("pack", pack_names())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(seats=4), data=st.data(),
       seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_fast_engine_equals_generic_in_team_games(pack: str, position: Position, data, seeds) -> None:  # noqa: ANN001
    """Four seats in two teams sharing their workers, each seat with its own card (or none): the
    gate must see a teammate's rules as a teammate's, and an opponent's as binding both seats."""
    names = [MORTAL, *four_player_cards(pack)]
    seats = tuple(data.draw(st.lists(st.sampled_from(names), min_size=4, max_size=4), label="seats"))
    found = team_games(pack, seats)
    if found is None:  # a ban, or a Mortal where the mode requires powers
        seats = tuple(data.draw(st.lists(st.sampled_from(names[1:]), min_size=4, max_size=4), label="powers"))
        found = team_games(pack, seats)
    if found is None:
        return
    game, generic = found
    state = position.on(game.restart().state)
    difference = disagreement(game.engine, generic, state, seeds)
    assert difference is None, f"{pack}: {' '.join(seats)}: {difference}"


def test_every_pack_has_cards_to_compare() -> None:
    assert {pack for pack, _ in CARDS} == set(pack_names()) and len(CARDS) >= 10 * len(pack_names())


def test_the_mortal_and_the_simple_gods_run_fast() -> None:
    """The gate lets the plain turn and every simple god (tier: simple), against a Mortal on
    either side, run on the fast paths: a change that sends one of them to the generic chain is
    caught here, not in a benchmark."""
    for pack in pack_names():
        simple = sorted(name for name, card in load_pack(pack).cards.items() if card.tier == "simple")
        assert simple, pack
        for seats in [(MORTAL, MORTAL)] + [(god, MORTAL) for god in simple] + [(MORTAL, god) for god in simple]:
            game, _ = games(pack, seats)
            assert [shape is not None for shape in game.engine.shapes] == [True, True], (pack, seats)


# ---- the comparison bites -------------------------------------------------------------------------

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
    assert Engine(base, [[compiled(DEMETER, "Demeter")], []]).shapes[0] is not None
    assert Engine(base, [[compiled(DEMETER_OFF_THE_PERIMETER, "Demeter-inland")], []]).shapes[0] is None


@settings(max_examples=30, deadline=None)
@given(position=positions(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_the_comparison_catches_a_fast_path_that_ignores_a_part(position: Position, seeds) -> None:  # noqa: ANN001
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
    assert fast.shapes[0] is not None
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
            assert counted_picker(game.engine.shapes[0]) is not None, (pack, god)
        game = new_game(load_pack(pack), parse_players(["Hermes", "Apollo"]))
        assert [counted_picker(shape) if shape else None for shape in game.engine.shapes] == [None, None]


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
#: the turn is listed (by the enumeration chain), not counted.
COME_BACK = "Your Move:\n  after your worker moves, it may move one additional time."


def come_back_engines():
    """A seat with the COME_BACK power against a Mortal: the fast engine and the generic one."""
    from santorini.interpreter.fast.counted import counted_picker
    from santorini.interpreter.model.state import Seat

    power = compiled(COME_BACK, "Come-back")
    base = load_pack("bga").base.power
    fast, generic = (Engine(base, [[power], []], fast=on) for on in (True, False))
    assert counted_picker(fast.shapes[0]) is None
    state = GameState(seats=[Seat("A", 0, ("Come-back",)), Seat("B", 1, ())], team_letters=["A", "B"])
    return fast, generic, state


def assert_every_index(fast: Engine, generic: Engine, state) -> list:  # noqa: ANN001
    turns = generic.turns(state)
    for index, expected in enumerate(turns):
        drawn = _Drawn(index)
        assert fast.random_turn(state, drawn) == expected, index
        assert drawn.bound == len(turns)
    return turns


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_second_move_that_may_come_back_is_drawn_from_the_list(data) -> None:  # noqa: ANN001
    fast, generic, state = come_back_engines()
    fill_board(data.draw, state)
    assert fast.shapes[0] is not None
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
