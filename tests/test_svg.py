"""Board pictures (model/svg.py) and `santorini render` (cli/render.py), read back as XML: what a
picture shows of a real position (levels, domes, workers, tokens, the last turn, highlights and
arrows), that the same position gives the same text, and that the command turns bad input into one
message and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from santorini.dsl.errors import SantoriniError
from santorini.interpreter.cli.cli import main
from santorini.interpreter.cli.render import render
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.model.state import GameState
from santorini.interpreter.model.svg import PictureError, board_svg
from support import REPO, SCENARIOS

NS = "{http://www.w3.org/2000/svg}"
FILES = sorted(SCENARIOS.rglob("*.yaml"))

# A1 (c3, level 2) moves down into B1's space c4 (level 1): B1 is forced to c3 (the swap of the
# first seat's power), and A1 builds d5. Levels 1, 2 and 3, domes on levels 0, 1 and 3, and a
# token of the second seat's kind on e3.
POSITION = """\
name: a picture's position
edition: bga
players: [Apollo, Clio]
board: |
  0 0 0 0 0
  0 0 1 0 0
  0 0 2 3 0
  0 0 0D 3D 0
  0 1D 0 0 0
workers: {A1: c3, A2: a1, B1: c4, B2: e1}
tokens: {e3: coin}
history:
  - "move A1 c4; build A1 d5"
"""


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> GameState:
    path = tmp_path_factory.mktemp("picture") / "position.yaml"
    path.write_text(POSITION, encoding="utf-8")
    return load_scenario(path).state


def parsed(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def having(root: ET.Element, kind: str, *classes: str, tag: str = "g") -> list[ET.Element]:
    """The elements of a tag whose first class is `kind` (what is drawn: 'worker', 'mark') and
    whose other classes hold every one of `classes`."""
    found = []
    for element in root.iter(f"{NS}{tag}"):
        words = element.get("class", "").split()
        if words[:1] == [kind] and set(classes) <= set(words[1:]):
            found.append(element)
    return found


def one(root: ET.Element, *classes: str, tag: str = "g") -> ET.Element:
    found = having(root, *classes, tag=tag)
    assert len(found) == 1, f"{len(found)} elements with classes {classes}"
    return found[0]


def square_box(root: ET.Element, name: str) -> tuple[float, float, float, float]:
    """The square's ground as drawn: x, y, width, height."""
    ground = one(root, "square", name).find(f"{NS}rect")
    assert ground is not None
    x, y, width, height = (float(ground.get(key, "nan")) for key in ("x", "y", "width", "height"))
    return x, y, width, height


def worker_squares(root: ET.Element) -> dict[str, str]:
    """Each worker drawn (its class 'worker NAME team-X SQUARE') and its square."""
    return {classes[1]: classes[3] for classes in (g.get("class", "").split() for g in having(root, "worker"))}


def inside(root: ET.Element, name: str, x: float, y: float) -> bool:
    left, top, width, height = square_box(root, name)
    return left < x < left + width and top < y < top + height


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_every_scenario_renders_to_well_formed_svg(path: Path) -> None:
    state = load_scenario(path).state
    root = parsed(state._repr_svg_())
    assert len(having(root, "square")) == 25
    on_board = sorted(state.worker_name(w) for w, square in enumerate(state.worker_pos) if square >= 0)
    assert sorted(g.get("class", "").split()[1] for g in having(root, "worker")) == on_board
    assert len(having(root, "dome", tag="path")) == sum(state.domes)
    assert len(having(root, "token")) == len(state.tokens)
    # (a last turn is drawn on the squares it changed; a passed additional turn changed none)
    passed = bool(state.history) and state.history[-1].steps == (("pass", -1, -1),)
    assert bool(having(root, "arrow") or having(root, "mark")) == (bool(state.history) and not passed)


