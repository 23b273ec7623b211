"""Property tests of the parser: any step sentence built from the language's parts parses back to
the parts it was built from, whatever the case and spacing, and a position always points inside
the text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from santorini.dsl.parser import Origin, ParseError, parse_rules

ACTORS = {"one of your workers": "any_worker", "the moved worker": "moved_worker", "that worker": "that_worker"}
CONSTRAINTS = {"not up": "not_up", "not up or down": "not_up_or_down",
               "not back to its starting space": "not_back_to_start", "not on the same space": "not_same_space",
               "on the same space": "same_space", "not a dome": "not_dome"}


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
    [step] = section.statements
    assert step.actor == ACTORS[actor]
    assert step.verb == ("move" if verb.startswith("move") else "build")
    assert step.optional == (modality == "may ")
    assert [c.kind for c in step.constraints] == [CONSTRAINTS[c] for c in constraints]
    assert (step.line, step.column) == (2, 3)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.:'\n#0123456789", max_size=80))
def test_any_text_parses_or_fails_with_a_position_inside_it(text: str) -> None:
    try:
        parse_rules(text, Origin("card.yaml"))
    except ParseError as err:
        lines = text.split("\n")
        assert 1 <= err.line <= max(1, len(lines))
        assert 1 <= err.column <= len(lines[err.line - 1]) + 1
