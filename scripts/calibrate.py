"""The judge's map, fitted and checked: results/calibration/ and the package's judge store.

    python scripts/calibrate.py play    [--deals 1500] [--seed 2026120702]   # the check settings at the judge
    python scripts/calibrate.py fit     [--fast-deals 20000]                 # fit, check, write everything
    python scripts/calibrate.py report                                       # the README and plot again

Run both when the judge or a fast level changes (``play`` resumes from its task folder after a Ctrl-C;
``fit`` plays only fast games, a minute or two).

* **play** — the check settings (``CHECKS``: changes to the hand, the board, the vote deck, the scoring and
  the action cards, the four variants, and deck orders) and the standard rules, at the judge, on the same
  ``--deals`` fresh deals: Cleopatra's score on each deal of each, kept in
  results/calibration/judge_scores.npz.
* **fit** — gathers every judge measurement the published results hold (results/balance, its ring, the
  report's) into the judge store (``ccsim/analyses/judging/measured.json``), measures each stored setting's
  effect at every fast balanced level, and fits the map on them (``map.json`` beside the store).  Then it
  predicts each check setting from the fast levels' effects on fresh deals and compares the prediction with
  the judge's measurement: the share of 95% prediction intervals that hold the measurement, the RMS error and
  the slope of measured on predicted effects (results/calibration/calibration.json, README.md and
  calibration.png).  Last, the check settings join the store as measured (the map stays as fitted: it was
  checked on settings it had not seen).
"""
from __future__ import annotations

import datetime as dt
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "calibration"
SCORES = OUT / "judge_scores.npz"

#: the check settings: (rules block, variants, (Cleopatra's order, Caesar's)); none of them is in the fit set
CHECKS = (
    ({"hand_size": 4}, (), None),
    ({"hand_size": 6}, (), None),
    ({"group_limit": 7}, (), None),
    ({"side_limit": 4}, (), None),
    ({"orgies": 1}, (), None),
    ({"orgies": 3}, (), None),
    ({"vp_bonus": 4}, (), None),
    ({"bonus_threshold": 2}, (), None),
    ({"action_count": {"caesar": {"spy": 3}}}, (), None),
    ({"action_count": {"caesar": {"wrath": 0}}}, (), None),
    ({"action_count": {"cleopatra": {"assassination": 3}}}, (), None),
    ({"action_count": {"caesar": {"scout": 3}}}, (), None),
    ({"action_count": {"caesar": {"castling": 1}}}, (), None),
    ({"action_count": {"caesar": {"veto": 3}}}, (), None),
    ({"hand_size": 4, "orgies": 3}, (), None),
    ({}, ("two_orgies",), None),
    ({}, ("majority_needs_complete",), None),
    ({}, ("lone_player_no_draw",), None),
    ({}, ("late_orgies_boxed",), None),
    ({}, (), ("AVAVWAACSRCSR", "shuffled")),
    ({}, (), ("shuffled", "AVAVWAACSRCSR")),
    ({}, (), ("veto-first", "shuffled")),
)


def _settings(rows):
    """(rules vector, canonical orders) of (block, variants, orders) rows."""
    from ccsim.runner.orderings import SHUFFLED, parse_ordering
    from ccsim.runner.ruleset import action_counts, rules_vector
    out = []
    for block, variants, orders in rows:
        vec = rules_vector(block, tuple(variants))
        orders = orders or (SHUFFLED, SHUFFLED)
        out.append((vec, tuple(parse_ordering(o, action_counts(vec, p)) for p, o in enumerate(orders))))
    return out


def check_settings():
    """The standard rules, then every check setting: (rules vector, orders) each."""
    return _settings([({}, (), None), *CHECKS])


