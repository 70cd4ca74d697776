"""The seat and game sections: both rest on each level's mirror games (``ccsim run --metrics``)."""
from __future__ import annotations

import pandas as pd

from ccsim.runner.config import RunConfig
from ccsim.report.claims import Estimate, make_claim, more_games
from ccsim.report.figures import length_boxes, level_forest, stacked_shares
from ccsim.report.kinds import KINDS, classify
from ccsim.report.parts import Part
from ccsim.report.sections.common import SECTION_TITLES, Section, command_line, estimates_of, rests_on, stated_estimate
from ccsim.report.spec import Study
from ccsim.report.tables import Show
from ccsim.report.units import margin, metric_unit, quote


def mirror_games(st: Study, section: str) -> dict:
    """{level: games} of a section's mirror games."""
    s = st.sections[section]
    return {lv: st.games_for(lv, s["games"], section) for lv in s["levels"]}


def _mirror_part(st: Study, level: str, n: int) -> Part:
    def compute(up, progress, backend=None):
        from ccsim.analyses.run import run
        out, _ = run(RunConfig(games=n, seed=st.seed, cleopatra=level, caesar=level), progress=progress,
                     metrics=True, backend=backend)
        if out.get("interrupted"):
            raise KeyboardInterrupt
        met = pd.DataFrame([dict(metric=m["metric"], label=m["label"], group=m["group"], value=m["value"],
                                 lo=m["ci95"][0], hi=m["ci95"][1], units=m["units"])
                            for m in out["metrics"]["metrics"]])
        return dict(metrics=met, lengths=pd.DataFrame(out["metrics"]["lengths"])), \
            dict(games=out["games"], seconds=out["seconds"], end_reasons=out["end_reasons"])
    return Part(f"mirror:{level}:{n}", dict(level=level, games=n, seed=st.seed), n, compute)


def _mirror_cmd(st: Study, level: str, n: int) -> str:
    return command_line("run", "--cleopatra", level, "--caesar", level, "--games", n, "--seed", st.seed, "--metrics",
                        "--json")


def _metric_rows(st: Study, res: dict, section: str) -> pd.DataFrame:
    frames = []
    for lv, n in mirror_games(st, section).items():
        m = res[f"mirror:{lv}:{n}"].tables["metrics"].copy()
        m.insert(0, "level", lv)
        frames.append(m)
    return pd.concat(frames, ignore_index=True)


def seat_statement(e: Estimate, seoi: float = KINDS["seat_advantage"].seoi, change: str = "",
                   base: Estimate | None = None) -> str:
    """R2.6: Cleopatra moves first; her score minus 50% is the seat advantage, in words that say whether the
    game is fair within ±seoi.  ``change``: the rules change it is measured under (``change_phrase``);
    ``base``: the standard rules' figure on the same deals."""
    figure = f"{quote(e.value, e.lo, e.hi, 'points')} from an even 50% over {e.games:,} games"
    if base is not None:
        figure += f" (the standard rules: {quote(base.value, base.lo, base.hi, 'points')} on the same deals)"
    who, within = f"with {e.context} on both sides", margin(seoi, "points")
    effect = classify(e.lo, e.hi, KINDS["seat_advantage"], seoi)
    head, tail = {"fair": (f"the game is fair {who}", f", within {within}"),
                  "unclear": (f"neither seat has a measurable advantage {who}" if e.lo <= 0 <= e.hi else
                              f"{'Cleopatra' if e.value > 0 else 'Caesar'} has a small advantage {who}",
                              f", too few to tell whether the game is fair within {within}"
                              f"{more_games(e, 'seat_advantage', e.games, seoi=seoi)}")}.get(effect, (
        f"{'Cleopatra, who moves first' if e.value > 0 else 'Caesar, who moves second'} (R2.6), has the advantage {who}",
        ""))
    head = f"Under {change} {head}" if change else head[0].upper() + head[1:]  # change: ends in a dash
    return f"{head}: Cleopatra's score is {figure}{tail}."


def plan_seat(st: Study) -> list[Part]:
    return [_mirror_part(st, lv, n) for lv, n in mirror_games(st, "seat").items()]


def build_seat(st: Study, res: dict) -> Section:
    sec = Section("seat", SECTION_TITLES["seat"])
    rows = _metric_rows(st, res, "seat")
    seat = rows[rows["metric"] == "seat_advantage"].copy()
    seat["games"] = seat["units"].astype(int)
    ests = estimates_of(seat, "level", {})
    e = stated_estimate(ests, st.headline_for(list(seat["level"])))
    n = e.games
    sec.claims.append(make_claim(
        "seat.advantage", "seat", "seat_advantage", e, ests, seat_statement(e),
        rests_on=rests_on(e.context, n, st.seed, " vs itself, shuffled decks"), command=_mirror_cmd(st, e.context, n),
        json_path=["metrics", "metrics", "metric=seat_advantage", "value"], title="Cleopatra's seat advantage"))
    draw = rows[rows["metric"] == "draw_rate"]
    sec.tables["seat"] = seat[["level", "value", "lo", "hi", "games"]].rename(
        columns=dict(value="seat_advantage", lo="ci_lo", hi="ci_hi")).merge(
        draw[["level", "value"]].rename(columns=dict(value="draw_rate")), on="level")
    sec.shows["seat"] = [Show(("seat_advantage", "ci_lo", "ci_hi"), "points"), Show(("draw_rate",), "%")]
    sec.figures["seat"] = level_forest(
        seat.assign(item="Cleopatra's score − 50%"), "item", "level",
        f"Seat advantage by level of play (mirror games, seed {st.seed}, 95% intervals)",
        "Cleopatra's score − 50%, points (> 0: the first player is favoured)", levels=list(seat["level"]),
        band=KINDS["seat_advantage"].seoi)
    sec.conclusions.append(sec.claims[0].sentence())
    sec.games = int(seat["games"].sum())
    return sec


