"""A recorded game told turn by turn in plain words (``ccsim replay``).

Positions come from the engine itself (``record.replay_state`` stopped at each
turn), so the story shows exactly what the rules made of the record.
"""
from __future__ import annotations

from ccsim.kernel import rules as R
from ccsim.kernel.layout import (PR_HAND, PUB_REMAIN, fd_at, fu_at, priv_at, won_at)
from ccsim.play.record import replay, replay_state
from ccsim.runner.parameters import change_words


def _hand(st, p) -> str:
    b = priv_at(p) + PR_HAND
    cards = [R.CARD_NAMES[c] for c in range(12) for _ in range(int(st[b + c]))]
    return " ".join(cards) if cards else "(empty)"


def _side(st, g, p) -> str:
    up = [R.CARD_NAMES[c] for c in range(6) for _ in range(int(st[fu_at(g, p, c)]))]
    down = [R.CARD_NAMES[c] for c in range(6) for _ in range(int(st[priv_at(p) + fd_at(g, c)]))]
    parts = up + [f"[{c}]" for c in down]
    return " ".join(parts) if parts else "-"


def table(st) -> str:
    """Every group: patricians left, won (cleopatra/caesar), both sides ([x] = face-down)."""
    rows = []
    for g, name in enumerate(R.GROUPS):
        left = int(st[PUB_REMAIN + g])
        won = f"{int(st[won_at(0, g)])}/{int(st[won_at(1, g)])}"
        state = f"{left} left" if left else "out of play"
        rows.append(f"    {name:9} {state:12} won {won:5}  cleopatra: {_side(st, g, 0):22} caesar: {_side(st, g, 1)}")
    return "\n".join(rows)


def as_seen_by(e: dict, viewer: str) -> dict:
    """The event as player ``viewer`` sees it (R8): her opponent's face-down placements,
    draws and castling split are shown without their cards, a reshuffle without its order."""
    if e.get("p") == viewer or e["e"] in ("vote", "voc", "turn", "veto", "discard"):
        return e
    e = dict(e)
    if e["e"] == "place" and e["face"] == "down":
        e["card"] = None
    elif e["e"] == "draw":
        e["card"] = None
    elif e["e"] == "action" and "split" in e:
        e["split"] = {g: [None] * len(c) for g, c in e["split"].items()}
    elif e["e"] == "reshuffle":
        e["deck"] = [None] * len(e["deck"])
    return e


def _other(p) -> str:
    return R.PLAYERS[1 - R.PLAYERS.index(p)] if p in R.PLAYERS else "the opponent"


def _card(c) -> str:
    return "a card" if c is None else c


def _split(cards) -> str:
    if cards and cards[0] is None:
        return f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
    return " ".join(cards) or "nothing"


def event_text(e: dict) -> str:
    """One event in plain words (without the leading indentation)."""
    return _event(e).strip()


def _event(e: dict) -> str:
    k = e["e"]
    if k == "turn":
        return f"  turn {e['n']}: {e['p']} ({e['mode']})"
    if k == "place":
        return f"  {e['p']} places {_card(e['card'])} on {e['group']} face-{e['face']}"
    if k == "action":
        what = {"assassination": lambda: f"assassinates {e['target']} at {e['group']}",
                "spy": lambda: (f"spies on {_other(e['p'])}'s hand and takes {e['target']}" if "target" in e
                                else f"plays spy (to look at {_other(e['p'])}'s hand and take one card)"),
                "castling": lambda: f"castles {' and '.join(e['groups'])}" + (
                    ": " + "; ".join(f"{g} <- {_split(c)}" for g, c in e["split"].items())
                    if "split" in e else ""),
                "scout": lambda: f"scouts {e['group']}", "wrath": lambda: f"calls the wrath of God on {e['group']}"}
        return f"  {e['p']} {what[e['card']]()}"
    if k == "veto":
        return f"  {e['p']} vetoes it"
    if k == "discard":
        return f"  {e['p']} discards {' '.join(e['cards'])}"
    if k == "draw":
        return f"  {e['p']} draws {_card(e['card'])} ({e['from']} deck)"
    if k == "voc":
        if e["card"] in ("orgy", "orgy_reshuffle"):
            return f"  vote-of-confidence card: {e['card']} (no vote follows)"
        return f"  vote-of-confidence card: {e['card']}"
    if k == "reshuffle":
        return "  the VoC deck is reshuffled"
    if k == "vote":
        s = e["sums"]
        why = "philosophers differ, so the vote is reversed" if e["reversed"] else "higher sum wins"
        if e["winner"] is None:
            res = "tie: nothing happens"
        else:
            res = f"{e['winner']} wins a patrician ({why})"
        trig = "8 cards" if e["trigger"] == "eight" else "card"
        return f"  VOTE on {e['group']} ({trig}): cleopatra {s['cleopatra']} vs caesar {s['caesar']} -> {res}"
    return f"  {e}"


def narrate(rec: dict) -> str:
    """The whole game as text."""
    check = replay(rec)
    events = rec["events"]
    p = rec["players"]
    out = [f"Game {rec.get('game')} ({rec.get('seed', '')}); "
           f"rules: {change_words(rec.get('rules') or {}, rec['variants'])}",
           f"cleopatra: {p['cleopatra']['strategy']} {p['cleopatra']['ordering']}   "
           f"caesar: {p['caesar']['strategy']} {p['caesar']['ordering']}",
           f"bonus: cleopatra {rec['setup']['bonus']['cleopatra']}, caesar {rec['setup']['bonus']['caesar']}",
           "Tables: group, patricians left, won cleopatra/caesar, then each side's cards;",
           "  [x] is a face-down card (e.g. '4 [1]': a 4 face-up and a 1 face-down)."]
    if not check.ok:
        out.append(f"WARNING: this record does not replay cleanly: {check.message}")
    for j, e in enumerate(events):
        if e["e"] == "turn":
            st, *_ = replay_state(rec, stop_at=j)
            if j:
                out.append("  table now:")
                out.append(table(st))
            who = R.PLAYERS.index(e["p"])
            out.append(f"\nTurn {e['n']}: {e['p']} ({e['mode']}), hand: {_hand(st, who)}")
        else:
            out.append(_event(e))
    r = rec["result"]
    out.append("\nFinal table:" if r is not None else "\nTable when the record stops:")
    st, *_ = replay_state(rec, stop_at=len(events) if r is None else None)
    out.append(table(st))
    if r is None:
        out.append("\nThe record stops before the end of the game (no result).")
    else:
        out.append(f"\nEnd: {r['end']} after {r['turns']} turns.  VP cleopatra {r['vp']['cleopatra']}, "
                   f"caesar {r['vp']['caesar']}.  Winner: {r['winner'] or 'draw'}")
    return "\n".join(out)
