"""Counting a turn's distinct outcomes without listing them, and finding the one at an index.

A random player draws one of the turn's distinct outcomes uniformly, in the order the listing
finds them (the first turn found for each). Listing builds one turn and one key per outcome;
most of a turn's outcomes differ only in its last build. So where the derived code would key a
last build by hash arithmetic, it gives the tally the squares that build may take, as bits,
once per worker and way to it (steps.py): block outcomes `B`, dome outcomes `D`. The tally counts
them by popcount and keeps one record per (way to the build, worker); the draw decodes only the
record its index falls in. Every other outcome (a win, a turn whose last step is no keyed build)
comes to the leaf, and the tally keeps it by its key, as the listing does.

Two outcomes are the same when their states are. The tally tells them apart without keys where
it can prove that they differ:

* a *pure* way to the build changed no piece and no token (only moves, forces, marks, counters):
  all its outcomes have the turn's start board plus one piece. Two pure ways in different states
  then have different outcomes (their states differ off the board, a build changes only the
  board), so the outcomes of a pure way are new unless the same state was reached before (two
  ways to one position): those are merged by bits, per state.
* a *built* way made a build before (and took no piece off): its outcomes have two pieces more
  than the start, so none is a pure way's; they are keyed one by one, against the other keyed
  outcomes.
* anything else (a piece taken off, a token placed before the build), or an outcome at the leaf
  that is no win while pure ways were merged by bits: the tally gives up (`exact` false) and the
  engine lists the turn instead. Exact, never approximate.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import NamedTuple, cast

from ..chain.walk import Walk
from ..model.board import ZOBRIST
from ..model.state import GameState, token_key

#: A step of a turn ('build', worker, square) and an event of one, as the engine writes them.
Step = tuple[object, ...]
Event = tuple[object, ...]
#: The tokens on the board: square -> (kind, holder).
Tokens = dict[int, tuple[str, int]]

#: The events that change no piece and no token.
_OFF_BOARD = frozenset({"move", "force", "mark", "counter", "use", "place", "remove"})
#: The events a built way may hold besides those: builds, and the tokens they take off.
_BUILT = frozenset({"build", "token"})
_BUILD_KEYS, _DOME_KEYS = ZOBRIST.build, ZOBRIST.dome


#: How the turn so far changed the board, for the tally: not at all, by builds only, otherwise.
PURE, BUILT, OTHER = 0, 1, 2


def prefix_kind(events: Sequence[Event]) -> int:
    """PURE, BUILT or OTHER for the turn's events so far (see the module docstring)."""
    kinds = {event[0] for event in events}
    if kinds <= _OFF_BOARD:
        return PURE
    return BUILT if "build" in kinds and kinds <= _OFF_BOARD | _BUILT else OTHER


#: The events a taking of end-of-turn steps may hold for `Tally.collect`: what changes no
#: unoccupied space (moves, forces, removals, marks, counters) and blocks taken off a space a
#: worker stands on.
_TAKEN = _OFF_BOARD | {"unbuild"}
#: A taking of end-of-turn steps found by `Tally.collect`: its steps, its events, and the key of
#: the state it leaves.
Taking = tuple[tuple[Step, ...], tuple[Event, ...], int]


class Ended(NamedTuple):
    """A record of the tally for a keyed last build followed by takings of end-of-turn steps
    (`Tally.ended`): the turn before the build, its worker, the squares where a block comes
    first, the takings, and per taking the squares of its new block and dome outcomes."""

    path: tuple[Step, ...]
    events: tuple[Event, ...]
    worker: int
    blocks_first: int
    takings: tuple[Taking, ...]
    news: tuple[tuple[int, int], ...]


#: One record of the tally: the outcomes of one way to a keyed last build for one worker, or
#: one outcome found at the leaf (blocks None): (path, events, step, event, worker, blocks, domes,
#: blocks first, heights, tokens, won). `path` and `events`: the turn before the build, but for a
#: last move the derived code did not make (`step` and `event`, None when there is none);
#: `heights` and `tokens`: the board before the build where it is not the turn's start (None).
#: The length of a record of the fused count (steps.py): (path, events, worker, origin, target,
#: origin's level, target's level, blocks, domes, blocks first), the move's step and event made
#: only for the record drawn.
FUSED = 10
Record = tuple[tuple[Step, ...], tuple[Event, ...], Step | None, Event | None, int, int | None, int, int,
               tuple[int, ...] | None, Tokens | None, bool] | Ended


