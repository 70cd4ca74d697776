"""The variants and cards sections: rules changes and card ablations on common deals (``ccsim whatif``)."""
from __future__ import annotations

import pandas as pd

from ccsim.kernel import rules as R
from ccsim.report.claims import Claim, fmt, fmt_ci, verdict
from ccsim.report.figures import level_forest
from ccsim.report.parts import Part
from ccsim.report.sec_common import SECTION_TITLES, Section, _cmd, _estimates, _rests, _stated
from ccsim.report.spec import Study


def _whatif_part(name: str, st: Study, level: str, games: int, variants, changes, cards: bool) -> Part:
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
    return [_whatif_part(f"variants:{lv}", st, lv, st.games_for(lv, s["games"]), s["variants"], s["change"], False)
            for lv in s["levels"]]


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


_ARM_METRICS = (("seat_advantage", "points", "Cleopatra's seat advantage"), ("turns", "mean", "the game's length"),
                ("draw_rate", "points", "the draw rate"))  # a difference of shares: in points


def build_variants(st: Study, res: dict) -> Section:
    s = st.sections["variants"]
    sec = Section("variants", SECTION_TITLES["variants"])
    frames = [res[f"variants:{lv}"].tables["metrics"] for lv in s["levels"]]
    met = pd.concat(frames, ignore_index=True).rename(columns=dict(strategy="level"))
    sec.tables["metrics"] = met
    ref = st.reference if st.reference in s["levels"] else s["levels"][-1]
    arms = [a for a in dict.fromkeys(met["arm"]) if a != "RULES.md"]
    # the difference to RULES.md is each claim's figure; the arm's own value stays beside it
    d = met[met["kind"] != "base"].rename(columns=dict(value="arm_value", ci_lo="arm_lo", ci_hi="arm_hi",
                                                       diff="value", diff_lo="lo", diff_hi="hi"))
    for arm in arms:
        for metric, unit, words in _ARM_METRICS:
            ests = _estimates(d, "level", dict(arm=arm, metric=metric))
            if not ests:
                continue
            e = _stated(ests, ref)
            g = int(d[(d["arm"] == arm) & (d["metric"] == metric) & (d["level"] == e.context)]["games"].iloc[0])
            diff, ci = fmt(e.value, unit, (e.lo, e.hi)), fmt_ci(e.lo, e.hi, unit)
            tail = " turns" if unit == "mean" else " points"
            sig = "changes" if e.lo > 0 or e.hi < 0 else "does not measurably change"
            text = (f"{arm} {sig} {words} with {e.context} on both sides: {diff}{tail} {ci} against RULES.md on "
                    f"the same {g:,} deals.")
            args = ["whatif", "--strategy", e.context, "--games", g, "--seed", st.seed]
            args += [x for v in s["variants"] for x in ("--variant", v)] or ["--no-variants"]
            if s["change"]:
                args += ["--rules", "changes.toml"]
            sec.claims.append(Claim(
                id=f"variants.{arm}.{metric}", section="variants", statement=text, value=e.value, lo=e.lo, hi=e.hi,
                unit=unit, level=e.context, rests_on=_rests(e.context, g, st.seed, f" vs itself, {arm} vs RULES.md"),
                command=_cmd(*args, "--json"),
                json_path=["metrics", f"strategy={e.context}&arm={arm}&metric={metric}", "diff"],
                verdict=verdict(e, ests, 0.0), games=g, estimates=ests))
    for metric, unit, words in _ARM_METRICS[:2]:
        sub = d[d["metric"] == metric].assign(item=lambda x: x["arm"])
        scale, xl = (100.0, "difference to RULES.md, points (paired, 95% interval)") if unit == "points" else \
            (1.0, "difference to RULES.md, turns per game (paired, 95% interval)")
        sec.figures[metric] = level_forest(sub, "item", "level", f"What each rules change does to {words} "
                                           f"(mirror games, same deals, seed {st.seed})", xl, scale=scale,
                                           levels=list(s["levels"]))
    sec.conclusions += [c.sentence() for c in sec.claims if c.id.endswith(".seat_advantage")]
    sec.conclusions += [c.sentence() for c in sec.claims if not c.id.endswith(".seat_advantage")]
    sec.games = int(sum(res[f"variants:{lv}"].info["games"] for lv in s["levels"]))
    return sec


