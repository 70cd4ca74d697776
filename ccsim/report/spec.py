"""A balance study: what ``ccsim report STUDY.toml`` plays, read and validated before any game.

The study file (TOML; every section optional, docs/report.md)::

    title = "Caesar & Cleopatra at four levels of play"
    seed = 1
    levels = ["greedy", "majority", "tactician", "expert"]   # weakest to strongest
    reference = "tactician"     # the level headline claims are stated at [the judge's choice below]
    judge = "balanced"          # the headline level is the strongest level that plays both seats alike
                                # (strategies/seats.py) measured at scale: 20,000 seat games and 10,000 deals
                                # a fair-change arm at least; or a level's name, played whatever its seat
                                # status, which the report's opening says (a lopsided level left to "balanced"
                                # never carries the headline: its figures are shown, named so)
    precision = 0.05            # widest 95% half-width a headline figure may have (score, 0..1)

    [caps]                      # most games per measurement for slow players
    expert = 1000

    [seat]                      # mirror games per level (the strategy against itself)
    games = 500_000
    [ladder]
    strategies = "heuristics"   # a list, or "heuristics" / "all"; the search levels join with capped deals
    games = 5_000               # deals per pairing, each played twice, seats swapped
    [orderings]
    level = "tactician"         # the level the ordering search plays at [reference]
    budget = 2_000_000
    top = 5
    presets = ["balanced", "veto-first"]
    field = ["greedy", "majority", "tactician"]   # opponents the top orderings are re-measured against
    games = 20_000              # games per ordering in each re-measurement
    positions_games = 1_000_000
    meta_games = 5_000          # deals per pairing of the ordering meta-game
    search = "../orderings/search"   # a folder of `ccsim orderings search` to read instead of searching again
                                # (its level must be this section's; beside the study file unless absolute)
    at_judge = true             # the study's headline level plays again: the top orderings and the presets, the
                                # best ordering against judge_field, the positions' headline (card and depth picked
                                # at `level`) and the meta-game's headline pairing, each claim then stated at it
    judge_field = ["greedy", "tactician"]   # [field]
    [variants]
    variants = ["two_orgies"]   # R11 variants [all four]
    games = 50_000
    [[variants.change]]         # rules changes, as a what-if rules file's [[change]] tables
    name = "hand of 4"
    hand_size = 4
    [cards]
    games = 50_000
    [game]
    games = 500_000
    [balance]                   # the fair-rules search's recommended changes, re-measured at every level
    results = "../balance"      # a folder written by ``ccsim balance`` (relative to this file); absent: skipped
    games = 100_000             # deals per level (each change and the standard rules on the same deals)
    top = 3                     # how many of its recommended changes, in its order

Any section may carry ``levels`` (a subset or other strategies) in place of the
study's, and ``caps`` (a table strategy = games) over the study's for its measurements.  Every problem is a ``StudyError`` with one line naming it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from ccsim.kernel import rules as R
from ccsim.runner.orderings import OrderingError, parse_ordering
from ccsim.runner.checks import read_toml
from ccsim.analyses.question import WhatIfError, load_changes_data
from ccsim.report.balance_results import BalanceResultsError, read_balance_results
from strategies.registry import available, strategy_id
from ccsim.errors import InputError
from ccsim.analyses.balance.judge import BALANCED, LOPSIDED, lopsided_refusal, seat_status

__all__ = ["StudyError", "Study", "load_study", "parse_study", "SECTIONS", "Z95"]

Z95 = 1.959963984540054
MAX_GAMES = 10**9  # per measurement: beyond this a study takes days; almost surely a typo

#: section -> {key: (type, default)}; ``levels`` is allowed in every section
SECTIONS = {
    "seat": {"games": (int, 200_000)},
    "ladder": {"strategies": ((str, list), "heuristics"), "games": (int, 5_000)},
    "orderings": {"level": (str, None), "budget": (int, 1_000_000), "top": (int, 5),
                  "presets": (list, ["balanced", "veto-first", "assassins-first", "spy-first", "wrath-last"]),
                  "field": (list, None), "games": (int, 20_000), "positions_games": (int, 500_000),
                  "meta_games": (int, 5_000), "search": (str, None), "at_judge": (bool, False),
                  "judge_field": (list, None)},
    "variants": {"variants": (list, None), "games": (int, 50_000), "change": (list, [])},
    "balance": {"results": (str, None), "games": (int, 100_000), "top": (int, 3)},
    "cards": {"games": (int, 50_000)},
    "game": {"games": (int, 200_000)},
}
TOP_KEYS = {"title", "description", "seed", "levels", "reference", "judge", "precision", "caps"} | set(SECTIONS)


class StudyError(InputError):
    """An unusable study file (a usage error: exit status 2 in the CLI)."""


@dataclass(frozen=True)
class Study:
    """A validated study: the global settings and each present section's settings."""
    title: str
    seed: int
    levels: tuple
    reference: str
    precision: float | None
    caps: dict
    sections: dict          # section name -> its settings (defaults filled in, ``levels`` resolved)
    description: str = ""
    source: str = ""        # the file's text, copied beside the report
    path: str = ""
    families: dict = field(default_factory=dict)
    reference_named: bool = False   # the file names ``reference``; otherwise it is computed (``strongest_full_scale``)
    judge: str = "balanced"         # "balanced" or a level: what decides the headline level (``_headline_pool``)

    def games_for(self, level: str, n: int, section: str | None = None) -> int:
        """The games a measurement of ``n`` games plays at ``level`` (capped for slow players: by the
        section's ``caps`` when it has its own, else by the study's)."""
        caps = self.sections[section]["caps"] if section else self.caps
        return min(int(n), int(caps.get(level, n)))

    def is_search(self, level: str) -> bool:
        return self.families.get(level) == "search"

    def full_scale(self, level: str) -> bool:
        """No cap cuts any measurement of ``level`` below the games its section asks for."""
        return all(played == asked for _, lv, asked, played in planned_games(self) if lv == level)

    def strongest_full_scale(self, levels) -> str:
        """The strongest of ``levels`` (weakest first) played at full scale; the strongest when none is."""
        full = [lv for lv in levels if self.full_scale(lv)]
        return (full or list(levels))[-1]

    def at_scale(self, level: str) -> bool:
        """``level`` plays at least ``HEADLINE_MIN`` games in each section that names a minimum and measures
        it (a seat advantage on 20,000 games, a fair-change arm on 10,000 deals)."""
        return all(played >= HEADLINE_MIN[name] for name, lv, _, played in planned_games(self)
                   if lv == level and name in HEADLINE_MIN)

    def strongest_at_scale(self, levels) -> str:
        """The strongest of ``levels`` (weakest first) measured at scale; else (or in a study without a seat or a
        balance section) the strongest at full scale."""
        if not any(name in HEADLINE_MIN for name in self.sections):
            return self.strongest_full_scale(levels)
        scaled = [lv for lv in levels if self.at_scale(lv) and any(lv == x for _, x, _, _ in planned_games(self))]
        return scaled[-1] if scaled else self.strongest_full_scale(levels)

    def headline_for(self, levels) -> str:
        """The level a claim measured at ``levels`` is stated at: the reference when it is one of them,
        else the strongest of them played at full scale."""
        return self.reference if self.reference in levels else self.strongest_full_scale(levels)