def test_levels_are_nested_blocks_with_their_number(position: GameState) -> None:
    root = parsed(board_svg(position))
    expected = {"c3": 2, "d3": 3, "c4": 1, "d5": 1, "b1": 1, "c2": 0, "d2": 3, "a5": 0}
    for name, level in expected.items():
        square = one(root, "square", name)
        assert f"level-{level}" in square.get("class", "").split()
        assert len(having(square, "block", tag="rect")) == level
        numbers = [t.text for t in having(square, "level", tag="text")]
        assert numbers == ([str(level)] if level else [])
    assert len(having(root, "square", "level-0")) == 25 - 6  # (all but c3 d3 c4 d5 b1 d2)


def test_domes_are_drawn_at_any_level(position: GameState) -> None:
    root = parsed(board_svg(position))
    domes = {e.get("class", "").split()[1] for e in having(root, "dome", tag="path")}
    assert domes == {"b1", "c2", "d2"}
    assert {g.get("class", "").split()[1] for g in having(root, "square", "domed")} == domes


def test_workers_show_their_names_squares_and_team_colours(position: GameState) -> None:
    root = parsed(board_svg(position))
    where = {"A1": "c4", "A2": "a1", "B1": "c3", "B2": "e1"}  # (after the swap)
    fills = {}
    for name, square in where.items():
        worker = one(root, "worker", name)
        assert square in worker.get("class", "").split() and f"team-{name[0]}" in worker.get("class", "")
        assert [t.text for t in having(worker, "name", tag="text")] == [name]
        circle = worker.find(f"{NS}circle")
        assert circle is not None and inside(root, square, float(circle.get("cx", "0")), float(circle.get("cy", "0")))
        fills[name] = circle.get("fill")
    assert fills["A1"] == fills["A2"] != fills["B1"] == fills["B2"]


def test_a_workers_sex_is_shown_where_the_game_gives_one() -> None:
    state = load_scenario(SCENARIOS / "bga" / "selene-bia-female-removed.yaml").state
    root = parsed(board_svg(state, last_turn=state.history[-1]))
    male = one(root, "worker", "B2")
    assert male.get("data-sex") == "male" and [t.text for t in having(male, "sex", tag="text")] == ["\u2642"]
    assert one(root, "worker", "A1").get("data-sex") is None and not having(one(root, "worker", "A1"), "sex",
                                                                            tag="text")
    # The female worker was removed by the last turn: she is gone, and a cross marks where she stood.
    assert not having(root, "worker", "B1")
    assert len(one(root, "mark", "remove", "c3").findall(f"{NS}line")) == 2


def test_tokens_show_their_kind_and_the_legend_names_it(position: GameState) -> None:
    root = parsed(board_svg(position))
    token = one(root, "token", "e3")
    assert token.get("data-kind") == "coin" and token.get("data-seat") == "B"
    assert [t.text for t in token.iter(f"{NS}text")] == ["C"]
    legend = [t.text for t in having(root, "line", tag="text")]
    assert "tokens: C coin" in legend


def test_the_last_turn_shows_the_move_the_forced_move_and_the_build(position: GameState) -> None:
    root = parsed(position._repr_svg_())
    move, force = one(root, "arrow", "move"), one(root, "arrow", "force")
    assert (move.get("data-from"), move.get("data-to")) == ("c3", "c4")
    assert (force.get("data-from"), force.get("data-to")) == ("c4", "c3")
    for arrow, tail, head in ((move, "c3", "c4"), (force, "c4", "c3")):
        line, tip = arrow.find(f"{NS}line"), arrow.find(f"{NS}polygon")
        assert line is not None and tip is not None
        assert inside(root, tail, float(line.get("x1", "0")), float(line.get("y1", "0")))
        x, y = (float(v) for v in tip.get("points", "").split()[0].split(","))
        assert inside(root, head, x, y)
    dashes = [line.get("stroke-dasharray") for arrow in (move, force) if (line := arrow.find(f"{NS}line")) is not None]
    assert dashes[0] is None and dashes[1]  # (a forced move is dashed)
    build = one(root, "mark")
    assert build.get("class", "").split() == ["mark", "build", "d5"] and build.get("data-label") == "+1"
    assert {g.get("class", "").split()[1] for g in having(root, "square", "last")} == {"c3", "c4"}
    assert "last turn (A): move A1 c4; build A1 d5" in [t.text for t in having(root, "line", tag="text")]


