"""A game against a strategy told to the person who plays it: her moves in words and in small steps,
and the story of the game as she may see it (R8).  Shared by ``ccsim play`` (the terminal) and the
page's "Play these rules" panel (``ccsim.explore``), so both say a move and an event the same way.

``option_words`` says an option of ``Game.legal()``; ``option_path`` cuts it into the small steps a
person takes to name it (which card, then face, then group...), under keys fixed per card and per
group; ``Story`` keeps every event a line, her opponent's hidden cards kept hidden
(``narrate.as_seen_by``).  Lines are wrapped by the caller's ``wrap`` (the terminal's width; the
page wraps its own).
"""
from __future__ import annotations

import json

from ccsim.kernel import rules as R

__all__ = ["CARD_KEYS", "GROUP_KEYS", "option_words", "option_path", "step_order", "announced_words", "set_aside",
           "Story"]

# Keys fixed per card and per group (never positions in a list).
CARD_KEYS = {"1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "P": "p", "assassination": "a", "spy": "s",
             "castling": "c", "scout": "r", "wrath": "w", "veto": "v"}
GROUP_KEYS = {g: "abcde"[i] for i, g in enumerate(R.GROUPS)}


def option_words(d: dict) -> str:
    """An option of ``Game.legal()`` in plain words, for the human player."""
    k = d["e"]
    if k == "place":
        return f"place {d['card']} face-{d['face']} on {d['group']}"
    if k == "action":
        if d["card"] == "spy" and "target" in d:
            return f"take her {d['target']}"
        target = {"assassination": lambda: f" her {d['target']} at {d['group']}",
                  "castling": lambda: f" {d['groups'][0]} and {d['groups'][1]}",
                  "spy": lambda: " (see her hand, take one card)"}.get(d["card"], lambda: f" on {d['group']}")()
        return f"play {d['card']}{target}"
    if k == "end":
        return "end the turn"
    if k == "turn":
        return f"{d['mode']} turn"
    if k == "discard":
        return "discard " + " ".join(d["cards"]) if d["cards"] else "discard nothing"
    if k == "draw":
        return f"draw from the {d['from']} deck"
    if k == "no_draw":
        return "draw nothing"
    if k == "veto":
        return "veto it"
    if k == "no_veto":
        return "let it happen"
    if k == "split":
        (g1, a), (g2, b) = d["to"].items()
        return f"{d['card']}: {a} back on {g1}, {b} on {g2}"
    if k == "placement":
        return ", ".join(f"{g} {c}" for g, c in d["placement"].items())
    return json.dumps(d)


def _card_step(c, question, verb=""):
    return (CARD_KEYS[c], f"{verb}{c}", question)


def _group_step(g, question):
    return (GROUP_KEYS[g], g, question)


def option_path(d: dict) -> list[tuple[str, str, str]]:
    """The small steps that name option ``d``: (key, label, question) each, keys fixed per card/group."""
    k = d["e"]
    what = "your move: which card?"
    if k == "place":
        return [_card_step(d["card"], what, "place "),
                ("o" if d["face"] == "up" else "d", f"face-{d['face']}", f"place {d['card']}: face-up or down?"),
                _group_step(d["group"], f"place {d['card']} face-{d['face']}: on which group?")]
    if k == "action":
        c = d["card"]
        if c == "spy" and "target" in d:
            return [_card_step(d["target"], "your spy: which of her cards do you take?", "take ")]
        first = _card_step(c, what, "play ")
        if c == "assassination":
            return [first, _group_step(d["group"], "assassinate at which group?"),
                    _card_step(d["target"], f"assassinate which of her cards at {d['group']}?")]
        if c == "castling":
            return [first, _group_step(d["groups"][0], "castling: the first group?"),
                    _group_step(d["groups"][1], f"castling {d['groups'][0]} with which group?")]
        if c == "spy":
            return [first]
        return [first, _group_step(d["group"], f"{c} on which group?")]
    if k == "end":
        return [("e", "end the turn", what)]
    if k == "turn":
        return [(d["mode"][0], f"{d['mode']} turn", "active or passive turn?")]
    if k in ("draw", "no_draw"):
        q = "draw a card from which deck?"
        return [("i", "influence deck", q) if d.get("from") == "influence" else
                ("a", "action deck", q) if k == "draw" else ("n", "no draw", q)]
    if k in ("veto", "no_veto"):
        return [("v", "veto it", "veto?") if k == "veto" else ("n", "let it happen", "veto?")]
    if k == "split":
        (g1, a), (g2, b) = d["to"].items()
        return [(str(a), f"{a} back on {g1}, {b} on {g2}", f"castling: how many {d['card']} back on {g1}?")]
    if k == "discard":
        q = "discard which cards? (one at a time, then no (more) discards)"
        return [_card_step(c, q, "discard ") for c in d["cards"]] + [("n", "no (more) discards", q)]
    if k == "placement":
        return [_card_step(c, f"initial placement: which card on {g}?", "") for g, c in d["placement"].items()]
    return [("x", option_words(d), "?")]


