"""The search space of ``ccsim balance``: which rules may change, over which values, and what counts as fair.

A space is a TOML file (docs/balance.md; the default ships beside this module)::

    description = "Caesar's action cards and the hand size"
    levels = ["tactician"]          # default: the strongest fast level and tactician (ccsim.analyses.levels)
    race = "every"                  # the race: fair at every level (the worst decides), or at the "first"
                                    # only (the others measured beside it on the same deals)
    judge = "balanced"              # the level whose figure decides "fair" for the answer: the strongest level
                                    # the seat certificate marks balanced (strategies/seats.py), or a level's name
                                    # (older files: judge = "every" / "first" is the race's rule, read as race)
    budget = 4_000_000              # games the search may play (the fresh re-measure comes on top)
    seed = 1
    max_changes = 2                 # at most this many parameters changed at once
    variants = ["late_orgies_boxed"]   # R11 variants, each a switch (off in the standard rules)
    search_level = "neural-search"  # optional: the final candidates measured at a search level too
    search_deals = 10_000           # deals an arm there (paired with the standard rules)
    skill_levels = ["greedy", "tactician", "neural", "expert"]   # optional: the skill curve's levels
    skill_deals = 1_000             # deals an arm at a search level of the curve (fast levels: remeasure_games)
    ring = true                     # when nothing is fair at the judge: search the next ring around the closest
    ring_screen_deals = 10_000      # its screen's deals at each fast level (paired with the standard rules)
    ring_race_deals = [400, 3_000]  # its race at the judge: the first round's deals, and at most
    ring_shortlist = 6              # at most this many ring settings raced at the judge

    [objectives]
    tolerance_points = 1            # fair: Cleopatra's score within 50% +- 1 point, at every level
                                    # (the older form, a share: tolerance = 0.01)
    game_length = 0.10              # optional: mean turns within +-10% of the standard rules' (draw_rate alike)

    [[param]]
    name = "action_count.caesar.veto"   # any name of a record's rules block, dotted (docs/game-record.md)
    values = [1, 3, 4]                  # or range = [1, 4] (step = 1); the standard value is always one of them

A *candidate* is the standard rules with up to ``max_changes`` parameters moved to other values of their lists.
Its cost is (number of changes, size of change); the size is the number of steps each changed
parameter moves along its own sorted list of values (the standard value included), summed — a step is
the next value the designer offered, so sizes compare across parameters of different units.
"""
from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ccsim.errors import InputError, UsageError
from ccsim.kernel import rules as R
from ccsim.runner.checks import check_count, check_seed, read_toml
from ccsim.runner.ruleset import RulesError, rules_block, rules_vector, slots_of, validate
from ccsim.runner.parameters import STANDARD_RULES, VARIANT_WORDS, setting_words
from ccsim.analyses.levels import Level, default_levels, parse_level

__all__ = ["SpaceError", "BalanceError", "DEFAULT_SPACE", "Param", "Space", "Candidate", "load_space", "ask_balance",
           "space_from_data", "with_overrides", "candidates", "setting_of", "toml_key", "toml_value", "REFERENCE"]

#: the space ``ccsim balance`` searches when given no file (package data)
DEFAULT_SPACE = Path(__file__).with_name("default.toml")
DEFAULT_BUDGET = 4_000_000
DEFAULT_TOLERANCE = 0.01
DEFAULT_SEARCH_DEALS = 10_000
#: which levels decide "fair" in the race: every level (its worst), or the first alone
RACE_RULES = ("every", "first")
#: the answer's judge: the strongest level of the search that plays both seats alike (the seat certificate)
JUDGE_BALANCED = "balanced"
DEFAULT_SKILL_DEALS = 1_000
DEFAULT_REMEASURE = 100_000
#: the next ring (ccsim.analyses.balance.ring.stages): the screen's deals per fast level, the judge's race (its first
#: round's deals and at most), and how many ring settings the judge races at most
DEFAULT_RING_SCREEN = 10_000
DEFAULT_RING_RACE = (400, 3_000)
DEFAULT_RING_SHORTLIST = 6
#: more candidates than this is a space to narrow, not to race (max_changes is the usual culprit)
MAX_CANDIDATES = 20_000
#: bump when what the search plays or decides changes: a folder of another version is not resumed
SEARCH_VERSION = 1
REFERENCE = "RULES.md"  # the standard rules' setting name in JSON and Parquet (a contract)

