"""Walks on a level drawn whole (interpreter/derived/walks.py): 'if your workers do not move up or
down, they may each move any number of times (even zero), and then either builds'.

Positions made for the count: a corridor of one level, a corridor with a side square where the
two workers can pass each other, a worker boxed in, workers that cannot walk at all, and random
positions, flat or built up. On each the derived kernels must agree with the generic chain
(`disagreement`: outcomes, order, every index of the draw, the state after each turn), the
count must be what is counted here by hand, and the turns must be what the text says: no walk
goes up or down, a turn with a move up or down is the usual turn. Positions the kernels leave to
the chain (workers told apart, a lone worker, walks that may go down) are named, and agree too.
"""

from __future__ import annotations

import inspect
import random
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import _Drawn, _left, compiled, disagreement, games, positions
from test_masked_picker import position
from test_tally import counted_games, found_apart

from santorini.interpreter.derived import walks
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.model.board import ALL_BITS, NEIGHBOURS, SQUARES, parse_square, square_name
from santorini.interpreter.model.state import GameState, TurnRecord

WALKER = "Walker"
WALKS = "Your Turn:\n  your workers may move any number of times, not up or down.\n  one of your workers builds.\n"


def walls(workers: dict[str, str], open_squares: str) -> tuple[str, ...]:
    """Every square but the workers' and `open_squares`."""
    keep = {parse_square(s) for s in (*workers.values(), *open_squares.split())}
    return tuple(square_name(s) for s in SQUARES if s not in keep)


def walled(workers: dict[str, str], open_squares: str, heights: dict[str, int] | None = None,
           cards: tuple[str, str] = ("Hermes", "Mortal"), females: tuple[str, ...] = ()):
    """Hermes (seat A, to move) with every square domed but the workers' and `open_squares`."""
    return position(cards, workers, heights or {}, walls(workers, open_squares), to_move=0, females=females)


def served(engine: Engine, state: GameState) -> bool:
    """Whether the kernels of the seat to move draw its turn on `state` (else the chain does)."""
    seat = state.to_move
    assert engine._kernelled[seat], "the seat should be drawn by its kernels"
    return engine._kernel_walk(state)[1] is not None


def agree(fast: Engine, generic: Engine, state: GameState, drawn_whole: bool = True) -> list[tuple]:
    """Check that the kernels draw this seat's turn (or, not `drawn_whole`, leave it to the
    chain) and agree with the generic chain; return the generic chain's turns."""
    assert served(fast, state) is drawn_whole
    problem = disagreement(fast, generic, state, seeds=[1, 2, 3])
    assert problem is None, problem
    return generic.turns(state)


def ends(state: GameState, steps: tuple) -> tuple[frozenset[int], int]:
    """Where the mover's workers stand after a turn (as a set: the two are alike) and the square
    built on."""
    where = {w: state.worker_pos[w] for w in state.members[state.seats[state.to_move].team]}
    for verb, worker, square in steps:
        if verb == "move":
            where[worker] = square
    return frozenset(where.values()), steps[-1][2]


def follows_the_text(state: GameState, turns: list[tuple]) -> None:
    """No walk goes up or down: a move that changes level is the plain turn's only move, and the
    worker that made it builds (or it won)."""
    for steps in turns:
        at = dict(enumerate(state.worker_pos))
        moves = []
        for verb, worker, square in steps:
            if verb == "move":
                moves.append((at[worker], square))
                at[worker] = square
        if any(state.heights[a] != state.heights[b] for a, b in moves):
            assert len(moves) == 1 and (len(steps) == 1 or steps[1][1] == steps[0][1]), steps


def test_a_corridor_of_one_level_where_the_workers_cannot_pass() -> None:
    """A1 on a1 and A2 on e1, a corridor a1-e1, every other square domed (B's workers on a5 and
    e5). The two can stand on any two of the five squares (A1 always on the left): a build on
    an end square is next to 3 of the C(4, 2) = 6 pairs off it (3 pairs have no worker next to
    it), one on a middle square next to 5 of them: 3 + 5 + 5 + 5 + 3 = 21 outcomes, of which the
    4 plain turns (a step in, a build on either side) are four."""
    fast, generic, state = walled({"A1": "a1", "B1": "a5", "A2": "e1", "B2": "e5"}, "b1 c1 d1")
    turns = agree(fast, generic, state)
    assert len(turns) == 21 and len({ends(state, t) for t in turns}) == 21
    assert turns[:4] == [(("move", 0, 1), ("build", 0, 0)), (("move", 0, 1), ("build", 0, 2)),
                         (("move", 2, 3), ("build", 2, 2)), (("move", 2, 3), ("build", 2, 4))]
    for steps in turns:
        at = {0: 0, 2: 4}
        for _verb, worker, square in steps[:-1]:
            at[worker] = square
        assert at[0] < at[2]  # neither passes the other
    follows_the_text(state, turns)


