"""The plain turn, then 'you may place your token on an unoccupied space neighboring the moved
worker', counted.

After the move and its build, the seat may put its token (`FastRules.token_after`) on a space
around the moved worker that no worker, dome or token holds, taking it from wherever it was (its
card, or another space). The gate lets this picker run only where every token on the board is one
the seat treats as a dome (`FastRules.dome_tokens`, its own token among them): the spaces its
moves and builds may use hold no token, and the token's candidates are the spaces around the
worker left free once it has built.

For a move to t, the builds are the n free spaces around t (its origin included, the tokens'
squares left out). After the build on b, the token may stay, or go to any of those n spaces but
b when the build put a dome there (b was on level 3). Each (build, where the token is) is one
board, so a move's count is n (1 + n) less the builds on level 3; the chain lists each build,
then its turn with the token left where it was, then the token on each candidate in neighbour
order. A winning move ends the turn: one outcome, played by the engine. tests/test_fast_paths.py
compares the picker with the generic chain, every index, and tests/test_masked_picker.py has a
position counted by hand.
"""

from __future__ import annotations

from random import Random

from ..engine.actions import actions
from ..model.board import NEIGHBOUR_BITS, NEIGHBOURS, SQUARE_BITS
from ..model.state import GameState
from .counted import drawn
from .bits import token_squares
from .plain import A_MOVE, A_WIN, MOVES_AND_BUILDS, _Moves, build_event, is_plain
from .shape import FastRules, without


def token_after_picker(rules: FastRules) -> TokenAfterTurn | None:
    """The counting picker of the plain turn with the token placed after it, and nothing else
    but the tokens read as domes; else None."""
    if rules.token_after is None or len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) \
            or rules.move_options or rules.build_options:
        return None
    if without(rules, frozenset(("token_after", "dome_tokens"))).extended:
        return None
    if not any(kind == rules.token_after for _, kind in rules.dome_tokens):
        return None  # (its own token must be a dome to the seat: see the module's docstring)
    return TokenAfterTurn(rules)


class TokenAfterTurn:
    """A picker (counted.py's Picker) for the plain turn with the token placed after it."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS | {"token"}

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.kind, self.dome_tokens = rules.token_after, rules.dome_tokens

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        kinds = self.kinds[forbid_up][forbid_down]
        heights, positions = st.heights, st.worker_pos
        if st.tokens:
            free &= ~token_squares(st, self.dome_tokens)
        level_3 = st.level_field >> 75  # (levels_of(...)[3])
        total = 0
        ends: list[int] = []
        moves: list[tuple[int, int, int]] = []  # (worker, destination, its kind)
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            kind_of = kinds[heights[origin]]
            open_ = free | SQUARE_BITS[origin]
            for to, bit, around in NEIGHBOUR_BITS[origin]:
                if not free & bit:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_WIN:
                    total += 1
                elif kind == A_MOVE:
                    builds = open_ & around
                    if not builds:
                        continue
                    size = builds.bit_count()
                    total += size * (1 + size) - (builds & level_3).bit_count()
                else:
                    continue
                ends.append(total)
                moves.append((worker, to, kind))
        if not total:
            return None
        (worker, to, kind), index = drawn(ends, moves, total, rng)
        move = actions("move", worker)[to]
        if kind == A_WIN:
            return (move,), None
        origin = positions[worker]
        builds = (free | SQUARE_BITS[origin]) & ~SQUARE_BITS[to]
        squares = [s for s in NEIGHBOURS[to] if builds >> s & 1]
        moved = ("move", worker, origin, to, heights[origin], heights[to])
        for build in squares:
            height = heights[build]
            places = [s for s in squares if s != build or height < 3]
            if index > len(places):
                index -= 1 + len(places)
                continue
            steps = (move, actions("build", worker)[build])
            events = (moved, build_event(worker, build, height))
            if not index:
                return steps, events
            place = places[index - 1]
            seat = st.to_move
            was = next((s for s, token in st.tokens.items() if token == (self.kind, seat)), -1)
            return (*steps, ("token", self.kind, place)), (*events, ("token", seat, self.kind, was, place))
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree
