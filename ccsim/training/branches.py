"""Self-play games whose decisions the value network learns from: outcomes of paired branches.

Each seat plays either a network (any weights, passed in: the generation being trained or an
earlier one) or a registered strategy (the heuristics of generation 0).  A decision the network
covers is kept with probability ``keep``: there the game is copied, a uniformly drawn other option
(one of the network's candidates: ``strategies.neural.candidates_nb``)
is played in the copy and the copy played out to its end by the same policies, *with the same
random streams* as the game itself, which goes on with the policy's own choice.  So each kept
decision carries two outcomes of the same deal and the same luck that differ only by the option
taken: their difference is an unbiased sample of the drawn option's advantage over the policy's
(Q(s, a) - Q(s, pi(s))), with far less noise than either outcome alone (common random numbers).
The labels are outcomes of games, never a search's estimates: no bias, and a noise that falls with
the number of games (the Deep Monte-Carlo idea, with pairs).

A task's games are dealt and seeded as everywhere in ccsim (game ``i`` of seed ``s``); the drawing
uses streams of its own (``EXPLORE_SALT``), so the games themselves are the policies' games; a task
gives the same data on any backend and any number of threads.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ccsim.kernel.engine.dispatch import choose_with_nb
from ccsim.kernel.engine.episode import deal_and_advance_nb, result_row_nb, N_RESULT, R_WINNER
from ccsim.kernel.engine.score import vp_nb, winner_nb
from ccsim.kernel.engine.step import apply_nb, drive_nb
from ccsim.kernel.layout import (BASE_SIZE, N_RNG, MAX_OPTIONS, MEM_SIZE, OPTS, PUB, PUB_SIZE, PRIV_SIZE, PUB_DEC_KIND,
                                 PUB_DEC_P, PUB_DEC_N, PUB_END, H_BONUS, mem_at, priv_at)
from ccsim.kernel.decisions import MODE
from ccsim.kernel.rng import seed_game_nb, uniform_nb, below_nb
from ccsim.kernel.simulate import run_blocks
from ccsim.toolchain.jit import njit
from strategies.learned import MAX_FEATURES, decision_features_nb
from strategies.heuristics.layouts import N_ROWS
from strategies.neural import candidates_nb, network_choice_nb
from strategies.neural.inputs import N_OBS, N_OPT, encode_obs_nb, encode_option_nb, kind_column
from strategies.heuristics.scoring import must_be_active

DECISIONS_PER_GAME = 24  # decisions a game may keep (at keep 0.06, ~10 of the ~170 the network covers)
EXPLORE_SALT = 0x5EED_D3C0  # the branching's own streams: seed_game_nb(seed ^ salt, game)
EXPLORE_STREAM = 1          # ... which rival a branch plays
KEEP_STREAM = 2             # ... whether a decision is kept


@njit(cache=True)
def decide_nb(st, rng, sids, sp, nets, margins, on_net, p, kind, n):
    """Seat p's own choice: her network's, or her strategy's."""
    if on_net[p]:
        m = mem_at(p)
        b = priv_at(p)
        return network_choice_nb(nets[p], margins[p], kind, st[OPTS:OPTS + n], n, st[PUB:PUB + PUB_SIZE],
                                 st[b:b + PRIV_SIZE], st[m:m + MEM_SIZE], p, rng[1 + p:2 + p])
    return choose_with_nb(st, rng, sids[p], sp[p], p, kind, n)


@njit(cache=True)
def play_out_nb(st, rng, sids, sp, nets, margins, on_net):
    """Play the game on from its pending decision to the end, every seat its own policy."""
    if not on_net[0] and not on_net[1]:
        drive_nb(st, rng, sp)  # the batch kernel's own loop: both seats are registered strategies
        return
    while st[PUB_DEC_KIND] >= 0 and st[PUB_END] == 0:
        p = st[PUB_DEC_P]
        apply_nb(st, rng, decide_nb(st, rng, sids, sp, nets, margins, on_net, p, st[PUB_DEC_KIND], st[PUB_DEC_N]))


@njit(cache=True)
def outcome_nb(st, p):
    """(p's result: 1 a win, 1/2 a draw, 0 a loss; her VP minus his / 10) of a finished game."""
    w = winner_nb(st)
    z = 0.5 if w < 0 else (1.0 if w == p else 0.0)
    return z, (vp_nb(st, st[H_BONUS + p], p) - vp_nb(st, st[H_BONUS + 1 - p], 1 - p)) / 10.0


