"""One rating per card, fitted to every game of a run: Bradley–Terry (the report's), and a
sequential Elo for comparison.

Bradley–Terry says card i beats card j with probability g_i / (g_i + g_j) and fits the strengths g
by maximum likelihood to all games at once, so the result does not depend on the order the games
were played or stored in. Sequential Elo does (each game moves the ratings the next one starts
from), and it forgets early games: fine for players who change, wrong for cards that do not.

Games score as in stats.py: 1, 0, or half a win each when no one won; mirrors (a card against
itself) say nothing about the card and are left out. Ratings are on the Elo scale
(400·log10 g: a 200-point gap means about 76% expected score), centred so that the cards of the
run average 0; compare ratings within one run only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .records import GameResult
from .stats import cards_of, score_of

__all__ = ["PRIOR_GAMES", "bradley_terry", "elo", "rating_errors"]

#: The weak prior: each card is given this many virtual no-winner games against a virtual card of
#: strength 1 (the average). It keeps a card that won or lost every game finite, and it links cards
#: that never met, at the cost of pulling every rating slightly towards the mean.
PRIOR_GAMES = 1.0
#: Stop when no rating moves by more than this many Elo points in one iteration ...
TOLERANCE = 1e-7
#: ... or after this many iterations (the prior makes the fit converge; this is a guard).
MAX_ITERATIONS = 100_000
ELO = 400 / math.log(10)


def bradley_terry(results: Iterable[GameResult]) -> dict[str, float]:
    """Each card of `results` with its Bradley–Terry rating (Elo scale, mean 0), by name.

    The fit is Hunter's MM algorithm (2004): g_i <- W_i / sum_j n_ij / (g_i + g_j), where W_i is
    card i's score and n_ij the games of i against j, the prior's virtual games included. Each
    step raises the likelihood, and the prior makes the maximum unique and finite.
    """
    cards, strength, _ = _fit(list(results))
    return _centred({card: ELO * math.log(g) for card, g in zip(cards, strength, strict=True)})


def rating_errors(results: Iterable[GameResult]) -> dict[str, float]:
    """The standard error of each card's rating (Elo points), by name: a 95% interval is about
    ±1.96 of it. From the curvature of the likelihood at its maximum (the inverse of the observed
    information, prior included), for the rating as centred: the error of the card against the
    run's mean, not against a fixed card."""
    cards, strength, pairs = _fit(list(results))
    size = len(cards)
    information = [[0.0] * size for _ in range(size)]
    for i, g in enumerate(strength):
        q = g / (g + 1.0)
        information[i][i] += PRIOR_GAMES * q * (1 - q)
    for (i, j), (games, _) in sorted(pairs.items()):
        p = strength[i] / (strength[i] + strength[j])
        weight = games * p * (1 - p)
        information[i][i] += weight
        information[j][j] += weight
        information[i][j] -= weight
        information[j][i] -= weight
    covariance = _inverse(information)
    errors = {}
    for k, card in enumerate(cards):
        contrast = [(1.0 if i == k else 0.0) - 1 / size for i in range(size)]
        variance = math.fsum(contrast[i] * covariance[i][j] * contrast[j] for i in range(size) for j in range(size))
        errors[card] = ELO * math.sqrt(max(variance, 0.0))
    return errors


def _fit(results: list[GameResult]) -> tuple[list[str], list[float], dict[tuple[int, int], tuple[int, float]]]:
    """The cards (sorted), their fitted strengths g, and the pair tallies the fit used."""
    cards = cards_of(results)
    index = {card: i for i, card in enumerate(cards)}
    pairs = _pair_tallies(results, index)
    score = [PRIOR_GAMES / 2] * len(cards)
    for (i, j), (games, score_i) in sorted(pairs.items()):
        score[i] += score_i
        score[j] += games - score_i
    strength = [1.0] * len(cards)
    for _ in range(MAX_ITERATIONS if cards else 0):
        denominator = [PRIOR_GAMES / (g + 1.0) for g in strength]
        for (i, j), (games, _) in sorted(pairs.items()):
            share = games / (strength[i] + strength[j])
            denominator[i] += share
            denominator[j] += share
        new = [s / d for s, d in zip(score, denominator, strict=True)]
        step = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)) * ELO
        strength = new
        if step < TOLERANCE:
            break
    return cards, strength, pairs


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a symmetric positive definite matrix (Gauss–Jordan; the prior keeps the
    information matrix definite, so no pivot is zero)."""
    size = len(matrix)
    rows = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: (abs(rows[r][column]), -r))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column][column]
        rows[column] = [value / head for value in rows[column]]
        for r in range(size):
            if r != column and rows[r][column] != 0.0:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [row[size:] for row in rows]


def _pair_tallies(results: list[GameResult], index: dict[str, int]) -> dict[tuple[int, int], tuple[int, float]]:
    """(i, j) with i < j: the games of the pair and card i's score in them, both seat orders."""
    tallies: dict[tuple[int, int], list[float]] = {}
    for result in sorted(results, key=lambda r: (r.matchup, r.index, r.seed, r.agent)):
        a, b = index[result.matchup.first], index[result.matchup.second]
        if a != b:
            low = min(a, b)
            tallies.setdefault((low, max(a, b)), []).append(score_of(result, result.matchup.first if a == low
                                                                        else result.matchup.second))
    return {pair: (len(scores), math.fsum(scores)) for pair, scores in tallies.items()}


def elo(results: Iterable[GameResult], k: float = 16.0) -> dict[str, float]:
    """Sequential Elo, every card starting at 0, games taken round by round (by game index, then
    matchup) so that the figure is at least reproducible. For comparison with bradley_terry only."""
    results = list(results)
    ratings = dict.fromkeys(cards_of(results), 0.0)
    for result in sorted(results, key=lambda r: (r.index, r.matchup, r.seed, r.agent)):
        first, second = result.matchup.first, result.matchup.second
        if first == second:
            continue
        expected = 1 / (1 + 10 ** ((ratings[second] - ratings[first]) / 400))
        change = k * (score_of(result, first) - expected)
        ratings[first] += change
        ratings[second] -= change
    return _centred(ratings)


def _centred(ratings: dict[str, float]) -> dict[str, float]:
    mean = math.fsum(ratings.values()) / len(ratings) if ratings else 0.0
    return {card: rating - mean for card, rating in sorted(ratings.items())}

