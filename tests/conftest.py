"""Fixtures shared by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from santorini.interpreter.scenario import Scenario, load_scenario


@pytest.fixture
def position(tmp_path: Path):
    """Write a scenario's YAML text to a file and load it."""
    def load(text: str, name: str = "position.yaml") -> Scenario:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return load_scenario(path)
    return load
