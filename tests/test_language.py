"""The rule language: parse errors point at the word and say what was expected; the checker
refuses sentences that make no sense where they stand; the compiler gives the hooks."""

from __future__ import annotations

import pytest

from santorini.dsl.semantics.checker import check_rules
from santorini.dsl.semantics.compiler import compile_rules
from santorini.dsl.syntax.parser import Origin, ParseError, parse_rules
from santorini.dsl.vocabulary import (
    Against,
    Apart,
    BesideWorker,
    Compare,
    Compass,
    FollowUpTiming,
    Heading,
    LevelChange,
    Modality,
    Owner,
    Piece,
    PieceIs,
    Role,
    TargetLevel,
    ToCard,
    TokenKind,
    TokenPoints,
    Verb,
    WorkerSelector,
)
from santorini.dsl.vocabulary.parts import NOT_ON_LAST_BUILT

ORIGIN = Origin("card.yaml", line=10, column=3)


def parse_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        parse_rules(text, ORIGIN)
    return caught.value


def test_unknown_word_is_located_with_a_suggestion() -> None:
    err = parse_error("Your Move:\n  your workerz may move.")
    assert (err.file, err.line, err.column) == ("card.yaml", 11, 10)
    assert "unknown word 'workerz' (did you mean 'worker'?)" in err.message
    assert err.message.splitlines()[-1].strip() == "^"


def test_unexpected_word_lists_what_was_expected() -> None:
    err = parse_error("Turn:\n  one of your workers moves down.")
    assert (err.line, err.column) == (11, 31)
    assert "unexpected 'down'" in err.message
    assert "'.' (the end of the sentence)" in err.message and "','" in err.message


def test_missing_period_at_end_of_rules() -> None:
    err = parse_error("Turn:\n  one of your workers moves")
    assert "the rules end here" in err.message
    assert (err.line, err.column) == (11, 30)


def test_unexpected_character() -> None:
    err = parse_error("Turn:\n  one of your workers moves!")
    assert "unexpected character '!'" in err.message


def check(text: str, kind: str = "god") -> list[str]:
    return [f"{e.line}:{e.column}: {e.message}" for e in check_rules(parse_rules(text, ORIGIN), ORIGIN, kind)]


def test_unknown_section_suggests_the_right_one() -> None:
    [message] = check("Your Mvoe:\n  your worker may build a dome at any level.")
    assert message.startswith("10:3: unknown section 'your mvoe:' (did you mean 'your move:'?)")


def test_statement_in_the_wrong_section() -> None:
    [message] = check("Your Move:\n  your worker may build a dome at any level.")
    assert message.startswith("11:5: 'your move:' gives another way to move, not to build")


def test_that_worker_needs_an_earlier_step() -> None:
    messages = check("Your Turn:\n  that worker moves.\n  that worker builds.")
    assert any("first step must choose a worker" in m for m in messages)


def test_constraint_must_fit_its_verb() -> None:
    [message] = check("Your Turn:\n  one of your workers moves, not a dome.\n  that worker builds.")
    assert message == "11:32: 'not a dome' is about a build's piece; it does not apply to a move"


def test_same_space_needs_an_earlier_build() -> None:
    [message] = check("Your Turn:\n  one of your workers moves.\n  that worker builds, on the same space.")
    assert "refers to an earlier build, and there is none" in message


def test_power_win_condition_says_also() -> None:
    [message] = check("Win Condition:\n  you win if your worker moves down two or more levels.")
    assert "write 'you also win'" in message


def test_only_the_base_card_has_a_turn_section() -> None:
    messages = check("Turn:\n  one of your workers moves.\n  the moved worker builds.")
    assert any("only the pack's base card" in m for m in messages)


def test_base_card_must_be_complete() -> None:
    messages = check("Turn:\n  one of your workers moves.\n  the moved worker builds.", kind="base")
    assert any("a board rule for the move" in m for m in messages)
    assert any("a board rule for the build" in m for m in messages)
    assert any("a loss condition" in m for m in messages)


def test_all_faults_are_reported() -> None:
    messages = check("Your Move:\n  your worker may build a dome at any level.\n"
                     "Your Build:\n  your worker may move into an opponent worker's space by forcing "
                     "that worker one space straight backwards.")
    assert len(messages) == 2


