"""The plain turn counted under parts read as squares (fast/masked.py, fast/bits.py).

Random positions (test_fast_paths.py) seldom meet what these parts are about: a worker on level
2 next to a perimeter space on level 3 (Hera), a dome to build next to Limus. Here each part
gets positions made for it. On each, the fast engine must agree with the generic chain in
everything `disagreement` compares (outcomes, order, every index of the counted draw, the state
after each turn), and the turns must be what the card's text says: what it allows and what it
forbids, checked by name."""

from __future__ import annotations

import random

import pytest
from test_fast_paths import compiled, disagreement, games

from santorini.dsl.vocabulary import Sex
from santorini.interpreter.derived import later_builds
from santorini.interpreter.derived.masks import LEVELS
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.model.board import parse_square, square_name
from santorini.interpreter.model.notation import format_turn
from santorini.interpreter.model.state import GameState


def position(cards: tuple[str, str], workers: dict[str, str], heights: dict[str, int],
             domes: tuple[str, ...] = (), to_move: int = 1, females: tuple[str, ...] = ()):
    """The game of `cards` (seat A, seat B) with workers {'A1': 'c3', ...} (A1 B1 A2 B2 A3 are
    added in that order), the given heights, domes, and seat to move; with its generic engine."""
    game, generic = games("bga", cards)
    state = GameState(seats=game.state.seats, team_letters=game.state.team_letters)
    for name, height in heights.items():
        state.set_height(parse_square(name), height)
    for name in domes:
        state.set_dome(parse_square(name), True)
    for name in ("A1", "B1", "A2", "B2", "A3"):
        if name in workers:
            kind, sex = (1, Sex.FEMALE) if name in females else (0, Sex.MALE if females else None)
            state.add_worker("AB".index(name[0]), int(name[1]), parse_square(workers[name]), kind, sex)
    state.to_move = to_move
    return game.engine, generic, state


def short(turn: str) -> str:
    """'move B1 a1; build B1 b1' as 'B1 a1 b1' (a dome at a lower level as 'dome:b1')."""
    steps = [part.split() for part in turn.split("; ")]
    return " ".join([f"{steps[0][1]} {steps[0][2]}"] + [s[2] if s[0] == "build" else f"{s[0]}:{s[2]}"
                                                         for s in steps[1:]])


def agree(fast, generic, state) -> list[str]:  # noqa: ANN001
    """Check fast and generic agree on `state`; return its turns, short."""
    assert fast._pickers[state.to_move] is not None or fast._kernelled[state.to_move], \
        "the seat should be counted or drawn by a kernel, not listed"
    problem = disagreement(fast, generic, state, seeds=[1, 2, 3])
    assert problem is None, problem
    return [short(format_turn(state, steps)) for steps in generic.turns(state)]


def test_a_vetoed_win_is_a_move_that_builds() -> None:
    """Hera: 'opponent workers cannot win by moving into a perimeter space'. B1 on level 2 may
    climb to a1 (perimeter, level 3: no win, so it builds) or to c3 (not perimeter: a win)."""
    fast, generic, state = position(("Hera", "Mortal"), {"A1": "e5", "B1": "b2", "A2": "e4", "B2": "e1"},
                                    {"b2": 2, "a1": 3, "c3": 3})
    turns = agree(fast, generic, state)
    assert "B1 c3" in turns  # the win ends the turn
    assert "B1 a1" not in turns and any(t.startswith("B1 a1 ") for t in turns)
    # and without Hera, a1 wins: the veto is what turned it into a move
    fast, generic, state = position(("Mortal", "Mortal"), {"A1": "e5", "B1": "b2", "A2": "e4", "B2": "e1"},
                                    {"b2": 2, "a1": 3, "c3": 3})
    assert "B1 a1" in agree(fast, generic, state)


def test_a_build_ban_leaves_domes_next_to_its_holder() -> None:
    """Limus: 'opponent workers cannot build on a space neighboring your workers, unless building
    a dome'. A1 stands on c3; B1 moves from a1 to b2: of b2's neighbours, b3, c2 and c1... those
    next to c3 (b3, c2) take no block, but c2 on level 3 takes its dome."""
    fast, generic, state = position(("Limus", "Mortal"), {"A1": "c3", "B1": "a1", "A2": "e5", "B2": "e1"},
                                    {"c2": 3})
    turns = agree(fast, generic, state)
    after_b2 = {t.split()[2] for t in turns if t.startswith("B1 b2 ")}
    assert after_b2 == {"a1", "a2", "a3", "b1", "c1", "c2"}  # not b3 (next to c3); c2 is a dome
    assert all(not t.startswith("B1 b2 b3") for t in turns)


def test_a_move_ban_on_the_highest_worker() -> None:
    """Hypnus: 'opponent workers cannot move while higher than all their other workers'. B1 on
    level 2 above B2 on level 0 cannot move; on equal levels both can."""
    fast, generic, state = position(("Hypnus", "Mortal"), {"A1": "e5", "B1": "b2", "A2": "e4", "B2": "d2"},
                                    {"b2": 2})
    turns = agree(fast, generic, state)
    assert turns and all(t.startswith("B2 ") for t in turns)
    fast, generic, state = position(("Hypnus", "Mortal"), {"A1": "e5", "B1": "b2", "A2": "e4", "B2": "d2"},
                                    {"b2": 2, "d2": 2})
    assert {t[:2] for t in agree(fast, generic, state)} == {"B1", "B2"}


def test_a_block_under_itself_but_never_a_dome() -> None:
    """Zeus: 'your worker may build a block under itself'. After moving onto level 1 the worker
    may build under itself; after moving from level 3 to level 3, it may not (a block only)."""
    fast, generic, state = position(("Zeus", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "e1", "B2": "a5"},
                                    {"b2": 1, "e1": 3, "d1": 3}, to_move=0)
    turns = agree(fast, generic, state)
    assert "A1 b2 b2" in turns and "A1 b2 a1" in turns
    assert "A2 d1 c1" in turns and "A2 d1 d1" not in turns
    fast, generic, state = position(("Mortal", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "e1", "B2": "a5"},
                                    {"b2": 1, "e1": 3, "d1": 3}, to_move=0)
    assert "A1 b2 b2" not in agree(fast, generic, state)


@pytest.mark.parametrize("cards", [("Zeus", "Mortal"), ("Iris", "Mortal"), ("Pegasus", "Mortal")])
def test_random_positions_made_for_the_parts(cards: tuple[str, str]) -> None:
    """Crowded positions, many workers next to each other and towers of every height (where
    jumps, climbs and builds under the worker matter), for either seat to move."""
    rng = random.Random(f"masked {cards}")
    for _ in range(12):
        squares = rng.sample(["b2", "b3", "c2", "c3", "c4", "d3", "d4", "b4", "d2"], 4)
        heights = {name: rng.choice([0, 0, 1, 2, 3]) for name in
                   ("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 e3 a4 b4 c4 d4 e4 a5 b5 c5 d5 e5".split())}
        fast, generic, state = position(cards, dict(zip(("A1", "B1", "A2", "B2"), squares, strict=True)), heights,
                                        to_move=rng.randrange(2))
        problem = disagreement(fast, generic, state, seeds=[1, 2])
        assert problem is None, problem


