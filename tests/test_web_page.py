"""The playground's page in a real browser: headless Chromium (Debian's chromium and
chromium-driver), driven by Selenium against the server on a free port of this machine.

A person plays by clicks only, as a player would: a worker, then a square (a button where one
square offers two steps, e.g. a block or a dome). The tests read what the page shows (the status
line, the message, the turns told, the board's picture), never the server's state. Screenshots
of the main screens go to docs/images/, so that the guide shows the page as it is.

Without Chromium these tests are skipped, except in CI (`CI` set), where .ci/run installs it and
a missing browser is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()) and not os.environ.get("CI"):
    pytest.skip("Chromium and chromedriver are not installed (Debian: chromium, chromium-driver)",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from waitress.server import create_server  # noqa: E402

from santorini.web.app import create_app  # noqa: E402

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "images"
#: How long a step of the page may take before a test gives up (a bound, not a measurement).
PATIENCE = 60.0


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    server = create_server(create_app(), host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}/"
    server.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1200,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def wait_for(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"the page did not show {what}")
        time.sleep(0.05)


def settle(page: WebDriver) -> None:
    """Wait until the page has no request under way and no agent to wait for."""
    wait_for(lambda: page.execute_script(
        "const p = window.playground; return p && p.busy === 0 && p.polling === null"
        " && !(p.game && p.game.thinking) && !(p.writing && p.writing.timer);"), "an answer from the server")


def start(page: WebDriver, address: str, seats: list[tuple[str, str]], seed: int = 1, pack: str = "bga") -> None:
    """Fill the new-game form (cards and who plays each seat) and start."""
    page.get(address)
    wait_for(lambda: page.find_elements(By.CSS_SELECTOR, "#pack option"), "the packs")
    Select(page.find_element(By.ID, "pack")).select_by_value(pack)
    Select(page.find_element(By.ID, "seat-count")).select_by_value(str(len(seats)))
    for letter, (card, player) in zip("ABCD", seats, strict=False):
        field = page.find_element(By.ID, f"card-{letter}")
        field.clear()
        field.send_keys(card)
        Select(page.find_element(By.ID, f"player-{letter}")).select_by_value(player)
    seed_field = page.find_element(By.ID, "seed")
    seed_field.clear()
    seed_field.send_keys(str(seed))
    page.find_element(By.ID, "start").click()
    wait_for(lambda: page.find_element(By.ID, "table").is_displayed(), "the board")
    settle(page)


def click_square(page: WebDriver, square: str) -> None:
    """Click the middle of a square of the board, whatever is drawn on it."""
    rect = page.find_element(By.CSS_SELECTOR, f"#board g.square.{square} rect")
    ActionChains(page).move_to_element(rect).click().perform()
    settle(page)


def status(page: WebDriver) -> str:
    return page.find_element(By.ID, "status").text


def message(page: WebDriver) -> str:
    box = page.find_element(By.ID, "message")
    return box.text if box.is_displayed() else ""


def told(page: WebDriver) -> list[str]:
    return [item.text.splitlines()[0] for item in page.find_elements(By.CSS_SELECTOR, "#told li")]


def worker_square(page: WebDriver, worker: str) -> str:
    """Where the board's picture draws a worker (its square is among its classes)."""
    classes = page.find_element(By.CSS_SELECTOR, f"#board g.worker.{worker}").get_attribute("class") or ""
    return next(name for name in classes.split() if re.fullmatch(r"[a-e][1-5]", name))


def offered(page: WebDriver) -> list[str]:
    return [button.text for button in page.find_elements(By.CSS_SELECTOR, "#options button.option")]


def play_by_clicks(page: WebDriver, step: str) -> None:
    """Take one offered step by clicks: the worker's square, then the step's square (and the
    button of the step where that square offers more than one)."""
    verb, worker, square = step.split()
    if len({option.split()[1] for option in offered(page)}) > 1:
        click_square(page, worker_square(page, worker))
    click_square(page, square)
    choice = page.find_element(By.ID, "choice")
    if choice.is_displayed():
        next(button for button in choice.find_elements(By.TAG_NAME, "button") if button.text == step).click()
        settle(page)


def place(page: WebDriver, *squares: str) -> None:
    for square in squares:
        click_square(page, square)


