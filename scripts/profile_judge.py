"""Where the judge's time goes: each piece of its decisions, in CPU microseconds a call, on real positions.

    python scripts/profile_judge.py [--positions 60] [--reps 200] [--seed 1] [--json results/bench/judge_profile.json]

The judge (`neural-search`, strategies/params/neural-search.toml) spends a searched decision on its prior (the
value network rates the options and keeps the best ``width``), the rollout policy's own choice, and ``budget``
simulations; a simulation samples a world (the hidden cards, for the player who searches), takes a candidate,
plays ``depth`` turns with `tactician` on both sides, and asks the value network for the position's worth.
Numba's compiled code has no symbols a sampling profiler can name, so each piece is timed on its own, on the
positions of real `tactician` games (every searched decision with two options or more, every few turns), in
the CPU time of the thread that runs it (``time.thread_time``: what other work on the machine takes is not
counted).  At each position the timing loops take turns, five rounds of ``--reps`` calls each, and a loop's
fastest round counts (other work only ever adds time: a process on the other hyperthread of the same core
slows the one measured by half).  Each piece is then the mean over the positions (a mean, not a median: the
prior costs little at most decisions and much at a turn's first step, and what a game costs is the sum).
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
ROUNDS = 5  # turns each timing loop takes at each position; the fastest counts


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


# The compiled loops that time one piece each, ``reps`` calls from one position: compiled as ccsim's kernels
# are (``ccsim.toolchain.jit``: no reference counting, scratch on the stack), at the module's top as the kernels
# are (a loop compiled inside a function, a closure, timed the same simulation at twice its cost).  Each loop
# plays one more piece than the one before it (the world; then its rollout; then the leaf, as ``simulate_nb``
# asks it), so a piece's cost is the difference of two loops that do the same before it.
from ccsim.kernel.engine.determinize import sample_hidden_nb
from ccsim.kernel.engine.step import drive_turns_nb, resolve_nb
from ccsim.kernel.layout import BASE_SIZE, MAX_OPTIONS, MAX_PARAMS, N_RNG, PRIV_SIZE, PUB, PUB_SIZE, priv_at
from ccsim.kernel.rng import seed_game_nb
from ccsim.toolchain.jit import njit, stack_array
from strategies.neural import NET, position_value_nb
from strategies.search import expert as X

state = stack_array(np.int32, (BASE_SIZE,))
rngs = stack_array(np.uint64, (N_RNG,))
leaf_x = stack_array(np.float64, (X.N_LEAF,))
alive_ = stack_array(np.int64, (MAX_OPTIONS,))
mem_ = stack_array(np.int32, (X.MEM_SIZE,))
rng1 = stack_array(np.uint64, (1,))

@njit
def setup(params, pub, own, mem, opts, n, me, root, seats):
    X.observed_state_nb(pub, own, mem, opts, n, me, root)
    X.simulation_seats_nb(params, me, seats, root)

@njit
def pieces(params, root, seats, opts, n, me, reps, upto):
    """``upto`` 1: the world; 2: and the rollout; 3: and the leaf."""
    sim = state()
    streams = rngs()
    depth = int(params[X.P_DEPTH])
    b = priv_at(me)
    s = 0.0
    for w in range(reps):
        for i in range(BASE_SIZE):
            sim[i] = root[i]
        seed_game_nb(streams, 99, w)
        sample_hidden_nb(sim, me, streams, 0)
        if upto >= 2:
            resolve_nb(sim, streams, opts[w % n])
            drive_turns_nb(sim, streams, seats, depth)
        if upto >= 3:
            s += position_value_nb(NET, sim[PUB:PUB + PUB_SIZE], sim[b:b + PRIV_SIZE], me)
        s += sim[PUB]
    return s

@njit
def simulations(params, root, seats, opts, n, me, reps):
    sim = state()
    streams = rngs()
    x = leaf_x()
    s = 0.0
    for w in range(reps):
        s += X.simulate_nb(root, sim, streams, seats, me, opts[w % n], 99, w, params, x)
    return s

@njit
def priors(params, kind, opts, n, pub, own, mem, me, reps):
    alive = alive_()
    s = 0
    for _ in range(reps):
        s += X.candidates_nb(params, kind, opts, n, pub, own, mem, me, alive)
    return s

@njit
def decisions(params, kind, opts, n, pub, own, mem, me, reps):
    rng = rng1()
    scratch = mem_()
    s = 0
    for r in range(reps):
        rng[0] = np.uint64(r + 1)
        for j in range(X.MEM_SIZE):
            scratch[j] = mem[j]
        s += X.choose_expert_nb(params, kind, opts, n, pub, own, scratch, me, rng)
    return s


def _cpu_us(f, args, reps: int) -> float:
    """CPU microseconds of this thread a call of ``f(*args)`` doing ``reps`` calls of its piece."""
    t = time.thread_time()
    f(*args)
    return (time.thread_time() - t) / reps * 1e6


def profile(n_positions: int, reps: int, seed: int) -> dict:
    from strategies.registry import resolve
    _, params = resolve(JUDGE)
    budget = int(params[X.P_BUDGET])
    rows = {name: [] for name in ("world", "rollout", "leaf", "simulation", "prior", "decision")}
    pos = positions(n_positions, seed)
    for i, (pub, own, mem, opts, n, me, kind) in enumerate(pos):
        root = np.zeros(BASE_SIZE, np.int32)
        seats = np.zeros((2, MAX_PARAMS))
        setup(params, pub, own, mem, opts, n, me, root, seats)
        few = max(1, reps // 50)  # a whole decision is a budget of simulations: fewer of them
        calls = {f"upto{u}": (pieces, (params, root, seats, opts, n, me, reps, u), reps) for u in (1, 2, 3)}
        calls |= dict(simulation=(simulations, (params, root, seats, opts, n, me, reps), reps),
                      prior=(priors, (params, kind, opts, n, pub, own, mem, me, reps), reps),
                      decision=(decisions, (params, kind, opts, n, pub, own, mem, me, few), few))
        if i == 0:  # compiled first: its time is no piece's
            for name, (f, args, count) in calls.items():
                f(*(1 if j == _reps_at(name) else a for j, a in enumerate(args)))
        # the loops take turns, ROUNDS times, and each keeps its fastest round: other work on the machine (a
        # process on the same core's other hyperthread) only ever adds time, and it comes and goes
        t = {name: _cpu_us(f, args, count) for name, (f, args, count) in calls.items()}
        for _ in range(ROUNDS - 1):
            for name, (f, args, count) in calls.items():
                t[name] = min(t[name], _cpu_us(f, args, count))
        rows["world"].append(t["upto1"])
        rows["rollout"].append(t["upto2"] - t["upto1"])
        rows["leaf"].append(t["upto3"] - t["upto2"])
        for name in ("simulation", "prior", "decision"):
            rows[name].append(t[name])
    mean = {name: statistics.fmean(v) for name, v in rows.items()}
    return dict(judge=JUDGE, budget=budget, depth=int(params[X.P_DEPTH]), positions=len(pos), reps=reps, seed=seed,
                microseconds=mean, date=datetime.date.today().isoformat(),
                machine=f"{processor()}, {platform.machine()}, {os.cpu_count()} cores, Python "
                        f"{platform.python_version()}",
                command=f"python scripts/profile_judge.py --positions {n_positions} --reps {reps} --seed {seed}")


def _reps_at(name: str) -> int:
    """Where a timing loop's call count sits among its arguments."""
    return {"upto1": 6, "upto2": 6, "upto3": 6, "simulation": 6, "prior": 8, "decision": 8}[name]


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
