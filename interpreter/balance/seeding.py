"""Seeds that depend only on what a game is, never on where or when it is played.

Game i of matchup 'X v Y' in a run of seed S gets a seed hashed from (S, 'X v Y', i) with SHA-256:
the same in every process, on every machine and every Python (unlike `hash()`, which is salted
per process). Each seat then draws from its own generator, so that one seat's choices do not shift
the other's, and a game played by any backend is the same game.
"""

from __future__ import annotations

import hashlib
import random

#: Bumped if the derivation ever changes, so that old and new seeds cannot be confused.
SCHEME = "santorini-balance/1"


def _digest(text: str) -> int:
    """63 bits of SHA-256 of `text`: a non-negative integer that fits SQLite's INTEGER."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def game_seed(run_seed: int, matchup_key: str, index: int) -> int:
    """The seed of game `index` of the seat-ordered matchup `matchup_key` in a run of `run_seed`."""
    return _digest(f"{SCHEME}|game|{run_seed}|{matchup_key}|{index}")


def seat_random(seed: int, seat: int) -> random.Random:
    """The generator of one seat in the game of `seed`: its placement and its turns."""
    return random.Random(_digest(f"{SCHEME}|seat|{seed}|{seat}"))
