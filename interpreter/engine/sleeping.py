"""Parts that need a token on the board sleep while there is none.

A part may act only where a card's token lies: a reaction to moves 'onto a space with your abyss
token', a veto of wins by such moves. When that kind of token is placed only at setup (no step of
a turn places one), a state without one on the board stays without one: the part can never act
again, and the seat's turns are those of its rules without it. So the engine compiles a second
time, from the powers without those parts, and serves such states from it (`Engine._for`): its
fast paths, which the live part would keep off (a reaction to every move), serve them. The typical
state is a seat's view that a secret token is hidden from (engine/views.py), and a game whose
token was built on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ...dsl.vocabulary import Condition, HasToken, Power, SetupToken
from ..chain.rules import SeatRules


def sleeping_kinds(seat_rules: Sequence[SeatRules]) -> frozenset[str]:
    """The kinds of token that only a setup places and that some part needs on the board (in the
    conditions every one of its matches meets)."""
    placed_in_turns = {kind for rules in seat_rules for kind in rules.turn_token_kinds()}
    setup_only = {kind for rules in seat_rules for kind in rules.setup_token_kinds()} - placed_in_turns
    needed = {kind for rules in seat_rules
              for filters in (*(r.trigger.filters for r in rules.reactions), *(v.pattern.filters for v in rules.vetoes))
              for kind in _needed(filters)}
    return frozenset(setup_only & needed)


def without_sleeping(power: Power, kinds: frozenset[str]) -> Power:
    """The power without the parts that need a token of `kinds` on the board, and without the
    setup that places one (for an engine that serves only states with none)."""
    return dataclasses.replace(
        power,
        reactions=[r for r in power.reactions if not _needed(r.trigger.filters) & kinds],
        vetoes=[v for v in power.vetoes if not _needed(v.pattern.filters) & kinds],
        setup=[r for r in power.setup if not (isinstance(r, SetupToken) and r.token.value in kinds)])


def _needed(filters: tuple[Condition, ...]) -> set[str]:
    """The kinds of token a conjunction of filters needs on its target (a HasToken among them)."""
    return {part.token.value for part in filters if isinstance(part, HasToken)}


__all__ = ["sleeping_kinds", "without_sleeping"]
