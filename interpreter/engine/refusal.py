"""Why a turn is refused: the first step the rules do not accept, and what is wrong with it.

The engine only knows that no way through the seat's rules matches the turn. To say why, this
module looks at the first step that fails and asks, in order: is the turn already complete; is it
a worker of another team; is the worker on the board; is the space next to the worker, free,
not domed, not too high; does an opponent's power forbid it (the step is allowed with that
power's prohibition lifted); could the turn be completed after it (the rules offer the step, but
no complete turn follows). Every answer comes from the state and the compiled rules, never from
a card's name. A `Refusal` carries it as data; its `text` is the message of IllegalTurn.
"""

from __future__ import annotations

import linecache
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TypedDict, Unpack

from ..chain.walk import Action, same_step
from ..model.board import NEIGHBOURS, square_name
from ..model.notation import format_step
from ..model.state import GameState

if TYPE_CHECKING:
    from .engine import Engine


class Reason(Enum):
    """What is wrong with a refused turn."""

    INCOMPLETE = "the turn is not complete"
    COMPLETE = "the turn is already complete"
    NOT_YOURS = "that worker is not yours"
    OFF_BOARD = "that worker is not on the board"
    NOT_NEIGHBORING = "the space is not next to the worker"
    OCCUPIED = "the space is occupied"
    DOMED = "the space is domed"
    TOO_HIGH = "the space is too high"
    NOT_A_DOME = "no dome may be built there"
    FORBIDDEN = "an opponent's power forbids it"
    CANNOT_COMPLETE = "the turn could not be completed after it"
    NOT_OFFERED = "the rules offer no such step here"


@dataclass(frozen=True)
class Refusal:
    """Why a turn is refused, as data: the reason, the failing step (its index in the turn; None
    for the turn as a whole), the steps the rules allow at that point, the power that forbids it
    (its name and sentence, for FORBIDDEN), and the message."""

    reason: Reason
    step: int | None
    allowed: tuple[str, ...]
    text: str
    power: str | None = None
    sentence: str | None = None
    details: dict[str, object] = field(default_factory=dict)


class _Extra(TypedDict, total=False):
    """What a refusal may carry besides its reason and message (see `Refusal`)."""

    power: str | None
    sentence: str | None
    details: dict[str, object]


def explain(engine: Engine, state: GameState, steps: Sequence[Action]) -> Refusal:
    """Why the seat to move may not play `steps` (which the engine has refused)."""
    for index in range(len(steps) + 1):
        prefix = tuple(steps[:index])
        legal, complete = engine.legal_next(state, prefix)
        allowed = tuple(format_step(state, a) for a in legal)
        if index == len(steps):
            return Refusal(Reason.INCOMPLETE, None, allowed,
                           f"the turn is not complete; it must go on with one of: {', '.join(allowed)}")
        step = steps[index]
        if any(same_step(state, step, a) for a in legal):
            continue
        written = format_step(state, step)
        if not legal and complete:
            return Refusal(Reason.COMPLETE, index, (), f"'{written}' (step {index + 1}): the turn is already complete")
        return _diagnose(engine, state, prefix, index, step, written, allowed)
    return Refusal(Reason.NOT_OFFERED, None, (), "the turn is not allowed")  # pragma: no cover - engines agree


