"""The sections of a balance report: each plans its parts (``ccsim.report.parts``) and builds,
from their tables, its tables, figures, claims and conclusions.

Every section rests on games played by the analysis commands' own Python API
(``ccsim.analyses.run.run``, ``ccsim.analyses.tournament``, ``ccsim.analyses.ordering_study``, ``ccsim.analyses.whatif``), so
each claim's command line replays the very games it rests on.  A *level* of
play is a strategy playing both seats (mirror games) unless a section says
otherwise; a level that is a search player plays at most ``[caps]`` games per
measurement.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ccsim.kernel import rules as R
from ccsim.runner.config import RunConfig
from ccsim.runner.orderings import PRESETS, parse_ordering
from ccsim.report.claims import Claim, Estimate, fmt, fmt_ci, verdict
from ccsim.report.figures import length_boxes, level_forest, payoff_heatmap, ratings_plot, stacked_shares
from ccsim.report.parts import Part
from ccsim.report.spec import Study
from ccsim.analyses.stats import bradley_terry, nash_average, rating_intervals
from ccsim.analyses.tournament import score_heatmap

__all__ = ["Section", "SECTION_TITLES", "plan", "build"]

SECTION_TITLES = {"seat": "Seat advantage", "ladder": "The strategy ladder", "orderings": "Orderings",
                  "variants": "Variants and what-ifs", "cards": "Cards", "game": "The game"}
N_BOOT = 200
N_BOOT_META = 400


@dataclass
class Section:
    """A built section: its tables (DataFrames), figures (matplotlib), claims and plain-words text."""
    name: str
    title: str
    tables: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    claims: list = field(default_factory=list)
    conclusions: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    games: int = 0


def _cmd(*args) -> str:
    return "ccsim " + " ".join(shlex.quote(str(a)) for a in args)


def _rests(level: str, games: int, seed: int, extra: str = "") -> str:
    return f"{level}{extra}, {games:,} games, seed {seed}, rules RULES.md"


# --- mirror games: the seat and game sections ---------------------------------------------

def mirror_games(st: Study, section: str) -> dict:
    """{level: games} of a section's mirror games."""
    s = st.sections[section]
    return {lv: st.games_for(lv, s["games"]) for lv in s["levels"]}


def _mirror_part(st: Study, level: str, n: int) -> Part:
    def compute(up, progress, backend=None):
        from ccsim.analyses.run import run
        out, _ = run(RunConfig(games=n, seed=st.seed, cleopatra=level, caesar=level), progress=progress,
                     metrics=True, backend=backend)
        if out.get("interrupted"):
            raise KeyboardInterrupt
        met = pd.DataFrame([dict(metric=m["metric"], label=m["label"], group=m["group"], value=m["value"],
                                 lo=m["ci95"][0], hi=m["ci95"][1], units=m["units"])
                            for m in out["metrics"]["metrics"]])
        return dict(metrics=met, lengths=pd.DataFrame(out["metrics"]["lengths"])), \
            dict(games=out["games"], seconds=out["seconds"], end_reasons=out["end_reasons"])
    return Part(f"mirror:{level}:{n}", dict(level=level, games=n, seed=st.seed), n, compute)


def _mirror_cmd(st: Study, level: str, n: int) -> str:
    return _cmd("run", "--cleopatra", level, "--caesar", level, "--games", n, "--seed", st.seed, "--metrics",
                "--json")


def _metric_rows(st: Study, res: dict, section: str) -> pd.DataFrame:
    frames = []
    for lv, n in mirror_games(st, section).items():
        m = res[f"mirror:{lv}:{n}"].tables["metrics"].copy()
        m.insert(0, "level", lv)
        frames.append(m)
    return pd.concat(frames, ignore_index=True)


def _estimates(df: pd.DataFrame, key: str, where: dict) -> list[Estimate]:
    d = df
    for k, v in where.items():
        d = d[d[k] == v]
    return [Estimate(r[key], float(r["value"]), float(r["lo"]), float(r["hi"]), int(r.get("games", 0) or 0))
            for r in d.to_dict("records")]


def _stated(ests: list[Estimate], context: str) -> Estimate:
    return next((e for e in ests if e.context == context), ests[-1])


def seat_statement(e: Estimate) -> str:
    """R2.6: Cleopatra moves first; her score minus 50% is the seat advantage."""
    if e.lo > 0:
        lead = "Cleopatra, who moves first (R2.6), has the advantage"
    elif e.hi < 0:
        lead = "Caesar, who moves second (R2.6), has the advantage"
    else:
        lead = "Neither seat has a measurable advantage"
    return (f"{lead} with {e.context} on both sides: Cleopatra's score is {fmt(e.value, 'points', (e.lo, e.hi))} points from an "
            f"even 50% {fmt_ci(e.lo, e.hi, 'points')} over {e.games:,} games.")


def plan_seat(st: Study) -> list[Part]:
    return [_mirror_part(st, lv, n) for lv, n in mirror_games(st, "seat").items()]