def test_compiled_hooks_keep_their_source_position() -> None:
    text = "Your Build:\n  after your worker builds, it may build one additional time, not on the same space."
    power = compile_rules(parse_rules(text, ORIGIN), ORIGIN, "Demeter-like")
    [followup] = power.followups
    assert followup.trigger.verb is Verb.BUILD
    assert followup.step.modality is Modality.MAY and followup.step.filters == (NOT_ON_LAST_BUILT,)
    assert (followup.step.where.line, followup.step.where.column) == (11, 31)


def test_keywords_are_case_insensitive() -> None:
    rules = parse_rules("YOUR BUILD:\n  Your Worker MAY build a DOME at any level.", ORIGIN)
    assert rules.sections[0].header == "your build"


def test_a_repeated_step_must_say_may() -> None:
    [message] = check("Your Turn:\n  your workers move any number of times.\n  one of your workers builds.")
    assert "includes zero times: write 'may'" in message


def test_a_build_repeated_without_a_bound_is_refused() -> None:
    """It passed check, then the first turn never ended (issue 10)."""
    [message] = check("Your Turn:\n  your workers may build any number of times.")
    assert "a build repeated 'any number of times' has no bound" in message
    assert check("Your Turn:\n  one of your workers moves.\n  the moved worker builds.\n"
                 "  the moved worker may build up to 3 times.") == []


def test_domes_around_the_worker_may_repeat_with_no_cost_but_domes_anywhere_may_not() -> None:
    """Each dome closes one of the worker's neighbours for good, so the repetition ends; a dome on
    any space of the board, or a block, would leave the turns past counting."""
    assert check("Your Turn:\n  one of your workers moves.\n"
                 "  each of your workers may build a dome at any level any number of times.") == []
    assert check("Your Turn:\n  one of your workers moves.\n"
                 "  that worker may build a dome at any level any number of times.") == []
    for build in ("a dome at any level on any unoccupied space", "a block"):
        [message] = check(f"Your Turn:\n  one of your workers moves.\n"
                          f"  that worker may build {build} any number of times.")
        assert "a build repeated 'any number of times' has no bound" in message


def test_each_of_your_workers_may_take_a_step_or_leave_it_out() -> None:
    assert check("Your Turn:\n  one of your workers moves.\n  each of your workers may build.") == []


def test_a_repeated_step_is_taken_by_any_worker_or_by_the_same_one() -> None:
    """'your workers' choose anew at each repetition, 'that worker' keeps the one that moved; a
    chosen worker would be chosen once, and then it is not a repetition by 'any' worker."""
    assert check("Your Turn:\n  one of your workers moves.\n  that worker may move any number of times.\n"
                 "  that worker builds.") == []
    [message] = check("Your Turn:\n  one of your workers may move any number of times.\n  one of your workers builds.")
    assert "taken by 'your workers' (any of them each time), 'each of your workers' (each as often as it " \
           "likes) or by 'that worker'" in message


def test_a_turn_found_by_its_steps_may_be_once_per_game() -> None:
    assert check("Your Turn (once per game):\n  one of your workers moves.\n  that worker moves.\n"
                 "  that worker builds.") == []
    [message] = check("Opponent's Turn (once per game):\n  opponent workers cannot move up.")
    assert "'(once per game)' limits a step option, a turn, an alternative turn, an end-of-turn step or a step " \
           "before the turn" in message


