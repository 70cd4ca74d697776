"""The figures of the players: the networks, the Elo ladder, the seat gaps, the speeds, the judge and its settings."""
from __future__ import annotations

import json
import re
from typing import Callable

from ccsim.analyses.balance.search.verdict import points
from strategies import seats

from .common import ROOT, edge, gap_interval, read_json, strong_speed


def greedy_elo() -> str:
    """`greedy`'s rating in the round robin of every strategy (results/strategies.json): "−444"."""
    r = next(r for r in read_json("results/strategies.json")["tournament"]["ratings"] if r["entrant"] == "greedy")
    return f"{r['elo']:+.0f}".replace("-", "−")


def _elo(r: dict) -> str:
    lo, hi = r["ci95"]
    return "{:+.0f} Elo [{:+.0f}, {:+.0f}]".format(r["elo"], lo, hi).replace("-", "−")


def expert_round_robin() -> str:
    """`expert` in the round robin of every strategy (results/strategies.json): its rating beside `tactician`'s,
    its scores against the heuristics (every entrant but `random` and `greedy`) and against `greedy`."""
    d = read_json("results/strategies.json")["tournament"]
    rating = {r["entrant"]: r for r in d["ratings"]}
    m = d["matrix"]
    row = m["entrants"].index("expert")
    score = {name: (m["score"][row][j], m["ci95_lo"][row][j], m["ci95_hi"][row][j])
             for j, name in enumerate(m["entrants"]) if j != row}
    heuristics = [s for name, (s, _, _) in score.items() if name not in ("random", "greedy")]
    s, lo, hi = score["tactician"]
    return (f"`expert` rates first, {_elo(rating['expert'])} against `tactician`'s "
            f"{_elo(rating['tactician']).replace(' Elo', '')}; it scores {100 * min(heuristics):.0f}–"
            f"{100 * max(heuristics):.0f}% against every heuristic ({s:.1%} [{lo:.1%}, {hi:.1%}] against `tactician`), "
            f"{score['greedy'][0]:.1%} against `greedy`")


def learned_selection() -> str:
    """The shipped `learned` weights' score against `tactician` on their selection deals: the best round of the
    training (results/learned/history.json), "53.2% [52.2%, 54.2%]"."""
    best = max(read_json("results/learned/history.json")["rounds"], key=lambda r: r["score"])
    lo, hi = best["ci95"]
    return f"{best['score']:.1%} [{lo:.1%}, {hi:.1%}]"


def learned_speed() -> str:
    return f"{strong_speed('learned', 'learned'):,.0f}"


def judge_profile() -> str:
    """Where the judge's time goes, piece by piece (results/bench/judge_profile.json, scripts/profile_judge.py)."""
    from profile_judge import markdown
    return markdown(read_json("results/bench/judge_profile.json"))


def judge_settings_table() -> str:
    """The cheaper settings of the judge tried (results/strength/judge-settings/settings.json): each one's speed
    against the judge's in the same run, its score against the judge, and its seat gap against `tactician`."""
    d = read_json("results/strength/judge-settings/settings.json")
    rows = [f"| setting | games/s in its mirror (×`{d['judge']}`'s) | score against `{d['judge']}` [95%] "
            "| seat gap against `tactician` [95%] |", "| --- | --- | --- | --- |"]
    for r in d["settings"]:
        vs, seats = r["against_judge"], r["seats"]
        score = (f"{vs['score']:.1f}% [{vs['ci95'][0]:.1f}%, {vs['ci95'][1]:.1f}%] on {vs['games']:,} games"
                 if vs else "not played")
        gap = (f"{edge(seats['seat_gap'] / 100, *(x / 100 for x in seats['seat_gap_ci95']))} on "
               f"{seats['deals_a_seat']:,} deals a seat" if seats else "not played")
        rows.append(f"| `{r['name']}` | {r['mirror_games_per_s']:.0f} ({r['speed_ratio']:.1f}×) | {score} | {gap} |")
    rows.append(f"| `{d['judge']}` (today's judge) | {d['judge_mirror_games_per_s']:.1f} (1×) | – | "
                f"{_gap(d['judge'])()} |")
    return "\n".join(rows)


