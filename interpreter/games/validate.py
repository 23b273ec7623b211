"""`santorini check`: run every stage on packs, cards, modes, scenarios and records, and collect
every fault as a located error.

A file's kind is told by where it stands and what it holds: `pack.yaml` is a pack, a folder with a
`pack.yaml` is a whole pack (its cards, and the modes `play` would load with it: a shipped pack's
in modes/<name>, an author's pack's in its own modes/ subfolder; see packs.modes_folder_of), a
file with `board` and `edition` is a scenario, one with `placements` a record, one with
`powers_per_seat` a mode, and any other YAML file a card.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ...dsl.errors import SourceError, SourceErrors
from ...dsl.source import load_document, top_level_keys
from .packs import (
    Pack,
    PackError,
    load_card,
    load_mode,
    load_pack_folder,
    modes_folder_of,
    pack_names,
    package_root,
    refresh_cached_pack,
)
from .scenario import ScenarioError, load_scenario

log = logging.getLogger("santorini.cache")


def check_paths(paths: list[str]) -> tuple[int, list[SourceError]]:
    """(files checked, every fault found); no paths means every shipped pack."""
    if not paths:
        root = package_root()
        paths = [str(root / "powers" / name) for name in pack_names()]
    checked = 0
    errors: list[SourceError] = []
    for name in paths:
        path = _shipped_folder(Path(name))
        if path.is_dir() and (path / "pack.yaml").is_file():
            modes = modes_folder_of(path)
            checked += len(list(path.glob("*.yaml"))) + (len(list(modes.glob("*.yaml"))) if modes else 0)
            try:
                compiled = load_pack_folder(path, modes)
            except PackError as err:
                errors.extend(err.errors)
            else:
                _refresh_cache(path, compiled)
        elif path.is_dir():
            for file in sorted(path.rglob("*.yaml")):
                checked += 1
                errors.extend(check_file(file))
        else:
            checked += 1
            errors.extend(check_file(path))
    return checked, errors


def _shipped_folder(path: Path) -> Path:
    """A shipped pack's folder as the package names it (however it was given), so that the pack
    compiled here, which records its files' paths, is the very one the compile cache holds."""
    root = package_root()
    for name in pack_names():
        if path.resolve() == (root / "powers" / name).resolve():
            return root / "powers" / name
    return path


def _refresh_cache(folder: Path, compiled: Pack) -> None:
    """A shipped pack's compile cache entry must hold what was just compiled from its sources."""
    root = package_root()
    for name in pack_names():
        if folder.resolve() == (root / "powers" / name).resolve():
            problem = refresh_cached_pack(name, compiled)
            if problem is not None:
                log.warning("santorini: %s", problem)


def kind_of(path: Path) -> str:
    """Guess a file's kind from its name and top-level keys (see the module docstring)."""
    if path.name == "pack.yaml":
        return "pack"
    keys = top_level_keys(path)  # bounded: never the whole file's data (the loader reports any fault)
    if "board" in keys and "edition" in keys:
        return "scenario"
    if "placements" in keys:
        return "record"
    if "powers_per_seat" in keys:
        return "mode"
    return "card"


def check_file(path: Path) -> list[SourceError]:
    kind = kind_of(path)
    errors: list[SourceError] = []
    try:
        if kind == "card":
            load_card(path, errors)
        elif kind == "mode":
            load_mode(path, errors)
        elif kind == "scenario":
            load_scenario(path)
        elif kind == "record":
            errors.extend(_check_record(path))
        else:
            load_document(path, kind)
    except (SourceErrors, ScenarioError) as err:
        errors.extend(err.errors)
    except OSError as err:
        errors.append(SourceError(str(path), 1, 1, f"cannot read the file: {err.strerror}"))
    return errors


def _check_record(path: Path) -> list[SourceError]:
    """A record is checked by replaying it under its own pack: a turn its pack refuses, or a
    result it does not reach, is a fault at that entry."""
    from .records import replay
    report = replay(str(path), None)
    if report.same:
        return []
    assert report.document is not None  # (a record that parts ways says where)
    line, column = report.document.position(report.at)
    return [SourceError(str(path), line, column, report.message)]
