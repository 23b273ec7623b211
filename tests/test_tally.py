"""The derived count of a turn's outcomes against the generic chain's listing.

A random turn is a uniform draw among the turn's distinct outcomes, in the listing's order. The
derived engine counts the outcomes of a keyed last build by bits (interpreter/derived/masks.py),
merges what it can prove the same and keys the rest (derived/tally.py), and counts the build after
a move without making the move (the fused move of derived/steps.py). Here every card of every
pack is drawn that way, with the hand-tuned pickers of interpreter/fast off, and compared with
the generic chain as tests/test_fast_paths.py compares the fast engine: the bound asked, the turn
at each index, the state it leaves, whole playouts. Then each of the three ideas is broken by hand,
and the comparison must notice.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import (
    CARDS,
    MORTAL,
    PERFT_WORK_PER_CARD,
    PHASES,
    SCALE,
    SEEDS,
    assert_agree,
    disagreement,
    game_pair,
    opponents,
    pack_of,
    playout_disagreement,
    states,
)

from santorini.dsl.vocabulary import PieceIs
from santorini.interpreter.derived import build_first, masks, steps, tally
from santorini.interpreter.derived.tally import BUILT, OTHER, PURE, Tally, prefix_kind
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game
from santorini.interpreter.model.board import AROUND_BITS, ZOBRIST
from santorini.interpreter.model.state import GameState

#: Positions drawn for each card (the fast engine's own comparison draws 30 a card).
POSITIONS = 8 * SCALE


def counting(game: Game) -> Game:
    """The game with an engine that draws every random turn with the derived count."""
    pack = game.pack
    engine = Engine(pack.base.power, [[card.power for card in seat] for seat in game.cards],
                    teams=[seat.team for seat in game.state.seats], if_possible=pack.if_possible,
                    hand_tuned_pickers=False)
    return dataclasses.replace(game, engine=engine)


@cache
def counted_games(pack: str, seats: tuple[str, ...]) -> tuple[Game, Engine] | None:
    pair = game_pair(pack_of(pack), seats)
    return None if pair is None else (counting(pair[0]), pair[1])


@pytest.mark.parametrize(("pack", "card"), [pytest.param(pack, card, id=f"{pack}-{card}") for pack, card in CARDS])
@settings(max_examples=POSITIONS, deadline=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seeds=st.lists(st.integers(0, 2**32), min_size=SEEDS, max_size=SEEDS))
def test_counted_draws_equal_the_generic_listing(pack: str, card: str, data: st.DataObject, seeds: list[int]) -> None:
    """The card against a Mortal or another card of its pack, either side to move: every draw
    the derived count makes is the generic listing's, and leaves the same state."""
    others = opponents(pack, card)
    other = data.draw(st.one_of(st.just(MORTAL), st.sampled_from(others)) if others else st.just(MORTAL), label="other")
    seats = (card, other) if data.draw(st.booleans(), label="card first") else (other, card)
    if counted_games(pack, seats) is None:  # (a card the mode requires a power against)
        seats = (card, others[0]) if seats[0] == card else (others[0], card)
    game, generic = counted_games(pack, seats)
    assert_agree(game, generic, data.draw(states(game), label="position"), seeds, PERFT_WORK_PER_CARD)


def test_the_derived_count_serves_the_seats_of_the_plain_turn_and_of_simple_gods() -> None:
    """With the hand-tuned pickers off, the Mortal and the simple gods of bga are drawn by counting,
    and a card whose builds may win on the board (a count of towers) is drawn from its list, and
    `santorini show` says why."""
    game, _ = counted_games("bga", (MORTAL, MORTAL))
    assert game.engine._counting == [True, True]
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0)
    for god in ("Apollo", "Artemis", "Athena", "Atlas", "Minotaur", "Pan", "Prometheus"):
        game, _ = counted_games("bga", (god, MORTAL))
        assert game.engine._counting[0], god
    game, _ = counted_games("bga", ("Chronus", MORTAL))
    assert game.engine._counting == [False, False]
    prefix = "where the kernels leave a position to the chain, " if game.engine._kernelled[1] else ""
    assert any(line.startswith(f"{prefix}listed to draw: build") and "a win judged on the board" in line
               for line in game.engine.paths(1))
    # an optional last build: the turns that end before it are found one by one, so the list is
    # as quick (Poseidon: "it may build up to three times"); a build by either worker (Hermes)
    # is counted after every move made
    for god, why in (("Demeter", "optional"), ("Hephaestus", "optional"), ("Poseidon", "optional"),
                     ("Hermes", "not the moved worker")):
        game, _ = counted_games("bga", (god, MORTAL))
        assert not game.engine._counting[0], god
        # (a seat drawn whole by its kernels is listed to draw only where they leave a position)
        prefix = "where the kernels leave a position to the chain, " if game.engine._kernelled[0] else ""
        assert any(line.startswith(f"{prefix}listed to draw: build") and why in line
                   for line in game.engine.paths(0)), god


