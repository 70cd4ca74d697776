"""Where ccsim.training finds ``strategies.heuristics.scoring``'s names until it imports them from there
(the module moved into its wing; the training is another engineer's to edit).  Declares no family."""
from strategies.heuristics.scoring import must_be_active  # noqa: F401
