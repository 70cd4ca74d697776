"""What ``ccsim balance`` shows and writes: the printed tables, ``--json``'s summary, the Pareto set
in Markdown, the recommended settings as ``[[change]]`` tables, and the output folder's files (written by
the door, ``write_balance``; the search itself keeps only what makes it resumable there,
``ccsim.analyses.balance.publish.folder``)."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from ccsim.analyses.balance.judge import level_lean, seat_status
from ccsim.analyses.balance.ring.widen import ring_paragraphs, ring_published
from ccsim.analyses.balance.space import toml_key, toml_value
from ccsim.analyses.stats import format_percent, json_number as _num
from ccsim.present.table_width import Col, fit_lines, table
from ccsim.analyses.precision import precision_warning
from ccsim.runner.parameters import STANDARD_RULES
from ccsim.present.files import write_parquet

if TYPE_CHECKING:
    from ccsim.analyses.balance import Balance

__all__ = ["format_balance", "balance_json", "pareto_markdown", "recommended_toml", "write_balance"]


def _tolerance(share: float) -> str:
    """A tolerance in points, as people say it: "1 point", "2.5 points"."""
    return f"{100 * share:g} point" + ("" if 100 * share == 1 else "s")


def _pts(x) -> str:
    return f"{100 * x:+.1f}" if math.isfinite(x) else "n/a"


def _adv(r) -> str:
    """Seat advantage in points with its 95% interval."""
    return f"{_pts(r['seat_advantage'])} [{_pts(r['seat_advantage_lo'])}, {_pts(r['seat_advantage_hi'])}]"


def _diff(r) -> str:
    return f"{_pts(r['diff'])} [{_pts(r['diff_lo'])}, {_pts(r['diff_hi'])}]" if math.isfinite(r["diff"]) else ""


def _levels(b: Balance) -> list[str]:
    return [lv.name for lv in b.space.levels]


def _by_candidate(df: pd.DataFrame):
    """(first row, {level: row}) per candidate, in the frame's order (none for a frame of no rows: a search
    interrupted before its first task finished has no columns either)."""
    if df.empty:
        return
    for _, g in df.groupby("candidate", sort=False):
        yield g.iloc[0], {r["level"]: r for _, r in g.iterrows()}


def _pareto_rows(b: Balance, words: bool = False) -> tuple[list[str], list[list[str]]]:
    header = ["changes", "size", "setting"]
    for lv in _levels(b):
        header += [f"{lv} [95%]", "draw", "turns"]
    header += ["deals", "race"]
    rows = []
    pareto = b.pareto.sort_values(["changes", "size", "worst"], kind="stable") if not b.pareto.empty else b.pareto
    for first, at in _by_candidate(pareto):
        row = [str(first["changes"]), str(first["size"]), first["words"] if words else first["setting"]]
        for lv in _levels(b):
            r = at[lv]
            row += [_adv(r), format_percent(r["draw_rate"]), f"{r['turns']:.1f}"]
        out = f", round {int(first['round_out'])}" if pd.notna(first["round_out"]) else ""
        rows.append(row + [f"{first['deals']:,}", first["status"] + out])
    return header, rows


def _pareto_cols(b: Balance) -> list[Col]:
    """The Pareto table's columns for a terminal: the settings wrap; draws, turns, deals may go."""
    cols = [Col("changes", True, spare=1), Col("size", True, spare=1), Col("setting", wrap=True)]
    for lv in _levels(b):
        cols += [Col(f"{lv} [95%]"), Col("draw", True, spare=3), Col("turns", True, spare=3)]
    return cols + [Col("deals", True, spare=2), Col("race", wrap=True)]


def _fresh_rows(b: Balance, words: bool = False) -> tuple[list[str], list[list[str]]]:
    header = ["setting"]
    for lv in _levels(b):
        header += [f"{lv} [95%]", f"vs {STANDARD_RULES}, same deals"]
    rows = []
    for first, at in _by_candidate(b.remeasured):
        cells = []
        for lv in _levels(b):
            cells += [_adv(at[lv]) + (" fair" if at[lv]["fair"] else ""),
                      _diff(at[lv]) if first["candidate"] != 0 else ""]
        rows.append([first["words"] if words else first["setting"]] + cells + [first["verdict"]])
    return header + ["verdict"], rows


