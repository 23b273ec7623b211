"""The plain turn with a move again each time the worker moves onto some squares, counted.

'Each time your worker moves into a perimeter space, it may move again' (a follow-up of every
move, `FastRules.moves_again`): the worker walks on while it arrives on those squares, then
builds. Nothing is built before the build, so every state reached before it differs from another
only in where the worker stands, and the builds from a square are the same whatever the path to
it. A worker's distinct outcomes are therefore one per free square around each square it can end
on, and one per square a winning move reaches: a flood of bits finds those squares, without a path.
Across workers, two outcomes meet only where both workers came back to their own squares and
built on one square next to both, or both won by coming back onto their own squares (the board
as it was, won); the chain keeps the first worker's.

The draw (`_nth_outcome`) decodes its index by walking the moves in the step chain's own order (depth first,
each square's builds before the moves on from it, a square's moves on explored the first time
the worker arrives on it: `_first_visit`), so that the turn drawn is the one the list would give
at that index. tests/test_fast_paths.py and tests/test_masked_picker.py compare both with the
generic chain.
"""

from __future__ import annotations

from random import Random

from ..engine.actions import actions
from ..model.board import ALL_BITS, AROUND_BITS, PAIR_INSIDE, PAIR_SHIFTED, PAIR_SPREAD, SQUARE_BITS
from ..model.state import GameState
from .counted import move_readers
from .plain import MOVES_AND_BUILDS, _Moves, build_event, is_plain, nth_free
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

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.again = rules.moves_again
        #: where a move from each level goes, then wins, read from the level field
        self.readers = move_readers(self.kinds)

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        onward = self.again.squares(st, -1, -1, NO_LEVELS)  # (squares of the board's edge: no level read)
        positions, heights = st.worker_pos, st.heights
        reached = self.readers[forbid_up][forbid_down](st.level_field, ALL_BITS)
        total, groups = 0, []  # (the index after the worker's turns, the worker, builds met before)
        returned = 0  # the builds of the workers so far that can come back to their own squares
        won_home = False  # whether a worker so far can win by coming back onto its own square
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            open_ = free | SQUARE_BITS[origin]
            # the squares it can end a non-winning move on, and those a move of it wins on: from
            # its square, and on from each square of `onward` it arrives on. A flood of bits (no
            # call per square): from each square explored, its open neighbours of the levels a
            # move from its own level reaches (`reached`: where a move from each level goes, then
            # wins)
            ends = wins = 0
            frontier, unexplored = SQUARE_BITS[origin], onward
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                here = low.bit_length() - 1
                level = heights[here]
                around = open_ & AROUND_BITS[here]
                wins |= around & reached[4 + level]
                arrived = around & reached[level]
                ends |= arrived
                new = arrived & unexplored
                unexplored ^= new
                frontier |= new
            # a win, or a build around an end (board.neighbouring_pairs, written out)
            size = wins.bit_count() + (ends * PAIR_SPREAD & open_ * PAIR_SHIFTED & PAIR_INSIDE).bit_count()
            met = returned
            if ends >> origin & 1:  # back on its own square: builds an earlier worker's return made
                home = free & AROUND_BITS[origin]
                size -= (home & returned).bit_count()
                returned |= home
            # a win back on its own square leaves the board as it was, won: one outcome for all
            home_won_before = won_home and bool(wins >> origin & 1)
            size -= home_won_before
            won_home = won_home or bool(wins >> origin & 1)
            if size:
                total += size
                groups.append((total, worker, met, home_won_before))
        if not total:
            return None
        index = rng.randrange(total)
        start = 0
        for end, worker, met, home_won in groups:
            if index < end:
                break
            start = end
        else:
            raise AssertionError("the draw is below the total")  # pragma: no cover
        # the worker's turn at that index in the chain's order: (steps, events), events None for
        # a win (the engine plays it)
        origin = positions[worker]
        path, build = _nth_outcome(heights, origin, reached, free | SQUARE_BITS[origin], onward, met, home_won,
                                   index - start)
        moves = actions("move", worker)
        steps = tuple(map(moves.__getitem__, path))
        if build < 0:
            return steps, None
        events, here = [], origin
        for to in path:
            events.append(("move", worker, here, to, heights[here], heights[to]))
            here = to
        events.append(build_event(worker, build, heights[build]))
        return (*steps, actions("build", worker)[build]), tuple(events)


def _nth_outcome(heights: list[int], origin: int, reached: tuple[int, ...], open_: int, onward: int, met: int,
                 home_won: bool, index: int) -> tuple[tuple[int, ...], int]:
    """(the squares moved to, the square built on, or -1 for a win) of one worker's `index`-th
    distinct outcome, in the step chain's order: depth first from its square, at each move the
    builds around the square arrived on (the first time it is arrived on), then the moves on
    from it (a square of `onward`, explored the first time: the chain's _first_visit); a winning
    square once. `met`: builds around the worker's own square that an earlier worker's return has
    made already; `home_won`: an earlier worker's win back on its own square has made the win back
    on this one's (the board as it was, won). `reached`: the squares a move from each level goes
    to, then wins on (move_readers). A square's builds are skipped by their count."""
    ended = 0  # the squares arrived on (and, those of `onward`, explored from) so far
    won = SQUARE_BITS[origin] if home_won else 0
    left = index
    # the search's stack, written out (no call per square): where the moves from each square on
    # the path go and win (open squares around it), and the path of squares moved to. A square's
    # moves left to try are those not yet made: to a square not arrived on, or winning on one not
    # won on. Every move tried before, from this square or from one further on, has marked its
    # square, so the lowest one left is the next in neighbour order.
    level, around = heights[origin], open_ & AROUND_BITS[origin]
    moves_to, wins_to = reached[level] & around, reached[4 + level] & around
    before, path = [], []
    while True:
        left_to_try = moves_to & ~ended | wins_to & ~won
        if not left_to_try:  # every move from the square tried: back to the one before
            if not path:
                raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree
            moves_to, wins_to = before.pop()
            path.pop()
            continue
        bit = left_to_try & -left_to_try
        to = bit.bit_length() - 1
        if wins_to & bit:
            won |= bit
            if not left:
                return (*path, to), -1
            left -= 1
            continue
        ended |= bit
        around = open_ & AROUND_BITS[to]
        squares = around & ~met if to == origin else around
        size = squares.bit_count()
        if left < size:
            return (*path, to), nth_free(to, squares, left)
        left -= size
        if onward & bit:  # on from there, before the next move here
            before.append((moves_to, wins_to))
            path.append(to)
            level = heights[to]
            moves_to, wins_to = reached[level] & around, reached[4 + level] & around
