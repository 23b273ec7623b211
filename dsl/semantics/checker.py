"""Check a parsed card: known sections, sentences in the sections they belong to, references that
resolve ('that worker' needs an earlier step), qualifiers that fit their verb, no contradiction.

The grammar accepts every well-formed sentence anywhere; whether a sentence makes sense where it
stands is this module's job, so that the compiler only ever sees meaningful trees. All faults of a
card are reported, not just the first. A sentence that is well formed but asks for a part the
language does not have yet gets a message that names the missing part.
"""

from __future__ import annotations

import dataclasses
import difflib
from enum import Enum

from ..errors import SourceError
from ..syntax import ast
from ..syntax.parser import Origin
from ..vocabulary import (
    Against,
    AlongLine,
    AnyOf,
    Compare,
    FollowUpTiming,
    HappeningKind,
    LevelChange,
    Modality,
    Near,
    Not,
    Owner,
    Piece,
    PieceIs,
    Region,
    Role,
    RulesKind,
    SameSpace,
    Scope,
    SetupKind,
    Sex,
    SpaceIs,
    SpaceProperty,
    SpaceRef,
    SpaceSelector,
    TargetLevel,
    Timing,
    Verb,
    WorkerSelector,
)
from ..vocabulary.parts import Condition
from .compiler import PROGRAM_SECTIONS, qualifier_condition


class CheckError(SourceError):
    """A sentence that parses but does not make sense where it stands."""


class Sentence(Enum):
    """What a sentence is, where it stands: what the checker's tables are about (the value is how
    messages name it)."""

    HAPPENING = "something the rules make happen ('... is removed from the game')"
    OBLIGATION = "an obligation ('at least one opponent worker must ...')"
    GAIN = "a gain on the card ('you gain 1 coin')"
    PLACE_TOKEN = "a token placement ('you may place your talus token ...')"
    DOME_LIKE = "a token treated as a dome ('... treat spaces with your coin tokens as if they contain only a dome')"
    STEP = "a turn step"
    FOLLOW_UP = "a follow-up ('after ...', 'each time ...', 'before ...')"
    OPTION = "a step option ('your worker may ...')"
    BOARD_RULE = "a board rule ('a worker moves ...')"
    PROHIBITION = "a 'cannot' prohibition"
    VETO = "a win veto ('... cannot win by ...')"
    WIN = "a win condition"
    LOSS = "a loss condition"
    PLACEMENT = "a worker placement"
    END_STEP = "an end-of-turn step"
    START_STEP = "a start-of-turn step"
    WINLESS = "'no player can win during this turn'"


(HAPPENING, OBLIGATION, GAIN, PLACE_TOKEN, DOME_LIKE, STEP, FOLLOW_UP, OPTION, BOARD_RULE, PROHIBITION, VETO, WIN, LOSS,
 PLACEMENT, END_STEP, START_STEP, WINLESS) = Sentence

#: Which sentences each section may hold (the rulebook's timing words).
ALLOWED: dict[Timing, tuple[Sentence, ...]] = {
    Timing.TURN: (STEP,),
    Timing.YOUR_TURN: (STEP, WINLESS),
    Timing.ALTERNATIVE_TURN_OPTIONAL: (STEP, WINLESS),
    Timing.ALTERNATIVE_TURN: (STEP, WINLESS),
    Timing.ADDITIONAL_TURN: (STEP, WINLESS),
    Timing.YOUR_MOVE: (FOLLOW_UP, OPTION),
    Timing.YOUR_BUILD: (FOLLOW_UP, OPTION),
    Timing.ALTERNATIVE_BUILD: (OPTION,),
    Timing.END_OF_YOUR_TURN: (END_STEP, PLACE_TOKEN),
    Timing.START_OF_YOUR_TURN: (GAIN, START_STEP),
    Timing.OPPONENTS_TURN: (PROHIBITION, VETO, OBLIGATION, FOLLOW_UP, DOME_LIKE),
    Timing.WIN_CONDITION: (WIN,),
    Timing.ALTERNATIVE_WIN_CONDITION: (WIN,),
    Timing.LOSS_CONDITION: (LOSS,),
    Timing.AT_ALL_TIMES: (BOARD_RULE, PROHIBITION, DOME_LIKE, FOLLOW_UP, VETO),
    Timing.SETUP: (PLACEMENT,),
}
assert set(ALLOWED) == set(Timing), "every timing has its sentences"

#: The setup sentences of a mode (the others are a card's, about its holder).
MODE_SETUP = {SetupKind.EACH_PLAYER, SetupKind.TEAM_PLAYER, SetupKind.TEAMMATES, SetupKind.FIRST_TURN}

#: The sections '(once per game)' may limit.
ONCE_ABLE = {Timing.YOUR_MOVE, Timing.YOUR_BUILD, Timing.ALTERNATIVE_BUILD, Timing.ALTERNATIVE_TURN_OPTIONAL,
             Timing.ALTERNATIVE_TURN, Timing.YOUR_TURN, Timing.END_OF_YOUR_TURN, Timing.START_OF_YOUR_TURN}

#: The verb a section's follow-ups and options are about.
SECTION_VERB = {Timing.YOUR_MOVE: Verb.MOVE, Timing.YOUR_BUILD: Verb.BUILD, Timing.ALTERNATIVE_BUILD: Verb.BUILD}

#: Sections only the base card (the pack's standard rules) may have, and what a power writes instead.
BASE_ONLY = {
    Timing.TURN: "a power adds a turn with 'Your Turn:' or 'Alternative Turn (optional):'",
    Timing.LOSS_CONDITION: "losing when stuck is a base rule; a power cannot change it yet",
}

#: Sentences that only mean something on one kind of file, and why.
ONLY_ON = {
    BOARD_RULE: ({RulesKind.BASE}, "a board rule belongs to the base card"),
    PLACEMENT: ({RulesKind.MODE, RulesKind.GOD, RulesKind.HERO}, "worker placement belongs to a 'Setup:'"),
    PROHIBITION: ({RulesKind.GOD, RulesKind.HERO},
                  "a 'cannot' prohibition is a power's: it binds the power's opponents"),
    VETO: ({RulesKind.GOD, RulesKind.HERO}, "a win veto is a power's: it binds the power's opponents"),
    END_STEP: ({RulesKind.GOD, RulesKind.HERO}, "an end-of-turn step is a power's"),
    START_STEP: ({RulesKind.GOD, RulesKind.HERO}, "a start-of-turn step is a power's"),
}

#: The conditions a guard ('if ...') may put on each kind of sentence.
GUARDED = {WIN: "the number of players ('in a game of 3 players, ...')",
           OPTION: "what happened this turn or on your last turn, where your workers stand, the towers on the board "
                   "or the number of players ('if your worker moved up this turn, ...')",
           STEP: "what happened this turn or on your last turn, where your workers stand, the towers on the board "
                 "or the number of players ('if your worker moved up this turn, ...')",
           FOLLOW_UP: "what happened this turn or on your last turn, where your workers stand, the towers on the "
                      "board or the number of players ('if your worker moved up this turn, ...')",
           PROHIBITION: "a condition over what happened ('if one of your workers moved up on your last turn')",
           END_STEP: "a condition on your workers ('if your unmoved worker is on the ground level'), on where a "
                     "token of your card points ('if your wind token points nowhere'), on what "
                     "happened this turn ('if one of your workers moved down this turn') or on workers standing "
                     "apart ('if none of your workers neighbor each other')"}


def check_rules(rules: ast.Rules, origin: Origin, kind: RulesKind | str) -> list[CheckError]:
    """Every fault of a card's (or mode's) rules, for the kind of file they stand in (a RulesKind,
    or its name as a card's `kind:` writes it)."""
    checker = _Checker(origin, kind)
    checker.rules(rules)
    return checker.errors


