"""Play these rules in a real browser (headless Chromium, as ``test_explore_browser``): a whole game by
clicking, under a changed rule and a fixed deck order, against a fast level; its record downloaded and
accepted by ``ccsim replay --check``; the link to the deal reopens it; and a turn against the judge,
whose thinking the page shows."""
import json
import random
import tempfile
from pathlib import Path

import pytest

from test_explore_browser import CHROMIUM, DRIVER, FLAGS, JUDGE  # (skips this module as that one without Chromium)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from ccsim.explore.serve import serve_in_thread  # noqa: E402
from conftest import run_cli  # noqa: E402

FORM = "action_count.cleopatra.veto=1&caesar_order=veto-first"


@pytest.fixture
def browser():
    url, stop = serve_in_thread()
    profile = tempfile.TemporaryDirectory(prefix="ccsim-chromium-")
    downloads = tempfile.TemporaryDirectory(prefix="ccsim-downloads-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + (f"--user-data-dir={profile.name}", "--window-size=1280,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads.name})
    driver.url, driver.downloads = url, Path(downloads.name)
    try:
        yield driver
    finally:
        driver.quit()
        stop()
        profile.cleanup()
        downloads.cleanup()


def _text(driver, id_) -> str:
    return driver.find_element(By.ID, id_).text


def _ready(driver):
    """The page's next step: the choice buttons when it is the player's move, or the end."""
    if driver.find_element(By.ID, "play-end").is_displayed():
        return "end"
    return driver.find_elements(By.CSS_SELECTOR, "#play-choices .pick") or None


def play_to_the_end(driver, rnd: random.Random) -> int:
    """Click a choice at every question until the game ends: the clicks made."""
    wait, clicks = WebDriverWait(driver, 120, poll_frequency=0.05), 0
    while (ready := wait.until(_ready)) != "end":
        try:
            rnd.choice(ready).click()
            clicks += 1
        except StaleElementReferenceException:  # the board moved on under the click: look again
            continue
    return clicks


def open_play(driver, query: str, against: str, seat: str):
    driver.get(f"{driver.url}?{query}")
    wait = WebDriverWait(driver, 120, poll_frequency=0.1)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#play-against option[value={against}]"))
    Select(driver.find_element(By.ID, "play-against")).select_by_value(against)
    Select(driver.find_element(By.ID, "play-seat")).select_by_value(seat)


def test_a_whole_game_by_clicking_its_record_replays_and_its_link_reopens_the_deal(browser, capsys):
    open_play(browser, FORM, "learned", "caesar")
    deal = browser.find_element(By.ID, "play-deal")
    deal.clear()
    deal.send_keys("7")
    browser.find_element(By.ID, "play-start").click()
    wait = WebDriverWait(browser, 120, poll_frequency=0.1)
    wait.until(lambda d: "your move" in _text(d, "play-status"))
    title = _text(browser, "play-title")
    assert title.startswith("You (caesar) against learned · deal 7 of seed 1 · Cleopatra has 1 veto card")
    assert "VVASCRAWASCRA" in title
    start = _text(browser, "play-table")
    assert _text(browser, "play-choices").startswith("Initial placement: which card on senator?")

    assert play_to_the_end(browser, random.Random(7)) > 30
    words = _text(browser, "play-end-words")
    assert words.startswith("The game ended after ") and "(R10.5)" in words

    browser.find_element(By.ID, "play-record").click()
    wait.until(lambda d: [p for p in d.downloads.glob("*.jsonl")])
    path, = browser.downloads.glob("*.jsonl")
    assert path.name == "ccsim-game-seed1-deal7.jsonl"
    rec = json.loads(path.read_text())
    assert rec["rules"] == {"action_count": {"cleopatra": {"veto": 1}}} and rec["players"]["caesar"]["strategy"] == "human"
    code, out, err = run_cli(capsys, "replay", "--check", path)
    assert code == 0 and out.startswith("1 passed, 0 failed"), out + err

    browser.find_element(By.ID, "play-again").click()  # the same deal again, from its link
    wait.until(lambda d: "your move" in _text(d, "play-status") and not d.find_element(By.ID, "play-end").is_displayed())
    assert _text(browser, "play-title") == title and _text(browser, "play-table") == start


#: every line the status shows, however briefly (most of the judge's decisions take a millisecond, a few a second)
WATCH = """const line = document.getElementById("play-status");
window.seen = [];
new MutationObserver(() => seen.push([line.textContent, line.className])).observe(line,
  {childList: true, characterData: true, subtree: true, attributes: true});"""


def _seen_thinking(driver) -> list:
    return [text for text, cls in driver.execute_script("return window.seen") if "thinking" in cls]


@pytest.mark.slow  # the judge loads its network (compiled on first use in a fresh cache)
def test_a_turn_against_the_judge_shows_its_thinking(browser):
    open_play(browser, "", JUDGE, "cleopatra")
    browser.execute_script(WATCH)
    browser.find_element(By.ID, "play-new").click()
    wait = WebDriverWait(browser, 300, poll_frequency=0.05)
    rnd = random.Random(1)
    # Cleopatra's initial placement (R2.5), clicked card by card, then her turns, until the judge has thought
    while not _seen_thinking(browser):
        try:
            rnd.choice(wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-choices .pick"))).click()
        except StaleElementReferenceException:
            continue
    assert _seen_thinking(browser)[0] == f"{JUDGE} is thinking"
    wait.until(lambda d: "your move" in _text(d, "play-status"))  # its move made, and the turn is hers again
    assert "thinking" not in browser.find_element(By.ID, "play-status").get_attribute("class")
    # Caesar's side, above the groups, holds what the judge has placed
    his = browser.find_elements(By.CSS_SELECTOR, "#play-table .side")[:5]
    assert sum(len(side.find_elements(By.CSS_SELECTOR, ".card")) for side in his) >= 1
