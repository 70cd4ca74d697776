"""`random`: uniform over the legal options at every decision."""
from ccsim.toolchain.jit import njit

from ccsim.kernel.rng import below_nb

NAME = "random"
ID = 0  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
DESCRIPTION = "uniformly random over the legal options at every decision"
FAMILY = "baseline"


@njit(cache=True)
def choose_random_nb(params, kind, opts, n, pub, own, mem, me, rng):
    return below_nb(rng, 0, n)


CHOOSE = choose_random_nb  # what the registry compiles into this strategy's entry
