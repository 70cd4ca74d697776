"""The ladder: Bradley–Terry ratings over the heuristics' round robin and each search level's capped pairings."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ccsim.report.claims import Estimate, make_claim
from ccsim.report.figures import ratings_plot
from ccsim.report.parts import Part
from ccsim.report.sections.common import SECTION_TITLES, Section, command_line
from ccsim.report.spec import Study
from ccsim.report.tables import Show, matrix_shows
from ccsim.report.units import ELO_ANCHOR, quote
from ccsim.analyses.stats import bradley_terry, rating_intervals
from ccsim.present.heatmap import score_heatmap


N_BOOT = 200


def _ladder_sets(st: Study):
    """(heuristic entrants, [(search level, opponent, deals)])."""
    s = st.sections["ladder"]
    names = list(dict.fromkeys(list(s["strategies"]) + [lv for lv in s["levels"] if not st.is_search(lv)]))
    heur = [n for n in names if not st.is_search(n)]
    searchers = [n for n in dict.fromkeys(list(names) + list(s["levels"])) if st.is_search(n)]
    anchors = [lv for lv in s["levels"] if not st.is_search(lv)] or heur[-1:]
    pairs = [(x, o, max(1, st.games_for(x, 2 * s["games"], "ladder") // 2)) for x in searchers for o in anchors]
    return heur, pairs


def play_tournament(st: Study, strategies, deals: int, orderings, progress, backend):
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
        return play_tournament(st, strategies, deals, None, progress, backend)
    return Part(name, dict(strategies=list(strategies), deals=deals, seed=st.seed, orderings=None),
                len(strategies) * (len(strategies) - 1) * deals, compute)


def plan_ladder(st: Study) -> list[Part]:
    heur, pairs = _ladder_sets(st)
    parts = [_tournament_part("ladder:heuristics", st, heur, st.sections["ladder"]["games"])] if len(heur) > 1 else []
    parts += [_tournament_part(f"ladder:{x}-vs-{o}", st, [x, o], d) for x, o, d in pairs]
    return parts


def tournament_cmd(st: Study, strategies, deals: int, orderings=None) -> str:
    args = ["tournament", "--strategies", ",".join(strategies), "--games", deals, "--seed", st.seed]
    if orderings:
        args += ["--orderings", ",".join(orderings)]
    return command_line(*args, "--json")


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


def pair_score(pairings: pd.DataFrame, x: str, y: str):
    """(x's score against y, lo, hi, games, a-is-x) from a pairings table."""
    r = pairings[((pairings["a"] == x) & (pairings["b"] == y)) | ((pairings["a"] == y) & (pairings["b"] == x))]
    if not len(r):
        return None
    r = r.iloc[0]
    if r["a"] == x:
        return float(r["score"]), float(r["ci_lo"]), float(r["ci_hi"]), int(r["games"]), True
    return 1 - float(r["score"]), 1 - float(r["ci_hi"]), 1 - float(r["ci_lo"]), int(r["games"]), False


def anchored(ratings: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The ratings counted from ``ELO_ANCHOR`` (its rating 0) when it is rated, else from the field's
    mean as Bradley–Terry gives them; and the anchor in words.  The intervals shift with the ratings."""
    at = ratings.index[ratings["entrant"] == ELO_ANCHOR]
    if not len(at):
        return ratings, "the field's mean"
    off = float(ratings.loc[at[0], "elo"])
    cols = [c for c in ("elo", "elo_lo", "elo_hi") if c in ratings]
    return ratings.assign(**{c: ratings[c] - off for c in cols}), f"{ELO_ANCHOR} (the anchor)"


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
    ratings, anchor = anchored(merged_ratings(pairings, labels, st.seed))
    sec.tables["ratings"] = ratings
    sec.tables["pairings"] = pairings[["a", "b", "deals", "games", "wins", "draws", "losses", "score", "ci_lo",
                                       "ci_hi", "seat_advantage", "seat_lo", "seat_hi", "p_holm"]]
    score = pd.DataFrame(np.nan, index=ratings["entrant"], columns=ratings["entrant"])
    for r in pairings.itertuples():
        score.loc[r.a, r.b], score.loc[r.b, r.a] = r.score, 1 - r.score
    sec.tables["score_matrix"] = score.rename_axis(index="entrant", columns=None).reset_index()
    sec.shows = dict(ratings=[Show(("elo", "elo_lo", "elo_hi"), "Elo")],
                     pairings=[Show(("score", "ci_lo", "ci_hi"), "%"),
                               Show(("seat_advantage", "seat_lo", "seat_hi"), "points")],
                     score_matrix=matrix_shows(sec.tables["score_matrix"], "%"))
    top = ratings["entrant"].iloc[0]
    ests = []
    for other in ratings["entrant"].iloc[1:]:
        s = pair_score(pairings, top, other)
        if s:
            ests.append(Estimate(other, s[0], s[1], s[2], s[3]))
    runner = ests[0]
    _, strategies, d = source.get((top, runner.context)) or source[(runner.context, top)]
    flip = not pair_score(pairings, top, runner.context)[4]
    r0 = ratings.iloc[0]
    text = (f"{top} rates highest ({quote(r0['elo'], r0['elo_lo'], r0['elo_hi'], 'Elo')}); against the next best, "
            f"{runner.context}, it scores {quote(runner.value, runner.lo, runner.hi, '%')} over {runner.games:,} "
            f"games with the seats swapped.")
    a, b = (runner.context, top) if flip else (top, runner.context)
    sec.claims.append(make_claim(
        "ladder.top", "ladder", "score", runner, ests, text, level=top, across="opponent",
        rests_on=f"{top} vs {runner.context}, {runner.games:,} games, seed {st.seed}, shuffled decks",
        command=tournament_cmd(st, strategies, d),
        json_path=["pairings", f"a={a}&b={b}", "score"] + (["1-x"] if flip else []),
        title=f"the strongest player, {top}, against the next best"))
    sec.figures["ratings"] = ratings_plot(ratings, f"Strategy ladder: Bradley–Terry ratings (seed {st.seed}; "
                                                   f"heuristics {deals:,} deals a pairing, search players fewer)",
                                          f"0 = {anchor}")
    sec.notes.append(f"Ratings on the Elo scale with 0 = {anchor}, as everywhere in this report and in "
                     f"results/strength/.")
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
