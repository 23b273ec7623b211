"""A worker placed from the card, then moved and built with, drawn whole by the derived code
(interpreter/derived/placed_first.py) after the announcement of its once-per-game turn
(kernel.py's `after_use`), beside the plain turn.

The positions here come from games played from the setup, where the worker still waits on the
card (random positions put every worker on the board). A position counted by hand is in
test_masked_picker.py (`test_a_worker_placed_from_the_card_once_then_moves_and_builds`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_fast_paths import disagreement, game_pair, pack_of, playout_disagreement
from test_kernel import kernel_agrees, position
from test_tally import counted_games, counting

from santorini.interpreter.derived import placed_first
from santorini.interpreter.derived.each_worker import squares_of
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game, end_of_setup, place_workers
from santorini.interpreter.model.state import GameState


def positions_with_a_worker_waiting(game: Game, generic: Engine, seat: int, games: int,
                                    seed: str) -> list[GameState]:
    """Positions of random games from the setup where `seat` is to move and its worker still
    waits on the card."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        played = game.restart()
        squares = rng.sample(range(25), 4)
        place_workers(played, 0, squares[:2])
        place_workers(played, 1, squares[2:])
        end_of_setup(played)
        state = played.state
        for _ in range(30):
            if state.winner is not None:
                break
            team = state.seats[seat].team
            if state.to_move == seat and any(worker in state.reserve for worker in state.members[team]):
                found.append(state)
            turns = generic.turns(state)
            if not turns:
                break
            state = generic.play(state, turns[rng.randrange(len(turns))])
    return found


@pytest.mark.parametrize("other", ["Mortal", "Aphrodite", "Chronus", "Limus", "Harpies"])
def test_the_placed_turn_is_the_chains_in_games_from_the_setup(other: str) -> None:
    """Jason against a Mortal and against cards that bind him (Aphrodite's obligation, read from
    where the worker was placed; Chronus's towers; Limus's build ban; Harpies's slide after each
    move): the kernels' turns, draws,
    counts and whole random games are the chain's, while the worker waits on the card, once it
    is placed, and once the card's mark is set."""
    got = counted_games("bga", ("Jason", other))
    assert got is not None
    game, generic = got
    assert game.engine._kernelled[0]
    states = positions_with_a_worker_waiting(game, generic, 0, 6, f"placed {other}")
    assert len(states) >= 6
    for index, state in enumerate(states):
        assert disagreement(game.engine, generic, state, [index], perft_work=2000) is None
        assert playout_disagreement(game, generic, state, index) is None


def test_a_draw_that_takes_the_places_in_another_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chain meets each target first from the first place (in square order) that reaches it:
    a draw that took the places the other way round would give another turn at the same index."""
    pair = counted_games("bga", ("Jason", "Mortal"))
    assert pair is not None
    game, generic = pair
    states = positions_with_a_worker_waiting(game, generic, 0, 4, "places reversed")
    found = placed_first.nth_placed
    monkeypatch.setattr(placed_first, "nth_placed",
                        lambda index, firsts, after: found(index, firsts[::-1], after))
    fresh = counting(game)
    assert any(disagreement(fresh.engine, generic, state, range(8), perft_work=0) is not None for state in states)


#: Jason against Harpies (tests/scenarios/bga/jason-harpies.yaml, counted by hand there): every
#: place and move along row 1 slides the placed worker to a1 or e1.
HARPIES = Path(__file__).parent / "scenarios" / "bga" / "jason-harpies.yaml"


def test_the_placed_worker_slid_on_is_drawn_whole(tmp_path: Path) -> None:
    """Harpies slide the placed worker on after its move: the kernels list the scenario's 2
    turns (A3 on e1 building on d1, on a1 building on b1), each board from the first place and
    move that leads there, in the chain's order, and draw as it does."""
    state = position(tmp_path, HARPIES.read_text(encoding="utf-8"))
    game, _ = kernel_agrees(("Jason", "Harpies"), state, 2)
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0)


def test_a_placed_worker_s_boards_kept_once_per_target_are_caught(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """Two places and moves that slide the worker to one square leave the same boards: kernels
    that kept a board per place and target, as without a slide, would list 8 turns, not 2."""
    def every_way(walk, found, slide, builds):  # noqa: ANN001, ANN202 - the patched function's own signature
        worker = found[0]
        return [(place, m, end, builds(walk, worker, end)) for place, targets in found[1]
                for m in squares_of(targets) for end in (slide(walk, worker, place, m, -1, -1, -1),)]
    monkeypatch.setattr(placed_first, "slid_targets", every_way)
    state = position(tmp_path, HARPIES.read_text(encoding="utf-8"))
    pair = game_pair(pack_of("bga"), ("Jason", "Harpies"))  # (made afresh: compiled with the change)
    assert pair is not None
    game, generic = counting(pair[0]), pair[1]
    assert len(game.engine.turns(state)) == 8
    assert disagreement(game.engine, generic, state, range(20)) is not None
