"""A game: a pack, a mode, seats with their powers, the compiled engine, and the state.

This module turns a list of players (as scenario and record files write them) into seats and
teams, checks the names against the pack (unknown cards, player counts, bans), and runs the
setup (worker placement) and the turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...dsl.errors import SantoriniError
from ...dsl.vocabulary import Pairing, SetupToken, Teams
from ..engine.engine import Engine
from ..engine.views import redacted_steps
from ..model.board import SQUARES, square_name
from ..model.state import Action, GameState, Seat, TurnRecord
from .packs import MORTAL, Card, Mode, Pack, UnknownName
from .setup import (
    add_reserve_workers,
    first_turn_seat,
    placement_fault,
    placing_order,
    seat_setup,
    token_round,
    worker_kind,
)

SEAT_LETTERS = "ABCDEFGH"


class SetupError(SantoriniError, ValueError):
    """Players, powers or mode that cannot make a game; the message says what is accepted."""


@dataclass(frozen=True)
class PlayerSpec:
    """A seat as written: its power names and, in team play, its team label."""

    powers: tuple[str, ...]
    team: str | None = None

    @property
    def label(self) -> str:
        return " + ".join(self.powers) if self.powers else MORTAL


def parse_players(entries: Sequence[object]) -> list[PlayerSpec]:
    """Seat entries of the scenario spec: 'NAME', 'Mortal', {god, team} or {gods: [...]}."""
    players = []
    for entry in entries:
        if isinstance(entry, str):
            players.append(PlayerSpec(() if entry.lower() == MORTAL.lower() else (entry,)))
        elif isinstance(entry, dict) and "gods" in entry:
            gods = tuple(g for g in entry["gods"] if g.lower() != MORTAL.lower())
            players.append(PlayerSpec(gods, entry.get("team")))
        elif isinstance(entry, dict) and "god" in entry:
            god = entry["god"]
            players.append(PlayerSpec(() if god.lower() == MORTAL.lower() else (god,), entry.get("team")))
        else:
            raise SetupError(f"a seat is a god name, 'Mortal', {{god: Name, team: Letter}} or "
                             f"{{gods: [A, B]}}; found {entry!r}")
    return players


@dataclass
class Game:
    """Everything needed to play or search: the rules compiled for these seats, and the state."""

    pack: Pack
    mode: Mode
    players: list[PlayerSpec]
    cards: list[list[Card]]
    engine: Engine
    state: GameState
    placements: list[tuple[Action, ...]] = field(default_factory=list)

    @property
    def workers_per_seat(self) -> int:
        """The mode's count of workers per player (a card may say otherwise: `workers_for`)."""
        return self.mode.power.workers_to_place or 2

    def workers_for(self, seat: int) -> int:
        """How many workers the seat places at setup (its cards' count, else the mode's)."""
        return seat_setup(self, seat).count

    def restart(self) -> Game:
        """A new game with the same seats and compiled rules, on an empty board (compiling the
        engine once for many games)."""
        state = GameState(seats=self.state.seats, team_letters=self.state.team_letters)
        return Game(self.pack, self.mode, self.players, self.cards, self.engine, state)


    def copy(self) -> Game:
        """The same game in an independent state (the compiled rules are shared)."""
        return Game(self.pack, self.mode, self.players, self.cards, self.engine, self.state.copy(),
                    list(self.placements))

    def view(self, *seats: int) -> Game:
        """The game as the seats may see it (engine/views.py; with several, what all of them may
        see): this game when its cards hide nothing from them, else a copy whose state and
        placements leave out what they hide."""
        hidden = self.engine.secrets.hidden_from(self.state, *seats) if self.engine.secrets else frozenset()
        if not hidden:
            return self
        state = self.engine.secrets.view(self.state, *seats)
        placers = placing_order(self)
        placements = [redacted_steps(placers[index], steps, hidden) if index < len(placers) else steps
                      for index, steps in enumerate(self.placements)]
        return Game(self.pack, self.mode, self.players, self.cards, self.engine, state, placements)