def sentence_kind(header: Timing, clause: ast.Clause) -> Sentence:
    """What a clause is in the section it stands in."""
    if isinstance(clause, ast.HappeningNode):
        return END_STEP if header is Timing.END_OF_YOUR_TURN else HAPPENING
    if isinstance(clause, ast.ObligationNode):
        return OBLIGATION
    if isinstance(clause, ast.GainNode):
        return GAIN
    if isinstance(clause, ast.PlaceTokenNode):
        return PLACE_TOKEN
    if isinstance(clause, ast.DomeLikeNode):
        return DOME_LIKE
    if isinstance(clause, ast.StepNode):
        if header in PROGRAM_SECTIONS:
            return STEP
        if header is Timing.AT_ALL_TIMES:
            return BOARD_RULE
        if header is Timing.END_OF_YOUR_TURN:
            return END_STEP
        if header is Timing.START_OF_YOUR_TURN:
            return START_STEP
        return OPTION
    return {ast.FollowUpNode: FOLLOW_UP, ast.ProhibitionNode: PROHIBITION, ast.VetoNode: VETO, ast.WinNode: WIN,
            ast.LossNode: LOSS, ast.PlacementNode: PLACEMENT, ast.WinlessNode: WINLESS}[type(clause)]


class _Checker:
    def __init__(self, origin: Origin, kind: RulesKind | str) -> None:
        self.origin = origin
        self.kind = RulesKind(kind)
        self.errors: list[CheckError] = []

    def error(self, node: ast.Node, message: str) -> None:
        line, column = self.origin.locate(node.line, node.column)
        self.errors.append(CheckError(file=self.origin.file, line=line, column=column, message=message))

    def where(self, node: ast.Node) -> str:
        """'line L' of the file, for a message that names another place of the same rules."""
        return f"line {self.origin.locate(node.line, node.column)[0]}"

    def rules(self, rules: ast.Rules) -> None:
        for section in rules.sections:
            self.section(section)
        self.said_twice(rules)
        self.additional_turns(rules)
        self.pointed_tokens(rules)
        if self.kind is RulesKind.BASE:
            self.base_complete(rules)
        if self.kind is RulesKind.MODE:
            self.mode_setup(rules)

    def pointed_tokens(self, rules: ast.Rules) -> None:
        """A condition on where a token of the card points ('your wind token points nowhere',
        'against the direction of your wind token') needs a step of the card that points it: a
        token never pointed points nowhere, and the condition would never change."""
        nodes = [node for section in rules.sections for statement in section.statements
                 for node in _nodes((statement.guard, statement.clause))]
        pointed = {node.token for node in nodes if isinstance(node, ast.StepNode) and node.verb is Verb.POINT}
        for node in nodes:
            token = (node.token if isinstance(node, ast.TokenPointsNode)
                     else node.part.token if isinstance(node, ast.Qualifier) and isinstance(node.part, Against)
                     else None)
            if token is not None and token not in pointed:
                self.error(node, f"no step of this card points your {token.value} token: write one ('End of Your "
                                 f"Turn: you may point your {token.value} token in any direction.')")

    def additional_turns(self, rules: ast.Rules) -> None:
        """'Additional Turn:' is the turn a card's 'you may take an additional turn' gives: without
        that sentence on the card, the turn would never be taken."""
        grants = any(isinstance(node, ast.HappeningNode) and node.kind is HappeningKind.ADDITIONAL_TURN
                     for section in rules.sections for statement in section.statements
                     for node in _nodes(statement.clause))
        for section in rules.sections:
            if section.timing is Timing.ADDITIONAL_TURN and not grants:
                self.error(section, "'Additional Turn:' is the turn taken when the card gives one: say when, e.g. "
                                    "'Your Build: each time a worker builds a complete tower, you may take an "
                                    "additional turn.'")

    def said_twice(self, rules: ast.Rules) -> None:
        """The same sentence twice under one timing, or the same turn twice: a second option,
        follow-up, gain or binding is not redundant but applies the power again (two follow-ups
        make two more steps, each a branch of every turn), so a sentence written twice by mistake
        would change the card and multiply its turns. A turn's steps may repeat (a second build
        is a step of its own); a turn as a whole may not."""
        seen: dict[tuple[object, ...], ast.Node] = {}  # (the shapes are frozen data: hashable)
        for section in rules.sections:
            if section.timing is None:
                continue
            if section.timing in PROGRAM_SECTIONS:
                key = (section.timing, section.once, section.instead, _shape(section.statements))
                if section.statements and key in seen:
                    self.error(section, f"this turn is written twice (also at {self.where(seen[key])}): say it once")
                seen.setdefault(key, section)
                continue
            for statement in section.statements:
                if _said_once_elsewhere(section.timing, statement.clause):
                    continue
                key = (section.timing, section.once, section.instead, _shape(statement))
                if key in seen:
                    self.error(statement.clause, f"this sentence is said twice in '{section.timing.value}:' (also at "
                                                 f"{self.where(seen[key])}): a second one applies it again; say it "
                                                 "once")
                seen.setdefault(key, statement.clause)

    # ---- sections
    def section(self, section: ast.Section) -> None:
        header, once = section.timing, section.once
        if header is None:
            written = section.header.removesuffix(" (instead)").removesuffix(" (once per game)")
            names = {timing.value: timing for timing in Timing}
            close = difflib.get_close_matches(written, names, n=1)
            hint = f" (did you mean '{close[0]}:'?)" if close else ""
            known = ", ".join(f"'{t.value}:'" for t in Timing)
            self.error(section, f"unknown section '{written}:'{hint}; sections are {known}")
            return
        if section.instead and (header is not Timing.YOUR_TURN or once):
            self.error(section, "'(instead)' makes a turn replace the standard one: write 'Your Turn (instead):'")
        if once and header not in ONCE_ABLE:
            self.error(section, "'(once per game)' limits a step option, a turn, an alternative turn, an "
                                f"end-of-turn step or a step before the turn; '{header.value}:' holds none of them")
        if header is Timing.ALTERNATIVE_TURN and not once:
            self.error(section, "an announced alternative turn is 'Alternative Turn (optional):', or "
                                "'Alternative Turn (once per game):'")
        if header in BASE_ONLY and self.kind is not RulesKind.BASE:
            self.error(section, f"only the pack's base card may have a '{header.value}:' section; {BASE_ONLY[header]}")
        if self.kind is RulesKind.MODE and header is not Timing.SETUP:
            self.error(section, f"a mode's rules are its 'Setup:' for now, not '{header.value}:'")
        if not section.statements:
            self.error(section, f"section '{header.value}:' is empty")
        for index, statement in enumerate(section.statements):
            if statement.otherwise:
                self.otherwise(section, index)
            self.statement(header, statement)
        if header in PROGRAM_SECTIONS:
            self.program(section)
        if once and header in SECTION_VERB and any(isinstance(s.clause, ast.FollowUpNode) for s in section.statements):
            self.error(section, "a follow-up cannot be limited to once per game yet; give the power as a step option")
        if once and header is Timing.START_OF_YOUR_TURN:
            for statement in section.statements:
                if isinstance(statement.clause, ast.GainNode):
                    self.error(statement.clause, "a gain happens at the start of every turn: it cannot be once "
                                                 "per game")
        if once and header is Timing.END_OF_YOUR_TURN:
            for statement in section.statements:
                clause = statement.clause
                if isinstance(clause, ast.PlaceTokenNode):
                    continue  # (a token the player may place)
                if not isinstance(clause, ast.StepNode):
                    self.error(clause, "what happens with no choice cannot be once per game: only a step the "
                                       "player chooses to take ('the moved worker may build ...')")
                elif clause.modality is not Modality.MAY:
                    self.error(clause, "a once-per-game step is the player's to use when they choose: write 'may'")

    def otherwise(self, section: ast.Section, index: int) -> None:
        """'otherwise, ...' is taken where the guard of the sentence before does not hold: both are
        steps at the end of the turn, and the one before is guarded (and not a swap, whose guard
        names the opponent it acts on)."""
        clause = section.statements[index].clause
        before = section.statements[index - 1] if index else None
        if section.timing is not Timing.END_OF_YOUR_TURN or section.once:
            self.error(clause, "'otherwise' follows a guarded step at the end of your turn, for now ('End of Your "
                               "Turn:')")
        elif (before is None or before.guard is None or before.otherwise or not isinstance(before.clause, ast.StepNode)
              or before.clause.verb is Verb.SWAP):
            self.error(clause, "'otherwise' is taken where the condition of the sentence before does not hold: "
                               "the sentence before must be a step under a condition ('if none of your workers "
                               "neighbor each other, ...')")
        elif not isinstance(clause, ast.StepNode):
            self.error(clause, "'otherwise' gives a step the player takes, for now")

    def statement(self, header: Timing, statement: ast.Statement) -> None:
        clause = statement.clause
        kind = sentence_kind(header, clause)
        if kind not in ALLOWED[header]:
            allowed = " or ".join(k.value for k in ALLOWED[header])
            self.error(clause, f"{kind.value} cannot stand in '{header.value}:'; this section holds {allowed}")
            return
        kinds, why = ONLY_ON.get(kind, (None, ""))
        if kinds is not None and self.kind not in kinds:
            self.error(clause, f"{why}, not on a {self.kind.value} card" if self.kind is not RulesKind.MODE
                       else f"{why}, not in a mode")
            return
        if statement.guard is not None:
            self.guard(statement.guard, kind)
        for node in _nodes(clause):
            if getattr(node, "piece", None) is Piece.STACK and not (isinstance(node, ast.StepNode)
                                                                     and node.verb is Verb.REMOVE):
                self.error(node, "'all blocks' is what a removal takes ('remove all blocks from ...'); a build "
                                 "places one piece")
        for actor in _actors(clause):
            selector = actor.selector
            chooses_opponents = selector.role is Role.CHOSEN and selector.owner is Owner.OPPONENTS
            if (selector.excluding is not None and not isinstance(clause, ast.ProhibitionNode)
                    and not chooses_opponents):
                self.error(actor, f"'{actor.words}' names the workers a prohibition binds, for now ('all workers "
                                  "except your female worker cannot move orthogonally')")
        # (where a clause names workers, its own check refuses the ones it does not take; a guard
        # reads what happened to any worker it names, so it says so here)
        for actor in _actors(statement.guard):
            if actor.selector.role is Role.LAST_MOVED:
                self.error(actor, f"'{actor.words}' names workers a step leaves out: write it after 'except' ('one "
                                  "of an opponent's workers except the worker its player moved last')")
        placed = clause.place if isinstance(clause, ast.StepNode) and clause.verb is Verb.PLACE else None
        for node in _nodes(clause):
            if isinstance(node, ast.StepNode) and node.verb is Verb.SWAP and kind is not END_STEP:
                self.error(node, "a swap is, for now, a step at the end of your turn: 'End of Your Turn: ... your "
                                 "workers may swap spaces with ...'")
                return
            if isinstance(node, ast.StepNode) and node.verb is Verb.POINT:
                if kind is not END_STEP:
                    self.error(node, "pointing a token of your card is, for now, a step at the end of your turn "
                                     "('End of Your Turn: you may point your wind token in any direction.')")
                    return
                continue
            if isinstance(node, ast.StepNode) and node.actor.selector.role is Role.HOLDER and kind is not STEP:
                self.error(node, "a force by you (no worker of yours acting) is, for now, a step of a turn: "
                                 "'Alternative Turn (optional): you force one or more opponent workers one space "
                                 "south. ...'")
                return
            if isinstance(node, ast.StepNode) and _returns_a_worker(node) and kind is not END_STEP:
                self.error(node, "returning a worker to your card is, for now, a step at the end of your turn")
                return
            if isinstance(node, ast.Place) and node.space.lowest and node is not placed:
                self.error(node, f"'{node.words}': 'lowest' chooses among the spaces where a worker from your card "
                                 "is placed, for now ('you place your extra worker on a lowest unoccupied space "
                                 "...')")
        if isinstance(clause, ast.StepNode) and _names_vacated(clause):
            self.error(clause, "'the space it just vacated' is the space its move left: the force follows a move "
                               "('after your worker moves, it may force ...')")
        # (each kind is one type of clause, or two for END_STEP: see sentence_kind)
        if isinstance(clause, ast.FollowUpNode):
            self.follow_up(header, clause)
        elif kind is OPTION and isinstance(clause, ast.StepNode):
            self.option(header, clause)
        elif kind is BOARD_RULE and isinstance(clause, ast.StepNode):
            self.board_rule(clause)
        elif isinstance(clause, ast.ProhibitionNode):
            self.prohibition(clause, header)
        elif isinstance(clause, ast.VetoNode):
            self.veto(clause, header)
        elif isinstance(clause, ast.ObligationNode):
            self.obligation(clause)
        elif isinstance(clause, ast.PlaceTokenNode):
            if not clause.near_moved:
                self.error(clause.place, "a token goes, for now, on 'an unoccupied space neighboring the moved worker'")
        elif isinstance(clause, ast.DomeLikeNode):
            owner = clause.actor.selector.owner
            if clause.actor.selector.role is not Role.EACH or owner is Owner.YOURS:
                self.error(clause.actor, "say who treats the token as a dome: 'opponent workers' or 'all workers'")
            if (owner is Owner.OPPONENTS) != (header is Timing.OPPONENTS_TURN):
                self.error(clause, "opponents' view belongs in 'Opponent's Turn:', everyone's in 'At All Times:'")
        elif kind is END_STEP and isinstance(clause, (ast.StepNode, ast.HappeningNode)):
            self.end_step(clause, statement.guard)
        elif kind is START_STEP and isinstance(clause, ast.StepNode):
            self.start_step(clause)
        elif isinstance(clause, ast.WinNode):
            self.win(clause)
        elif isinstance(clause, ast.PlacementNode):
            self.placement(clause)

    # ---- the parts of sentences
    def guard(self, guard: ast.ConditionNode, kind: Sentence) -> None:
        if kind not in GUARDED:
            self.error(guard, f"a condition ('if ...') on {kind.value} is not in the language yet: conditions guard "
                              f"{' and '.join(k.value for k in GUARDED)}")
            return
        if isinstance(guard, ast.PlayerCountNode) or kind is WIN:
            if not isinstance(guard, ast.PlayerCountNode) or kind not in (WIN, OPTION, FOLLOW_UP, STEP):
                self.error(guard, "'in a game of N players' guards a win condition, a turn step, a step option or a "
                                  "follow-up, and a win condition is guarded by it alone, for now")
            elif not all(2 <= count <= 8 for count in guard.counts) or len(set(guard.counts)) != len(guard.counts):
                self.error(guard, "a game has 2 to 8 players, each number said once")
            return
        if kind in (OPTION, FOLLOW_UP, STEP):
            self.step_guard(guard, kind)
            return
        if kind is END_STEP:
            if isinstance(guard, ast.WorkerStateNode):
                self.worker_state(guard)
            elif isinstance(guard, ast.PatternNode):
                scopes = [q for q in guard.qualifiers if q.scope is not None]
                if guard.tense != "past" or len(scopes) != 1 or scopes[0].scope is not Scope.THIS_TURN:
                    self.error(guard, "at the end of the turn, a condition over what happened says it happened this "
                                      "turn, in the past tense: 'if one of your workers moved down this turn'")
                self.qualifiers(guard.verb, guard.qualifiers, earlier_build=True, in_pattern=True)
            elif isinstance(guard, ast.ApartNode):
                self.apart(guard)
            elif not isinstance(guard, (ast.FlankedNode, ast.TokenPointsNode)):
                self.error(guard, f"{kind.value} is guarded by {GUARDED[END_STEP]}")
            return
        if not isinstance(guard, ast.PatternNode):
            self.error(guard, f"{kind.value} is guarded by {GUARDED[PROHIBITION]}")
            return
        scopes = [q for q in guard.qualifiers if q.scope is not None]
        if guard.tense != "past" or len(scopes) != 1:
            self.error(guard, "a condition over what happened says when, in the past tense: "
                              "'if one of your workers moved up on your last turn'")
        elif scopes[0].scope is not Scope.LAST_TURN:
            self.error(scopes[0], "a prohibition is put in force at the start of the opponent's turn: its "
                                  "condition looks back 'on your last turn'")
        self.qualifiers(guard.verb, guard.qualifiers, earlier_build=True, in_pattern=True)

    def step_guard(self, guard: ast.ConditionNode, kind: Sentence) -> None:
        """A step option or a follow-up under a condition: what happened this turn or on your last
        turn, where your workers stand, or a count on the board (or the number of players)."""
        if isinstance(guard, ast.WorkerStateNode):
            self.worker_state(guard)
        elif isinstance(guard, ast.PatternNode):
            scopes = [q for q in guard.qualifiers if q.scope is not None]
            if guard.tense != "past" or len(scopes) != 1:
                self.error(guard, "a condition over what happened says when, in the past tense: 'if your worker "
                                  "moved up this turn' or '... on your last turn'")
            elif scopes[0].scope not in (Scope.THIS_TURN, Scope.LAST_TURN):
                self.error(scopes[0], f"{kind.value} looks back on this turn or on your last turn")
            self.qualifiers(guard.verb, guard.qualifiers, earlier_build=True, in_pattern=True)
        elif not isinstance(guard, ast.TowersNode):
            self.error(guard, f"{kind.value} is guarded by {GUARDED[kind]}")

    def apart(self, node: ast.ApartNode) -> None:
        if node.owner is node.other:
            self.error(node, "workers of one player neighbor 'each other': write 'none of your workers neighbor "
                             "each other'")

    def worker_state(self, node: ast.WorkerStateNode) -> None:
        if node.actor.selector.role not in (Role.UNMOVED, Role.MOVED, Role.CHOSEN):
            self.error(node.actor, f"a condition on workers names 'your unmoved worker', 'the moved worker' or "
                                   f"'one of your workers', not '{node.actor.words}'")
        for qualifier in node.qualifiers:
            part = qualifier_condition(qualifier)
            inner = part.part if isinstance(part, Not) else part
            if not isinstance(inner, TargetLevel) and qualifier.place is None:
                self.error(qualifier, f"'{qualifier.words}' does not describe where a worker stands")

    def pattern(self, pattern: ast.PatternNode, what: str) -> None:
        if pattern.tense != "present":
            self.error(pattern, f"{what} is about a step as it happens: write '{pattern.actor.words} "
                                f"{'moves' if pattern.verb is Verb.MOVE else 'builds'}'")
        # ('a worker': any worker a step of your turn acts with, yours or one a power lets you use)
        if pattern.actor.selector.role is not Role.SUBJECT or pattern.actor.selector.owner is Owner.OPPONENTS:
            self.error(pattern.actor, f"{what} is about 'your worker' or 'a worker', not '{pattern.actor.words}'")
        if pattern.piece is not None and pattern.verb is not Verb.BUILD:
            self.error(pattern, "only a build has a piece")
        self.qualifiers(pattern.verb, pattern.qualifiers, earlier_build=False, in_pattern=True)

    def follow_up(self, header: Timing, node: ast.FollowUpNode) -> None:
        if header in (Timing.OPPONENTS_TURN, Timing.AT_ALL_TIMES):
            self.reaction(node, header)
            return
        expected = SECTION_VERB[header]
        if node.trigger.verb is not expected:
            self.error(node.trigger, f"'{header.value}:' reacts to a {expected.value}, not a {node.trigger.verb.value}")
        self.pattern(node.trigger, "a follow-up's trigger")
        step = node.step
        if isinstance(step, ast.HappeningNode):
            where = {Verb.MOVE: "after a move", Verb.BUILD: "after a build"}.get(node.trigger.verb, "elsewhere")
            if node.timing is not FollowUpTiming.AFTER:
                where = "elsewhere"
            self.happening(step, None, where)
            return
        if step.actor.selector.role is not Role.THAT:
            self.error(step.actor, "a follow-up is taken by the worker of the step it follows: write 'it'")
        if step.modality is None:
            self.error(step, "say whether the follow-up is optional ('may') or binding ('must')")
        if node.timing is not FollowUpTiming.AFTER and step.modality is not Modality.MAY:
            self.error(step, f"a follow-up '{node.timing.value} ...' is optional for now: write 'may'")
        if node.timing is FollowUpTiming.BEFORE and (node.trigger.qualifiers or node.trigger.piece is not None):
            self.error(node.trigger, "a step 'before' another cannot depend on how that step will go: a condition "
                                     "on the coming step is not in the language yet; write 'before your worker moves'")
        self.step_parts(step, earlier_build=node.trigger.verb is Verb.BUILD
                        and node.timing is not FollowUpTiming.BEFORE)
        if _names_vacated(step) and (node.trigger.verb is not Verb.MOVE or node.timing is FollowUpTiming.BEFORE):
            self.error(step, "'the space it just vacated' is the space its move left: the force follows a move "
                             "('after your worker moves, it may force ...')")
        if node.timing is FollowUpTiming.EACH_TIME:
            self.each_time(node.trigger, step)

    def each_time(self, trigger: ast.PatternNode, step: ast.StepNode) -> None:
        """'each time' offers the step again after each of its own steps that match the trigger:
        a repetition with no count, bounded only as 'any number of times' is (a move's states are
        the workers' places; anything else needs a cost). A step of another verb never matches,
        so it means 'after'."""
        if step.verb is not trigger.verb:
            self.error(step, f"'each time' offers the step again after each of its own steps that match, and a "
                             f"{step.verb.value} never matches a {trigger.verb.value}: write 'after'")
        elif step.verb is not Verb.MOVE and not _costs_something(step):
            self.error(step, f"a {step.verb.value} that follows each {trigger.verb.value} has no bound: each one "
                             "changes the board and may call for the next, so the turns would be past counting; "
                             f"write 'after' (one more {step.verb.value})")

    def option(self, header: Timing, node: ast.StepNode) -> None:
        expected = SECTION_VERB[header]
        if node.verb is not expected:
            self.error(node, f"'{header.value}:' gives another way to {expected.value}, not to {node.verb.value}")
        selector = node.actor.selector
        other_worker = selector.role is Role.UNMOVED or selector.sex is not None
        if selector.owner is not Owner.YOURS or (selector.role is not Role.SUBJECT and not other_worker):
            self.error(node.actor, f"a step option is about 'your worker' (or 'your unmoved worker', 'your female "
                                   f"worker'), not '{node.actor.words}'")
        repeats = node.repeat is not None and node.repeat.times is None
        if node.instead:
            if node.modality is Modality.MAY and not repeats:
                self.error(node, "'instead' replaces the step: it is not a choice; leave out 'may'")
            if not other_worker and node.piece is None and node.place is None and not repeats and not node.cost:
                self.error(node, "this replaces the step with itself: say what changes")
        elif node.modality is not Modality.MAY:
            self.error(node, "a step option is a choice: write 'your worker may ...' (or end with 'instead' "
                             "to replace the step)")
        if node.repeat is not None and not (node.instead and repeats):
            self.error(node, "a step option cannot repeat (only a replacement can: '... any number of times "
                             "instead'); write a follow-up ('after your worker ...')")
        if node.cost and not node.instead:
            self.error(node, "a cost belongs to a replacement of the step: '... instead, spending 1 coin each time'")
        climbs = any(isinstance(qualifier_condition(q), LevelChange) for q in node.qualifiers)
        if node.piece is None and node.place is None and not node.effects and not other_worker and not climbs \
                and not node.cost:
            self.error(node, "this option adds nothing: say where the step may go, how far, or what it may build")
        self.step_parts(node, earlier_build=False)

    def happening(self, node: ast.HappeningNode, guard: ast.ConditionNode | None, where: str) -> None:
        if node.kind is HappeningKind.LOSS:
            if not isinstance(guard, ast.FlankedNode):
                self.error(node, "'that opponent' needs an opponent named before: 'if 2 of your workers neighbor "
                                 "an opponent worker on opposite sides, that opponent loses the game'")
            elif guard.count != 2:
                self.error(guard, f"a worker has opposite sides in pairs: write 2, not {guard.count}")
        elif node.kind is HappeningKind.REMOVAL_AND_BUILD:
            if where != "at the end of the turn":
                self.error(node, "removing workers and building on their spaces happens at the end of your turn")
        elif node.kind is HappeningKind.TOKEN:
            if where != "after a build":
                self.error(node, "a token that is placed on its own goes on the space just built: 'after your "
                                 "worker builds a block, a coin token is placed on its space, up to 3 times in the "
                                 "game'")
        elif node.kind is HappeningKind.SLIDE:
            self.error(node, "a slide happens to an opponent's worker: 'Opponent's Turn: each time an opponent "
                             "worker moves, it is forced ...'")
        elif node.kind is HappeningKind.ADDITIONAL_TURN:
            return  # (after a step, or at the end of the turn: wherever a happening may stand)
        elif node.kind is HappeningKind.OWNER_LOSS:
            self.error(node, "'its player' is the player of a worker whose move the rules react to: 'At All Times: "
                             "each time a worker moves onto ..., its player loses the game'")
        elif where != "after a move" or node.place is None or node.place.space.ref is not SpaceRef.BEYOND:
            self.error(node, "a removal that happens on its own follows a move, on 'the next space in the same "
                             "direction', for now")

    def end_step(self, node: ast.StepNode | ast.HappeningNode, guard: ast.ConditionNode | None) -> None:
        if isinstance(node, ast.HappeningNode):
            self.happening(node, guard, "at the end of the turn")
            return
        if node.verb is Verb.POINT:
            if node.modality is None:
                self.error(node, "say whether pointing the token is a choice ('you may point ...') or binding ('you "
                                 "must point ...')")
            return
        if node.verb is Verb.SWAP:
            self.swap(node, guard)
            return
        role = node.actor.selector.role
        if node.actor.selector.owner is not Owner.YOURS or role in (Role.SUBJECT, Role.EACH):
            self.error(node.actor, f"an end-of-turn step is taken by 'your unmoved worker', 'the moved worker', "
                                   f"'one of your workers' or 'it', not '{node.actor.words}'")
        if role is Role.THAT and not isinstance(guard, ast.WorkerStateNode):
            self.error(node.actor, "'it' needs a worker named before: 'if your unmoved worker is ..., it may ...'")
        if node.modality is None:
            self.error(node, "say whether the step is optional ('may') or binding ('must')")
        if node.effects or node.instead or not node.can_win:
            self.error(node, "an end-of-turn step is a step of its own: no 'forcing', 'instead' or 'cannot win'")
        self.step_parts(node, earlier_build=True)

    def swap(self, node: ast.StepNode, guard: ast.ConditionNode | None) -> None:
        """'your workers may swap spaces with that opponent's workers': every worker of the player
        exchanges spaces with a worker of one opponent, each with its own, or none does."""
        if node.actor.selector != WorkerSelector(Role.EACH, Owner.YOURS):
            self.error(node.actor, f"a swap is taken by 'your workers' (each of them exchanges spaces with one "
                                   f"of the other player's), not '{node.actor.words}'")
        assert node.target is not None  # (the grammar writes whom a swap is with)
        names_one = isinstance(guard, ast.ApartNode) and guard.owner is Owner.OPPONENTS
        if node.target.words.lower().startswith("that") and not names_one:
            self.error(node.target, "'that opponent' needs an opponent named before: 'if none of an opponent's "
                                    "workers neighbor yours, your workers may swap spaces with that opponent's "
                                    "workers'")
        elif not node.target.words.lower().startswith("that") and names_one:
            self.error(node.target, "the condition names the opponent: write 'that opponent's workers'")

    def start_step(self, node: ast.StepNode) -> None:
        """A step before the turn's first: a force or a removal of other workers, for now, by one of
        the player's workers ('your workers' when it repeats: any of them each time). The player
        chooses to take it ('may'): a step that must be taken would leave no turn where it cannot."""
        role = node.actor.selector.role
        repeated = node.repeat is not None and node.repeat.times is None
        if node.actor.selector.owner is not Owner.YOURS or role not in (Role.CHOSEN, Role.EACH) \
                or (role is Role.EACH) != repeated:
            self.error(node.actor, "a start-of-turn step is taken by 'one of your workers', or by 'your workers' "
                                   f"with 'any number of times' (any of them each time), not '{node.actor.words}'")
        if node.target is None or node.verb not in (Verb.FORCE, Verb.REMOVE):
            self.error(node, "a start-of-turn step acts on another worker (a force or a removal), for now; moves "
                             "and builds belong to the turn")
        if node.modality is not Modality.MAY:
            self.error(node, "a start-of-turn step is the player's to take: write 'may'")
        if node.effects or node.instead or not node.can_win:
            self.error(node, "a start-of-turn step is a step of its own: no 'forcing', 'instead' or 'cannot win'")
        self.step_parts(node, earlier_build=False)

    def placement(self, node: ast.PlacementNode) -> None:
        mode_sentence = node.kind in MODE_SETUP
        if mode_sentence and self.kind is not RulesKind.MODE:
            self.error(node, f"'{node.kind.value}' is a mode's setup; a card speaks of its holder: "
                             "'you place 3 workers', 'you place your workers first', ...")
        elif not mode_sentence and self.kind is RulesKind.MODE:
            self.error(node, "a mode's setup says 'each player places N workers' (with teams: 'the first player "
                             "of each team places N workers')")
        if node.kind in (SetupKind.EACH_PLAYER, SetupKind.TEAM_PLAYER, SetupKind.YOU_PLACE) \
                and not 1 <= node.count <= 4:
            self.error(node, f"a player places 1 to 4 workers, not {node.count}")
        if node.kind is SetupKind.EXTRA and not 1 <= node.count <= 8:
            self.error(node, f"a card holds 1 to 8 extra workers, not {node.count}")
        if node.kind is SetupKind.FEMALE and node.words_actor not in ("one of your workers",):
            self.error(node, "say which worker: 'one of your workers is female'")
        if node.kind is SetupKind.WHERE and node.place is not None and node.place.space.region is Region.SINGLE:
            self.error(node.place, "workers are placed on kinds of spaces ('on perimeter spaces'), not on one space")
        if node.kind is SetupKind.TOKEN and node.place is not None:
            space = node.place.space
            if space.region is Region.SINGLE or not all(isinstance(f, SpaceIs) for f in space.filters):
                self.error(node.place, "a token is placed at setup on a kind of space ('on an unoccupied space', "
                                       "'on a perimeter space'), judged on the board as the workers left it")

    def mode_setup(self, rules: ast.Rules) -> None:
        """A mode's setup sentences must agree: with teams, teammates share their workers, so the
        mode says which player of each team places them; without teams there is no 'team'."""
        nodes = [st.clause for section in rules.sections for st in section.statements
                 if isinstance(st.clause, ast.PlacementNode)]
        kinds = [node.kind for node in nodes]
        for node in nodes:
            if node.kind in (SetupKind.TEAM_PLAYER, SetupKind.FIRST_TURN) and SetupKind.TEAMMATES not in kinds:
                self.error(node, "this speaks of teams, but the mode has none: say who are teammates first "
                                 "('players across the table are teammates')")
            if node.kind is SetupKind.EACH_PLAYER and SetupKind.TEAMMATES in kinds:
                self.error(node, "teammates share their workers: say which player of each team places them "
                                 "('the first player of each team places 2 workers')")
            if node.kind in (SetupKind.TEAMMATES, SetupKind.FIRST_TURN) and kinds.count(node.kind) > 1:
                self.error(node, f"a mode says '{node.kind.value}' once")

    def reaction(self, node: ast.FollowUpNode, header: Timing) -> None:
        """What the rules make happen after another seat's move ('Opponent's Turn: each time an
        opponent worker moves, it is forced ...'), or after anyone's ('At All Times: each time a
        worker moves onto ..., its player loses the game')."""
        trigger = node.trigger
        anyone = header is Timing.AT_ALL_TIMES
        when, example, owner = (("at all times", "'each time a worker moves, ...'", Owner.ANYONES) if anyone
                                else ("on an opponent's turn", "'each time an opponent worker moves, ...'",
                                      Owner.OPPONENTS))
        if node.timing is not FollowUpTiming.EACH_TIME or trigger.actor.selector.owner is not owner \
                or trigger.actor.selector.role is not Role.SUBJECT:
            self.error(node, f"{when}, a reaction is {example}")
        if trigger.verb is not Verb.MOVE or trigger.tense != "present":
            self.error(trigger, f"a reaction follows a move: {example}")
        happening = node.step.kind if isinstance(node.step, ast.HappeningNode) else None
        if happening not in (HappeningKind.SLIDE, HappeningKind.OWNER_LOSS):
            self.error(node.step, "what happens to a worker after its move is, for now, a slide ('it is forced "
                                  "space by space in the same direction until ...') or its player's loss ('its "
                                  "player loses the game')")
        self.qualifiers(trigger.verb, trigger.qualifiers, earlier_build=False, in_pattern=True)

    def obligation(self, node: ast.ObligationNode) -> None:
        if node.verb is not None:
            scopes = [q for q in node.qualifiers if q.scope is not None]
            if len(scopes) != 1 or scopes[0].scope is not Scope.THIS_TURN:
                self.error(node, "an obligation says when: '... must move up this turn'")
            self.qualifiers(node.verb, node.qualifiers, earlier_build=False, in_pattern=True)
            return
        for qualifier in (*node.started, *node.qualifiers):
            if qualifier.place is None:
                self.error(qualifier, f"'{qualifier.words}' does not say where a worker stands or goes")

    def veto(self, node: ast.VetoNode, header: Timing) -> None:
        selector = node.actor.selector
        owner, words = ((Owner.ANYONES, "all workers") if header is Timing.AT_ALL_TIMES
                        else (Owner.OPPONENTS, "opponent workers"))
        if selector.role is not Role.EACH or selector.owner is not owner:
            self.error(node.actor, f"a win veto in '{header.value}:' binds '{words}', not '{node.actor.words}'")
        if not node.qualifiers:
            self.error(node, "this forbids every win by a move: say which moves ('into a perimeter space')")
        self.qualifiers(Verb.MOVE, node.qualifiers, earlier_build=False, in_pattern=False)

    def board_rule(self, node: ast.StepNode) -> None:
        if node.actor.selector.role is not Role.SUBJECT or node.actor.selector.owner is not Owner.ANYONES:
            self.error(node.actor, f"a board rule is about 'a worker', not '{node.actor.words}'")
        if node.modality is not None or node.repeat is not None or node.effects or node.piece is not None:
            self.error(node, "a board rule says where a step goes and how far: "
                             "'a worker moves to an unoccupied neighboring space, up at most 1 level'")
        if node.place is None:
            self.error(node, "a board rule must say where the step goes ('to an unoccupied neighboring space')")
        self.step_parts(node, earlier_build=False)

    def prohibition(self, node: ast.ProhibitionNode, header: Timing) -> None:
        selector = node.actor.selector
        everyone = header is Timing.AT_ALL_TIMES and selector.owner is Owner.ANYONES
        if selector.role is not Role.EACH or (selector.owner is not Owner.OPPONENTS and not everyone):
            self.error(node.actor, f"a prohibition binds 'opponent workers' (or in 'At All Times:' 'all workers'), "
                                   f"not '{node.actor.words}'")
        spared = selector.excluding
        if spared is not None and spared != WorkerSelector(Role.CHOSEN, Owner.YOURS, Sex.FEMALE):
            self.error(node.actor, f"'{node.actor.words}': the worker spared is 'your female worker', for now")
        if not node.qualifiers and node.piece is None:
            self.error(node, "this forbids every step of the verb: say which ('cannot move up')")
        self.qualifiers(node.verb, node.qualifiers, earlier_build=False, in_pattern=False)

    def win(self, node: ast.WinNode) -> None:
        if node.also != (self.kind is not RulesKind.BASE):
            word = "you also win" if self.kind is not RulesKind.BASE else "you win"
            self.error(node, f"write '{word}': a power's win condition adds to the standard one, "
                             "the base card's is the standard one")
        if isinstance(node.pattern, ast.TowersNode):
            if not 1 <= node.pattern.count <= 25:
                self.error(node.pattern, f"the board holds 0 to 25 complete towers, not {node.pattern.count}")
            return
        if isinstance(node.pattern, ast.TokenPointsNode):
            self.error(node.pattern, "a win on where a token points is not in the language yet; wins come from "
                                     "moves ('if your worker moves ...') or counts ('when there are ...')")
            return
        if isinstance(node.pattern, (ast.WorkerStateNode, ast.FlankedNode, ast.ApartNode)):
            self.error(node.pattern, "a win on where workers stand is not in the language yet; wins come from "
                                     "moves ('if your worker moves ...') or counts ('when there are ...')")
            return
        if node.pattern.verb is not Verb.MOVE:
            self.error(node.pattern, "a win by building is not in the language yet; wins come from moves")
        self.pattern(node.pattern, "a win condition")
        if not node.pattern.qualifiers:
            self.error(node.pattern, "a win on every move: say which moves win ('up onto level 3')")

    def step_parts(self, node: ast.StepNode, earlier_build: bool) -> None:
        self.qualifiers(node.verb, node.qualifiers, earlier_build, in_pattern=False)
        if node.verb is Verb.FORCE and (node.target is None or node.place is None):
            self.error(node, "a force says which worker it forces and where: 'force a neighboring opponent worker "
                             "to the space on the other side of it'")
        if node.target is not None and node.verb not in (Verb.FORCE, Verb.REMOVE):
            self.error(node.target, f"only a force or a removal acts on another worker, not a {node.verb.value}")
        if node.verb is Verb.REMOVE and node.target is not None and (node.piece is not None or node.place is not None):
            self.error(node, "a worker removed leaves the game from where it stands: 'remove a neighboring opponent "
                             "worker', with no piece or place")
        elif node.verb is Verb.REMOVE and node.target is None and (node.piece not in (Piece.BLOCK, Piece.STACK)
                                                                   or node.place is None):
            self.error(node, "a removal says what it removes and from where: 'remove a block from an unoccupied "
                             "neighboring space', 'remove all blocks from a neighboring space occupied by a "
                             "worker', or 'remove a neighboring opponent worker'")
        if node.piece is Piece.STACK and node.verb is Verb.REMOVE and node.repeat is not None:
            self.error(node, "'all blocks' are taken in one removal: it does not repeat")
        if node.gap is not None and (node.target is None or node.verb is not Verb.REMOVE):
            self.error(node.gap, f"'{node.gap.words}' says how high the worker a removal takes stands: it follows "
                                 "'remove a neighboring opponent worker'" if node.target is None
                       else f"'{node.gap.words}' on a force is not in the language yet: it says how high the worker "
                            "a removal takes stands")
        if not node.can_win and node.verb is not Verb.MOVE:
            self.error(node, "only a move can win; 'cannot win by doing so' belongs to a move")
        by_holder = node.actor.selector.role is Role.HOLDER
        if by_holder and node.place is not None and node.place.space.ref is not SpaceRef.COMPASS:
            self.error(node.place, "a force by you goes one space in a direction of the compass ('one space "
                                   "south'), for now: no worker of yours acts, so no space is named from one")
        elif node.place is not None and node.place.space.ref is SpaceRef.COMPASS and not by_holder:
            self.error(node.place, f"'{node.place.words}' is where a force by you goes ('you force one or more "
                                   "opponent workers one space south'), for now")
        elif node.verb is Verb.FORCE and node.place is not None \
                and node.place.space.ref not in (SpaceRef.OTHER_SIDE, SpaceRef.VACATED, SpaceRef.COMPASS) \
                and not self.any_space_of_a_kind(node.place.space):
            self.error(node.place, "a forced worker goes to one named space ('the space on the other side of it', "
                                   "'the space it just vacated') or to any space of a kind ('to any unoccupied "
                                   "corner space'), for now")
        if node.target is not None and node.target.selector.role is Role.OTHER and (
                node.place is None or node.place.space.ref is not SpaceRef.VACATED):
            self.error(node.target, f"'{node.target.words}' may stand anywhere: such a worker is forced into 'the "
                                    "space it just vacated', for now")
        if node.modality is Modality.IF_POSSIBLE and node.verb is not Verb.PLACE and (
                node.target is None or node.repeat is not None or node.actor.selector.role is Role.EVERY):
            self.error(node, "'if possible' is for one step on another worker (a force or a removal) or a worker "
                             "placed from your card, for now; "
                             "a step that must be taken when it can is not in the language yet for a "
                             f"{node.verb.value}" if node.target is None or node.actor.selector.role is Role.EVERY
                       else "'if possible' is one step taken when it can be: it does not repeat")
        around = node.target.selector.around if node.target is not None else None
        if node.target is not None and around not in (None, SpaceRef.VACATED):
            self.error(node.target, "the workers a step acts on are around the acting worker ('a neighboring "
                                    "opponent worker') or around 'the space it just vacated', for now")
        if node.place is not None:
            self.space_reference(node.verb, node.place.space.ref, node.place, earlier_build)
        if node.place is not None and node.place.space.region is Region.WRAPPED and node.verb not in (Verb.MOVE,
                                                                                                     Verb.BUILD):
            self.error(node.place, f"'{node.place.words}' is where a move or a build goes, not a {node.verb.value}")
        if node.piece is not None and node.verb not in (Verb.BUILD, Verb.REMOVE):
            self.error(node, "only a build places a piece, and a removal takes one away")
        if node.place is not None and node.place.space.ref in (SpaceRef.BEYOND, SpaceRef.VACATED, SpaceRef.OTHER_SIDE) \
                and node.verb is not Verb.FORCE:
            self.error(node.place, f"'{node.place.words}' names where a forced worker goes; a step's own "
                                   "destination is a space around it ('to a perimeter space', 'on the same space')")
        if node.place is not None:
            self.lower_place(node.place)
        if node.place is not None and "moved worker" in node.place.words.lower() and node.verb not in (Verb.TOKEN,
                                                                                                        Verb.PLACE):
            self.error(node.place, "'neighboring the moved worker' names where a token goes, for now; a step goes "
                                   "around the worker that takes it")
        for forcing in node.effects:
            if forcing.place.space.ref is SpaceRef.COMPASS:
                self.error(forcing.place, f"'{forcing.place.words}' is where a force by you goes ('you force one "
                                          "or more opponent workers one space south'), for now")
            elif forcing.place.space.region is not Region.SINGLE:
                self.error(forcing.place, "a forced worker goes to one named space ('to the space yours just vacated', "
                                          "'one space straight backwards'); to a kind of space is not in the "
                                          "language yet")
            if node.place is None or not any(type(f).__name__ == "OccupiedBy" for f in node.place.space.filters):
                self.error(forcing, "a force needs a worker to force: the step must go into a space "
                                    "occupied by a worker ('into an opponent worker's space')")
            if forcing.actor.words.lower() not in ("that worker", "it"):
                self.error(forcing.actor, "the worker forced is the one on the space: write 'that worker'")
        if node.repeat is not None and node.repeat.times is None and node.modality is not Modality.MAY:
            self.error(node, "'any number of times' includes zero times: write 'may'")
        unbounded = node.repeat is not None and node.repeat.times is None \
            and node.verb not in (Verb.MOVE, Verb.FORCE) and not self.closes_its_space(node)
        if unbounded and not node.cost:
            self.error(node, f"a {node.verb.value} repeated 'any number of times' has no bound: each one changes the "
                             "board, so the turns would be past counting; bound it ('up to 3 times') or give it a "
                             "cost ('spending 1 coin each time')")
        self.tails(node, unbounded)

    @staticmethod
    def any_space_of_a_kind(space: SpaceSelector) -> bool:
        """'any unoccupied corner space': every space of the board of fixed kinds, unoccupied."""
        return (space.region is Region.ANYWHERE and SpaceIs(SpaceRef.TARGET, SpaceProperty.UNOCCUPIED) in space.filters
                and all(isinstance(f, SpaceIs) and f.space is SpaceRef.TARGET
                        and f.prop in (SpaceProperty.UNOCCUPIED, SpaceProperty.PERIMETER, SpaceProperty.CORNER)
                        for f in space.filters))

    @staticmethod
    def closes_its_space(node: ast.StepNode) -> bool:
        """A dome built around the worker: each one closes a space for good, so a worker repeating
        it any number of times ends within its eight neighbours (a few hundred boards at most);
        domes anywhere on the board would reach past counting."""
        region = node.place.space.region if node.place is not None else Region.NEIGHBORING
        return node.verb is Verb.BUILD and node.piece is Piece.DOME and region in (Region.NEIGHBORING,
                                                                                   Region.WRAPPED)

    def tails(self, node: ast.StepNode, unbounded: bool) -> None:
        """A step's closing words: each said once, one force, and a cost that spends something
        (a cost of nothing never runs out, so it bounds no repetition)."""
        said: dict[ast.TailKind, ast.Tail] = {}
        for tail in node.tails:
            first = said.setdefault(tail.kind, tail)
            if first is not tail:
                self.error(tail, f"'{tail.words}' is said twice" if tail.words == first.words
                           else f"a step has one cost: '{first.words}' and '{tail.words}'; say one")
            elif tail.cost is not None and tail.cost[1] == 0:
                self.error(tail, f"'{tail.words}' spends nothing, so it bounds nothing: a {node.verb.value} repeated "
                                 "'any number of times' at no cost has no bound (each one changes the board, so the "
                                 "turns would be past counting); spend at least 1 ('spending 1 coin each time') or "
                                 "bound it ('up to 3 times')" if unbounded
                           else f"'{tail.words}' spends nothing: a cost spends at least 1 ('spending 1 coin each "
                                "time'); else leave it out")
        for forcing in node.effects[1:]:
            self.error(forcing, "a step forces one worker: say one force")

    def space_reference(self, verb: Verb, ref: SpaceRef | None, at: ast.Node, earlier_build: bool) -> None:
        if ref is SpaceRef.LAST_BUILT and not earlier_build:
            self.error(at, "'the same space' refers to an earlier build, and there is none")
        if ref is SpaceRef.VACATED and verb not in (Verb.MOVE, Verb.FORCE):
            self.error(at, "'the space it vacated' is left by a move")

    def lower_place(self, place: ast.Place) -> None:
        """'lower' means lower than the workers a space neighbours, and needs them named."""
        if "lower" in place.words.lower().split() and not any(
                isinstance(f, Near) and f.lower for f in place.space.filters):
            self.error(place, "'lower' says lower than the workers it neighbours: write 'a lower space "
                              "neighboring your workers'")

    def qualifiers(self, verb: Verb, qualifiers: tuple[ast.Qualifier, ...], earlier_build: bool,
                   in_pattern: bool) -> None:
        seen: dict[Condition, ast.Qualifier] = {}
        climbs = []
        for qualifier in qualifiers:
            if qualifier.scope is not None:
                if not in_pattern:
                    self.error(qualifier, f"'{qualifier.words}' says when something happened: it belongs "
                                          "in a condition ('if one of your workers moved up on your last turn')")
                continue
            if qualifier.place is not None:
                self.lower_place(qualifier.place)
                if qualifier.place.space.region is Region.WRAPPED:
                    self.error(qualifier, f"'{qualifier.words}' says where a move or a build goes: right after its "
                                          "verb ('moves to a neighboring space across the edges of the board')")
                    continue
            part = qualifier_condition(qualifier, verb)
            if part is None:  # pragma: no cover - a qualifier without a scope has a part or a place
                continue
            inner = part.part if isinstance(part, Not) else part
            if qualifier.place is not None and qualifier.place.origin and verb is Verb.MOVE and (
                    qualifier.place.space.region is Region.SINGLE
                    or not all(isinstance(f, SpaceIs) for f in qualifier.place.space.filters)):
                self.error(qualifier, f"'{qualifier.words}': a move 'from' a kind of space says what the space is "
                                      "('from a perimeter space'); other ways to name where a move starts are not "
                                      "in the language yet")
            if isinstance(inner, LevelChange) and verb is not Verb.MOVE:
                self.error(qualifier, f"'{qualifier.words}' is about a move's climb; it does not apply to a "
                                      f"{verb.value}")
            if isinstance(inner, TargetLevel) and verb not in (Verb.MOVE, Verb.PLACE):
                self.error(qualifier, f"'{qualifier.words}' is about the level a worker reaches; it does not apply "
                                      f"to a {verb.value}")
            if isinstance(inner, Against) and verb is not Verb.MOVE:
                self.error(qualifier, f"'{qualifier.words}' is about the direction a move goes; it does not apply "
                                      f"to a {verb.value}")
            if isinstance(inner, AlongLine) and verb not in (Verb.MOVE, Verb.BUILD):
                self.error(qualifier, f"'{qualifier.words}' says where a move or a build goes from the worker; it "
                                      f"does not apply to a {verb.value}")
            if isinstance(inner, PieceIs) and verb is not Verb.BUILD:
                self.error(qualifier, f"'{qualifier.words}' is about a build's piece; it does not apply to a move")
            if isinstance(inner, SameSpace):
                self.space_reference(verb, inner.space, qualifier, earlier_build)
            if isinstance(inner, TargetLevel) and not 0 <= inner.level <= 3:
                self.error(qualifier, f"level {inner.level} does not exist; levels are 0 to 3")
            if isinstance(part, LevelChange) and part.op is Compare.LE:
                if part.amount >= 0:
                    climbs.append(qualifier)
                if not -3 <= part.amount <= 3:
                    self.error(qualifier, f"a worker can climb or drop 0 to 3 levels, not {abs(part.amount)}")
            if inner in seen or part in seen:
                self.error(qualifier, f"'{qualifier.words}' is said twice")
            contradicted = seen.get(Not(part)) or (seen.get(part.part) if isinstance(part, Not) else None)
            if contradicted is not None:
                self.error(qualifier, f"'{qualifier.words}' contradicts '{contradicted.words}'")
            seen[part] = qualifier
        for part, qualifier in seen.items():
            if isinstance(part, Not) and isinstance(part.part, AnyOf):
                for said in part.part.parts:
                    if Not(said) in seen:
                        self.error(seen[Not(said)], f"'{qualifier.words}' already says '{seen[Not(said)].words}'")
        if len(climbs) > 1:
            self.error(climbs[1], f"two climb limits ('{climbs[0].words}' and '{climbs[1].words}'): say one")

    # ---- programs and the base card
    def program(self, section: ast.Section) -> None:
        steps = [s.clause for s in section.statements if isinstance(s.clause, ast.StepNode)]
        winless = [s.clause for s in section.statements if isinstance(s.clause, ast.WinlessNode)]
        if winless and not steps:
            self.error(section, "a turn needs steps; 'no player can win during this turn' only says what they "
                                "cannot do")
        for extra in winless[1:]:
            self.error(extra, "'no player can win during this turn' is said once in a turn")
        guarded = [s.guard is not None for s in section.statements if isinstance(s.clause, ast.StepNode)]
        seen_move = seen_build = False
        first_repeat: int | None = None  # the index of the step repeated 'any number of times'
        for index, step in enumerate(steps):
            role = step.actor.selector.role
            if step.verb is Verb.SWAP:
                continue  # (said where the sentence stands: a swap ends the turn)
            if role is Role.RESERVE and step.verb is Verb.PLACE:
                if step.place is not None and "moved worker" in step.place.words.lower() and not seen_move:
                    self.error(step.place, "'the moved worker' needs an earlier move step")
                self.step_parts(step, earlier_build=seen_build)
                continue
            opponents = role is Role.CHOSEN and step.actor.selector.owner is Owner.OPPONENTS
            if (step.actor.selector.owner is not Owner.YOURS and not opponents) or role in (
                    Role.SUBJECT, Role.UNMOVED, Role.RESERVE):
                self.error(step.actor, f"a turn's step is taken by 'one of your workers', 'your workers', "
                                       f"'that worker' or 'the moved worker', not '{step.actor.words}'")
            if opponents and index:
                self.error(step.actor, f"'{step.actor.words}' chooses the worker a turn is taken with: the turn's "
                                       "first step, and 'that worker' after it")
            if index == 0 and role in (Role.THAT, Role.MOVED):
                self.error(step, "the first step must choose a worker: write 'one of your workers' or 'your workers'")
            if index == 0 and guarded[index]:
                self.error(step, "a turn's first step is not guarded: a turn must begin with a step it can take; "
                                 "guard a later step, or give the power as a step option")
            if role is Role.MOVED and index and not seen_move:
                self.error(step, "'the moved worker' needs an earlier move step")
            repeated = step.repeat is not None and step.repeat.times is None
            if role is Role.EACH and not repeated:
                self.error(step, "'your workers' goes with 'any number of times' (each repetition may use any "
                                 "of them); a single step uses 'one of your workers'")
            elif repeated and role not in (Role.EACH, Role.THAT, Role.MOVED, Role.EVERY):
                self.error(step, "a step repeated 'any number of times' is taken by 'your workers' (any of them "
                                 "each time), 'each of your workers' (each as often as it likes) or by 'that "
                                 "worker' (the same one each time)")
            if repeated and first_repeat is not None:
                self.second_repeat(step, steps[first_repeat], steps[first_repeat + 1:index])
            elif repeated:
                first_repeat = index
            if step.effects:
                self.error(step, "a force inside a turn's step is not in the language yet; give it as a step "
                                 "option in 'Your Move:'")
            self.step_parts(step, earlier_build=seen_build)
            seen_move |= step.verb is Verb.MOVE
            seen_build |= step.verb is Verb.BUILD

    def second_repeat(self, step: ast.StepNode, first: ast.StepNode, between: list[ast.StepNode]) -> None:
        """A turn repeats one step 'any number of times'. A repeated move is bounded because its
        states are the workers' places, a few hundred; a second repetition starts again from every
        place and board the turn reached before it, so each one multiplies the turns (three make
        a turn past counting), and with only moves between, it adds nothing the first could not."""
        changes = [s for s in between if s.verb is not Verb.MOVE]
        if changes:
            self.error(step, f"a turn repeats one step 'any number of times' (the one at {self.where(first)}): "
                             f"after the {changes[0].verb.value} between them, a second one starts again from every "
                             "place and board the first left, so the turns would be past counting; bound it "
                             "('one of your workers moves up to 3 times')")
        else:
            self.error(step, f"this repeats the moves of the step at {self.where(first)}, which already moves any "
                             "number of times: say it once")

    def base_complete(self, rules: ast.Rules) -> None:
        kinds = [(section.timing, sentence_kind(section.timing, s.clause), s.clause)
                 for section in rules.sections if section.timing is not None for s in section.statements]
        if not any(section.timing is Timing.TURN for section in rules.sections):
            self.error(rules, "the base card needs a 'Turn:' section (the standard turn)")
        for verb in (Verb.MOVE, Verb.BUILD):
            rules_of_verb = [c for _, k, c in kinds
                             if k == BOARD_RULE and isinstance(c, ast.StepNode) and c.verb is verb]
            if not rules_of_verb:
                self.error(rules, f"the base card needs a board rule for the {verb.value} ('At All Times:')")
            for extra in rules_of_verb[1:]:
                self.error(extra, f"the {verb.value} has a board rule already: say it once")
        if not any(k == WIN for _, k, _ in kinds):
            self.error(rules, "the base card needs a win condition")
        if not any(k == LOSS for _, k, _ in kinds):
            self.error(rules, "the base card needs a loss condition")


