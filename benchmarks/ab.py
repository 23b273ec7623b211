"""Measure the working tree against an earlier commit on the same random games, in one process.

A change to a fast path or to the playout loop is worth a few per cent, and the shared machine
moves whole-process timings by more than that from one run to the next. This script loads the
package twice: the working tree as `santorini`, and the commit `--base` (extracted with `git
archive` into a temporary folder) as `santorini_base`. For each card it plays the card against a
Mortal from one seed on both, the two taking turns in short slices of games (the same games,
slice by slice, in alternating order), and reports the speed-up: the base's CPU time over the
working tree's, as the median of the slices' ratios (each slice's two sides run within a few
hundredths of a second of each other, so that a stretch when the machine is slower falls on
both), and in total (which such stretches move). The games must be the same on
both (the same turns, the same winner): a change that alters them is reported, and the script
exits 1.

The garbage collector runs between slices, not during them: with two packages loaded, one of
its full passes takes longer than a slice of games, and would land on one side or the other by
chance.

    python benchmarks/ab.py --base HEAD~1 Artemis Prometheus
    python benchmarks/ab.py --base 74ee291 --pack bga --slices 60 --games 50 Triton

Run it from the repository, with the package installed (`pip install -e .`) or with PYTHONPATH
pointing at a folder holding `santorini`. The compile cache is turned off for both, so that
neither reads the other's compiled cards. Speed is never asserted by a test; this script, like
compare.py, reports it.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

REPOSITORY = Path(__file__).resolve().parent.parent


def load_base(revision: str, folder: Path) -> ModuleType:
    """The package as it was at `revision`, imported as `santorini_base` from `folder`."""
    archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", revision], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # (Python 3.11.4 on: nothing written outside the folder)
            tar.extractall(folder, filter="data")
        else:  # pragma: no cover - older 3.11
            tar.extractall(folder)  # noqa: S202 - our own repository's archive
    spec = importlib.util.spec_from_file_location("santorini_base", folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["santorini_base"] = package
    spec.loader.exec_module(package)
    return package


def games_of(package: str, pack: str, card: str, seed: int) -> Iterator:
    """The package's random games of `card` v Mortal from `seed` (games.bench.bench_games)."""
    bench = importlib.import_module(f"{package}.interpreter.games.bench")
    packs = importlib.import_module(f"{package}.interpreter.games.packs")
    return bench.bench_games(packs.load_pack(pack), [card, "Mortal"], seed)


def measure(pack: str, card: str, seed: int, slices: int, games: int) -> tuple[float, float, float, float, bool]:
    """(base us/game, working tree us/game, total speed-up, median of the slices' speed-ups,
    whether every game was the same on both)."""
    sides = {"base": games_of("santorini_base", pack, card, seed), "tree": games_of("santorini", pack, card, seed)}
    for games_iter in sides.values():  # (a slice each to warm up: tables made on first use, the caches)
        for _ in range(games):
            next(games_iter)
    spent = {"base": 0.0, "tree": 0.0}
    ratios, same = [], True
    for index in range(slices):
        took, played = {}, {}
        for side in ("base", "tree") if index % 2 == 0 else ("tree", "base"):
            games_iter, seen = sides[side], []
            gc.collect()  # (between slices, untimed: see the module's docstring)
            gc.disable()
            start = time.process_time()
            for _ in range(games):
                log = next(games_iter)
                seen.append((log.turn_steps, log.winner))  # (not the log: its state is let go at once)
            took[side] = time.process_time() - start
            gc.enable()
            played[side] = seen
        same = same and played["base"] == played["tree"]
        ratios.append(took["base"] / took["tree"])
        for side in took:
            spent[side] += took[side]
    per_game = slices * games
    return (spent["base"] / per_game * 1e6, spent["tree"] / per_game * 1e6, spent["base"] / spent["tree"],
            statistics.median(ratios), same)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cards", nargs="+", metavar="CARD", help="cards to play against a Mortal")
    parser.add_argument("--base", default="HEAD", help="the commit to compare with (default HEAD)")
    parser.add_argument("--pack", default="bga", help="the rule pack (default bga)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument("--slices", type=int, default=40, help="slices of games per side (default 40)")
    parser.add_argument("--games", type=int, default=100, help="games in a slice (default 100)")
    args = parser.parse_args(argv)
    cache = os.environ.get("SANTORINI_CACHE_DIR")
    os.environ["SANTORINI_CACHE_DIR"] = ""  # (neither reads the other's compiled cards)
    try:
        return compare(args)
    finally:
        if cache is None:
            del os.environ["SANTORINI_CACHE_DIR"]
        else:
            os.environ["SANTORINI_CACHE_DIR"] = cache


def compare(args: argparse.Namespace) -> int:
    """Print the table; 1 when some card's games differ between the two."""
    status = 0
    with tempfile.TemporaryDirectory() as folder:
        load_base(args.base, Path(folder))
        print(f"base {args.base} v the working tree; pack {args.pack}; seed {args.seed}; "
              f"{args.slices} slices of {args.games} games a side")
        print("| card v Mortal | speed-up (median of slices) | speed-up (total) | base us/game | tree us/game "
              "| same games |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for card in args.cards:
            base, tree, speed_up, median, same = measure(args.pack, card, args.seed, args.slices, args.games)
            print(f"| {card} | {median:.3f} | {speed_up:.3f} | {base:.1f} | {tree:.1f} | {'yes' if same else 'NO'} |")
            status |= not same
    return status


if __name__ == "__main__":
    sys.exit(main())
