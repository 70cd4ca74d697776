"""``ccsim explore``'s server: the page's API through Starlette's test client.

The figures are ``ccsim whatif``'s own on the same seed and deals; a bad field is refused with the
command line's one-line message and nothing runs; a second question from the same page cancels the
first; no file outside the page's assets is served.
"""
import json
import threading
import tomllib
import warnings
from pathlib import Path
from urllib.parse import parse_qs

import numpy as np
import pytest

pytest.importorskip("starlette", reason="ccsim explore needs the explore extra: pip install '.[explore]'")
with warnings.catch_warnings():  # Starlette 1.x asks for httpx2 beside httpx; either drives the client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from ccsim.explore.form import plain_message, page_level  # noqa: E402
from ccsim.analyses.question import load_changes_data  # noqa: E402
from ccsim.analyses.whatif import whatif  # noqa: E402
from ccsim.explore import compute, fair  # noqa: E402
from ccsim.explore import confirm as confirming  # noqa: E402
from ccsim.analyses.judging.store import judge_store, setting_key  # noqa: E402
from ccsim.explore.form import FormError, read_question  # noqa: E402
from ccsim.explore.memory import Memory  # noqa: E402
from ccsim.explore.server import Pages, create_app  # noqa: E402
from ccsim.runner.ruleset import rules_vector  # noqa: E402

DEALS = 2_000


@pytest.fixture
def small(monkeypatch):
    """Every answer plays two chunks of 1,000 deals and never stops early."""
    plan = compute.Plan(chunk=1_000, cap=DEALS, target=0.0)
    monkeypatch.setattr(compute, "plan_for", lambda level: plan)
    monkeypatch.setattr("ccsim.explore.server.plan_for", lambda level: plan)
    return plan


@pytest.fixture
def client():
    with TestClient(create_app()) as c:
        yield c


def events(response) -> list[dict]:
    return [json.loads(line[5:]) for line in response.iter_lines() if line.startswith("data:")]


def answer_of(client, query: str, page: str = "p1") -> list[dict]:
    with client.stream("GET", f"/api/answer?page={page}&{query}") as r:
        assert r.status_code == 200
        return events(r)


def whatif_figures(w, metric: str) -> dict:
    """whatif's value, interval and paired difference of one metric of its one change."""
    row = w.metrics[(w.metrics["kind"] == "change") & (w.metrics["metric"] == metric)].iloc[0]
    return dict(value=row.value, lo=row.ci_lo, hi=row.ci_hi, base=row.base, diff=row["diff"], diff_lo=row.diff_lo,
                diff_hi=row.diff_hi)


def page_figures(snap: dict, metric: str) -> dict:
    arm, base, diff = snap["arms"][1]["figures"][metric], snap["arms"][0]["figures"][metric], snap["diff"][metric]
    return dict(value=arm["value"], lo=arm["lo"], hi=arm["hi"], base=base["value"], diff=diff["value"],
                diff_lo=diff["lo"], diff_hi=diff["hi"])


def test_a_change_and_an_ordering_give_whatifs_figures(small, client):
    level = page_level()
    query = f"action_count.cleopatra.veto=1&hand_size=4&caesar_order=veto-first&level={level}&seed=7"
    snaps = answer_of(client, query)
    final = snaps[-1]
    assert final["state"] == "cap" and final["deals"] == DEALS
    assert [s["deals"] for s in snaps[:-1]] == [1_000, 2_000]  # the figures came chunk by chunk
    changes, _ = load_changes_data(tomllib.loads(final["toml"]), "the page's change.toml")
    w = whatif([level], games=DEALS, seed=7, variants=(), changes=changes, caesar_order="veto-first")
    for metric in compute.SHOWN:
        assert page_figures(final, metric) == pytest.approx(whatif_figures(w, metric), rel=1e-9, abs=1e-12)
    assert final["command"] == (f"ccsim whatif --no-variants --rules change.toml --strategy {level} --games {DEALS} "
                                f"--seed 7 --caesar-order VVASCRAWASCRA")  # the preset, in letters


def test_a_deck_order_alone_is_paired_with_shuffled_decks(small, client):
    final = answer_of(client, "cleopatra_order=veto-first&level=greedy")[-1]
    assert [(a["name"], a["orders"]) for a in final["arms"]] == [
        ("RULES.md", ["shuffled", "shuffled"]), ("these deck orders", ["VVASCRAWASCRA", "shuffled"])]
    assert final["diff"]["seat_advantage"]["value"] is not None
    assert final["command"] is None and final["toml"] is None  # whatif compares rules, not decks
    assert final["words"] == "Cleopatra's action deck in the order VVASCRAWASCRA"


def test_the_answer_narrows_and_stops_at_the_target():
    q = read_question({"level": ["greedy"], "action_count.cleopatra.veto": ["1"]})
    snaps = []
    final = compute.answer(q, snaps.append, plan=compute.Plan(chunk=500, cap=20_000, target=0.03))
    halves = [s["arms"][1]["figures"]["seat_advantage"] for s in snaps]
    halves = [(f["hi"] - f["lo"]) / 2 for f in halves]
    assert final["state"] == "target" and final["deals"] < 20_000
    assert halves[-1] < halves[0] and halves[-1] <= 0.03
    assert len(final["history"]) == len(snaps) - 1  # one point of the edge's plot a chunk


def test_games_played_before_are_not_played_again_and_give_the_same_figures():
    memory = Memory()
    plan = compute.Plan(chunk=500, cap=1_000, target=0.0)
    standard = read_question({"level": ["greedy"]})
    change = read_question({"level": ["greedy"], "orgies": ["3"]})
    alone = compute.answer(change, lambda s: None, plan=plan)  # a memory of its own: plays both arms
    compute.answer(standard, lambda s: None, plan=plan, memory=memory)
    after = compute.answer(change, lambda s: None, plan=plan, memory=memory)
    again = compute.answer(change, lambda s: None, plan=plan, memory=memory)
    assert (alone["played"], after["played"], again["played"]) == (2_000, 1_000, 0)  # only the change's games
    for snap in (after, again):
        assert snap["diff"] == alone["diff"] and snap["arms"] == alone["arms"]
        assert snap["history"] == alone["history"] and snap["margins"] == alone["margins"]


def test_memory_forgets_the_least_recently_used_chunks_first():
    m = Memory(limit=3 * 800)
    rows = np.zeros((100, 4), np.int16)  # 800 bytes a chunk
    for k in "abcd":
        m.put(k, rows)
        m.get("a")  # "a" stays in use
    assert "a" in m and "b" not in m and "c" in m and "d" in m
    with pytest.raises(ValueError):
        m.get("a")[0, 0] = 1  # what later questions read cannot be changed


@pytest.mark.parametrize("query, field, message", [
    ("hand_size=9", "hand_size", "Hand size: must be from 1 to 6; it is 9"),
    ("hand_size=four", "hand_size", "Hand size: must be a whole number from 1 to 6; you typed 'four'"),
    ("hand_size=abc", "hand_size", "Hand size: must be a whole number from 1 to 6; you typed 'abc'"),
    ("hand_size=", "hand_size", "Hand size: is empty: type a whole number from 1 to 6"),
    ("action_count.caesar.veto=x", "action_count.caesar.veto", "Caesar's vetoes: must be a whole number from 0 to"),
    ("cleopatra_order=VVASCRAWASCR", "cleopatra_order",
     "Cleopatra's action deck: ordering 'VVASCRAWASCR': has 12 letters, needs 13 (has A=3 S=2 C=2 R=2 W=1 V=2, "
     "needs A=4 S=2 C=2 R=2 W=1 V=2)"),
    ("caesar_order=veto-middle", "caesar_order",
     "Caesar's action deck: ordering 'veto-middle': unknown letters 'E' 'T' 'O' 'M' 'I' 'D' 'L' (use A S C R W V)"),
    ("level=nobody", "level", "Level of play: unknown player 'nobody'"),
    ("level=tactican", "level", "Level of play: unknown player 'tactican': did you mean `tactician`?"),
    ("seed=-1", "seed", "Seed: must be from 0 to 2⁶³−1; it is -1"),
    ("seed=", "seed", "Seed: is empty: type a whole number from 0 to 2⁶³−1"),
    ("variant=three_orgies", "variant", "Variants: unknown variant 'three_orgies'"),
    ("variant=two_orgy", "variant", "Variants: unknown variant 'two_orgy': did you mean `two_orgies`?"),
    ("orgies=0&variant=two_orgies", "orgies", "Orgies: two_orgies boxes a plain orgy, so it needs orgies >= 1"),
    ("side_limit=3", "group_limit", "Group limit: must be from 2 to 2 * side limit = 6; it is 8"),
    ("stray=1", "stray", "Stray: unknown field 'stray'"),
])
def test_bad_fields_are_refused_in_the_forms_words(client, query, field, message):
    for route in ("/api/check", "/api/answer?page=p1&", "/api/confirm?page=p1&", "/api/sample", "/api/change.toml"):
        r = client.get(route + ("&" if "?" in route else "?") + query)
        assert r.status_code == 400, route
        assert r.json()["errors"][field].startswith(message)


