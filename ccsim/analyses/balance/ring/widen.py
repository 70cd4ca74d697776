"""The next ring inside ``ccsim balance``: when nothing of the space is fair at the judge, widen around the closest.

After the final candidates are measured at the judge (the strongest balanced level measured), a setting is
*fair* there when the whole 95% interval of its edge lies within ±tolerance.  When none is, the search goes on
to the next ring (``ccsim.analyses.balance.ring.stages``) around the setting closest to even at the judge (its
*centre*, ``ccsim.analyses.balance.ring.centre``: every setting the search kept, measured at the judge or predicted
there from the balanced fast levels; a setting predicted closest is measured at the judge first, on fresh deals
of seed + 5): the ring's settings screened at the fast levels (the space's levels but the judge; the judge itself
in a space of that level alone), their effects mapped to the judge's, the few that could be fair raced at the
judge, the winner confirmed on ``search_deals`` fresh deals paired with the standard rules
(``ring_run.play_ring``).  The map's *anchors* are the search's own measurements at the judge: every setting
measured there (the final candidates and the centre's checks), each beside the standard rules on its deals.

The ring plays through the folder's own task store, its tasks named by stage and level, so Ctrl-C keeps what
finished and a rerun of the same command plays nothing finished again (the centre's checks too); its seeds are
the search's seed + 2 (screen), + 3 (race), + 4 (confirmation), as ``python -m ccsim.analyses.balance.ring.run``'s.
Everything it
measured is ``ring/ring.json`` in the folder, which ``ccsim.analyses.balance.publish`` reads beside the
search's tables to choose the answer among every setting measured at the judge.
"""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from ccsim.analyses.balance.ring.centre import CHECK_OFFSET, balanced_fast, centre_plan
from ccsim.analyses.balance.search.final import setting_rows
from ccsim.analyses.balance.search.play import Scheduler
from ccsim.analyses.balance.ring.run import play_ring
from ccsim.analyses.balance.publish.skill import FAIR, interval_verdict
from ccsim.analyses.balance.search.verdict import points

__all__ = ["RING_FOLDER", "judge_frame", "judge_anchors", "next_ring", "ring_outcome",
           "ring_paragraphs"]

#: the ring's folder inside the search's (``ring.json``), where ``publish`` reads it
RING_FOLDER = "ring"
#: how many settings of the centre's ranking ``--json`` shows
CENTRE_SHOWN = 5


def judge_frame(frames, judge: str) -> pd.DataFrame:
    """The rows measured at ``judge`` (one per candidate, the standard rules among them) from the first of
    ``frames`` (the search level's, the skill curve's, the re-measure's) that measured it: one block of deals,
    so every setting's figure there is paired with the standard rules' on the same deals."""
    for df in frames:
        if not df.empty and "level" in df and (df["level"] == judge).any():
            at = df[df["level"] == judge].drop_duplicates("candidate")
            if (at["candidate"] == 0).any():
                return at.reset_index(drop=True)
    return pd.DataFrame()


def _est(r) -> dict:
    return dict(deals=int(r["deals"]), seat_advantage=float(r["seat_advantage"]),
                ci95=[float(r["seat_advantage_lo"]), float(r["seat_advantage_hi"])])


def _anchor(r, source: str, standard=None) -> dict:
    """One judge anchor (``ring_run``'s anchors file, as data): the setting's (name, value) pairs are added by the
    caller; its edge and its paired change at the judge, and the standard rules' figure on its deals when they
    are not the anchors' own."""
    a = _est(r) | dict(diff=float(r["diff"]), diff_ci95=[float(r["diff_lo"]), float(r["diff_hi"])], source=source)
    return a | (dict(standard=_est(standard)) if standard is not None else {})


