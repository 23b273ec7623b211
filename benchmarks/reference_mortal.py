"""Hand-written reference move generator for mortal Santorini (no god powers).

This file is a speed yardstick and a second opinion for the rules engine's
tests.  It uses only the standard library and stays deliberately plain: a
flat 25-square board, a precomputed neighbour table and tight loops.

Board layout: square index = row * 5 + col, with a1 = 0, b1 = 1, ..., e1 = 4,
a2 = 5, ..., e5 = 24 (columns a-e run west to east, rows 1-5 south to north).

Rules implemented: on a turn the player picks one of their workers, moves it to
a neighbouring space that has no worker and no dome and is at most one level
higher, then builds with the same worker on a neighbouring space with no worker
and no dome (a block, or a dome on top of 3 blocks).  Moving up from level 2
onto level 3 wins at once and ends the turn without a build.  A player with no
legal turn loses.

Two facts about mortal rules keep this generator simple and fast:

* The build lookahead never rules a move out: the space the worker just left
  is a neighbour of its new space, is free of workers, and cannot carry a dome
  (the worker stood on it), so at least one build always exists.
* Different legal turns always give different outcomes, even though a
  player's workers are interchangeable.  After a turn the player's worker set
  is ``S - {from} + {to}`` with ``to`` not in ``S``; two such sets are equal only
  if ``from`` and ``to`` are the same, and then distinct builds change distinct
  spaces (and a winning turn builds nothing).  So the number of distinct
  outcomes equals the number of legal turns.  ``outcomes()`` still deduplicates
  explicitly (it is the definition), while ``random_game()`` and the last ply
  of ``perft()`` rely on this fact; the tests check it on random positions.

Two random players are here.  ``random_game()`` lists every legal turn and
picks one; ``counting_game()`` uses the interpreter's own algorithm for a random
turn (``Engine.random_turn``, ``plain_picker`` in interpreter/fast/plain.py): it
counts the outcomes of each move (the builds after it, a popcount; a winning
move is one outcome), draws an index in [0, total) and decodes it, making only
the chosen turn.  Its outcomes come in the interpreter's order and it draws
``rng.randrange(total)`` once a turn, as the interpreter does, so from the same
seed it plays the very games of ``santorini bench --gods Mortal Mortal``.

Usage::

    python benchmarks/reference_mortal.py perft --depth 3
    python benchmarks/reference_mortal.py bench --seconds 5 --seed 1
    python benchmarks/reference_mortal.py bench --seconds 5 --seed 1 --counting
"""

from __future__ import annotations

import argparse
import random
import time
from bisect import bisect_right
from typing import NamedTuple

SIZE = 5
SQUARES = SIZE * SIZE
DOME_LEVEL = 3  # building on a space with this many blocks puts a dome on it

# A turn is (from, to, build), with build None for a winning move.
Turn = tuple[int, int, int | None]


def _neighbours(square: int) -> tuple[int, ...]:
    """The (up to 8) squares adjacent to `square`, in index order."""
    row, col = divmod(square, SIZE)
    return tuple(
        r * SIZE + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < SIZE and 0 <= c < SIZE
    )


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(SQUARES))
NEIGHBOUR_MASKS: tuple[int, ...] = tuple(
    sum(1 << n for n in NEIGHBOURS[s]) for s in range(SQUARES)
)


def square_name(square: int) -> str:
    """Name of a square index, e.g. 0 -> 'a1', 13 -> 'd3'."""
    row, col = divmod(square, SIZE)
    return "abcde"[col] + str(row + 1)


def square_index(name: str) -> int:
    """Index of a square name, e.g. 'a1' -> 0, 'd3' -> 13."""
    return (int(name[1]) - 1) * SIZE + "abcde".index(name[0])


