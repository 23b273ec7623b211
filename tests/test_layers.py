"""The packages of `interpreter/` import one another one way only (issue 19): each layer builds
on those below it and knows nothing of those above. The generic chain, the reference every
faster path agrees with, cannot lean on a speed layer; a speed layer cannot lean on the engine
that chooses among them; the engine knows no game, agent or command.

Read from the source with `ast` (imports inside functions and under TYPE_CHECKING count too: a
type named from above is a dependency all the same)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support import REPO

INTERPRETER = REPO / "interpreter"

#: Each package of interpreter/ and the packages of interpreter/ it may import, lowest first.
LAYERS: dict[str, frozenset[str]] = {
    "model": frozenset(),
    "chain": frozenset({"model"}),
    "fast": frozenset({"model", "chain"}),
    "derived": frozenset({"model", "chain"}),
    "engine": frozenset({"model", "chain", "fast", "derived"}),
    "games": frozenset({"model", "chain", "engine"}),
    "agents": frozenset({"model", "chain", "engine", "games"}),
    "balance": frozenset({"model", "engine", "games", "agents"}),
    "cli": frozenset({"model", "engine", "games", "agents", "balance"}),
}


def imported_packages(path: Path, root: Path = REPO) -> set[str]:
    """The packages of interpreter/ that the module at `path` (below `root`, the package's
    folder) imports, other than its own."""
    relative = path.relative_to(root).with_suffix("").parts  # ('interpreter', package, module...)
    own = relative[1]
    module = ["santorini", *relative]
    if module[-1] == "__init__":
        module.pop()
        module.append("")  # (a package's relative imports count from the package itself)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = module[:len(module) - node.level] if node.level else []
            names = [".".join([*base, *([node.module] if node.module else [])])]
            if not node.module:  # (from .. import x: x may be a package)
                names = [".".join([*base, alias.name]) for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["santorini", "interpreter"] and len(parts) > 2 and parts[2] != own:
                found.add(parts[2])
    return found


def test_every_package_of_the_interpreter_has_its_layer() -> None:
    packages = {path.parent.name for path in INTERPRETER.glob("*/__init__.py")}
    assert packages == set(LAYERS)


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    wrong = {f"{path.relative_to(REPO)} imports {', '.join(sorted(outside))}"
             for path in sorted((INTERPRETER / package).rglob("*.py"))
             for outside in [imported_packages(path) - LAYERS[package]] if outside}
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_the_layers_have_no_cycle() -> None:
    """The table itself is an order: a package may import only packages listed before it."""
    order = list(LAYERS)
    for place, package in enumerate(order):
        assert LAYERS[package] <= set(order[:place]), package


def test_the_reading_of_imports_sees_each_form(tmp_path: Path) -> None:
    """The reader sees absolute, relative, `from .. import x` and TYPE_CHECKING imports (a
    layering test that missed a form could not fail)."""
    (tmp_path / "interpreter" / "chain").mkdir(parents=True)
    module = tmp_path / "interpreter" / "chain" / "probe.py"
    module.write_text("from typing import TYPE_CHECKING\n"
                      "import santorini.interpreter.games.game\n"
                      "from ..engine.engine import Engine\n"
                      "from .. import derived\n"
                      "if TYPE_CHECKING:\n    from ..agents.base import SeatView\n", encoding="utf-8")
    assert imported_packages(module, tmp_path) == {"games", "engine", "derived", "agents"}