def judge_anchors(at: pd.DataFrame, judge: str, cands, checks=()) -> dict:
    """The judge anchors (``ring_run``'s anchors file, as data) from the rows at the judge: the standard rules'
    figure, and each setting's (name, value) pairs with its paired change there; ``checks``: the centre's checks
    (``_checks``: the standard rules' row and the setting's on their own fresh deals), anchors too."""
    std = at[at["candidate"] == 0].iloc[0]
    found = [(r, "the search's final candidates at the judge, paired with the standard rules", None)
             for _, r in at[at["candidate"] != 0].iterrows()]
    found += [(r, f"the centre's check at the judge, fresh deals (seed {seed}), paired with the standard rules", s)
              for s, r, seed, _ in checks]
    anchors = [dict(setting=[list(x) for x in cands[int(r["candidate"])].settings]) | _anchor(r, source, s)
               for r, source, s in found if math.isfinite(r["diff"])]
    return dict(level=judge, standard=_est(std), anchors=anchors)


def _skipped(why: str, words: str, interrupted: bool = False) -> dict:
    return dict(ran=False, reason=why, words=words) | (dict(interrupted=True) if interrupted else {})


def _checks(sp, cands, at, kept, judge_level, store, backend, progress, log):
    """The centre (``centre.centre_plan``), the judge checking each setting predicted closest first on
    ``search_deals`` fresh deals of the search's seed + ``CHECK_OFFSET``, paired with the standard rules (a task
    of its own in the folder's store: a rerun loads it): (plan, checks), each check (the standard rules' row, the
    setting's row, the seed, the ranking's row that predicted it); None when a check was interrupted."""
    fast = balanced_fast([lv.name for lv in sp.levels], judge_level.name)
    seed, checks = sp.seed + CHECK_OFFSET, []
    while True:
        rows = pd.concat([at, *[pd.DataFrame([r]) for _, r, _, _ in checks]], ignore_index=True)
        plan = centre_plan(kept, rows, fast, len(checks))
        if plan.check is None:
            return plan, checks
        c, top = plan.check, plan.ranking.iloc[0]
        log(f"the next ring's centre: {cands[c].words} is predicted closest to even at {judge_level.name} "
            f"({points(top['edge'])} points, from {top['level']}); measuring it there on {sp.search_deals:,} fresh "
            f"deals (seed {seed}), paired with the standard rules")
        res = Scheduler(cands, (judge_level,), backend, store, progress).play(
            seed, f"centre-{judge_level.name}", (0, c), 0, sp.search_deals, f"{judge_level.name}: the centre's check")
        if res.interrupted:
            return None
        std, row = setting_rows(cands, (0, c), (judge_level,), res.stats, sp.tolerance)
        checks.append((pd.Series(std), pd.Series(row), seed, top))


def _centre_json(plan, checks, cands, seed: int) -> dict:
    """How the centre was chosen, JSON-ready (``--json``'s ``ring.centre``): the first of the ranking (the best
    figure the search has of each kept setting at the judge, measured or predicted) and the settings checked."""
    first = plan.ranking.head(CENTRE_SHOWN)
    return dict(ranking=[dict(setting=r["setting"], words=r["words"], changes=int(r["changes"]), source=r["source"],
                              level=r["level"], seat_advantage=float(r["edge"]), ci95=[float(r["lo"]), float(r["hi"])],
                              distance_points=round(100 * float(r["distance"]), 2)) for _, r in first.iterrows()],
                checked=[dict(setting=p["setting"], words=p["words"], level=p["level"], predicted=float(p["edge"]),
                              predicted_ci95=[float(p["lo"]), float(p["hi"])], **_est(r)) for _, r, _, p in checks],
                seed=seed)


