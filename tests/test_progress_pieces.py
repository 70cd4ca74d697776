"""Progress at every level: the local backend plays a task a piece at a time and reports the games as
they finish, so a slow level's progress moves within a task (ccsim.runner.backends.LocalBackend).
Timing-free: the pieces are a fixed size here, and the progress is counted by its callbacks."""
import numpy as np
import pytest

from ccsim.kernel import rules as R
from ccsim.runner import driver
from ccsim.runner.backends import LocalBackend, piece_sizes, play_chunk
from ccsim.runner.grid import GridBuilder, GridTask, play_task
from ccsim.runner.orderings import SHUFFLED


def _grid_task(games=(13, 9)):
    b = GridBuilder()
    b.add(("tactician", SHUFFLED), ("greedy", SHUFFLED), R.DEFAULT_RULES.copy())
    b.add(("greedy", SHUFFLED), ("tactician", SHUFFLED), R.DEFAULT_RULES.copy())
    segs = np.array([(0, 0, 100, games[0]), (1, 0, 5, games[1])], np.int64)
    return GridTask(7, b.build(), segs)


def test_a_grid_tasks_pieces_are_its_games_in_order():
    t = _grid_task()
    whole = t.specs()
    for size in (1, 4, 13, 22):
        parts = [t.piece(s, min(size, t.games - s)).specs() for s in range(0, t.games, size)]
        for k in range(3):
            assert np.array_equal(np.concatenate([p[k] for p in parts]), whole[k])


class RecordingBar:
    def __init__(self):
        self.n, self.seen = 0, []

    def update(self, n):
        self.n += n
        self.seen.append(self.n)

    def close(self):
        pass


def test_the_progress_moves_within_a_task_and_the_games_are_the_same(monkeypatch):
    t = _grid_task()
    bar = RecordingBar()
    monkeypatch.setattr(driver, "progress_bar", lambda total, **kw: bar)
    got = []
    done = driver.drive(LocalBackend(piece_games=5), play_task, [t], lambda task, rows: got.append(rows) or task.games,
                        total=t.games, progress=True)
    assert not done.interrupted
    # one task, five progress updates: the count moves as its pieces finish, and ends at its games
    assert bar.seen == [5, 10, 15, 20, 22]
    assert np.array_equal(got[0], play_task(t))


def test_a_chunk_is_played_in_pieces_row_for_row():
    from ccsim.runner.config import RunConfig
    from ccsim.runner.backends import chunk_tasks
    task = chunk_tasks(RunConfig(games=11, seed=3, cleopatra="tactician", caesar="greedy").validated())[0]
    counts = []
    _, rows = next(LocalBackend(piece_games=4).map(play_chunk, [task], on_games=counts.append))
    assert counts == [4, 4, 3]
    assert np.array_equal(rows, play_chunk(task))


def test_a_backend_without_pieces_still_counts_whole_tasks(monkeypatch):
    class Whole:
        def warm(self, fn, task):
            pass

        def map(self, fn, tasks):
            for t in tasks:
                yield t, fn(t)

    bar = RecordingBar()
    monkeypatch.setattr(driver, "progress_bar", lambda total, **kw: bar)
    driver.drive(Whole(), lambda t: t, [3, 4], lambda task, r: r, total=7, progress=True)
    assert bar.seen == [3, 7]


@pytest.mark.parametrize("rate,done,total,last,want", [
    (10.0, 16, 1000, 16, 20),        # a slow level: two seconds of it
    (1e6, 16, 50_000, 16, 128),      # a fast one grows at most eightfold a piece
    (1e6, 49_990, 50_000, 4096, 10),  # never past the task's end
    (0.1, 1, 100, 1, 1),             # at least one game
])
def test_piece_sizes(rate, done, total, last, want):
    assert piece_sizes(rate, done, total, last) == want
