"""``njit`` for ccsim's kernels, and arrays on the stack.

Seven costs of numba's defaults that the game kernel does not need:

* **Literal and width specialisation.**  numba types a constant argument of
  a call between compiled functions as a literal (``Literal[int](3)``) and
  compiles a separate specialisation of the callee for every distinct
  constant, and one for every integer width it is called with.  The engine
  passes decision kinds, event codes and seat numbers as constants, and
  values read from its int32 state as often as int64 ones, so ``log_nb``
  alone was compiled 15 times and every strategy once per decision kind: 188
  compilations where 86 functions exist, most of a cold start.  Calls through
  this decorator pass every signed integer as a plain ``int64``, so each
  function compiles once.  LLVM still propagates the constants after inlining.
* **Reference counting.**  Every array view made or passed in compiled code
  is reference counted with atomic operations, shared between threads for
  the arrays every block reads (the rules, the seat parameters): measured at
  a quarter of a greedy game's time.  The kernel's functions never own
  memory (the batch loops allocate once per block), so ``njit`` compiles
  without numba's runtime (NRT) unless told ``nrt=True``; scratch
  arrays come from ``stack_array`` instead of ``np.empty``.
* **Separately linked callees.**  numba links each callee into its caller's
  LLVM module as a ``linkonce_odr`` function, which LLVM may inline but whose
  calling convention (every array as seven values) it must keep; most of the
  engine's and the strategies' small functions stayed calls.  A kernel at the
  top of the call tree is compiled as a whole program (``whole=True``,
  ``whole_program``): its callees become internal and LLVM inlines them.
* **Optimising every level of the call tree.**  numba runs LLVM's full
  optimisation on each function's module with all its callees linked in, so
  the engine's code was optimised once for every separately compiled function
  above it.  Only the entries (whole programs, functions called from Python)
  get the full suite now; callees get the cheap passes (``_optimize_final_module``).
* **Machine code nobody calls.**  numba also turns every callee into machine
  code, with a Python wrapper and a C wrapper, though only its LLVM IR is ever
  used (linked into its callers, whose own machine code holds it): a third of
  a cold start.  A function first compiled for a compiled caller is compiled
  to IR only (``_compile_callees_without_code``) and cached as that IR (LLVM
  bitcode; numba caches object code only), so another process's compile
  loads it (``ccsim.runner.coldstart`` builds on that); one that Python calls later
  is compiled again then, as an entry.  ``CCSIM_CALLEE_CODE=1`` restores
  numba's way.
* **Inlining by copying numba IR.**  ``inline="always"`` copies a function's
  numba IR into every call site, where it is typed and lowered again; the
  engine's small index helpers are called from hundreds of places.  They say
  ``forceinline=True`` instead (LLVM's ``alwaysinline``: compiled once, inlined
  by LLVM), and no function inherits that from its caller.
* **A full refresh to load from the cache.**  Before loading a compiled
  function from the disk cache numba refreshes every typing and lowering
  registry, which imports its whole numpy support: a second of a warm start.
  Loaded machine code needs only the runtime (``_load_overload``); a compile
  still refreshes them when it needs them.

Use ``njit`` like ``numba.njit``; strategy plug-ins should too.
"""
import contextlib
import os

import numba
import numpy as np
from llvmlite import binding as ll
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.dispatcher import Dispatcher
from numba.core.environment import lookup_environment
from numba.extending import intrinsic

from ccsim.toolchain.cache import cache_dir_for, plain_numba

# The replacements of numba's internals below apply only to the numba releases they were
# tested on (ccsim.toolchain.cache.TESTED_NUMBA); elsewhere, or with CCSIM_PLAIN_NUMBA=1, numba runs
# as it is: the same games, slower to compile and to run (results/BENCHMARKS-history.md).
PLAIN = plain_numba()


def njit(*args, nrt=False, whole=False, **kwargs):
    """``numba.njit`` dispatching on unliteral types; without NRT unless ``nrt``.

    A function that allocates arrays (``np.zeros``, ...) or returns a new
    view of an array must say ``nrt=True``; one that allocates must not hand
    the array to a caller compiled without NRT (nobody would free it).
    ``whole=True`` compiles it as a whole program (see ``whole_program``): for
    the kernels at the top of the call tree.
    """
    if not nrt:
        kwargs["_nrt"] = False
    kwargs.setdefault("forceinline", False)  # said per function: never inherited from a caller

    if len(args) == 1 and callable(args[0]):  # @njit without arguments
        return njit(nrt=nrt, whole=whole, **kwargs)(args[0])

    def wrap(fn):
        with cache_dir_for(fn.__module__):  # numba fixes the cache path now (ccsim.toolchain.cache)
            dispatcher = numba.njit(*args, **kwargs)(fn)
        if PLAIN:
            return dispatcher
        dispatcher = _generic(dispatcher)
        return _as_whole_program(dispatcher) if whole else dispatcher
    return wrap


