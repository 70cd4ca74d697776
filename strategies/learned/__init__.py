"""`learned`: a linear policy over the heuristics' group tables, distilled from the search player.

At the decisions the search player searches (MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW) each
option gets a short feature vector, read off the same per-decision group table the heuristics
build (``strategies.heuristics.tables``, with `tactician`'s weights: vote odds, stakes, the gain of each
hand card on each group, the tactician's own score of the option), and the option with the
largest ``theta . features`` is played.  The other decisions (the initial placement, the
castling split, the passive discard) are `tactician`'s.  Everything is read from the player's
observation: the table is the heuristics' own, built from ``pub``, ``own`` and ``mem``.

The weights ``theta`` are the seat's parameter vector (``MODEL_TABLE``: one block per decision
kind), so they are data: ``strategies/weights/learned.toml`` ships the trained ones (family
``learned``: ``registry.load_params`` reads it like any parameter file) and ``ccsim train``
(``ccsim.training``) makes them, by imitation of the search's choices and rounds of expert
iteration.  Per option the work is a few table look-ups and a dot product of ~26 numbers: the
player costs about what a heuristic costs.

The features of a decision are ``decision_features_nb`` (``features``; the pick is ``policy``, the weights
file ``weights``): the training reads them through the
same function (on a copy of the player's memory), so what it learns from is what plays.
"""
from strategies.family import Family, Player
from strategies.learned.features import (BASE, BLOCKS, DRAW_FEATURES, M_STEP, MAX_FEATURES, MODE_FEATURES, N_PARAMS,
                                         N_STEP, SPY_FEATURES, STEP_FEATURES, VETO_FEATURES, block_of,
                                         decision_features_nb, tactician_clone)
from strategies.learned.policy import choose_learned_nb
from strategies.learned.weights import WEIGHTS_FILE, load_weights_file, model_tables, model_vector, shipped_weights

__all__ = ["BASE", "BLOCKS", "DRAW_FEATURES", "M_STEP", "MAX_FEATURES", "MODE_FEATURES", "N_PARAMS", "N_STEP",
           "SPY_FEATURES", "STEP_FEATURES", "VETO_FEATURES", "block_of", "decision_features_nb", "choose_learned_nb",
           "model_tables", "model_vector", "shipped_weights", "tactician_clone", "WEIGHTS_FILE", "FAMILIES"]

NAME = "learned"
ID = 10  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "learned"
DESCRIPTION = ("learned: a linear policy over the heuristic tables, distilled from the search by expert "
               "iteration (strategies/weights/learned.toml)")

DEFAULT_PARAMS = shipped_weights()

CHOOSE = choose_learned_nb  # what the registry compiles into this strategy's entry

# a weights file is played by path (the shipped one is DEFAULT_PARAMS)
FAMILIES = (Family(FAMILY, (Player(NAME, ID, DESCRIPTION, CHOOSE, DEFAULT_PARAMS),), files="learned",
                   load=load_weights_file, file_id=ID,
                   weights=WEIGHTS_FILE),)
