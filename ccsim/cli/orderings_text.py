"""What `ccsim orderings compare / search / positions` print: their tables, fitted to the terminal
(at most 100 columns; ``width=None`` is ``--wide``), from the studies' DataFrames."""
from __future__ import annotations

from ccsim.present.table_width import Col, fit_lines, paragraph, table
from ccsim.analyses.stats import format_percent

__all__ = ["compare_text", "search_text", "positions_text"]


def _pct(x) -> str:
    return format_percent(x)


def _pts(x) -> str:
    return f"{100 * x:+.1f}"


def _ci(x, lo, hi, f) -> str:
    return f"{f(x)} [{f(lo)}, {f(hi)}]"


def _score_caption(strategy: str) -> str:
    """Whose score the tables show: the ordering's player, over both seats."""
    return f"score = {strategy}'s with its deck in each ordering, over both seats; a draw counts half"


def _judge_cell(r: dict) -> str:
    """The judge's figure of an ordering in a table: "+8.6 [+6.0, +11.2] measured" or "… predicted"."""
    if not r.get("judge_how"):
        return "—"
    return f"{_ci(r['judge_value'], r['judge_lo'], r['judge_hi'], _pts)} {r['judge_how']}"


def _judge_note(judged) -> list[str]:
    judge = next((r["judge"] for r in judged or () if r.get("judge")), None)
    if judge is None:
        return []
    from ccsim.analyses.levels import strong_caveat
    said = strong_caveat(judge)
    return [f"{judge}: the difference with {judge}, the strongest search, on both sides: measured with {judge} where "
            f"it played the ordering in both seats, else predicted for {judge} from this level's (results/calibration)"
            + (f". Note: {said}." if said else "")]


def compare_text(df, strategy: str, sprt=None, width: int | None = None, judged=None, caveat: str | None = None) -> str:
    """``compare``'s answer: the baseline, then each ordering's score and its difference to the baseline, and
    the judge's difference beside it (``judged``: the rows with ``ccsim.analyses.orderings.judged``'s columns);
    ``sprt``: (delta, alpha, beta) when each comparison ran until decided; ``caveat``: the first line."""
    b = df.attrs["baseline"]
    judge = next((r["judge"] for r in judged or () if r.get("judge")), None)
    lines = ([caveat] if caveat else []) + [df.attrs["matchup"], _score_caption(strategy),
             f"baseline {b['label']} {b['ordering'] if b['label'] != b['ordering'] else ''}".rstrip()
             + f": {_ci(b['win_rate'], b['ci_lo'], b['ci_hi'], _pct)} in {b['games']:,} games"]
    cols = ([Col("ordering"), Col("preset", wrap=True, spare=2), Col("games", True, spare=1), Col("score [95%]"),
             Col("diff, points [95%]")] + ([Col(f"{judge} [95%]")] if judge else [])
            + ([Col("decision", wrap=True)] if sprt else []))
    rows = [[r.ordering, r.label if r.label != r.ordering else "", f"{r.games:,}",
             _ci(r.win_rate, r.ci_lo, r.ci_hi, _pct), _ci(r.diff, r.diff_lo, r.diff_hi, _pts)]
            + ([_judge_cell(j)] if judge else []) + ([r.decision] if sprt else [])
            for r, j in zip(df.itertuples(), judged or [{}] * len(df))]
    lines += table(cols, rows, width) + _judge_note(judged)
    if sprt:
        delta, alpha, beta = sprt
        lines.append(f"SPRT: H0 no difference vs H1 a difference of {100 * delta:g} points either way, "
                     f"alpha {alpha:g}, beta {beta:g}; 'games' is what each decision took")
    return fit_lines(lines, width)