def new_game(pack: Pack, players: Sequence[PlayerSpec], mode_name: str | None = None) -> Game:
    """Seats, teams and compiled rules for these players; an empty board, no workers yet."""
    if not 2 <= len(players) <= len(SEAT_LETTERS):
        raise SetupError(f"a game has 2 to {len(SEAT_LETTERS)} seats; found {len(players)}")
    try:
        mode = pack.mode(mode_name, len(players))
    except UnknownName as err:
        raise SetupError(str(err)) from None
    if len(players) not in mode.players:
        raise SetupError(f"mode '{mode.name}' is for {', '.join(map(str, mode.players))} players, not {len(players)}")
    cards: list[list[Card]] = []
    for spec in players:
        try:
            seat_cards = [c for c in (pack.card(name) for name in spec.powers) if c is not None]
        except UnknownName as err:
            raise SetupError(str(err)) from None
        if len(seat_cards) > mode.powers_per_seat:
            raise SetupError(f"mode '{mode.name}' gives each seat {mode.powers_per_seat} power(s); "
                             f"seat {spec.label} has {len(seat_cards)} (use 'Mortal' for no power)")
        if mode.powers_required and len(seat_cards) < mode.powers_per_seat:
            letter = SEAT_LETTERS[len(cards)]
            required = "a power" if mode.powers_per_seat == 1 else f"{mode.powers_per_seat} powers"
            raise SetupError(f"mode '{mode.name}' ({mode.title}) requires {required} for every seat; "
                             f"seat {letter} ({spec.label}) has {len(seat_cards) or 'none'}")
        for card in seat_cards:
            if card.kind == "base":
                raise SetupError(f"'{card.name}' is the pack's base card, not a power")
            if len(players) not in card.players:
                raise SetupError(f"{card.name} is for {', '.join(map(str, card.players))} players, "
                                 f"not {len(players)}")
        cards.append(seat_cards)
    _check_bans(cards)
    players = _paired(mode, players)
    seats, team_letters = _seats(players)
    state = GameState(seats=seats, team_letters=team_letters)
    engine = Engine(pack.base.power, [[c.power for c in seat] for seat in cards], teams=[s.team for s in seats],
                    if_possible=pack.if_possible)
    return Game(pack, mode, list(players), cards, engine, state)


def _check_bans(cards: list[list[Card]]) -> None:
    names = {c.name.lower(): c.name for seat in cards for c in seat}
    for seat in cards:
        for card in seat:
            for banned in card.bans:
                if banned.lower() in names:
                    raise SetupError(f"{card.name} bans {names[banned.lower()]}: they cannot play in one game")


