"""Each of the seat's workers taking a step once, in the order the player picks, drawn whole by
the derived code (interpreter/derived/each_worker.py), beside the plain turn (kernel.py's
`alternatives`).

The pairs the two orders make are compared with a brute-force listing written here from the
rules' words (each order written out, a board met before passed over), the kernels with the
generic chain on positions made by hand and counted by hand, and the comparison is shown to
notice a count changed by hand.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_fast_paths import disagreement, game_pair, generic_of, pack_of, playout_disagreement
from test_kernel import kernel_agrees, position
from test_tally import counting, found_apart

from santorini.interpreter.derived import each_worker
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.model.board import parse_square

CASTOR = "Castor & Pollux"


def _bits(bits: int) -> list[int]:
    return [square for square in range(25) if bits >> square & 1]


def brute_force_builds(a: int, a1: int, b: int, b1: int) -> list[frozenset[tuple[int, int]]]:
    """Two workers' builds as the chain lists them: the first worker first, then the second
    first; each outcome the pieces added per square, kept where not met before. `a1`, `b1`:
    where each may build on a square the other just built on (below level 3)."""
    seen: list[frozenset[tuple[int, int]]] = []
    for first, second, again in ((a, b, b1), (b, a, a1)):
        for x in _bits(first):
            for y in _bits((second & ~(1 << x)) | (again & (1 << x))):
                board = frozenset({(x, 2)} if x == y else {(x, 1), (y, 1)})
                if board not in seen:
                    seen.append(board)
    return seen


def brute_force_moves(a: int, b: int, home_a: int, home_b: int, behind_a: bool, behind_b: bool,
                      alike: bool) -> list[tuple[int, int] | frozenset[int]]:
    """Two workers' moves as the chain lists them: the first worker (on `home_a`) first, then
    the second first, each one's targets in square order; each outcome where the two stand (a
    set where the workers are alike), kept where not met before. `behind_a`: whether the second
    may take the first one's square once it has left; `behind_b` the other way round."""
    seen: list[tuple[int, int] | frozenset[int]] = []
    for x in _bits(a):
        for y in sorted([*_bits(b & ~(1 << x)), *([home_a] if behind_a else [])]):
            outcome: tuple[int, int] | frozenset[int] = frozenset((x, y)) if alike else (x, y)
            if outcome not in seen:
                seen.append(outcome)
    for y in _bits(b):
        for x in sorted([*_bits(a & ~(1 << y)), *([home_b] if behind_b else [])]):
            outcome = frozenset((x, y)) if alike else (x, y)
            if outcome not in seen:
                seen.append(outcome)
    return seen


def test_the_pairs_of_builds_are_the_brute_force_listing_in_order() -> None:
    rng = random.Random("each worker builds")
    for _ in range(300):
        around = rng.sample(range(25), 10)
        a = sum(1 << s for s in around[:6] if rng.random() < 0.7)
        b = sum(1 << s for s in around[3:] if rng.random() < 0.7)
        a1 = sum(1 << s for s in _bits(b) if rng.random() < 0.6)
        b1 = sum(1 << s for s in _bits(a) if rng.random() < 0.6)
        expected = brute_force_builds(a, a1, b, b1)
        pairs = each_worker.pairs_of_builds(0, 1, a, a1, b, b1)
        assert [frozenset({(x, 2)} if x == y else {(x, 1), (y, 1)}) for _, _, x, y in pairs] == expected
        assert each_worker.builds_counted(a, a1, b, b1) == len(expected)
        assert [each_worker.nth_pair_of_builds(i, 0, 1, a, a1, b, b1) for i in range(len(pairs))] == pairs


@pytest.mark.parametrize("alike", [True, False])
def test_the_pairs_of_moves_are_the_brute_force_listing_in_order(alike: bool) -> None:
    rng = random.Random(f"each worker moves {alike}")
    for _ in range(300):
        home_a, home_b, *around = rng.sample(range(25), 10)
        a = sum(1 << s for s in around[:6] if rng.random() < 0.7)
        b = sum(1 << s for s in around[2:] if rng.random() < 0.7)
        behind_a, behind_b = rng.random() < 0.5, rng.random() < 0.5
        positions = [home_a, home_b]
        expected = brute_force_moves(a, b, home_a, home_b, behind_a, behind_b, alike)
        pairs = each_worker.pairs_of_moves(0, 1, a, behind_b, b, behind_a, positions, alike)
        ends = [(x, y) if first == 0 else (y, x) for first, x, _, y in pairs]
        assert [frozenset(end) if alike else end for end in ends] == expected
        assert each_worker.moves_counted(a, behind_b, b, behind_a, positions, 0, 1, alike) == len(expected)
        assert [each_worker.nth_pair_of_moves(i, 0, 1, a, behind_b, b, behind_a, positions, alike)
                for i in range(len(pairs))] == pairs