#: the least games a level must play to carry the headline claims: the seat advantage on 20,000
#: mirror games, each arm of the fair change on 10,000 deals
HEADLINE_MIN = {"seat": 20_000, "balance": 10_000}


def _fail(where: str, msg: str):
    raise StudyError(f"{where}: {msg}")


def _strategy(name, where: str) -> str:
    if not isinstance(name, str):
        _fail(where, f"a strategy must be a name, got {name!r}")
    try:
        strategy_id(name)
    except KeyError as e:
        _fail(where, str(e.args[0]))
    return name


def _strategies(value, where: str) -> tuple:
    if not isinstance(value, list) or not value:
        _fail(where, "must be a non-empty list of strategy names")
    names = tuple(_strategy(v, where) for v in value)
    if len(set(names)) != len(names):
        _fail(where, "a strategy is named twice")
    return names


def _games(value, where: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, f"must be an integer, got {value!r}")
    if not minimum <= value <= MAX_GAMES:
        _fail(where, f"must be in {minimum:,} .. {MAX_GAMES:,}, got {value:,}")
    return value


def _ladder_names(value, where: str) -> tuple:
    reg = available()
    if value == "heuristics":
        return tuple(s["name"] for s in reg if s["name"] != "random" and s["family"] != "search")
    if value == "all":
        return tuple(s["name"] for s in reg)
    if isinstance(value, str):
        _fail(where, f"must be a list of strategies, 'heuristics' or 'all', got {value!r}")
    return _strategies(value, where)


def _orderings(value, where: str) -> tuple:
    if not isinstance(value, list):
        _fail(where, "must be a list of orderings (13 letters or preset names)")
    out = []
    for v in value:
        try:
            c = parse_ordering(str(v))
        except OrderingError as e:
            _fail(where, str(e))
        if c == "shuffled":
            _fail(where, "shuffled is the baseline every ordering is measured against; leave it out")
        out.append(str(v))
    return tuple(out)


