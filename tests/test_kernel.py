"""The whole turn drawn by one generated function (interpreter/derived/kernel.py).

A seat whose only turn program is a move and then the moved worker's counted build draws its
random turn with a kernel: a first pass counts each move's outcomes, the index is drawn, and only
the move it falls in is looked at again. Here the kernel's draws are compared with the generic
chain's listing, card by card against opponents whose rules bind the seat (a prohibition, a veto,
an obligation), and the comparison is shown to notice a kernel broken by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import (
    MORTAL,
    PERFT_WORK_PER_CARD,
    PHASES,
    SCALE,
    SEEDS,
    assert_agree,
    compiled,
    disagreement,
    generic_of,
    states,
)
from test_tally import counted_games, counting, found_apart

from santorini.dsl.vocabulary import Step
from santorini.interpreter.derived import last_choice, later_builds, repeated_moves, two_builds, two_moves, writer
from santorini.interpreter.derived import steps as steps_module
from santorini.interpreter.derived.after_build import LaterBuilds, TokenOnBuilt
from santorini.interpreter.derived.masks import LEVELS
from santorini.interpreter.engine import engine as engine_module
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.model.board import ALL_BITS, parse_square
from santorini.interpreter.model.state import GameState
from support import REPO

#: Cards of bga whose rules bind another seat's turn: a prohibition on moves (Athena, Hypnus) or
#: builds (Limus), a veto of a win (Hera), an obligation (Aphrodite, and Persephone's 'if
#: possible'), a reaction to moves (Harpies).
BINDERS = ("Aphrodite", "Athena", "Harpies", "Hera", "Hypnus", "Limus", "Persephone")
#: Cards of bga that draw with a kernel, the Mortal first.
KERNEL_CARDS = (MORTAL, "Aphrodite", "Apollo", "Ares", "Artemis", "Athena", "Atlas", "Castor & Pollux", "Chronus",
                "Clio", "Demeter", "Europa & Talus", "Graeae", "Hades", "Harpies", "Hephaestus", "Hera", "Hermes",
                "Hestia", "Hypnus", "Jason", "Limus", "Maenads", "Medusa", "Minotaur", "Morpheus", "Pan", "Pegasus",
                "Persephone", "Poseidon", "Prometheus", "Selene", "Triton", "Zeus")
#: Walks beside the usual turn, and a dome at any level for both: the walks' build has two ways.
WALKS_WITH_A_DOME = ("Your Turn:\n  your workers may move any number of times, not up or down.\n"
                     "  one of your workers builds.\nYour Build:\n  your worker may build a dome at any level.\n")
#: Positions drawn for each pairing.
POSITIONS = 6 * SCALE


@cache
def kernels_of(seats: tuple[str, ...]) -> list[bool]:
    game, _ = counted_games("bga", seats)
    return [kernel is not None for kernel in game.engine._kernels]


def position(tmp_path: Path, text: str) -> GameState:
    """The position of a scenario's text (written to a file, as an author would)."""
    path = tmp_path / "position.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path).game.state


def kernel_agrees(seats: tuple[str, ...], state: GameState, outcomes: int | None = None) -> tuple[Game, Engine]:
    """The first seat is drawn by its kernel, whose turns on `state` (`outcomes` of them,
    where given) are the generic chain's, in its order, and whose draws are the chain's."""
    game, generic = counted_games("bga", seats)
    assert game.engine._kernelled[0]
    turns = game.engine.turns(state)
    if outcomes is not None:
        assert len(turns) == outcomes
    assert turns == generic.turns(state)
    assert game.engine.perft(state, 1) == generic.perft(state, 1)  # (counted by the kernel: perft's last ply)
    assert disagreement(game.engine, generic, state, range(20)) is None
    return game, generic


def test_the_seats_of_a_move_then_its_build_draw_with_a_kernel() -> None:
    """A move and the moved worker's build, with any filters, bindings or facts kept, ways
    around the worker (into an opponent's space, forcing it: Apollo, Minotaur; with their own
    climb: Pegasus), and a second move the worker may make before it (Artemis), make a kernel; a
    way over a worker or an optional build do not (a once-per-game way, until it is used: the
    kernels are found without it), and `santorini show` says which a seat gets, and why not. A
    build by workers of its own (the unmoved ones, Graeae; the female one as well as the moved
    one, Selene) is taken in. A second
    build the worker may make after the first (Demeter, Hephaestus, Hestia) and builds by ways to
    different regions (Zeus, around and under himself) are taken in, and so are a token put on the
    square built, with the game's allowance (Clio), a token the seat may put around the worker
    after the build (Europa & Talus) or a block the worker that did not move may take off (Ares),
    a move made again each time it matches (Triton), and a win judged on the board (Chronus).
    Several programs are drawn whole where each has kernels (a build before the move and after
    it, Prometheus; each worker's move or build, Castor & Pollux; walks beside the usual turn,
    Hermes), not where one has none (walks whose build may be a dome at any level); so are turns
    followed by end-of-turn steps with no choice that take workers off the board (Medusa) or make
    a team lose (Maenads), their events added to each turn's."""
    for card in KERNEL_CARDS:
        assert kernels_of((card, MORTAL))[0], card
        game, _ = counted_games("bga", (card, MORTAL))
        assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0), card
    assert not kernels_of(("Iris", MORTAL))[0]
    domed = Engine(load_pack("bga").base.power, [[compiled(WALKS_WITH_A_DOME, "Walker")], []])
    assert domed._kernels[0] is None
    assert ("not drawn whole (derived/kernel.py): the seat has more than one turn program, and not every one has "
            "kernels") in "\n".join(domed.paths(0))
    game, _ = counted_games("bga", ("Iris", MORTAL))
    paths = game.engine.paths(0)
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" not in paths
    assert any(line.startswith("not drawn whole (derived/kernel.py):")
               and "a way that is not squares around the worker as bits" in line for line in paths)
    # (a way that sets a mark: the turn is drawn whole once the mark is set, found without it)
    game, _ = counted_games("bga", ("Bellerophon", MORTAL))
    assert game.engine._spent[0]
    assert any(line.startswith("once per game (Bellerophon: your move") for line in game.engine.paths(0))


