"""Parse rules text into the syntax tree (dsl/ast.py), with errors that point at the words.

The grammar (rules.lark) is LALR and strict: Lark refuses it at load time if it has a conflict.
Errors say what was found, what was expected, and show the line with a caret under the fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError

from . import ast
from .lexer import LexError, WordLexer
from .errors import SourceError


class ParseError(SourceError):
    """The rules text is not a sentence of the language."""


@dataclass(frozen=True)
class Origin:
    """Where a rules text sits in its file, so positions inside it become file positions.

    `line` and `column` are where the text's first character stands; a YAML literal block keeps
    the same indentation on every line, so every line shares the column offset.
    """

    file: str
    line: int = 1
    column: int = 1

    def locate(self, line: int, column: int) -> tuple[int, int]:
        return self.line + line - 1, self.column + column - 1


@cache
def grammar() -> Lark:
    """The LALR parser, built once per process."""
    text = (files("santorini.dsl") / "rules.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer=WordLexer, strict=True, propagate_positions=False)


def parse_rules(text: str, origin: Origin) -> ast.Rules:
    """Parse a card's rules; raise ParseError at the first fault, located in the card's file."""
    try:
        tree = grammar().parse(text)
        return _ToAst().transform(tree)
    except LexError as err:
        raise _error(origin, text, err.line, err.column, err.message) from None
    except UnexpectedToken as err:
        line = -1 if err.token.type == "$END" else err.line  # point just after the last word
        raise _error(origin, text, line, err.column, _unexpected(err)) from None
    except UnexpectedInput as err:  # pragma: no cover - the word lexer raises LexError instead
        raise _error(origin, text, err.line, err.column, "unexpected input") from None
    except VisitError as err:  # pragma: no cover - a bug in the tree builder, not in the card
        raise err.orig_exc from None


def _error(origin: Origin, text: str, line: int, column: int, message: str) -> ParseError:
    lines = text.split("\n")
    if line < 1 or line > len(lines):  # end of input: point just after the last word
        line = len(lines)
        while line > 1 and not lines[line - 1].strip():
            line -= 1
        column = len(lines[line - 1].rstrip()) + 1
    source_line = lines[line - 1]
    caret = " " * (column - 1) + "^"
    file_line, file_column = origin.locate(line, column)
    return ParseError(file=origin.file, line=file_line, column=file_column,
                      message=f"{message}\n    {source_line}\n    {caret}")


def _describe(token_type: str) -> str:
    names = {"HEADER": "a section header such as 'Your Move:'", "INT": "a number",
             "COMMA": "','", "PERIOD": "'.' (the end of the sentence)", "POSSESSIVE": "\"'s\"",
             "$END": "the end of the rules"}
    return names.get(token_type, f"'{token_type.lower()}'")


def _unexpected(err: UnexpectedToken) -> str:
    token: Token = err.token
    found = "the rules end here" if token.type == "$END" else f"unexpected '{token.value}'"
    expected = sorted(_describe(t) for t in err.accepts or err.expected)
    if len(expected) > 12:
        expected = expected[:12] + ["..."]
    return f"{found}; expected {', '.join(expected)}"


def _is_word(item: object) -> bool:
    """A value made by the tree builder (a plain str), as opposed to a Token (a str subclass)."""
    return isinstance(item, str) and not isinstance(item, Token)


def _pos(meta_token: Token) -> dict[str, int]:
    return {"line": meta_token.line, "column": meta_token.column}


@v_args(inline=True)
class _ToAst(Transformer):
    """Build ast nodes; each node takes the position of its first token."""

    def start(self, *sections: ast.Section) -> ast.Rules:
        return ast.Rules(line=1, column=1, sections=tuple(sections))

    def section(self, header: Token, *statements: ast.Statement) -> ast.Section:
        return ast.Section(**_pos(header), header=str(header.value), statements=tuple(statements))

    # -- steps
    def step(self, actor: tuple[str, Token], *rest: object) -> ast.Step:
        name, first = actor
        optional = False
        repeat = False
        verb = ""
        constraints: list[ast.Constraint] = []
        for item in rest:
            if item == "may":
                optional = True
            elif item == "must":
                optional = False
            elif item == "repeat":
                repeat = True
            elif isinstance(item, ast.Constraint):
                constraints.append(item)
            elif _is_word(item):
                verb = item
        return ast.Step(**_pos(first), actor=name, verb=verb, optional=optional, repeat=repeat,
                        constraints=tuple(constraints))

    def any_worker(self, first: Token, *_: Token) -> tuple[str, Token]:
        return "any_worker", first

    def any_worker_each(self, first: Token, *_: Token) -> tuple[str, Token]:
        return "any_worker_each", first

    def moved_worker(self, first: Token, *_: Token) -> tuple[str, Token]:
        return "moved_worker", first

    def that_worker(self, first: Token, *_: Token) -> tuple[str, Token]:
        return "that_worker", first

    def may(self, _: Token) -> str:
        return "may"

    def must(self, _: Token) -> str:
        return "must"

    def verb(self, word: Token) -> str:
        return "move" if word.type in ("MOVE", "MOVES") else "build"

    def repeat(self, *_: Token) -> str:
        return "repeat"

    def _constraint(kind: str):  # noqa: N805 - a factory used in the class body
        def build(self: _ToAst, comma: Token, *_: Token) -> ast.Constraint:
            return ast.Constraint(line=comma.line, column=comma.column + 2, kind=kind)
        return build

    not_up = _constraint("not_up")
    not_up_or_down = _constraint("not_up_or_down")
    not_back_to_start = _constraint("not_back_to_start")
    not_same_space = _constraint("not_same_space")
    same_space = _constraint("same_space")
    not_dome = _constraint("not_dome")

    # -- Your Move / Your Build
    def after(self, first: Token, _your: Token, _worker: Token, trigger: str, _comma: Token,
              it: Token, *rest: object) -> ast.After:
        optional = any(_is_word(r) and r == "may" for r in rest)
        verbs = [r for r in rest if _is_word(r) and r in ("move", "build")]
        constraints = tuple(r for r in rest if isinstance(r, ast.Constraint))
        step = ast.Step(**_pos(it), actor="that_worker", verb=verbs[0], optional=optional,
                        repeat=False, constraints=constraints)
        return ast.After(**_pos(first), trigger=trigger, step=step)

    def additional(self, *_: Token) -> str:
        return "additional"

    def move_into(self, first: Token, *rest: object) -> ast.MoveInto:
        verb = next(r for r in rest if _is_word(r) and r in ("move", "build"))
        destination = next(r for r in rest if _is_word(r) and r in ("to_vacated_space", "straight_backwards"))
        return ast.MoveInto(**_pos(first), verb=verb, same_or_lower=any(_is_word(r) and r == "same_or_lower" for r in rest),
                            destination=destination)

    def level_limit(self, *_: Token) -> str:
        return "same_or_lower"

    def to_vacated_space(self, *_: Token) -> str:
        return "to_vacated_space"

    def straight_backwards(self, *_: Token) -> str:
        return "straight_backwards"

    def dome_any_level(self, first: Token, *rest: object) -> ast.DomeAnyLevel:
        verb = next(r for r in rest if _is_word(r) and r in ("move", "build"))
        return ast.DomeAnyLevel(**_pos(first), verb=verb)

    # -- restrictions
    def restriction(self, *items: object) -> ast.Restriction:
        first = items[0]
        condition = next((i for i in items if isinstance(i, ast.MovedCondition)), None)
        whose = next(i for i in items if isinstance(i, tuple))
        words = [i for i in items if _is_word(i)]
        verb, direction = words[-2], words[-1]
        line, column = (first.line, first.column) if isinstance(first, Token) else (whose[1].line, whose[1].column)
        return ast.Restriction(line=line, column=column, whose=whose[0], verb=verb,
                               direction=direction, condition=condition)

    def opponent_workers(self, first: Token, _: Token) -> tuple[str, Token]:
        return "opponent", first

    def condition(self, first: Token, *rest: object) -> ast.MovedCondition:
        direction = next(r for r in rest if _is_word(r) and r in ("up", "down"))
        return ast.MovedCondition(**_pos(first), direction=direction)

    def up(self, _: Token) -> str:
        return "up"

    def down(self, _: Token) -> str:
        return "down"

    # -- wins and losses
    def win(self, first: Token, *rest: object) -> ast.Win:
        also = any(isinstance(r, Token) and r.type == "ALSO" for r in rest)
        movement, amount = next(r for r in rest if isinstance(r, tuple))
        return ast.Win(**_pos(first), also=also, movement=movement, amount=amount)

    def number(self, token: Token) -> int:
        return 1 if token.type == "ONE" else int(token.value)

    def up_onto_level(self, *items: object) -> tuple[str, int]:
        return "up_onto_level", next(i for i in items if type(i) is int)

    def down_at_least(self, _down: Token, amount: int, *_: Token) -> tuple[str, int]:
        return "down_at_least", amount

    def loss(self, first: Token, *_: Token) -> ast.Loss:
        return ast.Loss(**_pos(first))

    # -- board rules and setup
    def move_rule(self, first: Token, *rest: object) -> ast.MoveRule:
        return ast.MoveRule(**_pos(first), climb=next(i for i in rest if type(i) is int))

    def build_rule(self, first: Token, *_: Token) -> ast.BuildRule:
        return ast.BuildRule(**_pos(first))

    def placement(self, first: Token, *rest: object) -> ast.Placement:
        return ast.Placement(**_pos(first), count=next(i for i in rest if type(i) is int))