def build_seat(st: Study, res: dict) -> Section:
    sec = Section("seat", SECTION_TITLES["seat"])
    rows = _metric_rows(st, res, "seat")
    seat = rows[rows["metric"] == "seat_advantage"].copy()
    seat["games"] = seat["units"].astype(int)
    ests = _estimates(seat, "level", {})
    e = _stated(ests, st.reference)
    n = e.games
    sec.claims.append(Claim(
        id="seat.advantage", section="seat", statement=seat_statement(e), value=e.value, lo=e.lo, hi=e.hi,
        unit="points", level=e.context, rests_on=_rests(e.context, n, st.seed, " vs itself, shuffled decks"),
        command=_mirror_cmd(st, e.context, n), json_path=["metrics", "metrics", "metric=seat_advantage", "value"],
        verdict=verdict(e, ests, 0.0), games=n, estimates=ests))
    draw = rows[rows["metric"] == "draw_rate"]
    sec.tables["seat"] = seat[["level", "value", "lo", "hi", "games"]].rename(
        columns=dict(value="seat_advantage", lo="ci_lo", hi="ci_hi")).merge(
        draw[["level", "value"]].rename(columns=dict(value="draw_rate")), on="level")
    sec.figures["seat"] = level_forest(
        seat.assign(item="Cleopatra's score − 50%"), "item", "level",
        f"Seat advantage by level of play (mirror games, seed {st.seed}, 95% intervals)",
        "Cleopatra's score − 50%, points (> 0: the first player is favoured)", levels=list(seat["level"]))
    sec.conclusions.append(sec.claims[0].sentence())
    sec.games = int(seat["games"].sum())
    return sec


# --- the game --------------------------------------------------------------------------------

def plan_game(st: Study) -> list[Part]:
    return [_mirror_part(st, lv, n) for lv, n in mirror_games(st, "game").items()]


_GAME_METRICS = {  # metric: (unit, null, words)
    "turns": ("mean", None, "A game lasts {v} turns on average {ci}"),
    "decisiveness": ("%", 0.5, "The VP leader after half the votes goes on to win {v} of games {ci}"),
    "lead_changes": ("mean", None, "The VP lead changes hands {v} times a game {ci}"),
}


def build_game(st: Study, res: dict) -> Section:
    sec = Section("game", SECTION_TITLES["game"])
    rows = _metric_rows(st, res, "game")
    rows["games"] = rows["units"].astype(int)
    ref = st.reference if st.reference in set(rows["level"]) else rows["level"].iloc[-1]
    games = mirror_games(st, "game")
    for metric, (unit, null, words) in _GAME_METRICS.items():
        ests = _estimates(rows, "level", dict(metric=metric))
        e = _stated(ests, ref)
        text = words.format(v=fmt(e.value, unit, (e.lo, e.hi)), ci=fmt_ci(e.lo, e.hi, unit)) + f" with {e.context} on both sides."
        sec.claims.append(Claim(
            id=f"game.{metric}", section="game", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit=unit,
            level=e.context, rests_on=_rests(e.context, games[e.context], st.seed, " vs itself"),
            command=_mirror_cmd(st, e.context, games[e.context]),
            json_path=["metrics", "metrics", f"metric={metric}", "value"], verdict=verdict(e, ests, null),
            games=games[e.context], estimates=ests))
    ends = rows[rows["metric"].str.startswith("end_")]
    top = ends[ends["level"] == ref].sort_values("value").iloc[-1]["metric"]
    ests = _estimates(rows, "level", dict(metric=top))
    e = _stated(ests, ref)
    reason = top.removeprefix("end_")
    text = (f"Most games end by {reason.replace('_', ' ')} (R9): {fmt(e.value, '%', (e.lo, e.hi))} {fmt_ci(e.lo, e.hi, '%')} "
            f"with {e.context} on both sides." if e.lo > 0.5 else
            f"The commonest end is {reason.replace('_', ' ')} (R9), in {fmt(e.value, '%', (e.lo, e.hi))} of games "
            f"{fmt_ci(e.lo, e.hi, '%')} with {e.context} on both sides.")
    sec.claims.append(Claim(
        id="game.end", section="game", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit="%", level=e.context,
        rests_on=_rests(e.context, games[e.context], st.seed, " vs itself"), command=_mirror_cmd(st, e.context,
                                                                                             games[e.context]),
        json_path=["metrics", "metrics", f"metric={top}", "value"], verdict=verdict(e, ests, 0.5),
        games=games[e.context], estimates=ests))
    keep = ["turns", "votes", "decisiveness", "leader_at_half", "lead_changes", "draw_rate"] + list(ends["metric"].unique())
    sec.tables["metrics"] = rows[rows["metric"].isin(keep)][["level", "metric", "label", "value", "lo", "hi",
                                                              "games"]].reset_index(drop=True)
    vp = rows[rows["metric"].str.startswith("vp_")].copy()
    vp["source"] = vp["metric"].str.split("_").str[1]
    vp["player"] = vp["metric"].str.split("_").str[2]
    sec.tables["vp_sources"] = vp[["level", "player", "source", "value", "lo", "hi"]].reset_index(drop=True)
    lengths = pd.concat([res[f"mirror:{lv}:{n}"].tables["lengths"].assign(level=lv) for lv, n in games.items()])
    sec.tables["lengths"] = lengths.reset_index(drop=True)
    levels = list(games)
    sh = ends.pivot(index="level", columns="metric", values="value").reindex(levels)
    sh.columns = [c.removeprefix("end_").replace("_", " ") for c in sh.columns]
    sec.figures["ends"] = stacked_shares(sh, f"How games end (R9), by level of play (mirror games, seed {st.seed})",
                                         "share of games")
    src = vp.groupby(["level", "source"])["value"].sum().unstack().reindex(levels)[
        ["patricians", "majorities", "all", "bonus"]]
    sec.figures["vp"] = stacked_shares(src, f"Where victory points come from (R10.1–R10.4), both players together "
                                            f"(mirror games, seed {st.seed})",
                                       "victory points per game (mean)")
    sec.figures["length"] = length_boxes(lengths, levels, f"Game length by level of play (mirror games, seed "
                                                          f"{st.seed})")
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(games.values()))
    return sec