_TOP_KEYS = ("description", "levels", "judge", "race", "budget", "seed", "max_changes", "variants", "recommend",
             "remeasure_games", "search_level", "search_deals", "skill_levels", "skill_deals", "ring",
             "ring_screen_deals", "ring_race_deals", "ring_shortlist", "objectives", "param")
_OBJECTIVES = ("tolerance_points", "tolerance", "draw_rate", "game_length")


class SpaceError(InputError):
    """A search-space file ccsim cannot use (one line; exit status 2 at the command line)."""


class BalanceError(UsageError):
    """A ``ccsim balance`` flag or output folder that cannot be used (one line; exit status 2)."""


@dataclass(frozen=True)
class Param:
    """One rules parameter (a dotted rules name) or R11 variant (values 0 off, 1 on) and its values."""
    name: str
    values: tuple[int, ...]   # sorted, the standard value among them
    default: int

    @property
    def is_variant(self) -> bool:
        return self.name in R.VARIANTS

    def steps(self, value: int) -> int:
        """The size of moving this parameter to ``value``: steps along its list from the standard value."""
        return abs(self.values.index(value) - self.values.index(self.default))

    def label(self, value: int) -> str:
        return self.name if self.is_variant else f"{self.name} {value}"


@dataclass(frozen=True)
class Space:
    params: tuple[Param, ...]
    levels: tuple[Level, ...]
    budget: int = DEFAULT_BUDGET
    seed: int = 1
    tolerance: float = DEFAULT_TOLERANCE
    max_changes: int = 2
    draw_rate: float | None = None     # bound: relative to the standard rules', e.g. 0.10 for +-10%
    game_length: float | None = None
    recommend: int = 3
    remeasure_games: int = DEFAULT_REMEASURE
    race: str = "every"                # RACE_RULES: the race's objective is the worst level, or the first level's
    judge: str = JUDGE_BALANCED        # the answer's judge: "balanced" (ccsim.analyses.balance.judge), or a level
    search_level: Level | None = None  # the final candidates' search level (None: none)
    search_deals: int = DEFAULT_SEARCH_DEALS
    skill_levels: tuple[Level, ...] = ()  # the skill curve's levels, weakest first (empty: no curve)
    skill_deals: int = DEFAULT_SKILL_DEALS
    ring: bool = True                  # the next ring when nothing is fair at the judge (balance.ring.widen)
    ring_screen_deals: int = DEFAULT_RING_SCREEN
    ring_race_deals: tuple[int, int] = DEFAULT_RING_RACE
    ring_shortlist: int = DEFAULT_RING_SHORTLIST
    description: str = ""
    source: str = "the default space"

    def identity(self) -> str:
        """What decides the search's games and choices, hashed: a folder is resumed only by its own
        space (what comes after the race -- the fresh re-measure, the search level, the skill curve, the
        number recommended, the next ring -- and the text's comments are not in it: their tasks are named by
        what they play, so a rerun with other values plays only what is new)."""
        blob = dict(version=SEARCH_VERSION, params=[(p.name, p.values) for p in self.params],
                    levels=[lv.name for lv in self.levels], budget=self.budget, seed=self.seed,
                    # the race's rule keeps its old key: a folder of an older search still resumes
                    **({} if self.race == "every" else dict(judge=self.race)),
                    tolerance=self.tolerance, max_changes=self.max_changes, draw_rate=self.draw_rate,
                    game_length=self.game_length)
        return hashlib.sha256(json.dumps(blob, sort_keys=True).encode()).hexdigest()[:16]

    def to_toml(self) -> str:
        """The space as a file ``load_space`` reads back to the same search (the command line's
        flags included): what the output folder keeps as ``space.toml``."""
        lines = [f"# the space searched: {self.source}, with the command line's flags applied",
                 f"description = {toml_value(self.description)}",
                 f"levels = {toml_value([lv.name for lv in self.levels])}",
                 f"race = {toml_value(self.race)}",
                 f"judge = {toml_value(self.judge)}"]
        lines += [f"{k} = {toml_value(getattr(self, k))}" for k in
                  ("budget", "seed", "max_changes", "recommend", "remeasure_games")]
        if self.search_level is not None:
            lines += [f"search_level = {toml_value(self.search_level.name)}", f"search_deals = {self.search_deals}"]
        if self.skill_levels:
            lines += [f"skill_levels = {toml_value([lv.name for lv in self.skill_levels])}",
                      f"skill_deals = {self.skill_deals}"]
        lines += [f"ring = {toml_value(self.ring)}"] + [f"{k} = {toml_value(getattr(self, k))}" for k in
                                                        ("ring_screen_deals", "ring_race_deals", "ring_shortlist")]
        lines.append(f"variants = {toml_value([p.name for p in self.params if p.is_variant])}")
        lines += ["", "[objectives]", f"tolerance_points = {toml_value(round(100 * self.tolerance, 10))}"]
        lines += [f"{k} = {toml_value(getattr(self, k))}" for k in ("draw_rate", "game_length")
                  if getattr(self, k) is not None]
        for p in self.params:
            if not p.is_variant:
                lines += ["", "[[param]]", f"name = {toml_value(p.name)}", f"values = {toml_value(list(p.values))}"]
        return "\n".join(lines) + "\n"


