"""Render a report page in headless Chromium: a screenshot, and whether anything is wider than the page.

    python scripts/screenshot_report.py results/balance-report/report.html [--out report.png] [--width 1280]

The page is loaded twice.  First a copy with a small script that measures it after load
(every closed table opened, so a hidden wide table counts too): the document's scroll width
and height, and the elements that stick out of the window without a scrolling box around
them.  Then the page as a reader sees it is photographed at ``--width`` pixels and its full
height (at most ``--max-height``).  Prints what it found; exit status 1 when the page is
wider than the window, 2 when no Chromium is installed (``apt-get install -y chromium``).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# a clean, quiet, offline browser (run as root it needs --no-sandbox)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]

MEASURE = """<script>
window.addEventListener("load", function () {
  var de = document.documentElement, out = {height: de.scrollHeight};
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var w = de.clientWidth, wide = [], scrolled = 0;
  function clipped(el) {   // inside a box that scrolls or clips sideways: it cannot widen the page
    for (var p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o !== "visible") return true;
    }
    return false;
  }
  document.querySelectorAll("body *").forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.right <= w + 0.5) return;
    if (clipped(el)) { if (el.tagName === "TABLE") scrolled++; return; }
    var up = el.parentElement.getBoundingClientRect();
    if (el.parentElement !== document.body && up.right > w + 0.5) return;   // its parent is named already
    wide.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : "")
              + " " + Math.round(r.width) + " px, right edge at " + Math.round(r.right) + " px");
  });
  out.scroll_width = de.scrollWidth; out.client_width = w; out.wide = wide.slice(0, 20);
  out.scrolling_tables = scrolled;
  var pre = document.createElement("pre"); pre.id = "ccsim-measure"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def browser() -> str | None:
    return next((p for p in map(shutil.which, BROWSERS) if p), None)


def _run(exe: str, args: list, profile: str) -> subprocess.CompletedProcess:
    return subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                          timeout=300)


def measure(exe: str, html: Path, width: int) -> dict:
    """The page's scroll width and height at ``width`` pixels, and what sticks out of it."""
    text = html.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "page.html"
        copy.write_text(text.replace("</body>", MEASURE + "</body>") if "</body>" in text else text + MEASURE,
                        encoding="utf-8")
        r = _run(exe, [f"--window-size={width},1000", "--virtual-time-budget=15000", "--dump-dom",
                       copy.as_uri()], str(Path(tmp) / "profile"))
    m = re.search(r'<pre id="ccsim-measure">(.*?)</pre>', r.stdout, re.S)
    if not m:
        raise RuntimeError(f"the page was not measured (exit {r.returncode}): {r.stderr[-400:]}")
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))


def screenshot(exe: str, html: Path, out: Path, width: int, height: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        r = _run(exe, [f"--window-size={width},{height}", "--virtual-time-budget=15000",
                       f"--screenshot={out.resolve()}", html.resolve().as_uri()], str(Path(tmp) / "profile"))
    if not out.is_file():
        raise RuntimeError(f"no screenshot (exit {r.returncode}): {r.stderr[-400:]}")


def main(argv=None) -> int:
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("html", type=Path)
    ap.add_argument("--out", type=Path, default=None, help="the PNG [beside the page: <name>.png]")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--max-height", type=int, default=40000, help="crop a longer page here")
    a = ap.parse_args(argv)
    exe = browser()
    if exe is None:
        print("no Chromium found: apt-get install -y chromium", file=sys.stderr)
        return 2
    m = measure(exe, a.html, a.width)
    out = a.out or a.html.with_suffix(".png")
    screenshot(exe, a.html, out, a.width, min(m["height"], a.max_height))
    print(f"{a.html}: window {a.width} px, page scroll width {m['scroll_width']} px, height {m['height']} px; "
          f"{m['scrolling_tables']} wide tables scroll inside their boxes")
    for w in m["wide"]:
        print(f"  wider than the window: {w}")
    print(f"screenshot: {out} ({a.width} x {min(m['height'], a.max_height)} px)")
    return 1 if m["scroll_width"] > a.width else 0


if __name__ == "__main__":
    sys.exit(main())
