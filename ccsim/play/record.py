"""Game records: the kernel's event log <-> ``ccsim-game/1`` JSON, and replay.

The JSON side follows ``docs/game-record.md`` exactly.  Events are encoded
as rows of ``layout.EV_W`` ints, the same encoding the kernel logs, so that a
replay can compare the engine's own log with a record event by event: every
draw, vote and reshuffle claim is checked by equality.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from ccsim.kernel import rules as R
from ccsim.kernel.layout import (EV_W, EV_TURN, EV_PLACE, EV_ACTION, EV_VETO, EV_DISCARD, EV_DRAW, EV_VOTE, EV_VOC,
                          EV_RESHUFFLE, SETUP_SIZE, S_IDECK_LEN, S_ADECK_LEN, S_VOC,
                          S_VOC_LEN, S_BONUS, LOG, ERROR_NAMES, max_events, state_size, s_adeck_at, s_ideck_at, s_placement_at)
from ccsim.kernel.engine.episode import (N_RESULT, R_WINNER, R_END, R_TURNS, R_VP, R_PAT, R_ERROR,
                               replay_game_nb)
from ccsim.runner.ruleset import RulesError, rules_vector, rules_block, action_counts
from ccsim.errors import InputError

FORMAT = "ccsim-game/1"
_CARD = {name: i for i, name in enumerate(R.CARD_NAMES)}
_GROUP = {name: i for i, name in enumerate(R.GROUPS)}
_VOC = {name: i for i, name in enumerate(R.VOC_NAMES)}
_PLAYER = {name: i for i, name in enumerate(R.PLAYERS)}
_FROM = {"influence": 1, "action": 2}
_FROM_NAME = {1: "influence", 2: "action"}


class RecordError(InputError):
    """A record that is not a well-formed ``ccsim-game/1`` game."""


# ------------------------------------------------------------------ packing --
def pack_cards(codes) -> int:
    """A list of hand cards as the kernel's DISCARD code (count, then 4-bit codes, ascending)."""
    codes = sorted(codes)
    v = len(codes)
    for i, c in enumerate(codes):
        v |= c << (4 + 4 * i)
    return v


def unpack_cards(v: int) -> list[int]:
    return [(v >> (4 + 4 * i)) & 15 for i in range(v & 7)]


def pack_split(cards) -> int:
    """A castling split's cards at one group as counts per value code, 3 bits each."""
    v = 0
    for c in cards:
        v += 1 << (3 * c)
    return v


def unpack_split(v: int) -> list[int]:
    return [c for c in range(6) for _ in range((v >> (3 * c)) & 7)]