class Position(NamedTuple):
    """A game state; equal Positions are the same outcome.

    heights: block count (0-3) of every square, as 25 bytes.
    domes:   the squares that carry a dome.
    workers: per player, the sorted squares of its workers (workers of one
             player are interchangeable, so only the set matters).
    to_move: index of the player whose turn it is.
    winner:  index of the player who won, or None while the game goes on.
    """

    heights: bytes
    domes: frozenset[int]
    workers: tuple[tuple[int, ...], ...]
    to_move: int
    winner: int | None = None

    def blocked(self) -> bytearray:
        """25 flags: 1 where a worker or a dome stands (no move, no build)."""
        blocked = bytearray(SQUARES)
        for square in self.domes:
            blocked[square] = 1
        for own in self.workers:
            for square in own:
                blocked[square] = 1
        return blocked

    def __str__(self) -> str:
        """A small text diagram, row 5 on top: height, then 'D' for a dome or
        the player letter of a worker."""
        lines = []
        for row in range(SIZE - 1, -1, -1):
            cells = []
            for col in range(SIZE):
                s = row * SIZE + col
                mark = "."
                if s in self.domes:
                    mark = "D"
                for p, own in enumerate(self.workers):
                    if s in own:
                        mark = chr(ord("A") + p)
                cells.append(f"{self.heights[s]}{mark}")
            lines.append(f"{row + 1} " + " ".join(cells))
        lines.append("  " + " ".join(f"{c} " for c in "abcde"))
        status = f"winner: {self.winner}" if self.winner is not None else f"to move: {self.to_move}"
        lines.append(status)
        return "\n".join(lines)


def from_lists(
    heights: list[int], domes: set[int], workers: list[list[int]], to_move: int
) -> Position:
    """Build a Position from plain lists (squares indexed 0..24, a1 = 0)."""
    if len(heights) != SQUARES or any(not 0 <= h <= 3 for h in heights):
        raise ValueError("heights must be 25 values in 0..3")
    placed = [s for own in workers for s in own]
    if len(set(placed)) != len(placed):
        raise ValueError("two workers on one square")
    if any(not 0 <= s < SQUARES for s in [*placed, *domes]):
        raise ValueError("square index out of range")
    if set(placed) & set(domes):
        raise ValueError("a worker stands on a dome")
    if not 0 <= to_move < len(workers):
        raise ValueError("to_move is not a player")
    return Position(
        bytes(heights),
        frozenset(domes),
        tuple(tuple(sorted(own)) for own in workers),
        to_move,
    )


def s0() -> Position:
    """The cross-checked start position: empty board, A on b3 and d3,
    B on c4 and c2, A to move."""
    return Position(
        bytes(SQUARES),
        frozenset(),
        (
            tuple(sorted((square_index("b3"), square_index("d3")))),
            tuple(sorted((square_index("c4"), square_index("c2")))),
        ),
        0,
    )


# --------------------------------------------------------------------------
# Core generator on raw arrays (shared by the Position API and random games)
# --------------------------------------------------------------------------


def _gen_turns(heights: bytes | bytearray, blocked: bytearray, own) -> list[Turn]:
    """Every legal turn (from, to, build-or-None) for the workers in `own`.

    `blocked` flags workers and domes; it is changed while a worker is being
    looked at (its own square is free to build on once it has moved) and
    restored before returning.
    """
    result: list[Turn] = []
    append = result.append
    for w in own:
        climb = heights[w] + 1
        blocked[w] = 0  # the worker leaves its square: it can build there
        for t in NEIGHBOURS[w]:
            if blocked[t]:
                continue
            ht = heights[t]
            if ht > climb:
                continue
            if ht == 3 and climb == 3:  # moved up from 2 onto 3: win, no build
                append((w, t, None))
                continue
            for b in NEIGHBOURS[t]:
                if not blocked[b]:
                    append((w, t, b))
        blocked[w] = 1
    return result


def _count_turns(heights: bytes | bytearray, blocked: bytearray, own) -> int:
    """The number of legal turns for `own` (= number of distinct outcomes).

    A non-winning move to `t` can build on every free neighbour of `t`, plus
    the square the worker just left (a neighbour of `t`, counted as blocked in
    the mask), hence the ``+ 1``.
    """
    free = 0
    for s in range(SQUARES):
        if not blocked[s]:
            free |= 1 << s
    count = 0
    for w in own:
        climb = heights[w] + 1
        for t in NEIGHBOURS[w]:
            if blocked[t]:
                continue
            ht = heights[t]
            if ht > climb:
                continue
            if ht == 3 and climb == 3:
                count += 1
            else:
                count += (free & NEIGHBOUR_MASKS[t]).bit_count() + 1
    return count


def _next_player(workers, player: int) -> int:
    """The next player after `player` who still has workers (or `player`)."""
    n = len(workers)
    for step in range(1, n + 1):
        p = (player + step) % n
        if workers[p]:
            return p
    return player


# --------------------------------------------------------------------------
# Position API
# --------------------------------------------------------------------------


