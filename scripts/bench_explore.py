"""How long a designer waits: from a change in ``ccsim explore``'s form to the first figure of
Cleopatra's edge within ±1 point (95% interval), at the strongest fast level, warm.

    python scripts/bench_explore.py [--tries 7] [--json]

Serves the page from this process and drives it in headless Chromium (Selenium, Debian's chromium
and chromium-driver) as a person would: the page opens on the standard rules and answers them (the
kernel is loaded, the standard games are played: warm), then each try changes one rule (the last
try's back to standard) and the clock runs from the change until the page shows the edge of the new
rules within ±1 point; the first figure of any width is timed too.  Prints the median and each try.
With ``--fresh-deals`` each try also moves to a new seed, so that the standard rules' games are not
in the page's memory either: both arms are played.
"""
from __future__ import annotations

import json
import platform
import statistics
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from ccsim.explore.form import page_level
from ccsim.explore.form import read_question
from ccsim.explore.keep import query_of
from ccsim.explore.serve import serve_in_thread
from screenshot_explore import chromium

#: one rule changed a try (field, value), each a change not played before
CHANGES = (("action_count.cleopatra.veto", 1), ("hand_size", 4), ("side_limit", 4), ("orgies", 3),
           ("vp_bonus", 4), ("bonus_threshold", 2), ("action_count.caesar.veto", 1), ("group_limit", 7),
           ("action_count.cleopatra.spy", 1))
SET = """const [old, field, value, seed] = arguments;
if (old) { const o = document.getElementById("f-" + old); o.value = o.dataset.standard; }
document.getElementById("f-" + field).value = value;
document.getElementById("f-seed").value = seed;
document.getElementById("form").dispatchEvent(new Event("input"));"""
SHOWN = """const e = document.getElementById("edge"); return [e.dataset.query || "", e.dataset.half || ""];"""


def one_try(driver, old, field, value, level, seed) -> tuple[float, float]:
    """Seconds from the change to the first figure of the new rules, and to one within ±1 point."""
    want = query_of(read_question({field: [str(value)], "level": [level], "seed": [str(seed)]}))
    t0 = time.perf_counter()
    driver.execute_script(SET, old, field, value, seed)
    first = None
    while True:
        query, half = driver.execute_script(SHOWN)
        if query == want and half:
            first = first or time.perf_counter() - t0
            if float(half) <= 1.0:
                return first, time.perf_counter() - t0
        time.sleep(0.01)


def main() -> None:
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tries", type=int, default=7)
    ap.add_argument("--fresh-deals", action="store_true", help="a new seed each try: both arms played")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    level = page_level()
    url, stop = serve_in_thread()
    with tempfile.TemporaryDirectory(prefix="ccsim-chromium-") as profile:
        driver = chromium(1280, profile)
        try:
            driver.get(url)
            WebDriverWait(driver, 600, 0.2).until(  # warm: the standard rules answered
                lambda d: d.find_element(By.ID, "status").text.split(" · ")[-1].startswith("done"))
            runs, old = [], None
            for k, (field, value) in enumerate(CHANGES[:args.tries]):
                runs.append(one_try(driver, old, field, value, level, 100 + k if args.fresh_deals else 1))
                old = field
        finally:
            driver.quit()
            stop()
    out = dict(level=level, fresh_deals=args.fresh_deals, tries=len(runs), median_first_s=round(statistics.median(r[0] for r in runs), 2),
               median_within_1_point_s=round(statistics.median(r[1] for r in runs), 2),
               runs=[[round(a, 2), round(b, 2)] for a, b in runs], machine=f"{platform.machine()}, "
               f"{__import__('os').cpu_count()} cores, Python {platform.python_version()}")
    print(json.dumps(out) if args.json else
          f"{level}, warm{', fresh deals' if args.fresh_deals else ''}: from a change to the first figure {out['median_first_s']} s, to the edge within "
          f"±1 point {out['median_within_1_point_s']} s (median of {len(runs)}; each try: {out['runs']})")


if __name__ == "__main__":
    main()
