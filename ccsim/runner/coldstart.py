"""A cold start on two cores: the batch kernel compiles in a helper process while this
process compiles the strategies it plays.

numba compiles under one lock per process, so a cold ``ccsim run`` compiled the
seats' strategies (a few seconds each) and then the batch kernel (most of the
start) one after the other, on one core.  ``kernel_beside()`` starts, when the
kernel is not in numba's on-disk cache yet and the machine has a second core, a
helper process that compiles the kernel into that cache (by playing one game of
random play, the signature every batch call uses) while this process resolves
the seats.  Then this process compiles the parts of the kernel that the helper's
compile reaches last (``compile_late_parts``) into the same cache, where the
helper finds them, until the helper is done; the kernel's first call here loads
it from the cache.  numba caches only what has machine code; ccsim also caches
the callees it compiles to LLVM IR only (``ccsim.toolchain.jit``), which is what lets one
process's compile use another's.  Should the helper fail, that first call
compiles the kernel here, as without a helper: the games are the same either
way, only the start is shorter.  ``CCSIM_COMPILE_BESIDE=0`` turns it off.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent  # the folder ccsim and strategies are imported from

_HELPER = "from ccsim.runner.coldstart import compile_kernel; compile_kernel()"


def compile_kernel() -> None:
    """Compile the batch kernel (or load it from the cache): one game of random play."""
    import numpy as np
    from ccsim.kernel.layout import MAX_PARAMS
    from ccsim.kernel.rules import MAX_ACTION_DECK
    from ccsim.runner.ruleset import rules_vector
    from ccsim.kernel.simulate import simulate_rows
    simulate_rows(0, 0, 1, rules_vector({}, ()), np.zeros(2, np.int64), np.zeros((2, MAX_PARAMS)),
                  np.full((2, MAX_ACTION_DECK), -1, np.int8))


def _late_parts():
    """(function, argument types) of the parts of the kernel its compile reaches last (the
    step loop's phases, in the reverse of the order it types them), as the kernel calls them."""
    from numba import types
    from ccsim.kernel.engine import step
    from ccsim.kernel.engine.episode import result_row_nb
    from ccsim.kernel.engine.setup import placement_options_nb
    from ccsim.kernel.engine.vote import exceptional_votes_nb
    st = types.Array(types.int32, 1, "C")
    rng = types.Array(types.uint64, 1, "C")
    i = types.int64
    return [(result_row_nb, (st, types.Array(types.int16, 1, "C"))), (placement_options_nb, (st,)),
            (step.post_discard_nb, (st, rng, i)), (step.castle_next_nb, (st,)), (step.effect_nb, (st,)),
            (exceptional_votes_nb, (st,)), (step.mode_options_nb, (st, i)), (step.next_turn_nb, (st,)),
            (step.turn_end_nb, (st, types.none)), (step.refill_nb, (st, rng)), (step.post_step_nb, (st, rng, i))]


def compile_late_parts(done=lambda: False) -> int:
    """Compile the kernel's late parts (``_late_parts``) as the kernel's compile would, into
    the disk cache, where that compile, in another process, finds those it has not reached
    yet; until ``done()``.  Returns how many were compiled."""
    n = 0
    for fn, args in _late_parts():
        if done():
            break
        fn.get_call_template(args, {})
        n += 1
    return n


def kernel_cached() -> bool:
    """Whether the batch kernel is loaded here or waits in numba's on-disk cache."""
    from ccsim.kernel.simulate import play_specs_block_nb
    from ccsim.toolchain.cache import on_disk
    return bool(play_specs_block_nb.signatures) or on_disk(play_specs_block_nb)


def _wanted() -> bool:
    """A helper can help: allowed, a second core, compiled code, and a disk cache it can write
    (without one, this process would wait for a compile it cannot use)."""
    from ccsim.toolchain.cache import engine_folder, plain_numba
    # (plain numba caches callees as machine code, which the kernel's compile here does not reuse)
    return (os.environ.get("CCSIM_COMPILE_BESIDE", "1") not in ("0", "") and not plain_numba()
            and (os.cpu_count() or 1) > 1 and not _jit_disabled() and os.access(engine_folder(), os.W_OK))


def _jit_disabled() -> bool:
    import numba
    return bool(numba.config.DISABLE_JIT)


def _start_helper() -> subprocess.Popen | None:
    env = dict(os.environ, CCSIM_COMPILE_BESIDE="0")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    try:
        return subprocess.Popen([sys.executable, "-c", _HELPER], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None


@contextlib.contextmanager
def kernel_beside():
    """Inside the block the batch kernel compiles in a helper process (if it needs
    compiling and a second core is there).  After the block this process compiles the
    kernel's late parts until the helper is done, then waits for it.  Leaving the block by
    an exception stops the helper."""
    helper = _start_helper() if _wanted() and not kernel_cached() else None
    try:
        yield
        if helper is not None:
            from ccsim.toolchain.notice import KERNEL_SECONDS, compiling
            with compiling("the kernel", KERNEL_SECONDS):  # (the helper's compile, said on stderr)
                _share_the_work(helper)
                helper.wait()
    except BaseException:
        if helper is not None:
            helper.kill()
            helper.wait()
        raise


def _share_the_work(helper) -> None:
    try:
        compile_late_parts(done=lambda: helper.poll() is not None)
    except Exception:  # only a shorter start is at stake: the kernel's own compile reports errors
        pass
