"""Statistics for win-rate analysis of self-play games: the one door to them.

Small, pure, documented helpers used to summarise millions of simulated
Caesar & Cleopatra games.  Everything here works from counts or from
*sufficient statistics* (``n``, ``sum``, ``sum of squares``), so results can
be accumulated chunk by chunk and merged across workers without keeping
per-game data in memory.  They live in one module per concept and are all
importable from here (``from ccsim.analyses.stats import wilson_interval``).

Contents
--------
Proportions, means, paired comparisons (two alternatives played on the same seeds)
    ``ccsim.analyses.stats.intervals``: :func:`wilson_interval`, :func:`score_rate`,
    :func:`mean_ci`, :func:`paired_difference`, :class:`PairedStats`
Sequential testing (stop as soon as a comparison is decided)
    ``ccsim.analyses.stats.sequential``: :class:`SPRT`, :func:`sprt_decide_difference`
Ratios of means and their paired differences (the designer metrics); multiple comparisons
    ``ccsim.analyses.stats.ratios``: :class:`Moments`, :func:`ratio_interval`,
    :func:`ratio_difference`, :func:`holm`
Ratings
    ``ccsim.analyses.stats.ratings``: :func:`elo_from_score`, :func:`score_from_elo`,
    :func:`bradley_terry`, :func:`bradley_terry_se`, :func:`rating_intervals`,
    :func:`nash_average`
Numbers for people and for JSON
    ``ccsim.analyses.stats.formatting``: :func:`json_number`, :func:`format_percent`,
    :func:`format_percent_ci`

Only numpy and scipy are used.
"""

from __future__ import annotations

import numpy as np  # noqa: F401  (the doctests' np: they run in this module's names)

# every name below is importable from here, ELO_PER_NAT and the percent format too (not in __all__)
from ccsim.analyses.stats.formatting import format_percent, format_percent_ci, format_points, json_number  # noqa: F401
from ccsim.analyses.stats.intervals import PairedStats, mean_ci, paired_difference, score_rate, wilson_interval
from ccsim.analyses.stats.ratings import ELO_PER_NAT, bradley_terry, bradley_terry_se, elo_from_score  # noqa: F401
from ccsim.analyses.stats.ratings import nash_average, rating_intervals, score_from_elo
from ccsim.analyses.stats.ratios import Moments, holm, ratio_difference, ratio_interval
from ccsim.analyses.stats.sequential import SPRT, sprt_decide_difference

__all__ = [
    "wilson_interval",
    "score_rate",
    "mean_ci",
    "paired_difference",
    "PairedStats",
    "SPRT",
    "sprt_decide_difference",
    "elo_from_score",
    "score_from_elo",
    "bradley_terry",
    "bradley_terry_se",
    "rating_intervals",
    "Moments",
    "ratio_interval",
    "ratio_difference",
    "holm",
    "nash_average",
    "json_number",
]

# ``doctest.testmod`` of this module runs the examples of every name it gives, wherever defined
__test__ = {name: globals()[name] for name in __all__}
