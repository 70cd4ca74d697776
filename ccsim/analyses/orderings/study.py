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

import numpy as np
import pandas as pd

# the three studies' door: the matchup, search and positions live beside this module
from ccsim.analyses.orderings.matchup import (Matchup, OrderingStudyError, deal_values, kernel_codes, positive_count,
                                              study_ordering)
from ccsim.analyses.orderings.positions import REGIONS, PositionFit, positions, positions_size
from ccsim.analyses.orderings.search import CONFIRM_BASE, search, search_args  # noqa: F401
from ccsim.analyses.stats import PairedStats, sprt_decide_difference, wilson_interval
from ccsim.runner.orderings import PRESETS, SHUFFLED

__all__ = ["OrderingStudyError", "Matchup", "compare", "compare_args", "search", "search_args", "positions", "positions_size",
           "PositionFit", "CONFIRM_BASE", "REGIONS"]


# --- compare -------------------------------------------------------------------

def _label(text: str, canonical: str) -> str:
    key = "-".join(str(text).strip().lower().replace("_", "-").split())
    return key if key in PRESETS or canonical == SHUFFLED else canonical


def compare_args(orderings, baseline: str = SHUFFLED, games: int = 2) -> None:
    """Refuse bad orderings or games to compare (OrderingStudyError, one line) before any game is set up."""
    _candidates(orderings, baseline)
    positive_count(games, "--games", 2)


def _candidates(orderings, baseline: str):
    """(baseline, distinct candidates in the order given, their labels), canonical; OrderingStudyError."""
    if isinstance(orderings, str):
        orderings = [orderings]
    if not orderings:
        raise OrderingStudyError("give at least one ordering to compare")
    base = study_ordering(baseline, "--baseline")
    cands, labels = [], []
    for text in orderings:
        c = study_ordering(text, None)
        if c not in cands:
            cands.append(c)
            labels.append(_label(text, c))
    return base, cands, labels


class _Race:
    """The baseline and every candidate on the same deals, chunk after chunk; with ``sprt``
    (delta, alpha, beta) a candidate plays until the SPRT decides its comparison."""

    def __init__(self, m: Matchup, base: str, cands: list, sprt=None):
        self.m, self.base, self.cands, self.sprt = m, base, cands, sprt
        uniq = list(dict.fromkeys([base] + cands))
        self.codes = np.stack([kernel_codes(o) for o in uniq])
        self.idx = {o: i for i, o in enumerate(uniq)}
        self.points = np.zeros(len(uniq))             # summed scores over the deals each one played
        self.played = np.zeros(len(uniq), np.int64)    # deals played
        self.stats = {c: PairedStats() for c in cands}
        self.cpoints = dict.fromkeys(cands, 0.0)       # a candidate's points over the deals of its own comparison
        self.decision = {c: ("undecided" if sprt else None) for c in cands}
        self.active = set(cands)

    def run(self, deals: int, chunk: int, grow: bool, cap: int) -> None:
        """Deals 0 .. deals-1 (fewer where every comparison is decided), ``chunk`` at a time,
        each chunk 1.5 times the last (at most ``cap``) when ``grow``."""
        done = 0
        while done < deals and self.active:
            n = min(chunk, deals - done)
            self.chunk(done, n)
            done += n
            if grow:
                chunk = min(cap, int(chunk * 1.5))

    def chunk(self, first: int, n: int) -> None:
        """The baseline and every still-open candidate on deals ``first .. first + n - 1``."""
        idx, base = self.idx, self.base
        rows = [idx[base]] + sorted({idx[c] for c in self.active} - {idx[base]})
        by = dict(zip(rows, deal_values(self.m.play(self.codes[rows], first, n))))
        for r, v in by.items():
            self.points[r] += 2.0 * v.sum()
            self.played[r] += n
        for c in list(self.active):
            self.stats[c].update(by[idx[c]], by[idx[base]])
            self.cpoints[c] += 2.0 * by[idx[c]].sum()
            if self.sprt:
                delta, alpha, beta = self.sprt
                d = sprt_decide_difference(self.stats[c], delta=delta, alpha=alpha / 2, beta=beta)
                if d != "continue":
                    self.decision[c] = d
                    self.active.discard(c)

    def frame(self, labels: list, baseline: str, confidence: float) -> pd.DataFrame:
        """One row per candidate; ``attrs['baseline']`` the baseline's own numbers."""
        recs = []
        for c, lab in zip(self.cands, labels):
            g = int(self.stats[c].n) * 2
            pts = self.cpoints[c]
            lo, hi = wilson_interval(pts, g, confidence)
            s = self.stats[c].summary(confidence)
            recs.append(dict(ordering=c, label=lab, games=g, win_rate=pts / g if g else math.nan, ci_lo=lo,
                             ci_hi=hi, diff=s["diff"], diff_lo=s["lo"], diff_hi=s["hi"], diff_se=s["se"],
                             decision=self.decision[c]))
        df = pd.DataFrame(recs)
        bi = self.idx[self.base]
        bg = int(self.played[bi]) * 2
        blo, bhi = wilson_interval(self.points[bi], bg, confidence)
        df.attrs.update(baseline=dict(ordering=self.base, label=_label(baseline, self.base), games=bg,
                                      win_rate=self.points[bi] / bg, ci_lo=blo, ci_hi=bhi))
        return df


def compare(orderings, baseline: str = SHUFFLED, strategy: str | None = None, opponent: str | None = None,
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
    base, cands, labels = _candidates(orderings, baseline)
    games = positive_count(games, "--games", 2)
    deals = (games + 1) // 2
    if not 0 < delta < 1:
        raise OrderingStudyError(f"--delta must be in (0, 1), got {delta!r}")
    m = Matchup(strategy, opponent, opponent_order, seed, tuple(variants), backend=backend)
    # sequential runs look after 100 deals, then after chunks 1.5 times larger (at most a tenth of the run)
    grow = until_decided and chunk is None
    if chunk is None:
        chunk = 100 if until_decided else max(1, min(deals, 50_000))
    chunk = positive_count(chunk, "--chunk")
    race = _Race(m, base, cands, (delta, alpha, beta) if until_decided else None)
    race.run(deals, chunk, grow, cap=max(chunk, deals // 10))
    df = race.frame(labels, baseline, confidence)
    df.attrs.update(matchup=m.describe(), games_played=m.games, delta=delta, alpha=alpha, beta=beta,
                    confidence=confidence)
    return df
