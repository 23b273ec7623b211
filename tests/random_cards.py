"""Random cards composed from the rule language's parts, for tests that must not be fooled by the
shapes of the cards we ship (DESIGN.md, "Tests"; issue 19).

A card is one to three *parts*, each a section with its sentences: a turn program (`Your Turn:`,
maybe `(once per game)`, `Alternative Turn (optional):`, `Alternative Turn (once per game):`), a
step option, a replacement (`instead`) or a follow-up (`Your Move:`, `Your Build:`, `Alternative
Build:`, maybe `(once per game)`), an end-of-turn step or happening (a step maybe `(once per
game)`), a gain at the start of the turn, a binding on opponents (`Opponent's Turn:`: a prohibition,
a win veto, an obligation, a reaction, tokens treated as domes; `At All Times:`: a prohibition,
tokens treated as domes by everyone, a win veto, a reaction that makes a mover's player lose), a
win, a setup rule (a secret token among them). The sentences come from the small grammar below,
written over the forms of docs/language.md (section 12) and the shipped cards, with random choices
in their slots (levels, comparisons, owners, places, counts, pieces, repetitions, modalities,
guards). A part that needs another one to mean anything brings it along (a female worker's option
brings `one of your workers is female`, an extra worker's placement its reserve, a cost its gain,
tokens treated as domes a way to put them on the board).

Only cards that pass the project's own check are kept: the card is written to a file and loaded
with `packs.load_card`, which is what `santorini check CARD` runs (schema, parse, check, compile).
A card that does not pass is drawn again. About 97% of the grammar's draws pass (971 of 1,000 when
this was written; tests/test_random_cards.py holds it above 80%). Not written: what only the base
card or a mode may say (board rules, `Turn:`, `Loss Condition:`, `each player places`, teams).

**What is skipped, and why.** The checker refuses a repetition that nothing bounds ('a build
repeated any number of times'), but bounded parts still multiply: three steps each repeated up to
three times, a build that may follow every build of a repeated move... A card whose turns cost more
than `NODE_BUDGET` steps of the generic chain to walk (perft 1, on the two probe positions, for the
card's seat and for its opponent's, whose turn the card may bind) is skipped, as if it failed the
check: its games would take the comparison tests minutes, and a card past counting says nothing
more about the fast engine than a smaller one of the same parts. The walk is the generic chain's
own (`Engine._roots`, with a probe that counts the steps it applies) and is cut off by the count,
never by the clock, so the same card is skipped on every machine (about 4% of the clean draws).

Use `random_card(rng)` for a card's YAML text from a `random.Random`, or `cards()` as a
hypothesis strategy (seeded by hypothesis, and shrinking towards the first alternative of each
choice: the grammar lists the plainest first). `load(text)` gives the compiled card, `pack_with`
a pack that holds it (bga plus the random cards) to start games from.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import json
import random
import shutil
import tempfile
from collections.abc import Callable, Sequence
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Protocol, TypeVar

from hypothesis import reject
from hypothesis import strategies as st

from santorini.dsl.errors import SourceError
from santorini.interpreter.chain.walk import Walk
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game, new_game, parse_players
from santorini.interpreter.games.packs import MORTAL, Card, Pack, load_card, load_pack
from santorini.interpreter.games.setup import add_reserve_workers, seat_setup, worker_kind
from santorini.interpreter.model.board import parse_square
from santorini.interpreter.model.state import GameState

T = TypeVar("T")

#: Steps of the generic chain a card's turn may take to walk on a probe position (see above).
NODE_BUDGET = 20_000
#: Draws of a card before giving up (`random_card` raises, the strategy rejects the example).
ATTEMPTS = 40
#: The pack the random cards join (their opponents are its cards).
BASE_PACK = "bga"


class Chooser(Protocol):
    """Where the grammar's choices come from: a random generator or a hypothesis draw."""

    def pick(self, options: Sequence[T]) -> T: ...

    def number(self, low: int, high: int) -> int: ...


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class DrawChooser:
    """Hypothesis draws: each choice shrinks towards the first option, each number towards `low`."""

    def __init__(self, draw: Callable) -> None:
        self.draw = draw

    def pick(self, options: Sequence[T]) -> T:
        return options[self.draw(st.integers(0, len(options) - 1))]

    def number(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))


# ---- the grammar: slots ---------------------------------------------------------------------------
# Templates may hold slots: {n03} a level 0-3, {n13} 1-3, {n23} 2-3, {n15} 1-5, {levels} 'level(s)',
# {kind} a token kind, {players} a player count guard's numbers.

SLOTS: dict[str, tuple[str, ...]] = {
    "n03": ("1", "2", "3", "0", "two", "one"),
    "n13": ("2", "1", "3", "two"),
    "n23": ("2", "3", "three"),
    "n15": ("3", "1", "2", "4", "5"),
    "levels": ("levels", "level"),
    "kind": ("coin", "talus", "ward"),
    "players": ("2", "3", "2 or 4", "2 or 3", "3 or 4"),
}


