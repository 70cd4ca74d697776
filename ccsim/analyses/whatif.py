"""What-if rules: the Python API of ``ccsim whatif``.

Each *arm* is a set of rules: the standard rules as written (the base), each R11
variant alone, each change of a rules file, and with ``cards`` each action
card ablated — one copy taken out of one player's action deck.  Every arm
plays the same deals 0 .. N-1 of the run seed (common random numbers: the
same influence decks, bonus cards and VoC deck wherever the rules allow) at
each strategy given, in mirror games (the strategy against itself).  Every
designer metric (``ccsim.analyses.metrics``, docs/metrics.md) is reported per arm with
its 95% interval, beside the base's value, and the difference to the base on
the same deals with its interval and a p-value, Holm-adjusted over every
difference reported (all metrics x arms x strategies).

A card's *worth* is what its owner loses without it: her score under the standard rules
minus her score with one copy fewer, paired deal by deal, for each player and
for both (the mean of the two players' losses on a deal), Holm-adjusted over
all cards x players x strategies.  How a deck loses its copy: a shuffled deck
is R1.4's deck shuffled as always with a uniformly random copy taken out (the
other twelve keep their order); a fixed ordering loses its topmost copy
(``ccsim.runner.orderings.without_card``).

The rules file (TOML; read by ``ccsim.runner.changes``)::

    description = "three changes a designer asked about"   # optional
    [[change]]
    name = "hand of 4"                 # optional: a name (default: what it changes)
    hand_size = 4
    [[change]]
    group_size = {censor = 5, aedile = 5}
    [[change]]
    name = "no wrath for caesar"
    action_count = {caesar = {wrath = 0}}
    variants = ["two_orgies"]          # optional: variants switched on with the change

Every other key of a change is a rules parameter exactly as a record's
``rules`` block (GAME_RECORD.md) writes it, or its dotted name.

The study returns data frames (``WhatIf``); its tables, JSON and figures are drawn by the doors, from
``ccsim.present.whatif``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ccsim.kernel import rules as R
from ccsim.runner.backends import LocalBackend, search_aware
from ccsim.runner.driver import drive
from ccsim.runner.grid import GridBuilder, GridTask, play_task, warm_task
from ccsim.analyses.metrics import INDEX, METRICS, Distribution, MetricSums, game_values
from ccsim.runner.orderings import SHUFFLED
from ccsim.runner.ruleset import describe, rules_block
from ccsim.analyses.stats import Moments, holm, ratio_difference, ratio_interval
from ccsim.analyses.question import BASE, Arm, Change, WhatIfError, WhatIfQuestion, ask_whatif
from ccsim.runner.parameters import vector_words

__all__ = ["WhatIfError", "Change", "Arm", "whatif", "answer_whatif", "WhatIf", "record_arms", "rules_text",
           "variants_of"]

TASK_GAMES = 100_000
# BASE: the standard rules' arm in JSON and Parquet (a contract); people read STANDARD


def variants_of(vec) -> list[str]:
    return [v for v, bit in R.VARIANTS.items() if vec[R.RP_VARIANTS] & bit]


def rules_text(vec) -> str:
    """What a rules vector changes, variants included."""
    on = variants_of(vec)
    text = describe(vec)
    return ", ".join(([] if text == BASE else [text]) + on) or BASE


@dataclass
class WhatIf:
    """A what-if study's results and what they rest on (``info``)."""
    metrics: pd.DataFrame       # strategy, arm, metric: value [ci], base, diff [ci], p, p_holm, significant
    lengths: pd.DataFrame       # strategy, arm: game length distributions (turns, votes)
    cards: pd.DataFrame | None  # strategy, card, player: worth [ci], p, p_holm (with ``cards``)
    info: dict = field(default_factory=dict)
    judge: pd.DataFrame | None = None  # strategy, arm: the judge's edge (how, edge, lo, hi, deals, predicted_from)


class _ArmTally:
    def __init__(self, n_metrics: int):
        self.sums = MetricSums()
        self.lengths = Distribution()
        self.paired = Moments(4, batch=n_metrics)  # [i]: metric i's (arm num, den, base num, den) per deal


