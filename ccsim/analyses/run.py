"""Batch runs: chunks of games through the compiled kernel, streamed to
summaries, Parquet and game records.  The CLI and the Python API both use it.

Memory stays flat: each chunk's rows are summarised (and written) and dropped.
Ctrl-C between chunks stops the run cleanly with every finished chunk kept.
"""
from __future__ import annotations

import math

import contextlib
import json
from pathlib import Path

import numpy as np
import pandas as pd

from ccsim.kernel import rules as R
from ccsim.runner.config import RunConfig, ConfigError
from ccsim.kernel.engine.episode import RESULT_COLUMNS, N_RESULT, record_game_nb
from ccsim.kernel.layout import LOG, EV_W, SETUP_SIZE, max_events, state_size, N_RNG
from ccsim.play.record import make_record
from ccsim.runner.coldstart import kernel_beside
from ccsim.runner.backends import LocalBackend, chunk_tasks, make_backend, play_chunk, search_aware, warmup_task
from ccsim.runner.driver import Drive, drive
from ccsim.kernel.simulate import set_threads
from ccsim.analyses.summary import Summary
from ccsim.analyses.metrics import MetricSums, Distribution, report as metrics_report

_COLS = [c for c, _ in RESULT_COLUMNS]


def results_frame(rows: np.ndarray, first_game: int, seed: int, names, orders, swapped: bool) -> pd.DataFrame:
    """One row per game, with readable categories; the kernel's ints kept where they are counts."""
    df = pd.DataFrame(rows, columns=_COLS)
    n = len(df)
    out = pd.DataFrame({
        "game": np.arange(first_game, first_game + n, dtype=np.int64),
        "seed": np.full(n, seed, np.int64),
        "swapped": np.full(n, swapped),
        "strategy_cleopatra": names[0], "strategy_caesar": names[1],
        "ordering_cleopatra": orders[0], "ordering_caesar": orders[1],
    })
    out["winner"] = pd.Categorical.from_codes(df["winner"].to_numpy() + 1, ["draw", "cleopatra", "caesar"])
    out["winner"] = out["winner"].astype(object).where(out["winner"] != "draw", None)
    out["end"] = pd.Categorical.from_codes(df["end"].clip(lower=0).to_numpy(), list(R.END_NAMES))
    for c in _COLS:
        if c not in ("winner", "end"):
            out[c] = df[c].to_numpy()
    for p in R.PLAYERS:
        out[f"bonus_{p}"] = [R.GROUPS[g] for g in df[f"bonus_{p}"]]
    return out