def _names_vacated(step: ast.StepNode) -> bool:
    """Whether a force names the space its worker's move left: as where it forces to, or as
    where the worker it forces stands around."""
    around = step.target.selector.around if step.target is not None else None
    return step.verb is Verb.FORCE and (around is SpaceRef.VACATED or (
        step.place is not None and step.place.space.ref is SpaceRef.VACATED))


def _returns_a_worker(step: ast.StepNode) -> bool:
    """'you must return one of your workers to your card': a removal of the acting worker itself."""
    return step.verb is Verb.REMOVE and step.target is not None and step.target.selector.role is Role.SUBJECT


def _costs_something(step: ast.StepNode) -> bool:
    """Whether each taking of the step spends something: what bounds a repetition that nothing
    else bounds (the coins run out)."""
    return any(amount > 0 for _, amount in step.cost)


def _shape(value: object) -> object:
    """What a node says, without where it stands or how its words are spaced and cased: two
    sentences with equal shapes say the same thing."""
    if isinstance(value, ast.Node):
        return (type(value).__name__, *(_shape(getattr(value, f.name)) for f in dataclasses.fields(value)
                                        if f.name not in ("line", "column")))
    if isinstance(value, tuple):
        return tuple(_shape(item) for item in value)
    if isinstance(value, str):
        return " ".join(value.lower().split())
    return value


def _said_once_elsewhere(timing: Timing, clause: ast.Clause) -> bool:
    """Sentences with a rule of their own against saying them twice (one message per fault): the
    base card's board rules, and a mode's teams and first turn."""
    if timing is Timing.AT_ALL_TIMES and isinstance(clause, ast.StepNode):
        return True
    return isinstance(clause, ast.PlacementNode) and clause.kind in (SetupKind.TEAMMATES, SetupKind.FIRST_TURN)


def _nodes(node: object) -> list[ast.Node]:
    """Every syntax node of a clause, itself included, however deep (a follow-up's step, a guard)."""
    if isinstance(node, (tuple, list)):
        return [inner for item in node for inner in _nodes(item)]
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        inner = [found for field in dataclasses.fields(node) for found in _nodes(getattr(node, field.name))]
        return [node, *inner] if isinstance(node, ast.Node) else inner
    return []


def _actors(node: object) -> list[ast.Actor]:
    """Every worker selector written in a clause, however deep (a follow-up's step, a guard)."""
    return [found for found in _nodes(node) if isinstance(found, ast.Actor)]