def _fresh_cols(b: Balance) -> list[Col]:
    cols = [Col("setting", wrap=True)]
    for lv in _levels(b):
        cols += [Col(f"{lv} [95%]"), Col(f"vs {STANDARD_RULES}", spare=1)]
    return cols + [Col("verdict", wrap=True)]


def _search_rows(b: Balance, words: bool = False) -> tuple[list[str], list[list[str]]]:
    """The final candidates at the search level, best first, the standard rules first."""
    lv = b.space.search_level.name
    order = [0] + list(b.info.get("finals", []))
    rows = []
    for i in order:
        at = b.search[b.search["candidate"] == i]
        if at.empty:
            continue
        r = at.iloc[0]
        rows.append([r["words"] if words else r["setting"], _adv(r) + (" fair" if r["fair"] else ""),
                     _diff(r) if i != 0 else "", f"{int(r['deals']):,}"])
    return ["setting", f"{lv} [95%]", f"vs {STANDARD_RULES}, same deals", "deals"], rows


def _skill_rows(b: Balance, words: bool = False) -> tuple[list[str], list[list[str]]]:
    """The skill curve: one row per level (weakest first), a column per setting."""
    cands = [0] + list(b.info.get("finals", []))
    names = {int(r["candidate"]): (r["words"] if words else r["setting"]) for _, r in b.skill.iterrows()}
    header = ["level", "Elo", "deals"] + [names.get(c, "?") for c in cands]
    rows = []
    for lv, g in b.skill.sort_values("rank").groupby("rank", sort=True):
        first = g.iloc[0]
        elo = f"{first['elo']:+.0f}" if math.isfinite(first["elo"]) else "n/a"
        cells = []
        for c in cands:
            r = g[g["candidate"] == c]
            cells.append(_adv(r.iloc[0]) + ("" if r.iloc[0]["verdict"] != "fair" or c == 0 else " fair")
                         if not r.empty else "")
        # a level that plays one seat better than the other is marked: shown, never deciding
        level = level_lean(first["level"], seat_status(first["level"]), style="bare")
        rows.append([level, elo, f"{int(first['deals']):,}"] + cells)
    return header, rows


def precision_warnings(b: Balance) -> list[str]:
    """A line for each level whose fresh re-measure is too coarse to call anything fair."""
    out = []
    for lv in _levels(b):
        rows = b.recommended[b.recommended["level"] == lv]
        if rows.empty:
            continue
        r = rows.iloc[0]  # the standard rules, first; every setting has its deals
        line = precision_warning(f"at {lv}, {int(r['deals']):,} fresh deals", r["seat_advantage_lo"],
                                 r["seat_advantage_hi"], b.space.tolerance, int(r["deals"]), "deals")
        if line:
            out.append(line + " (--remeasure-games)")
    return out


def _headline(b: Balance) -> list[str]:
    i, sp = b.info, b.space
    lines = [f"balance: {sp.source}" + (f" — {sp.description}" if sp.description else ""),
             f"{i['candidates']:,} candidates (up to {sp.max_changes} of {len(sp.params)} parameters changed) at "
             f"{', '.join(_levels(b))}; fair = Cleopatra's score within 50% ± {_tolerance(sp.tolerance)} "
             + (f"with {_levels(b)[0]} on both sides (the race judges it alone; the others play the same deals)"
                if sp.race == "first" and len(sp.levels) > 1 else "at every level") + f"; seed {sp.seed}"]
    played = i["games"] - i["resumed"]
    speed = f" ({played / i['seconds']:,.0f} games/s)" if i["seconds"] else ""
    kept = f" ({i['resumed']:,} of them finished before: resumed)" if i["resumed"] else ""
    lines.append(f"race: {len(i['rounds'])} round(s), {i['games']:,} games{kept}; {played:,} played in "
                 f"{i['seconds']:.1f} s{speed}"
                 + ("   (interrupted: partial result; run again with the same --out to resume)"
                    if i["interrupted"] else ""))
    for stage, what in (("fresh", "re-measure"), ("search", "search level"), ("skill", "skill curve")):
        if i.get(f"{stage}_games"):
            kept = i.get(f"{stage}_resumed", 0)
            lines.append(f"{what}: {i[f'{stage}_games']:,} games" + (f" ({kept:,} of them finished before: resumed)"
                                                                    if kept else "")
                         + f"; {i[f'{stage}_games'] - kept:,} played in {i[f'{stage}_seconds']:.1f} s")
    return lines


