"""Compile a checked syntax tree into a Power: the hook objects the turn interpreter runs.

The compiler assumes the checker passed; it only translates. A section's header says which hook
point its sentences attach to; each sentence's parts become the typed parts of dsl.vocabulary.
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax import ast
from ..syntax.parser import Origin
from ..vocabulary import (
    ANY_NUMBER,
    ONCE,
    ActorIs,
    AllOf,
    Apart,
    BoardRule,
    BuildThere,
    ChangeCounter,
    Compare,
    CountIs,
    DomeLike,
    Effect,
    FirstTurn,
    Flanked,
    FollowUp,
    FollowUpTiming,
    Force,
    Happened,
    HappeningKind,
    LastMoves,
    LoseWhenStuck,
    Modality,
    Not,
    Obligation,
    OppositeEdges,
    Owner,
    Piece,
    PieceIs,
    PlaceFirst,
    Placement,
    PlacementArea,
    PlayerCount,
    Power,
    Program,
    Prohibition,
    Quantity,
    Reaction,
    Region,
    Reserve,
    Role,
    SameSpace,
    Scope,
    SetupKind,
    SetupToken,
    SpaceIs,
    SpaceRef,
    SpaceSelector,
    Step,
    StepOption,
    StepPattern,
    TargetLevel,
    Teams,
    Timing,
    ToCard,
    TokenPoints,
    Verb,
    Where,
    WinOnStep,
    WinVeto,
    WinWhen,
    WorkersAre,
    WorkerSelector,
    WorkerSexes,
)
from ..vocabulary.hooks import SetupRule
from ..vocabulary.parts import NOT_UP, UNOCCUPIED, Condition

#: Sections whose sentences are a whole turn, and whether the turn is announced (`use NAME`).
PROGRAM_SECTIONS = {Timing.TURN: False, Timing.YOUR_TURN: False, Timing.ALTERNATIVE_TURN_OPTIONAL: True,
                    Timing.ALTERNATIVE_TURN: True, Timing.ADDITIONAL_TURN: False}


def compile_rules(rules: ast.Rules, origin: Origin, name: str) -> Power:
    """Translate a card's checked rules into its Power."""
    power = Power(name=name)
    for section in rules.sections:
        header, once = section.timing, section.once
        assert header is not None  # (the checker refuses an unknown section)
        mark = f"{name}: {header.value} (once per game)" if once else None
        if header in PROGRAM_SECTIONS:
            steps = tuple(step(s.clause, origin, s.guard) for s in section.statements
                          if isinstance(s.clause, (ast.StepNode, ast.HappeningNode)))  # (all are: the checker)
            winless = any(isinstance(s.clause, ast.WinlessNode) for s in section.statements)
            power.programs.append(Program(name, PROGRAM_SECTIONS[header], steps, where(section, origin), mark,
                                          replaces=section.instead, additional=header is Timing.ADDITIONAL_TURN,
                                          winless=winless))
            continue
        options, ends, begins = len(power.options), len(power.turn_ends), len(power.turn_begins)
        for statement in section.statements:
            _statement(power, header, statement, origin)
        if mark is not None:
            power.options[options:] = [replace(o, once_per_game=mark) for o in power.options[options:]]
            power.turn_ends[ends:] = [replace(s, once_per_game=mark) for s in power.turn_ends[ends:]]
            power.turn_begins[begins:] = [replace(s, once_per_game=mark) for s in power.turn_begins[begins:]]
    return power


def where(node: ast.Node, origin: Origin) -> Where:
    line, column = origin.locate(node.line, node.column)
    return Where(origin.file, line, column)


def place_condition(place: ast.Place, verb: Verb | None = None) -> Condition:
    """A place phrase used as a filter: the target is that space, or a space of that kind; for a
    move 'from ...', the space the worker leaves."""
    space = place.space
    if space.region is Region.SINGLE:
        assert space.ref is not None  # (one space is named by a reference)
        return SameSpace(space.ref)
    parts = space.filters
    if place.origin and verb is Verb.MOVE:
        parts = tuple(replace(p, space=SpaceRef.ORIGIN) if isinstance(p, SpaceIs) else p for p in parts)
    return parts[0] if len(parts) == 1 else AllOf(parts)


