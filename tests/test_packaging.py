"""The distributions build cleanly and ship what the package reads: `python -m build` (without
isolation: the test environment has the build backend) and `twine check` pass, and the wheel holds
every card, mode, schema and ruling of the repository, the playground's page, the licence and
py.typed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from support import REPO

#: The data the package reads at run time, by pattern under the repository (the package's root).
DATA = ["powers/*/*.yaml", "powers/*/*.md", "modes/*/*.yaml", "schema/*.json", "dsl/syntax/*.lark", "py.typed",
        "web/static/*"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out, sources = tmp_path_factory.mktemp("dist"), tmp_path_factory.mktemp("sources") / "santorini"
    # (a copy of the sources: the build writes build/ and *.egg-info next to them)
    shutil.copytree(REPO, sources, ignore=shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info",
                                                                 "__pycache__", ".hypothesis", ".mypy_cache"))
    result = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(sources)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "is absent from the `packages` configuration" not in result.stdout + result.stderr
    return sorted(out.iterdir(), key=lambda path: path.suffix == ".whl")  # (the sdist, then the wheel)


def test_the_sdist_and_the_wheel_build_and_pass_twine_check(built: list[Path]) -> None:
    assert [path.suffix for path in built] == [".gz", ".whl"]
    result = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, built)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_wheel_ships_every_data_file_the_licence_and_the_metadata(built: list[Path]) -> None:
    wheel = zipfile.ZipFile(built[-1])
    names = set(wheel.namelist())
    expected = {f"santorini/{path.relative_to(REPO).as_posix()}" for pattern in DATA for path in REPO.glob(pattern)}
    assert expected and expected <= names, sorted(expected - names)[:10]
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "Typing :: Typed" in metadata
    from santorini import __version__
    assert f"Version: {__version__}" in metadata