@pytest.mark.parametrize("text", [
    "End of Your Turn (once per game):\n  the moved worker may build a dome at any level on any unoccupied space up "
    "to two times.",
    "End of Your Turn:\n  one of your workers may remove a neighboring opponent worker standing at least 1 level "
    "lower.",
    "Your Move:\n  after your worker moves, it may force an opponent worker neighboring the space it just vacated into "
    "the space it just vacated.",
    "Your Move:\n  after your worker moves, if possible, it forces one of your other workers into the space it just "
    "vacated.",
    "End of Your Turn:\n  if possible, one of your workers removes a neighboring opponent worker.",
    "Your Turn (instead):\n  each of your workers moves.\n  each of your workers builds.",
    "Setup:\n  one of your workers is female.\nAt All Times:\n  all workers except your female worker cannot move "
    "orthogonally.",
    "At All Times:\n  all workers cannot build diagonally.",
    "Your Move:\n  after your worker moves, it may move one additional time, not diagonally.",
    "Your Move:\n  your worker moves to a neighboring space across the edges of the board instead.\nYour Build:\n"
    "  your worker builds on a neighboring space across the edges of the board instead.",
    "Your Move:\n  your worker may move to an unoccupied neighboring space across the edges of the board.",
    "End of Your Turn (once per game):\n  one of your workers may remove all blocks from a neighboring space "
    "occupied by a worker.",
])
def test_once_per_game_end_steps_worker_removals_and_the_space_a_move_left_are_said_so(text: str) -> None:
    assert check(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("End of Your Turn (once per game):\n  the moved worker must build.",
     "a once-per-game step is the player's to use when they choose: write 'may'"),
    ("End of Your Turn (once per game):\n  if 2 of your workers neighbor an opponent worker on opposite sides, that "
     "opponent loses the game.", "what happens with no choice cannot be once per game"),
    ("End of Your Turn:\n  one of your workers may remove a neighboring opponent worker from a perimeter space.",
     "a worker removed leaves the game from where it stands"),
    ("Your Turn:\n  one of your workers forces a neighboring opponent worker standing exactly 2 levels higher to the "
     "space on the other side of it.\n  that worker moves.\n  that worker builds.",
     "on a force is not in the language yet"),
    # (a force that no move comes before: 'the space it just vacated' would name no space)
    ("Your Move:\n  before your worker moves, it may force an opponent worker neighboring the space it just vacated "
     "into the space it just vacated.", "the force follows a move"),
    ("Your Turn:\n  one of your workers forces an opponent worker neighboring the space it just vacated into the "
     "space it just vacated.\n  that worker moves.\n  that worker builds.", "the force follows a move"),
    # (a prohibition of all workers is for all times; the worker spared is the holder's female one)
    ("Opponent's Turn:\n  all workers cannot move orthogonally.", "in 'At All Times:' 'all workers'"),
    ("At All Times:\n  all workers except opponent workers cannot move up.",
     "the worker spared is 'your female worker', for now"),
    ("At All Times:\n  all workers except your female worker cannot win by moving up.",
     "names the workers a prohibition binds, for now"),
    ("End of Your Turn:\n  one of your workers may remove a neighboring opponent worker, diagonally.",
     "does not apply to a remove"),
    # (across the edges of the board is where a move or a build goes)
    ("Opponent's Turn:\n  opponent workers cannot move to a neighboring space across the edges of the board.",
     "says where a move or a build goes: right after its verb"),
    ("End of Your Turn:\n  your unmoved worker may remove a block from an unoccupied neighboring space across the "
     "edges of the board.", "is where a move or a build goes, not a remove"),
    ("Setup:\n  you have 1 extra worker on your card.\nEnd of Your Turn:\n  you may place your extra worker on a "
     "neighboring space across the edges of the board.", "is where a move or a build goes, not a place"),
    # ('all blocks' is what a removal takes, in one removal)
    ("Your Build:\n  your worker may build all blocks.", "'all blocks' is what a removal takes"),
    ("End of Your Turn:\n  one of your workers may remove all blocks from a neighboring space occupied by a worker "
     "up to 2 times.", "'all blocks' are taken in one removal: it does not repeat"),
    # ('(instead)' is a turn's, in place of the standard one)
    ("Your Move (instead):\n  your worker may move up any number of levels.", "write 'Your Turn (instead):'"),
    ("Alternative Turn (optional) (instead):\n  each of your workers moves.", "write 'Your Turn (instead):'"),
    ("Your Tern (instead):\n  each of your workers moves.",
     "unknown section 'your tern:' (did you mean 'your turn:'?)"),
    # ('if possible' binds a step on another worker where one can be taken)
    ("Your Move:\n  after your worker moves, if possible, it builds.",
     "'if possible' is for one step on another worker"),
    ("End of Your Turn:\n  if possible, one of your workers removes a neighboring opponent worker up to 2 times.",
     "'if possible' is one step taken when it can be: it does not repeat"),
    ("Your Move:\n  after your worker moves, it may force one of your other workers to the space on the other side "
     "of it.", "such a worker is forced into 'the space it just vacated'"),
])
def test_what_the_new_parts_cannot_mean_is_refused(text: str, expected: str) -> None:
    [message] = check(text)
    assert expected in message