# --- cards ---------------------------------------------------------------------------------

def plan_cards(st: Study) -> list[Part]:
    s = st.sections["cards"]
    return [_whatif_part(f"cards:{lv}", st, lv, st.games_for(lv, s["games"]), (), (), True) for lv in s["levels"]]


def build_cards(st: Study, res: dict) -> Section:
    s = st.sections["cards"]
    sec = Section("cards", SECTION_TITLES["cards"])
    cards = pd.concat([res[f"cards:{lv}"].tables["cards"] for lv in s["levels"]], ignore_index=True).rename(
        columns=dict(strategy="level"))
    sec.tables["worth"] = cards
    ref = st.reference if st.reference in s["levels"] else s["levels"][-1]
    both = cards[cards["player"] == "both"].rename(columns=dict(worth="value", ci_lo="lo", ci_hi="hi"))
    for card in R.ACTION_NAMES:
        ests = _estimates(both, "level", dict(card=card))
        e = _stated(ests, ref)
        g = st.games_for(e.context, s["games"])
        text = (f"One {card} card is worth {fmt(e.value, 'points', (e.lo, e.hi))} points {fmt_ci(e.lo, e.hi, 'points')} of its "
                f"owner's score with {e.context} on both sides (one copy taken out of her deck, both players "
                f"averaged, on the same {g:,} deals).")
        sec.claims.append(Claim(
            id=f"cards.{card}", section="cards", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit="points",
            level=e.context, rests_on=_rests(e.context, g, st.seed, " vs itself, one card ablated"),
            command=_cmd("whatif", "--strategy", e.context, "--games", g, "--seed", st.seed, "--no-variants", "--cards",
                         "--json"),
            json_path=["cards", f"strategy={e.context}&card={card}&player=both", "worth"],
            verdict=verdict(e, ests, 0.0), games=g, estimates=ests))
    base = pd.concat([res[f"cards:{lv}"].tables["metrics"] for lv in s["levels"]], ignore_index=True).rename(
        columns=dict(strategy="level", ci_lo="lo", ci_hi="hi"))
    rev = base[(base["arm"] == "RULES.md") & base["metric"].isin(["reversals", "votes"])]
    sec.tables["reversals"] = rev[["level", "metric", "value", "lo", "hi", "games"]].reset_index(drop=True)
    ests = _estimates(rev, "level", dict(metric="reversals"))
    e = _stated(ests, ref)
    g = st.games_for(e.context, s["games"])
    votes = float(rev[(rev["level"] == e.context) & (rev["metric"] == "votes")]["value"].iloc[0])
    text = (f"Philosophers reverse {fmt(e.value, 'mean', (e.lo, e.hi))} votes a game {fmt_ci(e.lo, e.hi, 'mean')} (R6.3), "
            f"{100 * e.value / votes:.1f}% of the {votes:.1f} votes, with {e.context} on both sides.")
    sec.claims.append(Claim(
        id="cards.reversals", section="cards", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit="mean",
        level=e.context, rests_on=_rests(e.context, g, st.seed, " vs itself"),
        command=_cmd("whatif", "--strategy", e.context, "--games", g, "--seed", st.seed, "--no-variants", "--cards",
                     "--json"),
        json_path=["metrics", f"strategy={e.context}&arm=RULES.md&metric=reversals", "value"],
        verdict=verdict(e, ests, 0.0), games=g, estimates=ests))
    sec.figures["worth"] = level_forest(
        both.assign(item=both["card"]), "item", "level",
        f"What one action card is worth to its owner (ablation, both players averaged, seed {st.seed})",
        "owner's score lost without one copy, points (paired, 95% interval)", levels=list(s["levels"]))
    sec.figures["reversals"] = level_forest(
        rev[rev["metric"] == "reversals"].assign(item="reversed votes per game"), "item", "level",
        "Votes reversed by philosophers (R6.3), per game", "votes per game (mean, 95% interval)", null=None,
        scale=1.0, levels=list(s["levels"]))
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(res[f"cards:{lv}"].info["games"] for lv in s["levels"]))
    return sec
