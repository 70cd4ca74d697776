"""Counter-based per-game random streams (DESIGN lesson 7).

Game ``i`` of run seed ``s`` seeds its own streams from ``(s, i)`` at its start,
so a game is the same game whatever the thread count, chunking or backend.
Each game has four SplitMix64 streams (chance, one per player's strategy, and
one for `shuffled` action decks)
so that a strategy drawing more or fewer random numbers never changes the
cards chance deals: common random numbers across strategies and orderings.
"""
import numpy as np
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import N_RNG

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)

RNG_CHANCE = 0
RNG_ORDERS = 3  # shuffled action decks draw apart, so they never change the other cards dealt


@njit(cache=True)
def mix64_nb(z):
    """The SplitMix64 finaliser: a bijective 64-bit hash."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def seed_game_nb(rng, seed, game):
    """Seed the game's streams from (run seed, game index); nothing else."""
    base = mix64_nb(np.uint64(seed) * _GOLDEN + mix64_nb(np.uint64(game) + _GOLDEN))
    for k in range(N_RNG):
        rng[k] = mix64_nb(base + np.uint64(k + 1) * _M2)


@njit(cache=True)
def next_u64_nb(rng, k):
    rng[k] += _GOLDEN
    return mix64_nb(rng[k])


@njit(cache=True)
def below_nb(rng, k, n):
    """A uniform integer in [0, n) from stream k (n < 2**32; Lemire's multiply-shift)."""
    x = next_u64_nb(rng, k) >> _S32
    return np.int64((x * np.uint64(n)) >> _S32)


@njit(cache=True)
def uniform_nb(rng, k):
    """A uniform float in [0, 1) from stream k."""
    return np.float64(next_u64_nb(rng, k) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle_nb(rng, k, a, start, n):
    """Fisher–Yates shuffle of a[start:start+n] in place."""
    for i in range(n - 1, 0, -1):
        j = below_nb(rng, k, i + 1)
        t = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = t
