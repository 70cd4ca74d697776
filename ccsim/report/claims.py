"""Headline claims: a figure, its interval, the players it rests on, the command that
reproduces it, whether it matters (``ccsim.report.kinds``), and whether it survives the
other levels of play or opponents.

A claim is stated once, at one *context* (a level of play, or an opponent): its statement
says what it is there.  Its robustness verdict speaks only of the *other* contexts it was
measured at, in words that fit them (*at* a level, *against* an opponent):

* ``holds at every other level tested (a, b)``: each other interval is in the stated class
  and, for a clear effect, on the same side of the null;
* otherwise, context by context: ``holds at a``, ``reverses at b``, ``negligible at c``,
  ``not significant at d``, ``a clear effect at e`` (a clear effect where the stated figure
  is none), ``not fair at f`` (a seat advantage stated as fair or unclear).

Descriptive figures (no null: turns per game) get the range over the other contexts.
Every sentence is made here from the numbers, so a change in the numbers changes the words
(tests/test_report.py, tests/test_report_wording.py).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ccsim.analyses.precision import games_needed, too_wide
from ccsim.report.kinds import HEADLINE_EFFECTS, KINDS, Kind, classify, direction
from ccsim.report.units import margin, with_unit

__all__ = ["Estimate", "Claim", "Robustness", "robustness", "relations", "make_claim", "words_for", "lookup", "ci_path",
           "lookup_interval", "more_games"]

#: what a claim's estimates vary over -> (noun, preposition)
ACROSS = {"level": ("level", "at"), "opponent": ("opponent", "against"),
          "opponent ordering": ("opponent ordering", "against")}


@dataclass(frozen=True)
class Estimate:
    """One measurement of a claim's figure: where (``context``), value and 95% interval."""
    context: str
    value: float
    lo: float
    hi: float
    games: int = 0


@dataclass(frozen=True)
class Robustness:
    text: str
    holds: bool   # every other context agrees with the stated one (and there is one)


def _relation(e: Estimate, mine: str, mine_dir: int, kind: Kind, seoi: float) -> str:
    """How one other context's estimate reads next to the stated class ``mine``."""
    c = classify(e.lo, e.hi, kind, seoi)
    if c == "clear":
        if mine == "clear":
            return "holds" if direction(e.value, e.lo, e.hi, kind.null) == mine_dir else "reverses"
        return "not fair" if kind.fairness else "a clear effect"
    if c == mine:
        return "holds"
    return {"negligible": "negligible", "fair": "fair", "unclear": "not significant", "small": "small"}[c]


_ALL_AGREE = {"clear": "holds {p} every other {n} tested", "negligible": "negligible {p} every other {n} tested",
              "fair": "fair {p} every other {n} tested", "unclear": "not significant {p} any other {n} tested",
              "small": "small {p} every other {n} tested"}
#: what agreeing with the stated class is called: the stated class itself, but for a clear effect
_AGREE_WORD = {"clear": "holds", "negligible": "negligible", "fair": "fair", "unclear": "not significant",
               "small": "small"}
_ORDER = ("holds", "reverses", "a clear effect", "not fair", "small", "negligible", "fair", "not significant")


def relations(stated: Estimate, others, kind: Kind, seoi: float | None = None) -> dict:
    """{context: how it reads next to the stated figure} for every other context (a figure with a null):
    ``holds`` (in the stated class, and on the same side for a clear effect), ``reverses``, ``a clear effect``,
    ``not fair``, ``negligible``, ``fair``, ``not significant``."""
    seoi = kind.seoi if seoi is None else seoi
    mine = classify(stated.lo, stated.hi, kind, seoi)
    mine_dir = direction(stated.value, stated.lo, stated.hi, kind.null)
    return {e.context: _relation(e, mine, mine_dir, kind, seoi) for e in others if e.context != stated.context}


def robustness(stated: Estimate, others, kind: Kind, seoi: float | None = None, across: str = "level") -> Robustness:
    """The robustness verdict of a figure stated at ``stated`` and measured at ``others`` too."""
    noun, prep = ACROSS[across]
    rest = [e for e in others if e.context != stated.context]
    if not rest:
        return Robustness(f"not tested {prep} another {noun}", False)
    if kind.null is None:
        lo, hi = min(rest, key=lambda e: e.value), max(rest, key=lambda e: e.value)
        if len(rest) == 1:
            return Robustness(f"{with_unit(lo.value, kind.unit, (lo.value, lo.value))} {prep} {lo.context}", False)
        return Robustness(f"ranges from {with_unit(lo.value, kind.unit, (lo.value, lo.value))} ({lo.context}) to "
                          f"{with_unit(hi.value, kind.unit, (hi.value, hi.value))} ({hi.context}) {prep} the other "
                          f"{noun}s tested", False)
    mine = classify(stated.lo, stated.hi, kind, kind.seoi if seoi is None else seoi)
    rel = relations(stated, rest, kind, seoi)
    names = ", ".join(rel)
    if all(r == "holds" for r in rel.values()):
        return Robustness(_ALL_AGREE[mine].format(p=prep, n=noun) + f" ({names})", True)
    groups = [(_AGREE_WORD[mine] if r == "holds" else r, [c for c, x in rel.items() if x == r]) for r in _ORDER]
    return Robustness("; ".join(f"{r} {prep} {', '.join(cs)}" for r, cs in groups if cs), False)


