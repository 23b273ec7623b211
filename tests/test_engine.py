"""The turn interpreter's queries beyond counting: the legal next steps (lookahead), whether a
prefix is complete, why a turn is refused, and step-by-step tracing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from santorini.interpreter.engine.engine import Engine, IllegalTurn
from santorini.interpreter.engine.refusal import Reason
from santorini.interpreter.model.notation import format_step, parse_turn
from support import s0_text

SCENARIOS = Path(__file__).parent / "scenarios" / "bga"


def steps_text(scenario, actions) -> list[str]:
    return [format_step(scenario.state, a) for a in actions]


def test_legal_next_offers_every_program_first_step(position) -> None:
    """Prometheus may build first or move first: both are offered at the start."""
    scenario = position(s0_text("bga", ["Prometheus", "Mortal"]))
    legal, complete = scenario.game.engine.legal_next(scenario.state, [])
    texts = steps_text(scenario, legal)
    assert not complete
    assert "build A1 a3" in texts and "move A1 a3" in texts
    assert "move A1 c4" not in texts  # occupied by B1


def test_after_prometheus_builds_first_the_move_cannot_go_up(position) -> None:
    scenario = position(s0_text("bga", ["Prometheus", "Mortal"]))
    prefix = parse_turn(scenario.state, "build A1 a3")
    legal, _ = scenario.game.engine.legal_next(scenario.state, prefix)
    assert "move A1 a3" not in steps_text(scenario, legal)  # a3 is now level 1: up
    assert "move A1 a2" in steps_text(scenario, legal)


def test_demeter_prefix_is_complete_after_one_build(position) -> None:
    scenario = position(s0_text("bga", ["Demeter", "Mortal"]))
    prefix = parse_turn(scenario.state, "move A1 a3; build A1 a4")
    legal, complete = scenario.game.engine.legal_next(scenario.state, prefix)
    texts = steps_text(scenario, legal)
    assert complete
    assert "build A1 a2" in texts and "build A1 a4" not in texts


def test_a_prefix_that_an_optional_step_would_skip_past_is_not_complete(position) -> None:
    """Nemesis swaps both workers or neither: after one swap the turn is not complete, though the
    turn that leaves the swap out ends at once (a shorter turn is not the prefix)."""
    data = yaml.safe_load((SCENARIOS / "nemesis-swaps-both-workers.yaml").read_text())
    scenario = position(yaml.safe_dump({k: v for k, v in data.items() if k != "expect"}))
    engine = scenario.game.engine
    _, complete = engine.legal_next(scenario.state, parse_turn(scenario.state, "move A1 a1; build A1 b1"))
    assert complete
    prefix = parse_turn(scenario.state, "move A1 a1; build A1 b1; force A1 d1")
    legal, complete = engine.legal_next(scenario.state, prefix)
    assert not complete and steps_text(scenario, legal) == ["force A2 a4"]


def test_a_worker_given_back_to_the_card_may_enter_again_under_any_name_waiting(position) -> None:
    """Hydra's worker taken off goes back to her card (not out of the game), and a written
    placement may name any worker waiting there: they are alike."""
    data = yaml.safe_load((SCENARIOS / "hydra-loses-a-worker-when-two-stand-together.yaml").read_text())
    scenario = position(yaml.safe_dump({k: v for k, v in data.items() if k != "expect"}))
    engine, state = scenario.game.engine, scenario.state
    after = engine.play(state, parse_turn(state, "move A1 b1; build A1 a1; remove A2"))
    a2 = state.worker_by_name("A2")
    assert after.worker_pos[a2] < 0 and a2 in after.reserve
    grown = yaml.safe_load((SCENARIOS / "hydra-grows-on-a-lowest-space.yaml").read_text())
    scenario = position(yaml.safe_dump({k: v for k, v in grown.items() if k != "expect"}))
    engine, state = scenario.game.engine, scenario.state
    first = engine.play(state, parse_turn(state, "move A1 b1; build A1 c1; place A3 a1"))
    other = engine.play(state, parse_turn(state, "move A1 b1; build A1 c1; place A7 a1"))
    assert first.hash == other.hash and other.worker_pos[state.worker_by_name("A7")] == 0


def test_lookahead_hides_a_move_after_which_no_build_is_possible(position) -> None:
    """Apollo may not swap into a corner where nothing can be built afterwards: from a1 the
    neighbours are a2 and b1 (domed) and b2 (where the swapped worker lands)."""
    data = yaml.safe_load(s0_text("bga", ["Apollo", "Mortal"]))
    data["board"] = "0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0D 0 0 0 0\n0 0D 0 0 0\n"
    data["workers"] = {"A1": "b2", "A2": "e5", "B1": "a1", "B2": "e1"}
    scenario = position(yaml.safe_dump(data))
    engine = scenario.game.engine
    legal, _ = engine.legal_next(scenario.state, [])
    assert "move A1 a1" not in steps_text(scenario, legal)
    assert "move A1 c3" in steps_text(scenario, legal)
    with pytest.raises(IllegalTurn, match="'move A1 a1' \\(step 1\\): the rules offer this step, but no complete "
                                          "turn follows it") as refused:
        engine.play(scenario.state, parse_turn(scenario.state, "move A1 a1"))
    assert refused.value.refusal.reason is Reason.CANNOT_COMPLETE


def test_refused_turn_says_which_step_and_what_is_allowed(position) -> None:
    scenario = position(s0_text("bga", ["Mortal", "Mortal"]))
    engine = scenario.game.engine
    with pytest.raises(IllegalTurn) as caught:
        engine.play(scenario.state, parse_turn(scenario.state, "move A1 b4; build A1 d1"))
    assert "'build A1 d1' (step 2): d1 is not next to A1 (on b4); allowed: build A1 a3" in str(caught.value)
    with pytest.raises(IllegalTurn, match="the turn is not complete; it must go on with one of: build A1"):
        engine.play(scenario.state, parse_turn(scenario.state, "move A1 b4"))


def test_trace_visits_the_state_after_each_step(position) -> None:
    scenario = position(s0_text("bga", ["Artemis", "Mortal"]))
    seen = []
    steps = parse_turn(scenario.state, "move A1 b4; move A1 a5; build A1 b5")
    accepted = scenario.game.engine.trace(scenario.state, steps,
                                          lambda state, prefix: seen.append((len(prefix), state.worker_pos[0])))
    assert accepted
    assert [depth for depth, _ in seen] == [1, 2, 3]


def test_play_does_not_change_the_given_state(position) -> None:
    scenario = position(s0_text("bga", ["Minotaur", "Mortal"]))
    before = scenario.state.hash
    after = scenario.game.engine.play(scenario.state, parse_turn(scenario.state, "move A1 c4; build A1 b4"))
    assert scenario.state.hash == before
    assert after.to_move == 1 and after.history[-1].seat == 0


def test_interchangeable_workers_make_one_outcome(position) -> None:
    """Hermes from A1 a1, A2 c1: the long way round swaps which worker stands where, the short
    way does not; both leave A's workers on b1 and c1 with a1 built: one outcome."""
    data = yaml.safe_load(s0_text("bga", ["Hermes", "Mortal"]))
    data["workers"] = {"A1": "a1", "A2": "c1", "B1": "a5", "B2": "e5"}
    scenario = position(yaml.safe_dump(data))
    engine, state = scenario.game.engine, scenario.state
    long_way = engine.play(state, parse_turn(state, "move A2 b2; move A1 b1; move A1 c1; move A2 b1; build A2 a1"))
    short_way = engine.play(state, parse_turn(state, "move A1 b1; build A1 a1"))
    assert long_way.worker_pos[:2] == short_way.worker_pos[1::-1]
    assert long_way.outcome_key() == short_way.outcome_key()
    assert short_way.outcome_key() in engine.outcomes(state)


