"""Playing the next ring (``ccsim.analyses.balance.ring.stages``): screen, map, race at the judge, confirm.

``python -m ccsim.analyses.balance.ring.run --out DIR --around action_count.cleopatra.veto=1 --anchors FILE``

Every stage plays through the balance search's ``Scheduler`` with the folder's ``tasks/`` store, so a rerun
with the same folder plays no finished task again (Ctrl-C keeps what finished).  The seeds are the
search's seed plus an offset per stage, none of them the race's (1) or the fresh re-measure's (2):
the screen at the fast levels takes seed + 2, the judge's race seed + 3, the confirmation seed + 4.

``ccsim balance`` runs the same stages itself (``play_ring``, through ``ccsim.analyses.balance.ring.widen``) when
nothing of its space is fair at the judge, with its own measurements at the judge as the anchors and its own
folder's task store; this command stays for a ring around a setting named by hand.

The judge anchors file (JSON) holds the settings already measured at the judge, paired with the
standard rules on the same deals: ``{"level": ..., "standard": {seat_advantage, ci95, deals},
"anchors": [{"setting": [[name, value], ...], "diff": ..., "diff_ci95": [lo, hi], "deals": ..., "source": ...}]}``.
Their fast-level effects come from the screen itself (they are played beside the ring, on its deals).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ccsim.analyses.balance.search.estimates import level_estimate
from ccsim.analyses.balance.publish.folder import TaskStore
from ccsim.analyses.balance.search.play import Scheduler
from ccsim.analyses.balance.judge import BALANCED, seat_status
from ccsim.analyses.judging.effect_map import interval_se
from ccsim.analyses.balance.ring.stages import (RingPlan, judge_race, pick_winner, race_games, ring,
                                         ring_plan, verdict_of)
from ccsim.analyses.balance.space import Param, Space, load_space, setting_of
from ccsim.analyses.levels import Level, parse_level
from ccsim.analyses.stats import Moments
from ccsim.analyses.balance.search.estimates import COLUMNS
from ccsim.runner.backends import LocalBackend

__all__ = ["run_ring", "play_ring", "RingError", "ring_estimate", "winner_candidates", "write_ring", "SCREEN_OFFSET",
           "RACE_OFFSET", "CONFIRM_OFFSET", "main"]

SCREEN_OFFSET, RACE_OFFSET, CONFIRM_OFFSET = 2, 3, 4


class RingError(ValueError):
    """Bad input to the ring (one line, exit status 2)."""




def _pair(text: str) -> tuple[str, int]:
    name, _, value = text.partition("=")
    try:
        return name.strip(), int(value)
    except ValueError:
        raise RingError(f"--around: give name=value, e.g. action_count.cleopatra.veto=1, got {text!r}") from None


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def ring_estimate(stats) -> dict:
    x = level_estimate(stats)
    return dict(deals=x["deals"], seat_advantage=x["seat_advantage"], ci95=[x["seat_advantage_lo"], x["seat_advantage_hi"]],
                diff=x["diff"], diff_ci95=[x["diff_lo"], x["diff_hi"]])


@dataclass(frozen=True)
class _Ring:
    """What every stage of one ring shares: the space, the candidates (the standard rules, then the anchors,
    then the ring), the levels and their players (one task store, so every stage resumes), and the name each
    stage's tasks carry in that store (``tags``: screen, race, confirm)."""
    sp: Space
    tol: float
    cands: list
    n_anchors: int
    fast: tuple
    judge: Level
    screener: Scheduler
    judger: Scheduler
    log: Callable[[str], None]
    tags: dict
    anchors: dict  # the judge anchors (the anchors file's JSON), kept in ring.json

    @property
    def n_ring(self) -> int:
        return len(self.cands) - 1 - self.n_anchors

    @property
    def changes(self) -> dict[int, int]:
        return {i: c.changes for i, c in enumerate(self.cands)}


#: the tasks' names of ``python -m ccsim.analyses.balance.ring.run`` (a folder of its own)
STAGE_TAGS = dict(screen="screen", race="race", confirm="confirm")