@dataclass
class Claim:
    """A headline claim as data (one entry of ``claims.json``).

    ``json_path`` locates the figure in the ``--json`` output of ``command``:
    keys, list indices, or ``key=value[&key=value...]`` to pick the one element of a
    list of objects that matches; ``ci_path`` locates its 95% interval ([lo, hi]) there.
    ``kind`` names its smallest effect of interest ``seoi`` (``ccsim.report.kinds``) and
    ``effect`` its class at the stated context; ``convergence`` compares the two strongest
    levels it was measured at (``ccsim.report.sections.convergence``).
    """
    id: str
    section: str
    statement: str
    value: float
    lo: float
    hi: float
    unit: str
    level: str
    rests_on: str
    command: str
    json_path: list
    verdict: str
    games: int
    estimates: list = field(default_factory=list)
    kind: str = ""
    seoi: float = 0.0
    effect: str = ""
    holds: bool = False
    across: str = "level"
    signed: bool = False
    ci_path: list = field(default_factory=list)
    context: str = ""     # where the figure is stated: ``level``, or the opponent for a claim across opponents
    convergence: dict | None = None
    title: str = ""       # what it measures, in plain words, for the page's links and lists (the id is its key)
    fast: dict | None = None       # stated at the judge: the fast level's figure beside it (``ccsim.report.beside``)
    predicted: dict | None = None  # ... and the judge's figure the map predicted from it, and whether it held

    @property
    def headline(self) -> bool:
        """Worth a headline: a clear effect, a fair seat, or a description; never a negligible or unclear one."""
        return self.effect in HEADLINE_EFFECTS

    @property
    def anchor(self) -> str:
        """The HTML id of the claim's box in report.html."""
        return "claim-" + "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in self.id)

    def to_json(self) -> dict:
        d = asdict(self)
        d["estimates"] = [asdict(e) if isinstance(e, Estimate) else e for e in self.estimates]
        d["headline"] = self.headline
        d["anchor"] = self.anchor
        return d

    @property
    def stated(self) -> Estimate:
        return next(e for e in self.estimates if e.context == self.context)

    def sentence(self) -> str:
        return f"{self.statement} Robustness: {self.verdict}."


def make_claim(id: str, section: str, kind: str, stated: Estimate, estimates: list, statement: str, rests_on: str,
               command: str, json_path: list, level: str | None = None, across: str = "level",
               seoi: float | None = None, games: int | None = None, title: str = "") -> Claim:
    """A claim of ``kind`` stated at ``stated`` (one of ``estimates``), its class and robustness filled in;
    ``title`` names it in plain words (default: what its kind measures)."""
    k = KINDS[kind]
    seoi = k.seoi if seoi is None else seoi
    rob = robustness(stated, estimates, k, seoi, across)
    return Claim(id=id, section=section, statement=statement, value=stated.value, lo=stated.lo, hi=stated.hi,
                 unit=k.unit, level=level or stated.context, rests_on=rests_on, command=command, json_path=json_path,
                 verdict=rob.text, games=stated.games if games is None else games, estimates=list(estimates),
                 kind=kind, seoi=seoi, effect=classify(stated.lo, stated.hi, k, seoi), holds=rob.holds,
                 across=across, signed=k.signed, ci_path=ci_path(json_path), context=stated.context,
                 title=title or k.what)


def words_for(e: Estimate, kind: str, clear: str, negligible: str, unclear: str, seoi: float | None = None,
              small: str | None = None) -> str:
    """The sentence that fits the class of ``e`` for a claim of ``kind``: a clear effect, a real but small
    one (``small``; by default the clear sentence saying it is below the smallest effect of interest),
    no practical difference, or too few games to tell."""
    k = KINDS[kind]
    effect = classify(e.lo, e.hi, k, seoi)
    if effect == "small" and small is None:
        small = (f"{clear[:-1]}: a real effect, but smaller than {margin(k.seoi if seoi is None else seoi, k.unit)}, "
                 f"the smallest that matters here.")
    return {"negligible": negligible, "unclear": unclear, "small": small}.get(effect, clear)


def more_games(e: Estimate, kind: str, games: int, noun: str = "games", seoi: float | None = None) -> str:
    """Where ``e``'s interval is wider than the band it is judged against (±seoi), how many games would
    narrow it to half the band (a figure says when it rests on too few games); "" otherwise."""
    k = KINDS[kind]
    s = k.seoi if seoi is None else seoi
    if k.null is None or not too_wide(e.lo, e.hi, s) or games <= 0:
        return ""
    return f" (about {games_needed(e.lo, e.hi, games, s):,} {noun} would narrow it to {margin(s / 2, k.unit)})"


def ci_path(json_path: list) -> list:
    """Where a figure's 95% interval lies in its command's JSON: beside it, as ``ci95`` (``diff_ci95`` for a
    difference), a list [lo, hi]; a figure read as ``1-x`` (the other entrant's score) keeps that mark."""
    flip = json_path[-1:] == ["1-x"]
    path = json_path[:-1] if flip else list(json_path)
    return path[:-1] + ["diff_ci95" if path[-1] == "diff" else "ci95"] + (["1-x"] if flip else [])


def lookup(obj, path):
    """The value at ``path`` (a claim's ``json_path``) in a command's JSON output."""
    for key in path:
        if key == "1-x":  # the figure is the other side's share: the command reports the first entrant's
            obj = 1 - obj
        elif isinstance(key, str) and "=" in key and isinstance(obj, list):
            want = dict(kv.split("=", 1) for kv in key.split("&"))
            hits = [x for x in obj if all(str(x.get(k)) == v for k, v in want.items())]
            if len(hits) != 1:
                raise KeyError(f"{key}: {len(hits)} matches")
            obj = hits[0]
        else:
            obj = obj[key]
    return obj


def lookup_interval(obj, path) -> tuple[float, float]:
    """The 95% interval at ``path`` (a claim's ``ci_path``): [lo, hi], turned over for a ``1-x`` figure."""
    if path[-1:] == ["1-x"]:
        lo, hi = lookup(obj, path[:-1])
        return 1 - hi, 1 - lo
    lo, hi = lookup(obj, path)
    return lo, hi
