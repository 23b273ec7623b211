"""A cache of compiled packs, so that a command starts without parsing a single card.

The shipped packs are compiled once (schema, parse, check, compile) and kept under the user's
cache folder as data: JSON written by codec.py, which builds nothing but the rule vocabulary's
own classes when it is read back, so a planted entry cannot run code. Each entry records the
SHA-256 of its payload, checked on every read. The key is a hash of everything the result
depends on: every file of powers/, modes/ and schema/, the grammar and the compiler's own
source, the package version, and the package's location. A change to any card, mode, schema or
to the language makes a new key, so a stale pack is never used. An entry that cannot be read,
is corrupt or fails its check is rebuilt, with a warning (logger `santorini.cache`), and so is
one that is not a regular file (a symbolic link, a FIFO, a device): it is never opened, since
reading a link to /dev/zero or a FIFO would never end, and it is replaced, not followed.
`santorini check` also compares the entry with the pack it compiles from the sources (`stale`).
Set SANTORINI_CACHE_DIR to move the cache, or to an empty string to turn it off.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar, overload

from ...dsl.errors import SantoriniError
from . import codec

T = TypeVar("T")

#: Folders (under the package root) and file patterns whose content a compiled pack depends on.
INPUTS = (("powers", "*/*"), ("modes", "*/*.yaml"), ("schema", "*.json"), ("dsl", "**/*.py"),
          ("dsl", "**/*.lark"), ("interpreter/games", "packs.py"), ("interpreter/games", "cache.py"),
          ("interpreter/games", "codec.py"))


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


#: The format tag of an entry; an entry of another format is rebuilt.
FORMAT = "santorini-compiled-pack/2"
#: Entries larger than this are not read (ours are well under a megabyte).
MAX_ENTRY_BYTES = 64 * 1024 * 1024

log = logging.getLogger("santorini.cache")


@overload
def cached(name: str, key: str, build: Callable[[], T], kind: type[T]) -> T: ...
@overload
def cached(name: str, key: str, build: Callable[[], object], kind: None = None) -> object: ...


def cached(name: str, key: str, build: Callable[[], object], kind: type | None = None) -> object:
    """The object stored under (name, key), or `build()`'s result, stored for next time; an
    entry that holds something else than a `kind` (when given) is not used.

    An unreadable, corrupt or tampered entry is rebuilt with a warning; a cache that cannot be
    written is skipped (the cache only saves time, it never decides a result).
    """
    folder = cache_folder()
    if folder is None:
        return build()
    path = entry_path(folder, name, key)
    if _present(path):
        try:
            value = read_entry(path, key)
            if kind is not None and not isinstance(value, kind):
                raise EntryError(f"it holds a {type(value).__name__}, not a {kind.__name__}")
            return value
        except EntryError as err:
            log.warning("santorini: the compile cache entry %s is unusable (%s); it is rebuilt", path, err)
    value = build()
    write_entry(folder, name, key, value)
    return value


def stale(name: str, key: str, value: object) -> str | None:
    """Why the cache entry (name, key) does not hold `value` (None: it does, or there is none).
    A stale entry is written again from `value`. `santorini check` calls this with the pack it
    compiled from the sources, so that it judges the very pack that `play` would run."""
    folder = cache_folder()
    if folder is None:
        return None
    path = entry_path(folder, name, key)
    if not _present(path):
        return None
    try:
        payload = _payload(path, key)
        reason = None if payload == codec.dumps(value) else "it differs from the pack compiled from the sources"
    except EntryError as err:
        reason = str(err)
    if reason is not None:
        write_entry(folder, name, key, value)
        return f"the compile cache entry {path} was unusable ({reason}); it has been rebuilt"
    return None


class EntryError(SantoriniError):
    """A cache entry that cannot be used: unreadable, malformed, of another key, or tampered."""


def entry_path(folder: Path, name: str, key: str) -> Path:
    return folder / f"{name}-{key}.json"


def _present(path: Path) -> bool:
    """Whether something is at `path`, the link itself for a symbolic link (even a dangling
    one): it is then an unusable entry, replaced, rather than no entry at all."""
    try:
        os.lstat(path)
    except (OSError, ValueError):
        return False
    return True


#: How an entry is opened: never through a symbolic link, never waiting on a FIFO's writer.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def _entry_bytes(path: Path) -> bytes:
    """The bytes of the entry, read only from a regular file and at most MAX_ENTRY_BYTES of them:
    a link to /dev/zero would be read until memory ran out, a FIFO would block the reader for ever.
    The file is checked before it is opened (lstat) and again once open (fstat: it is the same
    regular file), so that one swapped in between is not read either."""
    try:
        before = os.lstat(path)
        if not stat.S_ISREG(before.st_mode):
            raise EntryError(f"not a regular file but {_kind(before.st_mode)}, so it is not read")
        if before.st_size > MAX_ENTRY_BYTES:
            raise EntryError(f"larger than {MAX_ENTRY_BYTES} bytes")
        descriptor = os.open(path, _OPEN_FLAGS)
        try:
            opened = os.fstat(descriptor)
            if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (before.st_dev, before.st_ino):
                raise EntryError("it was replaced while it was opened, so it is not read")
            chunks: list[bytes] = []
            size = 0
            while size <= MAX_ENTRY_BYTES:
                chunk = os.read(descriptor, min(1 << 20, MAX_ENTRY_BYTES + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(descriptor)
    except OSError as err:
        raise EntryError(f"cannot be read: {err.strerror or err}") from None
    if size > MAX_ENTRY_BYTES:
        raise EntryError(f"larger than {MAX_ENTRY_BYTES} bytes")
    return b"".join(chunks)


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, in words, for the warning."""
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((word for test, word in kinds if test(mode)), "a special file")


def read_entry(path: Path, key: str) -> object:
    try:
        return codec.decode(json.loads(_payload(path, key)))
    except (codec.CodecError, ValueError, RecursionError) as err:
        raise EntryError(f"its payload does not decode: {err}") from None


def _payload(path: Path, key: str) -> str:
    """The entry's payload text, once its format, key and digest have been checked."""
    try:
        entry = json.loads(_entry_bytes(path))
    except (ValueError, RecursionError) as err:
        raise EntryError(f"not JSON: {err}") from None
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        raise EntryError(f"not of the format {FORMAT}")
    payload, digest = entry.get("payload"), entry.get("sha256")
    if entry.get("key") != key or not isinstance(payload, str):
        raise EntryError("its key or payload is not this entry's")
    if hashlib.sha256(payload.encode()).hexdigest() != digest:
        raise EntryError("its payload does not match its SHA-256")
    return payload


def write_entry(folder: Path, name: str, key: str, value: object) -> None:
    """Store the entry (atomically) and prune the entries of older sources of `name`."""
    path = entry_path(folder, name, key)
    payload = codec.dumps(value)
    entry = {"format": FORMAT, "key": key, "sha256": hashlib.sha256(payload.encode()).hexdigest(), "payload": payload}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as handle:
            json.dump(entry, handle)
        os.replace(handle.name, path)
        for stale_entry in [*folder.glob(f"{name}-*.json"), *folder.glob(f"{name}-*.pickle")]:
            if stale_entry != path:  # entries of older sources of `name` (and old pickles) are dead
                stale_entry.unlink(missing_ok=True)
    except OSError:
        pass
