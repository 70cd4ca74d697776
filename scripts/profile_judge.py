"""Where the judge's time goes: each piece of its decisions, in CPU microseconds a call, on real positions.

    python scripts/profile_judge.py [--positions 60] [--reps 200] [--seed 1] [--json results/bench/judge_profile.json]

The judge (`neural-search`, strategies/params/neural-search.toml) spends a searched decision on its prior (the
value network rates the options and keeps the best ``width``), the rollout policy's own choice, and ``budget``
simulations; a simulation samples a world (the hidden cards, for the player who searches), takes a candidate,
plays ``depth`` turns with `tactician` on both sides, and asks the value network for the position's worth.
Numba's compiled code has no symbols a sampling profiler can name, so each piece is timed on its own, on the
positions of real `tactician` games (every searched decision with two options or more, every few turns), in
the CPU time of the thread that runs it (``time.thread_time``: what other work on the machine takes is not
counted).  Each piece is the mean over the positions of its mean over ``--reps`` calls (a mean, not a median:
the prior costs little at most decisions and much at a turn's first step, and what a game costs is the sum).
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import processor  # noqa: E402

JUDGE = "neural-search"


def positions(count: int, seed: int) -> list[tuple]:
    """Searched decisions of `tactician` mirror games (every third one, at least two options): each as the
    player sees it (pub, own, mem, opts, n, me, kind)."""
    from ccsim.kernel import layout as L
    from ccsim.kernel.decisions import DRAW, MODE, SPY_PICK, STEP, VETO, VETO_DRAW
    from ccsim.play.game import Game
    searched = {MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW}
    out, game, seen = [], 0, 0
    while len(out) < count:
        g = Game(seed=seed, game=game)
        while not g.over and len(out) < count:
            kind, p, n = g._pending()
            if kind in searched and n >= 2:
                seen += 1
                if seen % 3 == 0:
                    b, m = L.priv_at(p), L.mem_at(p)
                    out.append((g.st[L.PUB:L.PUB + L.PUB_SIZE].copy(), g.st[b:b + L.PRIV_SIZE].copy(),
                                g.st[m:m + L.MEM_SIZE].copy(), g.st[L.OPTS:L.OPTS + n].copy(), n, p, kind))
            g.step(g.ask("tactician"))
        game += 1
    return out


def _kernels():
    """The compiled loops that time one piece each, ``reps`` calls from one position."""
    from numba import njit
    from ccsim.kernel.engine.determinize import sample_hidden_nb
    from ccsim.kernel.engine.step import drive_turns_nb, resolve_nb
    from ccsim.kernel.layout import BASE_SIZE, MAX_OPTIONS, MAX_PARAMS, N_RNG, PRIV_SIZE, PUB, PUB_SIZE, priv_at
    from ccsim.kernel.rng import seed_game_nb
    from strategies.neural import NET, position_value_nb
    from strategies.search import expert as X

    @njit
    def setup(params, pub, own, mem, opts, n, me, root, seats):
        X.observed_state_nb(pub, own, mem, opts, n, me, root)
        X.simulation_seats_nb(params, me, seats, root)

    @njit
    def world(params, root, me, reps):
        sim = np.zeros(BASE_SIZE, np.int32)
        streams = np.zeros(N_RNG, np.uint64)
        s = 0
        for w in range(reps):
            for i in range(BASE_SIZE):
                sim[i] = root[i]
            seed_game_nb(streams, 99, w)
            sample_hidden_nb(sim, me, streams, 0)
            s += sim[PUB]
        return s

    @njit
    def world_and_rollout(params, root, seats, opts, n, me, reps):
        sim = np.zeros(BASE_SIZE, np.int32)
        streams = np.zeros(N_RNG, np.uint64)
        s = 0
        depth = int(params[X.P_DEPTH])
        for w in range(reps):
            for i in range(BASE_SIZE):
                sim[i] = root[i]
            seed_game_nb(streams, 99, w)
            sample_hidden_nb(sim, me, streams, 0)
            resolve_nb(sim, streams, opts[w % n])
            drive_turns_nb(sim, streams, seats, depth)
            s += sim[PUB]
        return s

    @njit
    def leaves(params, root, seats, opts, n, me, reps, states):
        """The leaf on the positions the simulations stop in (played first, outside the timing: ``states``)."""
        streams = np.zeros(N_RNG, np.uint64)
        depth = int(params[X.P_DEPTH])
        for w in range(states.shape[0]):
            for i in range(BASE_SIZE):
                states[w, i] = root[i]
            seed_game_nb(streams, 99, w)
            sample_hidden_nb(states[w], me, streams, 0)
            resolve_nb(states[w], streams, opts[w % n])
            drive_turns_nb(states[w], streams, seats, depth)
        b = priv_at(me)
        s = 0.0
        for r in range(reps):
            st = states[r % states.shape[0]]
            s += position_value_nb(NET, st[PUB:PUB + PUB_SIZE], st[b:b + PRIV_SIZE], me)
        return s

    @njit
    def simulations(params, root, seats, opts, n, me, reps):
        sim = np.zeros(BASE_SIZE, np.int32)
        streams = np.zeros(N_RNG, np.uint64)
        x = np.zeros(X.N_LEAF)
        s = 0.0
        for w in range(reps):
            s += X.simulate_nb(root, sim, streams, seats, me, opts[w % n], 99, w, params, x)
        return s

    @njit
    def priors(params, kind, opts, n, pub, own, mem, me, reps):
        alive = np.zeros(MAX_OPTIONS, np.int64)
        s = 0
        for _ in range(reps):
            s += X.candidates_nb(params, kind, opts, n, pub, own, mem, me, alive)
        return s

    @njit
    def decisions(params, kind, opts, n, pub, own, mem, me, reps):
        rng = np.zeros(1, np.uint64)
        s = 0
        for r in range(reps):
            rng[0] = np.uint64(r + 1)
            s += X.choose_expert_nb(params, kind, opts, n, pub, own, mem.copy(), me, rng)
        return s

    return dict(setup=setup, world=world, world_and_rollout=world_and_rollout, leaves=leaves,
                simulations=simulations, priors=priors, decisions=decisions, BASE_SIZE=BASE_SIZE,
                MAX_PARAMS=MAX_PARAMS)


def _cpu_us(f, args, reps: int) -> float:
    """CPU microseconds of this thread a call of ``f(*args)`` doing ``reps`` calls of its piece."""
    t = time.thread_time()
    f(*args)
    return (time.thread_time() - t) / reps * 1e6


def profile(n_positions: int, reps: int, seed: int) -> dict:
    from strategies.registry import resolve
    from strategies.search import expert as X
    k = _kernels()
    _, params = resolve(JUDGE)
    budget = int(params[X.P_BUDGET])
    rows = {name: [] for name in ("world", "rollout", "leaf", "simulation", "prior", "decision")}
    states = np.zeros((16, k["BASE_SIZE"]), np.int32)
    pos = positions(n_positions, seed)
    for i, (pub, own, mem, opts, n, me, kind) in enumerate(pos):
        root = np.zeros(k["BASE_SIZE"], np.int32)
        seats = np.zeros((2, k["MAX_PARAMS"]))
        k["setup"](params, pub, own, mem, opts, n, me, root, seats)
        calls = dict(world=(k["world"], (params, root, me, reps)),
                     world_and_rollout=(k["world_and_rollout"], (params, root, seats, opts, n, me, reps)),
                     leaf=(k["leaves"], (params, root, seats, opts, n, me, reps, states)),
                     simulation=(k["simulations"], (params, root, seats, opts, n, me, reps)),
                     prior=(k["priors"], (params, kind, opts, n, pub, own, mem, me, reps)),
                     decision=(k["decisions"], (params, kind, opts, n, pub, own, mem, me, max(1, reps // 50))))
        if i == 0:  # compile every loop first: its time is not a piece's
            for f, args in calls.values():
                f(*args[:-1], 1) if f is not k["leaves"] else f(*args[:-2], 1, args[-1])
        t = {name: _cpu_us(f, args, args[-2] if f is k["leaves"] else args[-1]) for name, (f, args) in calls.items()}
        # the leaf loop also plays the 16 positions it judges: their cost is the rollouts', not the leaf's
        t["leaf"] -= 16 * t["world_and_rollout"] / reps
        rows["world"].append(t["world"])
        rows["rollout"].append(t["world_and_rollout"] - t["world"])
        rows["leaf"].append(t["leaf"])
        rows["simulation"].append(t["simulation"])
        rows["prior"].append(t["prior"])
        rows["decision"].append(t["decision"])
    mean = {name: statistics.fmean(v) for name, v in rows.items()}
    return dict(judge=JUDGE, budget=budget, depth=int(params[X.P_DEPTH]), positions=len(pos), reps=reps, seed=seed,
                microseconds=mean, date=datetime.date.today().isoformat(),
                machine=f"{processor()}, {platform.machine()}, {os.cpu_count()} cores, Python "
                        f"{platform.python_version()}",
                command=f"python scripts/profile_judge.py --positions {n_positions} --reps {reps} --seed {seed}")


def shares(p: dict) -> list[tuple[str, float, float]]:
    """(piece, microseconds, share of a searched decision) for the pieces of a simulation and of a decision."""
    us = p["microseconds"]
    sim = us["world"] + us["rollout"] + us["leaf"]
    decision = us["prior"] + p["budget"] * sim
    return [("sampling the world (hidden cards)", us["world"], p["budget"] * us["world"] / decision),
            (f"{p['depth']} turns of `tactician` on both sides", us["rollout"], p["budget"] * us["rollout"] / decision),
            ("the value network's leaf", us["leaf"], p["budget"] * us["leaf"] / decision),
            ("the prior (the network's ratings of the options)", us["prior"], us["prior"] / decision)]


def markdown(p: dict) -> str:
    lines = ["| piece of a searched decision | CPU µs a call | share of the decision |", "| --- | ---: | ---: |"]
    lines += [f"| {name} | {us:.1f} | {share:.0%} |" for name, us, share in shares(p)]
    us = p["microseconds"]
    lines += ["", f"A simulation as one call: {us['simulation']:.1f} µs (the pieces add to "
                  f"{us['world'] + us['rollout'] + us['leaf']:.1f}); a whole searched decision: {us['decision']:.0f} µs "
                  f"({p['budget']} simulations). Means over {p['positions']} positions of {p['reps']} calls each; "
                  f"{p['machine']}, {p['date']}: `{p['command']}`."]
    return "\n".join(lines)


def main(argv=None) -> int:
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the profile here (results/bench/judge_profile.json)")
    a = ap.parse_args(argv)
    if a.positions < 1 or a.reps < 20:
        ap.error("--positions must be at least 1 and --reps at least 20")
    p = profile(a.positions, a.reps, a.seed)
    print(markdown(p))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(p, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
