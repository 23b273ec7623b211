"""A seat's rules: the base card and the seat's powers, gathered once per game.

The base card states the board rules, the standard turn, the base win and the loss; a power adds
turns, follow-ups, step options, wins and prohibitions. Prohibitions bind the seats the card holder
opposes, so they are gathered per card holder and applied to the others when the engine is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...dsl.vocabulary import (
    AllOf,
    AnyOf,
    BoardRule,
    ChangeCounter,
    DomeLike,
    FollowUp,
    Happened,
    Not,
    Obligation,
    Owner,
    Power,
    Program,
    Prohibition,
    Reaction,
    Scope,
    SetupRule,
    SetupToken,
    Step,
    StepOption,
    Verb,
    WinOnStep,
    WinVeto,
    WinWhen,
)
from ...dsl.vocabulary.parts import Condition


@dataclass
class SeatRules:
    """What one seat plays by."""

    seat: int
    team: int
    board: dict[Verb, BoardRule]
    programs: list[Program]
    followups: list[FollowUp]
    options: dict[Verb, list[StepOption]]
    wins: list[WinOnStep]
    wins_when: list[WinWhen]
    vetoes: list[WinVeto]
    turn_ends: list[Step]
    turn_starts: list[ChangeCounter]
    #: Steps each of the seat's turns begins with, before its program's first step.
    turn_begins: list[Step]
    lose_when_stuck: bool
    prohibitions: list[Prohibition]
    obligations: list[Obligation]
    reactions: list[Reaction]
    dome_likes: list[DomeLike]
    #: The seat's cards' setup rules (placement order and area, sexes, extra workers).
    setup: list[SetupRule]
    #: Conditions of this seat's cards over the seat's own last turn: facts of its turns that a
    #: rule reads later, and so part of each of its turns' outcomes.
    memory: list[Happened]
    #: The turns the seat takes when it is owed an additional turn ('Additional Turn:'); where a
    #: card gives additional turns and has none, the seat's usual turns.
    additional: list[Program]
    #: Whether a step of the seat's turns gives it an additional turn.
    grants_turns: bool

    def turn_token_kinds(self) -> set[str]:
        """The kinds of token a step of the seat's turns puts on the board."""
        steps = [*self.turn_begins, *self.turn_ends, *(f.step for f in self.followups),
                 *(s for p in self.programs for s in p.steps),
                 *(o.step for options in self.options.values() for o in options)]
        return {step.token.value for step in steps if step.token is not None}

    def setup_token_kinds(self) -> set[str]:
        """The kinds of token the seat's setup puts on the board."""
        return {rule.token.value for rule in self.setup if isinstance(rule, SetupToken)}

    def placed_token_kinds(self) -> set[str]:
        """The kinds of token the seat's rules put on the board: by a step of its turns, or at
        setup."""
        return self.turn_token_kinds() | self.setup_token_kinds()


def reaches(holder: SeatRules, owner: Owner, team: int) -> bool:
    """Whether a rule of `holder`'s card about the workers of `owner` (seen from the holder: 'opponent
    workers', 'a worker') reaches the workers of `team`: a reaction, or a veto of wins."""
    return owner is Owner.ANYONES or (owner is Owner.OPPONENTS) == (holder.team != team)


def gather(seat: int, team: int, base: Power, powers: Sequence[Power]) -> SeatRules:
    """Combine the base card and a seat's powers into that seat's rules. A power's turn that
    replaces the standard one ('Your Turn (instead):') leaves out the base card's turn."""
    everything = [base, *powers]
    replaced = any(program.replaces for power in powers for program in power.programs)
    programs = [program for power in everything if not (replaced and power is base) for program in power.programs]
    steps = [*(s for power in powers for s in (*power.turn_ends, *power.turn_begins)),
             *(f.step for power in powers for f in power.followups),
             *(s for program in programs for s in program.steps)]
    grants = any(step.verb is Verb.GRANT_TURN for step in steps)
    usual = [program for program in programs if not program.additional]
    options: dict[Verb, list[StepOption]] = {}
    for power in everything:
        for option in power.options:
            options.setdefault(option.step.verb, []).append(option)
    prohibitions = [p for power in powers for p in power.prohibitions]
    memory = [c for p in prohibitions if p.when is not None for c in _last_turn_conditions(p.when)]
    return SeatRules(
        seat=seat, team=team,
        board={rule.verb: rule for rule in base.board_rules},
        programs=usual,
        followups=[f for power in everything for f in power.followups],
        options=options,
        wins=[w for power in everything for w in power.wins],
        wins_when=[w for power in powers for w in power.wins_when],
        vetoes=[v for power in powers for v in power.vetoes],
        turn_ends=[s for power in powers for s in power.turn_ends],
        turn_starts=[c for power in powers for c in power.turn_starts],
        turn_begins=[s for power in powers for s in power.turn_begins],
        lose_when_stuck=bool(base.losses),
        prohibitions=prohibitions,
        obligations=[o for power in powers for o in power.obligations],
        reactions=[r for power in powers for r in power.reactions],
        dome_likes=[d for power in powers for d in power.dome_likes],
        setup=[rule for power in powers for rule in (*power.setup, *power.placements)],
        memory=memory,
        additional=[program for program in programs if program.additional] or (usual if grants else []),
        grants_turns=grants,
    )


def _last_turn_conditions(condition: Condition) -> list[Happened]:
    if isinstance(condition, Happened):
        return [condition] if condition.scope is Scope.LAST_TURN else []
    if isinstance(condition, Not):
        return _last_turn_conditions(condition.part)
    if isinstance(condition, (AllOf, AnyOf)):
        return [h for part in condition.parts for h in _last_turn_conditions(part)]
    return []
