"""The published answer from what a balance folder already holds: the search's measurements and the next
ring's (``ring/ring.json``), judged at the balanced judge, without playing a game.

``python -m ccsim.analyses.balance.publish results/balance`` (``__main__``) rewrites ``summary.json``'s ``recommendation``
(every other key as the search left it), the answer of ``pareto.md`` and of ``README.md`` (between its
``<!-- answer -->`` marks), and ``recommended.toml`` (the recommended setting first).  Every setting measured
at the judge competes: the search's final candidates (``search.parquet``), the checks measured there
afterwards (``ring/anchors.json``, or the centre's checks kept in ``ring.json``) and the ring's (the judge's race
and the confirmation on fresh deals).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from ccsim.analyses.balance.judge import judge_level
from ccsim.analyses.balance.publish.skill import level_elos
from ccsim.analyses.balance.space import Param, load_space, setting_of, toml_key, toml_value
from ccsim.analyses.balance.search.verdict import answer_of, answer_paragraph, choose, estimate, points, strong_levels

__all__ = ["published_settings", "publish", "with_blocks"]

ANSWER_MARKS = ("<!-- answer -->", "<!-- /answer -->")
RING_MARKS = ("<!-- ring -->", "<!-- /ring -->")


def _row_est(r, tol, standard=None, source=None) -> dict:
    e = estimate(r, tol, source)
    return e | ({"standard": standard} if standard is not None else {})


def _json_est(level: str, x: dict, tol: float, standard=None, source=None) -> dict:
    lo, hi = x["ci95"]
    row = dict(level=level, deals=x["deals"], seat_advantage=x["seat_advantage"], seat_advantage_lo=lo,
               seat_advantage_hi=hi)
    if "diff" in x:
        row |= dict(diff=x["diff"], diff_lo=x["diff_ci95"][0], diff_hi=x["diff_ci95"][1])
    return _row_est(row, tol, standard, source)


def _key_of(rules_key: str) -> dict:
    return json.loads(rules_key)


def published_settings(folder: Path, tol: float, tables: dict | None = None) -> list[dict]:
    """Every setting of the folder with its figures by level, each paired with the standard rules' on the same
    deals where it was (``standard``), and its source.  ``tables``: the search's tables by name, as the search
    holds them before they are written (default: read from the folder's files)."""
    ring = _json_file(folder / "ring" / "ring.json")
    # the anchors file of a ring run by hand, else the anchors ``ccsim balance``'s own ring kept (its centre's checks)
    anchors = _json_file(folder / "ring" / "anchors.json") or ring.get("judge_anchors") or {}
    tables = _written_tables(folder) if tables is None else {k: v for k, v in tables.items() if not v.empty}
    figures = [f for name in SEARCH_TABLES if name in tables
               for f in _table_figures(folder / f"{name}.parquet", tables[name], tol)]
    figures += _anchor_figures(anchors, ring, tol)
    if ring:
        figures += [*_screen_figures(ring, tol), *_race_figures(ring, tol), *_confirm_figures(ring, anchors, tol),
                    *_curve_figures(ring, _json_file(folder / "ring" / "curve.json"), tol)]
    return _merged(figures)


#: the search's tables whose settings the answer weighs, in the order they are read
SEARCH_TABLES = ("remeasured", "skill", "search")


def _written_tables(folder: Path) -> dict:
    """The search's tables the folder holds, by name."""
    return {name: pd.read_parquet(folder / f"{name}.parquet") for name in SEARCH_TABLES
            if (folder / f"{name}.parquet").is_file()}


def _json_file(path: Path) -> dict:
    """A JSON file's object; empty when there is no such file."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _about(s) -> dict:
    """What names a setting in a table's row or the ring's: its rules key, setting, words, changes and size."""
    return {k: s[k] for k in ("key", "setting", "words", "changes", "size")}


def _merged(figures) -> list[dict]:
    """The settings of ``(setting, level, estimate)`` figures, each with its estimate at every level: the
    one of the most deals speaks for a level (the first of as many)."""
    settings: dict[str, dict] = {}
    for about, level, est in figures:
        key = about["key"]
        s = settings.setdefault(key, dict(setting=about["setting"], words=about["words"], changes=int(about["changes"]),
                                          size=int(about["size"]), rules=_key_of(key)["rules"],
                                          variants=_key_of(key)["variants"], levels={}))
        old = s["levels"].get(level)
        if old is None or est["deals"] > old["deals"]:
            s["levels"][level] = est
    return list(settings.values())


def _table_figures(path: Path, df: pd.DataFrame, tol: float):
    """The figures of a search table (``remeasured``, ``skill`` or ``search.parquet`` at ``path``, named as the
    folder was given: any folder's answer names its own files), each paired with the standard rules' row at its
    level."""
    base = {r["level"]: _row_est(r, tol) for _, r in df[df["candidate"] == 0].iterrows()}
    for _, r in df[df["candidate"] != 0].iterrows():
        yield _about(r), r["level"], _row_est(r, tol, base.get(r["level"]), path.as_posix())


def _anchor_figures(anchors: dict, ring: dict, tol: float):
    """The checks measured at the anchors' level (``ring/anchors.json``), each under the ring's setting it is."""
    if not anchors:
        return
    std = _json_est(anchors["level"], anchors["standard"], tol)
    for x in anchors["anchors"]:
        key = next((s["key"] for s in ring.get("settings", []) if s.get("anchor") and _same(s["key"], x["setting"])),
                   None)
        if key is None:
            continue
        s = next(s for s in ring["settings"] if s["key"] == key)
        own = _json_est(anchors["level"], x["standard"], tol) if "standard" in x else std  # paired on its own deals
        yield _about(s), anchors["level"], _json_est(anchors["level"], x, tol, own, x.get("source"))


def _candidates(ring: dict) -> dict:
    return {s["candidate"]: s for s in ring["settings"]}


def _screen_figures(ring: dict, tol: float):
    """The ring's screen: every setting at every level, beside the standard rules' screen."""
    std_screen = _candidates(ring)[0]["screen"]
    for s in ring["settings"]:
        if s["candidate"] == 0:
            continue
        for lv, x in s["screen"].items():
            yield _about(s), lv, _json_est(lv, x, tol, _json_est(lv, std_screen[lv], tol),
                                           f"the ring's screen, seed {ring['seeds']['screen']}")


def _race_figures(ring: dict, tol: float):
    """The ring's race at its judge."""
    cands, judge = _candidates(ring), ring["judge"]
    for m in ring.get("judge_measured", []):
        yield _about(cands[m["candidate"]]), judge, _json_est(
            judge, m, tol, None, f"the ring's race at {judge}, seed {ring['seeds']['race']}")


def _confirm_figures(ring: dict, anchors: dict, tol: float):
    """The winner confirmed on fresh deals at the judge (none when the confirmation was interrupted)."""
    c, judge = ring.get("confirm"), ring["judge"]
    if not c or c.get("interrupted"):
        return
    paired = c.get("standard") is not None
    # unpaired: the standard rules' figure at the judge from the anchors (other deals, said so)
    std = _json_est(judge, c["standard"], tol) if paired else (
        _json_est(judge, anchors["standard"], tol) if anchors else None)
    source = f"fresh deals, seed {c['seed']}" + (", paired with the standard rules" if paired else "")
    yield _about(_candidates(ring)[ring["winner"]]), judge, _json_est(judge, c["setting"], tol, std, source)


def _curve_figures(ring: dict, curve: dict, tol: float):
    """The winner's skill curve (``ring/curve.json``), when it is this winner's."""
    winner = _candidates(ring).get(ring.get("winner"), {})
    if curve.get("setting") != winner.get("key"):
        return  # the curve of another winner
    for lv, x in curve.get("levels", {}).items():
        yield _about(winner), lv, _json_est(lv, x["setting"], tol, _json_est(lv, x["standard"], tol),
                                           f"the skill curve, seed {x['seed']}")


def _same(key: str, setting) -> bool:
    """Whether a rules key is the standard rules with ``setting`` ([[name, value], ...]) changed."""
    params = {p.name: p for p in load_space().params}
    combo = []
    for n, v in setting:
        p = params[n]
        combo.append((p if v in p.values else Param(p.name, tuple(sorted({*p.values, v})), p.default), v))
    return setting_of(tuple(combo)).key == key


def publish(folder) -> dict:
    """Rewrite the folder's answer (module docstring); returns the recommendation."""
    folder = Path(folder)
    rec = published_answer(folder)
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    summary["recommendation"] = rec
    (folder / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    write_answer(folder, rec)
    return rec


def published_answer(folder, tables: dict | None = None) -> dict:
    """The answer judged from every setting the folder's search and ring measured at the judge (no game, no
    file written); ``tables`` as ``published_settings``'s."""
    folder = Path(folder)
    sp = load_space(folder / "space.toml")
    settings = published_settings(folder, sp.tolerance, tables)
    judge, strong, elos = _judge(settings, sp)
    return answer_of(choose(settings, judge, sp.tolerance, strong), judge, sp.tolerance, strong, elos, settings)


def _judge(settings: list[dict], sp) -> tuple[str, list, dict]:
    """The judge among the levels the settings were measured at, the strong levels beside it, and the Elos."""
    elos = level_elos()
    names = sorted({n for s in settings for n in s["levels"]})
    judge = judge_level(names, sp.judge, elos)
    return judge, strong_levels(names, judge, elos), elos


def write_answer(folder, rec: dict) -> None:
    """The published answer into the folder's files: the answer of ``pareto.md`` and ``README.md`` (the ring's
    stages too), and ``recommended.toml`` (summary.json is its writer's)."""
    folder = Path(folder)
    sp = load_space(folder / "space.toml")
    settings = published_settings(folder, sp.tolerance)
    text = answer_paragraph({"recommendation": rec})
    ring_file = folder / "ring" / "ring.json"
    for name in ("README.md", "pareto.md"):
        path = folder / name
        if path.is_file():
            ring = json.loads(ring_file.read_text()) if name == "README.md" and ring_file.is_file() else None
            path.write_text(with_blocks(path.read_text(encoding="utf-8"), text, ring), encoding="utf-8")
    _recommended_toml(folder, rec, settings, rec["judge"], sp.tolerance)


def answer_curve_frame(rec: dict, elos: dict) -> pd.DataFrame:
    """The answer's curve as the skill plot reads it: the standard rules (candidate 0) and the answer
    (candidate 1) at every level measured."""
    rows = []
    order = sorted(rec["curve"], key=lambda c: elos.get(c["level"], (float("inf"),))[0])
    for rank, c in enumerate(order):
        name = c["level"]
        elo = elos.get(c["level"], (float("nan"),))[0]
        for cand, e, words in ((0, c.get("standard"), "the standard rules"), (1, c, rec["words"])):
            if e:
                rows.append(dict(candidate=cand, rank=rank, level=name, elo=elo, words=words,
                                 seat_advantage=e["seat_advantage"], seat_advantage_lo=e["ci95"][0],
                                 seat_advantage_hi=e["ci95"][1]))
    return pd.DataFrame(rows)


def with_blocks(doc: str, text: str, ring: dict | None = None) -> str:
    """``doc`` with the answer ``text`` between its marks and, given the ring's data (ring.json), the ring's
    stages between theirs: what ``ccsim balance`` writes into a folder's README.md, and what a check of that
    page writes again."""
    doc = _with_answer(doc, text)
    return doc if ring is None else _between(doc, RING_MARKS, ring_markdown(ring))


def _with_answer(doc: str, text: str) -> str:
    """``doc`` with the answer between its marks (the marks added around a "## The answer" section's first
    paragraph when it has none yet)."""
    a, b = ANSWER_MARKS
    if a in doc:
        return re.sub(re.escape(a) + r".*?" + re.escape(b), lambda _: f"{a}\n\n{text}\n\n{b}", doc, count=1, flags=re.S)
    m = re.search(r"^## The answer\n\n", doc, flags=re.M)
    if not m:
        return doc.rstrip("\n") + f"\n\n## The answer\n\n{a}\n\n{text}\n\n{b}\n"
    rest = doc[m.end():]
    end = re.search(r"\n\n", rest)
    stop = m.end() + (end.start() if end else len(rest))
    return doc[:m.end()] + f"{a}\n\n{text}\n\n{b}" + doc[stop:]


def _between(doc: str, marks: tuple[str, str], text: str) -> str:
    a, b = marks
    if a not in doc:
        return doc
    return re.sub(re.escape(a) + r".*?" + re.escape(b), lambda _: f"{a}\n\n{text}\n\n{b}", doc, count=1, flags=re.S)


def _pts(x: float) -> str:
    return points(x)


def _iv(lo: float, hi: float) -> str:
    return f"[{_pts(lo)}, {_pts(hi)}]"


def ring_markdown(data: dict) -> str:
    """The ring's stages as Markdown, from ``ring.json``: the map, each raced setting's predicted judge edge
    beside its measurement there, the race and the games the screen saved."""
    cands = {s["candidate"]: s for s in data["settings"]}
    m = next(x for x in data["maps"] if x["level"] == data["map_level"])
    pred = {p["candidate"]: p for p in data["predictions"]}
    meas = {x["candidate"]: x for x in data.get("judge_measured", [])}
    judge, fast = data["judge"], data["map_level"]
    lines = [f"The map, fitted on {m['anchors']} anchors measured at both levels: effect at `{judge}` = "
             f"{m['slope']:.2f} (± {m['slope_se']:.2f}) × effect at `{fast}`, a model spread of "
             f"{100 * m['model_sd']:.1f} points. {sum(p['could_be_fair'] for p in data['predictions'])} of "
             f"{len(data['predictions'])} ring settings could be within ±{100 * data['tolerance']:g} point; the "
             f"{len(data['shortlist'])} closest raced at `{judge}` (deals of seed {data['seeds']['race']}):", "",
             f"| setting | `{fast}` effect (screen) | predicted at `{judge}` [95%] | measured at `{judge}` [95%] | deals |",
             "|---|---:|---:|---:|---:|"]
    for c in data["shortlist"]:
        p, s, x = pred[c], cands[c], meas.get(c)
        eff = s["screen"][fast]
        lines.append(f"| {s['words']} | {_pts(eff['diff'])} {_iv(*eff['diff_ci95'])} | {_pts(p['edge'])} "
                     f"{_iv(*p['interval'])} | " + (f"{_pts(x['seat_advantage'])} {_iv(*x['ci95'])} | {x['deals']:,}"
                                                   if x else "not raced | 0") + " |")
    sv = data.get("saving")
    if sv:
        lines += ["", f"The judge played {sv['judge_games']:,} games in the race; racing all {sv['ring']} ring settings "
                      f"there to the same depth would have taken {sv['judge_games_without_screen']:,} "
                      f"({sv['judge_games_without_screen'] - sv['judge_games']:,} saved, for {sv['fast_games']:,} "
                      f"fast-level games of the screen, which play about a hundred times faster)."]
    c = data.get("confirm")
    if c:
        x = c["setting"]
        lines += ["", f"The winner, {cands[data['winner']]['words']}, confirmed on {x['deals']:,} fresh deals (seed "
                      f"{c['seed']}{_parts_text(c)}){', paired with the standard rules' if c.get('paired') else ''}: "
                      f"{_pts(x['seat_advantage'])} {_iv(*x['ci95'])} points"
                      + (" (interrupted: a partial figure)" if c.get("interrupted") else "") + "."]
    return "\n".join(lines)


def _parts_text(c: dict) -> str:
    """How a confirmation played on was played (``ccsim.analyses.balance.ring.extend``): its parts, each as measured."""
    parts = c.get("parts") or []
    if len(parts) < 2:
        return ""
    each = "; ".join(f"deals {p['first']:,} to {p['first'] + p['deals'] - 1:,}: {_pts(p['setting']['seat_advantage'])} "
                     f"{_iv(*p['setting']['ci95'])}" for p in parts)
    return (f"; played in {len(parts)} parts, the later ones to settle it (`python -m "
            f"ccsim.analyses.balance.ring.extend`), pooled: {each}")


def _recommended_toml(folder: Path, rec: dict, settings: list[dict], judge: str, tol: float) -> None:
    """``recommended.toml``: the recommended setting first, then every other setting measured at the judge,
    closest first (``ccsim whatif --rules``)."""
    at = sorted((s for s in settings if judge in s["levels"] and s["setting"] != rec["setting"]),
                key=lambda s: abs(s["levels"][judge]["seat_advantage"]))
    lines = [f"# ccsim balance: the settings measured with {judge} on both sides (the balanced judge), the "
             f"recommended one first", "description = " + toml_value(f"recommended by ccsim balance at {judge} "
                                                                    f"(tolerance ±{100 * tol:g} point)")]
    for s in [next(s for s in settings if s["setting"] == rec["setting"])] + at:
        e = s["levels"][judge]
        lines += ["", f"# {judge}: {100 * e['seat_advantage']:+.1f} [{100 * e['ci95'][0]:+.1f}, "
                      f"{100 * e['ci95'][1]:+.1f}] points, {e['deals']:,} deals ({e['verdict']})",
                  f"# rules block for a record: {json.dumps(s['rules'])}"
                  + (f", variants {json.dumps(s['variants'])}" if s["variants"] else ""),
                  f"# {s['words']}", "[[change]]", f"name = {toml_value(s['setting'])}"]
        lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in s["rules"].items()]
        if s["variants"]:
            lines.append(f"variants = {toml_value(s['variants'])}")
    (folder / "recommended.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")