def next_ring(sp, cands, rec: dict, frames, folder, store, backend, progress: bool = False, log=None,
              kept=None, search_seed: int | None = None) -> dict | None:
    """The next ring when the answer ``rec`` (``verdict.recommendation``) is not fair at its judge: played, its
    outcome returned (``ring_outcome``); or why it was not (``ran`` false); None when the judge found a fair
    setting (or there is no answer to widen).  ``kept``: every setting the search kept, by level
    (``centre.kept_rows``), whose predicted figures at the judge choose the centre beside the measured ones;
    ``search_seed``: the seed of the search's deals at the judge (its final candidates')."""
    log = log or (lambda msg: None)
    if not rec or rec.get("fair"):
        return None
    judge = rec["judge"]
    if not sp.ring:
        return _skipped("off", "the next ring is off (--no-ring, or ring = false in the space)")
    if folder is None:
        return _skipped("no folder", "the next ring needs an output folder (--out) to resume from")
    at = judge_frame(frames, judge)
    if at.empty or not judge_anchors(at, judge, cands)["anchors"]:
        return _skipped("no anchor", f"no setting was measured at the judge ({judge}) beside the standard rules")
    judge_level = next(lv for lv in (sp.search_level, *sp.skill_levels, *sp.levels) if lv and lv.name == judge)
    found = _checks(sp, cands, at, pd.DataFrame() if kept is None else kept, judge_level, store, backend, progress,
                    log)
    if found is None:
        return _skipped("interrupted", "the check of the setting predicted closest at the judge was interrupted: run "
                                       "the same command again to resume it (nothing finished is played again)", True)
    plan, checks = found
    centre = plan.centre
    data = judge_anchors(at, judge, cands, checks)
    # the screen at the space's other levels (fast); a space of the judge alone screens at the judge itself
    fast = tuple(lv for lv in sp.levels if lv.name != judge) or (judge_level,)
    around = cands[centre].settings
    out = Path(folder) / RING_FOLDER
    out.mkdir(parents=True, exist_ok=True)
    names = "_".join(lv.name for lv in fast)
    first, most = sp.ring_race_deals
    log(f"the next ring: nothing measured is fair with {judge} on both sides; widening around the closest, "
        f"{cands[centre].words}")
    data_out = play_ring(sp, out, store, backend, data, around, fast, judge_level,
                         screen_deals=sp.ring_screen_deals, shortlist_size=sp.ring_shortlist, race_first=first,
                         race_max=most, confirm_deals=sp.search_deals, confirm_paired=True, progress=progress,
                         log=log, tags=dict(screen=f"ring-screen-{names}", race=f"ring-race-{judge}",
                                            confirm=f"ring-confirm-{judge}"))
    checked = {int(r["candidate"]): (r, seed) for _, r, seed, _ in checks}
    start, seed = checked.get(centre) or (next(r for _, r in at.iterrows() if int(r["candidate"]) == centre),
                                          search_seed)
    return ring_outcome(data_out, sp.tolerance, dict(setting=cands[centre].name, words=cands[centre].words,
                                                     **_est(start), measured="check" if centre in checked else
                                                     "search level", seed=seed),
                        _centre_json(plan, checks, cands, sp.seed + CHECK_OFFSET))


def _verdict(e: dict, tol: float) -> str:
    return interval_verdict(e["ci95"][0], e["ci95"][1], tol)


def _setting(s: dict) -> dict:
    return {k: s[k] for k in ("setting", "words", "changes", "size")}


def _judge_figures(data: dict, cands: dict) -> dict:
    """Every figure the ring measured at the judge, by candidate, the one on the most deals kept: the race's, the
    confirmation's (fresh deals, paired with the standard rules), and the screen's when it screened at the judge."""
    judge, seeds, out = data["judge"], data["seeds"], {}

    def add(m, e, measured, seed, paired=None):
        x = dict(_setting(cands[m]), deals=e["deals"], seat_advantage=e["seat_advantage"], ci95=list(e["ci95"]),
                 measured=measured, seed=seed)
        if paired:
            x |= dict(diff=e["diff"], diff_ci95=e["diff_ci95"], standard=paired["seat_advantage"],
                      standard_ci95=paired["ci95"])
        if m not in out or x["deals"] > out[m]["deals"]:
            out[m] = x

    if judge in data.get("fast_levels", []) and not data.get("interrupted"):
        for s in data["settings"]:
            if s["candidate"] != 0:
                add(s["candidate"], s["screen"][judge], "screen", seeds["screen"], cands[0]["screen"][judge])
    for m in data.get("judge_measured", []):
        add(m["candidate"], m, "race", seeds["race"])
    c = data.get("confirm")
    if c and not c.get("interrupted"):
        add(data["winner"], c["setting"], "confirmation", c["seed"], c.get("standard"))
    return out


