"""The bga pack against Board Game Arena's List of Powers (tests/data/bga-power-list.yaml): every
card it has plays with the player counts and bans the list prints, and the edition's names are the
list's and the two it does not print (Aeolus and Siren, RULINGS.md)."""

from __future__ import annotations

import yaml

from santorini.interpreter.games.packs import load_pack
from support import REPO

LIST: dict[str, dict[str, list[object]]] = yaml.safe_load(
    (REPO / "tests" / "data" / "bga-power-list.yaml").read_text(encoding="utf-8"))
NOT_PRINTED = {"Aeolus", "Siren"}


def test_the_edition_is_the_list_and_the_two_powers_it_does_not_print() -> None:
    pack = load_pack("bga")
    assert len(LIST) == 64
    assert set(pack.edition_cards) == set(LIST) | NOT_PRINTED


def test_every_card_has_the_player_counts_and_the_bans_the_list_prints() -> None:
    cards = load_pack("bga").cards
    assert set(cards) - set(LIST) <= NOT_PRINTED
    for name, card in cards.items():
        if name in NOT_PRINTED:
            continue
        assert list(card.players) == LIST[name]["players"], name
        assert sorted(card.bans) == sorted(str(ban) for ban in LIST[name]["bans"]), name
