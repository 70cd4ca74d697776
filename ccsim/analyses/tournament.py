"""Round-robin tournaments: the Python API of ``ccsim tournament``.

Every pair of entrants (an entrant is a strategy holding an action-deck
ordering) plays the same deals 0 .. N-1 of the run seed, each deal twice with
the seats swapped.  The unit of every interval is the *deal*: its two games
share the cards, so a side's deal score (the mean of its two games: 0, 1/4,
1/2, 3/4, 1) is what varies independently from deal to deal.

Reported, each with its 95% interval: the score matrix (row's score against
column; a draw counts half), Bradley–Terry ratings on the Elo scale
(parametric bootstrap), the seat advantage (Cleopatra's score minus 50%) per
pairing and overall, and whether the results are transitive — a *significant
cycle* is a cycle A > B > ... > A of pairings each won significantly after
Holm's correction over all pairings.  Where there is one, a Nash-averaging
rating (Balduzzi et al. 2018, ``ccsim.analyses.stats.nash_average``) stands beside
Bradley–Terry: an entrant's expected advantage against the maximum-entropy
Nash mixture of the tournament's meta-game.  Its tables and ``--json`` object are drawn in
``ccsim.present.tournament``, its heatmap in ``ccsim.present.heatmap``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ccsim.kernel import rules as R
from ccsim.runner.backends import SEARCH_TASK_GAMES, LocalBackend
from ccsim.kernel.engine.episode import R_WINNER, R_END, R_TURNS, R_ERROR
from ccsim.runner.driver import drive
from ccsim.runner.grid import GridBuilder, GridTask, play_task, warm_task
from ccsim.runner.ruleset import describe
from ccsim.analyses.stats import ELO_PER_NAT, bradley_terry, holm, mean_ci, nash_average, rating_intervals
from ccsim.runner.parameters import vector_words
from ccsim.analyses.question import N_BOOT, TournamentError, TournamentQuestion, ask_tournament
from strategies.registry import player_key, search_players

__all__ = ["TournamentError", "Tournament", "tournament", "answer_tournament"]

TASK_GAMES = 100_000  # games per task: a few seconds each, so progress and Ctrl-C stay responsive


@dataclass
class Tournament:
    """A tournament's results (DataFrames) and what they rest on (``info``)."""
    entrants: list                 # labels, in the order given
    pairings: pd.DataFrame         # one row per pairing
    score: pd.DataFrame            # row's score against column (0..1), NaN on the diagonal
    score_lo: pd.DataFrame
    score_hi: pd.DataFrame
    ratings: pd.DataFrame          # Bradley-Terry (and Nash averaging where intransitive), best first
    seat: dict                     # overall seat advantage: value, lo, hi
    cycles: list                   # significant cycles, each a list of labels (A beats B beats ... beats A)
    nash: pd.DataFrame | None      # the Nash mixture and averages, or None when not computed
    info: dict = field(default_factory=dict)


class _Tally:
    """Per-pairing sums over deals, and the overall seat advantage per deal."""

    def __init__(self, n_pairs: int):
        z = lambda *s: np.zeros(s)  # noqa: E731
        self.deals = 0
        self.score = z(n_pairs, 3)      # n, sum, sumsq of side A's deal score
        self.cleo = z(n_pairs, 3)       # of Cleopatra's deal score
        self.wdl = z(n_pairs, 3)        # side A's wins, draws, losses (games)
        self.ends = z(n_pairs, len(R.END_NAMES))
        self.turns = z(n_pairs)
        self.errors = z(n_pairs)
        self.seat = z(3)                # n, sum, sumsq over deals of Cleopatra's mean deal score over pairings

    def add(self, rows: np.ndarray, cs: np.ndarray, d: int, seat: bool = True):
        """Rows of deals ``d`` of pairings ``cs`` (both arrangements each); ``seat``: count the deals
        in the overall seat advantage (the pairings that play every deal)."""
        rows = rows.reshape(len(cs), 2, d, -1)
        w = rows[..., R_WINNER].astype(np.int64)
        cleo = np.where(w == 0, 1.0, np.where(w < 0, 0.5, 0.0))          # (pairs, arrangement, deals)
        a = np.stack([cleo[:, 0], 1.0 - cleo[:, 1]], axis=1)                # side A: cleopatra, then caesar
        da = a.mean(axis=1)
        dc = cleo.mean(axis=1)
        for acc, x in ((self.score, da), (self.cleo, dc)):
            acc[cs] += np.stack([np.full(len(cs), d), x.sum(1), (x * x).sum(1)], axis=1)
        self.wdl[cs] += np.stack([(a == 1).sum((1, 2)), (a == 0.5).sum((1, 2)), (a == 0).sum((1, 2))], axis=1)
        for k in range(len(R.END_NAMES)):
            self.ends[cs, k] += (rows[..., R_END] == k).sum((1, 2))
        self.turns[cs] += rows[..., R_TURNS].astype(np.int64).sum((1, 2))
        self.errors[cs] += (rows[..., R_ERROR] != 0).sum((1, 2))
        if seat:
            s = dc.mean(axis=0)
            self.seat += (d, s.sum(), (s * s).sum())
            self.deals += d


