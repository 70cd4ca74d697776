"""C-callable entries: how a strategy, compiled on its own, is reached from the engine.

A strategy is compiled into a numba ``cfunc`` (``compile_entry``); its address travels as a
float64, bit for bit, in the seat's parameter vector; the engine reads it back
(``entry_address``) and calls through it (``call_entry``).  Both calls are LLVM code of
our own (llvmlite) and the compile passes a private argument of numba's (``_nrt``): numba's
business, so here, in the toolchain.
"""
from llvmlite import ir
from numba import cfunc, types
from numba.extending import intrinsic


def compile_entry(signature, fn) -> int:
    """The address of ``fn`` compiled (or loaded from numba's disk cache) as a C function of
    ``signature``.  Without numba's runtime: an entry gets raw pointers and owns no memory, and
    reference counting would cost it a quarter of its time (``ccsim.toolchain.jit``)."""
    return cfunc(signature, cache=True, _nrt=False)(fn).address


@intrinsic
def entry_address(typingctx, slot):
    """The address stored bit for bit in a float64 parameter slot."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def call_entry(typingctx, address, st, rng, params, me, kind, n):
    """Call the entry at ``address`` on these arrays: (state pointer, state length, streams,
    parameters, seat, decision kind, number of options) -> option index (the engine's ENTRY_SIG)."""
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        arrays = [context.make_array(t)(context, builder, v) for t, v in zip(sig.args[1:4], args[1:4])]
        st_a, rng_a, params_a = arrays
        ints = [context.cast(builder, v, t, types.int64) for t, v in zip(sig.args[4:], args[4:])]
        fnty = ir.FunctionType(i64, [st_a.data.type, i64, rng_a.data.type, params_a.data.type, i64, i64, i64])
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        n_st = builder.extract_value(st_a.shape, 0)
        return builder.call(fn, [st_a.data, n_st, rng_a.data, params_a.data, *ints])
    return types.int64(address, st, rng, params, me, kind, n), codegen
