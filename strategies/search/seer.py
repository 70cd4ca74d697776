"""`expert-seer`: the expert search that sees the hidden cards: the headroom's measuring device.

Not a fair player: its entry hands it the whole state (``sees_all``), and its worlds start from
the real position instead of a sample of what it cannot see (R8 does not hold for it).  The
strength certificate (``scripts/strength.py``) plays the search against this copy of itself,
with the same parameters otherwise: how much the search loses to a player who knows the hidden
cards is the *headroom* of its information-set sampling.
"""
from strategies.family import Family, Player
from strategies.search import expert

NAME = "expert-seer"
ID = 11  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "search"
DESCRIPTION = "measurement only: the expert search seeing the hidden cards (the headroom of the strength certificate)"


def seer_params(socket):
    """The expert's default parameters, seeing."""
    params = expert.expert_params(socket, {})
    params[expert.P_SEER] = 1.0
    return params


FAMILIES = (Family(FAMILY, (Player(NAME, ID, DESCRIPTION, expert.choose_seer_nb, seer_params, sees_all=True),),
                   needs=expert.NEEDS, searches=True, calls=expert.entries_called),)
