"""Load a YAML data file, check it against its JSON Schema, report faults as `file:line:col: message`.

Every data file (cards, packs, modes, scenarios, game records) comes in through here, so that an
author gets compiler-style messages that point at the key or value at fault, all of them at once,
and never a traceback. The YAML node tree is kept with the data so that later stages (the rule
language parser, the scenario runner) can report their own faults at file positions too.
"""

from __future__ import annotations

import datetime
import difflib
import functools
import importlib.resources
import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from .errors import SourceError, SourceErrors

KINDS: tuple[str, ...] = ("card", "pack", "mode", "scenario", "record")

Key = str | int
KeyPath = tuple[Key, ...]

_MERGE_TAG = "tag:yaml.org,2002:merge"
_STR_TAG = "tag:yaml.org,2002:str"
_BOOL_TAG = "tag:yaml.org,2002:bool"

#: Bounds on what a data file may be, each with its own message: the loaders must end, and soon,
#: on any input (a file of nested aliases, "billion laughs", would otherwise grow without end).
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_VALUES = 200_000
MAX_DIGITS = 20
#: At most this many faults of one file are listed (then a count of the others).
MAX_FAULTS = 100

_PLAIN_NUMBER = re.compile(r"[-+]?[0-9][0-9_]*")


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 booleans: only true and false (any case) are booleans,
    so that a key 'on:' or a value 'no' stays the text the author wrote."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(_BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