class Tally:
    """The distinct outcomes of one turn, counted (see the module docstring)."""

    __slots__ = ("records", "starts", "total", "keys", "groups", "exact", "pure", "loose", "takings", "collecting")

    def __init__(self) -> None:
        #: The records in the turn's order (a fused count's are shorter: FUSED).
        self.records: list[Record] = []
        #: Where each record's outcomes start in the turn's order.
        self.starts: list[int] = []
        self.total = 0
        #: The keys of the outcomes kept one by one.
        self.keys: set[int] = set()
        #: The outcomes merged by bits, per state before the build: [blocks, domes] seen.
        self.groups: dict[int, list[int]] = {}
        self.exact = True
        #: Whether some pure way was merged by bits; whether some leaf outcome is no win.
        self.pure = False
        self.loose = False
        #: The takings of the end-of-turn steps after the last build being counted, found before
        #: it (`collect`): each build's outcomes are then one per taking (`ended`).
        self.takings: tuple[Taking, ...] | None = None
        #: While `collect` looks for them, the turns found at the leaf.
        self.collecting: list[tuple[tuple[Step, ...], tuple[Event, ...], int, bool]] | None = None

    def builds(self, walk: Walk, now: int, worker: int, blocks: int, domes: int, blocks_first: int,
               tokens: Tokens | None) -> None:
        """The outcomes of the keyed last build `worker` may make here: on the squares `blocks`
        (a block) and `domes` (a dome). `now`: the state's key before the build (with the facts
        of the turn); `tokens`: the tokens whose removal the keys count, as the listing's do."""
        if self.takings is not None:
            self.ended(walk, worker, blocks, domes, blocks_first)
            return
        events = walk.events
        self.after(prefix_kind(events), tuple(walk.path), tuple(events), None, None, walk.state, now, worker, blocks,
                   domes, blocks_first, tokens)

    def collect(self, walk: Walk, then: Callable[[Walk], bool]) -> bool:
        """Before a last build whose end-of-turn steps (`then`) take what no build changes
        (derived/steps.py: `settled`): find their takings from here, each as its steps, events
        and the key of the state it leaves (the build's piece left out), and keep them for the
        build's count (`takings`). False, keeping none, where the turn so far changed the
        board, or a taking wins or changes more than workers and the levels under them: the
        build's outcomes are then found one by one."""
        if prefix_kind(walk.events) != PURE:
            return False
        depth, told = len(walk.path), len(walk.events)
        found: list[tuple[tuple[Step, ...], tuple[Event, ...], int, bool]] = []
        visited, self.collecting, walk.visited = walk.visited, found, set()
        try:
            then(walk)
        finally:
            self.collecting, walk.visited = None, visited
        takings = []
        for path, events, key, won in found:
            added = events[told:]
            if won or not all(event[0] in _TAKEN for event in added):
                return False
            takings.append((path[depth:], added, key))
        self.takings = tuple(takings)
        return True

    def merged(self, now: int, blocks: int, domes: int) -> tuple[int, int]:
        """The block and dome outcomes on the squares `blocks` and `domes` of the state keyed
        `now` that no earlier outcome of that state holds; they are held from now on."""
        seen = self.groups.get(now)
        if seen is None:
            self.groups[now] = [blocks, domes]
            return blocks, domes
        blocks, domes = blocks & ~seen[0], domes & ~seen[1]
        seen[0] |= blocks
        seen[1] |= domes
        return blocks, domes

    def ended(self, walk: Walk, worker: int, blocks: int, domes: int, blocks_first: int) -> None:
        """The outcomes of the keyed last build `worker` may make here, each followed by each
        of the `takings`: merged by bits per taking, under the key of the state the taking
        leaves (a taking changes no unoccupied space: each outcome is that state and the
        build's piece, the only piece the turn adds)."""
        assert self.takings is not None
        news: list[tuple[int, int]] = []
        count = 0
        for _, _, key in self.takings:
            new_blocks, new_domes = self.merged(key, blocks, domes)
            news.append((new_blocks, new_domes))
            count += new_blocks.bit_count() + new_domes.bit_count()
        if count:
            self.pure = True
            self.starts.append(self.total)
            self.records.append(Ended(tuple(walk.path), tuple(walk.events), worker, blocks_first, self.takings,
                                      tuple(news)))
            self.total += count

    def after(self, kind: int, path: tuple[Step, ...], events: tuple[Event, ...], step: Step | None,
              event: Event | None, st: GameState, now: int, worker: int, blocks: int, domes: int,
              blocks_first: int, tokens: Tokens | None) -> None:
        """`builds`, for a turn given as its path and events so far (`kind`: prefix_kind of
        them), and a last move not made (`step` and `event`, or None): the derived code calls it
        for the build after a move whose state it did not make (steps.py, which also writes the
        pure case inline)."""
        if kind == PURE:
            blocks, domes = self.merged(now, blocks, domes)
            count = blocks.bit_count() + domes.bit_count()
            if count:
                self.pure = True
                self.starts.append(self.total)
                self.records.append((path, events, step, event, worker, blocks, domes, blocks_first, None, None, False))
                self.total += count
            return
        if kind == OTHER:
            self.exact = False
            return
        # (a record's outcomes are told apart by their squares and pieces, so the order they are
        # keyed in does not matter: the domes, then the blocks)
        keys, heights = self.keys, st.heights
        held = tokens or None
        new_blocks = new_domes = 0
        squares = domes
        while squares:
            bit = squares & -squares
            squares ^= bit
            square = bit.bit_length() - 1
            key = now ^ _DOME_KEYS[square]
            if held is not None and square in held:
                key ^= token_key(square, *held[square])
            if key not in keys:
                keys.add(key)
                new_domes |= bit
        squares = blocks
        while squares:
            bit = squares & -squares
            squares ^= bit
            square = bit.bit_length() - 1
            key = now ^ _BUILD_KEYS[square][heights[square]]
            if held is not None and square in held:
                key ^= token_key(square, *held[square])
            if key not in keys:
                keys.add(key)
                new_blocks |= bit
        count = new_blocks.bit_count() + new_domes.bit_count()
        if count:
            self.starts.append(self.total)
            self.records.append((path, events, step, event, worker, new_blocks, new_domes, blocks_first,
                                 tuple(heights), dict(st.tokens), False))
            self.total += count

    def leaf(self, walk: Walk, key: int) -> None:
        """An outcome found at the leaf, with its key. One that is the start's board and one
        piece more (`one_piece`) is merged with the pure ways' outcomes by bits, under the key
        of its state without that piece (the same arithmetic as theirs); one with no piece or
        with more, and builds alone, is none of theirs; any other may be one of theirs (`loose`)."""
        if self.collecting is not None:
            self.collecting.append((tuple(walk.path), tuple(walk.events), key, walk.state.winner is not None))
            return
        if key in self.keys:
            return
        self.keys.add(key)
        won = walk.state.winner is not None
        piece = None if won else one_piece(walk.events)
        if piece is None:
            self.loose = self.loose or not (won or only_builds(walk.events))
        else:
            square, dome, level = piece
            bit = 1 << square
            seen = self.groups.setdefault(key ^ (_DOME_KEYS[square] if dome else _BUILD_KEYS[square][level]), [0, 0])
            if seen[dome] & bit:
                return
            seen[dome] |= bit
        self.starts.append(self.total)
        self.records.append((tuple(walk.path), tuple(walk.events), None, None, -1, None, 0, 0, None, None, won))
        self.total += 1

    def counted(self) -> bool:
        """Whether the count is exact (else the engine lists the turn)."""
        return self.exact and not (self.pure and self.loose)

    def turn(self, index: int, heights: Sequence[int],
             tokens: Tokens) -> tuple[tuple[Step, ...], tuple[Event, ...] | None]:
        """The steps of the outcome at `index` and its events (None for a win, which the engine
        plays step by step). `heights` and `tokens`: the state's, as the turn starts."""
        at = bisect_right(self.starts, index) - 1
        record = self.records[at]
        if isinstance(record, Ended):
            square, dome, taking = nth_ended(index - self.starts[at], record.blocks_first, record.news)
            verb, built = build_events(record.worker, square, dome, heights, tokens)
            steps, events, _ = record.takings[taking]
            return ((*record.path, (verb, record.worker, square), *steps), (*record.events, *built, *events))
        step: Step | None
        event: Event | None
        if len(record) == FUSED:  # (a build after a move not made, written by steps.py's fused count)
            path, events, worker, origin, target, here, there, blocks, domes, blocks_first = record  # type: ignore[misc]
            step, event = ("move", worker, target), ("move", worker, origin, target, here, there)
            held_heights, held_tokens, won = None, None, False
        else:
            path, events, step, event, worker, blocks, domes, blocks_first, held_heights, held_tokens, won = record
        if blocks is None:
            return path, (None if won else events)
        square, dome = nth_build(index - self.starts[at], blocks, domes, blocks_first)
        if step is not None and event is not None:
            path, events = (*path, step), (*events, event)
        verb, built = build_events(worker, square, dome, held_heights or heights,
                                   held_tokens if held_tokens is not None else tokens)
        return (*path, (verb, worker, square)), events + built


