"""Ready-made step tuples, shared by every search: an enumeration stores one turn per outcome,
and making each ("move", worker, square) tuple anew was a good part of its time."""

from __future__ import annotations

from ..model.board import SQUARES
from ..model.state import Action

#: 32 workers is 8 seats of 4; a game with more workers makes its own (see `actions`).
_TABLE_WORKERS = 32
_ACTIONS = {verb: tuple(tuple((verb, w, s) for s in SQUARES) for w in range(_TABLE_WORKERS))
            for verb in ("move", "build", "dome", "unbuild")}


def actions(verb: str, worker: int) -> tuple[Action, ...]:
    """ACTIONS[square]: the step (verb, worker, square) for every square."""
    table = _ACTIONS[verb]
    return table[worker] if worker < _TABLE_WORKERS else tuple((verb, worker, s) for s in SQUARES)
