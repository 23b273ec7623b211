"""The figures and the report of a balance run (interpreter/balance: stats, ratings, raw, report),
on game records built by hand: no engine plays here, so every expected figure is known."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from santorini.dsl.errors import SantoriniError
from santorini.interpreter.balance.ratings import bradley_terry, elo, rating_errors
from santorini.interpreter.balance.raw import RawResultsError, write_raw
from santorini.interpreter.balance.records import EndKind, GameResult, Matchup
from santorini.interpreter.balance.report import read_raw, write_report
from santorini.interpreter.balance.stats import (
    StatsError,
    end_counts,
    first_seat_advantage,
    length_summary,
    opponent_rows,
    unbalanced,
    wilson,
    win_matrix,
)

Z = 1.959964


def games(first: str, second: str, seat_a_wins: int, seat_b_wins: int, draws: int = 0, *, turns: int = 20,
          end: EndKind = EndKind.CLIMB, start: int = 0) -> list[GameResult]:
    """Games of one seat-ordered matchup: seat A wins the first ones, then seat B, then no one."""
    winners = [0] * seat_a_wins + [1] * seat_b_wins + [None] * draws
    return [GameResult(Matchup(first, second), start + i, 1000 * start + i + sum(map(ord, first + second)), "mcts:50",
                       winner, EndKind.LIMIT if winner is None else end, turns + i % 5)
            for i, winner in enumerate(winners)]


def pair(a: str, b: str, a_wins: int, b_wins: int, **kwargs) -> list[GameResult]:  # noqa: ANN003
    """Both seat orders of a and b, a winning `a_wins` of each order's games and b `b_wins`."""
    return games(a, b, a_wins, b_wins, **kwargs) + games(b, a, b_wins, a_wins, **kwargs)


# --- Wilson ------------------------------------------------------------------------------------


def wilson_by_quadratic(wins: float, n: int, z: float = Z) -> tuple[float, float]:
    """The interval as the roots in p of (p_hat - p)^2 = z^2 p (1 - p) / n, solved directly."""
    p_hat = wins / n
    a = 1 + z * z / n
    b = -(2 * p_hat + z * z / n)
    c = p_hat * p_hat
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@pytest.mark.parametrize(("wins", "n"), [(0, 10), (5, 10), (10, 10), (3.5, 10), (1, 3), (117, 200)])
def test_wilson_is_the_score_interval(wins: float, n: int) -> None:
    low, high = wilson(wins, n)
    expected = wilson_by_quadratic(wins, n)
    assert low == pytest.approx(expected[0], abs=1e-12)
    assert high == pytest.approx(expected[1], abs=1e-12)
    assert 0.0 <= low <= wins / n <= high <= 1.0


def test_wilson_at_the_ends_and_the_middle() -> None:
    z2 = Z * Z
    assert wilson(0, 10) == (0.0, pytest.approx(z2 / (10 + z2)))
    assert wilson(10, 10) == (pytest.approx(10 / (10 + z2)), 1.0)
    low, high = wilson(5, 10)
    assert low + high == pytest.approx(1.0)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    wide, narrow = wilson(5, 10), wilson(50, 100)
    assert narrow[0] > wide[0] and narrow[1] < wide[1]
    assert wilson(5, 10, z=1.0)[0] > low


@pytest.mark.parametrize(("wins", "n", "low", "high"), [
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)])
def test_wilson_matches_a_published_table(wins: int, n: int, low: float, high: float) -> None:
    """Newcombe, 'Two-sided confidence intervals for the single proportion: comparison of seven
    methods', Statistics in Medicine 17 (1998), Table I, method 3 (the score interval)."""
    assert tuple(round(x, 4) for x in wilson(wins, n)) == (low, high)


@pytest.mark.parametrize(("wins", "n"), [(-1, 10), (11, 10), (1, -1)])
def test_wilson_refuses_impossible_counts(wins: float, n: int) -> None:
    with pytest.raises(StatsError) as caught:
        wilson(wins, n)
    assert isinstance(caught.value, SantoriniError)


# --- rows per opponent ---------------------------------------------------------------------------