#: A1 on a1 may go to a2, b1, b2; A2 on c1 to b1, b2, c2 (domes on d1, d2, a3, b3, c3).
ALIKE = """\
name: each of the workers moves, or builds
edition: bga
players: [Castor & Pollux, {other}]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0D 0D 0D 0 0
  0 0 0 0D 0
  0 0 0 0D 0
workers: {{A1: a1, A2: c1, B1: e5, B2: e4}}
to_move: A
"""


@pytest.mark.parametrize(("other", "outcomes"), [("Mortal", 37), ("Limus", 36), ("Hera", 37)])
def test_each_worker_moves_or_builds_beside_the_plain_turn(tmp_path: Path, other: str, outcomes: int) -> None:
    """'Alternative Turn: move with all of your workers, do not build' and '... do not move, build
    with all of your workers', after the plain turn, drawn by the kernels against a Mortal and
    against cards that bind the seat (Limus's ban of builds next to his workers; Hera's veto of
    wins). By hand: the plain turn has 3 + 4 + 4 turns of A1 and 4 + 4 + 4 of A2 (23). Moving both
    leaves two of a2, b1, b2, c2 taken, a set (A1 and A2 are alike): {a2 b1}, {a2 b2}, {a2 c2},
    {b1 b2}, {b1 c2}, {b2 c2} (6). Building with both puts a piece around a1 and one around c1:
    3 x 3 pairs, {b1 b2} once, b1 twice and b2 twice (8). 37 turns; against Limus, whose worker
    on e4 stands next to d3, A2 on c2 may not build on d3: 36."""
    state = position(tmp_path, ALIKE.format(other=other))
    game, _ = kernel_agrees((CASTOR, other), state, outcomes)
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0)


def test_a_ban_on_the_highest_worker_leaves_no_turn_of_each_worker_s_move(tmp_path: Path) -> None:
    """Against Hypnus ('opponent workers cannot move while higher than all their other workers')
    with c1 raised to level 1: A2 stands higher than A1, so it may not move. By hand: the usual
    turn is A1's alone, to a2 (then a build on a1, b1 or b2), b1 (a1, a2, b2, c2) or b2 (a1,
    a2, b1, c2): 11; moving both has no turn (A2 cannot take its move); building with both is as
    before: 8. 19 turns, drawn whole (the ban is judged where the workers stood as the turn
    started, which no move changes)."""
    text = ALIKE.format(other="Hypnus").replace("  0 0 0 0D 0\n  0 0 0 0D 0\n", "  0 0 0 0D 0\n  0 0 1 0D 0\n")
    state = position(tmp_path, text)
    game, _ = kernel_agrees((CASTOR, "Hypnus"), state, 19)
    a2 = state.worker_names.index("A2")
    assert not any(step[0] == "move" and step[1] == a2 for turn in game.engine.turns(state) for step in turn)


def test_a_position_where_a_move_may_win_is_drawn_whole(tmp_path: Path) -> None:
    """A2 on c1 (level 2) beside d1 (level 3): its move there wins and ends the turn. By hand,
    moving both: A1 first to b1, a2 or b2 (no win), then A2 to b1, b2, c2 or d1 but where A1
    went: 3 + 4 + 3 pairs, of which A1 on b2 and A2 on b1 is the board of A1 on b1 and A2 on b2
    (the two are alike): 9 boards, the three with A2 on d1 won; A2 first adds none (its move to
    d1 is the usual turn's win, listed before; the others meet boards of A1 first). So the turns
    of two moves are 9, the win of one move is the usual turn's alone, and the kernels draw every
    index as the chain lists it."""
    text = ALIKE.format(other="Limus").replace("  0 0 0 0D 0\n  0 0 0 0D 0\n", "  0 0 0 0D 0\n  0 0 2 3 0\n")
    state = position(tmp_path, text)
    game, generic = kernel_agrees((CASTOR, "Limus"), state)
    turns = game.engine.turns(state)
    both = [turn for turn in turns if len(turn) == 2 and all(step[0] == "move" for step in turn)]
    assert len(both) == 9
    d1 = parse_square("d1")
    assert sum(1 for turn in both if turn[1][2] == d1) == 3
    a2 = state.worker_names.index("A2")
    assert [turn for turn in turns if len(turn) == 1 and turn[0][0] == "move"] == [(("move", a2, d1),)]
    assert game.engine.can_win(state) and generic.can_win(state)