def nth_ended(index: int, blocks_first: int, news: Sequence[tuple[int, int]]) -> tuple[int, bool, int]:
    """The outcome at `index` of an `Ended` record, in the listing's order: square by square,
    its block and its dome in the order `blocks_first` says, each followed by each taking whose
    new outcomes (`news`: blocks, domes) hold it: (its square, whether a dome, the taking)."""
    squares = 0
    for new_blocks, new_domes in news:
        squares |= new_blocks | new_domes
    while squares:
        bit = squares & -squares
        squares ^= bit
        for dome in ((False, True) if blocks_first & bit else (True, False)):
            for taking, (new_blocks, new_domes) in enumerate(news):
                if (new_domes if dome else new_blocks) & bit:
                    if not index:
                        return bit.bit_length() - 1, dome, taking
                    index -= 1
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these outcomes


def one_piece(events: Sequence[Event]) -> tuple[int, int, int] | None:
    """For a turn whose events change the board by one build alone (the rest off the board):
    its square, 1 for a dome (else 0) and the level it was built on; else None."""
    found = None
    for event in events:
        kind = event[0]
        if kind == "build":
            if found is not None:
                return None
            square, level, dome = cast("tuple[int, int, bool]", event[2:5])
            found = (square, int(dome), level if dome else level - 1)
        elif kind not in _OFF_BOARD:
            return None
    return found