def _caps(value, where: str) -> dict:
    if not isinstance(value, dict):
        _fail(where, "must be a table strategy = games")
    for k, v in value.items():
        _strategy(k, where)
        _games(v, f"{where} {k}", 20)
    return dict(value)


def _section(name: str, data, study_levels: tuple, study_caps: dict) -> dict:
    if not isinstance(data, dict):
        _fail(f"[{name}]", "must be a table")
    spec = SECTIONS[name]
    every = {"levels", "caps"}  # keys any section may carry
    stray = sorted(set(data) - set(spec) - every)
    if stray:
        _fail(f"[{name}]", f"unknown key {stray[0]!r} (known: {', '.join(sorted(set(spec) | every))})")
    out = {k: data.get(k, d) for k, (_, d) in spec.items()}
    out["levels"] = _strategies(data["levels"], f"[{name}] levels") if "levels" in data else study_levels
    # a slow player may play more games in one section than in another (20,000 for the seat, 2,000 a pairing)
    out["caps"] = {**study_caps, **_caps(data.get("caps", {}), f"[{name}] caps")}
    for k, (typ, _) in spec.items():
        if k in data and not isinstance(data[k], typ if isinstance(typ, tuple) else (typ,)):
            _fail(f"[{name}] {k}", f"has the wrong type ({type(data[k]).__name__})")
    return out


def _check_sections(sec: dict, levels: tuple) -> None:
    """Values each section needs beyond their types."""
    if "seat" in sec:
        _games(sec["seat"]["games"], "[seat] games", 100)
    if "game" in sec:
        _games(sec["game"]["games"], "[game] games", 100)
    if "ladder" in sec:
        s = sec["ladder"]
        s["strategies"] = _ladder_names(s["strategies"], "[ladder] strategies")
        if len(set(s["strategies"]) | set(s["levels"])) < 2:
            _fail("[ladder]", "a ladder needs at least two strategies")
        _games(s["games"], "[ladder] games", 50)
    if "orderings" in sec:
        s = sec["orderings"]
        s["budget"] = _games(s["budget"], "[orderings] budget", 10_000)
        if not 1 <= s["top"] <= 20 or isinstance(s["top"], bool):
            _fail("[orderings] top", f"must be in 1 .. 20, got {s['top']!r}")
        s["presets"] = _orderings(s["presets"], "[orderings] presets")
        s["field"] = _strategies(s["field"], "[orderings] field") if s["field"] is not None else s["levels"]
        s["judge_field"] = (_strategies(s["judge_field"], "[orderings] judge_field") if s["judge_field"] is not None
                            else s["field"])
        _games(s["games"], "[orderings] games", 200)
        _games(s["positions_games"], "[orderings] positions_games", 2 * 2 * 61 * 2)
        _games(s["meta_games"], "[orderings] meta_games", 50)
        if s["top"] + len(s["presets"]) < 2:
            _fail("[orderings]", "the meta-game needs at least two orderings (top + presets)")
    if "variants" in sec:
        s = sec["variants"]
        vs = list(R.VARIANTS) if s["variants"] is None else s["variants"]
        for v in vs:
            if v not in R.VARIANTS:
                _fail("[variants] variants", f"unknown variant {v!r} (known: {', '.join(R.VARIANTS)})")
        s["variants"] = tuple(vs)
        try:
            s["change"] = tuple(load_changes_data({"change": s["change"]}, "[[variants.change]]")[0]) \
                if s["change"] else ()
        except WhatIfError as e:
            raise StudyError(str(e)) from None
        if not s["variants"] and not s["change"]:
            _fail("[variants]", "nothing to compare: give variants or [[variants.change]] tables")
        _games(s["games"], "[variants] games", 100)
    if "cards" in sec:
        _games(sec["cards"]["games"], "[cards] games", 100)
    if "balance" in sec:
        _check_balance(sec["balance"])


def _check_balance(s: dict) -> None:
    """[balance]: the folder of a fair-rules search, read now (its changes key the parts); absent, it is skipped."""
    if s["results"] is None:
        _fail("[balance] results", "must name the folder ``ccsim balance`` wrote")
    _games(s["games"], "[balance] games", 100)
    if isinstance(s["top"], bool) or not 1 <= s["top"] <= 20:
        _fail("[balance] top", f"must be in 1 .. 20, got {s['top']!r}")
    try:
        found = read_balance_results(s["results"], s["top"])
    except BalanceResultsError as e:
        raise StudyError(f"[balance] {e}") from None
    s.update(found)


def _half_width(games: int) -> float:
    """The widest 95% half-width of a share measured on ``games`` games (p = 1/2)."""
    return Z95 * 0.5 / math.sqrt(games)


