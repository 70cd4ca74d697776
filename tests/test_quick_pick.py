"""H_QUICK: a `random` seat's step and discard drawn from the number of options, without their
list, is the option the listed decision would have given it (same draw, same code)."""
import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.kernel import rules as R
from ccsim.kernel.decisions import STEP, DISCARD
from ccsim.kernel.engine.dispatch import random_pick_nb
from ccsim.kernel.engine.turn import step_pick_nb, discard_pick_nb
from ccsim.play.game import Game

PICKS = {STEP: step_pick_nb, DISCARD: discard_pick_nb}


@pytest.mark.parametrize("variants", [(), tuple(R.VARIANTS)])
def test_quick_picks_are_the_listed_options_random_would_take(compiled, variants):
    seen = {STEP: 0, DISCARD: 0}
    for game in range(40):
        g = Game(seed=3, game=game, variants=variants)
        while not g.over:
            kind, p, n = int(g.st[L.PUB_DEC_KIND]), int(g.st[L.PUB_DEC_P]), int(g.st[L.PUB_DEC_N])
            if kind in PICKS:
                st, rng = g.st.copy(), g.rng.copy()
                got_n, code = PICKS[kind](st, rng, np.int64(p))
                want_rng = g.rng.copy()
                i = random_pick_nb(want_rng, np.int64(p), np.int64(n))
                assert (got_n, code) == (n, g.st[L.OPTS + i])
                assert (rng == want_rng).all()
                seen[kind] += 1
            g.step(g.ask("random"))
    assert min(seen.values()) > 100
