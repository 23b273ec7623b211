"""The line protocol between the engine and an agent that is another program (docs/agents.md).

Everything is UTF-8 text, one message a line, over the bot's standard input and output.

    engine: santorini-agent 1 seat A      handshake: protocol version 1; you play seat A
    bot:    ready example-bot             'ready', then any name for messages
    engine: turn A                        a request: 'turn SEAT' or 'place SEAT', then blocks,
    engine: position 14                   each 'NAME COUNT' and COUNT lines, then 'end'
    engine: ...14 lines...
    engine: game 19
    engine: ...19 lines...
    engine: legal 37
    engine: ...37 lines...
    engine: end
    bot:    move A1 b4; build A1 a5       one line: a turn (or a placement) in the spec's notation
    ...
    engine: quit                          the game is over: the bot exits

A bot may answer 'error TEXT' to any message to give up with a reason. A bot skips blocks it
does not know (later versions may add some). This module writes the engine's messages and reads
them back, for bots written in Python (example_bot.py); a bot in another language reads the
same lines with its own code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice

from ...dsl.errors import SantoriniError

VERSION = 1
HELLO = "santorini-agent"
READY = "ready"
QUIT = "quit"
END = "end"
ERROR = "error"
#: The requests: choose a turn, or choose where to place the seat's workers.
TURN, PLACE = "turn", "place"

__all__ = ["END", "ERROR", "HELLO", "PLACE", "QUIT", "READY", "TURN", "VERSION", "ProtocolError",
           "Request", "hello_line", "read_hello", "read_request", "request_lines"]


class ProtocolError(SantoriniError, ValueError):
    """A message that does not follow the protocol (raised on the bot's side, by the reader). A
    `SantoriniError`, as every error the package raises on purpose; still a `ValueError`, as it was
    before it had that root, so that a bot's `except ValueError` keeps its meaning."""


def hello_line(letter: str) -> str:
    return f"{HELLO} {VERSION} seat {letter}"


def read_hello(line: str) -> tuple[int, str]:
    """The version and seat letter of a handshake line."""
    words = line.split()
    if len(words) != 4 or words[0] != HELLO or words[2] != "seat" or not words[1].isdigit():
        raise ProtocolError(f"not a handshake: {line.strip()!r}; expected '{HELLO} VERSION seat LETTER'")
    return int(words[1]), words[3]


@dataclass
class Request:
    """One request: its kind (turn or place), the seat asked, and its blocks by name."""

    kind: str
    seat: str
    blocks: dict[str, list[str]] = field(default_factory=dict)

    def text(self, name: str) -> str:
        """A block as text (the position documents are YAML)."""
        return "".join(line + "\n" for line in self.blocks.get(name, []))


def request_lines(kind: str, letter: str, blocks: Iterable[tuple[str, list[str]]]) -> list[str]:
    """The lines of a request (each block's lines must hold no line break)."""
    lines = [f"{kind} {letter}"]
    for name, block in blocks:
        lines.append(f"{name} {len(block)}")
        lines.extend(block)
    lines.append(END)
    return lines


def read_request(first: str, lines: Iterator[str]) -> Request:
    """The request that starts with the line `first`, reading its other lines from `lines`."""
    words = first.split()
    if len(words) != 2 or words[0] not in (TURN, PLACE):
        raise ProtocolError(f"not a request: {first.strip()!r}; expected '{TURN} SEAT' or '{PLACE} SEAT'")
    request = Request(words[0], words[1])
    for line in lines:
        header = line.split()
        if header == [END]:
            return request
        if len(header) != 2 or not header[1].isdigit():
            raise ProtocolError(f"not a block header: {line.strip()!r}; expected 'NAME COUNT' or '{END}'")
        count = int(header[1])
        block = [text.rstrip("\r\n") for text in islice(lines, count)]
        if len(block) < count:
            break
        request.blocks[header[0]] = block
    raise ProtocolError("the request ended before its 'end' line")