def _interval(acc) -> tuple[float, float, float]:
    """Mean deal score and its 95% t-interval, clipped to the scores' range [0, 1]."""
    m, lo, hi = mean_ci(acc[1], acc[2], acc[0])
    return float(m), float(max(lo, 0.0)), float(min(hi, 1.0))


def _p_value(acc, null: float = 0.5) -> float:
    """Two-sided t-test of a deal-level mean against ``null``."""
    from scipy import stats as sps
    n, s, ss = acc
    if n < 2:
        return math.nan
    m = s / n
    var = max(ss - s * m, 0.0) / (n - 1)
    if var == 0:
        return 1.0 if m == null else 0.0
    return float(2 * sps.t.sf(abs(m - null) / math.sqrt(var / n), n - 1))


def significant_cycles(labels, beats: np.ndarray) -> list[list[str]]:
    """A shortest cycle through each strongly connected part of the digraph ``beats[i, j]``
    (i significantly beats j); none when the results are transitive."""
    from collections import deque
    from scipy.sparse.csgraph import connected_components
    n_comp, comp = connected_components(beats, directed=True, connection="strong")
    cycles = []
    for c in range(n_comp):
        members = np.flatnonzero(comp == c)
        if members.size < 2:
            continue
        best = None
        for start in members:  # BFS back to the start: its shortest cycle
            prev = {start: None}
            q = deque([start])
            found = None
            while q and found is None:
                u = q.popleft()
                for v in np.flatnonzero(beats[u]):
                    if v == start:
                        found = u
                        break
                    if v not in prev and comp[v] == c:
                        prev[v] = u
                        q.append(v)
            if found is not None:
                path = [found]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                path.reverse()
                if best is None or len(path) < len(best):
                    best = path
        cycles.append([labels[i] for i in best])
    return cycles


def _nash(score_pts, games, labels, rng, n_boot):
    """Nash averages (Elo scale) of the logit evaluation matrix, with parametric-bootstrap intervals."""
    def evaluation(pts):
        p = (pts + 0.5) / (games + 1.0)  # one virtual drawn game per pair: finite logits at 0% and 100%
        a = ELO_PER_NAT * np.log(p / (1 - p))
        np.fill_diagonal(a, 0.0)
        return (a - a.T) / 2
    mix, avg = nash_average(evaluation(score_pts))
    k = len(labels)
    iu, ju = np.triu_indices(k, 1)
    reps = np.empty((n_boot, k))
    for b in range(n_boot):
        pts = np.zeros((k, k))
        g = games[iu, ju].astype(np.int64)
        pts[iu, ju] = rng.binomial(g, np.clip(score_pts[iu, ju] / np.maximum(g, 1), 0, 1))
        pts[ju, iu] = g - pts[iu, ju]
        reps[b] = nash_average(evaluation(pts))[1]
    lo, hi = np.percentile(reps, [2.5, 97.5], axis=0)
    return pd.DataFrame(dict(entrant=labels, nash_mixture=mix, nash=avg, nash_lo=lo, nash_hi=hi))