def _paired(mode: Mode, players: Sequence[PlayerSpec]) -> list[PlayerSpec]:
    """The players with the team labels of the mode's pairing ('players across the table are
    teammates'): labels written with the players must make the same teams."""
    rules = mode.power.setup_of(Teams)
    if not rules:
        return _without_teams(mode, players)
    pairing, count = rules[-1].pairing, len(players)
    if count % 2:
        raise SetupError(f"mode '{mode.name}' plays in teams of two; {count} players cannot pair up")
    groups = [index % (count // 2) if pairing is Pairing.ACROSS else index // 2 for index in range(count)]
    first_of = {group: SEAT_LETTERS[groups.index(group)] for group in groups}
    labels = [first_of[group] for group in groups]
    written = [p.team for p in players]
    if any(label is not None for label in written):
        same = all((written[i] == written[j]) == (groups[i] == groups[j]) for i in range(count) for j in range(count))
        if not same:
            raise SetupError(f"mode '{mode.name}' pairs players {pairing.value}: {_pairs(labels)}; "
                             f"the players' teams say {_pairs(written)}")
    return [PlayerSpec(p.powers, label) for p, label in zip(players, labels, strict=True)]


def _without_teams(mode: Mode, players: Sequence[PlayerSpec]) -> list[PlayerSpec]:
    """The players of a mode without teams, each its own team: a team written with two seats
    would make a team game that the mode does not make. A written team is named by its seat's
    letter (as a team is named by its first seat)."""
    written = [p.team for p in players]
    for index, label in enumerate(written):
        if label is not None and label in written[:index]:
            raise SetupError(f"mode '{mode.name}' has no teams: each player plays alone "
                             f"({', '.join(SEAT_LETTERS[:len(players)])}); the players' teams say {_pairs(written)}")
    return [PlayerSpec(p.powers, None if p.team is None else letter)
            for p, letter in zip(players, SEAT_LETTERS, strict=False)]


def _pairs(labels: Sequence[object]) -> str:
    """'A with C, B with D': the seats that share a label."""
    groups: dict[object, list[str]] = {}
    for letter, label in zip(SEAT_LETTERS, labels, strict=False):  # (as many letters as seats)
        groups.setdefault(label if label is not None else letter, []).append(letter)
    return ", ".join(" with ".join(group) for group in groups.values())


def _seats(players: Sequence[PlayerSpec]) -> tuple[list[Seat], list[str]]:
    """Seats in order; a team is the set of seats sharing a label, named by its first seat."""
    teams: dict[str, int] = {}
    team_letters: list[str] = []
    seats = []
    for index, spec in enumerate(players):
        letter = SEAT_LETTERS[index]
        label = spec.team if spec.team is not None else f"seat-{letter}"
        if label not in teams:
            teams[label] = len(team_letters)
            team_letters.append(letter)
        seats.append(Seat(letter=letter, team=teams[label], powers=spec.powers))
    return seats, team_letters


def seat_index(state: GameState, letter: str) -> int:
    for index, seat in enumerate(state.seats):
        if seat.letter == letter.upper():
            return index
    raise SetupError(f"no seat '{letter}'; seats are {', '.join(s.letter for s in state.seats)}")


# ---- setup: placing workers
def placing_seats(game: Game) -> list[int]:
    """The seats that place workers, in order: one seat of each team (its first, or the one the
    mode names), in seat order (a team whose card places first comes first; see setup.py)."""
    return placing_order(game)


def free_squares(state: GameState) -> list[int]:
    return [s for s in SQUARES if state.occupant[s] < 0 and not state.domes[s]]


def place_workers(game: Game, seat: int, squares: Sequence[int]) -> tuple[Action, ...]:
    """Place the seat's team's workers on `squares` (each must be unoccupied); returns the
    placement as steps. A seat or a square that does not exist is a SetupError, checked first:
    a negative index would otherwise quietly name the last seat or square."""
    state = game.state
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise SetupError(f"no seat {seat!r}: seats are 0 to {len(state.seats) - 1} "
                         f"({', '.join(s.letter for s in state.seats)})")
    for square in squares:
        if isinstance(square, bool) or not isinstance(square, int) or square not in SQUARES:
            raise SetupError(f"{square!r} is not a space of the board: spaces are 0 (a1) to "
                             f"{len(SQUARES) - 1} ({square_name(SQUARES[-1])})")
    team = state.seats[seat].team
    tokens = token_round(game, seat)
    fault = placement_fault(game, seat, tuple(squares))
    if fault is not None:
        raise SetupError(fault)
    if tokens:
        return _place_tokens(game, seat, tokens, squares)
    setup = seat_setup(game, seat)
    steps = []
    for index, square in enumerate(squares):
        number = len(state.members.get(team, ())) + 1  # (every worker of the team, on its card too)
        kind, sex = worker_kind(setup, index)
        worker = state.add_worker(team, number, square, kind, sex)
        steps.append(("place", worker, square))
    add_reserve_workers(game, seat)
    state.history.append(TurnRecord((seat, tuple(steps), tuple(("place",) + s[1:] for s in steps))))
    game.placements.append(tuple(steps))
    return tuple(steps)


def _place_tokens(game: Game, seat: int, tokens: tuple[SetupToken, ...], squares: Sequence[int]) -> tuple[Action, ...]:
    """The seat's setup tokens go on `squares` (checked by the caller); returns the steps."""
    state = game.state
    steps = placement_steps(game, seat, squares)
    for _, kind, square in steps:
        state.set_token(square, (kind, seat))
    events = tuple(("token", seat, kind, -1, square) for _, kind, square in steps)
    state.history.append(TurnRecord((seat, steps, events)))
    game.placements.append(steps)
    return steps


def place_as_written(game: Game, seat: int, text: str) -> tuple[Action, ...]:
    """Place the seat's workers as a placement in notation says ('place A1 b3; place A2 d3'; in
    its token round 'token abyss c3'); SetupError or NotationError if not."""
    return place_workers(game, seat, written_placement(game, seat, text))


def written_placement(game: Game, seat: int, text: str) -> list[int]:
    """The squares a placement in notation names, in the order the seat places: its workers named
    in order from the team's next number, or its setup tokens in its token round; SetupError or
    NotationError if the text is not such a placement (the squares are not judged here)."""
    from ..model.notation import parse_placement, parse_token_placement
    state = game.state
    tokens = token_round(game, seat)
    if tokens:
        written = parse_token_placement(text)
        kinds = [rule.token.value for rule in tokens]
        if [kind for kind, _ in written] != kinds:
            raise SetupError(f"seat {state.seats[seat].letter} places its {', '.join(kinds)} token(s) now, in this "
                             f"order ('token {kinds[0]} c3'); found {text.strip()!r}")
        return [square for _, square in written]
    placed = parse_placement(text)
    expected = placement_names(game, seat)[:len(placed)]
    if [worker for worker, _ in placed] != expected:
        raise SetupError(f"seat {state.seats[seat].letter} places {', '.join(expected)} in this order; "
                         f"found {', '.join(worker for worker, _ in placed)}")
    return [square for _, square in placed]


def placement_names(game: Game, seat: int) -> list[str]:
    """What the seat places now, as a placement writes each: its workers' names in order from the
    team's next number ('A1', 'A2'), or in its token round 'token KIND' for each token."""
    tokens = token_round(game, seat)
    if tokens:
        return [f"token {rule.token.value}" for rule in tokens]
    state = game.state
    team = state.seats[seat].team
    letter, first = state.team_letters[team], len(state.members.get(team, ())) + 1
    return [f"{letter}{first + index}" for index in range(game.workers_for(seat))]


def placement_steps(game: Game, seat: int, squares: Sequence[int]) -> tuple[Action, ...]:
    """The steps of a placement of `squares` by the seat, not made: ('place', worker, square) for
    each new worker, as place_workers numbers them, or in its token round ('token', kind, square)
    for each setup token."""
    tokens = token_round(game, seat)
    if tokens:
        return tuple(("token", rule.token.value, square) for rule, square in zip(tokens, squares, strict=True))
    base = len(game.state.worker_pos)  # (the index each new worker gets, as place_workers adds them)
    return tuple(("place", base + index, square) for index, square in enumerate(squares))


def placement_text(game: Game, seat: int, squares: Sequence[int]) -> str:
    """A placement of `squares` by the seat, not made, in notation ('place A1 b3; place A2 d3',
    or 'token abyss c3' in its token round)."""
    names = placement_names(game, seat)
    steps = (name if name.startswith("token ") else f"place {name}" for name in names)
    return "; ".join(f"{step} {square_name(square)}" for step, square in zip(steps, squares, strict=True))


def end_of_setup(game: Game) -> None:
    """After placement the first turn is taken (seat A, or the player of seat A's team the mode
    names); the placement log is not part of turn history."""
    game.state.history.clear()
    game.state.to_move = first_turn_seat(game)


def resolve_stuck(game: Game) -> str | None:
    """If the seat to move cannot complete a turn, settle it (see `settle_stuck`); returns what
    happened, or None if the seat can play."""
    if game.state.winner is not None or game.engine.has_turn(game.state):
        return None
    return settle_stuck(game)


def resolve_all_stuck(game: Game) -> list[str]:
    """Settle stuck seats until the seat to move can play or the game is over: with three or more
    teams, the seat after one that is out may be stuck too. Returns what happened, in order (at
    most one round of the seats: seats that only pass do not go round for ever)."""
    happened = []
    for _ in game.state.seats:
        settled = resolve_stuck(game)
        if settled is None:
            break
        happened.append(settled)
    return happened


def settle_stuck(game: Game) -> str:
    """The seat to move cannot complete a turn. Under the base card's loss condition its team
    loses: with two teams the other one wins (the board is left as it is); with more, the team is
    out, its workers leave the board, and play goes on with the next seat in play, until one team
    is left, which wins. Without a loss condition the seat passes."""
    state = game.state
    seat = state.to_move
    letter = state.seats[seat].letter
    if not game.engine.seat_rules[seat].lose_when_stuck:
        state.to_move = state.next_seat(seat)
        return f"seat {letter} cannot complete a turn and passes"
    team = state.seats[seat].team
    whom = f"seat {letter}" if _alone(state, team) else f"seat {letter} (team {state.team_letters[team]})"
    if len(state.team_letters) == 2:  # a game of two teams ends: the other wins, the board stays
        state.out.update(i for i, info in enumerate(state.seats) if info.team == team)  # a team loses as one
        state.winner = state.teams_in_play().pop()
        return f"{whom} cannot complete a turn and loses"
    state.eliminate(team)
    teams = state.teams_in_play()
    if len(teams) == 1:
        state.winner = teams.pop()
        return f"{whom} cannot complete a turn and is out; {_last_left(state, state.winner)}"
    state.to_move = state.next_seat(seat)
    return f"{whom} cannot complete a turn and is out"


def _alone(state: GameState, team: int) -> bool:
    """Whether the team is a single seat (no teammates)."""
    return sum(1 for s in state.seats if s.team == team) == 1


def _last_left(state: GameState, team: int) -> str:
    """'seat A is the only player left', or 'team A is the only team left' in team play."""
    if _alone(state, team):
        return f"seat {state.team_letters[team]} is the only player left"
    return f"team {state.team_letters[team]} is the only team left"
