"""Hand-made positions for rule-by-rule scenario tests (RULES.md).

Two tools, both driving the compiled engine itself (nothing here re-implements
a rule):

``Table``
    A position in the middle of a game, written card by card::

        t = Table()
        t.side("senator", "cleopatra", up=["5", "P"], down=["3"])
        t.side("senator", "caesar", up=["4"])
        t.hand("caesar", ["veto"])
        assert t.vote("senator") == "caesar"

    Then one rule function at a time is called on it (``vote``,
    ``exceptional_votes``, ``voc_draw``, ``options``, ``place``, ``play``,
    ``turn``, ``end_of_turn``, ``vp``, ``winner``).  The decisions the
    engine asks for inside these calls (a veto, the spy's pick, a castling
    split, draws, a whole turn) come from ``t.script(...)``: the events the
    players take, in the ``ccsim-game/1`` event format, replayed as a record
    (``ccsim.kernel.engine.replay``).  Past the end of the script, every optional
    decision is declined (no veto, no veto draw, no further step, no discard).
    ``t.events()`` is the engine's own event log, for exact comparison.

``Game``
    A whole game from its setup (R2) under chosen decks and rules, driven by
    a script of events: ``ccsim.kernel.engine.episode.replay_game_nb`` with any rules
    vector (e.g. a small ``max_turns``).  For the end conditions of R9, which
    live in the game loop.

Event constructors (``Turn``, ``Place``, ``Action``, ``Veto``, ``Draw``,
``Discard``, ``Vote``, ``Voc``, ``Reshuffle``) build the dicts of
GAME_RECORD.md, so that scripts and expectations read like records.

Option strings (``Table.options``): ``"down 3 senator"``, ``"up P praetor"``,
``"assassination senator 5"``, ``"spy"``, ``"castling senator praetor"``,
``"scout censor"``, ``"wrath aedile"``, ``"end"``.
"""
from __future__ import annotations

import numpy as np
import pytest

from ccsim.kernel import decisions as D
from ccsim.kernel import layout as L
from ccsim.kernel import rules as R
from ccsim.kernel.engine.core import hand_add_nb, put_at_nb
from ccsim.kernel.engine.episode import N_RESULT, R_ERROR, replay_game_nb, drive_nb
from ccsim.kernel.engine.score import vp_nb, winner_nb
from ccsim.kernel.engine.setup import deal_nb, reset_nb
from ccsim.kernel.engine.step import start_game_nb, post_nb, A_STEP, PH_STEP, PH_MODE, PH_TURN_END, PH_NEXT_TURN
from strategies.registry import resolve
from ccsim.kernel.engine.turn import (
    can_be_active_nb,
    discard_options_nb,
    end_of_turn_nb,
    place_nb,
    step_options_nb,
)
from ccsim.kernel.engine.vote import (
    TRIGGER_CARD,
    TRIGGER_EIGHT,
    exceptional_votes_nb,
    voc_draw_nb,
    vote_nb,
)
from ccsim.play.record import decode_events, encode_events, encode_setup, result_dict
from ccsim.kernel.rng import seed_game_nb

PLAYER = {name: i for i, name in enumerate(R.PLAYERS)}
GROUP = {name: i for i, name in enumerate(R.GROUPS)}
CARD = {name: i for i, name in enumerate(R.CARD_NAMES)}
VOC_CARD = {name: i for i, name in enumerate(R.VOC_NAMES)}
ACTION_NAME_OF_CODE = {c: R.CARD_NAMES[c] for c in range(R.ACTION_BASE, R.N_CARD_CODES)}


def _p(player) -> int:
    return PLAYER[player] if isinstance(player, str) else int(player)


def _g(group) -> int:
    return GROUP[group] if isinstance(group, str) else int(group)


def _names(counts) -> list[str]:
    """Card names from a per-code count vector, in code order (1..5, P, actions)."""
    return [R.CARD_NAMES[c] for c in range(len(counts)) for _ in range(int(counts[c]))]


def cards(*names) -> list[str]:
    """A list of card names in the order ``Table`` reports them (code order)."""
    return sorted(names, key=lambda n: CARD[n])


# ----------------------------------------------------------------- events ----
def Turn(p, n, mode):
    return {"e": "turn", "p": p, "n": n, "mode": mode}