# --- the game --------------------------------------------------------------------------------

def plan_game(st: Study) -> list[Part]:
    return [_mirror_part(st, lv, n) for lv, n in mirror_games(st, "game").items()]


_GAME_METRICS = {  # metric: (kind, words)
    "turns": ("game_length", "A game lasts {q} on average"),
    "decisiveness": ("decisiveness", "The VP leader after half the votes goes on to win {q} of games"),
    "lead_changes": ("lead_changes", "A game sees {q} on average (the VP lead passing from one player to the other)"),
}


def _game_claim(st: Study, rows: pd.DataFrame, metric: str, kind: str, text: str, games: dict):
    """A claim on one metric of the mirror games, stated at the section's headline level."""
    ests = estimates_of(rows, "level", dict(metric=metric))
    e = stated_estimate(ests, st.headline_for(list(games)))
    k = KINDS[kind]
    text = text.format(q=quote(e.value, e.lo, e.hi, k.unit, k.signed)) + f" with {e.context} on both sides."
    return make_claim(f"game.{metric if kind != 'end_share' else 'end'}", "game", kind, e, ests, text,
                      rests_on=rests_on(e.context, games[e.context], st.seed, " vs itself"),
                      command=_mirror_cmd(st, e.context, games[e.context]),
                      json_path=["metrics", "metrics", f"metric={metric}", "value"], games=games[e.context])


def _end_words(rows: pd.DataFrame, top: str, level: str) -> str:
    reason = top.removeprefix("end_").replace("_", " ")
    lo = float(rows[(rows["level"] == level) & (rows["metric"] == top)]["lo"].iloc[0])
    return f"Most games end by {reason} (R9): {{q}}" if lo > 0.5 else \
        f"The commonest end is {reason} (R9), in {{q}} of games"


def build_game(st: Study, res: dict) -> Section:
    sec = Section("game", SECTION_TITLES["game"])
    rows = _metric_rows(st, res, "game")
    rows["games"] = rows["units"].astype(int)
    rows["unit"] = [metric_unit(m) for m in rows["metric"]]
    games = mirror_games(st, "game")
    ref = st.headline_for(list(games))
    for metric, (kind, words) in _GAME_METRICS.items():
        sec.claims.append(_game_claim(st, rows, metric, kind, words, games))
    ends = rows[rows["metric"].str.startswith("end_")]
    top = ends[ends["level"] == ref].sort_values("value").iloc[-1]["metric"]
    sec.claims.append(_game_claim(st, rows, top, "end_share", _end_words(rows, top, ref), games))
    keep = ["turns", "votes", "decisiveness", "leader_at_half", "lead_changes", "draw_rate"] + list(ends["metric"].unique())
    sec.tables["metrics"] = rows[rows["metric"].isin(keep)][["level", "metric", "label", "value", "lo", "hi", "unit",
                                                              "games"]].reset_index(drop=True)
    sec.shows["metrics"] = [Show(("value", "lo", "hi"))]
    vp = rows[rows["metric"].str.startswith("vp_")].copy()
    vp["source"] = vp["metric"].str.split("_").str[1]
    vp["player"] = vp["metric"].str.split("_").str[2]
    sec.tables["vp_sources"] = vp[["level", "player", "source", "value", "lo", "hi"]].reset_index(drop=True)
    sec.shows["vp_sources"] = [Show(("value", "lo", "hi"), "VP")]
    lengths = pd.concat([res[f"mirror:{lv}:{n}"].tables["lengths"].assign(level=lv) for lv, n in games.items()])
    sec.tables["lengths"] = lengths.assign(unit=lengths["measure"]).reset_index(drop=True)
    sec.shows["lengths"] = [Show(("mean",)), Show(("sd",))]
    levels = list(games)
    sh = ends.pivot(index="level", columns="metric", values="value").reindex(levels)
    sh.columns = [c.removeprefix("end_").replace("_", " ") for c in sh.columns]
    sec.figures["ends"] = stacked_shares(sh, f"How games end (R9), by level of play (mirror games, seed {st.seed})",
                                         "share of games")
    src = vp.groupby(["level", "source"])["value"].sum().unstack().reindex(levels)[
        ["patricians", "majorities", "all", "bonus"]]
    sec.figures["vp"] = stacked_shares(src, f"Where victory points come from (R10.1–R10.4), both players together "
                                            f"(mirror games, seed {st.seed})",
                                       "victory points per game (mean)")
    sec.figures["length"] = length_boxes(lengths, levels, f"Game length by level of play (mirror games, seed "
                                                          f"{st.seed})")
    sec.conclusions += [c.sentence() for c in sec.claims]
    sec.games = int(sum(games.values()))
    return sec
