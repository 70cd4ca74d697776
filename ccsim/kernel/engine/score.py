"""R10 scoring and the tie-break."""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import PUB_REMAIN, PUB_RULES, H_BONUS, won_at
from ccsim.kernel.rules import (N_GROUPS, RP_GROUP_SIZE, RP_VP_PATRICIAN, RP_VP_MAJORITY, RP_VP_ALL, RP_VP_BONUS,
                         RP_BONUS_THRESHOLD, RP_VARIANTS, V_MAJORITY_NEEDS_COMPLETE)


@njit(cache=True)
def has_majority_nb(pub, p, g):
    """R10.2: more than half of the group's full size (R11: maybe only once complete)."""
    if pub[won_at(p, g)] * 2 <= pub[PUB_RULES + RP_GROUP_SIZE + g]:
        return False
    if (pub[PUB_RULES + RP_VARIANTS] & V_MAJORITY_NEEDS_COMPLETE) != 0 and pub[PUB_REMAIN + g] > 0:
        return False
    return True


@njit(cache=True, forceinline=True)
def group_vp_nb(pub, bonus, p, g):
    """R10.1–R10.4: the victory points group g brings player p whose bonus group is ``bonus``:
    they change only when g votes, so a vote updates a score by this term alone."""
    won = pub[won_at(p, g)]
    vp = won * pub[PUB_RULES + RP_VP_PATRICIAN]
    if has_majority_nb(pub, p, g):
        vp += pub[PUB_RULES + RP_VP_MAJORITY]
    if won == pub[PUB_RULES + RP_GROUP_SIZE + g]:
        vp += pub[PUB_RULES + RP_VP_ALL]
    if g == bonus and won >= pub[PUB_RULES + RP_BONUS_THRESHOLD]:
        vp += pub[PUB_RULES + RP_VP_BONUS]
    return vp


@njit(cache=True)
def vp_nb(pub, bonus, p):
    """R10.1–R10.4: the victory points of player p whose bonus group is ``bonus``."""
    vp = 0
    for g in range(N_GROUPS):
        vp += group_vp_nb(pub, bonus, p, g)
    return vp


@njit(cache=True)
def vp_lead_nb(st):
    """Cleopatra's VP minus caesar's, recounted (R10; H_BONUS, the engine's copies): what
    H_VP_LEAD keeps vote by vote, set again where hidden cards are redealt (a bonus)."""
    return vp_nb(st, st[H_BONUS], 0) - vp_nb(st, st[H_BONUS + 1], 1)


@njit(cache=True, forceinline=True)  # twice a vote: a call cost more than its work
def group_lead_nb(st, g):
    """What group g adds to cleopatra's VP lead over caesar (R10; H_BONUS, the engine's copies)."""
    return group_vp_nb(st, st[H_BONUS], 0, g) - group_vp_nb(st, st[H_BONUS + 1], 1, g)


@njit(cache=True)
def patricians_nb(pub, p):
    n = 0
    for g in range(N_GROUPS):
        n += pub[won_at(p, g)]
    return n


@njit(cache=True)
def winner_nb(st):
    """R10.5: most VP; then most patricians; else a draw (-1)."""
    lead = vp_lead_nb(st)
    if lead != 0:
        return 0 if lead > 0 else 1
    n0 = patricians_nb(st, 0)
    n1 = patricians_nb(st, 1)
    if n0 != n1:
        return 0 if n0 > n1 else 1
    return -1
