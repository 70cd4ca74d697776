"""The seat and game sections: both rest on each level's mirror games (``ccsim run --metrics``)."""
from __future__ import annotations

import pandas as pd

from ccsim.runner.config import RunConfig
from ccsim.report.claims import Claim, Estimate, fmt, fmt_ci, verdict
from ccsim.report.figures import length_boxes, level_forest, stacked_shares
from ccsim.report.parts import Part
from ccsim.report.sec_common import SECTION_TITLES, Section, _cmd, _estimates, _rests, _stated
from ccsim.report.spec import Study


def mirror_games(st: Study, section: str) -> dict:
    """{level: games} of a section's mirror games."""
    s = st.sections[section]
    return {lv: st.games_for(lv, s["games"]) for lv in s["levels"]}


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
    return _cmd("run", "--cleopatra", level, "--caesar", level, "--games", n, "--seed", st.seed, "--metrics",
                "--json")


def _metric_rows(st: Study, res: dict, section: str) -> pd.DataFrame:
    frames = []
    for lv, n in mirror_games(st, section).items():
        m = res[f"mirror:{lv}:{n}"].tables["metrics"].copy()
        m.insert(0, "level", lv)
        frames.append(m)
    return pd.concat(frames, ignore_index=True)



def seat_statement(e: Estimate) -> str:
    """R2.6: Cleopatra moves first; her score minus 50% is the seat advantage."""
    if e.lo > 0:
        lead = "Cleopatra, who moves first (R2.6), has the advantage"
    elif e.hi < 0:
        lead = "Caesar, who moves second (R2.6), has the advantage"
    else:
        lead = "Neither seat has a measurable advantage"
    return (f"{lead} with {e.context} on both sides: Cleopatra's score is {fmt(e.value, 'points', (e.lo, e.hi))} points from an "
            f"even 50% {fmt_ci(e.lo, e.hi, 'points')} over {e.games:,} games.")


def plan_seat(st: Study) -> list[Part]:
    return [_mirror_part(st, lv, n) for lv, n in mirror_games(st, "seat").items()]


def build_seat(st: Study, res: dict) -> Section:
    sec = Section("seat", SECTION_TITLES["seat"])
    rows = _metric_rows(st, res, "seat")
    seat = rows[rows["metric"] == "seat_advantage"].copy()
    seat["games"] = seat["units"].astype(int)
    ests = _estimates(seat, "level", {})
    e = _stated(ests, st.reference)
    n = e.games
    sec.claims.append(Claim(
        id="seat.advantage", section="seat", statement=seat_statement(e), value=e.value, lo=e.lo, hi=e.hi,
        unit="points", level=e.context, rests_on=_rests(e.context, n, st.seed, " vs itself, shuffled decks"),
        command=_mirror_cmd(st, e.context, n), json_path=["metrics", "metrics", "metric=seat_advantage", "value"],
        verdict=verdict(e, ests, 0.0), games=n, estimates=ests))
    draw = rows[rows["metric"] == "draw_rate"]
    sec.tables["seat"] = seat[["level", "value", "lo", "hi", "games"]].rename(
        columns=dict(value="seat_advantage", lo="ci_lo", hi="ci_hi")).merge(
        draw[["level", "value"]].rename(columns=dict(value="draw_rate")), on="level")
    sec.figures["seat"] = level_forest(
        seat.assign(item="Cleopatra's score − 50%"), "item", "level",
        f"Seat advantage by level of play (mirror games, seed {st.seed}, 95% intervals)",
        "Cleopatra's score − 50%, points (> 0: the first player is favoured)", levels=list(seat["level"]))
    sec.conclusions.append(sec.claims[0].sentence())
    sec.games = int(seat["games"].sum())
    return sec


# --- the game --------------------------------------------------------------------------------

def plan_game(st: Study) -> list[Part]:
    return [_mirror_part(st, lv, n) for lv, n in mirror_games(st, "game").items()]


_GAME_METRICS = {  # metric: (unit, null, words)
    "turns": ("mean", None, "A game lasts {v} turns on average {ci}"),
    "decisiveness": ("%", 0.5, "The VP leader after half the votes goes on to win {v} of games {ci}"),
    "lead_changes": ("mean", None, "The VP lead changes hands {v} times a game {ci}"),
}


def build_game(st: Study, res: dict) -> Section:
    sec = Section("game", SECTION_TITLES["game"])
    rows = _metric_rows(st, res, "game")
    rows["games"] = rows["units"].astype(int)
    ref = st.reference if st.reference in set(rows["level"]) else rows["level"].iloc[-1]
    games = mirror_games(st, "game")
    for metric, (unit, null, words) in _GAME_METRICS.items():
        ests = _estimates(rows, "level", dict(metric=metric))
        e = _stated(ests, ref)
        text = words.format(v=fmt(e.value, unit, (e.lo, e.hi)), ci=fmt_ci(e.lo, e.hi, unit)) + f" with {e.context} on both sides."
        sec.claims.append(Claim(
            id=f"game.{metric}", section="game", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit=unit,
            level=e.context, rests_on=_rests(e.context, games[e.context], st.seed, " vs itself"),
            command=_mirror_cmd(st, e.context, games[e.context]),
            json_path=["metrics", "metrics", f"metric={metric}", "value"], verdict=verdict(e, ests, null),
            games=games[e.context], estimates=ests))
    ends = rows[rows["metric"].str.startswith("end_")]
    top = ends[ends["level"] == ref].sort_values("value").iloc[-1]["metric"]
    ests = _estimates(rows, "level", dict(metric=top))
    e = _stated(ests, ref)
    reason = top.removeprefix("end_")
    text = (f"Most games end by {reason.replace('_', ' ')} (R9): {fmt(e.value, '%', (e.lo, e.hi))} {fmt_ci(e.lo, e.hi, '%')} "
            f"with {e.context} on both sides." if e.lo > 0.5 else
            f"The commonest end is {reason.replace('_', ' ')} (R9), in {fmt(e.value, '%', (e.lo, e.hi))} of games "
            f"{fmt_ci(e.lo, e.hi, '%')} with {e.context} on both sides.")
    sec.claims.append(Claim(
        id="game.end", section="game", statement=text, value=e.value, lo=e.lo, hi=e.hi, unit="%", level=e.context,
        rests_on=_rests(e.context, games[e.context], st.seed, " vs itself"), command=_mirror_cmd(st, e.context,
                                                                                             games[e.context]),
        json_path=["metrics", "metrics", f"metric={top}", "value"], verdict=verdict(e, ests, 0.5),
        games=games[e.context], estimates=ests))
    keep = ["turns", "votes", "decisiveness", "leader_at_half", "lead_changes", "draw_rate"] + list(ends["metric"].unique())
    sec.tables["metrics"] = rows[rows["metric"].isin(keep)][["level", "metric", "label", "value", "lo", "hi",
                                                              "games"]].reset_index(drop=True)
    vp = rows[rows["metric"].str.startswith("vp_")].copy()
    vp["source"] = vp["metric"].str.split("_").str[1]
    vp["player"] = vp["metric"].str.split("_").str[2]
    sec.tables["vp_sources"] = vp[["level", "player", "source", "value", "lo", "hi"]].reset_index(drop=True)
    lengths = pd.concat([res[f"mirror:{lv}:{n}"].tables["lengths"].assign(level=lv) for lv, n in games.items()])
    sec.tables["lengths"] = lengths.reset_index(drop=True)
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
