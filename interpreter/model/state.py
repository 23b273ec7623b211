"""Game state: the board, the workers, the seats, and the log of the turns played.

The state is flat and mutable on purpose: the interpreter searches a turn by applying each step
and undoing it (no copies), and keeps a Zobrist hash up to date on every change, so comparing two
outcomes is comparing two integers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any

from ...dsl.vocabulary import Counter, Sex
from .board import ALL_BITS, HASH_BITS, LEVEL_BIT, SQUARE_BITS, SQUARES, ZOBRIST

_WORKER_KEYS, _HEIGHT_KEYS = ZOBRIST.worker, ZOBRIST.height
#: SQUARE_BITS with a 0 at the end, so that a worker's position -1 (off the board) gives no bit.
BIT_AT = SQUARE_BITS + (0,)

#: Event kinds of the turn log, as the first item of each event tuple.
#: ("move", worker, from, to, from_height, to_height) ("force", worker, from, to)
#: ("build", worker, square, new_height, dome) ("unbuild", worker, square, new_height) ("use", -1, name)
#: ("mark", seat, name): a once-per-game power used; ("remove", worker, square): a worker leaves
#: the game (("remove", worker, square, True): for its card, from where it may enter again);
#: ("lose", team): a team loses and leaves the game; ("counter", seat, name, value);
#: ("token", seat, kind, from_square, to_square): a token placed (from -1: the card) or taken off (to -1)
Event = tuple[Any, ...]
#: A step of a turn, as the engine lists and plays it: (verb, worker, square), as ("move", worker,
#: square), ("build", worker, square), ("dome", worker, square); ("use", -1, name), ("pass", -1, -1),
#: ("token", kind, square) (chain/walk.py, model/notation.py).
Action = tuple[str, Any, Any]
#: The counter of the additional turns a seat is owed.
OWED_TURNS = Counter.ADDITIONAL_TURN.value
#: A token on the board: its kind and the seat that holds it.
BoardToken = tuple[str, int]


@dataclass(frozen=True)
class Seat:
    """A player: a seat letter, the team it plays for, and the powers it holds."""

    letter: str
    team: int
    powers: tuple[str, ...]


class TurnRecord(tuple[Any, ...]):
    """A turn as the log keeps it, `TurnRecord((seat, steps, events))`: who played, the steps,
    and what happened, read by name. One is made for every turn played and every node of a
    perft, so it is a tuple made by tuple's own constructor: a named tuple's costs twice as
    much, through a constructor written in Python."""

    __slots__ = ()
    seat = property(itemgetter(0), doc="The seat that played (int).")
    steps = property(itemgetter(1), doc="The turn's steps (a tuple of actions).")
    events = property(itemgetter(2), doc="What the turn changed (a tuple of events).")

    def __repr__(self) -> str:
        return f"TurnRecord(seat={self[0]!r}, steps={self[1]!r}, events={self[2]!r})"


@dataclass
class GameState:
    """Everything a rule may read. Teams own workers; seats take turns."""

    seats: list[Seat]
    team_letters: list[str]
    heights: list[int] = field(default_factory=lambda: [0] * len(SQUARES))
    domes: list[bool] = field(default_factory=lambda: [False] * len(SQUARES))
    occupant: list[int] = field(default_factory=lambda: [-1] * len(SQUARES))
    #: 1 where a worker or a dome stands: derived from occupant and domes, kept up to date by
    #: every change because the commonest question of a search is "is this space free?".
    blocked: list[int] = field(default_factory=lambda: [0] * len(SQUARES))
    worker_pos: list[int] = field(default_factory=list)
    worker_team: list[int] = field(default_factory=list)
    worker_number: list[int] = field(default_factory=list)
    worker_class: list[int] = field(default_factory=list)
    #: Each worker's sex (a dsl.vocabulary Sex), or None where no power tells workers apart.
    worker_sex: list[Sex | None] = field(default_factory=list)
    worker_names: list[str] = field(default_factory=list)
    #: team -> its workers, on the board or not (the hot loops skip those at position -1).
    members: dict[int, tuple[int, ...]] = field(default_factory=dict)
    to_move: int = 0
    winner: int | None = None
    out: set[int] = field(default_factory=set)
    history: list[TurnRecord] = field(default_factory=list)
    hash: int = 0
    #: The domed squares as bits (bit n for square n), kept by set_dome: with the workers'
    #: positions it gives `blocked` as one integer without a pass over the board.
    dome_bits: int = 0
    #: The squares of each level as bits, all levels in one number (board.LEVEL_BIT), kept by
    #: set_height: what the counting pickers read instead of the heights (every square is on
    #: level 0 at first).
    level_field: int = ALL_BITS
    #: Marks on the cards, (seat, name): a once-per-game power used. Part of the hash, since a
    #: later rule reads them.
    marks: set[tuple[int, str]] = field(default_factory=set)
    #: Counters on the cards, (seat, name) -> value (coins). Part of the hash.
    counters: dict[tuple[int, str], int] = field(default_factory=dict)
    #: Tokens on the board: square -> (kind, holder seat). Part of the hash.
    tokens: dict[int, BoardToken] = field(default_factory=dict)
    #: Workers waiting on their card (off the board, not out of the game).
    reserve: set[int] = field(default_factory=set)

    # ---- workers
    def add_worker(self, team: int, number: int, square: int, kind: int = 0, sex: Sex | None = None) -> int:
        """Put a new worker on the board; returns its index. Workers of one team with the same
        `kind` are interchangeable in outcomes; a sex makes a kind of its own."""
        index = self._new_worker(team, number, kind, sex)
        self.place(index, square)
        return index

    def add_reserve_worker(self, team: int, number: int, kind: int = 0, sex: Sex | None = None) -> int:
        """A worker that waits on its card until a rule places it."""
        index = self._new_worker(team, number, kind, sex)
        self.reserve.add(index)
        return index

    def _new_worker(self, team: int, number: int, kind: int, sex: Sex | None) -> int:
        """A new worker of the team, off the board; returns its index."""
        index = len(self.worker_pos)
        self.worker_pos.append(-1)
        self.worker_team.append(team)
        self.worker_number.append(number)
        self.worker_class.append(team * 2 + kind)
        self.worker_sex.append(sex)
        self.worker_names.append(f"{self.team_letters[team]}{number}")
        self.members[team] = (*self.members.get(team, ()), index)
        return index

    def place(self, worker: int, square: int) -> None:
        self.worker_pos[worker] = square
        self.occupant[square] = worker
        self.blocked[square] = 1
        self.hash ^= ZOBRIST.worker[self.worker_class[worker]][square]

    def lift(self, worker: int) -> None:
        square = self.worker_pos[worker]
        self.occupant[square] = -1
        self.blocked[square] = self.domes[square]
        self.worker_pos[worker] = -1
        self.hash ^= ZOBRIST.worker[self.worker_class[worker]][square]

    def relocate(self, worker: int, square: int) -> None:
        """Move or force a worker (no rule checks: the interpreter made them). The square left
        is only cleared if this worker still holds it, so a swap can be made in either order."""
        keys = _WORKER_KEYS[self.worker_class[worker]]
        old = self.worker_pos[worker]
        occupant = self.occupant
        if occupant[old] == worker:
            occupant[old] = -1
            self.blocked[old] = self.domes[old]
        occupant[square] = worker
        self.blocked[square] = 1
        self.worker_pos[worker] = square
        self.hash ^= keys[old] ^ keys[square]

    def worker_name(self, worker: int) -> str:
        return self.worker_names[worker]

    def worker_by_name(self, name: str) -> int:
        """The index of worker 'A1'; ValueError naming the workers there are."""
        for index in range(len(self.worker_pos)):
            if self.worker_name(index).lower() == name.strip().lower():
                return index
        known = ", ".join(self.worker_name(i) for i in range(len(self.worker_pos))) or "none"
        raise ValueError(f"there is no worker '{name}' (workers: {known})")

    def team_workers(self, team: int) -> list[int]:
        """The team's workers on the board."""
        position = self.worker_pos
        return [w for w in self.members.get(team, ()) if position[w] >= 0]

    # ---- buildings
    def set_height(self, square: int, height: int) -> None:
        keys, levels = _HEIGHT_KEYS[square], LEVEL_BIT[square]
        old = self.heights[square]
        self.hash ^= keys[old] ^ keys[height]
        self.level_field ^= levels[old] ^ levels[height]
        self.heights[square] = height

    def set_dome(self, square: int, dome: bool) -> None:
        if self.domes[square] != dome:
            self.domes[square] = dome
            self.blocked[square] = dome or self.occupant[square] >= 0
            self.hash ^= ZOBRIST.dome[square]
            self.dome_bits ^= SQUARE_BITS[square]

    def blocked_bits(self) -> int:
        """`blocked` as bits: the domes and the squares of the workers on the board."""
        bits = self.dome_bits
        for square in self.worker_pos:
            bits |= BIT_AT[square]
        return bits

    def eliminate(self, team: int) -> tuple[list[tuple[int, int]], list[tuple[int, BoardToken]]]:
        """A team loses and leaves the game: its seats are out, and its workers and the tokens its
        seats hold leave the board. Returns what was taken off (to undo it in a search)."""
        seats = {i for i, seat in enumerate(self.seats) if seat.team == team}
        self.out.update(seats)
        lifted = [(w, self.worker_pos[w]) for w in self.team_workers(team)]
        for worker, _ in lifted:
            self.lift(worker)
        tokens = [(square, token) for square, token in self.tokens.items() if token[1] in seats]
        for square, _ in tokens:
            self.set_token(square, None)
        return lifted, tokens

    def restore(self, taken: tuple[list[tuple[int, int]], list[tuple[int, BoardToken]]], out: set[int]) -> None:
        """Undo `eliminate`: the team's workers and tokens back where they were, the seats out as
        before."""
        lifted, tokens = taken
        for worker, square in lifted:
            self.place(worker, square)
        for square, token in tokens:
            self.set_token(square, token)
        self.out = set(out)

    # ---- card state
    def set_mark(self, seat: int, name: str, on: bool) -> None:
        """Put a mark on a seat's card, or take it off."""
        key = (seat, name)
        if (key in self.marks) != on:
            if on:
                self.marks.add(key)
            else:
                self.marks.discard(key)
            self.hash ^= mark_key(seat, name)

    def set_counter(self, seat: int, name: str, value: int) -> None:
        """Set a counter on a seat's card (a counter at 0 is no counter)."""
        old = self.counters.get((seat, name), 0)
        if old != value:
            self.hash ^= counter_key(seat, name, old) ^ counter_key(seat, name, value)
            if value:
                self.counters[(seat, name)] = value
            else:
                self.counters.pop((seat, name), None)

    def set_token(self, square: int, token: BoardToken | None) -> None:
        """Put a token (kind, holder seat) on a square, or take the square's token away (None)."""
        old = self.tokens.get(square)
        if old == token:
            return
        if old is not None:
            self.hash ^= token_key(square, *old)
            del self.tokens[square]
        if token is not None:
            self.hash ^= token_key(square, *token)
            self.tokens[square] = token

    # ---- turns
    def outcome_key(self) -> int:
        """Identity of the state as a turn outcome (spec: 'Outcomes')."""
        return self.hash if self.winner is None else self.hash ^ ZOBRIST.winner[self.winner]

    def next_seat(self, seat: int) -> int:
        """The seat that moves after `seat`'s turn: `seat` again while it is owed an additional
        turn (its card's counter OWED_TURNS), else the next seat in play (seats that lost are
        skipped)."""
        if self.counters and self.counters.get((seat, OWED_TURNS), 0) > 0 and seat not in self.out:
            return seat
        count = len(self.seats)
        if not self.out:
            return (seat + 1) % count
        for step in range(1, count + 1):
            candidate = (seat + step) % count
            if candidate not in self.out:
                return candidate
        return seat

    def teams_in_play(self) -> set[int]:
        return {self.seats[s].team for s in range(len(self.seats)) if s not in self.out}

    def copy(self) -> GameState:
        """An independent copy (seats and the turn log's records are immutable and shared)."""
        return self._cloned(self.history[:])

    def fork(self) -> GameState:
        """A copy to come back to within one turn's search: the turn log itself is shared (a
        search never adds to it)."""
        return self._cloned(self.history)

    def _cloned(self, history: list[TurnRecord]) -> GameState:
        clone = object.__new__(GameState)
        clone.__dict__.update(self.__dict__)
        clone.heights = self.heights[:]
        clone.domes = self.domes[:]
        clone.occupant = self.occupant[:]
        clone.blocked = self.blocked[:]
        clone.worker_pos = self.worker_pos[:]
        clone.worker_team = self.worker_team[:]
        clone.worker_number = self.worker_number[:]
        clone.worker_class = self.worker_class[:]
        clone.worker_sex = self.worker_sex[:]
        clone.worker_names = self.worker_names[:]
        clone.members = dict(self.members)
        clone.history = history
        clone.out = set(self.out)
        clone.marks = set(self.marks)
        clone.counters = dict(self.counters)
        clone.tokens = dict(self.tokens)
        clone.reserve = set(self.reserve)
        return clone

    def _repr_svg_(self) -> str:
        """The board as a picture in Jupyter, the last turn played marked (svg.py draws it; imported
        here, not at the top, so that a search that never shows a state never loads it)."""
        from .svg import board_svg
        return board_svg(self, last_turn=self.history[-1] if self.history else None)


