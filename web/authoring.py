"""Author: a card written in the page, checked as it is typed, played at once, its scenarios run.

The card is checked as `santorini check` checks a card of an author's pack: in a pack of its own
that extends a shipped one (the pack's cards are what its `bans` may name), every stage run
(schema, parse, check, compile), every fault located at its line and column of the text. A card
to play is kept in such a pack, in a folder of the server's own (a temporary folder, one a pack,
the oldest removed past MOST_PACKS), named by an id that a new game and a scenario run take in
place of a shipped pack's name: a page never names a folder of the server's machine.

A pasted scenario runs as `santorini scenario` runs a file, under the pack of the card being
written (its `edition:` line is read as that pack, whatever it names), or under a shipped pack.
"""

from __future__ import annotations

import re
import secrets
import shutil
import tempfile
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..dsl import LANGUAGE_VERSION
from ..dsl.errors import SourceError, SourceErrors
from ..interpreter.games.packs import Pack, PackError, load_pack, load_pack_folder, pack_names, resolve_pack
from ..interpreter.games.scenario import ScenarioError, check, load_scenario
from .tables import WebError

#: The most authors' packs one server keeps.
MOST_PACKS = 16
#: The name a card's text goes by in its faults ('card:12:18: ...'), and a scenario's.
CARD_FILE, SCENARIO_FILE = "card.yaml", "scenario.yaml"
#: The card the page starts from: a god that an author changes.
TEMPLATE = """name: Ergane
title: Goddess of Builders
kind: god
tier: simple
players: [2, 3, 4]
bans: []
summary: The worker may build a second time, on a different space.
text: "Your Build: Your Worker may build one additional time, but not on the same space."
rules: |
  Your Build:
    after your worker builds, it may build one additional time, not on the same space.
"""
#: A scenario's top-level `edition:` line (read as the pack of the card being written).
_EDITION = re.compile(r"^edition:.*$", re.MULTILINE)


@dataclass(frozen=True)
class Fault:
    """A fault of the text, where it is: what the page shows at that line."""

    line: int
    column: int
    message: str


@dataclass(frozen=True)
class Checked:
    """A card's text checked: its name (where the text gets that far) and its faults."""

    name: str | None
    faults: list[Fault]


