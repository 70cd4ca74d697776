"""What ``ccsim run`` shows: a run's summary (``ccsim.analyses.summary``) as readable tables, each side's
own result first where two sides met with the seats swapped, fitted to the terminal."""
from __future__ import annotations

from ccsim.analyses.levels import strong_caveat
from ccsim.analyses.stats import format_percent as _fp, format_percent_ci, format_points as _pts
from ccsim.analyses.summary import SEATS
from ccsim.runner.parameters import change_words
from ccsim.present.table_width import Col, fit_lines, paragraph, table

__all__ = ["format_summary", "side_label"]


def format_summary(d: dict, width: int | None = None) -> str:
    """A readable table of a summary dictionary, fitted to ``width`` columns (None: no limit)."""
    n = d["games"]
    lines = [d["caveat"]] if d.get("caveat") else []
    cfg = d.get("config")
    if d.get("level"):
        lines.append(f"level of play: {level_line(d['level'])}")
    if cfg:
        lines.append(f"cleopatra: {cfg['cleopatra']} ({cfg['cleopatra_order']})   "
                     f"caesar: {cfg['caesar']} ({cfg['caesar_order']})")
        lines.append(f"seed {cfg['seed']}   rules: {change_words(cfg.get('rules') or {}, cfg['variants'])}")
    lines.append(_games_line(n, bool(cfg and cfg["swap_seats"]))
                 + ("   (interrupted: partial result)" if d.get("interrupted") else ""))
    if d.get("repeats", 1) > 1:
        lines.append("the same player in both seats: each swapped game repeats its deal's, so the intervals count "
                     "deals")
    lines.append("")
    if d.get("by_strategy"):
        lines += _sides_table(d["by_strategy"], width) + ["", "by seat (each seat's games mix both sides):"]
    rows = []
    for s in SEATS:
        w, vp = d["win_rate"][s], d["mean_vp"][s]
        rows.append([s, f"{d['wins'][s]:,}", _fp(w["rate"]), f"[{_fp(w['ci95'][0])}, {_fp(w['ci95'][1])}]",
                     f"{vp['mean'] if vp else 0:.2f}"])
    dr = d["draw_rate"]
    rows.append(["draws", f"{d['draws']:,}", _fp(dr["rate"]), f"[{_fp(dr['ci95'][0])}, {_fp(dr['ci95'][1])}]", ""])
    cols = [Col(""), Col("wins", True), Col("win rate", True), Col("95% CI"), Col("mean VP", True)]
    lines += table(cols, rows, width)
    lines.append("")
    lines.append("end reasons: " + ", ".join(f"{k} {v:,} ({_fp(v / n)})" for k, v in d["end_reasons"].items() if n))
    turns = f"{d['mean_turns']:.1f}" if n else "-"  # none when interrupted before the first chunk
    lines.append(f"truncated games: {d['truncated']:,}   mean turns: {turns}")
    if d.get("edge"):
        lines.append(edge_line(d))
    if d.get("engine_errors"):
        lines.append(f"ENGINE ERRORS: {d['engine_errors']}")
    if d.get("games_per_s"):
        lines.append(f"time: {d['seconds']:.2f} s   ({d['games_per_s']:,.0f} games/s)")
    return fit_lines(lines, width)


def level_line(level: dict) -> str:
    """"the learned linear player (learned), both seats; balanced: plays Cleopatra 1.8 points better than
    Caesar, +1.8 [+0.9, +2.7]"."""
    gap = level.get("seat_gap")
    lean = "seat gap not measured" if gap is None else (
        f"seat gap {gap:+.1f} [{level['seat_gap_ci95'][0]:+.1f}, {level['seat_gap_ci95'][1]:+.1f}] points")
    return f"{level['words']} ({level['name']}) in both seats; {level['status']}: {lean}"


def edge_line(d: dict) -> str:
    """Cleopatra's edge in the run, and the judge's beside it where the run is a balanced level's mirror."""
    e = d["edge"]
    out = (f"Cleopatra's edge: {_pts(e['value'])} [{_pts(e['ci95'][0])}, {_pts(e['ci95'][1])}] points "
           f"(her score, a draw half, minus 50%)")
    j = d.get("judge")
    if j:
        how = (f"measured with {j['judge']} on {j['deals']:,} deals" if j["how"] == "measured"
               else f"predicted for {j['judge']} from {j['predicted_from']}'s edge (results/calibration)")
        out += (f"; with {j['judge']}, the strongest search, on both sides: {_pts(j['edge'])} "
                f"[{_pts(j['ci95'][0])}, {_pts(j['ci95'][1])}], {how}")
        said = strong_caveat(j["judge"])
        if said:
            out += f". Note: {said}"
    return out


def _games_line(n: int, swapped: bool) -> str:
    """How many games, and with --swap-seats how many deals: each deal is played twice."""
    if swapped and n % 2 == 0:
        return f"games: {n:,} ({n // 2:,} deals, each played twice with the seats swapped)"
    return f"games: {n:,}" + ("   (seats swapped in every other game)" if swapped else "")


def side_label(side: dict, sides: list[dict]) -> str:
    """A side's strategy, with its ordering where the orderings differ."""
    same_order = len({s["ordering"] for s in sides}) == 1
    same_strategy = len({s["strategy"] for s in sides}) == 1
    if same_order:
        return side["strategy"]
    return side["ordering"] if same_strategy else f"{side['strategy']} ({side['ordering']})"


def _pct(r: dict) -> str:
    return format_percent_ci(r['rate'], *r['ci95'])


def _sides_table(sides: list[dict], width: int | None) -> list[str]:
    cols = [Col("", wrap=True), Col("games", True), Col("wins", True, spare=4), Col("draws", True, spare=3),
            Col("win rate [95% CI]"), Col("score [95% CI]"), Col("as cleopatra", True, spare=2),
            Col("as caesar", True, spare=2)]
    rows = [[label, f"{s['games']:,}", f"{s['wins']:,}", f"{s['draws']:,}", _pct(s["win_rate"]), _pct(s["score"]),
             _fp(s["as_cleopatra"]["win_rate"]["rate"]), _fp(s["as_caesar"]["win_rate"]["rate"])]
            for label, s in zip((side_label(s, sides) for s in sides), sides)]
    return (paragraph("by strategy (every deal played twice, seats swapped; a draw counts half in the score):", width)
            + table(cols, rows, width))
