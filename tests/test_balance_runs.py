"""Balance runs (issue 11): the plan, the seeds, how a game's end is read, the store and its
resume after a kill, the backends (one process, a local pool, Ray) giving the same results, and
the `santorini balance` command's errors and output."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from santorini.interpreter.balance.backends import Backend, BackendError, play_batches
from santorini.interpreter.balance.plan import (
    ALL,
    PlanError,
    Task,
    canonical_agent,
    pack_digest,
    plan_matchups,
    plan_tasks,
    two_player_cards,
)
from santorini.interpreter.balance.records import EndKind, Matchup
from santorini.interpreter.balance.run import make_plan, run_balance
from santorini.interpreter.balance.runner import (
    PackMismatch,
    batch_size,
    batches,
    classify,
    play_batch,
    play_game,
    play_logged,
)
from santorini.interpreter.balance.seeding import game_seed, seat_random
from santorini.interpreter.balance.store import FILE_NAME, StoreError, open_store
from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.packs import UnknownName, load_pack, resolve_pack
from support import REPO

BGA = load_pack("bga")
#: A small run: Apollo against Mortal and Pan, greedy, a few games (about 0.1 s in one process).
SMALL = ("--gods", "Apollo", "--against", "Mortal,Pan", "--games", "3", "--agent", "greedy", "--quiet")


def run(*args: str):
    return CliRunner().invoke(main, ["balance", *args])


def stored_rows(folder: Path) -> list[tuple]:
    """Every stored game, sorted by key: what two runs must agree on."""
    with sqlite3.connect(folder / FILE_NAME) as db:
        return db.execute("SELECT * FROM games ORDER BY matchup, idx").fetchall()


# ---- seeds
def test_a_game_seed_is_sha256_of_the_run_seed_matchup_and_index() -> None:
    text = "santorini-balance/1|game|7|Apollo v Pan|3"
    expected = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
    assert game_seed(7, "Apollo v Pan", 3) == expected
    others = {game_seed(8, "Apollo v Pan", 3), game_seed(7, "Pan v Apollo", 3), game_seed(7, "Apollo v Pan", 4)}
    assert expected not in others and len(others) == 3
    assert 0 <= expected < 2**63  # fits SQLite's INTEGER


def test_seeds_do_not_depend_on_the_process_hash_salt() -> None:
    code = ("from santorini.interpreter.balance.seeding import game_seed, seat_random; "
            "print(game_seed(1, 'Mortal v Pan', 0), seat_random(5, 1).random())")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": salt}).stdout for salt in ("1", "2")}
    assert outputs == {f"{game_seed(1, 'Mortal v Pan', 0)} {seat_random(5, 1).random()}\n"}


def test_each_seat_draws_from_its_own_generator() -> None:
    assert seat_random(5, 0).random() != seat_random(5, 1).random()
    assert seat_random(5, 0).random() == seat_random(5, 0).random()


# ---- the plan
def test_against_all_plays_every_allowed_card_in_both_seat_orders() -> None:
    matchups = plan_matchups(BGA, ["Pan"], [ALL], matrix=False)
    opponents = [m.second for m in matchups[::2]]
    assert "Hades" not in opponents  # Pan bans Hades (and Hades bans Pan)
    assert "Pan" not in opponents  # no mirror
    assert set(opponents) == set(two_player_cards(BGA)) - {"Pan", "Hades"}
    assert "Mortal" in opponents
    assert matchups[0::2] == [Matchup("Pan", o) for o in opponents]
    assert matchups[1::2] == [Matchup(o, "Pan") for o in opponents]


def test_the_order_of_the_tasks_is_fixed_and_each_game_has_its_seed() -> None:
    matchups = plan_matchups(BGA, ["apollo", "Pan"], ["Mortal", "pan"], matrix=False)
    assert [m.key for m in matchups] == ["Apollo v Mortal", "Mortal v Apollo", "Apollo v Pan", "Pan v Apollo",
                                        "Pan v Mortal", "Mortal v Pan"]  # Pan v Apollo only once
    tasks = plan_tasks(matchups, 2, seed=9)
    assert [(t.matchup.key, t.index) for t in tasks[:3]] == [("Apollo v Mortal", 0), ("Apollo v Mortal", 1),
                                                              ("Mortal v Apollo", 0)]
    assert all(t.seed == game_seed(9, t.matchup.key, t.index) for t in tasks)
    assert tasks == plan_tasks(matchups, 2, seed=9)


def test_the_matrix_plays_every_allowed_pair_once_each_way_without_mirrors() -> None:
    cards = two_player_cards(BGA)
    matchups = plan_matchups(BGA, [], [], matrix=True)
    pairs = {frozenset((m.first, m.second)) for m in matchups}
    assert all(len(pair) == 2 for pair in pairs)
    assert len(matchups) == 2 * len(pairs) == len(set(matchups))
    banned = {frozenset((c.name, b)) for c in BGA.cards.values() for b in c.bans if b in cards}
    assert banned and not banned & pairs
    assert len(pairs) == len(cards) * (len(cards) - 1) // 2 - len(banned)


def test_named_pairs_that_cannot_play_are_errors() -> None:
    with pytest.raises(PlanError, match="Pan v Hades cannot be played: .*bans"):
        plan_matchups(BGA, ["Pan"], ["Mortal", "Hades"], matrix=False)
    with pytest.raises(PlanError, match="not played against itself"):
        plan_matchups(BGA, ["Pan"], ["Pan"], matrix=False)
    assert "Pan v Pan" not in [m.key for m in plan_matchups(BGA, ["Pan", "Apollo"], ["Pan"], matrix=False)]
    with pytest.raises(UnknownName, match="did you mean 'Apollo'"):
        plan_matchups(BGA, ["Apolo"], [ALL], matrix=False)


def test_cards_not_for_two_players_are_left_out_of_all_and_refused_by_name(tmp_path: Path) -> None:
    pack = tmp_path / "three-pack"
    pack.mkdir()
    shipped = (REPO / "powers" / "bga" / "pack.yaml").read_text()
    (pack / "pack.yaml").write_text(shipped.replace("name: bga", "name: three-pack")
                                    .replace("language: 2", "language: 2\nextends: bga"))
    pan = (REPO / "powers" / "bga" / "pan.yaml").read_text().replace("name: Pan", "name: Trio")
    (pack / "trio.yaml").write_text(re.sub(r"players: \[.*\]", "players: [3, 4]", pan))
    loaded = resolve_pack(str(pack))
    assert loaded.card("Trio").players == (3, 4)
    assert "Trio" not in [m.second for m in plan_matchups(loaded, ["Apollo"], [ALL], matrix=False)]
    with pytest.raises(PlanError, match="Trio is for 3, 4 players"):
        plan_matchups(loaded, ["Trio"], [ALL], matrix=False)
    (pack / "trio.yaml").write_text(re.sub(r"players: \[.*\]", "players: [2, 3]", pan))
    changed = resolve_pack(str(pack))
    assert pack_digest(changed) != pack_digest(loaded)  # a run's identity follows its cards' rules


def test_one_spelling_per_agent() -> None:
    assert canonical_agent(" MCTS ") == "mcts:400" == canonical_agent("mcts:400")
    assert canonical_agent("greedy") == "greedy"


def test_batches_keep_the_order_and_size() -> None:
    tasks = plan_tasks(plan_matchups(BGA, ["Apollo"], ["Mortal"], matrix=False), 5, 1)
    cut = batches(tasks, 4, "bga", "random", 100)
    assert [len(b.tasks) for b in cut] == [4, 4, 2]
    assert [t for b in cut for t in b.tasks] == tasks
    assert batch_size(10_000, 2) == 32 and batch_size(20, 2) == 1 and batch_size(160, 2) == 10


def test_a_worker_whose_pack_differs_from_the_runs_refuses_to_play() -> None:
    tasks = plan_tasks(plan_matchups(BGA, ["Apollo"], ["Mortal"], matrix=False), 1, 1)
    good = batches(tasks, 2, "bga", "random", 100, pack_digest(BGA))[0]
    assert len(play_batch(good)) == 2
    with pytest.raises(PackMismatch, match="other rules than the run's"):
        play_batch(batches(tasks, 2, "bga", "random", 100, "0123456789abcdef")[0])


# ---- how games end, from real games
def _games(matchup: Matchup, agent: str = "random", count: int = 60, max_turns: int = 300):
    for index in range(count):
        task = Task(matchup, index, game_seed(1, matchup.key, index))
        game, log = play_logged("bga", task, agent, max_turns)
        yield classify(game, log), game, log


def _first(matchup: Matchup, kind: EndKind, agent: str = "random"):
    for (winner, end), game, log in _games(matchup, agent):
        if end is kind:
            return winner, game, log
    raise AssertionError(f"no {kind.value} end in the games tried of {matchup.key}")


def test_a_climb_is_a_move_up_onto_level_3() -> None:
    winner, game, log = _first(Matchup("Mortal", "Mortal"), EndKind.CLIMB)
    assert re.search(r"moved from \w+ \(level [0-2]\) to \w+ \(level 3\)", log.reason), log.reason
    assert log.winner == "AB"[winner] and not log.stuck


def test_pan_dropping_two_levels_is_a_power_win() -> None:
    winner, game, log = _first(Matchup("Mortal", "Pan"), EndKind.POWER)
    here, there = map(int, re.search(r"\(level (\d)\) to \w+ \(level (\d)\)", log.reason).groups())
    assert here - there >= 2 and winner == 1  # Pan sits in seat B


def test_chronus_towers_are_a_power_win() -> None:
    winner, game, log = _first(Matchup("Chronus", "Mortal"), EndKind.POWER)
    assert "made a win condition true" in log.reason and winner == 0
    towers = sum(1 for s in range(25) if game.state.heights[s] == 3 and game.state.domes[s])
    assert towers >= 5


def test_a_player_who_cannot_complete_a_turn_loses_stuck() -> None:
    winner, game, log = _first(Matchup("Apollo", "Athena"), EndKind.STUCK)
    assert log.stuck and log.stuck[-1] == f"seat {'BA'[winner]} cannot complete a turn and loses"


def test_every_end_agrees_with_the_games_own_reason() -> None:
    for matchup in (Matchup("Mortal", "Pan"), Matchup("Chronus", "Mortal")):
        for (winner, end), _game, log in _games(matchup, count=40):
            climbed = re.search(r"\(level [0-2]\) to \w+ \(level 3\)$", log.reason) is not None
            assert (end is EndKind.CLIMB) == (climbed and not log.stuck), (matchup.key, log.reason)
            assert (end is EndKind.STUCK) == ("cannot complete a turn" in log.reason)
            assert winner == "AB".index(log.winner)


def test_the_turn_limit_ends_a_game_with_no_winner() -> None:
    result = play_game("bga", Task(Matchup("Mortal", "Mortal"), 0, 5), "random", max_turns=4)
    assert (result.winner, result.end, result.turns) == (None, EndKind.LIMIT, 4)


def test_the_same_seed_gives_the_same_results_in_a_batch_or_alone() -> None:
    tasks = plan_tasks(plan_matchups(BGA, ["Pan"], ["Mortal", "Apollo"], matrix=False), 3, 4)
    together = play_batch(batches(tasks, len(tasks), "bga", "greedy", 300)[0])
    alone = [play_game("bga", task, "greedy", 300) for task in reversed(tasks)][::-1]
    assert together == alone
    assert len({(r.winner, r.turns) for r in together}) > 1  # the games differ from one another


# ---- the store
def test_a_folder_holds_one_run_and_a_resumed_run_plays_only_what_is_missing(tmp_path: Path) -> None:
    plan = make_plan("bga", ["Apollo"], ["Mortal"], False, 3, "random", 1, 300)
    heard = []
    first = run_balance(plan, tmp_path, on_start=lambda stored, left: heard.append((stored, left)))
    assert (first.stored_before, first.played, len(first.results)) == (0, 6, 6)
    with open_store(tmp_path) as store:  # lose two games, as a kill would
        store._db.execute("DELETE FROM games WHERE idx = 2")
        store._db.commit()
    again = run_balance(plan, tmp_path, on_start=lambda stored, left: heard.append((stored, left)))
    assert heard == [(0, 6), (4, 2)]
    assert again.results == first.results
    other = make_plan("bga", ["Apollo"], ["Mortal"], False, 3, "random", 2, 300)
    with pytest.raises(StoreError, match=r"holds another run \(seed 1, not 2\)"):
        run_balance(other, tmp_path)


def test_resume_after_a_real_kill(tmp_path: Path) -> None:
    """Start a run, SIGKILL it once it has stored some games, run it again: it plays only the
    missing games, keeps the rows stored before the kill untouched, and ends with the results of
    a run that was never stopped. (The wait for the first games gives up after 60 s: a guard
    against a run that hangs, far longer than six games take on a busy machine.)"""
    args = ["balance", "--gods", "Apollo", "--against", "Mortal,Pan", "--games", "25", "--agent", "greedy",
            "--jobs", "1", "--batch", "2", "--quiet"]
    killed = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "santorini", *args, "--out", str(killed)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if (killed / FILE_NAME).exists() and _count(killed) >= 6:
                break
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    before = _rows_with_ids(killed)
    assert 6 <= len(before) < 100, "the run should have been killed part way"
    resumed = CliRunner().invoke(main, [*args, "--out", str(killed)])
    assert resumed.exit_code == 0, resumed.output
    assert f"{len(before)} stored, {100 - len(before)} to play" in resumed.output
    assert f"played {100 - len(before)} games" in resumed.output
    after = _rows_with_ids(killed)
    assert all(after[key] == row for key, row in before.items())  # the same rows, never rewritten
    whole = tmp_path / "whole"
    assert CliRunner().invoke(main, [*args, "--out", str(whole)]).exit_code == 0
    assert stored_rows(killed) == stored_rows(whole)
    assert (killed / "results.csv").read_bytes() == (whole / "results.csv").read_bytes()


def _count(folder: Path) -> int:
    try:
        with sqlite3.connect(folder / FILE_NAME, timeout=1) as db:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # the tables are not made yet
        return 0


def _rows_with_ids(folder: Path) -> dict[tuple, tuple]:
    """(matchup, idx) -> (rowid, the whole row): a row replaced by a replay would get a new rowid."""
    with sqlite3.connect(folder / FILE_NAME) as db:
        return {(row[1], row[2]): row for row in db.execute("SELECT rowid, * FROM games")}


# ---- backends: the same results whatever plays them
def test_one_process_and_a_pool_of_two_store_the_same_results(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    first = run(*SMALL, "--jobs", "1", "--out", str(one))
    second = run(*SMALL, "--jobs", "2", "--batch", "1", "--out", str(two))
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert "(local, 2 jobs)" in second.output
    assert stored_rows(one) == stored_rows(two) and len(stored_rows(one)) == 12
    assert (one / "report.md").read_bytes() == (two / "report.md").read_bytes()


def test_ray_with_two_workers_stores_the_same_results_as_one_process(tmp_path: Path) -> None:
    if os.environ.get("SANTORINI_NO_RAY") == "1":
        pytest.skip("SANTORINI_NO_RAY=1")
    import ray  # noqa: F401 - no skip without Ray: CI installs '.[test,ray]', so a missing Ray fails here
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    assert run(*SMALL, "--jobs", "1", "--out", str(local)).exit_code == 0
    result = run(*SMALL, "--backend", "ray", "--jobs", "2", "--batch", "2", "--out", str(on_ray))
    assert result.exit_code == 0, result.output
    assert "(ray, 2 jobs)" in result.output
    assert stored_rows(local) == stored_rows(on_ray)


def test_without_ray_the_ray_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    plan = make_plan("bga", ["Apollo"], ["Mortal"], False, 1, "random", 1, 300)
    work = batches(plan.tasks, 1, "bga", "random", 300)
    with pytest.raises(BackendError, match=r"pip install 'santorini-rules\[ray\]'"):
        list(play_batches(work, Backend.RAY, 2))


def test_the_core_does_not_import_ray() -> None:
    code = ("import sys; import santorini.interpreter.cli.cli, santorini.interpreter.balance.run; "
            "print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# ---- the command
def test_a_run_prints_the_plan_a_summary_per_opponent_and_the_report(tmp_path: Path) -> None:
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "plan: 4 matchups (seat-ordered) x 3 games = 12 games; pack bga, agent greedy, seed 1"
    assert lines[1].endswith("0 stored, 12 to play (local, 1 job)")
    rows = [line.split() for line in lines if line.startswith("Apollo ")]
    assert [row[1] for row in rows] == ["Mortal", "Pan"] and all(row[2] == "6" for row in rows)
    assert lines[-1] == f"report: {tmp_path / 'report.md'}" and (tmp_path / "report.md").is_file()
    again = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert "12 stored, 0 to play" in again.output and "played" not in again.output


@pytest.mark.parametrize("args, message", [
    (("--gods", "Apolo"), "has no card 'Apolo' (did you mean 'Apollo'?)"),
    (("--gods", "Pan", "--against", "Mortal,Hades"), "Pan v Hades cannot be played: Pan bans Hades"),
    (("--gods", "Pan", "--agent", "mcts:x"), "the iterations of mcts are a whole number"),
    (("--gods", "Pan", "--agent", "clever"), "unknown agent 'clever'"),
    (("--gods", "Pan", "--games", "0"), "0 is not in the range x>=1"),
    (("--gods", "Pan", "--against", "Pan"), "not played against itself"),
    (("--against", "Mortal"), "name the cards to test"),
    (("--matrix", "--gods", "Pan"), "--matrix plays every pair of the pack"),
    (("--gods", "Pan", "--address", "ray://x:1"), "--address names a Ray cluster"),
])
def test_bad_input_is_one_message_and_exit_code_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = run(*args, "--out", str(tmp_path / "run"))
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.lower().startswith("error:")]) == 1
    assert isinstance(result.exception, SystemExit)
    assert not (tmp_path / "run").exists()  # refused before anything is made


def test_another_run_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    assert run(*SMALL, "--jobs", "1", "--out", str(tmp_path)).exit_code == 0
    result = run(*SMALL[:-2], "random", "--quiet", "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "holds another run (agent greedy, not random)" in result.output
    identity = json.loads(sqlite3.connect(tmp_path / FILE_NAME).execute("SELECT identity FROM run").fetchone()[0])
    assert identity["agent"] == "greedy" and identity["against"] == ["Mortal", "Pan"]


def test_the_readme_tour_balance_line_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("santorini balance "))
    args = shlex.split(line.partition("#")[0])
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*args[1:], "--quiet", "--html"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "balance-run" / FILE_NAME).is_file()
    assert result.output.splitlines()[-1] == "report: balance-run/report.html"
    assert "<html" in (tmp_path / "balance-run" / "report.html").read_text(encoding="utf-8").lower()


def test_the_help_says_games_are_per_seat_order() -> None:
    result = CliRunner().invoke(main, ["balance", "--help"])
    assert result.exit_code == 0
    assert "Games per seat order" in result.output and "--backend [local|ray]" in result.output


def test_a_matrix_run_prints_ratings_and_draws_the_heat_map(tmp_path: Path) -> None:
    result = run("--pack", "pantheon", "--matrix", "--games", "1", "--agent", "random", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    cards = two_player_cards(load_pack("pantheon"))
    assert f"x 1 games = {len(cards) * (len(cards) - 1)} games" in result.output.splitlines()[0]
    ratings = [line.split() for line in result.output.splitlines()[4:-1]]  # after plan, store, played, header
    assert sorted(name for name, _ in ratings) == sorted(cards)
    assert [int(value) for _, value in ratings] == sorted((int(value) for _, value in ratings), reverse=True)
    assert (tmp_path / "matrix.png").is_file()


def test_ctrl_c_keeps_what_is_stored_and_says_how_to_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import santorini.interpreter.balance.run as run_module

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt
    monkeypatch.setattr(run_module, "run_balance", interrupted)
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 130
    assert "interrupted: the games played so far are stored" in result.output and "report:" not in result.output


def test_a_worker_that_dies_is_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    import santorini.interpreter.balance.backends as backends

    class DeadPool:
        def __init__(self, **kwargs: object) -> None:
            pass

        def __enter__(self) -> DeadPool:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def submit(self, *args: object) -> Future:
            future: Future = Future()
            future.set_exception(BrokenProcessPool("a child process terminated abruptly"))
            return future
    monkeypatch.setattr(backends, "ProcessPoolExecutor", DeadPool)
    tasks = plan_tasks(plan_matchups(BGA, ["Apollo"], ["Mortal"], matrix=False), 2, 1)
    with pytest.raises(BackendError, match="a worker process died .* run the same command again"):
        list(play_batches(batches(tasks, 1, "bga", "random", 100), Backend.LOCAL, 2))