def play(args) -> None:
    from ccsim.analyses.balance.publish.folder import TaskStore
    from ccsim.analyses.judging.play import play_settings
    from ccsim.analyses.judging.store import setting_key
    judge = judge_of(args)
    settings = check_settings()
    keys = [setting_key(v, o) for v, o in settings]
    store = TaskStore(OUT / "tasks", arrays=("scores",))
    scores, interrupted = play_settings(settings, judge, args.seed, args.deals, keys=keys, store=store,
                                        progress=True, label=f"{judge}, {len(settings)} settings",
                                        part=(args.share - 1, args.shares))
    OUT.mkdir(parents=True, exist_ok=True)
    if args.shares > 1:
        print(f"share {args.share} of {args.shares} played; run it again without --shares to gather every share",
              file=sys.stderr)
        return
    np.savez_compressed(SCORES, scores=(2 * scores).astype(np.int8), keys=np.array(keys), judge=judge,
                        seed=args.seed, command=f"python scripts/calibrate.py play --deals {args.deals} "
                                                f"--seed {args.seed}")
    print(f"{judge}: {len(scores):,} deals of {len(settings)} settings"
          f"{' (interrupted: run it again to go on)' if interrupted else ''}; wrote {SCORES}", file=sys.stderr)


def main(argv=None):
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="part", required=True)
    p = sub.add_parser("play", help="the check settings at the judge")
    p.add_argument("--deals", type=int, default=1500)
    p.add_argument("--seed", type=int, default=2026120702)
    p.add_argument("--judge", default=None, help="the strong level [the strongest search shown balanced, else the strongest search]")
    p.add_argument("--share", type=int, default=1, help="with --shares N: play this share of the tasks (1..N)")
    p.add_argument("--shares", type=int, default=1, help="split the tasks across N processes sharing the folder "
                   "(each with NUMBA_NUM_THREADS=1); a last run without it gathers every share")
    p = sub.add_parser("fit", help="fit the map, check it, write the store, the map and results/calibration")
    p.add_argument("--fast-deals", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=2026120703, help="the fast levels' deals")
    p.add_argument("--judge", default=None, help="the strong level [the strongest search shown balanced, else the strongest search]")
    sub.add_parser("report", help="results/calibration/README.md and the plot from calibration.json")
    args = ap.parse_args(argv)
    from ccsim.errors import UsageError
    try:
        {"play": play, "fit": fit, "report": report}[args.part](args)
    except UsageError as e:
        print(f"calibrate.py {args.part}: {e}", file=sys.stderr)
        raise SystemExit(2) from None


# --------------------------------------------------------------------- the published judge measurements --
def _row(key, words, edge, ci95, deals, seed, source, effect=None, effect_ci95=None) -> dict:
    return dict(key=key, words=words, edge=float(edge), ci95=[float(c) for c in ci95], deals=int(deals),
                seed=seed, effect=None if effect is None else float(effect),
                effect_ci95=None if effect_ci95 is None else [float(c) for c in effect_ci95], source=source)