def test_a_stuck_seat_loses_under_the_base_cards_loss_condition_and_passes_without_it(position) -> None:
    import dataclasses

    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.game import settle_stuck
    data = yaml.safe_load(s0_text("bga", ["Mortal", "Mortal"]))
    data["board"] = "0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0D 0D 0D 0 0\n0 0 0D 0 0\n"  # a1, b1 walled in
    data["workers"] = {"A1": "a1", "A2": "b1", "B1": "e5", "B2": "e4"}
    scenario = position(yaml.safe_dump(data))
    game = scenario.game
    assert not game.engine.has_turn(game.state)
    base = game.pack.base.power
    game.engine = Engine(dataclasses.replace(base, losses=[]), [[], []])
    assert settle_stuck(game) == "seat A cannot complete a turn and passes"
    assert game.state.to_move == 1 and game.state.winner is None
    game.engine = Engine(base, [[], []])
    game.state.to_move = 0
    assert settle_stuck(game) == "seat A cannot complete a turn and loses"
    assert game.state.winner == 1


def test_a_repeated_step_is_searched_breadth_first_each_outcome_by_a_shortest_way(position) -> None:
    """Hermes on an empty flat board (A1 on a1, A2 on b1, seat B far away): each outcome's moves
    are as few as can take his two workers where they end (king steps, either worker to either
    square: they are alike), on the derived engine and on the generic chain, and neither needs a
    deep recursion (the depth-first search of old went hundreds of calls deep here)."""
    import sys

    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.model.board import parse_square
    data = yaml.safe_load(s0_text("bga", ["Hermes", "Mortal"]))
    data["workers"] = {"A1": "a1", "A2": "b1", "B1": "e5", "B2": "d5"}
    scenario = position(yaml.safe_dump(data))
    state, game = scenario.state, scenario.game
    named = {state.worker_name(worker): worker for worker in range(len(state.worker_pos))}
    start = {named["A1"]: parse_square("a1"), named["A2"]: parse_square("b1")}

    def steps(a: int, b: int) -> int:
        return max(abs(a % 5 - b % 5), abs(a // 5 - b // 5))
    limit = sys.getrecursionlimit()
    for fast in (True, False):
        engine = Engine(game.pack.base.power, [[c.power for c in seat] for seat in game.cards], fast=fast)
        try:
            sys.setrecursionlimit(250)
            turns = engine.turns(state)
        finally:
            sys.setrecursionlimit(limit)
        assert len(turns) > 2000
        for turn in turns:
            where = dict(start)
            for verb, worker, square in turn:
                if verb == "move":
                    where[worker] = square
            (one, a), (two, b) = sorted(where.items())
            fewest = min(steps(start[one], a) + steps(start[two], b), steps(start[one], b) + steps(start[two], a))
            assert sum(1 for step in turn if step[0] == "move") == fewest, (fast, turn)


def _athena_artemis_position(powers):  # noqa: ANN001, ANN202
    """A1 on a1 (level 0) with b1 one level higher, a2 and a3 level with a1 and A2 on b2 (so
    a1 -> b1 -> a2 is the only way to a2 that climbs, and a1 -> a2 the only one that does not);
    B1 on e4 (level 0) next to e5 (level 1). `powers`: seat A's cards."""
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    state = GameState(seats=[Seat("A", 0, tuple(powers)), Seat("B", 1, ())], team_letters=["A", "B"])
    state.set_height(parse_square("b1"), 1)
    state.set_height(parse_square("e5"), 1)
    for team, number, square in ((0, 1, "a1"), (0, 2, "b2"), (1, 1, "e4"), (1, 2, "c5")):
        state.add_worker(team, number, parse_square(square))
    return state


@pytest.mark.parametrize("fast", [True, False])
def test_the_outcome_key_covers_what_a_rule_reads_later(fast: bool) -> None:
    """'The outcome key covers everything that a rule of any seat reads later': a seat with
    Athena's and Artemis's powers may reach one board by a turn that moved up and by one that did
    not. Athena's rule reads the move up on the opponent's turn, so the two are two outcomes;
    with Artemis alone nothing reads it, and they are one."""
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    pack = load_pack("bga")
    athena, artemis = pack.cards["Athena"].power, pack.cards["Artemis"].power
    for powers, held in (([athena, artemis], ("Athena", "Artemis")), ([artemis], ("Artemis",))):
        engine = Engine(pack.base.power, [powers, []], fast=fast)
        state = _athena_artemis_position(held)
        level = parse_turn(state, "move A1 a2; build A1 a3")
        up = parse_turn(state, "move A1 b1; move A1 a2; build A1 a3")
        after_level, after_up = engine.play(state, level), engine.play(state, up)  # both legal
        assert engine.accept(state, up)[0][0][4:] == (0, 1)  # (the first move climbs)
        assert after_level.outcome_key() == after_up.outcome_key()  # the same board
        turns = list(engine.outcomes(state).values())
        if "Athena" in held:
            assert level in turns and up in turns  # two distinct outcomes
            b_up = parse_turn(after_level, "move B1 e5; build B1 e4")
            assert b_up in engine.turns(after_level) and b_up not in engine.turns(after_up)
        else:
            assert (level in turns) != (up in turns)  # one outcome, listed by one of its turns


@pytest.mark.parametrize(("reading", "level_move_after_a_build"), [("whole-turn", False), ("late", True)])
def test_if_possible_is_judged_over_the_whole_turn_or_late(reading: str, level_move_after_a_build: bool) -> None:
    """Persephone binds Prometheus ('if possible, at least one worker must move up'). A1 on b2
    (level 0) could move up onto c2 (level 1). Over the whole turn a move up is possible, so a turn
    that builds first (after which Prometheus may not move up) must not be played. Read late, at
    the moment of the move: after the first build no move up is possible, so that turn is legal.
    Turns that move up are legal both ways, and a plain level move is illegal both ways."""
    from santorini.dsl.vocabulary import IfPossible
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    bga = load_pack("bga")
    engine = Engine(bga.base.power, [[bga.cards["Prometheus"].power], [bga.cards["Persephone"].power]],
                    if_possible=IfPossible(reading))
    state = GameState(seats=[Seat("A", 0, ("Prometheus",)), Seat("B", 1, ("Persephone",))], team_letters=["A", "B"])
    state.set_height(parse_square("c2"), 1)
    for team, number, square in ((0, 1, "b2"), (0, 2, "e5"), (1, 1, "a5"), (1, 2, "e1")):
        state.add_worker(team, number, parse_square(square))

    def legal(text: str) -> bool:
        return accepts(engine, state, text)
    assert legal("move A1 c2; build A1 c3")
    assert not legal("move A1 b3; build A1 b4")
    assert legal("build A1 a1; move A1 b3; build A1 b4") is level_move_after_a_build


def accepts(engine, state, text: str) -> bool:  # noqa: ANN001
    """Whether the engine accepts the turn written `text` from `state`."""
    try:
        engine.play(state, parse_turn(state, text))
    except IllegalTurn:
        return False
    return True


GUARDED_OPTION = "Your Build:\n  if your worker moved up this turn, your worker may build a dome at any level."
GUARDED_FOLLOW_UP = ("Your Move:\n  if your worker moved up this turn, after your worker moves, it may move one "
                     "additional time, not back to its starting space.")


GUARDED_STEP = ("Your Turn:\n  one of your workers moves.\n  the moved worker builds.\n"
                "  if your worker moved up this turn, the moved worker may build.")


@pytest.mark.parametrize(("rules", "turn", "allowed"), [
    (GUARDED_STEP, "move A1 c3; build A1 d4; build A1 d3", True),    # moved up: the guarded build may follow
    (GUARDED_STEP, "move A1 b3; build A1 b4; build A1 c4", False),   # a level move: it may not
    (GUARDED_STEP, "move A1 b3; build A1 b4", True),
    (GUARDED_OPTION, "move A1 c3; dome A1 d4", True),     # moved up (b2 level 0 -> c3 level 1): a dome anywhere
    (GUARDED_OPTION, "move A1 b3; dome A1 b4", False),    # a level move: no dome on level 0
    (GUARDED_OPTION, "move A1 b3; build A1 b4", True),
    (GUARDED_FOLLOW_UP, "move A1 c3; move A1 d4; build A1 d5", True),   # moved up: a second move
    (GUARDED_FOLLOW_UP, "move A1 b3; move A1 b4; build A1 b5", False),  # did not: no second move
    (GUARDED_FOLLOW_UP, "move A1 b3; build A1 b4", True),
])
def test_a_condition_may_guard_a_turn_step_a_step_option_or_a_follow_up(rules: str, turn: str, allowed: bool) -> None:
    """An invented card's rules: the step, option or follow-up holds only while its condition does.
    A1 on b2 (level 0); c3 is level 1, every other space level 0."""
    from santorini.dsl.semantics.checker import check_rules
    from santorini.dsl.semantics.compiler import compile_rules
    from santorini.dsl.syntax.parser import Origin, parse_rules
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    origin = Origin("invented.yaml", 1, 1)
    parsed = parse_rules(rules, origin)
    assert check_rules(parsed, origin, "god") == []
    engine = Engine(load_pack("bga").base.power, [[compile_rules(parsed, origin, "Invented")], []])
    assert engine._shapes[0] is None  # a guarded option or follow-up is the generic chain's
    state = GameState(seats=[Seat("A", 0, ("Invented",)), Seat("B", 1, ())], team_letters=["A", "B"])
    state.set_height(parse_square("c3"), 1)
    for team, number, square in ((0, 1, "b2"), (0, 2, "e5"), (1, 1, "a5"), (1, 2, "e1")):
        state.add_worker(team, number, parse_square(square))
    assert accepts(engine, state, turn) is allowed


def test_a_piece_in_a_prohibition_and_any_neighboring_space_do_what_they_say() -> None:
    """Two sentences the reference once listed as passing the check without doing what they say:
    A's 'opponent workers cannot build a dome.' forbids B the dome on level 3 and nothing else, and
    B's own 'any neighboring space' is a neighbouring one."""
    from santorini.dsl.semantics.compiler import compile_rules
    from santorini.dsl.syntax.parser import Origin, parse_rules
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    origin = Origin("invented.yaml", 1, 1)
    no_dome = compile_rules(parse_rules("Opponent's Turn:\n  opponent workers cannot build a dome.", origin), origin,
                            "X")
    around = compile_rules(parse_rules("Your Build:\n  your worker may build on any neighboring space.", origin),
                           origin, "Y")
    engine = Engine(load_pack("bga").base.power, [[no_dome], [around]])
    state = GameState(seats=[Seat("A", 0, ("X",)), Seat("B", 1, ("Y",))], team_letters=["A", "B"])
    state.set_height(parse_square("c5"), 3)
    for team, number, square in ((0, 1, "a1"), (0, 2, "e1"), (1, 1, "c3"), (1, 2, "e5")):
        state.add_worker(team, number, parse_square(square))
    state.to_move = 1

    def legal(text: str) -> bool:
        return accepts(engine, state, text)
    assert not legal("move B1 c4; build B1 c5")  # the dome on level 3
    assert legal("move B1 c4; build B1 b5")
    assert not legal("move B1 c4; build B1 a1")  # not next to c4


def test_two_obligations_read_late_are_judged_each_on_its_own() -> None:
    """A (Mortal) is bound by B ('if possible, ... must move up') and C ('if possible, ... must move
    down'). A can move up (c3 is level 1) but cannot move down (its workers stand on the ground):
    the first binds, the second does not. So a turn that moves up is legal, and one that does not
    is not, whatever order the turns are judged in."""
    from santorini.dsl.semantics.compiler import compile_rules
    from santorini.dsl.syntax.parser import Origin, parse_rules
    from santorini.dsl.vocabulary import IfPossible
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    origin = Origin("invented.yaml", 1, 1)
    up, dome = (compile_rules(parse_rules(f"Opponent's Turn:\n  if possible, at least one opponent worker must {what} "
                                          "this turn.", origin), origin, name)
                for what, name in (("move up", "Up"), ("move down", "Dome")))
    engine = Engine(load_pack("bga").base.power, [[], [up], [dome]], if_possible=IfPossible.LATE)
    state = GameState(seats=[Seat("A", 0, ()), Seat("B", 1, ("Up",)), Seat("C", 2, ("Dome",))],
                      team_letters=["A", "B", "C"])
    state.set_height(parse_square("c3"), 1)
    for team, number, square in ((0, 1, "b2"), (0, 2, "e5"), (1, 1, "a5"), (1, 2, "e1"), (2, 1, "a3"), (2, 2, "c5")):
        state.add_worker(team, number, parse_square(square))
    assert not accepts(engine, state, "move A1 b1; build A1 a1")
    assert accepts(engine, state, "move A1 c3; build A1 d4")
    outcomes = engine.turns(state)
    assert outcomes and all(turn[0] == ("move", 0, parse_square("c3")) for turn in outcomes)


def test_a_flanked_test_judges_each_placing_and_each_state_afresh() -> None:
    """The flanked test keeps its last verdict while the workers stand still (the builds of one
    move): a worker that moves, or another state with the same squares and other teams, is
    judged again. Flanked by hand: team 0 on b3 and d3 has c3 between them."""
    from santorini.dsl.vocabulary import Flanked, Owner
    from santorini.interpreter.chain.conditions import Judge
    from santorini.interpreter.chain.walk import Walk
    from santorini.interpreter.games.game import new_game, parse_players
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square

    def state(*teams: int):  # (the workers on b3, d3 and c3, of these teams)
        st = new_game(load_pack("bga"), parse_players(["Mortal", "Mortal"])).state
        for number, (team, square) in enumerate(zip(teams, ("b3", "d3", "c3"), strict=True), 1):
            st.add_worker(team, number, parse_square(square))
        return st

    test = Judge(0, 0).compile(Flanked(Owner.OPPONENTS))
    flanked = state(0, 0, 1)
    walk = Walk(flanked, lambda w: False)
    assert test(walk, -1, -1, -1, 0, 0, None)
    flanked.relocate(0, parse_square("a3"))
    assert not test(walk, -1, -1, -1, 0, 0, None)
    flanked.relocate(0, parse_square("b3"))
    assert test(walk, -1, -1, -1, 0, 0, None)
    other = state(0, 1, 0)  # (the same squares: c3 and b3 are team 0's, d3 is not between them)
    assert not test(Walk(other, lambda w: False), -1, -1, -1, 0, 0, None)


@pytest.mark.parametrize(("fast", "repeated"), [(True, False), (False, False), (True, True), (False, True)])
def test_each_of_your_workers_may_take_the_step_or_leave_it_out(fast: bool, repeated: bool) -> None:
    """'each of your workers may build': after the move, each worker builds once or not at all,
    in either order. A1 on a1 may move to b1 only (a2, b2 domed); there its open neighbours are a1
    and c1 (c2 domed). A2 on e5 cannot move (d5, e4 domed, d4 on level 2) but may build on d4. So:
    A1 builds on a1, on c1 or not (3) times A2 builds on d4 or not (2) = 6 outcomes, counted by
    hand; a second build by one worker is refused. With domes any number of times, A1 domes any of
    the 4 sets of {a1, c1} and A2 either of the 2 of {d4}: 8."""
    from santorini.dsl.semantics.checker import check_rules
    from santorini.dsl.semantics.compiler import compile_rules
    from santorini.dsl.syntax.parser import Origin, parse_rules
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    origin = Origin("invented.yaml", 1, 1)
    step = "build a dome at any level any number of times" if repeated else "build"
    parsed = parse_rules(f"Your Turn (instead):\n  one of your workers moves.\n  each of your workers may {step}.",
                         origin)
    assert check_rules(parsed, origin, "god") == []
    engine = Engine(load_pack("bga").base.power, [[compile_rules(parsed, origin, "Invented")], []], fast=fast)
    state = GameState(seats=[Seat("A", 0, ("Invented",)), Seat("B", 1, ())], team_letters=["A", "B"])
    for square in ("a2", "b2", "c2", "d5", "e4"):
        state.set_height(parse_square(square), 3)
        state.set_dome(parse_square(square), True)
    state.set_height(parse_square("d4"), 2)
    for team, number, square in ((0, 1, "a1"), (0, 2, "e5"), (1, 1, "a5"), (1, 2, "c5")):
        state.add_worker(team, number, parse_square(square))
    if repeated:
        assert len(engine.outcomes(state)) == 8
        for turn in ("move A1 b1", "move A1 b1; dome A2 d4; dome A1 c1; dome A1 a1", "move A1 b1; dome A1 a1"):
            assert accepts(engine, state, turn), turn
        for turn in ("move A1 b1; build A1 a1", "move A1 b1; dome A2 d4; dome A2 d4", "move A1 b1; dome A2 c1"):
            assert not accepts(engine, state, turn), turn
        return
    assert len(engine.outcomes(state)) == 6
    for turn in ("move A1 b1", "move A1 b1; build A2 d4; build A1 c1", "move A1 b1; build A1 a1"):
        assert accepts(engine, state, turn), turn
    for turn in ("move A1 b1; build A1 a1; build A1 c1", "move A1 b1; build A2 d4; build A2 d4"):
        assert not accepts(engine, state, turn), turn


@pytest.mark.parametrize("fast", [True, False])
def test_a_once_per_game_turn_lists_no_outcome_its_written_turn_does_not_reach(fast: bool) -> None:
    """'Your Turn (once per game): one of your workers moves. the moved worker builds a dome at any
    level.': a dome on level 3 is also the standard build, and a written turn the standard program
    accepts is taken as a standard one (docs/language.md, section 3), so the card stays unmarked.
    Every listed turn, played, must reach the outcome it is listed under. A1 on a1 may move to b1
    only; c1 is on level 3."""
    from santorini.dsl.semantics.compiler import compile_rules
    from santorini.dsl.syntax.parser import Origin, parse_rules
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    origin = Origin("invented.yaml", 1, 1)
    text = "Your Turn (once per game):\n  one of your workers moves.\n  the moved worker builds a dome at any level."
    engine = Engine(load_pack("bga").base.power, [[compile_rules(parse_rules(text, origin), origin, "X")], []],
                    fast=fast)
    state = GameState(seats=[Seat("A", 0, ("X",)), Seat("B", 1, ())], team_letters=["A", "B"])
    for square in ("a2", "b2", "c2", "d5", "e4", "d4"):
        state.set_height(parse_square(square), 3)
        state.set_dome(parse_square(square), True)
    state.set_height(parse_square("c1"), 3)
    for team, number, square in ((0, 1, "a1"), (0, 2, "e5"), (1, 1, "a5"), (1, 2, "c5")):
        state.add_worker(team, number, parse_square(square))
    # (the standard turn: a block on a1 or the dome on c1; once per game: a dome on a1, the card
    # marked; the dome on c1 once per game is the standard turn's, written the same)
    outcomes = engine.outcomes(state)
    assert len(outcomes) == 3
    for key, turn in outcomes.items():
        assert engine.play(state, turn).outcome_key() == key, turn
    assert engine.random_turn(state, random.Random(5)) in set(outcomes.values())


@pytest.mark.parametrize("fast", [True, False])
def test_a_once_per_game_step_repeated_lists_each_outcome_by_its_fewest_takings(fast: bool) -> None:
    """Odysseus (A2 on e1 next to B1 on e2; A1 on a2; the corners a1, a5, e5 empty): forced into a1,
    B1 is next to A1 and may be forced on to a5 or e5, where one force from e2 takes it at once. A
    turn is listed by a shortest way (docs/language.md, 4.6), so no listed turn forces twice; the
    power's first force and the later ones are one search."""
    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    pack = load_pack("bga")
    engine = Engine(pack.base.power, [[pack.cards["Odysseus"].power], []], fast=fast)
    state = GameState(seats=[Seat("A", 0, ("Odysseus",)), Seat("B", 1, ())], team_letters=["A", "B"])
    for team, number, square in ((0, 1, "a2"), (0, 2, "e1"), (1, 1, "e2"), (1, 2, "c5")):
        state.add_worker(team, number, parse_square(square))
    turns = engine.turns(state)
    assert any(step[0] == "force" for turn in turns for step in turn)
    assert all(sum(step[0] == "force" for step in turn) <= 1 for turn in turns)


def test_a_condition_on_placing_a_worker_from_the_card_is_judged() -> None:
    """'if your unmoved worker is on level 1, you may place your extra worker ...': on a flat board
    the condition never holds, so no turn places the worker (it was once offered regardless)."""
    from random_cards import card_text, load, pack_with, set_workers

    from santorini.interpreter.games.game import new_game, parse_players
    from santorini.interpreter.model.board import parse_square as square_of
    card = load(card_text("Setup:\n  you have 1 extra worker on your card.\nEnd of Your Turn:\n  if your unmoved "
                          "worker is on level 1, you may place your extra worker on any unoccupied space."))
    game = new_game(pack_with(card), parse_players([card.name, "Mortal"]))
    state = set_workers(game, [[square_of("b3"), square_of("d3")], [square_of("c4"), square_of("c2")]])
    for fast in (True, False):
        engine = game.engine if fast else Engine(game.pack.base.power, [[c.power for c in s] for s in game.cards],
                                                 fast=False)
        turns = list(engine.outcomes(state).values())
        assert turns and not any(step[0] == "place" for turn in turns for step in turn)


def test_an_additional_turn_without_its_own_section_is_the_usual_turn_or_a_pass() -> None:
    """'End of Your Turn: if ..., you may take an additional turn.' on a card with no 'Additional
    Turn:' section: a turn that moved a worker up owes one, the seat moves again, and that turn is
    one of its usual turns or `pass`; a usual turn that moves up again owes another, and one that
    does not leaves the next seat to move. Fast paths on and off agree."""
    from random_cards import card_text, load, pack_with, set_workers

    from santorini.interpreter.games.game import new_game, parse_players
    from santorini.interpreter.model.board import parse_square as square_of
    from santorini.interpreter.model.notation import parse_turn
    card = load(card_text("End of Your Turn:\n  if one of your workers moved up this turn, you may take an additional "
                          "turn."))
    game = new_game(pack_with(card), parse_players([card.name, "Mortal"]))
    state = set_workers(game, [[square_of("b3"), square_of("d3")], [square_of("c4"), square_of("c2")]])
    state.set_height(square_of("b4"), 1)
    state.set_height(square_of("a4"), 2)
    owed = ("additional turn",)
    for fast in (True, False):
        engine = game.engine if fast else Engine(game.pack.base.power, [[c.power for c in s] for s in game.cards],
                                                 fast=False)
        usual = list(engine.outcomes(state).values())
        up = engine.play(state, parse_turn(state, "move A1 b4; build A1 c5"))
        assert up.to_move == 0 and up.counters == {(0, *owed): 1}
        flat = engine.play(state, parse_turn(state, "move A1 a3; build A1 a2"))
        assert flat.to_move == 1 and not flat.counters
        turns = engine.outcomes(up)
        assert ("pass", -1, -1) in {turn[0] for turn in turns.values()}
        # (every outcome of the additional turn but the pass is a usual turn's from the same board)
        unowed = up.copy()
        unowed.set_counter(0, *owed, 0)
        assert len(turns) == len(engine.outcomes(unowed)) + 1
        again = engine.play(up, parse_turn(up, "move A1 a4; build A1 a5"))
        assert again.to_move == 0 and again.counters == {(0, *owed): 1}
        passed = engine.play(up, parse_turn(up, "pass"))
        assert passed.to_move == 1 and not passed.counters
        assert usual and not any(step[0] == "pass" for turn in usual for step in turn)  # (none owed: no pass)
