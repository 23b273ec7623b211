"""What `turns` lists and what `play` accepts are the same turns, for every pairing of bga.

`turns` (and `outcomes`, perft, the agents) searches every turn of a position; `play` (and
`legal_next`, which the human player and the web page follow step by step) checks one written
turn. They are two traversals of the rules, and they once disagreed: with Aphrodite binding one
of Hermes's workers, the search visited each board once, whichever worker stood where, and lost
the boards whose first visit had the bound worker on a square it may not end on ("move B2 c2;
move B2 b1; build B2 c1" was accepted, its outcome never listed).

So, on a position of a random game of each ordered pairing: every listed turn is accepted, and
turns built step by step from what `legal_next` offers (random descents, seeded, and every turn
of up to two steps) have their outcome among the listed ones. More positions and descents run
with SANTORINI_EXPLORE=1.
"""

from __future__ import annotations

import os
import random
from functools import cache
from pathlib import Path

import pytest

from santorini.interpreter.chain.walk import Walk, stop
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game, new_game, parse_players
from santorini.interpreter.games.packs import Pack, load_pack
from santorini.interpreter.games.play import GameLog, RandomAgent, place_all
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.model.notation import parse_turn
from santorini.interpreter.model.state import Action, GameState, apply_events

SCENARIOS = Path(__file__).parent / "scenarios" / "bga"

EXPLORE = bool(os.environ.get("SANTORINI_EXPLORE"))
POSITIONS = 6 if EXPLORE else 1
DESCENTS = 60 if EXPLORE else 12
#: A random descent stops at a complete turn with this chance when it could also go on.
STOP_WHEN_COMPLETE = 0.5


@cache
def bga() -> Pack:
    return load_pack("bga")


def cards() -> list[str]:
    """The pack's cards, and Mortal (no power: the base rules alone)."""
    return ["Mortal", *sorted(bga().cards)]


def may_meet(first: str, second: str) -> bool:
    """Whether neither card bans the other."""
    def bans(card: str) -> set[str]:
        return {ban.lower() for ban in bga().cards[card].bans} if card in bga().cards else set()
    return second.lower() not in bans(first) and first.lower() not in bans(second)


def positions(gods: list[str], count: int) -> list[Game]:
    """Positions of seeded random games of the pairing, a few turns in (the game still on)."""
    found: list[Game] = []
    for seed in range(count):
        game = new_game(bga(), parse_players(gods))
        rng = random.Random(seed)
        place_all(game, [RandomAgent(rng) for _ in game.players], GameLog(game.state))
        engine = game.engine
        for _ in range(3 + seed % 5):
            turns = engine.turns(game.state)
            if not turns:
                break
            after = engine.play(game.state, turns[rng.randrange(len(turns))])
            if after.winner is not None:
                break
            game.state = after
        if engine.turns(game.state):
            found.append(game)
    return found


def outcome_key(engine: Engine, state: GameState, steps: tuple[Action, ...]) -> int:
    """The outcome of a turn as `outcomes` keys it: the state its events leave, with its winner,
    and the facts of the turn that the seat's rules read later."""
    events, winner = engine.accept(state, steps)
    after = state.copy()
    apply_events(after, events)
    after.winner = winner
    walk = Walk(after, stop)
    walk.events = list(events)
    return engine._key(walk)


def descents(engine: Engine, state: GameState, rng: random.Random, count: int) -> list[tuple[Action, ...]]:
    """Turns written step by step from the steps `legal_next` offers: every turn of up to two
    steps, and `count` random descents (each step drawn from the offer; a complete turn kept
    with even odds where it could also go on)."""
    turns: list[tuple[Action, ...]] = []
    first, empty_complete = engine.legal_next(state, ())
    for step in first:
        second, done = engine.legal_next(state, (step,))
        if done:
            turns.append((step,))
        for other in second:
            if engine.legal_next(state, (step, other))[1]:
                turns.append((step, other))
    for _ in range(count):
        prefix: tuple[Action, ...] = ()
        offered, complete = first, empty_complete
        while offered and not (complete and rng.random() < STOP_WHEN_COMPLETE):
            prefix += (rng.choice(offered),)
            offered, complete = engine.legal_next(state, prefix)
        if complete:
            turns.append(prefix)
    return turns


def every_turn(engine: Engine, state: GameState, most: int) -> list[tuple[Action, ...]]:
    """Every turn of at most `most` steps that `legal_next` leads to, step by step."""
    turns: list[tuple[Action, ...]] = []
    prefixes: list[tuple[Action, ...]] = [()]
    while prefixes:
        prefix = prefixes.pop()
        offered, complete = engine.legal_next(state, prefix)
        if complete:
            turns.append(prefix)
        if len(prefix) < most:
            prefixes.extend(prefix + (step,) for step in offered)
    return turns


def test_the_check_finds_the_gap_it_was_written_for() -> None:
    """On the scenario of the gap (a bound Hermes worker that stays while the other walks), every
    turn of up to three steps is listed: the check below, made whole on one small position."""
    scenario = load_scenario(SCENARIOS / "aphrodite-hermes-bound-worker-stays.yaml")
    for engine in (scenario.game.engine, Engine(scenario.game.pack.base.power,
                                                [[card.power for card in seat] for seat in scenario.game.cards],
                                                fast=False)):
        listed = engine.outcomes(scenario.state)
        turns = every_turn(engine, scenario.state, 3)
        assert parse_turn(scenario.state, "move B2 b3; move B2 c2; build B1 a3") in turns  # (B2's walk)
        assert {outcome_key(engine, scenario.state, steps) for steps in turns} <= set(listed)


@pytest.mark.parametrize("card", cards())
def test_every_listed_turn_is_accepted_and_every_accepted_turn_is_listed(card: str) -> None:
    rng = random.Random(card)
    wrong: list[str] = []
    for opponent in cards():
        if not may_meet(card, opponent):
            continue
        for game in positions([card, opponent], POSITIONS):
            engine, state = game.engine, game.state
            listed = engine.outcomes(state)
            for steps in rng.sample(list(listed.values()), min(len(listed), 20)):
                try:
                    engine.accept(state, steps)
                except Exception as error:  # noqa: BLE001 - the report names it
                    wrong.append(f"{card} v {opponent}: listed {steps} refused: {error}")
            for steps in descents(engine, state, rng, DESCENTS):
                if outcome_key(engine, state, steps) not in listed:
                    wrong.append(f"{card} v {opponent}: accepted {steps}, its outcome not listed")
    assert not wrong, "\n".join(wrong[:10])
