"""Play these rules (``ccsim.explore.play`` and its routes) through Starlette's test client.

A game under a changed rule and a fixed deck order is played to its end by its options alone; every
option of every decision is offered once by the page's choices (the kernel's own list, cut into steps);
the board shows what the seat may see; a stale move is refused with one line and the board; bad
requests are one line and a 400; a search level says it is thinking; a closed stream stops the
opponent; and a game in progress does not disturb an answer streaming beside it.
"""
import json
import random
import threading
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="ccsim explore needs the explore extra: pip install '.[explore]'")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from ccsim.explore import compute  # noqa: E402
from ccsim.explore.play import choice_tree, end_words, since_her_turn  # noqa: E402
from ccsim.explore.server import create_app  # noqa: E402
from ccsim.play.game import Game  # noqa: E402
from ccsim.play.record import read_records, replay  # noqa: E402

FORM = "action_count.cleopatra.veto=1&caesar_order=veto-first&level=learned"
KINDS = {"placement", "mode", "step", "veto", "veto_draw", "draw", "spy_pick", "castle", "discard"}


@pytest.fixture
def client():
    with TestClient(create_app()) as c:
        yield c


def events(response) -> list[dict]:
    return [json.loads(line[5:]) for line in response.iter_lines() if line.startswith("data:")]


def move(client, board, option=None) -> list[dict]:
    q = f"game={board['game']}&at={board['at']}" + ("" if option is None else f"&option={option}")
    with client.stream("GET", f"/api/play/move?{q}") as r:
        assert r.status_code == 200, r.read()
        return events(r)


def pick(tree: dict, rnd: random.Random) -> int:
    """An option reached by clicking: a choice at each question down the tree."""
    c = rnd.choice(tree["choices"])
    return c["option"] if "option" in c else pick(c["then"], rnd)


def new_game(client, query=FORM, **play) -> dict:
    r = client.get(f"/api/play/new?{query}&" + "&".join(f"{k}={v}" for k, v in play.items()))
    assert r.status_code == 200, r.text
    return r.json()


def test_a_whole_game_under_a_changed_rule_replays_from_its_record(client, tmp_path):
    board = new_game(client, against="greedy", seat="caesar", deal=3)
    assert board["rules"].startswith("Cleopatra has 1 veto card") and not board["yours"]  # Cleopatra places first
    rnd = random.Random(3)
    board = move(client, board)[-1]
    while board["state"] != "over":
        assert board["state"] == "yours" and board["choices"]
        board = move(client, board, pick(board["choices"], rnd))[-1]
    r = board["end"]["result"]
    assert board["scores"] == {"you": {"vp": r["vp"]["caesar"], "patricians": sum(r["patricians"]["caesar"].values()),
                                       "final": True},
                               "her": {"vp": r["vp"]["cleopatra"], "final": True,
                                       "patricians": sum(r["patricians"]["cleopatra"].values())}}
    assert board["end"]["words"].startswith(f"The game ended after {r['turns']} turns: ")
    assert "(R10.5)" in board["end"]["words"]
    got = client.get(f"/api/play/record?game={board['game']}")
    assert got.status_code == 200 and "attachment" in got.headers["content-disposition"]
    path = tmp_path / "game.jsonl"
    path.write_text(got.text)
    rec, = read_records(path)  # the record format's own reader takes it
    assert rec["format"] == "ccsim-game/1" and rec["rules"] == {"action_count": {"cleopatra": {"veto": 1}}}
    assert rec["players"]["caesar"] == {"strategy": "human", "ordering": "VVASCRAWASCRA"}
    assert rec["players"]["cleopatra"]["strategy"] == "greedy" and rec["result"] == r
    assert replay(rec).ok
    # the link reopens the same deal: the same cards
    assert board["link"] == f"?{FORM.replace('veto-first', 'VVASCRAWASCRA')}&against=greedy&seat=caesar&deal=3"
    again = new_game(client, board["link"][1:])
    assert again["deal"] == 3 and again["groups"] == new_game(client, against="greedy", seat="caesar", deal=3)["groups"]


def _offered(node: dict) -> list[int]:
    return [i for c in node["choices"] for i in ([c["option"]] if "option" in c else _offered(c["then"]))]


def test_every_option_of_every_decision_is_offered_once_by_the_choices():
    rnd, kinds = random.Random(0), set()
    for deal in range(12):
        g = Game(seed=1, game=deal, cleopatra_order="shuffled", caesar_order="veto-first")
        while not g.over:
            legal = g.legal()
            kinds.add(g.decision)
            tree = choice_tree(legal)
            assert sorted(_offered(tree)) == list(range(len(legal))), (g.decision, legal)
            g.step(rnd.randrange(len(legal)))
    assert kinds == KINDS  # placement, veto and its draw, the spy's pick, the castling split, discards...