def run_ring(out, around, anchors_file, space=None, fast_levels=("neural", "tactician"), judge="neural-search",
             screen_deals=10_000, shortlist_size=6, race_first=400, race_max=3_000, confirm_deals=10_000,
             confirm_paired=True, tolerance=None, progress=True, log=_log) -> dict:
    """Screen, map, race and confirm (the module's docstring); writes ``ring.json`` in ``out``; returns it.

    Each stage that can be interrupted writes what it has with ``interrupted`` and returns (a rerun resumes)."""
    sp = load_space(space)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    store = TaskStore(folder / "tasks", warn=log)
    data = _read_anchors(anchors_file)
    fast = tuple(parse_level(n, RingError, "--fast-levels") for n in fast_levels)
    jl = parse_level(judge, RingError, "--judge")
    return play_ring(sp, folder, store, LocalBackend(), data, around, fast, jl, screen_deals=screen_deals,
                     shortlist_size=shortlist_size, race_first=race_first, race_max=race_max,
                     confirm_deals=confirm_deals, confirm_paired=confirm_paired, tolerance=tolerance,
                     progress=progress, log=log)


def play_ring(sp: Space, folder: Path, store: TaskStore, backend, data: dict, around, fast: tuple, judge: Level, *,
              screen_deals=10_000, shortlist_size=6, race_first=400, race_max=3_000, confirm_deals=10_000,
              confirm_paired=True, tolerance=None, progress=True, log=_log, tags=None) -> dict:
    """The ring around ``around`` ((name, value) pairs of ``sp``) with the judge anchors ``data`` (the anchors
    file's JSON), its tasks in ``store`` named by ``tags`` (``STAGE_TAGS``); writes ``folder/ring.json`` as each
    stage ends and returns it (``interrupted`` when Ctrl-C cut a stage short: a rerun resumes)."""
    cands, n_anchors = _candidates(sp, data["anchors"], around)
    rg = _Ring(sp, sp.tolerance if tolerance is None else tolerance, cands, n_anchors, tuple(fast), judge,
               Scheduler(cands, tuple(fast), backend, store, progress), Scheduler(cands, (judge,), backend, store,
                                                                                  progress),
               log, dict(STAGE_TAGS, **(tags or {})), data)
    _announce(rg, around, screen_deals)
    t0 = time.perf_counter()
    out_json, screen, interrupted = _screen(rg, around, screen_deals)
    if interrupted:
        return write_ring(folder, out_json | dict(interrupted=True))
    plans = _plans(rg, data, screen, shortlist_size)
    best = _best_plan(plans)
    out_json.update(_map_json(plans, best, rg.tol))
    _log_map(rg, best)
    write_ring(folder, out_json)
    if not best.chosen:
        return write_ring(folder, out_json)
    raced = _race(rg, best, race_first, race_max)
    if raced is None:
        return write_ring(folder, out_json | dict(interrupted=True))
    survivors, steps, measured = raced
    out_json.update(_race_json(rg, steps, measured, out_json["screen"]["games"]))
    out_json["survivors"] = survivors
    out_json["winner"] = _winner(rg, survivors, measured, screen)
    write_ring(folder, out_json)
    if not survivors or confirm_deals <= 0:
        return out_json
    out_json["confirm"] = _confirm(rg, out_json["winner"], confirm_deals, confirm_paired)
    out_json["seconds"] = round(time.perf_counter() - t0, 1)
    return write_ring(folder, out_json)