def tournament(strategies="heuristics", games: int = 10_000, seed: int = 1, orderings=None, variants=(),
               rules: dict | None = None, backend=None, progress: bool = False, nash: bool | None = None,
               n_boot: int = N_BOOT, search_games: int | None = None) -> Tournament:
    """A round robin of ``strategies`` (names, comma-separated text, ``all`` or ``heuristics``),
    each with each of ``orderings`` (default ``shuffled``), on ``games`` deals per pairing,
    each deal played twice with the seats swapped.  The Python door: its arguments become one
    ``TournamentQuestion`` (``ccsim.analyses.question.ask_tournament``, every one checked before a game),
    which ``answer_tournament`` plays.

    ``search_games``: a pairing with a search player (``expert``: a few games a
    second) plays only deals 0 .. search_games-1; the ratings are fitted to every
    pairing's games, and the overall seat advantage is then over the pairings that
    play every deal.  None (or not below ``games``): every pairing plays ``games`` deals.

    ``nash``: compute Nash averaging (None: only where the results are intransitive).
    Ctrl-C keeps every finished chunk of deals (``info['interrupted']``).

    >>> t = tournament("greedy,tactician,random", games=200)        # doctest: +SKIP
    >>> t.ratings[["entrant", "elo", "elo_lo", "elo_hi"]]            # doctest: +SKIP
    """
    q = ask_tournament(strategies, games=games, seed=seed, orderings=orderings, variants=variants, rules=rules,
                       nash=nash, n_boot=n_boot, search_games=search_games)
    return answer_tournament(q, backend=backend, progress=progress)


def answer_tournament(q: TournamentQuestion, backend=None, progress: bool = False) -> Tournament:
    """Play a checked round robin (local backend by default); returns its results."""
    ents, games, seed, search_games, vec = list(q.entrants), q.games, q.seed, q.search_games, q.rules
    labels = q.labels
    k = len(ents)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    builder = GridBuilder()
    for i, j in pairs:
        builder.add(ents[i][1:], ents[j][1:], vec)  # (strategy, ordering) of each side
    grid = builder.build()
    n_pairs = len(pairs)
    slow = search_players()
    with_search = [bool({ents[i].strategy, ents[j].strategy} & slow) for i, j in pairs]
    capping = bool(search_games and search_games < games)
    capped = [c for c in range(n_pairs) if with_search[c] and capping]
    full = [c for c in range(n_pairs) if c not in capped]
    cap = int(search_games) if capped else int(games)
    # a search plays a few games a second: its pairings come in small tasks, capped or not
    tasks = (_group_tasks(seed, grid, [c for c in full if not with_search[c]], int(games), TASK_GAMES)
             + _group_tasks(seed, grid, [c for c in full if with_search[c]], int(games), SEARCH_TASK_GAMES)
             + _group_tasks(seed, grid, capped, cap, SEARCH_TASK_GAMES))
    seat_group = set(full or capped)   # the overall seat advantage: over the pairings that play every deal
    tally = _Tally(n_pairs)

    def add(task, rows) -> int:
        cs = task.configs[::2]
        tally.add(rows, cs, int(task.segment_games[0]), seat=int(cs[0]) in seat_group)
        return len(rows)

    done = drive(backend or LocalBackend(), play_task, tasks, add, warm=warm_task(tasks[0]) if tasks else None,
                 total=2 * (len(full) * int(games) + len(capped) * cap), progress=progress)
    if done.failure:
        raise done.failure
    interrupted, seconds = done.interrupted, done.seconds
    played = int(tally.score[:, 0].sum()) * 2
    if played == 0:
        raise KeyboardInterrupt
    return _results(ents, pairs, tally, dict(
        entrants=labels, strategies=list(dict.fromkeys(e.strategy for e in ents)),
        orderings=list(dict.fromkeys(e.ordering for e in ents)), variants=list(q.variants),
        rules=describe(vec), rules_words=vector_words(vec), seed=int(seed), deals=int(tally.deals), games_per_pairing=2 * int(tally.deals),
        search_deals=(int(tally.score[capped, 0].min()) if capped and full else None),
        games=played, seconds=seconds, games_per_s=played / seconds if seconds > 0 else None,
        interrupted=interrupted),
        q.nash, q.n_boot)


