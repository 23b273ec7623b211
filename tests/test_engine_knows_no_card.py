"""The invariant of DEVELOPERS.md: no god, hero or mode name appears in dsl/ or interpreter/.
A power the language cannot express grows the language; it never becomes a special case."""

from __future__ import annotations

import re

import pytest
import yaml

from support import REPO


def names_in(folder: str) -> list[str]:
    names = set()
    for path in (REPO / folder).glob("*/*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if path.name != "pack.yaml" and isinstance(data, dict) and data.get("kind") != "base":
            names.add(data["name"])
    return sorted(names)


CARDS = names_in("powers")
MODES = names_in("modes")
ENGINE_FILES = sorted(p for folder in ("dsl", "interpreter") for p in (REPO / folder).rglob("*")
                      if p.is_file() and p.suffix in (".py", ".lark"))


def test_there_are_names_to_look_for() -> None:
    assert {"Apollo", "Prometheus"} <= set(CARDS)
    assert "no-powers" in MODES


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_engine_file_names_no_card_and_no_mode(path) -> None:
    text = path.read_text(encoding="utf-8")
    cards = [n for n in CARDS if re.search(rf"\b{re.escape(n)}\b", text, re.IGNORECASE)]
    assert not cards, f"{path.name} names {cards}: express the power in the rule language instead"
    # Mode names are common words ('standard'): what is forbidden is code that picks one by name.
    modes = [n for n in MODES if re.search(rf"[\"']{re.escape(n)}[\"']", text)]
    assert not modes, f"{path.name} picks mode {modes} by name: let pack.yaml name it"