@njit(cache=True)
def policy_decision_nb(st, rng, sids, sp, nets, margins, on_net, p, kind, n, T, F, mem_copy, alive):
    """Seat p's own choice at a kept decision, the features of its options and the network's
    candidates among them (read on a copy of her memory, as the network reads them): (index,
    features, candidates)."""
    m = mem_at(p)
    b = priv_at(p)
    for j in range(MEM_SIZE):
        mem_copy[j] = st[m + j]
    k = decision_features_nb(kind, st[OPTS:OPTS + n], n, st[PUB:PUB + PUB_SIZE], st[b:b + PRIV_SIZE], mem_copy, p,
                             T, F)
    return decide_nb(st, rng, sids, sp, nets, margins, on_net, p, kind, n), k, candidates_nb(kind, F, n, alive)


@njit(cache=True)
def rival_nb(alive, c, i, xrng):
    """A candidate other than the policy's choice ``i``, uniformly drawn; -1 if there is none."""
    m = 0
    for j in range(c):
        if alive[j] != i:
            m += 1
    if m == 0:
        return -1
    r = below_nb(xrng, EXPLORE_STREAM, m)
    for j in range(c):
        if alive[j] != i:
            if r == 0:
                return alive[j]
            r -= 1
    return -1


@njit(nogil=True, cache=True, nrt=True)
def branch_block_nb(lo, hi, seed, first, rules, sids, sp, nets, margins, on_net, keep, orders, obs_out, opt_out, val_out,
                 seat_out, counts, results):
    """Games ``first + lo .. first + hi - 1``, seat p playing the network ``nets[p]`` where
    ``on_net[p]``, else strategy ``sids[p]``/``sp[p]``.  A decision the network covers is kept with
    probability ``keep``: a uniformly drawn other option is played out to the end in a copy of the
    game with the same random streams (common random numbers), the game itself goes on with the
    policy's choice.  Kept decision d of game j: the observation ``obs_out[j, d]``, the options
    ``opt_out[j, d, 0]`` (the drawn one) and ``[1]`` (the policy's), ``val_out[j, d]`` = (drawn
    option's result, margin, then the game's own, filled at its end), the seat ``seat_out[j, d]``."""
    st = np.zeros(BASE_SIZE, np.int32)
    alt = np.zeros(BASE_SIZE, np.int32)
    rng = np.zeros(N_RNG, np.uint64)
    alt_rng = np.zeros(N_RNG, np.uint64)
    xrng = np.zeros(N_RNG, np.uint64)
    T = np.zeros((N_ROWS, 6), np.float64)
    F = np.zeros((MAX_OPTIONS, MAX_FEATURES), np.float64)
    mem_copy = np.zeros(MEM_SIZE, np.int32)
    alive = np.zeros(MAX_OPTIONS, np.int64)
    row = np.zeros(N_RESULT, np.int16)
    cap = obs_out.shape[1]
    for j in range(lo, hi):
        game = first + j
        deal_and_advance_nb(st, rng, rules, sids, seed, game, orders)
        seed_game_nb(xrng, seed ^ EXPLORE_SALT, game)
        d = 0
        while st[PUB_DEC_KIND] >= 0 and st[PUB_END] == 0:
            kind = st[PUB_DEC_KIND]
            p = st[PUB_DEC_P]
            n = st[PUB_DEC_N]
            kept = d < cap and kind_column(kind) >= 0 and uniform_nb(xrng, KEEP_STREAM) < keep
            if kept and kind == MODE and must_be_active(st[PUB:PUB + PUB_SIZE], p):
                kept = False
            if not kept:
                apply_nb(st, rng, decide_nb(st, rng, sids, sp, nets, margins, on_net, p, kind, n))
                continue
            for q in range(BASE_SIZE):  # the branch: the state and streams as they are now
                alt[q] = st[q]
            for q in range(N_RNG):
                alt_rng[q] = rng[q]
            i, k, c = policy_decision_nb(st, rng, sids, sp, nets, margins, on_net, p, kind, n, T, F, mem_copy, alive)
            a = rival_nb(alive, c, i, xrng)
            if a < 0:  # no other candidate: nothing to compare
                apply_nb(st, rng, i)
                continue
            encode_obs_nb(st[PUB:PUB + PUB_SIZE], st[priv_at(p):priv_at(p) + PRIV_SIZE], p, obs_out[j, d])
            encode_option_nb(kind, st[OPTS + a], F, a, k, opt_out[j, d, 0])
            encode_option_nb(kind, st[OPTS + i], F, i, k, opt_out[j, d, 1])
            seat_out[j, d] = p
            apply_nb(alt, alt_rng, a)
            play_out_nb(alt, alt_rng, sids, sp, nets, margins, on_net)
            val_out[j, d, 0], val_out[j, d, 1] = outcome_nb(alt, p)
            d += 1
            apply_nb(st, rng, i)
        for e in range(d):
            val_out[j, e, 2], val_out[j, e, 3] = outcome_nb(st, seat_out[j, e])
        counts[j] = d
        result_row_nb(st, row)
        for c in range(N_RESULT):
            results[j, c] = row[c]


