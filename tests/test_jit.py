"""ccsim.toolchain.jit (one compilation per argument type, stack scratch arrays) and the
strategy entries of strategies.registry (compiled on demand, called by address)."""
import numba
import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.kernel.engine.episode import play_seeded_nb, result_row_nb, N_RESULT, R_ERROR
from ccsim.toolchain.jit import njit, stack_array, f64_view, pointer_array
from conftest import make_rules, make_orders
from strategies.heuristics.greedy import ID as GREEDY
from strategies.registry import RANDOM, entry_slot, resolve


def _callee(x, k):
    return x + k


def _caller_of(callee):
    def caller(x):
        return callee(x, 1) + callee(x, 2) + callee(x, 3)
    return caller


def test_constant_arguments_compile_once():
    """A callee handed three different constants compiles one int64 version, not three."""
    ours = njit(_callee)
    assert njit(_caller_of(ours))(10) == 36
    assert len(ours.signatures) == 1
    plain = numba.njit(_callee)  # the default this module exists to avoid
    numba.njit(_caller_of(plain))(10)
    assert len(plain.signatures) == 3


def _widths_caller(callee):
    def caller(a, x):
        return callee(a[0], 1) + callee(x, 2) + callee(np.int8(x), 3)
    return caller


def test_signed_integers_of_every_width_compile_once():
    """A callee given an int32 from an array, an int64 and an int8 compiles one int64 version,
    with the values it was given; unsigned integers keep their type (the random streams)."""
    ours = njit(_callee)
    assert njit(_widths_caller(ours))(np.array([-7], np.int32), 5) == (-7 + 1) + (5 + 2) + (5 + 3)
    assert ours.signatures == [(numba.int64, numba.int64)]
    un = njit(_callee)
    njit(lambda a: un(a[0], 1))(np.array([2**63 + 5], np.uint64))
    assert un.signatures == [(numba.uint64, numba.int64)]


def test_functions_called_from_python_are_entries_and_callees_are_not():
    from ccsim.toolchain import jit
    callee = njit(_callee)
    caller = njit(_caller_of(callee))
    caller(1)
    assert caller.py_func.__name__ in jit._ENTRIES and "_callee" not in jit._ENTRIES


def _checked_half(x):
    if x % 2 != 0:
        raise ValueError("odd")
    return x // 2


def _halves_of(callee):
    def caller(x):
        return callee(x) + callee(x + 2)
    return caller


def test_callees_are_compiled_to_ir_only_and_become_entries_when_python_calls_them():
    """A function first compiled for a compiled caller gets no machine code and no wrapper
    (its code lives on in the caller); called from Python later, it is compiled as an entry
    and computes the same.  An exception raised in such a callee reaches Python."""
    from ccsim.toolchain import jit
    callee = njit(_checked_half)
    caller = njit(_halves_of(callee))
    assert caller(4) == 2 + 3
    ((sig, cres),) = callee.overloads.items()
    assert isinstance(cres.entry_point, jit._NoCode) and cres.library._ccsim_ir_only
    with pytest.raises(ValueError, match="odd"):
        caller(3)  # raised in the callee's code inside the caller
    assert callee(8) == 4  # now an entry of its own
    assert not isinstance(callee.overloads[sig].entry_point, jit._NoCode)
    with pytest.raises(ValueError, match="odd"):
        callee(9)
    assert caller(6) == 3 + 4


_CALLEES_MODULE = """
from ccsim.toolchain.jit import njit

@njit(cache=True)
def half(x):
    if x % 2 != 0:
        raise ValueError("odd")
    return x // 2

@njit(cache=True)
def first(x):
    return half(x) + 1

@njit(cache=True)
def second(x):
    return half(x) * 3
"""

_SECOND_PROCESS = """
import json
from ccsim.toolchain import jit
import callees
out = {"second": callees.second(4)}
(cres,) = callees.half.overloads.values()
out["loaded_ir_only"] = callees.half.stats.cache_hits.most_common(1)[0][1] == 1 and isinstance(cres.entry_point, jit._NoCode)
try:
    callees.second(5)
except ValueError as e:
    out["raised"] = str(e)
out["half"] = callees.half(8)
print(json.dumps(out))
"""


