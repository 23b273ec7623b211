"""The bit tools of the counting pickers (interpreter/fast/counted.py), against plain loops.

tests/test_fast_paths.py compares every index of every counted pick with the generic chain's
list; these tests check the tools the counts are made of, one by one, so that a broken tool is
named when it breaks: the squares of each level read once per pick, the pair count by one
multiplication."""

from __future__ import annotations

import random

from santorini.interpreter.fast import counted
from santorini.interpreter.model.board import AROUND_BITS, PAIR_INSIDE, PAIR_SHIFTED, PAIR_SPREAD, SQUARES


def squares_of_levels(heights: list[int], levels: int) -> int:
    return sum(1 << s for s in SQUARES if levels >> heights[s] & 1)


def test_the_level_reader_gives_the_squares_of_each_set_and_pair() -> None:
    rng = random.Random(3)
    for _ in range(40):
        roles = [tuple(rng.randrange(16) if rng.random() < 0.5 else (rng.randrange(16), rng.randrange(16))
                       for _ in range(4)) for _ in range(rng.randrange(1, 4))]
        read = counted.level_reader(roles)
        for _ in range(20):
            heights = [rng.randrange(4) for _ in SQUARES]
            within = rng.getrandbits(50)
            expected = [((squares_of_levels(heights, e[0]) | squares_of_levels(heights, e[1]) << 25)
                         if isinstance(e, tuple) else squares_of_levels(heights, e)) & within
                        for role in roles for e in role]
            field = sum(1 << (25 * height + square) for square, height in enumerate(heights))  # (GameState.level_field)
            assert list(read(field, within)) == expected, roles


def test_one_multiplication_counts_the_free_squares_around_a_set() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        squares, free, wins = rng.getrandbits(25), rng.getrandbits(25), rng.getrandbits(25)
        lanes = (free * PAIR_SHIFTED) & PAIR_INSIDE
        expected = sum((free & AROUND_BITS[s]).bit_count() for s in SQUARES if squares >> s & 1)
        assert ((squares * PAIR_SPREAD) & lanes).bit_count() == expected
        both = squares | wins << 25  # (the follow-up move's ends and wins, as one number)
        assert ((both * PAIR_SPREAD) & (lanes | counted._WON)).bit_count() == expected + wins.bit_count()
