"""Hidden information: the leak rule. Whatever a seat can observe of a game is the same for two
games that differ only in what the cards hide from it.

Tartarus hides the Abyss token from its opponent. Random games are played to a position where the
opponent is to move; a twin of the game has the Abyss on another free space, and everything the
opponent's seat is given is compared between the two: its view's position, history and record,
its legal turns (their notation and order), the next steps it may take, the turn a random and a
greedy agent choose for it, and the refusal of turns it may not play (the refusal's text too).
The Abyss's holder sees it, and the views differ for it: the test checks that it can tell.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from santorini import Game, IllegalTurn
from santorini.interpreter.agents.registry import make_agent
from santorini.interpreter.model.board import SQUARES, square_name
from santorini.interpreter.model.notation import format_step

OPPONENTS = ["Mortal", "Apollo", "Artemis", "Minotaur", "Hermes", "Atlas", "Pan", "Prometheus"]


def _abyss(game: Game) -> int | None:
    """The Abyss's square, if it is on the board."""
    return next((square for square, (kind, _) in game.state.tokens.items() if kind == "abyss"), None)


def _played_to(seed: int, opponent: str, tartarus_first: bool, turns: int) -> tuple[Game, str] | None:
    """A random game of Tartarus against `opponent`, played (placements included) until the
    opponent is to move after about `turns` turns; with the opponent's seat letter. None if the
    game ended, or the Abyss was built on, before that."""
    cards = ["Tartarus", opponent] if tartarus_first else [opponent, "Tartarus"]
    game = Game(cards)
    rng = random.Random(seed)
    other = "B" if tartarus_first else "A"
    played = 0
    while game.in_setup or played < turns or game.to_move != other:
        if game.is_over or (not game.in_setup and played > turns + 2):
            return None
        turn = game.random_turn(rng)
        if turn is None:
            return None
        if not game.in_setup:
            played += 1
        game.play(turn)
    return (game, other) if not game.is_over and _abyss(game) is not None else None


def _twin(game: Game, rng: random.Random) -> Game | None:
    """The same game with the Abyss on another free space (no worker, dome or token), if any."""
    here = _abyss(game)
    assert here is not None
    state = game.state
    free = [s for s in SQUARES if s != here and state.occupant[s] < 0 and not state.domes[s] and s not in state.tokens]
    if not free:
        return None
    twin = game.copy()
    token = twin.state.tokens[here]
    twin.state.set_token(here, None)
    twin.state.set_token(rng.choice(free), token)
    return twin


def _refusal(game: Game, text: str) -> str:
    """What playing `text` on a copy of the game says: refused with its reason, or played."""
    try:
        game.copy().play(text)
    except IllegalTurn as err:
        return f"refused: {err}"
    return "played"


def _observed(game: Game, seat: str) -> dict[str, object]:
    """Everything the seat is given of the game, before it acts."""
    view = game.view(seat)
    turns = game.turns()
    state = view.state
    first_steps, _ = game.engine.legal_next(state, [])
    following = {format_step(state, step): game.engine.legal_next(state, [step]) for step in first_steps[:6]}
    probes = [f"{turn.notation}; build {turn.notation.split()[1]} a1" for turn in turns[:8]]
    probes += [f"move {name} {square_name(square)}" for name in ("A1", "B1") for square in (0, 12, 24)]
    return {
        "position": view.position(),
        "history": [turn.notation for turn in view.history],
        "record": view.record(),
        "turns": [turn.notation for turn in turns],
        "view turns": [turn.notation for turn in view.turns()],
        "next steps": (first_steps, following),
        "random": str(game.random_turn(random.Random(7))),
        "greedy": str(game.agent_turn(make_agent("greedy", random.Random(7)))),
        "refusals": {probe: _refusal(game, probe) for probe in probes},
    }


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), opponent=st.sampled_from(OPPONENTS), tartarus_first=st.booleans(),
       turns=st.integers(0, 14))
def test_what_the_opponent_observes_does_not_depend_on_where_the_abyss_is(
        seed: int, opponent: str, tartarus_first: bool, turns: int) -> None:
    found = _played_to(seed, opponent, tartarus_first, turns)
    if found is None:
        return
    game, seat = found
    twin = _twin(game, random.Random(seed))
    if twin is None:
        return
    assert _observed(game, seat) == _observed(twin, seat)
    holder = "A" if seat == "B" else "B"
    assert game.view(holder).position() != twin.view(holder).position()  # (the holder sees its Abyss)


def test_the_opponent_s_view_has_no_trace_of_the_abyss() -> None:
    """Placed, then played over: the opponent's view has no Abyss on the board, no step that
    placed it in its history or record; the holder's view and the whole game have both."""
    game = Game(["Tartarus", "Mortal"])
    for text in ("place A1 a1; place A2 e5", "place B1 c3; place B2 b2", "token abyss d4"):
        game.play(text)
    game.play("move A1 a2; build A1 a3")
    assert "abyss" not in game.view("B").position() and "abyss" not in game.view("B").record()
    assert [turn.notation for turn in game.view("B").history][2] == ""
    assert "tokens=d4:abyss" in game.view("A").position() and "token abyss d4" in game.view("A").record()
    assert "tokens=d4:abyss" in game.position() and "token abyss d4" in game.record()


def test_a_turn_the_seat_sees_as_legal_is_played_as_far_as_the_abyss_lets_it() -> None:
    """The opponent plays 'move B1 d4; build B1 d5' (legal on its view); the Abyss on d4 ends the
    turn at the move, and the turn returned says so. The same turn, seen refused by the view
    (a build on a dome), is refused with the view's reason."""
    game = Game(["Tartarus", "Mortal"])
    for text in ("place A1 a1; place A2 e5", "place B1 c3; place B2 b2", "token abyss d4"):
        game.play(text)
    game.play("move A1 a2; build A1 a3")
    assert [t.notation for t in game.turns()].count("move B1 d4; build B1 d5") == 1
    played = game.copy().play("move B1 d4; build B1 d5")
    assert played.notation == "move B1 d4"
    after = game.copy()
    after.play("move B1 d4; build B1 d5")
    assert after.winner == "A"
