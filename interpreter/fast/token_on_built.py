"""The plain turn with 'after your worker builds a block, a token is placed on its space, up to N
times in the game', counted.

The token comes with no choice (`FastRules.token_on_built`), so the outcomes are the plain
turn's, as many and in the same order: what changes is what a turn does. A build takes away a
token on its space (the seat's own: the gate lets every other token be one the seat treats as a
dome, which no build reaches); then, if the build was a block and fewer than N tokens were placed
in the game, a new token goes on that space and the count goes up by one (the counter
'<kind> tokens placed' on the card), as the step chain's follow-up does. tests/test_fast_paths.py
compares the picker with the generic chain, every index, and tests/test_masked_picker.py has a
position made for it.
"""

from __future__ import annotations

from random import Random

from ..model.state import GameState
from .bits import token_squares
from .plain import MOVES_AND_BUILDS, PlainCount, _Moves, is_plain
from .shape import FastRules, without


def token_on_built_picker(rules: FastRules) -> TokenOnBuilt | None:
    """The counting picker of the plain turn with a token placed on each block built, and
    nothing else but tokens read as domes; else None."""
    if rules.token_on_built is None or len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) \
            or rules.move_options or rules.build_options:
        return None
    if without(rules, frozenset(("token_on_built", "dome_tokens"))).extended:
        return None
    return TokenOnBuilt(rules)


class TokenOnBuilt:
    """A picker (counted.py's Picker) for the plain turn with a token on each block built."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS | {"token", "counter"}

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.kind, self.limit = rules.token_on_built
        self.count = f"{self.kind} tokens placed"  # (the chain's counter of the tokens placed)
        self.dome_tokens = rules.dome_tokens

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        if self.dome_tokens and st.tokens:
            free &= ~token_squares(st, self.dome_tokens)
        plain = PlainCount(st, team, self.kinds[forbid_up][forbid_down], free)
        if not plain.total:
            return None
        steps, events = plain.draw(rng.randrange(plain.total))
        if events is None:
            return steps, None
        build = events[-1]
        _, _, square, _, dome = build
        added: tuple = ()
        token = st.tokens.get(square)
        if token is not None:  # (taken away by the build)
            added += (("token", token[1], token[0], square, -1),)
        seat = st.to_move
        placed = st.counters.get((seat, self.count), 0)
        if not dome and (self.limit is None or placed < self.limit):
            added += (("token", seat, self.kind, -1, square), ("counter", seat, self.count, placed + 1))
        return steps, events + added
