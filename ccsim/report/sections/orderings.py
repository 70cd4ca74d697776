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
    positions_judge=[Show(("effect", "lo", "hi"), "points"), Show(("se",), "points"), Show(("raw",), "points")],
    meta_judge=[_SCORE, Show(("seat_advantage", "seat_lo", "seat_hi"), "points"), Show(("mean_turns",), "turns")],
    meta_mixture=[Show(("weight", "weight_lo", "weight_hi"), "%")],
    meta_pairings=[_SCORE, Show(("seat_advantage", "seat_lo", "seat_hi"), "points"), Show(("mean_turns",), "turns")])


def judge_of(st: Study) -> str | None:
    """The level that plays the section's headlines again (``at_judge``): the study's headline level, when it is
    not the level the search played at; None otherwise."""
    s = st.sections["orderings"]
    return st.reference if s["at_judge"] and st.reference != s["level"] else None


def _contexts(st: Study):
    """[(context label, strategy, opponent, games)] of the re-measurements: each level against
    itself, then the search level against each field opponent, then the judge against its field."""
    s = st.sections["orderings"]
    out, seen = [], set()
    for lv in s["levels"]:
        out.append((lv, lv, lv, min(st.games_for(lv, s["games"], "orderings"), s["games"])))
        seen.add((lv, lv))
    judge = judge_of(st)
    for player, field in ((s["level"], s["field"]), (judge, s["judge_field"] if judge else ())):
        for o in field:
            if (player, o) not in seen:
                g = min(st.games_for(player, s["games"], "orderings"), st.games_for(o, s["games"], "orderings"))
                out.append((f"{player} vs {o}", player, o, g))
                seen.add((player, o))
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
            return _compare_tables(_candidates(up[f"orderings:search:{lv}"], presets, few), strat, opp, g, st.seed,
                                   backend)
        parts.append(Part(f"orderings:compare:{strat}-vs-{opp}", dict(strategy=strat, opponent=opp, games=g,
                                                                        seed=st.seed, presets=presets, few=few),
                          g * (2 if few else n_cand), compare_compute, needs=(f"orderings:search:{lv}",)))

    judge = judge_of(st)
    for player in positions_players(st):
        g = positions_games(st, player)

        def positions_compute(up, progress, backend=None, player=player, g=g):
            from ccsim.analyses.orderings.study import positions
            df = positions(strategy=player, games=g, seed=st.seed, backend=backend)
            return dict(positions=pd.DataFrame(df)), {k: v for k, v in df.attrs.items() if k != "matchup"}
        parts.append(Part(f"orderings:positions:{player}", dict(level=player, games=g, seed=st.seed), g,
                          positions_compute))

    def meta_compute(up, progress, backend=None):
        orders = _meta_orderings(up[f"orderings:search:{lv}"], presets)
        return play_tournament(st, [lv], s["meta_games"], [_label(o) for o in orders], progress, backend)
    k = s["top"] + len(presets)
    parts.append(Part(f"orderings:meta:{lv}", dict(level=lv, deals=s["meta_games"], seed=st.seed, presets=presets),
                      k * (k - 1) * s["meta_games"], meta_compute, needs=(f"orderings:search:{lv}",)))
    if judge and judge_plays_decks_apart(st):
        g = min(st.games_for(judge, s["games"], "orderings"), s["games"])

        def decks_compute(up, progress, backend=None):
            return _compare_tables(_judge_decks(up[f"orderings:search:{lv}"], presets), judge, judge, g, st.seed,
                                   backend)
        parts.append(Part(f"orderings:decks:{judge}", dict(strategy=judge, games=g, seed=st.seed, presets=presets,
                                                           top=s["top"]),
                          g * (n_cand - 1), decks_compute, needs=(f"orderings:search:{lv}",)))
    if judge:
        deals = meta_judge_deals(st, judge)

        def pairing_compute(up, progress, backend=None):
            favoured, hardest = meta_headline(up[f"orderings:meta:{lv}"])
            return play_tournament(st, [judge], deals, [favoured, hardest], progress, backend)
        parts.append(Part(f"orderings:meta:{judge}", dict(level=judge, deals=deals, seed=st.seed, presets=presets),
                          2 * deals, pairing_compute, needs=(f"orderings:meta:{lv}",)))
    return parts


