"""README's two commands are the ones that work: CI runs exactly README's test command."""

from __future__ import annotations

import re

from support import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def commands() -> list[str]:
    return re.findall(r"^```sh\n(.+?)\n```", README, re.MULTILINE | re.DOTALL)


def test_readme_gives_a_main_command_and_a_test_command() -> None:
    main, tests = commands()[:2]
    assert "santorini play --pack bga --gods Apollo Athena --seed 7" in main
    assert "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command() -> None:
    tests = commands()[1]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci


def test_the_library_example_runs_as_written(capsys) -> None:  # noqa: ANN001
    examples = re.findall(r"^```python\n(.+?)\n```", README, re.MULTILINE | re.DOTALL)
    assert examples, "README shows how to use the engine as a library"
    for example in examples:
        exec(compile(example, "README.md", "exec"), {})  # noqa: S102 - our own README
    printed = capsys.readouterr().out.split()
    assert printed[0].isdigit() and int(printed[0]) > 0 and printed[-1].isdigit()
