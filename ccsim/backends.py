"""Where tasks run: this process (numba threads) or a Dask cluster.

A backend maps a module-level function over picklable tasks and yields
``(task, result)`` in task order.  Every command that plays games expresses
its work as such tasks (chunks of games); every game seeds its own random
streams from (seed, game index), so a run gives identical rows on either
backend, with any number of workers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Chunk:
    first: int          # first game index
    n: int              # games in the chunk
    swapped: bool       # seats swapped (the second game of a pair)


def plan_chunks(games: int, chunk_size: int, swap_seats: bool) -> list[Chunk]:
    """The chunks of a run, in the order their rows are reported."""
    return [Chunk(first, min(chunk_size, games - first), swapped)
            for first in range(0, games, chunk_size)
            for swapped in ((False, True) if swap_seats else (False,))]


def play_chunk(task) -> np.ndarray:
    """Result rows of one ``(RunConfig, Chunk)`` task (runs wherever the backend sends it)."""
    from ccsim.simulate import simulate_rows
    cfg, chunk = task
    _, sids, sp, codes, _ = cfg.seats(chunk.swapped)
    return simulate_rows(cfg.seed, chunk.first, chunk.n, cfg.rules_vector(chunk.swapped), sids, sp, codes)


class LocalBackend:
    """Tasks one after another in this process; each task uses all numba threads."""

    name = "local"

    def map(self, fn, tasks):
        for task in tasks:
            yield task, fn(task)

    def close(self):
        pass


class DaskBackend:
    """Tasks as Dask tasks; results come back in task order.

    ``address`` names a running scheduler (``tcp://host:8786``); without one a
    local cluster of worker processes is started for the run.
    """

    name = "dask"

    def __init__(self, address: str | None = None, workers: int | None = None, window: int = 8):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RuntimeError("the dask backend needs `pip install ccsim[dask]`") from None
        self._cluster = None
        if address:
            self.client = Client(address)
        else:
            self._cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                         dashboard_address=None)
            self.client = Client(self._cluster)
        self.window = window  # tasks in flight: bounds memory on the client

    def map(self, fn, tasks):
        tasks = list(tasks)
        futures = {}
        nxt = 0
        try:
            for i, task in enumerate(tasks):
                while nxt < len(tasks) and nxt < i + self.window:
                    futures[nxt] = self.client.submit(fn, tasks[nxt], pure=False)
                    nxt += 1
                yield task, futures.pop(i).result()
        finally:
            for f in futures.values():
                f.cancel()

    def close(self):
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_backend(name: str = "local", address: str | None = None, workers: int | None = None):
    if name == "local":
        return LocalBackend()
    if name == "dask":
        return DaskBackend(address, workers)
    raise ValueError(f"unknown backend {name!r} (local, dask)")
