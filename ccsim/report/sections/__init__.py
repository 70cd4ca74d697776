"""The sections of a balance report: each plans its parts (``ccsim.report.parts``) and builds,
from their tables, its tables, figures, claims and conclusions.

Every section rests on games played by the analysis commands' own Python API
(``ccsim.analyses.run.run``, ``ccsim.analyses.tournament``, ``ccsim.analyses.orderings.study``, ``ccsim.analyses.whatif``), so
each claim's command line replays the very games it rests on.  A *level* of
play is a strategy playing both seats (mirror games) unless a section says
otherwise; a level that is a search player plays at most ``[caps]`` games per
measurement.
"""
from __future__ import annotations

from ccsim.report.parts import Part
from ccsim.report.sections.balance import build_balance, plan_balance
from ccsim.report.sections.common import SECTION_TITLES, Section
from ccsim.report.sections.ladder import build_ladder, plan_ladder
from ccsim.report.sections.mirror import build_game, build_seat, plan_game, plan_seat, seat_statement
from ccsim.report.sections.orderings import build_orderings, equilibrium, plan_orderings
from ccsim.report.sections.whatif import build_cards, build_variants, changes_toml, plan_cards, plan_variants
from ccsim.report.spec import Study

__all__ = ["Section", "SECTION_TITLES", "plan", "build", "equilibrium", "seat_statement", "changes_toml"]

PLANS = dict(seat=plan_seat, ladder=plan_ladder, orderings=plan_orderings, variants=plan_variants, cards=plan_cards,
             game=plan_game, balance=plan_balance)
BUILDS = dict(seat=build_seat, ladder=build_ladder, orderings=build_orderings, variants=build_variants,
              cards=build_cards, game=build_game, balance=build_balance)


def plan(st: Study, name: str) -> list[Part]:
    return PLANS[name](st)


def build(st: Study, name: str, res: dict) -> Section:
    sec = BUILDS[name](st, res)
    left = [lv for lv in st.levels if lv not in st.sections[name]["levels"]]
    if left:
        sec.notes.append(f"Levels of play in this section: {', '.join(st.sections[name]['levels'])}; the study file "
                         f"leaves out {', '.join(left)}, so no claim here is tested there.")
    return sec