def test_the_kind_of_a_turn_so_far() -> None:
    move, build = ("move", 0, 6, 7, 0, 0), ("build", 0, 8, 1, False)
    assert prefix_kind([]) == PURE
    assert prefix_kind([move, ("force", 2, 7, 6), ("mark", 0, "used"), ("counter", 0, "coins", 1)]) == PURE
    assert prefix_kind([move, build, ("token", 1, "coin", 8, -1)]) == BUILT
    assert prefix_kind([move, ("unbuild", 0, 8, 0), build]) == OTHER
    assert prefix_kind([("token", 0, "coin", -1, 8), move]) == OTHER


def test_a_count_that_cannot_prove_two_outcomes_apart_gives_up() -> None:
    """An outcome at the leaf that is no win, beside outcomes merged by bits, is told apart from
    them by its pieces: with one piece more than the start, by the key of its state without it
    (merged with them, so it is counted once); with none, or builds alone and more than one, it
    is none of theirs. One that took a piece off could be one of them: the tally is then not
    exact, and the engine lists the turn."""
    game, _ = counted_games("bga", (MORTAL, MORTAL))
    heights = game.state.heights
    move = ("move", 0, 6, 7, 0, 0)

    def walked(*events: tuple[object, ...]) -> object:
        class Walked:
            path: list = [("move", 0, 7)]
            state = game.state
        Walked.events = [move, *events]  # type: ignore[attr-defined]
        return Walked()

    def block_key(square: int) -> int:
        return ZOBRIST.build[square][heights[square]]
    tally = Tally()
    tally.builds(walked(), 1, 0, 0b11, 0, 0b11, None)  # type: ignore[arg-type]
    assert tally.counted() and tally.total == 2
    tally.leaf(walked(), 99)  # type: ignore[arg-type]  # (the start's board: no piece more)
    assert tally.total == 3 and tally.counted()
    # the block on square 1 that the bits hold, found again at the leaf: counted once
    tally.leaf(walked(("build", 0, 1, heights[1] + 1, False)), 1 ^ block_key(1))  # type: ignore[arg-type]
    assert tally.total == 3 and tally.counted()
    # a block on square 2, new: merged with them, so the bits of a later way leave it out
    tally.leaf(walked(("build", 0, 2, heights[2] + 1, False)), 1 ^ block_key(2))  # type: ignore[arg-type]
    assert tally.total == 4 and tally.counted()
    tally.builds(walked(), 1, 0, 0b111, 0, 0b111, None)  # type: ignore[arg-type]
    assert tally.total == 4 and tally.counted()
    two = (("build", 0, 1, heights[1] + 1, False), ("build", 0, 2, heights[2] + 1, False))
    tally.leaf(walked(*two), 98)  # type: ignore[arg-type]  # (two pieces more: none of theirs)
    assert tally.total == 5 and tally.counted()
    tally.leaf(walked(*two, ("unbuild", 0, 2, heights[2])), 97)  # type: ignore[arg-type]
    assert tally.total == 6 and not tally.counted()


# ---- each idea broken by hand ----------------------------------------------------------------------

def found_apart(pack: str, seats: tuple[str, ...], examples: int = 25) -> bool:
    """Whether the comparison finds the counting engine and the generic chain apart on some
    random position of these seats (the game is made afresh, after a change by hand, and kept
    out of the caches other tests read: its engines are compiled with the change)."""
    pair = game_pair(pack_of(pack), seats)
    assert pair is not None
    game, generic = counting(pair[0]), pair[1]
    found = []

    @settings(max_examples=examples, deadline=None, database=None)
    @given(state=states(game), seed=st.integers(0, 2**16))
    def search(state: GameState, seed: int) -> None:
        found.append(disagreement(game.engine, generic, state, [seed], perft_work=0)
                     or playout_disagreement(game, generic, state, seed))
    search()
    return any(found)


def test_the_comparison_agrees_before_any_change() -> None:
    assert not found_apart("bga", (MORTAL, "Limus"), examples=10)