def _closest(data: dict, cands: dict, tol: float) -> dict | None:
    """The ring's answer at the judge: the fair setting with the fewest changes (then the closest to even), else
    the setting closest to even, among every setting it measured there (``_judge_figures``)."""
    figures = [x | dict(verdict=_verdict(x, tol), distance_points=round(100 * abs(x["seat_advantage"]), 2))
               for x in _judge_figures(data, cands).values()]
    if not figures:
        return None
    return min(figures, key=lambda x: (x["verdict"] != FAIR, x["changes"] if x["verdict"] == FAIR else 0,
                                       x["distance_points"], x["changes"]))


def ring_outcome(data: dict, tol: float, start: dict, centre: dict | None = None) -> dict:
    """The ring in a few figures, JSON-ready (``--json``'s ``ring``): where it started (``start``: the closest
    setting measured at the judge, ``centre``: how it was chosen, ``_centre_json``), what it screened, mapped and
    raced, the games the screen saved, and the closest setting it found at the judge with its distance from an
    even game (``closest``), its paired confirmation beside the standard rules when it was confirmed."""
    cands = {s["candidate"]: s for s in data["settings"]}
    out = dict(ran=True, interrupted=bool(data.get("interrupted") or (data.get("confirm") or {}).get("interrupted")),
               file=f"{RING_FOLDER}/ring.json", judge=data["judge"], fast_levels=data["fast_levels"],
               tolerance_points=round(100 * tol, 10), seeds=data["seeds"],
               start=start | dict(verdict=_verdict(start, tol), distance_points=round(100 * abs(start["seat_advantage"]), 2)),
               **({"centre": centre} if centre is not None else {}),
               settings=sum(1 for s in data["settings"] if s["candidate"] != 0 and not s["anchor"]),
               screen=dict(deals=data["screen"]["deals"], games=data["screen"]["games"]))
    if "map_level" in data:
        m = next(x for x in data["maps"] if x["level"] == data["map_level"])
        out["map"] = {k: m[k] for k in ("level", "slope", "slope_se", "model_sd", "anchors")}
        out["could_be_fair"] = sum(p["could_be_fair"] for p in data["predictions"])
        out["raced"] = len(data["shortlist"])
    if "saving" in data:
        out["race"] = dict(games=data["saving"]["judge_games"],
                           games_without_screen=data["saving"]["judge_games_without_screen"])
    out["closest"] = _closest(data, cands, tol)
    out["fair"] = bool(out["closest"] and out["closest"]["verdict"] == FAIR)
    return out


def _fig(e: dict) -> str:
    return (f"{points(e['seat_advantage'])} points (95% interval {points(e['ci95'][0])} to {points(e['ci95'][1])}; "
            f"{e['deals']:,} deals)")


def _how(e: dict, tol_points: float) -> str:
    band = f"±{tol_points:g} point" + ("" if tol_points == 1 else "s")
    if e["verdict"] == FAIR:
        return f"within {band} of an even game: fair"
    if e["distance_points"] <= tol_points:
        return f"its estimate within {band} of an even game, too few deals to be sure"
    return f"{e['distance_points']:.1f} points from an even game, outside {band}"


