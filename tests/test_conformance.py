"""Game records: the conformance games replay, ccsim's own records
round-trip, and a tampered record is rejected (docs/game-record.md).

The conformance file is ``tests/data/conformance/records.jsonl`` (see its README).
"""
import copy
import json
from pathlib import Path

import numpy as np
import pytest

from ccsim.kernel import rules as R
from ccsim.kernel import layout as L
from ccsim.kernel.engine.episode import record_game_nb, replay_game_nb, N_RESULT, R_ERROR, R_END
from ccsim.kernel.engine.invariants import check_state_nb, INVARIANT_NAMES
from ccsim.play.record import make_record, read_records, replay, RecordError, rules_for, encode_setup, encode_events
from strategies.registry import available
from conftest import make_rules, make_orders, make_seats


RECORDS = Path(__file__).resolve().parent / "data" / "conformance" / "records.jsonl"
HAVE_RECORDS = True
STRATEGY_NAMES = {s["id"]: s["name"] for s in available()}


def _lines():
    """(line number, record) of every game in the conformance file, 1-based."""
    with open(RECORDS, encoding="utf-8") as f:
        return [(i, json.loads(text)) for i, text in enumerate(f, 1) if text.strip()]


LINES = _lines()


# ------------------------------------------------------------ conformance ----
def test_conformance_file_is_complete():
    assert len(LINES) == len(read_records(RECORDS)) >= 300
    variants = {v for _, rec in LINES for v in rec.get("variants", [])}
    assert variants == set(R.VARIANTS), "the file covers every R11 variant"


@pytest.mark.parametrize("line", range(1, len(LINES) + 1) if LINES else [0], ids=lambda n: f"line{n}")
def test_conformance_record_replays(compiled, line):
    n, rec = LINES[line - 1]
    r = replay(rec)
    where = f" at event {r.mismatch_at}" if r.mismatch_at is not None else ""
    assert r.ok, (f"{RECORDS.name} line {n} (game {rec.get('game')}, variants {rec.get('variants')}) "
                  f"fails{where}: {r.message}")
    assert len(r.events) == len(rec["events"])
    assert r.result == rec["result"]
    # the same replay with the state invariants checked after every turn
    code, broken, final = checked_replay(rec)
    assert code == 0 and broken == 0 and final == 0, (
        f"{RECORDS.name} line {n}: checked replay: error {L.ERROR_NAMES.get(code)}, "
        f"invariant {INVARIANT_NAMES.get(broken)} during play, {INVARIANT_NAMES.get(final)} at the end")


def checked_replay(rec):
    """Replay a record as ccsim.play.record.replay does, with invariants checked after every turn:
    (error code, invariant code found during play, invariant code of the final state)."""
    rules = rules_for(rec.get("variants", []))
    ev = encode_events(rec["events"])
    n_log = L.max_events(rules)
    st = np.zeros(L.state_size(n_log, len(ev)), np.int32)
    row = np.zeros(N_RESULT, np.int16)
    replay_game_nb(st, rules, encode_setup(rec), ev, n_log, row, 1)
    return int(row[R_ERROR]), int(st[L.H_BROKEN]), int(check_state_nb(st))


# ------------------------------------------------------------ round trips ----
def play_record(sids, variants, orders, seed, game):
    """Play one game keeping its log and turn it into a ``ccsim-game/1`` record."""
    bits = sum(R.VARIANTS[v] for v in variants)
    rules = make_rules(bits)
    s, sp = make_seats(*sids)
    st = np.zeros(L.state_size(L.max_events(rules), 0), np.int32)
    rng = np.zeros(L.N_RNG, np.uint64)
    setup = np.zeros(L.SETUP_SIZE, np.int32)
    row = np.zeros(N_RESULT, np.int16)
    k = record_game_nb(st, rng, sp, rules, s, np.int64(seed), np.int64(game), make_orders(*orders), setup, row,
                       1)  # the recorded game is a checked game too
    assert row[R_ERROR] == 0, f"game {game}: engine error {L.ERROR_NAMES.get(int(row[R_ERROR]))}"
    log = st[L.LOG:L.LOG + k * L.EV_W].reshape(k, L.EV_W)
    names = [STRATEGY_NAMES[sids[0]], STRATEGY_NAMES[sids[1]]]
    rec = make_record(game, f"run seed {seed}, game {game}", variants, names, setup, log, row)
    return json.loads(json.dumps(rec)), row  # through JSON, as a file would carry it


