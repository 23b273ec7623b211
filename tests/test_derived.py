"""The derived engine (interpreter/derived): moves and builds lowered from their typed parts to
generated code must find exactly the outcomes of the generic chain, in its order, for seats bound
by other seats' rules too; a lowering changed by hand must be caught; and what each seat gets is
said in words (Engine.paths), never silently."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from santorini.dsl.semantics.checker import check_rules
from santorini.dsl.semantics.compiler import compile_rules
from santorini.dsl.syntax.parser import Origin, parse_rules
from santorini.dsl.vocabulary import IfPossible, LevelChange, Near, OccupiedBy, Owner, Power
from santorini.interpreter.derived import conditions
from santorini.interpreter.derived.invariance import builds_that_may_win, unchanged_by_a_build
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game, SetupError, end_of_setup, new_game, parse_players, place_workers
from santorini.interpreter.games.packs import MORTAL, load_pack
from santorini.interpreter.model.board import parse_square
from santorini.interpreter.model.state import GameState, Seat

BGA = load_pack("bga")


def _binds_others(name: str) -> bool:
    """Whether the card lays a rule on other seats (read from its compiled parts, not its name)."""
    power = BGA.cards[name].power
    return bool(power.prohibitions or power.vetoes or power.obligations or power.reactions or power.dome_likes)


BINDING = sorted(name for name in BGA.cards if _binds_others(name))


def _pair(first: str, second: str, fast: bool) -> Game | None:
    """A game of two seats from S0, with the fast engine or the generic one (None: the pack does
    not let the two play, or a card's setup refuses S0)."""
    try:
        game = new_game(BGA, parse_players([first, second]))
        game.engine = Engine(BGA.base.power, [[c.power for c in seat] for seat in game.cards], fast=fast,
                             teams=[seat.team for seat in game.state.seats], if_possible=BGA.if_possible)
        place_workers(game, 0, [parse_square("b3"), parse_square("d3")])
        place_workers(game, 1, [parse_square("c4"), parse_square("c2")])
        end_of_setup(game)
    except (SetupError, ValueError):
        return None
    return game


def _disagreements(first: str, second: str, turns: int, seed: int) -> Iterator[str]:
    """Play a random game under the generic engine; at every turn, the fast engine's outcomes
    must be the generic chain's, key for key and turn for turn, in the same order."""
    fast, generic = _pair(first, second, True), _pair(first, second, False)
    if fast is None or generic is None:
        return
    rng = random.Random(seed)
    for number in range(turns):
        state = generic.state
        if state.winner is not None:
            return
        expected = list(generic.engine.outcomes(state).items())
        found = list(fast.engine.outcomes(state).items())
        if found != expected:
            yield f"{first} v {second}, turn {number + 1}: {len(found)} outcomes, the generic chain {len(expected)}"
            return
        if not expected:
            return
        generic.engine.play_in_place(state, expected[rng.randrange(len(expected))][1])


def test_there_are_cards_that_bind_other_seats() -> None:
    assert len(BINDING) >= 8  # (prohibitions, vetoes, obligations, reactions, tokens read as domes)


@pytest.mark.parametrize("card", sorted(BGA.cards))
def test_every_card_against_binding_opponents_finds_the_generic_outcomes(card: str) -> None:
    """Each card against three of the cards that bind other seats, on either side: a binding is
    a part like any other, lowered with the seat it binds."""
    index = sorted(BGA.cards).index(card)
    opponents = [BINDING[(index + k) % len(BINDING)] for k in range(3)]
    faults = [fault for other in opponents for seats in ((card, other), (other, card))
              for fault in _disagreements(*seats, turns=12, seed=index)]
    assert not faults, "\n".join(faults)


def test_a_wrong_lowering_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison bites: a lowering of the climb limit turned the wrong way ('up at most 1
    level' read as 'down at most 1 level') makes the derived code find other outcomes."""
    right = conditions.LOWERINGS[LevelChange]

    def flipped(lowering: conditions.Lowering, part: LevelChange, view: conditions.View) -> str:
        return right(lowering, LevelChange(part.op, -part.amount), view)
    monkeypatch.setitem(conditions.LOWERINGS, LevelChange, flipped)
    # Demeter's seat against Aphrodite is drawn and listed by its kernel (see the next test).
    faults = [fault for seed in range(4) for fault in _disagreements("Demeter", "Aphrodite", 12, seed)]
    assert faults


def test_a_wrong_lowering_of_a_binding_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for a part that only another seat's binding reads: Apollo's move into an
    opponent's space made blind to whose the worker is."""
    def anyone(lowering: conditions.Lowering, part: OccupiedBy, view: conditions.View) -> str:
        return f"OCC[{view.target}] >= 0 and OCC[{view.target}] != {view.worker}"
    monkeypatch.setitem(conditions.LOWERINGS, OccupiedBy, anyone)
    faults = [fault for seed in range(6) for fault in _disagreements("Apollo", "Hera", 16, seed)]
    assert faults


def test_each_seat_says_how_its_turns_are_found() -> None:
    """Engine.paths names what lists a seat's turns and what the derived engine left to the
    generic chain: another seat's obligation, a step kind with no lowering yet."""
    game = _pair("Iris", "Aphrodite", True)
    assert game is not None
    iris = game.engine.paths(0)
    assert iris[0] == "listing turns: the derived code, step by step (derived/steps.py)"
    assert any(line.startswith("lowered:") and "move (base.yaml" in line for line in iris)
    assert "generic: another seat's obligation, judged on each whole turn by the generic test" in iris
    game = _pair("Hermes", "Aphrodite", True)
    assert game is not None
    hermes = game.engine.paths(0)
    assert hermes[0] == "listing turns: the whole turn by the derived code (derived/kernel.py)"
    assert any(line.startswith("lowered:") and "move (hermes.yaml" in line for line in hermes)
    assert "another seat's obligation: lowered as the squares the move must end on (derived/kernel.py)" in hermes
    game = _pair("Demeter", "Aphrodite", True)
    assert game is not None
    demeter = game.engine.paths(0)
    assert demeter[0] == "listing turns: the whole turn by the derived code (derived/kernel.py)"
    assert "another seat's obligation: lowered as the squares the move must end on (derived/kernel.py)" in demeter
    charon = _pair("Charon", MORTAL, True)
    assert charon is not None
    assert any("the verb 'force'" in line and "no lowering yet" in line for line in charon.engine.paths(0))
    generic = _pair(MORTAL, MORTAL, False)
    assert generic is not None and generic.engine.paths(0) == ["every traversal: the generic chain (fast paths off)"]


def test_show_and_bench_print_each_seats_paths() -> None:
    """`santorini show CARD` tells an author what speed the card gets (against a Mortal), and
    `bench` tells it for every seat before it plays."""
    from click.testing import CliRunner

    from santorini.interpreter.cli.cli import main
    shown = CliRunner().invoke(main, ["show", "Charon", "--pack", "bga"])
    assert shown.exit_code == 0, shown.output
    speed = shown.output.split("Speed (its seat against a Mortal):\n", 1)[1]
    assert "listing turns: the derived code" in speed and "the verb 'force'" in speed
    bench = CliRunner().invoke(main, ["bench", "--gods", "Iris", "Aphrodite", "--seconds", "0.2"])
    assert bench.exit_code == 0, bench.output
    first, second = bench.output.splitlines()[:2]
    assert first.startswith("seat A (Iris): listing turns: the derived code")
    assert "generic: another seat's obligation, judged on each whole turn by the generic test" in first
    assert second.startswith("seat B (Aphrodite): listing turns: the plain turn's lister")


def test_a_wrong_lowering_of_a_hoisted_part_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """'neighboring your workers' is made once per acting worker (hoisted): Limus's prohibition
    read as if it bound every space makes its opponents' derived builds differ."""
    def everywhere(lowering: conditions.Lowering, part: Near, view: conditions.View) -> str:
        return "True"
    monkeypatch.setitem(conditions.LOWERINGS, Near, everywhere)
    faults = [fault for seed in range(3) for fault in _disagreements("Demeter", "Limus", 12, seed)]
    assert faults


@pytest.mark.parametrize("card", sorted(BGA.cards))
def test_can_win_agrees_with_the_generic_chain(card: str) -> None:
    """`can_win` runs the derived code when the seat has no hand-tuned check (skipping the
    outcomes that cannot win): the same answer as the generic chain's search, at every turn of a
    random game against a card that binds other seats."""
    other = BINDING[sorted(BGA.cards).index(card) % len(BINDING)]
    for seats in ((card, other), (other, card)):
        fast, generic = _pair(*seats, True), _pair(*seats, False)
        if fast is None or generic is None:
            continue
        rng, state = random.Random(7), generic.state
        for number in range(20):
            if state.winner is not None:
                break
            assert fast.engine.can_win(state) == generic.engine.can_win(state), f"{seats}, turn {number + 1}"
            turns = generic.engine.turns(state)
            if not turns:
                break
            generic.engine.play_in_place(state, turns[rng.randrange(len(turns))])


# ---- obligations judged before a last build -------------------------------------------------------

def _power(rules: str, name: str) -> Power:
    origin = Origin(f"{name}.yaml", 1, 1)
    parsed = parse_rules(rules, origin)
    assert check_rules(parsed, origin, "god") == []
    return compile_rules(parsed, origin, name)


ON_THE_EDGE = _power("Opponent's Turn:\n  at least one opponent worker must build on a perimeter space this turn.",
                     "Edge")
MOVE_UP = _power("Opponent's Turn:\n  if possible, at least one opponent worker must move up this turn.", "Up")


def test_what_a_build_cannot_change() -> None:
    """Aphrodite's last moves and Persephone's move up are settled before a last build; a build on
    a perimeter space is not."""
    assert unchanged_by_a_build(BGA.cards["Aphrodite"].power.obligations[0].requirement)
    assert unchanged_by_a_build(BGA.cards["Persephone"].power.obligations[0].requirement)
    assert not unchanged_by_a_build(ON_THE_EDGE.obligations[0].requirement)


def _custom_disagreements(mover: str | Power, binder: Power | None, turns: int, seed: int,
                          if_possible: IfPossible = IfPossible.WHOLE_TURN) -> Iterator[str]:
    """`_disagreements` for a shipped card (or a power written here) against a power written here
    (or a Mortal)."""
    first = [mover] if isinstance(mover, Power) else [BGA.cards[mover].power] if mover != MORTAL else []
    second = [binder] if binder is not None else []
    engines = [Engine(BGA.base.power, [first, second], fast=fast, if_possible=if_possible) for fast in (True, False)]
    names = [first[0].name if first else MORTAL, binder.name if binder is not None else MORTAL]
    state = GameState(seats=[Seat("A", 0, (names[0],)), Seat("B", 1, (names[1],))], team_letters=["A", "B"])
    for team, number, square in ((0, 1, "b3"), (1, 1, "c4"), (0, 2, "d3"), (1, 2, "c2")):
        state.add_worker(team, number, parse_square(square))
    rng = random.Random(seed)
    for number in range(turns):
        if state.winner is not None:
            return
        expected = list(engines[1].outcomes(state).items())
        if list(engines[0].outcomes(state).items()) != expected:
            yield f"{names[0]} v {names[1]}, turn {number + 1}"
            return
        if not expected:
            return
        engines[1].play_in_place(state, expected[rng.randrange(len(expected))][1])


@pytest.mark.parametrize("mover", ["Demeter", "Hephaestus", "Atlas", "Prometheus", "Poseidon", MORTAL])
@pytest.mark.parametrize("binder", [ON_THE_EDGE, MOVE_UP], ids=["build-on-edge", "move-up"])
@pytest.mark.parametrize("if_possible", list(IfPossible), ids=[reading.value for reading in IfPossible])
def test_obligations_judged_before_a_last_build_find_the_generic_outcomes(mover: str, binder: Power,
                                                                         if_possible: IfPossible) -> None:
    """Both readings of 'if possible': over the whole turn, and late (BGA's), at the turn's first
    step of the verb, which the derived code judges once that step is taken."""
    faults = [fault for seed in range(3) for fault in _custom_disagreements(mover, binder, 10, seed, if_possible)]
    assert not faults, faults


def test_an_obligation_a_build_changes_is_judged_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis bites: taken as settled before the last build, 'must build on a perimeter space'
    would keep turns whose only build on the edge is the last one out (or in)."""
    from santorini.interpreter.engine import engine as engine_module
    monkeypatch.setattr(engine_module, "unchanged_by_a_build", lambda condition: True)
    faults = [fault for seed in range(3) for fault in _custom_disagreements("Demeter", ON_THE_EDGE, 10, seed)]
    assert faults


# ---- wins judged on the board after every build --------------------------------------------------

def _towers(fast: bool, card: str = "Chronus") -> tuple[Engine, GameState]:
    """A Mortal (A) against `card` (B), four complete towers on the board and level-3 spaces
    beside A's workers: A's dome on one of them is a fifth tower (Chronus's win, B's)."""
    engine = Engine(BGA.base.power, [[], [BGA.cards[card].power]], fast=fast)
    state = GameState(seats=[Seat("A", 0, (MORTAL,)), Seat("B", 1, (card,))], team_letters=["A", "B"])
    for name in ("a1", "e1", "a5", "e5"):
        state.set_height(parse_square(name), 3)
        state.set_dome(parse_square(name), True)
    for name in ("c2", "b4", "d3"):
        state.set_height(parse_square(name), 3)
    state.set_height(parse_square("c1"), 2)
    for team, number, square in ((0, 1, "b2"), (1, 1, "e3"), (0, 2, "c4"), (1, 2, "a3")):
        state.add_worker(team, number, parse_square(square))
    return engine, state


def test_only_a_dome_on_level_3_may_complete_a_tower() -> None:
    condition = BGA.cards["Chronus"].power.wins_when[0].condition
    assert builds_that_may_win([condition]) == "(dome and h == 3)"
    assert builds_that_may_win([]) == "False"
    assert builds_that_may_win([ON_THE_EDGE.obligations[0].requirement]) is None  # (not a count: unknown)


def test_a_board_win_is_found_among_keyed_builds() -> None:
    """Against Chronus, A's builds are keyed but its domes on level 3 are made and judged: the
    outcomes (B winning among them) and can_win match the generic chain."""
    (fast, state), (generic, _) = _towers(True), _towers(False)
    expected = list(generic.outcomes(state).items())
    assert list(fast.outcomes(state).items()) == expected
    winners = [turn for turn in generic.turns(state) if generic.play(state, turn).winner == 1]
    assert winners  # (the fifth tower: A's dome on c2, b4 or d3 makes Chronus win)
    state.to_move = 1
    assert fast.can_win(state) == generic.can_win(state)


def test_a_wrong_answer_about_winning_builds_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Told that no build may make a board win, the derived code keys the fifth tower too and
    misses B's win."""
    from santorini.interpreter.derived import steps
    monkeypatch.setattr(steps, "levels_that_may_win", lambda conditions: ())
    (fast, state), (generic, _) = _towers(True), _towers(False)
    assert list(fast.outcomes(state).items()) != list(generic.outcomes(state).items())


# ---- facts of a turn that a rule reads later -------------------------------------------------------

def test_the_facts_athenas_turns_keep_are_settled_before_a_last_build() -> None:
    """'moved up on your last turn': a fact of the turn's moves, which no build changes; the derived
    code adds it to the keys of the turn's last builds instead of making each build."""
    game = _pair("Athena", MORTAL, True)
    assert game is not None and game.engine._seat_memory[0] and game.engine._settled_memory[0]
    faults = [fault for seed in range(4) for fault in _disagreements("Athena", "Demeter", 14, seed)]
    assert not faults, faults


def test_facts_left_out_of_the_keys_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison sees the keys: without the facts, Athena's outcomes have other keys than
    the generic chain's, which counts them."""
    monkeypatch.setattr(Engine, "_fact_key", lambda self, walk: 0)
    faults = [fault for seed in range(4) for fault in _disagreements("Athena", "Demeter", 14, seed)]
    assert faults


# ---- a step entered once per state and context -----------------------------------------------------

#: Two builds in either order reach one position, but the third build reads which came last.
THRICE = _power("Your Turn:\n  one of your workers moves.\n  that worker builds.\n  that worker builds.\n"
                "  that worker builds on the same space.\n", "Thrice")


@pytest.mark.parametrize("rules", [
    "Your Turn:\n  one of your workers moves.\n  that worker builds.\n  that worker builds.\n"
    "  that worker builds on the same space.\n",
    "Your Turn:\n  one of your workers moves.\n  that worker moves, not back to its starting space.\n"
    "  that worker moves, not back to its starting space.\n  that worker builds.\n",
    "End of Your Turn:\n  your unmoved worker may build up to 3 times.\n",
], ids=["builds-then-same-space", "three-moves", "unmoved-builds"])
def test_steps_entered_once_per_state_find_the_generic_outcomes(rules: str) -> None:
    """A step reached again in the same position and context (what it and the steps after it read
    of the turn: the last build, where moved workers started) is entered once; the outcomes stay
    the generic chain's."""
    power = _power(rules, "Invented")
    faults = [fault for seed in range(6) for fault in _custom_disagreements(power, None, 8, seed)]
    assert not faults, faults


def test_a_context_that_forgets_what_a_step_reads_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taken without the last build's space, the third build's context merges (a, b) and (b, a):
    the outcomes of building on a twice and on b once are lost."""
    from santorini.interpreter.derived import steps
    monkeypatch.setattr(steps, "_context", lambda reads: (lambda walk: ()))
    faults = [fault for seed in range(6) for fault in _custom_disagreements(THRICE, None, 8, seed)]
    assert faults


def test_a_board_win_that_already_holds_is_judged_on_every_build() -> None:
    """A position set up with five complete towers: whatever A builds, the count holds after it,
    and the generic chain makes Chronus win on every build; so does the derived code."""
    engines = []
    for fast in (True, False):
        engine, state = _towers(fast)
        state.set_dome(parse_square("c2"), True)  # the fifth tower, before A's turn
        engines.append((engine, state))
    (fast_engine, state), (generic, _) = engines
    expected = list(generic.outcomes(state).items())
    assert expected and all(generic.play(state, turn).winner == 1 for _, turn in expected)
    assert list(fast_engine.outcomes(state).items()) == expected


def test_what_levels_alone_say_a_move_cannot_match() -> None:
    """'not up or down' and 'up onto level 3' exclude each other; 'up at most 1 level' does not."""
    from santorini.dsl.vocabulary import Compare, TargetLevel
    from santorini.dsl.vocabulary.parts import NOT_UP_OR_DOWN, UP
    from santorini.interpreter.derived.invariance import may_match_together
    onto_3 = (UP, TargetLevel(Compare.EQ, 3))
    assert not may_match_together((NOT_UP_OR_DOWN,), onto_3)
    assert may_match_together((LevelChange(Compare.LE, 1),), onto_3)
    assert may_match_together((Near(Owner.YOURS),), onto_3)  # (not about levels: it may hold)


def test_a_search_for_a_win_skips_steps_that_cannot_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hermes's walks 'not up or down' cannot win, and its build cannot: the derived chain's
    can_win (its kernels set aside, which search their own way) searches its other turn only,
    and still finds a win there; told that nothing can win, it finds none."""
    game = _pair("Hermes", MORTAL, True)
    generic = _pair("Hermes", MORTAL, False)
    assert game is not None and generic is not None
    game.engine._kernels[0] = None
    state = game.state
    for square, height in (("a3", 2), ("a4", 3), ("c3", 1)):
        state.set_height(parse_square(square), height)
    state.relocate(0, parse_square("a3"))  # A1 on level 2 beside a4 on level 3: a win in one move
    assert generic.engine.can_win(state) and game.engine.can_win(state)
    from santorini.interpreter.derived import steps
    monkeypatch.setattr(steps, "may_match_together", lambda *conditions: False)
    blind = _pair("Hermes", MORTAL, True)
    assert blind is not None
    blind.engine._kernels[0] = None
    assert not blind.engine.can_win(state)


def test_a_build_that_takes_a_token_off_is_keyed_as_the_generic_chain_keys_it() -> None:
    """Where the generic chain makes each last build (an obligation judged on the turn), its key
    counts the token the build takes off the board (where it keys the builds by arithmetic, it
    does not): so do the derived keys, which judge the obligation once and key the builds."""
    engines = [Engine(BGA.base.power, [[BGA.cards["Demeter"].power], [MOVE_UP]], fast=fast,
                      if_possible=IfPossible.LATE) for fast in (True, False)]
    state = GameState(seats=[Seat("A", 0, ("Demeter",)), Seat("B", 1, ("Up",))], team_letters=["A", "B"])
    for team, number, square in ((0, 1, "b3"), (1, 1, "c4"), (0, 2, "d3"), (1, 2, "c2")):
        state.add_worker(team, number, parse_square(square))
    state.set_height(parse_square("a4"), 1)  # (a move up for A1, so the obligation binds)
    for square in ("a3", "b2", "c3", "e4"):
        state.set_token(parse_square(square), ("coin", 1))
    fast, generic = (list(engine.outcomes(state).items()) for engine in engines)
    assert fast == generic
