"""Parse rules text into the syntax tree (ast.py), with errors that point at the words.

The grammar (rules.lark) is LALR and strict: Lark refuses it at load time if it has a conflict.
Errors say what was found, what was expected, and show the line with a caret under the fault.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import NamedTuple, TypeVar

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError

from ..errors import SourceError
from ..vocabulary import (
    ANY_NUMBER,
    Against,
    AlongLine,
    BesideWorker,
    Compare,
    Compass,
    Counter,
    FollowUpTiming,
    HappeningKind,
    HasToken,
    Heading,
    LevelChange,
    Line,
    Modality,
    Near,
    OccupiedBy,
    Owner,
    Pairing,
    Piece,
    PieceIs,
    Region,
    Repeat,
    Role,
    SameSpace,
    Scope,
    SetupKind,
    Sex,
    SpaceIs,
    SpaceProperty,
    SpaceRef,
    SpaceSelector,
    StandsHighest,
    TargetLevel,
    Timing,
    TokenKind,
    Verb,
    WorkerSelector,
)
from ..vocabulary.parts import DOWN, UP, AnyOf, Condition
from . import ast
from .lexer import LexError, WordLexer


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
    text = (files("santorini.dsl.syntax") / "rules.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer=WordLexer, strict=True, propagate_positions=False)


def parse_rules(text: str, origin: Origin) -> ast.Rules:
    """Parse a card's rules; raise ParseError at the first fault, located in the card's file."""
    try:
        tree = grammar().parse(text)
        return _ToAst().transform(tree)  # (a Transformer[Token, ast.Rules])
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


# ---- the tree builder ------------------------------------------------------------------------

#: A rule's children as the tree builder gets them: tokens, nodes, word runs, numbers.
Items = tuple[object, ...]
T = TypeVar("T")


class _Words:
    """A run of words the tree builder has not made a node of yet, with where it starts."""

    __slots__ = ("line", "column", "words", "value")

    def __init__(self, line: int, column: int, words: str, value: object = None) -> None:
        self.line, self.column, self.words, self.value = line, column, words, value


class _VerbWord(NamedTuple):
    """The value of a verb's word run: the verb and its tense ("present" or "past")."""

    verb: Verb
    tense: str


#: The value of the words 'a complete tower' (a pattern's piece: a dome on a space of level 3).
_TOWER = "a complete tower"


class _PieceWord(NamedTuple):
    """The value of a piece's word run: the piece, and whether it may go on any level ('a dome at
    any level')."""

    piece: Piece
    any_level: bool


class _Group(NamedTuple):
    """The value of 'your workers' or 'an opponent's workers' in a condition on where they stand."""

    owner: Owner


class _Others(NamedTuple):
    """The value of whom a group must not neighbour: 'yours' (`owner`), or 'each other' (None)."""

    owner: Owner | None


@dataclass(frozen=True)
class _Victim:
    """'an opponent worker on <space>': the worker a removal takes, and where it stands."""

    actor: ast.Actor
    place: ast.Place


def _says_lowest(items: Items) -> bool:
    """Whether a space's adjectives include 'lowest' (the least level among the spaces named)."""
    return any(isinstance(i, _Words) and i.value == "lowest" for i in items)


def _start(items: Items) -> tuple[int, int]:
    for item in items:
        if isinstance(item, Token):
            return _at(item)
        if isinstance(item, (ast.Node, _Words)):
            return item.line, item.column
    return 1, 1


def _at(token: Token) -> tuple[int, int]:
    """Where a token starts (the word lexer gives each token its line and column)."""
    assert token.line is not None and token.column is not None
    return token.line, token.column


def _words(items: Items) -> str:
    parts = []
    for item in items:
        if isinstance(item, Token):
            parts.append(str(item.value) if item.type != "POSSESSIVE" else "'s")
        elif isinstance(item, (_Words, ast.Actor, ast.Place, ast.Qualifier)):
            parts.append(item.words)
        elif isinstance(item, int):
            parts.append(str(item))
    return " ".join(parts).replace(" 's", "'s")


_CONDITIONS = (ast.PatternNode, ast.WorkerStateNode, ast.TowersNode, ast.FlankedNode, ast.ApartNode,
               ast.TokenPointsNode, ast.PlayerCountNode)


def _qualifiers(items: Items) -> tuple[ast.Qualifier, ...]:
    """The qualifiers among `items`; a bare place phrase is a qualifier that names a place."""
    return tuple(item if isinstance(item, ast.Qualifier)
                 else ast.Qualifier(item.line, item.column, words=item.words, place=item)
                 for item in items if isinstance(item, (ast.Qualifier, ast.Place)))


def _of(items: Items, kind: type[T]) -> list[T]:
    return [item for item in items if isinstance(item, kind)]


def _value(items: Items, kind: type[T]) -> T | None:
    """The value of the first word run whose value is a `kind` (None if there is none)."""
    for item in items:
        if isinstance(item, _Words) and isinstance(item.value, kind):
            return item.value
    return None