def Place(p, card, group, face):
    return {"e": "place", "p": p, "card": card, "group": group, "face": face}


def Action(p, card, **kw):
    """``Action(p, "assassination", group=, target=)``, ``Action(p, "spy", target=)``,
    ``Action(p, "castling", groups=[g1, g2], split={g1: [...], g2: [...]})``,
    ``Action(p, "scout"|"wrath", group=)``.  Omit spy ``target`` / castling ``split``
    for a vetoed card (R7.0)."""
    return {"e": "action", "p": p, "card": card, **kw}


def Veto(p):
    return {"e": "veto", "p": p}


def Draw(p, frm, card):
    return {"e": "draw", "p": p, "from": frm, "card": card}


def Discard(p, cards_):
    return {"e": "discard", "p": p, "cards": list(cards_)}


def Vote(group, trigger, sums, reversed_, winner):
    return {"e": "vote", "group": group, "trigger": trigger,
            "sums": {"cleopatra": sums[0], "caesar": sums[1]}, "reversed": reversed_, "winner": winner}


def Voc(card):
    return {"e": "voc", "card": card}


def Reshuffle(deck):
    return {"e": "reshuffle", "deck": list(deck)}


# ----------------------------------------------------------------- options ---
def option_text(code: int) -> str:
    t = D.step_type(code)
    c = D.step_card(code)
    g = D.step_group(code)
    x = D.step_x(code)
    if t == D.T_END:
        return "end"
    if t == D.T_PLACE_DOWN:
        return f"down {R.CARD_NAMES[c]} {R.GROUPS[g]}"
    if t == D.T_PLACE_UP:
        return f"up {R.CARD_NAMES[c]} {R.GROUPS[g]}"
    name = R.CARD_NAMES[c]
    if c == R.ASSASSINATION:
        return f"{name} {R.GROUPS[g]} {R.CARD_NAMES[x]}"
    if c == R.CASTLING:
        return f"{name} {R.GROUPS[g]} {R.GROUPS[x]}"
    if c == R.SPY:
        return name
    return f"{name} {R.GROUPS[g]}"


def option_code(text: str) -> int:
    w = text.split()
    if w[0] == "end":
        return D.step_code(D.T_END, 0, 0, 0)
    if w[0] in ("down", "up"):
        t = D.T_PLACE_DOWN if w[0] == "down" else D.T_PLACE_UP
        return D.step_code(t, CARD[w[1]], GROUP[w[2]], 0)
    c = CARD[w[0]]
    if c == R.SPY:
        return D.step_code(D.T_ACTION, c, 0, 0)
    if c == R.ASSASSINATION:
        return D.step_code(D.T_ACTION, c, GROUP[w[1]], CARD[w[2]])
    if c == R.CASTLING:
        g1, g2 = sorted((GROUP[w[1]], GROUP[w[2]]))
        return D.step_code(D.T_ACTION, c, g1, g2)
    return D.step_code(D.T_ACTION, c, GROUP[w[1]], 0)


# ----------------------------------------------------------------- rules -----
def make_rules(variants=(), **params) -> np.ndarray:
    """DEFAULT_RULES with R11 variant bits and any rule parameters (``max_turns=5``, ...)."""
    rules = R.DEFAULT_RULES.copy()
    for v in variants:
        rules[R.RP_VARIANTS] |= R.VARIANTS[v]
    for k, v in params.items():
        rules[R.RULE_PARAM_NAMES[k]] = v
    return rules