def _read_anchors(anchors_file) -> dict:
    """The judge anchors file's JSON: a missing or broken file is bad input (one line), not a traceback."""
    try:
        return json.loads(Path(anchors_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RingError(f"--anchors {anchors_file}: cannot read it ({e})") from None


def _candidates(sp: Space, anchors: list, around) -> tuple[list, int]:
    """The standard rules, the anchors (played beside the ring for their fast effects), then the ring's settings
    not already among them: (candidates, number of anchors)."""
    params = {p.name: p for p in sp.params}
    anchor_sets = [tuple((n, int(v)) for n, v in a["setting"]) for a in anchors]
    cands = [setting_of(())] + [setting_of(tuple((_param(params, n, v), v) for n, v in s)) for s in anchor_sets]
    keys = {c.key for c in cands}
    for c in ring(sp, tuple(around)):
        if c.key not in keys:
            keys.add(c.key)
            cands.append(c)
    return cands, len(anchor_sets)


def _announce(rg: _Ring, around, screen_deals: int) -> None:
    """One line saying what the ring holds and how it is screened (what a rerun would play again)."""
    rg.log(f"ring: {rg.n_ring} settings around {', '.join(f'{n} {v}' for n, v in around)}, "
           f"{rg.n_anchors} anchor(s); screen at {', '.join(lv.name for lv in rg.fast)} on {screen_deals:,} deals "
           f"(seed {rg.sp.seed + SCREEN_OFFSET})")


def _screen(rg: _Ring, around, screen_deals: int) -> tuple[dict, dict, bool]:
    """The fast screen: every candidate at each fast level on the same deals (cheap enough to play them all);
    returns ring.json so far, each candidate's estimate per fast level, and whether it was interrupted."""
    res = rg.screener.play(rg.sp.seed + SCREEN_OFFSET, rg.tags["screen"], range(len(rg.cands)), 0, screen_deals,
                           "ring: fast screen")
    screen = {i: {lv.name: ring_estimate(res.stats[i][k]) for k, lv in enumerate(rg.fast)} for i in range(len(rg.cands))}
    out_json = dict(around=[list(a) for a in around], tolerance=rg.tol, judge=rg.judge.name,
                    fast_levels=[lv.name for lv in rg.fast],
                    seeds=dict(screen=rg.sp.seed + SCREEN_OFFSET, race=rg.sp.seed + RACE_OFFSET,
                               confirm=rg.sp.seed + CONFIRM_OFFSET),
                    judge_anchors=rg.anchors,
                    settings=[dict(candidate=i, setting=c.name, words=c.words, key=c.key, changes=c.changes,
                                   size=c.size, anchor=1 <= i <= rg.n_anchors, screen=screen[i])
                              for i, c in enumerate(rg.cands)],
                    screen=dict(deals=screen_deals, games=res.games, seconds=round(res.seconds, 1)))
    return out_json, screen, res.interrupted


def _plans(rg: _Ring, data: dict, screen: dict, shortlist_size: int) -> dict:
    """Each fast level's map from its effects to the judge's, fitted on the anchors, with the ring's predictions
    and the shortlist of what could be fair at the judge: {level name: RingPlan}."""
    std, plans = data["standard"], {}
    for lv in rg.fast:
        anchors = {i: (screen[i][lv.name]["diff"], interval_se(*screen[i][lv.name]["diff_ci95"]),
                       a["diff"], interval_se(*a["diff_ci95"]))
                   for i, a in zip(range(1, rg.n_anchors + 1), data["anchors"])}
        effects = {i: (screen[i][lv.name]["diff"], interval_se(*screen[i][lv.name]["diff_ci95"]))
                   for i in range(rg.n_anchors + 1, len(rg.cands))}
        plans[lv.name] = ring_plan(effects, anchors, lv.name, std["seat_advantage"], interval_se(*std["ci95"]), rg.tol,
                                   rg.changes, shortlist_size)
    return plans


def _best_plan(plans: dict) -> RingPlan:
    """The map that decides: the fast level whose anchors scatter least around their line (then the surest slope)."""
    return min(plans.values(), key=lambda p: (p.emap.model_sd, p.emap.slope_se))


def _map_json(plans: dict, best: RingPlan, tol: float) -> dict:
    """ring.json's maps (every fast level's), the deciding level, its predictions and the shortlist raced."""
    return dict(maps=[dict(level=p.emap.level, slope=p.emap.slope, slope_se=p.emap.slope_se,
                           model_sd=p.emap.model_sd, anchors=p.emap.anchors) for p in plans.values()],
                map_level=best.emap.level,
                predictions=[dict(candidate=p.candidate, edge=p.edge, edge_se=p.edge_se, interval=list(p.interval),
                                  could_be_fair=p.could_be_fair(tol)) for p in best.predictions],
                shortlist=[p.candidate for p in best.chosen])


def _log_map(rg: _Ring, best: RingPlan) -> None:
    """One line on the deciding map and how many settings go on to the judge (the judge's games are the dear ones)."""
    rg.log(f"ring: map from {best.emap.level}: judge effect = {best.emap.slope:.3f} x fast effect "
           f"(± {best.emap.slope_se:.3f}, model spread {100 * best.emap.model_sd:.1f} points); "
           f"{sum(p.could_be_fair(rg.tol) for p in best.predictions)} of {len(best.predictions)} could be fair, "
           f"racing {len(best.chosen)} at {rg.judge.name}")


def _race(rg: _Ring, best: RingPlan, race_first: int, race_max: int):
    """The race at the judge: the shortlist alone (its edge needs no standard rules beside it), halving and
    dropping the clearly unfair; (survivors, rounds, each raced setting's judge estimate), None if interrupted."""
    prior = {p.candidate: (p.edge, p.edge_se) for p in best.chosen}
    moments: dict[int, Moments] = {}

    def measure(members, first, deals):
        r = rg.judger.play(rg.sp.seed + RACE_OFFSET, rg.tags["race"], members, first, deals,
                           f"ring: {rg.judge.name} race, {len(members)} setting(s)")
        if r.interrupted:
            raise KeyboardInterrupt
        out = {}
        for m in members:
            moments.setdefault(m, Moments(len(COLUMNS))).merge(r.stats[m][0])
            x = level_estimate(moments[m])
            out[m] = (x["seat_advantage"], x["seat_advantage_lo"], x["seat_advantage_hi"])
        rg.log("  " + "; ".join(f"{rg.cands[m].name}: {100 * e[0]:+.1f} [{100 * e[1]:+.1f}, {100 * e[2]:+.1f}]"
                                for m, e in out.items()))
        return out

    try:
        survivors, steps = judge_race(measure, [p.candidate for p in best.chosen], rg.tol, race_first, race_max,
                                      prior=prior)
    except KeyboardInterrupt:
        return None
    return survivors, steps, {m: level_estimate(x) for m, x in moments.items()}


def _race_json(rg: _Ring, steps: list, measured: dict, fast_games: int) -> dict:
    """ring.json's race (its rounds), each raced setting's judge estimate and verdict, and the judge games the
    screen saved: every ring setting raced at the judge to the winner's depth, against the race's own."""
    depth = sum(s.deals for s in steps)
    return dict(race=dict(seed=rg.sp.seed + RACE_OFFSET, games=race_games(steps),
                          rounds=[dict(first=s.first, deals=s.deals, members=s.members,
                                       estimates={str(m): list(e) for m, e in s.estimates.items()},
                                       out_unfair=s.out_unfair, out_halved=s.out_halved) for s in steps]),
                judge_measured=[dict(candidate=m, deals=x["deals"], seat_advantage=x["seat_advantage"],
                                     ci95=[x["seat_advantage_lo"], x["seat_advantage_hi"]],
                                     verdict=verdict_of((x["seat_advantage"], x["seat_advantage_lo"],
                                                         x["seat_advantage_hi"]), rg.tol))
                                for m, x in measured.items()],
                saving=dict(ring=rg.n_ring, judge_games=race_games(steps), judge_games_without_screen=rg.n_ring * depth,
                            fast_games=fast_games))


def _winner(rg: _Ring, survivors: list, measured: dict, screen: dict) -> int | None:
    """The survivor to confirm by the answer's own rule (fewest changes, then closest to even at the judge and at
    the balanced fast levels), not the race's order alone: the race ranks the judge's closeness only."""
    if not survivors:
        return None
    balanced_fast = [lv.name for lv in rg.fast if seat_status(lv.name) == BALANCED]
    spreads = {m: [(x["seat_advantage"], x["seat_advantage_lo"], x["seat_advantage_hi"])]
               + [(screen[m][n]["seat_advantage"], *screen[m][n]["ci95"]) for n in balanced_fast]
               for m, x in measured.items()}
    return pick_winner(survivors, rg.changes, spreads)


def _confirm(rg: _Ring, w: int, confirm_deals: int, confirm_paired: bool) -> dict:
    """The winner re-measured at the judge on fresh deals (the race chose it, so its race figures flatter it);
    ring.json's confirm, with ``interrupted`` when it was cut short."""
    # paired: the standard rules on the same fresh deals too (the change's own effect); unpaired: the setting
    # alone, half the games -- its edge, what "fair" is about, is the same figure either way
    members = (0, w) if confirm_paired else (w,)
    rg.log(f"ring: confirming {rg.cands[w].words} with {rg.judge.name} on both sides, {confirm_deals:,} fresh deals "
           f"(seed {rg.sp.seed + CONFIRM_OFFSET})" + (", paired with the standard rules" if confirm_paired else
                                                      ", the setting alone"))
    r = rg.judger.play(rg.sp.seed + CONFIRM_OFFSET, rg.tags["confirm"], members, 0, confirm_deals,
                       f"ring: {rg.judge.name} confirmation")
    setting = ring_estimate(r.stats[w][0])
    if not confirm_paired:
        setting = {k: v for k, v in setting.items() if k not in ("diff", "diff_ci95")}
    confirm = dict(seed=rg.sp.seed + CONFIRM_OFFSET, games=r.games, seconds=round(r.seconds, 1),
                   interrupted=r.interrupted, paired=confirm_paired, setting=setting,
                   standard=ring_estimate(r.stats[0][0]) if confirm_paired else None)
    confirm["verdict"] = verdict_of((setting["seat_advantage"], *setting["ci95"]), rg.tol)
    return confirm


def run_curve(out, levels, deals=20_000, space=None, seed_offset=CONFIRM_OFFSET, progress=True, log=_log) -> dict:
    """The ring's winner and the standard rules on ``deals`` fresh deals (the confirmation's seed) at each of
    ``levels`` (the skill curve's other levels), paired; written to ``curve.json`` beside ``ring.json``."""
    folder = Path(out)
    data = json.loads((folder / "ring.json").read_text(encoding="utf-8"))
    if data.get("winner") is None:
        raise RingError(f"{folder / 'ring.json'}: the ring has no winner yet")
    sp = load_space(space)
    w, cands = winner_candidates(data, sp)
    store, backend = TaskStore(folder / "tasks", warn=log), LocalBackend()
    path = folder / "curve.json"
    kept = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    # the curve of this winner: a file of another (the ring's winner changed) starts again
    curve = kept if kept.get("setting") == w["key"] else dict(setting=w["key"], words=w["words"], levels={})
    for name in levels:
        lv = parse_level(name, RingError, "--curve-levels")
        log(f"ring: the skill curve at {lv.name}, {deals:,} deals (seed {sp.seed + seed_offset})")
        r = Scheduler(cands, (lv,), backend, store, progress).play(sp.seed + seed_offset, f"curve-{lv.name}", (0, 1), 0,
                                                              deals, f"ring: curve at {lv.name}")
        if r.interrupted:
            break
        curve["levels"][lv.name] = dict(seed=sp.seed + seed_offset, standard=ring_estimate(r.stats[0][0]),
                                        setting=ring_estimate(r.stats[1][0]))
        tmp = folder / "curve.json.tmp"
        tmp.write_text(json.dumps(curve, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    return curve


def winner_candidates(data: dict, sp: Space) -> tuple[dict, list]:
    """ring.json's winner (its settings entry) and the candidates [the standard rules, the winner] of ``sp``."""
    w = next(s for s in data["settings"] if s["candidate"] == data["winner"])
    params = {p.name: p for p in sp.params}
    combo = tuple((_param(params, n, v), v) for n, v in _settings_of(w["key"], params))
    return w, [setting_of(()), setting_of(combo)]


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


def write_ring(folder: Path, data: dict) -> dict:
    tmp = folder / "ring.json.tmp"
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(folder / "ring.json")
    return data


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ccsim.analyses.balance.ring.run", description=__doc__.splitlines()[0])
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
