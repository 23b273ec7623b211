"""A cache of compiled packs, so that a command starts without parsing a single card.

The shipped packs are compiled once (schema, parse, check, compile) and pickled under the user's
cache folder. The key is a hash of everything the result depends on: every file of powers/,
modes/ and schema/, the grammar and the compiler's own source, the package version, and the
package's location. A change
to any card, mode, schema or to the language makes a new key, so a stale pack is never used.
Set SANTORINI_CACHE_DIR to move the cache, or to an empty string to turn it off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: Folders (under the package root) and file patterns whose content a compiled pack depends on.
INPUTS = (("powers", "*/*"), ("modes", "*/*.yaml"), ("schema", "*.json"), ("dsl", "**/*.py"),
          ("dsl", "**/*.lark"), ("interpreter/games", "packs.py"), ("interpreter/games", "cache.py"))


def cache_folder() -> Path | None:
    """Where compiled packs are kept; None when caching is turned off."""
    configured = os.environ.get("SANTORINI_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "santorini"


def source_key(root: Path, version: str) -> str:
    """A hash of every input file's path and content under `root`, the version, and where
    `root` is: a compiled pack records its files' paths (for messages), so two installations
    with the same files must not share an entry."""
    digest = hashlib.sha256(version.encode())
    digest.update(str(root.resolve()).encode())
    for folder, pattern in INPUTS:
        for path in sorted((root / folder).glob(pattern)):
            if path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def installation_tag(root: Path) -> str:
    """A short digest of where `root` is. Entry names carry it, so that two installations (a
    checkout and an installed copy, two virtual environments) keep their own entries instead of
    pruning each other's as stale."""
    return hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:8]


def cached(name: str, key: str, build: Callable[[], T]) -> T:
    """The object stored under (name, key), or `build()`'s result, stored for next time.

    An unreadable or corrupt entry is rebuilt; a cache that cannot be written is skipped (the
    cache only saves time, it never decides a result).
    """
    folder = cache_folder()
    if folder is None:
        return build()
    path = folder / f"{name}-{key}.pickle"
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        pass
    value = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, delete=False, suffix=".tmp") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, path)
        for stale in folder.glob(f"{name}-*.pickle"):  # entries of older sources of `name` are dead
            if stale != path:
                stale.unlink(missing_ok=True)
    except OSError:
        pass
    return value
