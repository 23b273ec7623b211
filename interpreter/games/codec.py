"""Compiled packs as plain data (JSON), for the compile cache: data that cannot run code.

A compiled pack is a tree of the rule vocabulary's dataclasses and enums (dsl.vocabulary) inside
the pack's own records (Pack, Card, Mode). `encode` turns it into JSON-ready data and `decode`
builds it again, accepting only the classes of a fixed list: a tampered cache entry can at worst
fail to decode (and be rebuilt), never make the program do something else than build rule
objects. Objects met twice are written once and referred to, so that the decoded tree shares what
the compiled one shared, as pickling did.

Encoding of each value:
  None, bool, int, float, str   as themselves
  list                          a JSON list
  tuple / set / frozenset       {"T": [...]} / {"S": [...]} / {"F": [...]} (sets in a fixed order)
  dict                          {"D": [[key, value], ...]} (keys of any type)
  enum member                   {"E": "ClassName", "v": "MEMBER"}
  dataclass                     {"C": "ClassName", "i": n, "f": {field: value, ...}} (n: its number)
  a dataclass met before        {"R": n}
"""

from __future__ import annotations

import dataclasses
import functools
import json
from enum import Enum
from types import ModuleType
from typing import Any

from ...dsl.errors import SantoriniError
from ...dsl.vocabulary import hooks, kinds, parts


class CodecError(SantoriniError, ValueError):
    """Data that is not an encoded compiled pack (an unknown class, a malformed value)."""


def _classes(*modules: ModuleType) -> dict[str, type]:
    """The dataclasses and enums the modules define, by name (each name once)."""
    found: dict[str, type] = {}
    for module in modules:
        for name, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == module.__name__ and \
                    (dataclasses.is_dataclass(value) or issubclass(value, Enum)):
                if name in found and found[name] is not value:
                    raise TypeError(f"two classes named {name} in the compiled vocabulary")
                found[name] = value
    return found


@functools.cache
def classes() -> dict[str, type]:
    """Every class a compiled pack may hold: nothing else is ever built from an entry. (The
    pack's records are read when first needed: packs.py uses the cache, which uses this.)"""
    from . import packs
    return _classes(kinds, parts, hooks, packs)


def encode(value: Any) -> Any:
    """The value as JSON-ready data (TypeError for a value of a kind the codec does not know)."""
    return _Encoder().value(value)


def decode(data: Any) -> Any:
    """Build again what `encode` wrote; CodecError for anything else."""
    try:
        return _Decoder().value(data)
    except CodecError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as err:
        raise CodecError(f"malformed entry: {type(err).__name__}: {err}") from None


def dumps(value: Any) -> str:
    """`encode` as canonical JSON text (the same value always gives the same text)."""
    return json.dumps(encode(value), separators=(",", ":"), sort_keys=True, ensure_ascii=True, allow_nan=False)


class _Encoder:
    def __init__(self) -> None:
        self.numbers: dict[int, int] = {}
        self.keep: list[object] = []  # objects numbered, kept alive so that their ids stay theirs

    def value(self, value: Any) -> Any:
        if value is None or isinstance(value, (bool, int, float, str)) and not isinstance(value, Enum):
            return value
        if isinstance(value, Enum):
            name = type(value).__name__
            if classes().get(name) is not type(value):
                raise TypeError(f"enum {type(value).__qualname__} is not in the compiled vocabulary")
            return {"E": name, "v": value.name}
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, tuple):
            return {"T": [self.value(item) for item in value]}
        if isinstance(value, (set, frozenset)):
            items = sorted((self.value(item) for item in value), key=lambda item: json.dumps(item, sort_keys=True))
            return {"S" if isinstance(value, set) else "F": items}
        if isinstance(value, dict):
            return {"D": [[self.value(k), self.value(v)] for k, v in value.items()]}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self.dataclass(value)
        raise TypeError(f"cannot encode a {type(value).__qualname__} in a compiled pack")

    def dataclass(self, value: Any) -> Any:
        if id(value) in self.numbers:
            return {"R": self.numbers[id(value)]}
        cls = type(value)
        name = cls.__name__
        if classes().get(name) is not cls:
            raise TypeError(f"class {cls.__qualname__} is not in the compiled vocabulary")
        number = len(self.numbers)
        self.numbers[id(value)] = number
        self.keep.append(value)
        fields = {f.name: self.value(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"C": name, "i": number, "f": fields}


class _Decoder:
    def __init__(self) -> None:
        self.objects: dict[int, object] = {}

    def value(self, data: Any) -> Any:
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return [self.value(item) for item in data]
        if not isinstance(data, dict) or len(data) not in (1, 2, 3):
            raise CodecError(f"malformed value {str(data)[:60]!r}")
        if "T" in data:
            return tuple(self.value(item) for item in self._list(data["T"]))
        if "S" in data:
            return {self.value(item) for item in self._list(data["S"])}
        if "F" in data:
            return frozenset(self.value(item) for item in self._list(data["F"]))
        if "D" in data:
            return {self.value(k): self.value(v) for k, v in self._list(data["D"])}
        if "E" in data:
            cls = self._class(data["E"])
            if not issubclass(cls, Enum):
                raise CodecError(f"{data['E']} is not an enum")
            return cls[data["v"]]
        if "R" in data:
            if data["R"] not in self.objects:
                raise CodecError(f"a reference to object {data['R']!r}, which comes later or not at all")
            return self.objects[data["R"]]
        if "C" in data:
            return self.dataclass(data)
        raise CodecError(f"malformed value {str(data)[:60]!r}")

    def dataclass(self, data: dict[str, Any]) -> Any:
        cls = self._class(data["C"])
        if not dataclasses.is_dataclass(cls):
            raise CodecError(f"{data['C']} is not a record")
        fields = data["f"]
        if not isinstance(fields, dict):
            raise CodecError(f"malformed fields of {data['C']}")
        known = {f.name: f for f in dataclasses.fields(cls)}
        if set(fields) != set(known):
            raise CodecError(f"{data['C']} has fields {sorted(known)}, the entry {sorted(fields)}")
        values = {name: self.value(raw) for name, raw in fields.items()}
        made = cls(**{name: v for name, v in values.items() if known[name].init})
        for name, v in values.items():
            if not known[name].init:
                object.__setattr__(made, name, v)
        self.objects[data["i"]] = made
        return made

    @staticmethod
    def _list(data: Any) -> list[Any]:
        if not isinstance(data, list):
            raise CodecError(f"expected a list, found {type(data).__name__}")
        return data

    @staticmethod
    def _class(name: Any) -> type:
        if not isinstance(name, str) or name not in classes():
            raise CodecError(f"{name!r} is not a class of the compiled vocabulary")
        return classes()[name]