def test_the_unbalanced_flag_is_outside_the_band_on_both_sides_only() -> None:
    assert unbalanced(0.1, 0.349) and unbalanced(0.651, 0.9)
    assert not unbalanced(0.1, 0.35) and not unbalanced(0.65, 0.9) and not unbalanced(0.2, 0.8)
    results = (pair("Apollo", "Atlas", 10, 0) + pair("Apollo", "Pan", 0, 10) + pair("Apollo", "Zeus", 5, 5)
               + pair("Apollo", "Hera", 7, 3))
    rows = {row.opponent: row for row in opponent_rows(results, "Apollo")}
    assert rows["Atlas"].unbalanced and rows["Atlas"].low > 0.65 and rows["Atlas"].rate == 1.0
    assert rows["Pan"].unbalanced and rows["Pan"].high < 0.35 and rows["Pan"].rate == 0.0
    assert not rows["Zeus"].unbalanced and rows["Zeus"].rate == 0.5
    # 70% of 20 games: above the band, but the interval still reaches into it.
    assert rows["Hera"].rate == pytest.approx(0.7) and rows["Hera"].low < 0.65 and not rows["Hera"].unbalanced
    assert (rows["Atlas"].low, rows["Atlas"].high) == wilson(20, 20)


def test_a_row_pools_both_seat_orders() -> None:
    results = (games("Apollo", "Atlas", 7, 3, draws=2, turns=10, end=EndKind.POWER)
               + games("Atlas", "Apollo", 6, 4, turns=30))
    row, = opponent_rows(results, "Apollo")
    assert (row.god, row.opponent, row.games) == ("Apollo", "Atlas", 22)
    assert row.wins == 7 + 4 + 1.0  # 7 as seat A, 4 as seat B, half of each of the 2 no-winner games
    assert row.rate == pytest.approx(12 / 22)
    assert (row.low, row.high) == wilson(12, 22)
    assert row.first_seat_rate == pytest.approx(13 / 20)  # decided games only
    assert row.ends == {EndKind.CLIMB: 10, EndKind.POWER: 10, EndKind.STUCK: 0, EndKind.LIMIT: 2}
    assert list(row.ends) == list(EndKind)
    assert row.mean_turns == pytest.approx(sum(r.turns for r in results) / 22)
    other, = opponent_rows(results, "Atlas")
    assert other.rate == pytest.approx(1 - row.rate) and other.first_seat_rate == row.first_seat_rate


def test_rows_are_sorted_by_opponent_and_a_mirror_is_even_by_construction() -> None:
    results = pair("Zeus", "Pan", 3, 2) + pair("Zeus", "Apollo", 1, 4) + games("Zeus", "Zeus", 8, 2)
    rows = opponent_rows(results, "Zeus")
    assert [row.opponent for row in rows] == ["Apollo", "Pan", "Zeus"]
    mirror = rows[-1]
    assert mirror.mirror and not rows[0].mirror
    assert (mirror.games, mirror.wins, mirror.rate, mirror.low, mirror.high) == (10, 5.0, 0.5, 0.5, 0.5)
    assert mirror.first_seat_rate == pytest.approx(0.8) and not mirror.unbalanced
    assert opponent_rows(results, "Hera") == []


def test_pack_wide_first_seat_lengths_and_ends() -> None:
    results = games("Apollo", "Pan", 9, 3, draws=1) + games("Pan", "Apollo", 6, 6) + games("Pan", "Pan", 3, 1)
    seat = first_seat_advantage(results)
    assert (seat.decided, seat.first_wins) == (28, 18)
    assert seat.rate == pytest.approx(18 / 28) and (seat.low, seat.high) == wilson(18, 28)
    assert first_seat_advantage([]).rate is None
    lengths = [GameResult(Matchup("A", "B"), i, i, "random", 0, EndKind.CLIMB, t) for i, t in enumerate([5, 1, 3, 9])]
    summary = length_summary(lengths)
    assert (summary.games, summary.mean, summary.median, summary.shortest, summary.longest) == (4, 4.5, 4.0, 1, 9)
    assert (summary.q1, summary.q3) == (2.5, 6.0)
    assert length_summary([]) is None
    counts = end_counts(results)
    assert counts == {EndKind.CLIMB: 28, EndKind.POWER: 0, EndKind.STUCK: 0, EndKind.LIMIT: 1}


def test_the_win_matrix_is_complementary_and_blank_where_not_played() -> None:
    results = pair("A", "B", 3, 1) + pair("B", "C", 2, 2) + games("A", "A", 1, 1)
    m = win_matrix(results, ["A", "B", "C"])
    assert m[0][1] == pytest.approx(0.75) and m[1][0] == pytest.approx(0.25)
    assert m[1][2] == m[2][1] == 0.5
    assert math.isnan(m[0][2]) and math.isnan(m[2][0])
    assert all(math.isnan(m[i][i]) for i in range(3))  # the mirror A v A was played, and says nothing


