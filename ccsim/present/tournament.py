"""What ``ccsim tournament`` shows: its tables (the ratings, the score matrix, the pairings, fitted to the
terminal) and its ``--json`` object.  The round robin itself (``ccsim.analyses.tournament``) returns data
frames; its heatmap is drawn in ``ccsim.present.heatmap``."""
from __future__ import annotations

from ccsim.kernel import rules as R
from ccsim.analyses.stats import format_percent as _fp, format_percent_ci, json_number as _num
from ccsim.analyses.tournament import Tournament
from ccsim.present.table_width import Col, fit_lines, paragraph, table

__all__ = ["format_tournament", "tournament_json"]


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _rating_table(t: Tournament, width) -> list[str]:
    cols = [Col("#", True), Col("entrant", wrap=True), Col("Elo", True), Col("95% interval"), Col("mean score", True)]
    if t.nash is not None:
        cols += [Col("Nash avg", True, spare=3), Col("95% interval", spare=2), Col("mixture", True, spare=1)]
    rows = []
    for r in t.ratings.itertuples():
        row = [str(r.rank), r.entrant, f"{r.elo:+.0f}", f"{r.elo_lo:+.0f} .. {r.elo_hi:+.0f}", _fp(r.mean_score)]
        if t.nash is not None:
            row += [f"{r.nash:+.0f}", f"{r.nash_lo:+.0f} .. {r.nash_hi:+.0f}", _fp(r.nash_mixture)]
        rows.append(row)
    return table(cols, rows, width)


def _matrix(t: Tournament, width) -> list[str]:
    """The score matrix: by the entrants' names, else (too wide) by rank number, then in whole percent."""
    order = list(t.ratings["entrant"])
    names = [e.replace("weighted-", "w-") for e in order]
    numbers = [str(k) for k in range(1, len(order) + 1)]
    for heads, digits, gap in ((names, 1, "  "), (numbers, 1, " "), (numbers, 0, " ")):
        cols = [Col("")] + [Col(h, True) for h in heads]
        rows = [[f"{k:>2} {a}" if heads is numbers else a]
                + ["—" if a == b else f"{100 * t.score.loc[a, b]:.{digits}f}" for b in order]
                for k, a in enumerate(order, 1)]
        lines = table(cols, rows, None, gap=gap)
        if width is None or max(len(x) for x in lines) <= width:
            break
    return lines


#: why the tournament's seat advantage is not the game's edge (its pairings are different players)
SEAT_CAVEAT = ("(different players meet in most pairings, so this seat advantage measures them as much as the "
               "rules: the game's edge comes from one balanced level in both seats, `ccsim run`)")


def _pairing_table(t: Tournament, width) -> list[str]:
    cols = [Col("first", wrap=True), Col("second", wrap=True), Col("score [95%]"), Col("seat adv. [95%]", spare=2),
            Col("p (Holm)", True, spare=1)]
    rows = []
    for r in t.pairings.itertuples():
        seat = f"{_pts(r.seat_advantage)} [{_pts(r.seat_lo)}, {_pts(r.seat_hi)}]"
        if r.identical:
            rows.append([r.a, r.b, "identical players", seat, "-"])
            continue
        p = f"{r.p_holm:.2g}" if r.p_holm >= 1e-300 else "<1e-300"
        rows.append([r.a, r.b, format_percent_ci(r.score, r.ci_lo, r.ci_hi), seat, p])
    return table(cols, rows, width)