def _centre_paragraphs(ring: dict) -> list[str]:
    """How the ring's centre was found, when the judge measured a setting predicted closer than its own (none
    otherwise: the centre is then the closest setting the search measured at the judge)."""
    centre, judge = ring.get("centre") or {}, ring["judge"]
    if not centre.get("checked"):
        return []
    said = "; ".join(f"{x['words']}, predicted at {points(x['predicted'])} points (95% interval "
                     f"{points(x['predicted_ci95'][0])} to {points(x['predicted_ci95'][1])}) from its effect at "
                     f"{x['level']}, measured at {_fig(x)}" for x in centre["checked"])
    return [f"Where to widen: every setting the search kept has an edge with {judge} on both sides, measured there "
            f"or predicted from its effect at the balanced fast levels (mapped through the settings measured at "
            f"both), and the one predicted closest to even was measured with {judge} before the ring was centred "
            f"(fresh deals, seed {centre['seed']}, paired with the standard rules): {said}."]


def ring_published(ring: dict | None) -> bool:
    """Whether the answer is published with the ring: it ran to its end, so its settings measured at the judge
    compete with the search's (an interrupted ring resumes first)."""
    return bool(ring and ring["ran"] and not ring["interrupted"])


def ring_paragraphs(ring: dict | None) -> list[str]:
    """The ring's outcome in plain words, a paragraph each (none when the ring was not needed)."""
    if not ring:
        return []
    if not ring["ran"]:
        return [f"The next ring was not searched: {ring['words']}."]
    judge, s = ring["judge"], ring["start"]
    alone = ring["fast_levels"] == [judge]  # a space of the judge alone: the screen is at the judge itself
    head = (f"The next ring: nothing measured was fair with {judge} on both sides (the closest, {s['words']}, at "
            f"{_fig(s)}), so the search widened around it: {ring['settings']} settings with one more change or a "
            f"step further, " + (f"measured with {judge} itself (the space has no other level to screen at)" if alone
                                 else f"screened at {', '.join(ring['fast_levels'])}")
            + f" on {ring['screen']['deals']:,} deals (seed {ring['seeds']['screen']}), beside the settings measured "
              f"at the judge before")
    if "map" in ring:
        m = ring["map"]
        head += ("" if alone else f"; their effects mapped to {judge}'s ({m['slope']:.2f} × the {m['level']} "
                                  f"effect, fitted on {m['anchors']} setting(s) measured at both)")
        head += (f"; {ring['could_be_fair']} could be fair and {ring['raced']} were raced at {judge} (seed "
                 f"{ring['seeds']['race']})")
    if "race" in ring:
        r = ring["race"]
        head += (f", {r['games']:,} games there against {r['games_without_screen']:,} had every ring setting been "
                 f"raced")
    parts = _centre_paragraphs(ring) + [head + "."]
    c = ring["closest"]
    if ring["interrupted"]:
        parts.append("The ring was interrupted: run the same command again to resume it (nothing finished is "
                     "played again).")
        if c is None:
            return parts
    if c is None:
        parts.append("No ring setting could be within the band by the map: none was raced at the judge.")
        return parts
    where = {"confirmation": f"confirmed on fresh deals (seed {c['seed']}), paired with the standard rules",
             "screen": f"on the screen's deals (seed {c['seed']}), paired with the standard rules",
             "race": f"on the race's deals (seed {c['seed']}), not confirmed"}[c["measured"]]
    what = "The fair setting" if c["verdict"] == FAIR else "The closest setting"
    line = (f"{what} the ring measured with {judge} on both sides: {c['words']}, {where}: Cleopatra's edge {_fig(c)}, "
            f"{_how(c, ring['tolerance_points'])}.")
    if "diff" in c:
        line += (f" The standard rules on the same deals: {points(c['standard'])} points, a change of "
                 f"{points(c['diff'])} (95% interval {points(c['diff_ci95'][0])} to {points(c['diff_ci95'][1])}).")
    return parts + [line]
