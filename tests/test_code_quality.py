"""The code's own checks (issue 19): `mypy --strict` passes on the packages named below, `ruff check`
passes on the project, and every error the package raises derives from SantoriniError. A failure
shows the tool's own output. The tools and their settings are pyproject.toml's ([tool.mypy],
[tool.ruff]); the `test` extra installs them."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import santorini
from santorini.dsl.errors import SantoriniError
from support import REPO

#: The packages that `mypy --strict` passes with no error: every package of the engine. A package
#: added later joins the list when it does; the imports of a package not listed are read for their
#: types but not reported on (--follow-imports=silent).
STRICT = ["dsl", "interpreter/agents", "interpreter/balance", "interpreter/chain", "interpreter/cli",
          "interpreter/derived", "interpreter/engine", "interpreter/fast", "interpreter/games", "interpreter/model",
          "web"]
#: The modules at the package's root: its front door (api.py) and what `import santorini` runs.
STRICT_MODULES = ["__init__.py", "api.py"]

#: What `ruff check` leaves out until it passes there: the benchmarks and their test. A path
#: leaves the list when `ruff check PATH` passes.
NOT_LINTED_YET = ["benchmarks", "tests/test_benchmarks.py"]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)


def test_mypy_strict_passes_on_the_typed_packages(tmp_path: Path) -> None:
    """Run from a folder where the checkout is named `santorini`, as the package is: mypy names a
    module after the folders above it, and a checkout's folder may be named anything (even a name
    that is not an identifier, which mypy refuses)."""
    (tmp_path / "santorini").symlink_to(REPO, target_is_directory=True)
    result = run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(REPO / "pyproject.toml"),
                  "--cache-dir", str(tmp_path / "cache"), "--follow-imports=silent",
                  *(f"santorini/{package}" for package in (*STRICT, *STRICT_MODULES))], tmp_path)
    assert result.returncode == 0, f"mypy --strict found errors:\n{result.stdout}{result.stderr}"


def test_ruff_passes_on_the_project() -> None:
    result = run([sys.executable, "-m", "ruff", "check", "--no-cache", "--extend-exclude", ",".join(NOT_LINTED_YET),
                  "."], REPO)
    assert result.returncode == 0, f"ruff check found faults:\n{result.stdout}{result.stderr}"


def test_every_error_of_the_package_derives_from_santorini_error() -> None:
    """A caller (a bot, a web front end) catches SantoriniError and knows that anything else is a
    bug (dsl/errors.py): so every exception class the package defines is one."""
    others = []
    for module in pkgutil.walk_packages(santorini.__path__, "santorini."):
        if module.name.rsplit(".", 1)[-1] == "__main__":
            continue  # (running it is the command)
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.name \
                    and not issubclass(value, SantoriniError):
                others.append(f"{module.name}.{name}")
    assert not others, f"errors that are not SantoriniErrors: {', '.join(others)}"


def test_the_list_of_strict_packages_names_real_packages() -> None:
    assert all((REPO / package / "__init__.py").is_file() for package in STRICT)
    assert all((REPO / module).is_file() for module in STRICT_MODULES)