def _group_tasks(seed: int, grid, cs: list, deals: int, task_games: int) -> list[GridTask]:
    """Tasks playing deals 0 .. deals-1 of pairings ``cs``, both arrangements, about ``task_games`` games each."""
    if not cs:
        return []
    per = max(1, min(deals, task_games // (2 * len(cs))))
    return [GridTask(int(seed), grid, np.array([(c, s, d0, min(per, deals - d0)) for c in cs for s in (0, 1)],
                                               np.int64))
            for d0 in range(0, deals, per)]


def _results(ents, pairs, tally, info, nash, n_boot) -> Tournament:
    labels = [e.label for e in ents]
    k = len(labels)
    recs = []
    score_pts = np.zeros((k, k))
    games = np.zeros((k, k))
    draws = np.zeros((k, k))
    lo_m = np.full((k, k), np.nan)
    hi_m = np.full((k, k), np.nan)
    mean_m = np.full((k, k), np.nan)
    pvals = []
    for c, (i, j) in enumerate(pairs):
        m, lo, hi = _interval(tally.score[c])
        sm, slo, shi = _interval(tally.cleo[c])
        wins, dr, losses = (int(x) for x in tally.wdl[c])
        g = wins + dr + losses
        pvals.append(_p_value(tally.score[c]))
        score_pts[i, j], score_pts[j, i] = wins + dr / 2, losses + dr / 2
        games[i, j] = games[j, i] = g
        draws[i, j] = draws[j, i] = dr
        mean_m[i, j], mean_m[j, i] = m, 1 - m
        lo_m[i, j], hi_m[i, j], lo_m[j, i], hi_m[j, i] = lo, hi, 1 - hi, 1 - lo
        recs.append(dict(a=labels[i], b=labels[j], deals=int(tally.score[c, 0]), games=g, wins=wins, draws=dr,
                         losses=losses, score=m, ci_lo=lo, ci_hi=hi, seat_advantage=sm - 0.5,
                         seat_lo=slo - 0.5, seat_hi=shi - 0.5,
                         **{f"end_{e}": int(tally.ends[c, n]) for n, e in enumerate(R.END_NAMES) if n},
                         mean_turns=tally.turns[c] / g if g else math.nan, errors=int(tally.errors[c])))
    pairings = pd.DataFrame(recs)
    pairings["identical"] = [_identical(ents[i], ents[j]) for i, j in pairs]
    pairings["p"] = pvals
    pairings["p_holm"] = holm(pvals)
    beats = np.zeros((k, k), bool)
    for c, (i, j) in enumerate(pairs):
        if pairings["p_holm"][c] < 0.05:
            beats[(i, j) if pairings["score"][c] > 0.5 else (j, i)] = True
    cycles = significant_cycles(labels, beats)
    rng = np.random.default_rng([info["seed"], 0xB7])
    elo = bradley_terry(score_pts, games, prior=1.0)
    elo_lo, elo_hi = rating_intervals(score_pts, games, n_boot=n_boot, rng=rng, draws=draws, prior=1.0)
    mean = score_pts.sum(1) / games.sum(1)
    ratings = pd.DataFrame(dict(entrant=labels, elo=elo, elo_lo=elo_lo, elo_hi=elo_hi, mean_score=mean))
    nash_df = None
    if nash or (nash is None and cycles):
        nash_df = _nash(score_pts, games, labels, rng, n_boot)
        ratings = ratings.merge(nash_df, on="entrant")
    ratings = ratings.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)
    ratings.insert(0, "rank", np.arange(1, k + 1))
    sv, slo, shi = _interval(tally.seat)
    frame = lambda x: pd.DataFrame(x, index=labels, columns=labels)  # noqa: E731
    info.update(transitive=not cycles, pairings=len(pairs), boot=n_boot,
                errors=int(tally.errors.sum()))
    return Tournament(entrants=labels, pairings=pairings, score=frame(mean_m), score_lo=frame(lo_m),
                      score_hi=frame(hi_m), ratings=ratings,
                      seat=dict(value=sv - 0.5, lo=slo - 0.5, hi=shi - 0.5), cycles=cycles, nash=nash_df, info=info)


def _identical(a, b) -> bool:
    """Two entrants that are one player: the same strategy id and parameters with the same ordering,
    so their pairing is a mirror match, not a comparison."""
    return a.ordering == b.ordering and player_key(a.strategy) == player_key(b.strategy)
