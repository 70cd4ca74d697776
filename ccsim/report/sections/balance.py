"""The fair-rules section: the changes a fair-rules search (``ccsim balance``) recommends, re-measured
at the study's levels against the standard rules on the same deals (``ccsim whatif``).

The search's own figures rest on its levels and deals; a report re-measures each recommended
change at every level it names (its strong players included), so "fair" is checked where the
report's other claims are made.  The results folder's contract is ``ccsim.report.balance_results``.
"""
from __future__ import annotations

import pandas as pd

from ccsim.runner.changes import RESERVED as BASE, change_phrase
from ccsim.report.claims import make_claim
from ccsim.report.figures import level_forest
from ccsim.report.parts import Part
from ccsim.report.sections.common import SECTION_TITLES, Section, command_line, estimates_of, rests_on, stated_estimate
from ccsim.report.sections.mirror import seat_statement
from ccsim.report.sections.whatif import WHATIF_SHOWS, whatif_part, whatif_metrics
from ccsim.report.spec import Study
from ccsim.report.units import margin

__all__ = ["plan_balance", "build_balance", "RECOMMENDED_FILE"]

RECOMMENDED_FILE = "recommended.toml"  # the re-measured changes, written beside the report: the claims cite it


def plan_balance(st: Study) -> list[Part]:
    s = st.sections["balance"]
    if not s["found"]:
        return []
    return [whatif_part(f"balance:{lv}", st, lv, st.games_for(lv, s["games"], "balance"), (), s["change"],
                        False) for lv in s["levels"]]


def _seat_rows(met: pd.DataFrame) -> pd.DataFrame:
    return met[met["metric"] == "seat_advantage"].rename(columns=dict(ci_lo="lo", ci_hi="hi"))


def _change_claim(st: Study, seat: pd.DataFrame, c):
    s = st.sections["balance"]
    change = c.name
    ests = estimates_of(seat, "level", dict(arm=change))
    e = stated_estimate(ests, st.headline_for(s["levels"]))
    base = stated_estimate(estimates_of(seat, "level", dict(arm=BASE)), e.context)
    g = int(seat[(seat["arm"] == change) & (seat["level"] == e.context)]["games"].iloc[0])
    return make_claim(
        f"balance.{change}", "balance", "seat_advantage", e, ests,
        seat_statement(e, s["tolerance"], change_phrase(c), base), seoi=s["tolerance"], games=g,
        title=f"the seat advantage under {change_phrase(c).removeprefix('the change ').strip(' —')}",
        rests_on=rests_on(e.context, g, st.seed, f" vs itself, {change} vs the standard rules"),
        command=command_line("whatif", "--strategy", e.context, "--games", g, "--seed", st.seed, "--no-variants", "--rules",
                     RECOMMENDED_FILE, "--json"),
        json_path=["metrics", f"strategy={e.context}&arm={change}&metric=seat_advantage", "value"])


def build_balance(st: Study, res: dict) -> Section:
    s = st.sections["balance"]
    sec = Section("balance", SECTION_TITLES["balance"])
    if not s["found"]:
        sec.notes.append(f"No fair-rules search results in {s['results']} yet: run `ccsim balance` there and this "
                         f"report again to re-measure its recommended changes at every level.")
        return sec
    met = whatif_metrics([res[f"balance:{lv}"].tables["metrics"] for lv in s["levels"]])
    sec.tables["metrics"] = met
    sec.shows["metrics"] = WHATIF_SHOWS
    if s["pareto"]:
        sec.tables["pareto"] = pd.read_parquet(s["pareto"])
    if s.get("skill"):  # the search's skill curve (its fairness across levels of play): one plot, the balance results' and the report's
        from ccsim.present.balance_plot import skill_plot
        sec.figures["skill"] = skill_plot(pd.read_parquet(s["skill"]), s["tolerance"])
    seat = _seat_rows(met)
    sec.claims += [_change_claim(st, seat, c) for c in s["change"]]
    sec.figures["seat"] = level_forest(
        seat.assign(item=seat["arm"]), "item", "level",
        f"Seat advantage under each recommended change and the standard rules (mirror games, same deals, seed {st.seed})",
        f"Cleopatra's score − 50%, points (95% interval; band: fair within {margin(s['tolerance'], 'points')})",
        levels=list(s["levels"]), band=s["tolerance"])
    if s["command"]:
        sec.notes.append(f"The recommended changes come from `{s['command']}`.")
    if s.get("recommendation"):
        sec.notes.append("The fair-rules search's answer, on its own fresh deals, is quoted once, in the summary "
                         "(\"In short\"); the figures above re-measure its change on this report's deals.")
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(res[f"balance:{lv}"].info["games"] for lv in s["levels"]))
    return sec
