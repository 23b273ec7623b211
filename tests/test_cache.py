"""The compile cache: a warm start reuses compiled packs, and any change to a card, a mode, a
schema or the language's own files makes a new key (a stale pack is never used)."""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import shutil
from pathlib import Path

import pytest

from santorini.interpreter.games import codec
from santorini.interpreter.games.cache import FORMAT, INPUTS, cached, installation_tag, source_key
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
    assert [p.name for p in tmp_path.glob("pack-x-*")] == ["pack-x-k2.json"]  # old one pruned


def test_two_installations_keep_their_own_entries(tmp_path: Path, monkeypatch) -> None:
    """A checkout and an installed copy used in turn must not prune each other's entries (each
    run would then compile every pack again)."""
    from santorini.interpreter.games.packs import load_pack, package_root
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    elsewhere = tmp_path / f"pack-bga-{installation_tag(tmp_path)}-0123456789ab.json"
    elsewhere.write_text("another installation's bga")
    load_pack.__wrapped__("bga")  # (load_pack itself remembers packs for the whole process)
    names = [p.name for p in tmp_path.glob("pack-bga-*.json")]
    assert elsewhere.name in names
    assert any(n.startswith(f"pack-bga-{installation_tag(package_root())}-") for n in names), names


def entry(payload: str, key: str = "k", digest: str | None = None, form: str = FORMAT) -> str:
    digest = hashlib.sha256(payload.encode()).hexdigest() if digest is None else digest
    return json.dumps({"format": form, "key": key, "sha256": digest, "payload": payload})


@pytest.mark.parametrize(("written", "reason"), [
    (b"not JSON", "not JSON"),
    (entry('"x"')[:-5].encode(), "not JSON"),
    (json.dumps([1, 2]).encode(), "not of the format"),
    (entry('"x"', form="santorini-compiled-pack/1").encode(), "not of the format"),
    (entry('"x"', key="other").encode(), "key or payload"),
    (entry('"x"', digest="0" * 64).encode(), "does not match its SHA-256"),
    (entry('{"C": "Popen", "i": 0, "f": {}}').encode(), "'Popen' is not a class of the compiled vocabulary"),
    (entry('{"C": "Where", "i": 0, "f": {"nope": 1}}').encode(), "Where has fields"),
    (entry('{"E": "Verb", "v": "FLY"}').encode(), "malformed entry"),
    (entry('{"R": 5}').encode(), "a reference to object 5"),
    (entry('[' * 100000 + ']' * 100000).encode(), "does not decode"),
    (entry('{"T": 3}').encode(), "expected a list"),
])
def test_a_corrupt_or_tampered_entry_is_rebuilt_with_a_warning(tmp_path: Path, monkeypatch, caplog,
                                                               written: bytes, reason: str) -> None:
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    (tmp_path / "pack-y-k.json").write_bytes(written)
    with caplog.at_level(logging.WARNING, logger="santorini.cache"):
        assert cached("pack-y", "k", lambda: "fresh") == "fresh"
    assert len(caplog.records) == 1 and reason in caplog.records[0].getMessage(), caplog.text
    assert "it is rebuilt" in caplog.records[0].getMessage()
    assert cached("pack-y", "k", lambda: pytest.fail("the rebuilt entry is used")) == "fresh"


class _Planted:
    """A pickle that, when loaded, writes a file: what a planted entry could do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # noqa: ANN204
        return (Path.write_text, (self.marker, "ran"))


def test_an_entry_of_another_kind_is_not_used(tmp_path: Path, monkeypatch, caplog) -> None:
    from santorini.interpreter.games.packs import Pack, _shipped_key, load_pack, package_root
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    name = f"pack-bga-{installation_tag(package_root())}-{_shipped_key()}"
    (tmp_path / f"{name}.json").write_text(entry('"a string"', key=_shipped_key()))
    with caplog.at_level(logging.WARNING, logger="santorini.cache"):
        assert isinstance(load_pack.__wrapped__("bga"), Pack)
    assert "it holds a str, not a Pack" in caplog.text


def test_a_planted_pickle_is_never_loaded(tmp_path: Path, monkeypatch) -> None:
    """Entries are data: a pickle put where an entry (old or new) would be runs nothing."""
    from santorini.interpreter.games.packs import _shipped_key, load_pack, package_root
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    marker = tmp_path / "marker"
    planted = pickle.dumps(_Planted(marker))
    name = f"pack-bga-{installation_tag(package_root())}-{_shipped_key()}"
    (tmp_path / f"{name}.pickle").write_bytes(planted)
    (tmp_path / f"{name}.json").write_bytes(planted)
    pack = load_pack.__wrapped__("bga")
    assert "Apollo" in pack.cards and not marker.exists()


def test_check_judges_the_pack_that_play_runs(tmp_path: Path, monkeypatch, caplog) -> None:
    """An entry tampered with a consistent digest (Apollo's rules swapped for Minotaur's) is what
    a warm start would read; `check` compares it with the pack compiled from the sources and
    rebuilds it, so that the next start plays the real Apollo."""
    from santorini.interpreter.games.packs import _shipped_key, load_pack, package_root
    from santorini.interpreter.games.validate import check_paths
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    load_pack.__wrapped__("bga")
    path = next(tmp_path.glob("pack-bga-*.json"))
    data = json.loads(path.read_text())
    pack = codec.decode(json.loads(data["payload"]))
    apollo, minotaur = pack.cards["Apollo"], pack.cards["Minotaur"]
    object.__setattr__(apollo, "power", minotaur.power)
    path.write_text(entry(codec.dumps(pack), key=_shipped_key()))
    assert load_pack.__wrapped__("bga").cards["Apollo"].power is not None  # the tampered entry is read
    assert codec.dumps(load_pack.__wrapped__("bga").cards["Apollo"].power) == codec.dumps(minotaur.power)
    with caplog.at_level(logging.WARNING, logger="santorini.cache"):
        checked, errors = check_paths([str(package_root() / "powers" / "bga")])
    assert errors == [] and "differs from the pack compiled from the sources" in caplog.text
    revived = load_pack.__wrapped__("bga")
    assert codec.dumps(revived.cards["Apollo"].power) != codec.dumps(minotaur.power)


def test_the_codec_keeps_shared_objects_shared_and_refuses_other_classes() -> None:
    from santorini.dsl.vocabulary import Where
    where = Where("f", 1, 2)
    back = codec.decode(json.loads(codec.dumps((where, where, {3: frozenset({1, 2})}))))
    assert back[0] == where and back[0] is back[1] and back[2] == {3: frozenset({1, 2})}
    with pytest.raises(TypeError, match="cannot encode a .*Path in a compiled pack"):
        codec.encode(Path("."))


def test_caching_can_be_turned_off(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SANTORINI_CACHE_DIR", "")
    calls = []
    for _ in range(2):
        cached("pack-z", "k", lambda: calls.append(1))
    assert len(calls) == 2


def test_a_cached_pack_plays_like_a_fresh_one(tmp_path: Path, monkeypatch, position) -> None:
    """The stored pack compiles into the same engine: perft agrees."""
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