def test_no_message_names_a_dotted_key_or_a_flag():
    with pytest.raises(FormError) as e:
        read_question({"action_count.caesar.spy": ["12"], "group_size.censor": ["zz"], "seed": ["s"],
                       "level": ["x"]})
    for message in e.value.errors.values():
        assert "rules." not in message and "--" not in message and "action_count" not in message, message


def test_the_message_is_the_command_lines_validator_said_in_the_forms_words():
    # the same value through the command line's validator gives the line the page shows, in the form's words
    with pytest.raises(FormError) as page:
        read_question({"action_count.caesar.spy": ["12"]})
    with pytest.raises(ValueError) as cli:
        rules_vector({"action_count": {"caesar": {"spy": 12}}})
    assert page.value.errors == {"action_count.caesar.spy": plain_message("action_count.caesar.spy", str(cli.value))}
    assert str(cli.value).startswith("rules.action_count.caesar.spy: must be 0..9, got 12")


def test_every_bad_field_is_marked_at_once():
    with pytest.raises(FormError) as e:
        read_question({"hand_size": ["0"], "orgies": ["99"], "cleopatra_order": ["xyz"], "seed": ["s"]})
    assert set(e.value.errors) == {"hand_size", "orgies", "cleopatra_order", "seed"}


def test_a_second_question_cancels_the_first(client, monkeypatch):
    quick = compute.Plan(chunk=1_000, cap=DEALS, target=0.0)  # the second question: two chunks
    monkeypatch.setattr("ccsim.explore.server.plan_for", lambda level: quick if level == "greedy" else compute.FAST)
    pages = client.app.state.pages
    first: list[dict] = []
    opened = threading.Event()

    def ask_first():
        with client.stream("GET", "/api/answer?page=same&level=tactician&hand_size=4") as r:
            for line in r.iter_lines():
                if line.startswith("data:"):
                    first.append(json.loads(line[5:]))
                    opened.set()

    t = threading.Thread(target=ask_first)
    t.start()
    assert opened.wait(120)
    snaps = answer_of(client, "level=greedy&hand_size=3", page="same")  # the same page asks again
    t.join(60)
    assert not t.is_alive()
    assert first[-1]["state"] == "cancelled" and first[-1]["deals"] < compute.FAST.cap
    assert snaps[-1]["state"] == "cap" and snaps[-1]["words"].startswith("a hand refills to 3")
    assert pages._running == {}  # nothing left running


def test_pages_compute_one_question_each_and_a_bounded_number_at_once():
    pages = Pages(limit=2)
    a = pages.start("a")
    a2 = pages.start("a")
    assert a.is_set() and not a2.is_set()
    assert pages.start("b") is not None and pages.start("c") is None
    pages.finish("a", a2)
    assert a2.is_set() and pages.start("c") is not None


def test_a_fair_search_from_the_page_reports_its_steps_and_forms_to_fill(client, monkeypatch):
    monkeypatch.setattr(fair, "BUDGET", 30_000)
    monkeypatch.setattr(fair, "REMEASURE", 2_000)
    with client.stream("GET", "/api/fair?page=f&level=greedy&action_count.caesar.veto=3") as r:
        got = events(r)
    assert got[0]["state"] == "running" and got[0]["line"].startswith("balance: ")
    done = got[-1]
    assert done["state"] == "done" and 0 < done["games"] <= 30_000
    for setting in done["recommended"]:  # each a form the page can open
        q = read_question({k: v for k, v in parse_qs(setting["query"]).items()})
        assert q.level == "greedy" and q.words() == setting["words"]
    space = fair.space_around(read_question({"level": ["greedy"], "action_count.caesar.veto": ["3"]}))
    assert {p["name"]: p["values"] for p in space["param"]} == {
        "action_count.caesar.veto": [2, 3, 4], "action_count.caesar.assassination": [4, 5]}


def test_a_fair_search_at_a_search_level_is_refused_at_the_field(client):
    with client.stream("GET", "/api/fair?page=f&level=expert") as r:
        got = events(r)
    assert got == [{"state": "refused", "errors": {
        "level": "the fair search plays 400,000 games: choose a fast level, not expert"}}]