def test_a_side_square_lets_the_workers_pass() -> None:
    """The corridor a1-e1 and b2 beside it: six squares, and two workers alike can stand on any
    two of them (C(6, 2) = 15 sets). A build on s is next to C(5, 2) - C(5 - m, 2) of the sets
    off s, m its neighbours among the six: a1 2, b1 3, c1 3, d1 2, e1 1, b2 3, so
    7 + 9 + 9 + 7 + 4 + 9 = 45 outcomes; the 8 plain turns are among them."""
    fast, generic, state = walled({"A1": "a1", "B1": "a5", "A2": "e1", "B2": "e5"}, "b1 c1 d1 b2")
    turns = agree(fast, generic, state)
    assert len(turns) == 45 and len({ends(state, t)[0] for t in turns}) == 15
    follows_the_text(state, turns)


def test_a_worker_boxed_in_leaves_the_walks_to_the_other() -> None:
    """A1 on the corridor a1-e1, A2 on c3 with every square around it domed: A1 walks to each of
    the five squares and builds next to it, 1 + 2 + 2 + 2 + 1 = 8 outcomes; A2 neither moves nor
    builds."""
    fast, generic, state = walled({"A1": "a1", "B1": "a5", "A2": "c3", "B2": "e5"}, "b1 c1 d1 e1")
    turns = agree(fast, generic, state)
    assert len(turns) == 8
    assert all(worker == 0 for steps in turns for _, worker, _ in steps)
    assert max(len(steps) for steps in turns) == 5  # four moves to e1, then a build on d1


def test_workers_that_cannot_walk_build_where_they_stand() -> None:
    """A1 on level 0 on a1, its three neighbours on level 1; A2 on level 2 on e5, its three on
    level 1. No walk (every step is up or down): the walks' outcomes are the 6 builds next to
    the workers where they stand (zero moves), after the plain turn's 6 moves of 3 builds each."""
    levels = {"a2": 1, "b1": 1, "b2": 1, "e5": 2, "d5": 1, "e4": 1, "d4": 1}
    fast, generic, state = walled({"A1": "a1", "B1": "c3", "A2": "e5", "B2": "a5"}, "a2 b1 b2 d5 e4 d4", levels)
    turns = agree(fast, generic, state)
    assert len(turns) == 18 + 6
    assert all(len(steps) == 2 for steps in turns[:18])
    assert sorted(steps[0][2] for steps in turns[18:]) == sorted(parse_square(s) for s in "a2 b1 b2 d5 e4 d4".split())
    follows_the_text(state, turns)


def test_an_opponent_that_forbids_moving_up_binds_the_plain_moves() -> None:
    """Athena moved up on her last turn: Hermes' plain turn may not move up (to a1); the walks,
    which never do, are as before."""
    fast, generic, state = walled({"A1": "b2", "B1": "d4", "A2": "c3", "B2": "e5"}, "a1 b1 c2 d3 c4 d5",
                                  {"a1": 1, "d4": 1, "d5": 1}, ("Hermes", "Athena"))
    state.history.append(TurnRecord((1, (("move", 1, 18), ("build", 1, 23)),
                                     (("move", 1, 17, 18, 0, 1), ("build", 1, 23, 1, False)))))
    assert fast._forbidden(state, 0) == (True, False)
    turns = agree(fast, generic, state)
    assert not any(step[2] == 0 for steps in turns for step in steps if step[0] == "move")
    assert any(len(steps) > 2 for steps in turns)
    follows_the_text(state, turns)


