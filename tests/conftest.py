"""Fixtures shared by the tests."""

from __future__ import annotations

from pathlib import Path

import sys

import pytest

from santorini.interpreter.engine.engine import REPEAT_RECURSION_LIMIT
from santorini.interpreter.games.scenario import Scenario, load_scenario

# Engines with a repeated step raise the recursion limit when made; raise it once here, so that
# no test sees it change under it (hypothesis warns when it does).
sys.setrecursionlimit(max(sys.getrecursionlimit(), REPEAT_RECURSION_LIMIT))


@pytest.fixture
def position(tmp_path: Path):
    """Write a scenario's YAML text to a file and load it."""
    def load(text: str, name: str = "position.yaml") -> Scenario:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return load_scenario(path)
    return load
