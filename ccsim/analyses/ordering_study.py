"""Action-deck ordering studies: the Python API of ``ccsim orderings``.

Three studies, each returning a pandas DataFrame:

``compare(orderings, baseline=...)``
    every candidate and the baseline play the same deals (common random
    numbers), each deal twice with the seats swapped; win rate with its 95%
    interval and the paired difference to the baseline with its interval;
    optionally sequential (stop each comparison when an SPRT decides).
``search(budget=...)``
    successive halving over a large random sample of orderings, local search
    by swaps around the finalists, a semifinal, and a confirmation of the ten
    best on fresh deals (a separate range of game indices) with intervals.
``positions(games=...)``
    what each card type is worth at each depth of the deck: a linear
    regression of the score on type-at-position indicators across many
    uniformly random orderings, with standard errors.

Scoring is always from the candidate's point of view: win 1, draw 1/2
(R10.5), loss 0.  A *deal* is one game index ``i`` of the run seed; the
candidate plays it as cleopatra and as caesar against the opponent (strategy
``opponent`` holding ``opponent_order``), so one deal is two games.  Game
``i`` of seed ``s`` deals the same cards whatever the orderings and
strategies, so orderings compared on the same deals differ only by their own
effect and its interaction with the deal.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ccsim.kernel import rules as R
from ccsim.runner.backends import LocalBackend
from ccsim.runner.config import ConfigError, RunConfig
from ccsim.kernel.engine.episode import R_ERROR, R_WINNER
from ccsim.runner.checks import check_count, check_seed
from ccsim.runner.grid import GridTask, orderings_grid, play_task, segment_tasks
from ccsim.runner.orderings import (COUNTS, LENGTH, LETTERS, PRESETS, SHUFFLED, OrderingError, count_orderings,
                             from_codes, parse_ordering, random_orderings, rank_many,
                             swap_neighbours, to_codes, unrank_many)
from ccsim.kernel.simulate import get_threads
from ccsim.analyses.stats import PairedStats, sprt_decide_difference, wilson_interval
from strategies.registry import resolve
from ccsim.errors import UsageError

__all__ = ["OrderingStudyError", "Matchup", "compare", "search", "search_args", "positions", "positions_size",
           "PositionFit", "CONFIRM_BASE", "REGIONS"]

#: confirmation runs of ``search`` use game indices from here on: deals no
#: earlier stage (nor ``compare`` with its usual sizes) plays
CONFIRM_BASE = 1 << 40

#: depth regions of the position table (1 = top of the deck)
REGIONS = (("top 3", 1, 3), ("4-6", 4, 6), ("7-10", 7, 10), ("bottom 3", 11, 13))


class OrderingStudyError(UsageError):
    """An unusable study argument (a usage error: exit status 2 in the CLI)."""


# --- the matchup: who plays whom, and the batched kernel call ------------------

def _strategy(name: str, flag: str):
    try:
        return resolve(name)
    except KeyError as e:
        raise OrderingStudyError(f"{flag}: {e.args[0]}") from None


def _ordering(text: str, flag: str | None, allow_shuffled: bool = True) -> str:
    try:
        s = parse_ordering(text)
    except OrderingError as e:
        raise OrderingStudyError(f"{flag}: {e}" if flag else str(e)) from None
    if s == SHUFFLED and not allow_shuffled:
        raise OrderingStudyError(f"{flag}: '{SHUFFLED}' is not one ordering here")
    return s


def _codes(ordering: str) -> np.ndarray:
    """Kernel code row of a canonical ordering; -1s for shuffled."""
    if ordering == SHUFFLED:
        return np.full(LENGTH, -1, np.int8)
    return to_codes(ordering)


def _positive(value, flag: str, minimum: int = 1) -> int:
    return check_count(value, OrderingStudyError, flag, minimum)


@dataclass
class Matchup:
    """A candidate's strategy against an opponent (strategy and ordering), one run seed.

    ``play(codes, first, n_deals)`` plays every candidate code row on deals
    ``first .. first + n_deals - 1`` at both seats and returns the candidate's
    points doubled, int8 of shape (candidates, deals, 2): 2 win, 1 draw, 0 loss.
    The games are tasks of the grid kernel (``ccsim.runner.grid``) mapped by
    ``backend`` (this process by default).  ``games`` counts every game played
    so far.
    """
    strategy: str = "greedy"
    opponent: str | None = None
    opponent_order: str = SHUFFLED
    seed: int = 1
    variants: tuple = ()
    games: int = 0
    backend: object = None

    def __post_init__(self):
        if self.opponent is None:
            self.opponent = self.strategy
        _strategy(self.strategy, "--strategy")
        _strategy(self.opponent, "--opponent")
        self.opponent_order = _ordering(self.opponent_order, "--opponent-order")
        check_seed(self.seed, OrderingStudyError)
        try:
            self.rules = RunConfig(variants=tuple(self.variants)).validated().rules_vector()
        except ConfigError as e:
            raise OrderingStudyError(str(e)) from None
        self.opp = _codes(self.opponent_order)
        self.backend = self.backend or LocalBackend()
        self.warm()

    def warm(self) -> None:
        """Compile (or load) the kernel and both strategies wherever tasks run: one game, not
        counted, so a study's time counts games, not compiling."""
        grid = orderings_grid(self.strategy, self.opponent, random_orderings(np.random.default_rng(0), 1),
                              self.opp, self.rules)
        self.backend.warm(play_task, GridTask(self.seed, grid, np.array([(0, 0, 0, 1)], np.int64), (R_WINNER, R_ERROR)))

    def play(self, codes, first: int, n_deals: int, deal_off=None) -> np.ndarray:
        codes = np.ascontiguousarray(codes, dtype=np.int8).reshape(-1, LENGTH)
        k = codes.shape[0]
        n = int(n_deals)
        off = (np.zeros(k, np.int64) if deal_off is None
               else np.ascontiguousarray(deal_off, dtype=np.int64).reshape(k))
        if k * n == 0:
            return np.empty((k, n, 2), np.int8)
        grid = orderings_grid(self.strategy, self.opponent, codes, self.opp, self.rules)
        segments = [(c, s, int(first) + int(off[c]), n) for c in range(k) for s in (0, 1)]
        tasks = segment_tasks(self.seed, grid, segments, cols=(R_WINNER, R_ERROR))
        rows = np.concatenate([r for _, r in self.backend.map(play_task, tasks)]).reshape(k, 2, n, 2)
        winner, error = rows[..., 0].transpose(0, 2, 1), rows[..., 1].transpose(0, 2, 1)
        if (error != 0).any():
            k_bad, i_bad, s_bad = np.argwhere(error != 0)[0]
            raise RuntimeError(f"engine error in game {first + off[k_bad] + i_bad} of seed {self.seed} "
                               f"(ordering {from_codes(codes[k_bad]) if codes[k_bad, 0] >= 0 else SHUFFLED}, "
                               f"seat {s_bad})")
        seat = np.arange(2, dtype=np.int16)
        out = np.where(winner == seat, 2, np.where(winner < 0, 1, 0)).astype(np.int8)
        self.games += 2 * k * n
        return out

    def describe(self) -> str:
        return (f"{self.strategy} vs {self.opponent} (opponent ordering {self.opponent_order}), "
                f"seed {self.seed}" + (f", variants {', '.join(self.variants)}" if self.variants else ""))


