"""Fixtures shared by the tests."""

from __future__ import annotations

from pathlib import Path

import os
import sys

import pytest
from hypothesis import settings

from santorini.interpreter.engine.engine import REPEAT_RECURSION_LIMIT
from santorini.interpreter.games.scenario import Scenario, load_scenario

# Engines with a repeated step raise the recursion limit when made; raise it once here, so that
# no test sees it change under it (hypothesis warns when it does).
sys.setrecursionlimit(max(sys.getrecursionlimit(), REPEAT_RECURSION_LIMIT))

# Property tests draw the same examples on every run by default, so that the test command gives
# the same verdict each time (CI included). `HYPOTHESIS_PROFILE=explore` draws new ones, and
# more of them, to look for faults: a case it finds becomes a regression test.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture
def position(tmp_path: Path):
    """Write a scenario's YAML text to a file and load it."""
    def load(text: str, name: str = "position.yaml") -> Scenario:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return load_scenario(path)
    return load
