"""The 5x5 board's geometry: square numbering, names, neighbour and direction tables.

Squares are the integers 0..24, a1 = 0, b1 = 1, ..., e5 = 24 (index = row * 5 + column). Every
table is computed once at import, so the turn interpreter only ever indexes tuples.
"""

from __future__ import annotations

import random

SIZE = 5
SQUARES = tuple(range(SIZE * SIZE))
COLUMNS = "abcde"


def _name(square: int) -> str:
    return f"{COLUMNS[square % SIZE]}{square // SIZE + 1}"


SQUARE_NAMES = tuple(_name(s) for s in SQUARES)


def square_name(square: int) -> str:
    """'a1' for 0, 'e5' for 24."""
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int:
    """The square a name like 'c3' (any case) denotes; ValueError if it is not on the board."""
    name = text.strip().lower()
    if len(name) != 2 or name[0] not in COLUMNS or name[1] not in "12345":
        raise ValueError(f"'{text}' is not a space: spaces are a1 to e5 (column a-e, row 1-5)")
    return (int(name[1]) - 1) * SIZE + COLUMNS.index(name[0])


def offset(square: int, dx: int, dy: int) -> int:
    """The square `dx` columns and `dy` rows from `square` (rows up toward row 5), -1 off the board."""
    x, y = square % SIZE + dx, square // SIZE + dy
    return y * SIZE + x if 0 <= x < SIZE and 0 <= y < SIZE else -1


DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))

#: NEIGHBOURS[s]: the squares around s, in a fixed order.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for dx, dy in DIRECTIONS if (n := offset(s, dx, dy)) >= 0) for s in SQUARES)