def test_the_change_downloads_as_toml_that_whatif_reads(client):
    r = client.get("/api/change.toml?action_count.cleopatra.veto=1&group_size.censor=5&variant=two_orgies")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    changes, _ = load_changes_data(tomllib.loads(r.text), "change.toml")
    assert changes[0].variants == ("two_orgies",)
    assert (rules_vector(changes[0].block, changes[0].variants)
            == rules_vector({"action_count.cleopatra.veto": 1, "group_size.censor": 5}, ("two_orgies",))).all()
    body = client.get("/api/check?action_count.cleopatra.veto=1&level=greedy&seed=3").json()
    assert body["query"] == "action_count.cleopatra.veto=1&level=greedy&seed=3"


def test_a_sample_game_is_narrated_turn_by_turn(client):
    r = client.get("/api/sample?level=greedy&hand_size=4&game=3")
    assert r.status_code == 200
    game = r.json()
    assert "rules: a hand refills to 4 cards (standard: 5)" in game["opening"] and game["game"] == 3
    assert game["turns"][0].startswith("Turn 1:") and "End:" in game["turns"][-1]
    assert client.get("/api/sample?level=greedy&game=100").status_code == 400


def test_only_the_pages_own_assets_are_served(client):
    assert client.get("/").headers["content-type"].startswith("text/html")
    for name in ("explore.js", "explore.css", "index.html"):
        assert client.get(f"/static/{name}").status_code == 200
    for path in ("/static/..%2Fserver.py", "/static/server.py", "/static/../../pyproject.toml", "/static/%2e%2e/form.py"):
        assert client.get(path).status_code == 404
    spec = client.get("/api/form").json()
    assert spec["default_level"] == page_level() and spec["levels"][0]["name"] == page_level()
    keys = [p["key"] for s in spec["sections"] for p in s["parameters"]]
    assert "action_count.cleopatra.veto" in keys and len(keys) == len(set(keys))


# --- the judge's figure, and confirming it at the judge ------------------------------------------

JUDGE = "neural-search"


@pytest.fixture
def judged(monkeypatch):
    """The strong level the page shows (the judge, or while no search is balanced the strongest search), and the
    store as it was after the test (a confirmation adds to the process's store)."""
    monkeypatch.setattr("ccsim.explore.judged.strong_level", lambda: JUDGE)
    store = judge_store()
    monkeypatch.setattr(store, "_rows", dict(store._rows))
    return store


def test_every_snapshot_carries_the_judges_figure_predicted_from_the_fast_levels_difference(small, client, judged):
    snaps = answer_of(client, "action_count.cleopatra.veto=1&hand_size=4&level=learned")
    for snap in snaps:
        j = snap["judge"]
        assert j["name"] == JUDGE and "points better" in j["gap"]
        fig = j["changed"]
        assert (fig["how"], fig["label"], fig["predicted_from"]) == ("predicted", f"predicted for {JUDGE}", "learned")
        assert fig["ci95"][0] < fig["edge"] < fig["ci95"][1]
        assert j["standard"]["how"] == "measured" and j["standard"]["deals"] >= 10_000  # the store's
    # the published answer is measured: the store holds it, whatever the level
    published = answer_of(client, "action_count.cleopatra.veto=1&orgies=3&level=tactician")[-1]["judge"]["changed"]
    confirmed = json.loads((Path(__file__).resolve().parents[1] / "results" / "balance" / "ring" / "ring.json")
                           .read_text(encoding="utf-8"))["confirm"]["setting"]["deals"]
    assert published["how"] == "measured" and published["deals"] == confirmed   # the ring's confirmation, whole


def test_a_lopsided_level_predicts_nothing_and_without_a_search_the_page_says_so(small, client, judged, monkeypatch):
    # a setting the store does not hold (it holds a hand of 4 alone, a check of the map)
    j = answer_of(client, "hand_size=4&group_limit=9&level=greedy")[-1]["judge"]
    assert j["changed"] is None and j["note"].startswith("greedy is lopsided: no map carries its effects")
    monkeypatch.setattr("ccsim.explore.judged.strong_level", lambda: None)
    j = answer_of(client, "hand_size=4&level=learned")[-1]["judge"]
    assert j["name"] is None and j["changed"] is None
    assert j["note"].startswith("No judge's figure: no search level is registered")
    assert client.get("/api/form").json()["judge"]["name"] is None
    r = client.get("/api/confirm?page=c&hand_size=4")
    assert r.status_code == 400
    assert r.json()["errors"]["level"].startswith("Nothing to confirm with: no search level is registered")
    # a search level whose games are not the store's: its figures would be another level's
    monkeypatch.setattr("ccsim.explore.judged.strong_level", lambda: "master")
    spec = client.get("/api/form").json()["judge"]
    assert spec["name"] is None and "the judge's measurements and map are neural-search's" in spec["note"]
    assert client.get("/api/confirm?page=c&hand_size=4").status_code == 400