def fill(c: Chooser, template: str) -> str:
    """The template with each slot chosen."""
    while "{" in template:
        start = template.index("{")
        end = template.index("}", start)
        template = template[:start] + c.pick(SLOTS[template[start + 1:end]]) + template[end + 1:]
    return template


#: Qualifiers of a move (a step's after a comma; a pattern's without).
MOVE_FILTERS = (
    "not up", "up", "down", "not down", "not up or down", "up or down", "down {n13} or more levels",
    "onto level {n03}", "not onto level {n03}", "on the ground level", "to a perimeter space",
    "not to a perimeter space", "into a space neighboring your workers",
    "not into a space neighboring opponent workers",
    "into a space neighboring opponent workers", "from a perimeter space", "not from a perimeter space",
    "not back to its starting space", "while higher than all their other workers", "up at most {n03} {levels}",
    "into a lower space neighboring your workers", "to a space neighboring your workers standing on level {n03}",
    "not to an unoccupied perimeter space", "onto a space with your {kind} token", "orthogonally",
    "against the direction of your {kind} token",
    "not diagonally",
)
#: Qualifiers of a build; `on the same space` needs a build before it.
BUILD_FILTERS = (
    "not a dome", "not a block", "unless building a dome", "unless building a block", "on a perimeter space",
    "not on a perimeter space", "on a space neighboring your workers", "not on a space neighboring opponent workers",
    "on a lower space neighboring your workers", "while higher than all their other workers",
    "not back to its starting space", "on an unoccupied perimeter space", "diagonally",
)
AFTER_BUILD_FILTERS = ("not on the same space", "on the same space")
#: Pattern qualifiers (triggers, prohibitions, vetoes, wins, obligations): written without commas.
MOVE_PATTERN = tuple(f for f in MOVE_FILTERS if f != "not back to its starting space")
BUILD_PATTERN = tuple(f for f in BUILD_FILTERS if f not in ("not back to its starting space",))

#: Where a move or build goes, right after the verb (a destination widens with 'any').
MOVE_PLACES = (
    "", " to a perimeter space", " to an unoccupied perimeter space", " to any unoccupied perimeter space",
    " into a space neighboring your workers", " to a space neighboring opponent workers",
    " to the space on the other side of a neighboring worker", " to any unoccupied space",
    " into a space neighboring your workers standing on its level",
    " to a neighboring space across the edges of the board",
)
BUILD_PLACES = (
    "", " on a perimeter space", " on any unoccupied perimeter space", " on a space neighboring opponent workers",
    " on any unoccupied space neighboring your workers", " on an unoccupied space",
    " on an unoccupied neighboring space across the edges of the board",
)
PIECES = ("", " a dome", " a dome at any level", " a block")
CLIMBS = ("", " up at most {n03} {levels}", " up any number of levels")
REPEATS = ("", " one additional time", " again", " up to {n23} times")
#: A move into an occupied space, and where that worker is forced.
OCCUPIED = (" into an opponent worker's space", " into a space occupied by an opponent worker",
            " into a space occupied by a worker")
FORCINGS = (" by forcing that worker to the space yours just vacated",
            ", forcing that worker one space straight backwards",
            " by forcing that worker to the next space in the same direction",
            ", forcing it to the space on the other side of it", " by forcing that worker to the space it just vacated")
REMOVE_FROM = ("an unoccupied neighboring space", "a neighboring space", "an unoccupied perimeter space",
               "any unoccupied perimeter space", "a space neighboring opponent workers",
               "a neighboring space occupied by a worker")
#: Where a worker stands (guards on workers, where an extra worker is placed).
STANDS = ("on the ground level", "on level {n03}", "not on the ground level", "on a perimeter space",
          "not on a perimeter space", "on a space neighboring opponent workers", "not on level {n03}")
SPACES = ("a lower space neighboring your workers", "a perimeter space", "a space neighboring your workers",
          "an unoccupied perimeter space", "a lower space neighboring opponent workers")


def filters(c: Chooser, pool: Sequence[str], most: int, comma: bool = True) -> str:
    """Up to `most` distinct qualifiers from `pool`, each after a comma (a step's) or a space (a
    pattern's)."""
    chosen: list[str] = []
    for _ in range(c.number(0, most)):
        qualifier = fill(c, c.pick(pool))
        if qualifier not in chosen:
            chosen.append(qualifier)
    return "".join((", " if comma else " ") + q for q in chosen)


def move_filters(c: Chooser, most: int = 2) -> str:
    return filters(c, MOVE_FILTERS, most)


def build_filters(c: Chooser, after_build: bool, most: int = 2) -> str:
    return filters(c, BUILD_FILTERS + (AFTER_BUILD_FILTERS if after_build else ()), most)


