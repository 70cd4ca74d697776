"""What a run is: strategies, orderings, variants, games, seed — validated once.

A ``RunConfig`` comes from CLI flags, a Python call or a TOML file; every
invalid value raises ``ConfigError`` with one line naming the problem.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np

from ccsim.kernel import rules as R
from ccsim.kernel.layout import MAX_PARAMS
from ccsim.runner.checks import check_seed
from ccsim.runner.orderings import OrderingError, parse_ordering, to_codes, SHUFFLED
from ccsim.runner.ruleset import RulesError, action_counts, rules_vector, swap_players
from strategies.registry import resolve, strategy_id
from ccsim.errors import UsageError

MAX_GAMES = 10**10  # beyond this a run would take days; almost surely a typo
MAX_THREADS = 256
BACKENDS = ("local", "dask")
# s to wait for a Dask scheduler and a worker: a running scheduler answers in milliseconds, and
# a command given an unreachable one ends within about 6 s (imports included), not Dask's 30
DEFAULT_CONNECT_TIMEOUT = 3.0
MAX_CONNECT_TIMEOUT = 86_400.0


class ConfigError(UsageError):
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
    chunk_size: int | None = None  # games per task; None: the backend's choice (ccsim.runner.backends)
    record: str | None = None   # JSONL path for game records
    record_games: int | None = None
    out: str | None = None      # Parquet output folder
    backend: str = "local"      # "local" (numba threads) or "dask"
    scheduler: str | None = None  # Dask scheduler address; none: a local cluster
    workers: int = 0            # Dask local cluster workers (0: 2)
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT  # s to wait for the scheduler and a worker
    rules: dict = field(default_factory=dict)  # a rules block as GAME_RECORD.md's `rules` (nested or dotted names)

    def validated(self) -> "RunConfig":
        """A copy with orderings in canonical form; raises ConfigError."""
        if not isinstance(self.games, int) or self.games <= 0:
            raise ConfigError(f"games must be a positive integer, got {self.games!r}")
        if self.games > MAX_GAMES:
            raise ConfigError(f"games={self.games} is absurd (at most {MAX_GAMES})")
        check_seed(self.seed, ConfigError, "seed")
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
        for v in self.variants:
            if v not in R.VARIANTS:
                raise ConfigError(f"unknown variant {v!r} (known: {', '.join(R.VARIANTS)})")
        rules = self.rules_vector()  # validates rule overrides
        orders = {}
        for p, seat in enumerate(("cleopatra_order", "caesar_order")):
            try:
                orders[seat] = parse_ordering(getattr(self, seat), action_counts(rules, p))
            except OrderingError as e:
                raise ConfigError(f"--{seat.replace('_', '-')}: {e}") from None
        check_backend_flags(self.backend, self.scheduler, self.workers, self.connect_timeout)
        if self.record_games is not None and (not isinstance(self.record_games, int) or self.record_games < 0):
            raise ConfigError(f"record_games must be a non-negative integer, got {self.record_games!r}")
        return replace(self, variants=tuple(dict.fromkeys(self.variants)), **orders)

    # -- what the kernel receives ------------------------------------------
    def rules_vector(self, swapped: bool = False) -> np.ndarray:
        """The kernel's rules vector; with the seats swapped the players' action counts
        change seats too (everything of a side moves with it: strategy, ordering, cards)."""
        try:
            rules = rules_vector(self.rules, self.variants)
        except RulesError as e:
            raise ConfigError(str(e)) from None
        return swap_players(rules) if swapped else rules

    def seats(self, swapped: bool = False):
        """(strategy names, sids, params, orders, ordering texts) for the two seats, swapped if asked."""
        names = [self.cleopatra, self.caesar]
        orders = [self.cleopatra_order, self.caesar_order]
        if swapped:
            names.reverse()
            orders.reverse()
        sids = np.zeros(2, np.int64)
        sp = np.zeros((2, MAX_PARAMS), np.float64)
        for p, n in enumerate(names):
            sids[p], sp[p] = resolve(n)
        return names, sids, sp, order_codes(orders, self.rules_vector(swapped)), orders

    def swap_repeats(self) -> bool:
        """With --swap-seats, whether each swapped game is its deal's first game again: both seats hold the
        same side under rules that give both the same cards, so the kernel gets the same inputs and the same
        game's streams (a mirror's swapped half adds games, not information)."""
        if not self.swap_seats:
            return False
        a, b = self.seats(False), self.seats(True)
        return (a[0] == b[0] and a[4] == b[4] and np.array_equal(a[3], b[3])
                and np.array_equal(self.rules_vector(False), self.rules_vector(True)))

    def order_codes(self) -> np.ndarray:
        """The kernel's action-deck orders of the two seats as seated (a row of -1: shuffled)."""
        return order_codes((self.cleopatra_order, self.caesar_order), self.rules_vector())


def order_codes(orders, rules: np.ndarray) -> np.ndarray:
    """The kernel's (2, MAX_ACTION_DECK) int8 action decks of two orderings under ``rules``:
    each seat's letters as codes, checked against her own counts; a row of -1 is shuffled."""
    codes = np.full((2, R.MAX_ACTION_DECK), -1, np.int8)
    for p, o in enumerate(orders):
        if o != SHUFFLED:
            row = to_codes(o, action_counts(rules, p))
            codes[p, :len(row)] = row
    return codes


def check_backend_flags(backend, scheduler, workers, connect_timeout) -> None:
    """Refuse backend settings that cannot name one backend (ConfigError); the address
    itself is checked when the backend connects (ccsim.runner.backends)."""
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


_KEYS = {f.name for f in fields(RunConfig)}


def load_toml(path: str | Path, defaults: dict | None = None, **overrides) -> RunConfig:
    """A RunConfig from a TOML file (keys as RunConfig's fields; a [rules] table); ``defaults`` fill the
    keys the file does not give, ``overrides`` (those not None) win over it."""
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
    data = (defaults or {}) | data | {k: v for k, v in overrides.items() if v is not None}
    try:
        return RunConfig(**data).validated()
    except TypeError as e:
        raise ConfigError(f"config {path}: {e}") from None
