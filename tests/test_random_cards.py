"""The random card generator (random_cards.py) itself: its cards pass `santorini check`, most of
what its grammar writes passes without a second draw, and over 300 draws its cards reach every
section a power may hold, every kind of sentence, every binding on opponents and every typed part
that the shipped cards use. The expected sets are read from the checker's tables and from the
packs, so a section or part added to the language fails here until the generator writes it."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import random_cards
from hypothesis import given, settings
from random_cards import RandomChooser, card_text, cards, checked, draw_rules, load, random_card, reached, usable

from santorini.dsl.semantics.checker import ALLOWED, BASE_ONLY, BOARD_RULE, ONCE_ABLE, sentence_kind
from santorini.dsl.syntax.parser import Origin, parse_rules
from santorini.dsl.vocabulary import Owner, Timing
from santorini.interpreter.games.packs import load_pack, pack_names
from santorini.interpreter.games.validate import check_file
from support import REPO

DRAWS = 300


@cache
def drawn() -> tuple[str, ...]:
    """300 cards from one seeded generator (shared by the tests below)."""
    rng = random.Random(19)
    return tuple(random_card(rng) for _ in range(DRAWS))


def rules_of(text: str) -> str:
    return load(text).rules


def test_every_card_drawn_passes_santorini_check(tmp_path: Path) -> None:
    """What `santorini check FILE` runs on a card file finds no fault in any of them."""
    for index, text in enumerate(drawn()):
        path = tmp_path / f"card{index}.yaml"
        path.write_text(text, encoding="utf-8")
        assert check_file(path) == [], text


def test_most_of_what_the_grammar_writes_passes_the_check() -> None:
    """The grammar follows the checker closely: at least 80% of its raw draws are clean (about
    96% when this was written), so a draw is rarely thrown away."""
    chooser = RandomChooser(random.Random(5))
    texts = [card_text(draw_rules(chooser)) for _ in range(DRAWS)]
    clean = sum(checked(text)[0] is not None for text in texts)
    assert clean >= 0.8 * DRAWS, clean


def test_the_cards_reach_every_section_a_power_may_hold() -> None:
    sections = {timing.value for timing in ALLOWED if timing not in BASE_ONLY and timing is not Timing.ALTERNATIVE_TURN}
    sections |= {f"{timing.value} (once per game)" for timing in ONCE_ABLE
                 if timing is not Timing.ALTERNATIVE_TURN_OPTIONAL}
    seen = {header.lower() for text in drawn()
            for header in re.findall(r"^\s*([A-Za-z' ()]+):\s*$", rules_of(text), re.MULTILINE)}
    assert sections <= seen, sections - seen


def test_the_cards_reach_every_kind_of_sentence_a_power_may_write() -> None:
    kinds = {kind for timing, allowed in ALLOWED.items() if timing not in BASE_ONLY for kind in allowed} - {BOARD_RULE}
    seen = set()
    for text in drawn():
        for section in parse_rules(rules_of(text), Origin("card.yaml")).sections:
            seen |= {sentence_kind(section.timing, statement.clause) for statement in section.statements}
    assert kinds <= seen, kinds - seen


def test_the_cards_reach_every_binding_on_opponents() -> None:
    """Prohibitions (guarded or not), win vetoes, obligations (if possible or not), reactions, and
    tokens treated as domes by opponents and by all workers, as the compiled cards have them."""
    powers = [load(text).power for text in drawn()]
    bindings = {
        "prohibition": any(p.prohibitions for p in powers),
        "guarded prohibition": any(b.when is not None for p in powers for b in p.prohibitions),
        "prohibition of all workers": any(b.binds is Owner.ANYONES for p in powers for b in p.prohibitions),
        "win veto": any(p.vetoes for p in powers),
        "obligation if possible": any(o.if_possible for p in powers for o in p.obligations),
        "binding obligation": any(not o.if_possible for p in powers for o in p.obligations),
        "reaction": any(p.reactions for p in powers),
        "tokens as domes to opponents": any(d.binds is Owner.OPPONENTS for p in powers for d in p.dome_likes),
        "tokens as domes to all": any(d.binds is Owner.ANYONES for p in powers for d in p.dome_likes),
    }
    assert all(bindings.values()), [kind for kind, seen in bindings.items() if not seen]


def test_the_cards_reach_every_part_the_shipped_cards_use() -> None:
    """Every typed part and kind of dsl/vocabulary in a shipped card's compiled power (and the
    modifiers: instead, once per game, cannot win, costs, guards) is in some random card."""
    shipped = {part for pack in pack_names() for card in load_pack(pack).cards.values() for part in reached(card.power)}
    seen = {part for text in drawn() for part in reached(load(text).power)}
    assert shipped <= seen, sorted(shipped - seen)
    assert {"StepOption.instead", "StepOption.once_per_game", "Program.once_per_game", "Step.cannot win",
            "Step.cost", "Step.guard", "Prohibition.when", "Repeat", "FollowUpTiming.BEFORE"} <= seen


@settings(max_examples=15, deadline=None)
@given(text=cards())
def test_the_strategy_draws_cards_that_pass_the_check(text: str) -> None:
    card, errors = checked(text)
    assert card is not None and not errors and usable(text)


def test_the_same_generator_state_gives_the_same_card() -> None:
    assert random_card(random.Random(3)) == random_card(random.Random(3))
    assert len({random_card(random.Random(seed)) for seed in range(10)}) == 10


def test_a_card_past_the_bound_is_skipped() -> None:
    """Three steps each repeated up to three times: check-clean, and past the bound; Demeter is
    within it."""
    repeated = card_text("Your Turn:\n  one of your workers may build up to 3 times.\n"
                         "  that worker may move up to 3 times.\n  that worker may build up to 3 times.")
    demeter = card_text("Your Build:\n  after your worker builds, it may build one additional time, "
                        "not on the same space.")
    assert checked(repeated)[0] is not None and not usable(repeated)
    assert usable(demeter)
    assert random_cards.NODE_BUDGET > 1000


def test_the_examples_of_the_docs_are_within_reach() -> None:
    """The invented gods of tests/invented (written by hand from the same parts) pass the same
    check and bound: the bound does not throw away cards of the kind authors write."""
    for path in sorted((REPO / "tests" / "invented" / "inventions").glob("*.yaml")):
        if path.name != "pack.yaml":
            text = path.read_text(encoding="utf-8")
            assert usable(text), path.name