def qualifier_condition(qualifier: ast.Qualifier, verb: Verb | None = None) -> Condition | None:
    """The filter a qualifier puts on a step; None for one that says when instead ('on your last
    turn': a qualifier is a condition, a place or a scope)."""
    part = place_condition(qualifier.place, verb) if qualifier.place is not None else qualifier.part
    if part is None:
        return None
    return Not(part) if qualifier.negated else part


def filters(qualifiers: tuple[ast.Qualifier, ...], verb: Verb | None = None) -> tuple[Condition, ...]:
    """The filters of the qualifiers that are not scopes."""
    return tuple(part for q in qualifiers if q.scope is None and (part := qualifier_condition(q, verb)) is not None)


def pattern(node: ast.PatternNode) -> StepPattern:
    piece: tuple[Condition, ...] = (PieceIs(node.piece),) if node.piece is not None else ()
    if node.tower:  # ('a complete tower': a dome, on a space of level 3)
        piece = (*piece, TargetLevel(Compare.EQ, 3))
    return StepPattern(node.verb, node.actor.selector.owner, (*piece, *filters(node.qualifiers, node.verb)))


def condition(node: ast.ConditionNode) -> Condition:
    """A guard or a win's condition: a pattern over the event log (within the scope its words
    give), the state of some workers, or a count on the board."""
    if isinstance(node, ast.WorkerStateNode):
        return WorkersAre(node.actor.selector, filters(node.qualifiers))
    if isinstance(node, ast.TowersNode):
        return CountIs(Quantity.COMPLETE_TOWERS, Compare.GE, node.count)
    if isinstance(node, ast.FlankedNode):
        return Flanked(Owner.OPPONENTS)
    if isinstance(node, ast.ApartNode):
        return Apart(node.owner, node.other)
    if isinstance(node, ast.TokenPointsNode):
        return TokenPoints(node.token, node.heading)
    if isinstance(node, ast.PlayerCountNode):
        return PlayerCount(node.counts)
    scope = next(q.scope for q in node.qualifiers if q.scope is not None)
    return Happened(scope, pattern(node))


def happening(node: ast.HappeningNode, origin: Origin, guard: ast.ConditionNode | None = None) -> Step:
    """What the rules make happen, as an automatic step: a removal of the worker on a space, or
    the loss of the player whose worker the guard names."""
    at = where(node, origin)
    guarded = condition(guard) if guard is not None else None
    if node.kind in (HappeningKind.REMOVAL, HappeningKind.REMOVAL_AND_BUILD):
        effects = (BuildThere(),) if node.kind is HappeningKind.REMOVAL_AND_BUILD else ()
        assert node.place is not None and node.victim is not None  # (a removal names whom, on what space)
        destination = node.place.space
        if node.kind is HappeningKind.REMOVAL_AND_BUILD:
            destination = SpaceSelector(Region.ANYWHERE, None, destination.filters)
        return Step(verb=Verb.REMOVE, actor=WorkerSelector(Role.THAT), modality=Modality.AUTOMATIC, where=at,
                    destination=destination, target=node.victim.selector, guard=guarded, effects=effects)
    if node.kind is HappeningKind.TOKEN:
        return Step(verb=Verb.TOKEN, actor=WorkerSelector(Role.THAT), modality=Modality.AUTOMATIC, where=at,
                    destination=SpaceSelector(Region.SINGLE, SpaceRef.LAST_BUILT), token=node.token,
                    per_game=node.per_game)
    if node.kind is HappeningKind.SLIDE:
        return Step(verb=Verb.FORCE, actor=WorkerSelector(Role.THAT), modality=Modality.AUTOMATIC, where=at,
                    repeat=ANY_NUMBER, destination=SpaceSelector(Region.SINGLE, SpaceRef.BEYOND, (UNOCCUPIED,)),
                    filters=(NOT_UP,))
    if node.kind is HappeningKind.ADDITIONAL_TURN:
        return Step(verb=Verb.GRANT_TURN, actor=WorkerSelector(Role.THAT), modality=Modality.AUTOMATIC, where=at,
                    guard=guarded)
    if node.kind is HappeningKind.OWNER_LOSS:  # (the player of the worker whose step triggered it)
        return Step(verb=Verb.LOSE, actor=WorkerSelector(Role.THAT), modality=Modality.AUTOMATIC, where=at,
                    target=WorkerSelector(Role.THAT, Owner.ANYONES), guard=guarded)
    return Step(verb=Verb.LOSE, actor=WorkerSelector(Role.THAT), modality=Modality.AUTOMATIC, where=at,
                target=WorkerSelector(Role.FLANKED, Owner.OPPONENTS), guard=guarded)


