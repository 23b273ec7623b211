"""An illegal step says what is wrong with it, as text and as data on IllegalTurn (issue 10,
"Saying why"): occupied by whom, domed, too high, not next to the worker, not the player's worker,
forbidden by which opponent's power (and its sentence), no complete turn after it, or a dome where
only a block may go."""

from __future__ import annotations

from pathlib import Path

import pytest

from santorini.interpreter.engine.engine import IllegalTurn
from santorini.interpreter.engine.refusal import Reason
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.model.notation import parse_turn

#: A (Mortal) on b2 and d4; B (given below) on c3 and e5. c2 is level 2, d2 domed, a1 level 1.
POSITION = """\
name: refusals
edition: bga
players: [{first}, {second}]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 2 0D 0
  1 0 0 0 0
workers: {{A1: b2, A2: d4, B1: c3, B2: e5}}
history: {history}
"""


def refused(tmp_path: Path, turn: str, first: str = "Mortal", second: str = "Mortal", history: str = "[]"):
    path = tmp_path / "p.yaml"
    path.write_text(POSITION.format(first=first, second=second, history=history), encoding="utf-8")
    scenario = load_scenario(path)
    state = scenario.state
    with pytest.raises(IllegalTurn) as caught:
        scenario.game.engine.play(state, parse_turn(state, turn))
    refusal = caught.value.refusal
    assert refusal is not None and refusal.text == str(caught.value)
    return refusal


@pytest.mark.parametrize(("turn", "reason", "says"), [
    ("move A1 c3; build A1 c4", Reason.OCCUPIED, "'move A1 c3' (step 1): c3 is occupied by B1"),
    ("move A1 b3; build A1 c3", Reason.OCCUPIED, "'build A1 c3' (step 2): c3 is occupied by B1"),
    ("move A2 d3; build A2 d2", Reason.DOMED, "'build A2 d2' (step 2): d2 is domed"),
    ("move A1 c2; build A1 b2", Reason.TOO_HIGH, "'move A1 c2' (step 1): c2 is too high (level 2 from level 0)"),
    ("move A1 e1; build A1 e2", Reason.NOT_NEIGHBORING, "'move A1 e1' (step 1): e1 is not next to A1 (on b2)"),
    ("move A1 b3; build A1 e1", Reason.NOT_NEIGHBORING, "'build A1 e1' (step 2): e1 is not next to A1 (on b3)"),
    ("move B1 c4; build B1 c5", Reason.NOT_YOURS, "'move B1 c4' (step 1): B1 is not yours (yours: A1, A2)"),
    ("move A1 b2; build A1 b3", Reason.NOT_NEIGHBORING, "'move A1 b2' (step 1): A1 stands on b2 already"),
    ("move A1 b3; dome A1 b4", Reason.NOT_A_DOME, "a dome on b4 (level 0) is not allowed, only the next block"),
    ("move A1 b3", Reason.INCOMPLETE, "the turn is not complete; it must go on with one of: build A1"),
    ("move A1 b3; build A1 b4; build A1 b5", Reason.COMPLETE, "'build A1 b5' (step 3): the turn is already complete"),
])
def test_each_refusal_says_what_is_wrong(tmp_path: Path, turn: str, reason: Reason, says: str) -> None:
    refusal = refused(tmp_path, turn)
    assert refusal.reason is reason and says in refusal.text, refusal.text


def test_a_refusal_lists_what_is_allowed_as_data(tmp_path: Path) -> None:
    refusal = refused(tmp_path, "move A1 c2; build A1 b2")
    assert refusal.step == 0 and "move A1 b3" in refusal.allowed and "move A1 c2" not in refusal.allowed
    assert refusal.details == {"from": 0, "to": 2}


def test_an_opponents_power_is_named_with_its_sentence(tmp_path: Path) -> None:
    """B (Athena) moved B1 up from c3 (level 0) onto b4 (level 1, A's build) and built a3: A1 may
    not move up onto a3."""
    refusal = refused(tmp_path, "move A1 a3; build A1 a2", second="Athena",
                      history='["move A1 b3; build A1 b4", "move B1 b4; build B1 a3"]')
    assert refusal.reason is Reason.FORBIDDEN, refusal.text
    assert refusal.power == "Athena" and "opponent workers cannot move up" in refusal.sentence
    assert "Athena's power forbids it (" in refusal.text


def test_a_step_after_which_no_turn_is_complete_says_so(tmp_path: Path) -> None:
    """Apollo's A1 may swap into the corner a1 (B1 goes to b2), and then could build nowhere: a2
    and b1 are domed and b2 holds B1."""
    path = tmp_path / "corner.yaml"
    path.write_text("name: corner\nedition: bga\nplayers: [Apollo, Mortal]\nboard: |\n  0 0 0 0 0\n  0 0 0 0 0\n"
                    "  0 0 0 0 0\n  0D 0 0 0 0\n  0 0D 0 0 0\nworkers: {A1: b2, A2: e5, B1: a1, B2: e1}\n",
                    encoding="utf-8")
    scenario = load_scenario(path)
    with pytest.raises(IllegalTurn) as caught:
        scenario.game.engine.play(scenario.state, parse_turn(scenario.state, "move A1 a1"))
    assert caught.value.refusal.reason is Reason.CANNOT_COMPLETE