#: what a search stopped before its first task finished prints: nothing was measured, so no table
NOTHING_YET = ("balance: interrupted before any task finished (nothing measured yet); run the same command "
               "again to resume")


def _nothing_yet(b: Balance) -> bool:
    return bool(b.info["interrupted"]) and b.pareto.empty and b.remeasured.empty


def format_balance(b: Balance, width: int | None = None) -> str:
    """The readable answer: the race, the Pareto set, the recommended settings on fresh deals, each
    setting in plain words; fitted to ``width`` columns (None: no limit).  One line when Ctrl-C came
    before any task finished (during the first compile, say)."""
    if _nothing_yet(b):
        return NOTHING_YET
    lines = _headline(b)
    if not b.pareto.empty:
        judged = (f"|seat advantage| at {b.space.levels[0].name}" if b.space.race == "first" and len(b.space.levels) > 1
                  else "worst-level |seat advantage|")
        lines += ["", f"Pareto set over ({judged}, changes, size): seat advantage = Cleopatra's "
                      "score - 50%, points [95% interval]; draw rate; mean turns"]
        lines += table(_pareto_cols(b), _pareto_rows(b, words=True)[1], width)
    if not b.recommended.empty:
        lines += ["", f"re-measured on {b.info['fresh_deals']:,} fresh deals (seed {b.info['fresh_seed']}) per "
                      f"level, every simplest setting the race kept: fair where the whole interval lies within "
                      f"±{_tolerance(b.space.tolerance)}"]
        lines += table(_fresh_cols(b), _fresh_rows(b, words=True)[1], width) + precision_warnings(b)
    if not b.search.empty:
        lines += ["", f"the final candidates at the search level, {b.space.search_level.name} on both sides:"]
        lines += table([Col(h, wrap=(k == 0)) for k, h in enumerate(_search_rows(b)[0])],
                       _search_rows(b, words=True)[1], width)
    if not b.skill.empty:
        lines += ["", "the skill curve: Cleopatra's edge at every level (Elo from results/strength/), points [95%]"]
        header, rows = _skill_rows(b, words=True)
        lines += table([Col(h, wrap=k >= 3) for k, h in enumerate(header)], rows, width)
    lines += [x for para in ring_paragraphs(b.ring) for x in [""] + _wrap(para, width)]  # before the answer
    if b.recommendation:
        lines += ["", f"The answer, judged with {b.recommendation['judge']} on both sides (the strongest level "
                      "measured that plays both seats alike):"] + _wrap(b.recommendation["text"], width)
    return fit_lines(lines, width)


def _wrap(text: str, width: int | None) -> list[str]:
    import textwrap
    return textwrap.wrap(text, width or 100)


def _level_json(r) -> dict:
    return dict(level=r["level"], seat_advantage=_num(r["seat_advantage"]),
                ci95=[_num(r["seat_advantage_lo"]), _num(r["seat_advantage_hi"])],
                diff=_num(r["diff"]), diff_ci95=[_num(r["diff_lo"]), _num(r["diff_hi"])],
                draw_rate=_num(r["draw_rate"]), turns=_num(r["turns"]), deals=int(r["deals"]))


def _setting_json(first) -> dict:
    key = json.loads(first["key"])
    return dict(setting=first["setting"], words=first["words"], changes=int(first["changes"]),
                size=int(first["size"]), rules=key["rules"], variants=key["variants"])