def test_rule_numbers_are_short() -> None:
    with pytest.raises(ParseError, match="a number of 5000 digits: the rules' numbers have at most 6"):
        parse_rules("Setup:\n  you place " + "9" * 5000 + " workers.", ORIGIN)


def test_a_win_may_depend_on_the_number_of_players() -> None:
    text = ("Win Condition:\n  in a game of 3 players, you also win if your worker moves into a space neighboring "
            "your workers standing on its level.")
    rules = parse_rules(text, ORIGIN)
    assert check_rules(rules, ORIGIN, "god") == []
    [win] = compile_rules(rules, ORIGIN, "X").wins
    assert win.when.counts == (3,) and win.pattern.filters[0].same_level
    [message] = check("Your Turn:\n  in a game of 3 players, one of your workers moves.\n  the moved worker builds.")
    assert "a turn's first step is not guarded" in message
    assert check("Your Move:\n  in a game of 3 players, your worker may move into an opponent worker's space "
                 "by forcing that worker to the space yours just vacated.") == []
    [message] = check("Win Condition:\n  in a game of 1 or 3 players, you also win if your worker moves down two or "
                      "more levels.")
    assert "a game has 2 to 8 players" in message


@pytest.mark.parametrize(("kind", "text", "expected"), [
    ("god", "At All Times:\n  a worker moves to an unoccupied neighboring space, up at most 2 levels.",
     "a board rule belongs to the base card, not on a god card"),
    ("god", "Setup:\n  each player places 3 workers.",
     "'each player places N workers' is a mode's setup; a card speaks"),
    ("god", "Setup:\n  players across the table are teammates.", "is a mode's setup; a card speaks of its holder"),
    ("mode", "Setup:\n  the first player of each team places 2 workers.", "speaks of teams, but the mode has none"),
    ("mode", "Setup:\n  the second player of each team takes the first turn.\n  each player places 2 workers.",
     "speaks of teams, but the mode has none"),
    ("mode", "Setup:\n  players across the table are teammates.\n  each player places 2 workers.",
     "teammates share their workers: say which player of each team places them"),
    ("mode", "Setup:\n  players across the table are teammates.\n  players beside each other are teammates.\n"
             "  the first player of each team places 2 workers.", "a mode says 'players ... are teammates' once"),
    ("mode", "Setup:\n  you place 3 workers.", "a mode's setup says 'each player places N workers'"),
    ("mode", "Your Move:\n  your worker may move into an opponent worker's space by forcing that worker "
             "to the space yours just vacated.", "a mode's rules are its 'Setup:'"),
    ("god", "Loss Condition:\n  you lose if you cannot complete a turn.", "losing when stuck is a base rule"),
])
def test_sentences_that_would_have_no_effect_are_refused(kind: str, text: str, expected: str) -> None:
    messages = check(text, kind=kind)
    assert any(expected in m for m in messages), messages


def test_one_is_a_number_where_a_number_is_expected() -> None:
    rules = parse_rules("Win Condition:\n  you also win if your worker moves down one or more levels.", ORIGIN)
    [qualifier] = rules.sections[0].statements[0].clause.pattern.qualifiers
    assert qualifier.part == LevelChange(Compare.LE, -1)


def test_a_typographic_apostrophe_in_a_header() -> None:
    rules = parse_rules("Opponent\u2019s Turn:\n  opponent workers cannot move up.", ORIGIN)
    assert rules.sections[0].header == "opponent's turn"


def test_not_up_and_not_up_or_down_together() -> None:
    messages = check("Your Turn:\n  one of your workers moves, not up, not up or down.\n  that worker builds.")
    assert any("already says 'not up'" in m for m in messages)


@pytest.mark.parametrize(("word", "part"), [("roll", "the die"), ("steal", "powers that move between players"),
                                            ("frozen", "frozen spaces")])
def test_a_rulebook_word_the_language_lacks_names_the_missing_part(word: str, part: str) -> None:
    err = parse_error(f"End of Your Turn:\n  you may {word} the die.")
    assert f"'{word}' names {part}" in err.message and "does not have yet" in err.message


