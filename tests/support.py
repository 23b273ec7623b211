"""Helpers shared by the tests: where the test data lives, and S0 positions."""

from __future__ import annotations

from pathlib import Path

import yaml


REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "tests" / "scenarios"
PACKS = ("bga", "pantheon", "first-edition")


def s0_text(pack: str, players: list[str], to_move: str = "A") -> str:
    """S0: empty board, A on b3 and d3, B on c4 and c2."""
    return yaml.safe_dump({
        "name": f"S0 {' v '.join(players)}", "edition": pack, "players": players, "to_move": to_move,
        "board": "0 0 0 0 0\n" * 5, "workers": {"A1": "b3", "A2": "d3", "B1": "c4", "B2": "c2"},
    })