def test_a_step_with_one_way_on_is_folded_into_the_choice_before_it():
    legal = [dict(e="place", card="4", face="up", group=g) for g in ("senator", "praetor")] + [dict(e="end")]
    tree = choice_tree(legal)
    assert tree["question"] == "your move: which card?"
    assert [c["label"] for c in tree["choices"]] == ["end the turn", "place 4 · face-up"]
    groups = tree["choices"][1]["then"]
    assert [(c["label"], c["option"]) for c in groups["choices"]] == [("senator", 0), ("praetor", 1)]
    assert groups["choices"][1]["words"] == "place 4 face-up on praetor"


def test_the_board_shows_what_the_seat_may_see(client):
    board = new_game(client, against="greedy", seat="caesar", deal=0)
    board = move(client, board)[-1]  # Cleopatra has placed: Caesar places now
    assert board["decision"] == "placement" and board["set_aside"] == ["1", "2", "3", "4", "5"]
    her = [g["her"] for g in board["groups"]]
    assert all(isinstance(h["down"], int) for h in her) and sum(h["down"] for h in her) + sum(len(h["up"]) for h in her) == 5
    assert all(isinstance(g["you"]["down"], list) for g in board["groups"])
    assert board["next_action"] == "veto"  # his own deck, known to him (R8.2): veto first
    assert board["scores"]["her"]["hidden_bonus"] == 2 and board["voc"]["deck"] > 0


def test_a_move_on_a_stale_board_is_refused_with_one_line_and_the_board(client):
    board = move(client, new_game(client, against="greedy", seat="cleopatra", deal=1))[-1]
    option = pick(board["choices"], random.Random(1))
    now = move(client, board, option)[-1]
    r = client.get(f"/api/play/move?game={board['game']}&at={board['at']}&option={option}")  # the same click again
    assert r.status_code == 409
    body = r.json()
    assert body["errors"]["move"].startswith("That move was chosen on an older board")
    assert body["board"]["at"] == now["at"]


@pytest.mark.parametrize("query, field, message", [
    ("game=nope&at=0&option=0", "game", "This game is no longer on the server"),
    ("game={game}&at=x", "at", "at: must be a whole number, got 'x'"),
    ("game={game}&option=1", "at", "at: a move names the board it was chosen on"),
    ("game={game}&at={at}&option=999", "option", "Move: must be one of the "),
])
def test_a_bad_move_is_one_line_and_400(client, query, field, message):
    board = move(client, new_game(client, against="greedy", deal=2))[-1]
    r = client.get("/api/play/move?" + query.format(**board))
    assert r.status_code == 400 and r.json()["errors"][field].startswith(message)


def test_a_bad_new_game_is_one_line_a_field_and_400(client):
    r = client.get("/api/play/new?against=nobody&seat=pharaoh&deal=-1&hand_size=9")
    errors = r.json()["errors"]
    assert r.status_code == 400 and set(errors) == {"against", "seat", "deal", "hand_size"}
    assert errors["seat"] == "Your seat: must be cleopatra or caesar; you asked for 'pharaoh'"
    assert errors["deal"] == "Deal: must be a whole number from 0 to 999,999; you typed '-1'"
    assert all("\n" not in m for m in errors.values())


def test_the_story_is_told_from_the_opponents_last_turn():
    lines = ["", "  turn 1: cleopatra (active)", "  cleopatra places 3 on senator face-up", "",
             "  turn 2: caesar (passive)", "  caesar discards 1", "", "  turn 3: cleopatra (active)"]
    assert since_her_turn(lines, "caesar") == 4  # his turn, then hers so far
    assert since_her_turn(lines[:3], "caesar") == 0  # before he has had a turn: the whole story


@pytest.mark.parametrize("result, words", [
    (dict(end="all_patricians", turns=30, vp=dict(cleopatra=14, caesar=9), winner="cleopatra",
          patricians=dict(cleopatra=dict(senator=8), caesar=dict(senator=6))),
     "The game ended after 30 turns: the last patrician was taken (R9.1). You win, 14 VP to 9: the most VP wins (R10.5)."),
    (dict(end="stalemate", turns=41, vp=dict(cleopatra=9, caesar=9), winner="caesar",
          patricians=dict(cleopatra=dict(senator=5), caesar=dict(senator=7))),
     "The game ended after 41 turns: two turns in a row changed nothing (R9.4). Caesar wins: equal VP (9 each), and 7 "
     "patricians to 5; on equal VP the most patricians wins (R10.5)."),
    (dict(end="no_influence", turns=50, vp=dict(cleopatra=9, caesar=9), winner=None,
          patricians=dict(cleopatra=dict(senator=6), caesar=dict(senator=6))),
     "The game ended after 50 turns: no influence card was left to play (R9.2). A draw: equal VP (9 each) and equal "
     "patricians (6 each) (R10.5)."),
])
def test_who_won_and_why_in_plain_words(result, words):
    assert end_words(result, "cleopatra") == words


