"""The report of a balance run: a page (Markdown or HTML) with its pictures beside it, and the raw
results as a CSV table, all from the game records alone.

Everything on the page is sorted and every figure comes from sorted tallies, so the same games give
the same page, byte for byte, whatever order they were played or stored in: two runs of one plan
can be compared with `diff`, and a report rebuilt from the store is the report that was printed.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ...dsl.errors import SantoriniError
from . import plots
from .page import Block, Format, Heading, Image, Inline, Link, Paragraph, Strong, Table, render
from .ratings import bradley_terry, rating_errors
from .raw import read_raw, write_raw
from .records import EndKind, GameResult
from .stats import (
    BAND,
    Z95,
    OpponentRow,
    card_scores,
    cards_of,
    end_counts,
    first_seat_advantage,
    length_summary,
    opponent_rows,
    win_matrix,
)

__all__ = ["RESULTS_CSV", "ReportError", "check_writable", "read_raw", "report_files", "write_report"]

RESULTS_CSV = "results.csv"
LENGTHS_PNG = "lengths.png"
HEAT_MAP_PNG = "matrix.png"
DASH = "–"


class ReportError(SantoriniError):
    """A report that cannot be written: a folder or another kind of file where a file of the report
    goes, a folder that may not be written in. The message names the path."""


def report_files(gods: Sequence[str], matrix: bool, html: bool) -> list[str]:
    """The names of every file `write_report` may write for these settings (in the run's folder)."""
    form = Format.HTML if html else Format.MARKDOWN
    names = [RESULTS_CSV, f"report.{form.value}", LENGTHS_PNG]
    names += [name for slug in _slugs(list(dict.fromkeys(gods))).values()
              for name in (_win_rate_file(slug), _decisive_file(slug))]
    return [*names, HEAT_MAP_PNG] if matrix else names


def check_writable(out_dir: Path, names: Iterable[str]) -> None:
    """Refuse (ReportError, naming the path) a run folder where the files `names` could not be
    written. Checked before a game is played: the report comes last, and a run of hours must not
    end in a fault that was there from its start. A folder not made yet is checked by the nearest
    folder that exists above it, which it will be made in."""
    folder = Path(out_dir)
    above = folder
    while not above.exists() and above.parent != above:
        above = above.parent
    if not above.is_dir():
        shown = "that is a file" if above == folder else f"{above} is a file"
        raise ReportError(f"--out {folder}: {shown}; give a folder")
    if not os.access(above, os.W_OK | os.X_OK):
        raise ReportError(f"--out {folder}: cannot write in {above} (permission denied)")
    if above != folder:
        return  # a folder made by the run holds nothing yet
    for name in names:
        path = folder / name
        if path.is_dir():
            raise ReportError(f"cannot write {path}: a folder has that name; move it away or give another --out")
        if path.exists() and not path.is_file():
            raise ReportError(f"cannot write {path}: it is not a regular file; move it away or give another --out")
        if path.exists() and not os.access(path, os.W_OK):
            raise ReportError(f"cannot write {path} (permission denied)")


def write_report(results: Sequence[GameResult], out_dir: Path, *, pack: str, agent: str, gods: Sequence[str],
                 matrix: bool, html: bool = False) -> Path:
    """Write the report of `results` into `out_dir` (made if missing) and return the page's path:
    `report.md` (or `report.html`), a win-rate plot per god of `gods`, the length histogram, the
    heat map when `matrix`, and `results.csv`. A file that cannot be written is a ReportError
    naming it (check_writable finds most such faults before a run)."""
    try:
        return _write_report(results, Path(out_dir), pack=pack, agent=agent, gods=gods, matrix=matrix, html=html)
    except OSError as err:
        where = err.filename if err.filename is not None else out_dir
        raise ReportError(f"cannot write {where} ({(err.strerror or str(err)).lower()})") from None


def _write_report(results: Sequence[GameResult], out_dir: Path, *, pack: str, agent: str, gods: Sequence[str],
                  matrix: bool, html: bool) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    results = sorted(results, key=lambda r: (r.matchup, r.index, r.seed, r.agent))
    write_raw(results, out_dir / RESULTS_CSV)
    gods = list(dict.fromkeys(gods))
    subject = f"every pair of {pack}" if matrix or not gods else f"{', '.join(gods)} in {pack}"
    blocks: list[Block] = [Heading(1, f"Balance report: {subject}, {agent}")]
    blocks += _parameters(results, pack, agent, gods)
    blocks += _summary(results)
    slugs = _slugs(gods)
    for god in gods:
        blocks += _god_section(results, god, out_dir, slugs[god], pack)
    ratings = bradley_terry(results)
    blocks += _ratings(results, ratings)
    blocks += _lengths(results, out_dir)
    blocks += _ends(results)
    if matrix:
        blocks += _matrix(results, ratings, out_dir)
    blocks += [Heading(2, "Raw results"),
               Paragraph(("Every game, one row each: ", Link(RESULTS_CSV, RESULTS_CSV),
                          " (columns first, second, index, seed, agent, winner, end, turns; winner is the seat, "
                          "0 for A, 1 for B, empty when no one won). "
                          "santorini.interpreter.balance.report.read_raw loads it back."))]
    form = Format.HTML if html else Format.MARKDOWN
    page = out_dir / f"report.{form.value}"
    page.write_text(render(blocks, form, title=f"Balance report ({pack}, {agent})"), encoding="utf-8")
    return page


def _parameters(results: list[GameResult], pack: str, agent: str, gods: list[str]) -> list[Block]:
    per_matchup = Counter(result.matchup for result in results)
    agents = sorted({result.agent for result in results})
    rows: list[tuple[Inline, ...]] = [
        ("pack", pack), ("agent", agent), ("games", str(len(results))),
        ("seat-ordered matchups", str(len(per_matchup))),
        ("games per seat-ordered matchup", _span(per_matchup.values())),
        ("gods reported", ", ".join(gods) or DASH), ("cards in the run", ", ".join(cards_of(results)) or DASH),
    ]
    if agents and agents != [agent]:
        rows.append(("agents in the results", ", ".join(agents)))
    return [Heading(2, "Run"), Table(("parameter", "value"), tuple(rows))]


def _span(values: Iterable[int]) -> str:
    counts = sorted(values)
    if not counts:
        return DASH
    return str(counts[0]) if counts[0] == counts[-1] else f"{counts[0]}{DASH}{counts[-1]}"


def _summary(results: list[GameResult]) -> list[Block]:
    seat = first_seat_advantage(results)
    no_winner = sum(result.winner is None for result in results)
    if seat.rate is None:
        first = "Seat A (who moves first): no decided games."
    else:
        first = (f"Seat A (who moves first) won {seat.first_wins} of {seat.decided} decided games: "
                 f"{_percent(seat.rate)} (95% interval {_interval(seat.low, seat.high)}). Every pair plays "
                 "both seat orders, so the cards cancel out: this is the worth of moving first, under this "
                 "agent.")
    return [Heading(2, "Summary"), Paragraph((first,)),
            Paragraph((f"Games with no winner (the turn limit): {no_winner} of {len(results)}; each counts "
                       "half a win to both cards in the win rates and the ratings, and is left out of the "
                       "first-seat rates.",))]


def _god_section(results: list[GameResult], god: str, out_dir: Path, slug: str, pack: str) -> list[Block]:
    rows = opponent_rows(results, god)
    blocks: list[Block] = [Heading(2, god)]
    if not rows:
        return blocks + [Paragraph((f"{god} played no games in this run.",))]
    flagged = [row.opponent for row in rows if row.unbalanced]
    low, high = BAND
    blocks.append(Paragraph((
        f"{god}'s win rate against each opponent, both seat orders pooled. First seat: the share of the "
        "pair's decided games won by seat A. A matchup is ",
        Strong("unbalanced"), f" when its 95% interval lies wholly outside {low:.0%}{DASH}{high:.0%}"
        + (f": {', '.join(flagged)}." if flagged else "; none is."))))
    blocks.append(Table(
        ("opponent", "games", "win rate", "95% interval", "first seat", "mean turns",
         *(kind.value for kind in EndKind), "flag"),
        tuple(_opponent_cells(row) for row in rows), numeric=frozenset(range(1, 6 + len(EndKind)))))
    if any(row.mirror for row in rows):
        blocks.append(Paragraph(("The mirror row's win rate is 50% by construction; its first-seat rate is "
                                 "the figure to read.",)))
    if any(not row.mirror for row in rows):
        name = _win_rate_file(slug)
        blocks += _picture(lambda: plots.win_rate_plot(rows, out_dir / name),
                           Image(name, f"{god}: win rate against each opponent, with 95% intervals"))
    return blocks + _decisive(results, god, out_dir, slug, pack)


def _decisive_file(slug: str) -> str:
    return f"decisive-{slug}.svg"


def _decisive(results: list[GameResult], god: str, out_dir: Path, slug: str, pack: str) -> list[Block]:
    """The end of the god's shortest win, as a picture: the game is played again from its seed (a
    game is a function of its seed and its agent), and drawn where it ended, its winning turn
    marked. A game the replay does not end as stored (an external bot, results from elsewhere) is
    not drawn, and the report says so."""
    wins = [result for result in results if result.winner_card == god and result.matchup.first != result.matchup.second]
    if not wins:
        return []
    shortest = min(wins, key=lambda r: (r.turns, r.matchup, r.index))
    opponent = shortest.matchup.second if shortest.matchup.first == god else shortest.matchup.first
    where = f"{god} v {opponent}" if shortest.matchup.first == god else f"{opponent} v {god}"
    told = (f"{god}'s shortest win: {where}, game {shortest.index}, {shortest.turns} turns, "
            f"ended by {shortest.end.value}")
    if shortest.agent.startswith("external"):
        return [Paragraph((f"{told} (an external bot's game is not played again to draw it).",))]
    from ..model.svg import board_svg
    from .plan import Task
    from .runner import classify, play_logged
    try:
        game, log = play_logged(pack, Task(shortest.matchup, shortest.index, shortest.seed), shortest.agent,
                                shortest.turns)
    except SantoriniError as err:
        return [Paragraph((f"{told} (not drawn: {err}).",))]
    if classify(game, log) != (shortest.winner, shortest.end) or len(log.turn_steps) != shortest.turns:
        return [Paragraph((f"{told} (not drawn: played again from its seed, the game ends otherwise than "
                           "stored, so these results come from elsewhere).",))]
    name = _decisive_file(slug)
    state = game.state
    (out_dir / name).write_text(board_svg(state, last_turn=state.history[-1] if state.history else None),
                                encoding="utf-8")
    return [Paragraph((f"{told}: where it ended, the winning turn marked.",)), Image(name, told)]


def _picture(draw: Callable[[], object], image: Image) -> list[Block]:
    """The report's picture, drawn; where matplotlib is not installed (it comes with the `report`
    extra), a line saying so instead: the tables carry every figure."""
    try:
        draw()
    except plots.PlotError:
        return [Paragraph((f"({image.alt}: the pictures need matplotlib, which the report extra installs: "
                           "pip install 'santorini-rules[report]')",))]
    return [image]


def _win_rate_file(slug: str) -> str:
    return f"winrate-{slug}.png"


def _opponent_cells(row: OpponentRow) -> tuple[Inline, ...]:
    first = DASH if row.first_seat_rate is None else _percent(row.first_seat_rate)
    return (f"{row.opponent} (mirror)" if row.mirror else row.opponent, str(row.games), _percent(row.rate),
            DASH if row.mirror else _interval(row.low, row.high), first, f"{row.mean_turns:.1f}",
            *(str(row.ends[kind]) for kind in EndKind), Strong("unbalanced") if row.unbalanced else "")


def _ratings(results: list[GameResult], ratings: dict[str, float]) -> list[Block]:
    if not ratings:
        return []
    scores = card_scores(results)
    errors = rating_errors(results)
    rows = []
    for rank, card in enumerate(_by_rating(ratings), 1):
        games, score = scores.get(card, (0, 0.0))
        rows.append((str(rank), card, _signed(ratings[card]), f"±{round(Z95 * errors[card])}", str(games),
                     _percent(score / games) if games else DASH))
    return [Heading(2, "Ratings"),
            Paragraph(("Bradley–Terry ratings fitted to every game of the run (mirrors aside) by maximum "
                       "likelihood, with a weak prior (one virtual no-winner game against an average card), on "
                       "the Elo scale: 400·log10 of the strength, centred so that the run's cards average 0. A "
                       "gap of 100 points means about 64% expected score, 200 about 76%. The 95% column is 1.96 "
                       "standard errors of the rating (from the curvature of the likelihood): cards whose ranges "
                       "overlap are not clearly told apart by these games. The figures compare cards within "
                       "this run, under this agent; games and win rate leave mirrors out.",)),
            Table(("rank", "card", "rating", "95%", "games", "win rate"), tuple(rows),
                  numeric=frozenset({0, 2, 3, 4, 5}))]


def _lengths(results: list[GameResult], out_dir: Path) -> list[Block]:
    summary = length_summary(results)
    blocks: list[Block] = [Heading(2, "Game lengths")]
    if summary is None:
        return blocks + [Paragraph(("No games.",))]
    blocks.append(Table(("games", "mean", "median", "quartiles", "shortest", "longest"),
                        ((str(summary.games), f"{summary.mean:.1f}", _number(summary.median),
                          f"{_number(summary.q1)}{DASH}{_number(summary.q3)}", str(summary.shortest),
                          str(summary.longest)),),
                        numeric=frozenset(range(6))))
    return blocks + [Paragraph(("Turns count plies: each seat's turn is one.",)),
                     *_picture(lambda: plots.length_histogram(results, out_dir / LENGTHS_PNG),
                               Image(LENGTHS_PNG, "histogram of game lengths by end kind"))]


_END_TEXT = {
    EndKind.CLIMB: "a worker moved up onto the winning level",
    EndKind.POWER: "a power gave the win (or the loss)",
    EndKind.STUCK: "a player could not complete a turn",
    EndKind.LIMIT: "no winner within the turn limit",
}


def _ends(results: list[GameResult]) -> list[Block]:
    counts = end_counts(results)
    total = len(results)
    rows = tuple((kind.value, _END_TEXT[kind], str(counts[kind]), _percent(counts[kind] / total) if total else DASH)
                 for kind in EndKind)
    return [Heading(2, "How games ended"), Table(("end", "meaning", "games", "share"), rows,
                                                 numeric=frozenset({2, 3}))]


def _matrix(results: list[GameResult], ratings: dict[str, float], out_dir: Path) -> list[Block]:
    cards = _by_rating(ratings)
    blocks: list[Block] = [Heading(2, "Win-rate matrix"),
                           Paragraph(("Each cell is the row card's win rate against the column card, in percent, "
                                      "both seat orders pooled; cards in order of rating. A grey, hatched cell is a "
                                      "pair that was not played (a ban, or a card against itself).",))]
    if not cards:
        return blocks + [Paragraph(("No games.",))]
    return blocks + _picture(lambda: plots.heat_map(cards, win_matrix(results, cards), out_dir / HEAT_MAP_PNG),
                             Image(HEAT_MAP_PNG, "heat map of the win-rate matrix"))


def _by_rating(ratings: dict[str, float]) -> list[str]:
    """Cards from the highest rating down; ties (to the tenth of a point shown) by name."""
    return sorted(ratings, key=lambda card: (-round(ratings[card], 1), card))


def _slugs(gods: list[str]) -> dict[str, str]:
    """A file-name-safe stem per god, unique within the report."""
    slugs: dict[str, str] = {}
    for god in gods:
        base = re.sub(r"[^a-z0-9]+", "-", god.lower()).strip("-") or "card"
        slug, n = base, 2
        while slug in slugs.values():
            slug, n = f"{base}-{n}", n + 1
        slugs[god] = slug
    return slugs


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}{DASH}{100 * high:.1f}%"


def _signed(value: float) -> str:
    rounded = round(value)
    return "0" if rounded == 0 else f"{rounded:+d}"


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"
