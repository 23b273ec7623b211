"""Property-based fuzzing of every input stage (issue 10, "Tests"): the rule parser, the data
loaders, notation, the scenario runner and records. The invariant: every input ends in success or
in a located message (an error of the package's root class, SantoriniError), soon; never another
exception, which would be a traceback for the user. Inputs are valid files mutated at random, and
random word salads of the rule language's own vocabulary.

"Soon" is counted, not timed (no test asserts a wall-clock time): each example runs within a
budget of Python function calls (support.counted_calls), and fails at once past it, hang or not."""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from santorini.dsl.errors import SantoriniError, SourceError
from santorini.dsl.semantics.checker import check_rules
from santorini.dsl.semantics.compiler import compile_rules
from santorini.dsl.source import load_document
from santorini.dsl.syntax.lexer import vocabulary
from santorini.dsl.syntax.parser import Origin, parse_rules
from santorini.interpreter.games.packs import load_card
from santorini.interpreter.games.records import replay
from santorini.interpreter.games.scenario import check, load_scenario
from santorini.interpreter.model.notation import parse_board, parse_turn
from support import REPO, counted_calls

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                derandomize=True)
#: The most Python function calls one example may make: the largest makes about 2,000,000 today
#: (the first, which builds the grammar); a loop without end makes them in seconds.
BUDGET = 30_000_000
P = ParamSpec("P")


def bounded(test: Callable[P, None]) -> Callable[P, None]:
    """Each example of `test` runs within BUDGET calls."""
    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        counted_calls(lambda: test(*args, **kwargs), BUDGET)
    return run
WORDS = sorted(vocabulary()) + ["your", "worker", "1", "2", "3", ",", ".", "\n", "Your Move:\n", "Your Turn:\n",
                                "Opponent's Turn:\n", "Setup:\n", "Win Condition:\n", "End of Your Turn:\n", "  "]
CARD = (REPO / "powers" / "bga" / "artemis.yaml").read_text(encoding="utf-8")
SCENARIO = (REPO / "tests" / "scenarios" / "bga" / "apollo-swap.yaml").read_text(encoding="utf-8")
RECORD = """\
pack: bga
mode: standard
seed: 1
players:
- Apollo
- Pan
placements:
- place A1 b1; place A2 c1
- place B1 e1; place B2 d3
turns:
- move A1 b2; build A1 a2
- move B2 c4; build B2 b5
result:
  winner: null
  reason: unfinished
"""


