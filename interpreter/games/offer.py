"""The selection of powers before a game, as a pack's `offer` setting says (Board Game Arena's
"Select powers"): who plays which power, and who becomes the first player.

1. An offer of one power per player: drawn by the system (quick setup); built by the first player
   from a limited set of random cards (tournament setup: the setting's size by player count); or
   built by the first player from every card (custom setup).
2. The first player names the power that will start the game.
3. In turn order, each other player picks a power from the offer; the first player gets the last.
4. Whoever holds the starting power becomes the first player: seat A, the others following in the
   turn order they sat in.

Only cards for this many players are offered, and never two that ban each other (so that every
way the offer is shared out is a legal game). Every choice is a player's; here each is made at
random from a seeded generator, for games between agents (`santorini play --setup`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .game import SetupError
from .packs import Card, Pack

#: How many times a tournament's limited set is drawn again when no offer can be built from it
#: (its cards ban each other too much): each draw is the seeded generator's, so the result is too.
_REDRAWS = 100


class OfferKind(Enum):
    """Who builds the offer, and from what."""

    QUICK = "quick"            # the system draws it
    TOURNAMENT = "tournament"  # the first player, from a limited set of random cards
    CUSTOM = "custom"          # the first player, from every card


@dataclass(frozen=True)
class Selection:
    """How the powers were shared out. Players are numbered 1 to N in the order they sat before
    the selection; `order` lists them in their new seat order (A first), `powers` the power of
    each seat, and `told` says what happened, in words."""

    offer: tuple[str, ...]
    starting: str
    #: (player, power) in the order the powers were taken: players 2 to N, then player 1.
    picks: tuple[tuple[int, str], ...]
    order: tuple[int, ...]
    powers: tuple[str, ...]
    told: tuple[str, ...]


def tournament_set_size(pack: Pack, players: int) -> int:
    """The size of a tournament's limited set for this many players (SetupError if the pack has no
    offer, or none for this count)."""
    sizes = _offer_setting(pack)["tournament_set"]
    size = sizes.get(players, sizes.get(str(players)))  # (keys read from YAML are numbers)
    if not isinstance(size, int):
        raise SetupError(f"pack '{pack.name}' has no tournament setup for {players} players "
                         f"(its offer's tournament_set: {', '.join(map(str, sizes))} players)")
    return size


def select_powers(pack: Pack, players: int, kind: OfferKind, rng: random.Random) -> Selection:
    """Share out the powers among `players` players as the pack's offer says, every choice drawn
    from `rng`. SetupError where the pack has no offer, or too few cards for this many players."""
    _offer_setting(pack)
    pool = [card for card in pack.cards.values() if card.kind in ("god", "hero") and players in card.players]
    pool.sort(key=lambda card: card.name)
    told: list[str] = []
    if kind is OfferKind.TOURNAMENT:
        size = tournament_set_size(pack, players)
        if size > len(pool):
            raise SetupError(f"a tournament setup for {players} players draws {size} cards; pack '{pack.name}' "
                             f"has {len(pool)} for {players} players")
        for _ in range(_REDRAWS):
            limited = rng.sample(pool, size)
            offer = _offer_from(limited, players, rng)
            if offer is not None:
                break
        else:
            raise SetupError(f"no {players} cards of pack '{pack.name}' that do not ban each other came in "
                             f"{_REDRAWS} limited sets of {size}")
        told.append(f"the limited set: {', '.join(sorted(card.name for card in limited))}")
        told.append(f"player 1 offers: {', '.join(card.name for card in offer)}")
    else:
        offer = _offer_from(pool, players, rng)
        if offer is None:
            raise SetupError(f"pack '{pack.name}' has no {players} cards for {players} players that do not ban "
                             "each other")
        who = "the system" if kind is OfferKind.QUICK else "player 1"
        told.append(f"{who} offers: {', '.join(card.name for card in offer)}")
    names = [card.name for card in offer]
    starting = rng.choice(names)
    told.append(f"player 1 names the starting power: {starting}")
    left = list(names)
    picks: list[tuple[int, str]] = []
    for player in [*range(2, players + 1), 1]:
        power = rng.choice(left) if player != 1 else left[0]
        left.remove(power)
        picks.append((player, power))
        told.append(f"player {player} {'takes' if player != 1 else 'gets the last power,'} {power}")
    holder = next(player for player, power in picks if power == starting)
    order = tuple((holder - 1 + index) % players + 1 for index in range(players))
    held = dict(picks)
    told.append(f"player {holder} holds the starting power and becomes the first player (seat A)")
    return Selection(tuple(names), starting, tuple(picks), order, tuple(held[player] for player in order),
                     tuple(told))


def _offer_from(cards: Sequence[Card], players: int, rng: random.Random) -> list[Card] | None:
    """`players` of `cards`, drawn at random, no two of which ban each other (None if the cards
    cannot give that many)."""
    offer: list[Card] = []
    for card in rng.sample(list(cards), len(cards)):
        if all(not _ban(card, other) for other in offer):
            offer.append(card)
            if len(offer) == players:
                return offer
    return None


def _ban(first: Card, second: Card) -> bool:
    """Whether either card bans the other (or they are the same card)."""
    return (first.name == second.name or second.name.lower() in {ban.lower() for ban in first.bans}
            or first.name.lower() in {ban.lower() for ban in second.bans})


def _offer_setting(pack: Pack) -> dict[str, dict[object, object]]:
    """The pack's `offer` setting; SetupError if it has none."""
    setting = pack.settings.get("offer")
    if not isinstance(setting, dict):
        raise SetupError(f"pack '{pack.name}' has no selection of powers (its pack.yaml's settings have no "
                         "'offer'): name the seats' powers with --gods")
    return setting


__all__ = ["OfferKind", "Selection", "select_powers", "tournament_set_size"]