# ---- the grammar: steps ---------------------------------------------------------------------------

def step(c: Chooser, actor: str, modality: str, verbs: Sequence[str], after_build: bool, at_end: bool = False) -> str:
    """ACTOR [may|must] VERB [PIECE] [OBJECT] [PLACE] [CLIMB] [REPEAT] {, Q} [, but cannot win by doing so]
    (`at_end`: an end-of-turn step, which has no 'cannot win')."""
    verb = c.pick(verbs)
    again = fill(c, c.pick(REPEATS))
    if verb == "move":
        cannot_win = "" if at_end else c.pick(("", "", ", but cannot win by doing so"))
        return (f"{actor} {modality}move{fill(c, c.pick(MOVE_PLACES))}{fill(c, c.pick(CLIMBS))}{again}"
                f"{move_filters(c)}{cannot_win}")
    if verb == "build":
        place = c.pick(BUILD_PLACES + ((" on the same space",) if after_build else ()))
        return f"{actor} {modality}build{c.pick(PIECES)}{place}{again}{build_filters(c, after_build)}"
    if verb == "force":
        return f"{actor} {modality}force a neighboring opponent worker to the space on the other side of it{again}"
    if c.pick((True, False)):
        gap = c.pick(("", " standing exactly {n13} {levels} higher", " standing at least {n13} {levels} higher",
                      " standing exactly {n13} {levels} lower", " standing at least 1 level lower"))
        return f"{actor} {modality}remove a neighboring opponent worker{fill(c, gap)}{again}"
    if c.pick((False, True)):  # (all blocks are one removal: it does not repeat)
        return f"{actor} {modality}remove all blocks from {c.pick(REMOVE_FROM)}"
    return f"{actor} {modality}remove a block from {c.pick(REMOVE_FROM)}{again}"


def past_pattern(c: Chooser, actor: str, scope: str) -> str:
    """ACTOR (moved|built) ... SCOPE: what happened, as a guard reads it."""
    if c.pick((True, False)):
        return f"{actor} moved{filters(c, MOVE_PATTERN, 2, comma=False) or ' up'} {scope}"
    return f"{actor} built{c.pick(PIECES)}{filters(c, BUILD_PATTERN, 1, comma=False)} {scope}"


def step_guard(c: Chooser) -> str:
    """A guard of a turn step, a step option or a follow-up (empty: none)."""
    kind = c.pick(("", "", "happened", "stands", "towers", "players"))
    if kind == "happened":
        actor, scope = c.pick(("your worker", "one of your workers")), c.pick(("this turn", "on your last turn"))
        return f"if {past_pattern(c, actor, scope)}, "
    if kind == "stands":
        who = c.pick(("the moved worker", "your unmoved worker", "one of your workers"))
        return f"if {who} is {fill(c, c.pick(STANDS))}, "
    if kind == "towers":
        return f"if there are at least {fill(c, '{n13}')} complete towers on the board, "
    if kind == "players":
        return f"in a game of {fill(c, '{players}')} players, "
    return ""


def program(c: Chooser) -> list[str]:
    """A whole turn: one to four steps, the first choosing a worker."""
    first = c.pick(("one", "one", "each", "any number", "extra", "female", "forced", "opponent"))
    steps: list[str] = []
    seen_move = seen_build = False
    if first == "forced":
        direction = c.pick(("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"))
        steps.append(f"you {c.pick(('', 'may '))}force one or more opponent workers one space {direction}")
    elif first == "any number":
        steps.append(f"your workers may move any number of times{move_filters(c, 1)}")
        seen_move = True
    elif first == "extra":
        where = c.pick(("an unoccupied perimeter space", "any unoccupied space",
                        "an unoccupied space neighboring your workers"))
        modality, level = c.pick(("", "may ")), c.pick(("", ", on the ground level"))
        steps.append(f"you {modality}place your extra worker on {where}{level}")
    elif first == "opponent":
        spared = c.pick(("", " except the worker its player moved last"))
        text = step(c, f"one of an opponent's workers{spared}", c.pick(("", "must ", "may ")), ("move", "build"),
                    after_build=False)
        steps.append(text)
        seen_move, seen_build = " move" in text, " build" in text
    else:
        actor = {"one": "one of your workers", "each": "each of your workers", "female": "your female worker"}[first]
        modality = c.pick(("", "may ")) if first == "each" else c.pick(("", "must ", "may "))
        text = step(c, actor, modality, ("move", "build", "force", "remove"), after_build=False)
        steps.append(text)
        seen_move, seen_build = " move" in text, " build" in text
    for _ in range(c.number(0 if steps[0].startswith(("one", "your female")) else 1, 3)):
        actors = ["that worker", "it", "one of your workers", "each of your workers", "your workers",
                  "your female worker"]
        if seen_move:
            actors.append("the moved worker")
        actor = c.pick(actors)
        if actor == "your workers":
            text = f"your workers may move any number of times{move_filters(c, 1)}"
        elif actor == "that worker" and seen_move and c.pick((False, False, False, True)):
            text = f"that worker may move any number of times{move_filters(c, 1)}"
        elif actor == "that worker" and c.pick((False, False, False, False, True)):
            # (each of your workers doming any number of times is test_engine's: its turns run to
            # tens of thousands, past what a comparison of random cards can afford)
            text = "that worker may build a dome at any level any number of times"
        else:
            modality = c.pick(("", "may ")) if actor == "each of your workers" else c.pick(("", "must ", "may "))
            text = step(c, actor, modality, ("move", "build", "build", "force", "remove"), seen_build)
        steps.append(step_guard(c) + text)
        seen_move |= " move" in text
        seen_build |= " build" in text
    return [s + "." for s in steps]


