"""Playing the next ring (``ccsim.analyses.balance.ring``): screen, map, race at the judge, confirm.

``python -m ccsim.analyses.balance.ring_run --out DIR --around action_count.cleopatra.veto=1 --anchors FILE``

Every stage plays through the balance search's ``Player`` with the folder's ``tasks/`` store, so a rerun
with the same folder plays no finished task again (Ctrl-C keeps what finished).  The seeds are the
search's seed plus an offset per stage, none of them the race's (1) or the fresh re-measure's (2):
the screen at the fast levels takes seed + 2, the judge's race seed + 3, the confirmation seed + 4.

The judge anchors file (JSON) holds the settings already measured at the judge, paired with the
standard rules on the same deals: ``{"level": ..., "standard": {seat_advantage, ci95, deals},
"anchors": [{"setting": [[name, value], ...], "diff": ..., "diff_ci95": [lo, hi], "deals": ..., "source": ...}]}``.
Their fast-level effects come from the screen itself (they are played beside the ring, on its deals).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from ccsim.analyses.balance.estimates import level_estimate
from ccsim.analyses.balance.folder import TaskStore
from ccsim.analyses.balance.play import Player
from ccsim.analyses.balance.judge import BALANCED, seat_status
from ccsim.analyses.balance.ring import Z, judge_race, pick_winner, race_games, ring, ring_plan, verdict_of
from ccsim.analyses.balance.space import Param, load_space, setting_of
from ccsim.analyses.levels import parse_level
from ccsim.analyses.stats import Moments
from ccsim.analyses.balance.estimates import COLUMNS
from ccsim.runner.backends import LocalBackend

__all__ = ["run_ring", "main"]

SCREEN_OFFSET, RACE_OFFSET, CONFIRM_OFFSET = 2, 3, 4


class RingError(ValueError):
    """Bad input to the ring (one line, exit status 2)."""


def _se(lo: float, hi: float) -> float:
    return (hi - lo) / (2 * Z)


def _pair(text: str) -> tuple[str, int]:
    name, _, value = text.partition("=")
    try:
        return name.strip(), int(value)
    except ValueError:
        raise RingError(f"--around: give name=value, e.g. action_count.cleopatra.veto=1, got {text!r}") from None


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _est(stats) -> dict:
    x = level_estimate(stats)
    return dict(deals=x["deals"], seat_advantage=x["seat_advantage"], ci95=[x["seat_advantage_lo"], x["seat_advantage_hi"]],
                diff=x["diff"], diff_ci95=[x["diff_lo"], x["diff_hi"]])


def run_ring(out, around, anchors_file, space=None, fast_levels=("neural", "tactician"), judge="neural-search",
             screen_deals=10_000, shortlist_size=6, race_first=400, race_max=3_000, confirm_deals=10_000,
             confirm_paired=True, tolerance=None, progress=True, log=_log) -> dict:
    """Screen, map, race and confirm (the module's docstring); writes ``ring.json`` in ``out``; returns it."""
    sp = load_space(space)
    tol = sp.tolerance if tolerance is None else tolerance
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    store = TaskStore(folder / "tasks", warn=log)
    backend = LocalBackend()
    try:
        data = json.loads(Path(anchors_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RingError(f"--anchors {anchors_file}: cannot read it ({e})") from None
    params = {p.name: p for p in sp.params}
    anchor_sets = [tuple((n, int(v)) for n, v in a["setting"]) for a in data["anchors"]]
    cands = [setting_of(())] + [setting_of(tuple((_param(params, n, v), v) for n, v in s)) for s in anchor_sets]
    n_anchors = len(cands) - 1
    keys = {c.key for c in cands}
    for c in ring(sp, tuple(around)):
        if c.key not in keys:
            keys.add(c.key)
            cands.append(c)
    fast = tuple(parse_level(n, RingError, "--fast-levels") for n in fast_levels)
    jl = parse_level(judge, RingError, "--judge")
    log(f"ring: {len(cands) - 1 - n_anchors} settings around {', '.join(f'{n} {v}' for n, v in around)}, "
        f"{n_anchors} anchor(s); screen at {', '.join(lv.name for lv in fast)} on {screen_deals:,} deals "
        f"(seed {sp.seed + SCREEN_OFFSET})")
    t0 = time.perf_counter()
    res = Player(cands, fast, backend, store, progress).play(sp.seed + SCREEN_OFFSET, "screen", range(len(cands)), 0,
                                                           screen_deals, "ring: fast screen")
    screen = {i: {lv.name: _est(res.stats[i][k]) for k, lv in enumerate(fast)} for i in range(len(cands))}
    out_json = dict(around=[list(a) for a in around], tolerance=tol, judge=jl.name, fast_levels=[lv.name for lv in fast],
                    seeds=dict(screen=sp.seed + SCREEN_OFFSET, race=sp.seed + RACE_OFFSET,
                               confirm=sp.seed + CONFIRM_OFFSET),
                    settings=[dict(candidate=i, setting=c.name, words=c.words, key=c.key, changes=c.changes,
                                   size=c.size, anchor=1 <= i <= n_anchors, screen=screen[i])
                              for i, c in enumerate(cands)],
                    screen=dict(deals=screen_deals, games=res.games, seconds=round(res.seconds, 1)))
    if res.interrupted:
        return _write(folder, out_json | dict(interrupted=True))
    std = data["standard"]
    # the map: each fast level's, the one whose anchors scatter least around their line decides
    plans = {}
    for lv in fast:
        anchors = {i: (screen[i][lv.name]["diff"], _se(*screen[i][lv.name]["diff_ci95"]),
                       a["diff"], _se(*a["diff_ci95"])) for i, a in zip(range(1, n_anchors + 1), data["anchors"])}
        effects = {i: (screen[i][lv.name]["diff"], _se(*screen[i][lv.name]["diff_ci95"]))
                   for i in range(n_anchors + 1, len(cands))}
        plans[lv.name] = ring_plan(effects, anchors, lv.name, std["seat_advantage"], _se(*std["ci95"]), tol,
                                   {i: cands[i].changes for i in range(len(cands))}, shortlist_size)
    best = min(plans.values(), key=lambda p: (p.emap.model_sd, p.emap.slope_se))
    out_json["maps"] = [dict(level=p.emap.level, slope=p.emap.slope, slope_se=p.emap.slope_se,
                             model_sd=p.emap.model_sd, anchors=p.emap.anchors) for p in plans.values()]
    out_json["map_level"] = best.emap.level
    out_json["predictions"] = [dict(candidate=p.candidate, edge=p.edge, edge_se=p.edge_se, interval=list(p.interval),
                                    could_be_fair=p.could_be_fair(tol)) for p in best.predictions]
    out_json["shortlist"] = [p.candidate for p in best.chosen]
    log(f"ring: map from {best.emap.level}: judge effect = {best.emap.slope:.3f} x fast effect "
        f"(± {best.emap.slope_se:.3f}, model spread {100 * best.emap.model_sd:.1f} points); "
        f"{sum(p.could_be_fair(tol) for p in best.predictions)} of {len(best.predictions)} could be fair, "
        f"racing {len(best.chosen)} at {jl.name}")
    _write(folder, out_json)
    if not best.chosen:
        return _write(folder, out_json)
    # the race at the judge: the shortlist alone (its edge needs no standard rules beside it)
    prior = {p.candidate: (p.edge, p.edge_se) for p in best.chosen}
    moments: dict[int, Moments] = {}
    judge_player = Player(cands, (jl,), backend, store, progress)
    interrupted = []

    def measure(members, first, deals):
        r = judge_player.play(sp.seed + RACE_OFFSET, "race", members, first, deals,
                              f"ring: {jl.name} race, {len(members)} setting(s)")
        interrupted.append(r.interrupted)
        if r.interrupted:
            raise KeyboardInterrupt
        out = {}
        for m in members:
            moments.setdefault(m, Moments(len(COLUMNS))).merge(r.stats[m][0])
            x = level_estimate(moments[m])
            out[m] = (x["seat_advantage"], x["seat_advantage_lo"], x["seat_advantage_hi"])
        log("  " + "; ".join(f"{cands[m].name}: {100 * e[0]:+.1f} [{100 * e[1]:+.1f}, {100 * e[2]:+.1f}]"
                             for m, e in out.items()))
        return out

    try:
        survivors, steps = judge_race(measure, [p.candidate for p in best.chosen], tol, race_first, race_max,
                                      prior=prior)
    except KeyboardInterrupt:
        return _write(folder, out_json | dict(interrupted=True))
    out_json["race"] = dict(seed=sp.seed + RACE_OFFSET, games=race_games(steps),
                            rounds=[dict(first=s.first, deals=s.deals, members=s.members,
                                         estimates={str(m): list(e) for m, e in s.estimates.items()},
                                         out_unfair=s.out_unfair, out_halved=s.out_halved) for s in steps])
    measured = {m: level_estimate(x) for m, x in moments.items()}
    out_json["judge_measured"] = [dict(candidate=m, deals=x["deals"], seat_advantage=x["seat_advantage"],
                                       ci95=[x["seat_advantage_lo"], x["seat_advantage_hi"]],
                                       verdict=verdict_of((x["seat_advantage"], x["seat_advantage_lo"],
                                                           x["seat_advantage_hi"]), tol)) for m, x in measured.items()]
    # the judge games the screening saved: every ring setting raced at the judge to the winner's depth
    depth = sum(s.deals for s in steps)
    out_json["saving"] = dict(ring=len(cands) - 1 - n_anchors, judge_games=race_games(steps),
                              judge_games_without_screen=(len(cands) - 1 - n_anchors) * depth,
                              fast_games=res.games)
    # the survivor confirmed: the answer's own rule (fewest changes, then closest to even at the judge and at
    # the balanced fast levels), not the race's order alone -- the race ranks the judge's closeness only
    balanced_fast = [lv.name for lv in fast if seat_status(lv.name) == BALANCED]
    spreads = {m: [(x["seat_advantage"], x["seat_advantage_lo"], x["seat_advantage_hi"])]
               + [(screen[m][n]["seat_advantage"], *screen[m][n]["ci95"]) for n in balanced_fast]
               for m, x in measured.items()}
    out_json["survivors"] = survivors
    out_json["winner"] = pick_winner(survivors, {i: cands[i].changes for i in range(len(cands))}, spreads) \
        if survivors else None
    _write(folder, out_json)
    if not survivors or confirm_deals <= 0:
        return out_json
    w = out_json["winner"]
    # paired: the standard rules on the same fresh deals too (the change's own effect); unpaired: the setting
    # alone, half the games -- its edge, what "fair" is about, is the same figure either way
    members = (0, w) if confirm_paired else (w,)
    log(f"ring: confirming {cands[w].words} with {jl.name} on both sides, {confirm_deals:,} fresh deals "
        f"(seed {sp.seed + CONFIRM_OFFSET})" + (", paired with the standard rules" if confirm_paired else
                                                ", the setting alone"))
    r = judge_player.play(sp.seed + CONFIRM_OFFSET, "confirm", members, 0, confirm_deals,
                          f"ring: {jl.name} confirmation")
    setting = _est(r.stats[w][0])
    if not confirm_paired:
        setting = {k: v for k, v in setting.items() if k not in ("diff", "diff_ci95")}
    out_json["confirm"] = dict(seed=sp.seed + CONFIRM_OFFSET, games=r.games, seconds=round(r.seconds, 1),
                               interrupted=r.interrupted, paired=confirm_paired, setting=setting,
                               standard=_est(r.stats[0][0]) if confirm_paired else None)
    out_json["confirm"]["verdict"] = verdict_of((out_json["confirm"]["setting"]["seat_advantage"],
                                                 *out_json["confirm"]["setting"]["ci95"]), tol)
    out_json["seconds"] = round(time.perf_counter() - t0, 1)
    return _write(folder, out_json)


def run_curve(out, levels, deals=20_000, space=None, seed_offset=CONFIRM_OFFSET, progress=True, log=_log) -> dict:
    """The ring's winner and the standard rules on ``deals`` fresh deals (the confirmation's seed) at each of
    ``levels`` (the skill curve's other levels), paired; written to ``curve.json`` beside ``ring.json``."""
    folder = Path(out)
    data = json.loads((folder / "ring.json").read_text(encoding="utf-8"))
    if data.get("winner") is None:
        raise RingError(f"{folder / 'ring.json'}: the ring has no winner yet")
    sp = load_space(space)
    w = next(s for s in data["settings"] if s["candidate"] == data["winner"])
    params = {p.name: p for p in sp.params}
    combo = tuple((_param(params, n, v), v) for n, v in _settings_of(w["key"], params))
    cands = [setting_of(()), setting_of(combo)]
    store, backend = TaskStore(folder / "tasks", warn=log), LocalBackend()
    path = folder / "curve.json"
    kept = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    # the curve of this winner: a file of another (the ring's winner changed) starts again
    curve = kept if kept.get("setting") == w["key"] else dict(setting=w["key"], words=w["words"], levels={})
    for name in levels:
        lv = parse_level(name, RingError, "--curve-levels")
        log(f"ring: the skill curve at {lv.name}, {deals:,} deals (seed {sp.seed + seed_offset})")
        r = Player(cands, (lv,), backend, store, progress).play(sp.seed + seed_offset, f"curve-{lv.name}", (0, 1), 0,
                                                              deals, f"ring: curve at {lv.name}")
        if r.interrupted:
            break
        curve["levels"][lv.name] = dict(seed=sp.seed + seed_offset, standard=_est(r.stats[0][0]),
                                        setting=_est(r.stats[1][0]))
        tmp = folder / "curve.json.tmp"
        tmp.write_text(json.dumps(curve, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    return curve


def _settings_of(key: str, params: dict) -> list[tuple[str, int]]:
    """The (param, value) pairs of the space whose change gives the rules ``key`` (the ring's own settings)."""
    block = json.loads(key)["rules"]
    out = []

    def walk(prefix, node):
        for k, v in node.items():
            name = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                walk(name, v)
            else:
                out.append((name, int(v)))
    walk("", block)
    for variant in json.loads(key)["variants"]:
        out.append((variant, 1))
    unknown = [n for n, _ in out if n not in params]
    if unknown:
        raise RingError(f"the winner changes {unknown[0]!r}, not a parameter of the space")
    return out


def _param(params: dict, name: str, value: int) -> Param:
    p = params.get(name)
    if p is None:
        raise RingError(f"anchor setting: {name!r} is not a parameter of the space")
    return p if value in p.values else Param(p.name, tuple(sorted({*p.values, value})), p.default)


def _write(folder: Path, data: dict) -> dict:
    tmp = folder / "ring.json.tmp"
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(folder / "ring.json")
    return data


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ccsim.analyses.balance.ring_run", description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--around", action="append", default=[], help="name=value of the closest setting, repeatable")
    ap.add_argument("--anchors", default=None, help="the judge anchors (JSON)")
    ap.add_argument("--space", default=None)
    ap.add_argument("--fast-levels", default="neural,tactician")
    ap.add_argument("--judge", default="neural-search")
    ap.add_argument("--screen-deals", type=int, default=10_000)
    ap.add_argument("--shortlist", type=int, default=6)
    ap.add_argument("--race-first", type=int, default=400)
    ap.add_argument("--race-max", type=int, default=3_000)
    ap.add_argument("--confirm-deals", type=int, default=10_000)
    ap.add_argument("--confirm-unpaired", action="store_true",
                    help="confirm the setting alone (half the games), without the standard rules beside it")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--curve-levels", default=None,
                    help="only the skill curve: the ring's winner and the standard rules at these levels (a,b,...)")
    ap.add_argument("--curve-deals", type=int, default=20_000)
    ap.add_argument("--no-progress", action="store_true")
    a = ap.parse_args(argv)
    from ccsim.kernel.simulate import set_threads
    set_threads(a.threads)
    try:
        if a.curve_levels:
            run_curve(a.out, a.curve_levels.split(","), a.curve_deals, a.space, progress=not a.no_progress)
            return 0
        if not a.around or not a.anchors:
            raise RingError("give --around name=value and --anchors FILE (or --curve-levels)")
        run_ring(a.out, [_pair(x) for x in a.around], a.anchors, a.space, a.fast_levels.split(","), a.judge,
                 a.screen_deals, a.shortlist, a.race_first, a.race_max, a.confirm_deals,
                 confirm_paired=not a.confirm_unpaired, progress=not a.no_progress)
    except (RingError, ValueError) as e:
        print(f"ccsim: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