def test_workers_of_two_classes_and_a_lone_worker_are_left_to_the_chain() -> None:
    """Workers told apart (a female and a male) swapped are another state, not the same one; a
    team with one worker on the board walks alone: the kernels count neither, the chain lists
    both."""
    open_squares = "b2 d2 b3 d3 d1"  # around c2 and c3; d1 on level 1
    fast, generic, state = walled({"A1": "c2", "B1": "a1", "A2": "c3", "B2": "e5"}, open_squares, {"d1": 1},
                                  females=("A1",))
    swapped = state.copy()
    for worker, square in ((0, 13), (2, 7), (0, 12)):
        swapped.relocate(worker, square)
    assert swapped.hash != state.hash
    turns = agree(fast, generic, state, drawn_whole=False)
    assert 20 < len(turns) < 200
    follows_the_text(state, turns)
    fast, generic, state = walled({"A1": "c2", "B1": "a1", "B2": "e5"}, open_squares + " c3", {"d1": 1})
    turns = agree(fast, generic, state, drawn_whole=False)
    assert 5 < len(turns) < 50 and all(worker == 0 for steps in turns for _, worker, _ in steps)


def test_the_kernels_take_the_walks_beside_the_usual_turn_and_nothing_more() -> None:
    """Hermes in every pack, and the same text as an author's card, is drawn whole; so it is
    against an opponent whose parts bind it (Hera's veto of wins on the perimeter, Hypnus's ban
    on the highest worker's moves, Limus's ban on builds). A dome at any level or a second build
    after the walks' build leaves the walks to the chain; walks that may go down are drawn
    whole only where no worker can step down."""
    for pack in ("bga", "pantheon", "first-edition"):
        engine = new_game(load_pack(pack), parse_players(["Hermes", "Mortal"])).engine
        assert engine._kernelled[0] and engine._pickers[0] is None, pack
    for opponent in ("Hera", "Hypnus", "Limus"):
        assert new_game(load_pack("bga"), parse_players(["Hermes", opponent])).engine._kernelled[0], opponent
    base = load_pack("bga").base.power
    assert Engine(base, [[compiled(WALKS, WALKER)], []])._kernels[0] is not None
    second_build = "after your worker builds, it may build one additional time, not on the same space."
    for extra in ("Your Build:\n  your worker may build a dome at any level.\n", f"Your Build:\n  {second_build}\n"):
        assert Engine(base, [[compiled(WALKS + extra, WALKER)], []])._kernels[0] is None, extra
    down = WALKS.replace("not up or down", "not up")
    game, generic = games("bga", ("Hermes", "Mortal"))
    fast = Engine(base, [[compiled(down, WALKER)], [card.power for card in game.cards[1]]],
                  teams=[seat.team for seat in game.state.seats])
    generic = Engine(base, [[compiled(down, WALKER)], [card.power for card in game.cards[1]]],
                     teams=[seat.team for seat in game.state.seats], fast=False)
    flat = GameState(seats=game.state.seats, team_letters=game.state.team_letters)
    for index, name in enumerate(("b3", "c4", "d3", "c2")):
        flat.add_worker(index % 2, index // 2 + 1, parse_square(name))
    assert served(fast, flat)
    stepped = flat.copy()
    stepped.set_height(parse_square("b3"), 1)  # (A1 may step down from b3: the chain's)
    assert not served(fast, stepped)
    for state in (flat, stepped):
        assert disagreement(fast, generic, state, seeds=[1, 2]) is None


@pytest.mark.parametrize("cards", [("Hermes", "Mortal"), ("Mortal", "Hermes"), ("Hermes", "Athena"),
                                   ("Hermes", "Minotaur"), ("Apollo", "Hermes"), ("Hermes", "Hypnus"),
                                   ("Limus", "Hermes"), ("Hermes", "Chronus"), ("Clio", "Hermes"),
                                   ("Hermes", "Europa & Talus"), ("Hera", "Hermes"), ("Hermes", "Aphrodite")])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=positions())