def test_a_jump_over_a_worker_at_any_level() -> None:
    """Iris: 'your worker may move to the space on the other side of a neighboring worker,
    regardless of its level'. A1 on a1 jumps over B1 on b2 to c3 on level 3 (no climb limit),
    over A2 on a2 to a3; not over nothing (b1 beyond is c1... b1 is empty)."""
    fast, generic, state = position(("Iris", "Mortal"), {"A1": "a1", "B1": "b2", "A2": "a2", "B2": "e5"},
                                    {"c3": 2, "a3": 1}, to_move=0)
    turns = agree(fast, generic, state)
    assert any(t.startswith("A1 c3 ") for t in turns) and any(t.startswith("A1 a3 ") for t in turns)
    assert not any(t.startswith("A1 c1") for t in turns)


def test_a_climb_of_any_height_that_cannot_win() -> None:
    """Pegasus: 'your worker may move up any number of levels, but cannot win by doing so'. From
    level 0, a2 on level 2 is reachable (and builds); from level 1, b1 on level 3 is reachable but
    does not win; from level 2, c2 on level 3 wins."""
    fast, generic, state = position(("Pegasus", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "d1", "B2": "e4"},
                                    {"a2": 2, "b1": 3, "d1": 2, "c2": 3}, to_move=0)
    turns = agree(fast, generic, state)
    assert any(t.startswith("A1 a2 ") for t in turns) and any(t.startswith("A1 b1 ") for t in turns)
    assert "A1 b1" not in turns and "A2 c2" in turns
    assert new_game(load_pack("bga"), parse_players(["Pegasus", "Mortal"])).engine._inline_seats[0]


def test_a_once_per_game_climb_sets_its_mark_and_is_gone_after() -> None:
    """Bellerophon: 'once per game, your worker may move up at most 2 levels'. From level 0, a2
    on level 2 is reachable while the card is unmarked, and the turn marks it; once marked, only
    one level up."""
    fast, generic, state = position(("Bellerophon", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "e1", "B2": "a5"},
                                    {"a2": 2, "b1": 1}, to_move=0)
    turns = agree(fast, generic, state)
    assert any(t.startswith("A1 a2 ") for t in turns) and any(t.startswith("A1 b1 ") for t in turns)
    steps = next(s for s in generic.turns(state) if s[0][2] == parse_square("a2"))
    after = state.copy()
    fast.play_in_place(after, steps)
    (mark,) = {event[2] for event in after.history[-1].events if event[0] == "mark"}
    assert (0, mark) in after.marks
    state.set_mark(0, mark, True)
    turns = agree(fast, generic, state)
    assert not any(t.startswith("A1 a2") for t in turns) and any(t.startswith("A1 b1 ") for t in turns)


def test_another_win_of_a_move_counts_where_it_wins() -> None:
    """Eros (2 players): 'you also win if your worker moves onto level 1 into a space neighboring
    your workers standing on level 1'. A2 on d2 moving onto c2 (level 1, next to A1 on level 1)
    wins; onto d3 (level 1, not next to A1) it builds; A1 onto level 1 next to A2 (on level 0)
    does not win."""
    fast, generic, state = position(("Eros", "Mortal"), {"A1": "b2", "B1": "e5", "A2": "d2", "B2": "a5"},
                                    {"b2": 1, "c2": 1, "d3": 1, "c1": 1}, to_move=0)
    turns = agree(fast, generic, state)
    assert "A2 c2" in turns and "A2 d3" not in turns and any(t.startswith("A2 d3 ") for t in turns)
    assert "A1 c1" not in turns and any(t.startswith("A1 c1 ") for t in turns)


def test_a_fifth_complete_tower_wins_for_its_holder_whoever_builds_it() -> None:
    """Chronus: 'you also win when there are at least five complete towers on the board'. With
    four complete towers, B's dome on the level-3 square c2 makes the fifth: A wins; B's other
    builds do not. And with five already (a position set up so), any build makes A win."""
    towers = ("a5", "b5", "c5", "d5")
    fast, generic, state = position(("Chronus", "Mortal"), {"A1": "e1", "B1": "b2", "A2": "e2", "B2": "a3"},
                                    {"c2": 3, **dict.fromkeys(towers, 3)}, domes=towers)
    agree(fast, generic, state)
    for steps in generic.turns(state):
        after = fast.play(state, steps)
        assert after.winner == (0 if steps[-1][2] == parse_square("c2") else None), steps
    fast, generic, state = position(("Chronus", "Mortal"), {"A1": "e1", "B1": "b2", "A2": "e2", "B2": "a3"},
                                    dict.fromkeys((*towers, "e5"), 3), domes=(*towers, "e5"))
    agree(fast, generic, state)
    assert all(fast.play(state, steps).winner == 0 for steps in generic.turns(state))


def test_a_last_move_that_must_end_next_to_the_holder() -> None:
    """Aphrodite: 'if an opponent worker starts its turn on a space neighboring your workers, its
    last move must be to a space neighboring your workers'. B1 starts on b2 next to A1 on c3: it
    may move to b3 or c2 only; B2 on e5, far from A's workers, anywhere."""
    fast, generic, state = position(("Aphrodite", "Mortal"), {"A1": "c3", "B1": "b2", "A2": "a5", "B2": "e5"}, {})
    turns = agree(fast, generic, state)
    assert {t.split()[1] for t in turns if t.startswith("B1")} == {"b3", "c2"}
    assert {t.split()[1] for t in turns if t.startswith("B2")} == {"d4", "d5", "e4"}


def test_a_move_up_if_possible() -> None:
    """Persephone: 'if possible, at least one opponent worker must move up this turn'. B1 can
    move up to c2: every turn does; with no level to climb, every move will do."""
    fast, generic, state = position(("Persephone", "Mortal"), {"A1": "e5", "B1": "b2", "A2": "a5", "B2": "e1"},
                                    {"c2": 1})
    turns = agree(fast, generic, state)
    assert turns and all(t.startswith("B1 c2 ") for t in turns)
    fast, generic, state = position(("Persephone", "Mortal"), {"A1": "e5", "B1": "b2", "A2": "a5", "B2": "e1"}, {})
    assert {t[:2] for t in agree(fast, generic, state)} == {"B1", "B2"}


def test_a_holder_out_of_the_game_binds_no_one() -> None:
    """Three players: once Hera's seat is out, her veto no longer holds (the chain's rule: a
    power of a seat out of the game is gone), and the counted draw agrees."""
    pack = load_pack("bga")
    game = new_game(pack, parse_players(["Pan", "Hera", "Pan"]))
    from santorini.interpreter.engine.engine import Engine

    generic = Engine(pack.base.power, [[c.power for c in seat] for seat in game.cards], fast=False,
                     if_possible=pack.if_possible)
    state = game.state
    state.set_height(parse_square("b2"), 2)
    state.set_height(parse_square("a1"), 3)
    for team, number, square in ((0, 1, "b2"), (1, 1, "e5"), (2, 1, "e1"), (0, 2, "c5"), (1, 2, "e4"), (2, 2, "a5")):
        state.add_worker(team, number, parse_square(square))
    assert game.engine._pickers[0] is not None
    for out in (False, True):
        if out:
            state.eliminate(1)
        problem = disagreement(game.engine, generic, state, seeds=[1, 2])
        assert problem is None, problem
        turns = [short(format_turn(state, steps)) for steps in generic.turns(state)]
        assert ("A1 a1" in turns) is out