def planned_games(st: Study) -> list[tuple[str, str, int, int]]:
    """(section, level, games asked, games played after the caps) of every headline measurement."""
    out = []
    for name, s in st.sections.items():
        if name == "ladder":
            out += [(name, lv, 2 * s["games"], 2 * (st.games_for(lv, 2 * s["games"], name) // 2))
                    for lv in s["strategies"]]
        elif name != "balance" or s["found"]:
            out += [(name, lv, s["games"], st.games_for(lv, s["games"], name)) for lv in s["levels"]]
    return out


def _check_precision(st: Study) -> None:
    """Every headline figure's planned games must give intervals within ``precision``."""
    if st.precision is None:
        return
    need = math.ceil((Z95 * 0.5 / st.precision) ** 2)
    for name, lv, _, n in planned_games(st):
        if _half_width(n) > st.precision:
            _fail(f"[{name}]", f"{n:,} games at {lv} give 95% intervals up to ±{_half_width(n):.3f}, wider "
                               f"than precision = {st.precision} (needs at least {need:,} games)")


def parse_study(data: dict, source: str = "", path: str = "") -> Study:
    """A Study from the parsed TOML of a study file; StudyError names the first problem."""
    stray = sorted(set(data) - TOP_KEYS)
    if stray:
        _fail("study", f"unknown key or section {stray[0]!r} (known: {', '.join(sorted(TOP_KEYS))})")
    present = [k for k in SECTIONS if k in data]
    if not present:
        _fail("study", f"no section to run (sections: {', '.join(SECTIONS)})")
    seed = data.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        _fail("seed", f"must be an integer in 0 .. 2**63-1, got {seed!r}")
    levels = _strategies(data.get("levels", ["greedy", "majority", "tactician"]), "levels")
    fam = {s["name"]: s["family"] for s in available()}
    reference = data.get("reference", levels[-1])
    if reference not in levels:
        _fail("reference", f"{reference!r} is not one of the levels ({', '.join(levels)})")
    judge = data.get("judge", "balanced")
    if judge != "balanced" and judge not in levels:
        _fail("judge", f"must be \"balanced\" or one of the levels ({', '.join(levels)}), got {judge!r}")
    # a judge named by the file is played whatever its seat status (the report's opening says that status: a
    # level not shown balanced states strong play's figures, not the game's); a named reference must be balanced
    why = lopsided_refusal(reference) if "reference" in data else None
    if why:
        _fail("reference", why)
    precision = data.get("precision")
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float))
                                  or not 0 < precision < 0.5):
        _fail("precision", f"must be a number in (0, 0.5), got {precision!r}")
    caps = _caps(data.get("caps", {}), "[caps]")
    for k in ("title", "description"):
        if k in data and not isinstance(data[k], str):
            _fail(k, "must be a string")
    sections = {k: _section(k, data[k], levels, caps) for k in present}
    if "balance" in sections:  # the results folder lies beside the study file unless it says otherwise
        sections["balance"]["results"] = _beside(sections["balance"]["results"], path)
    if "orderings" in sections and sections["orderings"]["search"]:
        sections["orderings"]["search"] = _beside(sections["orderings"]["search"], path)
    _check_sections(sections, levels)
    st = Study(title=data.get("title", "Balance study"), seed=int(seed), levels=levels, reference=reference,
               precision=None if precision is None else float(precision), caps=dict(caps), sections=sections,
               description=data.get("description", ""), source=source, path=path, families=fam,
               reference_named="reference" in data, judge=judge)
    if "reference" not in data:  # the judge: the strongest balanced level measured at scale (HEADLINE_MIN)
        st = replace(st, reference=judge if judge != "balanced" else st.strongest_at_scale(_headline_pool(levels)))
    if "orderings" in sections:
        s = sections["orderings"]
        s["level"] = _strategy(s["level"] or st.reference, "[orderings] level")
    _check_precision(st)
    return st


def _headline_pool(levels) -> list:
    """The levels that may carry the headline, weakest first: those the seat certificate marks balanced; with
    none, those not lopsided (their seats not measured); with none either, all of them."""
    balanced = [lv for lv in levels if seat_status(lv) == BALANCED]
    fair = [lv for lv in levels if seat_status(lv) != LOPSIDED]
    return balanced or fair or list(levels)


def _beside(folder, study_path: str):
    if not isinstance(folder, str) or not study_path:
        return folder
    return str(Path(study_path).parent / folder)


def load_study(path) -> Study:
    """Read and validate a study file; StudyError (one line) on any problem."""
    data, text = read_toml(path, StudyError)
    try:
        return parse_study(data, text, str(path))
    except StudyError as e:
        raise StudyError(f"{path}: {e}") from None