def toml_key(key: str) -> str:
    """A TOML key: bare where TOML allows, else quoted (``"1"``, the influence cards of deck_count)."""
    return key if key.isidentifier() else json.dumps(key)


def toml_value(x) -> str:
    """A TOML value of a string, integer, float, list or table (inline), for the files ccsim writes."""
    if isinstance(x, str):
        return json.dumps(x, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(x, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in x) + "]"
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    return repr(float(x)) if isinstance(x, float) else str(int(x))


@dataclass(frozen=True, eq=False)
class Candidate:
    """The standard rules with ``settings`` (param name, value) changed; ``rules`` is its validated vector."""
    settings: tuple[tuple[str, int], ...]
    labels: tuple[str, ...]
    rules: np.ndarray
    changes: int
    size: int

    @property
    def name(self) -> str:
        return ", ".join(self.labels) or REFERENCE

    @property
    def words(self) -> str:
        """The setting in plain words ("Caesar has 3 veto cards (standard: 2)"), in the order of its name."""
        said = [VARIANT_WORDS[n] if n in R.VARIANTS else setting_words(n, v) for n, v in self.settings]
        return "; ".join(said) or STANDARD_RULES

    @property
    def variants(self) -> list[str]:
        return [v for v, bit in R.VARIANTS.items() if self.rules[R.RP_VARIANTS] & bit]

    @property
    def block(self) -> dict:
        """The record's ``rules`` block of the setting (variants apart)."""
        return rules_block(self.rules)

    @property
    def key(self) -> str:
        """The setting itself, whatever the names it was written with: its rules block and variants."""
        return json.dumps(dict(rules=self.block, variants=self.variants), sort_keys=True, separators=(",", ":"))


# --- reading ------------------------------------------------------------------------------------

def load_space(path=None) -> Space:
    """The space of a TOML file, or the default space (``None``), validated (SpaceError, one line)."""
    where = "the default space" if path is None else str(path)
    data, _ = read_toml(DEFAULT_SPACE if path is None else path, SpaceError, where)
    return space_from_data(data, where)


def space_from_data(data: dict, where: str = "the space") -> Space:
    """``load_space`` of parsed TOML; ``where`` names the source in errors."""
    stray = sorted(set(data) - set(_TOP_KEYS))
    if stray:
        raise SpaceError(f"{where}: unknown key {stray[0]!r} (known: {', '.join(_TOP_KEYS)})")
    tables = data.get("param", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise SpaceError(f"{where}: each parameter is a [[param]] table")
    params = [_param(t, k, where) for k, t in enumerate(tables, 1)] + _variants(data.get("variants", []), where)
    if not params:
        raise SpaceError(f"{where}: the space is empty: give at least one [[param]] table or variant")
    _refuse_overlaps(params, where)
    objectives = _objectives(data.get("objectives", {}), where)
    levels = data.get("levels")
    desc = data.get("description", "")
    if not isinstance(desc, str):
        raise SpaceError(f"{where}: description must be a string, got {desc!r}")
    return Space(params=tuple(params), levels=_levels(levels, SpaceError, f"{where}: levels"),
                 budget=check_count(data.get("budget", DEFAULT_BUDGET), SpaceError, f"{where}: budget"),
                 seed=check_seed(data.get("seed", 1), SpaceError, f"{where}: seed"),
                 max_changes=check_count(data.get("max_changes", 2), SpaceError, f"{where}: max_changes"),
                 recommend=check_count(data.get("recommend", 3), SpaceError, f"{where}: recommend"),
                 remeasure_games=check_count(data.get("remeasure_games", DEFAULT_REMEASURE), SpaceError,
                                             f"{where}: remeasure_games", minimum=2),
                 **_race_and_judge(data, where),
                 search_level=_search_level(data.get("search_level"), SpaceError, f"{where}: search_level"),
                 search_deals=check_count(data.get("search_deals", DEFAULT_SEARCH_DEALS), SpaceError,
                                          f"{where}: search_deals", minimum=2),
                 skill_levels=_skill_levels(data.get("skill_levels"), SpaceError, f"{where}: skill_levels"),
                 skill_deals=check_count(data.get("skill_deals", DEFAULT_SKILL_DEALS), SpaceError,
                                         f"{where}: skill_deals", minimum=2),
                 **_ring_keys(data, where),
                 description=desc, source=where, **objectives)


def _param(t: dict, k: int, where: str) -> Param:
    """A [[param]] table: a rules name and its values (a list, or an inclusive range with a step)."""
    name = t.get("name")
    at = f"{where}: param {k}" + (f" ({name})" if isinstance(name, str) else "")
    stray = sorted(set(t) - {"name", "values", "range", "step"})
    if stray:
        raise SpaceError(f"{at}: unknown key {stray[0]!r} (known: name, values, range, step)")
    if not isinstance(name, str):
        raise SpaceError(f"{at}: needs a name (a key of a record's rules block, e.g. \"hand_size\")")
    if name in R.VARIANTS:
        raise SpaceError(f"{at}: {name} is a variant: list it in the top-level variants = [...]")
    try:
        slots = slots_of(name)
    except RulesError as e:
        raise SpaceError(f"{at}: {e}") from None
    values = _values(t, at)
    for v in values:
        try:
            rules_vector({name: v})
        except RulesError as e:
            raise SpaceError(f"{at}: {e}") from None
    default = int(R.DEFAULT_RULES[slots[0]])
    if set(values) <= {default}:
        raise SpaceError(f"{at}: offers no value other than the standard {default}")
    return Param(name, tuple(sorted(set(values) | {default})), default)


def _values(t: dict, at: str) -> list[int]:
    def ints(x):
        return isinstance(x, list) and x and all(isinstance(v, int) and not isinstance(v, bool) for v in x)

    if ("values" in t) == ("range" in t):
        raise SpaceError(f"{at}: give either values = [...] or range = [low, high]")
    if "values" in t:
        if not ints(t["values"]):
            raise SpaceError(f"{at}: values must be a non-empty list of integers, got {t['values']!r}")
        return list(t["values"])
    rng, step = t["range"], t.get("step", 1)
    if not ints(rng) or len(rng) != 2 or rng[0] > rng[1]:
        raise SpaceError(f"{at}: range must be [low, high], integers with low <= high, got {rng!r}")
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise SpaceError(f"{at}: step must be a positive integer, got {step!r}")
    return list(range(rng[0], rng[1] + 1, step))


def _variants(names, where: str) -> list[Param]:
    if not isinstance(names, list) or not all(isinstance(v, str) for v in names):
        raise SpaceError(f"{where}: variants must be a list of names ({', '.join(R.VARIANTS)})")
    for v in names:
        if v not in R.VARIANTS:
            raise SpaceError(f"{where}: unknown variant {v!r} (known: {', '.join(R.VARIANTS)})")
    return [Param(v, (0, 1), 0) for v in dict.fromkeys(names)]


def _refuse_overlaps(params: list[Param], where: str) -> None:
    """Two params may not set the same rule (``action_count.veto`` and ``action_count.caesar.veto``)."""
    seen: dict = {}
    for p in params:
        for s in ((R.RP_VARIANTS, p.name),) if p.is_variant else slots_of(p.name):
            if s in seen:
                raise SpaceError(f"{where}: params {seen[s]!r} and {p.name!r} change the same rule")
            seen[s] = p.name


def _objectives(table, where: str) -> dict:
    if not isinstance(table, dict):
        raise SpaceError(f"{where}: objectives must be a table ([objectives])")
    stray = sorted(set(table) - set(_OBJECTIVES))
    if stray:
        raise SpaceError(f"{where}: objectives: unknown key {stray[0]!r} (known: {', '.join(_OBJECTIVES)})")
    if "tolerance_points" in table and "tolerance" in table:
        raise SpaceError(f"{where}: objectives: give tolerance_points (points) or tolerance (a share), not both")
    out = {}
    for key in _OBJECTIVES[1:]:
        if key in table:
            out[key] = _share(table[key], f"{where}: objectives.{key}", 0.5 if key == "tolerance" else 1.0)
    if "tolerance_points" in table:
        out["tolerance"] = points_share(table["tolerance_points"], f"{where}: objectives.tolerance_points", SpaceError)
    return out


def points_share(x, where: str, error=SpaceError) -> float:
    """A tolerance typed in points of score (1 = one point, 50% +- 1) as the share the search uses;
    (0, 50) points, else ``error`` (one line)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 < x < 50:
        raise error(f"{where}: must be a number of points in (0, 50), e.g. 1 for 50% +- 1 point, got {x!r}")
    return x / 100


def _share(x, where: str, high: float) -> float:
    """A share in (0, high): a tolerance in points of score, or a bound relative to the standard rules."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 < x < high:
        raise SpaceError(f"{where}: must be a number in (0, {high:g}) (0.01 is one point, 0.10 is 10%), got {x!r}")
    return float(x)


def _levels(levels, error, where: str) -> tuple[Level, ...]:
    if levels is None:
        return tuple(parse_level(n, error, where) for n in default_levels())
    if isinstance(levels, str):
        levels = [lv for lv in levels.split(",") if lv.strip()]
    if not isinstance(levels, (list, tuple)) or not levels:
        raise error(f"{where}: give at least one level (a strategy, or a pair A+B)")
    return tuple(dict.fromkeys(parse_level(lv, error, where) for lv in levels))


def _race(value, error, where: str) -> str:
    if value not in RACE_RULES:
        raise error(f"{where}: must be one of {', '.join(RACE_RULES)} (the race: fair at every level, or at the "
                    f"first level alone), got {value!r}")
    return value


def _judge(value, error, where: str) -> str:
    """``"balanced"`` or a level's name; a level the seat certificate marks lopsided is refused: it plays one
    seat better than the other, so its mirror games measure the player as much as the rules."""
    if value == JUDGE_BALANCED:
        return value
    if not isinstance(value, str) or not value.strip():
        raise error(f"{where}: must be \"balanced\" or a level's name, got {value!r}")
    name = parse_level(value, error, where).name
    from ccsim.analyses.balance.judge import lopsided_refusal
    why = lopsided_refusal(name)
    if why:
        raise error(f"{where}: {why}")
    return name


def _race_and_judge(data: dict, where: str) -> dict:
    """The race's rule and the answer's judge; ``judge = "every"`` or ``"first"`` (the older form, when the
    judge was the race's rule) still loads, as ``race``."""
    judge, race = data.get("judge", JUDGE_BALANCED), data.get("race")
    if judge in RACE_RULES:
        if race is not None:
            raise SpaceError(f"{where}: judge = {judge!r} is the older name of race: give race alone")
        race, judge = judge, JUDGE_BALANCED
    return dict(race=_race("every" if race is None else race, SpaceError, f"{where}: race"),
                judge=_judge(judge, SpaceError, f"{where}: judge"))


def _none(value) -> bool:
    """Absent, or the word "none" (a file's key or a flag that turns a stage off)."""
    return value is None or (isinstance(value, str) and value.strip().lower() == "none")


def _search_level(name, error, where: str) -> Level | None:
    """A search level by name; ``None`` or ``"none"``: no search level."""
    return None if _none(name) else parse_level(name, error, where)


def _skill_levels(levels, error, where: str) -> tuple[Level, ...]:
    """The skill curve's levels (a list, or names joined by commas); ``None`` or ``"none"``: no curve."""
    return () if _none(levels) else _levels(levels, error, where)


def _ring_keys(data: dict, where: str) -> dict:
    """The next ring's keys: whether it runs, its screen's deals, its race's deals (first round, at most) and
    how many settings the judge races."""
    on = data.get("ring", True)
    if not isinstance(on, bool):
        raise SpaceError(f"{where}: ring must be true or false (search the next ring when nothing is fair at the "
                         f"judge), got {on!r}")
    race = data.get("ring_race_deals", list(DEFAULT_RING_RACE))
    if not isinstance(race, list) or len(race) != 2:
        raise SpaceError(f"{where}: ring_race_deals must be [first, most]: the judge's deals in the race's first "
                         f"round and at most, e.g. [400, 3_000], got {race!r}")
    first = check_count(race[0], SpaceError, f"{where}: ring_race_deals' first", minimum=2)
    most = check_count(race[1], SpaceError, f"{where}: ring_race_deals' most", minimum=2)
    if most < first:
        raise SpaceError(f"{where}: ring_race_deals: the most ({most:,}) is below the first round's ({first:,})")
    return dict(ring=on, ring_race_deals=(first, most),
                ring_screen_deals=check_count(data.get("ring_screen_deals", DEFAULT_RING_SCREEN), SpaceError,
                                              f"{where}: ring_screen_deals", minimum=2),
                ring_shortlist=check_count(data.get("ring_shortlist", DEFAULT_RING_SHORTLIST), SpaceError,
                                           f"{where}: ring_shortlist"))


def ask_balance(space=None, **overrides) -> Space:
    """``ccsim balance``'s question, built once at the door: the space (a TOML path, a ``Space``, or None
    for the default space) with ``overrides`` (``with_overrides``'s keywords; None: the space's own) in
    place of its own keys, every one checked (``SpaceError`` or ``BalanceError``, one line)."""
    return with_overrides(space if isinstance(space, Space) else load_space(space), **overrides)


def with_overrides(space: Space, levels=None, budget=None, seed=None, tolerance=None,
                   remeasure_games=None, search_level=None, search_deals=None, skill_levels=None,
                   skill_deals=None, judge=None, race=None, ring=None) -> Space:
    """The space with the command line's flags in place of its own keys (BalanceError, one line)."""
    changes = {} if ring is None else dict(ring=bool(ring))
    if judge in RACE_RULES:  # the older meaning of --judge: the race's rule
        race, judge = (judge if race is None else race), None
    if race is not None:
        changes["race"] = _race(race, BalanceError, "--race")
    if judge is not None:
        changes["judge"] = _judge(judge, BalanceError, "--judge")
    if search_level is not None:
        changes["search_level"] = _search_level(search_level, BalanceError, "--search-level")
    if search_deals is not None:
        changes["search_deals"] = check_count(search_deals, BalanceError, "--search-deals", minimum=2)
    if skill_levels is not None:
        changes["skill_levels"] = _skill_levels(skill_levels, BalanceError, "--skill-levels")
    if skill_deals is not None:
        changes["skill_deals"] = check_count(skill_deals, BalanceError, "--skill-deals", minimum=2)
    if levels is not None:
        changes["levels"] = _levels(levels, BalanceError, "--levels")
    if budget is not None:
        changes["budget"] = check_count(budget, BalanceError, "--budget")
    if seed is not None:
        changes["seed"] = check_seed(seed, BalanceError)
    if tolerance is not None:  # in points: --tolerance 1 is 50% +- 1 point
        changes["tolerance"] = points_share(tolerance, "--tolerance", BalanceError)
    if remeasure_games is not None:
        changes["remeasure_games"] = check_count(remeasure_games, BalanceError, "--remeasure-games", minimum=2)
    return replace(space, **changes)


# --- candidates ---------------------------------------------------------------------------------

def candidates(space: Space) -> tuple[list[Candidate], int]:
    """The standard rules first, then every setting of 1 .. ``max_changes`` changed parameters, cheapest first
    (fewer changes, then smaller size, then the space's order); and how many combinations the rules
    block's ranges refuse (``group_limit`` above 2 x ``side_limit``, ...).  A setting reached twice
    (two names for one rule) is kept once, at its cheapest."""
    out = [_candidate(())]
    seen, refused = {out[0].key}, 0
    others = [[(p, v) for v in p.values if v != p.default] for p in space.params]
    for k in range(1, min(space.max_changes, len(others)) + 1):
        level = []
        for group in itertools.combinations(others, k):
            for combo in itertools.product(*group):
                try:
                    level.append(_candidate(combo))
                except RulesError:
                    refused += 1
                if len(out) + len(level) > MAX_CANDIDATES:
                    raise SpaceError(f"{space.source}: more than {MAX_CANDIDATES:,} candidates: lower "
                                     f"max_changes or offer fewer values")
        for c in sorted(level, key=lambda c: c.size):  # stable: the space's order within a size
            if c.key not in seen:
                seen.add(c.key)
                out.append(c)
    return out, refused


def setting_of(combo) -> Candidate:
    """The standard rules with each (``Param``, value) of ``combo`` applied (RulesError if they refuse it)."""
    return _candidate(tuple(combo))


def _candidate(combo) -> Candidate:
    """The standard rules with each (param, value) of ``combo`` applied slot by slot, validated once at the end
    (so the order of the params does not matter, as a block written at once)."""
    vec = R.DEFAULT_RULES.copy()
    for p, v in combo:
        if p.is_variant:
            vec[R.RP_VARIANTS] |= R.VARIANTS[p.name]
        else:
            one = rules_vector({p.name: v})
            for s in slots_of(p.name):
                vec[s] = one[s]
    validate(vec)
    return Candidate(settings=tuple((p.name, v) for p, v in combo), labels=tuple(p.label(v) for p, v in combo),
                     rules=vec, changes=len(combo), size=sum(p.steps(v) for p, v in combo))
