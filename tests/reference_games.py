"""Fingerprints of the games ccsim plays, to hold a refactor to the very same games.

``fingerprints()`` plays a fixed set of pairings (every registered strategy at
both seats against three opponents, every R11 variant, fixed orderings) and
returns, for each, the SHA-256 of its per-game result rows (the 48 columns of
``engine.game.RESULT_COLUMNS`` as of commit 82d0697) and of the events of its
first recorded games.  ``tests/data/reference_games.json`` holds the
fingerprints of commit 82d0697, the last commit of the recursive engine; the
test in ``test_reference_games.py`` plays the same pairings now and compares.

Run as a script in any checkout to write the file:
``PYTHONPATH=. python tests/reference_games.py tests/data/reference_games.json``.
It uses only interfaces that both engines have.
"""
from __future__ import annotations

import hashlib
import json
import sys
import tempfile

import numpy as np

N_COLUMNS = 48          # the result columns of commit 82d0697
GAMES = 3000            # per pairing
RECORDED = 60           # games per pairing whose events are fingerprinted too
OPPONENTS = ("random", "greedy", "tactician")
VARIANTS = ("majority_needs_complete", "late_orgies_boxed", "two_orgies", "lone_player_no_draw")


def strategy_names():
    """The strategies commit 82d0697 had: the search and learned families came after it."""
    from strategies.registry import available
    return [s["name"] for s in available() if s["family"] not in ("search", "learned")]


def pairings():
    """(label, RunConfig keyword arguments, seed) of every fingerprinted pairing."""
    out = []
    seen = set()
    for s in strategy_names():
        for o in OPPONENTS:
            for a, b, seed in ((s, o, 11), (o, s, 12)):
                if (a, b) not in seen:
                    seen.add((a, b))
                    out.append((f"{a}|{b}", dict(cleopatra=a, caesar=b), seed))
    for v in VARIANTS:
        for a, b in (("greedy", "random"), ("tactician", "trickster"), ("weighted-thrifty", "counter")):
            out.append((f"{a}|{b}|{v}", dict(cleopatra=a, caesar=b, variants=(v,)), 13))
    out.append(("oracle|defender|all-variants", dict(cleopatra="oracle", caesar="defender", variants=VARIANTS), 14))
    for co, ca in (("veto-first", "spy-first"), ("VAASRCAWSARCV", "shuffled"), ("assassins-first", "wrath-last")):
        for a, b in (("tactician", "greedy"), ("majority", "oracle")):
            out.append((f"{a}|{b}|{co}|{ca}", dict(cleopatra=a, caesar=b, cleopatra_order=co, caesar_order=ca), 15))
    return out


def _rows(cfg):
    from ccsim.kernel.simulate import simulate_rows
    _, sids, sp, codes, _ = cfg.seats(False)
    return simulate_rows(cfg.seed, 0, cfg.games, cfg.rules_vector(), sids, sp, codes)


def _events(cfg):
    from ccsim.analyses.run import write_records
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as f:
        write_records(cfg, f.name, RECORDED)
        recs = [json.loads(line) for line in f]
    return json.dumps([[r["setup"], r["events"], r["result"]] for r in recs], sort_keys=True)


def fingerprint(kwargs, seed, games=GAMES):
    """(rows hash, events hash) of one pairing."""
    from ccsim.runner.config import RunConfig
    cfg = RunConfig(games=games, seed=seed, **kwargs).validated()
    rows = np.ascontiguousarray(_rows(cfg)[:, :N_COLUMNS], dtype="<i2")
    return (hashlib.sha256(rows.tobytes()).hexdigest(), hashlib.sha256(_events(cfg).encode()).hexdigest())


def fingerprints():
    return {label: list(fingerprint(kw, seed)) for label, kw, seed in pairings()}


if __name__ == "__main__":
    import subprocess
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    data = {"commit": commit, "games_per_pairing": GAMES, "recorded_per_pairing": RECORDED,
            "pairings": fingerprints()}
    with open(sys.argv[1], "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(data['pairings'])} pairings written to {sys.argv[1]} (commit {commit[:10]})")