def _diagnose(engine: Engine, state: GameState, prefix: tuple[Action, ...], index: int, step: Action,
              written: str, allowed: tuple[str, ...]) -> Refusal:
    here = _state_after(engine, state, prefix)
    options = ", ".join(allowed) or "none"

    def refuse(reason: Reason, why: str, **extra: Unpack[_Extra]) -> Refusal:
        return Refusal(reason, index, allowed, f"'{written}' (step {index + 1}): {why}; allowed: {options}", **extra)

    verb, worker, target = step
    mover_team = here.seats[here.to_move].team
    if verb in ("move", "build", "dome") and isinstance(worker, int) and worker >= 0:
        if here.worker_team[worker] != mover_team:
            own = ", ".join(here.worker_name(w) for w in here.team_workers(mover_team)) or "none"
            return refuse(Reason.NOT_YOURS, f"{here.worker_name(worker)} is not yours (yours: {own})")
        if here.worker_pos[worker] < 0:
            return refuse(Reason.OFF_BOARD, f"{here.worker_name(worker)} is not on the board")
    if engine.offers(state, prefix, step):
        return refuse(Reason.CANNOT_COMPLETE, "the rules offer this step, but no complete turn follows it "
                                              "(a step the turn must still take would be impossible)")
    forbidding = _forbidding_power(engine, state, prefix, step)
    if forbidding is not None:
        name, sentence = forbidding
        return refuse(Reason.FORBIDDEN, f"{name}'s power forbids it ({sentence})", power=name, sentence=sentence)
    if verb in ("move", "build", "dome") and isinstance(target, int) and target >= 0 and worker >= 0:
        origin = here.worker_pos[worker]
        name = here.worker_name(worker)
        reach = [a for a in _legal(engine, state, prefix) if a[1] == worker and _kind(a[0]) == _kind(verb)]
        only_neighbours = all(a[2] in NEIGHBOURS[origin] for a in reach)
        if target not in NEIGHBOURS[origin] and target != origin and only_neighbours:
            return refuse(Reason.NOT_NEIGHBORING, f"{square_name(target)} is not next to {name} "
                                                  f"(on {square_name(origin)})")
        if verb == "move" and target == origin:
            return refuse(Reason.NOT_NEIGHBORING, f"{name} stands on {square_name(target)} already")
        occupant = here.occupant[target]
        if occupant >= 0 and occupant != worker:
            return refuse(Reason.OCCUPIED, f"{square_name(target)} is occupied by {here.worker_name(occupant)}",
                          details={"occupant": here.worker_name(occupant)})
        if here.domes[target]:
            return refuse(Reason.DOMED, f"{square_name(target)} is domed")
        if verb == "dome" and engine.offers(state, prefix, ("build", worker, target)):
            return refuse(Reason.NOT_A_DOME, f"a dome on {square_name(target)} (level {here.heights[target]}) is not "
                                             f"allowed, only the next block: 'build {name} {square_name(target)}'")
        if verb == "move" and here.heights[target] - here.heights[origin] > 1:
            return refuse(Reason.TOO_HIGH, f"{square_name(target)} is too high (level {here.heights[target]} "
                                           f"from level {here.heights[origin]})",
                          details={"from": here.heights[origin], "to": here.heights[target]})
    return refuse(Reason.NOT_OFFERED, "not allowed here")


def _kind(verb: str) -> str:
    return "build" if verb == "dome" else verb


def _legal(engine: Engine, state: GameState, prefix: tuple[Action, ...]) -> list[Action]:
    return engine.legal_next(state, prefix)[0]


def _state_after(engine: Engine, state: GameState, prefix: tuple[Action, ...]) -> GameState:
    """The state once the accepted steps before the failing one are taken."""
    if not prefix:
        return state
    seen: list[GameState] = []
    engine.trace(state, prefix, lambda snapshot, steps: seen.append(snapshot))
    return seen[-1] if seen else state


def _forbidding_power(engine: Engine, state: GameState, prefix: tuple[Action, ...],
                      step: Action) -> tuple[str, str] | None:
    """The power (its name, and the sentence) whose prohibition alone refuses the step: with it
    lifted, the step is allowed and the turn can be completed."""
    for binding in engine._bindings:
        engine._lifted = frozenset({binding})
        try:
            legal, _ = engine.legal_next(state, prefix)
        finally:
            engine._lifted = frozenset()
        if any(same_step(state, step, a) for a in legal):
            power = next((p for p in engine.seat_powers[binding.seat] if binding.prohibition in p.prohibitions), None)
            where = binding.prohibition.where
            sentence = linecache.getline(where.file, where.line).strip().rstrip(".") or "a prohibition"
            return (power.name if power is not None else f"seat {state.seats[binding.seat].letter}"), sentence
    return None
