"""Check a parsed card: known sections, statements in the sections they belong to, references that
resolve ('that worker' needs an earlier step), constraints that fit their verb.

The grammar accepts every well-formed sentence anywhere; whether a sentence makes sense where it
stands is this module's job, so that the compiler only ever sees meaningful trees. All faults of a
card are reported, not just the first.
"""

from __future__ import annotations

import difflib

from . import ast
from .hooks import BUILD_CONSTRAINTS, MOVE_CONSTRAINTS
from .parser import Origin
from .errors import SourceError


class CheckError(SourceError):
    """A sentence that parses but does not make sense where it stands."""


PROGRAM_HEADERS = {"turn", "your turn", "alternative turn (optional)"}

#: Which statements each section may hold (the rulebook's timing words).
ALLOWED: dict[str, tuple[type, ...]] = {
    "turn": (ast.Step,),
    "your turn": (ast.Step,),
    "alternative turn (optional)": (ast.Step,),
    "your move": (ast.After, ast.MoveInto),
    "your build": (ast.After, ast.DomeAnyLevel),
    "opponent's turn": (ast.Restriction,),
    "win condition": (ast.Win,),
    "alternative win condition": (ast.Win,),
    "loss condition": (ast.Loss,),
    "at all times": (ast.MoveRule, ast.BuildRule, ast.Restriction),
    "setup": (ast.Placement,),
}

#: Sections only the base card (the pack's standard rules) may have, and what a power writes instead.
BASE_ONLY = {
    "turn": "a power adds a turn with 'Your Turn:' or 'Alternative Turn (optional):'",
    "loss condition": "losing when stuck is a base rule; a power cannot change it in language version 1",
}

#: Statements that only mean something on one kind of file, and why.
ONLY_ON = {
    ast.MoveRule: ({"base"}, "the movement rule belongs to the base card"),
    ast.BuildRule: ({"base"}, "the building rule belongs to the base card"),
    ast.Placement: ({"mode"}, "worker placement belongs to a mode's 'Setup:'"),
    ast.Restriction: ({"god", "hero"}, "a 'cannot' restriction is a power's: it binds the power's opponents"),
}


CONSTRAINT_WORDS = {
    "not_up": "not up", "not_up_or_down": "not up or down", "not_back_to_start": "not back to its starting space",
    "not_same_space": "not on the same space", "same_space": "on the same space", "not_dome": "not a dome",
}

STATEMENT_NAMES = {
    ast.Step: "a turn step", ast.After: "an 'after ...' follow-up", ast.MoveInto: "a move option",
    ast.DomeAnyLevel: "a build option", ast.Restriction: "a 'cannot' restriction",
    ast.Win: "a win condition", ast.Loss: "a loss condition", ast.MoveRule: "the movement rule",
    ast.BuildRule: "the building rule", ast.Placement: "a worker placement",
}


def check_rules(rules: ast.Rules, origin: Origin, kind: str) -> list[CheckError]:
    """Every fault of a card's (or mode's) rules; kind is 'base', 'god', 'hero' or 'mode'."""
    checker = _Checker(origin, kind)
    checker.rules(rules)
    return checker.errors


