"""The numba toolchain: ccsim's ``njit`` and its replacements of numba internals
(``jit``), the source-keyed compile cache (``cache``), the strategies' C entries and the
engine's call through them (``entry``) and the compiling notices (``notice``).  The only code that touches numba's internals; it imports nothing of ccsim."""
