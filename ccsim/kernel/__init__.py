"""The game kernel, compiled: the rules' constants (``rules``), the one int32 state
vector (``layout``), decisions, observation (R8), the random streams (``rng``), the
engine (``engine/``: the rules, step by step) and the batch kernel (``simulate``).
It imports only the toolchain; strategies plug in by address."""
