"""Balance reports: ``ccsim report STUDY.toml --out DIR`` and its Python API.

>>> from ccsim.report import run_study, load_study, plan, build   # doctest: +SKIP
>>> rep = run_study("results/balance-report/study.toml", "out")    # doctest: +SKIP
>>> rep.sections[0].tables["seat"]                                  # doctest: +SKIP

Each section's function is ``build(study, name, results)`` over the parts
``plan(study, name)`` lists (``run_parts`` plays them); ``section(study, name)``
does both, returning the section's DataFrames, figures, claims and conclusions.
"""
from dataclasses import replace

from ccsim.report.claims import Claim, Estimate, robustness
from ccsim.report.parts import PartStore
from ccsim.report.sections import SECTION_TITLES, Section, build, plan
from ccsim.report.spec import Study, StudyError, load_study, parse_study
from ccsim.report.study_run import Report, StudyInterrupted, plan_study, run_parts, run_study

__all__ = ["run_study", "load_study", "parse_study", "section", "plan", "build", "plan_study", "run_parts",
           "Study", "StudyError", "StudyInterrupted", "Report", "Section", "Claim", "Estimate", "robustness",
           "SECTION_TITLES", "PartStore"]


def section(study: Study, name: str, store=None, backend=None) -> Section:
    """One section of a study, played on ``backend`` (or loaded from ``store``, a PartStore) and built."""
    parts = plan_study(replace(study, sections={name: study.sections[name]}))
    results, _ = run_parts(parts, store, backend=backend)
    return build(study, name, results)