def test_a_move_that_removes_the_opponent_beyond_it() -> None:
    """Bia: 'after your worker moves, the opponent worker on the next space in the same direction
    is removed from the game'. A1 moving a1 -> b2 removes B1 on c3, whose space may then be
    built on; moving a1 -> a2 removes no one (a3 is empty), and A2 beyond a move is never removed."""
    fast, generic, state = position(("Bia", "Mortal"), {"A1": "a1", "B1": "c3", "A2": "c1", "B2": "e5"},
                                    {}, to_move=0)
    turns = agree(fast, generic, state)
    assert "A1 b2 c3" in turns and "A1 b1 c1" not in turns  # A2 stays on c1
    steps = next(s for s in generic.turns(state) if short(format_turn(state, s)) == "A1 b2 c3")
    after = fast.play(state, steps)
    assert after.worker_pos[1] < 0 and after.heights[parse_square("c3")] == 1
    after = fast.play(state, next(s for s in generic.turns(state) if short(format_turn(state, s)) == "A1 a2 a3"))
    assert after.worker_pos[1] == parse_square("c3")


def test_a_move_forced_on_until_the_next_space_is_higher() -> None:
    """Harpies: 'each time an opponent worker moves, it is forced space by space in the same
    direction until the next space is higher or obstructed'. B1 moving a1 -> b2 goes on to c3
    (d4 is higher), and builds from c3; moving a1 -> a2 goes on to a3, a4 and stops before A2
    on a5."""
    fast, generic, state = position(("Harpies", "Mortal"), {"A1": "e1", "B1": "a1", "A2": "a5", "B2": "e3"},
                                    {"d4": 1})
    turns = agree(fast, generic, state)
    assert "B1 b2 d3" in turns and "B1 b2 a1" not in turns  # built from c3, not from b2
    assert "B1 a2 b5" in turns and "B1 a2 a1" not in turns  # built from a4
    steps = next(s for s in generic.turns(state) if short(format_turn(state, s)) == "B1 b2 d3")
    assert fast.play(state, steps).worker_pos[1] == parse_square("c3")


def test_the_unmoved_workers_build_instead() -> None:
    """Graeae: 'your unmoved worker builds instead'. A1 moves a1 -> b1; A2 (c3) or A3 (e5) builds:
    d4, next to both, is one outcome; b2 next to c3 and to A1's new square is A2's; a2, next to
    A1 only, is no one's."""
    fast, generic, state = position(("Graeae", "Mortal"), {"A1": "a1", "B1": "a5", "A2": "c3", "B2": "e1",
                                                           "A3": "e5"}, {}, to_move=0)
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    agree(fast, generic, state)
    assert turns.count("move A1 b1; build A2 d4") == 1 and "move A1 b1; build A3 d4" not in turns
    assert "move A1 b1; build A2 b2" in turns and not any(t.startswith("move A1 b1; build") and t.endswith(" a2")
                                                          for t in turns)


def test_what_happens_at_the_end_of_the_turn_with_no_choice() -> None:
    """Medusa: 'each opponent worker on a lower space neighboring your workers is removed from
    the game and its space is built on'. A1 climbs from a1 to b2 (level 1): B1 on c3 (level 0)
    is removed and c3 built on; A1 moving to a2 (level 0) removes no one. Maenads: 'if 2 of your
    workers neighbor an opponent worker on opposite sides, that opponent loses the game': A1
    moving to b3 flanks B1 on c3 with A2 on d3, and A wins."""
    fast, generic, state = position(("Medusa", "Mortal"), {"A1": "a1", "B1": "c3", "A2": "e1", "B2": "e5"},
                                    {"b2": 1}, to_move=0)
    agree(fast, generic, state)
    for steps in generic.turns(state):
        after = fast.play(state, steps)
        up = steps[0][2] == parse_square("b2")
        assert (after.worker_pos[1] < 0) is up and (after.heights[parse_square("c3")] == 1) is up, steps
    fast, generic, state = position(("Maenads", "Mortal"), {"A1": "a2", "B1": "c3", "A2": "d3", "B2": "e5"},
                                    {}, to_move=0)
    agree(fast, generic, state)
    for steps in generic.turns(state):
        flanks = steps[0] == ("move", 0, parse_square("b3"))
        assert (fast.play(state, steps).winner == 0) is flanks, steps


# Which seat of "card v Mortal" each part puts on the counted path (A: the card's, B: the
# Mortal's, bound by the card): pinned, so that no seat drifts back to the listed path unseen.
COUNTED = {"Hera": "B", "Limus": "B", "Hypnus": "B", "Aphrodite": "B", "Persephone": "B", "Harpies": "B",
           "Zeus": "A", "Iris": "A", "Bellerophon": "A", "Eros": "A", "Bia": "A", "Graeae": "A",
           "Medusa": "A", "Maenads": "A", "Chronus": "AB", "Pegasus": "A", "Selene": "A", "Charon": "A", "Hestia": "A",
           "Europa & Talus": "B", "Clio": "B"}
#: The cards whose own seat against a Mortal has no hand-tuned picker: the derived code's kernels
#: draw its turn (a move made again, a block taken off, builds paid from coins, the unmoved
#: worker's builds, a token put after the build or on the square built, a worker placed from
#: the card beside the plain turn, each worker's move or build beside it, walks beside it).
KERNELLED = ("Ares", "Castor & Pollux", "Clio", "Europa & Talus", "Hermes", "Jason", "Morpheus", "Poseidon", "Triton")


@pytest.mark.parametrize("card", sorted(COUNTED))
def test_the_masked_picker_serves_the_seats_it_is_for(card: str) -> None:
    from santorini.interpreter.fast.masked import masked_picker

    engine = new_game(load_pack("bga"), parse_players([card, "Mortal"])).engine
    for seat in COUNTED[card]:
        index = "AB".index(seat)
        shape = engine._shapes[index]
        assert shape is not None and engine._pickers[index] is not None, (card, seat)
        assert shape.extended and (masked_picker(shape, lambda *a: ()) is not None or engine._inline_seats[index])


@pytest.mark.parametrize("card", KERNELLED)
def test_the_kernels_draw_the_seats_no_hand_tuned_picker_serves(card: str) -> None:
    engine = new_game(load_pack("bga"), parse_players([card, "Mortal"])).engine
    assert engine._pickers[0] is None and engine._kernelled[0], card