# ----------------------------------------------------------------- Table -----
class Table:
    """A hand-made position: every group in play with its full patricians, no
    cards anywhere, empty hands and decks, Cleopatra about to start an active
    turn.  The VoC deck holds plain orgies unless set (``voc_deck``)."""

    def __init__(self, *variants, n_log=400, n_rec=400, **params):
        self.rules = make_rules(variants, **params)
        st = np.zeros(L.state_size(n_log, n_rec), np.int32)
        st[L.H_LOG_CAP] = n_log
        st[L.H_REC] = L.LOG + n_log * L.EV_W
        reset_nb(st, self.rules, np.zeros(2, np.int64))
        self.st = st
        self.n_rec = n_rec
        # what start_nb sets besides the cards (R2): patricians, "nothing yet" markers
        for g in range(R.N_GROUPS):
            st[L.PUB_REMAIN + g] = self.rules[R.RP_GROUP_SIZE + g]
        st[L.PUB_ACTION] = -1
        st[L.PUB_CTX_CARD] = -1
        st[L.PUB_CTX_G1] = -1
        st[L.PUB_CTX_G2] = -1
        st[L.H_ACTION_EV] = -1
        st[L.PUB_ACT_CARD] = -1
        for p in range(2):
            st[self._pv(p) + L.PR_SPY_TURN] = -1
        if self.rules[R.RP_VARIANTS] & R.V_TWO_ORGIES:
            st[L.PUB_VOC_BOX + R.ORGY] = 1
        self.rng = np.zeros(L.N_RNG, np.uint64)
        seed_game_nb(self.rng, 12345, 0)
        self.sp = np.zeros((2, L.MAX_PARAMS), np.float64)
        self.voc_deck(["orgy"] * 6)

    # ---------------------------------------------------------- writing -----
    @staticmethod
    def _pv(p):
        return L.PRIV + p * L.PRIV_SIZE

    def side(self, group, player, up=(), down=()):
        """Add cards to a player's side of a group (face-up and face-down)."""
        g, p = _g(group), _p(player)
        for c in up:
            put_at_nb(self.st, g, p, CARD[c], True)
        for c in down:
            put_at_nb(self.st, g, p, CARD[c], False)
        return self

    def hand(self, player, names):
        """Set a player's hand exactly."""
        p = _p(player)
        b = self._pv(p) + L.PR_HAND
        self.st[b:b + R.N_CARD_CODES] = 0
        self.st[L.PUB_HANDN + p] = 0
        self.st[L.H_HAND_INF + p] = 0
        for c in names:
            hand_add_nb(self.st, p, CARD[c])
        return self

    def influence_deck(self, player, names):
        """A player's influence deck, top first."""
        p = _p(player)
        for i, c in enumerate(names):
            self.st[L.H_IDECK + p * 64 + i] = CARD[c]
        self.st[L.H_IDECK_TOP + p] = 0
        self.st[L.H_IDECK_LEN + p] = len(names)
        self.st[L.PUB_IDECKN + p] = len(names)
        return self

    def action_deck(self, player, names):
        """A player's action deck, top first."""
        p = _p(player)
        b = self._pv(p)
        for i, c in enumerate(names):
            self.st[b + L.PR_ADECK + i] = CARD[c]
        self.st[b + L.PR_ADECK_TOP] = 0
        self.st[b + L.PR_ADECK_LEN] = len(names)
        self.st[L.PUB_ADECKN + p] = len(names)
        return self

    def voc_deck(self, names):
        """The VoC deck, top first."""
        self.st[L.H_VOC:L.H_VOC + R.MAX_VOC_DECK] = 0
        for i, c in enumerate(names):
            self.st[L.H_VOC + i] = VOC_CARD[c]
        self.st[L.H_VOC_TOP] = 0
        self.st[L.H_VOC_LEN] = len(names)
        self.st[L.PUB_VOC_DECKN] = len(names)
        return self

    def voc_discard(self, names):
        self.st[L.PUB_VOC_DISC:L.PUB_VOC_DISC + R.N_VOC_KINDS] = 0
        for c in names:
            self.st[L.PUB_VOC_DISC + VOC_CARD[c]] += 1
        return self

    def voc_box(self, names):
        self.st[L.PUB_VOC_BOX:L.PUB_VOC_BOX + R.N_VOC_KINDS] = 0
        for c in names:
            self.st[L.PUB_VOC_BOX + VOC_CARD[c]] += 1
        return self

    def patricians(self, group, n):
        """Patricians still to win at a group (0: the group is out of play, R4.2.3)."""
        self.st[L.PUB_REMAIN + _g(group)] = n
        return self

    def out_of_play(self, *groups):
        for g in groups:
            self.patricians(g, 0)
        return self

    def won(self, player, group, n):
        self.st[L.PUB_WON + _p(player) * 5 + _g(group)] = n
        return self

    def bonus(self, player, group):
        p = _p(player)
        self.st[L.H_BONUS + p] = _g(group)
        self.st[self._pv(p) + L.PR_BONUS] = _g(group)
        return self

    def out(self, player):
        """Mark a player out (R9.3), as the game loop does at the start of a turn."""
        self.st[L.PUB_OUT + _p(player)] = 1
        return self

    def turn_number(self, n):
        self.st[L.PUB_TURN] = n
        return self

    def quiet_turns(self, n):
        self.st[L.PUB_QUIET] = n
        return self

    def mid_turn(self, placed=0, up=False, action=None):
        """The state of the current active turn (R4.1, R4.2): cards placed so far,
        whether face-up, the action card already played (name) or None."""
        self.st[L.PUB_MODE] = 1
        self.st[L.PUB_NPLACED] = placed
        self.st[L.PUB_PLACED_UP] = 1 if up else 0
        self.st[L.PUB_ACTION] = -1 if action is None else CARD[action]
        return self

    def seat(self, player, strategy):
        """Let a strategy decide for a player (``"random"`` or ``"greedy"``) instead of the script."""
        sid, params = resolve(strategy)
        self.st[L.H_SID + _p(player)] = sid
        self.sp[_p(player)] = params
        return self

    def script(self, *events):
        """The events the players take from now on, replayed as a record (see module doc).

        The rows go at the log position reached so far, so the script must list
        every event the engine will log from here (votes, VoC cards included),
        in order; ``events()`` can then be compared with it exactly."""
        k = int(self.st[L.H_NLOG])
        rows = encode_events(list(events))
        assert k + len(rows) <= self.n_rec, "script too long for this Table"
        base = self.st[L.H_REC] + k * L.EV_W
        self.st[base:base + rows.size] = rows.reshape(-1)
        self.st[L.H_REC_LEN] = k + len(rows)
        self.st[L.H_REPLAY] = 1
        return self

    # ---------------------------------------------------------- reading -----
    def up(self, group, player) -> list[str]:
        g, p = _g(group), _p(player)
        o = L.PUB_FU + (g * 2 + p) * 6
        return _names(self.st[o:o + 6])

    def down(self, group, player) -> list[str]:
        g, p = _g(group), _p(player)
        o = self._pv(p) + L.PR_FD + g * 6
        return _names(self.st[o:o + 6])

    def at(self, group, player) -> list[str]:
        return cards(*(self.up(group, player) + self.down(group, player)))

    def size(self, group) -> int:
        """Cards at a group, both sides (R4.2.2)."""
        g = _g(group)
        return int(self.st[L.PUB_SIDEN + g * 2] + self.st[L.PUB_SIDEN + g * 2 + 1])

    def face_down_count(self, group, player) -> int:
        return int(self.st[L.PUB_FDN + _g(group) * 2 + _p(player)])

    def hand_of(self, player) -> list[str]:
        b = self._pv(_p(player)) + L.PR_HAND
        return _names(self.st[b:b + R.N_CARD_CODES])

    def discards(self, player) -> list[str]:
        b = L.PUB_DISC + _p(player) * 12
        return _names(self.st[b:b + 12])

    def left(self, group) -> int:
        return int(self.st[L.PUB_REMAIN + _g(group)])

    def won_by(self, player, group) -> int:
        return int(self.st[L.PUB_WON + _p(player) * 5 + _g(group)])

    def voc_deck_now(self) -> list[str]:
        top, n = int(self.st[L.H_VOC_TOP]), int(self.st[L.H_VOC_LEN])
        return [R.VOC_NAMES[int(v)] for v in self.st[L.H_VOC + top:L.H_VOC + n]]

    def voc_discards(self) -> list[str]:
        return [R.VOC_NAMES[v] for v in range(R.N_VOC_KINDS) for _ in range(int(self.st[L.PUB_VOC_DISC + v]))]

    def voc_boxed(self) -> list[str]:
        return [R.VOC_NAMES[v] for v in range(R.N_VOC_KINDS) for _ in range(int(self.st[L.PUB_VOC_BOX + v]))]

    def spy_seen(self, player) -> list[str]:
        b = self._pv(_p(player)) + L.PR_SPY_SEEN
        return _names(self.st[b:b + 12])

    def events(self) -> list[dict]:
        k = int(self.st[L.H_NLOG])
        return decode_events(self.st[L.LOG:L.LOG + k * L.EV_W].reshape(k, L.EV_W))

    @property
    def error(self) -> str:
        return L.ERROR_NAMES[int(self.st[L.H_ERROR])]

    @property
    def end(self):
        """The end reason set in the state (R9), None while the game runs."""
        e = int(self.st[L.PUB_END])
        return None if e == 0 else ("error" if e < 0 else R.END_NAMES[e])

    # ---------------------------------------------------------- rules -------
    def options(self, player) -> list[str]:
        """The legal next steps of the player's active turn (R4.1, R4.2, R3.3, R3.4)."""
        n = step_options_nb(self.st, _p(player))
        return [option_text(int(c)) for c in self.st[L.OPTS:L.OPTS + n]]

    def action_options(self, player) -> list[str]:
        return [o for o in self.options(player) if o.split()[0] not in ("down", "up", "end")]

    def placements(self, player) -> list[str]:
        return [o for o in self.options(player) if o.split()[0] in ("down", "up")]

    def can_be_active(self, player) -> bool:
        """R3.2: she may choose an active turn."""
        return bool(can_be_active_nb(self.st, _p(player)))

    def place(self, player, text, check=True):
        """Place one influence card (``"down 3 senator"``), as the step loop does."""
        if check:
            assert text in self.options(player), f"{text!r} is not a legal step: {self.options(player)}"
        place_nb(self.st, _p(player), np.int32(option_code(text)))
        return self

    def _drive_until(self, phase):
        """Let the engine run, the script (or the seated strategies) deciding, until it is
        about to run ``phase`` (or the game ends)."""
        self.st[L.H_STOP] = phase
        drive_nb(self.st, self.rng, self.sp, None, 1)
        self.st[L.H_STOP] = 0

    def play(self, player, text, check=True):
        """Play an action card with its targets (``"assassination senator 5"``), R4.1/R7, as the
        step loop does: everything it asks for (veto, spy pick, castling split, draws) comes
        from the script, up to the next step of the turn."""
        if check:
            assert text in self.options(player), f"{text!r} is not a legal step: {self.options(player)}"
        self.st[L.OPTS] = option_code(text)
        post_nb(self.st, D.STEP, _p(player), 1, A_STEP)
        self._drive_until(PH_STEP)
        return self

    def vote(self, group, trigger="card"):
        """Resolve a vote on a group (R6); the winner's name, None on a tie."""
        w = vote_nb(self.st, _g(group), TRIGGER_CARD if trigger == "card" else TRIGGER_EIGHT)
        return None if w < 0 else R.PLAYERS[w]

    def exceptional_votes(self):
        exceptional_votes_nb(self.st)
        return self

    def voc_draw(self):
        voc_draw_nb(self.st, self.rng)
        return self

    def turn(self, player) -> bool:
        """Take one whole turn (R3-R5) as the game loop does after its R9.3 check;
        True for a quiet turn (R9.4)."""
        p = _p(player)
        self.st[L.PUB_TURN] += 1
        self.st[L.PUB_CUR] = p
        self.st[L.PUB_IN_TURN] = 1
        self.st[L.PUB_PHASE] = PH_MODE
        self._drive_until(PH_TURN_END)
        return bool(self.st[L.PUB_QUIET_TURN])

    def discard_options(self, player) -> list[list[str]]:
        n = discard_options_nb(self.st, _p(player))
        out = []
        for code in self.st[L.OPTS:L.OPTS + n]:
            code = int(code)
            out.append(cards(*(R.CARD_NAMES[(code >> (4 + 4 * i)) & 15] for i in range(code & 7))))
        return out

    def end_of_turn(self):
        """R9.2, R11 lone_player_no_draw, R9.4, R9.5 at a turn boundary: the end's name or None."""
        e = int(end_of_turn_nb(self.st))
        return None if e == 0 else R.END_NAMES[e]

    def vp(self, player) -> int:
        p = _p(player)
        return int(vp_nb(self.st, self.st[L.H_BONUS + p], p))

    def winner(self):
        w = int(winner_nb(self.st))
        return None if w < 0 else R.PLAYERS[w]


