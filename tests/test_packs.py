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
    folder = tmp_path / "bga"  # (a pack is named as its folder)
    shutil.copytree(REPO / "powers" / "bga", folder)
    card = folder / "minotaur.yaml"
    card.write_text(card.read_text().replace("name: Minotaur", "name: Asterion"))
    pack = folder / "pack.yaml"  # a pack that extends none: its cards are its edition's
    pack.write_text(pack.read_text().replace("  - Minotaur\n", "  - Asterion\n"))
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


# --- the edition's card names (pack.yaml's edition_cards) and the names cards ban ---------------

EDITION_COUNTS = {"bga": 66, "pantheon": 100, "first-edition": 30}


@pytest.mark.parametrize("name", PACKS)
def test_each_pack_lists_every_card_of_its_edition(name: str) -> None:
    edition = load_pack(name).edition_cards
    assert len(edition) == len(set(edition)) == EDITION_COUNTS[name]
    assert {"Apollo", "Zeus", "Persephone", "Charon", "Chronus", "Hestia"} <= set(edition)
    assert set(load_pack(name).cards) <= set(edition)


def test_the_lists_spell_names_as_their_editions_do() -> None:
    bga, pantheon, first = (set(load_pack(name).edition_cards) for name in PACKS)
    assert {"Castor & Pollux", "Europa & Talus", "Aeolus", "Siren", "Nyx", "Adonis", "Hecate"} <= bga
    assert {"Castor & Pollux", "Europa & Talus", "Orpheus & Eurydice", "Asklepios", "Pythia"} <= pantheon
    assert {"Chaos", "Circe", "Selene", "Limus"} <= first
    assert {"Chaos", "Circe", "Nyx"} & pantheon == set()  # BGA and first-edition cards only
    assert first <= bga and bga - pantheon == {"Chaos", "Circe", "Nyx"}


def _pantheon_copy(tmp_path: Path, bans: str) -> Path:
    folder = tmp_path / "pantheon"
    shutil.copytree(REPO / "powers" / "pantheon", folder)
    card = folder / "athena.yaml"
    card.write_text(card.read_text().replace("bans: []", f"bans: {bans}"))
    return card


def test_a_ban_may_name_a_card_of_the_edition_the_pack_does_not_have_yet(tmp_path: Path) -> None:
    card = _pantheon_copy(tmp_path, "[Adonis, hecate, Persephone, Castor & Pollux, Apollo]")
    pack = load_pack_folder(card.parent)
    assert "Hecate" not in pack.cards
    assert pack.cards["Athena"].bans == ("Adonis", "hecate", "Persephone", "Castor & Pollux", "Apollo")


def test_a_misspelt_ban_is_a_located_error_with_a_suggestion(tmp_path: Path) -> None:
    card = _pantheon_copy(tmp_path, "[Adonis, Hecat, Persephone]")
    with pytest.raises(PackError) as caught:
        load_pack_folder(card.parent)
    [error] = caught.value.errors
    line = card.read_text().splitlines().index("bans: [Adonis, Hecat, Persephone]") + 1
    assert (error.file, error.line, error.column) == (str(card), line, len("bans: [Adonis, ") + 1)
    assert "unknown card 'Hecat' in bans" in error.message
    assert error.message.endswith("(did you mean 'Hecate'?)")


def test_a_ban_of_a_card_of_another_edition_only_is_refused(tmp_path: Path) -> None:
    card = _pantheon_copy(tmp_path, "[Circe]")  # a first-edition and BGA card, not a Pantheon one
    with pytest.raises(PackError) as caught:
        load_pack_folder(card.parent)
    assert "unknown card 'Circe' in bans" in str(caught.value)


def test_a_card_of_a_pack_is_a_card_of_its_edition(tmp_path: Path) -> None:
    folder = tmp_path / "first-edition"
    shutil.copytree(REPO / "powers" / "first-edition", folder)
    card = folder / "apollo.yaml"
    card.write_text(card.read_text().replace("name: Apollo", "name: Apolo"))
    with pytest.raises(PackError) as caught:
        load_pack_folder(folder)
    [error] = caught.value.errors
    assert (error.file, error.line, error.column) == (str(card), 2, 7)
    assert error.message == ("'Apolo' is not a card of the edition (see edition_cards in pack.yaml) "
                             "(did you mean 'Apollo'?)")


def test_an_own_pack_inherits_the_list_and_its_new_gods_count_as_known(tmp_path: Path) -> None:
    folder = tmp_path / "my-pack"
    folder.mkdir()
    (folder / "pack.yaml").write_text((REPO / "powers" / "bga" / "pack.yaml").read_text().split("edition_cards:")[0]
                                      .replace("name: bga", "name: my-pack")
                                      .replace("language: 2", "language: 2\nextends: bga"))
    atlas = (REPO / "powers" / "bga" / "atlas.yaml").read_text()
    (folder / "asterion.yaml").write_text(atlas.replace("name: Atlas", "name: Asterion")
                                          .replace("bans: [Gaea]", "bans: [Minotaur, Nyx, labyrinth]"))
    (folder / "labyrinth.yaml").write_text(atlas.replace("name: Atlas", "name: Labyrinth")
                                           .replace("bans: [Gaea]", "bans: [Asterion]"))
    pack = load_pack_folder(folder)
    assert pack.edition_cards == load_pack("bga").edition_cards
    assert {"Asterion", "Labyrinth", "Apollo"} <= set(pack.cards)
    (folder / "labyrinth.yaml").write_text(atlas.replace("name: Atlas", "name: Labyrinth")
                                           .replace("bans: [Gaea]", "bans: [Asterio]"))
    with pytest.raises(PackError) as caught:
        load_pack_folder(folder)
    assert "unknown card 'Asterio' in bans" in str(caught.value) and "(did you mean 'Asterion'?)" in str(caught.value)


@pytest.mark.parametrize("name", PACKS)
def test_santorini_check_passes_on_every_shipped_pack(name: str) -> None:
    from click.testing import CliRunner

    from santorini.interpreter.cli.cli import main
    result = CliRunner().invoke(main, ["check", str(REPO / "powers" / name)])
    assert result.exit_code == 0, result.output
    assert "0 faults" in result.output
