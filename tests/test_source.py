"""Tests for the data-file loader (dsl/source.py) and the JSON Schemas in schema/."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from santorini.dsl.source import (
    KINDS,
    Document,
    SourceError,
    SourceErrors,
    load_document,
    load_schema,
)

SHARED_SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "examples"  # copies of shared/scenarios

CARD = """\
name: Apollo
title: God of Music
kind: god
tier: simple
players: [2, 3, 4]
summary: moves into an opponent's space and swaps with that worker
text: |
  Your Move: Your Worker may move into an opponent Worker's space by forcing their Worker
  to the space yours just vacated.
rules: |
  Your Move: the worker may move into an opponent's space, swapping
"""

MINIMAL = {
    "card": CARD,
    "pack": """\
name: bga
title: Board Game Arena
edition: bga
description: The powers as Board Game Arena plays them.
language: 1
settings:
  if_possible: late
default_modes:
  2: standard
""",
    "mode": """\
name: standard
title: Standard game
players: [2, 3, 4]
summary: each seat gets one god power
powers_per_seat: 1
rules: |
  Setup: each player places two workers
""",
    "scenario": """\
name: a mortal position
edition: bga
players: [Mortal, Mortal]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
workers: {A1: a1, A2: b2, B1: d4, B2: e5}
""",
    "record": """\
