"""The leaf value's weights (strategies/search/leaf.py) from self-play positions: the [leaf] table of a search file.

    python scripts/fit_leaf.py [--games 20000] [--seed 7] [--player tactician] [--write strategies/params/master.toml]

Plays ``--games`` games of ``--player`` against itself, takes both players' features at every turn
boundary with the game's result (ccsim.training.leaf_data), fits the logistic model on four fifths
of the games and reports its log loss on the fifth held out; prints the [leaf] table (or writes it
into the search file given, replacing its [leaf] table).  The same seed gives the same weights.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def main(argv=None):
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--player", default="tactician")
    ap.add_argument("--lam", type=float, default=1e-4)
    ap.add_argument("--write", help="a search parameter file whose [leaf] table is replaced")
    args = ap.parse_args(argv)
    from ccsim.runner.config import RunConfig
    from ccsim.training.leaf_data import fit_leaf, leaf_positions, leaf_table
    from strategies.registry import resolve
    cfg = RunConfig(games=1).validated()
    sid, p = resolve(args.player)
    X, y, g = leaf_positions(args.seed, 0, args.games, cfg.rules_vector(), np.array([sid, sid]), np.stack([p, p]),
                             cfg.seats(False)[3])
    train = g % 5 != 0
    w = fit_leaf(X[train], y[train], args.lam)
    z = X[~train] @ w
    loss = float(np.mean(np.logaddexp(0.0, z) - y[~train] * z))
    print(f"{len(y):,} positions of {args.games:,} games of {args.player}; held-out log loss {loss:.4f} "
          f"(a coin: {np.log(2):.4f})", file=sys.stderr)
    table = "[leaf]\n" + "\n".join(f"{k} = {v:.6f}" for k, v in leaf_table(w).items()) + "\n"
    if args.write:
        path = Path(args.write)
        text = path.read_text(encoding="utf-8")
        path.write_text(text[:text.index("[leaf]")] + table if "[leaf]" in text else text + "\n" + table,
                        encoding="utf-8")
    else:
        print(table, end="")


if __name__ == "__main__":
    main()