# --- the ladder ----------------------------------------------------------------------------

def _ladder_sets(st: Study):
    """(heuristic entrants, [(search level, opponent, deals)])."""
    s = st.sections["ladder"]
    names = list(dict.fromkeys(list(s["strategies"]) + [lv for lv in s["levels"] if not st.is_search(lv)]))
    heur = [n for n in names if not st.is_search(n)]
    searchers = [n for n in dict.fromkeys(list(names) + list(s["levels"])) if st.is_search(n)]
    anchors = [lv for lv in s["levels"] if not st.is_search(lv)] or heur[-1:]
    pairs = [(x, o, max(1, st.games_for(x, 2 * s["games"]) // 2)) for x in searchers for o in anchors]
    return heur, pairs


def _play_tournament(st: Study, strategies, deals: int, orderings, progress, backend):
    """A part's tables of ``ccsim.analyses.tournament``: pairings, ratings and the score matrix with its interval."""
    from ccsim.analyses.tournament import tournament
    t = tournament(list(strategies), games=deals, seed=st.seed, orderings=orderings, progress=progress,
                   nash=False, backend=backend)
    if t.info.get("interrupted"):
        raise KeyboardInterrupt
    return dict(pairings=t.pairings, ratings=t.ratings, score=t.score.rename_axis("entrant").reset_index(),
                score_lo=t.score_lo.rename_axis("entrant").reset_index(),
                score_hi=t.score_hi.rename_axis("entrant").reset_index()), \
        dict(entrants=t.entrants, games=t.info["games"], seconds=t.info["seconds"], seat=t.seat)


def _tournament_part(name: str, st: Study, strategies, deals: int) -> Part:
    def compute(up, progress, backend=None):
        return _play_tournament(st, strategies, deals, None, progress, backend)
    return Part(name, dict(strategies=list(strategies), deals=deals, seed=st.seed, orderings=None),
                len(strategies) * (len(strategies) - 1) * deals, compute)


def plan_ladder(st: Study) -> list[Part]:
    heur, pairs = _ladder_sets(st)
    parts = [_tournament_part("ladder:heuristics", st, heur, st.sections["ladder"]["games"])] if len(heur) > 1 else []
    parts += [_tournament_part(f"ladder:{x}-vs-{o}", st, [x, o], d) for x, o, d in pairs]
    return parts


def _tournament_cmd(st: Study, strategies, deals: int, orderings=None) -> str:
    args = ["tournament", "--strategies", ",".join(strategies), "--games", deals, "--seed", st.seed]
    if orderings:
        args += ["--orderings", ",".join(orderings)]
    return _cmd(*args, "--json")


def merged_ratings(pairings: pd.DataFrame, labels, seed: int, n_boot: int = N_BOOT) -> pd.DataFrame:
    """Bradley–Terry ratings of pairings played with different numbers of deals (a virtual draw per
    pairing played, as ``ccsim.analyses.tournament`` does, keeps 100% results finite; none where no game was)."""
    idx = {n: i for i, n in enumerate(labels)}
    k = len(labels)
    pts, games, draws = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
    for r in pairings.itertuples():
        i, j = idx[r.a], idx[r.b]
        pts[i, j] += r.wins + r.draws / 2 + 0.5
        pts[j, i] += r.losses + r.draws / 2 + 0.5
        games[i, j] += r.games + 1
        games[j, i] += r.games + 1
        draws[i, j] += r.draws + 1
        draws[j, i] += r.draws + 1
    elo = bradley_terry(pts, games)
    lo, hi = rating_intervals(pts, games, n_boot=n_boot, rng=np.random.default_rng([seed, 0x1ADD]), draws=draws)
    out = pd.DataFrame(dict(entrant=labels, elo=elo, elo_lo=lo, elo_hi=hi,
                            games=games.sum(1) - (games > 0).sum(1)))
    out = out.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, k + 1))
    return out


def _pair_score(pairings: pd.DataFrame, x: str, y: str):
    """(x's score against y, lo, hi, games, a-is-x) from a pairings table."""
    r = pairings[((pairings["a"] == x) & (pairings["b"] == y)) | ((pairings["a"] == y) & (pairings["b"] == x))]
    if not len(r):
        return None
    r = r.iloc[0]
    if r["a"] == x:
        return float(r["score"]), float(r["ci_lo"]), float(r["ci_hi"]), int(r["games"]), True
    return 1 - float(r["score"]), 1 - float(r["ci_hi"]), 1 - float(r["ci_lo"]), int(r["games"]), False


def build_ladder(st: Study, res: dict) -> Section:
    sec = Section("ladder", SECTION_TITLES["ladder"])
    heur, pairs = _ladder_sets(st)
    deals = st.sections["ladder"]["games"]
    frames, source = [], {}
    if len(heur) > 1:
        frames.append(res["ladder:heuristics"].tables["pairings"])
        for a, b in zip(frames[0]["a"], frames[0]["b"]):
            source[a, b] = ("ladder:heuristics", heur, deals)
    for x, o, d in pairs:
        p = res[f"ladder:{x}-vs-{o}"].tables["pairings"]
        frames.append(p)
        source[p["a"].iloc[0], p["b"].iloc[0]] = (f"ladder:{x}-vs-{o}", [x, o], d)
    pairings = pd.concat(frames, ignore_index=True)
    labels = list(dict.fromkeys(heur + [x for x, _, _ in pairs]))
    ratings = merged_ratings(pairings, labels, st.seed)
    sec.tables["ratings"] = ratings
    sec.tables["pairings"] = pairings[["a", "b", "deals", "games", "wins", "draws", "losses", "score", "ci_lo",
                                       "ci_hi", "seat_advantage", "seat_lo", "seat_hi", "p_holm"]]
    score = pd.DataFrame(np.nan, index=ratings["entrant"], columns=ratings["entrant"])
    for r in pairings.itertuples():
        score.loc[r.a, r.b], score.loc[r.b, r.a] = r.score, 1 - r.score
    sec.tables["score_matrix"] = score.rename_axis(index="entrant", columns=None).reset_index()
    top = ratings["entrant"].iloc[0]
    ests = []
    for other in ratings["entrant"].iloc[1:]:
        s = _pair_score(pairings, top, other)
        if s:
            ests.append(Estimate(other, s[0], s[1], s[2], s[3]))
    runner = ests[0]
    name, strategies, d = source.get((top, runner.context)) or source[(runner.context, top)]
    flip = not _pair_score(pairings, top, runner.context)[4]
    text = (f"{top} rates highest ({ratings['elo'].iloc[0]:+.0f} Elo "
            f"{fmt_ci(ratings['elo_lo'].iloc[0], ratings['elo_hi'].iloc[0], 'Elo')}); against the next best, "
            f"{runner.context}, it scores {fmt(runner.value, '%', (runner.lo, runner.hi))} {fmt_ci(runner.lo, runner.hi, '%')} over "
            f"{runner.games:,} games with the seats swapped.")
    a, b = (runner.context, top) if flip else (top, runner.context)
    sec.claims.append(Claim(
        id="ladder.top", section="ladder", statement=text, value=runner.value, lo=runner.lo, hi=runner.hi, unit="%",
        level=top, rests_on=f"{top} vs {runner.context}, {runner.games:,} games, seed {st.seed}, shuffled decks",
        command=_tournament_cmd(st, strategies, d), json_path=["pairings", f"a={a}&b={b}", "score"]
        + (["1-x"] if flip else []), verdict=verdict(runner, ests, 0.5, noun="opponent"), games=runner.games,
        estimates=ests))
    sec.figures["ratings"] = ratings_plot(ratings, f"Strategy ladder: Bradley–Terry ratings (seed {st.seed}; "
                                                   f"heuristics {deals:,} deals a pairing, search players fewer)")
    lo = pd.DataFrame(np.nan, index=score.index, columns=score.columns)
    hi = lo.copy()
    for r in pairings.itertuples():
        lo.loc[r.a, r.b], hi.loc[r.a, r.b] = r.ci_lo, r.ci_hi
        lo.loc[r.b, r.a], hi.loc[r.b, r.a] = 1 - r.ci_hi, 1 - r.ci_lo
    sec.figures["matrix"] = score_heatmap(list(score.index), score.to_numpy(float), lo.to_numpy(float),
                                          hi.to_numpy(float), f"Score matrix: row's score against column, % (seats "
                                          f"swapped, seed {st.seed}; bold: 95% interval excludes 50%; blank: not "
                                          f"played)", ylabel="entrant (row), by rating")
    sec.conclusions.append(sec.claims[0].sentence())
    sec.games = int(pairings["games"].sum())
    return sec


# --- orderings -----------------------------------------------------------------------------

def _contexts(st: Study):
    """[(context label, strategy, opponent, games)] of the re-measurements: each level against
    itself, then the search level against each field opponent."""
    s = st.sections["orderings"]
    out, seen = [], set()
    for lv in s["levels"]:
        out.append((lv, lv, lv, min(st.games_for(lv, s["games"]), s["games"])))
        seen.add((lv, lv))
    for o in s["field"]:
        if (s["level"], o) not in seen:
            g = min(st.games_for(s["level"], s["games"]), st.games_for(o, s["games"]))
            out.append((f"{s['level']} vs {o}", s["level"], o, g))
    return out


def _canon(text: str) -> str:
    return parse_ordering(text)


def _label(o: str) -> str:
    for name, (cano, _) in PRESETS.items():
        if cano == o and name != "default":
            return name
    return o


def plan_orderings(st: Study) -> list[Part]:
    s = st.sections["orderings"]
    lv = s["level"]

    def search_compute(up, progress, backend=None):
        from ccsim.analyses.ordering_study import search
        df = search(strategy=lv, budget=s["budget"], seed=st.seed, top=s["top"], backend=backend)
        prog = pd.DataFrame(df.attrs["progress"])
        base = pd.DataFrame([df.attrs["baseline"], df.attrs["worst"]]).assign(role=["shuffled", "worst"])
        return dict(top=pd.DataFrame(df), progress=prog, extra=base), dict(games=int(df.attrs["games_used"]),
                                                                          seconds=df.attrs["seconds"])
    parts = [Part(f"orderings:search:{lv}", dict(level=lv, budget=s["budget"], seed=st.seed, top=s["top"]),
                  s["budget"], search_compute)]
    presets = [_canon(p) for p in s["presets"]]
    n_cand = s["top"] + len(presets) + 1
    for label, strat, opp, g in _contexts(st):
        few = st.is_search(strat) or st.is_search(opp)

        def compare_compute(up, progress, backend=None, strat=strat, opp=opp, g=g, few=few):
            from ccsim.analyses.ordering_study import compare
            cands = _candidates(up[f"orderings:search:{lv}"], presets, few)
            df = compare(cands, baseline="shuffled", strategy=strat, opponent=opp, games=g, seed=st.seed,
                         backend=backend)
            return dict(compare=pd.DataFrame(df)), dict(games=int(df.attrs["games_played"]),
                                                        baseline=df.attrs["baseline"])
        parts.append(Part(f"orderings:compare:{strat}-vs-{opp}", dict(strategy=strat, opponent=opp, games=g,
                                                                        seed=st.seed, presets=presets, few=few),
                          g * (2 if few else n_cand), compare_compute, needs=(f"orderings:search:{lv}",)))

    def positions_compute(up, progress, backend=None):
        from ccsim.analyses.ordering_study import positions
        df = positions(strategy=lv, games=s["positions_games"], seed=st.seed, backend=backend)
        return dict(positions=pd.DataFrame(df)), {k: v for k, v in df.attrs.items() if k != "matchup"}
    parts.append(Part(f"orderings:positions:{lv}", dict(level=lv, games=s["positions_games"], seed=st.seed),
                      s["positions_games"], positions_compute))

    def meta_compute(up, progress, backend=None):
        orders = _meta_orderings(up[f"orderings:search:{lv}"], presets)
        return _play_tournament(st, [lv], s["meta_games"], [_label(o) for o in orders], progress, backend)
    k = s["top"] + len(presets)
    parts.append(Part(f"orderings:meta:{lv}", dict(level=lv, deals=s["meta_games"], seed=st.seed, presets=presets),
                      k * (k - 1) * s["meta_games"], meta_compute, needs=(f"orderings:search:{lv}",)))
    return parts


def _candidates(search_res, presets, few: bool) -> list[str]:
    top = list(search_res.tables["top"]["ordering"])
    return top[:1] if few else list(dict.fromkeys(top + presets))


def _meta_orderings(search_res, presets) -> list[str]:
    return list(dict.fromkeys(list(search_res.tables["top"]["ordering"]) + presets))


def equilibrium(score: np.ndarray) -> tuple[np.ndarray, float]:
    """The maximum-entropy equilibrium mixture of the symmetric ordering meta-game whose row payoff is
    the row's score minus 1/2 (a linear program, ``ccsim.analyses.stats.nash_average``), and the best reply's
    payoff against it (0 in a symmetric zero-sum game)."""
    a = np.nan_to_num(score - 0.5)
    a = (a - a.T) / 2
    p, avg = nash_average(a)
    return p, float(avg.max())


def _equilibrium_intervals(score, lo, hi, seed: int, n: int = N_BOOT_META) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals of the equilibrium weights under a parametric bootstrap of the score matrix
    (each pairing's score drawn from a normal of its estimate and interval)."""
    rng = np.random.default_rng([seed, 0xE0])
    k = score.shape[0]
    iu = np.triu_indices(k, 1)
    se = (hi[iu] - lo[iu]) / (2 * 1.959964)
    reps = np.empty((n, k))
    for b in range(n):
        m = np.full((k, k), 0.5)
        m[iu] = score[iu] + se * rng.standard_normal(len(se))
        m.T[iu] = 1 - m[iu]
        reps[b] = equilibrium(m)[0]
    return np.percentile(reps, 2.5, axis=0), np.percentile(reps, 97.5, axis=0)


def build_orderings(st: Study, res: dict) -> Section:
    s = st.sections["orderings"]
    lv = s["level"]
    sec = Section("orderings", SECTION_TITLES["orderings"])
    srch = res[f"orderings:search:{lv}"]
    top = srch.tables["top"]
    sec.tables["search_top"] = top
    best = top["ordering"].iloc[0]
    frames = []
    for label, strat, opp, g in _contexts(st):
        c = res[f"orderings:compare:{strat}-vs-{opp}"].tables["compare"].copy()
        c.insert(0, "context", label)
        c.insert(1, "strategy", strat)
        c.insert(2, "opponent", opp)
        frames.append(c)
    comp = pd.concat(frames, ignore_index=True)
    sec.tables["remeasured"] = comp
    d = comp.rename(columns=dict(diff="value", diff_lo="lo", diff_hi="hi"))
    level_ctx = [c for c in _contexts(st) if c[1] == c[2]]
    field_ctx = [c for c in _contexts(st) if c[1] == lv]
    # the field claim is stated against the first field opponent other than the search level itself
    away = [c[0] for c in field_ctx if c[2] != lv]
    for kind, ctxs, noun, stated_ctx in (("levels", level_ctx, "level", lv),
                                         ("field", field_ctx, "opponent", away[0] if away else None)):
        ests = _estimates(d[d["ordering"] == best], "context", {})
        ests = [e for e in ests if e.context in {c[0] for c in ctxs}]
        if not ests or stated_ctx is None:
            continue
        e = _stated(ests, stated_ctx)
        _, strat, opp, g = next(c for c in ctxs if c[0] == e.context)
        cands = _candidates(srch, [_canon(p) for p in s["presets"]], st.is_search(strat) or st.is_search(opp))
        where = "against the same player" if strat == opp else f"against {opp}"
        text = (f"The best ordering found by the search with {lv}, {best}, scores {fmt(e.value, 'points', (e.lo, e.hi))} points "
                f"{fmt_ci(e.lo, e.hi, 'points')} against a shuffled deck when {strat} plays it {where} "
                f"({g:,} games a deck, both seats).")
        sec.claims.append(Claim(
            id=f"orderings.best.{kind}", section="orderings", statement=text, value=e.value, lo=e.lo, hi=e.hi,
            unit="points", level=strat,
            rests_on=f"{strat} vs {opp} (opponent deck shuffled), {g:,} games per deck, seed {st.seed}",
            command=_cmd("orderings", "compare", *cands, "--baseline", "shuffled", "--strategy", strat,
                         "--opponent", opp, "--games", g, "--seed", st.seed, "--json"),
            json_path=["orderings", f"ordering={best}", "diff"], verdict=verdict(e, ests, 0.0, noun=noun), games=g,
            estimates=ests))
    d["item"] = [_label(o) for o in d["ordering"]]
    sec.figures["remeasured"] = level_forest(
        d, "item", "context", f"Orderings re-measured at each level and against the field (seed {st.seed})",
        "score against a shuffled deck, points (paired, 95% interval)", levels=[c[0] for c in _contexts(st)],
        legend="played by (vs opponent)")
    pos = res[f"orderings:positions:{lv}"].tables["positions"]
    sec.tables["positions"] = pos
    from ccsim.analyses.plots import positions_heatmap
    pos_df = pos.copy()
    pos_df.attrs.update(res[f"orderings:positions:{lv}"].info)
    sec.figures["positions"] = positions_heatmap(pos_df, None, f"Value of a card by depth with {lv} on both sides "
                                                 f"({s['positions_games']:,} games, seed {st.seed})")
    reg = pos[pos["kind"] == "region"]
    r = reg.loc[reg["effect"].abs().idxmax()]
    text = (f"Where a card sits matters most for {r['card']}: one in the {r['region']} positions of the deck is worth "
            f"{fmt(r['effect'], 'points', (r['lo'], r['hi']))} points {fmt_ci(r['lo'], r['hi'], 'points')} against uniformly random "
            f"orderings ({lv} on both sides).")
    e = Estimate(lv, float(r["effect"]), float(r["lo"]), float(r["hi"]), s["positions_games"])
    sec.claims.append(Claim(
        id="orderings.positions", section="orderings", statement=text, value=e.value, lo=e.lo, hi=e.hi,
        unit="points", level=lv, rests_on=_rests(lv, s["positions_games"], st.seed, " vs itself, random orderings"),
        command=_cmd("orderings", "positions", "--strategy", lv, "--games", s["positions_games"], "--seed", st.seed,
                     "--out", "positions-check", "--quiet", "--json"),
        json_path=["effects", f"card={r['card']}&kind=region&region={r['region']}", "effect"],
        verdict=verdict(e, [], 0.0), games=s["positions_games"], estimates=[e]))
    _meta(st, res, sec)
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(res[p.name].info.get("games", 0) for p in plan_orderings(st)))
    return sec


def _meta(st: Study, res: dict, sec: Section) -> None:
    s = st.sections["orderings"]
    lv = s["level"]
    meta = res[f"orderings:meta:{lv}"]
    labels = meta.info["entrants"]
    sc = meta.tables["score"].set_index("entrant").loc[labels, labels]
    lo = meta.tables["score_lo"].set_index("entrant").loc[labels, labels].to_numpy(float)
    hi = meta.tables["score_hi"].set_index("entrant").loc[labels, labels].to_numpy(float)
    m = sc.to_numpy(float)
    p, _ = equilibrium(m)
    plo, phi = _equilibrium_intervals(m, lo, hi, st.seed)
    mix = pd.DataFrame(dict(ordering=labels, weight=p, weight_lo=plo, weight_hi=phi))
    sec.tables["meta_mixture"] = mix
    sec.tables["meta_score"] = meta.tables["score"]
    sec.tables["meta_pairings"] = meta.tables["pairings"]
    sec.figures["meta"] = payoff_heatmap(
        sc, pd.DataFrame(lo, index=labels, columns=labels), pd.DataFrame(hi, index=labels, columns=labels), mix,
        f"Ordering meta-game with {lv} on both sides: each player picks an ordering ({s['meta_games']:,} deals a "
        f"pairing, seats swapped, seed {st.seed})")
    # the ordering the equilibrium weighs most, and its worst pairing
    i = int(np.argmax(p))
    pairs = meta.tables["pairings"]
    ests = [Estimate(o, *_pair_score(pairs, labels[i], o)[:4]) for o in labels if o != labels[i]]
    worst = min(ests, key=lambda e: e.value)
    flip = not _pair_score(pairs, labels[i], worst.context)[4]
    support = [f"{o} {100 * w:.0f}%" for o, w in sorted(zip(labels, p), key=lambda t: -t[1]) if w > 0.005]
    if worst.lo > 0.5:
        head = f"{labels[i]} is dominant in the ordering meta-game: it beats every other ordering tested"
    elif len(support) == 1:
        head = (f"{labels[i]} is the meta-game's equilibrium, but it does not beat every ordering significantly")
    else:
        head = f"No ordering is dominant: the meta-game's equilibrium mixes {', '.join(support)}"
    text = (f"{head}; {labels[i]}'s weakest pairing is against {worst.context}, where it scores "
            f"{fmt(worst.value, '%', (worst.lo, worst.hi))} {fmt_ci(worst.lo, worst.hi, '%')} ({lv} on both sides).")
    a, b = (worst.context, labels[i]) if flip else (labels[i], worst.context)
    sec.claims.append(Claim(
        id="orderings.meta", section="orderings", statement=text, value=worst.value, lo=worst.lo, hi=worst.hi,
        unit="%", level=lv, rests_on=f"{lv} vs itself with fixed orderings, {worst.games:,} games a pairing, "
                                     f"seed {st.seed}",
        command=_tournament_cmd(st, [lv], s["meta_games"], labels), json_path=["pairings", f"a={a}&b={b}", "score"]
        + (["1-x"] if flip else []), verdict=verdict(worst, ests, 0.5, noun="opponent ordering"), games=worst.games,
        estimates=ests))


# --- variants and what-ifs -----------------------------------------------------------------

def _whatif_part(name: str, st: Study, level: str, games: int, variants, changes, cards: bool) -> Part:
    def compute(up, progress, backend=None):
        from ccsim.analyses.whatif import whatif
        w = whatif([level], games=games, seed=st.seed, variants=list(variants), changes=list(changes), cards=cards,
                   progress=progress, backend=backend)
        if w.info.get("interrupted"):
            raise KeyboardInterrupt
        tables = dict(metrics=w.metrics, lengths=w.lengths)
        if w.cards is not None:
            tables["cards"] = w.cards
        return tables, dict(games=w.info["games"], deals=w.info["deals"], seconds=w.info["seconds"],
                            arms=w.info["arms"])
    n_arms = 1 + len(variants) + len(changes) + (12 if cards else 0)
    return Part(name, dict(level=level, games=games, seed=st.seed, variants=list(variants),
                           changes=[(c.name, c.block, c.variants) for c in changes], cards=cards),
                games * n_arms, compute)


def plan_variants(st: Study) -> list[Part]:
    s = st.sections["variants"]
    return [_whatif_part(f"variants:{lv}", st, lv, st.games_for(lv, s["games"]), s["variants"], s["change"], False)
            for lv in s["levels"]]


def changes_toml(changes) -> str:
    """The study's rules changes as a what-if rules file (written beside the report: the claims cite it)."""
    lines = ["# the [[variants.change]] tables of the study, as a `ccsim whatif --rules` file"]
    for c in changes:
        lines += ["", "[[change]]", f"name = {_toml(c.name)}"]
        if c.variants:
            lines.append(f"variants = [{', '.join(_toml(v) for v in c.variants)}]")
        lines += [f"{k} = {_toml(v)}" for k, v in c.block.items()]
    return "\n".join(lines) + "\n"


def _toml(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


_ARM_METRICS = (("seat_advantage", "points", "Cleopatra's seat advantage"), ("turns", "mean", "the game's length"),
                ("draw_rate", "points", "the draw rate"))  # a difference of shares: in points


def build_variants(st: Study, res: dict) -> Section:
    s = st.sections["variants"]
    sec = Section("variants", SECTION_TITLES["variants"])
    frames = [res[f"variants:{lv}"].tables["metrics"] for lv in s["levels"]]
    met = pd.concat(frames, ignore_index=True).rename(columns=dict(strategy="level"))
    sec.tables["metrics"] = met
    ref = st.reference if st.reference in s["levels"] else s["levels"][-1]
    arms = [a for a in dict.fromkeys(met["arm"]) if a != "RULES.md"]
    # the difference to RULES.md is each claim's figure; the arm's own value stays beside it
    d = met[met["kind"] != "base"].rename(columns=dict(value="arm_value", ci_lo="arm_lo", ci_hi="arm_hi",
                                                       diff="value", diff_lo="lo", diff_hi="hi"))
    for arm in arms:
        for metric, unit, words in _ARM_METRICS:
            ests = _estimates(d, "level", dict(arm=arm, metric=metric))
            if not ests:
                continue
            e = _stated(ests, ref)
            g = int(d[(d["arm"] == arm) & (d["metric"] == metric) & (d["level"] == e.context)]["games"].iloc[0])
            diff, ci = fmt(e.value, unit, (e.lo, e.hi)), fmt_ci(e.lo, e.hi, unit)
            tail = " turns" if unit == "mean" else " points"
            sig = "changes" if e.lo > 0 or e.hi < 0 else "does not measurably change"
            text = (f"{arm} {sig} {words} with {e.context} on both sides: {diff}{tail} {ci} against RULES.md on "
                    f"the same {g:,} deals.")
            args = ["whatif", "--strategy", e.context, "--games", g, "--seed", st.seed]
            args += [x for v in s["variants"] for x in ("--variant", v)] or ["--no-variants"]
            if s["change"]:
                args += ["--rules", "changes.toml"]
            sec.claims.append(Claim(
                id=f"variants.{arm}.{metric}", section="variants", statement=text, value=e.value, lo=e.lo, hi=e.hi,
                unit=unit, level=e.context, rests_on=_rests(e.context, g, st.seed, f" vs itself, {arm} vs RULES.md"),
                command=_cmd(*args, "--json"),
                json_path=["metrics", f"strategy={e.context}&arm={arm}&metric={metric}", "diff"],
                verdict=verdict(e, ests, 0.0), games=g, estimates=ests))
    for metric, unit, words in _ARM_METRICS[:2]:
        sub = d[d["metric"] == metric].assign(item=lambda x: x["arm"])
        scale, xl = (100.0, "difference to RULES.md, points (paired, 95% interval)") if unit == "points" else \
            (1.0, "difference to RULES.md, turns per game (paired, 95% interval)")
        sec.figures[metric] = level_forest(sub, "item", "level", f"What each rules change does to {words} "
                                           f"(mirror games, same deals, seed {st.seed})", xl, scale=scale,
                                           levels=list(s["levels"]))
    sec.conclusions += [c.sentence() for c in sec.claims if c.id.endswith(".seat_advantage")]
    sec.conclusions += [c.sentence() for c in sec.claims if not c.id.endswith(".seat_advantage")]
    sec.games = int(sum(res[f"variants:{lv}"].info["games"] for lv in s["levels"]))
    return sec


# --- cards ---------------------------------------------------------------------------------

def plan_cards(st: Study) -> list[Part]:
    s = st.sections["cards"]
    return [_whatif_part(f"cards:{lv}", st, lv, st.games_for(lv, s["games"]), (), (), True) for lv in s["levels"]]


def build_cards(st: Study, res: dict) -> Section:
    s = st.sections["cards"]
    sec = Section("cards", SECTION_TITLES["cards"])
    cards = pd.concat([res[f"cards:{lv}"].tables["cards"] for lv in s["levels"]], ignore_index=True).rename(
        columns=dict(strategy="level"))
    sec.tables["worth"] = cards
    ref = st.reference if st.reference in s["levels"] else s["levels"][-1]
    both = cards[cards["player"] == "both"].rename(columns=dict(worth="value", ci_lo="lo", ci_hi="hi"))
    for card in R.ACTION_NAMES:
        ests = _estimates(both, "level", dict(card=card))
        e = _stated(ests, ref)
        g = st.games_for(e.context, s["games"])
        text = (f"One {card} card is worth {fmt(e.value, 'points', (e.lo, e.hi))} points {fmt_ci(e.lo, e.hi, 'points')} of its "
                f"owner's score with {e.context} on both sides (one copy taken out of her deck, both players "
                f"averaged, on the same {g:,} deals).")
        sec.claims.append(Claim(
            id=f"cards.{card}", section="cards", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit="points",
            level=e.context, rests_on=_rests(e.context, g, st.seed, " vs itself, one card ablated"),
            command=_cmd("whatif", "--strategy", e.context, "--games", g, "--seed", st.seed, "--no-variants", "--cards",
                         "--json"),
            json_path=["cards", f"strategy={e.context}&card={card}&player=both", "worth"],
            verdict=verdict(e, ests, 0.0), games=g, estimates=ests))
    base = pd.concat([res[f"cards:{lv}"].tables["metrics"] for lv in s["levels"]], ignore_index=True).rename(
        columns=dict(strategy="level", ci_lo="lo", ci_hi="hi"))
    rev = base[(base["arm"] == "RULES.md") & base["metric"].isin(["reversals", "votes"])]
    sec.tables["reversals"] = rev[["level", "metric", "value", "lo", "hi", "games"]].reset_index(drop=True)
    ests = _estimates(rev, "level", dict(metric="reversals"))
    e = _stated(ests, ref)
    g = st.games_for(e.context, s["games"])
    votes = float(rev[(rev["level"] == e.context) & (rev["metric"] == "votes")]["value"].iloc[0])
    text = (f"Philosophers reverse {fmt(e.value, 'mean', (e.lo, e.hi))} votes a game {fmt_ci(e.lo, e.hi, 'mean')} (R6.3), "
            f"{100 * e.value / votes:.1f}% of the {votes:.1f} votes, with {e.context} on both sides.")
    sec.claims.append(Claim(
        id="cards.reversals", section="cards", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit="mean",
        level=e.context, rests_on=_rests(e.context, g, st.seed, " vs itself"),
        command=_cmd("whatif", "--strategy", e.context, "--games", g, "--seed", st.seed, "--no-variants", "--cards",
                     "--json"),
        json_path=["metrics", f"strategy={e.context}&arm=RULES.md&metric=reversals", "value"],
        verdict=verdict(e, ests, 0.0), games=g, estimates=ests))
    sec.figures["worth"] = level_forest(
        both.assign(item=both["card"]), "item", "level",
        f"What one action card is worth to its owner (ablation, both players averaged, seed {st.seed})",
        "owner's score lost without one copy, points (paired, 95% interval)", levels=list(s["levels"]))
    sec.figures["reversals"] = level_forest(
        rev[rev["metric"] == "reversals"].assign(item="reversed votes per game"), "item", "level",
        "Votes reversed by philosophers (R6.3), per game", "votes per game (mean, 95% interval)", null=None,
        scale=1.0, levels=list(s["levels"]))
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(res[f"cards:{lv}"].info["games"] for lv in s["levels"]))
    return sec


PLANS = dict(seat=plan_seat, ladder=plan_ladder, orderings=plan_orderings, variants=plan_variants, cards=plan_cards,
             game=plan_game)
BUILDS = dict(seat=build_seat, ladder=build_ladder, orderings=build_orderings, variants=build_variants,
              cards=build_cards, game=build_game)


def plan(st: Study, name: str) -> list[Part]:
    return PLANS[name](st)


def build(st: Study, name: str, res: dict) -> Section:
    sec = BUILDS[name](st, res)
    left = [lv for lv in st.levels if lv not in st.sections[name]["levels"]]
    if left:
        sec.notes.append(f"Levels of play in this section: {', '.join(st.sections[name]['levels'])}; the study file "
                         f"leaves out {', '.join(left)}, so no claim here is tested there.")
    return sec