def test_a_card_names_its_own_kind_of_token() -> None:
    """The word before 'token' is the kind's name: any word, not a closed list."""
    text = ("End of Your Turn:\n  you may place your ward token on an unoccupied space neighboring the moved worker.\n"
            "At All Times:\n  all workers treat the space with your ward token as if it contains only a dome.")
    assert check(text) == []
    power = compile_rules(parse_rules(text, ORIGIN), ORIGIN, "Warden")
    assert [d.token for d in power.dome_likes] == [TokenKind("ward")]


def test_a_misspelt_word_still_gets_a_suggestion_not_a_planned_part() -> None:
    err = parse_error("Your Move:\n  your worker may move into an opponent worker's spcae.")
    assert "unknown word 'spcae' (did you mean 'space'?)" in err.message


@pytest.mark.parametrize(("rules", "expected"), [
    ("Start of Your Turn (once per game):\n  your workers may force a neighboring opponent worker to any unoccupied "
     "corner space any number of times.", None),
    ("Start of Your Turn:\n  one of your workers may force a neighboring opponent worker to the space on the other "
     "side of it.", None),
    ("Start of Your Turn:\n  one of your workers may move.", "a start-of-turn step acts on another worker"),
    ("Start of Your Turn:\n  one of your workers must remove a neighboring opponent worker.",
     "a start-of-turn step is the player's to take: write 'may'"),
    ("Start of Your Turn:\n  your workers may force a neighboring opponent worker to any unoccupied corner space.",
     "a start-of-turn step is taken by 'one of your workers', or by 'your workers' with 'any number of times'"),
    ("Start of Your Turn (once per game):\n  you gain 1 coin.", "a gain happens at the start of every turn"),
    ("Start of Your Turn:\n  one of your workers may force a neighboring opponent worker to an unoccupied corner "
     "space.", "or to any space of a kind ('to any unoccupied corner space')"),
])
def test_a_step_before_the_turn_is_a_force_or_a_removal_the_player_may_take(rules: str, expected: str | None) -> None:
    """Odysseus's forces before his move: steps on other workers, the player's to take; a force
    goes to any unoccupied space of a kind ('any'), not to a kind of space around a worker."""
    assert_one_fault_or_none(rules, expected)


_SWAP = "your workers may swap spaces with that opponent's workers."


@pytest.mark.parametrize(("rules", "expected"), [
    (f"End of Your Turn:\n  if none of an opponent's workers neighbor yours, {_SWAP}", None),
    ("End of Your Turn:\n  your workers must swap spaces with an opponent's workers.", None),
    ("End of Your Turn:\n  if none of your workers neighbor each other, the moved worker may build.", None),
    (f"End of Your Turn:\n  {_SWAP}", "'that opponent' needs an opponent named before"),
    (f"End of Your Turn:\n  if none of your workers neighbor each other, {_SWAP}",
     "'that opponent' needs an opponent named before"),
    ("End of Your Turn:\n  if none of an opponent's workers neighbor yours, your workers may swap spaces with an "
     "opponent's workers.", "the condition names the opponent: write 'that opponent's workers'"),
    ("End of Your Turn:\n  one of your workers may swap spaces with an opponent's workers.",
     "a swap is taken by 'your workers'"),
    ("Your Turn:\n  one of your workers moves.\n  your workers may swap spaces with an opponent's workers.",
     "a swap is, for now, a step at the end of your turn"),
    ("Your Move:\n  after your worker moves, your workers may swap spaces with an opponent's workers.",
     "a swap is, for now, a step at the end of your turn"),
    ("Start of Your Turn:\n  your workers may swap spaces with an opponent's workers.",
     "a swap is, for now, a step at the end of your turn"),
    ("End of Your Turn:\n  if none of your workers neighbor yours, the moved worker may build.",
     "write 'none of your workers neighbor each other'"),
    ("Win Condition:\n  you also win if none of your workers neighbor each other.",
     "a win on where workers stand is not in the language yet"),
    ("Your Move:\n  if none of your workers neighbor each other, your worker may move up any number of levels.",
     "is guarded by what happened this turn or on your last turn"),
])
def test_a_swap_and_workers_standing_apart(rules: str, expected: str | None) -> None:
    """Nemesis's swap: every worker of the player with one of a single opponent's, at the end of the
    turn, with 'that opponent' named by a condition on workers standing apart."""
    assert_one_fault_or_none(rules, expected)