@st.composite
def mutated(draw, text: str) -> str:
    """`text` with a few characters inserted, deleted or replaced (YAML's own punctuation likely)."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 6))):
        if not chars:
            break
        at = draw(st.integers(0, len(chars) - 1))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        new = draw(st.sampled_from(list(":-[]{}&*!|>'\"#,\n \t0123456789aAzZ%@`\\") + ["\ud800", "²", "on", "9" * 30]))
        if op == "insert":
            chars.insert(at, new)
        elif op == "delete":
            del chars[at]
        else:
            chars[at] = new
    return "".join(chars)


def write(text: str, name: str = "f.yaml") -> Path:
    folder = Path(tempfile.mkdtemp(prefix="santorini-fuzz-"))
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@FUZZ
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))
@bounded
def test_the_rule_language_answers_any_word_salad(text: str) -> None:
    origin = Origin("fuzz.yaml", 1, 1)
    try:
        rules = parse_rules(text, origin)
    except SourceError:
        return
    if not check_rules(rules, origin, "god"):
        compile_rules(rules, origin, "Fuzz")


@FUZZ
@given(st.text(max_size=120))
@bounded
def test_the_rule_language_answers_any_text(text: str) -> None:
    try:
        parse_rules(text, Origin("fuzz.yaml", 1, 1))
    except SourceError:
        pass


@FUZZ
@given(mutated(CARD))
@bounded
def test_a_mutated_card_loads_or_gets_located_faults(text: str) -> None:
    errors: list = []
    try:
        load_card(write(text), errors)
    except SantoriniError:
        pass
    assert all(isinstance(e, SourceError) and e.line >= 1 and e.column >= 1 for e in errors)


@FUZZ
@given(mutated(SCENARIO))
@bounded
def test_a_mutated_scenario_runs_or_gets_located_faults(text: str) -> None:
    try:
        scenario = load_scenario(write(text))
    except SantoriniError:
        return
    assert isinstance(check(scenario), list)


@FUZZ
@given(mutated(RECORD))
@bounded
def test_a_mutated_record_replays_or_gets_located_faults(text: str) -> None:
    try:
        replay(str(write(text)), None)
    except SantoriniError:
        pass


@pytest.fixture(scope="module")
def state():
    return load_scenario(REPO / "tests" / "scenarios" / "bga" / "apollo-swap.yaml").state


@FUZZ
@given(text=st.one_of(st.text(max_size=40), mutated("move A1 c4; build A1 d5; dome A2 b1; use x; pass; remove B1")))
@bounded
def test_turn_notation_parses_or_says_what_is_accepted(state, text: str) -> None:
    try:
        parse_turn(state, text)
    except SantoriniError:
        pass


@FUZZ
@given(text=st.one_of(st.text(max_size=60), mutated("0 0 0 0 0\n0 0 1 0 0\n0 3D 0 0 0\n0 0 0 0 0\n0 0 0 0 2")))
@bounded
def test_board_text_parses_or_says_what_is_accepted(text: str) -> None:
    try:
        parse_board(text)
    except SantoriniError:
        pass


@FUZZ
@given(st.binary(max_size=200))
@bounded
def test_any_bytes_as_a_data_file_get_one_answer(raw: bytes) -> None:
    folder = Path(tempfile.mkdtemp(prefix="santorini-fuzz-"))
    path = folder / "f.yaml"
    path.write_bytes(raw)
    for kind in ("card", "scenario", "record", "pack", "mode"):
        try:
            load_document(path, kind)
        except SantoriniError:
            pass


RULE_TEXTS = sorted({card.rules for pack in ("bga", "pantheon", "first-edition")
                     for card in __import__("santorini.interpreter.games.packs", fromlist=["load_pack"])
                     .load_pack(pack).cards.values()})


@st.composite
def mutated_rules(draw) -> str:
    """A real card's rules with a few words inserted, replaced or deleted."""
    lines = draw(st.sampled_from(RULE_TEXTS)).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        words = lines[at].split(" ")
        where = draw(st.integers(0, len(words) - 1))
        op = draw(st.sampled_from(["insert", "replace", "delete"]))
        if op == "insert":
            words.insert(where, draw(st.sampled_from(WORDS)))
        elif op == "replace":
            words[where] = draw(st.sampled_from(WORDS))
        elif len(words) > 1:
            del words[where]
        lines[at] = " ".join(words)
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(mutated_rules())
@bounded
def test_a_card_that_check_accepts_plays_without_a_crash_or_a_hang(text: str) -> None:
    """What parses and checks must compile and play: a few random turns from S0 and a count of the
    outcomes, within the call budget (which turns a hang into a failure)."""
    import random

    from santorini.interpreter.engine.engine import Engine
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.model.board import parse_square
    from santorini.interpreter.model.state import GameState, Seat
    origin = Origin("fuzz.yaml", 1, 1)
    try:
        rules = parse_rules(text, origin)
    except SourceError:
        return
    if check_rules(rules, origin, "god"):
        return
    power = compile_rules(rules, origin, "Fuzz")
    try:
        engine = Engine(load_pack("bga").base.power, [[power], []])
        state = GameState(seats=[Seat("A", 0, ("Fuzz",)), Seat("B", 1, ())], team_letters=["A", "B"])
        for team, squares in ((0, ("b3", "d3")), (1, ("c4", "c2"))):
            for number, square in enumerate(squares, 1):
                state.add_worker(team, number, parse_square(square))
        rng = random.Random(1)
        for _ in range(12):
            if state.winner is not None:
                break
            steps = engine.random_turn(state, rng)
            if steps is None:
                break
            engine.play_in_place(state, steps)
        engine.outcomes(state)
    except SantoriniError:
        pass