def _compare_tables(cands, strat: str, opp: str, games: int, seed: int, backend):
    """A compare part's tables and info: ``cands`` against a shuffled deck, ``strat`` against ``opp``."""
    from ccsim.analyses.orderings.study import compare
    df = compare(cands, baseline="shuffled", strategy=strat, opponent=opp, games=games, seed=seed, backend=backend)
    return dict(compare=pd.DataFrame(df)), dict(games=int(df.attrs["games_played"]), baseline=df.attrs["baseline"])


def judge_plays_decks_apart(st: Study) -> bool:
    """The judge plays the search's other top orderings and the presets in a part of their own: its own
    re-measurement plays the best ordering alone (a search plays few games) or it is no level of the section."""
    s = st.sections["orderings"]
    judge = judge_of(st)
    return judge is not None and (st.is_search(judge) or judge not in s["levels"])


def _judge_decks(search_res, presets) -> list[str]:
    """The orderings the judge plays apart: the search's top and the presets, but the best ordering (its own
    re-measurement plays it on the same deals)."""
    return _candidates(search_res, presets, few=False)[1:]


def positions_players(st: Study) -> list[str]:
    """Who plays the positions study: the search level, then the judge when it plays the section again."""
    judge = judge_of(st)
    return [st.sections["orderings"]["level"]] + ([judge] if judge else [])


def positions_games(st: Study, player: str) -> int:
    """The games of the positions study at ``player``: the section's, capped for a slow player."""
    return st.games_for(player, st.sections["orderings"]["positions_games"], "orderings")


def meta_judge_deals(st: Study, judge: str) -> int:
    """The deals of the meta-game's headline pairing played by the judge: the section's deals a pairing, capped
    so that its games (each deal in both seats) fit the judge's cap."""
    s = st.sections["orderings"]
    return max(1, st.games_for(judge, 2 * s["meta_games"], "orderings") // 2)


def meta_headline(meta) -> tuple[str, str]:
    """(the ordering the meta-game's equilibrium weighs most, the ordering it scores least against) of a played
    meta-game part: the pairing its claim is about."""
    labels = meta.info["entrants"]
    p, _ = equilibrium(meta.tables["score"].set_index("entrant").loc[labels, labels].to_numpy(float))
    return headline_pairing(labels, p, meta.tables["pairings"])


def headline_pairing(labels, weights, pairings: pd.DataFrame) -> tuple[str, str]:
    """(the ordering of ``labels`` the equilibrium ``weights`` weigh most, the one it scores least against)."""
    favoured = labels[int(np.argmax(weights))]
    scores = {o: pair_score(pairings, favoured, o)[0] for o in labels if o != favoured}
    return favoured, min(scores, key=scores.get)


def _labelled(compared: pd.DataFrame, context: str, strat: str, opp: str) -> pd.DataFrame:
    """A compare part's rows with where they were played in front: context, strategy, opponent."""
    c = compared.copy()
    c.insert(0, "context", context)
    c.insert(1, "strategy", strat)
    c.insert(2, "opponent", opp)
    return c


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
        frames.append(_labelled(res[f"orderings:compare:{strat}-vs-{opp}"].tables["compare"], label, strat, opp))
    judge = judge_of(st)
    if judge_plays_decks_apart(st):  # the judge's other orderings, on the deals of its best
        frames.append(_labelled(res[f"orderings:decks:{judge}"].tables["compare"], judge, judge, judge))
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
    if judge:  # what the judge played again, beside the search level's tables
        sec.tables["positions_judge"] = res[f"orderings:positions:{judge}"].tables["positions"]
        sec.tables["meta_judge"] = res[f"orderings:meta:{judge}"].tables["pairings"]
    sec.claims.append(_positions_claim(st, res))
    _meta(st, res, sec)
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(res[p.name].info.get("games", 0) for p in plan_orderings(st)))
    return sec