def test_random_positions_agree_with_the_chain(cards: tuple[str, str], place) -> None:  # noqa: ANN001
    game, generic = games("bga", cards)
    state = place.on(GameState(seats=game.state.seats, team_letters=game.state.team_letters))
    hermes = cards.index("Hermes")
    state.to_move = hermes
    assert game.engine._kernelled[hermes]
    problem = disagreement(game.engine, generic, state, seeds=[1, 2, 3])
    assert problem is None, problem
    follows_the_text(state, generic.turns(state))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_wide_levels_every_index_is_the_listed_turn(seed: int) -> None:
    """Boards of few levels, where the workers' components are wide and the walks many (up to
    thousands of outcomes): every index of the count is the listed turn, and a few of them
    played give the generic chain's state."""
    game, generic = games("bga", ("Hermes", "Mortal"))
    state = GameState(seats=game.state.seats, team_letters=game.state.team_letters)
    rng = random.Random(seed)
    squares = rng.sample(SQUARES, 4)
    for square in SQUARES:
        state.set_height(square, rng.choice((0, 0, 0, 0, 1, 2)))
        if square not in squares and rng.randrange(15) == 0:
            state.set_dome(square, True)
    for index, square in enumerate(squares):
        state.add_worker(index % 2, index // 2 + 1, square)
    fast = game.engine
    turns = generic.turns(state)
    assert fast.turns(state) == turns
    for index in range(len(turns)):
        drawn = _Drawn(index)
        assert fast.random_turn(state, drawn) == turns[index], index
        assert (drawn.bound, drawn.calls) == (len(turns), 1)
    for index in random.Random(len(turns)).sample(range(len(turns)), min(4, len(turns))):
        played = state.copy()
        fast.play_in_place(played, fast.random_turn(played, _Drawn(index)))
        assert _left(played) == _left(generic.play(state, turns[index]))
    follows_the_text(state, turns)


def test_the_flat_start_reaches_every_set_of_two_squares() -> None:
    """On the empty board of S0 (A on b3 and d3, B on c4 and c2) the two workers can stand on
    any two of the 23 squares B leaves, and the plain turn's outcomes are among the walks': the
    count is that of (two squares, a free square next to one of them), made here by brute force
    without any walk."""
    game, generic = games("bga", ("Hermes", "Mortal"))
    state = GameState(seats=game.state.seats, team_letters=game.state.team_letters)
    for index, name in enumerate(("b3", "c4", "d3", "c2")):
        state.add_worker(index % 2, index // 2 + 1, parse_square(name))
    free = [s for s in SQUARES if s not in (parse_square("c4"), parse_square("c2"))]
    expected = sum(1 for a in free for b in free if a < b
                   for s in free if s not in (a, b) and (s in NEIGHBOURS[a] or s in NEIGHBOURS[b]))
    turns = generic.turns(state)
    assert len(turns) == expected
    for index in range(len(turns)):
        assert game.engine.random_turn(state, _Drawn(index)) == turns[index], index


def test_an_obligation_on_one_worker_s_last_move_is_kept_by_the_walks() -> None:
    """Aphrodite (B1 on a2): 'if an opponent worker starts its turn neighboring your workers, its
    last move must be to a space neighboring your workers'. A1 starts on a1, next to her, A2 on
    e1, not; the corridor a1-e1 with b2 beside it. The two are alike, yet told apart by the
    obligation: a board is a turn only where A1, if it moved, ends on a1, b1 or b2 (next to a2);
    the chain keeps it at the first state of its search where the two stand so. Drawn whole, as
    the chain lists it; every turn in which A1 moves ends with A1 next to a2."""
    fast, generic, state = walled({"A1": "a1", "B1": "a2", "A2": "e1", "B2": "e5"}, "b1 c1 d1 b2",
                                  cards=("Hermes", "Aphrodite"))
    turns = agree(fast, generic, state)
    near = {parse_square(name) for name in ("a1", "b1", "b2")}
    walked = 0
    for steps in turns:
        moves = [square for verb, worker, square in steps if verb == "move" and worker == 0]
        if moves:
            assert moves[-1] in near, steps
            walked += len(steps) > 2
    assert walked  # (walks of A1 too, not the usual turn alone)


def test_walks_that_forget_the_obligation_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same position with the obligation forgotten by the kernels (both workers free to end
    anywhere): the comparison says so."""
    walked = walks._walked

    def forgetful(st: GameState, masks: walks.Masks) -> walks.Walked | None:
        at = walked(st, masks)
        return None if at is None else (*at[:10], ALL_BITS, ALL_BITS)
    monkeypatch.setattr(walks, "_walked", forgetful)
    fast, generic, state = walled({"A1": "a1", "B1": "a2", "A2": "e1", "B2": "e5"}, "b1 c1 d1 b2",
                                  cards=("Hermes", "Aphrodite"))
    assert disagreement(fast, generic, state, seeds=[1]) is not None


def test_walks_that_keep_the_usual_turns_boards_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison notices a search that forgets to leave out the boards the usual turn
    listed first (the count still leaves them out: the indices then fall on other turns)."""
    counted_games("bga", ("Hermes", "Limus"))  # (the cached games are made before the change)
    search = walks._search
    monkeypatch.setattr(walks, "_search", lambda at, out, index, found: search(at, {}, index, found))
    assert found_apart("bga", ("Hermes", "Limus"), examples=25)


def test_a_count_of_the_walks_off_by_one_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison notices a count of the walks one too many."""
    counted_games("bga", ("Hermes", "Mortal"))
    count = walks.counted
    monkeypatch.setattr(walks, "counted", lambda at: count(at) + 1)
    try:
        apart = found_apart("bga", ("Hermes", "Mortal"), examples=25)
    except AssertionError as error:  # (a draw past the outcomes there are: the search says so)
        apart = "a counted walk was not found" in str(error)
    assert apart


def _walked_at(rng: random.Random) -> tuple[walks.Walked, walks.Excluded]:
    """A random position as the kernels serve it, made from squares only: one level's squares
    the two walk in (one component, or two levels' apart), squares they may end on alike, the
    build's squares, and boards an earlier program listed some builds of."""
    s1, s2 = rng.sample(range(25), 2)
    if rng.randrange(2):
        t1 = t2 = sum(1 << s for s in range(25) if rng.randrange(3)) | 1 << s1 | 1 << s2
    else:
        t1 = sum(1 << s for s in range(25) if rng.randrange(3)) & ~(1 << s2) | 1 << s1
        t2 = sum(1 << s for s in range(25) if rng.randrange(2)) & ~t1 | 1 << s2
    r1 = walks._component(s1, t1)
    one = bool(r1 >> s2 & 1)
    r2 = r1 if one else walks._component(s2, t2)
    ends = ALL_BITS if rng.randrange(2) else sum(1 << s for s in range(25) if rng.randrange(4)) | 1 << s1 | 1 << s2
    bb = sum(1 << s for s in range(25) if rng.randrange(4))
    out = {1 << a | 1 << b: rng.getrandbits(25) for a, b in (rng.sample(range(25), 2) for _ in range(rng.randrange(4)))}
    return (0, s1, r1, t1, 1, s2, r2, t2, bb, one, ends, ends), out


def _searches_apart(at: walks.Walked, out: walks.Excluded) -> str | None:
    """Where the search of boards (`_search_alike`) and the search of states that tells the
    workers apart (`_search_told_apart`) differ on a position whose workers may end alike: in
    the listing, or at some index of the draw (every one, and one past the last)."""
    listed: list[walks.Found] = []
    told: list[walks.Found] = []
    walks._search_alike(at, out, 0, listed)
    walks._search_told_apart(at, out, 0, told)
    if listed != told:
        return f"listings differ: {len(listed)} v {len(told)}"
    for index in range(len(told) + 1):
        alike, apart = walks._search_alike(at, out, index, None), walks._search_told_apart(at, out, index, None)
        if alike != apart:
            return f"index {index}: {alike} v {apart}"
    return None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_search_of_boards_lists_as_the_search_of_states(seed: int) -> None:
    """Where both workers may end on the same squares the draw searches boards, each reached
    once (`_search_alike`, the docstring says why that is the chain's order): on random regions
    it finds what the search that keeps every (board, last worker to move) finds, index by
    index."""
    at, out = _walked_at(random.Random(seed))
    assert _searches_apart(at, out) is None


def test_a_search_of_boards_that_forgets_the_board_the_other_way_round_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison notices a search of boards that marks a board reached under one of its
    squares only: the board is then reached again from the other square, and listed twice."""
    source = textwrap.dedent(inspect.getsource(walks._search_alike))
    assert source.count("seen[to] |= bit") == 2
    mutant: dict[str, object] = {}
    exec(source.replace("seen[to] |= bit", "pass  # "), vars(walks), mutant)  # noqa: S102
    monkeypatch.setattr(walks, "_search_alike", mutant["_search_alike"])
    rng = random.Random(5)
    assert any(_searches_apart(*_walked_at(rng)) for _ in range(20))