def _required(items: Items, kind: type[T]) -> T:
    """The value of the first word run whose value is a `kind`, where the grammar puts one."""
    value = _value(items, kind)
    if value is None:  # pragma: no cover - the grammar's rule has the words
        raise TypeError(f"the tree builder found no {kind.__name__} among {items!r}")
    return value


def _number(items: Items) -> int:
    """The first number among `items` (a rank is not a number: see _Rank)."""
    return next(i for i in items if type(i) is int)


def _without_comma(items: Items) -> Items:
    """A tail's words without the comma before them: a fault in them is shown at their first word."""
    return tuple(i for i in items if not (isinstance(i, Token) and i.type == "COMMA"))


def _token(item: object) -> Token:
    """A child that the grammar makes a token."""
    if not isinstance(item, Token):  # pragma: no cover - the grammar's rule has a token there
        raise TypeError(f"the tree builder expected a token, not {item!r}")
    return item


_VERBS = {"MOVE": _VerbWord(Verb.MOVE, "present"), "MOVES": _VerbWord(Verb.MOVE, "present"),
          "MOVED": _VerbWord(Verb.MOVE, "past"),
          "BUILD": _VerbWord(Verb.BUILD, "present"), "BUILDS": _VerbWord(Verb.BUILD, "present"),
          "BUILT": _VerbWord(Verb.BUILD, "past"),
          "FORCE": _VerbWord(Verb.FORCE, "present"), "FORCES": _VerbWord(Verb.FORCE, "present"),
          "REMOVE": _VerbWord(Verb.REMOVE, "present"), "REMOVES": _VerbWord(Verb.REMOVE, "present")}


#: The words after a header's timing that limit the section's power to one use in a game.
ONCE_PER_GAME = " (once per game)"
#: The words after 'Your Turn' that make the section's turn replace the standard one.
INSTEAD = " (instead)"
#: Each timing by its header text (lower case, single spaces, as the lexer gives it).
TIMINGS = {timing.value: timing for timing in Timing}


class _Rank(int):
    """A player's rank in their team ('the second player of each team'): an int that is not a
    count, so that the setup builders tell the two apart."""


#: A tree-builder callback: a method of _ToAst made by one of the factories below.
Build = Callable[["_ToAst", list[object]], T]


def _words_node(value: object) -> Build[_Words]:
    """A rule whose words stand for `value`."""
    def build(self: _ToAst, children: list[object]) -> _Words:
        items = tuple(children)
        return _Words(*_start(items), _words(items), value)
    return build


def _qualifier(part: Callable[..., Condition]) -> Build[ast.Qualifier]:
    """A qualifier whose condition is `part` of the rule's numbers."""
    def build(self: _ToAst, children: list[object]) -> ast.Qualifier:
        items = tuple(children)
        numbers = [i for i in items if type(i) is int]
        return ast.Qualifier(*_start(items), words=_words(items), part=part(*numbers))
    return build


def _space(make: Callable[[Items], SpaceSelector]) -> Build[_Words]:
    """A space phrase whose selector `make` makes from the rule's children."""
    def build(self: _ToAst, children: list[object]) -> _Words:
        items = tuple(children)
        return _Words(*_start(items), _words(items), make(items))
    return build


def _follow_up(timing: FollowUpTiming) -> Build[ast.FollowUpNode]:
    def build(self: _ToAst, children: list[object]) -> ast.FollowUpNode:
        items = tuple(children)
        step = next(i for i in items if isinstance(i, (ast.StepNode, ast.HappeningNode)))
        return ast.FollowUpNode(*_start(items), trigger=_of(items, ast.PatternNode)[0], step=step, timing=timing)
    return build


def _obligation(if_possible: bool) -> Build[ast.ObligationNode]:
    def build(self: _ToAst, children: list[object]) -> ast.ObligationNode:
        items = tuple(children)
        return ast.ObligationNode(*_start(items), if_possible=if_possible, verb=_required(items, _VerbWord).verb,
                                  qualifiers=_qualifiers(items))
    return build


def _setup(kind: SetupKind) -> Build[ast.PlacementNode]:
    def build(self: _ToAst, children: list[object]) -> ast.PlacementNode:
        items = tuple(children)
        numbers = [i for i in items if type(i) is int]
        ranks = _of(items, _Rank)
        actors = _of(items, ast.Actor)
        return ast.PlacementNode(*_start(items), count=numbers[0] if numbers else 0, kind=kind,
                                 place=next(iter(_of(items, ast.Place)), None),
                                 words_actor=actors[0].words.lower() if actors else "",
                                 rank=ranks[0] if ranks else 1)
    return build


def _actor(role: Role, owner: Owner | None = None) -> Build[ast.Actor]:
    def build(self: _ToAst, children: list[object]) -> ast.Actor:
        items = tuple(children)
        whose = _value(items, Owner) or owner or Owner.YOURS
        return ast.Actor(*_start(items), selector=WorkerSelector(role, whose), words=_words(items))
    return build