def _as_whole_program(dispatcher):
    if not isinstance(dispatcher, Dispatcher):  # NUMBA_DISABLE_JIT
        return dispatcher
    compile_one = dispatcher.compile

    def compile_whole(sig):
        with whole_program(dispatcher.py_func.__name__):
            return compile_one(sig)

    dispatcher.compile = compile_whole
    return dispatcher


def _plain(t):
    """The type a compiled call passes ``t`` as: no literals, and every signed integer as int64
    (the value is the same; a function called with an int32 from the state vector in one
    place and an int64 in another compiles once)."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
        return types.int64
    return t


def _generic(dispatcher):
    if not isinstance(dispatcher, Dispatcher):  # NUMBA_DISABLE_JIT: a plain function
        return dispatcher
    resolve = dispatcher.get_call_template
    dispatcher._ccsim_as_callee = 0

    def get_call_template(args, kws):  # typing a call from compiled code: compiled as a callee
        dispatcher._ccsim_as_callee += 1
        try:
            return resolve(tuple(_plain(a) for a in args), {k: _plain(v) for k, v in kws.items()})
        finally:
            dispatcher._ccsim_as_callee -= 1

    dispatcher.get_call_template = get_call_template
    dispatcher._compile_for_args = _entry_compile(dispatcher)
    if not _CALLEE_CODE:
        _compile_callees_without_code(dispatcher)
    return dispatcher


def _entry_compile(dispatcher):
    """The dispatcher's compile for a call from Python: an entry (see _optimize_final_module),
    compiled with its machine code and wrappers even where it was a callee so far."""
    compile_for_args = dispatcher._compile_for_args

    def _compile_for_args(*args, **kws):
        _ENTRIES.add(dispatcher.py_func.__name__)
        for sig, cres in list(dispatcher.overloads.items()):
            if isinstance(cres.entry_point, _NoCode):
                del dispatcher.overloads[sig]
        return compile_for_args(*args, **kws)
    return _compile_for_args


class _NoCode:
    """The entry point of a function compiled only to be linked into its callers (the key
    its callers' calls are lowered by): it has no machine code and Python cannot call it."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def _compile_callees_without_code(dispatcher):
    """Compile this function, where compiled code calls it, as LLVM IR only (see the module
    docstring): no machine code, no Python or C wrapper; its IR goes to the disk cache."""
    compiler = dispatcher._compiler
    customize = compiler._customize_flags
    compile_one = compiler.compile

    def customize_flags(flags):
        flags = customize(flags)
        if dispatcher._ccsim_as_callee:
            flags.no_compile = True
            flags.no_cpython_wrapper = True
            flags.no_cfunc_wrapper = True
        return flags

    def compile_ir(args, return_type):
        cres = compile_one(args, return_type)
        if dispatcher._ccsim_as_callee and cres.entry_point is None and not cres.objectmode:
            _mark_ir_only(cres.library)
            cres = cres._replace(entry_point=_NoCode(cres.fndesc.mangled_name))
            dispatcher.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
        return cres

    add_overload = dispatcher.add_overload

    def add_overload_unless_ir(cres):
        if isinstance(cres.entry_point, _NoCode):  # for compiled callers only: not in the C table
            dispatcher.overloads[tuple(cres.signature.args)] = cres
        else:
            add_overload(cres)

    cache = dispatcher._cache
    load_overload = cache.load_overload

    def load_for_this_use(sig, target_context):  # an entry must not load a callee's IR-only code
        cres = load_overload(sig, target_context)
        if cres is not None and isinstance(cres.entry_point, _NoCode) and not dispatcher._ccsim_as_callee:
            return None
        return cres

    compiler._customize_flags = customize_flags
    compiler.compile = compile_ir
    dispatcher.add_overload = add_overload_unless_ir
    cache.load_overload = load_for_this_use


def _mark_ir_only(library):
    """A library of a callee compiled to IR only: finalized without machine code, and cached
    as its LLVM bitcode (numba's cache keeps object code; this library has none)."""
    library._ccsim_ir_only = True
    library.serialize_using_object_code = library.serialize_using_bitcode


def stack_array(dtype, shape, zeroed=True):
    """A compiled-code function ``f()`` that returns a zeroed C-ordered array of
    ``dtype`` and the constant ``shape``, on the stack of the function that
    calls it: no allocation, no reference count.  It lives as long as that
    function's call; never return it.  In interpreted mode it is ``np.zeros``.

    ``zeroed=False`` skips the zeroing, for callers that never read an element
    before writing it.  In interpreted mode such an array starts full of NaN
    (or -2**31 for integers), so that a read before a write changes the
    results, and the compiled-against-interpreted test finds it.
    """
    shape = tuple(int(d) for d in shape)
    if numba.config.DISABLE_JIT:
        if zeroed:
            return lambda: np.zeros(shape, dtype)
        garbage = np.nan if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min
        return lambda: np.full(shape, garbage, dtype)
    arrty = types.Array(numba.from_dtype(np.dtype(dtype)), len(shape), "C")
    size = int(np.prod(shape))

    @intrinsic
    def make(typingctx):
        def codegen(context, builder, sig, args):
            el = context.get_data_type(arrty.dtype)
            itemsize = context.get_abi_sizeof(el)
            buf = cgutils.alloca_once(builder, el, size=size)  # in the entry block: once per call
            if zeroed:
                cgutils.memset(builder, buf, ir.Constant(ir.IntType(64), size * itemsize), 0)
            strides, step = [], itemsize
            for d in reversed(shape):
                strides.insert(0, step)
                step *= d
            intp = lambda v: context.get_constant(types.intp, v)  # noqa: E731
            return _array_at(context, builder, arrty, buf, [intp(d) for d in shape], [intp(s) for s in strides])
        return arrty(), codegen

    return make


def _array_at(context, builder, arrty, data, shape, strides):
    """Codegen: an array of type ``arrty`` over ``data`` with these shape and strides (LLVM
    values), owning nothing (no meminfo): what stack_array, f64_view and pointer_array return."""
    ary = context.make_array(arrty)(context, builder)
    itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(arrty.dtype)))
    context.populate_array(ary, data=data, shape=shape, strides=strides, itemsize=itemsize, meminfo=None)
    return ary._getvalue()