def turns(pos: Position) -> list[Turn]:
    """Every legal turn of the player to move as (worker square, move-to,
    build-at), build-at being None for a winning move.  Empty if the game is
    over or the player is stuck."""
    if pos.winner is not None:
        return []
    return _gen_turns(pos.heights, pos.blocked(), pos.workers[pos.to_move])


def apply_turn(pos: Position, turn: Turn) -> Position:
    """The Position after playing `turn` (assumed legal) in `pos`."""
    w, t, b = turn
    player = pos.to_move
    workers = list(pos.workers)
    workers[player] = tuple(sorted(t if s == w else s for s in workers[player]))
    workers = tuple(workers)
    if b is None:
        return Position(pos.heights, pos.domes, workers, player, player)
    heights, domes = pos.heights, pos.domes
    if heights[b] == DOME_LEVEL:
        domes = domes | {b}
    else:
        grown = bytearray(heights)
        grown[b] += 1
        heights = bytes(grown)
    return Position(heights, domes, workers, _next_player(workers, player))


def outcomes(pos: Position) -> list[Position]:
    """The distinct outcomes of the turn of the player to move, in generation
    order.  Outcomes are compared as whole Positions (heights, domes, sorted
    worker squares per player, player to move, winner)."""
    return list(dict.fromkeys(apply_turn(pos, turn) for turn in turns(pos)))


def count_outcomes(pos: Position) -> int:
    """len(outcomes(pos)), without building the outcomes."""
    if pos.winner is not None:
        return 0
    return _count_turns(pos.heights, pos.blocked(), pos.workers[pos.to_move])


def perft(pos: Position, depth: int, bulk: bool = True) -> int:
    """Leaf count of the tree of distinct outcomes, `depth` turns deep.

    A finished game has no outcomes: a won position counts 0 at any depth from
    1 on, so a win is a leaf only on the last ply (as in chess perft); a player
    with no legal turn contributes 0.  With `bulk` the last ply is counted
    instead of built.
    """
    if depth == 0:
        return 1
    if pos.winner is not None:
        return 0
    if depth == 1 and bulk:
        return count_outcomes(pos)
    return sum(perft(child, depth - 1, bulk) for child in outcomes(pos))


# --------------------------------------------------------------------------
# Random playouts and the benchmark
# --------------------------------------------------------------------------


def random_game(rng: random.Random, pos: Position | None = None) -> int:
    """Play uniformly random turns from `pos` (default S0) to the end; return
    the winner's index.

    Each turn lists all legal turns, which are exactly the distinct outcomes
    (see the module docstring), and picks one with rng.choice.  A player with
    no legal turn is out: their workers leave the board, and the last player
    left wins (in a 2-player game, the opponent).  The board is updated in
    place on plain arrays.
    """
    if pos is None:
        pos = s0()
    if pos.winner is not None:
        return pos.winner
    heights = bytearray(pos.heights)
    blocked = pos.blocked()
    workers = [list(own) for own in pos.workers]
    alive = [bool(own) for own in workers]
    n = len(workers)
    player = pos.to_move
    choice = rng.choice
    while True:
        own = workers[player]
        options = _gen_turns(heights, blocked, own)
        if not options:
            # Stuck: this player loses and leaves the game.
            for s in own:
                blocked[s] = 0
            own.clear()
            alive[player] = False
            left = [p for p in range(n) if alive[p]]
            if len(left) == 1:
                return left[0]
            if not left:  # nobody could ever move; nobody wins
                return -1
        else:
            w, t, b = choice(options)
            blocked[w] = 0
            blocked[t] = 1
            own[own.index(w)] = t
            if b is None:
                return player
            if heights[b] == DOME_LEVEL:
                blocked[b] = 1  # dome
            else:
                heights[b] += 1
        player = (player + 1) % n
        while not alive[player]:
            player = (player + 1) % n


# --------------------------------------------------------------------------
# The counting random player: the interpreter's algorithm, hand-written
# --------------------------------------------------------------------------

#: MOVE_KIND[here][there]: what a move from level `here` onto a free space of
#: level `there` is: NO_MOVE (too high), A_MOVE (then a build) or A_WIN.
NO_MOVE, A_MOVE, A_WIN = 0, 1, 2
MOVE_KIND: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        NO_MOVE if there > here + 1 else A_WIN if (here, there) == (2, 3) else A_MOVE
        for there in range(4)
    )
    for here in range(4)
)
#: NEIGHBOUR_BITS[s]: (n, 1 << n, NEIGHBOUR_MASKS[n]) for every neighbour n
#: of s, in NEIGHBOURS order: what the counting loop needs of a destination.
NEIGHBOUR_BITS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((n, 1 << n, NEIGHBOUR_MASKS[n]) for n in NEIGHBOURS[s]) for s in range(SQUARES)
)


