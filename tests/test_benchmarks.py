"""The benchmark script (benchmarks/compare.py) runs and reports every figure.

Speed is never asserted here: a test that fails on a busy machine teaches nothing. These tests
run the script on tiny budgets and check that it prints every figure, that its Markdown table is
well formed, and that the interpreter and the reference agree on perft.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "compare.py"
_spec = importlib.util.spec_from_file_location("benchmarks_compare", _PATH)
compare = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("benchmarks_compare", compare)  # dataclasses look their module up
_spec.loader.exec_module(compare)

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

    # The Markdown table: a header, a separator, one row per figure, four cells each.
    table = lines[lines.index("| figure | interpreter | reference | ratio |"):]
    assert table[1] == "| --- | ---: | ---: | ---: |"
    startup_rows = 4 if compare.has_compile_cache() else 2  # with a compile cache: warm and off
    assert len(table) == 2 + len(report.rows) == 2 + 1 + 2 + startup_rows + 1
    assert all(row.startswith("| ") and row.endswith(" |") and row.count(" | ") == 3 for row in table)
    assert re.match(r"\| games/s, Mortal v Mortal from S0 \([\d.]+ turns/game; median of 1 x 0.2 s\) \| ",
                    table[2])


def test_gods_are_measured_and_unknown_names_skipped():
    lines, report = run(["--rounds", "1", "--seconds", "0.1", "--gods", "Pan", "Nobody",
                         "--perft-depth", "1", "--startup-runs", "0"])
    assert any(line.startswith("Pan v Mortal games/s median: ") and "ratio to Mortal v Mortal" in line
               for line in lines)
    assert any(line.startswith("round 1 Nobody v Mortal: skipped") for line in lines)
    assert not any(line.startswith("start-up") for line in lines)
    assert [row.figure.split(",")[0] for row in report.rows].count("games/s") == 3


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
    assert tuple(args.gods) == compare.SIMPLE_GODS and not args.no_gods
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
    mortal = compare.MortalRounds(interpreter=[100.0, 300.0, 200.0], reference=[200.0, 200.0, 100.0],
                                  turns_per_game=[50.0, 50.0, 50.0])
    lines: list[str] = []
    report = compare.Report(out=lines.append)
    compare.report_games(report, mortal, {"Pan": [(50.0, 40.0), (150.0, 40.0), (300.0, 40.0)]}, {}, 3, 1.0)
    assert [row.ratio for row in report.rows] == ["1.5", "0.5"]
    assert [row.interpreter for row in report.rows] == ["200.0", "150.0"] and report.rows[0].reference == "200.0"
    assert "ratio 1.5 (median of the rounds' ratios" in lines[0]
