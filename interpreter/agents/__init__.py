"""Agents: players that choose turns from their seat's view of the game (docs/agents.md).

- `base`: the interface (SeatView, ViewAgent) and the random agent the game loop already has;
- `greedy`: wins in one, does not leave the next seat a win in one, else random;
- `mcts`: UCT with random playouts, its budget in iterations;
- `external`: another program, over the line protocol of `protocol`; `example_bot` is one;
- `position`: positions written as the spec writes them, for those programs;
- `registry`: agents by name ('random', 'greedy', 'mcts:400', 'external:COMMAND').
"""

from .base import Agent, AgentError, RandomAgent, SeatAgent, SeatView, ViewAgent
from .external import BotError, ExternalAgent
from .greedy import GreedyAgent
from .mcts import MctsAgent
from .registry import AGENT_SPECS, AgentSpec, close_agents, make_agent, parse_agent_spec

__all__ = ["AGENT_SPECS", "Agent", "AgentError", "AgentSpec", "BotError", "ExternalAgent", "GreedyAgent",
           "MctsAgent", "RandomAgent", "SeatAgent", "SeatView", "ViewAgent", "close_agents", "make_agent",
           "parse_agent_spec"]
