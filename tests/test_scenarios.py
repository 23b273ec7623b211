"""Every scenario file of tests/scenarios/ passes (one test per file), through the same runner as
`santorini scenario`."""

from __future__ import annotations

import pytest

from santorini.interpreter.games.scenario import check, load_scenario
from support import SCENARIOS

FILES = sorted(SCENARIOS.rglob("*.yaml"))


def test_every_pack_has_scenarios() -> None:
    for pack in ("bga", "pantheon", "first-edition"):
        assert list((SCENARIOS / pack).glob("*.yaml")), f"no scenarios for {pack}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_scenario(path) -> None:
    scenario = load_scenario(path)
    assert check(scenario) == [], scenario.name