def s0_placed() -> Position:
    """S0 with each player's workers in the order they were placed (A: b3,
    d3; B: c4, c2), not sorted: the order in which the interpreter numbers its
    workers and tries them, hence the order of its outcomes."""
    return Position(
        bytes(SQUARES),
        frozenset(),
        (
            (square_index("b3"), square_index("d3")),
            (square_index("c4"), square_index("c2")),
        ),
        0,
    )


def _free_bits(pos: Position) -> int:
    """The squares with no worker and no dome, as bits (bit s for square s)."""
    blocked = pos.blocked()
    return sum(1 << s for s in range(SQUARES) if not blocked[s])


def _counted_moves(
    heights: bytes | bytearray, free: int, own
) -> tuple[int, list[int], list[tuple[int, int]]]:
    """(total, ends, moves): every legal move (from, to) of the workers in
    `own`, in order (workers as given, destinations in NEIGHBOURS order), with
    ends[i] the number of outcomes of moves[0..i].  A move's outcomes are its
    builds (the free squares around `to`, the square left counting as free),
    or 1 for a winning move."""
    total = 0
    ends: list[int] = []
    moves: list[tuple[int, int]] = []
    for w in own:
        kind_of = MOVE_KIND[heights[w]]
        around_free = free | (1 << w)
        for t in NEIGHBOURS[w]:
            if not free >> t & 1:
                continue
            kind = kind_of[heights[t]]
            if kind == A_MOVE:
                total += (around_free & NEIGHBOUR_MASKS[t]).bit_count()
            elif kind:
                total += 1
            else:
                continue
            ends.append(total)
            moves.append((w, t))
    return total, ends, moves


def _decode(
    heights: bytes | bytearray, free: int, ends: list[int], moves, index: int
) -> Turn:
    """The index-th turn of the counted moves: its move by bisection, then
    the index-th free square around the destination (the square left is free)."""
    entry = bisect_right(ends, index)
    w, t = moves[entry]
    if entry:
        index -= ends[entry - 1]
    if MOVE_KIND[heights[w]][heights[t]] == A_WIN:
        return (w, t, None)
    for b in NEIGHBOURS[t]:
        if b == w or free >> b & 1:
            if not index:
                return (w, t, b)
            index -= 1
    raise AssertionError("a counted build was not found")


def turn_at(pos: Position, index: int) -> Turn:
    """turns(pos)[index], found by counting and decoding, without the list
    (IndexError outside [0, count_outcomes(pos)))."""
    if pos.winner is not None:
        raise IndexError("the game is over")
    free = _free_bits(pos)
    total, ends, moves = _counted_moves(pos.heights, free, pos.workers[pos.to_move])
    if not 0 <= index < total:
        raise IndexError(f"turn {index} of {total}")
    return _decode(pos.heights, free, ends, moves, index)


def counted_turn(pos: Position, rng: random.Random) -> Turn | None:
    """A uniformly random legal turn of the player to move, as the counting
    player draws it: turns(pos)[rng.randrange(len(turns(pos)))], one draw from
    the generator, the list never made; None when there is no turn."""
    if pos.winner is not None:
        return None
    free = _free_bits(pos)
    total, ends, moves = _counted_moves(pos.heights, free, pos.workers[pos.to_move])
    if not total:
        return None
    return _decode(pos.heights, free, ends, moves, rng.randrange(total))