def test_a_swap_is_one_step_of_every_worker_under_a_condition_on_workers_apart() -> None:
    text = f"End of Your Turn:\n  if none of an opponent's workers neighbor yours, {_SWAP}"
    power = compile_rules(parse_rules(text, ORIGIN), ORIGIN, "Swapper")
    (step,) = power.turn_ends
    assert step.verb is Verb.SWAP and step.actor == WorkerSelector(Role.EVERY) and step.modality is Modality.MAY
    assert step.target == WorkerSelector(Role.TEAM, Owner.OPPONENTS)
    assert step.guard == Apart(Owner.OPPONENTS, Owner.YOURS)
    text = "End of Your Turn:\n  if none of your workers neighbor each other, the moved worker may build."
    assert compile_rules(parse_rules(text, ORIGIN), ORIGIN, "Loner").turn_ends[0].guard == Apart(Owner.YOURS, None)


_GROW = ("if none of your workers neighbor each other, if possible, you place your extra worker on a lowest "
         "unoccupied space neighboring the moved worker.")


@pytest.mark.parametrize(("rules", "expected"), [
    (f"Setup:\n  you have 8 extra workers on your card.\nEnd of Your Turn:\n  {_GROW}\n  otherwise, you must return "
     "one of your workers to your card.", None),
    ("Setup:\n  you have 9 extra workers on your card.", "a card holds 1 to 8 extra workers, not 9"),
    ("End of Your Turn:\n  otherwise, you must return one of your workers to your card.",
     "the sentence before must be a step under a condition"),
    ("End of Your Turn:\n  the moved worker may build.\n  otherwise, you must return one of your workers to your card.",
     "the sentence before must be a step under a condition"),
    ("End of Your Turn:\n  if none of an opponent's workers neighbor yours, your workers may swap spaces with that "
     "opponent's workers.\n  otherwise, the moved worker may build.",
     "the sentence before must be a step under a condition"),
    ("Your Turn:\n  one of your workers moves.\n  if your worker moved up this turn, that worker builds.\n  otherwise, "
     "that worker builds, not a dome.", "'otherwise' follows a guarded step at the end of your turn"),
    ("Your Turn:\n  one of your workers moves.\n  that worker builds.\n  you must return one of your workers to your "
     "card.", "returning a worker to your card is, for now, a step at the end of your turn"),
    ("Your Turn:\n  one of your workers moves.\n  that worker builds on a lowest neighboring space.",
     "'lowest' chooses among the spaces where a worker from your card is placed"),
    ("End of Your Turn:\n  you may place your talus token on a lowest unoccupied space neighboring the moved worker.",
     "'lowest' chooses among the spaces where a worker from your card is placed"),
    ("Setup:\n  you have 1 extra worker on your card.\nAlternative Turn (optional):\n  you place your extra worker on "
     "an unoccupied space neighboring the moved worker.\n  that worker must move.\n  that worker must build.",
     "'the moved worker' needs an earlier move step"),
])
def test_a_worker_gained_or_given_back_and_otherwise(rules: str, expected: str | None) -> None:
    """Hydra's parts: a worker from the card placed 'if possible' on a lowest space next to the moved
    worker, 'otherwise' (where the guard before fails) a worker returned to the card."""
    assert_one_fault_or_none(rules, expected)


def test_otherwise_is_the_step_taken_where_the_guard_before_fails() -> None:
    text = f"End of Your Turn:\n  {_GROW}\n  otherwise, you must return one of your workers to your card."
    (step,) = compile_rules(parse_rules(text, ORIGIN), ORIGIN, "Grower").turn_ends
    assert step.verb is Verb.PLACE and step.modality is Modality.IF_POSSIBLE and step.guard == Apart(Owner.YOURS)
    assert step.destination is not None and step.destination.lowest
    assert BesideWorker(WorkerSelector(Role.MOVED)) in step.destination.filters
    other = step.otherwise
    assert other is not None and other.verb is Verb.REMOVE and other.effects == (ToCard(),)
    assert other.target == WorkerSelector(Role.SUBJECT) and other.modality is Modality.MUST


def assert_one_fault_or_none(rules: str, expected: str | None) -> None:
    """The check finds nothing (`expected` None), or one fault whose message holds `expected`."""
    found = check(rules)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0], found


