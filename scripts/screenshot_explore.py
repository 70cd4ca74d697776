"""Screenshots of ``ccsim explore``'s page in headless Chromium, for the README and docs/designer.md.

    python scripts/screenshot_explore.py [--out docs/img] [--query "action_count.cleopatra.veto=1"] [--only play]

Serves the page from this process, opens it with the form in ``--query`` (the page's own URL state; by
default the published answer of ``ccsim balance``, the change the README gives),
waits for the answer to finish, opens the sample game at turn ``--turn``, and saves the whole page
at 1280 and 800 pixels wide as ``explore-1280.png`` and ``explore-800.png``.  The big number is the
strongest search's figure (the judge's when it is shown balanced; its status said beside it otherwise).  It fails, saving nothing more, when the level menu's text does not fit the menu at a width.  Then the
"Play these rules" panel: deal ``--deal`` of the form's rules against ``learned``, clicked by a simple
player (an active turn, a card placed face-up, a draw from the influence deck when it may, else a choice at
random, seeded), its board saved at the start (after
the initial placements), in the middle (a move half chosen) and at the end as ``explore-play-start.png``,
``explore-play-middle.png`` and ``explore-play-end.png``.  Needs the explore extra, selenium and Debian's
chromium and chromium-driver.
"""
from __future__ import annotations

import random
import shutil
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from urllib.parse import urlencode

from ccsim.explore.form import published_answer
from ccsim.explore.serve import serve_in_thread

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars")


def chromium(width: int, profile: str) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in FLAGS + (f"--user-data-dir={profile}", f"--window-size={width},900"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(shutil.which("chromedriver")))


#: the level menu's options whose text is wider than the menu leaves for it, measured in its own font
CUT = """const menu = document.getElementById("f-level"), style = getComputedStyle(menu);
const ctx = document.createElement("canvas").getContext("2d");
ctx.font = `${style.fontSize} ${style.fontFamily}`;
const room = menu.clientWidth - 32;
return [...menu.options].map((o) => o.text).filter((t) => ctx.measureText(t).width > room);"""


def shoot(url: str, width: int, turn: int, path: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="ccsim-chromium-") as profile:
        driver = chromium(width, profile)
        try:
            driver.get(url)
            WebDriverWait(driver, 300, 0.2).until(
                lambda d: d.find_element(By.ID, "status").text.split(" · ")[-1].startswith("done"))
            cut = driver.execute_script(CUT)
            if cut:
                raise SystemExit(f"{width} px: the level menu cuts {cut}")
            driver.find_element(By.CSS_SELECTOR, "#sample-box summary").click()
            WebDriverWait(driver, 60, 0.2).until(lambda d: d.find_element(By.ID, "sample-opening").text)
            for _ in range(turn):
                driver.find_element(By.ID, "turn-next").click()
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",  # the whole page in one picture
                                   dict(width=width, height=height, deviceScaleFactor=1, mobile=False))
            driver.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.5)
            driver.save_screenshot(str(path))
        finally:
            driver.quit()


def _choices(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#play-choices .pick")


def _click(driver, rnd: random.Random) -> None:
    """One click of a simple player: an active turn, a card placed, face-up, a draw from the influence deck when
    it may, else any choice."""
    wait = WebDriverWait(driver, 120, 0.05)
    buttons = wait.until(_choices)
    labels = [b.text for b in buttons]
    liked = [b for b, t in zip(buttons, labels) if t.startswith(("active", "place", "face-up", "influence deck"))]
    rnd.choice(liked or buttons).click()
    wait.until(lambda d: _choices(d) or d.find_element(By.ID, "play-end").is_displayed())


def _panel(driver, path: Path) -> None:
    driver.execute_script("document.getElementById('play').scrollIntoView()")
    time.sleep(0.3)
    driver.find_element(By.ID, "play").screenshot(str(path))
    print(f"{path}: the game's board")


def shoot_play(url: str, out: Path, seed: int = 2) -> None:
    """The play panel at the start of the game, in its middle (a move half chosen) and at its end."""
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="ccsim-chromium-") as profile:
        driver = chromium(1280, profile)
        driver.set_window_size(1280, 2600)  # the whole panel in sight: its story below the board
        try:
            driver.get(url)
            status = lambda d: d.find_element(By.ID, "play-status").text  # noqa: E731
            WebDriverWait(driver, 300, 0.2).until(lambda d: "your move" in status(d))
            while "Turn 1:" not in status(driver):  # the initial placements (R2.5): one card on each group
                _click(driver, rnd)
            _panel(driver, out / "explore-play-start.png")
            while int(status(driver).split()[1].rstrip(":")) < 14 or not any(
                    b.text.startswith("place") for b in _choices(driver)):
                _click(driver, rnd)
            next(b for b in _choices(driver) if b.text.startswith("place")).click()  # a card chosen: face, group?
            _panel(driver, out / "explore-play-middle.png")
            while not driver.find_element(By.ID, "play-end").is_displayed():
                _click(driver, rnd)
            _panel(driver, out / "explore-play-end.png")
        finally:
            driver.quit()


def main() -> None:
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/img")
    ap.add_argument("--query", default=None, help="the form as a query string [the published answer's change]")
    ap.add_argument("--turn", type=int, default=6, help="the sample game's turn shown (0: the first)")
    ap.add_argument("--deal", type=int, default=3, help="the deal of the game played in the play panel")
    ap.add_argument("--only", choices=("page", "play"), default=None, help="only the page, or only the game [both]")
    args = ap.parse_args()
    if args.query is None:
        args.query = urlencode([tuple(kv) for kv in (published_answer() or {}).get("query") or []])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    url, stop = serve_in_thread()
    try:
        for width in (1280, 800) if args.only != "play" else ():
            path = out / f"explore-{width}.png"
            shoot(f"{url}?{args.query}", width, args.turn, path)
            print(f"{path}: {width} px wide")
        if args.only != "page":
            shoot_play(f"{url}?{args.query}&against=learned&seat=cleopatra&deal={args.deal}", out)
    finally:
        stop()


if __name__ == "__main__":
    main()