def whatif(strategies=None, games: int = 20_000, seed: int = 1, variants=None, changes=(),
           rules_file=None, cards: bool = False, cleopatra_order: str = SHUFFLED, caesar_order: str = SHUFFLED,
           backend=None, progress: bool = False, record=None, record_games: int = 10) -> WhatIf:
    """Compare rules on common deals (see the module's docstring); returns DataFrames.  The Python
    door: its arguments become one ``WhatIfQuestion`` (``ccsim.analyses.question.ask_whatif``, every one
    checked before a game), which ``answer_whatif`` plays.

    ``strategies``: the levels of play, each in mirror games (None: the strongest fast level shown balanced,
    ``ccsim.analyses.levels.default_level``).
    ``variants``: R11 variants to compare (None: all four; ``()``: none); ``changes``: ``Change``
    objects, or ``rules_file`` a TOML file of ``[[change]]`` tables.  ``record``: a JSONL path for
    the records of the first ``record_games`` deals of every arm (``info['recorded_games']``).

    >>> w = whatif(["greedy"], games=2000, variants=["two_orgies"])         # doctest: +SKIP
    >>> w.metrics.query("metric == 'seat_advantage'")                          # doctest: +SKIP
    """
    q = ask_whatif(strategies, games=games, seed=seed, variants=variants, changes=changes, rules_file=rules_file,
                   cards=cards, cleopatra_order=cleopatra_order, caesar_order=caesar_order, record=record,
                   record_games=record_games)
    return answer_whatif(q, backend=backend, progress=progress)


