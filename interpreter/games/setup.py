"""The setup rules of the seats' cards: how many workers each team places, in what order, on which
spaces, which of them are female, and which wait on the card.

A mode says how many workers every player places ('each player places 2 workers'); a card may say
otherwise for its holder ('you place 3 workers', 'you place your workers first', '... on perimeter
spaces', '... on opposite edges of the board', 'one of your workers is female', 'you have 1 extra
worker on your card'). A card may also place tokens once every worker is placed ('after all workers
are placed, you secretly place your abyss token on an unoccupied space'): its holder then has a
second placement, of tokens, after every placement of workers. The rules are read from the
compiled cards (dsl.vocabulary's setup rules), never from a card's name.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import TYPE_CHECKING

from ...dsl.vocabulary import (
    Condition,
    FirstTurn,
    OppositeEdges,
    PlaceFirst,
    Placement,
    PlacementArea,
    Reserve,
    SetupToken,
    Sex,
    WorkerSexes,
)
from ..chain.conditions import Judge
from ..chain.walk import Walk, stop
from ..model.board import SIZE, SQUARES, square_name

if TYPE_CHECKING:
    from ..engine.engine import Engine
    from .game import Game


#: Each compiled engine's seats' setups, by (seat, mode name): games restarted from one template
#: (bench, balance runs) share the engine, and with it these.
_SETUPS: weakref.WeakKeyDictionary[Engine, dict[tuple[int, str], SeatSetup]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class SeatSetup:
    """What a seat's cards say about its setup (the mode's count when they say nothing)."""

    count: int
    first: bool
    areas: tuple[Condition, ...]
    opposite_edges: bool
    female: int
    reserve: int

    @property
    def plain(self) -> bool:
        """No rule but the count: any unoccupied spaces will do (for the workers: a seat that
        places tokens too has a token round, `token_round`)."""
        return not (self.first or self.areas or self.opposite_edges or self.female or self.reserve)


def seat_setup(game: Game, seat: int) -> SeatSetup:
    """The setup rules of the seat's cards, over the mode's (read once per compiled engine: games
    restarted from one template share them)."""
    cache = _SETUPS.setdefault(game.engine, {})
    key = (seat, game.mode.name)
    if key not in cache:
        cache[key] = _seat_setup(game, seat)
    return cache[key]


def _seat_setup(game: Game, seat: int) -> SeatSetup:
    """Teammates share their workers, so the setup rules of every card of the seat's team apply
    to them, in seat order (a later count overrides an earlier one, as on one card)."""
    team = game.state.seats[seat].team
    rules = [rule for rules in game.engine.seat_rules if rules.team == team for rule in rules.setup]
    counts = [r.count for r in rules if isinstance(r, Placement)]
    return SeatSetup(
        count=counts[-1] if counts else (game.mode.power.workers_to_place or 2),
        first=any(isinstance(r, PlaceFirst) for r in rules),
        areas=tuple(f for r in rules if isinstance(r, PlacementArea) for f in r.filters),
        opposite_edges=any(isinstance(r, OppositeEdges) for r in rules),
        female=sum(r.female for r in rules if isinstance(r, WorkerSexes)),
        reserve=sum(r.count for r in rules if isinstance(r, Reserve)),
    )


def placing_order(game: Game) -> list[int]:
    """The seats that place, in order: for each team, its first seat, or the one the mode names
    ('the second player of each team places 2 workers'), in seat order; a team whose card says it
    places first comes before the others (in seat order among themselves). Then, once every
    worker is placed, each seat whose card places tokens at setup, in seat order."""
    placements = game.mode.power.placements
    rank = placements[-1].placer if placements else 1
    order = []
    for members in _teams(game):
        order.append(members[min(rank, len(members)) - 1])
    workers = sorted(sorted(order), key=lambda index: not seat_setup(game, index).first)
    return workers + [seat for seat in range(len(game.state.seats)) if setup_tokens(game, seat)]


def setup_tokens(game: Game, seat: int) -> tuple[SetupToken, ...]:
    """The tokens the seat's own cards place at setup, once every worker is placed."""
    return tuple(rule for rule in game.engine.seat_rules[seat].setup if isinstance(rule, SetupToken))


def token_round(game: Game, seat: int) -> tuple[SetupToken, ...]:
    """The tokens the seat places now, if its placement now is of tokens (its team's workers are
    on the board and its setup tokens are not yet); else ()."""
    tokens = setup_tokens(game, seat)
    state = game.state
    if not tokens or not state.members.get(state.seats[seat].team):
        return ()
    placed = {kind for kind, holder in state.tokens.values() if holder == seat}
    return () if any(rule.token.value in placed for rule in tokens) else tokens


def first_turn_seat(game: Game) -> int:
    """The seat that takes the first turn: seat A, or the player of seat A's team that the mode
    names ('the second player of each team takes the first turn')."""
    rules = game.mode.power.setup_of(FirstTurn)
    if not rules:
        return 0
    members = _teams(game)[0]
    return members[min(rules[-1].rank, len(members)) - 1]


def _teams(game: Game) -> list[list[int]]:
    """Each team's seats in seat order, the teams in the order of their first seats."""
    teams: dict[int, list[int]] = {}
    for index, seat in enumerate(game.state.seats):
        teams.setdefault(seat.team, []).append(index)
    return list(teams.values())