#: The statements' clauses: every node a sentence may be.
_CLAUSES = (ast.StepNode, ast.HappeningNode, ast.ObligationNode, ast.GainNode, ast.PlaceTokenNode, ast.DomeLikeNode,
            ast.FollowUpNode, ast.ProhibitionNode, ast.VetoNode, ast.WinNode, ast.LossNode, ast.PlacementNode,
            ast.WinlessNode)
#: The conditions the grammar writes after 'if' or 'when' (a guard may also be a player count).
_STATED = (ast.PatternNode, ast.WorkerStateNode, ast.TowersNode, ast.FlankedNode, ast.ApartNode,
           ast.TokenPointsNode)


class _ToAst(Transformer[Token, ast.Rules]):
    """Build ast nodes; each node takes the position of its first word."""

    def start(self, children: list[object]) -> ast.Rules:
        return ast.Rules(line=1, column=1, sections=tuple(_of(tuple(children), ast.Section)))

    def section(self, children: list[object]) -> ast.Section:
        first, *statements = children
        header = _token(first)
        text = str(header.value)
        instead = text.endswith(INSTEAD)
        bare = text.removesuffix(INSTEAD)
        once = bare.endswith(ONCE_PER_GAME)
        timing = TIMINGS.get(bare.removesuffix(ONCE_PER_GAME))
        return ast.Section(*_at(header), header=text, statements=tuple(_of(tuple(statements), ast.Statement)),
                           timing=timing, once=once, instead=instead)

    def statement(self, children: list[object]) -> ast.Statement:
        items = tuple(children)
        guard = next((i.value for i in items if isinstance(i, _Words) and isinstance(i.value, _CONDITIONS)), None)
        clause = next(i for i in items if isinstance(i, _CLAUSES))
        return ast.Statement(*_start(items), guard=guard, clause=clause)

    def otherwise(self, children: list[object]) -> ast.Statement:
        items = tuple(children)
        clause = next(i for i in items if isinstance(i, _CLAUSES))
        return ast.Statement(*_start(items), guard=None, clause=clause, otherwise=True)

    def player_count(self, children: list[object]) -> _Words:
        items = tuple(children)
        counts = tuple(i for i in items if type(i) is int)
        return _Words(*_start(items), _words(items), ast.PlayerCountNode(*_start(items), counts=counts))

    def guard(self, children: list[object]) -> _Words:
        items = tuple(children)
        condition = next(i for i in items if isinstance(i, _CONDITIONS))
        return _Words(*_start(items), "if " + _words(items), condition)

    # -- clauses
    def step(self, children: list[object]) -> ast.StepNode:
        items = tuple(children)
        verb = _required(items, _VerbWord)
        piece = self._piece(items)
        actors = _of(items, ast.Actor)
        tails = tuple(_of(items, ast.Tail))
        kinds = {tail.kind for tail in tails}
        targets = [a for a in actors[1:] if a.selector.role in (Role.NEAR, Role.OTHER)]
        gap = next((i.value for i in items if isinstance(i, _Words) and isinstance(i.value, ast.Qualifier)), None)
        return ast.StepNode(*_start(items), actor=actors[0], modality=_value(items, Modality), gap=gap,
                            verb=verb.verb, piece=piece[0] if piece else None,
                            piece_any_level=bool(piece and piece[1]),
                            place=next(iter(_of(items, ast.Place)), None), repeat=_value(items, Repeat),
                            qualifiers=tuple(_of(items, ast.Qualifier)), effects=tuple(_of(items, ast.Forcing)),
                            target=targets[0] if targets else None, can_win=ast.TailKind.CANNOT_WIN not in kinds,
                            instead=ast.TailKind.INSTEAD in kinds,
                            cost=tuple(tail.cost for tail in tails if tail.cost is not None), tails=tails)

    @staticmethod
    def _piece(items: Items) -> _PieceWord | None:
        return _value(items, _PieceWord)

    def pattern(self, children: list[object]) -> ast.PatternNode:
        items = tuple(children)
        verb, tense = _required(items, _VerbWord)
        piece = self._piece(items)
        tower = any(isinstance(i, _Words) and i.value is _TOWER for i in items)
        return ast.PatternNode(*_start(items), actor=_of(items, ast.Actor)[0], verb=verb, tense=tense,
                               piece=Piece.DOME if tower else piece[0] if piece else None,
                               qualifiers=_qualifiers(items), tower=tower)

    follow_up = _follow_up(FollowUpTiming.AFTER)
    each_time = _follow_up(FollowUpTiming.EACH_TIME)
    before = _follow_up(FollowUpTiming.BEFORE)

    def veto(self, children: list[object]) -> ast.VetoNode:
        items = tuple(children)
        return ast.VetoNode(*_start(items), actor=_of(items, ast.Actor)[0], qualifiers=_qualifiers(items))

    def worker_state(self, children: list[object]) -> ast.WorkerStateNode:
        items = tuple(children)
        return ast.WorkerStateNode(*_start(items), actor=_of(items, ast.Actor)[0], qualifiers=_qualifiers(items))

    def towers_at_least(self, children: list[object]) -> ast.TowersNode:
        items = tuple(children)
        return ast.TowersNode(*_start(items), count=_number(items))

    def flanked(self, children: list[object]) -> ast.FlankedNode:
        items = tuple(children)
        return ast.FlankedNode(*_start(items), count=next(int(i.value) for i in items
                                                          if isinstance(i, Token) and i.type == "INT"))

    def apart(self, children: list[object]) -> ast.ApartNode:
        items = tuple(children)
        return ast.ApartNode(*_start(items), owner=_required(items, _Group).owner,
                             other=_required(items, _Others).owner)

    group_yours = _words_node(_Group(Owner.YOURS))
    group_an_opponents = _words_node(_Group(Owner.OPPONENTS))
    others_yours = _words_node(_Others(Owner.YOURS))
    each_other = _words_node(_Others(None))

    def swap_step(self, children: list[object]) -> ast.StepNode:
        items = tuple(children)
        actor, partners = _of(items, ast.Actor)
        return ast.StepNode(*_start(items), actor=actor, modality=_value(items, Modality), verb=Verb.SWAP, piece=None,
                            piece_any_level=False, place=None, repeat=None, qualifiers=(), effects=(),
                            target=partners)

    def that_opponents_workers(self, children: list[object]) -> ast.Actor:
        items = tuple(children)
        return ast.Actor(*_start(items), selector=WorkerSelector(Role.TEAM, Owner.OPPONENTS), words=_words(items))

    an_opponents_workers = that_opponents_workers

    def removal(self, children: list[object]) -> ast.HappeningNode:
        items = tuple(children)
        victim = next(i for i in items if isinstance(i, _Victim))
        return ast.HappeningNode(victim.actor.line, victim.actor.column, kind=HappeningKind.REMOVAL,
                                 victim=victim.actor, place=victim.place)

    def removal_and_build(self, children: list[object]) -> ast.HappeningNode:
        items = tuple(children)
        space = _required(items, SpaceSelector)
        victim = ast.Actor(*_start(items), selector=WorkerSelector(Role.ON_SPACE, Owner.OPPONENTS), words=_words(items))
        place = ast.Place(*_start(items), space=space, words=_words(items))
        return ast.HappeningNode(*_start(items), kind=HappeningKind.REMOVAL_AND_BUILD, victim=victim, place=place)

    def slide(self, children: list[object]) -> ast.HappeningNode:
        return ast.HappeningNode(*_start(tuple(children)), kind=HappeningKind.SLIDE, victim=None, place=None)

    def opponent_loses(self, children: list[object]) -> ast.HappeningNode:
        return ast.HappeningNode(*_start(tuple(children)), kind=HappeningKind.LOSS, victim=None, place=None)

    def owner_loses(self, children: list[object]) -> ast.HappeningNode:
        return ast.HappeningNode(*_start(tuple(children)), kind=HappeningKind.OWNER_LOSS, victim=None, place=None)

    def additional_turn(self, children: list[object]) -> ast.HappeningNode:
        return ast.HappeningNode(*_start(tuple(children)), kind=HappeningKind.ADDITIONAL_TURN, victim=None,
                                 place=None)

    def victim_on(self, children: list[object]) -> _Victim:
        items = tuple(children)
        space = _required(items, SpaceSelector)
        actor = ast.Actor(*_start(items), selector=WorkerSelector(Role.ON_SPACE, Owner.OPPONENTS), words=_words(items))
        place = ast.Place(*_start(items), space=space, words=_words(items))
        return _Victim(actor, place)

    obligation_if_possible = _obligation(True)
    obligation_must = _obligation(False)

    def last_move_obligation(self, children: list[object]) -> ast.ObligationNode:
        items = tuple(children)
        comma = next(i for i, item in enumerate(items) if isinstance(item, Token) and item.type == "COMMA")
        return ast.ObligationNode(*_start(items), if_possible=False, verb=None,
                                  qualifiers=_qualifiers(items[comma:]), started=_qualifiers(items[:comma]))

    def spending(self, children: list[object]) -> ast.Tail:
        items = _without_comma(tuple(children))
        return ast.Tail(*_start(items), kind=ast.TailKind.SPENDING, words=_words(items),
                        cost=(_required(items, Counter), _number(items)))

    def token_name(self, children: list[object]) -> _Words:
        name = _token(children[0])
        return _Words(*_at(name), str(name.value), TokenKind(str(name.value)))

    def token_on_built(self, children: list[object]) -> ast.HappeningNode:
        items = tuple(children)
        return ast.HappeningNode(*_start(items), kind=HappeningKind.TOKEN, victim=None, place=None,
                                 token=_required(items, TokenKind), per_game=_number(items))

    def place_token(self, children: list[object]) -> ast.PlaceTokenNode:
        items = tuple(children)
        place = _of(items, ast.Place)[0]
        return ast.PlaceTokenNode(*_start(items), token=_required(items, TokenKind), place=place,
                                  near_moved="moved worker" in place.words.lower())

    def dome_like(self, children: list[object]) -> ast.DomeLikeNode:
        items = tuple(children)
        return ast.DomeLikeNode(*_start(items), actor=_of(items, ast.Actor)[0], token=_required(items, TokenKind))

    def spaces_with(self, children: list[object]) -> _Words:
        items = tuple(children)
        return _Words(*_start(items), _words(items), _value(items, TokenKind))

    def contains(self, children: list[object]) -> _Words:
        return _Words(*_start(tuple(children)), _words(tuple(children)))

    def space_near_moved(self, children: list[object]) -> _Words:
        items = tuple(children)
        filters = [SpaceIs(SpaceRef.TARGET, i.value) for i in items
                   if isinstance(i, _Words) and isinstance(i.value, SpaceProperty)]
        return _Words(*_start(items), _words(items), SpaceSelector(Region.NEIGHBORING, None, tuple(filters),
                                                                   _says_lowest(items)))

    def gain(self, children: list[object]) -> ast.GainNode:
        items = tuple(children)
        return ast.GainNode(*_start(items), amount=_number(items), counter=_required(items, Counter))

    def counter(self, children: list[object]) -> _Words:
        items = tuple(children)
        return _Words(*_start(items), _words(items), Counter.COIN)

    def cannot_win(self, children: list[object]) -> ast.Tail:
        items = _without_comma(tuple(children))
        return ast.Tail(*_start(items), kind=ast.TailKind.CANNOT_WIN, words=_words(items))

    def instead(self, children: list[object]) -> ast.Tail:
        items = tuple(children)
        return ast.Tail(*_start(items), kind=ast.TailKind.INSTEAD, words=_words(items))

    def gap_exactly(self, children: list[object]) -> _Words:
        return self._gap(tuple(children), Compare.EQ)

    def gap_at_least(self, children: list[object]) -> _Words:
        return self._gap(tuple(children), Compare.GE)

    @staticmethod
    def _gap(items: Items, op: Compare) -> _Words:
        """'standing exactly 2 levels higher': level(target) - level(actor) == 2; 'at least 2
        levels lower': <= -2 (the comparison turns with the sign)."""
        amount = next(i for i in items if type(i) is int)
        lower = any(isinstance(i, Token) and i.type == "LOWER" for i in items)
        if lower:
            amount, op = -amount, {Compare.GE: Compare.LE}.get(op, op)
        words = _words(items)
        qualifier = ast.Qualifier(*_start(items), words=words, part=LevelChange(op, amount))
        return _Words(*_start(items), words, qualifier)

    def worker_object_near_vacated(self, children: list[object]) -> ast.Actor:
        items = tuple(children)
        return ast.Actor(*_start(items), selector=WorkerSelector(Role.NEAR, Owner.OPPONENTS, around=SpaceRef.VACATED),
                         words=_words(items))

    def worker_object_other(self, children: list[object]) -> ast.Actor:
        items = tuple(children)
        return ast.Actor(*_start(items), selector=WorkerSelector(Role.OTHER, Owner.YOURS), words=_words(items))

    def worker_object(self, children: list[object]) -> ast.Actor:
        items = tuple(children)
        return ast.Actor(*_start(items), selector=WorkerSelector(Role.NEAR, Owner.OPPONENTS), words=_words(items))

    def prohibition(self, children: list[object]) -> ast.ProhibitionNode:
        items = tuple(children)
        piece = self._piece(items)
        return ast.ProhibitionNode(*_start(items), actor=_of(items, ast.Actor)[0],
                                   verb=_required(items, _VerbWord).verb,
                                   piece=piece[0] if piece else None, qualifiers=_qualifiers(items))

    def win(self, children: list[object]) -> ast.WinNode:
        items = tuple(children)
        also = any(isinstance(i, Token) and i.type == "ALSO" for i in items)
        return ast.WinNode(*_start(items), also=also, pattern=next(i for i in items if isinstance(i, _STATED)))

    def loss(self, children: list[object]) -> ast.LossNode:
        return ast.LossNode(*_start(tuple(children)))

    def winless(self, children: list[object]) -> ast.WinlessNode:
        return ast.WinlessNode(*_start(tuple(children)))

    placement = _setup(SetupKind.EACH_PLAYER)
    team_placement = _setup(SetupKind.TEAM_PLAYER)
    first_turn = _setup(SetupKind.FIRST_TURN)
    own_placement = _setup(SetupKind.YOU_PLACE)
    place_first = _setup(SetupKind.FIRST)
    place_where = _setup(SetupKind.WHERE)
    place_opposite_edges = _setup(SetupKind.OPPOSITE_EDGES)
    one_female = _setup(SetupKind.FEMALE)
    reserve = _setup(SetupKind.EXTRA)

    def setup_token(self, children: list[object]) -> ast.PlacementNode:
        items = tuple(children)
        secret = any(isinstance(i, Token) and i.type == "SECRETLY" for i in items)
        return ast.PlacementNode(*_start(items), count=0, kind=SetupKind.TOKEN, place=_of(items, ast.Place)[0],
                                 token=_required(items, TokenKind), secret=secret)

    def teammates_across(self, children: list[object]) -> ast.PlacementNode:
        return ast.PlacementNode(*_start(tuple(children)), count=0, kind=SetupKind.TEAMMATES, pairing=Pairing.ACROSS)

    def teammates_beside(self, children: list[object]) -> ast.PlacementNode:
        return ast.PlacementNode(*_start(tuple(children)), count=0, kind=SetupKind.TEAMMATES, pairing=Pairing.BESIDE)

    def ordinal(self, children: list[object]) -> _Rank:
        return _Rank(1 if _token(children[0]).type == "FIRST" else 2)

    def place_reserve(self, children: list[object]) -> ast.StepNode:
        items = tuple(children)
        place = _of(items, ast.Place)[0]
        space = place.space
        if space.region is Region.NEIGHBORING:  # a worker enters the board anywhere its filters allow
            # (next to the moved worker where the place says so: no worker of the board takes the step)
            beside = (BesideWorker(WorkerSelector(Role.MOVED)),) if "moved worker" in place.words.lower() else ()
            place = ast.Place(place.line, place.column,
                              SpaceSelector(Region.ANYWHERE, None, (*space.filters, *beside), space.lowest),
                              place.words)
        actor = ast.Actor(*_start(items), selector=WorkerSelector(Role.RESERVE, Owner.YOURS), words="your extra worker")
        modality = (Modality.MAY if any(isinstance(i, Token) and i.type == "MAY" for i in items)
                    else _value(items, Modality))
        return ast.StepNode(*_start(items), actor=actor, modality=modality, verb=Verb.PLACE, piece=None,
                            piece_any_level=False, place=place, repeat=None,
                            qualifiers=tuple(_of(items, ast.Qualifier)),
                            effects=())

    def return_worker(self, children: list[object]) -> ast.StepNode:
        """'you must return one of your workers to your card': the worker the player chooses leaves
        the board for the card (written `remove A2`), from where it may enter again."""
        items = tuple(children)
        actor = ast.Actor(*_start(items), selector=WorkerSelector(Role.CHOSEN, Owner.YOURS),
                          words="one of your workers")
        itself = ast.Actor(*_start(items), selector=WorkerSelector(Role.SUBJECT, Owner.YOURS), words="to your card")
        return ast.StepNode(*_start(items), actor=actor, modality=_value(items, Modality), verb=Verb.REMOVE,
                            piece=None, piece_any_level=False, place=None, repeat=None, qualifiers=(), effects=(),
                            target=itself)

    def extra(self, children: list[object]) -> ast.Qualifier:
        return _qualifiers(tuple(children))[0]

    def forcing(self, children: list[object]) -> ast.Forcing:
        items = _without_comma(tuple(children))
        actor = _of(items, ast.Actor)[0]
        displaced = ast.Actor(actor.line, actor.column, WorkerSelector(Role.DISPLACED, Owner.ANYONES), actor.words)
        return ast.Forcing(*_start(items), actor=displaced, place=_of(items, ast.Place)[0])

    # -- actors
    chosen_worker = _actor(Role.CHOSEN)
    each_worker = _actor(Role.EACH)
    subject_worker = _actor(Role.SUBJECT, Owner.YOURS)
    any_worker = _actor(Role.SUBJECT, Owner.ANYONES)
    moved_worker = _actor(Role.MOVED, Owner.YOURS)
    unmoved_worker = _actor(Role.UNMOVED, Owner.YOURS)
    that_worker = _actor(Role.THAT, Owner.YOURS)

    every_worker = _actor(Role.EVERY, Owner.YOURS)
    all_workers = _actor(Role.EACH, Owner.ANYONES)
    opponent_worker = _actor(Role.SUBJECT, Owner.OPPONENTS)

    def all_workers_except(self, children: list[object]) -> ast.Actor:
        items = tuple(children)
        spared = _of(items, ast.Actor)[0]
        return ast.Actor(*_start(items), selector=WorkerSelector(Role.EACH, Owner.ANYONES, excluding=spared.selector),
                         words=_words(items))

    last_moved_worker = _actor(Role.LAST_MOVED, Owner.ANYONES)

    def chosen_opponent_worker(self, children: list[object]) -> ast.Actor:
        items = tuple(children)
        spared = _of(items, ast.Actor)
        excluding = spared[0].selector if spared else None
        return ast.Actor(*_start(items), selector=WorkerSelector(Role.CHOSEN, Owner.OPPONENTS, excluding=excluding),
                         words=_words(items))

    def female_worker(self, children: list[object]) -> ast.Actor:
        items = tuple(children)
        return ast.Actor(*_start(items), selector=WorkerSelector(Role.CHOSEN, Owner.YOURS, Sex.FEMALE),
                         words=_words(items))

    yours = _words_node(Owner.YOURS)
    opponents = _words_node(Owner.OPPONENTS)
    may = _words_node(Modality.MAY)
    must = _words_node(Modality.MUST)
    possible = _words_node(Modality.IF_POSSIBLE)

    def verb(self, children: list[object]) -> _Words:
        token = _token(children[0])
        return _Words(*_at(token), str(token.value), _VERBS[token.type])

    def dome(self, children: list[object]) -> _Words:
        items = tuple(children)
        return _Words(*_start(items), _words(items), _PieceWord(Piece.DOME, len(items) > 2))

    block = _words_node(_PieceWord(Piece.BLOCK, False))
    complete_tower = _words_node(_TOWER)
    all_blocks = _words_node(_PieceWord(Piece.STACK, False))
    once_more = _words_node(Repeat(1))
    any_number = _words_node(ANY_NUMBER)

    def up_to(self, children: list[object]) -> _Words:
        items = tuple(children)
        return _Words(*_start(items), _words(items), Repeat(_number(items), up_to=True))

    def number(self, children: list[object]) -> int:
        token = _token(children[0])
        return 1 if token.type == "ONE" else int(token.value)

    # -- qualifiers
    def negated(self, children: list[object]) -> ast.Qualifier:
        items = tuple(children)
        inner = _qualifiers(items)[0]
        return ast.Qualifier(*_start(items), words=_words(items), part=inner.part, place=inner.place,
                             negated=not inner.negated)

    def not_piece(self, children: list[object]) -> ast.Qualifier:
        items = tuple(children)
        piece = self._piece(items)
        assert piece is not None  # ('not <piece>', 'unless building <piece>')
        return ast.Qualifier(*_start(items), words=_words(items), part=PieceIs(piece.piece), negated=True)

    up = _qualifier(lambda: UP)
    down = _qualifier(lambda: DOWN)
    up_or_down = _qualifier(lambda: AnyOf((UP, DOWN)))
    climb_at_most = _qualifier(lambda n: LevelChange(Compare.LE, n))
    descent_at_least = _qualifier(lambda n: LevelChange(Compare.LE, -n))
    onto_level = _qualifier(lambda n: TargetLevel(Compare.EQ, n))
    on_level = _qualifier(lambda n: TargetLevel(Compare.EQ, n))
    on_ground_level = _qualifier(lambda: TargetLevel(Compare.EQ, 0))
    orthogonally = _qualifier(lambda: AlongLine(Line.ORTHOGONAL))
    diagonally = _qualifier(lambda: AlongLine(Line.DIAGONAL))
    climb_any = _qualifier(lambda: LevelChange(Compare.LE, 3))
    stands_highest = _qualifier(lambda: StandsHighest())

    def last_turn(self, children: list[object]) -> ast.Qualifier:
        items = tuple(children)
        return ast.Qualifier(*_start(items), words=_words(items), scope=Scope.LAST_TURN)

    def this_turn(self, children: list[object]) -> ast.Qualifier:
        items = tuple(children)
        return ast.Qualifier(*_start(items), words=_words(items), scope=Scope.THIS_TURN)

    def place(self, children: list[object]) -> ast.Place:
        items = tuple(children)
        space = _required(items, SpaceSelector)
        origin = isinstance(items[0], Token) and items[0].type == "FROM"
        return ast.Place(*_start(items), space=space, words=_words(items), origin=origin)

    def climb(self, children: list[object]) -> object:  # pragma: no cover - every climb has an alias
        return children[0]

    def under_itself(self, children: list[object]) -> ast.Place:
        items = tuple(children)
        space = SpaceSelector(Region.SINGLE, SpaceRef.ORIGIN, (SameSpace(SpaceRef.ORIGIN),))
        return ast.Place(*_start(items), space=space, words=_words(items))

    def __default__(self, data: object, children: list[object], meta: object) -> _Words:
        items = tuple(children)
        if data in ("article", "vacater"):
            return _Words(*_start(items), _words(items))
        raise TypeError(f"the tree builder has no rule for {data!r}")  # pragma: no cover

    def one_space_toward(self, children: list[object]) -> ast.Place:
        items = tuple(children)
        direction = _required(items, Compass)
        return ast.Place(*_start(items), space=SpaceSelector(Region.SINGLE, SpaceRef.COMPASS, compass=direction),
                         words=_words(items))

    def compass(self, children: list[object]) -> _Words:
        token = _token(children[0])
        return _Words(*_at(token), str(token.value), Compass(str(token.value).lower()))

    def force_several(self, children: list[object]) -> ast.StepNode:
        """'you force one or more opponent workers one space south': the player, with no worker of
        theirs acting, forces a set of one or more of them (with 'may': perhaps none), each once."""
        items = tuple(children)
        actor = ast.Actor(*_start(items), selector=WorkerSelector(Role.HOLDER, Owner.YOURS), words="you")
        several = ast.Actor(*_start(items), selector=WorkerSelector(Role.EVERY, Owner.OPPONENTS),
                            words="one or more opponent workers")
        return ast.StepNode(*_start(items), actor=actor, modality=_value(items, Modality), verb=Verb.FORCE,
                            piece=None, piece_any_level=False, place=_of(items, ast.Place)[0], repeat=None,
                            qualifiers=tuple(_of(items, ast.Qualifier)), effects=(), target=several)

    def point_step(self, children: list[object]) -> ast.StepNode:
        """'you may point your wind token in any direction' (or 'nowhere'): the player sets the
        direction of a token of the card, with no worker acting."""
        items = tuple(children)
        actor = ast.Actor(*_start(items), selector=WorkerSelector(Role.HOLDER, Owner.YOURS), words="you")
        return ast.StepNode(*_start(items), actor=actor, modality=_value(items, Modality), verb=Verb.POINT,
                            piece=None, piece_any_level=False, place=None, repeat=None, qualifiers=(), effects=(),
                            token=_required(items, TokenKind), heading=_required(items, Heading))

    any_heading = _words_node(Heading.ANY)
    no_heading = _words_node(Heading.NOWHERE)

    def token_points_nowhere(self, children: list[object]) -> ast.TokenPointsNode:
        items = tuple(children)
        return ast.TokenPointsNode(*_start(items), token=_required(items, TokenKind), heading=Heading.NOWHERE)

    def against_token(self, children: list[object]) -> ast.Qualifier:
        items = tuple(children)
        return ast.Qualifier(*_start(items), words=_words(items), part=Against(_required(items, TokenKind)))

    def straight_backwards(self, children: list[object]) -> ast.Place:
        items = tuple(children)
        return ast.Place(*_start(items), space=SpaceSelector(Region.SINGLE, SpaceRef.BEYOND), words=_words(items))

    # -- spaces
    def described_space(self, children: list[object]) -> _Words:
        items = tuple(children)
        adjectives = [i.value for i in items if isinstance(i, _Words) and isinstance(i.value, SpaceProperty | Region)]
        article = next((i.words for i in items if isinstance(i, _Words) and i.value is None), "")
        neighbouring = any(isinstance(i, _Words) and i.value is Region.NEIGHBORING for i in items)
        region = Region.ANYWHERE if article.lower() == "any" and not neighbouring else Region.NEIGHBORING
        filters: list[Condition] = [SpaceIs(SpaceRef.TARGET, a) for a in adjectives if isinstance(a, SpaceProperty)]
        filters += [OccupiedBy(i.value) for i in items if isinstance(i, _Words) and isinstance(i.value, Owner)]
        lower = any(isinstance(i, _Words) and i.value == "lower" for i in items)
        filters += [Near(i.value.owner, lower, i.value.level, i.value.same_level) for i in items
                    if isinstance(i, _Words) and isinstance(i.value, Near)]
        filters += [i.value for i in items if isinstance(i, _Words) and isinstance(i.value, HasToken)]
        return _Words(*_start(items), _words(items), SpaceSelector(region, None, tuple(filters), _says_lowest(items)))

    def wrapped_space(self, children: list[object]) -> _Words:
        """'a neighboring space across the edges of the board': the spaces around the worker, the
        board's opposite edges and corners taken as adjacent."""
        described = self.described_space(children)
        selector = described.value
        assert isinstance(selector, SpaceSelector)
        return _Words(described.line, described.column, described.words,
                      SpaceSelector(Region.WRAPPED, None, selector.filters))

    def with_token(self, children: list[object]) -> _Words:
        items = tuple(children)
        return _Words(*_start(items), _words(items), HasToken(_required(items, TokenKind)))

    def near_workers(self, children: list[object]) -> _Words:
        items = tuple(children)
        levels = [i for i in items if type(i) is int]
        same = any(isinstance(i, Token) and i.type == "ITS" for i in items)
        return _Words(*_start(items), _words(items), Near(_required(items, Owner), level=levels[0] if levels else None,
                                                          same_level=same))

    other_side_space = _space(lambda items: SpaceSelector(Region.SINGLE, SpaceRef.OTHER_SIDE))
    over_worker_space = _space(lambda items: SpaceSelector(Region.OVER_WORKER))

    opponent_space = _space(lambda items: SpaceSelector(Region.NEIGHBORING, None, (OccupiedBy(Owner.OPPONENTS),)))
    vacated_space = _space(lambda items: SpaceSelector(Region.SINGLE, SpaceRef.VACATED))
    beyond_space = _space(lambda items: SpaceSelector(Region.SINGLE, SpaceRef.BEYOND))
    start_space = _space(lambda items: SpaceSelector(Region.SINGLE, SpaceRef.START))
    last_built_space = _space(lambda items: SpaceSelector(Region.SINGLE, SpaceRef.LAST_BUILT))

    unoccupied = _words_node(SpaceProperty.UNOCCUPIED)
    neighboring = _words_node(Region.NEIGHBORING)
    perimeter = _words_node(SpaceProperty.PERIMETER)
    corner = _words_node(SpaceProperty.CORNER)
    lower = _words_node("lower")
    lowest = _words_node("lowest")
    by_opponent = _words_node(Owner.OPPONENTS)
    by_anyone = _words_node(Owner.ANYONES)
