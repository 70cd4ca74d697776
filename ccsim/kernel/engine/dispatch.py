"""Handing a decision to a seat's strategy: the engine's half of the plug-in contract.

A strategy is compiled on its own into a C-callable *entry* (``strategies.registry``),
whose address travels in the last slot of the seat's parameter vector
(``layout.P_ENTRY``); ``choose_nb`` calls through it (``ccsim.toolchain.entry``).
The engine therefore imports no strategy: it compiles once whatever the strategies, and adding or
editing one never touches the engine's numba cache.  `random` (id 0) needs no
view of the state and is played inline.

Every entry has the C signature ``ENTRY_SIG``: (state, state length, streams,
the seat's parameters, seat, decision kind, number of options) -> option index.
The entry slices the state into the seat's observation (R8.4): the options,
``pub``, her own private block, her memory, her own random stream.
"""
import numba
from numba import types

from ccsim.toolchain.entry import call_entry, entry_address
from ccsim.toolchain.jit import njit
from ccsim.kernel.layout import OPTS, PUB, PUB_SIZE, PRIV_SIZE, MEM_SIZE, H_SID, P_ENTRY, priv_at, mem_at
from ccsim.kernel.rng import below_nb

RANDOM = 0       # the strategy id played inline (strategies/heuristics/random_play.py)
NO_ENTRY = -2    # choose_nb's answer for a seat whose parameters carry no entry address

ENTRY_SIG = types.int64(types.CPointer(types.int32), types.int64, types.CPointer(types.uint64),
                        types.CPointer(types.float64), types.int64, types.int64, types.int64)

_INTERPRETED: dict = {}  # interpreted strategies by id (NUMBA_DISABLE_JIT=1 only): see interpret


def interpret(sid: int, choose) -> None:
    """Hand the interpreted dispatch (NUMBA_DISABLE_JIT=1) strategy ``sid``'s plain-Python choice
    function: strategies.registry does, when it resolves the strategy (its entry slot stays 0)."""
    _INTERPRETED[sid] = choose


def observation_views(st, me, n):
    """(opts, pub, own, mem): views of what seat ``me`` may see at a decision of ``n`` options (R8.4).
    The interpreted dispatch's; compiled entries make the same slices themselves."""
    own = priv_at(me)
    mem = mem_at(me)
    return st[OPTS:OPTS + n], st[PUB:PUB + PUB_SIZE], st[own:own + PRIV_SIZE], st[mem:mem + MEM_SIZE]


@njit(cache=True)
def random_pick_nb(rng, me, n):
    """The `random` strategy's choice among n options for seat ``me``, none drawn for a forced
    move (as drive_nb takes it): uniform, from her own stream."""
    return below_nb(rng, 1 + me, n) if n > 1 else 0


if numba.config.DISABLE_JIT:
    def choose_with_nb(st, rng, sid, params, me, kind, n):
        """The option strategy ``sid`` (parameters ``params``) picks for seat ``me`` (interpreted)."""
        if sid == RANDOM:
            return below_nb(rng, 1 + me, n)
        if sid not in _INTERPRETED:
            return NO_ENTRY
        opts, pub, own, mem = observation_views(st, me, n)
        return _INTERPRETED[sid](params, kind, opts, n, pub, own, mem, me, rng[1 + me:2 + me])
else:
    @njit(cache=True)
    def choose_with_nb(st, rng, sid, params, me, kind, n):
        """The option strategy ``sid`` (parameters ``params``, its entry in ``P_ENTRY``) picks
        for seat ``me``: through the entry, from her observation only."""
        if sid == RANDOM:  # needs no view of the state: the fast path of random play
            return below_nb(rng, 1 + me, n)
        address = entry_address(params[P_ENTRY])
        if address == 0:
            return NO_ENTRY
        return call_entry(address, st, rng, params, me, kind, n)


@njit(cache=True)
def choose_nb(st, rng, sp, me, kind, n):
    """Hand the decision to seat ``me``'s strategy (its id in H_SID, its parameters ``sp[me]``)."""
    return choose_with_nb(st, rng, st[H_SID + me], sp[me], me, kind, n)