def published_rows(judge: str) -> list[dict]:
    """Every measurement with ``judge`` on both sides that results/ holds, one row per measurement (a setting
    measured twice has two): the balance search's settings at its search level, the check beyond it, the
    ring's race and confirmation, and the report's standard-rules edge."""
    import pandas as pd
    bal = ROOT / "results" / "balance"
    summary = json.loads((bal / "summary.json").read_text())
    seed = summary["search"]["seed"]
    rows = []
    for r in pd.read_parquet(bal / "search.parquet").query("level == @judge").to_dict("records"):
        paired = r["changes"] > 0
        rows.append(_row(r["key"], r["words"], r["seat_advantage"], (r["seat_advantage_lo"], r["seat_advantage_hi"]),
                         r["deals"], seed, "results/balance/search.parquet",
                         r["diff"] if paired else None, (r["diff_lo"], r["diff_hi"]) if paired else None))
    ring = json.loads((bal / "ring" / "ring.json").read_text())
    by_candidate = {s["candidate"]: s for s in ring["settings"]}
    anchors = json.loads((bal / "ring" / "anchors.json").read_text())
    for a in anchors["anchors"]:
        if not a["source"].startswith("results/balance/search.parquet"):
            key = next(s["key"] for s in ring["settings"] if [list(x) for x in a["setting"]] ==
                       [list(x) for x in _setting_pairs(s)])
            rows.append(_row(key, by_candidate_words(ring, key), a["seat_advantage"], a["ci95"], a["deals"], seed,
                             a["source"], a["diff"], a["diff_ci95"]))
    race_seed, best = ring["seeds"]["race"], {}
    for step in ring["race"]["rounds"]:   # a setting's last round holds its estimate on all its deals
        for c, est in step["estimates"].items():
            best[int(c)] = (est, step["first"] + step["deals"])
    for c, (est, deals) in best.items():
        s = by_candidate[c]
        rows.append(_row(s["key"], s["words"], est[0], est[1:], deals, race_seed, "results/balance/ring/ring.json, the race"))
    conf = ring["confirm"]
    win = by_candidate[ring["winner"]]
    rows.append(_row(win["key"], win["words"], conf["setting"]["seat_advantage"], conf["setting"]["ci95"],
                     conf["setting"]["deals"], ring["seeds"]["confirm"], "results/balance/ring/ring.json, the confirmation",
                     conf["setting"]["diff"], conf["setting"]["diff_ci95"]))
    rows.append(_row(by_candidate[0]["key"], "the standard rules", conf["standard"]["seat_advantage"],
                     conf["standard"]["ci95"], conf["standard"]["deals"], ring["seeds"]["confirm"],
                     "results/balance/ring/ring.json, the confirmation"))
    claims = json.loads((ROOT / "results" / "balance-report" / "claims.json").read_text())
    seat = next(c for c in claims["claims"] if c["id"] == "seat.advantage" and c["level"] == judge)
    rows.append(_row(by_candidate[0]["key"], "the standard rules", seat["value"], (seat["lo"], seat["hi"]),
                     seat["games"], claims["seed"], "results/balance-report/claims.json, seat.advantage"))
    return rows


def _setting_pairs(s: dict) -> list:
    from ccsim.runner.ruleset import flat_items
    return [[n, v] for n, v in flat_items(json.loads(s["key"])["rules"])]


def by_candidate_words(ring: dict, key: str) -> str:
    return next(s["words"] for s in ring["settings"] if s["key"] == key)


def chosen(rows: list[dict]) -> dict:
    """One row of a setting measured several times: the measurement on the most deals (the later one on a tie:
    the confirmation after the search), so that the store gives the figure the published answer quotes."""
    return max(enumerate(rows), key=lambda kr: (kr[1]["deals"], kr[0]))[1]


def store_rows(rows: list[dict]) -> list[dict]:
    """One row per setting (``chosen``), the standard rules first; a row without a paired effect gets the
    effect on the standard rules' row (its interval adding both)."""
    from ccsim.analyses.judging.effect_map import Z, interval_se
    from ccsim.analyses.judging.store import STANDARD_KEY
    keys = list(dict.fromkeys(r["key"] for r in rows))
    out = [chosen([r for r in rows if r["key"] == k]) for k in sorted(keys, key=lambda k: k != STANDARD_KEY)]
    std = out[0]
    std_se = interval_se(*std["ci95"])
    for r in out[1:]:
        if r["effect"] is None:
            e, se = r["edge"] - std["edge"], math.hypot(interval_se(*r["ci95"]), std_se)
            r.update(effect=e, effect_ci95=[e - Z * se, e + Z * se], effect_paired=False)
        else:
            r["effect_paired"] = True
    return out


# --------------------------------------------------------------------- fit and check --
def _vec_orders(key: str):
    from ccsim.runner.orderings import SHUFFLED
    from ccsim.runner.ruleset import rules_vector
    d = json.loads(key)
    return rules_vector(d["rules"], tuple(d["variants"])), tuple(d.get("orders", (SHUFFLED, SHUFFLED)))


def fast_levels() -> list[str]:
    """The fast levels shown balanced (their seat gap known and within the limit), strongest first."""
    from ccsim.analyses.levels import fast_balanced_levels
    return list(fast_balanced_levels())