def _positions_claim(st: Study, res: dict):
    """Where a card's depth matters most: the card and depth region picked at the search level (on its many
    games), stated at the judge when it played the positions study too (its few games measure, not pick)."""
    s = st.sections["orderings"]
    lv = s["level"]
    reg = res[f"orderings:positions:{lv}"].tables["positions"]
    reg = reg[reg["kind"] == "region"]
    r = reg.loc[reg["effect"].abs().idxmax()]
    key = f"card={r['card']}&kind=region&region={r['region']}"
    ests = []
    for player in positions_players(st):
        pos = res[f"orderings:positions:{player}"].tables["positions"]
        row = pos[(pos["kind"] == "region") & (pos["card"] == r["card"]) & (pos["region"] == r["region"])].iloc[0]
        ests.append(Estimate(player, float(row["effect"]), float(row["lo"]), float(row["hi"]),
                             positions_games(st, player)))
    e = ests[-1]
    where = (f"Where a card sits matters most for {r['card']}: one in the {r['region']} positions of the deck is "
             f"worth")
    picked = ("" if e.context == lv else
              f"; the card and depth picked with {lv} on both sides, {s['positions_games']:,} games")
    both = f"against uniformly random orderings ({e.context} on both sides, {e.games:,} games{picked})"
    text = words_for(e, "position_effect", clear=f"{where} {quote(e.value, e.lo, e.hi, 'points')} {both}.",
                     negligible=f"{where} no practical difference {both}: {quote(e.value, e.lo, e.hi, 'points')}, "
                                f"within {margin(KINDS['position_effect'].seoi, 'points')}.",
                     unclear=f"{where} {quote(e.value, e.lo, e.hi, 'points')} {both}: too few games to tell it "
                             f"from nothing.")
    return make_claim(
        "orderings.positions", "orderings", "position_effect", e, ests, text,
        title=f"where a {r['card']} card sits in the deck",
        rests_on=rests_on(e.context, e.games, st.seed, " vs itself, random orderings"),
        command=command_line("orderings", "positions", "--strategy", e.context, "--games", e.games,
                             "--seed", st.seed, "--out", "positions-check", "--quiet", "--json"),
        json_path=["effects", key, "effect"])


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
    pairs = meta.tables["pairings"]
    favoured, hardest = headline_pairing(labels, p, pairs)
    ests = [Estimate(o, *pair_score(pairs, favoured, o)[:4]) for o in labels if o != favoured]
    worst = next(e for e in ests if e.context == hardest)
    support = [f"{o} {100 * w:.0f}%" for o, w in sorted(zip(labels, p), key=lambda t: -t[1]) if w > 0.005]
    if min(e.lo for e in ests) > 0.5:
        head = f"{favoured} is dominant in the ordering meta-game: it beats every other ordering tested"
    elif len(support) == 1:
        head = f"{favoured} is the meta-game's equilibrium, but it does not beat every ordering significantly"
    else:
        head = f"No ordering is dominant: the meta-game's equilibrium mixes {', '.join(support)}"
    judge = judge_of(st)
    if judge:
        _meta_at_judge(st, res, sec, head, favoured, hardest, worst)
        return
    text = (f"{head}; {favoured}'s weakest pairing is against {hardest}, where it scores "
            f"{quote(worst.value, worst.lo, worst.hi, '%')}{_meta_tail(worst)} ({lv} on both sides).")
    sec.claims.append(make_claim(
        "orderings.meta", "orderings", "score", worst, ests, text, level=lv, across="opponent ordering",
        rests_on=f"{lv} vs itself with fixed orderings, {worst.games:,} games a pairing, seed {st.seed}",
        command=tournament_cmd(st, [lv], s["meta_games"], labels),
        json_path=_pairing_path(pairs, favoured, hardest),
        title="the favoured ordering against its hardest opponent ordering"))