pack: bga
players: [Apollo, Athena]
placements: ["place A1 c3; place A2 d2", "place B1 b2; place B2 e5"]
turns: ["move A1 c4; build A1 c5"]
""",
}


def write(tmp_path: Path, text: str, name: str = "doc.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def errors_of(path: Path, kind: str) -> list[SourceError]:
    with pytest.raises(SourceErrors) as caught:
        load_document(path, kind)
    return caught.value.errors


def where(errors: list[SourceError]) -> list[tuple[int, int, str]]:
    return [(e.line, e.column, e.message) for e in errors]


# --- schemas -----------------------------------------------------------------------------------


def walk_schemas(schema: Any, path: str = "#"):
    """Every subschema, with its JSON pointer."""
    if isinstance(schema, dict):
        yield path, schema
        for key, value in schema.items():
            if key in ("properties", "patternProperties", "$defs"):
                for name, sub in value.items():
                    yield from walk_schemas(sub, f"{path}/{key}/{name}")
            elif key in ("anyOf", "oneOf", "allOf"):
                for index, sub in enumerate(value):
                    yield from walk_schemas(sub, f"{path}/{key}/{index}")
            elif key in ("items", "then", "else", "propertyNames", "not"):  # "if" only tests
                yield from walk_schemas(value, f"{path}/{key}")


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_and_documented(kind: str) -> None:
    schema = load_schema(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:santorini:schema:{kind}"
    assert schema["title"] and schema["description"]
    for pointer, sub in walk_schemas(schema):
        for name, prop in sub.get("properties", {}).items():
            assert prop.get("description"), f"{kind} {pointer}/properties/{name} has no description"
        if sub.get("type") == "object" and "$comment" not in sub:
            assert sub.get("additionalProperties") is False, f"{kind} {pointer} is open"


def test_unknown_kind_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        load_schema("god")
    with pytest.raises(ValueError):
        load_document(write(tmp_path, MINIMAL["card"]), "cards")


# --- valid documents ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_minimal_documents_load(tmp_path: Path, kind: str) -> None:
    document = load_document(write(tmp_path, MINIMAL[kind]), kind)
    assert isinstance(document, Document)
    assert document.kind == kind
    assert isinstance(document.data, dict)


def test_data_is_what_safe_load_gives(tmp_path: Path) -> None:
    import yaml

    path = write(tmp_path, MINIMAL["card"])
    assert load_document(path, "card").data == yaml.safe_load(path.read_text())


@pytest.mark.parametrize("name", ["mortal-basics.yaml", "athena-history.yaml"])
def test_shared_example_scenarios_validate(name: str) -> None:
    document = load_document(SHARED_SCENARIOS / name, "scenario")
    assert document.data["players"]
    assert "expect" in document.data


def test_full_scenario_format_validates(tmp_path: Path) -> None:
    """Every construct shown in docs/spec/scenarios.md, plus our perft extension."""
    path = write(tmp_path, """\
        name: Minotaur pushes an opponent backwards, up two levels
        edition: bga
        mode: standard
        players:
          - Minotaur
          - {god: Athena, team: A}
          - {gods: [Zeus, Hera]}
        to_move: A
        board: |
          0 0 0 0 0
          0 0 2 0 0
          0 1 0 0 3D
          0 0 0 0 0
          1D 0 0 0 0
        workers:
          A1: c3
          a2: A1
          B1: {at: C4, sex: female}
          B2: {at: e5}
        tokens:
          d2: whirlpool
        die: 3
        rolls: [5, 2]
        cards:
          A: {coins: 2, flags: [x]}
        history:
          - "move A1 c4; build A1 c5"
        expect:
          turns: 17
          win: true
          lose: false
          legal: ["move A1 c4; build A1 c5"]
          illegal: ["move A1 d4; build A1 d5"]
          includes:
            - {workers: {A1: c4, B1: c5}}
            - {board: {c5: 1, c4: 2D, a1: "0"}, winner: A}
          excludes:
            - {workers: {A1: d4, B2: null}, winner: null}
          after:
            turn: "move A1 c4; build A1 c5"
            board: {c5: 1}
            workers: {B1: c5}
            winner: null
          perft: {1: 17, 2: 300, "3": 4000}
        """)
    document = load_document(path, "scenario")
    assert document.data["expect"]["perft"][1] == 17  # keys stay as YAML gives them


def test_record_with_result(tmp_path: Path) -> None:
    extra = "mode: standard\nseed: null\nresult: {winner: A, reason: moved up to level 3}\n"
    path = write(tmp_path, MINIMAL["record"] + extra)
    assert load_document(path, "record").data["result"]["winner"] == "A"


def test_text_parameter_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(SourceErrors) as caught:
        load_document("powers/bga/apollo.yaml", "card", text="name: [\n")
    assert str(caught.value).startswith("powers/bga/apollo.yaml:")


# --- faults ------------------------------------------------------------------------------------


def test_misspelt_key_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, CARD.replace("rules: |", "rulez: |"))
    errors = errors_of(path, "card")
    assert (10, 1, "unknown key 'rulez' (did you mean 'rules'?)") in where(errors)
    assert str(errors[0]).startswith(f"{path}:")


def test_unknown_key_without_a_close_match_lists_the_keys(tmp_path: Path) -> None:
    errors = errors_of(write(tmp_path, MINIMAL["pack"] + "colour: blue\n"), "pack")
    assert where(errors) == [(10, 1, "unknown key 'colour' (accepted keys: name, title, edition, "
                                     "description, language, extends, settings, default_modes, "
                                     "edition_cards)")]


def test_duplicate_key_is_refused_at_the_second(tmp_path: Path) -> None:
    path = write(tmp_path, CARD + "name: Apollo\n")
    assert where(errors_of(path, "card")) == [(12, 1, "duplicate key 'name' (first at line 1)")]


def test_yaml_syntax_error_position(tmp_path: Path) -> None:
    path = write(tmp_path, "name: Apollo\ntitle: God: of Music\n")
    (error,) = errors_of(path, "card")
    assert (error.line, error.column) == (2, 11)
    assert error.message.startswith("mapping values are not allowed here")


def test_unclosed_flow_list(tmp_path: Path) -> None:
    (error,) = errors_of(write(tmp_path, "name: Apollo\nplayers: [2, 3\nkind: god\n"), "card")
    assert error.line == 3
    assert error.message[0].islower()


@pytest.mark.parametrize("text, found", [("", "empty"), ("# only a comment\n", "empty"),
                                         ("- a\n- b\n", "a list"), ("Apollo\n", "a single value")])
def test_top_level_must_be_a_mapping(tmp_path: Path, text: str, found: str) -> None:
    (error,) = errors_of(write(tmp_path, text), "card")
    assert (error.line, error.column) == (1, 1)
    assert found in error.message


def test_missing_required_key(tmp_path: Path) -> None:
    text = CARD.replace("summary: moves into an opponent's space and swaps with that worker\n", "")
    assert where(errors_of(write(tmp_path, text), "card")) == [(1, 1, "missing required key 'summary'")]


def test_god_needs_a_tier_but_a_hero_does_not(tmp_path: Path) -> None:
    god = CARD.replace("tier: simple\n", "")
    assert where(errors_of(write(tmp_path, god), "card")) == [
        (1, 1, "missing required key 'tier' (needed when kind is 'god')")]
    load_document(write(tmp_path, god.replace("kind: god", "kind: hero"), "hero.yaml"), "card")


def test_every_fault_of_a_file_is_reported_in_order(tmp_path: Path) -> None:
    text = (CARD.replace("kind: god", "kind: godd")
                .replace("players: [2, 3, 4]", "players: [2, two, 7]")
                .replace("rules: |", "rulez: |"))
    errors = errors_of(write(tmp_path, text), "card")
    assert where(errors) == [
        (1, 1, "missing required key 'rules'"),
        (3, 7, "'godd' is not one of: god, hero, base (did you mean 'god'?)"),
        (5, 14, "expected an integer, found a string ('two')"),
        (5, 19, "7 is out of range: expected 2 to 6"),
        (10, 1, "unknown key 'rulez' (did you mean 'rules'?)"),
    ]
    assert str(SourceErrors(errors)).count("\n") == len(errors) - 1


def test_pattern_fault_says_what_form_is_accepted(tmp_path: Path) -> None:
    text = MINIMAL["scenario"].replace("A2: b2", "A2: f9").replace("B1: d4", "b1x: d4")
    errors = where(errors_of(write(tmp_path, text), "scenario"))
    assert errors[0][:2] == (10, 23) and errors[0][2].startswith("expected a space:")
    assert errors[0][2].endswith("found 'f9'")
    assert errors[1][:2] == (10, 27) and errors[1][2].startswith("invalid key 'b1x': expected a worker id")


def test_scenario_seat_forms_are_explained(tmp_path: Path) -> None:
    text = MINIMAL["scenario"].replace("players: [Mortal, Mortal]", "players: [Mortal, {god: Zeus}, 3]")
    assert where(errors_of(write(tmp_path, text), "scenario")) == [
        (3, 19, "missing required key 'team'"),
        (3, 32, "expected a seat: a god name or Mortal, {god: Name, team: Letter}, or {gods: [A, B]}, "
                "found an integer (3)"),
    ]


def test_board_and_fact_cells(tmp_path: Path) -> None:
    text = MINIMAL["scenario"].replace("  0 0 0 0 0\n", "  0 0 0 0 4\n", 1) + (
        "expect:\n  includes:\n    - {board: {c5: 4, c4: 3d}}\n  perft: {0: 1}\n")
    errors = where(errors_of(write(tmp_path, text), "scenario"))
    assert [e[:2] for e in errors] == [(4, 8), (13, 20), (13, 27), (14, 11)]
    assert errors[0][2].startswith("expected 5 rows of 5 cells")
    assert errors[1][2] == "4 is out of range: expected 0 to 3"
    assert errors[2][2].startswith("expected a cell")
    assert errors[3][2] == "invalid key '0': expected a depth from 1 to 9"


def test_type_fault_names_what_was_found(tmp_path: Path) -> None:
    text = (MINIMAL["pack"].replace("language: 1", "language: two")
                           .replace("title: Board Game Arena", "title: True"))
    assert where(errors_of(write(tmp_path, text), "pack")) == [
        (2, 8, "expected a string, found a boolean (true); put it in quotes to make it text"),
        (5, 11, "expected an integer, found a string ('two')"),
    ]


def test_summary_must_be_one_line(tmp_path: Path) -> None:
    text = CARD.replace("summary: moves into an opponent's space and swaps with that worker",
                        "summary: |\n  one\n  two")
    (error,) = errors_of(write(tmp_path, text), "card")
    assert (error.line, error.column) == (6, 10)
    assert error.message.startswith("expected a single line")


def test_source_error_format() -> None:
    error = SourceError("a.yaml", 3, 7, "unknown key 'x'")
    assert str(error) == "a.yaml:3:7: unknown key 'x'"
    assert (error.file, error.line, error.column, error.message) == ("a.yaml", 3, 7, "unknown key 'x'")


def test_unreadable_file_is_a_source_error(tmp_path: Path) -> None:
    (error,) = errors_of(tmp_path / "missing.yaml", "card")
    assert (error.line, error.column) == (1, 1)
    assert error.message.startswith("cannot read the file")


# --- positions ---------------------------------------------------------------------------------


def test_position_of_values_and_fallback(tmp_path: Path) -> None:
    document = load_document(write(tmp_path, MINIMAL["scenario"]), "scenario")
    assert document.position(("workers", "B1")) == (10, 31)
    assert document.position(("players", 1)) == (3, 19)
    assert document.position(("workers", "C9")) == (10, 10)  # the nearest ancestor
    assert document.position(()) == (1, 1)


def test_text_origin_of_a_literal_block(tmp_path: Path) -> None:
    document = load_document(write(tmp_path, MINIMAL["card"]), "card")
    assert document.text_origin(("rules",)) == (11, 3, "|")
    assert document.text_origin(("text",)) == (8, 3, "|")
    assert document.text_origin(("name",)) == (1, 7, "")


def test_text_origin_of_nested_and_quoted_strings(tmp_path: Path) -> None:
    document = load_document(write(tmp_path, """\
        name: x
        edition: bga
        players: [Mortal, Mortal]
        board: |
            0 0 0 0 0
            0 0 0 0 0
            0 0 0 0 0
            0 0 0 0 0
            0 0 0 0 0
        workers: {A1: a1}
        history:
          - "move A1 b2; build A1 b3"
          - |2
              pass
        """), "scenario")
    assert document.text_origin(("board",)) == (5, 5, "|")
    assert document.text_origin(("history", 0)) == (12, 6, '"')
    assert document.text_origin(("history", 1)) == (14, 5, "|")  # explicit indentation: 2 past the list
    with pytest.raises(ValueError):
        document.text_origin(("workers",))
    with pytest.raises(KeyError):
        document.text_origin(("history", 5))