def test_a_confirmation_measures_with_the_judge_on_the_same_deals_and_joins_the_store(client, judged, monkeypatch):
    query = "hand_size=4&group_limit=7&level=learned&seed=3"
    with client.stream("GET", f"/api/confirm?page=c&deals=2&{query}") as r:
        assert r.status_code == 200
        snaps = events(r)
    final = snaps[-1]
    assert [s["state"] for s in snaps] == ["running", "confirmed"]
    assert final["confirm"] == dict(judge=JUDGE, gap=final["judge"]["gap"], deals=2, level="learned")
    assert final["deals"] == 2 and final["games"] == 4 and final["level"] == JUDGE
    fig = final["judge"]["changed"]
    assert (fig["how"], fig["label"], fig["deals"]) == ("measured", f"measured with {JUDGE}", 2)
    # the judge's own games on deals 0 and 1 of the seed: answer() at the judge gives the same figures
    q = read_question(parse_qs(query))
    alone = compute.answer(read_question(parse_qs(query.replace("level=learned", f"level={JUDGE}"))), lambda s: None,
                           plan=confirming.confirm_plan(2))
    assert final["arms"] == alone["arms"] and final["diff"] == alone["diff"]
    row = judged.get(setting_key(q.rules, q.orders))
    assert row["deals"] == 2 and row["edge"] == fig["edge"] and row["effect"] == final["diff"]["seat_advantage"]["value"]
    assert row["source"].startswith("ccsim explore: confirmed on the page")
    # the page's answers now show the measurement in place of the prediction
    again = answer_of(client, query)[-1]["judge"]["changed"]
    assert again["how"] == "measured" and again["deals"] == 2
    # the same form played at the judge level itself: its chunks are the confirmation's, none played again
    monkeypatch.setattr("ccsim.explore.server.plan_for", lambda level: confirming.confirm_plan(2))
    at_judge = answer_of(client, query.replace("level=learned", f"level={JUDGE}"))[-1]
    assert at_judge["played"] == 0 and at_judge["arms"] == final["arms"]


def test_an_interrupted_confirmation_loses_nothing_it_finished(judged):
    q = read_question({"hand_size": ["4"], "side_limit": ["4"], "level": ["learned"]})
    memory, cancel = Memory(), threading.Event()

    def stop_after_the_first_chunk(snap):
        if snap["state"] == "running":
            cancel.set()
    first = confirming.confirm(q, 4, stop_after_the_first_chunk, cancel, memory, JUDGE)
    assert first["state"] == "cancelled" and first["deals"] == 2
    assert judged.get(setting_key(q.rules, q.orders)) is None  # nothing stored from a part
    again = confirming.confirm(q, 4, lambda s: None, None, memory, JUDGE)
    assert again["state"] == "confirmed" and again["games"] == 8 and again["played"] == 4  # the first chunk kept
    assert judged.get(setting_key(q.rules, q.orders))["deals"] == 4


@pytest.mark.parametrize("deals, message", [
    ("0", "Deals to confirm: must be a whole number from 1 to 10,000; you typed '0'"),
    ("abc", "Deals to confirm: must be a whole number from 1 to 10,000; you typed 'abc'"),
    ("20000", "Deals to confirm: must be a whole number from 1 to 10,000; you typed '20000'"),
    ("", "Deals to confirm: is empty: type a whole number from 1 to 10,000"),
])
def test_a_bad_number_of_deals_is_one_line_and_400(client, judged, deals, message):
    r = client.get(f"/api/confirm?page=c&deals={deals}&hand_size=4")
    assert r.status_code == 400 and r.json() == {"errors": {"deals": message}}


def test_the_published_answer_carries_its_interval(client):
    pub = client.get("/api/form").json()["published"]
    change = pub["figures"]["change"]
    confirm = json.loads((Path(__file__).resolve().parents[1] / "results" / "balance" / "ring" / "ring.json")
                         .read_text(encoding="utf-8"))["confirm"]["setting"]
    assert change["how"] == "measured" and change["deals"] == confirm["deals"]   # the judge's store: the confirmation
    assert (change["edge"], change["ci95"]) == (confirm["seat_advantage"], confirm["ci95"])


def test_a_confirmation_counts_among_the_pages_computing_at_once(judged):
    with TestClient(create_app(Pages(limit=0))) as full:
        r = full.get("/api/confirm?page=c&deals=2&hand_size=4")
    assert r.status_code == 429 and r.json() == {"errors": {"page": "0 pages are computing: try again soon"}}
