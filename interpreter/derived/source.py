"""Python source written from typed parts, and compiled once per distinct text.

The derived engine lowers a step's parts into the text of one function. Everything a part names
that is not a word of Python (a table, a compiled closure of the generic chain, an enum member) is
a *constant* of the function's namespace, under a name the emitter gives it; the text itself
holds only local names, operators and small integers. So two seats whose rules are alike produce
the same text, and the text is compiled once per process (`compiled`), whatever the constants.
Nothing written here comes from an author's text: only from the typed vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_NAME = re.compile(r"[A-Za-z_]\w*")
_ASSIGNS = re.compile(r"([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*=(?!=)")


class _Lazy(str):
    """A line of generated code that sets names and is kept only where the code reads one."""


#: Each distinct source text, compiled once (the derived code of a game is made when its engine
#: is, and a balance run makes many engines of the same cards).
_CODE: dict[str, Any] = {}


class Source:
    """The lines of one generated function and the constants its text names."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, object] = {}
        self._names: dict[int, str] = {}
        self._fresh = 0
        #: Values computed once per acting worker, not once per candidate: expression -> name.
        self.hoisted: dict[str, str] = {}
        self._hoist_at: list[tuple[int, int]] = []
        #: Values computed once per call, where the board's bits are read: expression -> name.
        self.per_call: dict[str, str] = {}
        self._call_at: list[tuple[int, int]] = []

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def lazy(self, depth: int, text: str) -> None:
        """A line that sets names (`A = ...` or `A, B = ...`), written only if a later line of
        its block reads one of them: what every function might need (a board's bits, a
        candidate's level) costs nothing in a function that does not."""
        self.lines.append(_Lazy("    " * depth + text))

    def constant(self, value: object, stem: str = "K") -> str:
        """The name under which `value` is in the function's namespace (the same object, the same
        name; names are numbered in the order of first use, so equal rules give equal text)."""
        key = id(value)
        name = self._names.get(key)
        if name is None:
            name = f"{stem}{len(self._names)}"
            self._names[key] = name
            self.constants[name] = value
        return name

    def fresh(self, stem: str) -> str:
        """A new local name."""
        self._fresh += 1
        return f"{stem}{self._fresh}"

    def hoist(self, expression: str) -> str:
        """A local name for `expression`, computed where the code marked its acting worker's
        place (`hoisting_point`), once per worker."""
        name = self.hoisted.get(expression)
        if name is None:
            name = self.hoisted[expression] = f"hoisted{len(self.hoisted)}"
        return name

    def hoisting_point(self, depth: int) -> None:
        """Mark where the values hoisted by the conditions written later are computed."""
        self._hoist_at.append((len(self.lines), depth))

    def once(self, expression: str) -> str | None:
        """A local name for `expression` (which reads only the board's bits), computed once per
        call where the code marked the board read (`board_point`); None before any such mark."""
        if not self._call_at:
            return None
        name = self.per_call.get(expression)
        if name is None:
            name = self.per_call[expression] = f"once{len(self.per_call)}"
        return name

    def board_point(self, depth: int) -> None:
        """Mark where the board's bits have been read: values `once` are computed here."""
        self._call_at.append((len(self.lines), depth))

    def text(self) -> str:
        marks = [(index, depth, self.hoisted) for index, depth in self._hoist_at]
        marks += [(index, depth, self.per_call) for index, depth in self._call_at]
        for index, depth, values in sorted(marks, key=lambda mark: mark[0], reverse=True):
            self.lines[index:index] = [_Lazy("    " * depth + f"{name} = {expression}")
                                       for expression, name in values.items()]
        self._hoist_at.clear()
        self._call_at.clear()
        return "\n".join(_needed(self.lines)) + "\n"

    def function(self, name: str) -> Callable[..., Any]:
        """Compile the text (once per distinct text) and return the function `name` it defines,
        bound to this source's constants."""
        text = self.text()
        code = _CODE.get(text)
        if code is None:
            code = _CODE[text] = compile(text, f"<derived {name}>", "exec")
        namespace: dict[str, object] = dict(self.constants)
        exec(code, namespace)  # noqa: S102 - text generated from the typed parts only, never read from a file
        function: Callable[..., Any] = namespace[name]  # type: ignore[assignment]
        return function


def _depth(line: str) -> int:
    return (len(line) - len(line.lstrip(" "))) // 4


def _sets(line: str) -> set[str]:
    """The names a line of generated code assigns (`A = ...`, `A, B = ...`), if any."""
    match = _ASSIGNS.match(line.strip())
    return {name.strip() for name in match.group(1).split(",")} if match else set()


def _needed(lines: list[str]) -> list[str]:
    """The lines, without the lazy ones whose names no later line reads before a line no
    deeper than it sets them again (a line read only by a dropped lazy line is dropped too: the
    lines are judged from the last)."""
    kept = [True] * len(lines)
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if not isinstance(line, _Lazy):
            continue
        depth = _depth(line)
        names = _sets(line)
        read = False
        for later in range(index + 1, len(lines)):
            text = lines[later]
            if not kept[later] or not text.strip():
                continue
            if names.intersection(_NAME.findall(text.split("=", 1)[1] if _sets(text) else text)):
                read = True
                break
            if _depth(text) <= depth and names <= _sets(text):
                break  # (set again on every way on from here: the lazy line's values are not read)
        kept[index] = read
    return [line for line, keep in zip(lines, kept, strict=True) if keep]
