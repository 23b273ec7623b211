"""The plain turn with a move again each time the worker moves onto some squares, counted.

'Each time your worker moves into a perimeter space, it may move again' (a follow-up of every
move, `FastRules.moves_again`): the worker walks on while it arrives on those squares, then
builds. Nothing is built before the build, so every state reached before it differs from another
only in where the worker stands, and the builds from a square are the same whatever the path to
it. A worker's distinct outcomes are therefore one per free square around each square it can end
on, and one per square a winning move reaches: `reach` finds those squares, without a path.
Across workers, two outcomes meet only where both workers came back to their own squares and
built on one square next to both; the chain keeps the first worker's.

The draw decodes its index by walking the moves in the step chain's own order (depth first,
each square's builds before the moves on from it, a square's moves on explored the first time
the worker arrives on it: `_first_visit`), so that the turn drawn is the one the list would give
at that index. tests/test_fast_paths.py and tests/test_masked_picker.py compare both with the
generic chain.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from ..engine.actions import actions
from ..model.board import AROUND_BITS, NEIGHBOURS, SQUARE_BITS
from ..model.state import GameState
from .bits import free_bits
from .plain import A_MOVE, A_WIN, _Moves, build_event, is_plain
from .shape import FastRules

NO_LEVELS = (0, 0, 0, 0)


def repeated_picker(rules: FastRules) -> RepeatedMoves | None:
    """The counting picker of a plain turn whose only other part is `moves_again`, else None."""
    if rules.moves_again is None or len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) \
            or rules.move_options or rules.build_options or rules.beyond_moves_again:
        return None
    return RepeatedMoves(rules)


class RepeatedMoves:
    """A picker (counted.py's Picker) for a turn whose worker may move again after moving onto
    some squares."""

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.again = rules.moves_again

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random) -> tuple | None:
        kinds = self.kinds[forbid_up][forbid_down]
        onward = self.again.squares(st, -1, -1, NO_LEVELS)  # (squares of the board's edge: no level read)
        free = free_bits(st)
        positions, heights = st.worker_pos, st.heights
        total, groups = 0, []  # (the index after the worker's turns, the worker, builds met before)
        returned = 0  # the builds of the workers so far that can come back to their own squares
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            ends, wins = self.reach(heights, origin, kinds, free | SQUARE_BITS[origin], onward)
            open_ = free | SQUARE_BITS[origin]
            size = wins.bit_count()
            square_bits = ends
            while square_bits:
                low = square_bits & -square_bits
                size += (open_ & AROUND_BITS[low.bit_length() - 1]).bit_count()
                square_bits ^= low
            met = returned
            if ends >> origin & 1:  # back on its own square: builds an earlier worker's return made
                home = free & AROUND_BITS[origin]
                size -= (home & returned).bit_count()
                returned |= home
            if size:
                total += size
                groups.append((total, worker, met))
        if not total:
            return None
        index = rng.randrange(total)
        start = 0
        for end, worker, met in groups:
            if index < end:
                return self.decode(st, worker, index - start, kinds, free, onward, met)
            start = end
        raise AssertionError("the draw is below the total")  # pragma: no cover

    @staticmethod
    def reach(heights: list[int], origin: int, kinds: tuple, open_: int, onward: int) -> tuple[int, int]:
        """(the squares the worker can end a non-winning move on, the squares a move of it wins
        on), as bits: from its square, and on from each square of `onward` it arrives on."""
        ends = wins = 0
        explored = 0
        stack = [origin]
        while stack:
            here = stack.pop()
            kind_of = kinds[heights[here]]
            for to in NEIGHBOURS[here]:
                if not open_ >> to & 1:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_WIN:
                    wins |= SQUARE_BITS[to]
                elif kind == A_MOVE:
                    ends |= SQUARE_BITS[to]
                    if onward >> to & 1 and not explored >> to & 1:
                        explored |= SQUARE_BITS[to]
                        stack.append(to)
        return ends, wins

    def decode(self, st: GameState, worker: int, index: int, kinds: tuple, free: int, onward: int,
               met: int) -> tuple:
        """The worker's `index`-th turn in the chain's order: (steps, events), events None for a
        win (the engine plays it)."""
        heights, origin = st.heights, st.worker_pos[worker]
        open_ = free | SQUARE_BITS[origin]
        for path, build in _walk(heights, origin, kinds, open_, onward, free, met):
            if not index:
                moves = actions("move", worker)
                steps = tuple(moves[to] for to in path)
                if build < 0:
                    return steps, None
                events, here = [], origin
                for to in path:
                    events.append(("move", worker, here, to, heights[here], heights[to]))
                    here = to
                events.append(build_event(worker, build, heights[build]))
                return (*steps, actions("build", worker)[build]), tuple(events)
            index -= 1
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree


def _walk(heights: list[int], origin: int, kinds: tuple, open_: int, onward: int, free: int,
          met: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(the squares moved to, the square built on, or -1 for a win) of each distinct outcome of
    one worker, in the step chain's order. `met`: builds around the worker's own square that an
    earlier worker's return has made already."""
    visited: set[int] = set()  # squares of `onward` arrived on: explored once (the chain's _first_visit)
    ended: set[int] = set()  # squares whose builds are out already
    won: set[int] = set()

    def builds(end: int, path: tuple) -> Iterator[tuple[tuple[int, ...], int]]:
        if end in ended:
            return
        ended.add(end)
        skip = met if end == origin else 0
        for square in NEIGHBOURS[end]:
            if open_ >> square & 1 and not skip >> square & 1:
                yield path, square

    def moves_on(here: int, path: tuple) -> Iterator[tuple[tuple[int, ...], int]]:
        kind_of = kinds[heights[here]]
        for to in NEIGHBOURS[here]:
            if not open_ >> to & 1:
                continue
            kind = kind_of[heights[to]]
            if kind == A_WIN:
                if to not in won:
                    won.add(to)
                    yield (*path, to), -1
            elif kind == A_MOVE:
                yield from arrive(to, (*path, to))

    def arrive(here: int, path: tuple) -> Iterator[tuple[tuple[int, ...], int]]:
        yield from builds(here, path)
        if onward >> here & 1 and here not in visited:
            visited.add(here)
            yield from moves_on(here, path)

    yield from moves_on(origin, ())