# --- ratings -------------------------------------------------------------------------------------


def test_bradley_terry_orders_a_known_chain() -> None:
    results = pair("A", "B", 8, 2) + pair("B", "C", 8, 2) + pair("A", "C", 9, 1)
    ratings = bradley_terry(results)
    assert list(ratings) == ["A", "B", "C"]
    assert ratings["A"] > ratings["B"] > ratings["C"]
    assert math.fsum(ratings.values()) == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_gives_equal_results_equal_ratings_and_keeps_a_clean_sweep_finite() -> None:
    even = bradley_terry(pair("A", "B", 5, 5) + pair("B", "C", 5, 5) + pair("A", "C", 5, 5))
    assert all(rating == pytest.approx(0.0, abs=1e-6) for rating in even.values())
    sweep = bradley_terry(pair("A", "B", 10, 0) + pair("A", "C", 10, 0) + pair("B", "C", 5, 5))
    assert all(math.isfinite(rating) for rating in sweep.values())
    assert sweep["A"] > sweep["B"] + 200
    assert sweep["B"] == pytest.approx(sweep["C"], abs=1e-6)


def test_bradley_terry_is_on_the_elo_scale() -> None:
    """With many games the prior fades: 3 wins in 4 is a gap of 400·log10(3), about 191 points."""
    ratings = bradley_terry(pair("A", "B", 300, 100))
    assert ratings["A"] - ratings["B"] == pytest.approx(400 * math.log10(3), abs=1.0)
    assert ratings["A"] == pytest.approx(-ratings["B"])
    # The error of a log-odds from n games at p is 1 / sqrt(n p (1 - p)); centred, each card has half of it.
    expected = 400 / math.log(10) / 2 / math.sqrt(800 * 0.75 * 0.25)
    errors = rating_errors(pair("A", "B", 300, 100))
    assert errors["A"] == pytest.approx(expected, rel=0.01) and errors["B"] == pytest.approx(errors["A"])
    assert rating_errors(pair("A", "B", 30, 10))["A"] == pytest.approx(expected * math.sqrt(10), rel=0.05)


def test_bradley_terry_does_not_depend_on_the_order_of_games() -> None:
    results = pair("A", "B", 6, 4, draws=1) + pair("B", "C", 7, 2) + pair("C", "D", 3, 5) + games("D", "A", 4, 4)
    shuffled = results[:]
    random.Random(3).shuffle(shuffled)
    assert bradley_terry(shuffled) == bradley_terry(results)
    assert bradley_terry([]) == {}
    sequential = elo(results)
    assert sequential == elo(shuffled) and set(sequential) == {"A", "B", "C", "D"}
    assert math.fsum(sequential.values()) == pytest.approx(0.0, abs=1e-9)


# --- the report ----------------------------------------------------------------------------------

CARDS = ["Apollo", "Athena", "Castor & Pollux", "Mortal"]


def run() -> list[GameResult]:
    """A small run of four cards, every pair but one (a ban), with every end kind."""
    results = []
    for n, (a, b) in enumerate([(a, b) for a in CARDS for b in CARDS if a < b and {a, b} != {"Athena", "Mortal"}]):
        results += pair(a, b, 4 + n % 3, 3, end=[EndKind.CLIMB, EndKind.POWER, EndKind.STUCK][n % 3], start=10 * n)
    return results + games("Apollo", "Apollo", 2, 3, draws=1) + games("Mortal", "Apollo", 0, 30, start=100)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_report(run(), tmp_path_factory.mktemp("report"), pack="bga", agent="mcts:50",
                        gods=["Castor & Pollux", "Apollo"], matrix=True)


