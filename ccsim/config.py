"""What a run is: strategies, orderings, variants, games, seed — validated once.

A ``RunConfig`` comes from CLI flags, a Python call or a TOML file; every
invalid value raises ``ConfigError`` with one line naming the problem.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np

from ccsim import rules as R
from ccsim.layout import MAX_PARAMS
from ccsim.orderings import OrderingError, parse_ordering, to_codes, SHUFFLED
from strategies.registry import resolve, strategy_id

MAX_GAMES = 10**10  # beyond this a run would take days; almost surely a typo
MAX_THREADS = 256
BACKENDS = ("local", "dask")
# s to wait for a Dask scheduler and a worker: a running scheduler answers in milliseconds, and
# a command given an unreachable one ends within about 6 s (imports included), not Dask's 30
DEFAULT_CONNECT_TIMEOUT = 3.0
MAX_CONNECT_TIMEOUT = 86_400.0


class ConfigError(ValueError):
    """A run configuration that cannot be run (a usage error: exit status 2)."""


@dataclass(frozen=True)
class RunConfig:
    games: int = 100_000
    seed: int = 1
    cleopatra: str = "greedy"
    caesar: str = "greedy"
    cleopatra_order: str = SHUFFLED
    caesar_order: str = SHUFFLED
    variants: tuple[str, ...] = ()
    swap_seats: bool = False
    threads: int = 0            # 0: numba's default (all cores)
    chunk_size: int | None = None  # games per task; None: the backend's choice (ccsim.backends)
    record: str | None = None   # JSONL path for game records
    record_games: int | None = None
    out: str | None = None      # Parquet output folder
    backend: str = "local"      # "local" (numba threads) or "dask"
    scheduler: str | None = None  # Dask scheduler address; none: a local cluster
    workers: int = 0            # Dask local cluster workers (0: 2)
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT  # s to wait for the scheduler and a worker
    rules: dict = field(default_factory=dict)  # overrides of the rules vector, by rules.RULE_PARAM_NAMES

    def validated(self) -> "RunConfig":
        """A copy with orderings in canonical form; raises ConfigError."""
        if not isinstance(self.games, int) or self.games <= 0:
            raise ConfigError(f"games must be a positive integer, got {self.games!r}")
        if self.games > MAX_GAMES:
            raise ConfigError(f"games={self.games} is absurd (at most {MAX_GAMES})")
        if not isinstance(self.seed, int) or self.seed < 0 or self.seed >= 2**63:
            raise ConfigError(f"seed must be an integer in 0 .. 2**63-1, got {self.seed!r}")
        if not isinstance(self.threads, int) or not 0 <= self.threads <= MAX_THREADS:
            raise ConfigError(f"threads must be 0 (all cores) .. {MAX_THREADS}, got {self.threads!r}")
        if self.chunk_size is not None and (not isinstance(self.chunk_size, int)
                                            or not 1 <= self.chunk_size <= 10**7):
            raise ConfigError(f"chunk_size must be 1 .. 10000000, got {self.chunk_size!r}")
        for seat in ("cleopatra", "caesar"):
            try:
                strategy_id(getattr(self, seat))
            except KeyError as e:
                raise ConfigError(f"--{seat}: {e.args[0]}") from None
        orders = {}
        for seat in ("cleopatra_order", "caesar_order"):
            try:
                orders[seat] = parse_ordering(getattr(self, seat))
            except OrderingError as e:
                raise ConfigError(f"--{seat.replace('_', '-')}: {e}") from None
        for v in self.variants:
            if v not in R.VARIANTS:
                raise ConfigError(f"unknown variant {v!r} (known: {', '.join(R.VARIANTS)})")
        check_backend_flags(self.backend, self.scheduler, self.workers, self.connect_timeout)
        if self.record_games is not None and (not isinstance(self.record_games, int) or self.record_games < 0):
            raise ConfigError(f"record_games must be a non-negative integer, got {self.record_games!r}")
        cfg = replace(self, variants=tuple(dict.fromkeys(self.variants)), **orders)
        cfg.rules_vector()  # validates rule overrides
        return cfg

    # -- what the kernel receives ------------------------------------------
    def rules_vector(self) -> np.ndarray:
        rules = R.DEFAULT_RULES.copy()
        for name, value in self.rules.items():
            if name not in R.RULE_PARAM_NAMES or name == "variants":
                raise ConfigError(f"unknown rule parameter {name!r} (known: {', '.join(R.RULE_PARAM_NAMES)})")
            rules[R.RULE_PARAM_NAMES[name]] = int(value)
        for v in self.variants:
            rules[R.RP_VARIANTS] |= R.VARIANTS[v]
        validate_rules(rules)
        return rules

    def seats(self, swapped: bool = False):
        """(strategy names, sids, params, orders) for the two seats, swapped if asked."""
        names = [self.cleopatra, self.caesar]
        orders = [self.cleopatra_order, self.caesar_order]
        if swapped:
            names.reverse()
            orders.reverse()
        sids = np.zeros(2, np.int64)
        sp = np.zeros((2, MAX_PARAMS), np.float64)
        for p, n in enumerate(names):
            sids[p], sp[p] = resolve(n)
        codes = np.full((2, R.ACTION_DECK_SIZE), -1, np.int8)
        for p, o in enumerate(orders):
            if o != SHUFFLED:
                codes[p] = to_codes(o)
        return names, sids, sp, codes, orders


def check_backend_flags(backend, scheduler, workers, connect_timeout) -> None:
    """Refuse backend settings that cannot name one backend (ConfigError); the address
    itself is checked when the backend connects (ccsim.backends)."""
    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend {backend!r} ({', '.join(BACKENDS)})")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= MAX_THREADS:
        raise ConfigError(f"workers must be 0 .. {MAX_THREADS}, got {workers!r}")
    if (isinstance(connect_timeout, bool) or not isinstance(connect_timeout, (int, float))
            or not 0 < connect_timeout <= MAX_CONNECT_TIMEOUT):
        raise ConfigError(f"connect_timeout must be seconds in (0, {MAX_CONNECT_TIMEOUT:g}], got {connect_timeout!r}")
    if scheduler is not None and not (isinstance(scheduler, str) and scheduler.strip()):
        raise ConfigError(f"scheduler must be an address such as tcp://host:8786, got {scheduler!r}")
    if backend == "local" and (scheduler or workers):
        raise ConfigError(f"--{'scheduler' if scheduler else 'workers'} needs --backend dask")
    if scheduler and workers:
        raise ConfigError("--scheduler joins a running cluster, --workers starts a local one: give one of them")


def validate_rules(rules: np.ndarray) -> None:
    """Refuse a rules vector that makes the game unplayable or overflows the state's buffers."""
    def need(ok, msg):
        if not ok:
            raise ConfigError(f"rules: {msg}")
    need(1 <= rules[R.RP_HAND_SIZE] <= 6, "hand_size must be 1..6 (discard options grow as 2**hand)")
    need(1 <= rules[R.RP_SIDE_LIMIT] <= 7, "side_limit must be 1..7")
    need(2 <= rules[R.RP_GROUP_LIMIT] <= 2 * rules[R.RP_SIDE_LIMIT],
         "group_limit must be 2..2*side_limit (two face-up cards need room for two)")
    need(all(1 <= rules[R.RP_GROUP_SIZE + g] <= 9 for g in range(5)), "group sizes must be 1..9")
    need(all(0 <= rules[R.RP_DECK_COUNT + c] <= 9 for c in range(6)), "influence deck counts must be 0..9")
    need(sum(int(rules[R.RP_DECK_COUNT + c]) for c in range(6)) <= R.MAX_INFLUENCE_DECK, "influence deck too large")
    need(tuple(int(x) for x in rules[R.RP_ACTION_COUNT:R.RP_ACTION_COUNT + 6]) == R.ACTION_COUNTS,
         "action-card counts are fixed by the 13-letter orderings (R2.2)")
    need(0 <= rules[R.RP_ORGIES] <= 8, "orgies must be 0..8")
    need(rules[R.RP_ORGIES] >= 1 or not (rules[R.RP_VARIANTS] & R.V_TWO_ORGIES), "two_orgies needs an orgy to box")
    need(1 <= rules[R.RP_MAX_TURNS] <= 5000, "max_turns must be 1..5000")
    need(all(0 <= rules[k] <= 100 for k in (R.RP_VP_PATRICIAN, R.RP_VP_MAJORITY, R.RP_VP_ALL, R.RP_VP_BONUS,
                                             R.RP_BONUS_THRESHOLD)), "VP values must be 0..100")


_KEYS = {f.name for f in fields(RunConfig)}


def load_toml(path: str | Path, **overrides) -> RunConfig:
    """A RunConfig from a TOML file (keys as RunConfig's fields; a [rules] table)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot read config {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config {path} is not valid TOML: {e}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"config {path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")
    if "variants" in data:
        data["variants"] = tuple(data["variants"])
    data.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return RunConfig(**data).validated()
    except TypeError as e:
        raise ConfigError(f"config {path}: {e}") from None