def test_a_whole_game_played_by_clicks_to_a_win(browser: WebDriver, address: str) -> None:
    """Seat A (a person, by clicks) against a random agent, from the placement to a win. Each
    turn the person takes the first step offered, by clicking its worker and its square."""
    start(browser, address, [("Mortal", "person"), ("Mortal", "random")], seed=3)
    assert status(browser) == "Seat A (Mortal): click 2 free squares to place A1, A2."
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "playground-placing.png"))
    place(browser, "b3", "d3")
    assert told(browser)[0] == "A: place A1 b3; place A2 d3"
    for turn in range(200):
        if "wins" in status(browser):
            break
        assert status(browser).startswith("Seat A (") and "to play" in status(browser), status(browser)
        before = len(told(browser))
        while len(told(browser)) == before and "wins" not in status(browser):
            play_by_clicks(browser, offered(browser)[0])
            if turn == 1 and len(told(browser)) == before:
                browser.save_screenshot(str(SHOTS / "playground-turn.png"))
        assert message(browser) == ""
    assert re.fullmatch(r"Seat [AB] wins\.", status(browser))
    assert any(line.startswith("A: move") for line in told(browser))
    assert any(line.startswith("B: move") for line in told(browser))


def test_a_secret_token_is_placed_by_a_click_and_the_other_page_never_shows_it(browser: WebDriver,
                                                                                address: str) -> None:
    """Tartarus played by a person places its workers, then its Abyss by one click; the board of
    a page where the person plays the other seat never draws it, nor tells where it went."""
    start(browser, address, [("Tartarus", "person"), ("Mortal", "random")], seed=3)
    place(browser, "a1", "e5")
    assert status(browser) == "Seat A (Tartarus): click 1 free squares to place token abyss."
    place(browser, "c3")
    assert told(browser)[-1] == "A: token abyss c3"
    assert browser.find_elements(By.CSS_SELECTOR, "#board .token")  # (its holder's page draws it)
    start(browser, address, [("Tartarus", "random"), ("Mortal", "person")], seed=3)
    place(browser, "b2", "d4")
    assert "A: a secret placement" in told(browser)
    board = browser.find_element(By.ID, "board").get_attribute("innerHTML") or ""
    assert "abyss" not in board.lower() and not browser.find_elements(By.CSS_SELECTOR, "#board .token")
    assert not any("abyss" in line for line in told(browser))


def test_a_refused_click_shows_its_reason(browser: WebDriver, address: str) -> None:
    start(browser, address, [("Mortal", "person"), ("Mortal", "person")])
    place(browser, "b3", "d3")
    place(browser, "c4", "c2")
    click_square(browser, "b3")  # (A1: its squares are ringed)
    click_square(browser, "e5")
    assert message(browser) == "'move A1 e5': e5 is not next to A1 (on b3)"
    click_square(browser, "c4")
    assert message(browser) == "'move A1 c4': c4 is occupied by B1"
    browser.save_screenshot(str(SHOTS / "playground-refused.png"))
    assert status(browser).startswith("Seat A (") and "to play" in status(browser)


def test_undo_takes_back_a_step_then_a_turn(browser: WebDriver, address: str) -> None:
    start(browser, address, [("Mortal", "person"), ("Mortal", "random")], seed=5)
    place(browser, "b3", "d3")
    click_square(browser, "b3")
    click_square(browser, "b4")
    assert "This turn so far: move A1 b4" in browser.find_element(By.ID, "steps").text
    browser.find_element(By.ID, "undo").click()
    settle(browser)
    assert browser.find_element(By.ID, "steps").text == ""
    assert worker_square(browser, "A1") == "b3"
    play_by_clicks(browser, "move A1 b4")
    play_by_clicks(browser, offered(browser)[0])
    assert told(browser)[2].startswith("A: move A1 b4; build A1")
    assert told(browser)[3].startswith("B: ")
    browser.find_element(By.ID, "undo").click()
    settle(browser)
    assert len(told(browser)) == 2  # (the agent's turn taken back with it)
    assert worker_square(browser, "A1") == "b3"
    assert status(browser) == "Seat A (Mortal) to play: click a worker, then a square."


def test_a_power_s_step_is_told_in_words(browser: WebDriver, address: str) -> None:
    """Apollo moves onto an opponent's worker and forces it to the square he left: the page says
    so as the step is taken."""
    start(browser, address, [("Apollo", "person"), ("Mortal", "person")])
    place(browser, "b3", "d3")
    place(browser, "c4", "c2")
    click_square(browser, "b3")
    click_square(browser, "c4")
    said = browser.find_element(By.ID, "options").text
    assert "B1 was forced from c4 to b3" in said
    assert worker_square(browser, "B1") == "b3"