class _Checker:
    def __init__(self, origin: Origin, kind: str) -> None:
        self.origin = origin
        self.kind = kind
        self.errors: list[CheckError] = []

    def error(self, node: ast.Node, message: str) -> None:
        line, column = self.origin.locate(node.line, node.column)
        self.errors.append(CheckError(file=self.origin.file, line=line, column=column, message=message))

    def rules(self, rules: ast.Rules) -> None:
        for section in rules.sections:
            self.section(section)
        if self.kind == "base":
            self.base_complete(rules)

    def section(self, section: ast.Section) -> None:
        if section.header not in ALLOWED:
            close = difflib.get_close_matches(section.header, ALLOWED, n=1)
            hint = f" (did you mean '{close[0]}:'?)" if close else ""
            known = ", ".join(f"'{h}:'" for h in ALLOWED)
            self.error(section, f"unknown section '{section.header}:'{hint}; sections are {known}")
            return
        if section.header in BASE_ONLY and self.kind != "base":
            self.error(section, f"only the pack's base card may have a '{section.header}:' section; "
                                f"{BASE_ONLY[section.header]}")
        if self.kind == "mode" and section.header != "setup":
            self.error(section, f"a mode's rules are its 'Setup:' in language version 1, not "
                                f"'{section.header}:'")
        if not section.statements:
            self.error(section, f"section '{section.header}:' is empty")
        for statement in section.statements:
            if not isinstance(statement, ALLOWED[section.header]):
                allowed = " or ".join(STATEMENT_NAMES[t] for t in ALLOWED[section.header])
                self.error(statement, f"{STATEMENT_NAMES[type(statement)]} cannot stand in "
                                      f"'{section.header}:'; this section holds {allowed}")
                continue
            kinds, why = ONLY_ON.get(type(statement), (None, ""))
            if kinds is not None and self.kind not in kinds:
                self.error(statement, f"{why}, not on a {self.kind} card" if self.kind != "mode"
                           else f"{why}, not in a mode")
                continue
            self.statement(section.header, statement)
        if section.header in PROGRAM_HEADERS:
            self.program(section)

    def statement(self, header: str, node: ast.Statement) -> None:
        if isinstance(node, ast.After):
            expected = "move" if header == "your move" else "build"
            if node.trigger != expected:
                self.error(node, f"'{header}:' reacts to a {expected}, not a {node.trigger}")
            self.constraints(node.step, earlier_build=node.trigger == "build")
        elif isinstance(node, ast.MoveInto) and node.verb != "move":
            self.error(node, "only a move can go into an opponent worker's space")
        elif isinstance(node, ast.DomeAnyLevel) and node.verb != "build":
            self.error(node, "only a build can place a dome")
        elif isinstance(node, ast.Restriction) and node.verb != "move":
            self.error(node, "'up' and 'down' restrict moves; write 'cannot move up'")
        elif isinstance(node, ast.Win):
            if node.movement == "up_onto_level" and not 1 <= node.amount <= 3:
                self.error(node, f"level {node.amount} does not exist; levels are 1 to 3")
            if node.movement == "down_at_least" and not 1 <= node.amount <= 3:
                self.error(node, f"a worker can move down 1 to 3 levels, not {node.amount}")
            if node.also != (self.kind != "base"):
                word = "you also win" if self.kind != "base" else "you win"
                self.error(node, f"write '{word}': a power's win condition adds to the standard "
                                 "one, the base card's is the standard one")
        elif isinstance(node, ast.MoveRule) and not 0 <= node.climb <= 3:
            self.error(node, f"a climb of {node.climb} levels is not possible; use 0 to 3")
        elif isinstance(node, ast.Placement) and not 1 <= node.count <= 4:
            self.error(node, f"a player places 1 to 4 workers, not {node.count}")

    def program(self, section: ast.Section) -> None:
        steps = [s for s in section.statements if isinstance(s, ast.Step)]
        seen_move = seen_build = False
        for index, step in enumerate(steps):
            if index == 0 and step.actor in ("that_worker", "moved_worker"):
                self.error(step, "the first step must choose a worker: write 'one of your workers' "
                                 "or 'your workers'")
            if step.actor == "moved_worker" and index and not seen_move:
                self.error(step, "'the moved worker' needs an earlier move step")
            if step.repeat != (step.actor == "any_worker_each"):
                self.error(step, "'your workers' goes with 'any number of times' (each repetition "
                                 "may use any of them); a single step uses 'one of your workers'")
            elif step.repeat and not step.optional:
                self.error(step, "'any number of times' includes zero times: write 'may'")
            self.constraints(step, earlier_build=seen_build)
            seen_move |= step.verb == "move"
            seen_build |= step.verb == "build"

    def constraints(self, step: ast.Step, earlier_build: bool) -> None:
        allowed = MOVE_CONSTRAINTS if step.verb == "move" else BUILD_CONSTRAINTS
        seen: set[str] = set()
        for constraint in step.constraints:
            words = CONSTRAINT_WORDS[constraint.kind]
            if constraint.kind not in allowed:
                self.error(constraint, f"'{words}' does not apply to a {step.verb}")
            elif constraint.kind in ("same_space", "not_same_space") and not earlier_build:
                self.error(constraint, f"'{words}' refers to an earlier build, and there is none")
            if constraint.kind in seen:
                self.error(constraint, f"'{words}' is said twice")
            seen.add(constraint.kind)
        if {"same_space", "not_same_space"} <= seen:
            self.error(step, "a build cannot be both on and not on the same space")
        if {"not_up", "not_up_or_down"} <= seen:
            self.error(step, "'not up or down' already says 'not up'")

    def base_complete(self, rules: ast.Rules) -> None:
        statements = [s for section in rules.sections for s in section.statements]
        if not any(section.header == "turn" for section in rules.sections):
            self.error(rules, "the base card needs a 'Turn:' section (the standard turn)")
        needs = {ast.MoveRule: "the movement rule ('At All Times:')",
                 ast.BuildRule: "the building rule ('At All Times:')", ast.Win: "a win condition",
                 ast.Loss: "a loss condition"}
        for node_type, what in needs.items():
            if not any(isinstance(s, node_type) for s in statements):
                self.error(rules, f"the base card needs {what}")
