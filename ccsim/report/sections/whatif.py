"""The variants and cards sections: rules changes and card ablations on common deals (``ccsim whatif``)."""
from __future__ import annotations

import pandas as pd

from ccsim.kernel import rules as R
from ccsim.runner.changes import RESERVED as BASE, change_phrase
from ccsim.runner.parameters import STANDARD_RULES, VARIANT_WORDS
from ccsim.report.claims import Claim, Estimate, make_claim, more_games, words_for
from ccsim.report.figures import level_forest
from ccsim.report.kinds import KINDS
from ccsim.report.parts import Part
from ccsim.report.sections.common import SECTION_TITLES, Section, command_line, estimates_of, rests_on, stated_estimate
from ccsim.report.spec import Study
from ccsim.report.tables import Show
from ccsim.report.units import margin, metric_unit, quote, with_unit


def whatif_part(name: str, st: Study, level: str, games: int, variants, changes, cards: bool) -> Part:
    def compute(up, progress, backend=None):
        from ccsim.analyses.whatif import whatif
        w = whatif([level], games=games, seed=st.seed, variants=list(variants), changes=list(changes), cards=cards,
                   progress=progress, backend=backend)
        if w.info.get("interrupted"):
            raise KeyboardInterrupt
        tables = dict(metrics=w.metrics, lengths=w.lengths)
        if w.cards is not None:
            tables["cards"] = w.cards
        return tables, dict(games=w.info["games"], deals=w.info["deals"], seconds=w.info["seconds"],
                            arms=w.info["arms"])
    n_arms = 1 + len(variants) + len(changes) + (12 if cards else 0)
    return Part(name, dict(level=level, games=games, seed=st.seed, variants=list(variants),
                           changes=[(c.name, c.block, c.variants) for c in changes], cards=cards),
                games * n_arms, compute)


def plan_variants(st: Study) -> list[Part]:
    s = st.sections["variants"]
    return [whatif_part(f"variants:{lv}", st, lv, st.games_for(lv, s["games"], "variants"), s["variants"],
                        s["change"], False) for lv in s["levels"]]


def changes_toml(changes) -> str:
    """The study's rules changes as a what-if rules file (written beside the report: the claims cite it)."""
    lines = ["# the [[variants.change]] tables of the study, as a `ccsim whatif --rules` file"]
    for c in changes:
        lines += ["", "[[change]]", f"name = {_toml(c.name)}"]
        if c.variants:
            lines.append(f"variants = [{', '.join(_toml(v) for v in c.variants)}]")
        lines += [f"{k} = {_toml(v)}" for k, v in c.block.items()]
    return "\n".join(lines) + "\n"


