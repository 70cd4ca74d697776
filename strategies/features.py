"""Observation-level features shared by the heuristic strategies.

Everything here reads only a player's observation (``pub`` and her own
``own`` array, R8), so any strategy built on it respects hidden information
by construction.
"""

from numba import njit

from ccsim.layout import (PUB_FU, PUB_FDN, PUB_VOC_DISC, PUB_VOC_BOX, PUB_VOC_DECKN, PR_FD, PR_BONUS, PUB_RULES)
from ccsim.rules import CARD_VALUE, PHIL, RP_GROUP_LIMIT, RP_GROUP_SIZE
from ccsim.observe import group_n, in_play

# mean value of an unseen influence card of the default deck: (5*(1+2+3+4+5) + 2*0) / 27
MEAN_HIDDEN_VALUE = 75.0 / 27.0


@njit(cache=True)
def my_sum(pub, own, me, g):
    """My influence at g: face-up and my own face-down cards, which I may look at (R2.7)."""
    t = 0
    for c in range(5):
        t += (pub[PUB_FU + (g * 2 + me) * 6 + c] + own[PR_FD + g * 6 + c]) * CARD_VALUE[c]
    return t


@njit(cache=True)
def my_phils(pub, own, me, g):
    return pub[PUB_FU + (g * 2 + me) * 6 + PHIL] + own[PR_FD + g * 6 + PHIL]


@njit(cache=True)
def opp_visible_sum(pub, me, g):
    o = 1 - me
    t = 0
    for c in range(5):
        t += pub[PUB_FU + (g * 2 + o) * 6 + c] * CARD_VALUE[c]
    return t


@njit(cache=True)
def opp_estimate(pub, me, g):
    """Opponent's expected influence at g: visible cards plus the mean for each face-down one."""
    return opp_visible_sum(pub, me, g) + pub[PUB_FDN + g * 2 + 1 - me] * MEAN_HIDDEN_VALUE


@njit(cache=True)
def margin(pub, own, me, g):
    return my_sum(pub, own, me, g) - opp_estimate(pub, me, g)


@njit(cache=True)
def win_prob(m):
    """A smooth guess of winning a vote at margin m (about one card's worth of noise).

    A rational sigmoid: as good a guess as the logistic and ten times cheaper
    than exp(), which dominated the heuristic players' run time.
    """
    x = m / 2.5
    return 0.5 + 0.5 * x / (1.0 + abs(x))


@njit(cache=True)
def voc_card_in_deck(pub, g):
    """Is g's VoC card still face-down in the deck (neither discarded nor boxed)?"""
    return pub[PUB_VOC_DISC + g] == 0 and pub[PUB_VOC_BOX + g] == 0


@njit(cache=True)
def next_vote_weight(pub, g):
    """How likely g is to be the next group voted on: from the VoC discard and box
    (R8.1), plus a sure vote for a group about to hold 8 cards (R4.3)."""
    if not in_play(pub, g):
        return 0.0
    w = 0.05
    n = pub[PUB_VOC_DECKN]
    if voc_card_in_deck(pub, g) and n > 0:
        w = 1.0 / n
    if group_n(pub, g) >= pub[PUB_RULES + RP_GROUP_LIMIT] - 1:
        w += 0.5
    return w


@njit(cache=True)
def group_stake(pub, own, me, g):
    """VP at stake in one patrician of g for me: the card, a share of majority and all, my bonus."""
    size = pub[PUB_RULES + RP_GROUP_SIZE + g]
    v = 1.0 + 1.0 / size + 0.5 / size
    if own[PR_BONUS] == g:
        v += 2.0 / 3.0
    return v
