"""The rule texts that docs/language.md shows are the language: every ```text block there parses
and passes the checker, as the kind of file it is written for (a base card's fragment, a mode's
setup, or a god's rules), except a block marked '# faulty', which must fail. A change to the
grammar or the checker that leaves the reference behind fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from santorini.dsl.errors import SourceError
from santorini.dsl.semantics.checker import check_rules
from santorini.dsl.syntax.parser import Origin, parse_rules
from support import REPO

TEXT = (REPO / "docs" / "language.md").read_text(encoding="utf-8")
BLOCKS = [(TEXT[:m.start()].count("\n") + 2, m.group(1)) for m in re.finditer(r"```text\n(.*?)```", TEXT, re.S)]
#: What only the base card says (its board rules, its turn, the standard win).
BASE_ONLY = re.compile(r"^(At All Times:\n  a worker (moves|builds)|Turn:|Win Condition:\n  you win if)", re.M)
MODE_ONLY = re.compile(r"teammates|each player places|of each team")


def kind_of(block: str) -> str:
    if BASE_ONLY.search(block):
        return "base"
    return "mode" if MODE_ONLY.search(block) else "god"


def faults(block: str, kind: str) -> list[str]:
    origin = Origin("language.md", 1, 1)
    try:
        rules = parse_rules(block, origin)
    except SourceError as err:
        return [err.message]
    messages = [e.message for e in check_rules(rules, origin, kind)]
    if kind == "base":  # a fragment of the base card: the rest of it is elsewhere
        messages = [m for m in messages if not m.startswith("the base card needs")]
    return messages


def test_the_reference_has_rule_texts() -> None:
    assert len(BLOCKS) >= 60


@pytest.mark.parametrize(("line", "block"), BLOCKS, ids=[f"line-{line}" for line, _ in BLOCKS])
def test_each_rule_text_of_the_reference_is_the_language(line: int, block: str) -> None:
    found = faults(block, kind_of(block))
    if block.lstrip().startswith("# faulty"):
        assert found, f"docs/language.md:{line}: a block marked faulty passes the check"
    else:
        assert not found, f"docs/language.md:{line}: {found}"


def test_the_scenario_guides_example_runs_and_passes(tmp_path) -> None:  # noqa: ANN001
    from santorini.interpreter.games.scenario import check, load_scenario
    guide = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    examples = [m.group(1) for m in re.finditer(r"```yaml\n(.*?)```", guide, re.S) if "edition:" in m.group(1)]
    assert examples
    for index, example in enumerate(examples):
        path = tmp_path / f"example-{index}.yaml"
        path.write_text(example, encoding="utf-8")
        assert check(load_scenario(path)) == []


def _markdown_files() -> list[Path]:
    return [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").rglob("*.md")),
            *sorted((REPO / "powers").glob("*/*.md"))]


def test_the_docs_link_only_to_files_of_the_repository() -> None:
    """A link in the docs is a web address or a file of the repository that exists; no page points
    outside the checkout (a user's copy has nothing beside it)."""
    broken = []
    for page in _markdown_files():
        for target in re.findall(r"\]\(([^)#\s]+)", page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            path = (page.parent / target).resolve()
            if not path.exists() or REPO.resolve() not in path.parents:
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert not broken, broken


def test_the_contract_in_the_docs_is_the_one_the_project_follows() -> None:
    """docs/spec/scenarios.md is the public contract as the project keeps it; where the checkout
    sits beside the shared folder it came from, the two are the same text."""
    shared = REPO.parent / "shared" / "spec" / "scenarios.md"
    if not shared.is_file():
        pytest.skip("no shared folder beside this checkout")
    assert (REPO / "docs" / "spec" / "scenarios.md").read_text(encoding="utf-8") == shared.read_text(encoding="utf-8")


def test_the_getting_started_pages_files_check_and_their_scenario_passes(tmp_path: Path) -> None:
    """docs/getting-started.md's pack, card and scenario, written out as the page names them: the
    pack checks clean, the scenario passes, and a game of the new card plays to its end."""
    from click.testing import CliRunner

    from santorini.interpreter.cli.cli import main
    page = (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")
    files = re.findall(r"^```yaml\n# file: (\S+)\n(.+?)\n```", page, re.MULTILINE | re.DOTALL)
    assert len(files) == 3
    for name, text in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text + "\n", encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(tmp_path / "my-pack")])
    assert checked.exit_code == 0 and "0 faults" in checked.output, checked.output
    ran = runner.invoke(main, ["scenario", str(tmp_path / "scenarios")])
    assert ran.exit_code == 0 and "1 passed, 0 failed" in ran.output, ran.output
    played = runner.invoke(main, ["play", "--pack", str(tmp_path / "my-pack"), "--gods", "Mason", "Mortal",
                                  "--seed", "3"])
    assert played.exit_code == 0 and "winner: " in played.output, played.output