# ----------------------------------------------------------------- Game ------
DEFAULT_PLACEMENT = {"senator": "1", "praetor": "2", "quaestor": "3", "censor": "4", "aedile": "5"}


class GameRun:
    def __init__(self, script, events, result, error):
        self.script = script
        self.events = events
        self.result = result
        self.error = error

    @property
    def ok(self) -> bool:
        """Every scripted event legal, and the engine logged exactly the script."""
        return self.error == "ok" and self.events == self.script


class Game:
    """A whole game from setup (R2) with chosen decks, driven by a script of events.

    Defaults: both influence decks and action decks empty, the initial
    placement 1..5 on senator..aedile for both, bonus senator, a VoC deck of
    seven orgies and the reshuffle card."""

    def __init__(self, *variants, influence=None, actions=None, voc=None, bonus=None, placement=None, **params):
        self.variants = list(variants)
        self.rules = make_rules(variants, **params)
        influence = influence or {}
        actions = actions or {}
        bonus = bonus or {}
        placement = placement or {}
        self.record = {
            "format": "ccsim-game/1",
            "variants": self.variants,
            "players": {p: {"strategy": "script", "ordering": actions.get(p, "")} for p in R.PLAYERS},
            "setup": {
                "bonus": {p: bonus.get(p, "senator") for p in R.PLAYERS},
                "influence_deck": {p: list(influence.get(p, [])) for p in R.PLAYERS},
                "voc_deck": list(voc if voc is not None else ["orgy"] * 7 + ["orgy_reshuffle"]),
                "placement": {p: placement.get(p, DEFAULT_PLACEMENT) for p in R.PLAYERS},
            },
        }

    def run(self, *events) -> GameRun:
        setup = encode_setup(self.record)
        rec = encode_events(list(events)) if events else np.zeros((0, L.EV_W), np.int32)
        n_log = L.max_events(self.rules)
        st = np.zeros(L.state_size(n_log, len(rec)), np.int32)
        row = np.zeros(N_RESULT, np.int16)
        k = replay_game_nb(st, self.rules, setup, rec, n_log, row)
        log = st[L.LOG:L.LOG + k * L.EV_W].reshape(k, L.EV_W)
        return GameRun(list(events), decode_events(log), result_dict(row), L.ERROR_NAMES[int(row[R_ERROR])])