def option(c: Chooser, verb: str, once: bool) -> str:
    """Another way to take every step of a verb: 'your worker may ...', or a replacement ('... instead')."""
    actor = c.pick(("your worker", "your unmoved worker", "your female worker"))
    kind = c.pick(("may", "may", "instead", "spending") if not once else ("may", "may", "instead"))
    guard = step_guard(c)
    if kind == "spending":
        coins = c.pick(("1 coin", "2 coins"))
        return f"{guard}your worker may {verb} any number of times instead, spending {coins} each time."
    if verb == "move":
        forcing = kind == "may" and c.pick((False, True))
        place = c.pick(OCCUPIED) if forcing else fill(c, c.pick(MOVE_PLACES))
        climb = fill(c, c.pick(CLIMBS))
        if actor == "your worker" and not place and not climb and not forcing:
            climb = fill(c, c.pick(CLIMBS[1:]))
        tail = (c.pick(FORCINGS) if forcing else "") + c.pick(("", "", ", but cannot win by doing so"))
        if kind == "instead":
            return f"{guard}{actor} moves{place}{climb}{move_filters(c, 1)} instead."
        return f"{guard}{actor} may move{place}{climb}{move_filters(c, 1)}{tail}."
    piece = c.pick(PIECES)
    place = c.pick(BUILD_PLACES + (" under itself",))
    if place == " under itself":
        piece = " a block"
    if actor == "your worker" and not piece and not place:
        piece = c.pick(PIECES[1:])
    if kind == "instead":
        return f"{guard}{actor} builds{piece}{place}{build_filters(c, False, 1)} instead."
    return f"{guard}{actor} may build{piece}{place}{build_filters(c, False, 1)}."


def follow_up(c: Chooser, verb: str) -> str:
    """after / each time / before a step of `verb`, a step by the same worker (or what happens)."""
    timing = c.pick(("after", "after", "each time", "each time", "before"))
    if verb == "move":
        trigger = "your worker moves" + (filters(c, MOVE_PATTERN, 1, comma=False) if timing != "before" else "")
    else:
        trigger = "your worker builds" + ((c.pick(PIECES) + filters(c, BUILD_PATTERN, 1, comma=False))
                                          if timing != "before" else "")
    guard = step_guard(c)
    if verb == "build" and timing != "before" and c.pick((False, False, True)):
        who = c.pick(("your worker", "a worker"))
        piece = c.pick((" a complete tower", " a complete tower", " a dome", ""))
        return f"{guard}{timing} {who} builds{piece}, you may take an additional turn."
    if timing == "after" and c.pick((False, False, True)):
        if verb == "move":
            return (f"{guard}after {trigger}, the opponent worker on the next space in the same direction is removed "
                    "from the game.")
        return (f"{guard}after {trigger}, a {fill(c, '{kind}')} token is placed on its space, "
                f"up to {fill(c, '{n13}')} times in the game.")
    if timing == "after" and verb == "move" and c.pick((False, True)):
        force = c.pick(("it may force an opponent worker neighboring the space it just vacated",
                        "if possible, it forces one of your other workers",
                        "if possible, it forces one of your other workers"))
        return f"{guard}after {trigger}, {force} into the space it just vacated."
    modality = c.pick(("may ", "must ")) if timing == "after" else "may "
    verbs = (verb, verb, "move" if verb == "build" else "build", "force", "remove")
    after_build = verb == "build" and timing != "before"
    return f"{guard}{timing} {trigger}, {step(c, 'it', modality, verbs, after_build)}."