def _score(x: dict) -> str:
    """A score with its interval: "60.2% [59.5%, 60.9%]"."""
    lo, hi = x["ci95"]
    return f"{x['score']:.1%} [{lo:.1%}, {hi:.1%}]"


def _generations(folder: str) -> list[dict]:
    return [json.loads(f.read_text()) for f in sorted((ROOT / folder).glob("gen*.json"))]


def _generation_scores(folder: str) -> Callable[[], str]:
    """A training run's generations' scores against `tactician` on their tuning deals: "57.4% → 60.9% → 61.6%"."""
    return lambda: " → ".join(f"{g['score']:.1%}" for g in _generations(folder))


def neural_gain() -> str:
    """What the shipped run's generation 1 gained over its generation 0, in points."""
    g = _generations("results/neural")
    return points(g[1]["score"] - g[0]["score"])


def neural_minutes() -> str:
    """The shipped network's training, every generation, in minutes (results/neural/history.json)."""
    return f"{sum(g['seconds'] for g in read_json('results/neural/history.json')['generations']) / 60:.0f}"


def _network(a: str, b: str) -> dict:
    return next(r for r in read_json("results/strength/network.json")["rows"] if (r["a"], r["b"]) == (a, b))


def network_table() -> str:
    """The network players on fresh seeds (results/strength/network.json)."""
    rows = ["| player | against | games | score |", "|---|---|---:|---|"]
    for r in read_json("results/strength/network.json")["rows"]:
        against = f"`{r['b']}`" + (" (budget 64)" if r["b"] == "expert" else "")
        rows.append(f"| `{r['a']}` | {against} | {r['games']:,} | {_score(r)} |")
    return "\n".join(rows)


def neural_search_fresh() -> str:
    """`neural-search` against `master` on fresh seeds, and its speed against `tactician` beside `master`'s."""
    r = _network("neural-search", "master")
    speed = read_json("results/strength/network.json")["games_per_s"]
    mine, theirs = speed["neural-search vs tactician"], speed["master vs tactician"]
    return (f"{_score(r)} against `master` over {r['games']:,} games at {mine / theirs:.1f} times its games/s "
            f"against `tactician` ({mine:g} and {theirs:g})")


def network_neural_search_master() -> str:
    return _score(_network("neural-search", "master"))


_DECISIONS = {"all": "all six (the shipped `neural-search`)", "nodraws": "no draws", "msv": "`mode`, `step`, `veto`"}


def retune_table() -> str:
    """`neural-search` re-tuned: each setting against `master` and its speed beside `master`'s
    (results/neural-search/retune/results.json)."""
    d = read_json("results/neural-search/retune/results.json")
    master = d["master_games_per_s_vs_tactician"]
    rows = ["| budget | depth | decisions searched | score vs `master` | games/s vs `tactician` | × `master`'s |",
            "|---:|---:|---|---|---:|---:|"]
    for r in d["tuning"]:
        budget, depth, decisions = re.fullmatch(r"b(\d+)-d(\d+)-(\w+)", r["setting"]).groups()
        rows.append(f"| {budget} | {depth} | {_DECISIONS[decisions]} | "
                    f"{_score(dict(score=r['score_vs_master'], ci95=r['ci95']))} | "
                    f"{r['games_per_s_vs_tactician']:.1f} | {r['games_per_s_vs_tactician'] / master:.1f} |")
    rows.append(f"| `master` | | | | {master:.1f} | 1 |")
    return "\n".join(rows)


def retune_fresh() -> str:
    f = read_json("results/neural-search/retune/results.json")["fresh"]
    return _score(dict(score=f["score_vs_master"], ci95=f["ci95"]))


def _target(a: str, b: str) -> Callable[[], str]:
    """A fresh-seed score of the strength certificate's targets (results/strength/targets.json)."""
    return lambda: _score(next(r for r in read_json("results/strength/targets.json")["rows"] if (r["a"], r["b"]) == (a, b)))


