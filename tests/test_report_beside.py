"""Beside a claim stated at the judge: the fast level's figure and the map's prediction (ccsim.report.beside)."""
from ccsim.analyses.judging.store import effect_map_of
from ccsim.report.beside import add_beside, fast_level
from ccsim.report.claims import Estimate, make_claim

LEVELS = ("greedy", "tactician", "learned", "neural", "neural-search")
SEARCHES = {"neural-search"}


def _claim(kind, judge_value, fast_value, id="variants.x.seat_advantage", stated="neural-search"):
    ests = [Estimate("learned", fast_value, fast_value - 0.003, fast_value + 0.003, 150_000),
            Estimate("neural", 0.05, 0.04, 0.06, 20_000),
            Estimate("neural-search", judge_value, judge_value - 0.013, judge_value + 0.013, 2_000)]
    e = next(x for x in ests if x.context == stated)
    return make_claim(id, "variants", kind, e, ests, "A statement.", rests_on="", command="", json_path=["x"])


def test_the_fast_level_is_the_strongest_balanced_level_below_the_judge_that_is_no_search(seat_gaps):
    seat_gaps({"greedy": 17.9, "learned": 1.8, "neural": 7.2, "neural-search": -4.0})
    assert fast_level(LEVELS, "neural-search", SEARCHES) == "learned"   # neural is lopsided
    seat_gaps({"greedy": 17.9, "learned": 3.5, "neural": 7.2})
    assert fast_level(LEVELS, "neural-search", SEARCHES) == "tactician"  # learned lopsided too: the reference
    assert fast_level(("greedy",), "neural-search", SEARCHES) is None


def test_an_effect_on_the_edge_carries_its_prediction_and_says_whether_it_held(seat_gaps):
    seat_gaps({"learned": 1.8, "neural": 7.2, "neural-search": -4.0})
    slope = effect_map_of("learned")[0].slope
    held = _claim("rules_seat", judge_value=0.009 * slope, fast_value=0.009)
    missed = _claim("rules_seat", judge_value=0.15, fast_value=0.0, id="variants.y.seat_advantage")
    add_beside([held, missed], "neural-search", LEVELS, SEARCHES)
    assert held.fast == dict(level="learned", value=0.009, lo=0.009 - 0.003, hi=0.009 + 0.003, games=150_000)
    assert held.predicted["value"] == 0.009 * slope and held.predicted["held"] is True
    assert held.predicted["lo"] < held.value < held.predicted["hi"]
    assert "At learned, the strongest fast level shown balanced, the figure is +0.9 points" in held.statement
    assert held.statement.endswith("for neural-search, and the measurement fell inside it.")
    assert missed.predicted["held"] is False
    assert missed.statement.endswith("the measurement fell outside it: the prediction missed.")


def test_a_figure_the_map_does_not_carry_gets_the_fast_figure_alone_and_other_claims_nothing(seat_gaps):
    seat_gaps({"learned": 1.8, "neural": 7.2, "neural-search": -4.0})
    card = _claim("card_worth", judge_value=0.08, fast_value=0.102, id="cards.veto")
    at_learned = _claim("rules_seat", judge_value=0.0, fast_value=0.01, id="variants.z.seat_advantage",
                        stated="learned")
    add_beside([card, at_learned], "neural-search", LEVELS, SEARCHES)
    assert card.fast["value"] == 0.102 and card.predicted is None
    assert card.statement == "A statement. At learned, the strongest fast level shown balanced, the figure is " \
                             "+10.2 points [+9.9, +10.5]."
    assert at_learned.fast is None and at_learned.statement == "A statement."
    assert card.to_json()["fast"]["level"] == "learned" and card.to_json()["predicted"] is None


def test_an_orderings_worth_is_predicted_with_the_spread_of_a_mean_of_two_seats(seat_gaps):
    """An ordering's worth over a shuffled deck is the mean of its two seats' effects: each strays from the map's
    line on its own, so its prediction keeps 1/sqrt(2) of the spread a rules change's does."""
    seat_gaps({"learned": 1.8, "neural": 7.2, "neural-search": -4.0})
    order = _claim("ordering_effect", judge_value=0.09, fast_value=0.106, id="orderings.best.levels")
    rules = _claim("rules_seat", judge_value=0.09, fast_value=0.106)
    add_beside([order, rules], "neural-search", LEVELS, SEARCHES)
    assert order.predicted["value"] == rules.predicted["value"]
    assert order.predicted["hi"] - order.predicted["lo"] < rules.predicted["hi"] - rules.predicted["lo"]