#: Every pairing of those the pack lets play (Persephone bans Artemis).
PAIRS = [(card, binder) for card in KERNEL_CARDS for binder in BINDERS
         if card != binder and counted_games("bga", (card, binder)) is not None]


@pytest.mark.parametrize(("card", "binder"), [pytest.param(c, b, id=f"{c}-v-{b}") for c, b in PAIRS])
@settings(max_examples=POSITIONS, deadline=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_kernel_draws_equal_the_generic_listing_against_binders(card: str, binder: str, data: st.DataObject,
                                                               seeds: list[int]) -> None:
    """The kernel's seat to move against a card that binds it: every index drawn, the bound
    asked of the generator, the state each turn leaves and whole playouts are the generic chain's."""
    game, generic = counted_games("bga", (card, binder))
    position = data.draw(states(game, 0), label="position")
    assert_agree(game, generic, position, seeds, PERFT_WORK_PER_CARD)
    assert game.engine.perft(position, 1) == generic.perft(position, 1)  # (the kernel's count)


@settings(max_examples=20 * SCALE, deadline=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_kernel_draws_equal_the_generic_listing_in_games_of_three_and_four(data: st.DataObject,
                                                                          seeds: list[int]) -> None:
    """Three seats each for itself, or four in two teams that share their workers: a kernel
    chooses among its team's workers, and every other seat's rules bind it, as the generic chain
    says (bga's games of three and four want a power in every seat; a drawn set of cards the pack
    does not let play together falls back to Apollo, Athena, Pan and Minotaur)."""
    count = data.draw(st.sampled_from([3, 4]), label="players")
    cards = [card for card in (*KERNEL_CARDS, *BINDERS) if card not in (MORTAL, "Aphrodite")]
    seats = tuple(data.draw(st.lists(st.sampled_from(cards), min_size=count, max_size=count), label="seats"))
    if counted_games("bga", seats) is None:
        seats = ("Apollo", "Athena", "Pan", "Minotaur")[:count]
    game, generic = counted_games("bga", seats)
    assert_agree(game, generic, data.draw(states(game), label="position"), seeds, PERFT_WORK_PER_CARD)


#: A's worker on b2 (level 2) may move up onto c1 (level 3) and win, or down to a1 or c2; A2 on
#: e5 cannot move.
WINNING_MOVE = """\
name: a winning move among others
edition: bga
players: [Mortal, Mortal]
board: |
  0 0 0 0D 0
  0 0 0 0D 0D
  0D 0D 0D 0 0
  0D 2 0 0 0
  0 0D 3 0 0
workers: {A1: b2, A2: e5, B1: e1, B2: e3}
to_move: A
"""


def test_a_kernel_counts_the_outcomes_for_perft_and_a_count_that_forgets_a_winning_move_is_caught(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """perft's last ply is counted by the kernel's count: the winning move onto c1 is one
    outcome, the move to a1 builds on b2 only (1), the move to c2 builds on b2, c1 (a dome), d1,
    d2 or d3 (5): 7. A count that forgot the winning move would say 6: the count by neighbouring
    pairs (Writer.count_by_pairs), and the draw's first pass where there is none."""
    state = position(tmp_path, WINNING_MOVE)
    game, generic = kernel_agrees((MORTAL, MORTAL), state, 7)
    assert game.engine.perft(state, 1) == 7

    def forgets(self: writer.Writer, depth: int, moves: str) -> None:
        self.source.line(depth, "pass")
    with monkeypatch.context() as patch:
        patch.setattr(writer.Writer, "wins_counted", forgets)
        assert counting(game).engine.perft(state, 1) == 6  # (compiled afresh)
    monkeypatch.setattr(writer.Writer, "count_by_pairs", lambda self: None)
    assert counting(game).engine.perft(state, 1) == 7
    written = writer.Writer.counted

    def forgetful(self: writer.Writer, depth: int, whole: bool | None, code: str) -> None:
        if self.only_count and whole is None:
            self.source.line(depth, "pass")
            return
        written(self, depth, whole, code)
    monkeypatch.setattr(writer.Writer, "counted", forgetful)
    assert counting(game).engine.perft(state, 1) == 6  # (compiled afresh)


#: A1 on a1 and A2 on c1 (on level {c1}), each free to move to b1 or b2 (A1 to a2 too); every
#: other square around them is domed.
UNMOVED_BUILDS = """\
name: the unmoved worker builds up to three times
edition: bga
players: [Poseidon, Mortal]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0D 0D 0D 0 0
  0 0 0D 0D 0
  0 0 {c1} 0D 0
workers: {{A1: a1, A2: c1, B1: e5, B2: d5}}
to_move: A
"""


@pytest.mark.parametrize(("c1", "outcomes"), [
    # A1 to a2: a first build on a1 with 0-3 of A2's on b1 and b2 (10), or 1-4 pieces on b1 and
    # b2 with at least one (14): 24. A1 to b1: A2 builds on b2 only; a first build on a1 or a2
    # with 0-3 of A2's (2 x 4), or 1-4 pieces on b2 (4): 12. A1 to b2 likewise on b1: 12. A2 to
    # b1: A1 builds on a2 and b2, the first build on c1, a2 or b2: 24. A2 to b2: on a2 and b1: 24.
    ("0", 96),
    # A2 on level 1 may not build: A1's three moves have three builds each (9); A2's moves, 24 each
    ("1", 57),
])
def test_the_unmoved_worker_builds_up_to_three_times_each_board_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, c1: str, outcomes: int) -> None:
    """'If your unmoved worker is on the ground level, it may build up to three times': a move's
    outcomes are the pieces added, each set once however the builds share them out; a kernel
    that let a first build own the later builds an earlier first build made lists boards twice."""
    state = position(tmp_path, UNMOVED_BUILDS.format(c1=c1))
    game, generic = kernel_agrees(("Poseidon", MORTAL), state, outcomes)
    if c1 != "0":
        return
    listed = later_builds._first_builds

    def every_later_build(first: int, builder: int, reach: int, heights: Sequence[int],
                          allowed: tuple[int, int, int, int] | None = None
                          ) -> Iterator[tuple[int, list[int], list[int]]]:
        for square, _, _ in listed(first, builder, reach, heights, allowed):
            around = [s for s in range(25) if reach >> s & 1] if builder >= 0 else []
            yield square, around, [4 - heights[s] - (s == square) for s in around]
    monkeypatch.setattr(later_builds, "_first_builds", every_later_build)
    assert len(counting(game).engine.turns(state)) > outcomes  # (compiled afresh)


def test_builds_made_again_and_again_are_counted_with_the_coins_gained_as_the_turn_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Morpheus's 'any number of times instead, spending 1 coin each time', with 2 coins kept and 1
    gained as his turn starts: tests/scenarios/bga/morpheus-saved-coins.yaml counts 9 outcomes by
    hand (the pieces added to a1 and a3, at most 3 in all, at most 2 on a3). Kernels that ran before
    the turn's gain would have 2 coins to spend: 3 + 2 + 1 = 6."""
    import santorini.interpreter.engine.engine as engine_module
    state = load_scenario(REPO / "tests" / "scenarios" / "bga" / "morpheus-saved-coins.yaml").game.state
    game, _ = kernel_agrees(("Morpheus", MORTAL), state, 9)
    monkeypatch.setattr(engine_module, "after_gains", lambda kernels, seat, gains: kernels)
    assert len(counting(game).engine.turns(state)) == 6  # (compiled afresh)


@settings(max_examples=10, deadline=None, phases=PHASES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_a_condition_on_neither_square_nor_piece_is_one_answer_for_every_square_built(
        data: st.DataObject, seeds: list[int]) -> None:
    """'In a game of 2 players, your worker may build on any unoccupied perimeter space': the
    player count holds for every square or none. The kernel's squares of such a build once called
    the count's test with the piece, a name no code of the kernel sets (a random card found it)."""
    from random_cards import card_text, load, pack_with
    from test_tally import game_pair
    card = load(card_text("Your Build:\n  in a game of 2 players, your worker may build on any unoccupied "
                          "perimeter space."))
    pair = game_pair(pack_with(card), (card.name, MORTAL))
    assert pair is not None
    game, generic = pair
    assert game.engine._kernelled[0]
    assert_agree(game, generic, data.draw(states(game, 0), label="position"), seeds, PERFT_WORK_PER_CARD)


def test_a_kernel_that_draws_past_the_end_of_a_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawn index falls in the move whose outcomes end after it: a kernel that looked for
    the first end at or after it would give the first outcome of each move to the move before,
    past its last build (the draw then fails, or draws another turn)."""
    from bisect import bisect_left
    monkeypatch.setattr(writer, "bisect_right", bisect_left)
    try:
        apart = found_apart("bga", (MORTAL, MORTAL), examples=10)
    except IndexError:
        apart = True
    assert apart


def test_a_kernel_that_finds_the_build_in_another_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a move, the builds come in square order, as the listing finds them: a kernel that
    counted the build squares from the last one would draw another turn at most indices (Atlas,
    whose build may be a dome at any level, finds its build with `nth_build`)."""
    def backwards(index: int, blocks: int, domes: int, blocks_first: int) -> tuple[int, bool]:
        squares = sorted(s for s in range(25) if (blocks | domes) >> s & 1)
        square = squares[len(squares) - 1 - index]
        return square, bool(domes >> square & 1)
    monkeypatch.setattr(writer, "nth_build", backwards)
    assert found_apart("bga", ("Atlas", MORTAL), examples=10)


def test_obligations_on_the_move_are_lowered_into_the_kernel() -> None:
    """'A worker must move up this turn, if possible' (Persephone) and 'a worker that started next
    to yours must end next to yours' (Aphrodite) are squares the one move must end on: the kernel
    draws under them, also where the move may force the holder's worker, whose place Aphrodite's
    requirement reads (such a move is judged where the force leaves the workers: after_force.py).
    Persephone's 'if possible' beside a force is left to the count while it is in force."""
    for binder in ("Persephone", "Aphrodite"):
        for card in (MORTAL, "Pan", "Hera", "Apollo", "Minotaur"):
            game, _ = counted_games("bga", (card, binder))
            assert getattr(game.engine._kernels[0], "lowers_obligations", False), (card, binder)


def test_a_force_is_judged_where_it_leaves_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apollo bound by Aphrodite ('its last move must be to a space neighbouring your workers')
    may swap with her worker: the swap leaves it next to Apollo's worker, so the turn is legal
    although the square moved to was next to none of her workers before (the scenario
    aphrodite-apollo.yaml, counted by hand). A kernel that refused the forcing moves, as one
    judging the squares before the swap does there, disagrees with the chain."""
    path = REPO / "tests" / "scenarios" / "bga" / "aphrodite-apollo.yaml"
    game = load_scenario(path).game
    generic = generic_of(game)
    assert getattr(game.engine._kernels[0], "lowers_obligations", False)
    assert disagreement(game.engine, generic, game.state, [1, 2, 3]) is None
    monkeypatch.setattr(writer, "met_after_force", lambda bounds, view: lambda walk, w, o, t, dest: False)
    refusing = load_scenario(path).game
    assert disagreement(refusing.engine, generic, refusing.state, [1, 2, 3]) is not None


def test_a_kernel_that_ignores_an_obligation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Persephone's 'if possible, at least one worker must move up': a kernel whose requirement
    let every move through would draw turns that do not move up while one could."""
    monkeypatch.setattr(writer, "required_squares", lambda source, bound, view: "ALL")
    assert found_apart("bga", (MORTAL, "Persephone"), examples=25)


def test_a_kernel_that_lists_the_builds_of_a_square_in_another_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Atlas may build a dome at any level: a square gives two turns, block first as the listing
    finds them. A kernel listing the dome first would list the same turns in another order (Atlas
    against Hera, whose veto leaves Atlas's list to the kernel)."""
    in_order = writer.builds_in_order

    def dome_first(blocks: int, domes: int, blocks_first: int) -> list[tuple[int, bool]]:
        return [(square, not dome) if blocks & domes >> square & 1 else (square, dome)
                for square, dome in in_order(blocks, domes, blocks_first)]
    monkeypatch.setattr(writer, "builds_in_order", dome_first)
    assert found_apart("bga", ("Atlas", "Hera"), examples=10)


#: Periphera ('may move one additional time, onto a perimeter space, and not up': back onto the
#: space it left, too) against Graeae; each of B's workers can step onto b1 and back.
HOME = """\
name: two workers that can each step away and back
edition: {pack}
players: [Graeae, Periphera]
board: |
  1 0D 1 0 0
  0D 1 1 1 0
  0D 1 0 1 1
  1 0 2 1 0
  0D 1 0 0 0
workers: {{A1: e3, A2: e4, A3: e2, B1: a2, B2: c1}}
to_move: B
"""


def test_a_worker_back_on_its_square_is_one_outcome_whichever_worker_it_was(tmp_path: Path) -> None:
    """B1 (a2) stepping to b1 and back, then building on b1, leaves the board as B2 (c1) doing the
    same: one outcome, listed as B1's turn (the first found), and B2's is not listed. A kernel
    that kept the final squares worker by worker would list both."""
    state = position(tmp_path, HOME.format(pack=REPO / "tests" / "invented" / "inventions"))
    game, generic = counted_games("inventions", ("Graeae", "Periphera"))
    assert game.engine._kernels[1] is not None
    turns = game.engine.turns(state)
    assert turns == generic.turns(state)
    assert (("move", 3, 1), ("move", 3, 5), ("build", 3, 1)) in turns
    assert (("move", 4, 1), ("move", 4, 2), ("build", 4, 1)) not in turns
    assert (("move", 4, 1), ("move", 4, 2), ("build", 4, 3)) in turns


#: A's worker on a1 can only move to b2 (A2 on e5 cannot move); from b2 it may build on a1, c1
#: (level 2) and c2.
BUILDS_TWICE = """\
name: one move, then three squares to build on
edition: bga
players: [{card}, Mortal]
board: |
  0 0 0 0D 0
  0 0 0 0D 0D
  0D 0D 0D 0 0
  0D 0 0 0 0
  0 0D 2 0 0
workers: {{A1: a1, A2: e5, B1: e1, B2: e3}}
to_move: A
"""


@pytest.mark.parametrize(("card", "outcomes"), [
    # each square alone (3), and each pair of two squares once, in either order (3)
    ("Demeter", 6),
    # each square alone (3), and a block on top of a1's and c2's (c1's would be a dome)
    ("Hephaestus", 5),
    # each square alone (3), then c2 the only inner square: after a1, after c1, and on itself
    ("Hestia", 6),
])
def test_a_second_build_is_counted_once_per_outcome(tmp_path: Path, card: str, outcomes: int) -> None:
    """The outcomes of a build and a second one, counted by hand from the cards' texts, are the
    kernel's turns, in the generic listing's order."""
    kernel_agrees((card, MORTAL), position(tmp_path, BUILDS_TWICE.format(card=card)), outcomes)


def test_a_kernel_that_counts_a_pair_of_builds_twice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Demeter's two builds on a1 then c2 leave the board that c2 then a1 leaves: a kernel that
    kept both would count and draw the pair twice."""
    monkeypatch.setattr(two_builds, "_seconds", lambda low, first, again, same, wins: (again & ~low) | (same & low))
    assert found_apart("bga", ("Demeter", MORTAL), examples=20)


def test_a_kernel_that_judges_a_build_on_top_at_the_old_level_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hephaestus's second block goes on his first, not a dome: judged at the square's level
    before the first build, a block on level 2 would seem to allow a second (a dome)."""
    monkeypatch.setattr(two_builds, "LEVELS_AFTER_A_BLOCK", LEVELS)
    assert found_apart("bga", ("Hephaestus", MORTAL), examples=20)


def test_a_kernel_that_lists_the_regions_of_a_build_in_square_order_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Zeus builds around himself or under himself: the listing takes the squares around him
    first, then his own. A kernel that took the squares in square order, his own among them,
    would draw another turn at many indices."""
    monkeypatch.setattr(writer.Writer, "groups", lambda self, depth: [])
    assert found_apart("bga", ("Zeus", MORTAL), examples=20)


#: Clio's worker on a1 can only move to b2 (A2 on e5 cannot move); from b2 she builds a block on
#: a1 or c2, or a dome on c1 (level 3), with `placed` coins placed already.
COINS = """\
name: a block or a dome, with coins placed already
edition: bga
players: [Clio, Mortal]
board: |
  0 0 0 0D 0
  0 0 0 0D 0D
  0D 0D 0D 0 0
  0D 0 0 0 0
  0 0D 3 0 0
workers: {{A1: a1, A2: e5, B1: e1, B2: e3}}
cards:
  A: {{coin tokens placed: {placed}}}
to_move: A
"""


@pytest.mark.parametrize(("change", "placed"), [pytest.param({"limit": None}, 3, id="no-allowance"),
                                                pytest.param({"piece": None}, 0, id="after-any-piece")])
def test_a_kernel_that_puts_a_token_on_the_square_built_too_often_is_caught(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, change: dict[str, object], placed: int) -> None:
    """Clio's coin goes on the square of a block she builds, three times in a game: the kernel
    agrees with the chain where she has placed none or all three, and a kernel that forgot the
    allowance, or put a coin on a dome too, does not."""
    state = position(tmp_path, COINS.format(placed=placed))
    game, generic = counted_games("bga", ("Clio", MORTAL))
    assert game.engine._kernelled[0]
    seeds = range(20)
    assert disagreement(game.engine, generic, state, seeds) is None
    events = TokenOnBuilt.events

    def changed(self: TokenOnBuilt, turn: tuple[tuple[object, ...], ...],
                counters: dict[tuple[int, str], int]) -> tuple[tuple[object, ...], ...]:
        return events(replace(self, **change), turn, counters)  # type: ignore[arg-type]
    monkeypatch.setattr(TokenOnBuilt, "events", changed)
    assert disagreement(counting(game).engine, generic, state, seeds) is not None  # (compiled afresh)


#: A's worker on a1 can only move to b2 (A2 on e5 cannot move); from b2 it builds on a1, c2, or
#: c1, whose dome would complete a fifth tower (`towers` stand already, complete: a5, b5, c5,
#: a4, and b4 for a fifth).
TOWERS = """\
name: a dome that would complete a fifth tower
edition: bga
players: [{first}, {second}]
board: |
  3D 3D 3D 0D 0
  3D {b4} 0 0D 0D
  0D 0D 0D 0 0
  0D 0 0 0 0
  0 0D 3 0 0
workers: {{A1: a1, A2: e5, B1: e1, B2: e3}}
to_move: A
"""


@pytest.mark.parametrize(("first", "second", "fifth", "wins", "outcomes"), [
    # Chronus's own dome on c1 is his fifth complete tower: he can win
    ("Chronus", MORTAL, False, True, 3),
    # the Mortal's dome on c1 completes the fifth tower too, and Chronus wins it, not the Mortal
    (MORTAL, "Chronus", False, False, 3),
    # five towers stand already (a position set up so): any build is judged a win for Chronus
    ("Chronus", MORTAL, True, True, 3),
    # Artemis may move on from b2 to c2 (not back to a1), and build on b2, c1, d1, d2 or d3
    # there (5), or stop on b2 (3); her dome on c1 makes Chronus win, not her
    ("Artemis", "Chronus", False, False, 8),
    # Demeter builds on a1, c1 or c2 (3), then a second time: after a1, on c1 or c2; after c2, on
    # c1 (a1 then c2 is met already); after c1 not at all, as that dome wins for Chronus (3)
    ("Demeter", "Chronus", False, False, 6),
    # Europa builds on a1 or c2, then her token stays or goes to a1, c1 or c2 (4 each); her dome
    # on c1 wins for Chronus, and the turn ends there (1)
    ("Europa & Talus", "Chronus", False, False, 9),
])
def test_a_build_that_may_win_on_the_board_is_judged_as_the_chain_judges_it(
        tmp_path: Path, first: str, second: str, fifth: bool, wins: bool, outcomes: int) -> None:
    """Where a seat wins when five complete towers stand, a kernel draws and lists the other
    seats' turns too: the builds that may complete a tower are played step by step, where the
    win is judged, and every draw, list and search for a win is the chain's."""
    state = position(tmp_path, TOWERS.format(first=first, second=second, b4="3D" if fifth else "0"))
    game, generic = counted_games("bga", (first, second))
    assert game.engine._kernelled[0]
    assert game.engine.can_win(state) is wins
    assert len(game.engine.turns(state)) == outcomes
    assert disagreement(game.engine, generic, state, range(20)) is None


def test_a_kernel_that_gives_a_winning_build_its_events_is_caught(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    """A build that may complete the fifth tower is played step by step: a kernel that gave it
    the events of a build that wins nothing would leave the game going on."""
    state = position(tmp_path, TOWERS.format(first="Chronus", second=MORTAL, b4="0"))
    game, generic = counted_games("bga", ("Chronus", MORTAL))
    last_build = writer.last_build
    monkeypatch.setattr(writer, "last_build", lambda automatic, winnable: last_build(automatic, ()))
    assert disagreement(counting(game).engine, generic, state, range(20)) is not None


#: Europa's worker on a1 can only move to b2 (A2 on e5 cannot move); from b2 she builds on a1,
#: c2, or c1 (level 3: a dome); her talus token is on her card, or on c2.
TALUS = """\
name: a build, then the talus token around the moved worker
edition: bga
players: [Europa & Talus, Mortal]
board: |
  0 0 0 0D 0
  0 0 0 0D 0D
  0D 0D 0D 0 0
  0D 0 0 0 0
  0 0D 3 0 0
workers: {{A1: a1, A2: e5, B1: e1, B2: e3}}
{tokens}to_move: A
"""


@pytest.mark.parametrize(("tokens", "outcomes"), [
    # a1: the token stays, or goes to a1 (on the new block), c1 or c2 (4); c1, a dome: stays, a1
    # or c2 (3); c2: as a1 (4)
    ("", 11),
    # the talus on c2 is a dome to Europa too: she builds on a1 (the token stays, or goes to a1
    # or c1: 3) or c1 (stays, or a1: 2)
    ("tokens: {c2: talus}\n", 5),
])
def test_the_token_put_after_the_build_is_counted_once_per_outcome(tmp_path: Path, tokens: str,
                                                                  outcomes: int) -> None:
    """The turns of a build and the token the seat may put around the moved worker, counted by
    hand from the card's text, are the kernel's, in the generic listing's order, and its draws
    are the chain's."""
    kernel_agrees(("Europa & Talus", MORTAL), position(tmp_path, TALUS.format(tokens=tokens)), outcomes)


def test_a_kernel_that_puts_the_token_on_a_new_dome_is_caught(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    """A dome just built is not an unoccupied space: a kernel that offered it to the token would
    list and draw turns the chain does not have (c1's dome above)."""
    state = position(tmp_path, TALUS.format(tokens=""))
    game, generic = counted_games("bga", ("Europa & Talus", MORTAL))
    monkeypatch.setattr(last_choice, "_after_the_build",
                        lambda square, dome, around, on_block: around & ~(1 << square) | on_block & (1 << square))
    assert counting(game).engine.turns(state) != generic.turns(state)


#: Ares's worker on a1 can only move to b2, and A2 on d1 cannot move; from b2 A1 builds on a1,
#: or on c1 or c2 (level 2), and A2 may take a block off c1 or c2.
BLOCKS = """\
name: a build, then a block taken off by the unmoved worker
edition: bga
players: [Ares, Mortal]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0D 0D 0D 0 0
  0D 0 2 0D 0D
  0 0D 2 0 0
workers: {A1: a1, A2: d1, B1: e1, B2: e4}
to_move: A
"""


def test_a_block_taken_off_by_the_unmoved_worker_is_counted_once_per_outcome(tmp_path: Path) -> None:
    """Counted by hand from Ares's text: after a1, nothing is taken off, or c1's or c2's top block
    (3); after c1, nothing, c2's block, or c1's new one, which leaves the board as the move did
    (3); after c2, nothing or c1's block (2): c2's new one taken off is that board again. The
    kernel's turns are those 8, in the generic listing's order, and a kernel that kept the board
    the move left twice is caught."""
    state = position(tmp_path, BLOCKS)
    game, _ = kernel_agrees(("Ares", MORTAL), state, 8)
    removal_turns = last_choice.removal_turns

    def twice(blocks: int, domes: int, blocks_first: int, removers: list[tuple[int, int, int]],
              tokens: int, ending: int = 0) -> list[tuple[int, bool, int, int]]:
        # (as if a token were everywhere)
        return removal_turns(blocks, domes, blocks_first, removers, ALL_BITS, ending)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(last_choice, "removal_turns", twice)
        assert len(counting(game).engine.turns(state)) == 9


#: Artemis's worker on a1 starts next to Aphrodite's on a2; it can only move to b2, then on to
#: b3, c1, c2 or c3 (not back to a1); A2 on e5 cannot move.
NEXT_TO_APHRODITE = """\
name: two moves that must end next to Aphrodite
edition: bga
players: [Artemis, Aphrodite]
board: |
  0 0 0 0D 0
  0D 0D 0D 0D 0D
  0D 0 0 0 0
  0 0 0 0 0
  0 0D 0 0 0
workers: {A1: a1, A2: e5, B1: a2, B2: e1}
to_move: A
"""


def test_an_obligation_on_the_last_move_binds_where_two_moves_end(tmp_path: Path) -> None:
    """Aphrodite's 'its last move must be to a space neighboring your workers' binds the square
    Artemis ends on, not the one she passes: she may stop on b2 and build on a1, b3, c1, c2 or
    c3 (5), or go on to b3 (next to a2) and build on b2, c2 or c3 (3); c1, c2 and c3 are not
    next to Aphrodite's workers. Counted by hand: 8 turns, the generic listing's; a kernel that
    let the worker end anywhere would list more."""
    state = position(tmp_path, NEXT_TO_APHRODITE)
    game, _ = kernel_agrees(("Artemis", "Aphrodite"), state, 8)
    assert getattr(game.engine._kernels[0], "lowers_obligations", False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(two_moves.TwoMoves, "final", property(lambda self: ""))
        assert len(counting(game).engine.turns(state)) > 8


def test_a_kernel_that_forgets_another_seats_slide_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Harpies force each of an opponent's workers that moves on, space by space, while the
    next space is not higher and unoccupied: the kernels of her opponents take the slide in
    (santorini show says so), and a kernel that built around the square the move reached would
    draw other turns."""
    game, _ = counted_games("bga", ("Demeter", "Harpies"))
    assert game.engine._kernelled[0]
    assert ("another seat's reaction to this seat's moves: lowered as a slide (derived/writer.py)"
            in game.engine.paths(0))
    def stays(self: writer.Writer, depth: int) -> str:
        self.source.line(depth, "t0, th0 = t, H[t]")  # (the worker stays where its move took it)
        return "t0"
    monkeypatch.setattr(writer.Writer, "slid", stays)
    assert found_apart("bga", (MORTAL, "Harpies"), examples=20)


#: Triton's worker on a1 (a corner) can move to b1 or a2, both on the perimeter, and between the
#: three squares as often as he likes; A2 on e5 cannot move.
PERIMETER_WALK = """\
name: moves again along the perimeter, and back home
edition: bga
players: [Triton, Mortal]
board: |
  0 0 0 0D 0
  0 0 0 0D 0D
  0D 0D 0 0 0
  0 0D 0D 0 0
  0 0 0D 0 0
workers: {A1: a1, A2: e5, B1: e1, B2: e3}
to_move: A
"""


def test_a_move_made_again_along_the_perimeter_is_counted_once_per_outcome(tmp_path: Path) -> None:
    """Counted by hand from Triton's text: he may end on b1 (building on a1 or a2), on a2
    (building on a1 or b1), or back on a1 (building on a2 or b1), however he went: 6 turns, in
    the generic listing's order. A kernel that did not move on from a perimeter space would
    find the 4 of a single move."""
    state = position(tmp_path, PERIMETER_WALK)
    game, _ = kernel_agrees(("Triton", MORTAL), state, 6)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(repeated_moves.RepeatedMoves, "trigger", lambda self: "0")
        assert len(counting(game).engine.turns(state)) == 4


@settings(max_examples=40 * SCALE, deadline=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_events_a_kernel_lists_are_those_the_chain_plays(data: st.DataObject) -> None:
    """An agent that plays every listed turn (`turns(..., keep_events=True)`) gets each turn's
    events and winner from the kernel's list: they are the ones the generic chain finds for
    the same steps, a winning move, a forced worker and a slid one among them."""
    card, binder = data.draw(st.sampled_from(PAIRS), label="pairing")
    seats = (card, binder) if data.draw(st.booleans(), label="card first") else (binder, card)
    pair = counted_games("bga", seats)
    if pair is None:
        return
    game, generic = pair
    state = data.draw(states(game), label="position")
    for turn in game.engine.turns(state, keep_events=True):
        assert game.engine.accept(state, turn) == generic.accept(state, turn), turn


#: Artemis's A1 on c3 and A2 on a5, on a flat board; Harpies's workers far off (e1, e5). A1's
#: move east to d3 slides on to the edge (e3); a second move back west to d3 slides on over c3,
#: which A1 has left, to the other edge (a3).
SLID_OVER_THE_START = """\
name: two moves, each slid on by another seat's slide, the second over the square the first left
edition: bga
players: [Artemis, Harpies]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
workers: {A1: c3, A2: a5, B1: e1, B2: e5}
to_move: A
"""


def test_two_moves_slid_on_by_another_seats_slide_are_drawn_by_their_kernel(tmp_path: Path) -> None:
    """Artemis against Harpies: each move that does not win slides on in its direction until the
    space ahead is higher or taken (Harpies's card), the second one over the square the worker
    left (free, though the kernel makes no step): the kernel's turns are the chain's, in order."""
    state = position(tmp_path, SLID_OVER_THE_START)
    game, generic = kernel_agrees(("Artemis", "Harpies"), state)
    a1 = state.worker_by_name("A1")
    ends = {generic.play(state, turn).worker_pos[a1] for turn in generic.turns(state)}
    assert parse_square("a3") in ends  # (d3, on to e3, then back: d3, c3, b3, a3)


#: The invented gods' scenarios (tests/scenarios/invented): Tholia's ('Once per game, instead of
#: its normal build, your worker may build a dome at any level on any unoccupied perimeter space')
#: before and after its power is used, and Pyrgarche's.
INVENTED_SCENARIOS = REPO / "tests" / "scenarios" / "invented"
#: The invented gods' pack folder.
INVENTED_PACK = REPO / "tests" / "invented" / "inventions"


def test_a_seat_is_drawn_whole_once_its_once_per_game_ways_are_used() -> None:
    """Until Tholia's card is marked, its turns have the domes on the rim, which no kernel takes
    in: the engine leaves them to the chain. Once it is marked, the turn is the usual move and
    build, drawn whole (kernel.py's `once_spent`), as the chain lists it (11 turns, counted by
    hand in tholia-once-per-game.yaml)."""
    before = load_scenario(INVENTED_SCENARIOS / "tholia-dome-on-the-rim.yaml").game
    after = load_scenario(INVENTED_SCENARIOS / "tholia-once-per-game.yaml").game
    engine = before.engine
    assert engine._kernels[0] is not None and engine._kernelled[0]
    assert engine._kernel_walk(before.state)[1] is None
    assert engine._kernel_walk(after.state)[1] is not None
    generic = generic_of(after)
    for game in (before, after):
        assert game.engine.turns(game.state) == generic.turns(game.state)
        assert disagreement(game.engine, generic, game.state, range(10)) is None
    assert len(after.engine.turns(after.state)) == 11


def test_kernels_of_spent_ways_drawn_before_the_ways_are_spent_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kernels found without Tholia's once-per-game way, serving a position where the way is
    still the seat's, would leave out its domes on the rim."""
    monkeypatch.setattr(engine_module, "once_spent", lambda kernels, seat, marks: kernels)
    before = load_scenario(INVENTED_SCENARIOS / "tholia-dome-on-the-rim.yaml").game
    generic = generic_of(before)
    assert len(before.engine.turns(before.state)) < len(generic.turns(before.state))


def test_a_tower_completed_by_a_block_and_a_dome_on_it_is_a_win_the_kernels_see(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyrgarche (tests/invented) caps the block it built with a dome at any level; two complete
    towers stand and no square is on level 3 but them: the block on b1 (level 2) and the dome on
    it make the third, a win (pyrgarche-third-tower-from-level-two.yaml, counted by hand). The
    kernels judge one more tower from a square of level 2 where the second build may go on the
    first (writer.py's `one_more_tower`); judged from level 3 only, they would find no win."""
    path = INVENTED_SCENARIOS / "pyrgarche-third-tower-from-level-two.yaml"
    game = load_scenario(path).game
    assert game.engine._kernelled[0]
    generic = generic_of(game)
    assert game.engine.can_win(game.state) and generic.can_win(game.state)
    assert disagreement(game.engine, generic, game.state, range(12)) is None
    one_more = writer.one_more_tower
    monkeypatch.setattr(two_builds, "one_more_tower", lambda board_wins, more=1, lowest=3: one_more(board_wins, more))
    blind = load_scenario(path).game
    assert not blind.engine.can_win(blind.state)


def test_a_later_build_of_the_unmoved_worker_at_the_end_of_the_turn_is_drawn_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Anabathmos (tests/invented): 'End of your turn: if your unmoved worker is on level 1, it
    may build, not a dome.' The kernels of the builds the worker that did not move may make
    (later_builds.py) take it in, its 'not a dome' read as the squares that may take each piece:
    the 18 turns of anabathmos-unmoved-on-level-one.yaml (counted by hand), as the chain lists
    them. Kernels that forgot the filter would also cap e2 with A2's dome after A1's block there
    (A1 moved to d1 or to d2): 20."""
    path = INVENTED_SCENARIOS / "anabathmos-unmoved-on-level-one.yaml"
    game = load_scenario(path).game
    assert game.engine._kernelled[0]
    generic = generic_of(game)
    assert len(game.engine.turns(game.state)) == 18
    assert disagreement(game.engine, generic, game.state, range(18)) is None
    made = steps_module.DerivedCompiler._later_builds

    def unfiltered(self: steps_module.DerivedCompiler, step: Step) -> LaterBuilds | None:
        later = made(self, step)
        return None if later is None else replace(later, filters=())
    monkeypatch.setattr(steps_module.DerivedCompiler, "_later_builds", unfiltered)
    careless = load_scenario(path).game
    assert len(careless.engine.turns(careless.state)) == 20


#: Phrouria (tests/invented): 'An opponent cannot win by moving into a space neighboring your
#: workers', against Hephaestus (B, to move): B1 on c3 (level 2) between b3 and d3 (level 3), d3
#: beside Phrouria's A1 on e3 (phrouria-no-win-beside-her-watch.yaml's position).
BESIDE_HER_WATCH = """\
name: a win beside Phrouria's worker is vetoed
edition: {edition}
players: [Phrouria, Hephaestus]
to_move: B
board: |
  0 0 0 0 0
  0 0D 0D 0D 0
  0 3 2 3 0
  0D 0D 0D 0D 0D
  0 0D 0 0 0
workers: {{A1: e3, A2: e1, B1: c3, B2: a1}}
"""


def test_a_veto_that_reads_where_its_holder_s_workers_stand_is_judged_by_the_kernels(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A veto of wins beside the holder's workers reads where they stand, which no move of the
    seat's changes (its moves force no worker): the seat's turn is drawn whole. B1's move up to b3
    wins, its move up to d3, beside A1, does not (the turn goes on with a build), as the chain
    finds. Kernels that forgot the veto would list the move to d3 as a win."""
    text = BESIDE_HER_WATCH.format(edition=INVENTED_PACK)
    state = position(tmp_path, text)
    game = load_scenario(tmp_path / "position.yaml").game
    assert game.engine._kernels[1] is not None and not game.engine._derivations[1].unkernelled
    generic = generic_of(game)
    d3, b1 = parse_square("d3"), state.worker_names.index("B1")
    turns = game.engine.turns(state)
    assert turns == generic.turns(state) and (("move", b1, d3),) not in turns
    assert game.engine.can_win(state) and disagreement(game.engine, generic, state, range(10)) is None
    for name in ("move_win_test", "move_win_bits"):
        lowered = getattr(steps_module.DerivedCompiler, name)

        def unvetoed(self: steps_module.DerivedCompiler, source: object, view: object,
                     lowered: Callable[..., str | None] = lowered) -> str | None:
            vetoes, self.vetoes = self.vetoes, ()
            try:
                return lowered(self, source, view)
            finally:
                self.vetoes = vetoes
        monkeypatch.setattr(steps_module.DerivedCompiler, name, unvetoed)
    careless = load_scenario(tmp_path / "position.yaml").game
    assert (("move", b1, d3),) in careless.engine.turns(state)


def test_a_ban_that_reads_its_holder_s_workers_is_judged_where_a_force_leaves_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Limus bans builds next to his workers; Apollo's swap moves one of them (limus-apollo-swap.yaml,
    counted by hand: 4 turns, 3 of them after the swap). The kernels find the build's squares after
    a forcing move on the state with the two workers moved (after_force.py's
    `builds_after_force`), as the chain does; kernels that found none there would list 1 turn."""
    path = REPO / "tests" / "scenarios" / "bga" / "limus-apollo-swap.yaml"
    game = load_scenario(path).game
    assert game.engine._kernelled[0]
    generic = generic_of(game)
    turns = game.engine.turns(game.state)
    assert len(turns) == 4 and turns == generic.turns(game.state)
    assert disagreement(game.engine, generic, game.state, range(8)) is None
    monkeypatch.setattr(writer, "builds_after_force",
                        lambda compiler, fusion, count_only: lambda walk, w, o, t, dest: (0, 0, 0, 0))
    careless = load_scenario(path).game
    assert len(careless.engine.turns(careless.state)) == 1
