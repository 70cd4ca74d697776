"""Settings played at one level on common deals: Cleopatra's score on each deal of each setting.

A *setting* is a rules vector and the two action-deck orders.  Every setting plays the same deals of one
seed in mirror games at the level (common random numbers: the same influence decks, bonus cards and vote
deck wherever the rules allow), so any two settings, the standard rules among them, pair deal by deal.
The games go through the one driver loop in tasks of a few deals (a search level plays tens of games a
second: the progress moves, a Ctrl-C loses little), and each finished task is kept in a ``TaskStore`` (a
folder, or memory): a rerun loads what was finished instead of playing it.
"""
from __future__ import annotations

import numpy as np

from ccsim.kernel.engine.episode import R_WINNER
from ccsim.runner.backends import LocalBackend, search_aware
from ccsim.runner.driver import drive
from ccsim.runner.grid import GridBuilder, GridTask, play_task, warm_task
from ccsim.analyses.balance.publish.folder import TaskStore, members_digest

__all__ = ["play_settings", "TASK_GAMES"]

TASK_GAMES = 50_000   # games per task at a fast level (``search_aware`` makes a search level's small)
_COLS = np.array([R_WINNER], np.int64)


def _scores(rows: np.ndarray) -> np.ndarray:
    """Cleopatra's score of each result row: a win 1, a draw half (R10.5), a loss 0."""
    winner = rows[..., 0].astype(np.int64)
    return np.where(winner == 0, 1.0, np.where(winner < 0, 0.5, 0.0))


def play_settings(settings, level: str, seed: int, deals: int, *, keys=None, store: TaskStore | None = None,
                  backend=None, progress: bool = False, label: str | None = None,
                  part: tuple[int, int] = (0, 1)) -> tuple[np.ndarray, bool]:
    """Cleopatra's score on deals ``0 .. deals - 1`` of ``seed`` for each setting ((rules vector,
    (Cleopatra's order, Caesar's)) pairs) in ``level``'s mirror games: an array (deals played, settings), and
    whether a Ctrl-C stopped it (the deals before the first unfinished task are kept).  ``keys``: a stable
    name of each setting, naming its tasks in ``store`` (needed to resume from a folder)."""
    settings = list(settings)
    store = store or TaskStore(arrays=("scores",))
    builder = GridBuilder()
    for vec, (cleo, caesar) in settings:
        builder.add((level, cleo), (level, caesar), vec)
    grid = builder.build()
    n = len(settings)
    per = max(1, min(deals, search_aware(TASK_GAMES, {level}) // n))
    digest = members_digest([level, str(seed), *(keys or [repr(s) for s in settings])])
    tasks = [GridTask(int(seed), grid, np.array([(c, 0, d, min(per, deals - d)) for c in range(n)], np.int64), _COLS)
             for d in range(0, deals, per)]
    name = {id(t): f"{digest}-{int(t.first_games[0])}-{int(t.segment_games[0])}" for t in tasks}
    done: dict[int, np.ndarray] = {}
    todo = []
    k, n_parts = part
    for i, t in enumerate(tasks):
        kept = store.get(name[id(t)])
        if kept is None:
            if i % n_parts == k:
                todo.append(t)
        else:
            done[int(t.first_games[0])] = kept["scores"]

    def tally(task, rows) -> int:
        scores = _scores(rows.reshape(n, -1, rows.shape[-1])).T       # (deals of the task, settings)
        store.put(name[id(task)], {"scores": scores})
        done[int(task.first_games[0])] = scores
        return task.games

    interrupted = False
    if todo:
        run = drive(backend or LocalBackend(), play_task, todo, tally, warm=warm_task(todo[0]),
                    total=sum(t.games for t in todo), progress=progress, label=label)
        if run.failure:
            raise run.failure
        interrupted = run.interrupted
    out, at = [], 0
    while at in done:                           # the deals finished from the first on, in order
        out.append(done[at])
        at += len(done[at])
    return (np.concatenate(out) if out else np.zeros((0, n))), interrupted
