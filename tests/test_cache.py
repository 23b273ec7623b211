"""The compile cache: a warm start reuses compiled packs, and any change to a card, a mode, a
schema or the language's own files makes a new key (a stale pack is never used)."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from santorini.interpreter.games.cache import INPUTS, cached, installation_tag, source_key
from support import REPO


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of every input the key reads."""
    root = tmp_path / "root"
    for folder, _ in INPUTS:
        if not (root / folder).exists():
            shutil.copytree(REPO / folder, root / folder)
    return root


@pytest.mark.parametrize("changed", ["powers/bga/demeter.yaml", "modes/pantheon/standard.yaml",
                                     "schema/card.schema.json", "dsl/syntax/rules.lark", "dsl/semantics/compiler.py",
                                     "interpreter/games/packs.py"])
def test_any_input_change_makes_a_new_key(tree: Path, changed: str) -> None:
    before = source_key(tree, "1.0")
    path = tree / changed
    path.write_text(path.read_text() + "\n# changed\n")
    assert source_key(tree, "1.0") != before


def test_a_new_card_file_and_a_new_version_make_new_keys(tree: Path) -> None:
    before = source_key(tree, "1.0")
    shutil.copy(tree / "powers" / "bga" / "atlas.yaml", tree / "powers" / "bga" / "atlas2.yaml")
    assert source_key(tree, "1.0") != before
    assert source_key(tree, "1.1") != source_key(tree, "1.0")


def test_the_key_is_stable(tree: Path) -> None:
    assert source_key(tree, "1.0") == source_key(tree, "1.0") == source_key(tree, "1.0")


def test_cached_builds_once_then_reuses(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"compiled": len(calls)}
    assert cached("pack-x", "k1", build) == {"compiled": 1}
    assert cached("pack-x", "k1", build) == {"compiled": 1}
    assert len(calls) == 1
    assert cached("pack-x", "k2", build) == {"compiled": 2}  # new sources: rebuilt
    assert [p.name for p in tmp_path.glob("pack-x-*.pickle")] == ["pack-x-k2.pickle"]  # old one pruned


def test_two_installations_keep_their_own_entries(tmp_path: Path, monkeypatch) -> None:
    """A checkout and an installed copy used in turn must not prune each other's entries (each
    run would then compile every pack again)."""
    from santorini.interpreter.games.packs import load_pack, package_root
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    elsewhere = tmp_path / f"pack-bga-{installation_tag(tmp_path)}-0123456789ab.pickle"
    elsewhere.write_bytes(pickle.dumps("another installation's bga"))
    load_pack.__wrapped__("bga")  # (load_pack itself remembers packs for the whole process)
    names = [p.name for p in tmp_path.glob("pack-bga-*.pickle")]
    assert elsewhere.name in names
    assert any(n.startswith(f"pack-bga-{installation_tag(package_root())}-") for n in names), names


def test_a_corrupt_entry_is_rebuilt(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    (tmp_path / "pack-y-k.pickle").write_bytes(b"not a pickle")
    assert cached("pack-y", "k", lambda: "fresh") == "fresh"
    assert pickle.loads((tmp_path / "pack-y-k.pickle").read_bytes()) == "fresh"


def test_caching_can_be_turned_off(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SANTORINI_CACHE_DIR", "")
    calls = []
    for _ in range(2):
        cached("pack-z", "k", lambda: calls.append(1))
    assert len(calls) == 2


def test_a_cached_pack_plays_like_a_fresh_one(tmp_path: Path, monkeypatch, position) -> None:
    """The pickled pack compiles into the same engine: perft agrees."""
    from santorini.interpreter.games.game import new_game, parse_players
    from santorini.interpreter.games.packs import load_pack_folder
    from support import s0_text
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    fresh = load_pack_folder(REPO / "powers" / "pantheon", REPO / "modes" / "pantheon")
    stored = cached("pack-pantheon", "k", lambda: fresh)
    revived = cached("pack-pantheon", "k", lambda: pytest.fail("should come from the cache"))
    assert revived is not stored and set(revived.cards) == set(fresh.cards)
    scenario = position(s0_text("pantheon", ["Apollo", "Prometheus"]))
    game = new_game(revived, parse_players(["Apollo", "Prometheus"]))
    assert game.engine.perft(scenario.state, 2) == scenario.game.engine.perft(scenario.state, 2)


def test_two_installations_with_the_same_files_do_not_share_an_entry(tree: Path, tmp_path: Path) -> None:
    """A compiled pack keeps its files' paths; a copy elsewhere must compile its own."""
    other = tmp_path / "elsewhere"
    shutil.copytree(tree, other)
    assert source_key(tree, "1.0") != source_key(other, "1.0")