def mean_se(x) -> tuple[float, float]:
    x = np.asarray(x, float)
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def fast_effects(level: str, keys: list[str], deals: int, seed: int) -> dict:
    """{key: (edge, edge se, effect, effect se)} of every setting at ``level``, paired with the standard rules
    on ``deals`` deals of ``seed`` (the standard rules: ``keys[0]``)."""
    from ccsim.analyses.judging.play import play_settings
    scores, interrupted = play_settings([_vec_orders(k) for k in keys], level, seed, deals, keys=keys,
                                        progress=True, label=f"{level}, {len(keys)} settings")
    if interrupted:
        raise KeyboardInterrupt
    out = {}
    for j, k in enumerate(keys):
        edge, edge_se = mean_se(scores[:, j] - 0.5)
        eff, eff_se = mean_se(scores[:, j] - scores[:, 0])
        out[k] = (edge, edge_se, eff, eff_se)
    return out


def fit_maps(store: list[dict], effects: dict) -> dict:
    """The map of each fast level, fitted on the stored settings (their judge effect against the level's)."""
    from ccsim.analyses.judging.effect_map import Z, fit_effect_map, interval_se
    out = {}
    for level, eff in effects.items():
        anchors = store[1:]
        fast = np.array([eff[r["key"]][2] for r in anchors])
        fast_se = np.array([eff[r["key"]][3] for r in anchors])
        judge = np.array([r["effect"] for r in anchors])
        judge_se = np.array([interval_se(*r["effect_ci95"]) for r in anchors])
        m = fit_effect_map(level, fast, judge, judge_se, fast_se)
        std_edge, std_se = eff[store[0]["key"]][:2]
        out[level] = dict(slope=m.slope, slope_se=m.slope_se, model_sd=m.model_sd, anchors=m.anchors,
                          standard=dict(edge=std_edge, ci95=[std_edge - Z * std_se, std_edge + Z * std_se]))
    return out


def check_rows(judge: str, std: dict, maps: dict, effects: dict) -> list[dict]:
    """Each check setting: its judge measurement (from ``SCORES``), and each fast level's prediction of it."""
    from ccsim.analyses.judging.effect_map import EffectMap, Z, interval_se, predict
    data = np.load(SCORES)
    scores, keys = data["scores"].astype(float) / 2, [str(k) for k in data["keys"]]
    std_se = interval_se(*std["ci95"])
    out = []
    for j, key in enumerate(keys[1:], 1):
        edge, edge_se = mean_se(scores[:, j] - 0.5)
        eff, eff_se = mean_se(scores[:, j] - scores[:, 0])
        vec, orders = _vec_orders(key)
        row = dict(key=key, words=setting_words(vec, orders), deals=len(scores), seed=int(data["seed"]),
                   measured=dict(edge=edge, ci95=[edge - Z * edge_se, edge + Z * edge_se], effect=eff,
                                 effect_ci95=[eff - Z * eff_se, eff + Z * eff_se]), predicted={})
        for level, line in maps.items():
            fe, fse = effects[level][key][2:]
            emap = EffectMap(level, line["slope"], line["slope_se"], line["model_sd"], line["anchors"])
            pred = predict(emap, j, fe, fse, std["edge"], std_se)
            (lo, hi), p = pred.interval, pred.edge
            # a measurement on a few thousand deals has its own noise: the interval it should fall in adds it
            reach = Z * math.hypot(pred.edge_se, edge_se)
            row["predicted"][level] = dict(fast_effect=fe, fast_effect_se=fse, edge=p, ci95=[lo, hi],
                                           holds=bool(lo <= edge <= hi), holds_with_noise=bool(abs(edge - p) <= reach))
        out.append(row)
    return out


def setting_words(vec, orders) -> str:
    from ccsim.runner.orderings import SHUFFLED
    from ccsim.runner.parameters import vector_words
    words = vector_words(vec)
    said = [f"{p}'s action deck in the order {o}" for p, o in zip(("Cleopatra", "Caesar"), orders) if o != SHUFFLED]
    if said:
        words = "; ".join(([] if words == "the standard rules" else [words]) + said)
    return words


