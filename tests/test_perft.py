"""Perft from S0 against independently cross-checked counts (issue 2), in every pack, and the
reference generator of benchmarks/ as a second opinion."""

from __future__ import annotations

import importlib.util

import pytest
import yaml

from support import PACKS, REPO, s0_text

DEPTH_1 = {"Mortal": 68, "Apollo": 92, "Minotaur": 92, "Artemis": 136, "Demeter": 232, "Atlas": 136,
           "Hephaestus": 136, "Hermes": 2115, "Prometheus": 378, "Pan": 68, "Athena": 68}


@pytest.mark.parametrize("pack", PACKS)
@pytest.mark.parametrize("god", sorted(DEPTH_1))
def test_depth_one_against_a_mortal(position, pack: str, god: str) -> None:
    scenario = position(s0_text(pack, [god, "Mortal"]))
    assert scenario.game.engine.perft(scenario.state, 1) == DEPTH_1[god]


@pytest.mark.parametrize("pack", PACKS)
def test_mortal_depth_three(position, pack: str) -> None:
    scenario = position(s0_text(pack, ["Mortal", "Mortal"]))
    engine = scenario.game.engine
    assert [engine.perft(scenario.state, d) for d in (1, 2, 3)] == [68, 5156, 350208]


@pytest.mark.parametrize("pack", PACKS)
def test_apollo_against_minotaur_depth_two(position, pack: str) -> None:
    scenario = position(s0_text(pack, ["Apollo", "Minotaur"]))
    assert scenario.game.engine.perft(scenario.state, 2) == 8068


@pytest.mark.parametrize(("players", "count"), [(["Pan", "Athena"], 348732), (["Athena", "Pan"], 350208)])
def test_pan_and_athena_depth_three(position, players: list[str], count: int) -> None:
    scenario = position(s0_text("bga", players))
    assert scenario.game.engine.perft(scenario.state, 3) == count


def test_perft_does_not_change_the_position(position) -> None:
    scenario = position(s0_text("bga", ["Hermes", "Apollo"]))
    before = (list(scenario.state.heights), list(scenario.state.worker_pos), scenario.state.hash)
    scenario.game.engine.perft(scenario.state, 2)
    assert (list(scenario.state.heights), list(scenario.state.worker_pos), scenario.state.hash) == before


def _reference():
    path = REPO / "benchmarks" / "reference_mortal.py"
    spec = importlib.util.spec_from_file_location("reference_mortal", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MIDGAME = "0 1 2 3 0\n1 2 3 3D 0\n0 0 2 1 0\n3 2 1 0 0D\n0 1 0 2 1\n"


def test_interpreter_and_reference_agree_from_a_midgame_position(position) -> None:
    """Both generators count the same tree from a position with towers, domes and wins."""
    reference = _reference()
    data = yaml.safe_load(s0_text("bga", ["Mortal", "Mortal"]))
    data["board"] = MIDGAME
    scenario = position(yaml.safe_dump(data))
    cells = [cell for row in reversed(MIDGAME.strip().splitlines()) for cell in row.split()]
    heights = [int(cell[0]) for cell in cells]
    domes = {square for square, cell in enumerate(cells) if cell.endswith("D")}
    square = {name: (int(name[1]) - 1) * 5 + "abcde".index(name[0]) for name in ("b3", "d3", "c4", "c2")}
    start = reference.from_lists(heights, domes, [[square["b3"], square["d3"]], [square["c4"], square["c2"]]], 0)
    for depth in (1, 2, 3):
        assert scenario.game.engine.perft(scenario.state, depth) == reference.perft(start, depth)