def test_a_count_that_keeps_both_orders_of_alike_workers_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alike workers on two squares either way round are one board: a count that keeps both
    orders counts and draws such a pair twice."""
    monkeypatch.setattr(each_worker, "_seconds",
                        lambda low, first, second, same, home, unordered: (second & ~low) | (same & low) | home)
    assert found_apart("bga", (CASTOR, "Limus"), examples=25)


def test_a_count_that_forgets_a_second_block_on_the_others_square_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second worker may build on the block the first just built: a count that leaves those
    boards out lists too few."""
    monkeypatch.setattr(each_worker, "_seconds",
                        lambda low, first, second, same, home, unordered: (second & ~low) | home)
    assert found_apart("bga", (CASTOR, "Limus"), examples=25)


#: Castor & Pollux against Harpies (tests/scenarios/bga/castor-and-pollux-harpies.yaml, counted
#: by hand there): each worker's move slid on, the second one's slide stopped by the square the
#: first one ended on.
HARPIES = Path(__file__).parent / "scenarios" / "bga" / "castor-and-pollux-harpies.yaml"


def test_each_worker_moves_slid_on_by_another_seat_are_drawn_whole(tmp_path: Path) -> None:
    """Harpies slide each of A's moved workers on: the kernels list the 17 turns of the scenario
    (9 of the usual turn, 5 of both workers' moves, 3 of both workers' builds) in the chain's
    order and draw as it does. Both moves: A1 first slides over b1 c1 d1 to e1; A2 first to c1
    stops A1's slide on b1, to d1 stops it on c1."""
    state = position(tmp_path, HARPIES.read_text(encoding="utf-8"))
    game, _ = kernel_agrees((CASTOR, "Harpies"), state, 17)
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0)
    both = [turn for turn in game.engine.turns(state) if len(turn) == 2 and all(step[0] == "move" for step in turn)]
    assert len(both) == 5