def _on_edges(first: int, second: int) -> bool:
    """Whether two squares lie on opposite edges of the board (rows 1 and 5, or columns a and e)."""
    rows = {first // SIZE, second // SIZE}
    columns = {first % SIZE, second % SIZE}
    return rows == {0, SIZE - 1} or columns == {0, SIZE - 1}


def placement_fault(game: Game, seat: int, squares: tuple[int, ...]) -> str | None:
    """Why the seat may not place its workers (or, in its token round, its tokens) on `squares`
    (None: it may)."""
    state = game.state
    tokens = token_round(game, seat)
    if tokens:
        return _token_fault(game, seat, tokens, squares)
    setup = seat_setup(game, seat)
    if len(squares) != setup.count:
        return f"seat {state.seats[seat].letter} places {setup.count} workers, not {len(squares)}"
    for index, square in enumerate(squares):
        if state.blocked[square] or square in squares[:index]:
            return f"{square_name(square)} is occupied: workers are placed on unoccupied spaces"
    if setup.areas:
        inside = _area_test(game, seat)
        for square in squares:
            if not inside(square):
                return f"{square_name(square)}: this seat's workers are placed only where its card says"
    if setup.opposite_edges and (len(squares) != 2 or not _on_edges(*squares)):
        return "this seat's two workers are placed on opposite edges of the board"
    return None


def _token_fault(game: Game, seat: int, tokens: tuple[SetupToken, ...], squares: tuple[int, ...]) -> str | None:
    """Why the seat may not place its setup tokens on `squares`, one for each in order."""
    state = game.state
    if len(squares) != len(tokens):
        return f"seat {state.seats[seat].letter} places {len(tokens)} token(s), not {len(squares)}"
    for index, (rule, square) in enumerate(zip(tokens, squares, strict=True)):
        if square in state.tokens or square in squares[:index]:
            return f"{square_name(square)} holds a token: a token is placed on a space without one"
        if not _token_test(game, seat, rule)(square):
            return f"{square_name(square)}: the {rule.token.value} token is placed only where its card says"
    return None


def _token_test(game: Game, seat: int, rule: SetupToken) -> Callable[[int], bool]:
    """Whether a setup token may go on a square, judged on the board as the workers left it."""
    state = game.state
    test = Judge(seat, game.engine.seat_rules[seat].team).compile_all(rule.filters)
    if test is None:
        return lambda square: True
    walk = Walk(state, stop)
    return lambda square: test(walk, -1, -1, square, state.heights[square], state.heights[square], None)


#: What a seat's legal placements depend on: (seat, hash, workers' squares, heights, domes).
_Board = tuple[int, int, tuple[int, ...], bytes, bytes]
#: engine -> (seat, what the placements depend on) -> the legal placements: games restarted from
#: one compiled engine (a benchmark, a balance run) ask again for the same board many times.
_PLACEMENTS: weakref.WeakKeyDictionary[Engine, dict[_Board, list[tuple[int, ...]]]] = weakref.WeakKeyDictionary()


def legal_placements(game: Game, seat: int) -> list[tuple[int, ...]]:
    """Every set of spaces the seat may place its workers on (in square order)."""
    state = game.state
    tokens = token_round(game, seat)
    if tokens:
        free = [s for s in SQUARES if s not in state.tokens]
        return [squares for squares in permutations(free, len(tokens))
                if _token_fault(game, seat, tokens, squares) is None]
    key = (seat, state.hash, tuple(state.worker_pos), bytes(state.heights), bytes(state.domes))
    known = _PLACEMENTS.setdefault(game.engine, {})
    found = known.get(key)
    if found is None:
        setup = seat_setup(game, seat)
        free = [s for s in SQUARES if not state.blocked[s]]
        if setup.areas:  # a square outside the card's area rules out every placement that uses it
            inside = _area_test(game, seat)
            free = [s for s in free if inside(s)]
        found = [squares for squares in combinations(free, setup.count) if placement_fault(game, seat, squares) is None]
        if len(known) >= 64:
            known.clear()
        known[key] = found
    return list(found)


def _area_test(game: Game, seat: int) -> Callable[[int], bool]:
    """Whether the seat's card's placement area ('on perimeter spaces') holds a square, judged on
    the board as it is."""
    state, rules = game.state, game.engine.seat_rules[seat]
    test = Judge(seat, rules.team).compile_all(seat_setup(game, seat).areas)
    assert test is not None  # (asked only of a seat with an area)
    walk = Walk(state, stop)
    return lambda square: test(walk, -1, -1, square, state.heights[square], state.heights[square], None)


def worker_kind(setup: SeatSetup, index: int) -> tuple[int, Sex | None]:
    """The kind (for outcome identity) and sex of the seat's `index`-th placed worker: the first
    `female` ones are female, the others male, when the card tells sexes apart."""
    if not setup.female:
        return 0, None
    return (1, Sex.FEMALE) if index < setup.female else (0, Sex.MALE)


def add_reserve_workers(game: Game, seat: int) -> None:
    """The extra workers the seat's card keeps ('you have 1 extra worker on your card'): they wait
    on the card, numbered after the team's other workers."""
    state = game.state
    team = state.seats[seat].team
    for _ in range(seat_setup(game, seat).reserve):
        number = max((state.worker_number[w] for w in state.members.get(team, ())), default=0) + 1
        state.add_reserve_worker(team, number)
