"""Fair rules: the Python API of ``ccsim balance`` (docs/balance.md).

Searches a space of rules changes (``ccsim.analyses.balance.space``; the search runs in ``ccsim.analyses.balance.api``) for the smallest change that
brings Cleopatra's score to 50% at every level of play: a race over the candidates on common deals
(``ccsim.analyses.balance.search.race``, played by ``ccsim.analyses.balance.search.play``), the Pareto set over
(|seat advantage| at the worst level -- or at the first, ``race = "first"`` --, number of changes, size
of change), every simplest setting of it
re-measured on fresh deals (another seed) and marked *fair* where the whole 95% interval of the
seat advantage lies within ±tolerance of 50%; then the final candidates at the search level and across
the levels of the skill curve, and the one recommendation (``ccsim.analyses.balance.search.final``); when none is
fair at the judge, the next ring around the closest there, measured or predicted from the fast levels
(``ccsim.analyses.balance.ring.centre``, ``ccsim.analyses.balance.ring.widen``).

>>> b = balance("examples/balance.toml", out="out/balance")          # doctest: +SKIP
>>> b.pareto[["setting", "level", "seat_advantage", "seat_advantage_lo", "seat_advantage_hi"]]  # doctest: +SKIP
>>> b.recommended.query("fair")                                       # doctest: +SKIP
"""
from ccsim.analyses.balance.api import FRESH_SEED_OFFSET, Balance, answer_balance, balance

__all__ = ["Balance", "balance", "answer_balance", "FRESH_SEED_OFFSET"]