class AuthorPacks:
    """The packs of the cards written in the server's pages, by id."""

    def __init__(self, most: int = MOST_PACKS) -> None:
        self._root = Path(tempfile.mkdtemp(prefix="santorini-playground-"))
        # (removed with the store, or when the server's process ends)
        self._finalizer = weakref.finalize(self, shutil.rmtree, self._root, True)
        self._packs: OrderedDict[str, Path] = OrderedDict()
        #: The packs the server was started with (`santorini serve --pack DIR`), by name.
        self._served: dict[str, Path] = {}
        self._most = most
        self._lock = threading.Lock()

    def check(self, text: str, base: str) -> Checked:
        """The card's faults, as the pack it would be played in finds them."""
        folder = self._write(text, base, f"check-{secrets.token_hex(6)}")
        try:
            return _checked(folder, text)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def publish(self, text: str, base: str) -> tuple[str, str]:
        """Keep the card in a pack of its own to play: (the pack's id, the card's name).
        WebError with the card's first faults where it has any."""
        pack_id = f"author-{secrets.token_hex(6)}"
        folder = self._write(text, base, pack_id)
        checked = _checked(folder, text)
        if checked.faults or checked.name is None:
            shutil.rmtree(folder, ignore_errors=True)
            first = "; ".join(f"line {f.line}, column {f.column}: {f.message}" for f in checked.faults[:3])
            raise WebError(f"the card has faults: {first or 'no name'}")
        with self._lock:
            self._packs[pack_id] = folder
            while len(self._packs) > self._most:
                _, old = self._packs.popitem(last=False)
                shutil.rmtree(old, ignore_errors=True)
        return pack_id, checked.name

    def serve(self, folder: Path) -> Pack:
        """Offer the pack in `folder` to the pages, by its name (PackError for its faults)."""
        pack = resolve_pack(str(folder.resolve()))
        if pack.name in pack_names():
            raise WebError(f"{folder}: the pack is named '{pack.name}', as a shipped pack: rename it")
        self._served[pack.name] = folder.resolve()
        return pack

    def served(self) -> list[str]:
        """The names of the packs the server was started with."""
        return list(self._served)

    def serves_folder(self, path: str) -> bool:
        """Whether a record's pack (a folder's path) is one the server was started with."""
        return Path(path).resolve() in self._served.values()

    def pack_path(self, name: str) -> str:
        """What `santorini.Game` takes for a pack a page names: a shipped pack's name, the folder
        of a pack the server was started with, or the folder of a card's pack by its id. WebError
        for anything else."""
        if name in pack_names():
            return name
        with self._lock:
            folder = self._served.get(name) or self._packs.get(name)
        if folder is None:
            raise WebError(f"no pack '{name}' here: a shipped pack ({', '.join(pack_names())}), one the server was "
                           "started with (serve --pack DIR), or the pack of a card written in this page")
        return str(folder)

    def run_scenario(self, text: str, pack: str) -> tuple[bool, list[str]]:
        """Run a pasted scenario under `pack` (a shipped pack's name or an author's pack id):
        whether it passes, and why not. WebError (located) for a scenario that cannot be read."""
        where = Path(self.pack_path(pack)) if pack not in pack_names() else None
        if where is None:
            text = _EDITION.sub(f"edition: {pack}", text, count=1)
            path = Path(SCENARIO_FILE)
        else:
            text = _EDITION.sub("edition: .", text, count=1)
            path = where / SCENARIO_FILE  # (never written: it names the pack's folder as the scenario's)
        try:
            scenario = load_scenario(path, text)
        except (ScenarioError, SourceErrors) as error:
            raise WebError("; ".join(_located(fault, SCENARIO_FILE) for fault in error.errors)) from None
        failures = check(scenario)
        return not failures, failures

    def close(self) -> None:
        """Remove every folder the store made."""
        self._finalizer()

    def _write(self, text: str, base: str, name: str) -> Path:
        if base not in pack_names():
            raise WebError(f"a card is written for a shipped pack ({', '.join(pack_names())}); not {base!r}")
        parent = load_pack(base)
        folder = self._root / name
        folder.mkdir()
        pack = {"name": name, "title": "A card written in the playground", "edition": f"{parent.edition}, and a card",
                "description": "The card written in the playground's page.", "language": LANGUAGE_VERSION,
                "extends": base, "default_modes": dict(parent.default_modes), "settings": dict(parent.settings)}
        (folder / "pack.yaml").write_text(yaml.safe_dump(pack, sort_keys=False), encoding="utf-8")
        (folder / CARD_FILE).write_text(text, encoding="utf-8")
        return folder


def _checked(folder: Path, text: str) -> Checked:
    """Load the pack in `folder`; the card's faults, and its name."""
    try:
        pack: Pack = load_pack_folder(folder)
    except PackError as error:
        faults = [Fault(fault.line, fault.column, fault.message) for fault in error.errors
                  if Path(fault.file).name == CARD_FILE]
        if len(faults) < len(error.errors):  # (a fault of the pack the server wrote: its own)
            raise AssertionError(f"the playground's pack has faults: {error}") from None
        return Checked(_name(text), faults)
    own = [card for card in pack.cards.values() if Path(card.path).parent == folder]
    return Checked(own[0].name if own else None, [] if own else [Fault(1, 1, "the text holds no card")])


def _name(text: str) -> str | None:
    match = re.search(r"^name:\s*(.+?)\s*$", text, re.MULTILINE)
    return match.group(1).strip("'\"") if match else None


def _located(fault: SourceError, name: str) -> str:
    return f"{name}:{fault.line}:{fault.column}: {fault.message}"


__all__ = ["MOST_PACKS", "TEMPLATE", "AuthorPacks", "Checked", "Fault"]
