"""Compile a checked syntax tree into a Power: the hook objects the turn interpreter runs.

The compiler assumes the checker passed; it only translates. Where a sentence gives a whole turn
('Turn:', 'Your Turn:', 'Alternative Turn (optional):') it becomes a Program; the other sentences
become the hooks of the point their section names.
"""

from __future__ import annotations

from . import ast, hooks
from .parser import Origin

ACTORS = {"any_worker": "any", "any_worker_each": "each", "moved_worker": "moved", "that_worker": "that"}


def compile_rules(rules: ast.Rules, origin: Origin, name: str) -> hooks.Power:
    """Translate a card's checked rules into its Power."""
    power = hooks.Power(name=name)
    for section in rules.sections:
        if section.header == "turn":
            power.programs.append(_program(section, origin, name, announced=False))
        elif section.header == "your turn":
            power.programs.append(_program(section, origin, name, announced=False))
        elif section.header == "alternative turn (optional)":
            power.programs.append(_program(section, origin, name, announced=True))
        else:
            for statement in section.statements:
                _statement(power, statement, origin)
    return power


def _where(node: ast.Node, origin: Origin) -> hooks.Where:
    line, column = origin.locate(node.line, node.column)
    return hooks.Where(origin.file, line, column)


def _step(step: ast.Step, origin: Origin) -> hooks.StepSpec:
    return hooks.StepSpec(verb=step.verb, actor=ACTORS[step.actor], optional=step.optional,
                          repeat=step.repeat, constraints=tuple(c.kind for c in step.constraints),
                          where=_where(step, origin))


def _program(section: ast.Section, origin: Origin, name: str, announced: bool) -> hooks.Program:
    steps = tuple(_step(s, origin) for s in section.statements if isinstance(s, ast.Step))
    return hooks.Program(name=name, announced=announced, steps=steps, where=_where(section, origin))


def _statement(power: hooks.Power, node: ast.Statement, origin: Origin) -> None:
    where = _where(node, origin)
    if isinstance(node, ast.After):
        power.followups.append(hooks.FollowUp(after=node.trigger, step=_step(node.step, origin)))
    elif isinstance(node, ast.MoveInto):
        destination = "vacated" if node.destination == "to_vacated_space" else "straight_backwards"
        power.move_options.append(hooks.MoveIntoOpponent(node.same_or_lower, destination, where))
    elif isinstance(node, ast.DomeAnyLevel):
        power.build_options.append(hooks.DomeAtAnyLevel(where))
    elif isinstance(node, ast.Restriction):
        condition = hooks.MovedCondition(node.condition.direction) if node.condition else None
        power.restrictions.append(hooks.Restriction(node.verb, node.direction, condition, where))
    elif isinstance(node, ast.Win):
        power.wins.append(hooks.WinOnMove(node.movement, node.amount, where))
    elif isinstance(node, ast.Loss):
        power.lose_when_stuck = True
    elif isinstance(node, ast.MoveRule):
        power.board = hooks.BoardRules(climb=node.climb)
    elif isinstance(node, ast.BuildRule):
        pass  # the building rule has no parameter yet; the checker makes sure it is stated
    elif isinstance(node, ast.Placement):
        power.workers_to_place = node.count
    else:  # pragma: no cover - the checker admits no other statement
        raise TypeError(f"cannot compile {type(node).__name__}")
