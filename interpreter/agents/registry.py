"""Agents by name, as the command line writes them: `random`, `greedy`, `mcts:400`,
`external:COMMAND` (docs/agents.md). One parser, so that `santorini play --agent` and the
balance runs to come accept the same specs and refuse a bad one with the same message."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .base import Agent, AgentError, RandomAgent
from .external import DEFAULT_TIMEOUT, HIDE, SHOW, BotStderr, ExternalAgent
from .greedy import GreedyAgent
from .mcts import MctsAgent

__all__ = ["AGENT_SPECS", "BOT_STDERR_SPECS", "AgentSpec", "BotStderr", "close_agents", "make_agent",
           "parse_agent_spec", "parse_bot_stderr"]

#: What a spec may be, for messages and help texts.
AGENT_SPECS = ("random, greedy, mcts:ITERATIONS (e.g. mcts:400; mcts alone is mcts:400), "
               "external:COMMAND or external:SECONDS:COMMAND (a bot program; SECONDS to answer, default "
               f"{DEFAULT_TIMEOUT:g})")
DEFAULT_ITERATIONS = 400
#: What --bot-stderr may be, for messages and help texts.
BOT_STDERR_SPECS = "show, hide, log:FILE (or log alone, where the command has a log file of its own)"


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the agent's kind and its settings."""

    kind: str
    iterations: int = DEFAULT_ITERATIONS
    command: str = ""
    timeout: float = DEFAULT_TIMEOUT


def parse_agent_spec(text: str) -> AgentSpec:
    """`random`, `greedy`, `mcts` or `mcts:N`, `external:COMMAND` or `external:SECONDS:COMMAND`;
    AgentError, saying what is accepted, for anything else."""
    name, _, argument = text.strip().partition(":")
    kind = name.strip().lower()
    if kind in ("random", "greedy"):
        if argument:
            raise AgentError(f"{kind} takes no setting ({text.strip()!r}); agents are {AGENT_SPECS}")
        return AgentSpec(kind)
    if kind == "mcts":
        if not argument:
            return AgentSpec(kind)
        if not argument.strip().isdigit() or int(argument) < 1:
            raise AgentError(f"the iterations of mcts are a whole number, 1 or more (e.g. mcts:400), not {argument!r}")
        return AgentSpec(kind, iterations=int(argument))
    if kind == "external":
        first, _, rest = argument.partition(":")
        timeout = DEFAULT_TIMEOUT
        if rest and _is_number(first):
            timeout, argument = float(first), rest
            if not 0 < timeout <= 86400:
                raise AgentError(f"a bot's time to answer is more than 0 and at most 86400 seconds, not {first}")
        if not argument.strip():
            raise AgentError("external needs the bot's command, e.g. "
                             "external:python -m santorini.interpreter.agents.example_bot")
        return AgentSpec(kind, command=argument.strip(), timeout=timeout)
    raise AgentError(f"unknown agent {text!r}; agents are {AGENT_SPECS}")


def parse_bot_stderr(text: str, default_log: Path | None = None) -> BotStderr:
    """`show`, `hide`, `log:FILE`, or `log` alone (the file `default_log`, where a command has
    one: a balance run's folder); AgentError, saying what is accepted, for anything else. A file
    is made absolute here, so that processes started elsewhere (a balance run's workers) append
    to the same file."""
    mode, colon, path = text.strip().partition(":")
    mode = mode.strip().lower()
    if mode in ("show", "hide") and not colon:
        return SHOW if mode == "show" else HIDE
    if mode == "log":
        if path.strip():
            return BotStderr("log", str(Path(path.strip()).expanduser().absolute()))
        if not colon and default_log is not None:
            return BotStderr("log", str(default_log.expanduser().absolute()))
        raise AgentError(f"{text.strip()!r} names no file: write log:FILE")
    raise AgentError(f"a bot's standard error is {BOT_STDERR_SPECS}; not {text.strip()!r}")


def make_agent(spec: str | AgentSpec, rng: random.Random, bot_stderr: BotStderr = SHOW) -> Agent:
    """The agent a spec names, drawing its random choices from `rng`; an external bot's standard
    error goes where `bot_stderr` says (the other agents have none)."""
    parsed = parse_agent_spec(spec) if isinstance(spec, str) else spec
    if parsed.kind == "random":
        return RandomAgent(rng)
    if parsed.kind == "greedy":
        return GreedyAgent(rng)
    if parsed.kind == "mcts":
        return MctsAgent(parsed.iterations, rng)
    return ExternalAgent(parsed.command, parsed.timeout, bot_stderr)


def close_agents(agents: Iterable[object]) -> None:
    """End what agents hold (an external bot's process); the others have nothing to end."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


def _is_number(text: str) -> bool:
    """A plain decimal number of seconds ('5', '0.5'): no sign, exponent, nan or inf."""
    return re.fullmatch(r"\d+(\.\d+)?", text.strip()) is not None