@dataclass(frozen=True, eq=False)
class BranchTask:
    """Games ``first .. first + games - 1`` of ``seed``: seat p plays ``nets[p]`` where ``on_net[p]``,
    else strategy ``sids[p]``/``sp[p]`` (resolved on the client: ``localized`` puts this process's
    entry in); ``keep``: the share of the decisions the network covers that are branched and kept."""
    seed: int
    first: int
    games: int
    rules: np.ndarray
    sids: np.ndarray
    sp: np.ndarray
    nets: np.ndarray
    margins: np.ndarray
    on_net: np.ndarray
    keep: float
    orders: np.ndarray


@dataclass
class Samples:
    """Kept decisions: the observation (uint8, N_OBS), the two options (float32, 2 x N_OPT: the
    drawn one, the policy's), their results (V_* columns), the deciding seat and the game (an index
    into ``results``) of each; and the games' result rows."""
    obs: np.ndarray
    opt: np.ndarray
    val: np.ndarray
    seat: np.ndarray
    game: np.ndarray
    results: np.ndarray

    @staticmethod
    def concat(parts) -> "Samples":
        parts = list(parts)
        offsets = np.cumsum([0] + [len(p.results) for p in parts[:-1]])
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("obs", "opt", "val", "seat")),
                       np.concatenate([p.game + off for p, off in zip(parts, offsets)]),
                       np.concatenate([p.results for p in parts]))

    def save(self, path) -> None:
        np.savez(path, **{f: getattr(self, f) for f in ("obs", "opt", "val", "seat", "game", "results")})

    @staticmethod
    def load(path) -> "Samples":
        with np.load(path) as f:
            return Samples(*(f[k] for k in ("obs", "opt", "val", "seat", "game", "results")))


V_ALT, V_ALT_MARGIN, V_OWN, V_OWN_MARGIN = range(4)  # the columns of Samples.val


def play_task(task: BranchTask) -> Samples:
    """Play a task's games (wherever the backend sends it) and keep their branched decisions."""
    from strategies.registry import localized
    sp = np.stack([task.sp[p] if task.on_net[p] else localized(int(task.sids[p]), task.sp[p]) for p in range(2)])
    g = task.games
    obs = np.zeros((g, DECISIONS_PER_GAME, N_OBS), np.uint8)
    opt = np.zeros((g, DECISIONS_PER_GAME, 2, N_OPT), np.float32)
    val = np.zeros((g, DECISIONS_PER_GAME, 4), np.float32)
    seat = np.zeros((g, DECISIONS_PER_GAME), np.int8)
    counts = np.zeros(g, np.int64)
    results = np.zeros((g, N_RESULT), np.int16)
    run_blocks(branch_block_nb, g, np.int64(task.seed), np.int64(task.first), task.rules, task.sids, sp,
               np.ascontiguousarray(task.nets, np.float32), np.asarray(task.margins, np.float64),
               task.on_net.astype(np.int64), float(task.keep),
               task.orders, obs, opt, val, seat, counts, results)
    mask = np.arange(DECISIONS_PER_GAME)[None, :] < counts[:, None]
    game = np.broadcast_to(np.arange(g)[:, None], mask.shape)[mask]
    return Samples(obs[mask], opt[mask], val[mask], seat[mask], game.astype(np.int64), results)


def scores(s: Samples, seat_of_net: np.ndarray) -> np.ndarray:
    """Each game's score of the player in seat ``seat_of_net[game]``: 1, 1/2, 0."""
    w = s.results[:, R_WINNER].astype(np.int64)
    return np.where(w < 0, 0.5, (w == seat_of_net).astype(np.float64))