def summary_of(checks: list[dict], level: str) -> dict:
    """Coverage, RMS error and slope of ``level``'s predictions over the checks."""
    pred = np.array([c["predicted"][level]["edge"] for c in checks])
    meas = np.array([c["measured"]["edge"] for c in checks])
    from ccsim.analyses.judging.effect_map import interval_se
    noise = np.array([interval_se(*c["measured"]["ci95"]) for c in checks])
    err = meas - pred
    x, y = pred - pred.mean(), meas - meas.mean()
    return dict(level=level, settings=len(checks), deals=int(checks[0]["deals"]),
                coverage=float(np.mean([c["predicted"][level]["holds"] for c in checks])),
                coverage_with_noise=float(np.mean([c["predicted"][level]["holds_with_noise"] for c in checks])),
                rms_error=float(np.sqrt(np.mean(err ** 2))), rms_noise=float(np.sqrt(np.mean(noise ** 2))),
                mean_error=float(err.mean()), slope=float(np.sum(x * y) / np.sum(x * x)))


def report(args) -> None:
    """results/calibration/README.md and calibration.png from calibration.json (no game played)."""
    from ccsim.present.calibration import calibration_markdown, calibration_plot
    data = json.loads((OUT / "calibration.json").read_text())
    (OUT / "README.md").write_text(calibration_markdown(data), encoding="utf-8")
    calibration_plot(data, OUT / "calibration.png")


def judge_of(args) -> str:
    """The level measured: ``--judge``, else the judge (the strongest search shown balanced), else the strongest
    search registered (``ccsim.analyses.levels.strong_level``: the level every door shows beside a fast one)."""
    from ccsim.analyses.levels import strong_caveat, strong_level
    from ccsim.errors import UsageError
    judge = args.judge or strong_level()
    if judge is None:
        raise UsageError("no search level is registered: name the level with --judge")
    if strong_caveat(judge):
        print(f"note: {strong_caveat(judge)}", file=sys.stderr)
    return judge


def fit(args) -> None:
    from ccsim.analyses.judging.store import MAP_FILE, STORE_FILE
    judge = judge_of(args)
    store = store_rows(published_rows(judge))
    if not SCORES.is_file():
        print(f"no {SCORES.relative_to(ROOT)} (`python scripts/calibrate.py play`): the map is fitted, not checked",
              file=sys.stderr)
    check_keys = [str(k) for k in np.load(SCORES)["keys"]][1:] if SCORES.is_file() else []
    keys = [r["key"] for r in store] + check_keys
    effects = {lv: fast_effects(lv, keys, args.fast_deals, args.seed) for lv in fast_levels()}
    maps = fit_maps(store, effects)
    checks = check_rows(judge, store[0], maps, effects) if check_keys else []
    command = f"python scripts/calibrate.py fit --fast-deals {args.fast_deals} --seed {args.seed}"
    made = dict(date=dt.date.today().isoformat(), command=command)
    MAP_FILE.write_text(json.dumps(dict(judge=judge, fitted_on=len(store) - 1, levels=maps, **made), indent=1) + "\n")
    for c in checks:
        store.append(_row(c["key"], c["words"], c["measured"]["edge"], c["measured"]["ci95"], c["deals"], c["seed"],
                          "results/calibration/judge_scores.npz (a check setting)", c["measured"]["effect"],
                          c["measured"]["effect_ci95"]) | {"effect_paired": True})
    STORE_FILE.write_text(json.dumps(dict(judge=judge, settings=store, **made), indent=1) + "\n")
    if not checks:
        return
    summaries = [summary_of(checks, lv) for lv in maps]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "calibration.json").write_text(json.dumps(dict(judge=judge, fast_deals=args.fast_deals, seed=args.seed,
                                                          judge_command=str(np.load(SCORES)["command"]),
                                                          fitted_on=len(store) - len(checks) - 1, maps=maps,
                                                          summaries=summaries, checks=checks, **made), indent=1) + "\n")
    report(args)
    for s in summaries:
        print(f"{s['level']:>18}: coverage {s['coverage']:.0%} ({s['coverage_with_noise']:.0%} with the "
              f"measurement's noise), RMS error {100 * s['rms_error']:.1f} points, slope {s['slope']:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