def _ladder_elo(name: str) -> Callable[[], str]:
    """A player's rating on the one Elo scale, with its interval (results/strength/ladder.json)."""
    def figure() -> str:
        r = next(r for r in read_json("results/strength/ladder.json")["ratings"] if r["entrant"] == name)
        return "{:+.0f} [{:+.0f}, {:+.0f}]".format(r["elo"], *r["ci95"]).replace("-", "−")
    return figure


def _seat_gains(name: str) -> Callable[[], str]:
    """A player's gains over `tactician`'s mirror in each seat (strategies/seats.json)."""
    def figure() -> str:
        r = seats.seat_row(name)
        return (f"{points(r['gain_cleopatra'] / 100)} as Cleopatra and {points(r['gain_caesar'] / 100)} as Caesar, "
                f"on {r['deals']:,} deals a seat")
    return figure


def tactician_speed() -> str:
    return f"{strong_speed('tactician', 'tactician'):,.0f}"


def expert_b256_speed() -> str:
    return f"{strong_speed('expert-b256', 'tactician'):.1f}"


def master_speed() -> str:
    return f"{strong_speed('master', 'tactician'):.0f}"


def neural_speed() -> str:
    return f"{strong_speed('neural', 'neural'):,.0f}"


def _gap(name: str) -> Callable[[], str]:
    """``name``'s seat gap with its interval and its kind, in points (the certificate's)."""
    def gap() -> str:
        r = seats.seat_row(name)
        return f"{gap_interval(r)} on {r['deals']:,} deals a seat, {seats.status_of(r)}"
    return gap


def judge_status() -> str:
    """Whether a search judges today: the judge (the strongest search shown balanced), or the strongest search's
    own seat gap and status when none is (strategies/seats.json)."""
    from ccsim.analyses.levels import search_level, strong_level
    if search_level():
        return f"`{search_level()}` judges: {seats.describe(search_level())}, {_gap(search_level())()}."
    name = strong_level()
    return (f"No search is shown balanced today: `{name}` {seats.describe(name)} against `tactician`, "
            f"{_gap(name)()} (a gap known to ±1 point and beyond ±3), and `master`, "
            f"{_gap('master')()}. So {name}'s figures are strong play's best, shown beside every fast figure "
            f"with that said, but not yet a verdict by a balanced judge.")


def calibration() -> str:
    """The judge's map checked on settings it was not fitted on (results/calibration/calibration.json), one
    sentence per fast level."""
    from ccsim.present.calibration import summary_sentence
    d = read_json("results/calibration/calibration.json")
    return " ".join(summary_sentence(s, d["judge"]) for s in d["summaries"])


FIGURES: dict[str, Callable[[], str]] = {
    "master-speed": master_speed, "neural-speed": neural_speed, "greedy-elo": greedy_elo,
    "expert-round-robin": expert_round_robin, "learned-selection": learned_selection, "learned-speed": learned_speed,
    "neural-generation-scores": _generation_scores("results/neural"),
    "neural-rerun-scores": _generation_scores("results/neural/rerun"), "neural-gain": neural_gain,
    "neural-minutes": neural_minutes, "network-table": network_table, "neural-search-fresh": neural_search_fresh,
    "network-neural-search-master": network_neural_search_master, "retune-table": retune_table,
    "retune-fresh": retune_fresh, "target-master": _target("master", "expert-b256"),
    "target-learned": _target("learned", "tactician"), "tactician-speed": tactician_speed,
    "expert-b256-speed": expert_b256_speed, "judge-settings-table": judge_settings_table, "judge-profile": judge_profile,
    **{f"elo-{name}": _ladder_elo(name) for name in ("master", "expert-b256", "neural-search", "neural")},
    **{f"gains-{name}": _seat_gains(name) for name in ("neural", "neural-search", "master")},
    "calibration": calibration, "judge-status": judge_status,
    **{f"gap-{name}": _gap(name) for name in ("neural", "neural-search", "master", "learned")},
}