def test_a_four_player_team_game_starts(browser: WebDriver, address: str) -> None:
    """Four seats in two teams (A with C, B with D): the person places team A's workers, an
    agent team B's, the seats C and D play their teams' workers, and the person is to play."""
    start(browser, address, [("Apollo", "person"), ("Athena", "random"), ("Pan", "random"), ("Atlas", "random")],
          seed=2)
    assert browser.find_element(By.ID, "mode").get_attribute("value") == "four-players"  # (the pack's for four)
    place(browser, "a1", "e5")
    lines = told(browser)
    assert lines[0] == "A: place A1 a1; place A2 e5"
    assert lines[1].startswith("B: place B1")
    # (C plays team A's workers, D team B's: their turns come before A's next one)
    assert lines[2].startswith("C: move A") and lines[3].startswith("D: move B")
    assert status(browser).startswith("Seat A (") and "to play" in status(browser)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board g.worker")) == 4
    browser.save_screenshot(str(SHOTS / "playground-four-players.png"))


def test_a_game_the_rules_refuse_to_start_says_why(browser: WebDriver, address: str) -> None:
    """The four-player mode gives every seat a power: the form says so and stays."""
    page = browser
    page.get(address)
    wait_for(lambda: page.find_elements(By.CSS_SELECTOR, "#pack option"), "the packs")
    Select(page.find_element(By.ID, "seat-count")).select_by_value("4")
    page.find_element(By.ID, "start").click()
    wait_for(lambda: message(page), "a message")
    assert "requires a power for every seat" in message(page)
    assert page.find_element(By.ID, "setup").is_displayed()


def test_a_record_is_stepped_through_forward_and_back(browser: WebDriver, address: str) -> None:
    """A record pasted in Watch: its pictures one by one, by the buttons and the arrow keys."""
    from selenium.webdriver.common.keys import Keys
    from test_web_api import RECORD
    browser.get(address)
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#pack option"), "the packs")
    browser.find_element(By.ID, "show-watch").click()
    browser.find_element(By.ID, "watch-text").send_keys(RECORD)
    browser.find_element(By.ID, "watch-show").click()
    settle(browser)

    def caption() -> str:
        return browser.find_element(By.ID, "watch-caption").text

    def a1() -> str:
        classes = browser.find_element(By.CSS_SELECTOR, "#watch-board g.worker.A1").get_attribute("class") or ""
        return classes.split()[-1]

    assert caption() == "after the setup" and a1() == "b3"
    assert browser.find_element(By.ID, "watch-count").text == "1 of 4"
    browser.find_element(By.ID, "watch-forward").click()
    assert caption() == "turn 1: A: move A1 b4; build A1 b5" and a1() == "b4"
    browser.find_element(By.ID, "watch-last").click()
    assert caption() == "turn 3: A: move A2 d4; build A2 d5"
    browser.find_element(By.ID, "watch-forward").click()  # (past the end: it stays)
    assert browser.find_element(By.ID, "watch-count").text == "4 of 4"
    browser.save_screenshot(str(SHOTS / "playground-watch.png"))
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert caption() == "turn 2: B: move B1 c5; build B1 c4"
    browser.find_element(By.ID, "watch-first").click()
    assert a1() == "b3"


def test_a_record_that_breaks_the_rules_says_where(browser: WebDriver, address: str) -> None:
    from test_web_api import RECORD
    browser.get(address)
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#pack option"), "the packs")
    browser.find_element(By.ID, "show-watch").click()
    browser.find_element(By.ID, "watch-text").send_keys(RECORD.replace("build B1 c4", "build B1 e5"))
    browser.find_element(By.ID, "watch-show").click()
    settle(browser)
    assert message(browser).startswith("pasted text:8:3: turn 2 'move B1 c5; build B1 e5'")


def open_author(page: WebDriver, address: str) -> None:
    page.get(address)
    wait_for(lambda: page.find_elements(By.CSS_SELECTOR, "#pack option"), "the packs")
    page.find_element(By.ID, "show-author").click()
    wait_for(lambda: page.find_element(By.ID, "card-state").text, "the card checked")
    settle(page)


def retype(page: WebDriver, field: str, old: str, new: str) -> None:
    """Select `old` in a text field, as a person would with the mouse, and type `new` over it."""
    page.execute_script(
        "const area = document.getElementById(arguments[0]); const at = area.value.indexOf(arguments[1]);"
        "area.focus(); area.setSelectionRange(at, at + arguments[1].length);", field, old)
    page.find_element(By.ID, field).send_keys(new)
    settle(page)