def _meta_tail(e: Estimate) -> str:
    return words_for(e, "score", clear="", negligible=f", even within {margin(KINDS['score'].seoi, '%')}",
                     unclear=", too close to call")


def _pairing_path(pairs: pd.DataFrame, x: str, y: str) -> list:
    """Where x's score against y lies in a tournament's ``--json``: its pairing's score, turned over when the
    pairing lists y first."""
    flip = not pair_score(pairs, x, y)[4]
    a, b = (y, x) if flip else (x, y)
    return ["pairings", f"a={a}&b={b}", "score"] + (["1-x"] if flip else [])


def _meta_at_judge(st: Study, res: dict, sec: Section, head: str, favoured: str, hardest: str,
                   fast: Estimate) -> None:
    """The meta-game's claim stated at the judge: the favoured ordering against its hardest opponent, the pairing
    the search level's meta-game picked, played again by the judge on both sides."""
    s = st.sections["orderings"]
    lv, judge = s["level"], judge_of(st)
    pairs = res[f"orderings:meta:{judge}"].tables["pairings"]
    at = Estimate(judge, *pair_score(pairs, favoured, hardest)[:4])
    ests = [replace(fast, context=lv), at]
    lead = "no" + head[2:] if head.startswith("No ") else head   # an ordering's name keeps its capitals
    text = (f"With {lv} on both sides, {lead}; {favoured}'s weakest pairing there is against "
            f"{hardest}. Played by {judge} on both sides, {favoured} scores {quote(at.value, at.lo, at.hi, '%')} "
            f"against {hardest}{_meta_tail(at)} ({at.games:,} games, seats swapped).")
    sec.claims.append(make_claim(
        "orderings.meta", "orderings", "score", at, ests, text, level=judge,
        rests_on=f"{judge} vs itself with fixed orderings {favoured} and {hardest} (picked by {lv}'s meta-game, "
                 f"{s['meta_games']:,} deals a pairing), {at.games:,} games, seed {st.seed}",
        command=tournament_cmd(st, [judge], meta_judge_deals(st, judge), [favoured, hardest]),
        json_path=_pairing_path(pairs, favoured, hardest),
        title="the favoured ordering against its hardest opponent ordering"))


def _best_claims(st: Study, srch, best_rows: pd.DataFrame, best: str) -> list:
    """The best ordering against a shuffled deck, stated at the search level across the levels, and
    against the first field opponent across the field."""
    s = st.sections["orderings"]
    lv = s["level"]
    player = judge_of(st) or lv   # who plays the field in the field claim
    level_ctx = [c for c in _contexts(st) if c[1] == c[2]]
    field_ctx = [c for c in _contexts(st) if c[1] == player]
    away = [c[2] for c in field_ctx if c[2] != player]
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
    field = next((c for c in claims if c.id == "orderings.best.field"), None)
    if field is not None and player != lv:
        _beside_field(field, best_rows, lv)
    return claims


def _beside_field(claim, best_rows: pd.DataFrame, lv: str) -> None:
    """The field claim stated at the judge gets the search level's figure against the same opponent beside it
    (``fast``; no map carries an ordering's worth against a weaker opponent, so nothing is predicted)."""
    opp = claim.context
    label = lv if opp == lv else f"{lv} vs {opp}"
    rows = best_rows[best_rows["context"] == label]
    if not len(rows):
        return
    r = rows.iloc[0]
    claim.fast = dict(level=lv, value=float(r["value"]), lo=float(r["lo"]), hi=float(r["hi"]),
                      games=int(r.get("games", 0) or 0))
    claim.statement += (f" Played by {lv}, the level the search played at, against {opp}, it scores "
                        f"{quote(claim.fast['value'], claim.fast['lo'], claim.fast['hi'], 'points')}.")


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