@pytest.mark.slow
def test_a_callee_compiled_to_ir_only_is_cached_as_ir_for_the_next_process(tmp_path):
    """A callee's IR goes to the disk cache: another process compiling another caller loads
    it (no machine code is made for it there either) and the caller computes the same; a
    Python call of the callee there compiles an entry of its own, not the cached IR."""
    import json
    import os
    import subprocess
    import sys
    (tmp_path / "callees.py").write_text(_CALLEES_MODULE)
    env = dict(os.environ, CCSIM_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    first = subprocess.run([sys.executable, "-c", "import callees; print(callees.first(4))"], env=env, check=True,
                           capture_output=True, text=True)
    assert first.stdout.strip() == "3"
    done = subprocess.run([sys.executable, "-c", _SECOND_PROCESS], env=env, check=True, capture_output=True,
                          text=True)
    assert json.loads(done.stdout) == {"second": 6, "loaded_ir_only": True, "raised": "odd", "half": 4}


_four = stack_array(np.int64, (4,))


@njit
def _sums(n):
    total = 0
    for i in range(n):
        a = _four()  # fresh and zeroed on every call, though the stack slot is the same
        a[i % 4] += i + 1
        total += a.sum()
    return total


def test_stack_array_is_zeroed_at_every_call():
    assert _sums(10) == sum(range(1, 11))
    assert _sums(10) == _sums(10)


def test_random_needs_no_entry_and_entries_are_stable():
    assert entry_slot(RANDOM) == 0.0
    sid, params = resolve("greedy")
    assert sid == GREEDY and params[L.P_ENTRY] != 0.0
    assert resolve("greedy")[1][L.P_ENTRY] == params[L.P_ENTRY]  # compiled once per process


def test_a_seat_without_an_entry_stops_the_game_with_an_error(compiled):
    """A strategy seat whose parameters did not come from registry.resolve: a named error, no crash."""
    sp = np.stack([resolve("greedy")[1]] * 2)
    sp[1, L.P_ENTRY] = 0.0
    st = np.zeros(L.BASE_SIZE, np.int32)
    row = np.zeros(N_RESULT, np.int16)
    play_seeded_nb(st, np.zeros(L.N_RNG, np.uint64), sp, make_rules(), np.array([GREEDY, GREEDY], np.int64),
                   np.int64(1), np.int64(0), make_orders())
    result_row_nb(st, row)
    assert row[R_ERROR] == L.ERR_NO_STRATEGY


@njit
def _through_f64_view(a, x):
    v = f64_view(a, 2, 3)
    v[1] = x
    return v[1] + v[0] + v[2]


def test_f64_view_keeps_exact_floats_in_int32_memory():
    """f64_view: float64 values stored two int32 slots each, read back bit for bit, in place."""
    a = np.zeros(10, np.int32)
    assert _through_f64_view(a, 0.1) == 0.1
    assert a[:2].sum() == 0 and a[8:].sum() == 0 and a[4:6].any()  # slots 4..5 hold v[1]
    np.testing.assert_array_equal(a[2:8].view(np.float64), [0.0, 0.1, 0.0])


def test_pointer_array_views_c_memory():
    """pointer_array: the array at a C pointer, without numba's reference-counted runtime."""
    from numba import cfunc, types

    @cfunc(types.int64(types.CPointer(types.int64), types.int64), _nrt=False)
    def total(ptr, n):
        return pointer_array(ptr, n).sum()
    data = np.arange(7, dtype=np.int64)
    assert total.ctypes(data.ctypes.data_as(total.ctypes.argtypes[0]), 7) == 21


_INTERPRETED_GAMES = """
import sys, numpy as np
from ccsim.runner.config import RunConfig
from ccsim.kernel.simulate import simulate_rows
out = {}
for pair in sys.argv[2:]:
    a, b = pair.split(":")
    cfg = RunConfig(cleopatra=a, caesar=b, games=int(sys.argv[1]), seed=7)
    _, sids, sp, codes, _ = cfg.seats(False)
    out[pair] = simulate_rows(cfg.seed, 0, cfg.games, cfg.rules_vector(), sids, sp, codes)
np.savez(sys.stdout.buffer, **out)
"""


def test_compiled_and_interpreted_code_play_the_same_games(compiled):
    """The kernels compiled and run as plain Python (NUMBA_DISABLE_JIT=1) play the very same
    games, every strategy in a seat.  Interpreted, the strategies' unzeroed tables
    (``stack_array(..., zeroed=False)``) start full of NaN: a table entry read before it is
    written would change a game here, where compiled code would read whatever the stack held."""
    import io
    import os
    import subprocess
    import sys
    from ccsim.runner.config import RunConfig
    from ccsim.kernel.simulate import simulate_rows
    from strategies.registry import available
    # (search players are left out: interpreted, a search of 64 games a decision takes hours;
    # what they run is the engine and the tactician, both played here)
    names = [s["name"] for s in available() if s["name"] != "random" and s["family"] != "search"]
    pairs = [f"{a}:{b}" for a, b in zip(names, names[1:] + names[:1])] + ["random:random"]
    games = 6
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", _INTERPRETED_GAMES, str(games), *pairs], env=env,
                          capture_output=True, check=True)
    interpreted = np.load(io.BytesIO(done.stdout))
    for pair in pairs:
        a, b = pair.split(":")
        cfg = RunConfig(cleopatra=a, caesar=b, games=games, seed=7)
        _, sids, sp, codes, _ = cfg.seats(False)
        rows = simulate_rows(cfg.seed, 0, games, cfg.rules_vector(), sids, sp, codes)
        np.testing.assert_array_equal(rows, interpreted[pair], err_msg=pair)


def test_a_second_copy_of_the_toolchain_is_refused_not_stacked():
    # two checkouts in one process (an editable install beside PYTHONPATH) once stacked their
    # replacements of numba's methods and silently halved every strategy entry's speed
    from ccsim.toolchain import jit

    def theirs(self):
        pass
    theirs.__module__ = "ccsim.jit"  # another copy's replacement

    class Owner:
        method = theirs

    with pytest.raises(ImportError, match="two copies of ccsim in one process"):
        jit._replace(Owner, "method", lambda self: None)

    def numbas(self):
        pass

    class Plain:
        method = numbas

    jit._replace(Plain, "method", theirs)  # numba's own method: replaced, and kept for calling
    assert Plain.method is theirs and jit._NUMBA.pop("method") is numbas