def test_the_report_has_its_page_pictures_and_table(report: Path) -> None:
    out = report.parent
    assert report.name == "report.md"
    names = {path.name for path in out.iterdir()}
    assert {"report.md", "results.csv", "lengths.png", "matrix.png", "winrate-apollo.png",
            "winrate-castor-pollux.png"} <= names
    text = report.read_text(encoding="utf-8")
    for name in ("lengths.png", "matrix.png", "winrate-apollo.png", "winrate-castor-pollux.png", "results.csv"):
        assert f"]({name})" in text
        assert (out / name).stat().st_size > 0
    for name in names - {"report.md", "results.csv"}:
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and b"matplotlib" not in data
    assert f"| games | {len(run())} |" in text and "| pack | bga |" in text and "| agent | mcts:50 |" in text
    # The gods in the order asked; the flagged matchup (Apollo won 30 more games against Mortal).
    assert text.index("## Castor & Pollux") < text.index("## Apollo") < text.index("## Ratings")
    apollo = text[text.index("## Apollo"):text.index("## Ratings")]
    mortal_row = next(line for line in apollo.splitlines() if line.startswith("| Mortal |"))
    assert "**unbalanced**" in mortal_row
    assert "Apollo (mirror)" in apollo
    table = text[text.index("## Ratings"):text.index("## Game lengths")]
    ranked = [line.split(" | ")[1] for line in table.splitlines() if line.startswith("| ") and line[2].isdigit()]
    fitted = bradley_terry(run())
    assert ranked == sorted(CARDS, key=lambda card: -fitted[card])
    assert f"| 1 | {ranked[0]} | +{round(fitted[ranked[0]])} | ±" in table


def test_the_raw_table_loads_back_into_the_same_records(tmp_path: Path, report: Path) -> None:
    assert sorted(read_raw(report.parent / "results.csv"), key=repr) == sorted(run(), key=repr)
    odd = [GameResult(Matchup('a,b "c"', "d\u00e9"), 0, 2**63 + 5, "external:bot --x, y", None, EndKind.LIMIT, 200),
           GameResult(Matchup("d\u00e9", 'a,b "c"'), 1, 0, "greedy", 1, EndKind.STUCK, 3)]
    path = write_raw(odd, tmp_path / "odd.csv")
    assert read_raw(path) == odd


@pytest.mark.parametrize(("text", "fault"), [
    ("first,second\n", ":1: expected the columns"),
    ("first,second,index,seed,agent,winner,end,turns\nA,B,0,1,random,0,flew,3\n", ":2: unknown end 'flew'"),
    ("first,second,index,seed,agent,winner,end,turns\nA,B,0,1,random,2,climb,3\n", ":2: the winner is seat 0, 1"),
    ("first,second,index,seed,agent,winner,end,turns\nA,B,x,1,random,0,climb,3\n", ":2: index is a whole number"),
    ("first,second,index,seed,agent,winner,end,turns\nA,B,0,1,random\n", ":2: expected 8 fields"),
])
def test_a_table_that_is_not_a_results_table_is_refused_at_its_line(tmp_path: Path, text: str, fault: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RawResultsError, match=fault) as caught:
        read_raw(path)
    assert isinstance(caught.value, SantoriniError)


def test_the_report_is_the_same_for_the_games_in_any_order(tmp_path: Path, report: Path) -> None:
    shuffled = run()
    random.Random(11).shuffle(shuffled)
    write_report(shuffled, tmp_path, pack="bga", agent="mcts:50", gods=["Castor & Pollux", "Apollo"], matrix=True)
    for path in report.parent.iterdir():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_the_heat_map_is_drawn_only_for_a_matrix_and_html_is_escaped(tmp_path: Path) -> None:
    page = write_report(run(), tmp_path, pack="bga", agent="mcts:50", gods=["Castor & Pollux"], matrix=False,
                        html=True)
    assert page.name == "report.html"
    assert not (tmp_path / "matrix.png").exists() and not (tmp_path / "winrate-apollo.png").exists()
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "Castor &amp; Pollux" in text and "Castor & Pollux" not in text
    assert "Win-rate matrix" not in text and "matrix.png" not in text
    assert '<img src="winrate-castor-pollux.png"' in text and '<a href="results.csv">' in text
    assert "<strong>unbalanced</strong>" in text


def test_an_empty_run_still_has_a_page(tmp_path: Path) -> None:
    page = write_report([], tmp_path, pack="bga", agent="greedy", gods=["Pan"], matrix=True)
    text = page.read_text(encoding="utf-8")
    assert "| games | 0 |" in text and "Pan played no games" in text and "no decided games" in text
    assert read_raw(tmp_path / "results.csv") == []
    assert not list(tmp_path.glob("*.png"))


def test_markdown_and_html_escape_what_they_show() -> None:
    from santorini.interpreter.balance.page import Format, Heading, Strong, Table, render
    blocks = [Heading(2, "A|B <x>"), Table(("card", "games"), (("Pipe | card", Strong("*")),), frozenset({1}))]
    markdown = render(blocks, Format.MARKDOWN, "t")
    assert "## A\\|B \\<x\\>" in markdown and "| --- | ---: |" in markdown
    assert "| Pipe \\| card | **\\*** |" in markdown
    page = render(blocks, Format.HTML, "<t>")
    assert "<title>&lt;t&gt;</title>" in page and "<h2>A|B &lt;x&gt;</h2>" in page
    assert '<td class="n"><strong>*</strong></td>' in page