def test_a_slide_that_passes_the_square_the_other_worker_took_is_caught(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    """The second worker's slide stops before the square the first one moved to, which the
    state does not show yet: a slide told nothing of it would take A1 on to e1 after A2's move to
    c1 or d1, boards met before, and the kernels would list 3 turns of two moves, not 5."""
    made = each_worker.slide_function

    def blind(compiler):  # noqa: ANN001, ANN202 - the patched function's own signature
        slide = made(compiler)
        return None if slide is None else lambda walk, w, o, t, v, x, r: slide(walk, w, o, t, v, -1, r)
    monkeypatch.setattr(each_worker, "slide_function", blind)
    state = position(tmp_path, HARPIES.read_text(encoding="utf-8"))
    pair = game_pair(pack_of("bga"), (CASTOR, "Harpies"))  # (made afresh: compiled with the change)
    assert pair is not None
    game, generic = counting(pair[0]), pair[1]
    both = [turn for turn in game.engine.turns(state) if len(turn) == 2 and all(step[0] == "move" for step in turn)]
    assert len(both) == 3
    assert disagreement(game.engine, generic, state, range(20)) is not None


#: Castor & Pollux against Chronus ('you also win when there are at least five complete towers
#: on the board'): four stand, c3 between A1 and A2 is on level 2, no other space on level 3.
FIFTH_TOWER = """\
name: two builds on one space of level 2 make the fifth complete tower
edition: bga
players: [Castor & Pollux, Chronus]
board: |
  3D 0 0 0 3D
  0 0 0 0 0
  0 0 2 0 0
  0 0 0 0 0
  3D 0 0 0 3D
workers: {A1: b3, A2: d3, B1: a2, B2: e2}
to_move: A
"""


def test_two_builds_that_may_complete_a_tower_on_one_space_leave_the_position_to_the_chain(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of A's workers builds: A1 a block on c3 (level 3), then A2 the dome on it, the fifth
    complete tower, which makes Chronus win. No space stands on level 3 yet, but two builds on
    one space may make a tower: the kernels leave the position to the chain (`board_win_near`,
    anywhere), which judges the win. Kernels that looked for level-3 spaces only would draw
    that turn as a turn that goes on."""
    state = position(tmp_path, FIFTH_TOWER)
    pair = game_pair(pack_of("bga"), (CASTOR, "Chronus"))
    assert pair is not None
    game, generic = counting(pair[0]), pair[1]
    assert game.engine._kernels[0] is not None and game.engine._kernel_walk(state)[1] is None
    names = state.worker_names
    both = (("build", names.index("A1"), parse_square("c3")), ("build", names.index("A2"), parse_square("c3")))
    assert generic.play(state, both).winner == state.seats[1].team
    assert disagreement(game.engine, generic, state, range(20)) is None
    assert all(playout_disagreement(game, generic, state, seed) is None for seed in range(40))
    near = each_worker.board_win_near
    monkeypatch.setattr(each_worker, "board_win_near", lambda compiler, builds, anywhere=False: near(compiler, builds))
    pair = game_pair(pack_of("bga"), (CASTOR, "Chronus"))
    assert pair is not None
    blind = counting(pair[0])
    assert blind.engine._kernel_walk(state)[1] is not None
    assert any(playout_disagreement(blind, generic, state, seed) is not None for seed in range(40))


def test_each_worker_builds_after_a_move_are_drawn_whole() -> None:
    """Dimera (tests/invented): 'one of your workers moves, not up. each of your workers builds.'
    beside the usual turn: per move, the two workers' builds counted as each worker's builds are,
    with the mover where it went (dimera-flat-move-both-build.yaml: 15 usual turns and 13 of
    Dimera's, counted by hand), in the chain's order, drawn as it draws."""
    path = Path(__file__).parent / "scenarios" / "invented" / "dimera-flat-move-both-build.yaml"
    game = load_scenario(path).game
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0)
    generic = generic_of(game)
    turns = game.engine.turns(game.state)
    assert len(turns) == 28 and turns == generic.turns(game.state)
    assert sum(1 for turn in turns if len(turn) == 3) == 13
    assert disagreement(game.engine, generic, game.state, range(28)) is None


def test_each_worker_builds_after_a_move_under_a_ban_on_moves(tmp_path: Path) -> None:
    """Dimera against Hypnus ('an opponent worker higher than all their other workers cannot
    move'): in dimera-flat-move-both-build.yaml's position with c1 raised to level 1, A2 (on c1)
    stands higher than A1 and may not move; the kernels find the same turns as the chain, in its
    order (a ban on moves read once per mover in the generated masks)."""
    path = Path(__file__).parent / "scenarios" / "invented" / "dimera-flat-move-both-build.yaml"
    text = path.read_text(encoding="utf-8").replace("players: [Dimera, Mortal]", "players: [Dimera, Hypnus]")
    pack_folder = path.parent.parent.parent / "invented" / "inventions"
    text = text.replace("  0 1 0 0D 0\n", "  0 1 1 0D 0\n").replace("edition: ../../invented/inventions",
                                                                 f"edition: {pack_folder}")
    text = text[:text.index("expect:")]
    state = position(tmp_path, text)
    game = load_scenario(tmp_path / "position.yaml").game
    generic = generic_of(game)
    a2 = state.worker_names.index("A2")
    turns = game.engine.turns(state)
    assert turns and turns == generic.turns(state)
    assert not any(step[0] == "move" and step[1] == a2 for turn in turns for step in turn)
    assert disagreement(game.engine, generic, state, range(12)) is None


@pytest.mark.parametrize(("scenario", "outcomes"), [
    ("terpsichore-all-move-then-all-build.yaml", 9),
    ("terpsichore-both-build-on-one-space.yaml", 8),
    ("terpsichore-either-move-may-win.yaml", 2),
])
def test_each_worker_builds_after_each_worker_s_move_are_drawn_whole(scenario: str, outcomes: int) -> None:
    """Terpsichore ('each of your workers moves. each of your workers builds.', in place of the
    usual turn): per board the moves leave, in the moves' order (each board once, a winning move
    ending the turn), the two workers' builds counted there; the outcomes counted by hand in the
    scenario files, in the chain's order, drawn as it draws."""
    game = load_scenario(Path(__file__).parent / "scenarios" / "bga" / scenario).game
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0)
    generic = generic_of(game)
    turns = game.engine.turns(game.state)
    assert len(turns) == outcomes and turns == generic.turns(game.state)
    assert disagreement(game.engine, generic, game.state, range(2 * outcomes)) is None