def only_builds(events: Sequence[Event]) -> bool:
    """Whether the events change the board by builds alone, and by no build or more than one:
    such a turn's board is not the start's with one piece more (a pure way's outcome)."""
    builds = 0
    for event in events:
        kind = event[0]
        if kind == "build":
            builds += 1
        elif kind not in _OFF_BOARD:
            return False
    return builds != 1


def nth_build(index: int, blocks: int, domes: int, blocks_first: int) -> tuple[int, bool]:
    """The build at `index` among the outcomes of the squares `blocks` (a block) and `domes` (a
    dome), in the listing's order: square by square, a square in both giving its block first
    where `blocks_first` has it: (its square, whether it is a dome)."""
    squares = blocks | domes
    if not blocks & domes:  # (one outcome a square: the index-th square)
        for _ in range(index):
            squares &= squares - 1
        bit = squares & -squares
        if not bit:  # pragma: no cover - the counts say the index is in these squares
            raise IndexError(index)
        return bit.bit_length() - 1, bool(domes & bit)
    while squares:
        bit = squares & -squares
        squares ^= bit
        both = blocks & domes & bit
        if index >= (2 if both else 1):
            index -= 2 if both else 1
            continue
        return bit.bit_length() - 1, (index == 1) == bool(blocks_first & bit) if both else bool(domes & bit)
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these squares


def build_events(worker: int, square: int, dome: bool, heights: Sequence[int],
                 tokens: Tokens) -> tuple[str, tuple[Event, ...]]:
    """The step's verb and the events of a build of `worker` on `square` (a dome or a block), as
    effects.apply_build writes them: with the token it takes off."""
    level = heights[square]
    verb = "dome" if dome and level < 3 else "build"
    built: tuple[Event, ...] = (("build", worker, square, level + (not dome), dome),)
    held = tokens.get(square)
    if held is not None:
        built += (("token", held[1], held[0], square, -1),)
    return verb, built

__all__ = ["BUILT", "OTHER", "PURE", "Ended", "Record", "Tally", "Taking", "build_events", "nth_build", "nth_ended",
           "one_piece", "only_builds", "prefix_kind"]