def end_of_turn(c: Chooser) -> str:
    kind = c.pick(("step", "guarded", "flanked", "removal", "token", "extra", "swap", "apart", "grow", "grant",
                   "point", "point"))
    if kind == "point":
        token = fill(c, "{kind}")
        if c.pick((True, False, False)):
            return f"you {c.pick(('may', 'must'))} point your {token} token in any direction."
        return (f"if your {token} token points nowhere, you may point your {token} token in any direction.\n"
                f"  otherwise, you {c.pick(('may', 'must'))} point your {token} token nowhere.")
    if kind == "grant":
        guard = c.pick(("", f"if {past_pattern(c, 'one of your workers', 'this turn')}, "))
        return f"{guard}you may take an additional turn."
    if kind == "grow":
        where = c.pick(("a lowest unoccupied space neighboring the moved worker", "a lowest unoccupied perimeter space",
                        "an unoccupied space neighboring the moved worker", "a lowest unoccupied perimeter space"))
        placed = f"{c.pick(('if possible, you', 'you may', 'you'))} place your extra worker on {where}."
        if c.pick((True, False)):
            return placed
        return (f"if none of your workers neighbor each other, {placed}\n  otherwise, you "
                f"{c.pick(('must', 'may'))} return one of your workers to your card.")
    if kind == "swap":
        if c.pick((True, False)):
            return ("if none of an opponent's workers neighbor yours, your workers may swap spaces with that "
                    "opponent's workers.")
        return f"your workers {c.pick(('may', 'must'))} swap spaces with an opponent's workers."
    if kind == "flanked":
        return "if 2 of your workers neighbor an opponent worker on opposite sides, that opponent loses the game."
    if kind == "removal":
        return f"each opponent worker on {c.pick(SPACES)} is removed from the game and its space is built on."
    if kind == "token":
        return f"you may place your {fill(c, '{kind}')} token on an unoccupied space neighboring the moved worker."
    if kind == "extra":
        where = c.pick(("an unoccupied perimeter space", "any unoccupied space",
                        "an unoccupied space neighboring the moved worker"))
        return (f"you may place your extra worker on {where}"
                f"{c.pick(('', ', on the ground level', ', not on a perimeter space'))}.")
    verbs = ("build", "move", "remove", "force")
    modality = c.pick(("may ", "must "))
    if kind == "apart":
        actor = c.pick(("your unmoved worker", "the moved worker", "one of your workers"))
        return (f"if none of your workers neighbor each other, "
                f"{step(c, actor, modality, verbs, after_build=True, at_end=True)}.")
    if kind == "guarded":
        who = c.pick(("your unmoved worker", "the moved worker", "one of your workers"))
        stands = fill(c, c.pick(STANDS))
        return f"if {who} is {stands}, {step(c, 'it', modality, verbs, after_build=True, at_end=True)}."
    actor = c.pick(("your unmoved worker", "the moved worker", "one of your workers"))
    return step(c, actor, modality, verbs, after_build=True, at_end=True) + "."


def once_at_end(c: Chooser) -> str:
    """An end-of-turn step the player may take in one turn of the game."""
    actor = c.pick(("your unmoved worker", "the moved worker", "one of your workers"))
    if c.pick((True, False)):
        where = c.pick(("any unoccupied space", "an unoccupied perimeter space", "an unoccupied space"))
        return f"{actor} may build a dome at any level on {where}{c.pick(('', ' up to two times'))}."
    return step(c, actor, "may ", ("build", "move", "remove", "force"), after_build=True, at_end=True) + "."


def prohibition(c: Chooser, who: str = "opponent workers") -> str:
    """[if one of your workers ... on your last turn,] WHO cannot VERB {Q} {, Q}."""
    guard = f"if {past_pattern(c, 'one of your workers', 'on your last turn')}, " if c.pick((False, True)) else ""
    if c.pick((True, False)):
        said = filters(c, MOVE_PATTERN, 2, comma=False) or " up"
        return f"{guard}{who} cannot move{said}{filters(c, MOVE_FILTERS, 1)}."
    piece = c.pick(("", "", " a dome", " a block"))
    said = filters(c, BUILD_PATTERN, 2, comma=False)
    if not said and not piece:
        said = " on a perimeter space"
    return f"{guard}{who} cannot build{piece}{said}{filters(c, BUILD_FILTERS, 1)}."


def dome_like(c: Chooser, who: str) -> str:
    kind = fill(c, "{kind}")
    if c.pick((True, False)):
        return f"{who} treat spaces with your {kind} tokens as if they contain only a dome."
    return f"{who} treat the space with your {kind} token as if it contains only a dome."


def opponents_turn(c: Chooser) -> str:
    kind = c.pick(("prohibition", "veto", "obligation", "last move", "reaction", "tokens"))
    if kind == "prohibition":
        return prohibition(c)
    if kind == "veto":
        said = filters(c, MOVE_PATTERN, 2, comma=False) or " into a perimeter space"
        return f"opponent workers cannot win by moving{said}."
    if kind == "obligation":
        verb = c.pick(("move", "build"))
        said = filters(c, MOVE_PATTERN if verb == "move" else BUILD_PATTERN, 2, comma=False)
        return f"{c.pick(('if possible, ', ''))}at least one opponent worker must {verb}{said} this turn."
    if kind == "last move":
        started = c.pick(("on a space neighboring your workers", "on a perimeter space", "not on a perimeter space"))
        ended = c.pick(("to a space neighboring your workers", "to a perimeter space", "not to a perimeter space",
                        "into a space neighboring opponent workers"))
        return f"if an opponent worker starts its turn {started}, its last move must be {ended}."
    if kind == "reaction":
        return (f"each time an opponent worker moves{filters(c, MOVE_PATTERN, 1, comma=False)}, it is forced space by "
                "space in the same direction until the next space is higher or obstructed.")
    return dome_like(c, "opponent workers")