VARIANT_CASES = [[], *([v] for v in R.VARIANTS), list(R.VARIANTS)]
PAIRS = [(a, b) for a in STRATEGY_NAMES for b in STRATEGY_NAMES]


@pytest.mark.parametrize("variants", VARIANT_CASES, ids=lambda v: "+".join(v) or "default")
@pytest.mark.parametrize("sids", PAIRS, ids=lambda s: f"{STRATEGY_NAMES[s[0]]}-{STRATEGY_NAMES[s[1]]}")
def test_round_trip(compiled, sids, variants):
    """A game ccsim plays and records replays to the same events and result."""
    for game, orders in enumerate([("shuffled", "shuffled"), ("VAASRCAWSARCV", "AAAASSCCRRWVV"),
                                   ("shuffled", "WVVSSCCRRAAAA")] * 3):
        rec, row = play_record(sids, variants, orders, 2024 + len(variants), game)
        r = replay(rec)
        assert r.ok, f"game {game}: {r.message}"
        assert checked_replay(rec) == (0, 0, 0)
        assert r.events == rec["events"]
        assert r.result == rec["result"]
        assert rec["result"]["end"] == R.END_NAMES[int(row[R_END])]
        if orders[0] != "shuffled":
            assert rec["players"]["cleopatra"]["ordering"] == orders[0]


def test_round_trip_covers_the_corners(compiled):
    """The recorded games include vetoes, spies, castlings, reshuffles, ties, reversals and all four ends
    (random play reaches them; otherwise the round trips above would prove little)."""
    seen = set()
    for game in range(120):
        rec, _ = play_record((0, 0), list(R.VARIANTS) if game % 2 else [], ("shuffled", "shuffled"), 77, game)
        seen.add(rec["result"]["end"])
        for e in rec["events"]:
            seen.add(e["e"])
            if e["e"] == "action":
                seen.add(e["card"])
            if e["e"] == "vote":
                seen.add("tie" if e["winner"] is None else "decided")
                if e["reversed"]:
                    seen.add("reversed")
    for game in range(60):
        rec, _ = play_record((1, 1), [], ("shuffled", "shuffled"), 78, game)
        seen.add(rec["result"]["end"])
    want = {"turn", "place", "action", "veto", "discard", "draw", "vote", "voc", "reshuffle",
            "assassination", "spy", "castling", "scout", "wrath", "tie", "decided", "reversed",
            "all_patricians", "no_influence", "stalemate"}
    assert want <= seen, want - seen


# ------------------------------------------------------------ tampering ------
def _tamper_draw(rec):
    k = next(i for i, e in enumerate(rec["events"]) if e["e"] == "draw")
    e = rec["events"][k]
    pool = R.INFLUENCE_NAMES if e["from"] == "influence" else R.ACTION_NAMES
    e["card"] = next(c for c in pool if c != e["card"])
    return k


def _tamper_vote(rec):
    k = next(i for i, e in enumerate(rec["events"]) if e["e"] == "vote")
    rec["events"][k]["sums"]["cleopatra"] += 1
    return k


def _tamper_winner(rec):
    w = rec["result"]["winner"]
    rec["result"]["winner"] = "caesar" if w == "cleopatra" else "cleopatra"
    return None


def _tamper_vp(rec):
    rec["result"]["vp"]["caesar"] += 1
    return None


