"""Rule packs: find them, load their cards and modes through every stage, and report all faults.

A pack is a folder `powers/<name>/` with a `pack.yaml` and one YAML file per card (the base card
among them); a shipped pack's modes are in `modes/<name>/`, an author's pack's in its own `modes/`
subfolder (`modes_folder_of` says which, for `play` and `check` alike). Loading runs schema check,
parse, check and compile on every file and collects every fault of every file before giving up, so
`santorini check` can show them all at once.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from ... import __version__
from ...dsl import LANGUAGE_VERSION
from ...dsl.errors import SantoriniError, SourceError, SourceErrors
from ...dsl.vocabulary import IfPossible, Power, RulesKind
from .cache import cached, installation_tag, source_key, stale

if TYPE_CHECKING:
    from ...dsl.source import Document

MORTAL = "Mortal"


class PackError(SantoriniError):
    """A pack (or a file of it) has faults; `errors` lists them all, located."""

    def __init__(self, errors: list[SourceError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


class UnknownName(SantoriniError, ValueError):
    """A pack, card or mode name that does not exist; the message lists what does."""


@dataclass(frozen=True)
class Card:
    """A card as its file gives it, with its compiled power."""

    name: str
    title: str
    kind: str
    tier: str | None
    players: tuple[int, ...]
    bans: tuple[str, ...]
    summary: str
    text: str
    rules: str
    power: Power = field(repr=False, compare=False)
    path: str = ""


@dataclass(frozen=True)
class Mode:
    """A game mode: player counts, powers per seat, setup and mode rules."""

    name: str
    title: str
    players: tuple[int, ...]
    summary: str
    powers_per_seat: int
    rules: str
    power: Power = field(repr=False, compare=False)
    path: str = ""
    #: Every seat must hold `powers_per_seat` powers (no Mortal seat), as BGA requires with 3 players.
    powers_required: bool = False


@dataclass
class Pack:
    name: str
    title: str
    edition: str
    description: str
    #: pack.yaml's edition-wide settings ("if_possible": how to read 'if possible').
    settings: dict[str, object]
    default_modes: dict[int, str]
    base: Card
    cards: dict[str, Card]
    modes: dict[str, Mode]
    path: str
    #: Every god and hero name of the pack's edition (pack.yaml's `edition_cards`, or its
    #: parent's), cards the pack does not have yet included: what a card's `bans` may name.
    edition_cards: tuple[str, ...] = ()

    @property
    def if_possible(self) -> IfPossible:
        """The pack's reading of 'if possible' (pack.yaml's settings)."""
        return IfPossible(self.settings["if_possible"])

    def card(self, name: str) -> Card | None:
        """The card of that name (any case); None for 'Mortal' (no power)."""
        if name.lower() == MORTAL.lower():
            return None
        for card in self.cards.values():
            if card.name.lower() == name.lower():
                return card
        names = {n.lower(): n for n in [MORTAL, *self.cards]}
        known = ", ".join([MORTAL, *sorted(self.cards)])
        raise UnknownName(f"pack '{self.name}' has no card '{name}'{_did_you_mean(name, names)}; "
                          f"its cards are: {known}")

    def mode(self, name: str | None, players: int) -> Mode:
        """The named mode, or the standard mode for this player count."""
        if name is None:
            if players not in self.default_modes:
                raise UnknownName(f"pack '{self.name}' has no default mode for {players} players "
                                  f"(it has one for {', '.join(map(str, sorted(self.default_modes)))})")
            name = self.default_modes[players]
        if name not in self.modes:
            raise UnknownName(f"pack '{self.name}' has no mode '{name}'; its modes are: "
                              f"{', '.join(sorted(self.modes))}")
        return self.modes[name]


def package_root() -> Path:
    return Path(str(files("santorini")))


def pack_names() -> list[str]:
    """The shipped packs, by folder name."""
    root = package_root() / "powers"
    return sorted(p.name for p in root.iterdir() if (p / "pack.yaml").is_file())


@cache
def load_pack(name: str) -> Pack:
    """A shipped pack by name, fully compiled: from the compile cache when its sources are
    unchanged (see cache.py), else compiled now and cached (once per process in any case)."""
    if name not in pack_names():
        raise UnknownName(f"unknown pack '{name}'{_did_you_mean(name, {n: n for n in pack_names()})}; "
                          f"packs are: {', '.join(pack_names())}")
    root = package_root()
    folder = root / "powers" / name
    return cached(f"pack-{name}-{installation_tag(root)}", _shipped_key(),
                  lambda: load_pack_folder(folder, modes_folder_of(folder)), kind=Pack)


def modes_folder_of(folder: Path) -> Path | None:
    """Where the pack in `folder` keeps its modes: the folder's own `modes/` subfolder, else, for a
    pack laid out as the shipped ones are (`powers/<name>/` beside `modes/<name>/`, whether in the
    installed package or in a checkout of it, however its path is written), `modes/<name>/`; None
    if there is neither (the pack then has the modes it inherits). `play` and `check` both ask
    here, so that `check` judges the very modes `play` loads."""
    own = folder / "modes"
    if own.is_dir():
        return own
    where = folder.resolve()
    if where.parent.name == "powers":
        beside = where.parent.parent / "modes" / where.name
        if beside.is_dir():
            return beside
    return None


def refresh_cached_pack(name: str, compiled: Pack) -> str | None:
    """Compare the compile cache's entry of shipped pack `name` with `compiled`, the pack just
    compiled from its sources, and rebuild the entry if they differ; returns what was wrong (None:
    nothing). `santorini check` calls this, so that the pack it judged is the one `play` runs."""
    root = package_root()
    return stale(f"pack-{name}-{installation_tag(root)}", _shipped_key(), compiled)


def resolve_pack(name: str, relative_to: Path | None = None) -> Pack:
    """A shipped pack by name, or an author's own pack by the path of its folder (a folder with
    a pack.yaml; relative paths are taken from `relative_to`, else the working folder). An own
    pack usually `extends` a shipped one and holds only its new or changed cards; its modes are
    its `modes/` subfolder if it has one, else the ones it inherits."""
    if name in pack_names():
        return load_pack(name)
    folder = Path(name).expanduser()
    if not folder.is_absolute() and relative_to is not None:
        folder = relative_to / folder
    if (folder / "pack.yaml").is_file():
        return load_pack_folder(folder, modes_folder_of(folder))
    raise UnknownName(f"unknown pack '{name}'{_did_you_mean(name, {n: n for n in pack_names()})}; packs are: "
                      f"{', '.join(pack_names())}, or the path of a folder holding a pack.yaml")


@cache
def _shipped_key() -> str:
    return source_key(package_root(), __version__)


def load_pack_folder(folder: Path, modes_folder: Path | None = None) -> Pack:
    """Load a pack folder (and its modes folder); PackError with every fault found."""
    errors: list[SourceError] = []
    document = _document(folder / "pack.yaml", "pack", errors)
    if document is not None and document.data["language"] > LANGUAGE_VERSION:
        line, column = document.position(("language",))
        errors.append(SourceError(document.path, line, column, f"the pack is written in rule language "
                                  f"version {document.data['language']}; this engine reads version {LANGUAGE_VERSION}"))
    parent = _parent(document, errors)
    cards: dict[str, Card] = dict(parent.cards) if parent else {}
    modes: dict[str, Mode] = dict(parent.modes) if parent else {}
    inherited_base = parent.base if parent else None
    base: Card | None = None
    own: list[tuple[Card, Document]] = []  # the cards of this folder, with where they are written
    if document is not None and document.data["name"] != folder.name:
        line, column = document.position(("name",))
        errors.append(SourceError(document.path, line, column, f"the pack is named '{document.data['name']}' but its "
                                  f"folder is '{folder.name}': name the folder as the pack, or the pack as the folder"))
    errors.extend(_unread_files(folder))
    own_names: dict[str, Document] = {}  # where each card of this folder is named
    for path in sorted(folder.glob("*.yaml")):
        if path.name == "pack.yaml":
            continue
        loaded = _load_card(path, errors)
        if loaded is None:
            continue
        card, card_document = loaded
        if card.kind == "base":
            if base is not None:
                errors.append(SourceError(str(path), 1, 1, f"a pack has one base card; '{base.path}' is one already"))
            base = card
        elif card.name in own_names:
            errors.append(_defined_twice("card", card.name, card_document, own_names[card.name]))
        else:
            own_names[card.name] = card_document
            cards[card.name] = card
            own.append(loaded)
    base = base or inherited_base
    if modes_folder is not None and modes_folder.is_dir():
        errors.extend(_unread_modes(modes_folder))
        own_modes: dict[str, Document] = {}  # where each mode of this folder is named
        for path in sorted(modes_folder.glob("*.yaml")):
            mode, mode_document = _load_mode(path, errors)
            if mode_document is None:
                continue
            name = mode_document.data["name"]
            if name in own_modes:
                errors.append(_defined_twice("mode", name, mode_document, own_modes[name]))
                continue
            own_modes[name] = mode_document
            if mode is not None:
                modes[mode.name] = mode
    if document is not None and base is None and not any(str(folder) in e.file for e in errors):
        errors.append(SourceError(str(folder / "pack.yaml"), 1, 1,
                                  "the pack has no base card (a card with 'kind: base')"))
    edition_cards = _edition_cards(document, parent)
    if document is not None:
        _check_names(own, cards, edition_cards, extends="extends" in document.data, errors=errors)
        _check_default_modes(document, modes, errors)
    if errors:
        raise PackError(errors)
    assert document is not None and base is not None  # (else a fault was listed)
    data = document.data
    return Pack(name=data["name"], title=data["title"], edition=data["edition"],
                description=data["description"], settings=dict(data["settings"]),
                default_modes={int(k): v for k, v in data["default_modes"].items()}, base=base,
                cards=cards, modes=modes, path=str(folder), edition_cards=edition_cards)


def _unread_files(folder: Path) -> list[SourceError]:
    """Files a pack folder holds that look like cards but are not read: say so, never skip them
    in silence (cards are the folder's own *.yaml files)."""
    faults = []
    for path in sorted(folder.rglob("*.y*ml")):
        if path.suffix not in (".yml", ".yaml") or (path.parent == folder and path.suffix == ".yaml"):
            continue
        if path.parent != folder and not _looks_like_a_card(path):
            continue  # a subfolder's modes, scenarios or records are not cards
        where = "is in a subfolder" if path.parent != folder else "ends in .yml"
        faults.append(SourceError(str(path), 1, 1, f"this file {where}, so the pack does not read it: cards are "
                                                   f"the *.yaml files of {folder} itself"))
    return faults


def _defined_twice(kind: str, name: str, document: Document, first: Document) -> SourceError:
    """A card or mode named as one before it in the same folder: the later one would replace the
    earlier in silence, so both places are named."""
    line, column = document.position(("name",))
    first_line, first_column = first.position(("name",))
    return SourceError(document.path, line, column, f"{kind} '{name}' is defined twice (also in "
                       f"{first.path}:{first_line}:{first_column}): give each {kind} its own name")


def _unread_modes(folder: Path) -> list[SourceError]:
    """Files of a modes folder that look like modes but are not read: say so, as for cards (modes
    are the folder's own *.yaml files, never those of its subfolders nor *.yml ones)."""
    faults = []
    for path in sorted(folder.rglob("*.y*ml")):
        if path.suffix not in (".yml", ".yaml") or (path.parent == folder and path.suffix == ".yaml"):
            continue
        if path.parent != folder and not _looks_like(path, _MODE_KEY):
            continue  # (notes or data of another kind: not modes)
        where = "is in a subfolder" if path.parent != folder else "ends in .yml"
        faults.append(SourceError(str(path), 1, 1, f"this file {where}, so the pack does not read it: modes are "
                                                   f"the *.yaml files of {folder} itself"))
    return faults


_CARD_KIND = re.compile(r"^kind:[ \t]*['\"]?(god|hero|base)\b", re.MULTILINE)
#: A mode is the file with `powers_per_seat` (as `santorini check` tells a file's kind).
_MODE_KEY = re.compile(r"^['\"]?powers_per_seat['\"]?[ \t]*:", re.MULTILINE)


def _looks_like_a_card(path: Path) -> bool:
    return _looks_like(path, _CARD_KIND)


def _looks_like(path: Path, pattern: re.Pattern[str]) -> bool:
    """Whether the file's first 64 KiB hold `pattern` (bounded: never the whole file)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(64 * 1024).decode("utf-8", "replace")
    except OSError:
        return False
    return bool(pattern.search(head))


def _check_default_modes(document: Document, modes: dict[str, Mode], errors: list[SourceError]) -> None:
    """Each `default_modes` entry names a mode of the pack that is for that player count (when the
    pack is loaded with modes: a folder checked on its own has none to look in)."""
    if not modes:
        return
    for count, name in document.data["default_modes"].items():
        line, column = document.position(("default_modes", count))
        if name not in modes:
            known = ", ".join(sorted(modes)) or "none"
            errors.append(SourceError(document.path, line, column,
                                      f"default mode '{name}' for {count} players: the pack has no such mode "
                                      f"(its modes: {known})"))
        elif int(count) not in modes[name].players:
            errors.append(SourceError(document.path, line, column,
                                      f"default mode '{name}' for {count} players is for "
                                      f"{', '.join(map(str, modes[name].players))} players"))


def _edition_cards(document: Document | None, parent: Pack | None) -> tuple[str, ...]:
    """The edition's card names: the pack's own `edition_cards`, else its parent's."""
    if document is not None and "edition_cards" in document.data:
        return tuple(document.data["edition_cards"])
    return parent.edition_cards if parent else ()


def _check_names(own: list[tuple[Card, Document]], cards: dict[str, Card], edition_cards: tuple[str, ...],
                 extends: bool, errors: list[SourceError]) -> None:
    """Every card of the folder is a card of the edition (unless the pack extends another: an
    author's new god is in no edition), and every name a card bans is a card of the pack or of
    the edition, compared in any case as bans are at setup. A name that is neither is misspelt."""
    known = {name.lower(): name for name in edition_cards}
    if edition_cards and not extends:
        for card, document in own:
            if card.name not in edition_cards:
                line, column = document.position(("name",))
                errors.append(SourceError(document.path, line, column, f"'{card.name}' is not a card of the "
                                          f"edition (see edition_cards in pack.yaml){_did_you_mean(card.name, known)}"))
    known.update({name.lower(): name for name in cards})
    where = ("in the pack nor in its edition_cards" if edition_cards
             else "in the pack (and pack.yaml has no edition_cards)")
    for card, document in own:
        for index, banned in enumerate(card.bans):
            if banned.lower() == card.name.lower():
                line, column = document.position(("bans", index))
                errors.append(SourceError(document.path, line, column, f"{card.name} bans itself: a ban names "
                                          "another card"))
            elif banned.lower() not in known:
                line, column = document.position(("bans", index))
                errors.append(SourceError(document.path, line, column, f"unknown card '{banned}' in bans: it is "
                                          f"not {where}{_did_you_mean(banned, known)}"))


def _did_you_mean(name: str, known: dict[str, str]) -> str:
    close = difflib.get_close_matches(name.lower(), list(known), n=1, cutoff=0.6)
    return f" (did you mean '{known[close[0]]}'?)" if close else ""


def _parent(document: Document | None, errors: list[SourceError]) -> Pack | None:
    """The pack this one extends (it restates only the cards that differ), if any."""
    if document is None or "extends" not in document.data:
        return None
    name = document.data["extends"]
    try:
        return load_pack(name)
    except UnknownName as err:
        line, column = document.position(("extends",))
        errors.append(SourceError(document.path, line, column, str(err)))
    except PackError as err:
        errors.extend(err.errors)
    return None


def _document(path: Path, kind: str, errors: list[SourceError]) -> Document | None:
    from ...dsl.source import load_document  # YAML and JSON Schema: only when compiling
    try:
        return load_document(path, kind)
    except SourceErrors as err:
        errors.extend(err.errors)
    except OSError as err:
        errors.append(SourceError(str(path), 1, 1, f"cannot read the file: {err.strerror}"))
    return None


def _compile(document: Document, kind: RulesKind, name: str, errors: list[SourceError]) -> Power | None:
    """Parse, check and compile the document's `rules`; faults go to `errors`."""
    from ...dsl.semantics.checker import check_rules
    from ...dsl.semantics.compiler import compile_rules
    from ...dsl.syntax.parser import Origin, parse_rules
    if document.data.get("language", LANGUAGE_VERSION) > LANGUAGE_VERSION:
        line, column = document.position(("language",))
        errors.append(SourceError(document.path, line, column, f"written in rule language version "
                                  f"{document.data['language']}; this engine reads version {LANGUAGE_VERSION}"))
        return None
    line, column, style = document.text_origin(("rules",))
    if style == ">" or (style != "|" and "\n" in document.data["rules"].strip()):
        at_line, at_column = document.position(("rules",))
        errors.append(SourceError(document.path, at_line, at_column, "write the rules as a literal block ('rules: |', "
                                  "the rules on the lines below it), so that each rule keeps its own line: a folded "
                                  "('>') or quoted text moves them, and messages would point elsewhere"))
        return None
    origin = Origin(document.path, line, column)
    try:
        rules = parse_rules(document.data["rules"], origin)
    except SourceError as err:
        errors.append(err)
        return None
    faults = check_rules(rules, origin, kind)
    if faults:
        errors.extend(faults)
        return None
    return compile_rules(rules, origin, name)


def load_card(path: Path, errors: list[SourceError]) -> Card | None:
    loaded = _load_card(path, errors)
    return loaded[0] if loaded else None


def _load_card(path: Path, errors: list[SourceError]) -> tuple[Card, Document] | None:
    """The card and its document (which knows where each value is written, for later faults)."""
    document = _document(path, "card", errors)
    if document is None:
        return None
    data = document.data
    if data["name"].lower() == MORTAL.lower():
        line, column = document.position(("name",))
        errors.append(SourceError(document.path, line, column, f"'{MORTAL}' is the name of a seat with no power; "
                                  "give the card another name"))
        return None
    power = _compile(document, RulesKind(data["kind"]), data["name"], errors)
    if power is None:
        return None
    if data["kind"] != "base" and not _adds_anything(power):
        line, column = document.position(("rules",))
        errors.append(SourceError(document.path, line, column, "the rules add nothing to the base rules: a god or "
                                  "hero card needs at least one sentence that does something"))
        return None
    card = Card(name=data["name"], title=data["title"], kind=data["kind"], tier=data.get("tier"),
                players=tuple(data["players"]), bans=tuple(data.get("bans", ())),
                summary=data["summary"], text=data["text"], rules=data["rules"], power=power,
                path=str(path))
    return card, document


def _adds_anything(power: Power) -> bool:
    """Whether a compiled card has any hook at all."""
    import dataclasses
    return any(getattr(power, f.name) for f in dataclasses.fields(power) if f.name != "name")


def load_mode(path: Path, errors: list[SourceError]) -> Mode | None:
    return _load_mode(path, errors)[0]


def _load_mode(path: Path, errors: list[SourceError]) -> tuple[Mode | None, Document | None]:
    """The mode (None if it has faults) and its document (None if even that did not load): a
    mode whose rules have faults still has a name, which another mode may not take too."""
    document = _document(path, "mode", errors)
    if document is None:
        return None, None
    data = document.data
    power = _compile(document, RulesKind.MODE, data["name"], errors)
    if power is None:
        return None, document
    return Mode(name=data["name"], title=data["title"], players=tuple(data["players"]),
                summary=data["summary"], powers_per_seat=data["powers_per_seat"], rules=data["rules"],
                power=power, path=str(path), powers_required=data.get("powers_required", False)), document


@dataclass(frozen=True)
class Difference:
    """What differs between two packs about one card or mode: it is in only one of them
    (`only_in`), or some fields differ (`fields`, with both values of each in `values`)."""

    label: str
    only_in: str | None = None
    fields: tuple[str, ...] = ()
    values: dict[str, tuple[object, object]] = field(default_factory=dict)


def pack_differences(first: Pack, second: Pack) -> list[Difference]:
    """Card by card (the base card and modes included): cards only in one pack, and for shared
    cards the fields whose text differs (rules that compile to the same hooks are marked
    'wording only')."""
    found: list[Difference] = []

    def compare(label: str, a: Card | Mode | None, b: Card | Mode | None, fields: tuple[str, ...]) -> None:
        if a is None or b is None:
            found.append(Difference(label, only_in=first.name if b is None else second.name))
            return
        changed = [f for f in fields if _normal(getattr(a, f)) != _normal(getattr(b, f))]
        if not changed:
            return
        values = {f: (getattr(a, f), getattr(b, f)) for f in changed}
        if "rules" in changed and _meaning(a.power) == _meaning(b.power):
            wording = "rules (wording only: they compile to the same hooks)"
            changed[changed.index("rules")] = wording
            values[wording] = values.pop("rules")
        found.append(Difference(label, fields=tuple(changed), values=values))

    card_fields = ("rules", "text", "title", "tier", "players", "bans")
    compare("base rules", first.base, second.base, ("rules",))
    for name in sorted(set(first.cards) | set(second.cards)):
        compare(name, first.cards.get(name), second.cards.get(name), card_fields)
    for name in sorted(set(first.modes) | set(second.modes)):
        compare(f"mode {name}", first.modes.get(name), second.modes.get(name),
                ("rules", "players", "powers_per_seat", "powers_required"))
    return found


def diff_packs(first: Pack, second: Pack) -> list[str]:
    """`pack_differences` as lines: each card's changed fields, the rules of both when the rules
    differ, and both values of every other field that differs."""
    lines: list[str] = []
    width = max(len(first.name), len(second.name))
    for difference in pack_differences(first, second):
        if difference.only_in is not None:
            lines.append(f"{difference.label}: only in {difference.only_in}")
            continue
        changed = difference.fields
        lines.append(f"{difference.label}: {', '.join(changed)} {'differ' if len(changed) > 1 else 'differs'}")
        if "rules" in changed:
            for pack, rules in zip((first, second), difference.values["rules"], strict=True):
                lines.append(f"  {pack.name}:")
                lines.extend(f"    {line}" for line in str(rules).strip().splitlines())
        for name in changed:
            if name.startswith("rules"):
                continue
            lines.append(f"  {name}:")
            for pack, value in zip((first, second), difference.values[name], strict=True):
                lines.append(f"    {pack.name:<{width}}  {_shown(value)}")
    return lines


def _shown(value: object) -> str:
    """A field's value on one line: a text with its line breaks as spaces, a list as 'A, B'."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "(none)"
    return str(value)


def _normal(value: object) -> object:
    """Compare texts without regard to line wrapping and letter case."""
    return " ".join(value.lower().split()) if isinstance(value, str) else value


def _meaning(power: Power) -> str:
    """A compiled power with its source positions left out: equal meanings compare equal."""
    return re.sub(r"where=Where\([^)]*\)", "", repr(power))