class ParquetSink:
    """Appends each chunk to DIR/games.parquet; the file is valid after every close."""

    def __init__(self, folder: str):
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            probe = self.folder / ".ccsim-write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as e:
            raise ConfigError(f"--out {folder}: cannot write there ({e.strerror})") from None
        self.writer = None

    def write(self, df: pd.DataFrame):
        import pyarrow as pa
        import pyarrow.parquet as pq
        table = pa.Table.from_pandas(df, preserve_index=False)
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.folder / "games.parquet", table.schema)
        self.writer.write_table(table.cast(self.writer.schema))

    def close(self, summary: dict):
        if self.writer is not None:
            self.writer.close()
        (self.folder / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")


def run(cfg: RunConfig, progress: bool = False, keep_frames: bool = False, backend=None, metrics: bool = False):
    """Play a whole run; returns (summary dict, DataFrame or None).

    With ``metrics`` the summary also holds the designer metrics (``ccsim.analyses.metrics``) under
    ``metrics``, accumulated chunk by chunk like the rest.

    The backend (``cfg.backend`` unless one is given) is warmed first: the
    run's time counts games, not compiling.  Ctrl-C between chunks ends the run
    early: the finished chunks are kept, summarised and written, and the summary
    says ``interrupted``.  A ``BackendError`` during the run (a lost task, a
    mismatched worker) keeps them the same way, then is raised.
    """
    cfg = cfg.validated()
    set_threads(cfg.threads)
    sink = ParquetSink(cfg.out) if cfg.out else None
    own_backend = backend is None
    if own_backend:  # first: a cluster that cannot be used fails before anything compiles
        backend = make_backend(cfg.backend, cfg.scheduler, cfg.workers, cfg.connect_timeout)
    summary = Summary(((cfg.cleopatra, cfg.cleopatra_order), (cfg.caesar, cfg.caesar_order)),
                      2 if cfg.swap_repeats() else 1)
    sums, lengths = (MetricSums(), Distribution()) if metrics else (None, None)
    frames = []

    def tally(task, rows) -> int:  # a chunk is in the summary and the file, or in neither
        swapped = task.chunk.swapped
        summary.add_rows(rows, swapped)
        if sums:
            sums.add_rows(rows, cfg.rules_vector(swapped))
            lengths.add_rows(rows)
        if sink or keep_frames:
            names, _, _, _, orders = cfg.seats(swapped)
            df = results_frame(rows, task.chunk.first, cfg.seed, names, orders, swapped)
            if sink:
                sink.write(df)
            if keep_frames:
                frames.append(df)
        return len(rows)

    try:
        # resolves the seats here: a parameter file is read by this process only; a cold
        # kernel compiles meanwhile in a helper process (ccsim.runner.coldstart)
        with kernel_beside() if isinstance(backend, LocalBackend) else contextlib.nullcontext():
            tasks = chunk_tasks(cfg, search_aware(backend.chunk_size(cfg.games), (cfg.cleopatra, cfg.caesar)))
        done = drive(backend, play_chunk, tasks, tally, warm=warmup_task(tasks[0]),
                     total=cfg.games * (2 if cfg.swap_seats else 1), progress=progress)
    except KeyboardInterrupt:  # (while warming: nothing played)
        done = Drive(0.0, True)
    finally:
        if own_backend:
            backend.close()
    summary.seconds = done.seconds
    out = summary.to_dict(cfg, done.interrupted)
    out.update(level_and_judge(cfg, out, summary.repeat_factor()))
    if sums:
        sums.repeats = summary.repeat_factor()
        out["metrics"] = metrics_report(sums, lengths)
    if sink:
        sink.close(out)
    if done.failure:
        raise done.failure
    frame = pd.concat(frames, ignore_index=True) if keep_frames and frames else None
    return out, frame


def level_and_judge(cfg: RunConfig, out: dict, repeats: float = 1.0) -> dict:
    """What a run's edge rests on: its level (one strategy in both seats: its seat status, ``level_json``), the
    plain caveat its output opens with when that edge is not the game's, Cleopatra's edge (her score, a draw
    half, minus 50%, with its 95% interval), and the judge's edge beside it (``ccsim.analyses.judging``:
    measured where stored, else predicted from the level's edge; None when neither can be had). ``repeats``:
    games played per game distinct (``Summary.repeat_factor``), which the interval divides the games by."""
    from ccsim.analyses.judging.figure import judge_figure_of_edge
    from ccsim.analyses.levels import level_caveat, level_json
    mirror = cfg.cleopatra == cfg.caesar
    d = dict(level=level_json(cfg.cleopatra) if mirror else None, caveat=level_caveat((cfg.cleopatra, cfg.caesar)),
             edge=None, judge=None)
    n = out["games"]
    if n:
        wins, draws = out["wins"]["cleopatra"], out["draws"]
        score = (wins + 0.5 * draws) / n
        se = math.sqrt(max((wins + 0.25 * draws) / n - score ** 2, 0.0) / (n / repeats))
        d["edge"] = {"value": score - 0.5, "ci95": [score - 0.5 - 1.96 * se, score - 0.5 + 1.96 * se]}
        if mirror:
            f = judge_figure_of_edge(cfg.rules_vector(False), (cfg.cleopatra_order, cfg.caesar_order), cfg.cleopatra,
                                     score - 0.5, se)
            d["judge"] = f.as_json() if f is not None else None
    return d


def iter_records(cfg: RunConfig, k: int, what: str = "ccsim run"):
    """Records (dicts) of games 0..k-1 of the run, the same games as without recording, each
    with the ``rules`` block of what its rules change (GAME_RECORD.md); with ``swap_seats``
    each game is followed by its deal played with the seats swapped."""
    arrangements = (False, True) if cfg.swap_seats else (False,)
    seats = {s: (cfg.rules_vector(s), *cfg.seats(s)[:4]) for s in arrangements}
    n_log = max(max_events(rules) for rules, *_ in seats.values())
    st = np.zeros(state_size(n_log, 0), np.int32)
    rng = np.zeros(N_RNG, np.uint64)
    setup = np.zeros(SETUP_SIZE, np.int32)
    row = np.zeros(N_RESULT, np.int16)
    for g in range(k):
        for swapped in arrangements:
            rules, names, sids, sp, codes = seats[swapped]
            n = record_game_nb(st, rng, sp, rules, sids, np.int64(cfg.seed), np.int64(g), codes, setup, row)
            log = st[LOG:LOG + n * EV_W].reshape(n, EV_W)
            where = f"{what} --seed {cfg.seed}, game {g}" + (", seats swapped" if swapped else "")
            yield make_record(g, where, cfg.variants, names, setup, log, row, rules)


def open_records(path: str):
    """``path`` opened for writing JSONL records; ConfigError (one line) if it cannot be."""
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"--record {path}: cannot write ({e.strerror})") from None


def write_records(cfg: RunConfig, path: str, k: int | None = None) -> int:
    """Write games 0..k-1 of the run (the same games as without recording; with ``swap_seats``
    each one twice, the second time with the seats swapped) as JSONL records; how many."""
    cfg = cfg.validated()
    k = cfg.games if k is None else min(k, cfg.games)
    n = 0
    with open_records(path) as f:
        for rec in iter_records(cfg, k):
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n += 1
    return n


def simulate(cleopatra: str = "greedy", caesar: str = "greedy", games: int = 10_000, seed: int = 1,
             cleopatra_order: str = "shuffled", caesar_order: str = "shuffled", variants=(),
             swap_seats: bool = False, threads: int = 0, chunk_size: int | None = None, **rules) -> pd.DataFrame:
    """Play games and return one row per game (the Python API of ``ccsim run``).

    >>> df = simulate("greedy", "random", games=200, seed=1)   # doctest: +SKIP
    >>> summarize(df)["wins"]                                 # doctest: +SKIP
    """
    cfg = RunConfig(games=games, seed=seed, cleopatra=cleopatra, caesar=caesar, cleopatra_order=cleopatra_order,
                    caesar_order=caesar_order, variants=tuple(variants), swap_seats=swap_seats, threads=threads,
                    chunk_size=chunk_size, rules=rules)
    _, df = run(cfg, keep_frames=True)
    return df