#: The seats whose only parts are masks of squares (bans, vetoes, other wins of a move, complete
#: towers, climbs of their own): masked_lean.py's. Any other part keeps a seat on masked.py's form.
#: (The positions above for a veto, a build ban, a move ban, another win and the towers are
#: counted by the lean form, and the mutations of it tried so far made them fail.)
LEAN = {"Hera": "B", "Limus": "B", "Hypnus": "B", "Aphrodite": "B", "Eros": "A", "Chronus": "AB", "Pegasus": "A"}
NOT_LEAN = {"Persephone": "B", "Harpies": "B", "Zeus": "A", "Bia": "A", "Bellerophon": "A", "Hestia": "A",
            "Selene": "A", "Charon": "A", "Medusa": "A"}


@pytest.mark.parametrize("card", sorted({**LEAN, **NOT_LEAN}))
def test_the_lean_form_takes_only_the_seats_of_masks(card: str) -> None:
    from santorini.interpreter.fast.masked import MaskedTurn, masked_picker
    from santorini.interpreter.fast.masked_lean import LeanMaskedTurn

    engine = new_game(load_pack("bga"), parse_players([card, "Mortal"])).engine
    for seat in LEAN.get(card, "") + NOT_LEAN.get(card, ""):
        picker = masked_picker(engine._shapes["AB".index(seat)], lambda *a: ())
        assert isinstance(picker, LeanMaskedTurn if card in LEAN else MaskedTurn), (card, seat, picker)


def test_a_female_worker_domes_at_any_level() -> None:
    """Selene: 'your female worker may build a dome at any level' (Alternative Build). A1 is
    female. A2 moving a1 -> b1 builds its block around b1, or A1 domes around c3: c2 (next to
    both) takes a block from A2 or a dome from A1, two outcomes; d3 a dome from A1 only; when A1
    moves, it may dome or build each square around it."""
    fast, generic, state = position(("Selene", "Mortal"), {"A1": "c3", "B1": "e5", "A2": "a1", "B2": "e1"},
                                    {"c2": 1}, to_move=0, females=("A1",))
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    agree(fast, generic, state)
    assert "move A2 b1; build A2 c2" in turns and "move A2 b1; dome A1 c2" in turns
    assert "move A2 b1; dome A1 d3" in turns and "move A2 b1; build A2 d3" not in turns
    assert "move A1 d3; dome A1 d4" in turns and "move A1 d3; build A1 d4" in turns


def test_a_force_before_the_move() -> None:
    """Charon: 'before your worker moves, you may force a neighboring opponent worker to the space
    directly on the other side of your worker, if that space is unoccupied'. A1 on b2 may force
    B1 from a1 to c3, then move, even onto a1; B2 on b3 cannot be forced (b1 beyond is A2's)."""
    fast, generic, state = position(("Charon", "Mortal"), {"A1": "b2", "B1": "a1", "A2": "b1", "B2": "b3"},
                                    {}, to_move=0)
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    agree(fast, generic, state)
    assert any(t.startswith("force B1 c3; move A1 a1; build A1") for t in turns)
    assert any(t.startswith("move A1 c2; build A1") for t in turns)  # no force
    assert not any(t.startswith("force B2") for t in turns)
    assert not any(t.startswith("move A1 a1") for t in turns)  # a1 is B1's until it is forced