# --- the guide -----------------------------------------------------------------------------------

GUIDE = (Path(__file__).resolve().parents[1] / "docs" / "balance.md").read_text(encoding="utf-8")


def test_the_guides_table_of_interval_widths_is_what_wilson_gives() -> None:
    import re
    rows = re.findall(r"^\| (\d+) \| ±([\d.]+)(?: points)? \| (\d+)% \|$", GUIDE, re.M)
    assert len(rows) >= 5
    for count, half, flagged in rows:
        n = int(count)
        low, high = wilson(n / 2, n)
        assert round(100 * (high - low) / 2, 1) == float(half)
        least = next(k for k in range(n + 1) if wilson(k, n)[0] > 0.65)
        assert round(100 * least / n) == int(flagged)



def test_the_guides_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    example = re.search(r"```python\n(.*?)```", GUIDE, re.S).group(1)
    (tmp_path / "pan-run").mkdir()
    write_raw(run() + pair("Pan", "Mortal", 3, 2), tmp_path / "pan-run" / "results.csv")
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "docs/balance.md", "exec"), {})  # noqa: S102 - our own guide
    assert (tmp_path / "pan-again" / "report.html").exists()


def test_the_example_report_in_the_docs_is_what_its_raw_results_give(tmp_path: Path) -> None:
    """docs/balance.md shows a real run (docs/balance-example/): its report.md must be what the
    report writes from its own results.csv, so that the page cannot drift from the code."""
    example = Path(__file__).resolve().parent.parent / "docs" / "balance-example"
    results = read_raw(example / "results.csv")
    assert len(results) == 200 and {r.agent for r in results} == {"mcts:100"}
    page = write_report(results, tmp_path, pack="bga", agent="mcts:100", gods=["Apollo"], matrix=False)
    assert page.read_text(encoding="utf-8") == (example / "report.md").read_text(encoding="utf-8")


def test_without_matplotlib_the_report_says_how_to_get_its_pictures(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib comes with the `report` extra: without it the report is written, every table
    in it, with a line where each picture would be."""
    from santorini.interpreter.balance import plots

    def missing(width: float, height: float) -> None:
        raise plots.PlotError("the report's pictures need matplotlib (No module named 'matplotlib')")
    monkeypatch.setattr(plots, "_figure", missing)
    page = write_report(run(), tmp_path, pack="bga", agent="mcts:50", gods=["Castor & Pollux", "Apollo"],
                        matrix=True)
    text = page.read_text(encoding="utf-8")
    assert not list(tmp_path.glob("*.png"))
    assert text.count("the report extra installs") == 4  # (two cards' win rates, the lengths, the matrix)
    assert "Win-rate matrix" in text and "Game lengths" in text


def test_the_report_draws_where_each_gods_shortest_win_ended(tmp_path: Path) -> None:
    """A real run (greedy games, played again from their seeds for the picture): the god's shortest
    win is drawn where it ended, its winning turn marked; results from elsewhere, which the replay
    does not end as stored, are said not to be drawn."""
    import xml.etree.ElementTree as ElementTree

    from click.testing import CliRunner

    from santorini.interpreter.cli.cli import main
    out = tmp_path / "run"
    ran = CliRunner().invoke(main, ["balance", "--gods", "Apollo", "--against", "Mortal", "--games", "3", "--agent",
                                    "greedy", "--jobs", "1", "--quiet", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    text = (out / "report.md").read_text(encoding="utf-8")
    shortest = min((r for r in read_raw(out / "results.csv") if r.winner_card == "Apollo"), key=lambda r: r.turns)
    assert "Apollo's shortest win: " in text and f"{shortest.turns} turns" in text
    picture = ElementTree.fromstring((out / "decisive-apollo.svg").read_text(encoding="utf-8"))
    classes = " ".join(element.get("class", "") for element in picture.iter())
    assert "arrow" in classes or "mark" in classes  # (the winning turn marked)
    elsewhere = write_report(run(), tmp_path / "elsewhere", pack="bga", agent="greedy", gods=["Apollo"], matrix=False)
    assert "ends otherwise than stored" in elsewhere.read_text(encoding="utf-8")