def at_all_times(c: Chooser) -> str:
    """A binding on every worker: a prohibition, tokens treated as domes, a win veto, or a reaction
    to anyone's move that makes its player lose (on some moves only: a filter is always said)."""
    kind = c.pick(("prohibition", "tokens", "veto", "loss"))
    if kind == "prohibition":
        return prohibition(c, c.pick(("opponent workers", "all workers", "all workers except your female worker")))
    if kind == "tokens":
        return dome_like(c, "all workers")
    said = filters(c, MOVE_PATTERN, 2, comma=False) or fill(c, " onto a space with your {kind} token")
    if kind == "veto":
        return f"all workers cannot win by moving{said}."
    return f"each time a worker moves{said}, its player loses the game."


def win(c: Chooser) -> str:
    guard = f"in a game of {fill(c, '{players}')} players, " if c.pick((False, False, True)) else ""
    if c.pick((True, True, False)):
        said = filters(c, MOVE_PATTERN, 3, comma=False) or " down two or more levels"
        return f"{guard}you also win if your worker moves{said}."
    return f"you also win when there are at least {fill(c, '{n15}')} complete towers on the board."


def setup(c: Chooser) -> str:
    return fill(c, c.pick((
        "you place {n13} workers.", "you place your workers first.", "you place your workers on perimeter spaces.",
        "you place your workers on opposite edges of the board.", "one of your workers is female.",
        "you have {n13} extra workers on your card.", "you place 3 workers.",
        "after all workers are placed, you secretly place your {kind} token on an unoccupied space.",
        "after all workers are placed, you place your {kind} token on an unoccupied perimeter space.",
    )))


def start_of_turn(c: Chooser) -> str:
    """A step on other workers before the turn's first: a force or a removal."""
    where = c.pick(("any unoccupied corner space", "any unoccupied perimeter space", "any unoccupied space",
                    "the space on the other side of it"))
    if c.pick((True, True, False)):
        if c.pick((True, False)):
            return f"your workers may force a neighboring opponent worker to {where} any number of times."
        return f"one of your workers may force a neighboring opponent worker to {where}."
    gap = fill(c, " standing exactly {n13} {levels} higher")
    return f"one of your workers may remove a neighboring opponent worker{gap}."


def part(c: Chooser) -> tuple[str, list[str]]:
    """One part of a card: a section's header and its sentences (the kinds in the order the shrinker
    prefers, the plainest first; the commoner ones twice)."""
    kind = c.pick(("your build", "your move", "opponent's turn", "your turn", "end of your turn", "win condition",
                   "your move", "opponent's turn", "alternative build", "alternative turn", "at all times",
                   "start of your turn", "setup", "end of your turn", "end of your turn"))
    if kind in ("your move", "your build"):
        verb = kind.split()[1]
        if c.pick((True, False)):
            once = c.pick((False, False, True))
            return f"{kind.title()}{' (once per game)' if once else ''}:", [option(c, verb, once)]
        return f"{kind.title()}:", [follow_up(c, verb)]
    if kind == "alternative build":
        once = c.pick((False, True))
        return f"Alternative Build{' (once per game)' if once else ''}:", [option(c, "build", once)]
    if kind == "your turn":
        return c.pick(("Your Turn:", "Your Turn:", "Your Turn (once per game):", "Your Turn (instead):")), program(c)
    if kind == "alternative turn":
        return c.pick(("Alternative Turn (optional):", "Alternative Turn (once per game):")), program(c)
    if kind == "end of your turn":
        if c.pick((False, False, True)):
            return "End of Your Turn (once per game):", [once_at_end(c)]
        return "End of Your Turn:", [end_of_turn(c)]
    if kind == "start of your turn":
        if c.pick((True, False)):
            return "Start of Your Turn:", [f"you gain {c.pick(('1 coin', '2 coins'))}."]
        return c.pick(("Start of Your Turn:", "Start of Your Turn (once per game):")), [start_of_turn(c)]
    if kind == "opponent's turn":
        return "Opponent's Turn:", [opponents_turn(c)]
    if kind == "at all times":
        return "At All Times:", [at_all_times(c)]
    if kind == "win condition":
        return c.pick(("Win Condition:", "Alternative Win Condition:")), [win(c)]
    return "Setup:", [setup(c)]


