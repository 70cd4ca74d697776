"""The few plain sentences a designer reads first, made from the claims (each names the claims it rests on).

1. who wins, and by how much, at the headline level, and what the strongest level measured says;
2. what fixes it: the fair-rules search's first recommended change (a ``[balance]`` section) and
   whether any variant or rules change tested makes the game fair;
3. the strongest action-deck ordering found, and whether it holds at every level;
4. which card is worth most.

A sentence whose section the study leaves out is left out.  The words avoid statistics beyond
"95% interval": "too few games to tell" says what "not significant" means.
"""
from __future__ import annotations

from dataclasses import dataclass

from ccsim.runner.changes import RESERVED as BASE
from ccsim.report.claims import relations
from ccsim.report.kinds import KINDS, classify
from ccsim.report.units import diff_unit, fmt_ci, margin, with_unit

__all__ = ["Sentence", "summary_sentences"]


@dataclass(frozen=True)
class Sentence:
    text: str
    claims: tuple   # the ids of the claims it rests on (their anchors in report.html)


#: how another level reads, in plain words (``ccsim.report.claims.relations``), in this order
_PLAIN = {"holds": "it holds", "reverses": "it reverses", "a clear effect": "there is a clear effect",
          "not fair": "it is not fair", "small": "the effect is real but too small to matter",
          "negligible": "it makes no practical difference", "fair": "it is fair",
          "not significant": "there are too few games to tell"}
#: agreeing with a stated figure that is not a clear effect: the same class, in plain words
_AGREE = {"negligible": _PLAIN["negligible"], "fair": _PLAIN["fair"], "unclear": _PLAIN["not significant"],
          "small": _PLAIN["small"]}


def _figure(c, value=None, lo=None, hi=None) -> str:
    """``+10.1 points (95% interval +10.0 to +10.2 points)``."""
    v, a, b = (c.value, c.lo, c.hi) if value is None else (value, lo, hi)
    return f"{with_unit(v, c.unit, (a, b), c.signed)} (95% interval {fmt_ci(a, b, c.unit, c.signed, words=True)})"


def _elsewhere(c) -> str:
    """The claim at its other levels, in plain words: "it holds at every other level tested (a, b)"."""
    rel = relations(c.stated, c.estimates, KINDS[c.kind], c.seoi)
    if not rel:
        return ""
    prep, noun = ("against", "opponent") if c.across != "level" else ("at", "level")
    words = dict(_PLAIN, holds=_AGREE.get(c.effect, _PLAIN["holds"]))
    if all(r == "holds" for r in rel.values()):
        return f"{words['holds']} {prep} every other {noun} tested ({', '.join(rel)})"
    groups = [(r, [ctx for ctx, x in rel.items() if x == r]) for r in _PLAIN]
    return "; ".join(f"{prep} {', '.join(cs)} {words[r]}" for r, cs in groups if cs)


def _seat(claims: dict, strength) -> Sentence | None:
    c = claims.get("seat.advantage")
    if c is None:
        return None
    who = f"with {c.level} on both sides"
    if c.effect == "fair":
        text = (f"The game is fair {who}: Cleopatra's score is within {margin(c.seoi, c.unit)} of an even 50%, at "
                f"{_figure(c)}.")
    elif c.effect == "unclear":
        text = (f"The games played {who} are too few to tell which seat is favoured: Cleopatra's score is "
                f"{_figure(c)} from an even 50%.")
    else:
        lead = "Cleopatra, who moves first, wins more" if c.value > 0 else "Caesar, who moves second, wins more"
        text = f"{lead}: {who}, Cleopatra's score is {_figure(c)} from an even 50%."
    top = max((e for e in c.estimates if e.context in strength.key), key=lambda e: strength.key[e.context], default=None)
    if top is not None and top.context != c.level:
        text += (f" At {top.context}, the strongest level measured ({top.games:,} games), it is "
                 f"{_figure(c, top.value, top.lo, top.hi)}.")
    return Sentence(text + _settled(c), (c.id,))


def _settled(c) -> str:
    """Whether stronger players would still change the figure, in plain words (``ccsim.report.sections.convergence``)."""
    v = c.convergence
    if not v or "diff" not in v:
        return ""
    if v["verdict"] == "converged" and v["precise"]:
        return (f" Stronger players no longer change it: {v['strongest']} and {v['next']}, the two strongest "
                f"levels, agree within {margin(c.seoi, c.unit)}.")
    if v["lo"] <= 0 <= v["hi"]:
        return (f" Whether stronger players would change it cannot be told yet: {v['strongest']} and {v['next']} "
                f"differ by {with_unit(v['diff'], diff_unit(c.unit), (v['lo'], v['hi']), True)}, and there are too "
                f"few games at {v['strongest']} to tell whether they agree within {margin(c.seoi, c.unit)}.")
    return (f" Stronger players change it: {v['strongest']} and {v['next']}, the two strongest levels, differ by "
            f"{with_unit(v['diff'], diff_unit(c.unit), (v['lo'], v['hi']), True)}.")