def answer_whatif(q: WhatIfQuestion, backend=None, progress: bool = False) -> WhatIf:
    """Play a checked what-if question: every arm at every level on the same deals (local backend by
    default); returns the study."""
    strategies, arms, games, seed = list(q.levels), list(q.arms), q.games, q.seed
    builder = GridBuilder()
    configs = [(s, a) for s in strategies for a in arms]
    for s, a in configs:
        builder.add((s, a.orders[0]), (s, a.orders[1]), a.rules)
    grid = builder.build()
    n_cfg = len(configs)
    per = max(1, min(int(games), search_aware(TASK_GAMES, strategies) // n_cfg))
    tasks = [GridTask(int(seed), grid, np.array([(c, 0, d0, min(per, games - d0)) for c in range(n_cfg)], np.int64))
             for d0 in range(0, int(games), per)]
    tallies = {(s, a.name): _ArmTally(len(METRICS)) for s, a in configs}
    both: dict = {}  # (strategy, card): per-deal mean loss of the two owners
    deals = 0

    def add(task, rows) -> int:
        nonlocal deals
        d = int(task.segment_games[0])
        rows = rows.reshape(n_cfg, d, -1)
        values = {}
        for c, (s, a) in enumerate(configs):
            values[s, a.name] = game_values(rows[c], a.rules)
            tallies[s, a.name].sums.add_values(values[s, a.name])
            tallies[s, a.name].lengths.add_rows(rows[c])
        for s, a in configs:
            tallies[s, a.name].paired.update(np.concatenate([values[s, a.name], values[s, BASE]], axis=2))
        for s in strategies:
            for card, x in _both_losses(values, s, arms).items():
                both.setdefault((s, card), Moments(2)).update(np.column_stack([x, np.ones_like(x)]))
        deals += d
        return n_cfg * d

    done = drive(backend or LocalBackend(), play_task, tasks, add, warm=warm_task(tasks[0]) if tasks else None,
                 total=n_cfg * int(games), progress=progress)
    if done.failure:
        raise done.failure
    if deals == 0:
        raise KeyboardInterrupt
    interrupted, seconds = done.interrupted, done.seconds
    info = dict(strategies=strategies, orderings=list(q.orderings), seed=int(seed), deals=deals,
                games=deals * n_cfg, arms=[dict(name=a.name, kind=a.kind, rules=rules_text(a.rules),
                                                 words=vector_words(a.rules), orderings=list(a.orders))
                                            for a in arms],
                description=q.description, seconds=seconds, games_per_s=deals * n_cfg / seconds if seconds else None,
                interrupted=interrupted)
    if q.record is not None and not interrupted:
        info["recorded_games"] = record_arms(q.record, arms, strategies, seed, min(q.record_games, deals))
    return _results(strategies, arms, tallies, both, info)


def _results(strategies, arms, tallies, both, info) -> WhatIf:
    recs, lens, cards = [], [], []
    for s in strategies:
        base = tallies[s, BASE].sums
        for a in arms:
            t = tallies[s, a.name]
            frame = t.lengths.frame()
            lens += [dict(strategy=s, arm=a.name, **r) for r in frame.to_dict("records")]
            if a.kind == "card":
                continue
            for i, met in enumerate(METRICS):
                e = t.sums.estimate(met.name)
                b = base.estimate(met.name)
                d = ratio_difference(t.paired[i], (0, 1), (2, 3)) if a.kind != "base" else None
                recs.append(dict(strategy=s, arm=a.name, kind=a.kind, metric=met.name, label=met.label,
                                 group=met.group, value=e["value"], ci_lo=e["lo"], ci_hi=e["hi"], base=b["value"],
                                 base_lo=b["lo"], base_hi=b["hi"],
                                 diff=d["value"] if d else math.nan, diff_lo=d["lo"] if d else math.nan,
                                 diff_hi=d["hi"] if d else math.nan, p=d["p"] if d else math.nan, games=e["games"]))
        cards += _card_worths(s, arms, tallies, both)
    metrics = pd.DataFrame(recs)
    metrics["p_holm"] = holm(metrics["p"])
    metrics["significant"] = metrics["p_holm"] < 0.05
    card_df = None
    if cards:
        card_df = pd.DataFrame(cards)
        card_df["p_holm"] = holm(card_df["p"])
        card_df["significant"] = card_df["p_holm"] < 0.05
    info.update(comparisons=int(metrics["p"].notna().sum()),
                card_comparisons=int(card_df["p"].notna().sum()) if card_df is not None else 0)
    return WhatIf(metrics=metrics, lengths=pd.DataFrame(lens), cards=card_df, info=info,
                  judge=judge_frame(strategies, arms, metrics))


def judge_frame(strategies, arms, metrics: pd.DataFrame) -> pd.DataFrame:
    """The judge's edge under every arm beside each level's (``ccsim.analyses.judging.figure``): measured where
    the judge's store holds the arm, else predicted from the level's effect on the same deals (from its edge
    when the decks are in fixed orders: the base is then not the standard rules); a row is left out where
    neither can be had (a level without a map)."""
    from ccsim.analyses.judging.effect_map import interval_se
    from ccsim.analyses.judging.figure import judge_figure, judge_figure_of_edge
    edge = metrics[metrics["metric"] == "seat_advantage"].set_index(["strategy", "arm"])
    rows = []
    for s in strategies:
        for a in arms:
            if a.kind == "card":
                continue
            r = edge.loc[(s, a.name)]
            shuffled = a.orders == (SHUFFLED, SHUFFLED)
            if a.kind != "base" and shuffled:
                f = judge_figure(a.rules, a.orders, s, r["diff"], interval_se(r["diff_lo"], r["diff_hi"]))
            else:
                f = judge_figure_of_edge(a.rules, a.orders, s, r["value"], interval_se(r["ci_lo"], r["ci_hi"]))
            if f is not None:
                rows.append(dict(strategy=s, arm=a.name, judge=f.judge, how=f.how, edge=f.edge, lo=f.lo, hi=f.hi,
                                 deals=f.deals, predicted_from=f.level))
    return pd.DataFrame(rows, columns=["strategy", "arm", "judge", "how", "edge", "lo", "hi", "deals",
                                       "predicted_from"])


def _card_worths(s, arms, tallies, both) -> list[dict]:
    """Each ablated card's worth to its owner: her score under the standard rules minus her score without
    the copy, per deal; and for both players together, the mean of the two losses on a deal."""
    i = INDEX["seat_advantage"]
    out = []
    for a in arms:
        if a.kind != "card":
            continue
        m = tallies[s, a.name].paired[i]  # per deal: this arm's Cleopatra score, 1, the base's, 1
        # Cleopatra loses base - arm; Caesar's score is 1 minus Cleopatra's, so she loses arm - base
        r = ratio_difference(m, (2, 3), (0, 1)) if a.player == "cleopatra" else ratio_difference(m, (0, 1), (2, 3))
        out.append(dict(strategy=s, card=a.card, player=a.player, worth=r["value"], ci_lo=r["lo"], ci_hi=r["hi"],
                        p=r["p"], games=int(m.n)))
    for card in R.ACTION_NAMES:
        if (s, card) in both:
            r = ratio_interval(both[s, card], 0, 1)
            out.append(dict(strategy=s, card=card, player="both", worth=r["value"], ci_lo=r["lo"], ci_hi=r["hi"],
                            p=r["p"], games=int(2 * both[s, card].n)))
    return out


def _both_losses(values, s, arms) -> dict:
    """Per deal, the mean of the two owners' losses of a card: with b the base's Cleopatra score,
    c and z hers when Cleopatra or Caesar lost the copy, ((b - c) + (z - b)) / 2 = (z - c) / 2."""
    i = INDEX["seat_advantage"]
    lost = {(a.card, a.player): values[s, a.name][:, i, 0] for a in arms if a.kind == "card"}
    return {card: (lost[card, "caesar"] - lost[card, "cleopatra"]) / 2 for card in R.ACTION_NAMES
            if (card, "caesar") in lost and (card, "cleopatra") in lost}


def record_arms(path, arms, strategies, seed: int, k: int) -> int:
    """Write the first ``k`` deals of every arm at every strategy as ``ccsim-game/1`` records (the
    very games the study plays), each carrying its ``rules`` block; returns the records written."""
    from ccsim.runner.config import RunConfig
    from ccsim.analyses.run import iter_records, open_records
    import json
    n = 0
    with open_records(str(path)) as f:
        for s in strategies:
            for a in arms:
                cfg = RunConfig(games=k, seed=int(seed), cleopatra=s, caesar=s, cleopatra_order=a.orders[0],
                                caesar_order=a.orders[1], variants=tuple(variants_of(a.rules)),
                                rules=rules_block(a.rules)).validated()
                for rec in iter_records(cfg, k, f"ccsim whatif {s}, arm {a.name!r},"):
                    f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                    n += 1
    return n
