"""The judge's figure on the page: Cleopatra's edge with the judge on both sides, beside the level's games.

The level shown is the one every door shows (``ccsim.analyses.levels.strong_level``): the judge, the
strongest search shown balanced, or while none is, the strongest search, its seat gap and status said beside
its figure as the command line says them.  Its figure for the form's setting is *measured* when its store
holds the setting, else *predicted* through the effect map from the fast level's paired difference on the
page's own deals (``ccsim.analyses.judging.figure``).  A form played at that level itself (a confirmation) is
measured by its own games.
"""
from __future__ import annotations

import math

from ccsim.analyses.judging.effect_map import interval_se
from ccsim.analyses.judging.figure import MEASURED, JudgeFigure, judge_figure, judge_figure_of_edge
from ccsim.analyses.judging.store import effect_map_of, fitted_maps, judge_store, setting_key
from ccsim.analyses.levels import SEARCH_LEVELS, strong_level
from ccsim.runner.orderings import SHUFFLED
from ccsim.runner.ruleset import rules_vector
from ccsim.explore.form import FormError, gap_words, read_question
from strategies import seats

__all__ = ["page_judge", "judge_of", "no_judge_note", "no_judge_reason", "store_row", "published_figures"]


def page_judge() -> str | None:
    """The level whose figure the page shows (``strong_level``), None if there is none, or if the store and map
    hold another level's games (they would predict and store that level's figures)."""
    judge, stored = strong_level(), judge_store().judge
    return judge if judge is not None and stored in (None, judge) else None


def no_judge_reason() -> str:
    """Why there is no figure: the store holds another level's games, or no search level is registered."""
    judge, stored = strong_level(), judge_store().judge
    if judge is not None and stored not in (None, judge):
        return (f"the judge's measurements and map are {stored}'s, and {stored} {gap_words(stored)}; {judge}, the "
                f"strongest search level, has none")
    return f"no search level is registered ({', '.join(SEARCH_LEVELS)})"


def no_judge_note() -> str:
    """What the page says in place of the judge's figure while there is no judge."""
    return f"No judge's figure: {no_judge_reason()}, so the figures below are the level's own"


def _json(fig: JudgeFigure | None) -> dict | None:
    return None if fig is None else {**fig.as_json(), "source": fig.source}


def _own(judge: str, trio: dict, deals: int) -> JudgeFigure | None:
    """These games' own figure, when the level played is the judge."""
    if trio is None or trio.get("value") is None or not deals:
        return None
    return JudgeFigure(judge, MEASURED, trio["value"], trio["lo"], trio["hi"], deals=deals, source="these games")


def _se(trio: dict) -> float:
    return interval_se(trio["lo"], trio["hi"]) if trio["lo"] is not None and trio["hi"] is not None else math.nan


def _predicted(q, arm, edge: dict, diff: dict | None, paired: bool) -> JudgeFigure | None:
    """The stored measurement of ``arm``'s setting, or its prediction from the level's games: from the
    paired difference when the standard arm is the judge's standard setting (shuffled decks), else from
    the arm's edge against the level's own standard edge."""
    if paired and diff is not None and diff.get("value") is not None:
        return judge_figure(arm.rules, arm.orders, q.level, diff["value"], _se(diff))
    if edge is not None and edge.get("value") is not None and effect_map_of(q.level) is not None:
        return judge_figure_of_edge(arm.rules, arm.orders, q.level, edge["value"], _se(edge))
    return judge_figure(arm.rules, arm.orders)  # measured, or nothing


def _pick(stored: JudgeFigure | None, own: JudgeFigure | None, own_first: bool) -> JudgeFigure | None:
    """Of a stored figure and the judge's own games here: the games while a confirmation runs, else
    whichever rests on more deals."""
    if own is None:
        return stored
    if own_first or stored is None or stored.how != MEASURED or (own.deals or 0) >= (stored.deals or 0):
        return own
    return stored


def _why_none(q, judge: str) -> str | None:
    """Why a level's games predict nothing for the judge (None for a level with a map: its figure is coming)."""
    mapped = sorted(fitted_maps().get("levels", {}))
    if q.level in mapped:
        return None
    status = seats.status(q.level)
    return (f"{q.level} is {'a balanced level without a map' if status == seats.BALANCED else status}: no map carries "
            f"its effects to {judge}; play {' or '.join(mapped) or 'a balanced fast level'}, or confirm at {judge}")


def judge_of(q, arms, figures: list[dict], diff: dict | None, deals: int, judge: str | None,
             own_first: bool = False) -> dict:
    """The snapshot's ``judge``: {name, gap, changed, standard, note}, each figure a ``JudgeFigure.as_json``
    (shares) with its ``source``, or None; ``figures`` each arm's shown figures, ``diff`` their differences."""
    out = dict(name=judge, gap=None, changed=None, standard=None, note=None)
    if judge is None:
        out["note"] = no_judge_note()
        return out
    out["gap"] = gap_words(judge)
    edges = [f["seat_advantage"] for f in figures]
    paired = tuple(arms[0].orders) == (SHUFFLED, SHUFFLED)
    standard = judge_figure(arms[0].rules, arms[0].orders) if paired else _predicted(q, arms[0], edges[0], None, False)
    changed = standard if len(arms) == 1 else _predicted(q, arms[-1], edges[-1], (diff or {}).get("seat_advantage"),
                                                          paired)
    if q.level == judge:  # the judge played these games itself
        standard = _pick(standard, _own(judge, edges[0], deals), own_first)
        changed = _pick(changed, _own(judge, edges[-1], deals), own_first)
    if changed is not None and changed.judge != judge:  # a store of another judge's games says nothing here
        standard = changed = None
    out.update(changed=_json(changed), standard=_json(standard if standard is None or standard.judge == judge else None))
    if changed is None and deals:
        out["note"] = _why_none(q, judge)
    return out


def store_row(q, arms, snap: dict, judge: str) -> dict:
    """A finished confirmation as a row of the judge's store: the changed setting's edge at the judge and,
    when it was paired with the standard rules on shuffled decks, its effect."""
    arm = arms[-1]
    e = snap["arms"][-1]["figures"]["seat_advantage"]
    d = snap["diff"]["seat_advantage"] if snap["diff"] and tuple(arms[0].orders) == (SHUFFLED, SHUFFLED) else None
    return dict(key=setting_key(arm.rules, arm.orders), words=q.words(), edge=e["value"], ci95=[e["lo"], e["hi"]],
                deals=snap["deals"], seed=q.seed, effect=d and d["value"], effect_ci95=d and [d["lo"], d["hi"]],
                source=f"ccsim explore: confirmed on the page with {judge} (deals 0..{snap['deals'] - 1} of seed "
                       f"{q.seed})", effect_paired=d is not None)


def published_figures(published: dict | None) -> dict | None:
    """The published answer's judge figures (the change's and the standard rules'), as the store holds them,
    for the banner's interval: {change, standard}, each ``as_json`` or None."""
    if not published:
        return None
    fields: dict[str, list[str]] = {}
    for k, v in published.get("query") or []:
        fields.setdefault(k, []).append(str(v))
    try:
        q = read_question(fields)
    except FormError:  # a published change the rules no longer take: the banner keeps its words
        return None
    store = judge_store()
    change = store.get(setting_key(q.rules, q.orders))
    fig = judge_figure(q.rules, q.orders) if change is not None else None
    std = judge_figure(rules_vector(), (SHUFFLED, SHUFFLED)) if store.standard else None
    return dict(change=_json(fig), standard=_json(std))
