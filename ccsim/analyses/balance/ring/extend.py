"""Settling the ring's confirmation: more fresh deals at the judge, pooled with the ones already played.

The confirmation (``ccsim.analyses.balance.ring.run``, ring.json's ``confirm``) measures the ring's winner and
the standard rules at the judge on deals ``0 .. n - 1`` of its seed.  When its interval still reaches past the
fair band ("too few deals to be sure"), playing on is the only way to settle it: this plays deals ``n .. target
- 1`` of the same seed, paired the same way, and pools the two parts.  The deals are disjoint, so the pooled
mean weighs each part by its deals and its standard error adds the parts' in quadrature (each part's interval
is a Student t interval on its per-deal values: on thousands of deals, a normal one).  Every part is kept in
``confirm["parts"]``, so a later extension pools from the figures as they were measured.

``python -m ccsim.analyses.balance.ring.extend --out results/balance/ring --deals 40000`` (resumable: the folder's
``tasks/`` store keeps each finished task, and a Ctrl-C writes nothing until a rerun completes the block).
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from ccsim.analyses.balance.publish.folder import TaskStore
from ccsim.analyses.balance.ring.run import RingError, ring_estimate, winner_candidates, write_ring
from ccsim.analyses.balance.ring.stages import verdict_of
from ccsim.analyses.balance.search.play import Scheduler
from ccsim.analyses.balance.space import load_space
from ccsim.analyses.levels import parse_level
from ccsim.runner.backends import LocalBackend
from ccsim.toolchain.script_args import ScriptParser

__all__ = ["confirmation_parts", "pool", "pooled_confirmation", "extend_confirmation", "main"]

Z95 = 1.959963984540054  # the normal quantile of a 95% interval: the parts' t intervals on thousands of deals


def confirmation_parts(confirm: dict) -> list[dict]:
    """ring.json's confirmation in the parts it was played in: its ``parts`` once played on, else the whole of it
    as the one part (first deal, deals, games, seconds, setting and standard estimates)."""
    return confirm.get("parts") or [dict(first=0, deals=confirm["setting"]["deals"], games=confirm["games"],
                                         seconds=confirm["seconds"], setting=confirm["setting"],
                                         standard=confirm.get("standard"))]


def pool(parts: list[dict], value: str, interval: str) -> tuple[float, list[float]]:
    """The mean of ``value`` over disjoint parts (each a dict with ``deals``, ``value`` and its 95% ``interval``),
    weighed by deals, and its 95% interval (the parts' standard errors, weighed the same, in quadrature)."""
    n = sum(p["deals"] for p in parts)
    mean = sum(p["deals"] * p[value] for p in parts) / n
    se = math.sqrt(sum((p["deals"] / n * (p[interval][1] - p[interval][0]) / (2 * Z95)) ** 2 for p in parts))
    return mean, [mean - Z95 * se, mean + Z95 * se]


def _pooled_side(parts: list[dict]) -> dict:
    """One side (the setting's or the standard rules') of the confirmation pooled over its parts."""
    adv, ci = pool(parts, "seat_advantage", "ci95")
    diff, diff_ci = pool(parts, "diff", "diff_ci95")
    return dict(deals=sum(p["deals"] for p in parts), seat_advantage=adv, ci95=ci, diff=diff, diff_ci95=diff_ci)


def pooled_confirmation(confirm: dict, more: dict, tol: float) -> dict:
    """ring.json's ``confirm`` with the part ``more`` (first deal, deals, games, seconds, setting and standard
    estimates) pooled in: the figures over every part, each part kept as measured."""
    parts = [*confirmation_parts(confirm), more]
    out = dict(confirm, parts=parts, games=sum(p["games"] for p in parts),
               seconds=round(sum(p["seconds"] for p in parts), 1),
               setting=_pooled_side([p["setting"] for p in parts]),
               standard=_pooled_side([p["standard"] for p in parts]))
    out["verdict"] = verdict_of((out["setting"]["seat_advantage"], *out["setting"]["ci95"]), tol)
    return out


def _confirmed(data: dict, folder: Path) -> dict:
    """ring.json's finished, paired confirmation (what can be extended), or RingError saying why not."""
    c = data.get("confirm")
    if not c:
        raise RingError(f"{folder / 'ring.json'}: the ring has no confirmation to extend")
    if c.get("interrupted"):
        raise RingError(f"{folder / 'ring.json'}: its confirmation was interrupted: rerun the ring to finish it first")
    if not c.get("paired"):
        raise RingError(f"{folder / 'ring.json'}: its confirmation is the setting alone; only a paired one is pooled")
    return c


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def extend_confirmation(out, deals: int, space=None, progress=True, log=_log) -> dict:
    """Play the ring's confirmation on to ``deals`` deals of its seed and pool (the module's docstring); writes and
    returns ring.json (unchanged, with ``interrupted`` logged, when a Ctrl-C cut the new block short)."""
    folder = Path(out)
    data = json.loads((folder / "ring.json").read_text(encoding="utf-8"))
    c = _confirmed(data, folder)
    done = sum(p["deals"] for p in confirmation_parts(c))
    if deals <= done:
        raise RingError(f"--deals {deals:,}: the confirmation already has {done:,} deals; ask for more")
    w, cands = winner_candidates(data, load_space(space))
    judge = parse_level(data["judge"], RingError, "the ring's judge")
    store = TaskStore(folder / "tasks", warn=log)
    log(f"ring: the confirmation of {w['words']} with {judge.name} on both sides, deals {done:,} to {deals - 1:,} "
        f"of seed {c['seed']}, paired with the standard rules")
    r = Scheduler(cands, (judge,), LocalBackend(), store, progress).play(
        c["seed"], "confirm", (0, 1), done, deals - done, f"ring: {judge.name} confirmation, more deals")
    if r.interrupted:
        log("ring: interrupted; the finished tasks are kept and a rerun resumes")
        return data
    more = dict(first=done, deals=deals - done, games=r.games, seconds=round(r.seconds, 1),
                setting=ring_estimate(r.stats[1][0]), standard=ring_estimate(r.stats[0][0]))
    data["confirm"] = pooled_confirmation(c, more, data["tolerance"])
    return write_ring(folder, data)


def main(argv=None) -> int:
    ap = ScriptParser(prog="python -m ccsim.analyses.balance.ring.extend", description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="the ring's folder (its ring.json and tasks/)")
    ap.add_argument("--deals", type=int, required=True, help="the confirmation's deals in all, once extended")
    ap.add_argument("--space", default=None)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--no-progress", action="store_true")
    a = ap.parse_args(argv)
    from ccsim.kernel.simulate import set_threads
    set_threads(a.threads)
    try:
        extend_confirmation(a.out, a.deals, a.space, progress=not a.no_progress)
    except (RingError, OSError, ValueError) as e:
        print(f"ccsim: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