#: WRAPPED_NEIGHBOURS[s]: the squares around s when opposite edges and corners of the board are
#: taken as adjacent (every square has eight), in square order as NEIGHBOURS (the order in which
#: turns are listed, which the derived code's counts follow).
WRAPPED_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((s // SIZE + dy) % SIZE * SIZE + (s % SIZE + dx) % SIZE for dx, dy in DIRECTIONS)) for s in SQUARES)

#: ADJACENT[s]: the squares around s, as a set (for "is b next to a?").
ADJACENT: tuple[frozenset[int], ...] = tuple(frozenset(around) for around in NEIGHBOURS)

#: AROUND_BITS[s]: the squares around s as bits (bit n for square n), so that an AND with the
#: free squares and a popcount count the free squares around s; SQUARE_BITS[s] = 1 << s;
#: ALL_BITS: every square.
AROUND_BITS: tuple[int, ...] = tuple(sum(1 << n for n in around) for around in NEIGHBOURS)
SQUARE_BITS: tuple[int, ...] = tuple(1 << s for s in SQUARES)
WRAPPED_AROUND_BITS: tuple[int, ...] = tuple(sum(1 << n for n in around) for around in WRAPPED_NEIGHBOURS)
#: NEIGHBOUR_BITS[s]: (square, its bit, the bits around it) for each square around s, in the
#: order of NEIGHBOURS[s]: what the counting loops read per move, in one unpacking.
NEIGHBOUR_BITS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((n, SQUARE_BITS[n], AROUND_BITS[n]) for n in NEIGHBOURS[s]) for s in SQUARES)
ALL_BITS = (1 << len(SQUARES)) - 1
#: ORTHOGONAL_BITS[s] (DIAGONAL_BITS[s]): the squares that lie from s along its row or column
#: (along its diagonals), s apart, as bits.
ORTHOGONAL_BITS: tuple[int, ...] = tuple(
    sum(1 << t for t in SQUARES if t != s and (t % SIZE == s % SIZE or t // SIZE == s // SIZE)) for s in SQUARES)
DIAGONAL_BITS: tuple[int, ...] = tuple(
    sum(1 << t for t in SQUARES if t != s and abs(t % SIZE - s % SIZE) == abs(t // SIZE - s // SIZE)) for s in SQUARES)
#: The squares of every level as one number (GameState.level_field): the squares of level h are
#: bits 25h to 25h + 24, so that a count that reads the squares by level reads one integer that
#: the state keeps, not the board. LEVEL_BIT[s][h] is square s's bit at level h.
LEVEL_BIT: tuple[tuple[int, ...], ...] = tuple(tuple(1 << (len(SQUARES) * h + s) for h in range(4)) for s in SQUARES)
#: The squares off column a (off column e): those with a neighbour to the west (to the east).
_OFF_WEST = sum(1 << s for s in SQUARES if s % SIZE)
_OFF_EAST = sum(1 << s for s in SQUARES if s % SIZE != SIZE - 1)


def grown(squares: int) -> int:
    """The squares of `squares` (bits) and those around them, by shifts (a flood fill's step)."""
    squares |= squares << SIZE | squares >> SIZE
    return (squares | (squares & _OFF_EAST) << 1 | (squares & _OFF_WEST) >> 1) & ALL_BITS


def nth_bit(bits: int, index: int) -> int:
    """The square of the `index`-th bit of `bits`, in square order."""
    for _ in range(index):
        bits &= bits - 1
    return (bits & -bits).bit_length() - 1


# ---- neighbouring pairs, counted by one multiplication ------------------------------------------
# Eight lanes of 56 bits, one per direction (dx, dy), each holding a copy of a set at its offset:
# `S * PAIR_SPREAD` puts S in every lane, `F * PAIR_SHIFTED` puts in lane k the squares s whose
# neighbour s + step_k is in F (F moved back by the step), and `PAIR_INSIDE` keeps in lane k the
# squares that have a neighbour in direction k (no step off the board or across its edge). The
# copies lie 56 bits apart, and a set spans 25 bits (50 for a set with a second set at bits
# 25-49), moved by at most 6: the partial products never overlap, so the multiplications carry
# nothing and no copy reaches another lane's window. Then
# ((S * PAIR_SPREAD) & (F * PAIR_SHIFTED) & PAIR_INSIDE).bit_count() is the sum over s in S of
# |F around s|.
_STEPS = tuple(dx + SIZE * dy for dx, dy in DIRECTIONS)
PAIR_LANES = tuple(56 * k + 8 for k in range(len(DIRECTIONS)))
PAIR_SPREAD = sum(1 << lane for lane in PAIR_LANES)
PAIR_SHIFTED = sum(1 << (lane - step) for lane, step in zip(PAIR_LANES, _STEPS, strict=True))
PAIR_INSIDE = sum(sum(1 << s for s in SQUARES if s + step in NEIGHBOURS[s]) << lane
                  for lane, step in zip(PAIR_LANES, _STEPS, strict=True))
assert all(lane - step >= 0 for lane, step in zip(PAIR_LANES, _STEPS, strict=True)) \
    and PAIR_LANES[1] - PAIR_LANES[0] >= 50 + 6


def neighbouring_pairs(squares: int, others: int) -> int:
    """The number of (a square of `squares`, a square of `others` around it) pairs, bits in and
    out: sum(popcount(others & AROUND_BITS[s]) for s in squares), by two multiplications (the
    lanes above) instead of a loop over the squares (a count of builds after many moves)."""
    return ((squares * PAIR_SPREAD) & (others * PAIR_SHIFTED) & PAIR_INSIDE).bit_count()


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _in_line(a: int, b: int) -> bool:
    """Whether b lies from a along a row, a column or a diagonal (and is not a itself)."""
    dx, dy = b % SIZE - a % SIZE, b // SIZE - a // SIZE
    return a != b and (dx == 0 or dy == 0 or abs(dx) == abs(dy))


#: BEYOND[a][b]: the next space past b in the direction a -> b, one step on from b, for b on a row,
#: a column or a diagonal from a (neighbours, or further: a move over a worker lands two spaces
#: away, and its direction is that of the last space it entered); -1 when that space is off the
#: board, or when b is not in a straight line from a.
BEYOND: tuple[tuple[int, ...], ...] = tuple(
    tuple(offset(b, _sign(b % SIZE - a % SIZE), _sign(b // SIZE - a // SIZE)) if _in_line(a, b) else -1
          for b in SQUARES) for a in SQUARES)


#: The width of every hash key (the Zobrist keys here, the keys of marks, counters and tokens in
#: state.py): a hash is below 2 ** HASH_BITS, and the playout loop keeps other bits above it.
HASH_BITS = 64


class Zobrist:
    """Random 64-bit keys whose XOR identifies a position, updated on every change.

    Fixed seed: hashes are the same in every process, so outcome order is deterministic.
    Worker keys are per worker *class* (a team, and a kind where a rule tells workers apart), not
    per worker: interchangeable workers then hash alike wherever they stand, which is exactly the
    outcome identity of the scenario spec.
    """

    def __init__(self, classes: int = 16, seed: int = 20161) -> None:
        rng = random.Random(seed)
        self.height = tuple(tuple(rng.getrandbits(HASH_BITS) for _ in range(4)) for _ in SQUARES)
        self.dome = tuple(rng.getrandbits(HASH_BITS) for _ in SQUARES)
        self.worker = tuple(tuple(rng.getrandbits(HASH_BITS) for _ in SQUARES) for _ in range(classes))
        self.winner = tuple(rng.getrandbits(HASH_BITS) for _ in range(classes))
        #: build[s][h]: what building the next piece on s, at height h, does to the hash (a
        #: block for h < 3, a dome on level 3).
        self.build = tuple(tuple(self.height[s][h] ^ self.height[s][h + 1] for h in range(3)) + (self.dome[s],)
                           for s in SQUARES)
        #: Keys of the facts of a turn that a rule reads later (a worker moved up), by seat and by
        #: the fact's index among that seat's (drawn last, so the keys above stay as they were).
        self._facts = tuple(tuple(rng.getrandbits(HASH_BITS) for _ in range(16)) for _ in range(classes))

    def fact(self, seat: int, index: int) -> int:
        return self._facts[seat][index]


ZOBRIST = Zobrist()
