"""The shipped packs: complete, editor-friendly, and loaded the same wherever they come from."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.games.packs import PackError, load_pack, load_pack_folder, pack_names
from support import PACKS, REPO, s0_text

SIMPLE_GODS = {"Apollo", "Artemis", "Athena", "Atlas", "Demeter", "Hephaestus", "Hermes", "Minotaur",
               "Pan", "Prometheus"}


def test_the_three_packs_ship() -> None:
    assert set(PACKS) <= set(pack_names())


@pytest.mark.parametrize("name", PACKS)
def test_pack_has_its_base_card_gods_modes_and_rulings(name: str) -> None:
    pack = load_pack(name)
    assert pack.base.kind == "base"
    assert SIMPLE_GODS <= set(pack.cards)
    assert {"standard", "no-powers"} <= set(pack.modes)
    assert (Path(pack.path) / "RULINGS.md").is_file()


SHIPPED_YAML = sorted(p for folder in ("powers", "modes") for p in (REPO / folder).rglob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED_YAML, ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_yaml_starts_with_a_schema_modeline(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix)
    schema = (path.parent / first[len(prefix):]).resolve()
    kind = "pack" if path.name == "pack.yaml" else ("mode" if "modes" in path.parts else "card")
    assert schema == (REPO / "schema" / f"{kind}.schema.json").resolve()


def test_a_pack_that_extends_another_restates_only_what_differs(tmp_path: Path) -> None:
    folder = tmp_path / "bga-apollo-variant"
    folder.mkdir()
    (folder / "pack.yaml").write_text((REPO / "powers" / "bga" / "pack.yaml").read_text()
                                      .replace("name: bga", "name: bga-apollo-variant")
                                      .replace("language: 2", "language: 2\nextends: bga"))
    (folder / "apollo.yaml").write_text((REPO / "powers" / "pantheon" / "apollo.yaml").read_text())
    variant = load_pack_folder(folder)
    bga = load_pack("bga")
    assert set(variant.cards) == set(bga.cards)
    assert variant.cards["Apollo"].path == str(folder / "apollo.yaml")
    assert variant.cards["Atlas"] is bga.cards["Atlas"]
    assert variant.base is bga.base and variant.modes == bga.modes


def test_extending_an_unknown_pack_is_a_located_error(tmp_path: Path) -> None:
    folder = tmp_path / "orphan"
    folder.mkdir()
    (folder / "pack.yaml").write_text((REPO / "powers" / "bga" / "pack.yaml").read_text()
                                      .replace("language: 2", "language: 2\nextends: bgx"))
    with pytest.raises(PackError) as caught:
        load_pack_folder(folder)
    assert "unknown pack 'bgx'" in str(caught.value)


def test_renaming_a_card_changes_nothing_but_its_name(tmp_path: Path, position) -> None:
    folder = tmp_path / "renamed"
    shutil.copytree(REPO / "powers" / "bga", folder)
    card = folder / "minotaur.yaml"
    card.write_text(card.read_text().replace("name: Minotaur", "name: Asterion"))
    renamed = load_pack_folder(folder, REPO / "modes" / "bga")
    assert "Asterion" in renamed.cards and "Minotaur" not in renamed.cards
    original = position(s0_text("bga", ["Minotaur", "Apollo"]))
    game = new_game(renamed, parse_players(["Asterion", "Apollo"]))
    game.state = original.state  # same position, rules compiled from the renamed card
    assert game.engine.perft(original.state, 2) == original.game.engine.perft(original.state, 2)


def test_a_card_in_a_newer_language_version_is_refused(tmp_path: Path) -> None:
    from santorini.interpreter.games.validate import check_file
    path = tmp_path / "atlas.yaml"
    path.write_text((REPO / "powers" / "bga" / "atlas.yaml").read_text() + "language: 3\n")
    [error] = check_file(path)
    assert "rule language version 3; this engine reads version 2" in error.message