def dealt_state(*variants, seed=1, game=0, orderings=None):
    """A state after R2's deal and start (random initial placements): for setup rules.

    ``orderings``: two action-deck orderings (letters, R2.2), or None for shuffled decks."""
    rules = make_rules(variants)
    st = np.zeros(L.BASE_SIZE, np.int32)
    rng = np.zeros(L.N_RNG, np.uint64)
    reset_nb(st, rules, np.zeros(2, np.int64))
    seed_game_nb(rng, seed, game)
    if orderings is None:
        orders = np.full((2, 1), -1, np.int64)  # shuffled action decks
    else:
        orders = np.array([[R.ACTION_LETTERS.index(ch) for ch in o] for o in orderings], np.int64)
    deal_nb(st, orders, rng)
    start_game_nb(st)
    st[L.H_STOP] = PH_NEXT_TURN  # the two initial placements, by `random`
    drive_nb(st, rng, np.zeros((2, L.MAX_PARAMS), np.float64))
    st[L.H_STOP] = 0
    return st


# ----------------------------------------------------------------- fixture ---
@pytest.fixture(scope="session")
def engine():
    """Compile (or load from numba's disk cache) every entry point used here, once."""
    t = Table()
    t.side("senator", "cleopatra", up=["3"], down=["P"]).side("senator", "caesar", down=["2"])
    t.hand("cleopatra", ["1", "2", "spy"]).hand("caesar", ["veto", "4"])
    t.options("cleopatra")
    t.can_be_active("cleopatra")
    t.discard_options("caesar")
    t.place("cleopatra", "up 1 praetor").place("cleopatra", "up 2 praetor")
    t.play("cleopatra", "spy")
    t.vote("senator")
    t.exceptional_votes()
    t.voc_draw()
    t.end_of_turn()
    t.vp("cleopatra")
    t.winner()
    t2 = Table()
    t2.hand("cleopatra", ["1"])
    t2.turn("cleopatra")
    Game().run(Turn("cleopatra", 1, "passive"), Turn("caesar", 2, "passive"))
    dealt_state()
    return True