def _toml(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


_ARM_METRICS = (("seat_advantage", "rules_seat", "Cleopatra's seat advantage"),
                ("turns", "rules_length", "the game's length"), ("draw_rate", "rules_draws", "the draw rate"))


def arm_phrase(arm: str, changes) -> str:
    """An arm as a sentence names it, what it changes in plain words between dashes: a variant of R11
    ("the variant two_orgies — one plain orgy is boxed before play —") or one of ``changes``."""
    if arm in R.VARIANTS:
        return f"the variant {arm} — {VARIANT_WORDS[arm]} —"
    change = next((c for c in changes if c.name == arm), None)
    return change_phrase(change) if change is not None else arm


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def rules_statement(arm: str, words: str, kind: str, e: Estimate, games: int) -> str:
    """What a rules change does to one figure, against the standard rules on the same deals, in words that
    fit its class: a change, a real but small one, no practical difference, too few deals to tell, or the
    same on every deal.  ``arm``: the change as a sentence names it (``arm_phrase``)."""
    k = KINDS[kind]
    q, who = quote(e.value, e.lo, e.hi, k.unit, k.signed), f"with {e.context} on both sides"
    same = f"against the standard rules on the same {games:,} deals"
    if e.lo == e.hi:  # every paired deal differs by the same amount: no interval to speak of
        if e.value == 0:
            return f"{_cap(arm)} leaves {words} unchanged on every one of the same {games:,} deals {who}."
        return (f"{_cap(arm)} changes {words} by exactly {with_unit(e.value, k.unit, signed=k.signed)} on every "
                f"deal {who}.")
    return words_for(e, kind, clear=f"{_cap(arm)} changes {words} by {q} {who}, {same}.",
                     small=f"{_cap(arm)} changes {words} by {q} {who}, {same}: a real effect, but smaller than "
                           f"{margin(k.seoi, k.unit)}, the smallest that matters here.",
                     negligible=f"{_cap(arm)} makes no practical difference to {words} {who}: {q} {same}, within "
                                f"{margin(k.seoi, k.unit)}.",
                     unclear=f"What {arm} does to {words} {who} cannot be told from {games:,} deals: {q} against "
                             f"the standard rules{more_games(e, kind, games, 'deals')}.")


def _arm_claim(st: Study, d: pd.DataFrame, arm: str, metric: str, kind: str, words: str, levels) -> Claim | None:
    """The claim on one arm's effect on one metric, stated at the section's headline level."""
    s = st.sections["variants"]
    ests = estimates_of(d, "level", dict(arm=arm, metric=metric))
    if not ests:
        return None
    e = stated_estimate(ests, st.headline_for(levels))
    row = d[(d["arm"] == arm) & (d["metric"] == metric) & (d["level"] == e.context)].iloc[0]
    g = int(row["games"])
    phrase = arm_phrase(arm, s["change"])
    text = rules_statement(phrase, words, kind, e, g)
    if metric == "seat_advantage":  # the arm's own figure, so no one has to add it up
        own = quote(row["arm_value"], row["arm_lo"], row["arm_hi"], "points")
        text = text[:-1] + f"; under it Cleopatra's score is {own} from an even 50%."
    args = ["whatif", "--strategy", e.context, "--games", g, "--seed", st.seed]
    args += [x for v in s["variants"] for x in ("--variant", v)] or ["--no-variants"]
    if s["change"]:
        args += ["--rules", "changes.toml"]
    return make_claim(
        f"variants.{arm}.{metric}", "variants", kind, e, ests, text,
        rests_on=rests_on(e.context, g, st.seed, f" vs itself, {arm} vs the standard rules"), command=command_line(*args, "--json"),
        json_path=["metrics", f"strategy={e.context}&arm={arm}&metric={metric}", "diff"], games=g,
        title=f"{words} under {arm}")


#: a table of ``ccsim.analyses.whatif`` metrics: each row in its metric's unit (``unit`` column)
WHATIF_SHOWS = [Show(("value", "ci_lo", "ci_hi")), Show(("base",)), Show(("diff", "diff_lo", "diff_hi"), difference=True)]


def whatif_metrics(frames) -> pd.DataFrame:
    """The what-if metrics of every level, one table, each row with its unit."""
    met = pd.concat(frames, ignore_index=True).rename(columns=dict(strategy="level"))
    return met.assign(unit=[metric_unit(m) for m in met["metric"]])


def build_variants(st: Study, res: dict) -> Section:
    s = st.sections["variants"]
    sec = Section("variants", SECTION_TITLES["variants"])
    met = whatif_metrics([res[f"variants:{lv}"].tables["metrics"] for lv in s["levels"]])
    sec.tables["metrics"] = met
    sec.shows["metrics"] = WHATIF_SHOWS
    arms = [a for a in dict.fromkeys(met["arm"]) if a != BASE]
    met["rules"] = [STANDARD_RULES if a == BASE else arm_phrase(a, s["change"]).strip(" —") for a in met["arm"]]
    # the difference to the standard rules is each claim's figure; the arm's own value stays beside it
    d = met[met["kind"] != "base"].rename(columns=dict(value="arm_value", ci_lo="arm_lo", ci_hi="arm_hi",
                                                       diff="value", diff_lo="lo", diff_hi="hi"))
    for arm in arms:
        for metric, kind, words in _ARM_METRICS:
            c = _arm_claim(st, d, arm, metric, kind, words, s["levels"])
            if c is not None:
                sec.claims.append(c)
    for metric, kind, words in _ARM_METRICS[:2]:
        sub = d[d["metric"] == metric].assign(item=lambda x: x["arm"])
        unit = KINDS[kind].unit
        scale = 100.0 if unit == "points" else 1.0
        sec.figures[metric] = level_forest(sub, "item", "level", f"What each rules change does to {words} "
                                           f"(mirror games, same deals, seed {st.seed})",
                                           f"difference to the standard rules, {unit} (paired, 95% interval; band: "
                                           f"{margin(KINDS[kind].seoi, unit)}, no practical difference)",
                                           scale=scale, levels=list(s["levels"]), band=KINDS[kind].seoi)
    sec.conclusions += [c.sentence() for c in sec.claims if c.id.endswith(".seat_advantage")]
    sec.conclusions += [c.sentence() for c in sec.claims if not c.id.endswith(".seat_advantage")]
    sec.games = int(sum(res[f"variants:{lv}"].info["games"] for lv in s["levels"]))
    return sec


# --- cards ---------------------------------------------------------------------------------

def plan_cards(st: Study) -> list[Part]:
    s = st.sections["cards"]
    return [whatif_part(f"cards:{lv}", st, lv, st.games_for(lv, s["games"], "cards"), (), (), True)
            for lv in s["levels"]]


def _card_statement(card: str, e: Estimate, games: int) -> str:
    k = KINDS["card_worth"]
    q = quote(e.value, e.lo, e.hi, "points")
    how = f"(one copy taken out of her deck, both players averaged, on the same {games:,} deals)"
    who = f"with {e.context} on both sides"
    worth = f"One {card} card is worth {q} of its owner's score {who} {how}"
    # a card worth less than nothing needs a word of why (a designer reads the surprise, not just the sign)
    why = (f" Worth less than nothing: its owner does better without the copy, because {e.context} plays it "
           f"where it helps less than the action card drawn in its place (R2.2, R4.1); the figure is the card as "
           f"this strategy plays it, not the card itself." if e.hi < 0 else "")
    return words_for(e, "card_worth", clear=f"{worth}.{why}",
                     small=f"{worth}: a real effect, but smaller than {margin(k.seoi, k.unit)}, the smallest that "
                           f"matters here.{why}",
                     negligible=f"One {card} card makes no practical difference to its owner's score {who}: {q}, "
                                f"within {margin(k.seoi, k.unit)} {how}.",
                     unclear=f"What one {card} card is worth cannot be told {who}: {q} {how}"
                             f"{more_games(e, 'card_worth', games, 'deals')}.")


def _cards_cmd(st: Study, level: str, games: int) -> str:
    return command_line("whatif", "--strategy", level, "--games", games, "--seed", st.seed, "--no-variants", "--cards",
                        "--json")


def build_cards(st: Study, res: dict) -> Section:
    s = st.sections["cards"]
    sec = Section("cards", SECTION_TITLES["cards"])
    cards = pd.concat([res[f"cards:{lv}"].tables["cards"] for lv in s["levels"]], ignore_index=True).rename(
        columns=dict(strategy="level"))
    sec.tables["worth"] = cards
    ref = st.headline_for(s["levels"])
    both = cards[cards["player"] == "both"].rename(columns=dict(worth="value", ci_lo="lo", ci_hi="hi"))
    for card in R.ACTION_NAMES:
        ests = estimates_of(both, "level", dict(card=card))
        e = stated_estimate(ests, ref)
        g = st.games_for(e.context, s["games"], "cards")
        sec.claims.append(make_claim(
            f"cards.{card}", "cards", "card_worth", e, ests, _card_statement(card, e, g),
            rests_on=rests_on(e.context, g, st.seed, " vs itself, one card ablated"), command=_cards_cmd(st, e.context, g),
            json_path=["cards", f"strategy={e.context}&card={card}&player=both", "worth"], games=g,
            title=f"what one {card} card is worth"))
    base = pd.concat([res[f"cards:{lv}"].tables["metrics"] for lv in s["levels"]], ignore_index=True).rename(
        columns=dict(strategy="level", ci_lo="lo", ci_hi="hi"))
    rev = base[(base["arm"] == BASE) & base["metric"].isin(["reversals", "votes"])]
    sec.tables["reversals"] = rev[["level", "metric", "value", "lo", "hi", "games"]].reset_index(drop=True)
    sec.shows = dict(worth=[Show(("worth", "ci_lo", "ci_hi"), "points")], reversals=[Show(("value", "lo", "hi"), "votes")])
    ests = estimates_of(rev, "level", dict(metric="reversals"))
    e = stated_estimate(ests, ref)
    g = st.games_for(e.context, s["games"], "cards")
    votes = float(rev[(rev["level"] == e.context) & (rev["metric"] == "votes")]["value"].iloc[0])
    text = (f"Philosophers reverse {quote(e.value, e.lo, e.hi, 'votes')} a game (R6.3), "
            f"{100 * e.value / votes:.1f}% of the {votes:.1f} votes, with {e.context} on both sides.")
    sec.claims.append(make_claim(
        "cards.reversals", "cards", "reversals", e, ests, text, rests_on=rests_on(e.context, g, st.seed, " vs itself"),
        command=_cards_cmd(st, e.context, g),
        json_path=["metrics", f"strategy={e.context}&arm={BASE}&metric=reversals", "value"], games=g,
        title="votes reversed by philosophers (R6.3)"))
    sec.figures["worth"] = level_forest(
        both.assign(item=both["card"]), "item", "level",
        f"What one action card is worth to its owner (ablation, both players averaged, seed {st.seed})",
        "owner's score lost without one copy, points (paired, 95% interval)", levels=list(s["levels"]),
        band=KINDS["card_worth"].seoi)
    sec.figures["reversals"] = level_forest(
        rev[rev["metric"] == "reversals"].assign(item="reversed votes per game"), "item", "level",
        "Votes reversed by philosophers (R6.3), per game", "votes per game (mean, 95% interval)", null=None,
        scale=1.0, levels=list(s["levels"]))
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(res[f"cards:{lv}"].info["games"] for lv in s["levels"]))
    return sec
