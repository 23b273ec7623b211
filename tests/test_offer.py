"""The selection of powers before a game (Board Game Arena's quick, tournament and custom setups,
as its help page says; interpreter/games/offer.py): what is offered, who takes what, and who
becomes the first player; seeded; and `santorini play --setup`."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.game import SetupError, new_game, parse_players
from santorini.interpreter.games.offer import OfferKind, select_powers
from santorini.interpreter.games.packs import load_pack

#: The limited set of a tournament setup, as BGA's help says: 6, 8 or 10 cards by player count.
TOURNAMENT_SET = {2: 6, 3: 8, 4: 10}


def _bans(first: str, second: str) -> bool:
    cards = load_pack("bga").cards
    return (second.lower() in {b.lower() for b in cards[first].bans}
            or first.lower() in {b.lower() for b in cards[second].bans})


@pytest.mark.parametrize("kind", list(OfferKind))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_offer_is_one_power_a_player_for_this_many_players_none_banning_another(kind: OfferKind,
                                                                                    players: int) -> None:
    cards = load_pack("bga").cards
    for seed in range(30):
        selection = select_powers(load_pack("bga"), players, kind, random.Random(seed))
        offer = selection.offer
        assert len(offer) == len(set(offer)) == players
        assert all(players in cards[name].players for name in offer)
        assert not any(_bans(a, b) for a in offer for b in offer if a != b)
        assert sorted(selection.powers) == sorted(offer)
        new_game(load_pack("bga"), parse_players(list(selection.powers)))  # (a legal game: no SetupError)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_others_pick_in_turn_order_and_the_first_player_gets_the_last(players: int) -> None:
    for seed in range(20):
        selection = select_powers(load_pack("bga"), players, OfferKind.QUICK, random.Random(seed))
        assert [player for player, _ in selection.picks] == [*range(2, players + 1), 1]
        taken = [power for _, power in selection.picks]
        assert sorted(taken) == sorted(selection.offer)  # (each power once; player 1's is the one left)
        assert selection.starting in selection.offer


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whoever_holds_the_starting_power_becomes_the_first_player(players: int) -> None:
    seen_holders = set()
    for seed in range(40):
        selection = select_powers(load_pack("bga"), players, OfferKind.QUICK, random.Random(seed))
        held = dict(selection.picks)
        holder = next(player for player, power in held.items() if power == selection.starting)
        seen_holders.add(holder)
        assert selection.order[0] == holder and selection.powers[0] == selection.starting
        # the others follow in the turn order they sat in (teams across the table stay teams)
        assert list(selection.order) == [(holder - 1 + i) % players + 1 for i in range(players)]
        assert list(selection.powers) == [held[player] for player in selection.order]
    assert seen_holders == set(range(1, players + 1))  # (any player may end up first)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_tournament_offer_comes_from_a_limited_set_of_6_8_or_10_cards(players: int) -> None:
    for seed in range(20):
        selection = select_powers(load_pack("bga"), players, OfferKind.TOURNAMENT, random.Random(seed))
        limited = selection.told[0].removeprefix("the limited set: ").split(", ")
        assert len(limited) == len(set(limited)) == TOURNAMENT_SET[players]
        assert set(selection.offer) <= set(limited)


def test_the_same_seed_gives_the_same_selection_and_another_seed_another() -> None:
    pack = load_pack("bga")
    drawn = [select_powers(pack, 3, OfferKind.CUSTOM, random.Random(seed)) for seed in (7, 7, 8)]
    assert drawn[0] == drawn[1] and drawn[0] != drawn[2]


def test_a_pack_without_an_offer_says_so() -> None:
    with pytest.raises(SetupError, match="no selection of powers"):
        select_powers(load_pack("pantheon"), 2, OfferKind.QUICK, random.Random(1))


def test_play_with_a_setup_prints_the_selection_then_plays_the_game() -> None:
    result = CliRunner().invoke(main, ["play", "--setup", "tournament", "--players", "3", "--seed", "11"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("setup: the limited set: ") and lines[1].startswith("setup: player 1 offers: ")
    first = next(line for line in lines if "becomes the first player" in line)
    seats = next(line for line in lines if line.startswith("pack bga, mode three-players, seed 11; A: "))
    starting = next(line for line in lines if "names the starting power" in line).rsplit(": ", 1)[1]
    assert seats.split("; A: ")[1].startswith(f"{starting}, B: ") and "(seat A)" in first
    assert "winner: " in result.output
    again = CliRunner().invoke(main, ["play", "--setup", "tournament", "--players", "3", "--seed", "11"])
    assert again.output == result.output


def test_play_with_a_setup_and_gods_is_refused() -> None:
    result = CliRunner().invoke(main, ["play", "--setup", "quick", "--gods", "Apollo", "Atlas"])
    assert result.exit_code == 2 and "not --gods" in result.output
