"""The questions an analysis answers, built once at the door and checked there.

Every door — the command line, the explore page, the Python API — turns what a person gave (flags, a
form, a function's arguments) into one typed question and hands it down; the analysis reads its
fields and never parses a string.  A bad field is refused here, with one line in the error family
(``ccsim.errors``), before any game is played:

* ``Question``: the page's question, one rules change (a flat block and variants, the two decks'
  orders) at one level of play, with a seed;
* ``WhatIfQuestion`` (``ask_whatif``): ``ccsim whatif``'s, the arms (the standard rules, each variant,
  each change of a rules file, each card ablated) at each level, the deals and the seed;
* a ``Space`` (``ask_balance``): ``ccsim balance``'s, the space file with the flags in place of its
  own keys (``ccsim.analyses.balance.space``);
* ``TournamentQuestion`` (``ask_tournament``): ``ccsim tournament``'s, the entrants (each strategy with
  each ordering), the deals per pairing, the seed, the rules, and how far a search player plays.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ccsim.errors import UsageError
from ccsim.kernel import rules as R
from ccsim.runner import changes as changes_file
from ccsim.runner.changes import RESERVED as BASE, Change
from ccsim.runner.checks import check_count, check_seed
from ccsim.runner.orderings import OrderingError, PRESETS, SHUFFLED, parse_ordering, without_card
from ccsim.runner.parameters import VARIANT_WORDS, change_words
from ccsim.runner.ruleset import RulesError, action_counts, rules_vector
from ccsim.analyses.levels import default_level
from ccsim.analyses.balance.space import Space, ask_balance
from strategies.registry import available, search_players, strategy_id

__all__ = ["WhatIfError", "Change", "Arm", "BASE", "Question", "WhatIfQuestion", "ask_whatif", "Space", "ask_balance",
           "load_changes", "load_changes_data", "arms_for", "TournamentError", "Entrant", "TournamentQuestion",
           "ask_tournament", "entrant_names"]


class WhatIfError(UsageError):
    """An unusable what-if argument or rules file (a usage error: exit status 2 in the CLI)."""


@dataclass(frozen=True)
class Question:
    """A checked form: what changes (a flat rules block of the settings that differ from the
    standard, and variants), the two decks, the level (one strategy in mirror games) and the seed."""
    block: dict
    variants: tuple = ()
    orders: tuple = (SHUFFLED, SHUFFLED)
    level: str = ""
    seed: int = 1

    @property
    def rules(self):
        return rules_vector(self.block, self.variants)

    @property
    def changes_rules(self) -> bool:
        return bool(self.block or self.variants)

    def words(self) -> str:
        """The change in plain words (the parameters table's), deck orders included."""
        said = [change_words(self.block)] if self.block else []
        said += [VARIANT_WORDS[v] for v in self.variants]
        said += [f"{p.capitalize()}'s action deck in the order {o}" for p, o in zip(R.PLAYERS, self.orders)
                 if o != SHUFFLED]
        return "; ".join(said) or "the standard rules"


@dataclass
class Arm:
    name: str
    kind: str                 # base, variant, change, card
    rules: np.ndarray
    orders: tuple             # (cleopatra's, caesar's) ordering under these rules
    card: str | None = None   # card arms: the card and the player who lost a copy
    player: str | None = None


@dataclass(frozen=True)
class WhatIfQuestion:
    """A checked what-if study: the levels (each in mirror games), the arms played by each on the same
    deals, the deals per arm and the seed, the orderings as given, the rules file's description, and the
    records asked for (a JSONL path, and how many deals of each arm)."""
    levels: tuple
    arms: tuple
    games: int
    seed: int
    orderings: tuple = (SHUFFLED, SHUFFLED)
    description: str = ""
    record: str | None = None
    record_games: int = 10


def load_changes(path) -> tuple[list[Change], str]:
    """The ``[[change]]`` tables of a what-if rules file, validated, and its description
    (``ccsim.runner.changes``)."""
    return changes_file.load_changes(path, WhatIfError)


def load_changes_data(data: dict, where: str) -> tuple[list[Change], str]:
    """``load_changes`` of parsed TOML; ``where`` names the source in errors."""
    return changes_file.load_changes_data(data, where, WhatIfError)


def _orders_for(vec, orders, name):
    try:
        return tuple(parse_ordering(o, action_counts(vec, p)) for p, o in enumerate(orders))
    except OrderingError as e:
        raise WhatIfError(f"{name}: {e}") from None


def arms_for(variants=None, changes=(), cards: bool = False, orders=(SHUFFLED, SHUFFLED)) -> list[Arm]:
    """The base, then each variant alone, each change, and with ``cards`` each card ablated
    from each player's deck."""
    base = rules_vector()
    orders = _orders_for(base, orders, "the orderings")
    arms = [Arm(BASE, "base", base, orders)]
    for v in (R.VARIANTS if variants is None else variants):
        if v not in R.VARIANTS:
            raise WhatIfError(f"--variant: unknown variant {v!r} (known: {', '.join(R.VARIANTS)})")
        arms.append(Arm(v, "variant", rules_vector(None, (v,)), orders))
    for c in changes:
        vec = rules_vector(c.block, c.variants)
        arms.append(Arm(c.name, "change", vec, _orders_for(vec, orders, f"change {c.name!r}")))
    if cards:
        for p, player in enumerate(R.PLAYERS):
            for a, card in enumerate(R.ACTION_NAMES):
                vec = base.copy()
                vec[R.RP_PLAYER_ACTIONS[p] + a] -= 1
                o = list(orders)
                o[p] = without_card(o[p], R.ACTION_LETTERS[a])
                arms.append(Arm(f"{player} without one {card}", "card", vec, tuple(o), card, player))
    if len(arms) < 2:
        raise WhatIfError("nothing to compare: give a variant, a rules file or --cards")
    return arms


def _levels(strategies) -> tuple:
    """The levels of play, each named once, in order; None: the strongest fast level registered."""
    if strategies is None:
        strategies = [default_level()]
    levels = [strategies] if isinstance(strategies, str) else list(dict.fromkeys(strategies))
    if not levels:
        raise WhatIfError("give at least one --strategy")
    for s in levels:
        try:
            strategy_id(s)
        except KeyError as e:
            raise WhatIfError(f"--strategy: {e.args[0]}") from None
    return tuple(levels)


def ask_whatif(strategies=None, games: int = 20_000, seed: int = 1, variants=None, changes=(), rules_file=None,
               cards: bool = False, cleopatra_order: str = SHUFFLED, caesar_order: str = SHUFFLED, record=None,
               record_games: int = 10) -> WhatIfQuestion:
    """The what-if question of these arguments (``ccsim.analyses.whatif.whatif``'s), every one checked:
    ``WhatIfError`` (one line) for the first that cannot be used."""
    games = check_count(games, WhatIfError, "--games", minimum=2)
    seed = check_seed(seed, WhatIfError)
    levels = _levels(strategies)
    description = ""
    if rules_file is not None:
        file_changes, description = load_changes(rules_file)
        changes = list(changes) + file_changes
    orderings = (cleopatra_order, caesar_order)
    arms = arms_for(variants, changes, cards, orderings)
    if isinstance(record_games, bool) or not isinstance(record_games, (int, np.integer)) or record_games < 0:
        raise WhatIfError(f"--record-games must be >= 0, got {record_games}")
    return WhatIfQuestion(levels=levels, arms=tuple(arms), games=games, seed=seed, orderings=orderings,
                          description=description, record=None if record is None else str(record),
                          record_games=int(record_games))


# --- the tournament's question ----------------------------------------------------------------

N_BOOT = 200  # bootstrap replicates of the ratings' intervals


class TournamentError(UsageError):
    """An unusable tournament argument (a usage error: exit status 2 in the CLI)."""


class Entrant(NamedTuple):
    """One entrant of a round robin: its label in the tables, its strategy, and the canonical ordering
    of its action deck (``shuffled`` or 13 letters)."""
    label: str
    strategy: str
    ordering: str


@dataclass(frozen=True)
class TournamentQuestion:
    """A checked round robin: the entrants (at least two, each strategy with each ordering, in the order
    given), the deals per pairing and the seed, the rules (the vector and the variants it holds), the deals
    of a pairing with a search player (None: every pairing plays ``games``), whether to compute Nash
    averaging (None: only where the results are intransitive) and the bootstrap's replicates."""
    entrants: tuple
    games: int
    seed: int
    rules: np.ndarray
    variants: tuple = ()
    search_games: int | None = None
    nash: bool | None = None
    n_boot: int = N_BOOT

    @property
    def labels(self) -> list[str]:
        return [e.label for e in self.entrants]


def entrant_names(spec) -> list[str]:
    """Strategy names of ``--strategies``: a list or comma-separated text; ``all`` is every
    registered strategy, ``heuristics`` every one but ``random`` and the search players
    (``expert`` plays a few games a second: name it to have it)."""
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    names = [n for n in names if n]
    registered = available()
    if names == ["all"]:
        return [s["name"] for s in registered]
    if names == ["heuristics"]:
        slow = search_players()
        return [s["name"] for s in registered if s["name"] != "random" and s["name"] not in slow]
    for n in names:
        try:
            strategy_id(n)
        except KeyError as e:
            raise TournamentError(f"--strategies: {e.args[0]}") from None
    if len(set(names)) != len(names):
        raise TournamentError(f"--strategies: {names} names a strategy twice")
    return names


def _order_label(text: str, canonical: str) -> str:
    key = "-".join(str(text).strip().lower().replace("_", "-").split())
    return key if key in PRESETS or canonical == SHUFFLED else canonical


def _orderings(orderings, rules) -> list[tuple[str, str]]:
    """(label, canonical ordering) of each of ``--orderings`` (a list or comma-separated text; None:
    ``shuffled``)."""
    texts = orderings if orderings else [SHUFFLED]
    if isinstance(texts, str):
        texts = [t for t in texts.split(",") if t.strip()]
    orders = []
    for t in texts:
        try:
            # an entrant may sit at either seat, so her ordering must suit both seats' counts
            canon = parse_ordering(t, action_counts(rules, 0))
            parse_ordering(t, action_counts(rules, 1))
        except OrderingError as e:
            raise TournamentError(f"--orderings: {e}") from None
        orders.append((_order_label(t, canon), canon))
    if len({c for _, c in orders}) != len(orders):
        raise TournamentError("--orderings: an ordering is given twice")
    return orders


def _entrants(names: list[str], orders: list[tuple[str, str]]) -> tuple[Entrant, ...]:
    """Every strategy with every ordering, labelled by what tells them apart."""
    out = []
    for n in names:
        for lab, canon in orders:
            label = n if len(orders) == 1 else (lab if len(names) == 1 else f"{n}/{lab}")
            out.append(Entrant(label, n, canon))
    if len(out) < 2:
        raise TournamentError("a tournament needs at least two entrants (strategies x orderings)")
    return tuple(out)


def ask_tournament(strategies="heuristics", games: int = 10_000, seed: int = 1, orderings=None, variants=(),
                   rules: dict | None = None, nash: bool | None = None, n_boot: int = N_BOOT,
                   search_games: int | None = None) -> TournamentQuestion:
    """The round robin of these arguments (``ccsim.analyses.tournament.tournament``'s), every one checked:
    ``TournamentError`` (one line) for the first that cannot be used, the strategies first."""
    names = entrant_names(strategies)
    games = check_count(games, TournamentError, "--games")
    seed = check_seed(seed, TournamentError)
    if search_games is not None:
        search_games = check_count(search_games, TournamentError, "--search-games")
    try:
        vec = rules_vector(rules, tuple(variants))
    except RulesError as e:
        raise TournamentError(str(e)) from None
    return TournamentQuestion(entrants=_entrants(names, _orderings(orderings, vec)), games=games, seed=seed,
                              rules=vec, variants=tuple(variants), search_games=search_games, nash=nash,
                              n_boot=int(n_boot))