def _fix(claims: dict, sections: dict, answer: str = "") -> list:
    """What fixes it: the fair-rules search's own answer word for word (``answer``: the same figures as
    ``ccsim balance`` and results/balance/), then this report's re-measure of its change on the study's deals."""
    out = []
    fair = [c for c in claims.values() if c.section == "balance"]
    if fair and answer:
        c = fair[0]
        band = margin(c.seoi, c.unit)
        check = {"fair": f"agree that it is fair within {band}",
                 "clear": f"find it not fair within {band}"}.get(c.effect, f"cannot tell whether it is within {band}")
        # the answer alone, word for word, then this report's own check of it: a paragraph quoted is never glued
        out.append(Sentence(answer, ()))
        out.append(Sentence(f"This report's own deals (seed and levels below) {check} with {c.level} on both sides: "
                            f"Cleopatra's score under that change comes to {_figure(c)} from an even 50%.", (c.id,)))
    elif fair:
        c = fair[0]
        name = c.title.removeprefix("the seat advantage under ")  # the change in plain words
        if c.effect == "fair":
            text = (f"The smallest change the fair-rules search found is {name}. It makes the game fair with "
                    f"{c.level} on both sides: Cleopatra's score comes to {_figure(c)} from an even 50%.")
        else:
            text = (f"The fair-rules search's first recommended change is {name}. It does not make the game fair "
                    f"within {margin(c.seoi, c.unit)} with {c.level} on both sides: Cleopatra's score is "
                    f"{_figure(c)}.")
        more = _elsewhere(c)
        out.append(Sentence(text + (f" Elsewhere {more}." if more else ""), (c.id,)))
    variants = _variants_fair(claims, sections)
    if variants:
        out.append(variants)
    return out


def _named(row) -> str:
    """A what-if arm as the variants section's table names it, in plain words, closed by a dash (the
    table's ``rules`` column: "the change “hand of 4” — a hand refills to 4 cards (standard: 5)")."""
    words = row.get("rules") or row["arm"]
    return f"{words} —" if " — " in words else f"{words},"


def _variants_fair(claims: dict, sections: dict) -> Sentence | None:
    """Does any variant or rules change tested make the game fair, at the variants' headline level?"""
    sec = sections.get("variants")
    ids = [c for c in claims.values() if c.section == "variants" and c.kind == "rules_seat"]
    if sec is None or not ids:
        return None
    level = ids[0].level
    met = sec.tables["metrics"]
    own = met[(met["metric"] == "seat_advantage") & (met["level"] == level) & (met["arm"] != BASE)]
    k, seoi = KINDS["seat_advantage"], ids[0].seoi
    fair = own[[classify(lo, hi, k, seoi) == "fair" for lo, hi in zip(own["ci_lo"], own["ci_hi"])]]
    if len(fair):
        r = fair.iloc[0]
        return Sentence(f"Of the variants and rules changes tested, {_named(r)} makes the game fair with {level} on both "
                        f"sides: Cleopatra's score comes to {with_unit(r['value'], 'points', (r['ci_lo'], r['ci_hi']))}.",
                        (f"variants.{r['arm']}.seat_advantage",))
    r = own.loc[own["value"].abs().idxmin()]
    score = f"Cleopatra's score {with_unit(r['value'], 'points', (r['ci_lo'], r['ci_hi']))} from an even 50%"
    fair = f"fair within {margin(seoi, 'points')} with {level} on both sides"
    text = (f"The one variant or rules change tested, {_named(r)} does not make the game {fair}: it leaves {score}."
            if len(own) == 1 else
            f"None of the {len(own)} variants and rules changes tested makes the game {fair}; the closest is "
            f"{_named(r)} it leaves {score}.")
    return Sentence(text, (f"variants.{r['arm']}.seat_advantage",))


def _ordering(claims: dict) -> Sentence | None:
    c = claims.get("orderings.best.levels")
    if c is None:
        return None
    best = c.json_path[1].split("=", 1)[1]
    if c.effect == "clear":
        text = (f"The strongest action-deck ordering found, {best}, is worth {_figure(c)} of score against a shuffled "
                f"deck with {c.level} on both sides")
    else:
        text = (f"The strongest action-deck ordering found, {best}, makes no clear difference against a shuffled deck "
                f"with {c.level} on both sides: {_figure(c)}")
    more = _elsewhere(c)
    ids = [c.id]
    f = claims.get("orderings.best.field")
    if f is not None and f.effect != "clear":
        more += ("; " if more else "") + (f"played against {f.context} it makes no clear difference "
                                          f"({with_unit(f.value, f.unit, (f.lo, f.hi), True)})")
        ids.append(f.id)
    return Sentence(text + (f"; {more}." if more else "."), tuple(ids))


def _card(claims: dict) -> Sentence | None:
    cards = [c for c in claims.values() if c.section == "cards" and c.kind == "card_worth"]
    if not cards:
        return None
    c = max(cards, key=lambda c: c.value)
    card = c.id.removeprefix("cards.")
    if c.effect != "clear":
        return Sentence(f"No card's worth is clear with {c.level} on both sides at this many games: the highest, the "
                        f"{card}, is {_figure(c)} of its owner's score.", (c.id,))
    more = _elsewhere(c)
    return Sentence(f"The card worth most is the {card}: one copy is worth {_figure(c)} of its owner's score with "
                    f"{c.level} on both sides" + (f"; {more}." if more else "."), (c.id,))


def summary_sentences(claims: list, sections: list, strength, answer: str = "") -> list:
    """The summary, in the order a designer asks: who wins, what fixes it (``answer``: the fair-rules
    search's recommendation in its own words, when its results folder has one), the best ordering, the best card."""
    by_id = {c.id: c for c in claims}
    by_name = {s.name: s for s in sections}
    out = [_seat(by_id, strength)] + _fix(by_id, by_name, answer) + [_ordering(by_id), _card(by_id)]
    return [s for s in out if s is not None]