_SIREN = ("Alternative Turn (optional):\n  you force one or more opponent workers one space south.\n  one of your "
          "workers builds.")


@pytest.mark.parametrize(("rules", "expected"), [
    (_SIREN, None),
    ("Alternative Turn (optional):\n  you may force one or more opponent workers one space northwest.\n  one of "
     "your workers moves.\n  that worker builds.", None),
    ("End of Your Turn:\n  you may force one or more opponent workers one space south.",
     "a force by you (no worker of yours acting) is, for now, a step of a turn"),
    ("Your Move:\n  your worker may move into an opponent worker's space, forcing that worker one space south.",
     "'one space south' is where a force by you goes"),
    ("Alternative Turn (optional):\n  you force one or more opponent workers to the space on the other side of "
     "it.\n  one of your workers builds.", "a force by you goes one space in a direction of the compass"),
])
def test_forces_by_the_player_in_a_direction_of_the_compass(rules: str, expected: str | None) -> None:
    """Siren's forces: the player forces one or more opponent workers one space in a direction,
    with no worker of theirs acting, as a step of a turn."""
    assert_one_fault_or_none(rules, expected)


def test_a_force_by_the_player_is_each_of_the_opponent_workers_once_in_a_direction() -> None:
    program = compile_rules(parse_rules(_SIREN, ORIGIN), ORIGIN, "Singer").programs[0]
    step = program.steps[0]
    assert step.verb is Verb.FORCE and step.actor.role is Role.HOLDER and step.modality is Modality.MUST
    assert step.target == WorkerSelector(Role.EVERY, Owner.OPPONENTS)
    assert step.destination is not None and step.destination.compass is Compass.SOUTH


_ERIS = ("Alternative Turn (optional):\n  one of an opponent's workers except the worker its player moved last "
         "moves.\n  that worker builds.")


@pytest.mark.parametrize(("rules", "expected"), [
    (_ERIS, None),
    ("Alternative Turn (optional):\n  one of an opponent's workers moves.\n  that worker builds.", None),
    ("Alternative Turn (optional):\n  one of your workers moves.\n  one of an opponent's workers builds.",
     "chooses the worker a turn is taken with: the turn's first step"),
    ("End of Your Turn:\n  one of an opponent's workers may remove a neighboring opponent worker.",
     "an end-of-turn step is taken by 'your unmoved worker', 'the moved worker', 'one of your workers' or 'it', "
     "not 'one of an opponent's workers'"),
    ("Opponent's Turn:\n  the worker its player moved last cannot move up.",
     "a prohibition binds 'opponent workers'"),
    ("End of Your Turn:\n  if the worker its player moved last moved up this turn, the moved worker may build.",
     "names workers a step leaves out: write it after 'except'"),
])
def test_a_turn_taken_with_an_opponent_worker(rules: str, expected: str | None) -> None:
    """Eris's turn: the first step chooses one of an opponent's workers, leaving out the one its
    player moved last, and the later steps are that worker's."""
    assert_one_fault_or_none(rules, expected)


def test_an_opponent_worker_chosen_except_the_one_its_player_moved_last() -> None:
    program = compile_rules(parse_rules(_ERIS, ORIGIN), ORIGIN, "Discord").programs[0]
    actor = program.steps[0].actor
    assert actor == WorkerSelector(Role.CHOSEN, Owner.OPPONENTS,
                                   excluding=WorkerSelector(Role.LAST_MOVED, Owner.ANYONES))
    assert program.steps[1].actor.role is Role.THAT


_DIONYSUS = ("Your Build:\n  each time a worker builds a complete tower, you may take an additional turn.\n"
             "Additional Turn:\n  one of an opponent's workers moves.\n  that worker builds.\n"
             "  no player can win during this turn.")