def balance_json(b: Balance) -> dict:
    """The summary as one JSON-ready object (``summary.json``, ``--json``)."""
    i, sp = b.info, b.space
    out = dict(space=dict(source=sp.source, description=sp.description, identity=i["identity"],
                          levels=_levels(b), budget=sp.budget, seed=sp.seed, tolerance=sp.tolerance,
                          tolerance_points=round(100 * sp.tolerance, 10),
                          max_changes=sp.max_changes, draw_rate=sp.draw_rate, game_length=sp.game_length,
                          params=[dict(name=p.name, values=list(p.values), default=p.default) for p in sp.params]),
               candidates=i["candidates"], refused=i["refused"], rounds=i["rounds"], games=i["games"],
               resumed=i["resumed"], seconds=round(i["seconds"], 3))
    out["pareto"] = [dict(_setting_json(first), status=first["status"], worst=_num(first["worst"]),
                          worst_level=first["worst_level"], levels=[_level_json(r) for r in at.values()])
                     for first, at in _by_candidate(b.pareto)]
    out["fresh"] = dict(seed=i["fresh_seed"], deals=i["fresh_deals"], games=i["fresh_games"],
                        seconds=round(i["fresh_seconds"], 3))
    out["recommended"], out["remeasured"] = ([dict(_setting_json(first), verdict=first["verdict"],
                                                   fair=bool(first["fair_everywhere"]),
                                                   levels=[dict(_level_json(r), fair=bool(r["fair"])) for r in at.values()])
                                              for first, at in _by_candidate(rows) if first["candidate"] != 0]
                                             for rows in (b.recommended, b.remeasured))
    out["finals"] = [int(c) for c in i.get("finals", [])]
    out["search"] = None if b.search.empty else dict(
        level=b.space.search_level.name, seed=i["fresh_seed"], deals=i.get("search_deals", 0),
        games=i.get("search_games", 0), seconds=round(i.get("search_seconds", 0.0), 3),
        settings=[dict(_setting_json(first), levels=[dict(_level_json(r), fair=bool(r["fair"])) for r in at.values()])
                  for first, at in _by_candidate(b.search)])
    out["skill"] = None if b.skill.empty else dict(
        levels=[lv.name for lv in b.space.skill_levels], skill_deals=b.space.skill_deals,
        games=i.get("skill_games", 0), seconds=round(i.get("skill_seconds", 0.0), 3),
        settings=[dict(_setting_json(first), levels=[dict(_level_json(r), elo=_num(r["elo"]), verdict=r["verdict"])
                                                     for r in at.values()])
                  for first, at in _by_candidate(b.skill)])
    out["recommendation"] = b.recommendation or None
    out["interrupted"] = bool(i["interrupted"])
    out["ring"] = b.ring
    return out


def pareto_markdown(b: Balance, folder: str = "DIR") -> str:
    """``pareto.md``: the headline, the Pareto set and the recommended settings as Markdown tables."""
    def md(header, rows):
        return [f"| {' | '.join(header)} |", "|" + "---|" * len(header)] + [f"| {' | '.join(r)} |" for r in rows]

    lines = ["# Fair rules: the Pareto set", ""] + [f"{x}  " for x in _headline(b)]
    lines += ["", "Seat advantage = Cleopatra's score − 50% in points with its 95% interval (a draw counts half); "
                  "size = steps along each changed parameter's list of values.", ""]
    lines += md(*_pareto_rows(b, words=True)) if not b.pareto.empty else [NOTHING_YET + "."]
    if not b.recommended.empty:
        lines += ["", f"## Recommended, re-measured on {b.info['fresh_deals']:,} fresh deals (seed "
                      f"{b.info['fresh_seed']}) per level", ""] + md(*_fresh_rows(b, words=True))
        lines += [f"{x}  " for x in precision_warnings(b)]
    if not b.search.empty:
        lines += ["", f"## The final candidates with {b.space.search_level.name} on both sides", ""]
        lines += md(*_search_rows(b, words=True))
    if not b.skill.empty:
        lines += ["", "## The skill curve", "", "Cleopatra's edge at every level, weakest first (Elo from "
                  "`results/strength/`, tactician = 0), points with 95% intervals:", ""] + md(*_skill_rows(b, words=True))
    if b.recommendation:
        lines += ["", "## The answer", "", b.recommendation["text"]]
    lines += ["", f"Reproduce: `ccsim balance {folder}/space.toml --out <another folder>`; compare the "
                  f"recommended settings with the standard rules: `ccsim whatif --no-variants --rules "
                  f"{folder}/recommended.toml --strategy <level>`."]
    return "\n".join(lines) + "\n"