def step_order(key: str, label: str) -> int:
    """Where a step's choice is listed: groups in table order, then cards, faces and the rest by key."""
    if label in R.GROUPS:
        return R.GROUPS.index(label)
    i = "e0123456789pascrwvoiadn".find(key)
    return 99 if i < 0 else i


def announced_words(obs: dict) -> str | None:
    """The action card the opponent announced, awaiting the veto (R7.0), in words; None when none is."""
    a = obs.get("announced")
    if not a:
        return None
    her = R.PLAYERS[1 - R.PLAYERS.index(obs["player"])]
    where = " ".join(x for x in (a["target"], "at" if a["target"] else None, a["group"], a["second_group"]) if x)
    return f"{her} announces {a['card']}" + (f": {where}" if where else "")


def set_aside(obs: dict) -> list[str] | None:
    """Before play, the set-aside cards the player has still to place, one on each group (R2.5); None
    once they are placed (her hand is then her hand)."""
    if obs.get("decision") != "placement" or obs["hand"]:
        return None
    me = obs["player"]
    placed = [c for x in obs["groups"].values() for c in x[me]["up"] + x[me]["down"]]
    return [c for c in R.INFLUENCE_NAMES[:5] if c not in placed]


def _unwrapped(text: str, indent: str = "") -> list[str]:
    """A line as it is: the page wraps its own (the terminal passes ``terminal.wrap``, at its width)."""
    return [indent + text]


class Story:
    """Every event of the game as the human (``seat``) may see it, a line each: ``lines``; ``told``
    events of the log told so far, ``fresh`` the first line since her last move, ``spy`` the
    log index of a spy whose pick is not told yet."""

    def __init__(self, seat: str, rules: str = "the standard rules", wrap=None):
        self.seat, self.her = seat, R.PLAYERS[1 - R.PLAYERS.index(seat)]
        self.wrap = wrap or _unwrapped
        self.rules = rules  # the rules in force, in plain words: the board's first line says them
        self.told, self.spy, self.lines, self.fresh = 0, None, [], 0

    def _events(self, g, a: int, b: int) -> list:
        from ccsim.kernel import layout as L
        from ccsim.play.record import decode_events
        return decode_events(g.st[L.LOG + a * L.EV_W:L.LOG + b * L.EV_W].reshape(-1, L.EV_W))

    def tell(self, g) -> None:
        """Add what happened since the last call."""
        from ccsim.kernel import layout as L
        from ccsim.play.narrate import as_seen_by, event_text
        k = int(g.st[L.H_NLOG])
        if self.spy is not None:  # the spy's pick is written into its event once made
            e = self._events(g, self.spy, self.spy + 1)[0]
            if "target" in e:
                who = "you take" if e["p"] == self.seat else f"{e['p']} takes"
                whose = "your" if e["p"] != self.seat else f"{self.her}'s"
                self.lines += self.wrap(f"{who} {e['target']} from {whose} hand (spy)", "  ")
                self.spy = None
        for j, e in enumerate(self._events(g, self.told, k), self.told):
            if e["e"] == "veto":
                self.spy = None
            if e["e"] == "action" and e["card"] == "spy" and "target" not in e:
                self.spy = j
            text = event_text(as_seen_by(e, self.seat))
            if e["e"] == "turn":
                self.lines.append("")
            self.lines += self.wrap(text, "  ")
        self.told = k

    def note(self, g) -> str | None:
        """Why the human is asked to draw, where it is not plain."""
        if g.decision == "veto_draw":
            return "after your veto you may draw a card (R7.6)"
        if g.decision == "draw" and self.lines and (f"{self.her} spies on {self.seat}'s hand" in self.lines[-1]
                                                    or self.lines[-1].endswith("from your hand (spy)")):
            return "the spy took one of your cards: you draw a replacement (R7.2)"
        return None

    def moving(self, g) -> None:
        """The human moves now: what follows is fresh, and a spy's pick is told with the hand it saw (R8.3)."""
        self.fresh = len(self.lines)
        if g.decision == "spy_pick":
            seen = g.observation(self.seat).get("spy_seen")
            if seen:
                self.lines += self.wrap(f"your spy saw {self.her}'s hand: {' '.join(seen['hand']) or '-'}", "  ")

    def saved(self) -> dict:
        return {"told": self.told, "spy": self.spy, "story_len": len(self.lines), "fresh": self.fresh}

    def restore(self, saved: dict) -> None:
        self.told, self.spy, self.fresh = saved["told"], saved["spy"], saved["fresh"]
        self.lines = self.lines[:saved["story_len"]]