def test_a_bit_lowering_changed_by_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limus forbids building next to his workers unless the build is a dome on level 3: a
    lowering of 'the piece is a dome' that says every square makes his ban forbid nothing."""
    monkeypatch.setitem(masks.MASKS, PieceIs, lambda m, part, view: "ALL")
    assert found_apart("bga", (MORTAL, "Limus"))


def test_a_tally_that_forgets_the_keys_it_saw_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Prometheus's two builds in either order (build, move, build) are one outcome, which the
    tally finds by its key: a tally that never found a key again would count it twice. (Against
    Harpies, with build_first.py's kernels told that the slide is not lowered, the seat is
    counted by the tally, not drawn whole.)"""
    class Forgetful(set):  # type: ignore[type-arg]
        def __contains__(self, key: object) -> bool:
            return False
    start = Tally.__init__

    def forgetful(self: Tally) -> None:
        start(self)
        self.keys = Forgetful()
    monkeypatch.setattr(Tally, "__init__", forgetful)
    monkeypatch.setattr(build_first, "slide_function", lambda compiler: None)
    pair = game_pair(pack_of("bga"), ("Prometheus", "Harpies"))
    assert pair is not None
    engine = counting(pair[0]).engine
    assert engine._counting[0] and not engine._kernelled[0]
    assert found_apart("bga", ("Prometheus", "Harpies"))


def test_a_fused_move_that_counts_from_the_state_before_it_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build after a fused move is counted from the state the move would make: one that
    kept the mover on the square it left could not build there."""
    fused_masks = steps.DerivedCompiler.fused_masks

    def stale(self: steps.DerivedCompiler, *args: object, **kwargs: object) -> bool:
        return fused_masks(self, *args[:4], "BLOCKED", hoist=False, **{  # type: ignore[arg-type]
            key: value for key, value in kwargs.items() if key == "count_only"})
    monkeypatch.setattr(steps.DerivedCompiler, "fused_masks", stale)
    assert found_apart("bga", (MORTAL, MORTAL), examples=10)


def test_a_fused_move_whose_targets_ignore_a_filter_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The targets of a fused move (and of a kernel's) are a set of squares made from its
    filters: one that forgot 'up at most one level' would count climbs of two."""
    def loose(self: steps.DerivedCompiler, source: steps.Source, lowering: object, ways: list[object],
              *args: object) -> list[str]:
        return [f"{source.constant(AROUND_BITS, 'AROUND_BITS')}[o] & ~(BLOCKED | DOMELIKE)"] * len(ways)
    monkeypatch.setattr(steps.DerivedCompiler, "move_targets", loose)
    assert found_apart("bga", (MORTAL, MORTAL), examples=25)


@pytest.mark.parametrize(("card", "why"), [("Asteria", "a guard"), ("Theseus", "a probe of the step")])
def test_end_of_turn_steps_said_to_take_nothing_when_they_take_something_are_caught(
        monkeypatch: pytest.MonkeyPatch, card: str, why: str) -> None:
    """A build followed by end-of-turn steps is the turn's last where they take nothing, judged
    before it: by their guard (Asteria: 'if one of your workers moved down this turn'), or by
    the takings of a step no build changes (Theseus's removal). A judgement that always said
    'nothing' would leave out the turns that take them."""
    void_when = steps.DerivedCompiler._void_when

    def always(self: steps.DerivedCompiler, step: object, rest: object) -> object:
        return None if void_when(self, step, rest) is None else (lambda walk: True)  # type: ignore[arg-type]
    pair = game_pair(pack_of("bga"), (card, MORTAL))
    assert pair is not None
    assert any("take nothing (judged before it)" in line for line in counting(pair[0]).engine.paths(0)), why
    monkeypatch.setattr(steps.DerivedCompiler, "_void_when", always)
    assert found_apart("bga", (card, MORTAL))


def test_builds_counted_with_end_of_turn_takings_in_the_wrong_order_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nemesis's swap (and Hydra's worker given back) takes what no build changes: a random draw
    finds the takings once, before the build, and counts the build's outcomes with each. The
    listing finds them build by build, each build followed by each taking; a draw that decoded
    its index taking by taking would pick another turn than the generic chain's."""
    def taking_first(index: int, blocks_first: int, news: object) -> tuple[int, bool, int]:
        for taking, (new_blocks, new_domes) in enumerate(news):  # type: ignore[arg-type]
            for dome, squares in ((False, new_blocks), (True, new_domes)):
                while squares:
                    bit = squares & -squares
                    squares ^= bit
                    if not index:
                        return bit.bit_length() - 1, dome, taking
                    index -= 1
        raise IndexError(index)
    pair = game_pair(pack_of("bga"), ("Nemesis", MORTAL))
    assert pair is not None
    assert any("counted with each taking" in line for line in counting(pair[0]).engine.paths(0))
    monkeypatch.setattr(tally, "nth_ended", taking_first)
    assert found_apart("bga", ("Nemesis", MORTAL))