def _drop_event(rec, kind):
    ks = [i for i, e in enumerate(rec["events"]) if e["e"] == kind]
    k = ks[len(ks) // 2]
    del rec["events"][k]
    return k


def _drop_last(rec):
    rec["events"].pop()
    return len(rec["events"])


def _tamper_placement(rec):
    pl = rec["setup"]["placement"]["caesar"]
    pl["senator"], pl["praetor"] = pl["praetor"], pl["senator"]  # a different but legal placement
    return 0


def _tamper_deck(rec):  # the first influence card caesar draws is claimed otherwise
    deck = rec["setup"]["influence_deck"]["caesar"]
    j = next(i for i in range(1, len(deck)) if deck[i] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    return None


TAMPERS = {
    "draw card": _tamper_draw,
    "vote sums": _tamper_vote,
    "result winner": _tamper_winner,
    "result vp": _tamper_vp,
    "drop a draw": lambda rec: _drop_event(rec, "draw"),
    "drop a vote": lambda rec: _drop_event(rec, "vote"),
    "drop a place": lambda rec: _drop_event(rec, "place"),
    "drop a voc": lambda rec: _drop_event(rec, "voc"),
    "drop a turn": lambda rec: _drop_event(rec, "turn"),
    "drop the last event": _drop_last,
    "setup deck order": _tamper_deck,
}


@pytest.fixture(scope="module")
def recorded(compiled):
    """A few recorded games with every event kind the tampering needs."""
    out = []
    for sids in [(0, 0), (0, 1), (1, 1)]:
        for game in range(200):
            rec, _ = play_record(sids, [], ("shuffled", "shuffled"), 5, game)
            kinds = {e["e"] for e in rec["events"]}
            if {"draw", "vote", "place", "voc", "turn"} <= kinds and any(
                    e["e"] == "draw" and e["p"] == "caesar" and e["from"] == "influence" for e in rec["events"]):
                out.append(rec)
                break
    assert len(out) == 3
    return out


@pytest.mark.parametrize("tamper", list(TAMPERS))
def test_tampered_record_is_rejected(recorded, tamper):
    for rec in recorded:
        assert replay(rec).ok
        bad = copy.deepcopy(rec)
        TAMPERS[tamper](bad)
        r = replay(bad)
        assert not r.ok, f"{tamper}: the tampered record was accepted"
        assert r.message and r.message != "ok"


EVENT_TAMPERS = ["draw card", "vote sums", "drop a turn", "drop the last event",
                 "drop a draw", "drop a vote", "drop a place", "drop a voc"]


@pytest.mark.parametrize("tamper", EVENT_TAMPERS)
def test_rejection_names_the_first_wrong_event(recorded, tamper):
    """The replay points at the first event where record and engine part (Replay.mismatch_at):
    the tampered or dropped event's index, so that an issue can cite it."""
    for rec in recorded:
        bad = copy.deepcopy(rec)
        k = TAMPERS[tamper](bad)
        r = replay(bad)
        assert not r.ok
        m = r.mismatch_at
        # the record is consistent with the rules up to m and not at m; a dropped event can be
        # stood in for by the next one (a draw from the same deck), so m may come after k
        assert m is not None and m >= k, f"{tamper}: tampered at {k}, replay says {m}: {r.message}"
        assert r.events[:m] == bad["events"][:m], f"{tamper}: events before {m} differ"
        assert m >= len(r.events) or m >= len(bad["events"]) or r.events[m] != bad["events"][m] or \
            "illegal" in r.message, r.message
        assert r.message.startswith(f"event {m}:"), r.message


def test_tampered_placement_is_rejected_or_differs(recorded):
    """A different initial placement (R2.5) is legal, so the replay accepts the
    placement itself; the events and the result that follow no longer fit."""
    rec = copy.deepcopy(recorded[0])
    _tamper_placement(rec)
    assert not replay(rec).ok


def test_malformed_record_raises():
    with pytest.raises(RecordError):
        replay({"format": "something-else/1"})
    rec = {"format": "ccsim-game/1", "variants": ["no_such_variant"]}
    with pytest.raises(RecordError):
        replay(rec)