def test_a_second_build_not_on_the_edge() -> None:
    """Hestia: 'your worker may build one additional time, but this cannot be on a perimeter
    space'. A1 moves a1 -> b2: its first build may be anywhere around b2; the second only on b3,
    c2, c3 (not the edge), on the first one's square too; a1 then a1 is refused, and 'b3 then a1'
    is the outcome of 'a1 then b3', found once."""
    fast, generic, state = position(("Hestia", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "e1", "B2": "a5"},
                                    {}, to_move=0)
    turns = [short(format_turn(state, steps)) for steps in generic.turns(state)]
    agree(fast, generic, state)
    after_b2 = [t for t in turns if t.startswith("A1 b2")]
    assert "A1 b2 c3 c3" in after_b2 and "A1 b2 a1 b3" in after_b2 and "A1 b2 a1" in after_b2
    assert "A1 b2 a1 a1" not in after_b2 and "A1 b2 b3 a1" not in after_b2
    # first builds: 8 squares around b2 (a1 vacated); 3 of them inside: 8 + (28 - 10) + 3
    assert len(after_b2) == 8 + (8 * 7 // 2 - 5 * 4 // 2) + 3


def test_a_winning_tower_ends_a_turn_of_two_builds() -> None:
    """Hestia against Chronus, with four complete towers: a first build that domes a level-3
    square makes Chronus win and ends the turn, so it has no second build (the seat is left to
    the generic chain, which knows it); fast and generic agree."""
    towers = ("b4", "c4", "b3", "c3")
    fast, generic, state = position(("Chronus", "Hestia"), {"A1": "e4", "B1": "a1", "A2": "e2", "B2": "e5"},
                                    {"b2": 3, **dict.fromkeys(towers, 3)}, domes=towers)
    problem = disagreement(fast, generic, state, seeds=[1, 2, 3])
    assert problem is None, problem
    turns = [short(format_turn(state, steps)) for steps in generic.turns(state)]
    assert "B1 a2 b2" in turns and not any(t.startswith("B1 a2 b2 ") for t in turns)


def test_moves_again_along_the_edge() -> None:
    """Triton: 'each time your worker moves into a perimeter space, it may immediately move
    again'. A1 on b1 walks a1, a2, a3 along the edge and may stop anywhere to build; a move
    inward (b1 -> b2) ends its moves; the centre c3 is never reached (no edge square touches
    it), and coming back to b1 builds from b1."""
    fast, generic, state = position(("Triton", "Mortal"), {"A1": "b1", "B1": "e5", "A2": "e1", "B2": "a5"},
                                    {}, to_move=0)
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    agree(fast, generic, state)
    assert any(t.endswith("move A1 a3; build A1 b3") for t in turns)
    # the moves again from each first move are searched breadth first: c5 is first reached from
    # b1's first move, a1 (its lowest square), up the a file and along the top edge, 5 moves on
    # (depth first, a1 -> b1 -> c1 -> ... round the east side took 8)
    to_c5 = {t.split("; build")[0] for t in turns if t.split("; build")[0].endswith("A1 c5")}
    assert to_c5 == {"move A1 a1; move A1 a2; move A1 a3; move A1 a4; move A1 b5; move A1 c5"}, to_c5
    assert not any(t.startswith("move A1 b2; move") for t in turns)
    assert not any(" A1 c3" in t.split("; build")[0] for t in turns)
    assert any(t.startswith("move A1 a1; move A1 b1; build A1") for t in turns)
    assert fast._kernelled[0]  # (drawn by the derived code's kernel: derived/repeated_moves.py)


def test_the_levels_as_bits_are_the_squares_of_each_height() -> None:
    """The state keeps the squares of each level as one number (level_field), changed by
    set_height alone: after random builds and removals, bits.levels_of reads back each height."""
    from santorini.interpreter.fast.bits import levels_of

    rng = random.Random(5)
    state = GameState(seats=[], team_letters=[])
    for _ in range(500):
        state.set_height(rng.randrange(25), rng.randrange(4))
        levels = levels_of(state.level_field)
        for square, height in enumerate(state.heights):
            assert [levels[level] >> square & 1 for level in range(4)] == [int(level == height) for level in range(4)]
        assert levels[0] | levels[1] | levels[2] | levels[3] == (1 << 25) - 1
    assert state.level_field >> 100 == 0 and state.copy().level_field == state.level_field


def test_neighbouring_pairs_count_each_square_s_neighbours() -> None:
    """board.neighbouring_pairs counts by shifts what a loop over the squares counts."""
    from santorini.interpreter.model.board import AROUND_BITS, grown, neighbouring_pairs

    rng = random.Random(9)
    full = (1 << 25) - 1
    assert neighbouring_pairs(1 << 0, full) == 3 and neighbouring_pairs(1 << 12, full) == 8  # a1, c3
    assert neighbouring_pairs(1 << 4, full) == 3 and neighbouring_pairs(1 << 20, 1 << 15 | 1 << 16) == 2  # e1; a5
    assert neighbouring_pairs(1 << 4, 1 << 5) == 0  # e1 and a2 are not neighbours (no wrap)
    for _ in range(500):
        squares, others = rng.getrandbits(25), rng.getrandbits(25)
        assert neighbouring_pairs(squares, others) == sum(
            (others & AROUND_BITS[s]).bit_count() for s in range(25) if squares >> s & 1)
        around = squares
        for s in range(25):
            if squares >> s & 1:
                around |= AROUND_BITS[s]
        assert grown(squares) == around  # (board.grown: the squares and those around them)
    assert grown(1 << 4) == 1 << 3 | 1 << 4 | 1 << 8 | 1 << 9  # e1: d1, e1, d2, e2, no wrap to a2


def test_the_unmoved_worker_removes_a_block_and_an_undone_build_is_one_outcome() -> None:
    """Ares: 'you may remove an unoccupied block (not dome) neighboring your unmoved worker'.
    A1 moves a1 -> a2 and builds on a1, b1, b2, a3 or b3; A2 (unmoved, on c1) may then take a
    block from b1 (level 1). d1 holds a block under B1 (occupied) and d2 a dome: neither may be
    taken. By hand: 5 builds alone, 4 builds with the removal from b1, and the build on b1 taken
    off again, which leaves the board as it was; so does a build on b2 taken off (b2 is next
    to c1 too), the same outcome, counted once: 10 turns."""
    fast, generic, state = position(("Ares", "Mortal"), {"A1": "a1", "B1": "d1", "A2": "c1", "B2": "e5"},
                                    {"b1": 1, "d1": 1, "d2": 3}, domes=("d2",), to_move=0)
    assert fast._kernelled[0]  # (drawn by the derived code's kernel: derived/last_choice.py)
    turns = agree(fast, generic, state)
    to_a2 = [t for t in turns if t.startswith("A1 a2 ")]
    builds = ["a1", "b1", "b2", "a3", "b3"]
    assert sorted(to_a2) == sorted([f"A1 a2 {b}" for b in builds] + [f"A1 a2 {b} unbuild:b1" for b in builds]), to_a2
    assert not any("unbuild:d1" in t or "unbuild:d2" in t for t in turns)  # occupied, a dome
    # the undone pairs: only the first (b1, then b1) stands for them all
    assert "A1 a2 b2 unbuild:b2" not in turns and "A1 a2 b1 unbuild:b1" in turns
    # A2 moving leaves A1 unmoved, whose neighbours (a2, b1, b2) are the removal's squares then
    assert any(t.startswith("A2 ") and t.endswith("unbuild:b1") for t in turns)


def test_a_worker_placed_from_the_card_once_then_moves_and_builds() -> None:
    """Jason: 'Alternative Turn: once, place your extra worker on an unoccupied ground-level
    perimeter space. Then move and build with this worker.' Every perimeter space is on level 1
    but a1, so A3 may enter on a1 alone; from there it may move to a2 or b1 (level 1), not to b2
    (level 2). By hand: from a2 it builds on a1 (which it left), b1, b2, a3 or b3; from b1 on a1,
    c1, a2 or b2 (A2 stands on c2): 9 placed turns, after the plain ones. Once taken, the card's
    mark forbids it for the rest of the game."""
    perimeter = [name for name in (f"{c}{r}" for c in "abcde" for r in "12345")
                 if name[0] in "ae" or name[1] in "15"]
    heights = {name: 1 for name in perimeter if name != "a1"} | {"b2": 2}
    game, generic = games("bga", ("Jason", "Mortal"))
    game = game.restart()
    from santorini.interpreter.games.game import end_of_setup, place_workers
    place_workers(game, 0, [parse_square("c3"), parse_square("c2")])
    place_workers(game, 1, [parse_square("d4"), parse_square("b4")])
    end_of_setup(game)
    state = game.state
    for name, height in heights.items():
        state.set_height(parse_square(name), height)
    state.to_move = 0
    fast = game.engine
    assert fast._kernelled[0]  # (drawn by the derived code: derived/placed_first.py, kernel.py)
    problem = disagreement(fast, generic, state, seeds=[1, 2, 3])
    assert problem is None, problem
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    placed = [t for t in turns if t.startswith("use ")]
    assert turns.index(placed[0]) == len(turns) - len(placed)  # after every plain turn
    expected = [f"use Jason; place A3 a1; move A3 a2; build A3 {b}" for b in ("a1", "b1", "b2", "a3", "b3")] + \
               [f"use Jason; place A3 a1; move A3 b1; build A3 {b}" for b in ("a1", "c1", "a2", "b2")]
    assert sorted(placed) == sorted(expected), placed
    after = fast.play(state, generic.turns(state)[turns.index(placed[0])])
    after = fast.play(after, generic.turns(after)[0])  # the Mortal's reply
    assert after.to_move == 0 and not any(steps[0][0] == "use" for steps in generic.turns(after))
    assert disagreement(fast, generic, after, seeds=[1]) is None
    # the mark alone forbids it: with the worker back on the card, still no placed turn
    placed_worker = after.members[after.seats[0].team][2]  # A3
    assert after.worker_pos[placed_worker] >= 0
    after.lift(placed_worker)
    after.reserve.add(placed_worker)
    after.set_height(parse_square("a1"), 0)  # (its first build went there: a place again)
    assert not after.blocked[parse_square("a1")]
    assert not any(steps[0][0] == "use" for steps in generic.turns(after))
    assert disagreement(fast, generic, after, seeds=[1]) is None


def test_each_worker_moves_or_each_builds_with_workers_alike() -> None:
    """Castor & Pollux: 'Alternative Turn: move with all of your workers, do not build' and 'do not
    move, build with all of your workers', after the plain turn. A1 on a1 may go to a2, b1, b2; A2
    on c1 to b1, b2, c2 (domes on d1, d2, a3, b3, c3). By hand: the plain turn has 3 + 4 + 4
    turns of A1 and 4 + 4 + 4 of A2 (23). Moving both leaves two of those squares taken, a set:
    A1 and A2 are alike, so A1 on b1 and A2 on b2 is A1 on b2 and A2 on b1; the sets are {a2 b1},
    {a2 b2}, {a2 c2}, {b1 b2}, {b1 c2}, {b2 c2} (6). Building with both puts a piece around a1
    and one around c1: 3 x 3 pairs, {b1 b2} once, b1 twice and b2 twice allowed (8). 37 turns."""
    fast, generic, state = position(("Castor & Pollux", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "c1", "B2": "e4"},
                                    {}, domes=("d1", "d2", "a3", "b3", "c3"), to_move=0)
    assert fast._kernelled[0] and fast._kernel_walk(state)[1] is not None  # (drawn whole: derived/each_worker.py)
    agree(fast, generic, state)
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    assert len(turns) == 37, turns
    both_moved = [t for t in turns if t.count("move") == 2]
    squares = sorted(" ".join(sorted(part.split()[-1] for part in t.split("; "))) for t in both_moved)
    assert squares == ["a2 b1", "a2 b2", "a2 c2", "b1 b2", "b1 c2", "b2 c2"], squares
    both_built = [t for t in turns if t.count("build") == 2]
    built = sorted(" ".join(sorted(part.split()[-1] for part in t.split("; "))) for t in both_built)
    assert built == ["a2 b1", "a2 b2", "a2 c2", "b1 b1", "b1 b2", "b1 c2", "b2 b2", "b2 c2"], built
    # no build after both move
    assert not any("build" in t and t.startswith("move") and t.count("move") == 2 for t in turns)


def test_each_worker_moves_a_win_that_leaves_a_plain_win_s_board_is_one_outcome() -> None:
    """Castor & Pollux, alike workers: A1 on c3 (level 3) moves to d4 (level 3, no win); A2 on d3
    (level 2) then moves up onto c3: a win, with A1 on d4 and A2 on c3. The plain turn's win of
    A2 moving up onto d4 leaves the same board (A2 on d4, A1 on c3): one outcome, the plain one."""
    heights = {"a1": 0, "c3": 3, "d3": 2, "d4": 3}
    fast, generic, state = position(("Castor & Pollux", "Mortal"), {"A1": "c3", "B1": "a5", "A2": "d3", "B2": "a4"},
                                    heights, to_move=0)
    agree(fast, generic, state)
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    assert "move A2 d4" in turns and "move A1 d4; move A2 c3" not in turns
    assert "move A2 c3" not in turns  # (c3 is A1's: the plain turn cannot go there)


def test_each_worker_moves_or_builds_with_one_worker_left_or_none() -> None:
    """Castor & Pollux with one worker left (another power removed the other): A1 on a1 (domes
    on a3, b3, c3, c1, c2) may go to a2, b1, b2. By hand: the plain turn moves to a2 and builds on
    a1, b1 or b2; to b1, on a1, a2 or b2; to b2, on a1, a2 or b1 (9); 'each of your workers moves'
    is A1's move alone (3), and '... builds' its build alone, on a2, b1 or b2 (3): 15. With no
    worker left, no turn."""
    fast, generic, state = position(("Castor & Pollux", "Mortal"), {"A1": "a1", "B1": "e5", "B2": "e4"},
                                    {}, domes=("a3", "b3", "c3", "c1", "c2"), to_move=0)
    turns = agree(fast, generic, state)
    assert len(turns) == 15, turns
    fast, generic, state = position(("Castor & Pollux", "Mortal"), {"B1": "e5", "B2": "e4"}, {}, to_move=0)
    assert generic.turns(state) == [] and fast.random_turn(state, random.Random(1)) is None


def test_builds_paid_from_coins_gained_at_the_start_of_the_turn() -> None:
    """Morpheus: 'Start of your turn: place a coin on your card. Your build: your worker cannot
    build as normal; instead spend any number of coins (even zero) and build that many times.'
    One coin on the card, so two this turn. A1 on a1 can only move to a2 (domes on b1, b2, b3;
    A2 boxed in on e1); around a2 it may build on a1 (level 0) and a3 (level 3: a dome only). By
    hand, in the chain's order (the fewest builds first, then the squares in order): no build;
    a1; a3; a1 twice; a1 then a3 (a3 then a1 is a1 then a3): 5 turns, with 2, 1, 1, 0 and 0
    coins left."""
    fast, generic, state = position(("Morpheus", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "e1", "B2": "e4"},
                                    {"a3": 3}, domes=("b1", "b2", "b3", "d1", "d2", "e2"), to_move=0)
    state.set_counter(0, "coin", 1)
    assert fast._kernelled[0]  # (drawn by the derived code's kernel: derived/later_builds.py)
    agree(fast, generic, state)
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    assert turns == ["move A1 a2", "move A1 a2; build A1 a1", "move A1 a2; build A1 a3",
                     "move A1 a2; build A1 a1; build A1 a1", "move A1 a2; build A1 a1; build A1 a3"], turns
    left = [fast.play(state, steps).counters.get((0, "coin"), 0) for steps in generic.turns(state)]
    assert left == [2, 1, 1, 0, 0]


def test_a_token_placed_after_the_turn_that_every_worker_treats_as_a_dome() -> None:
    """Europa & Talus: 'End of your turn: you may relocate your Talus token to an unoccupied space
    neighboring the worker that moved. All players treat the space containing the Talus token as
    if it contains only a dome.' The talus is on b1, a dome on b2; A1 on a1 can only move to a2
    (A2 is boxed in on e1). Around a2 it builds on a1, a3 (level 3: a dome) or b3, never on b1.
    By hand: after each build the talus stays, or goes to a free space around a2 other than b1
    (where it is): a1, a3 (not after the dome there) or b3: 4 + 3 + 4 = 11 turns. The Mortal's
    B1 on c1 may not move to b1 nor build there."""
    fast, generic, state = position(("Europa & Talus", "Mortal"), {"A1": "a1", "B1": "c1", "A2": "e1", "B2": "e5"},
                                    {"a3": 3, "b2": 3}, domes=("b2", "d1", "d2", "e2"), to_move=0)
    state.set_token(parse_square("b1"), ("talus", 0))
    assert fast._kernelled[0]  # (drawn by the derived code's kernel: derived/last_choice.py)
    agree(fast, generic, state)
    turns = [format_turn(state, steps) for steps in generic.turns(state)]
    expected = [f"move A1 a2; build A1 {b}" + (f"; token talus {p}" if p else "")
                for b, places in (("a1", ("a1", "a3", "b3")), ("a3", ("a1", "b3")), ("b3", ("a1", "a3", "b3")))
                for p in ("", *places)]
    assert sorted(turns) == sorted(expected), turns
    state.to_move = 1
    agree(fast, generic, state)
    assert not any("b1" in turn for turn in (format_turn(state, steps) for steps in generic.turns(state)))


def test_a_token_on_each_block_built_up_to_three_and_one_built_on_leaves() -> None:
    """Clio: 'Place a coin token on each of the first 3 blocks your workers build. Opponents treat
    spaces containing your coin tokens as if they contain only a dome.' A1 on a1 can only move to
    a2 (domes on b1, b2; A2 boxed in on e1) and builds on a1, a3 (level 1, a coin on it) or b3: 3
    turns, as without the coins. With 2 coins placed so far, each build places the third: on a1,
    on b3, and on a3 again once the build there took the old one away. With 3 placed, none; the
    build on a3 still takes its coin away. The Mortal's B1 on a4 cannot move or build on a3."""
    for placed, coins_after in ((2, ({"a1", "a3"}, {"a3"}, {"a3", "b3"})), (3, ({"a3"}, set(), {"a3"}))):
        fast, generic, state = position(("Clio", "Mortal"), {"A1": "a1", "B1": "a4", "A2": "e1", "B2": "e5"},
                                        {"a3": 1}, domes=("b1", "b2", "d1", "d2", "e2"), to_move=0)
        state.set_token(parse_square("a3"), ("coin", 0))
        state.set_counter(0, "coin tokens placed", placed)
        assert fast._kernelled[0]  # (drawn by the derived code's kernel: derived/after_build.py)
        agree(fast, generic, state)
        turns = generic.turns(state)
        assert [format_turn(state, steps) for steps in turns] == [
            "move A1 a2; build A1 a1", "move A1 a2; build A1 a3", "move A1 a2; build A1 b3"]
        for steps, coins in zip(turns, coins_after, strict=True):
            after = fast.play(state, steps)
            assert {square_name(s) for s, token in after.tokens.items() if token == ("coin", 0)} == coins
            assert after.counters.get((0, "coin tokens placed"), 0) == min(3, placed + 1)
        state.to_move = 1
        agree(fast, generic, state)
        assert not any("a3" in format_turn(state, steps) for steps in generic.turns(state))


def test_a_picker_defers_a_state_it_does_not_count_to_the_list() -> None:
    """The kernels of each worker's move or build count teams of two workers; with three (no
    shipped setup has them) they answer DEFERRED, draw nothing, and the engine draws from the
    list of turns instead: the same turns at every index, in the random games of the playout
    too."""
    from santorini.interpreter.fast.counted import DEFERRED

    fast, generic, state = position(("Castor & Pollux", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "c1", "B2": "e4",
                                                                    "A3": "c3"}, {"b2": 1}, to_move=0)
    rng = random.Random(4)
    assert fast._kernel_draw(state, rng) is DEFERRED
    assert rng.random() == random.Random(4).random()  # (nothing drawn)
    agree(fast, generic, state)
    for seed in range(3):
        game_state = state.copy()
        played = fast.playout(game_state, [random.Random(seed), random.Random(seed + 10)], 6)
        stepwise, rngs = state.copy(), [random.Random(seed), random.Random(seed + 10)]
        for steps in played:
            assert generic.random_turn(stepwise, rngs[stepwise.to_move]) == steps
            stepwise = generic.play(stepwise, steps)
        assert stepwise.hash == game_state.hash


@pytest.mark.parametrize(("a3", "expected"), [
    (3, ["move A1 a2", "move A1 a2; build A1 a1", "move A1 a2; build A1 a3",
         "move A1 a2; build A1 a1; build A1 a1", "move A1 a2; build A1 a1; build A1 a3"]),
    (2, ["move A1 a2", "move A1 a2; build A1 a1", "move A1 a2; build A1 a1; build A1 a1"])])
def test_builds_paid_from_coins_under_a_ban_that_reads_the_piece(a3: int, expected: list[str]) -> None:
    """Morpheus as above, against Limus, whose worker on a4 neighbours a3: no block may go on a3,
    a dome completing a tower may. With a3 on level 3 (its next piece a dome) the turns are the
    five of Morpheus alone; with a3 on level 2 its first piece would be a block, so no build
    reaches it (though a dome would be allowed after it): a1 only, up to twice (3 turns). Drawn
    by the kernels, which read the ban as the board would be after each block."""
    fast, generic, state = position(("Morpheus", "Limus"), {"A1": "a1", "B1": "a4", "A2": "e1", "B2": "e4"},
                                    {"a3": a3}, domes=("b1", "b2", "b3", "d1", "d2", "e2"), to_move=0)
    state.set_counter(0, "coin", 1)
    assert fast._kernelled[0]
    agree(fast, generic, state)
    assert [format_turn(state, steps) for steps in generic.turns(state)] == expected


NO_DOMES = "Opponent's Turn:\n  opponent workers cannot build a dome.\n"


def _against_no_domes(state: GameState) -> tuple[Engine, Engine]:
    """Engines of Morpheus against a card that bans its opponents' domes (fast, generic)."""
    pack = load_pack("bga")
    seats = [[pack.cards["Morpheus"].power], [compiled(NO_DOMES, "Domeless")]]
    teams = [seat.team for seat in state.seats]
    return (Engine(pack.base.power, seats, teams=teams, hand_tuned_pickers=False),
            Engine(pack.base.power, seats, teams=teams, fast=False))


def _coins_next_to_a_level_2_square() -> GameState:
    _, _, state = position(("Morpheus", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "e1", "B2": "e4"},
                           {"a3": 2}, domes=("b1", "b2", "b3", "d1", "d2", "e2"), to_move=0)
    state.set_counter(0, "coin", 1)
    return state


def test_builds_paid_from_coins_where_a_later_piece_is_banned() -> None:
    """Morpheus as above with a3 on level 2, against a card that bans domes: a1 may take three
    blocks (not the dome), a3 one block (then its dome is banned). With two coins, in the
    chain's order (the fewest builds first): no build; a1; a3; a1 twice; a1 then a3 (5; a3
    twice would dome it)."""
    state = _coins_next_to_a_level_2_square()
    fast, generic = _against_no_domes(state)
    assert fast._kernelled[0] and fast._kernel_walk(state)[1] is not None
    assert disagreement(fast, generic, state, seeds=[1, 2, 3]) is None
    assert [format_turn(state, steps) for steps in generic.turns(state)] == [
        "move A1 a2", "move A1 a2; build A1 a1", "move A1 a2; build A1 a3",
        "move A1 a2; build A1 a1; build A1 a1", "move A1 a2; build A1 a1; build A1 a3"]


def test_a_ban_read_on_the_board_as_it_is_for_every_piece_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels read a ban on each later piece on the board as it would be after the blocks
    before it: read on the board as it is, a3's second piece (a dome) would pass the ban, and
    the comparison says so."""
    monkeypatch.setattr(later_builds, "LEVELS_AFTER_BLOCKS", (LEVELS,) * 3)
    state = _coins_next_to_a_level_2_square()
    fast, generic = _against_no_domes(state)
    assert disagreement(fast, generic, state, seeds=[1]) is not None


def _unmoved_beside_level_2_squares(card: str | None) -> tuple[GameState, Engine, Engine]:
    """Poseidon's A1 on a1, which can only move to a2 and build on a1; A2 on e1 (ground level),
    which cannot move, around it d1 and e2 on level 2 (d2 domed); against `card` (compiled; None:
    a Mortal): the state and the engines (fast, generic)."""
    _, _, state = position(("Poseidon", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "e1", "B2": "e4"},
                           {"d1": 2, "e2": 2}, domes=("b1", "b2", "b3", "a3", "d2"), to_move=0)
    pack = load_pack("bga")
    seats = [[pack.cards["Poseidon"].power], [] if card is None else [compiled(card, "Other")]]
    teams = [seat.team for seat in state.seats]
    return (state, Engine(pack.base.power, seats, teams=teams, hand_tuned_pickers=False),
            Engine(pack.base.power, seats, teams=teams, fast=False))


@pytest.mark.parametrize(("card", "outcomes"), [(NO_DOMES, 4), (None, 8)])
def test_the_unmoved_worker_builds_where_a_later_piece_is_banned(card: str | None, outcomes: int) -> None:
    """A1 moves to a2 and builds on a1; A2 then builds up to three times around e1: d1 and e2
    may each take a block and a dome. By hand, the pieces on (d1, e2), 0 to 2 each, at most three
    in all: 9 - 1 = 8; against a card that bans domes, each takes one block at most: 4. Drawn by
    the kernels."""
    state, fast, generic = _unmoved_beside_level_2_squares(card)
    assert fast._kernelled[0] and fast._kernel_walk(state)[1] is not None
    assert disagreement(fast, generic, state, seeds=[1, 2, 3]) is None
    assert len(generic.turns(state)) == outcomes


def test_a_later_builder_s_caps_read_without_the_ban_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The later builds' caps read from the heights alone (the ban on domes forgotten) give the
    listing turns the chain does not have: the comparison says so."""
    monkeypatch.setattr(later_builds, "_cap", lambda square, height, allowed: 4 - height)
    state, fast, generic = _unmoved_beside_level_2_squares(NO_DOMES)
    assert disagreement(fast, generic, state, seeds=[1]) is not None


def test_the_unmoved_worker_builds_up_to_three_times_and_equal_boards_are_one() -> None:
    """Poseidon: 'End of your turn: if your unmoved worker is on the ground level, it may build up
    to three times.' Domes on a2, b2, d1, d2, b3, c3, d3; A1 on a1, A2 on c2, all on level 0.
    A1 to b1 builds on a1 or c1; A2 then builds 0-3 times on c1: a1 with 0-3 on c1 (4), and c1
    with 0-3 more on c1 (4: the dome the fourth): 8. A2 to b1 builds on c1 or c2, and A1 (on a1)
    has no free square around it: 2. A2 to c1 builds on b1 or c2, then A1 0-3 times on b1: c2
    with 0-3 on b1 (4), and b1 with 0-3 more (4): 8. By hand, 18; a board reached both ways
    (A2 on c1 building b1, then A1 once on b1, is b1 twice by A1) counted once."""
    fast, generic, state = position(("Poseidon", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "c2", "B2": "e4"},
                                    {}, domes=("a2", "b2", "d1", "d2", "b3", "c3", "d3"), to_move=0)
    assert fast._kernelled[0]  # (drawn by the derived code's kernel: derived/later_builds.py)
    turns = agree(fast, generic, state)
    assert len(turns) == 18, turns
    assert sum(t.startswith("A1 b1 ") for t in turns) == 8 and sum(t.startswith("A2 b1 ") for t in turns) == 2
    # off the ground level, the unmoved worker does not build
    fast, generic, state = position(("Poseidon", "Mortal"), {"A1": "a1", "B1": "e5", "A2": "c2", "B2": "e4"},
                                    {"c2": 1}, domes=("a2", "b2", "d1", "d2", "b3", "c3", "d3"), to_move=0)
    assert sum(t.startswith("A1 b1 ") for t in agree(fast, generic, state)) == 2


def test_two_workers_winning_back_on_their_own_squares_are_one_outcome() -> None:
    """Triton: 'each time your worker moves into a perimeter space, it may immediately move
    again'. A1 on a1 and A2 on e1, both on level 3, with a2 and e2 on level 2: each may step down
    onto the perimeter and move again, back up onto its own square, a win. Both wins leave the
    board as it was, won: one outcome, A1's (the chain's first). A miscount of this, found by a
    random comparison, drew the wrong turn after it."""
    fast, generic, state = position(("Triton", "Mortal"), {"A1": "a1", "B1": "c3", "A2": "e1", "B2": "c4"},
                                    {"a1": 3, "a2": 2, "e1": 3, "e2": 2}, to_move=0)
    agree(fast, generic, state)
    home_wins = [t for t in (format_turn(state, steps) for steps in generic.turns(state))
                 if t in ("move A1 a2; move A1 a1", "move A2 e2; move A2 e1")]
    assert home_wins == ["move A1 a2; move A1 a1"], home_wins


COUNTED_PARTS = ["Ares", "Castor & Pollux", "Clio", "Europa & Talus", "Jason", "Morpheus", "Poseidon", "Triton"]


@pytest.mark.parametrize("card", COUNTED_PARTS)
def test_random_positions_of_the_parts_counted_beside_the_plain_turn(card: str) -> None:
    """Many random positions for each card whose part has a picker of its own (every.py) or a
    kernel of the derived code (a block taken off, a token put on the square built or after the
    build, builds paid from coins, the unmoved worker's builds, a move made again, a worker placed
    from the card),
    with the card's state drawn too (tokens, counters, a worker on the card, a third worker),
    either seat to move: random_positions in test_fast_paths.py are too few to meet what these
    counts are about (a fault in a hand-tuned count of a move made again went unseen there)."""
    rng = random.Random(f"counted parts {card}")
    from santorini.interpreter.games.game import end_of_setup, place_workers
    for trial in range(30):
        cards = (card, "Mortal") if trial % 2 == 0 else ("Mortal", card)
        seat = cards.index(card)
        game, generic = games("bga", cards)
        game = game.restart()
        if card == "Jason":  # (its third worker waits on the card until it is placed)
            squares = rng.sample(range(25), 4)
            place_workers(game, 0, squares[:2])
            place_workers(game, 1, squares[2:])
            end_of_setup(game)
            state = game.state
        else:
            state = GameState(seats=game.state.seats, team_letters=game.state.team_letters)
            names = ["A1", "B1", "A2", "B2"] + (["A3"] if card == "Castor & Pollux" and trial % 5 == 4 else [])
            squares = rng.sample(range(25), len(names))
            for name, square in zip(names, squares, strict=True):
                state.add_worker("AB".index(name[0]), int(name[1]), square, 0, None)
        for square in range(25):
            if state.occupant[square] < 0:
                height = rng.choice([0, 0, 1, 1, 2, 3])
                state.set_height(square, height)
                if height == 3 and rng.random() < 0.2:
                    state.set_dome(square, True)
        empty = [s for s in range(25) if not state.blocked[s]]
        if card == "Morpheus":
            state.set_counter(seat, "coin", rng.choice([0, 1, 2, 3, 5]))
        if card == "Clio":
            for square in rng.sample(empty, rng.randrange(3)):
                state.set_token(square, ("coin", seat))
            state.set_counter(seat, "coin tokens placed", rng.randrange(4))
        if card == "Europa & Talus" and rng.random() < 0.7:
            state.set_token(rng.choice(empty), ("talus", seat))
        state.to_move = rng.randrange(2)
        problem = disagreement(game.engine, generic, state, seeds=[1, 2])
        assert problem is None, problem
