"""Property tests of the parser: any step sentence built from the language's parts parses back to
the parts it was built from, whatever the case and spacing, and a position always points inside
the text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from santorini.dsl.semantics.compiler import qualifier_condition
from santorini.dsl.syntax.parser import Origin, ParseError, parse_rules
from santorini.dsl.vocabulary import Modality, Role, Verb
from santorini.dsl.vocabulary.parts import (
    NOT_A_DOME,
    NOT_BACK_TO_START,
    NOT_ON_LAST_BUILT,
    NOT_UP,
    NOT_UP_OR_DOWN,
    ON_LAST_BUILT,
)

ACTORS = {"one of your workers": Role.CHOSEN, "the moved worker": Role.MOVED, "that worker": Role.THAT}
CONSTRAINTS = {"not up": NOT_UP, "not up or down": NOT_UP_OR_DOWN,
               "not back to its starting space": NOT_BACK_TO_START, "not on the same space": NOT_ON_LAST_BUILT,
               "on the same space": ON_LAST_BUILT, "not a dome": NOT_A_DOME}


def respell(text: str, upper: list[bool], gap: str) -> str:
    words = text.split(" ")
    return gap.join(w.upper() if upper[i % len(upper)] else w for i, w in enumerate(words))


@given(actor=st.sampled_from(sorted(ACTORS)), modality=st.sampled_from(["", "may ", "must "]),
       verb=st.sampled_from(["move", "moves", "build", "builds"]),
       constraints=st.lists(st.sampled_from(sorted(CONSTRAINTS)), max_size=3),
       upper=st.lists(st.booleans(), min_size=1, max_size=5), gap=st.sampled_from([" ", "  ", "\n    "]))
def test_step_sentences_parse_to_their_parts(actor, modality, verb, constraints, upper, gap) -> None:
    sentence = f"{actor} {modality}{verb}" + "".join(f", {c}" for c in constraints) + "."
    text = "Your Turn:\n  " + respell(sentence, upper, gap)
    [section] = parse_rules(text, Origin("card.yaml")).sections
    [statement] = section.statements
    step = statement.clause
    assert step.actor.selector.role is ACTORS[actor]
    assert step.verb is (Verb.MOVE if verb.startswith("move") else Verb.BUILD)
    assert step.modality is {"": None, "may ": Modality.MAY, "must ": Modality.MUST}[modality]
    assert [qualifier_condition(q) for q in step.qualifiers] == [CONSTRAINTS[c] for c in constraints]
    assert (step.line, step.column) == (2, 3)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.:'\n#0123456789", max_size=80))
def test_any_text_parses_or_fails_with_a_position_inside_it(text: str) -> None:
    try:
        parse_rules(text, Origin("card.yaml"))
    except ParseError as err:
        lines = text.split("\n")
        assert 1 <= err.line <= max(1, len(lines))
        assert 1 <= err.column <= len(lines[err.line - 1]) + 1