def companions(c: Chooser, parts: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """The parts that the drawn ones need to mean anything: a female worker's setup, an extra
    worker's reserve, a gain for a cost, a way to put tokens on the board for tokens treated as
    domes."""
    text = " ".join(s for _, sentences in parts for s in sentences)
    added: list[tuple[str, list[str]]] = []
    if "female worker" in text and "is female" not in text:
        added.append(("Setup:", ["one of your workers is female."]))
    if "your extra worker" in text and "on your card" not in text:
        count = fill(c, "{n13}")
        added.append(("Setup:", [f"you have {count} extra worker{'' if count == '1' else 's'} on your card."]))
    if "spending" in text and "you gain" not in text:
        added.append(("Start of Your Turn:", ["you gain 1 coin."]))
    if "additional turn" in text and c.pick((True, True, False)):  # (without the section: the usual turns)
        winless = c.pick((["no player can win during this turn."], []))
        added.append(("Additional Turn:", program(c) + winless))
    for kind in SLOTS["kind"]:
        pointing = (f"point your {kind} token", f"your {kind} token points",
                    f"against the direction of your {kind} token")
        if any(phrase in text for phrase in pointing[1:]) and pointing[0] not in text:
            added.append(("End of Your Turn:", [f"you may point your {kind} token in any direction."]))
        on_board = text
        for phrase in pointing:  # (a token that only points never goes on the board)
            on_board = on_board.replace(phrase, "")
        placed = f"a {kind} token is placed" in text or f"place your {kind} token" in text
        if f"your {kind} token" in on_board and not placed:
            if c.pick((True, False)):
                added.append(("Your Build:", [f"after your worker builds, a {kind} token is placed on its space, "
                                              "up to 3 times in the game."]))
            else:
                added.append(("End of Your Turn:", [f"you may place your {kind} token on an unoccupied space "
                                                    "neighboring the moved worker."]))
    return added


def rules_text(parts: list[tuple[str, list[str]]]) -> str:
    """The `rules:` text: each program its own section, sentences of the same other section together."""
    sections: list[tuple[str, list[str]]] = []
    for header, sentences in parts:
        same = next((s for h, s in sections if h == header), None)
        if same is not None and "Turn" not in header:
            same.extend(sentences)
        else:
            sections.append((header, list(sentences)))
    return "\n".join(f"{header}\n" + "\n".join(f"  {s}" for s in sentences) for header, sentences in sections)


def draw_rules(c: Chooser) -> str:
    parts = [part(c) for _ in range(c.number(1, 3))]
    return rules_text(parts + companions(c, parts))


def card_text(rules: str) -> str:
    """A whole card file around the rules (the name comes from them: two different random cards
    may meet in one game)."""
    name = "Random" + hashlib.sha1(rules.encode()).hexdigest()[:6]
    block = "\n".join("  " + line for line in rules.splitlines())
    return (f"name: {name}\ntitle: A random card\nkind: god\ntier: advanced\nplayers: [2, 3, 4]\nbans: []\n"
            f"summary: A card composed at random from the parts of the rule language.\n"
            f"text: {json.dumps(' '.join(rules.split()))}\nrules: |\n{block}\n")


# ---- the check and the bound ----------------------------------------------------------------------

#: Where the cards are written to be loaded as `santorini check` loads them (gone at exit).
_FOLDER = Path(tempfile.mkdtemp(prefix="random-cards-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)


@cache
def checked(text: str) -> tuple[Card | None, tuple[str, ...]]:
    """The card as `santorini check` loads it (schema, parse, check, compile), or its faults."""
    path = _FOLDER / f"{hashlib.sha1(text.encode()).hexdigest()[:16]}.yaml"
    path.write_text(text, encoding="utf-8")
    errors: list[SourceError] = []
    card = load_card(path, errors)
    return card, tuple(e.message for e in errors)


def load(text: str) -> Card:
    """The compiled card of a check-clean random card's text."""
    card, errors = checked(text)
    assert card is not None, errors
    return card


def pack_with(*cards: Card) -> Pack:
    """The base pack with these cards added (games of random cards against its cards)."""
    base = load_pack(BASE_PACK)
    return dataclasses.replace(base, cards={**base.cards, **{card.name: card for card in cards}})


def set_workers(game: Game, squares: Sequence[Sequence[int]]) -> GameState:
    """Put each team's workers on its squares (`squares[team]`), as setup would: the sexes its
    cards give, and the extra workers they keep on the card."""
    state = game.state
    placers = {state.seats[seat].team: seat for seat in reversed(range(len(state.seats)))}
    for team, where in enumerate(squares):
        setup = seat_setup(game, placers[team])
        for index, square in enumerate(where):
            kind, sex = worker_kind(setup, index)
            state.add_worker(team, len(state.members.get(team, ())) + 1, square, kind, sex)
    for team in range(len(squares)):
        add_reserve_workers(game, placers[team])
    return state


#: Two positions a card's turns are walked on for the bound: the standard opening squares on a flat
#: board, and a board of mixed levels (rows 5 to 1).
PROBES = (
    ("0 0 0 0 0\n" * 5, ("b3", "d3"), ("c4", "c2")),
    ("0 1 2 3 0\n1 2 0 1 2\n2 0 1 0 3\n3 1 0 2 1\n0 2 1 0 0\n", ("b2", "d4", "c3"), ("b4", "d2", "e3")),
)


class _OverBudget(Exception):
    pass


def walk_cost(engine: Engine, state: GameState, budget: int) -> int | None:
    """Steps the generic chain applies to walk every turn of the seat to move (perft 1), or None
    past `budget`."""
    count = 0

    def probe(walk: Walk) -> None:
        nonlocal count
        count += 1
        if count > budget:
            raise _OverBudget

    walk = Walk(state, lambda walk: False)
    walk.probe = probe
    try:
        engine._roots[state.to_move](walk)
    except _OverBudget:
        return None
    return count


def within_budget(card: Card, budget: int = NODE_BUDGET) -> bool:
    """Whether the card's turns, and its opponent's under its bindings, can be walked within
    `budget` steps on each probe position (the card against a Mortal)."""
    pack = pack_with(card)
    for seats in ((card.name, MORTAL), (MORTAL, card.name)):
        game = new_game(pack, parse_players(list(seats)))
        generic = Engine(pack.base.power, [[c.power for c in seat] for seat in game.cards], fast=False,
                         if_possible=pack.if_possible)
        for board, *teams in PROBES:
            state = game.restart().state
            heights = [int(h) for row in reversed(board.split("\n")[:5]) for h in row.split()]
            for square, height in enumerate(heights):
                state.set_height(square, height)
            squares = [[parse_square(s) for s in team] for team in teams]
            counts = [seat_setup(game, team).count for team in range(2)]  # (seat i is team i)
            set_workers(dataclasses.replace(game, state=state),
                        [where[:n] for where, n in zip(squares, counts, strict=True)])
            for seat in (0, 1):
                state.to_move = seat
                if walk_cost(generic, state, budget) is None:
                    return False
    return True


@cache
def usable(text: str) -> bool:
    """Check-clean, and within the bound (see the module's docstring)."""
    card, _ = checked(text)
    return card is not None and within_budget(card)


# ---- the two doors --------------------------------------------------------------------------------

def random_card(rng: random.Random) -> str:
    """The YAML text of a check-clean random card within the bound, drawn from `rng`."""
    c = RandomChooser(rng)
    for _ in range(ATTEMPTS):
        text = card_text(draw_rules(c))
        if usable(text):
            return text
    raise RuntimeError(f"no usable card in {ATTEMPTS} draws")


@st.composite
def cards(draw: Callable) -> str:
    """A hypothesis strategy of check-clean random cards' YAML texts within the bound (an example
    with none in `ATTEMPTS` draws is rejected)."""
    c = DrawChooser(draw)
    for _ in range(ATTEMPTS):
        text = card_text(draw_rules(c))
        if usable(text):
            return text
    reject()


# ---- what the cards reach -------------------------------------------------------------------------

def reached(value: object) -> set[str]:
    """The vocabulary a compiled card (or any part) uses: the name of every typed part in it
    ('Prohibition', 'Near') and every kind ('Verb.FORCE', 'Role.UNMOVED'), with a few facts that
    are fields rather than types ('instead', 'cannot win', 'once per game', 'cost', 'guard')."""
    found: set[str] = set()

    def visit(item: object) -> None:
        if isinstance(item, Enum):
            found.add(f"{type(item).__name__}.{item.name}")
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            name = type(item).__name__
            if name == "Where":
                return
            found.add(name)
            for field in dataclasses.fields(item):
                inner = getattr(item, field.name)
                if field.name in ("instead", "once_per_game", "if_possible", "replaces", "lowest", "additional",
                                  "winless") and inner:
                    found.add(f"{name}.{field.name}")
                if field.name == "can_win" and not inner:
                    found.add("Step.cannot win")
                if field.name in ("cost", "guard", "when", "otherwise") and inner:
                    found.add(f"{name}.{field.name}")
                visit(inner)
        elif isinstance(item, (list, tuple)):
            for inner in item:
                visit(inner)

    visit(value)
    return found


def vocabulary() -> set[str]:
    """Every typed part and kind of dsl/vocabulary, named as `reached` names them."""
    from santorini.dsl import vocabulary as v
    names: set[str] = set()
    for name in v.__all__ if hasattr(v, "__all__") else dir(v):
        item = getattr(v, name)
        if isinstance(item, type) and issubclass(item, Enum):
            names |= {f"{item.__name__}.{member.name}" for member in item}
        elif isinstance(item, type) and dataclasses.is_dataclass(item) and item.__name__ != "Where":
            names.add(item.__name__)
    return names