def recommended_toml(b: Balance) -> str:
    """The recommended settings as ``[[change]]`` tables (``ccsim whatif --rules``), each with its fresh
    measurement and its ``rules`` block for records as comments."""
    lines = [f"# ccsim balance: the recommended settings of {b.space.source}, re-measured on "
             f"{b.info['fresh_deals']:,} fresh deals (seed {b.info['fresh_seed']}) at every level",
             "description = " + toml_value(f"recommended by ccsim balance (tolerance ±"
                                           f"{_tolerance(b.space.tolerance)})")]
    for first, at in _by_candidate(b.recommended):
        if first["candidate"] == 0:
            continue
        key = json.loads(first["key"])
        lines += ["", f"# {first['verdict']}: " + "; ".join(f"{lv} {_adv(r)}" for lv, r in at.items()),
                  f"# rules block for a record: {json.dumps(key['rules'])}"
                  + (f", variants {json.dumps(key['variants'])}" if key["variants"] else ""),
                  f"# {first['words']}",
                  "[[change]]", f"name = {toml_value(first['setting'])}"]
        lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in key["rules"].items()]
        if key["variants"]:
            lines.append(f"variants = {toml_value(key['variants'])}")
    return "\n".join(lines) + "\n"


def write_balance(folder, b: Balance) -> None:
    """Every file of the output folder but the space and the tasks, which the search writes as it goes
    (``ccsim.analyses.balance.publish.folder``)."""
    folder = Path(folder)
    write_parquet(b.candidates, folder / "candidates.parquet")
    write_parquet(b.pareto, folder / "pareto.parquet")
    (folder / "pareto.md").write_text(pareto_markdown(b, folder.as_posix()), encoding="utf-8")
    (folder / "summary.json").write_text(json.dumps(balance_json(b), indent=2) + "\n")
    if (b.recommended["candidate"] != 0).any():
        write_parquet(b.recommended, folder / "recommended.parquet")
        (folder / "recommended.toml").write_text(recommended_toml(b), encoding="utf-8")
    for name, df in (("remeasured", b.remeasured), ("search", b.search), ("skill", b.skill)):
        if not df.empty:
            write_parquet(df, folder / f"{name}.parquet")
    _write_figures(folder, b)
    if ring_published(b.ring):  # the published answer's files, and skill.png of its curve
        _write_published(folder, b)


def _write_published(folder: Path, b: Balance) -> None:
    from ccsim.analyses.balance.publish.answer import write_answer
    from ccsim.analyses.balance.publish.skill import level_elos
    from ccsim.present.balance_plot import write_answer_skill
    write_answer(folder, b.recommendation)
    write_answer_skill(folder, b.recommendation, level_elos(), b.space.tolerance)


def _write_figures(folder: Path, b: Balance) -> None:
    """balance.png (none of nothing measured) and skill.png (when the skill curve was measured)."""
    import matplotlib.pyplot as plt  # (here: the page imports this module and starts sooner without matplotlib)
    from ccsim.present.balance_plot import balance_plot, skill_plot
    figures = {"balance.png": balance_plot(b) if not b.candidates.empty else None,
               "skill.png": skill_plot(b.skill, b.space.tolerance) if not b.skill.empty else None}
    for name, fig in figures.items():
        if fig is not None:
            fig.savefig(folder / name, dpi=120, bbox_inches="tight")
            plt.close(fig)
