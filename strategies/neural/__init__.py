"""`neural`: the option the value network rates best, where it is rated clearly above the tactician's.

At each decision the network decides (MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW) the candidates
(every option; at a STEP the tactician's six best and ending the turn) are rated by
``Q(observation, option)`` (``strategies.neural.model``: the win head plus the VP-margin head), and
the best is played if it is rated ``MARGIN`` above the tactician's own choice, else the tactician's
choice; the other decisions (the initial placement, the castling split, the passive discard) are
the tactician's, as for `learned`.  Everything read is the player's observation: the inputs
(``strategies.neural.inputs``) come from ``pub`` and ``own``, the option features from the
tactician's tables built from them and her memory.

The network learned from the outcomes of paired branches of self-play games, no search involved
(``ccsim.training.branches``); its weights and margin are data, ``strategies/weights/neural.npz``, frozen
into the compiled player (the numba cache is keyed by that file too: ``ccsim.toolchain.cache``).
The choice is ``choice``, the weights file ``weights``.
"""
from strategies.neural.choice import (MARGIN, NET, candidates_nb, choose_neural_nb, network_choice_nb, position_value_nb,
                                      rate_options_nb)
from strategies.neural.weights import WEIGHTS_FILE, read_weights, shipped_weights, write_weights

__all__ = ["MARGIN", "NET", "candidates_nb", "network_choice_nb", "position_value_nb", "rate_options_nb",
           "WEIGHTS_FILE", "read_weights", "shipped_weights", "write_weights"]

NAME = "neural"
ID = 12  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "learned"
DESCRIPTION = ("neural: plays the option its value network (trained on self-play outcomes) rates most likely "
               "to win (strategies/weights/neural.npz)")

CHOOSE = choose_neural_nb  # what the registry compiles into this strategy's entry
