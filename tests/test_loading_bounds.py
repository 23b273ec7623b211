"""Loading data is bounded and safe: every data file comes through dsl.source, and each kind of
hostile or broken input ends in one located message, soon, never in a traceback or a hang (issue
10, "Loading data"). Each test is a reproducer of a fault found by hand or by fuzzing.

"Soon" is counted, never timed (no test asserts a wall-clock time: a busy machine is slow, not
wrong): a load runs under a budget of Python function calls, and stops with a failure when it
goes over it, so a loader that loops in Python fails at once instead of hanging. Only what blocks
inside C, where there is no call to count (reading a device, opening a pipe), is guarded by a
timeout, a generous one that fires only on a real hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from santorini.dsl.source import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_FAULTS,
    MAX_FILE_BYTES,
    MAX_VALUES,
    SourceErrors,
    load_document,
)
from support import counted_calls, hang_guard

CARD = """\
name: Demigod
title: A god of tests
kind: god
tier: simple
players: [2]
summary: Tests.
text: Tests.
rules: |
  Your Move:
    after your worker moves, it may move one additional time.
"""

#: 377 bytes that stand for 9 ** 9 strings: every loader ran without end on it.
LAUGHS = "name: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


#: The most Python function calls one of these loads may make. Each takes under 30,000 today (the
#: deepest nesting); a loader that expanded the aliases of LAUGHS would make billions.
CALL_BUDGET = 1_000_000


def load_faults(path: Path, kind: str = "card", budget: int = CALL_BUDGET) -> tuple[list[tuple[int, int, str]], int]:
    """The faults of a file that does not load, and the calls the load made (within `budget`)."""
    def load() -> list[tuple[int, int, str]]:
        with pytest.raises(SourceErrors) as caught:
            load_document(path, kind)
        return [(e.line, e.column, e.message) for e in caught.value.errors]
    return counted_calls(load, budget)


def faults(path: Path, kind: str = "card") -> list[tuple[int, int, str]]:
    """The faults of a file that does not load, found within CALL_BUDGET calls."""
    return load_faults(path, kind)[0]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "doc.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_nested_aliases_are_refused_at_the_first_alias(tmp_path: Path) -> None:
    assert len(LAUGHS) < 400
    (found,) = faults(write(tmp_path, LAUGHS))
    assert found[:2] == (2, 8) and f"repeat its data to more than {MAX_VALUES:,} values" in found[2]


def test_a_few_aliases_are_still_fine(tmp_path: Path) -> None:
    text = CARD.replace("players: [2]", "players: &counts [2]") + "bans: []\n"
    load_document(write(tmp_path, text), "card")


def test_deep_nesting_is_refused_where_it_gets_too_deep(tmp_path: Path) -> None:
    text = CARD + "extra: " + "[" * 500 + "]" * 500 + "\n"  # the root mapping is level 1: the 64th "[" is too deep
    (found,) = faults(write(tmp_path, text))
    assert found == (11, 7 + MAX_DEPTH, f"the data is nested more than {MAX_DEPTH} levels deep")
    block = CARD + "".join("  " * i + f"k{i}:\n" for i in range(300)) + "  " * 300 + "end: 1\n"
    (found,) = faults(write(tmp_path, block))
    assert "nested more than" in found[2]


def test_a_huge_integer_is_refused_with_its_place(tmp_path: Path) -> None:
    text = CARD.replace("players: [2]", "players: [" + "9" * 5000 + "]")
    (found,) = faults(write(tmp_path, text))
    assert found == (5, 11, f"a number of 5000 characters: numbers have at most {MAX_DIGITS} digits "
                            "(put text in quotes)")


def test_devices_pipes_and_folders_are_refused_at_once(tmp_path: Path) -> None:
    """Read, /dev/zero never ends and a pipe blocks until a writer comes, both inside C: the hang
    guard turns such a hang into a failure."""
    with hang_guard():
        check_devices_pipes_and_folders(tmp_path)


def check_devices_pipes_and_folders(tmp_path: Path) -> None:
    assert faults(Path("/dev/zero")) == [(1, 1, "this is not a regular file (a device, a pipe or a socket): "
                                                "expected a YAML file")]
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in faults(fifo)[0][2]  # and does not block waiting for a writer
    assert faults(tmp_path) == [(1, 1, "this is a folder, not a file: expected a YAML file")]


def test_a_file_too_large_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    (found,) = faults(path)
    assert found[:2] == (1, 1) and f"a data file has at most {MAX_FILE_BYTES:,}" in found[2]


def test_many_unknown_keys_are_reported_soon_and_counted(tmp_path: Path) -> None:
    """Placing each unknown key once searched the mapping's keys for it (Document.key_position):
    n keys took n^2/2 comparisons (50 s for 20,000). The work must grow as n: twice the keys, at
    most a little more than twice the calls (it was more than three times, at these sizes: about
    500 calls a key, and one a pair of keys)."""
    calls = {}
    for keys in (1_000, 2_000):
        text = CARD + "".join(f"extra{i}: {i}\n" for i in range(keys))
        found, calls[keys] = load_faults(write(tmp_path, text), budget=2_000 * keys)
        assert len(found) == MAX_FAULTS
        assert found[0] == (11, 1, "unknown key 'extra0' (did you mean 'text'?)")
        assert found[-1][2] == f"... and {keys - MAX_FAULTS + 1} more faults in this file"
    _, none = load_faults(write(tmp_path, CARD + "extra: 1\n"))  # what any load costs
    assert calls[2_000] - none <= 2.2 * (calls[1_000] - none), calls


@pytest.mark.parametrize("word", ["on", "off", "yes", "no", "y"])
def test_yaml_1_1_booleans_stay_text(tmp_path: Path, word: str) -> None:
    """'on:' was read as the boolean true and reported as the key 'true', on another line."""
    (found,) = faults(write(tmp_path, CARD + f"{word}: 1\n"))
    assert found[0] == 11 and found[2].startswith(f"unknown key '{word}'")


def test_check_answers_at_once_on_a_device_and_on_nested_aliases(tmp_path: Path) -> None:
    """`check` guesses a file's kind before loading it: that guess, too, is bounded (it read
    /dev/zero without end, inside C: the hang guard; and expanded aliases: the call budget)."""
    from santorini.interpreter.games.validate import check_paths
    with hang_guard():
        (_, errors), _ = counted_calls(lambda: check_paths(["/dev/zero"]), CALL_BUDGET)
    assert [e.message for e in errors] == ["this is not a regular file (a device, a pipe or a socket): "
                                           "expected a YAML file"]
    laughs = write(tmp_path, LAUGHS)
    (_, errors), _ = counted_calls(lambda: check_paths([str(laughs)]), CALL_BUDGET)
    assert len(errors) == 1 and "aliases" in errors[0].message