@dataclass
class Document:
    """A checked data file: its plain data plus the node tree that knows where each value was written."""

    path: str
    kind: str
    data: Any
    root: yaml.Node | None = field(default=None, repr=False, compare=False)
    text: str = field(default="", repr=False, compare=False)
    _key_index: dict[int, dict[str, yaml.Node]] = field(default_factory=dict, repr=False, compare=False)

    def position(self, path: KeyPath) -> tuple[int, int]:
        """The 1-based (line, column) of the value at `path`, or of its nearest existing ancestor."""
        node = self._trail(path)[-1][0]
        return _place(node.start_mark) if node is not None else (1, 1)

    def key_position(self, path: KeyPath, key: Key) -> tuple[int, int]:
        """The 1-based (line, column) of `key` itself in the mapping at `path` (for unknown keys)."""
        trail = self._trail(path)
        node = trail[-1][0]
        if len(trail) == len(path) + 1 and isinstance(node, yaml.MappingNode):
            key_node = self._keys_of(node).get(_json_key(key))
            if key_node is not None:
                return _place(key_node.start_mark)
        return self.position(path)

    def spans_lines(self, path: KeyPath) -> bool:
        """Whether the value at `path` is written over more than one line of the file."""
        node = self._trail(path)[-1][0]
        return node is not None and node.end_mark.line > node.start_mark.line

    def _keys_of(self, node: yaml.MappingNode) -> dict[str, yaml.Node]:
        """The mapping's scalar key nodes by text (the last of equal keys), made once per mapping:
        reporting each of many unknown keys must not search the mapping again."""
        index = self._key_index.get(id(node))
        if index is None:
            index = {k.value: k for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
            self._key_index[id(node)] = index
        return index

    def text_origin(self, path: KeyPath) -> tuple[int, int, str]:
        """Where the content of the string at `path` starts: (line, column, style).

        Another parser adds its own offsets to this to report a fault inside the string at its
        file position. For a block scalar the content starts on the line after the `|` or `>`, at
        the block's indentation; for a quoted scalar one column after the quote.
        """
        trail = self._trail(path)
        if len(trail) != len(path) + 1:
            raise KeyError(f"no value at {path!r} in {self.path}")
        node = trail[-1][0]
        if not isinstance(node, yaml.ScalarNode) or node.tag != _STR_TAG:
            raise ValueError(f"the value at {path!r} in {self.path} is not a string")
        style = node.style or ""
        line, column = _place(node.start_mark)
        if style in ("|", ">"):
            parent = trail[-2][0]
            return line + 1, _block_indent(self.text, node, parent) + 1, style
        if style in ('"', "'"):
            return line, column + 1, style
        return line, column, ""

    def _trail(self, path: KeyPath) -> list[tuple[Any, Any]]:
        """The (node, key node) pairs along `path`, as far as the path exists."""
        trail: list[tuple[Any, Any]] = [(self.root, None)]
        for step in path:
            node = trail[-1][0]
            found = None
            if isinstance(node, yaml.MappingNode):
                # The last occurrence wins, as in the data.
                found = next(((v, k) for k, v in reversed(node.value) if _key_matches(k, step)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and not isinstance(step, bool):
                if 0 <= step < len(node.value):
                    found = (node.value[step], None)
            if found is None:
                break
            trail.append(found)
        return trail


def top_level_keys(path: str | Path) -> set[str]:
    """The keys of a data file's top-level mapping, read within the loader's bounds and without
    building the data (so a hostile file cannot make this slow); empty if the file is not a
    readable mapping (the loader then reports why, at its place)."""
    try:
        text = _read(str(path))
    except SourceErrors:
        return set()
    keys: set[str] = set()
    loader: yaml.SafeLoader = _Loader(text)  # (typed as PyYAML's: see untyped_calls_exclude in pyproject.toml)
    depth, mapping, expect_key = 0, False, True
    try:
        while loader.check_event() and depth <= MAX_DEPTH:
            event: yaml.Event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if depth == 0:
                    mapping = isinstance(event, yaml.MappingStartEvent)
                elif depth == 1:
                    expect_key = True  # a collection is a value: a key comes after it
                depth += 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif depth == 1 and mapping and isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
                if expect_key and isinstance(event, yaml.ScalarEvent):
                    keys.add(event.value)
                expect_key = not expect_key
    except yaml.YAMLError:
        pass
    finally:
        loader.dispose()
    return keys


def load_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a kind of data file, read once from the package's `schema/` folder."""
    return _load_schema(_check_kind(kind))


def load_document(path: str | Path, kind: str, text: str | None = None) -> Document:
    """Read, parse and check a data file; raise SourceErrors listing every fault found.

    `text`, when given, is used instead of reading the file; `path` then only names it in messages.
    """
    validator = _validator(_check_kind(kind))
    file = str(path)
    if text is None:
        text = _read(file)
    root, data, errors = _parse(file, text)
    document = Document(file, kind, data, root, text)
    errors.extend(_surrogates(document, data, ()))
    for fault_path, key, message in _schema_faults(validator, data):
        if key is None:
            line, column = document.position(fault_path)
        else:
            line, column = document.key_position(fault_path, key)
        errors.append(SourceError(file, line, column, message))
    if errors:
        unique = {(e.line, e.column, e.message): e for e in errors}
        listed = [unique[k] for k in sorted(unique)]
        if len(listed) > MAX_FAULTS:
            last = listed[MAX_FAULTS - 1]
            more = SourceError(file, last.line, last.column, f"... and {len(listed) - MAX_FAULTS + 1} more faults "
                                                             "in this file")
            listed = [*listed[:MAX_FAULTS - 1], more]
        raise SourceErrors(listed)
    return document


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogates(document: Document, value: Any, path: KeyPath) -> list[SourceError]:
    """A '\\ud800' escape in a quoted string makes a text no file or terminal can hold: refuse it
    where it stands (it passed check, then crashed the commands that print the name)."""
    found: list[SourceError] = []
    pending = [(value, path)]
    while pending:
        item, where = pending.pop()
        if isinstance(item, str) and _SURROGATE.search(item):
            line, column = document.position(where)
            found.append(SourceError(document.path, line, column, "the text holds a lone surrogate (an escape such "
                                                                 "as \\ud800 that is half a character)"))
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and _SURROGATE.search(key):
                    line, column = document.key_position(where, key)
                    found.append(SourceError(document.path, line, column, "the key holds a lone surrogate"))
                pending.append((child, (*where, key)))
        elif isinstance(item, list):
            pending.extend((child, (*where, index)) for index, child in enumerate(item))
    return found


# --- reading and parsing ----------------------------------------------------------------------


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown document kind {kind!r}; expected one of: {', '.join(KINDS)}")
    return kind


@functools.cache
def _load_schema(kind: str) -> dict[str, Any]:
    resource = importlib.resources.files("santorini") / "schema" / f"{kind}.schema.json"
    schema: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    return schema


@functools.cache
def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(_load_schema(kind))


def _read(file: str) -> str:
    """The file's text: a regular file of at most MAX_FILE_BYTES, in UTF-8 (never a device or a
    pipe, which could block or never end)."""
    try:
        info = os.stat(file)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise SourceErrors([SourceError(file, 1, 1, f"cannot read the file: {reason}")]) from None
    if stat.S_ISDIR(info.st_mode):
        raise _fatal(file, 1, 1, "this is a folder, not a file: expected a YAML file")
    if not stat.S_ISREG(info.st_mode):
        raise _fatal(file, 1, 1, "this is not a regular file (a device, a pipe or a socket): expected a YAML file")
    if info.st_size > MAX_FILE_BYTES:
        raise _fatal(file, 1, 1, f"the file has {info.st_size:,} bytes; a data file has at most {MAX_FILE_BYTES:,}")
    try:
        with open(file, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise SourceErrors([SourceError(file, 1, 1, f"cannot read the file: {reason}")]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise _fatal(file, 1, 1, f"the file has more than {MAX_FILE_BYTES:,} bytes; a data file has at most that")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - raw.rfind(b"\n", 0, error.start)
        message = f"the file is not valid UTF-8 (byte 0x{raw[error.start]:02x})"
        raise SourceErrors([SourceError(file, line, column, message)]) from None


def _scan(file: str, text: str) -> _Mark | None:
    """Walk the file's YAML events (no tree is built, nothing recurses) and refuse what the
    composer and constructor cannot take: nesting deeper than MAX_DEPTH, and plain numbers of more
    than MAX_DIGITS digits. Returns the mark of the first alias, if any (for `_bound_aliases`)."""
    loader: yaml.SafeLoader = _Loader(text)  # (typed as PyYAML's: see untyped_calls_exclude in pyproject.toml)
    depth = 0
    first_alias: _Mark | None = None
    try:
        while loader.check_event():
            event: yaml.Event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    line, column = _place(event.start_mark)
                    raise _fatal(file, line, column, f"the data is nested more than {MAX_DEPTH} levels deep")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.AliasEvent) and first_alias is None:
                first_alias = event.start_mark
            elif isinstance(event, yaml.ScalarEvent) and event.style is None and \
                    len(event.value) > MAX_DIGITS and _PLAIN_NUMBER.fullmatch(event.value):
                line, column = _place(event.start_mark)
                raise _fatal(file, line, column, f"a number of {len(event.value)} characters: numbers have at most "
                                                 f"{MAX_DIGITS} digits (put text in quotes)")
    finally:
        loader.dispose()
    return first_alias


def _bound_aliases(file: str, root: yaml.Node, alias: _Mark | None) -> None:
    """Aliases (`*name`) make a node appear again wherever they stand: refuse a file whose tree,
    so expanded, holds more than MAX_VALUES values (a few lines can otherwise stand for billions)."""
    if alias is None:
        return
    sizes: dict[int, int] = {}
    pending: list[tuple[yaml.Node, bool]] = [(root, False)]
    while pending:  # sizes bottom-up, without recursion
        node, children_done = pending.pop()
        if id(node) in sizes:
            continue
        children = [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else \
            list(node.value) if isinstance(node, yaml.SequenceNode) else []
        if children_done or not children:
            sizes[id(node)] = 1 + sum(sizes.get(id(child), 0) for child in children)
            if sizes[id(node)] > MAX_VALUES:
                line, column = _place(alias)
                raise _fatal(file, line, column, f"the file's aliases ('*name') repeat its data to more than "
                                                 f"{MAX_VALUES:,} values; write the data out, or use fewer aliases")
        else:
            pending.append((node, True))
            pending.extend((child, False) for child in children if id(child) not in sizes)


def _parse(file: str, text: str) -> tuple[yaml.Node, Any, list[SourceError]]:
    """Compose the node tree, refuse duplicate keys, and build the data as yaml.safe_load would."""
    loader = None
    try:
        alias = _scan(file, text)
        loader = _Loader(text)
        root = loader.get_single_node()
        if root is None or (isinstance(root, yaml.ScalarNode) and root.value == "" and not root.style):
            raise _fatal(file, 1, 1, "the file is empty: expected a mapping of keys")
        if not isinstance(root, yaml.MappingNode):
            found = "a list" if isinstance(root, yaml.SequenceNode) else f"a single value ({root.value!r})"
            raise _fatal(file, 1, 1, f"expected a mapping of keys at the top level, found {found}")
        errors = _duplicate_keys(file, root)
        _bound_aliases(file, root, alias)
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = _place(mark) if mark else (1, 1)
        raise _fatal(file, line, column, _yaml_message(error)) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        column = error.position - text.rfind("\n", 0, error.position)
        code = ord(error.character) if isinstance(error.character, str) else error.character
        message = f"the character U+{code:04X} is not allowed in a YAML file"
        raise _fatal(file, line, column, message) from None
    finally:
        if loader is not None:
            loader.dispose()
    return root, data, errors


def _duplicate_keys(file: str, root: yaml.Node) -> list[SourceError]:
    """PyYAML silently keeps the last of two equal keys; we refuse them, at the second one."""
    errors: list[SourceError] = []
    seen: set[int] = set()

    def walk(node: yaml.Node, ancestors: set[int]) -> None:
        if id(node) in ancestors:
            line, column = _place(node.start_mark)
            message = "an alias refers to a node that contains it; recursive data is not allowed"
            raise _fatal(file, line, column, message)
        if id(node) in seen:
            return
        seen.add(id(node))
        inner = ancestors | {id(node)}
        if isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item, inner)
        elif isinstance(node, yaml.MappingNode):
            first: dict[tuple[str, str], yaml.Node] = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE_TAG:
                    earlier = first.setdefault((key.tag, key.value), key)
                    if earlier is not key:
                        line, column = _place(key.start_mark)
                        message = f"duplicate key '{key.value}' (first at line {earlier.start_mark.line + 1})"
                        errors.append(SourceError(file, line, column, message))
                walk(key, inner)
                walk(value, inner)

    walk(root, set())
    return errors


_TOKEN_NAMES = {
    "<block end>": "the end of the indented block",
    "<block mapping start>": "a new key",
    "<block sequence start>": "a list item '-'",
    "<block entry>": "a list item '-'",
    "<scalar>": "a value",
    "<stream end>": "the end of the file",
    "<document start>": "'---'",
    "<document end>": "'...'",
    "<flow sequence end>": "']'",
    "<flow mapping end>": "'}'",
    "<flow entry>": "','",
    "<key>": "a key",
    "<value>": "':'",
    "<alias>": "an alias",
    "<anchor>": "an anchor",
}

_HINTS = {
    "mapping values are not allowed here": "quote a value that contains ': ', or check the indentation",
    "found character '\\t' that cannot start any token": "indent with spaces, not tabs",
    "could not find expected ':'": "each line of a mapping needs 'key: value'",
}


def _yaml_message(error: yaml.MarkedYAMLError) -> str:
    """PyYAML's parser wording, with token names spelt out and a hint for the common slips."""
    problem = (error.problem or "invalid YAML").strip()
    context = (error.context or "").strip()
    if context and problem.startswith("but "):
        message = f"{context}, {problem}"
    elif context and error.context_mark and error.context_mark is not error.problem_mark:
        message = f"{problem} ({context} at line {error.context_mark.line + 1})"
    elif context:
        message = f"{problem} ({context})"
    else:
        message = problem
    message = message.replace("found '?'", "found another key")
    for token, name in _TOKEN_NAMES.items():
        message = message.replace(f"'{token}'", name).replace(token, name)
    for start, hint in _HINTS.items():
        if problem.startswith(start):
            message += f"; {hint}"
    return message[0].lower() + message[1:]


# --- schema faults -----------------------------------------------------------------------------

Fault = tuple[KeyPath, Key | None, str]  # where, the key at fault (None: the value), the message


def _schema_faults(validator: Draft202012Validator, data: Any) -> list[Fault]:
    faults: list[Fault] = []
    root = validator.schema
    assert isinstance(root, Mapping)  # (each kind's schema is an object)
    for error in validator.iter_errors(_json_view(data)):
        faults.extend(_explain(error, root, data))
    return faults


def _json_view(value: Any) -> Any:
    """The data with JSON's string keys: YAML gives `1: 8` an integer key, JSON Schema wants "1"."""
    if isinstance(value, dict):
        return {_json_key(k): _json_view(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_view(item) for item in value]
    return value


def _json_key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return "null" if key is None else str(key)


def _parts(error: ValidationError) -> tuple[str | None, Any, Any, Mapping[str, Any]]:
    """The keyword at fault (None for a `false` schema), the value found, the keyword's value, and
    the schema that holds it ({} for a `false` schema). jsonschema's types leave the first three
    unset for an error made by hand; `iter_errors` always sets them."""
    schema = error.schema
    return (cast("str | None", error.validator), cast(Any, error.instance), cast(Any, error.validator_value),
            schema if isinstance(schema, Mapping) else {})


def _explain(error: ValidationError, root: Mapping[str, Any], data: Any) -> list[Fault]:
    """Turn one jsonschema error into faults that name what was found and what is expected."""
    path = tuple(error.absolute_path)
    kind, value, expected, schema = _parts(error)
    if "propertyNames" in error.absolute_schema_path:
        return [(path, value, f"invalid key {_show(value)}: expected {_form(schema) or 'another key'}")]
    if kind == "additionalProperties":
        if "propertyNames" in schema:
            return []  # the propertyNames fault already says what keys look like
        allowed = list(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        extras = [k for k in value if k not in allowed and not any(re.search(p, k) for p in patterns)]
        return [(path, key, _unknown_key(key, allowed)) for key in extras]
    if kind == "required":
        note = _condition(error, root)
        missing = [key for key in expected if key not in value]
        return [(path, None, f"missing required key '{key}'{note}") for key in missing]
    if kind in ("anyOf", "oneOf") and error.context:
        return _explain_alternatives(error, root, data)
    if kind == "uniqueItems":
        for index, item in enumerate(value):
            if any(_same(item, other) for other in value[:index]):
                first = next(i for i, other in enumerate(value) if _same(item, other))
                return [(path + (index,), None, f"{_show(item)} is listed twice (first as item {first + 1})")]
    return [(path, None, _message(error))]


def _explain_alternatives(error: ValidationError, root: Mapping[str, Any], data: Any) -> list[Fault]:
    """Explain the one alternative the value was evidently meant as, or list them all."""
    _, value, alternatives, schema = _parts(error)
    branches: dict[str | int, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    # An alternative whose own type does not fit the value was not what the author meant.
    viable = {i: subs for i, subs in branches.items()
              if not any(s.validator == "type" and not s.relative_path for s in subs)}
    if len(viable) > 1 and isinstance(value, dict):
        def fit(i: str | int) -> tuple[int, int]:
            keys = _resolve(root, alternatives[i]).get("properties", {})
            return len(set(value) & set(keys)), -len(viable[i])
        ranked = sorted(viable, key=fit, reverse=True)
        if fit(ranked[0])[0] > 0 and fit(ranked[0]) != fit(ranked[1]):
            viable = {ranked[0]: viable[ranked[0]]}
    if len(viable) == 1:
        (subs,) = viable.values()
        return [fault for sub in subs for fault in _explain(sub, root, data)]
    expected = _form(schema) or " or ".join(
        filter(None, (_form(_resolve(root, b)) for b in alternatives))) or "another value"
    return [(tuple(error.absolute_path), None, f"expected {expected}, found {_found(value)}")]


def _message(error: ValidationError) -> str:
    """The message for a single keyword's fault."""
    kind, value, expected, schema = _parts(error)
    if kind == "type":
        types = [expected] if isinstance(expected, str) else list(expected)
        message = f"expected {_join([_TYPE_NAMES.get(t, t) for t in types])}, found {_found(value)}"
        if "string" in types and isinstance(value, (bool, int, float, datetime.date)):
            message += "; put it in quotes to make it text"
        return message
    if kind == "enum":
        options = ", ".join(_plain(option) for option in expected)
        return f"{_show(value)} is not one of: {options}{_suggest(value, expected)}"
    if kind == "const":
        return f"expected {_show(expected)}, found {_show(value)}"
    if kind == "pattern":
        form = _form(schema)
        if form:
            return f"expected {form}, found {_show(value)}"
        return f"{_show(value)} does not match the pattern {expected}"
    if kind in ("minimum", "maximum"):
        if "minimum" in schema and "maximum" in schema:
            return f"{_show(value)} is out of range: expected {schema['minimum']} to {schema['maximum']}"
        return f"expected {'at least' if kind == 'minimum' else 'at most'} {expected}, found {_show(value)}"
    if kind in ("minItems", "maxItems"):
        bound = "at least" if kind == "minItems" else "at most"
        found = "an empty list" if not value else f"{len(value)}"
        return f"expected {bound} {expected} item{'s' if expected != 1 else ''}, found {found}"
    if kind == "minLength":
        if expected == 1:
            return "expected a non-empty string"
        return f"expected at least {expected} characters, found {len(value)}"
    if kind is None or error.schema is False:
        return "not allowed here"
    return error.message[0].lower() + error.message[1:]


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def _unknown_key(key: str, allowed: list[str]) -> str:
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f"unknown key '{key}' (did you mean '{close[0]}'?)"
    if allowed:
        return f"unknown key '{key}' (accepted keys: {', '.join(allowed)})"
    return f"unknown key '{key}' (no keys are accepted here)"


def _suggest(value: Any, options: list[Any]) -> str:
    if not isinstance(value, str):
        return ""
    words = {str(option).lower(): str(option) for option in options if isinstance(option, str)}
    close = difflib.get_close_matches(value.lower(), list(words), n=1, cutoff=0.6)
    return f" (did you mean '{words[close[0]]}'?)" if close else ""


def _condition(error: ValidationError, root: Mapping[str, Any]) -> str:
    """For a requirement from if/then, say when it applies ("when kind is 'god'")."""
    schema_path = list(error.absolute_schema_path)
    if "then" not in schema_path:
        return ""
    at = len(schema_path) - 1 - schema_path[::-1].index("then")
    holder = _schema_at(root, schema_path[:at])
    conditions = [f"{key} is {_show(sub['const'])}"
                  for key, sub in holder.get("if", {}).get("properties", {}).items()
                  if isinstance(sub, dict) and "const" in sub]
    return f" (needed when {' and '.join(conditions)})" if conditions else ""


def _schema_at(root: Mapping[str, Any], path: list[Any]) -> Mapping[str, Any]:
    """The subschema at a jsonschema schema path (which skips the `$ref` hops)."""
    node: Any = root
    try:
        for step in path:
            if step != "$ref":  # older jsonschema versions list the hop; _resolve makes it
                node = _resolve(root, node)[step]
        found = _resolve(root, node)
    except (KeyError, IndexError, TypeError):
        return {}
    return found if isinstance(found, Mapping) else {}


def _resolve(root: Mapping[str, Any], schema: Any) -> Any:
    """Follow local `$ref`s ("#/$defs/space") to the schema they name."""
    while isinstance(schema, dict) and str(schema.get("$ref", "")).startswith("#/"):
        target: Any = root
        for part in schema["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema = target
    return schema


def _form(schema: Any) -> str:
    """A schema's description used as the accepted form: "a space: a column a-e and a row 1-5"."""
    description: str = schema.get("description", "") if isinstance(schema, dict) else ""
    description = description.strip().rstrip(".")
    return description[:1].lower() + description[1:]


def _found(value: Any) -> str:
    """What the author wrote, named by its YAML type."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return f"a boolean ({_show(value)})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"a date ({value.isoformat()})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _show(value: Any) -> str:
    """A scalar as the author would write it; strings quoted and cut short."""
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return "'" + text.replace("\n", "\\n") + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return _found(value)
    return str(value)


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else _show(value)


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _same(a: Any, b: Any) -> bool:
    """Equality as uniqueItems sees it: true is not 1."""
    return type(a) is type(b) and a == b


# --- positions ---------------------------------------------------------------------------------


def _fatal(file: str, line: int, column: int, message: str) -> SourceErrors:
    return SourceErrors([SourceError(file, line, column, message)])


class _Mark(Protocol):
    """Where PyYAML read something (0-based): its own Mark, or its C parser's."""

    line: int
    column: int


def _place(mark: _Mark | None) -> tuple[int, int]:
    """The 1-based (line, column) of a mark (the file's start for a missing one)."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _key_matches(key_node: yaml.Node, key: Key) -> bool:
    return isinstance(key_node, yaml.ScalarNode) and key_node.value == _json_key(key)


_SPACES = re.compile(" *")


def _block_indent(text: str, node: yaml.ScalarNode, parent: yaml.Node) -> int:
    """The 0-based content column of a block scalar, found the way PyYAML's scanner finds it."""
    header = re.compile(r"[|>](?:([1-9])[+-]?|[+-]([1-9])?)?").match(text, node.start_mark.index)
    min_indent = max(parent.start_mark.column + 1, 1) if parent is not None else 1
    increment = header and (header.group(1) or header.group(2))
    if increment:
        return min_indent + int(increment) - 1
    end = text.find("\n", header.end() if header else node.start_mark.index)
    if end < 0:
        return min_indent
    position, deepest = end + 1, 0
    while position < len(text):
        matched = _SPACES.match(text, position)  # (" *" matches everywhere)
        spaces = matched.end() - position if matched else 0
        deepest = max(deepest, spaces)
        if text.startswith(("\r\n", "\n", "\r"), position + spaces):
            position = text.find("\n", position + spaces) + 1 or len(text)
            continue
        break
    return max(min_indent, deepest)