def test_without_a_last_turn_nothing_is_marked(position: GameState) -> None:
    root = parsed(board_svg(position))
    assert not having(root, "arrow") and not having(root, "mark") and not having(root, "square", "last")
    assert not any((t.text or "").startswith("last turn") for t in having(root, "line", tag="text"))


def test_a_build_and_the_token_it_brings_make_one_mark() -> None:
    state = load_scenario(SCENARIOS / "bga" / "clio-minotaur.yaml").state
    root = parsed(state._repr_svg_())
    mark = one(root, "mark")
    assert mark.get("class", "").split() == ["mark", "build", "token", "a3"] and mark.get("data-label") == "+1 C"
    assert (one(root, "arrow", "move").get("data-from"), one(root, "arrow", "move").get("data-to")) == ("a4", "b3")


def test_highlights_and_extra_arrows(position: GameState) -> None:
    root = parsed(board_svg(position, highlights=["e5", 0, "E5"], arrows=[("a1", "b2"), (24, 24)]))
    lit = having(root, "highlight", tag="rect")
    assert [r.get("class", "").split()[1] for r in lit] == ["a1", "e5"]
    for rect in lit:
        name = rect.get("class", "").split()[1]
        assert inside(root, name, float(rect.get("x", "0")) + 1, float(rect.get("y", "0")) + 1)
    extra = having(root, "arrow", "extra")
    assert [(a.get("data-from"), a.get("data-to")) for a in extra] == [("a1", "b2"), ("e5", "e5")]
    assert extra[1].find(f"{NS}circle") is not None  # (one square: a ring)


@pytest.mark.parametrize(("options", "message"), [
    ({"highlights": ["f6"]}, "'f6' is not a space"),
    ({"highlights": [25]}, "25 is not a square"),
    ({"highlights": [-1]}, "-1 is not a square"),
    ({"arrows": [("a1", "a9")]}, "'a9' is not a space"),
    ({"arrows": [("a1", "a2", "a3")]}, "an arrow is a pair of squares"),
    ({"size": 0}, "positive number of pixels"),
])
def test_bad_options_are_santorini_errors(position: GameState, options: dict[str, object], message: str) -> None:
    with pytest.raises(PictureError, match=message) as caught:
        board_svg(position, **options)
    assert isinstance(caught.value, SantoriniError)


def test_size_sets_the_width_and_none_leaves_it_to_the_page(position: GameState) -> None:
    sized = parsed(board_svg(position, size=280))
    width, height = (float(v) for v in sized.get("viewBox", "").split()[2:])
    assert sized.get("width") == "280" and sized.get("height") == str(round(280 * height / width))
    assert "width" not in parsed(board_svg(position, size=None)).attrib
    bare = parsed(board_svg(position, legend=False))
    assert not having(bare, "legend") and float(bare.get("viewBox", "").split()[3]) < height


def test_the_same_position_gives_the_same_text(position: GameState) -> None:
    """In this process, from a copy, and in another process with another hash seed (set order)."""
    text = position._repr_svg_()
    assert position.copy()._repr_svg_() == text
    script = ("import sys; from santorini.interpreter.games.scenario import load_scenario; "
              "sys.stdout.write(load_scenario(sys.argv[1]).state._repr_svg_())")
    path = SCENARIOS / "bga" / "clio-minotaur.yaml"
    runs = [subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1] == load_scenario(path).state._repr_svg_()


# ---- the command
def run(*args: str) -> Result:
    return CliRunner().invoke(render, list(args))


