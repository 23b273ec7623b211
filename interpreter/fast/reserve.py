"""The plain turn, and once per game a worker placed from the card that then moves and builds,
counted.

A seat whose card holds a worker may, once ('Alternative Turn: once, place your extra worker on
an unoccupied ground-level perimeter space; then move and build with this worker',
`FastRules.reserve_turn`), announce that turn instead of the plain one. Its outcomes come after
the plain turn's, as the step chain lists its programs, and never meet them: the worker has left
the card, and the card's mark is set.

Placed on p, the worker moves to a free space t around p that its climb allows from p's level,
and builds on a free space around t, p's included (it has left it). Where it was placed leaves
no trace: the board shows the worker on t and the build. So the outcomes of the placed turn are
the pairs (t, build), each t with every free square around it, over the squares t next to some
square p it may be placed on; the chain finds each t first from the first such p, in the board's
order, and a t found from an earlier p again adds nothing. A win by the move is one outcome,
played by the engine. tests/test_fast_paths.py compares the picker with the generic chain,
every index, and tests/test_masked_picker.py has a position made for it, counted by hand.
"""

from __future__ import annotations

from random import Random

from ..engine.actions import actions
from ..model.board import NEIGHBOUR_BITS, SQUARES, neighbouring_pairs
from ..model.state import GameState
from .bits import levels_of
from .plain import A_MOVE, A_WIN, PlainCount, _Moves, build_event, is_plain, nth_free
from .shape import FastRules, without

NO_LEVELS = (0, 0, 0, 0)


def reserve_picker(rules: FastRules) -> ReserveTurnPicker | None:
    """The counting picker of the plain turn with a once-per-game turn of a worker placed from
    the card, and nothing else, else None."""
    if rules.reserve_turn is None or len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) \
            or rules.move_options or rules.build_options:
        return None
    if without(rules, frozenset(("reserve_turn",))).extended:
        return None
    return ReserveTurnPicker(rules)


class ReserveTurnPicker:
    """A picker (counted.py's Picker) for the plain turn and the placed worker's turn."""

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.reserve = rules.reserve_turn
        self.use = ("use", -1, self.reserve.name)

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        kinds = self.kinds[forbid_up][forbid_down]
        plain = PlainCount(st, team, kinds, free)
        placed = self.placed_worker(st, team)
        places = self.places(st, free) if placed >= 0 else 0
        extra = self.count_placed(st, kinds, free, places) if places else 0
        if not plain.total + extra:
            return None
        index = rng.randrange(plain.total + extra)
        if index >= plain.total:
            return self.decode_placed(st, placed, kinds, free, places, index - plain.total)
        return plain.draw(index)

    def placed_worker(self, st: GameState, team: int) -> int:
        """The worker the placed turn would place (the first of the team's on the card), or -1
        when there is none or the card's mark says the turn was taken."""
        if (st.to_move, self.reserve.mark) in st.marks:
            return -1
        for worker in st.members.get(team, ()):
            if worker in st.reserve:
                return worker
        return -1

    def places(self, st: GameState, free: int) -> int:
        """The squares the worker may be placed on, as bits."""
        rule = self.reserve.squares
        levels = levels_of(st.level_field) if rule.reads_levels else NO_LEVELS
        return rule.squares(st, -1, -1, levels) & free

    @staticmethod
    def count_placed(st: GameState, kinds: tuple, free: int, places: int) -> int:
        """The placed turn's outcomes: over the squares t it may move to from some place, one
        per free square around t, and one for each t where the move wins."""
        heights = st.heights
        targets = wins = 0
        for place in SQUARES:
            if not places >> place & 1:
                continue
            kind_of = kinds[heights[place]]
            for to, bit, _ in NEIGHBOUR_BITS[place]:
                if free & bit:
                    kind = kind_of[heights[to]]
                    if kind == A_MOVE:
                        targets |= bit
                    elif kind == A_WIN:
                        wins |= bit
        return neighbouring_pairs(targets, free) + wins.bit_count()

    def decode_placed(self, st: GameState, worker: int, kinds: tuple, free: int, places: int, index: int) -> tuple:
        """The placed turn's `index`-th outcome, in the chain's order: (steps, events)."""
        heights, seat = st.heights, st.to_move
        reached, won = 0, 0  # (the squares whose outcomes came already: moves there, wins there)
        for place in SQUARES:
            if not places >> place & 1:
                continue
            kind_of = kinds[heights[place]]
            for to, bit, around in NEIGHBOUR_BITS[place]:
                if not free & bit:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_MOVE and not reached & bit:
                    reached |= bit
                elif kind == A_WIN and not won & bit:
                    won |= bit
                else:
                    continue
                size = 1 if kind == A_WIN else (free & around).bit_count()
                if index >= size:
                    index -= size
                    continue
                steps = (self.use, ("place", worker, place), actions("move", worker)[to])
                if kind == A_WIN:
                    return steps, None
                square = nth_free(to, free, index)
                events = (self.use, ("mark", seat, self.reserve.mark), ("place", worker, place),
                          ("move", worker, place, to, heights[place], heights[to]),
                          build_event(worker, square, heights[square]))
                return (*steps, actions("build", worker)[square]), events
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree

