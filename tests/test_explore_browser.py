"""``ccsim explore`` in a real browser: headless Chromium, the system's, driven by Selenium
through the system's chromedriver (Debian's ``chromium`` and ``chromium-driver``; ``.ci/run``
installs them).  The page opens with the published answer, its interval, and every level's seat gap in a
menu whose text fits; Cleopatra's vetoes go from 2 to 1, the judge's figure leads (predicted), the
level's own edge changes and its interval narrows; a confirmation at the judge runs to its end and the
figure says "measured with neural-search", another is cancelled and the server stops; a bad ordering
shows the command line's message, in the form's words, at its field; "abc" and an empty field say what
was typed, and the figures on screen are greyed while the form is invalid."""
import shutil
import tempfile
import threading

import pytest

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("no Chromium here (apt-get install -y chromium chromium-driver; CI's .ci/run installs them)",
                allow_module_level=True)
pytest.importorskip("uvicorn", reason="ccsim explore needs the explore extra: pip install '.[explore]'")
webdriver = pytest.importorskip("selenium.webdriver", reason="the browser test drives Chromium with selenium")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from ccsim.analyses.balance.search.verdict import points  # noqa: E402
from ccsim.explore import compute  # noqa: E402
from ccsim.explore.form import plain_message, published_answer  # noqa: E402
from ccsim.explore.serve import serve_in_thread  # noqa: E402
from ccsim.explore.server import create_app  # noqa: E402
from ccsim.analyses.judging.store import judge_store  # noqa: E402
from ccsim.runner.orderings import OrderingError, parse_ordering  # noqa: E402
from ccsim.runner.ruleset import action_counts, rules_vector  # noqa: E402

#: a quiet, offline browser with a profile of its own (as root it needs --no-sandbox)
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


JUDGE = "neural-search"