def one_message(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def test_render_a_scenario_to_standard_output_and_to_a_file(tmp_path: Path) -> None:
    path = SCENARIOS / "pantheon" / "minotaur-forced-up-then-level-move.yaml"
    state = load_scenario(path).state
    shown = run(str(path))
    assert shown.exit_code == 0, shown.output
    assert shown.output == board_svg(state, last_turn=state.history[-1]) + "\n"
    out = tmp_path / "board.svg"
    written = run(str(path), "-o", str(out), "--highlight", "a1", "--arrow", "a1-b2", "--size", "300")
    assert written.exit_code == 0 and written.output == f"picture written to {out}\n"
    root = parsed(out.read_text(encoding="utf-8"))
    assert root.get("width") == "300"
    assert [r.get("class") for r in having(root, "highlight", tag="rect")] == ["highlight a1"]
    assert ("a1", "b2") in [(a.get("data-from"), a.get("data-to")) for a in having(root, "arrow", "extra")]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game of two seats without powers, written by `santorini play --record`."""
    path = tmp_path_factory.mktemp("record") / "game.yaml"
    played = CliRunner().invoke(main, ["play", "--gods", "Mortal", "Mortal", "--seed", "5", "--record", str(path)])
    assert played.exit_code == 0, played.output
    return path


def test_render_a_record_after_setup_after_a_turn_and_at_the_end(record: Path) -> None:
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    start = {w: square for text in data["placements"] for _, w, square in (s.split() for s in text.split(";"))}

    after_setup = parsed(run(str(record), "--turn", "0").output)
    assert not having(after_setup, "arrow") and not having(after_setup, "mark")
    assert worker_squares(after_setup) == start

    (_, mover, to), (_, _, built) = (step.split() for step in data["turns"][0].split(";"))
    first = parsed(run(str(record), "--turn", "1").output)
    arrow = one(first, "arrow", "move")
    assert (arrow.get("data-from"), arrow.get("data-to")) == (start[mover], to)
    assert one(first, "mark", "build").get("class", "").split()[-1] == built
    assert worker_squares(first)[mover] == to

    last = run(str(record))
    assert last.exit_code == 0 and last.output == run(str(record), "--turn", str(len(data["turns"]))).output
    legend = [t.text or "" for t in having(parsed(last.output), "line", tag="text")]
    winner = data["result"]["winner"]
    assert any(line.startswith(f"{winner}: ") and line.endswith("winner") for line in legend)
    assert any(line.startswith("last turn (") for line in legend)


def test_a_record_stopped_in_setup_shows_the_workers_placed(record: Path, tmp_path: Path) -> None:
    """A game quit before every seat placed its workers is recorded with fewer placements, no turn
    and no winner: the picture shows what was placed, the placement marked, the next seat to place."""
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    stopped = tmp_path / "stopped.yaml"
    stopped.write_text(yaml.safe_dump({**data, "placements": data["placements"][:1], "turns": [],
                                       "result": {"winner": None, "reason": "stopped in setup"}}, sort_keys=False),
                       encoding="utf-8")
    shown = run(str(stopped))
    assert shown.exit_code == 0, shown.output
    root = parsed(shown.output)
    placed = {w: square for _, w, square in (s.split() for s in data["placements"][0].split(";"))}
    assert worker_squares(root) == placed
    assert sorted(m.get("class", "").split()[-1] for m in having(root, "mark", "place")) == sorted(placed.values())
    assert "B: no power - to move" in [t.text for t in having(root, "line", tag="text")]


def test_a_turn_out_of_range_is_one_message(record: Path) -> None:
    turns = len(yaml.safe_load(record.read_text(encoding="utf-8"))["turns"])
    message = one_message(run(str(record), "--turn", str(turns + 1)))
    assert message == f"error: --turn {turns + 1}: {record} has {turns} turns; give 0 (after setup) to {turns}"
    assert "is a scenario" in one_message(run(str(SCENARIOS / "examples" / "athena-history.yaml"), "--turn", "1"))
    negative = run(str(record), "--turn", "-1")
    assert negative.exit_code == 2 and "Traceback" not in negative.output


def test_a_record_with_a_turn_its_pack_refuses_is_located(record: Path, tmp_path: Path) -> None:
    text = record.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    first = data["turns"][0]
    _, mover, _ = first.split(";")[0].split()
    here = next(square for text in data["placements"] for _, w, square in (s.split() for s in text.split(";"))
                if w == mover)
    refused = f"move {mover} {here}; build {mover} {here}"  # (onto its own space: never a move)
    tampered = tmp_path / "tampered.yaml"
    tampered.write_text(text.replace(f"- {first}\n", f"- {refused}\n", 1), encoding="utf-8")
    line = next(i for i, row in enumerate(tampered.read_text(encoding="utf-8").splitlines(), 1)
                if row == f"- {refused}")
    message = one_message(run(str(tampered), "--turn", "1"))
    assert message.startswith(f"{tampered}:{line}:") and "turn 1" in message


@pytest.mark.parametrize(("content", "expected"), [
    ("name: x\nboard: [1, 2\nedition: bga\n", ":3:"),     # YAML that does not parse: where it fails
    ("", ":1:1: the file is empty"),
    ("- a list\n", ":1:1: expected a mapping"),
    ("name: a card\ntext: hello\n", "neither a scenario"),
    ("name: x\nedition: bga\nplayers: [Mortal, Mortal]\nboard: |\n  0 0 0\nworkers: {}\n", "5 rows of 5 cells"),
])
def test_a_malformed_file_is_one_located_message(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content, encoding="utf-8")
    message = one_message(run(str(path)))
    assert message.startswith(str(path)) and expected in message


@pytest.mark.parametrize(("args", "expected"), [
    (["no/such/file.yaml"], "error: no such file: no/such/file.yaml"),
    ([str(SCENARIOS / "examples" / "athena-history.yaml"), "--arrow", "c3-z9"], "error: --arrow c3-z9: 'z9'"),
    ([str(SCENARIOS / "examples" / "athena-history.yaml"), "--arrow", "c3"], "error: --arrow c3: write two squares"),
    ([str(SCENARIOS / "examples" / "athena-history.yaml"), "--highlight", "k1"], "error: --highlight k1: 'k1'"),
    ([str(SCENARIOS / "examples" / "athena-history.yaml"), "-o", "no/such/folder/board.svg"],
     "error: -o no/such/folder/board.svg: cannot write"),
])
def test_bad_arguments_are_one_message(args: list[str], expected: str) -> None:
    assert one_message(run(*args)).startswith(expected)


def test_the_documented_example_picture_is_what_the_command_draws() -> None:
    """docs/pictures.md shows a picture and the command that made it: they agree."""
    page = (REPO / "docs" / "pictures.md").read_text(encoding="utf-8")
    picture = REPO / "docs" / "pictures" / "pushed-up.svg"
    assert "(pictures/pushed-up.svg)" in page
    scenario = "tests/scenarios/pantheon/minotaur-forced-up-then-level-move.yaml"
    assert f"santorini render {scenario} -o docs/pictures/pushed-up.svg" in page
    state = load_scenario(REPO / scenario).state
    assert picture.read_text(encoding="utf-8") == board_svg(state, last_turn=state.history[-1]) + "\n"


def test_square_names_in_classes_match_the_board() -> None:
    """Each square's class names the square it is drawn at: a1 bottom left, e5 top right."""
    state = load_scenario(SCENARIOS / "examples" / "athena-history.yaml").state
    root = parsed(board_svg(state))
    a1, e5, a5 = square_box(root, "a1"), square_box(root, "e5"), square_box(root, "a5")
    assert a1[0] == a5[0] < e5[0] and e5[1] == a5[1] < a1[1]