def format_tournament(t: Tournament, width: int | None = None) -> str:
    """The tournament as readable tables, fitted to ``width`` columns (None: no limit)."""
    i = t.info
    order = list(t.ratings["entrant"])
    if i.get("search_deals"):
        deals = (f"{i['deals']:,} deals per pairing ({i['search_deals']:,} in a pairing with a search player), each "
                 f"played twice with the seats swapped ({i['games']:,} games in all)")
    else:
        deals = (f"{i['deals']:,} deals per pairing played twice with the seats swapped "
                 f"({i['games_per_pairing']:,} games per pairing, {i['games']:,} in all)")
    head = (f"round robin of {len(order)} entrants, {deals}, seed {i['seed']}, "
            f"rules: {i.get('rules_words') or i['rules']}")
    lines = [head, "orderings: " + ", ".join(i["orderings"]) + ("   (interrupted: partial result)"
                                                                  if i["interrupted"] else ""), ""]
    lines.append("ratings (Bradley-Terry, Elo scale, 95% bootstrap interval; mean score over all opponents)"
                 + ("; Nash averaging (Elo scale) beside it" if t.nash is not None else ""))
    lines += _rating_table(t, width)
    lines += ["", "score matrix: row's score against column, % (a draw counts half)"] + _matrix(t, width)
    lines += ["", "pairings: first's score [95% interval over deals], seat advantage = Cleopatra's score - 50%, "
              "points [95%], Holm-adjusted p of 'no difference'"] + _pairing_table(t, width)
    twins = [f"{r.a} = {r.b}" for r in t.pairings.itertuples() if r.identical]
    if twins:
        lines += ["identical players: " + ", ".join(twins),
                  "  (one strategy, parameters and ordering under two names: a mirror match, not a comparison)"]
    s = t.seat
    over = "the pairings without a search player" if i.get("search_deals") else "all pairings"
    lines += ["", f"seat advantage over {over} (Cleopatra's score - 50%): {_pts(s['value'])} points "
                  f"[{_pts(s['lo'])}, {_pts(s['hi'])}]", *paragraph(SEAT_CAVEAT, width)]
    if t.cycles:
        lines.append("INTRANSITIVE: significant cycles (each pairing won significantly after Holm):")
        lines += ["  " + " > ".join(c + [c[0]]) for c in t.cycles]
    else:
        lines.append("transitive: no cycle of pairings won significantly (Holm, 5%)")
    if i["errors"]:
        lines.append(f"ENGINE ERRORS: {i['errors']}")
    if i.get("seconds"):
        lines.append(f"time: {i['seconds']:.1f} s   ({i['games_per_s']:,.0f} games/s)")
    return fit_lines(lines, width)


def tournament_json(t: Tournament) -> dict:
    """The tournament as one JSON-ready object."""
    i = t.info
    mat = lambda df: [[_num(df.loc[a, b]) for b in t.entrants] for a in t.entrants]  # noqa: E731
    out = {k: i[k] for k in ("entrants", "strategies", "orderings", "variants", "rules", "rules_words", "seed", "deals",
                             "games_per_pairing", "games", "transitive", "errors")}
    if i.get("search_deals"):
        out["search_deals"] = i["search_deals"]   # deals of the pairings with a search player
    out["ratings"] = [{"rank": int(r.rank), "entrant": r.entrant, "elo": _num(r.elo), "ci95": [_num(r.elo_lo),
                       _num(r.elo_hi)], "mean_score": _num(r.mean_score),
                       **({"nash": _num(r.nash), "nash_ci95": [_num(r.nash_lo), _num(r.nash_hi)],
                           "nash_mixture": _num(r.nash_mixture)} if t.nash is not None else {})}
                      for r in t.ratings.itertuples()]
    out["matrix"] = {"entrants": t.entrants, "score": mat(t.score), "ci95_lo": mat(t.score_lo),
                     "ci95_hi": mat(t.score_hi)}
    out["pairings"] = [{"a": r.a, "b": r.b, "deals": int(r.deals), "games": int(r.games), "wins": int(r.wins),
                        "draws": int(r.draws), "losses": int(r.losses), "score": _num(r.score),
                        "ci95": [_num(r.ci_lo), _num(r.ci_hi)], "seat_advantage": _num(r.seat_advantage),
                        "seat_ci95": [_num(r.seat_lo), _num(r.seat_hi)], "p_holm": _num(r.p_holm),
                        "end_reasons": {e: int(getattr(r, f"end_{e}")) for e in R.END_NAMES[1:]},
                        "mean_turns": _num(r.mean_turns), "errors": int(r.errors),
                        "identical": bool(r.identical)}
                       for r in t.pairings.itertuples()]
    out["seat_advantage"] = {"value": t.seat["value"], "ci95": [t.seat["lo"], t.seat["hi"]], "caveat": SEAT_CAVEAT}
    out["cycles"] = t.cycles
    out["seconds"] = round(i["seconds"], 3)
    out["games_per_s"] = round(i["games_per_s"], 1) if i["games_per_s"] else None
    if i["interrupted"]:
        out["interrupted"] = True
    return out
