"""The benchmark script (benchmarks/compare.py) runs and reports every figure, and its
yardstick, the hand-written counting player (benchmarks/reference_mortal.py, `counting_game`),
plays the mortal rules as the interpreter's random player does.

Speed is never asserted here: a test that fails on a busy machine teaches nothing. These tests
run the script on tiny budgets and check that it prints every figure, that its Markdown tables
are well formed, and that the interpreter and the reference agree on perft; and they check that
the counting player draws uniformly among the reference's own outcomes, plays legal games, and
plays the very games of the interpreter's Mortal v Mortal random players from the same seeds.
The matchup benchmark (benchmarks/matchups.py) is run the same way, on two or three cards: every
matchup reported, with a positive ratio, Mortal v Mortal's exactly 1, games over budget and games
that fail reported while the run goes on.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from santorini.interpreter.games.bench import bench_games
from santorini.interpreter.games.packs import load_pack
from support import PACKS

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "compare.py"
_spec = importlib.util.spec_from_file_location("benchmarks_compare", _PATH)
compare = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("benchmarks_compare", compare)  # dataclasses look their module up
_spec.loader.exec_module(compare)

rm = compare.load_reference()  # benchmarks/reference_mortal.py, as the script loads it

TINY = ["--rounds", "1", "--seconds", "0.2", "--no-gods", "--perft-depth", "2"]


def run(argv: list[str]) -> tuple[list[str], object]:
    lines: list[str] = []
    report = compare.run(compare.parse_args(argv), out=lines.append)
    return "\n".join(lines).splitlines(), report


def test_whole_script_on_tiny_budgets(monkeypatch):
    # Start-up is timed on a process that only imports the package, to keep the test quick; the
    # real commands are run by test_startup_commands_run.
    monkeypatch.setattr(compare, "CARDS_COMMAND", ("-c", "import santorini"))
    monkeypatch.setattr(compare, "LOAD_ALL_COMMAND", ("-c", "import santorini"))
    lines, report = run([*TINY, "--startup-runs", "1"])
    text = "\n".join(lines)
    assert lines[0].startswith("# Rule interpreter v hand-written mortal reference")
    for prefix in ("date: ", "machine: ", "python: ", "round 1 Mortal v Mortal games/s: interpreter ",
                   "Mortal v Mortal games/s median: interpreter ",
                   "Mortal v Mortal games/s median: interpreter ", "perft depth 2 interpreter: 5,156 leaves",
                   "perft depth 2 reference, bulk counting off: 5,156 leaves",
                   "perft depth 2 reference, bulk counting on: 5,156 leaves",
                   "perft counts agree: 5,156 = 5,156 = 5,156 (the known count is 5,156)",
                   "start-up python -m santorini cards --pack bga",
                   "start-up python -c load_pack(bga, pantheon, first-edition)",
                   "peak resident memory of this process: "):
        assert any(line.startswith(prefix) for line in lines), f"no line starts with {prefix!r}:\n{text}"
    assert "DISAGREE" not in text and "skipped" not in text and report.counts_agree
    assert re.search(r"ratio \d", text)
    assert any(line.startswith("Mortal v Mortal games/s median: interpreter ") and "counting player" in line
               and re.search(r"target 0.8 (met|NOT met)$", line) for line in lines)
    assert any(line.startswith("Mortal v Mortal games/s median: interpreter ") and "listing player" in line
               for line in lines)

    # The Markdown table: a header, a separator, one row per figure, four cells each.
    table = lines[lines.index("| figure | interpreter | reference | ratio |"):]
    assert table[1] == "| --- | ---: | ---: | ---: |"
    startup_rows = 4 if compare.has_compile_cache() else 2  # with a compile cache: warm and off
    assert len(table) == 2 + len(report.rows) == 2 + 2 + 2 + startup_rows + 1
    assert all(row.startswith("| ") and row.endswith(" |") and row.count(" | ") == 3 for row in table)
    assert re.match(r"\| games/s, Mortal v Mortal from S0, interpreter v hand-written counting player "
                    r"\(the yardstick; target 0.8; [\d.]+ turns/game; median of 1 x 0.2 s\) \| ", table[2])
    assert re.match(r"\| games/s, Mortal v Mortal from S0, interpreter v hand-written listing player ", table[3])
    assert not report.cards and CARD_HEADER_START not in text  # --no-gods: no card table


CARD_HEADER_START = "| card v Mortal | tier |"


def test_gods_are_measured_and_unknown_names_skipped():
    lines, report = run(["--rounds", "1", "--seconds", "0.1", "--gods", "Pan", "Nobody",
                         "--perft-depth", "1", "--startup-runs", "0"])
    assert any(line.startswith("Pan v Mortal games/s median: ") and "ratio to Mortal v Mortal" in line
               and "(simple, target 0.5: " in line for line in lines)
    assert any(line.startswith("Nobody v Mortal: skipped (UnknownName: ") for line in lines)
    assert not any(line.startswith("start-up") for line in lines)
    assert [row.figure.split(",")[0] for row in report.rows].count("games/s") == 2  # Mortal v Mortal, twice
    assert [row.card for row in report.cards] == ["Pan"] and report.cards[0].tier == "simple"
    assert report.notes == ["Nobody: skipped (UnknownName: pack 'bga' has no card 'Nobody')"]

    # The card table: a header, a separator, one row per card, eight cells each; then the notes.
    table = lines[lines.index(compare.CARD_HEADER):]
    assert table[1].count("|") == table[0].count("|") == 10
    assert re.match(r"\| Pan \| simple \| [\d.]+ \| [\d,.]+ \| [\d.]+ \| [\d.]+-[\d.]+ \| 0.5 \| (yes|NO) "
                    r"\| A, B \|$", table[2])  # (Pan's turn and the Mortal's are both counted)
    assert table[3:] == ["", "- Nobody: skipped (UnknownName: pack 'bga' has no card 'Nobody')"]


def test_all_cards_of_a_pack_by_tier_with_their_targets():
    pack = load_pack("bga")
    names = compare.all_cards("bga")
    assert sorted(names) == sorted(card.name for card in pack.cards.values())
    tiers = [compare.card_tier(pack.card(name)) for name in names]
    assert tiers == sorted(tiers, key=compare.TIER_ORDER.index)  # simple, then advanced, then heroes
    assert set(compare.SIMPLE_GODS) == {n for n, t in zip(names, tiers) if t == "simple"}
    cards, skipped = compare.resolve_cards("bga", names)
    # (a card is skipped only for its players or for a setup that S0 does not satisfy)
    assert all(why.startswith(("not a 2-player card", "cannot start from S0: SetupError: ")) for why in skipped.values())
    assert set(cards) | set(skipped) == set(names)
    assert cards["Hermes"].target == 0.1 and cards["Apollo"].target == 0.5
    assert cards["Apollo"].counted == "A, B" and cards["Hermes"].counted == "A, B"  # (derived/walks.py: Hermes's)
    assert all(card.target == 0.25 for card in cards.values() if card.tier in ("advanced", "hero"))
    assert compare.parse_args(["--all-cards"]).all_cards
    with pytest.raises(SystemExit):
        compare.parse_args(["--all-cards", "--gods", "Pan"])


def test_cards_that_cannot_play_two_players_are_skipped(monkeypatch):
    pack = load_pack("bga")
    apollo = pack.card("Apollo")

    class ThreeOnly:
        """bga, but with an Apollo for 3 or 4 players only."""

        def card(self, name):
            if name == "Apollo":
                return type(apollo)(**{**apollo.__dict__, "players": (3, 4)})
            return pack.card(name)

        def __getattr__(self, name):
            return getattr(pack, name)
    monkeypatch.setattr(compare, "load_pack", lambda name: ThreeOnly())
    cards, skipped = compare.resolve_cards("bga", ["Apollo", "Pan", "Mortal"])
    assert list(cards) == ["Pan", "Mortal"] and cards["Mortal"].target is None
    assert skipped == {"Apollo": "not a 2-player card (players: 3, 4)"}


def test_a_card_whose_setup_does_not_allow_s0_is_skipped(monkeypatch):
    """Every game measured starts from S0: a card that places a third worker, or places its
    workers only where its card says, is skipped with a note, whether the setup is refused when
    the cards are resolved or when a game is played."""
    real_s0, real_side = compare.s0_game, compare.interpreter_side

    def s0_game(pack_name, gods=("Mortal", "Mortal")):
        if gods[0] == "Pan":
            raise compare.SetupError("seat A places 3 workers, not 2")
        return real_s0(pack_name, gods)

    def side(pack_name, gods, seed):
        if gods[0] == "Athena":
            def refused() -> int:
                raise compare.SetupError("b3: this seat's workers are placed only where its card says")
            return compare.Side(refused)
        return real_side(pack_name, gods, seed)
    monkeypatch.setattr(compare, "s0_game", s0_game)
    monkeypatch.setattr(compare, "interpreter_side", side)
    lines, report = run(["--rounds", "2", "--seconds", "0.05", "--slice", "0.01", "--gods", "Pan", "Athena", "Apollo",
                         "--perft-depth", "1", "--startup-runs", "0"])
    assert [row.card for row in report.cards] == ["Apollo"] and not report.failures
    assert report.notes == ["Pan: skipped (cannot start from S0: SetupError: seat A places 3 workers, not 2)",
                            "Athena: skipped (SetupError: b3: this seat's workers are placed only where its card says)"]
    assert any(line.startswith("Pan v Mortal: skipped (cannot start from S0: ") for line in lines)


def test_a_card_whose_games_fail_is_reported_and_the_others_go_on(monkeypatch):
    real = compare.interpreter_side

    def side(pack_name, gods, seed):
        if gods[0] == "Pan":
            def broken() -> int:
                raise RuntimeError("an engine fault")
            return compare.Side(broken)
        return real(pack_name, gods, seed)
    monkeypatch.setattr(compare, "interpreter_side", side)
    lines, report = run(["--rounds", "2", "--seconds", "0.05", "--slice", "0.01", "--gods", "Pan", "Athena",
                         "--perft-depth", "1", "--startup-runs", "0"])
    assert report.failures == {"Pan": "RuntimeError: an engine fault"}
    assert [row.card for row in report.cards] == ["Athena"]
    assert "- Pan: FAILED (RuntimeError: an engine fault)" in lines
    assert sum(line.startswith("round ") and "Pan v Mortal: FAILED" in line for line in lines) == 1
    with pytest.raises(SystemExit) as exit_info:  # the command exits 1
        compare.main(["--rounds", "1", "--seconds", "0.02", "--gods", "Pan", "--perft-depth", "1",
                      "--startup-runs", "0"])
    assert exit_info.value.code == 1

    # A Mortal side may not fail: its figures are every ratio's base.
    mortal = compare.Side(lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        compare.play_interleaved([mortal], 0.01, 0.01)


def test_perft_counts_agree_with_the_reference():
    reference = compare.load_reference()
    result = compare.measure_perft(compare.Report(out=lambda text: None), reference, "bga", 2, 1)
    assert result.agree
    assert result.counts == {compare.INTERPRETER: 5156, compare.REFERENCE_NO_BULK: 5156,
                             compare.REFERENCE_BULK: 5156}
    game = compare.s0_game("pantheon")
    assert game.engine.perft(game.state, 1) == reference.perft(reference.s0(), 1) == compare.S0_PERFT[1]


def test_a_wrong_count_is_reported():
    class WrongReference:
        s0 = staticmethod(lambda: None)
        perft = staticmethod(lambda pos, depth, bulk=True: 69)

    lines: list[str] = []
    report = compare.Report(out=lines.append)
    result = compare.measure_perft(report, WrongReference, "bga", 1, 1)
    assert not result.agree and not report.counts_agree
    assert any(line.startswith("perft counts DISAGREE: interpreter 68") for line in lines)


def test_startup_commands_run(tmp_path, monkeypatch):
    """The real `cards` command works in a fresh process of this interpreter and environment
    (installed package or PYTHONPATH alike); the compile cache, if any, goes to tmp_path."""
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    [seconds] = compare.time_process(compare.CARDS_COMMAND, 1)
    assert seconds > 0
    flag, code = compare.LOAD_ALL_COMMAND
    assert flag == "-c" and "load_pack" in code
    compile(code, "<load all packs>", "exec")


def test_options():
    args = compare.parse_args([])
    assert (args.rounds, args.seconds, args.slice_seconds, args.seed, args.pack, args.perft_depth) == \
        (3, 5.0, 0.1, 1, "bga", 3)
    assert tuple(args.gods) == compare.SIMPLE_GODS and not args.no_gods and not args.all_cards
    assert compare.parse_args(["--no-gods"]).no_gods


def test_sides_take_turns_in_slices():
    played: list[str] = []

    def side(name: str):
        def play_game() -> int:
            played.append(name)
            end = compare.time.process_time() + 0.001
            while compare.time.process_time() < end:  # a game that takes a millisecond of CPU
                pass
            return 2
        return compare.Side(play_game)

    sides = [side("a"), side("b")]
    compare.play_interleaved(sides, 0.02, 0.004)
    assert all(0.02 <= s.spent < 0.04 and s.games >= 4 and s.turns == 2 * s.games for s in sides)
    switches = sum(1 for before, after in zip(played, played[1:]) if before != after)
    assert switches >= 4  # slices alternate: not all of one side, then all of the other
    assert played[0] == "a" and "b" in played[:8]


def test_a_ratio_is_the_median_of_the_rounds_ratios():
    # Each round's pair was measured in the same stretch of time: 0.5, 1.5 and 2 here, so 1.5
    # (the ratio of the medians, 200 / 200, would be 1). The god: 0.5, 0.5 and 1.5, so 0.5.
    # The counting player: 1, 1 and 0.5, so 1 (the ratio of the medians would be 200 / 300).
    mortal = compare.MortalRounds(interpreter=[100.0, 300.0, 200.0], listing=[200.0, 200.0, 100.0],
                                  counting=[100.0, 300.0, 400.0], turns_per_game=[50.0, 50.0, 50.0])
    pan = compare.CardRounds("Pan", "simple", 0.5, "A, B", games_per_s=[50.0, 150.0, 300.0],
                             turns_per_game=[40.0] * 3, ratios=[0.5, 0.5, 1.5])
    lines: list[str] = []
    report = compare.Report(out=lines.append)
    compare.report_games(report, mortal, {"Pan": pan}, {}, 3, 1.0)
    assert [row.ratio for row in report.rows] == ["1", "1.5"]
    assert [row.interpreter for row in report.rows] == ["200.0", "200.0"]
    assert [row.reference for row in report.rows] == ["300.0", "200.0"]
    assert "ratio 1 (median of the rounds' ratios" in lines[0] and lines[0].endswith("target 0.8 met")
    assert "ratio 1.5 (median of the rounds' ratios" in lines[1]
    [card] = report.cards
    assert (card.card, card.ratio, card.rounds, card.games_per_s, card.target, card.met, card.counted) == \
        ("Pan", "0.5", "0.5-1.5", "150.0", "0.5", "yes", "A, B")
    assert compare.met(0.49, 0.5) == "NO" and compare.met(0.5, 0.5) == "yes" and compare.met(2, None) == "-"


# ---------------------------------------------------------------- the counting player


def random_positions(count: int, seed: int, players: int = 2):
    """Positions met along the listing player's random games (the reference's Position API), from
    S0 or, with 3 players, from a fixed start; game-over positions included."""
    rng = random.Random(seed)
    seen = []
    while len(seen) < count:
        if players == 2:
            pos = rm.s0()
        else:
            pos = rm.from_lists([0] * 25, set(), [[0, 24], [12, 4], [20, 2]], 0)
        while True:
            seen.append(pos)
            children = rm.outcomes(pos)
            if not children:
                break
            pos = rng.choice(children)
    return seen[:count]


def test_every_index_of_the_count_is_the_listed_turn_at_that_index():
    """Counting and decoding give the reference's own list, in its order: so a drawn index is a
    uniform pick among the distinct outcomes (the turns are distinct outcomes:
    tests/test_reference_mortal.py), and every index is reachable."""
    positions = random_positions(300, seed=3) + random_positions(100, seed=4, players=3)
    assert any(pos.winner is not None for pos in positions)
    for pos in positions:
        turns = rm.turns(pos)
        assert rm.count_outcomes(pos) == len(turns)
        assert [rm.turn_at(pos, index) for index in range(len(turns))] == turns
        for index in (-1, len(turns)):
            with pytest.raises(IndexError):
                rm.turn_at(pos, index)


def test_a_counted_turn_is_one_draw_from_the_generator():
    for seed, pos in enumerate(random_positions(200, seed=5)):
        drawn, listed = random.Random(seed), random.Random(seed)
        turns = rm.turns(pos)
        expected = turns[listed.randrange(len(turns))] if turns else None
        assert rm.counted_turn(pos, drawn) == expected
        assert drawn.getstate() == listed.getstate()  # the same use of the generator


def test_stuck_and_won_positions():
    stuck = rm.from_lists([0] * 25, {5, 1, 6, 18, 23, 19}, [[0, 24], [12, 2]], 0)
    assert rm.counted_turn(stuck, random.Random(0)) is None
    assert rm.counting_game(random.Random(0), stuck) == (1, 0)  # stuck: out, the other player wins
    heights = [0] * 25
    heights[0], heights[1] = 2, 3
    climb = rm.from_lists(heights, {5, 6}, [[0], [24]], 0)  # A's only move is the winning climb
    record: list = []
    assert rm.counting_game(random.Random(0), climb, record) == (0, 1)
    assert record == [(0, 0, 1, None)]
    won = rm.apply_turn(climb, (0, 1, None))
    assert rm.counted_turn(won, random.Random(0)) is None and rm.counting_game(random.Random(0), won) == (0, 0)


def leave(pos):
    """The player to move, stuck, leaves the game (its workers off the board), as in random_game."""
    workers = tuple(() if p == pos.to_move else own for p, own in enumerate(pos.workers))
    return pos._replace(workers=workers, to_move=rm._next_player(workers, pos.to_move))


def replay(start, record):
    """Play a counting game's record on the reference's Position API, checking that every turn is
    one of the reference's legal turns and that a player is passed over only when stuck; then let
    the stuck players leave until one is left. Returns the final Position and its winner."""
    pos, order = start, [list(own) for own in start.workers]
    for player, slot, to, build in record:
        while pos.to_move != player:
            assert not rm.turns(pos), "a player with a turn was passed over"
            order[pos.to_move] = []
            pos = leave(pos)
        turn = (order[player][slot], to, build)
        assert turn in rm.turns(pos), (turn, str(pos))
        order[player][slot] = to
        pos = rm.apply_turn(pos, turn)
    if pos.winner is not None:
        return pos, pos.winner
    while sum(1 for own in pos.workers if own) > 1:
        assert not rm.turns(pos), "the game stopped while the player to move had a turn"
        pos = leave(pos)
    return pos, pos.to_move


@pytest.mark.parametrize("players", [2, 3])
def test_counting_games_are_legal_under_the_reference_rules(players):
    ends = set()
    for seed, start in enumerate(random_positions(120, seed=9 + players, players=players)[::4]):
        if start.winner is not None:
            continue
        record: list = []
        winner, played = rm.counting_game(random.Random(seed), start, record)
        assert played == len(record)
        end, expected = replay(start, record)
        assert winner == expected
        ends.add("win" if end.winner is not None else "stuck")
        if end.winner is not None:
            assert record[-1][0] == winner and record[-1][3] is None
            if sum(1 for own in end.workers if own) < players:
                ends.add("a player left, the others played on")
    # (these seeds give both endings, and with 3 players games that go on after a player is out)
    assert ends >= ({"win", "stuck"} if players == 2 else {"win", "a player left, the others played on"})


def test_the_counting_player_plays_the_interpreters_games_from_the_same_seeds():
    """`santorini bench --gods Mortal Mortal` (bench_games: one generator shared by both seats)
    and counting_game from S0 as placed, from the same seed: the same games, turn for turn."""
    for pack_name in PACKS:
        pack = load_pack(pack_name)
        for seed in (1, 2) if pack_name == "bga" else (3,):
            games, rng = bench_games(pack, ["Mortal", "Mortal"], seed), random.Random(seed)
            for _ in range(60 if pack_name == "bga" else 20):
                log, record = next(games), []
                winner, played = rm.counting_game(rng, None, record)
                members, team_of = log.state.members, log.state.worker_team
                turns = [(team_of[steps[0][1]], members[team_of[steps[0][1]]].index(steps[0][1]), steps[0][2],
                          steps[1][2] if len(steps) > 1 else None) for steps in log.turn_steps]
                assert turns == record
                assert (played, "AB"[winner]) == (len(log.turn_steps), log.winner)


def test_counting_bench_and_cli(capsys):
    games, elapsed = rm.bench(0.05, seed=1, counting=True)
    assert games >= 1 and elapsed >= 0.05
    rm.main(["bench", "--seconds", "0.05", "--seed", "1", "--counting"])
    assert capsys.readouterr().out.splitlines()[-1].startswith("games/s: ")


def test_a_card_whose_setup_refuses_s0_is_measured_from_a_legal_start():
    """Graeae places three workers: her games start from a legal placement drawn by the seeded
    agent, and the report says so under the table (she is measured, not skipped)."""
    lines, report = run(["--rounds", "1", "--seconds", "0.05", "--slice", "0.01", "--gods", "Graeae", "Apollo",
                         "--perft-depth", "1", "--startup-runs", "0"])
    assert [row.card for row in report.cards] == ["Graeae", "Apollo"] and not report.failures
    assert report.notes == ["Graeae: its setup refuses S0, so its games start from a legal placement drawn by "
                            "the seeded agent"]


def test_the_before_and_after_script_plays_the_same_games_on_a_commit_and_the_tree(capsys) -> None:  # noqa: ANN001
    """benchmarks/ab.py loads a commit of the package beside the working tree and plays the same
    games on both; against the commit of the tree itself, every game must be the same (timings
    are printed, never checked)."""
    if subprocess.run(["git", "-C", str(_PATH.parent), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout: there is no commit to compare with")
    spec = importlib.util.spec_from_file_location("benchmarks_ab", _PATH.parent / "ab.py")
    ab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ab)
    assert ab.main(["--base", "HEAD", "--slices", "2", "--games", "3", "Mortal", "Pan"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("| Mortal", "| Pan"))]
    assert len(rows) == 2 and all(row.rstrip().endswith("| yes |") for row in rows), rows


# ---------------------------------------------------------------- the matchup benchmark

_MATCHUPS = _PATH.parent / "matchups.py"
_mspec = importlib.util.spec_from_file_location("benchmarks_matchups", _MATCHUPS)
matchups = importlib.util.module_from_spec(_mspec)
sys.modules.setdefault("benchmarks_matchups", matchups)  # dataclasses look their module up
_mspec.loader.exec_module(matchups)

#: A tiny budget: every side plays at least one whole game a slice, whatever the machine.
TINY_MATCHUPS = ["--seconds", "0.02", "--slice", "0.01", "--rounds", "2", "--block", "4"]
DISTRIBUTION_KEYS = {"matchups", "min", "p5", "p25", "p50", "p75", "max", "under_0.1", "under_0.01", "over_budget",
                     "with_capped_games", "failed", "median_rounds_spread"}
MATCHUP_KEYS = {"a", "b", "kind", "from_s0", "yardstick", "ratio", "ratio_is_upper_bound", "games_per_s",
                "turns_per_game", "rounds", "capped_games", "over_budget", "failure"}


def run_matchups(argv: list[str]) -> tuple[list[str], object]:
    lines: list[str] = []
    report = matchups.run(matchups.parse_args(argv), out=lines.append)
    return "\n".join(lines).splitlines(), report


def test_matchups_on_a_tiny_budget(tmp_path):
    """Every ordered matchup of Mortal, Pan and Athena, random and greedy games: each one is
    present with a positive ratio, Mortal v Mortal (the yardstick) at exactly 1, in the JSON and
    in the Markdown tables; nothing is over budget and nothing failed."""
    out = tmp_path / "matchups.json"
    lines, report = run_matchups([*TINY_MATCHUPS, "--cards", "Pan", "Athena", "--out", str(out)])
    assert not report.failures
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert set(figures) == {"meta", "kinds", "not_playable"} and figures["not_playable"] == []
    assert {"date", "lines", "options", "pack", "wall_seconds", "cpu_seconds"} <= set(figures["meta"])
    assert figures["meta"]["pack"] == "bga" and figures["meta"]["options"]["cards"] == ["Pan", "Athena"]
    cards = ["Mortal", "Pan", "Athena"]
    assert set(figures["kinds"]) == {"random", "greedy"}
    for kind, measured in figures["kinds"].items():
        pairs = [(m["a"], m["b"]) for m in measured["matchups"]]
        assert sorted(pairs) == sorted((a, b) for a in cards for b in cards), kind
        for m in measured["matchups"]:
            assert set(m) == MATCHUP_KEYS and m["kind"] == kind
            assert m["failure"] is None and m["over_budget"] is None and not m["ratio_is_upper_bound"]
            assert m["ratio"] > 0 and m["games_per_s"] > 0 and m["turns_per_game"] > 0, m
            assert len(m["rounds"]) == 2 and all(r["ratio"] > 0 for r in m["rounds"])
            assert m["yardstick"] == ((m["a"], m["b"]) == ("Mortal", "Mortal"))
            if m["yardstick"]:
                assert m["ratio"] == 1.0 and all(r["ratio"] == 1.0 for r in m["rounds"])
                assert m["games_per_s"] == measured["mortal_v_mortal"]["games_per_s"]
            else:
                assert all(r["games"] >= 1 for r in m["rounds"])
        distribution = measured["distribution"]
        assert set(distribution) == DISTRIBUTION_KEYS and distribution["matchups"] == 9
        assert distribution["min"] <= distribution["p5"] <= distribution["p25"] <= distribution["p50"] \
            <= distribution["p75"] <= distribution["max"]
        assert distribution["over_budget"] == distribution["failed"] == 0
        yardstick = measured["mortal_v_mortal"]
        assert yardstick["games_per_s"] > 0 and yardstick["blocks"] == 2 * 2  # (8 matchups in blocks of 4, twice)

    # The printed report: each kind's distribution, its slowest matchups, and the Markdown tables.
    text = "\n".join(lines)
    for kind in ("Random", "Greedy"):
        assert f"## {kind} games: 9 matchups measured" in lines
        assert re.search(rf"{kind} games, pack bga: ratio of each ordered matchup's games/s to Mortal v Mortal's", text)
    assert sum(line.startswith("target: every matchup at least 0.1: ") for line in lines) == 2
    head = "| games | matchups | min | 5th pct | 25th pct | median | under 0.1 | under 0.01 | over budget |"
    assert lines.count(head) == 2
    rows = [lines[index + 2] for index, line in enumerate(lines) if line == head]
    for kind, row in zip(("random", "greedy"), rows, strict=True):
        assert re.match(rf"\| {kind} \| 9 \| [\d.e-]+ \| [\d.e-]+ \| [\d.e-]+ \| [\d.e-]+ \| \d \| \d \| 0 \|$", row)
    slowest = [line for line in lines if re.match(r"\| \d+ \| \w+ v \w+ \|", line)]
    assert len(slowest) == 2 * 9 and all(line.count(" | ") == 6 for line in slowest)
    assert any(re.match(r"\| \d \| Mortal v Mortal \| 1 \| 1 \| ", line) for line in slowest)
    card_rows = [line for line in lines if re.match(r"\| (Mortal|Pan|Athena) \| [\d.]+ \|", line)]
    assert len(card_rows) == 2 * 3
    assert f"every figure written to {out}" in lines


def test_matchups_that_cannot_be_played_are_listed_apart():
    """A pair where one card bans the other is not measured (it is listed, with the reason); a
    card whose setup refuses S0 is measured from a seeded legal start."""
    lines, report = run_matchups([*TINY_MATCHUPS, "--rounds", "1", "--no-greedy", "--cards", "Aphrodite", "Bia"])
    assert [(a, b) for a, b, _ in report.not_playable] == [("Aphrodite", "Bia"), ("Bia", "Aphrodite")]
    assert "Aphrodite v Bia: cannot be played (Aphrodite bans Bia: they cannot play in one game)" in lines
    measured = {(m.a, m.b): m for m in report.matchups["random"]}
    assert len(measured) == 9 - 2 and all(m.ratios and m.ratio > 0 for m in measured.values())
    seeded = [pair for pair, m in measured.items() if not m.from_s0]
    assert seeded == [("Mortal", "Bia"), ("Bia", "Mortal"), ("Bia", "Bia")]
    assert "greedy" not in report.matchups
    with pytest.raises(SystemExit):  # nothing to measure
        matchups.parse_args(["--no-random", "--no-greedy"])


def test_a_game_over_budget_is_reported_and_the_run_goes_on():
    """With a limit no game can keep, every matchup but the yardstick is over budget after its
    first game: a random game is played to its end (its figure stands), a greedy one is stopped at
    its next turn (its figure is an upper bound); each is measured no further, and the run ends."""
    lines, report = run_matchups([*TINY_MATCHUPS, "--cards", "Pan", "--against", "Mortal", "Pan",
                                  "--game-limit", "0.000001"])
    assert not report.failures
    for kind, finished in (("random", True), ("greedy", False)):
        for m in report.matchups[kind]:
            if m.yardstick:
                assert m.over_budget is None and m.ratios == [1.0, 1.0]
                continue
            assert m.over_budget is not None and m.over_budget.finished is finished, (kind, m.label)
            assert len(m.ratios) == 1 and m.ratio > 0 and m.bound is not finished  # (round 1 only)
            assert any(line.startswith(f"round 1 {kind} {m.label}: OVER BUDGET (one game ") for line in lines)
        assert matchups.distribution(report.matchups[kind])["over_budget"] == 3
    assert any(line.startswith("| greedy | 4 |") for line in lines)
    assert any(re.match(r"\| \d \| Pan v Pan \| <[\d.e-]+ \| ", line) for line in lines)  # (an upper bound)


def test_a_matchup_whose_games_fail_is_reported_and_the_others_go_on(monkeypatch, capsys):
    real = matchups.random_games

    def games(pack, gods, seed, max_turns, chain=matchups.Chain.FAST):  # noqa: ANN001, ANN202
        if gods[0] == "Pan":
            def broken():  # noqa: ANN202
                raise RuntimeError("an engine fault")
                yield
            return broken()
        return real(pack, gods, seed, max_turns, chain)
    monkeypatch.setattr(matchups, "random_games", games)
    argv = [*TINY_MATCHUPS, "--no-greedy", "--cards", "Pan", "Athena", "--against", "Mortal"]
    lines, report = run_matchups(argv)
    assert [(m.label, m.failure) for m in report.failures] == [("Pan v Mortal", "RuntimeError: an engine fault")]
    measured = {m.label: m for m in report.matchups["random"]}
    assert measured["Athena v Mortal"].ratios and measured["Mortal v Mortal"].ratio == 1.0
    assert "FAILED: Pan v Mortal: RuntimeError: an engine fault" in lines
    assert sum("Pan v Mortal: FAILED" in line for line in lines) == 1  # (measured no further)
    assert matchups.main(argv) == 1  # the command exits 1
    assert "FAILED: Pan v Mortal" in capsys.readouterr().out


def test_matchups_on_the_generic_chain_the_derived_count_and_a_pack_folder():
    """--generic plays the matchups with the fast paths off (Mortal v Mortal too, then a matchup
    like any other); --derived draws them with the derived count, no hand-tuned picker; --pack-path
    measures a pack folder's own cards, Mortal among them."""
    lines, report = run_matchups([*TINY_MATCHUPS, "--rounds", "1", "--no-greedy", "--generic", "--cards", "Pan",
                                  "--against", "Mortal"])
    measured = {m.label: m for m in report.matchups["random"]}
    assert set(measured) == {"Mortal v Mortal", "Pan v Mortal"}
    assert not measured["Mortal v Mortal"].yardstick and measured["Mortal v Mortal"].ratio > 0
    assert any("matchups on the generic chain" in line for line in lines)
    lines, report = run_matchups([*TINY_MATCHUPS, "--rounds", "1", "--no-greedy", "--derived", "--cards", "Artemis",
                                  "--against", "Mortal"])
    measured = {m.label: m for m in report.matchups["random"]}
    assert not measured["Mortal v Mortal"].yardstick and measured["Artemis v Mortal"].ratio > 0
    assert any("matchups drawn by the derived count" in line for line in lines)
    derived = matchups.with_engine(matchups.new_game(load_pack("bga"), matchups.parse_players(["Artemis", "Mortal"])),
                                   matchups.Chain.DERIVED)
    assert derived.engine.fast and derived.engine._pickers == [None, None] and derived.engine._counting == [True, True]
    with pytest.raises(SystemExit):
        matchups.parse_args(["--generic", "--derived"])
    folder = Path(__file__).resolve().parent / "invented" / "inventions"
    pack = matchups.resolve_pack(str(folder))
    own = matchups.ordered_cards(pack, folder)
    assert own[0] == "Mortal" and len(own) == 1 + len(list(folder.glob("*.yaml"))) - 1  # (not pack.yaml)
    assert set(own) < set(matchups.ordered_cards(pack))  # (the bga cards it extends are left out)


def test_percentiles_and_samples():
    assert matchups.percentile([4.0, 1.0, 3.0, 2.0], 0.0) == 1.0
    assert matchups.percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5
    assert matchups.percentile([4.0, 1.0, 3.0, 2.0], 1.0) == 4.0
    assert matchups.percentile([5.0], 0.05) == 5.0
    pairs = [(a, b, True) for a in ("Mortal", "Pan", "Athena") for b in ("Mortal", "Pan", "Athena")]
    chosen = matchups.sample(pairs, 3, seed=1)
    assert len(chosen) == 3 and chosen[0][:2] == ("Mortal", "Mortal") and set(chosen) <= set(pairs)
    assert chosen == matchups.sample(pairs, 3, seed=1) and matchups.sample(pairs, None, 1) == pairs
