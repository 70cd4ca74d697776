"""The one driver loop (ccsim.runner.driver) and the shared argument checks, on a stand-in backend."""
import time

import pytest

from ccsim.errors import UsageError
from ccsim.runner.backends import BackendError
from ccsim.runner.checks import check_count, check_seed
from ccsim.runner.driver import drive


class FakeBackend:
    """Plays a task as its own number; can stop with Ctrl-C or fail after some results."""

    def __init__(self, stop_after=None, stop_with=KeyboardInterrupt, warm_s=0.0):
        self.stop_after, self.stop_with, self.warm_s, self.warmed = stop_after, stop_with, warm_s, []

    def warm(self, fn, task):
        time.sleep(self.warm_s)
        self.warmed.append(task)

    def map(self, fn, tasks):
        for k, t in enumerate(tasks):
            if k == self.stop_after:
                raise self.stop_with("stopped") if self.stop_with is BackendError else self.stop_with()
            yield t, fn(t)


def _tally():
    seen = []
    return seen, lambda task, result: seen.append(result) or 10


def test_every_result_is_tallied_in_order_after_warming():
    seen, tally = _tally()
    be = FakeBackend()
    done = drive(be, lambda t: t * 2, [1, 2, 3], tally, warm=0)
    assert seen == [2, 4, 6] and be.warmed == [0] and not done.interrupted and done.failure is None


def test_ctrl_c_keeps_what_was_tallied():
    seen, tally = _tally()
    done = drive(FakeBackend(stop_after=2), lambda t: t, [1, 2, 3, 4], tally)
    assert seen == [1, 2] and done.interrupted and done.failure is None


def test_a_failing_backend_keeps_the_tally_and_hands_back_the_error():
    seen, tally = _tally()
    done = drive(FakeBackend(stop_after=1, stop_with=BackendError), lambda t: t, [1, 2, 3], tally)
    assert seen == [1] and done.interrupted and isinstance(done.failure, BackendError)


def test_the_clock_counts_games_not_warming():
    # compiling (here: a slow warm-up) is not playing time
    done = drive(FakeBackend(warm_s=0.5), lambda t: t, [1], _tally()[1], warm=0)
    assert done.seconds < 0.5


def test_nothing_to_play_is_no_warming():
    be = FakeBackend()
    done = drive(be, lambda t: t, [], _tally()[1], warm=0)
    assert be.warmed == [] and not done.interrupted


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, True, "1"])
def test_check_seed_refuses(seed):
    with pytest.raises(UsageError, match="--seed must be an integer in 0 .. 2\\*\\*63-1"):
        check_seed(seed, UsageError)


def test_check_seed_and_count_accept():
    assert check_seed(2**63 - 1, UsageError) == 2**63 - 1
    assert check_count(2, UsageError, "--games", minimum=2) == 2
    with pytest.raises(UsageError, match="--games must be an integer >= 2, got 1"):
        check_count(1, UsageError, "--games", minimum=2)
    with pytest.raises(UsageError, match="--games must be a positive integer, got 0"):
        check_count(0, UsageError, "--games")