def test_a_card_edited_shows_its_fault_at_its_line_then_is_fixed_and_played(browser: WebDriver, address: str) -> None:
    open_author(browser, address)
    assert browser.find_element(By.ID, "card-state").text == "Ergane: no faults"
    retype(browser, "card-text", "it may build", "it mya build")
    faults = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#card-faults li")]
    assert len(faults) == 1 and faults[0].startswith("line 11, column 34: unknown word 'mya' (did you mean 'may'?)")
    assert "faulty" in (browser.find_element(By.ID, "card-line-11").get_attribute("class") or "")
    assert browser.find_element(By.ID, "card-state").text == "1 fault"
    browser.save_screenshot(str(SHOTS / "playground-author.png"))
    browser.find_element(By.ID, "card-play").click()
    settle(browser)
    assert "line 11, column 34" in message(browser) and browser.find_element(By.ID, "author").is_displayed()
    retype(browser, "card-text", "it mya build", "it may build")
    assert browser.find_element(By.ID, "card-state").text == "Ergane: no faults"
    assert not browser.find_elements(By.CSS_SELECTOR, "#card-faults li")
    browser.find_element(By.ID, "card-play").click()
    settle(browser)
    assert browser.find_element(By.ID, "table").is_displayed()
    place(browser, "a1", "e1")
    assert status(browser).startswith("Seat A (") and "to play" in status(browser)
    before = len(told(browser))
    for _ in range(3):  # (a move, a build, the card's second build)
        play_by_clicks(browser, offered(browser)[0])
    assert len(told(browser)) > before
    mine = told(browser)[before]
    assert mine.startswith("A: move") and mine.count("build A") == 2, mine


def test_a_pasted_scenario_of_the_card_runs_and_says_pass_or_why_not(browser: WebDriver, address: str) -> None:
    from test_web_api import ERGANE_SCENARIO
    open_author(browser, address)
    browser.find_element(By.ID, "scenario-text").send_keys(ERGANE_SCENARIO)
    browser.find_element(By.ID, "scenario-run").click()
    settle(browser)
    assert browser.find_element(By.ID, "scenario-result").text == "PASS"
    retype(browser, "scenario-text", "build A1 b5; build A1 b5", "build A1 b5; build A1 a5")
    browser.find_element(By.ID, "scenario-run").click()
    settle(browser)
    result = browser.find_element(By.ID, "scenario-result").text
    assert result.startswith("FAIL: ") and "move A1 b4; build A1 b5; build A1 a5" in result


def test_a_balance_run_of_the_card_shows_its_progress_then_its_report(browser: WebDriver, address: str) -> None:
    open_author(browser, address)
    against = browser.find_element(By.ID, "balance-against")
    against.send_keys("Mortal")
    games = browser.find_element(By.ID, "balance-games")
    games.clear()
    games.send_keys("2")
    browser.find_element(By.ID, "balance-run").click()
    wait_for(lambda: browser.find_element(By.ID, "balance-progress").is_displayed(), "the progress bar")
    assert browser.find_element(By.ID, "balance-progress").get_attribute("max") == "4"
    wait_for(lambda: browser.find_element(By.ID, "balance-report").is_displayed()
             or "failed" in browser.find_element(By.ID, "balance-state").text, "the report")
    assert browser.find_element(By.ID, "balance-state").text == "Ergane: 4 games played; the report:"
    assert browser.find_element(By.ID, "balance-progress").get_attribute("value") == "4"
    browser.switch_to.frame(browser.find_element(By.ID, "balance-report"))
    wait_for(lambda: "Ergane" in browser.find_element(By.TAG_NAME, "body").text, "the report's text")
    title = browser.find_element(By.TAG_NAME, "h1").text
    assert title.startswith("Balance report: Ergane in ") and title.endswith(", random")
    browser.switch_to.default_content()
    browser.execute_script("document.getElementById('balance-report').scrollIntoView()")
    browser.save_screenshot(str(SHOTS / "playground-balance.png"))


def test_a_game_played_is_watched_from_its_record(browser: WebDriver, address: str) -> None:
    start(browser, address, [("Mortal", "person"), ("Mortal", "person")])
    place(browser, "b3", "d3")
    place(browser, "c4", "c2")
    play_by_clicks(browser, "move A1 b4")
    play_by_clicks(browser, "build A1 b5")
    browser.find_element(By.ID, "watch-this").click()
    settle(browser)
    assert browser.find_element(By.ID, "watch").is_displayed()
    assert browser.find_element(By.ID, "watch-caption").text == "turn 1: A: move A1 b4; build A1 b5"
    assert browser.find_element(By.ID, "watch-count").text == "2 of 2"