def _deal_values(pts: np.ndarray) -> np.ndarray:
    """Per-deal mean score (0, .25, .5, .75, 1) of (candidates, deals, 2) doubled points."""
    return pts.sum(axis=2, dtype=np.int64) / 4.0


# --- compare -------------------------------------------------------------------

def _label(text: str, canonical: str) -> str:
    key = "-".join(str(text).strip().lower().replace("_", "-").split())
    return key if key in PRESETS or canonical == SHUFFLED else canonical


def compare(orderings, baseline: str = SHUFFLED, strategy: str = "greedy", opponent: str | None = None,
            opponent_order: str = SHUFFLED, games: int = 20_000, seed: int = 1, until_decided: bool = False,
            delta: float = 0.02, alpha: float = 0.05, beta: float = 0.05, chunk: int | None = None,
            variants=(), confidence: float = 0.95, backend=None) -> pd.DataFrame:
    """Compare orderings with a baseline on common deals, seats swapped.

    ``games`` is the number of games each ordering plays (``games / 2``
    deals, each at both seats; rounded up to even).  With ``until_decided``
    it is the most each comparison may use: after 100 deals, and then after
    chunks each 1.5 times larger (at most a tenth of the run), the
    two-sided SPRT of ``ccsim.analyses.stats.sprt_decide_difference`` (H0: no
    difference against H1: a difference of ``delta`` either way, error rates
    ``alpha`` overall and ``beta``) is asked, and a comparison stops at its
    first decision.

    One row per distinct candidate, in the order given: ``ordering``
    (canonical), ``label`` (preset name or the ordering), ``games``,
    ``win_rate`` with Wilson interval ``ci_lo``, ``ci_hi``; ``diff`` =
    mean(candidate - baseline) per deal with Student-t interval ``diff_lo``,
    ``diff_hi`` and ``diff_se``; ``decision`` (``better`` / ``worse`` /
    ``no_difference`` / ``undecided``; None without ``until_decided``).
    ``attrs['baseline']`` holds the baseline's own numbers.
    """
    if isinstance(orderings, str):
        orderings = [orderings]
    if not orderings:
        raise OrderingStudyError("give at least one ordering to compare")
    base = _ordering(baseline, "--baseline")
    cands, labels = [], []
    for text in orderings:
        c = _ordering(text, None)
        if c not in cands:
            cands.append(c)
            labels.append(_label(text, c))
    games = _positive(games, "--games", 2)
    deals = (games + 1) // 2
    if not 0 < delta < 1:
        raise OrderingStudyError(f"--delta must be in (0, 1), got {delta!r}")
    m = Matchup(strategy, opponent, opponent_order, seed, tuple(variants), backend=backend)
    uniq = list(dict.fromkeys([base] + cands))
    codes = np.stack([_codes(o) for o in uniq])
    idx = {o: i for i, o in enumerate(uniq)}
    # sequential runs look after 100 deals, then after chunks 1.5 times larger (at most a tenth of the run)
    grow = until_decided and chunk is None
    if chunk is None:
        chunk = 100 if until_decided else max(1, min(deals, 50_000))
    chunk = _positive(chunk, "--chunk")
    cap = max(chunk, deals // 10)

    n_u = len(uniq)
    points = np.zeros(n_u)           # summed scores over the deals each one played
    played = np.zeros(n_u, np.int64)  # deals played
    stats = {c: PairedStats() for c in cands}
    cpoints = dict.fromkeys(cands, 0.0)  # a candidate's points over the deals of its own comparison
    decision = {c: ("undecided" if until_decided else None) for c in cands}
    active = set(cands)
    done = 0
    while done < deals and active:
        n = min(chunk, deals - done)
        # the baseline and every still-open candidate on the same deals
        rows = [idx[base]] + sorted({idx[c] for c in active} - {idx[base]})
        vals = _deal_values(m.play(codes[rows], done, n))
        by = dict(zip(rows, vals))
        for r, v in by.items():
            points[r] += 2.0 * v.sum()
            played[r] += n
        for c in list(active):
            stats[c].update(by[idx[c]], by[idx[base]])
            cpoints[c] += 2.0 * by[idx[c]].sum()
            if until_decided:
                d = sprt_decide_difference(stats[c], delta=delta, alpha=alpha / 2, beta=beta)
                if d != "continue":
                    decision[c] = d
                    active.discard(c)
        done += n
        if grow:
            chunk = min(cap, int(chunk * 1.5))
    recs = []
    for c, lab in zip(cands, labels):
        g = int(stats[c].n) * 2
        pts = cpoints[c]
        lo, hi = wilson_interval(pts, g, confidence)
        s = stats[c].summary(confidence)
        recs.append(dict(ordering=c, label=lab, games=g, win_rate=pts / g if g else math.nan, ci_lo=lo, ci_hi=hi,
                         diff=s["diff"], diff_lo=s["lo"], diff_hi=s["hi"], diff_se=s["se"], decision=decision[c]))
    df = pd.DataFrame(recs)
    bi = idx[base]
    bg = int(played[bi]) * 2
    blo, bhi = wilson_interval(points[bi], bg, confidence)
    df.attrs.update(baseline=dict(ordering=base, label=_label(baseline, base), games=bg,
                                  win_rate=points[bi] / bg, ci_lo=blo, ci_hi=bhi),
                    matchup=m.describe(), games_played=m.games, delta=delta, alpha=alpha, beta=beta,
                    confidence=confidence)
    return df


# --- search --------------------------------------------------------------------

def _unique_random(rng: np.random.Generator, k: int, exclude=()) -> np.ndarray:
    """``k`` distinct uniformly random orderings (code rows), none of ``exclude`` (ranks)."""
    k = min(k, count_orderings() - len(exclude))
    have = np.zeros(0, np.int64)
    excl = np.asarray(list(exclude), dtype=np.int64)
    while have.size < k:
        r = rank_many(random_orderings(rng, 2 * (k - have.size) + 16))
        have = np.unique(np.concatenate([have, r]))
        have = np.setdiff1d(have, excl)
    return unrank_many(rng.permutation(have)[:k])


def _plan_halving(b_sh: int, final: int, m_min: int, k_max: int):
    """(candidates K, rounds R, first-round deals m0) of a successive-halving stage of about b_sh games.

    Round 0 plays K candidates on m0 deals, round r >= 1 the best K / 2**r on
    m0 * 2**(r-1) more deals (cumulative m0 * 2**r): K * m0 * (R + 2) games.
    The largest sample whose first round still has m_min deals wins.
    """
    best = None
    r = 0
    while True:
        k = final << r
        if k > k_max:
            break
        m0 = b_sh // (k * (r + 2))
        if m0 >= m_min or best is None:
            best = (k, r, max(1, m0))
        if m0 < m_min:
            break
        r += 1
    return best


class _Search:
    def __init__(self, m: Matchup, budget: int, rng, log):
        self.m = m
        self.budget = budget
        self.rng = rng
        self.log = log or (lambda msg: None)
        self.next_deal = 0
        self.t0 = time.perf_counter()
        self.c0 = time.process_time()
        self.progress = []

    def deals(self, n: int) -> int:
        """First game index of ``n`` fresh deals (no deal is reused across stages)."""
        first = self.next_deal
        self.next_deal += int(n)
        return first

    def play(self, codes, first, n):
        """Values (candidates, deals) in chunks of about a million games."""
        codes = np.asarray(codes)
        step = max(1, 1_000_000 // max(1, 2 * len(codes)))
        parts = [_deal_values(self.m.play(codes, first + a, min(step, n - a))) for a in range(0, n, step)]
        return np.concatenate(parts, axis=1) if parts else np.zeros((len(codes), 0))

    def note(self, stage, step, n_cand, deals, best, best_score, median, extra=""):
        rec = dict(stage=stage, step=step, candidates=int(n_cand), deals_each=int(deals),
                   games_used=int(self.m.games), seconds=time.perf_counter() - self.t0,
                   best=best, best_score=float(best_score), median_score=float(median))
        self.progress.append(rec)
        self.log(f"{stage:>10} {step:>3}: {n_cand:>6} candidates x {deals:>6} deals, best {best} "
                 f"{best_score:.4f}, median {median:.4f}  [{self.m.games:,} games, "
                 f"{rec['seconds']:.0f} s]{extra}")


def search_args(strategy="greedy", opponent=None, opponent_order=SHUFFLED, budget=1_000_000, seed=1, top=10,
                variants=(), backend=None):
    """(Matchup, budget, top) of a search, validated; OrderingStudyError names the problem."""
    budget = _positive(budget, "--budget", 2_000)
    top = _positive(top, "--top")
    if top > 100:
        raise OrderingStudyError(f"--top must be at most 100, got {top}")
    return Matchup(strategy, opponent, opponent_order, seed, tuple(variants), backend=backend), budget, top


def search(strategy: str = "greedy", opponent: str | None = None, opponent_order: str = SHUFFLED,
           budget: int = 1_000_000, seed: int = 1, top: int = 10, variants=(), confidence: float = 0.95,
           log=None, backend=None) -> pd.DataFrame:
    """Find strong orderings within a budget of ``budget`` games (all stages together).

    1. *Successive halving* (about 50% of the budget): a uniform sample of
       distinct orderings plus the presets, all on the same deals; after each
       round the better half by cumulative mean score plays twice as many
       more deals.
    2. *Local search by swaps* (25%): from the best finalists, every
       ordering one swap away (``swap_neighbours``) races the incumbent on
       fresh common deals; the best quarter plays on, and the best of them
       replaces the incumbent if it beats it on those later deals.
    3. *Semifinal* (7%): the finalists and every incumbent on fresh common deals.
    4. *Confirmation* (18%): the ``top`` best, the baseline ``shuffled`` and the
       worst ordering of the first round on fresh deals (game indices from
       ``CONFIRM_BASE``), which no earlier stage saw, so the estimates carry
       no selection bias: win rate with Wilson interval, a Bonferroni
       interval valid for all ``top`` at once (``simul_lo``, ``simul_hi``),
       and the paired difference to ``shuffled``.

    Returns the ``top`` confirmed orderings, best first.  ``attrs`` holds
    ``progress`` (records per step), ``baseline`` and ``worst`` (their
    confirmation numbers), ``games_used``, ``seconds`` and the plan.
    """
    m, budget, top = search_args(strategy, opponent, opponent_order, budget, seed, top, variants, backend)
    rng = np.random.default_rng([seed, 0x0D0E5])
    S = _Search(m, budget, rng, log)

    b_conf = int(0.18 * budget)
    b_semi = int(0.07 * budget)
    b_ls = int(0.25 * budget)
    b_sh = budget - b_conf - b_semi - b_ls
    final = 32 if budget >= 200_000 else 16
    k, rounds, m0 = _plan_halving(b_sh, final, m_min=16 if budget >= 1_000_000 else 8, k_max=1 << 16)

    # 1. successive halving ------------------------------------------------------------
    presets = list(dict.fromkeys(v for v, _ in PRESETS.values()))
    pre_codes = np.stack([to_codes(p) for p in presets])
    pre_ranks = rank_many(pre_codes)
    n_rand = max(0, k - len(presets))
    codes = np.concatenate([pre_codes[:k], _unique_random(rng, n_rand, pre_ranks)])
    source = np.array(["preset"] * min(k, len(presets)) + ["sample"] * n_rand, dtype=object)
    first = S.deals(m0 << rounds)
    total = np.zeros(len(codes))
    alive = np.arange(len(codes))
    played = 0
    first_round = None
    for r in range(rounds + 1):
        upto = m0 << r
        vals = S.play(codes[alive], first + played, upto - played)
        total[alive] += vals.sum(axis=1)
        played = upto
        mean = total[alive] / played
        order = np.argsort(-mean, kind="stable")
        if r == 0:
            first_round = pd.DataFrame(dict(ordering=[from_codes(c) for c in codes], source=source,
                                            score=mean))
        S.note("halving", r, len(alive), played, from_codes(codes[alive[order[0]]]), mean[order[0]],
               np.median(mean))
        if r < rounds:
            alive = alive[order[:max(1, len(alive) // 2)]]
        else:
            alive = alive[order]
    finalists = [from_codes(c) for c in codes[alive]]
    worst = first_round.sort_values("score", kind="stable").iloc[0]["ordering"]

    # 2. local search by swaps ------------------------------------------------------------
    pool = dict.fromkeys(finalists)
    starts = finalists[:min(4, len(finalists))]
    ls_end = S.m.games + b_ls
    n_nb = 80  # a neighbourhood has at most 78 orderings, plus the incumbent
    m_ls = max(20, b_ls // (2 * (n_nb + 9 * 4) * 20))
    incumbents = {s: s for s in starts}
    converged = set()
    seen = set(starts)
    step = 0
    while True:
        open_ = [s for s in starts if s not in converged]
        if not open_:
            converged.clear()
            m_ls *= 2            # every start at a local optimum: look again, finer
            open_ = list(starts)
        s0 = open_[step % len(open_)]
        inc = incumbents[s0]
        nbs = [x for x in swap_neighbours(inc) if x not in seen] or swap_neighbours(inc)
        cost = 2 * m_ls * (len(nbs) + 1) + 2 * 4 * m_ls * (min(8, len(nbs)) + 1)
        if S.m.games + cost > ls_end:
            break
        group = [inc] + nbs
        v1 = S.play(np.stack([to_codes(x) for x in group]), S.deals(m_ls), m_ls).mean(axis=1)
        best8 = [group[1 + i] for i in np.argsort(-v1[1:], kind="stable")[:8]]
        g2 = [inc] + best8
        v2 = S.play(np.stack([to_codes(x) for x in g2]), S.deals(4 * m_ls), 4 * m_ls)
        diffs = v2[1:] - v2[0]
        mu = diffs.mean(axis=1)
        j = int(np.argmax(mu))
        se = diffs[j].std(ddof=1) / math.sqrt(diffs.shape[1])
        moved = mu[j] > 0 and (se == 0 or mu[j] / se > 1.0)
        seen.update(best8)
        pool.update(dict.fromkeys(best8[:2]))
        if moved:
            incumbents[s0] = best8[j]
            pool[best8[j]] = None
        else:
            converged.add(s0)
        S.note("local", step, len(group), m_ls + 4 * m_ls, incumbents[s0], v2[1 + j].mean() if moved else
               v2[0].mean(), np.median(v1), f"  {'moved' if moved else 'stays'} (+{100 * mu[j]:.2f} pts)")
        step += 1

    # 3. semifinal ---------------------------------------------------------------------
    pool = list(dict.fromkeys(list(incumbents.values()) + list(pool)))
    b_semi += max(0, ls_end - S.m.games)  # what local search left over
    m_semi = max(1, b_semi // (2 * len(pool)))
    vs = S.play(np.stack([to_codes(x) for x in pool]), S.deals(m_semi), m_semi).mean(axis=1)
    order = np.argsort(-vs, kind="stable")
    best = [pool[i] for i in order[:top]]
    if len(best) < top:  # tiny budgets: fill from the first round's ranking
        for o in first_round.sort_values("score", ascending=False, kind="stable")["ordering"]:
            if o not in best:
                best.append(o)
            if len(best) == top:
                break
    S.note("semifinal", 0, len(pool), m_semi, pool[order[0]], vs[order[0]], np.median(vs))
    search_score = dict(zip(pool, vs))

    # 4. confirmation on fresh deals ------------------------------------------------------
    conf = best + [SHUFFLED] + ([worst] if worst not in best else [])
    spent = S.m.games
    m_conf = max(1, (budget - spent) // (2 * len(conf)))
    cc = np.stack([_codes(x) for x in conf])
    vals = S.play(cc, CONFIRM_BASE, m_conf)
    base_v = vals[len(best)]
    n_games = 2 * m_conf
    z_simul = 1.0 - (1.0 - confidence) / len(best)
    recs = []
    for i, o in enumerate(conf):
        pts = 2.0 * vals[i].sum()
        lo, hi = wilson_interval(pts, n_games, confidence)
        slo, shi = wilson_interval(pts, n_games, z_simul)
        d = PairedStats.from_arrays(vals[i], base_v).summary(confidence)
        recs.append(dict(ordering=o, games=n_games, win_rate=pts / n_games, ci_lo=lo, ci_hi=hi,
                         simul_lo=slo, simul_hi=shi, diff=d["diff"], diff_lo=d["lo"], diff_hi=d["hi"],
                         diff_se=d["se"], search_score=search_score.get(o, math.nan),
                         source="preset" if o in presets else ("local" if o not in finalists and o in pool
                                                               else "sample")))
    df_all = pd.DataFrame(recs)
    res = df_all.iloc[:len(best)].sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)
    res.insert(0, "rank", np.arange(1, len(res) + 1))
    S.note("confirm", 0, len(conf), m_conf, res["ordering"][0], res["win_rate"][0], res["win_rate"].median())
    res.attrs.update(
        progress=S.progress, baseline=df_all.iloc[len(best)].to_dict(),
        worst=df_all[df_all["ordering"] == worst].iloc[0].to_dict(), games_used=int(S.m.games),
        budget=budget, seconds=time.perf_counter() - S.t0, cpu_seconds=time.process_time() - S.c0,
        threads=get_threads(), matchup=m.describe(),
        plan=dict(sample=int(k), rounds=int(rounds), first_deals=int(m0), local_deals=int(m_ls),
                  local_steps=int(step), semifinal_pool=len(pool), semifinal_deals=int(m_semi),
                  confirm_deals=int(m_conf), confirm_first_game=CONFIRM_BASE))
    return res


# --- positions -----------------------------------------------------------------

_N_FEAT = (len(LETTERS) - 1) * (LENGTH - 1)  # type x position, type A and position 13 as reference


def _features(codes: np.ndarray) -> np.ndarray:
    """Indicators of type t (S..V) at position p (1..12): (n, 60) float64."""
    x = np.zeros((codes.shape[0], len(LETTERS) - 1, LENGTH - 1))
    for t in range(1, len(LETTERS)):
        x[:, t - 1, :] = codes[:, :LENGTH - 1] == t
    return x.reshape(codes.shape[0], -1)


def _effect_map() -> np.ndarray:
    """Linear map from the 60 regression coefficients to the 78 effects E[y | t at p] - E[y].

    With f(t, p) the additive value of type t at position p (f = 0 for the
    reference type and position), h(t, p) = f(t, p) - sum_u w_u f(u, p)
    (w_u = count_u / 13) and e(t, p) = h(t, p) - mean_q h(t, q), a uniformly
    random ordering has E[y | t at p] - E[y] = 13/12 e(t, p).
    """
    w = np.array(COUNTS, float) / LENGTH
    cols = []
    for j in range(_N_FEAT):
        beta = np.zeros(_N_FEAT)
        beta[j] = 1.0
        f = np.zeros((len(LETTERS), LENGTH))
        f[1:, :LENGTH - 1] = beta.reshape(len(LETTERS) - 1, LENGTH - 1)
        h = f - (w[:, None] * f).sum(axis=0, keepdims=True)
        e = h - h.mean(axis=1, keepdims=True)
        cols.append(e.ravel() * LENGTH / (LENGTH - 1))
    return np.array(cols).T  # (78, 60)


class PositionFit:
    """OLS of a per-ordering outcome on type-at-position indicators, from sufficient statistics.

    ``add(codes, y)`` chunk by chunk (code rows of uniformly random orderings
    and their outcomes), then ``solve()`` gives the 78 effects
    E[y | t at p] - E[y] (row-major: type, then position) of the fitted
    additive model, their covariance, the model-free differences of means
    (``raw``) and fit statistics.
    """

    def __init__(self):
        p = _N_FEAT + 1
        self.xtx = np.zeros((p, p))
        self.xty = np.zeros(p)
        self.yty = 0.0
        self.n = 0
        self.raw_sum = np.zeros((len(LETTERS), LENGTH))
        self.raw_n = np.zeros((len(LETTERS), LENGTH))

    def add(self, codes, y) -> None:
        codes = np.asarray(codes)
        y = np.asarray(y, dtype=float)
        x = np.concatenate([np.ones((len(y), 1)), _features(codes)], axis=1)
        self.xtx += x.T @ x
        self.xty += x.T @ y
        self.yty += float(y @ y)
        self.n += len(y)
        for t in range(len(LETTERS)):
            at = codes == t
            self.raw_sum[t] += y @ at
            self.raw_n[t] += at.sum(axis=0)

    def solve(self):
        p = _N_FEAT + 1
        if self.n <= p:
            raise OrderingStudyError(f"the position regression needs more than {p} orderings, got {self.n}")
        beta = np.linalg.solve(self.xtx, self.xty)
        rss = max(self.yty - float(beta @ self.xty), 0.0)
        sigma2 = rss / (self.n - p)
        cov = sigma2 * np.linalg.inv(self.xtx)
        ybar = self.xty[0] / self.n
        tss = self.yty - self.n * ybar * ybar
        L = _effect_map()
        eff = L @ beta[1:]
        ecov = L @ cov[1:, 1:] @ L.T
        raw = (self.raw_sum / np.maximum(self.raw_n, 1) - ybar).ravel()
        info = dict(mean_score=float(ybar), resid_sd=math.sqrt(sigma2),
                    r2=float(1.0 - rss / tss) if tss > 0 else math.nan)
        return eff, ecov, raw, info


def positions_size(games, deals_per_ordering=1) -> tuple[int, int]:
    """(random orderings, deals each) of a positions study of ``games`` games; OrderingStudyError if too few."""
    games = _positive(games, "--games", 2)
    per = _positive(deals_per_ordering, "--deals-per-ordering")
    n_ord = games // (2 * per)
    if n_ord < 2 * (_N_FEAT + 1):
        raise OrderingStudyError(f"--games {games}: too few for the regression (needs at least "
                         f"{2 * per * 2 * (_N_FEAT + 1)} games)")
    return n_ord, per


def positions(strategy: str = "greedy", opponent: str | None = None, opponent_order: str = SHUFFLED,
              games: int = 1_000_000, seed: int = 1, deals_per_ordering: int = 1, variants=(),
              confidence: float = 0.95, log=None, backend=None) -> pd.DataFrame:
    """What each card type is worth at each depth of the deck.

    ``games / (2 * deals_per_ordering)`` uniformly random orderings each play
    their own deals (each at both seats; no deal is shared, so orderings are
    independent observations).  The per-ordering mean score is regressed (OLS)
    on the 60 identifiable type-at-position indicators; the fitted additive
    model gives, for every card type t and position p (1 = top),

        effect(t, p) = E[score | t at p] - E[score]

    over uniformly random orderings: how much better (in score, 0..1; x100 for
    points of win rate) orderings with a t at p do than random ones.  Region
    rows average effect(t, p) over the positions of a depth region (REGIONS):
    "a veto in the top three is worth +x points".  ``raw`` is the model-free
    difference of means, a check.

    Returns one row per (card, position) (``kind`` = 'position') and per
    (card, region) (``kind`` = 'region'): card, letter, kind, region, first,
    last, effect, se, lo, hi, raw.  ``attrs`` holds the number of orderings,
    games, the mean score, the residual sd and R^2.
    """
    n_ord, per = positions_size(games, deals_per_ordering)
    log = log or (lambda msg: None)
    m = Matchup(strategy, opponent, opponent_order, seed, tuple(variants), backend=backend)
    rng = np.random.default_rng([seed, 0x9051])
    fit = PositionFit()
    t0 = time.perf_counter()
    chunk = max(1, 200_000 // (2 * per))
    done = 0
    while done < n_ord:
        k = min(chunk, n_ord - done)
        codes = random_orderings(rng, k)
        y = _deal_values(m.play(codes, done * per, per, np.arange(k, dtype=np.int64) * per)).mean(axis=1)
        fit.add(codes, y)
        done += k
        log(f"positions: {done:,}/{n_ord:,} orderings [{m.games:,} games, {time.perf_counter() - t0:.0f} s]")
    eff, ecov, raw, info = fit.solve()
    from scipy import stats as sps
    zq = float(sps.norm.ppf(0.5 + confidence / 2))
    recs = []
    raw = raw.reshape(len(LETTERS), LENGTH)
    for t, ch in enumerate(LETTERS):
        for q in range(LENGTH):
            i = t * LENGTH + q
            se = math.sqrt(max(ecov[i, i], 0.0))
            recs.append(dict(card=R.ACTION_NAMES[t], letter=ch, kind="position", region=str(q + 1), first=q + 1,
                             last=q + 1, effect=eff[i], se=se, lo=eff[i] - zq * se, hi=eff[i] + zq * se,
                             raw=raw[t, q]))
    for t, ch in enumerate(LETTERS):
        for name, a, b in REGIONS:
            v = np.zeros(len(LETTERS) * LENGTH)
            v[t * LENGTH + a - 1:t * LENGTH + b] = 1.0 / (b - a + 1)
            e = float(v @ eff)
            se = math.sqrt(max(float(v @ ecov @ v), 0.0))
            recs.append(dict(card=R.ACTION_NAMES[t], letter=ch, kind="region", region=name, first=a, last=b,
                             effect=e, se=se, lo=e - zq * se, hi=e + zq * se,
                             raw=float(raw[t, a - 1:b].mean())))
    df = pd.DataFrame(recs)
    df.attrs.update(orderings=int(n_ord), games=int(m.games), deals_per_ordering=per, **info,
                    matchup=m.describe(), seconds=time.perf_counter() - t0, confidence=confidence)
    return df
