"""``search``, the second ordering study (``ccsim.analyses.orderings.study``): strong orderings
within a budget of games, by successive halving over a large random sample, local search by
swaps around the finalists, a semifinal, and a confirmation of the best on fresh deals."""
from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from ccsim.analyses.orderings.matchup import Matchup, OrderingStudyError, kernel_codes, deal_values, positive_count
from ccsim.analyses.stats import PairedStats, wilson_interval
from ccsim.kernel.simulate import get_threads
from ccsim.analyses.orderings.space import count_orderings, random_orderings, rank_many, swap_neighbours, unrank_many
from ccsim.runner.orderings import PRESETS, SHUFFLED, from_codes, to_codes

__all__ = ["search", "search_args", "CONFIRM_BASE", "plan_halving"]

#: confirmation runs of ``search`` use game indices from here on: deals no
#: earlier stage (nor ``compare`` with its usual sizes) plays
CONFIRM_BASE = 1 << 40


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


def plan_halving(b_sh: int, final: int, m_min: int, k_max: int):
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


def _stack(orderings) -> np.ndarray:
    return np.stack([to_codes(x) for x in orderings])


class _Search:
    """A search's state: the matchup, the next fresh deal, the progress records and the plan;
    one method per stage."""

    def __init__(self, m: Matchup, budget: int, rng, log):
        self.m = m
        self.budget = budget
        self.rng = rng
        self.log = log or (lambda msg: None)
        self.next_deal = 0
        self.t0 = time.perf_counter()
        self.c0 = time.process_time()
        self.progress = []
        self.plan = {}
        self.presets = list(dict.fromkeys(v for v, _ in PRESETS.values()))

    def deals(self, n: int) -> int:
        """First game index of ``n`` fresh deals (no deal is reused across stages)."""
        first = self.next_deal
        self.next_deal += int(n)
        return first

    def play(self, codes, first, n):
        """Values (candidates, deals) in chunks of about a million games."""
        codes = np.asarray(codes)
        step = max(1, 1_000_000 // max(1, 2 * len(codes)))
        parts = [deal_values(self.m.play(codes, first + a, min(step, n - a))) for a in range(0, n, step)]
        return np.concatenate(parts, axis=1) if parts else np.zeros((len(codes), 0))

    def note(self, stage, step, n_cand, deals, best, best_score, median, extra=""):
        rec = dict(stage=stage, step=step, candidates=int(n_cand), deals_each=int(deals),
                   games_used=int(self.m.games), seconds=time.perf_counter() - self.t0,
                   best=best, best_score=float(best_score), median_score=float(median))
        self.progress.append(rec)
        self.log(f"{stage:>10} {step:>3}: {n_cand:>6} candidates x {deals:>6} deals, best {best} "
                 f"{best_score:.4f}, median {median:.4f}  [{self.m.games:,} games, "
                 f"{rec['seconds']:.0f} s]{extra}")

    def halving(self, k: int, rounds: int, m0: int):
        """1. The presets and a sample of ``k`` in all, halved ``rounds`` times on common deals:
        (finalists best first, the first round's scores)."""
        pre_codes = _stack(self.presets)
        n_rand = max(0, k - len(self.presets))
        codes = np.concatenate([pre_codes[:k], _unique_random(self.rng, n_rand, rank_many(pre_codes))])
        source = np.array(["preset"] * min(k, len(self.presets)) + ["sample"] * n_rand, dtype=object)
        first = self.deals(m0 << rounds)
        total = np.zeros(len(codes))
        alive = np.arange(len(codes))
        played = 0
        first_round = None
        for r in range(rounds + 1):
            upto = m0 << r
            vals = self.play(codes[alive], first + played, upto - played)
            total[alive] += vals.sum(axis=1)
            played = upto
            mean = total[alive] / played
            order = np.argsort(-mean, kind="stable")
            if r == 0:
                first_round = pd.DataFrame(dict(ordering=[from_codes(c) for c in codes], source=source,
                                                score=mean))
            self.note("halving", r, len(alive), played, from_codes(codes[alive[order[0]]]), mean[order[0]],
                      np.median(mean))
            alive = alive[order[:max(1, len(alive) // 2)]] if r < rounds else alive[order]
        return [from_codes(c) for c in codes[alive]], first_round

    def local(self, finalists: list, b_ls: int):
        """2. Local search by swaps from the best finalists, within ``b_ls`` games:
        (the incumbents, the pool of orderings met on the way, the games it may have used)."""
        pool = dict.fromkeys(finalists)
        starts = finalists[:min(4, len(finalists))]
        ls_end = self.m.games + b_ls
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
            if self.m.games + cost > ls_end:
                break
            group = [inc] + nbs
            v1 = self.play(_stack(group), self.deals(m_ls), m_ls).mean(axis=1)
            best8 = [group[1 + i] for i in np.argsort(-v1[1:], kind="stable")[:8]]
            v2 = self.play(_stack([inc] + best8), self.deals(4 * m_ls), 4 * m_ls)
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
            self.note("local", step, len(group), m_ls + 4 * m_ls, incumbents[s0], v2[1 + j].mean() if moved else
                      v2[0].mean(), np.median(v1), f"  {'moved' if moved else 'stays'} (+{100 * mu[j]:.2f} pts)")
            step += 1
        self.plan.update(local_deals=int(m_ls), local_steps=int(step))
        return incumbents, pool, ls_end

    def semifinal(self, pool: list, b_semi: int, top: int, first_round: pd.DataFrame):
        """3. Every incumbent and finalist on fresh common deals: (the ``top`` best, their scores)."""
        m_semi = max(1, b_semi // (2 * len(pool)))
        vs = self.play(_stack(pool), self.deals(m_semi), m_semi).mean(axis=1)
        order = np.argsort(-vs, kind="stable")
        best = [pool[i] for i in order[:top]]
        if len(best) < top:  # tiny budgets: fill from the first round's ranking
            for o in first_round.sort_values("score", ascending=False, kind="stable")["ordering"]:
                if o not in best:
                    best.append(o)
                if len(best) == top:
                    break
        self.note("semifinal", 0, len(pool), m_semi, pool[order[0]], vs[order[0]], np.median(vs))
        self.plan.update(semifinal_pool=len(pool), semifinal_deals=int(m_semi))
        return best, dict(zip(pool, vs))

    def confirm(self, best: list, worst: str, finalists: list, pool: list, search_score: dict,
                confidence: float) -> pd.DataFrame:
        """4. The best, ``shuffled`` and the worst of the first round on fresh deals (game indices
        from CONFIRM_BASE): one row each, the best first, then shuffled, then the worst."""
        conf = best + [SHUFFLED] + ([worst] if worst not in best else [])
        m_conf = max(1, (self.budget - self.m.games) // (2 * len(conf)))
        vals = self.play(np.stack([kernel_codes(x) for x in conf]), CONFIRM_BASE, m_conf)
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
                             source="preset" if o in self.presets else ("local" if o not in finalists and o in pool
                                                                        else "sample")))
        self.plan.update(confirm_deals=int(m_conf), confirm_first_game=CONFIRM_BASE)
        return pd.DataFrame(recs)


def search_args(strategy=None, opponent=None, opponent_order=SHUFFLED, budget=1_000_000, seed=1, top=10,
                variants=(), backend=None, warm=True):
    """(Matchup, budget, top) of a search, validated; OrderingStudyError names the problem; ``warm=False``: its
    players not compiled yet (a command checks every input first)."""
    budget = positive_count(budget, "--budget", 2_000)
    top = positive_count(top, "--top")
    if top > 100:
        raise OrderingStudyError(f"--top must be at most 100, got {top}")
    return Matchup(strategy, opponent, opponent_order, seed, tuple(variants), backend=backend, warmed=warm), budget, top


def search(strategy: str | None = None, opponent: str | None = None, opponent_order: str = SHUFFLED,
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
    S = _Search(m, budget, np.random.default_rng([seed, 0x0D0E5]), log)
    b_conf = int(0.18 * budget)
    b_semi = int(0.07 * budget)
    b_ls = int(0.25 * budget)
    b_sh = budget - b_conf - b_semi - b_ls
    final = 32 if budget >= 200_000 else 16
    k, rounds, m0 = plan_halving(b_sh, final, m_min=16 if budget >= 1_000_000 else 8, k_max=1 << 16)

    finalists, first_round = S.halving(k, rounds, m0)
    worst = first_round.sort_values("score", kind="stable").iloc[0]["ordering"]
    incumbents, met, ls_end = S.local(finalists, b_ls)
    pool = list(dict.fromkeys(list(incumbents.values()) + list(met)))
    b_semi += max(0, ls_end - S.m.games)  # what local search left over
    best, search_score = S.semifinal(pool, b_semi, top, first_round)
    df_all = S.confirm(best, worst, finalists, pool, search_score, confidence)

    res = df_all.iloc[:len(best)].sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)
    res.insert(0, "rank", np.arange(1, len(res) + 1))
    S.note("confirm", 0, len(df_all), S.plan["confirm_deals"], res["ordering"][0], res["win_rate"][0],
           res["win_rate"].median())
    res.attrs.update(
        progress=S.progress, baseline=df_all.iloc[len(best)].to_dict(),
        worst=df_all[df_all["ordering"] == worst].iloc[0].to_dict(), games_used=int(S.m.games),
        budget=budget, seconds=time.perf_counter() - S.t0, cpu_seconds=time.process_time() - S.c0,
        threads=get_threads(), matchup=m.describe(),
        plan=dict(sample=int(k), rounds=int(rounds), first_deals=int(m0), **S.plan))
    return res