def step(node: ast.StepNode | ast.HappeningNode, origin: Origin, guard: ast.ConditionNode | None = None) -> Step:
    if isinstance(node, ast.HappeningNode):
        return happening(node, origin, guard)
    if node.verb is Verb.POINT:
        return Step(verb=Verb.POINT, actor=node.actor.selector, modality=node.modality or Modality.MUST,
                    where=where(node, origin), token=node.token, heading=node.heading,
                    guard=condition(guard) if guard is not None else None)
    effects: tuple[Effect, ...] = tuple(Force(f.actor.selector, f.place.space) for f in node.effects)
    if node.verb is Verb.REMOVE and node.target is not None and node.target.selector.role is Role.SUBJECT:
        effects = (ToCard(),)  # ('you must return one of your workers to your card': the worker itself)
    # (a swap's 'your workers' is each of them, once: every one exchanges spaces, or none does)
    actor = WorkerSelector(Role.EVERY) if node.verb is Verb.SWAP else node.actor.selector
    return Step(verb=node.verb, actor=actor, modality=node.modality or Modality.MUST,
                where=where(node, origin), repeat=node.repeat or ONCE,
                destination=node.place.space if node.place is not None else None,
                piece=node.piece or Piece.NEXT,
                filters=(*filters(node.qualifiers, node.verb), *filters(tuple(g for g in (node.gap,) if g))),
                effects=effects, target=node.target.selector if node.target is not None else None,
                guard=condition(guard) if guard is not None else None, can_win=node.can_win,
                cost=tuple(ChangeCounter(counter, -amount) for counter, amount in node.cost))


