"""Self-play with a teacher: the games the learned player learns from, as tasks for any backend.

The two seats play with the *students* (any strategies; in training, the current learned
weights), game ``i`` of seed ``s`` dealt and seeded as everywhere in ccsim.  At each decision
the learned model covers (``strategies.learned.block_of``), with probability ``rate``, the
*teacher* (a search player) is asked what it would play from the same observation, and the
decision is kept: the options' features (``learned.decision_features_nb``, read on a copy of
the player's memory, exactly as the learned player reads them) and the teacher's pick.  The
student then plays its own choice (DAgger: the positions are the student's, the labels the
teacher's), so the labels cost one search each, and a game's other decisions cost a student's.

The teacher draws its worlds from a stream of its own (seeded from the seed, the game and
the decision), never from the players' streams: the games are the students' games, whatever
is labelled.  A task's data are identical on any backend and with any number of threads.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ccsim.kernel.engine.dispatch import choose_with_nb
from ccsim.kernel.engine.episode import deal_and_advance_nb, result_row_nb, N_RESULT, R_WINNER
from ccsim.kernel.engine.step import apply_nb
from ccsim.kernel.layout import (BASE_SIZE, N_RNG, MAX_OPTIONS, MEM_SIZE, OPTS, PUB, PUB_SIZE, PRIV_SIZE, PUB_DEC_KIND,
                                 PUB_DEC_P, PUB_DEC_N, PUB_END, mem_at, priv_at)
from ccsim.kernel.rng import seed_game_nb, uniform_nb
from ccsim.kernel.simulate import run_blocks
from ccsim.toolchain.jit import njit
from strategies.search.expert import P_KINDS, policy_choice_nb, search_stats_nb
from strategies.learned import MAX_FEATURES, block_of, decision_features_nb
from strategies.heuristics.layouts import N_ROWS

ROWS_PER_GAME = 4096      # option rows a game may keep (a game keeps ~1,000 at rate 0.3)
DECISIONS_PER_GAME = 512  # decisions a game may keep
LABEL_SALT = 0x7EAC4E12   # the labelling's own streams: seed_game_nb(seed ^ salt, game)
COIN_STREAM = 1           # ... whether a decision is kept
TEACHER_STREAM = 2        # ... the teacher's worlds

# the columns of a kept decision (``meta``)
D_GAME, D_SEAT, D_KIND, D_N, D_LABEL, D_ROW, D_STUDENT, D_BASE = range(8)
N_META = 8
# the columns of an option row: its features, then what the teacher's search found
Q_COL = MAX_FEATURES          # its mean value minus the teacher's baseline option's, where simulated
COUNT_COL = MAX_FEATURES + 1  # the worlds it was simulated in (0: never; the baseline's own is 0)
ROW_WIDTH = MAX_FEATURES + 2


@njit(cache=True)
def keep_decision_nb(st, p, kind, n, k, game, teacher_sp, label_rng, tmp_rng, mem, T, F, stats, rows, meta, n_rows,
                     n_dec):
    """The features of this decision (on a copy of p's memory), the teacher's search statistics
    and its pick, kept at rows ``n_rows ..`` and meta row ``n_dec``; returns the rows used (0 if
    they do not fit)."""
    if n_rows + n > rows.shape[0] or n_dec >= meta.shape[0]:
        return 0
    m = mem_at(p)
    own = priv_at(p)
    opts = st[OPTS:OPTS + n]
    pub = st[PUB:PUB + PUB_SIZE]
    for j in range(MEM_SIZE):
        mem[j] = st[m + j]
    decision_features_nb(kind, opts, n, pub, st[own:own + PRIV_SIZE], mem, p, T, F)
    for i in range(n):
        for j in range(k):
            rows[n_rows + i, j] = F[i, j]
        for j in range(3):
            stats[j, i] = 0.0
    # the teacher searches from the same observation, in worlds of a stream of its own
    teacher_rng = label_rng[TEACHER_STREAM:TEACHER_STREAM + 1]
    tmp_rng[0] = teacher_rng[0]
    base = policy_choice_nb(teacher_sp, kind, n, pub, st[own:own + PRIV_SIZE], st[m:m + MEM_SIZE], p, opts,
                            tmp_rng, False)
    label = search_stats_nb(teacher_sp, kind, opts, n, pub, st[own:own + PRIV_SIZE], st[m:m + MEM_SIZE], p,
                            teacher_rng, stats[0], stats[1], stats[2])
    for i in range(n):
        c = stats[2, i]
        rows[n_rows + i, COUNT_COL] = c
        rows[n_rows + i, Q_COL] = stats[0, i] / c if c > 0 else 0.0
    meta[n_dec, D_BASE] = base
    meta[n_dec, D_GAME] = game
    meta[n_dec, D_SEAT] = p
    meta[n_dec, D_KIND] = kind
    meta[n_dec, D_N] = n
    meta[n_dec, D_LABEL] = label
    meta[n_dec, D_ROW] = n_rows
    return n


@njit(nogil=True, cache=True, nrt=True)
def label_games_block_nb(lo, hi, seed, first, rules, sids, sp, teacher_sp, rate, orders,
                         rows, meta, counts, results):
    """Games ``first + lo .. first + hi - 1``: game j keeps its option rows in ``rows[j]``, its
    decisions in ``meta[j]``, their numbers in ``counts[j]`` and its result row in ``results[j]``."""
    st = np.zeros(BASE_SIZE, np.int32)
    rng = np.zeros(N_RNG, np.uint64)
    label_rng = np.zeros(N_RNG, np.uint64)
    mem = np.zeros(MEM_SIZE, np.int32)
    stats = np.zeros((3, MAX_OPTIONS), np.float64)
    tmp_rng = np.zeros(1, np.uint64)
    searched = int(teacher_sp[P_KINDS])
    T = np.zeros((N_ROWS, 6), np.float64)
    F = np.zeros((MAX_OPTIONS, MAX_FEATURES), np.float64)
    row = np.zeros(N_RESULT, np.int16)
    for j in range(lo, hi):
        game = first + j
        deal_and_advance_nb(st, rng, rules, sids, seed, game, orders)
        seed_game_nb(label_rng, seed ^ LABEL_SALT, game)
        n_rows = 0
        n_dec = 0
        while st[PUB_DEC_KIND] >= 0 and st[PUB_END] == 0:
            kind = st[PUB_DEC_KIND]
            p = st[PUB_DEC_P]
            n = st[PUB_DEC_N]
            k = block_of(kind)[1]
            if k > 0 and (searched >> kind) & 1 and uniform_nb(label_rng, COIN_STREAM) < rate:
                used = keep_decision_nb(st, p, kind, n, k, game, teacher_sp, label_rng, tmp_rng, mem, T, F,
                                        stats, rows[j], meta[j], n_rows, n_dec)
                if used > 0:
                    n_rows += used
                    i = choose_with_nb(st, rng, sids[p], sp[p], p, kind, n)
                    meta[j, n_dec, D_STUDENT] = i
                    n_dec += 1
                    apply_nb(st, rng, i)
                    continue
            apply_nb(st, rng, choose_with_nb(st, rng, sids[p], sp[p], p, kind, n))
        counts[j, 0] = n_rows
        counts[j, 1] = n_dec
        result_row_nb(st, row)
        for c in range(N_RESULT):
            results[j, c] = row[c]


@dataclass(frozen=True, eq=False)
class LabelTask:
    """Games ``first .. first + games - 1`` of ``seed`` with students ``sids``/``sp`` (2, ...) and a
    teacher (the parameters of an `expert` search); a decision of a kind the teacher searches is
    kept with probability ``rate``.
    Resolved on the client: parameters carry no entry address (``localized`` puts this process's in)."""
    seed: int
    first: int
    games: int
    rules: np.ndarray
    sids: np.ndarray
    sp: np.ndarray
    teacher_sp: np.ndarray
    rate: float
    orders: np.ndarray


@dataclass
class Labels:
    """What a task kept: option rows (float32, ROW_WIDTH wide: features, Q_COL, COUNT_COL), one
    meta row per decision (D_* columns; D_ROW indexes ``rows``) and the games' result rows."""
    rows: np.ndarray
    meta: np.ndarray
    results: np.ndarray

    @staticmethod
    def concat(parts) -> "Labels":
        parts = list(parts)
        offsets = np.cumsum([0] + [len(p.rows) for p in parts[:-1]])
        metas = []
        for p, off in zip(parts, offsets):
            m = p.meta.copy()
            m[:, D_ROW] += off
            metas.append(m)
        return Labels(np.concatenate([p.rows for p in parts]), np.concatenate(metas),
                      np.concatenate([p.results for p in parts]))


def label_task(task: LabelTask) -> Labels:
    """Play a task's games (wherever the backend sends it) and keep its labelled decisions."""
    from strategies.registry import EXPERT, localized
    sp = np.stack([localized(int(task.sids[p]), task.sp[p]) for p in range(2)])
    tsp = localized(EXPERT, task.teacher_sp)
    g = task.games
    rows = np.zeros((g, ROWS_PER_GAME, ROW_WIDTH), np.float32)
    meta = np.zeros((g, DECISIONS_PER_GAME, N_META), np.int64)
    counts = np.zeros((g, 2), np.int64)
    results = np.zeros((g, N_RESULT), np.int16)
    run_blocks(label_games_block_nb, g, np.int64(task.seed), np.int64(task.first), task.rules, task.sids, sp,
               tsp, float(task.rate), task.orders, rows, meta, counts, results,
               n_blocks=g)
    parts = [Labels(rows[j, :counts[j, 0]], meta[j, :counts[j, 1]], results[j:j + 1]) for j in range(g)]
    return Labels.concat(parts)


def winners(labels: Labels) -> np.ndarray:
    """The games' winners (0, 1, -1 a draw)."""
    return labels.results[:, R_WINNER]