@pytest.mark.parametrize(("rules", "expected"), [
    (_DIONYSUS, None),
    ("End of Your Turn:\n  if one of your workers moved up this turn, you may take an additional turn.", None),
    ("Additional Turn:\n  one of your workers moves.\n  that worker builds.",
     "'Additional Turn:' is the turn taken when the card gives one"),
    ("Your Build:\n  after your worker builds, you may take an additional turn.\nAdditional Turn:\n"
     "  no player can win during this turn.", "a turn needs steps"),
    ("Your Build:\n  after your worker builds, you may take an additional turn.\nAdditional Turn:\n"
     "  one of your workers moves.\n  no player can win during this turn.\n  that worker builds.\n"
     "  no player can win during this turn.", "is said once in a turn"),
    ("Your Move:\n  no player can win during this turn.", "cannot stand in 'your move:'"),
    ("Your Build:\n  each time an opponent worker builds a complete tower, you may take an additional turn.",
     "is about 'your worker' or 'a worker'"),
])
def test_additional_turns(rules: str, expected: str | None) -> None:
    """Dionysus's parts: a happening that owes the player an additional turn, the section that
    says what that turn is, and a turn in which no one wins."""
    assert_one_fault_or_none(rules, expected)


def test_an_additional_turn_compiles_to_an_owed_turn_and_its_program() -> None:
    power = compile_rules(parse_rules(_DIONYSUS, ORIGIN), ORIGIN, "Dionysus")
    (followup,) = power.followups
    assert followup.step.verb is Verb.GRANT_TURN and followup.step.modality is Modality.AUTOMATIC
    # ('each time' has no steps of its own to repeat: the happening follows each matching build once)
    assert followup.timing is FollowUpTiming.AFTER
    assert followup.trigger.owner is Owner.ANYONES
    assert set(followup.trigger.filters) == {PieceIs(Piece.DOME), TargetLevel(Compare.EQ, 3)}
    (program,) = power.programs
    assert program.additional and program.winless and not program.announced
    assert [step.verb for step in program.steps] == [Verb.MOVE, Verb.BUILD]


def test_a_complete_tower_is_a_trigger_s_piece_not_a_step_s() -> None:
    error = parse_error("Your Turn:\n  one of your workers moves.\n  that worker builds a complete tower.")
    assert "complete" in str(error)


_AEOLUS = ("End of Your Turn:\n  if your wind token points nowhere, you may point your wind token in any direction.\n"
           "  otherwise, you may point your wind token nowhere.\nAt All Times:\n"
           "  all workers cannot move against the direction of your wind token.")


@pytest.mark.parametrize(("rules", "expected"), [
    (_AEOLUS, None),
    ("At All Times:\n  all workers cannot move against the direction of your wind token.",
     "no step of this card points your wind token"),
    ("End of Your Turn:\n  if your ward token points nowhere, the moved worker may build.",
     "no step of this card points your ward token"),
    ("End of Your Turn:\n  you point your wind token in any direction.", "say whether pointing the token is a choice"),
    ("Your Turn:\n  one of your workers moves.\n  that worker builds.\n  you may point your wind token nowhere.",
     "pointing a token of your card is, for now, a step at the end of your turn"),
    ("End of Your Turn:\n  you may point your wind token in any direction.\nOpponent's Turn:\n"
     "  opponent workers cannot build against the direction of your wind token.",
     "is about the direction a move goes; it does not apply to a build"),
    ("End of Your Turn:\n  you may point your wind token in any direction.\nYour Move:\n"
     "  if your wind token points nowhere, your worker may move up at most 2 levels.",
     "is guarded by what happened this turn"),
    ("End of Your Turn:\n  you may point your wind token in any direction.\nWin Condition:\n"
     "  you also win if your wind token points nowhere.", "a win on where a token points is not in the language yet"),
])
def test_a_token_that_points(rules: str, expected: str | None) -> None:
    """Aeolus's parts: a token of the card pointed in a direction (or nowhere) at the end of the
    turn, a guard on where it points, and moves against its direction."""
    assert_one_fault_or_none(rules, expected)


def test_a_pointed_token_compiles_to_a_step_a_guard_and_a_filter() -> None:
    power = compile_rules(parse_rules(_AEOLUS, ORIGIN), ORIGIN, "Aeolus")
    (step,) = power.turn_ends
    wind = TokenKind("wind")
    assert step.verb is Verb.POINT and step.token == wind and step.heading is Heading.ANY
    assert step.guard == TokenPoints(wind, Heading.NOWHERE) and step.modality is Modality.MAY
    assert step.otherwise is not None and step.otherwise.heading is Heading.NOWHERE
    (prohibition,) = power.prohibitions
    assert prohibition.binds is Owner.ANYONES and prohibition.verb is Verb.MOVE
    assert prohibition.filters == (Against(wind),)