def search_text(df, strategy: str, width: int | None = None, judged=None, caveat: str | None = None) -> str:
    """``search``'s answer: the confirmed orderings, shuffled itself and the worst of the first round, with
    the judge's difference beside each confirmed one (``judged``, as ``compare_text``'s)."""
    a = df.attrs
    g = int(df["games"].iloc[0])
    judge = next((r["judge"] for r in judged or () if r.get("judge")), None)
    lines = ([caveat] if caveat else []) + [f"{a['matchup']}: {a['games_used']:,} games in {a['seconds']:.0f} s "
             f"({a['games_used'] / max(a['seconds'], 1e-9):,.0f} games/s; {a['cpu_seconds']:.0f} CPU-s on "
             f"{a['threads']} threads)",
             f"confirmed on fresh deals, {g:,} games each (95% interval; all-{len(df)} Bonferroni in brackets)",
             _score_caption(strategy)]
    cols = [Col("#", True), Col("ordering"), Col("score [95%]"), Col("(simultaneous)", spare=1),
            Col("vs shuffled, points")] + ([Col(f"{judge} [95%]")] if judge else [])
    rows = [[str(r["rank"]), r["ordering"], _ci(r["win_rate"], r["ci_lo"], r["ci_hi"], _pct),
             f"({_pct(r['simul_lo'])}, {_pct(r['simul_hi'])})", _ci(r["diff"], r["diff_lo"], r["diff_hi"], _pts)]
            + ([_judge_cell(j)] if judge else [])
            for r, j in zip(df.to_dict("records") + [dict(a["baseline"], rank="-"), dict(a["worst"], rank="w")],
                            (judged or [{}] * len(df)) + [{}, {}])]
    lines += (table(cols, rows, width) + ["('-': shuffled itself; 'w': the worst ordering of the first round)"]
              + _judge_note(judged))
    return fit_lines(lines, width)


def _position_blocks(pos, width: int | None) -> list[str]:
    """Each card's effect at each of the 13 depths; in two blocks (1-7, 8-13) where one is too wide."""
    cards = [(f"{card} ({letter})", [_pts(r.effect) for r in g.itertuples()])
             for (card, letter), g in pos.groupby(["card", "letter"], sort=False)]
    for blocks in ((range(13),), (range(7), range(7, 13))):
        lines = []
        for block in blocks:
            cols = [Col("")] + [Col(str(q + 1), True) for q in block]
            lines += table(cols, [[name] + [cells[q] for q in block] for name, cells in cards], None, gap=" ")
        if width is None or max(len(x) for x in lines) <= width:
            break
    return lines


def positions_text(df, width: int | None = None, caveat: str | None = None) -> str:
    """``positions``' answer: each card's effect by region of the deck and by position, and the largest."""
    a = df.attrs
    lines = ([caveat] if caveat else []) + [f"{a['matchup']}: {a['orderings']:,} random orderings, {a['games']:,} games in {a['seconds']:.0f} s; "
             f"mean score {a['mean_score']:.3f}, R^2 {a['r2']:.3f}",
             "effect = E[score | card there] - E[score] of a random ordering, points of win rate [95%]"]
    reg = df[df["kind"] == "region"]
    regions = list(dict.fromkeys(reg["region"]))
    cols = [Col("card")] + [Col(x, True) for x in regions]
    for cell in (lambda r: _ci(r.effect, r.lo, r.hi, _pts), lambda r: f"{_pts(r.effect)} ±{50 * (r.hi - r.lo):.1f}"):
        rows = [[f"{card} ({letter})"] + [cell(r) for r in g.itertuples()]
                for (card, letter), g in reg.groupby(["card", "letter"], sort=False)]
        fitted = table(cols, rows, None)
        if width is None or max(len(x) for x in fitted) <= width:
            break  # else the narrower form: the interval as ± its half-width
    lines += fitted
    lines += ["by position (1 = top):"] + _position_blocks(df[df["kind"] == "position"], width)
    big = reg.loc[reg["effect"].abs().sort_values(ascending=False).index[:3]]
    for r in big.itertuples():
        article = "an" if r.card[0] in "aeiou" else "a"
        lines += paragraph(f"{article} {r.card} in the {r.region} is worth {_pts(r.effect)} points of win rate "
                           f"[{_pts(r.lo)}, {_pts(r.hi)}]", width)
    return fit_lines(lines, width)