def _statement(power: Power, header: Timing, statement: ast.Statement, origin: Origin) -> None:
    node = statement.clause
    at = where(node, origin)
    if isinstance(node, (ast.StepNode, ast.HappeningNode)):
        compiled = step(node, origin, statement.guard)
        if header is Timing.AT_ALL_TIMES:
            assert compiled.destination is not None  # (the checker: a board rule says where the step goes)
            power.board_rules.append(BoardRule(compiled.verb, compiled.destination, compiled.filters, at))
        elif header is Timing.END_OF_YOUR_TURN and statement.otherwise:
            # (the checker: the sentence before is a guarded step of this section)
            power.turn_ends[-1] = replace(power.turn_ends[-1], otherwise=compiled)
        elif header is Timing.END_OF_YOUR_TURN:
            power.turn_ends.append(compiled)
        elif header is Timing.START_OF_YOUR_TURN:
            power.turn_begins.append(compiled)
        else:  # (a step option: the checker admits no happening here)
            power.options.append(StepOption(compiled, at, instead=isinstance(node, ast.StepNode) and node.instead))
    elif isinstance(node, ast.FollowUpNode):
        if header in (Timing.OPPONENTS_TURN, Timing.AT_ALL_TIMES):
            power.reactions.append(Reaction(pattern(node.trigger), step(node.step, origin), at))
        else:
            # ('each time' offers a step again after each of its own steps that match; what happens
            # with no choice has no steps of its own: it follows each matching step once)
            timing = FollowUpTiming.AFTER if isinstance(node.step, ast.HappeningNode) else node.timing
            power.followups.append(FollowUp(pattern(node.trigger), step(node.step, origin, statement.guard), at,
                                            timing))
    elif isinstance(node, ast.PlaceTokenNode):
        power.turn_ends.append(Step(verb=Verb.TOKEN, actor=WorkerSelector(Role.MOVED), modality=Modality.MAY,
                                    where=at, destination=node.place.space, token=node.token))
    elif isinstance(node, ast.DomeLikeNode):
        power.dome_likes.append(DomeLike(node.token, node.actor.selector.owner, at))
    elif isinstance(node, ast.GainNode):
        power.turn_starts.append(ChangeCounter(node.counter, node.amount))
    elif isinstance(node, ast.ObligationNode):
        requirement: Condition
        if node.verb is None:
            requirement = LastMoves(Owner.OPPONENTS, filters(node.started), filters(node.qualifiers))
        else:
            requirement = Happened(Scope.THIS_TURN, StepPattern(node.verb, Owner.OPPONENTS, filters(node.qualifiers)))
        power.obligations.append(Obligation(Owner.OPPONENTS, requirement, node.if_possible, at))
    elif isinstance(node, ast.VetoNode):
        filters_ = filters(node.qualifiers)
        power.vetoes.append(WinVeto(node.actor.selector.owner, StepPattern(Verb.MOVE, node.actor.selector.owner,
                                                                           filters_), at))
    elif isinstance(node, ast.ProhibitionNode):
        when = condition(statement.guard) if statement.guard is not None else None
        binds = node.actor.selector.owner
        piece = (PieceIs(node.piece),) if node.piece is not None else ()
        spared = node.actor.selector.excluding
        sparing = (Not(ActorIs(spared.owner, spared.sex)),) if spared is not None else ()
        power.prohibitions.append(Prohibition(binds, node.verb, (*piece, *filters(node.qualifiers, node.verb),
                                                                 *sparing), when, at))
    elif isinstance(node, ast.WinNode):
        when = condition(statement.guard) if statement.guard is not None else None
        if isinstance(node.pattern, ast.PatternNode):
            power.wins.append(WinOnStep(pattern(node.pattern), at, when))
        else:
            test = condition(node.pattern)
            power.wins_when.append(WinWhen(test if when is None else AllOf((when, test)), at))
    elif isinstance(node, ast.LossNode):
        power.losses.append(LoseWhenStuck(at))
    elif isinstance(node, ast.PlacementNode):
        power_setup(power, node, at)
    else:  # pragma: no cover - the checker admits no other clause
        raise TypeError(f"cannot compile {type(node).__name__}")


def power_setup(power: Power, node: ast.PlacementNode, at: Where) -> None:
    """A setup sentence: a placement count goes to `placements`, every other rule to `setup`."""
    kind = node.kind
    if kind in (SetupKind.EACH_PLAYER, SetupKind.YOU_PLACE, SetupKind.TEAM_PLAYER):
        power.placements.append(Placement(node.count, at, placer=node.rank))
        return
    rule: SetupRule
    if kind is SetupKind.TEAMMATES:
        assert node.pairing is not None  # (the parser gives teammates their pairing)
        rule = Teams(node.pairing, at)
    elif kind is SetupKind.FIRST_TURN:
        rule = FirstTurn(node.rank, at)
    elif kind is SetupKind.FIRST:
        rule = PlaceFirst(at)
    elif kind is SetupKind.WHERE:
        assert node.place is not None  # (the grammar: 'you place your workers <place>')
        rule = PlacementArea((place_condition(node.place),), at)
    elif kind is SetupKind.OPPOSITE_EDGES:
        rule = OppositeEdges(at)
    elif kind is SetupKind.FEMALE:
        rule = WorkerSexes(1, at)
    elif kind is SetupKind.EXTRA:
        rule = Reserve(node.count, at)
    elif kind is SetupKind.TOKEN:
        assert node.place is not None and node.token is not None  # (the grammar: '... your X token <place>')
        rule = SetupToken(node.token, node.place.space.filters, node.secret, at)
    else:  # pragma: no cover - the placements returned above
        raise KeyError(kind)
    power.setup.append(rule)
