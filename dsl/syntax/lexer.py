"""The word lexer of the rule language.

Rules read like the rulebook, so the lexer works on words rather than characters: every word
is looked up in the vocabulary (the terminals the grammar declares) case-insensitively and whole,
so that a misspelt word is reported as such ("unknown word 'workerz' (did you mean 'workers'?)")
instead of being split into a keyword and garbage. A line that ends in ':' is a section header
and becomes a single HEADER token, which keeps headers and statements apart for the LALR parser.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from lark import Token
from lark.common import LexerConf
from lark.lexer import Lexer

from ..errors import SantoriniError

#: The longest number a rule may write (counts of workers, levels, towers, coins...).
MAX_DIGITS = 6

NUMBER_WORDS = {"zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

#: Words of the rulebooks that name an idea the language does not have yet: an author who writes
#: one is told which part is missing (docs/language.md, "Planned parts"), not just that the word
#: is unknown.
PLANNED_WORDS = {
    **dict.fromkeys(("die", "dice", "roll", "rolls", "rolled"), "the die (chance)"),
    **dict.fromkeys(("secret", "hidden", "reveal", "reveals"), "hidden information"),
    **dict.fromkeys(("deck", "draw", "draws", "shuffle"), "a deck of cards"),
    **dict.fromkeys(("steal", "steals"), "powers that move between players"),
    **dict.fromkeys(("frozen", "freeze", "freezes"), "frozen spaces"),
    **dict.fromkeys(("wrap", "wraps", "torus"), "another shape of the board"),
    **dict.fromkeys(("teammate", "partner", "partners"), "rules about a teammate's turns (a mode's "
                                                                  "Setup may pair players: 'players across the "
                                                                  "table are teammates')"),
    **dict.fromkeys(("swap", "swaps", "exchange"), "swapping two workers by choice (a move into an "
                                                  "opponent's space, forcing that worker to the space "
                                                  "yours vacated, is a swap)"),
    **dict.fromkeys(("north", "south", "east", "west", "diagonally", "orthogonally"),
                    "compass directions and diagonal-only moves"),
}
NON_WORDS = {"HEADER", "INT", "NAME", "COMMA", "PERIOD", "POSSESSIVE"}
PUNCTUATION = {",": "COMMA", ".": "PERIOD", "'s": "POSSESSIVE"}

_TOKEN = re.compile(r"(?P<space>[ \t\r]+)|(?P<comment>#[^\n]*)|(?P<newline>\n)"
                    r"|(?P<possessive>'s\b)|(?P<word>[A-Za-z]+)|(?P<int>[0-9]+)|(?P<punct>[,.])")
#: A word followed by 'token' or 'tokens' names a kind of token: a card names its own kinds.
_BEFORE_TOKEN = re.compile(r"[ \t]+tokens?\b", re.IGNORECASE)
_HEADER = re.compile(r"[ \t]*(?P<text>[A-Za-z][A-Za-z' ()]*?)[ \t]*:[ \t]*(#[^\n]*)?$")


@dataclass
class LexError(SantoriniError):
    """A character or word the language does not know, at a 1-based line and column."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


@cache
def vocabulary() -> dict[str, str]:
    """Every keyword of the language (lower-case word -> terminal name), from the grammar's
    %declare lines: the grammar file is the one place that lists the language's words."""
    text = (files("santorini.dsl.syntax") / "rules.lark").read_text(encoding="utf-8")
    names = [name for line in text.splitlines() if line.startswith("%declare")
             for name in line.split()[1:]]
    return {name.lower(): name for name in names if name not in NON_WORDS}


def normalize_header(text: str) -> str:
    """Header text as compared by the checker: lower case, single spaces."""
    return " ".join(text.lower().split())


class WordLexer(Lexer):
    """Lark lexer that maps whole words to the keyword terminals the grammar declares."""

    def __init__(self, lexer_conf: LexerConf) -> None:  # (unused)
        self.keywords = vocabulary()

    # Lark's first interface for a custom lexer (no __future_interface__): Lark wraps the class and
    # calls lex(text). Lark's types give only the later lex(lexer_state, parser_state), hence:
    def lex(self, data: str) -> Iterator[Token]:  # type: ignore[override]
        data = data.replace("\u2019", "'")  # a typographic apostrophe, as in pasted card text
        for line_no, line in enumerate(data.split("\n"), start=1):
            header = _HEADER.match(line)
            if header:
                column = header.start("text") + 1
                yield Token("HEADER", normalize_header(header.group("text")), line=line_no,
                            column=column, end_line=line_no, end_column=column + len(header.group("text")))
                continue
            yield from self._lex_line(line, line_no)

    def _lex_line(self, line: str, line_no: int) -> Iterator[Token]:
        pos = 0
        while pos < len(line):
            match = _TOKEN.match(line, pos)
            column = pos + 1
            if not match:
                raise LexError(line_no, column, f"unexpected character {line[pos]!r}")
            text = match.group()
            pos = match.end()
            kind = match.lastgroup
            if kind in ("space", "comment", "newline"):
                continue
            if kind == "int":
                if len(text) > MAX_DIGITS:
                    raise LexError(line_no, column, f"a number of {len(text)} digits: the rules' numbers have at most "
                                                    f"{MAX_DIGITS}")
                yield Token("INT", int(text), line=line_no, column=column)
            elif kind in ("punct", "possessive"):
                yield Token(PUNCTUATION[text.lower()], text, line=line_no, column=column)
            elif _BEFORE_TOKEN.match(line, pos) and text.lower() not in NUMBER_WORDS and text.lower() != "one":
                yield Token("NAME", text.lower(), line=line_no, column=column)
            else:
                yield self._word(text, line_no, column)

    def _word(self, text: str, line_no: int, column: int) -> Token:
        word = text.lower()
        if word in NUMBER_WORDS:
            return Token("INT", NUMBER_WORDS[word], line=line_no, column=column)
        if word in self.keywords:
            return Token(self.keywords[word], text, line=line_no, column=column)
        if word in PLANNED_WORDS:
            raise LexError(line_no, column, f"'{text}' names {PLANNED_WORDS[word]}, a part the rule language "
                                            "does not have yet (docs/language.md, 'Planned parts')")
        close = difflib.get_close_matches(word, self.keywords, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise LexError(line_no, column, f"unknown word '{text}'{hint}")