def counting_game(
    rng: random.Random,
    pos: Position | None = None,
    record: list[tuple[int, int, int, int | None]] | None = None,
) -> tuple[int, int]:
    """Play uniformly random turns from `pos` (default: S0 as placed,
    `s0_placed()`) to the end, by counting; return (winner, turns played).

    Each turn counts every move's outcomes (as `_counted_moves`), draws
    ``rng.randrange(total)`` and decodes only the chosen turn (as `_decode`),
    both written out here for speed.  Workers are tried in the order of
    `pos.workers`, and a worker keeps its place in that order as it moves.  A
    player with no legal turn is out, as in `random_game()`.  `record`, if
    given, receives (player, worker slot, to, build-or-None) for every turn.
    """
    if pos is None:
        pos = s0_placed()
    if pos.winner is not None:
        return pos.winner, 0
    heights = list(pos.heights)  # (a list indexes a little faster than bytes)
    free = _free_bits(pos)
    workers = [list(own) for own in pos.workers]
    alive = [bool(own) for own in workers]
    n = len(workers)
    player = pos.to_move
    randrange = rng.randrange
    neighbours, neighbour_bits, move_kind = NEIGHBOURS, NEIGHBOUR_BITS, MOVE_KIND
    a_move, a_win, dome_level = A_MOVE, A_WIN, DOME_LEVEL  # locals: no global lookup per move
    played = 0
    while True:
        own = workers[player]
        total = 0
        ends: list[int] = []
        moves: list[int] = []  # slot * 32 + to: a small int, no object per move
        for slot, w in enumerate(own):
            kind_of = move_kind[heights[w]]
            around_free = free | (1 << w)
            code = slot * 32
            for t, bit, mask in neighbour_bits[w]:
                if not free & bit:
                    continue
                kind = kind_of[heights[t]]
                if kind == a_move:
                    total += (around_free & mask).bit_count()
                elif kind:
                    total += 1
                else:
                    continue
                ends.append(total)
                moves.append(code + t)
        if not total:
            # Stuck: this player loses and leaves the game.
            for s in own:
                free |= 1 << s
            own.clear()
            alive[player] = False
            left = [p for p in range(n) if alive[p]]
            if len(left) == 1:
                return left[0], played
            if not left:  # nobody could ever move; nobody wins
                return -1, played
        else:
            index = randrange(total)
            entry = bisect_right(ends, index)
            move = moves[entry]
            slot, t = move >> 5, move & 31
            w = own[slot]
            if entry:
                index -= ends[entry - 1]
            played += 1
            own[slot] = t
            if move_kind[heights[w]][heights[t]] == a_win:
                if record is not None:
                    record.append((player, slot, t, None))
                return player, played
            for b in neighbours[t]:
                if b == w or free >> b & 1:
                    if not index:
                        break
                    index -= 1
            free = (free | (1 << w)) & ~(1 << t)
            if heights[b] == dome_level:
                free &= ~(1 << b)  # dome
            else:
                heights[b] += 1
            if record is not None:
                record.append((player, slot, t, b))
        player = (player + 1) % n
        while not alive[player]:
            player = (player + 1) % n


def bench(seconds: float, seed: int, counting: bool = False) -> tuple[int, float]:
    """Play random games from S0 for about `seconds`; return (games, elapsed).
    The listing player's games (`random_game`) by default, the counting
    player's (`counting_game`, from S0 as placed) with `counting`."""
    rng = random.Random(seed)
    start_pos = s0_placed() if counting else s0()
    play = counting_game if counting else random_game
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    games = 0
    while True:
        play(rng, start_pos)
        games += 1
        now = clock()
        if now >= deadline:
            return games, now - start


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Command line: `perft --depth N [--no-bulk]` or `bench --seconds S --seed K [--counting]`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_perft = sub.add_parser("perft", help="count distinct-outcome leaves from S0")
    p_perft.add_argument("--depth", type=int, default=3)
    p_perft.add_argument(
        "--no-bulk",
        action="store_true",
        help="build every leaf Position instead of counting the last ply",
    )
    p_bench = sub.add_parser("bench", help="random playouts from S0")
    p_bench.add_argument("--seconds", type=float, default=5.0)
    p_bench.add_argument("--seed", type=int, default=1)
    p_bench.add_argument(
        "--counting",
        action="store_true",
        help="the counting player (count the outcomes, draw an index) instead of listing turns",
    )
    args = parser.parse_args(argv)

    if args.command == "perft":
        pos = s0()
        count, elapsed = 1, 0.0
        for depth in range(1, args.depth + 1):
            start = time.perf_counter()
            count = perft(pos, depth, bulk=not args.no_bulk)
            elapsed = time.perf_counter() - start
            print(f"{depth}: {count}", flush=True)
        print(f"elapsed: {elapsed:.3f} s (depth {args.depth})")
        print(f"leaves/s: {count / elapsed if elapsed > 0 else float('inf'):.0f}")
    else:
        games, elapsed = bench(args.seconds, args.seed, args.counting)
        print(f"games: {games}")
        print(f"elapsed: {elapsed:.3f} s")
        print(f"games/s: {games / elapsed:.1f}")


if __name__ == "__main__":
    main()
