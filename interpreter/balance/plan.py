"""What a balance run plays: its identity (RunSpec), its matchups and its games, in a fixed order.

A run is named by what decides its results (pack and its rules, agent, seed, games, cards, turn
limit) and by nothing that only decides how fast it goes (jobs, backend). The store keeps that
identity, so that a run resumed in the same folder is the same run; the plan is the same list of
games in the same order on every machine, which is what lets any backend play any part of it.

Choices written down here (docs/balance.md says them to users):
- `--against all` and `--matrix` take Mortal (no power) as a card: it is the yardstick.
- Mirror matchups (a card against itself) are not played: both seats hold the same card, so they
  say nothing of the card's strength, only of the first seat's, which every matchup's two seat
  orders measure already. `--gods A,B --against A,Mortal` plays A v Mortal, B v A, B v Mortal;
  a run of nothing but mirrors is an error.
- A pair that cannot play a two-player game (bans, a card not for two players) is left out of
  `all` and `--matrix`, and is an error when it is named explicitly.
- A run holds at most MAX_RUN_GAMES games, and a game at most MAX_TURNS turns; a seed is a signed
  64-bit integer (SEED_MIN to SEED_MAX). The plan's size is worked out before its games are
  listed, so that a run too large to hold is refused at once instead of filling the memory.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from ...dsl.errors import SantoriniError
from ..agents.registry import AgentSpec, parse_agent_spec
from ..games.game import SetupError, new_game, parse_players
from ..games.packs import MORTAL, Pack, pack_names
from .records import Matchup
from .seeding import game_seed

#: `--against` value for every card the bans allow.
ALL = "all"

#: The most games a run may hold, every seat order of every matchup counted. The plan, the store's
#: keys and the report's records are all held in memory (about 200 MB a million games), and a
#: million games is far beyond what a balance question needs (at 2 x 500 games a seat order, a win
#: rate's 95% interval is already about ±3 points); a larger study is several runs.
MAX_RUN_GAMES = 1_000_000
#: The most games per seat order (--games): what the smallest run (one pair, two seat orders) may play.
MAX_GAMES = MAX_RUN_GAMES // 2
#: The longest turn limit (--max-turns): games of the shipped packs end in well under 300 plies;
#: the limit only stops games that would never end, and must stop them in reasonable time.
MAX_TURNS = 10_000
#: The seeds the store can keep: SQLite's INTEGER is a signed 64-bit integer.
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1


class PlanError(SantoriniError, ValueError):
    """A run that cannot be planned: a pair that cannot play, nothing to play, a bad setting."""


@dataclass(frozen=True)
class RunSpec:
    """The identity of a run: everything that decides its results, and only that."""

    #: A shipped pack's name, or the absolute path of an own pack's folder (so that worker
    #: processes started elsewhere find it).
    pack: str
    #: A digest of the pack's rules: a run whose cards changed is another run.
    pack_digest: str
    agent: str
    seed: int
    #: Games per seat order of each matchup.
    games: int
    #: The cards under test (for a matrix: every card of the matrix).
    gods: tuple[str, ...]
    #: The opponents named, or (ALL,).
    against: tuple[str, ...]
    matrix: bool
    max_turns: int

    def identity(self) -> str:
        """The canonical text of the identity (sorted keys, no spaces): what the store compares."""
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Task:
    """One game to play: its matchup, its number within the matchup, and its seed."""

    matchup: Matchup
    index: int
    seed: int

    @property
    def key(self) -> tuple[str, int]:
        return self.matchup.key, self.index


def pack_ref(name: str) -> str:
    """How worker processes will name the pack: a shipped name as is, a folder by absolute path."""
    return name if name in pack_names() else str(Path(name).expanduser().resolve())


def pack_digest(pack: Pack) -> str:
    """SHA-256 (16 hex digits) of what the pack's games depend on: cards, base, modes, settings."""
    cards = [(c.name, c.kind, list(c.players), list(c.bans), c.rules) for c in [pack.base, *pack.cards.values()]]
    modes = [(m.name, list(m.players), m.powers_per_seat, m.powers_required, m.rules) for m in pack.modes.values()]
    text = json.dumps({"cards": sorted(cards), "modes": sorted(modes), "settings": pack.settings,
                       "default_modes": sorted(pack.default_modes.items())}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def canonical_agent(text: str) -> str:
    """One spelling per agent ('mcts' and 'MCTS:400' are 'mcts:400'); AgentError for a bad spec."""
    spec: AgentSpec = parse_agent_spec(text)
    if spec.kind == "mcts":
        return f"mcts:{spec.iterations}"
    if spec.kind == "external":
        return f"external:{spec.timeout:g}:{spec.command}"
    return spec.kind


def split_names(text: str) -> tuple[str, ...]:
    """'NEW, Mortal' as ('NEW', 'Mortal'): card names are separated by commas (a name may hold
    spaces and '&')."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def card_name(pack: Pack, name: str) -> str:
    """The pack's own spelling of a card name, or Mortal; UnknownName (with the pack's cards) else."""
    card = pack.card(name)
    return MORTAL if card is None else card.name


def two_player_cards(pack: Pack) -> list[str]:
    """Mortal and every card of the pack that two players may hold (its `players`), sorted."""
    return [MORTAL, *sorted(c.name for c in pack.cards.values() if 2 in c.players)]


def pair_fault(pack: Pack, first: str, second: str) -> str | None:
    """Why these two cards cannot play a two-player game (the game's own setup checks: bans,
    player counts, the mode), or None when they can."""
    try:
        new_game(pack, parse_players([first, second]))
    except SetupError as err:
        return str(err)
    return None


def plan_matchups(pack: Pack, gods: Sequence[str], against: Sequence[str], matrix: bool) -> list[Matchup]:
    """The seat-ordered matchups of a run, each pair in both seat orders, in a fixed order.

    `gods` against `against` (names, or (ALL,)); or, with `matrix`, every playable pair of the
    pack's two-player cards (`gods` and `against` are then empty)."""
    pairs: list[tuple[str, str]]
    if matrix:
        names = two_player_cards(pack)
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if pair_fault(pack, a, b) is None]
        return _both_orders(pairs)
    if not gods:
        raise PlanError("name the cards to test (--gods NEW[,NEW2]) or play the whole pack (--matrix)")
    news = _unique(card_name(pack, name) for name in gods)
    for new in news:
        card = pack.card(new)
        if card is not None and 2 not in card.players:
            raise PlanError(f"{new} is for {', '.join(map(str, card.players))} players; a balance run "
                            "plays two-player games")
    every = [name.lower() for name in against] == [ALL]
    if not every and any(name.lower() == ALL for name in against):
        raise PlanError(f"--against is '{ALL}' or a list of cards, not both")
    opponents = two_player_cards(pack) if every else _unique(card_name(pack, name) for name in against)
    if not opponents:
        raise PlanError("--against names no card")
    pairs = []
    seen: set[frozenset[str]] = set()
    for new in news:
        for opponent in opponents:
            if opponent == new:  # a mirror: left out (see the module's docstring)
                continue
            pair = frozenset((new, opponent))
            if pair in seen:
                continue
            fault = pair_fault(pack, new, opponent)
            if fault is not None:
                if every:
                    continue
                raise PlanError(f"{new} v {opponent} cannot be played: {fault}")
            seen.add(pair)
            pairs.append((new, opponent))
    if not pairs and set(opponents) <= set(news):
        raise PlanError(f"nothing to play: a card is not played against itself ({', '.join(news)}), since both "
                        "seats would hold it; the two seat orders of every other matchup measure the first seat")
    if not pairs:
        raise PlanError(f"nothing to play: no card of pack '{pack.name}' may play against "
                        f"{', '.join(news)} in a two-player game")
    return _both_orders(pairs)


def plan_tasks(matchups: Sequence[Matchup], games: int, seed: int) -> list[Task]:
    """Every game of the run: for each matchup in order, games 0 to `games` - 1, seeded.

    The run's size is checked before any task is made: a plan of too many games is refused at once."""
    if games < 1:
        raise PlanError(f"--games is the number of games per seat order, 1 or more; found {games}")
    total = len(matchups) * games
    if total > MAX_RUN_GAMES:
        raise PlanError(f"{len(matchups)} matchups (seat-ordered) x {games} games = {total} games: a run plays "
                        f"at most {MAX_RUN_GAMES} games; give fewer --games, or split the cards over several runs")
    return [Task(m, i, game_seed(seed, m.key, i)) for m in matchups for i in range(games)]


def _both_orders(pairs: Iterable[tuple[str, str]]) -> list[Matchup]:
    matchups = []
    for first, second in pairs:
        matchups += [Matchup(first, second), Matchup(second, first)]
    return matchups


def _unique(names: Iterable[str]) -> list[str]:
    """The names in their first order, each once."""
    return list(dict.fromkeys(names))