def _f64_view_py(a, start, n):
    return a[start:start + 2 * n].view(np.float64)


@intrinsic
def _f64_view_nb(typingctx, a, start, n):
    arrty = types.Array(types.float64, 1, "C")

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, args[0])
        first = context.cast(builder, args[1], sig.args[1], types.intp)
        count = context.cast(builder, args[2], sig.args[2], types.intp)
        data = builder.bitcast(builder.gep(src.data, [first]), context.get_data_type(types.float64).as_pointer())
        return _array_at(context, builder, arrty, data, [count], [context.get_constant(types.intp, 8)])
    return arrty(a, start, n), codegen


# f64_view(a, start, n): the n float64 values stored in the int32 array ``a`` from
# ``a[start]`` on (two slots each), as a view: how a strategy keeps exact floats in its
# int32 memory (``mem``).  ``start`` must be even and ``a`` 8-byte aligned (``layout.MEM``
# is even).  No reference count: use it only while ``a`` lives; never return it.
f64_view = _f64_view_py if numba.config.DISABLE_JIT else _f64_view_nb


@intrinsic
def pointer_array(typingctx, ptr, n):
    """The 1-d array of the ``n`` values at C pointer ``ptr`` (compiled code only): numba's
    ``carray`` without the reference-counted runtime, for entries compiled without NRT."""
    arrty = types.Array(ptr.dtype, 1, "C")

    def codegen(context, builder, sig, args):
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(ptr.dtype)))
        count = context.cast(builder, args[1], sig.args[1], types.intp)
        return _array_at(context, builder, arrty, args[0], [count], [itemsize])
    return arrty(ptr, n), codegen


_WHOLE: list[str] = []      # the libraries being compiled as whole programs (markers), innermost last
_ENTRIES: set[str] = set()  # functions called from Python: optimized in full on their own
# CCSIM_FULL_CALLEE_OPT=1: numba's own way, every library optimized in full (for benchmarks
# of this choice; the code computes the same either way)
_LIGHT_CALLEES = os.environ.get("CCSIM_FULL_CALLEE_OPT", "") in ("", "0")
# CCSIM_CALLEE_CODE=1: numba's way, machine code, wrappers and a cache entry for every function
_CALLEE_CODE = os.environ.get("CCSIM_CALLEE_CODE", "") not in ("", "0")


def _optimize_final_module(self):
    """numba's final optimisation of a code library, by what the library is.

    * A whole program (``whole_program``: the block kernel, the strategies' C
      entries): its callees internal, then the full optimisation.
    * An entry, a function first compiled for a call from Python: the full
      optimisation, as numba does.
    * Any other function is compiled to be linked into its callers, whose own
      final optimisation covers its code again: the cheap passes only.  numba
      would run the full suite at every level of the call tree on everything
      below it, again and again.  A callee that Python also calls (a test, the
      Game API) runs its cheaper code there; it computes the same thing.
    """
    marker = next((m for m in reversed(_WHOLE) if m in self.name), None)
    if marker is not None:
        for fn in self._final_module.functions:
            if not fn.is_declaration and marker not in fn.name:
                fn.linkage = ll.Linkage.internal
                # and a name of its own: the JIT resolves other modules' calls by name,
                # whatever the linkage, and this copy's arguments may change
                fn.name = f"{marker}.{fn.name}"
    if marker is not None or self.name in _ENTRIES or not _LIGHT_CALLEES:
        return _NUMBA["_optimize_final_module"](self)
    mpm, mpb = self._codegen._module_pass_manager(loop_vectorize=self._codegen._loopvect, slp_vectorize=False,
                                                  opt=self._codegen._opt_level, cost="cheap")
    mpm.run(self._final_module, mpb)


