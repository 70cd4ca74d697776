"""The strategy registry: names to integer ids, and the compiled dispatch.

Adding a strategy is a new file under ``strategies/`` plus one entry in
``_ENTRIES`` and one branch in ``choose_nb``; the engine never changes.
Dispatch is by integer id inside a cached compiled function: a kernel that
received strategy functions as arguments would miss numba's on-disk cache in
every new process (DESIGN lesson 6).

Every strategy has the signature
``choose(params, kind, opts, n, pub, own, mem, me, rng) -> index`` and sees
only its player's observation (``pub``, ``own``: views of the state's public
block and her private block), its own memory, its seat's parameters and its
own random stream (``rng[0]``).
"""
import numpy as np
from numba import njit

from ccsim.layout import PUB, PUB_SIZE, PRIV, PRIV_SIZE, OPTS, MEM, MEM_SIZE, H_SID, MAX_PARAMS
from ccsim.rng import below_nb
from strategies import greedy, random_play
from strategies.greedy import choose_greedy_nb

RANDOM = 0
GREEDY = 1

# (module, id): ids are stable; they are what the kernel sees
_ENTRIES = (
    (random_play, RANDOM),
    (greedy, GREEDY),
)


@njit(cache=True)
def choose_nb(st, rng, sp, me, kind, n):
    """Hand the decision to seat ``me``'s strategy, with views of what she may see."""
    sid = st[H_SID + me]
    if sid == RANDOM:  # needs no view of the state: the fast path of random play
        return below_nb(rng, 1 + me, n)
    pub = st[PUB:PUB + PUB_SIZE]
    own = st[PRIV + me * PRIV_SIZE:PRIV + (me + 1) * PRIV_SIZE]
    mem = st[MEM + me * MEM_SIZE:MEM + (me + 1) * MEM_SIZE]
    opts = st[OPTS:OPTS + n]
    params = sp[me]
    mine = rng[1 + me:2 + me]
    return choose_greedy_nb(params, kind, opts, n, pub, own, mem, me, mine)


def available() -> list[dict]:
    """Every registered strategy: name, id, family and one-line description."""
    return [{"name": m.NAME, "id": sid, "family": m.FAMILY, "description": m.DESCRIPTION} for m, sid in _ENTRIES]


def strategy_id(name: str) -> int:
    """The kernel id of a strategy name; KeyError lists the known names."""
    return resolve(name)[0]


def resolve(name: str):
    """(kernel id, parameter vector of MAX_PARAMS floats) for a strategy name.

    KeyError (with a one-line message listing the known names) if unknown.
    """
    for m, sid in _ENTRIES:
        if m.NAME == name:
            params = np.zeros(MAX_PARAMS, np.float64)
            default = getattr(m, "DEFAULT_PARAMS", None)
            if default is not None:
                params[:len(default)] = default
            return sid, params
    known = ", ".join(m.NAME for m, _ in _ENTRIES)
    raise KeyError(f"unknown strategy {name!r} (known: {known})")