@lru_cache(maxsize=65536)  # (a digest per change of a card's state costs more than the rest of it)
def mark_key(seat: int, name: str) -> int:
    """The hash key of a mark on a card: the same in every process (no salted hash())."""
    digest = hashlib.blake2b(f"{seat}:{name}".encode(), digest_size=HASH_BITS // 8).digest()
    return int.from_bytes(digest, "little")


@lru_cache(maxsize=65536)
def token_key(square: int, kind: str, seat: int) -> int:
    """The hash key of a token on a square."""
    digest = hashlib.blake2b(f"{square}:{kind}:{seat}".encode(), digest_size=HASH_BITS // 8).digest()
    return int.from_bytes(digest, "little")


@lru_cache(maxsize=65536)
def counter_key(seat: int, name: str, value: int) -> int:
    """The hash key of a counter's value (0 for none, so that an absent counter hashes as 0)."""
    if not value:
        return 0
    digest = hashlib.blake2b(f"{seat}:{name}={value}".encode(), digest_size=HASH_BITS // 8).digest()
    return int.from_bytes(digest, "little")


def apply_events(state: GameState, events: tuple[Event, ...]) -> None:
    """Replay a turn's event log on a state: the log says everything a turn changed."""
    for event in events:
        kind = event[0]
        if kind == "move" or kind == "force":
            state.relocate(event[1], event[3])
        elif kind == "build":
            if event[4]:
                state.set_dome(event[2], True)
            else:
                state.set_height(event[2], event[3])
        elif kind == "unbuild":
            state.set_height(event[2], event[3])
        elif kind == "mark":
            state.set_mark(event[1], event[2], True)
        elif kind == "counter":
            state.set_counter(event[1], event[2], event[3])
        elif kind == "token":
            _, seat, name, origin, square = event
            if origin >= 0:
                state.set_token(origin, None)
            if square >= 0:
                state.set_token(square, (name, seat))
        elif kind == "place":
            state.reserve.discard(event[1])
            state.place(event[1], event[2])
        elif kind == "remove":
            if state.worker_pos[event[1]] >= 0:
                state.lift(event[1])
            if len(event) > 3 and event[3]:
                state.reserve.add(event[1])
        elif kind == "lose":
            state.eliminate(event[1])
        elif kind != "use":  # (a named option used: nothing on the board changes)
            raise TypeError(f"an event of an unknown kind {kind!r}: the log names every change it makes")