@pytest.fixture
def page(monkeypatch):
    # a smaller cap keeps the machine free after the test; the figures still come chunk by chunk
    plan = compute.Plan(chunk=compute.FAST.chunk, cap=40_000)
    monkeypatch.setattr("ccsim.explore.server.plan_for", lambda level: plan)
    # the strong level the page shows (the judge, or the strongest search while none is balanced); the store
    # as it was after the test
    monkeypatch.setattr("ccsim.explore.judged.strong_level", lambda: JUDGE)
    store = judge_store()
    monkeypatch.setattr(store, "_rows", dict(store._rows))
    app = create_app()
    url, stop = serve_in_thread(app)
    profile = tempfile.TemporaryDirectory(prefix="ccsim-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + (f"--user-data-dir={profile.name}", "--window-size=1280,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    driver.app = app  # (a test looks at the server's running computations)
    try:
        driver.get(url)
        yield driver
    finally:
        driver.quit()
        stop()
        profile.cleanup()


def edge(driver) -> tuple[str, float]:
    """The edge's figure as shown, and its half-interval in points (None before the first figure)."""
    e = driver.find_element(By.ID, "edge")
    half = e.get_attribute("data-half")
    return e.text, float(half) if half else None


def test_a_change_of_vetoes_is_answered_and_a_bad_ordering_is_refused(page):
    wait = WebDriverWait(page, 120, poll_frequency=0.1)
    wait.until(lambda d: edge(d)[1] is not None)
    standard, _ = edge(page)

    veto = page.find_element(By.ID, "f-action_count.cleopatra.veto")
    veto.clear()
    veto.send_keys("1")
    wait.until(lambda d: "Cleopatra has 1 veto card" in d.find_element(By.ID, "words").text)
    wait.until(lambda d: "changed rules" in d.find_element(By.ID, "edge-diff").text)
    first, first_half = edge(page)
    assert first != standard  # one veto fewer moves Cleopatra's edge by about ten points
    wait.until(lambda d: edge(d)[1] < first_half)  # and its interval narrows as games come in
    # the big number is the judge's (this change is in its store: measured); the level's own stands beside it
    assert page.find_element(By.ID, "judge").get_attribute("data-how") == "measured"
    assert page.find_element(By.ID, "judge-how").text.startswith(f"measured with {JUDGE} on 10,000 deals")
    assert page.find_element(By.ID, "evidence").text.startswith("learned, on these deals:")
    assert page.find_element(By.ID, "command").text.startswith("ccsim whatif --no-variants --rules change.toml")

    order = page.find_element(By.ID, "f-cleopatra_order")
    order.clear()
    order.send_keys("AASCRV")
    message = page.find_element(By.ID, "m-cleopatra_order")
    with pytest.raises(OrderingError) as cli:  # the command line's line for the same deck under the same rules
        parse_ordering("AASCRV", action_counts(rules_vector({"action_count.cleopatra.veto": 1}), 0))
    # the field is checked as it is typed: wait for the check of the whole text, not of a first letter
    wait.until(lambda d: message.text == plain_message("cleopatra_order", str(cli.value)))
    assert page.find_element(By.ID, "status").text.startswith("nothing runs")


#: the options whose text is wider than the menu leaves for it (its padding and arrow): measured in its font
FITS = """const menu = arguments[0], style = getComputedStyle(menu);
const ctx = document.createElement("canvas").getContext("2d");
ctx.font = `${style.fontSize} ${style.fontFamily}`;
const room = menu.clientWidth - 32;
return [...menu.options].map((o) => o.text).filter((t) => ctx.measureText(t).width > room);"""


def _stale(driver) -> bool:
    return "stale" in driver.find_element(By.TAG_NAME, "body").get_attribute("class").split()


def published_confirmation() -> dict:
    """The published change as the judge's store holds it: the ring's confirmation (results/balance/ring)."""
    import json
    from pathlib import Path
    ring = Path(__file__).resolve().parents[1] / "results" / "balance" / "ring" / "ring.json"
    return json.loads(ring.read_text(encoding="utf-8"))["confirm"]["setting"]


def test_the_page_opens_with_the_published_answer_and_the_levels_seat_gaps(page):
    wait = WebDriverWait(page, 60, poll_frequency=0.1)
    words = published_answer()["words"]
    wait.until(lambda d: d.find_element(By.ID, "published-words").text == words)
    options = [o.text for o in page.find_elements(By.CSS_SELECTOR, "#f-level option")]
    assert options and not any("strongest" in o for o in options)
    assert "neural — lopsided" in options and "tactician — balanced" in options, options
    # the whole seat gap is said under the menu; the menu's own text fits its width, whichever is chosen
    menu = page.find_element(By.ID, "f-level")
    menu.find_element(By.CSS_SELECTOR, "option[value=neural]").click()
    wait.until(lambda d: d.find_element(By.ID, "level-cost").text.startswith("neural plays Cleopatra"))
    assert "lopsided" in page.find_element(By.ID, "level-cost").text
    assert page.execute_script(FITS, menu) == [], "the level menu's text is cut"
    # the published answer's banner gives its interval and deals
    banner = page.find_element(By.ID, "published-level").text
    confirm = published_confirmation()
    assert (f"measured with {JUDGE} on {confirm['deals']:,} deals: Cleopatra's edge "
            f"{points(confirm['seat_advantage'])} [") in banner, banner
    page.find_element(By.ID, "published-load").click()
    clauses = lambda text: sorted(text.split("; "))  # noqa: E731 (the form lists the changes in its own order)
    wait.until(lambda d: clauses(d.find_element(By.ID, "words").text) == clauses(words))


def test_abc_and_an_empty_field_say_what_was_typed_and_grey_the_figures(page):
    wait = WebDriverWait(page, 120, poll_frequency=0.1)
    wait.until(lambda d: edge(d)[1] is not None)
    assert not _stale(page)
    hand = page.find_element(By.ID, "f-hand_size")
    hand.clear()
    hand.send_keys("abc")
    message = page.find_element(By.ID, "m-hand_size")
    wait.until(lambda d: message.text == "Hand size: must be a whole number from 1 to 6; you typed 'abc'")
    assert _stale(page)
    hand.clear()
    hand.send_keys(" ")
    wait.until(lambda d: message.text == "Hand size: is empty: type a whole number from 1 to 6")
    assert _stale(page)
    hand.clear()
    hand.send_keys("4")
    wait.until(lambda d: not _stale(d) and message.text == "")


def _judge(driver) -> tuple[str, str, str]:
    """The judge's figure as shown: (how it is known, its figure, the line under it)."""
    j = driver.find_element(By.ID, "judge")
    return j.get_attribute("data-how"), j.text, driver.find_element(By.ID, "judge-how").text


def test_a_confirmation_runs_to_its_measurement_and_another_is_cancelled(page):
    wait = WebDriverWait(page, 180, poll_frequency=0.1)
    # settings the store does not hold (its check settings include a group limit of 7): predicted
    group = wait.until(lambda d: d.find_element(By.ID, "f-group_limit"))  # the form is built after the page loads
    group.clear()
    group.send_keys("9")
    wait.until(lambda d: _judge(d)[0] == "predicted" and "group holds at most 9" in d.find_element(By.ID, "words").text)
    assert _judge(page)[2].startswith(f"predicted for {JUDGE}: learned's effect on these deals")
    assert page.find_element(By.ID, "confirm").text == f"Confirm at {JUDGE}"
    deals = page.find_element(By.ID, "confirm-deals")
    deals.clear()
    deals.send_keys("2")
    page.find_element(By.ID, "confirm").click()
    status = page.find_element(By.ID, "confirm-status")
    wait.until(lambda d: status.text.startswith("confirmed: 2 deals at neural-search"))
    how, figure, line = _judge(page)
    assert how == "measured" and line.startswith(f"measured with {JUDGE} on 2 deals"), line
    assert page.find_element(By.ID, "confirm-cancel").get_attribute("hidden") is not None

    # another form, a longer confirmation: its progress shows, Cancel stops it and the server's work with it
    side = page.find_element(By.ID, "f-side_limit")
    side.clear()
    side.send_keys("6")
    wait.until(lambda d: _judge(d)[0] == "predicted" and "side holds at most 6" in d.find_element(By.ID, "words").text)
    deals.clear()
    deals.send_keys("1000")
    page.find_element(By.ID, "confirm").click()
    wait.until(lambda d: " of 1,000 deals" in status.text and _judge(d)[2].startswith(f"measuring with {JUDGE}"))
    page.find_element(By.ID, "confirm-cancel").click()
    wait.until(lambda d: status.text.startswith("cancelled at "))
    assert "the games played are kept" in status.text
    assert _judge(page)[0] == "predicted"  # the prediction is back: nothing measured was finished
    wait.until(lambda d: d.app.state.pages._running == {})  # the page's computation ended on the server
    # and its games stopped between two chunks: no computation's thread is left playing
    wait.until(lambda d: not [t for t in threading.enumerate() if t.name.startswith("ccsim-explore-")])