def pack_voc(deck) -> list[int]:
    fields = [0, 0, 0]
    for i, c in enumerate(deck):
        fields[i // 7] |= c << (3 * (i % 7))
    return fields


def unpack_voc(n: int, fields) -> list[int]:
    return [(fields[i // 7] >> (3 * (i % 7))) & 7 for i in range(n)]


# ------------------------------------------------------------------ JSON -> ints
def _encode_event(e: dict) -> list[int]:
    kind = e["e"]
    p = _PLAYER.get(e.get("p"), -1)
    if kind == "turn":
        return [EV_TURN, p, e["n"], 1 if e["mode"] == "active" else 0, 0, 0, 0]
    if kind == "place":
        return [EV_PLACE, p, _CARD[e["card"]], _GROUP[e["group"]], 1 if e["face"] == "up" else 0, 0, 0]
    if kind == "action":
        card = _CARD[e["card"]]
        if e["card"] == "assassination":
            return [EV_ACTION, p, card, _GROUP[e["group"]], _CARD[e["target"]], -1, -1]
        if e["card"] == "spy":
            return [EV_ACTION, p, card, -1, _CARD[e["target"]] if "target" in e else -1, -1, -1]
        if e["card"] == "castling":
            g1, g2 = sorted(_GROUP[g] for g in e["groups"])
            if "split" in e:
                s1 = pack_split(_CARD[c] for c in e["split"].get(R.GROUPS[g1], []))
                s2 = pack_split(_CARD[c] for c in e["split"].get(R.GROUPS[g2], []))
            else:
                s1 = s2 = -1
            return [EV_ACTION, p, card, g1, g2, s1, s2]
        return [EV_ACTION, p, card, _GROUP[e["group"]], -1, -1, -1]
    if kind == "veto":
        return [EV_VETO, p, 0, 0, 0, 0, 0]
    if kind == "discard":
        return [EV_DISCARD, p, pack_cards(_CARD[c] for c in e["cards"]), 0, 0, 0, 0]
    if kind == "draw":
        return [EV_DRAW, p, _FROM[e["from"]], _CARD[e["card"]], 0, 0, 0]
    if kind == "vote":
        w = -1 if e["winner"] is None else _PLAYER[e["winner"]]
        return [EV_VOTE, w, _GROUP[e["group"]], 0 if e["trigger"] == "eight" else 1,
                e["sums"]["cleopatra"], e["sums"]["caesar"], 1 if e["reversed"] else 0]
    if kind == "voc":
        return [EV_VOC, -1, _VOC[e["card"]], 0, 0, 0, 0]
    if kind == "reshuffle":
        deck = [_VOC[c] for c in e["deck"]]
        return [EV_RESHUFFLE, -1, len(deck), *pack_voc(deck), 0]
    raise RecordError(f"unknown event kind {kind!r}")


def rules_for(variants, block=None) -> np.ndarray:
    """The rules vector of a record's ``variants`` and ``rules`` (GAME_RECORD.md); RecordError
    with one line for an unknown key, a non-integer or a value out of range."""
    if not isinstance(variants, list):
        raise RecordError(f"variants: must be a list, got {variants!r}")
    for v in variants:
        if v not in R.VARIANTS:
            raise RecordError(f"unknown variant {v!r}")
    if block is not None and not isinstance(block, dict):
        raise RecordError(f"rules: must be an object, got {block!r}")
    try:
        return rules_vector(block, variants)
    except RulesError as e:
        raise RecordError(str(e)) from None


def _same_cards(have, want: dict, where: str) -> None:
    """A deck's composition must be what the rules say (GAME_RECORD.md, Rule parameters)."""
    got = {k: have.count(k) for k in want}
    extra = sorted(set(have) - set(want))
    if got != want or extra:
        raise RecordError(f"{where}: holds {dict((k, have.count(k)) for k in dict.fromkeys(have))}, "
                          f"the rules need {want}")


def check_setup(rec: dict, rules: np.ndarray) -> None:
    """The decks of ``setup`` and the orderings hold exactly the cards the rules give."""
    s = rec["setup"]
    deck = {c: int(rules[R.RP_DECK_COUNT + i]) for i, c in enumerate(R.INFLUENCE_NAMES)}
    for p, name in enumerate(R.PLAYERS):
        _same_cards(list(s["influence_deck"][name]), deck, f"setup.influence_deck.{name}")
        owned = dict(zip(R.ACTION_LETTERS, action_counts(rules, p)))
        _same_cards(list(rec["players"][name]["ordering"]), owned, f"players.{name}.ordering")
    orgies = int(rules[R.RP_ORGIES]) - (1 if rules[R.RP_VARIANTS] & R.V_TWO_ORGIES else 0)
    _same_cards(list(s["voc_deck"]), {**{g: 1 for g in R.GROUPS}, "orgy": orgies, "orgy_reshuffle": 1},
                "setup.voc_deck")


def encode_setup(rec: dict) -> np.ndarray:
    setup = np.zeros(SETUP_SIZE, np.int32)
    s = rec["setup"]
    for p, name in enumerate(R.PLAYERS):
        deck = [_CARD[c] for c in s["influence_deck"][name]]
        setup[s_ideck_at(p, 0):s_ideck_at(p, len(deck))] = deck
        setup[S_IDECK_LEN + p] = len(deck)
        order = rec["players"][name]["ordering"]
        codes = [R.ACTION_BASE + R.ACTION_LETTERS.index(ch) for ch in order]
        setup[s_adeck_at(p, 0):s_adeck_at(p, len(codes))] = codes
        setup[S_ADECK_LEN + p] = len(codes)
        setup[S_BONUS + p] = _GROUP[s["bonus"][name]]
        for g, gname in enumerate(R.GROUPS):
            setup[s_placement_at(p, g)] = _CARD[s["placement"][name][gname]]
    voc = [_VOC[c] for c in s["voc_deck"]]
    setup[S_VOC:S_VOC + len(voc)] = voc
    setup[S_VOC_LEN] = len(voc)
    return setup


def encode_events(events) -> np.ndarray:
    out = np.zeros((len(events), EV_W), np.int32)
    for k, e in enumerate(events):
        out[k] = _encode_event(e)
    return out


# ------------------------------------------------------------------ ints -> JSON
def _decode_event(row) -> dict:
    t, p = int(row[0]), int(row[1])
    a, b, c, d, e = (int(x) for x in row[2:7])
    pn = R.PLAYERS[p] if p >= 0 else None
    if t == EV_TURN:
        return {"e": "turn", "p": pn, "n": a, "mode": "active" if b else "passive"}
    if t == EV_PLACE:
        return {"e": "place", "p": pn, "card": R.CARD_NAMES[a], "group": R.GROUPS[b], "face": "up" if c else "down"}
    if t == EV_ACTION:
        out = {"e": "action", "p": pn, "card": R.CARD_NAMES[a]}
        if a == R.ASSASSINATION:
            out["group"] = R.GROUPS[b]
            out["target"] = R.CARD_NAMES[c]
        elif a == R.SPY:
            if c >= 0:
                out["target"] = R.CARD_NAMES[c]
        elif a == R.CASTLING:
            out["groups"] = [R.GROUPS[b], R.GROUPS[c]]
            if d >= 0:
                out["split"] = {R.GROUPS[b]: [R.CARD_NAMES[x] for x in unpack_split(d)],
                                R.GROUPS[c]: [R.CARD_NAMES[x] for x in unpack_split(e)]}
        else:
            out["group"] = R.GROUPS[b]
        return out
    if t == EV_VETO:
        return {"e": "veto", "p": pn}
    if t == EV_DISCARD:
        return {"e": "discard", "p": pn, "cards": [R.CARD_NAMES[x] for x in unpack_cards(a)]}
    if t == EV_DRAW:
        return {"e": "draw", "p": pn, "from": _FROM_NAME[a], "card": R.CARD_NAMES[b]}
    if t == EV_VOTE:
        return {"e": "vote", "group": R.GROUPS[a], "trigger": "eight" if b == 0 else "card",
                "sums": {"cleopatra": c, "caesar": d}, "reversed": bool(e), "winner": pn}
    if t == EV_VOC:
        return {"e": "voc", "card": R.VOC_NAMES[a]}
    if t == EV_RESHUFFLE:
        return {"e": "reshuffle", "deck": [R.VOC_NAMES[x] for x in unpack_voc(a, (b, c, d))]}
    raise ValueError(f"unknown event code {t}")


def decode_events(log: np.ndarray) -> list[dict]:
    return [_decode_event(row) for row in log]


def result_dict(row) -> dict:
    """The ``result`` object of a record from a kernel result row."""
    w = int(row[R_WINNER])
    return {
        "end": R.END_NAMES[int(row[R_END])] if row[R_END] >= 0 else "error",
        "turns": int(row[R_TURNS]),
        "patricians": {name: {g: int(row[R_PAT + p * 5 + i]) for i, g in enumerate(R.GROUPS)}
                       for p, name in enumerate(R.PLAYERS)},
        "vp": {name: int(row[R_VP + p]) for p, name in enumerate(R.PLAYERS)},
        "winner": R.PLAYERS[w] if w >= 0 else None,
    }


def setup_dict(setup: np.ndarray) -> tuple[dict, dict]:
    """(``setup`` object, orderings per player) of a record from a kernel setup block."""
    out = {"bonus": {}, "influence_deck": {}, "voc_deck": [], "placement": {}}
    orders = {}
    for p, name in enumerate(R.PLAYERS):
        out["bonus"][name] = R.GROUPS[int(setup[S_BONUS + p])]
        n = int(setup[S_IDECK_LEN + p])
        out["influence_deck"][name] = [R.CARD_NAMES[int(x)] for x in setup[s_ideck_at(p, 0):s_ideck_at(p, n)]]
        out["placement"][name] = {g: R.CARD_NAMES[int(setup[s_placement_at(p, i)])] for i, g in enumerate(R.GROUPS)}
        n = int(setup[S_ADECK_LEN + p])
        orders[name] = "".join(R.ACTION_LETTERS[int(x) - R.ACTION_BASE]
                               for x in setup[s_adeck_at(p, 0):s_adeck_at(p, n)])
    n = int(setup[S_VOC_LEN])
    out["voc_deck"] = [R.VOC_NAMES[int(x)] for x in setup[S_VOC:S_VOC + n]]
    return out, orders


def make_record(game: int, seed_text: str, variants, strategies, setup, log, result_row, rules=None) -> dict:
    """A ``ccsim-game/1`` record; ``rules`` (the game's rules vector) adds the ``rules`` block
    of what differs from the standard rules, none when nothing does (GAME_RECORD.md)."""
    setup_obj, orders = setup_dict(setup)
    rec = {
        "format": FORMAT,
        "game": int(game),
        "seed": seed_text,
        "variants": list(variants),
    }
    block = rules_block(rules) if rules is not None else {}
    if block:
        rec["rules"] = block
    rec.update({
        "players": {name: {"strategy": strategies[p], "ordering": orders[name]} for p, name in enumerate(R.PLAYERS)},
        "setup": setup_obj,
        "events": decode_events(log),
        "result": result_dict(result_row),
    })
    return rec


# ------------------------------------------------------------------ replay ---
@dataclass
class Replay:
    """The outcome of replaying a record with ccsim's engine."""
    ok: bool
    message: str
    events: list = field(default_factory=list)  # the engine's own events
    result: dict | None = None
    mismatch_at: int | None = None  # first event index where record and engine differ


def replay_state(rec: dict, stop_at: int | None = None):
    """Run the engine on a record; returns (state vector, events logged, result row).

    With ``stop_at=j`` the engine stops as it is about to log event j: for a
    ``turn`` event, that is the position at the start of that turn.
    """
    if rec.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (format={rec.get('format')!r})")
    rules = rules_for(rec.get("variants", []), rec.get("rules"))
    check_setup(rec, rules)
    setup = encode_setup(rec)
    ev = encode_events(rec["events"])
    n_log = max_events(rules) if stop_at is None else stop_at
    st = np.zeros(state_size(n_log, len(ev)), np.int32)
    row = np.zeros(N_RESULT, np.int16)
    k = replay_game_nb(st, rules, setup, ev, n_log, row)
    return st, k, row, ev


def replay(rec: dict) -> Replay:
    """Replay a record: every event must be legal and every claim true (GAME_RECORD.md)."""
    st, k, row, ev = replay_state(rec)
    log = st[LOG:LOG + k * EV_W].reshape(k, EV_W)
    events = decode_events(log)
    result = result_dict(row)
    err = int(row[R_ERROR])
    diff = next((i for i in range(min(k, len(ev))) if not np.array_equal(log[i], ev[i])), None)
    if diff is not None:
        return Replay(False, f"event {diff}: record says {rec['events'][diff]}, engine found {events[diff]}",
                      events, result, diff)
    if rec.get("result", ...) is None:  # a game so far (ccsim.Game.record before the end)
        if k < len(ev):
            return Replay(False, f"event {k}: {ERROR_NAMES.get(err, err)} ({_describe(rec['events'], k)})",
                          events, result, k)
        return Replay(True, f"ok (a game so far: {len(ev)} events, no result yet)", events[:len(ev)], None)
    if err:
        return Replay(False, f"event {k}: {ERROR_NAMES.get(err, err)} ({_describe(rec['events'], k)})",
                      events, result, k)
    if k != len(ev):
        what = "missing events: the engine went on with" if k > len(ev) else "extra events after the end:"
        i = min(k, len(ev))
        nxt = events[i] if k > len(ev) else rec["events"][i]
        return Replay(False, f"event {i}: {what} {nxt}", events, result, i)
    if result != rec["result"]:
        return Replay(False, f"result: record says {rec['result']}, engine found {result}", events, result)
    return Replay(True, "ok", events, result)


def _describe(events, k):
    return f"recorded event {events[k]}" if k < len(events) else "past the record's end"


def read_records(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
