"""Fixtures shared by the tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from santorini.interpreter.games.scenario import Scenario, load_scenario

# Property tests draw the same examples on every run by default, so that the test command gives
# the same verdict each time (CI included). `HYPOTHESIS_PROFILE=explore` draws new ones, and
# more of them, to look for faults: a case it finds becomes a regression test.
# No example has a deadline: hypothesis's deadline is a wall-clock time, and no test asserts one (a
# busy machine is slow, not wrong); a test that bounds its work counts it (support.counted_calls).
settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture
def position(tmp_path: Path):
    """Write a scenario's YAML text to a file and load it."""
    def load(text: str, name: str = "position.yaml") -> Scenario:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return load_scenario(path)
    return load
