"""The orderings section: the search, the re-measurements at every level and against a field, position effects, the meta-game."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ccsim.runner.orderings import PRESETS, parse_ordering
from ccsim.report.claims import Estimate, make_claim, words_for
from ccsim.report.figures import level_forest, payoff_heatmap
from ccsim.report.parts import Part
from ccsim.report.sections.common import SECTION_TITLES, Section, command_line, estimates_of, rests_on, stated_estimate
from ccsim.report.sections.ladder import pair_score, play_tournament, tournament_cmd
from ccsim.report.kinds import KINDS
from ccsim.report.spec import Study
from ccsim.report.tables import Show, matrix_shows
from ccsim.report.units import margin, quote
from ccsim.analyses.stats import nash_average


N_BOOT_META = 400
_SCORE = Show(("score", "ci_lo", "ci_hi"), "%")
_SHOWS = dict(  # the page shows shares in %, differences of them in points
    search_top=[Show(("win_rate", "ci_lo", "ci_hi"), "%"), Show(("simul_lo",), "%"), Show(("simul_hi",), "%"),
                Show(("diff", "diff_lo", "diff_hi"), "points"), Show(("diff_se",), "points"),
                Show(("search_score",), "%")],
    remeasured=[Show(("win_rate", "ci_lo", "ci_hi"), "%"), Show(("diff", "diff_lo", "diff_hi"), "points"),
                Show(("diff_se",), "points")],
    positions=[Show(("effect", "lo", "hi"), "points"), Show(("se",), "points"), Show(("raw",), "points")],
    meta_mixture=[Show(("weight", "weight_lo", "weight_hi"), "%")],
    meta_pairings=[_SCORE, Show(("seat_advantage", "seat_lo", "seat_hi"), "points"), Show(("mean_turns",), "turns")])


def _contexts(st: Study):
    """[(context label, strategy, opponent, games)] of the re-measurements: each level against
    itself, then the search level against each field opponent."""
    s = st.sections["orderings"]
    out, seen = [], set()
    for lv in s["levels"]:
        out.append((lv, lv, lv, min(st.games_for(lv, s["games"], "orderings"), s["games"])))
        seen.add((lv, lv))
    for o in s["field"]:
        if (s["level"], o) not in seen:
            g = min(st.games_for(s["level"], s["games"], "orderings"), st.games_for(o, s["games"], "orderings"))
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
        from ccsim.analyses.orderings.study import search
        df = search(strategy=lv, budget=s["budget"], seed=st.seed, top=s["top"], backend=backend)
        prog = pd.DataFrame(df.attrs["progress"])
        base = pd.DataFrame([df.attrs["baseline"], df.attrs["worst"]]).assign(role=["shuffled", "worst"])
        return dict(top=pd.DataFrame(df), progress=prog, extra=base), dict(games=int(df.attrs["games_used"]),
                                                                          seconds=df.attrs["seconds"])
    if s["search"]:  # a published search, read rather than played again: every figure rests on one search
        parts = [published_search_part(lv, s["search"], s["top"])]
    else:
        parts = [Part(f"orderings:search:{lv}", dict(level=lv, budget=s["budget"], seed=st.seed, top=s["top"]),
                      s["budget"], search_compute)]
    presets = [_canon(p) for p in s["presets"]]
    n_cand = s["top"] + len(presets) + 1
    for label, strat, opp, g in _contexts(st):
        few = st.is_search(strat) or st.is_search(opp)

        def compare_compute(up, progress, backend=None, strat=strat, opp=opp, g=g, few=few):
            from ccsim.analyses.orderings.study import compare
            cands = _candidates(up[f"orderings:search:{lv}"], presets, few)
            df = compare(cands, baseline="shuffled", strategy=strat, opponent=opp, games=g, seed=st.seed,
                         backend=backend)
            return dict(compare=pd.DataFrame(df)), dict(games=int(df.attrs["games_played"]),
                                                        baseline=df.attrs["baseline"])
        parts.append(Part(f"orderings:compare:{strat}-vs-{opp}", dict(strategy=strat, opponent=opp, games=g,
                                                                        seed=st.seed, presets=presets, few=few),
                          g * (2 if few else n_cand), compare_compute, needs=(f"orderings:search:{lv}",)))

    def positions_compute(up, progress, backend=None):
        from ccsim.analyses.orderings.study import positions
        df = positions(strategy=lv, games=s["positions_games"], seed=st.seed, backend=backend)
        return dict(positions=pd.DataFrame(df)), {k: v for k, v in df.attrs.items() if k != "matchup"}
    parts.append(Part(f"orderings:positions:{lv}", dict(level=lv, games=s["positions_games"], seed=st.seed),
                      s["positions_games"], positions_compute))

    def meta_compute(up, progress, backend=None):
        orders = _meta_orderings(up[f"orderings:search:{lv}"], presets)
        return play_tournament(st, [lv], s["meta_games"], [_label(o) for o in orders], progress, backend)
    k = s["top"] + len(presets)
    parts.append(Part(f"orderings:meta:{lv}", dict(level=lv, deals=s["meta_games"], seed=st.seed, presets=presets),
                      k * (k - 1) * s["meta_games"], meta_compute, needs=(f"orderings:search:{lv}",)))
    return parts


def published_search_part(level: str, folder: str, top: int) -> Part:
    """The search part read from a folder of ``ccsim orderings search`` (its search.json, search_top.parquet and
    search_progress.parquet), keyed by its search.json, so that a search published again plays the parts that
    follow it again; StudyError (before any game) for a folder that is not a search at ``level`` with ``top``."""
    import hashlib
    import json
    from pathlib import Path
    from ccsim.report.spec import StudyError
    where = Path(folder)
    try:
        meta = json.loads((where / "search.json").read_text(encoding="utf-8"))
        table = pd.read_parquet(where / "search_top.parquet")
        progress = pd.read_parquet(where / "search_progress.parquet")
    except (OSError, ValueError) as e:
        raise StudyError(f"[orderings] search: {folder} is no `ccsim orderings search` folder ({e})") from None
    if meta["level"]["name"] != level:
        raise StudyError(f"[orderings] search: {folder} searched at {meta['level']['name']}, the section's level is "
                         f"{level}")
    found = table[table["role"] == "top"].drop(columns="role").reset_index(drop=True)
    if len(found) < top:
        raise StudyError(f"[orderings] search: {folder} kept {len(found)} orderings, the section asks for top = {top}")
    digest = hashlib.sha256((where / "search.json").read_bytes()).hexdigest()[:16]
    extra = table[table["role"] != "top"].replace({"role": {"baseline": "shuffled", "worst of sample": "worst"}})

    def compute(up, progress_bar, backend=None):
        return (dict(top=found.head(top), progress=progress, extra=extra.reset_index(drop=True)),
                dict(games=0, searched_games=int(meta["games_used"]), seconds=float(meta["seconds"]),
                     budget=int(meta["budget"]), source=str(folder)))
    return Part(f"orderings:search:{level}", dict(level=level, search=digest, top=top), 0, compute)


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
    sec.shows = dict(_SHOWS)
    if srch.info.get("source"):
        sec.notes.append(f"The search is the one published in {srch.info['source']} ({srch.info['searched_games']:,} "
                         f"games at {lv}), read rather than played again: every ordering figure here rests on it.")
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
    sec.claims += _best_claims(st, srch, d[d["ordering"] == best], best)
    d["item"] = [_label(o) for o in d["ordering"]]
    sec.figures["remeasured"] = level_forest(
        d, "item", "context", f"Orderings re-measured at each level and against the field (seed {st.seed})",
        "score against a shuffled deck, points (paired, 95% interval)", levels=[c[0] for c in _contexts(st)],
        legend="played by (vs opponent)")
    pos = res[f"orderings:positions:{lv}"].tables["positions"]
    sec.tables["positions"] = pos
    from ccsim.present.orderings import positions_heatmap
    pos_df = pos.copy()
    pos_df.attrs.update(res[f"orderings:positions:{lv}"].info)
    sec.figures["positions"] = positions_heatmap(pos_df, None, f"Value of a card by depth with {lv} on both sides "
                                                 f"({s['positions_games']:,} games, seed {st.seed})")
    reg = pos[pos["kind"] == "region"]
    r = reg.loc[reg["effect"].abs().idxmax()]
    e = Estimate(lv, float(r["effect"]), float(r["lo"]), float(r["hi"]), s["positions_games"])
    text = (f"Where a card sits matters most for {r['card']}: one in the {r['region']} positions of the deck is worth "
            f"{quote(e.value, e.lo, e.hi, 'points')} against uniformly random orderings ({lv} on both sides).")
    sec.claims.append(make_claim(
        "orderings.positions", "orderings", "position_effect", e, [e], text,
        title=f"where a {r['card']} card sits in the deck",
        rests_on=rests_on(lv, s["positions_games"], st.seed, " vs itself, random orderings"),
        command=command_line("orderings", "positions", "--strategy", lv, "--games", s["positions_games"],
                             "--seed", st.seed, "--out", "positions-check", "--quiet", "--json"),
        json_path=["effects", f"card={r['card']}&kind=region&region={r['region']}", "effect"]))
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
    sec.shows["meta_score"] = matrix_shows(meta.tables["score"], "%")
    sec.tables["meta_pairings"] = meta.tables["pairings"]
    sec.figures["meta"] = payoff_heatmap(
        sc, pd.DataFrame(lo, index=labels, columns=labels), pd.DataFrame(hi, index=labels, columns=labels), mix,
        f"Ordering meta-game with {lv} on both sides: each player picks an ordering ({s['meta_games']:,} deals a "
        f"pairing, seats swapped, seed {st.seed})")
    # the ordering the equilibrium weighs most, and its worst pairing
    i = int(np.argmax(p))
    pairs = meta.tables["pairings"]
    ests = [Estimate(o, *pair_score(pairs, labels[i], o)[:4]) for o in labels if o != labels[i]]
    worst = min(ests, key=lambda e: e.value)
    flip = not pair_score(pairs, labels[i], worst.context)[4]
    support = [f"{o} {100 * w:.0f}%" for o, w in sorted(zip(labels, p), key=lambda t: -t[1]) if w > 0.005]
    if worst.lo > 0.5:
        head = f"{labels[i]} is dominant in the ordering meta-game: it beats every other ordering tested"
    elif len(support) == 1:
        head = (f"{labels[i]} is the meta-game's equilibrium, but it does not beat every ordering significantly")
    else:
        head = f"No ordering is dominant: the meta-game's equilibrium mixes {', '.join(support)}"
    tail = words_for(worst, "score", clear="", negligible=f", even within {margin(KINDS['score'].seoi, '%')}",
                     unclear=", too close to call")
    text = (f"{head}; {labels[i]}'s weakest pairing is against {worst.context}, where it scores "
            f"{quote(worst.value, worst.lo, worst.hi, '%')}{tail} ({lv} on both sides).")
    a, b = (worst.context, labels[i]) if flip else (labels[i], worst.context)
    sec.claims.append(make_claim(
        "orderings.meta", "orderings", "score", worst, ests, text, level=lv, across="opponent ordering",
        rests_on=f"{lv} vs itself with fixed orderings, {worst.games:,} games a pairing, seed {st.seed}",
        command=tournament_cmd(st, [lv], s["meta_games"], labels),
        json_path=["pairings", f"a={a}&b={b}", "score"] + (["1-x"] if flip else []),
        title="the favoured ordering against its hardest opponent ordering"))


def _best_claims(st: Study, srch, best_rows: pd.DataFrame, best: str) -> list:
    """The best ordering against a shuffled deck, stated at the search level across the levels, and
    against the first field opponent across the field."""
    s = st.sections["orderings"]
    lv = s["level"]
    level_ctx = [c for c in _contexts(st) if c[1] == c[2]]
    field_ctx = [c for c in _contexts(st) if c[1] == lv]
    away = [c[2] for c in field_ctx if c[2] != lv]
    claims = []
    at_levels = st.reference if any(c[0] == st.reference for c in level_ctx) else lv
    for kind, ctxs, across, stated_ctx in (("levels", level_ctx, "level", at_levels),
                                           ("field", field_ctx, "opponent", away[0] if away else None)):
        # a field context is named by its opponent: "against greedy", not "at tactician vs greedy"
        name = {c[0]: (c[2] if across == "opponent" else c[0]) for c in ctxs}
        ests = [replace(e, context=name[e.context]) for e in estimates_of(best_rows, "context", {})
                if e.context in name]
        if not ests or stated_ctx is None:
            continue
        e = stated_estimate(ests, stated_ctx)
        _, strat, opp, g = next(c for c in ctxs if name[c[0]] == e.context)
        cands = _candidates(srch, [_canon(p) for p in s["presets"]], st.is_search(strat) or st.is_search(opp))
        claims.append(make_claim(
            f"orderings.best.{kind}", "orderings", "ordering_effect", e, ests,
            _best_statement(lv, best, e, strat, opp, g), level=strat, across=across,
            title=f"the strongest ordering found, {best}" + (" against the field" if kind == "field" else ""),
            rests_on=f"{strat} vs {opp} (opponent deck shuffled), {g:,} games per deck, seed {st.seed}",
            command=command_line("orderings", "compare", *cands, "--baseline", "shuffled", "--strategy", strat,
                                 "--opponent", opp, "--games", g, "--seed", st.seed, "--json"),
            json_path=["orderings", f"ordering={best}", "diff"], games=g))
    return claims


def _best_statement(lv: str, best: str, e: Estimate, strat: str, opp: str, games: int) -> str:
    """The best ordering against a shuffled deck, in words that fit its class (``ccsim.report.kinds``)."""
    where = "against the same player" if strat == opp else f"against {opp}"
    q = quote(e.value, e.lo, e.hi, "points")
    found = f"The best ordering found by the search with {lv}, {best},"
    tail = f"when {strat} plays it {where} ({games:,} games a deck, both seats)"
    return words_for(e, "ordering_effect", clear=f"{found} scores {q} against a shuffled deck {tail}.",
                     negligible=f"{found} makes no practical difference against a shuffled deck {tail}: {q}, within "
                                f"{margin(KINDS['ordering_effect'].seoi, 'points')}.",
                     unclear=f"{found} cannot be told from a shuffled deck {tail}: {q}.")
