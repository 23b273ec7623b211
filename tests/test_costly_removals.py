"""A removal with a cost: 'remove a block ... any number of times, spending 1 coin each time'.

The checker accepts a step repeated any number of times when it has a cost (the coins run out:
docs/language.md 4.6), and the engine must play it: each removal takes a coin, no more removals
than coins, any number up to that. An author's card, never shipped: the step kind is general.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import end_of_setup, new_game, parse_players, place_workers
from santorini.interpreter.games.packs import load_pack_folder
from santorini.interpreter.model.board import parse_square

PACK = """name: remover
title: A removal with a cost
edition: a test's own
description: one card
language: 2
extends: bga
default_modes:
  2: standard
settings:
  if_possible: late
"""
CARD = """name: Remover
title: Test
kind: god
tier: simple
players: [2]
summary: takes blocks off, a coin each
text: test
rules: |
  Start of Your Turn:
    you gain 1 coin.
  End of Your Turn:
    the moved worker may remove a block from a neighboring space any number of times, spending 1 coin each time.
"""


def test_removals_cost_a_coin_each_and_stop_when_the_coins_run_out(tmp_path: Path) -> None:
    folder = tmp_path / "remover"
    folder.mkdir()
    (folder / "pack.yaml").write_text(PACK, encoding="utf-8")
    (folder / "remover.yaml").write_text(CARD, encoding="utf-8")
    game = new_game(load_pack_folder(folder), parse_players(["Remover", "Mortal"]))
    place_workers(game, 0, [parse_square("a1"), parse_square("e5")])
    place_workers(game, 1, [parse_square("a5"), parse_square("e1")])
    end_of_setup(game)
    state = game.state
    for square in ("b1", "c1", "b2", "c2"):  # blocks around b1's and c1's neighbours
        state.set_height(parse_square(square), 1)
    state.counters[(0, "coin")] = 1  # with the coin of the turn's start: 2
    generic = Engine(game.pack.base.power, [[card.power for card in seat] for seat in game.cards], fast=False)
    for engine in (game.engine, generic):
        turns = engine.turns(state)
        removals = [sum(step[0] == "unbuild" for step in turn) for turn in turns]
        assert max(removals) == 2 and 0 in removals and 1 in removals  # any number up to the coins
        two = turns[removals.index(2)]
        after = engine.play(state, two)
        assert after.counters.get((0, "coin"), 0) == 0  # 1 + 1 gained - 2 spent
    assert game.engine.outcomes(state) == generic.outcomes(state)
    one = dataclasses.replace(game, state=state.copy())
    one.state.counters[(0, "coin")] = 0  # 1 coin after the gain: one removal at most
    assert max(sum(step[0] == "unbuild" for step in turn) for turn in game.engine.turns(one.state)) == 1