def _finalize_final_module(self):
    """numba's last step of a code library, but no machine code for one that is only linked
    into its callers (``_compile_callees_without_code``); and an entry's code gets the
    environments of the callees linked into it, which no callee's own code sets now."""
    if getattr(self, "_ccsim_ir_only", False):
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True
        return
    _NUMBA["_finalize_final_module"](self)
    for gv in self._final_module.global_variables:
        if gv.name.startswith("_ZN08NumbaEnv") and not gv.is_declaration:
            env = lookup_environment(gv.name)
            if env is not None:
                self._codegen.set_env(gv.name, env)


def _unserialize(cls, codegen, state):
    """numba's cache load of a code library; a callee's bitcode (``_mark_ir_only``: numba
    itself caches object code only) becomes an IR-only library again."""
    name, kind, data = state
    if kind != "bitcode":
        return _NUMBA["_unserialize"].__func__(cls, codegen, state)
    self = codegen.create_library(name)
    _mark_ir_only(self)
    self._final_module = ll.parse_bitcode(data)
    self._finalize_final_module()
    return self


def _get_executable(self, library, fndesc, env):
    """numba's Python-callable function of a compiled library; an IR-only library has none
    (its callers' calls are lowered by the key this returns)."""
    if getattr(library, "_ccsim_ir_only", False):
        return _NoCode(fndesc.mangled_name)
    return _NUMBA["get_executable"](self, library, fndesc, env)


def _set_env(self, env_name, env):
    """numba's setting of an environment's address in the JIT; an IR-only library's own
    environment is not there (the entries it is linked into set theirs)."""
    if self._engine.get_global_value_address(env_name):
        _NUMBA["set_env"](self, env_name, env)


def _load_overload(self, sig, target_context):
    """numba's load of a compiled function from the disk cache, without first refreshing
    every typing and lowering registry (importing numba's whole numpy support: a third of a
    warm start).  Loaded machine code needs only the runtime (NRT) set up; a compile
    refreshes the registries itself when it needs them."""
    from numba.core.runtime import rtsys
    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


_NUMBA: dict = {}  # numba's own methods that the functions above replace, by name (they call them)


def _replace(owner, name, ours, wrap=lambda f: f) -> None:
    """Put ``ours`` (wrapped, as a classmethod needs) in place of numba's ``owner.name``, once."""
    current = vars(owner)[name]
    theirs = getattr(current, "__func__", current)
    if theirs is ours:
        return
    if getattr(theirs, "__module__", "").startswith("ccsim"):
        # another copy of this module already replaced it (two checkouts in one process, e.g. an
        # editable install beside PYTHONPATH): stacked, each would undo the other's whole
        # programs, silently slowing every strategy entry about twofold
        raise ImportError(f"numba's {owner.__name__}.{name} is already replaced by {theirs.__module__} "
                          f"({theirs.__code__.co_filename}): two copies of ccsim in one process")
    _NUMBA[name] = current
    setattr(owner, name, wrap(ours))


def _install_optimizer():
    from numba.core.caching import Cache
    from numba.core.codegen import CPUCodeLibrary, JITCPUCodegen
    from numba.core.cpu import CPUContext
    _replace(CPUCodeLibrary, "_optimize_final_module", _optimize_final_module)
    _replace(CPUCodeLibrary, "_finalize_final_module", _finalize_final_module)
    _replace(CPUCodeLibrary, "_unserialize", _unserialize, classmethod)
    _replace(CPUContext, "get_executable", _get_executable)
    _replace(JITCPUCodegen, "set_env", _set_env)
    _replace(Cache, "load_overload", _load_overload)


if not PLAIN:
    _install_optimizer()


@contextlib.contextmanager
def whole_program(marker: str):
    """Compile the code library whose name contains ``marker`` as a whole program.

    numba links every callee into a caller's LLVM module with ``linkonce_odr``
    linkage, so LLVM may inline a callee but must keep its calling convention:
    each call passes every array as seven separate values.  Inside this context
    the library named ``marker`` gets its callees as *internal* functions before
    its final optimisation, all but the functions named after ``marker`` itself
    (the entry points): LLVM then inlines callees with one call site and drops
    unused arguments.  Only the code changes; it computes the same thing.
    """
    _WHOLE.append(marker)
    try:
        yield
    finally:
        _WHOLE.pop()