def test_a_search_level_says_it_is_thinking(client, monkeypatch):
    monkeypatch.setattr("ccsim.explore.play.search_players", lambda: {"greedy"})  # a fast stand-in for the judge
    board = new_game(client, against="greedy", seat="caesar", deal=4)
    got = move(client, board)  # Cleopatra's initial placement
    assert got[0] == {"state": "thinking", "against": "greedy", "at": 0}
    assert [e["state"] for e in got] == ["thinking", "moved", "yours"]
    rnd = random.Random(4)
    while len(got) < 5:  # a move of Caesar's that Cleopatra answers with two or more decisions
        got = move(client, got[-1], pick(got[-1]["choices"], rnd))
    states = [e["state"] for e in got]
    assert states == ["thinking", "moved"] * (len(got) // 2) + [states[-1]] and states[-1] in ("yours", "over")


def test_a_closed_stream_stops_the_opponent_between_two_decisions(monkeypatch):
    httpx = pytest.importorskip("httpx")
    from ccsim.explore.serve import serve_in_thread
    app = create_app()
    url, stop = serve_in_thread(app)
    try:
        board = httpx.get(f"{url}api/play/new?against=greedy&seat=caesar&deal=5").json()
        board = move_over_http(httpx, url, board, None)  # Cleopatra places: Caesar's move
        asked, thinking = Game.ask, threading.Event()

        def ask(self, strategy):  # the opponent's first decision after Caesar's move thinks until the test says
            if self.to_move == "cleopatra" and table.at == board["at"] + 1:
                thinking.wait(30)
            return asked(self, strategy)
        monkeypatch.setattr(Game, "ask", ask)
        table = app.state.tables.get(board["game"])
        option = pick(board["choices"], random.Random(5))
        with httpx.stream("GET", f"{url}api/play/move?game={board['game']}&at={board['at']}&option={option}") as r:
            assert r.status_code == 200  # the page goes away (the tab closes) while the opponent thinks
        until(lambda: not app.state.pages._running)  # the server saw it go: the game's work is told to stop
        thinking.set()
        until(lambda: not [t for t in threading.enumerate() if t.name.startswith("ccsim-explore-play")])
        # it stopped between two decisions: Caesar's move and the decision the opponent was thinking about,
        # not the rest of its turn
        assert table.at == board["at"] + 2 and table.game.to_move == "cleopatra"
        # the page's next request goes on from there
        assert move_over_http(httpx, url, {"game": board["game"], "at": table.at}, None)["yours"]
    finally:
        stop()


def until(done, seconds=120) -> None:
    """Wait for ``done()``; a guard against a hang, not a measure of time."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.05)


def move_over_http(httpx, url, board, option) -> dict:
    q = f"game={board['game']}&at={board['at']}" + ("" if option is None else f"&option={option}")
    with httpx.stream("GET", f"{url}api/play/move?{q}", timeout=60) as r:
        return [json.loads(line[5:]) for line in r.iter_lines() if line.startswith("data:")][-1]


def test_a_game_in_progress_while_answers_stream(client, monkeypatch):
    plan = compute.Plan(chunk=1_000, cap=2_000, target=0.0)
    monkeypatch.setattr("ccsim.explore.server.plan_for", lambda level: plan)
    board = move(client, new_game(client, against="greedy", deal=6))[-1]
    snaps, opened = [], threading.Event()

    def answer():
        with client.stream("GET", f"/api/answer?page=p1&{FORM}") as r:
            for line in r.iter_lines():
                if line.startswith("data:"):
                    snaps.append(json.loads(line[5:]))
                    opened.set()
    t = threading.Thread(target=answer)
    t.start()
    rnd = random.Random(6)
    for _ in range(5):  # the game goes on while the answer streams (a move is not the page's answer: nothing cancels)
        board = move(client, board, pick(board["choices"], rnd))[-1]
    t.join(120)
    assert snaps[-1]["state"] == "cap" and snaps[-1]["deals"] == 2_000
    assert board["state"] == "yours" and client.app.state.pages._running == {}
