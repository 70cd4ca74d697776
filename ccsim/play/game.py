"""One game, one decision at a time: ``ccsim.Game`` for notebooks, agents and people.

>>> g = Game(seed=1, game=0, cleopatra_order="shuffled", caesar_order="veto-first")  # doctest: +SKIP
>>> while not g.over:                                       # doctest: +SKIP
...     g.step(g.ask("tactician") if g.to_move == "caesar" else 0)
>>> g.result["winner"]                                      # doctest: +SKIP

The game is the compiled engine's state (``ccsim.kernel.engine.step``): ``step``
applies an option and runs chance and forced moves up to the next decision
with two or more options.  ``legal()`` describes the options in the words of
``docs/game-record.md`` (the event each produces; see ``docs/game-api.md``
for the few choices that produce no event of their own).  ``ask(strategy)``
is what a registered strategy (or a weights file) would choose here, from the
observation of the player to move only, drawing on that seat's random stream
and memory exactly as the batch kernel does: a game played with ``ask`` at
every decision is the batch kernel's game of the same seed and strategies,
event for event.
"""
from __future__ import annotations

import numpy as np

from ccsim.kernel import rules as R
from ccsim.kernel.decisions import (PLACEMENT, MODE, STEP, VETO, SPY_PICK, CASTLE, DRAW, VETO_DRAW, DISCARD, KIND_NAMES,
                             PERMS, T_PLACE_DOWN, T_PLACE_UP, T_END, step_type, step_card, step_group, step_x,
                             discard_code_card, discard_code_count)
from ccsim.kernel import layout as L
from ccsim.kernel.engine.step import PH_PLACEMENT
from ccsim.errors import UsageError
from ccsim.toolchain.notice import ENGINE_SECONDS, STRATEGY_SECONDS, first_call

_FROM = {1: "influence", 2: "action"}


class GameError(UsageError):
    """A call the game cannot take (an option index out of range, a move after the end)."""


def _cards(counts, first=0) -> list[str]:
    return [R.CARD_NAMES[first + c] for c in range(len(counts)) for _ in range(int(counts[c]))]


def describe_option(kind: int, code: int, p: int, st: np.ndarray) -> dict:
    """One option of the pending decision as a dict in the words of GAME_RECORD.md."""
    who = R.PLAYERS[p]
    if kind == STEP:
        t = step_type(code)
        if t == T_END:
            return {"e": "end", "p": who}
        c, g, x = step_card(code), step_group(code), step_x(code)
        if t in (T_PLACE_DOWN, T_PLACE_UP):
            return {"e": "place", "p": who, "card": R.CARD_NAMES[c], "group": R.GROUPS[g],
                    "face": "up" if t == T_PLACE_UP else "down"}
        out = {"e": "action", "p": who, "card": R.CARD_NAMES[c]}
        if c == R.ASSASSINATION:
            out.update(group=R.GROUPS[g], target=R.CARD_NAMES[x])
        elif c == R.CASTLING:
            out["groups"] = [R.GROUPS[g], R.GROUPS[x]]
        elif c != R.SPY:
            out["group"] = R.GROUPS[g]
        return out
    if kind in (DRAW, VETO_DRAW):
        return {"e": "draw", "p": who, "from": _FROM[code]} if code else {"e": "no_draw", "p": who}
    if kind == MODE:
        return {"e": "turn", "p": who, "n": int(st[L.PUB_TURN]), "mode": "active" if code else "passive"}
    if kind == DISCARD:
        cards = (R.CARD_NAMES[discard_code_card(code, i)] for i in range(discard_code_count(code)))
        return {"e": "discard", "p": who, "cards": sorted(cards, key=R.CARD_NAMES.index)}
    if kind == VETO:
        return {"e": "veto", "p": who} if code else {"e": "no_veto", "p": who}
    if kind == SPY_PICK:
        return {"e": "action", "p": who, "card": "spy", "target": R.CARD_NAMES[code]}
    if kind == CASTLE:
        m = int(st[L.PRIV + p * L.PRIV_SIZE + L.PR_CASTLE_M])
        g1, g2 = R.GROUPS[int(st[L.PUB_CTX_G1])], R.GROUPS[int(st[L.PUB_CTX_G2])]
        return {"e": "split", "p": who, "card": R.CARD_NAMES[int(st[L.PUB_CTX_CARD])], "to": {g1: code, g2: m - code}}
    if kind == PLACEMENT:
        return {"e": "placement", "p": who, "placement": {g: R.CARD_NAMES[int(PERMS[code, i])]
                                                          for i, g in enumerate(R.GROUPS)}}
    raise ValueError(f"unknown decision kind {kind}")


def observation_dict(pub: np.ndarray, own: np.ndarray, p: int) -> dict:
    """What player p may see (R8), built from the public block and her own private block only."""
    o = 1 - p
    fu = lambda g, q: _cards(pub[L.fu_at.py_func(g, q, 0):L.fu_at.py_func(g, q, 0) + R.N_VALUES])  # noqa: E731
    groups = {}
    for g, name in enumerate(R.GROUPS):
        fd = own[L.fd_at.py_func(g, 0):L.fd_at.py_func(g, 0) + R.N_VALUES]
        groups[name] = {
            "patricians_left": int(pub[L.PUB_REMAIN + g]),
            "won": {R.PLAYERS[q]: int(pub[L.won_at.py_func(q, g)]) for q in range(2)},
            R.PLAYERS[p]: {"up": fu(g, p), "down": _cards(fd)},
            R.PLAYERS[o]: {"up": fu(g, o), "down": int(pub[L.fdn_at.py_func(g, o)])},
        }
    top = int(own[L.PR_ADECK_TOP])
    spy_turn = int(own[L.PR_SPY_TURN])
    kind = int(pub[L.PUB_DEC_KIND])
    out = {
        "player": R.PLAYERS[p],
        "turn": int(pub[L.PUB_TURN]),
        "to_move": R.PLAYERS[int(pub[L.PUB_DEC_P])] if kind >= 0 else None,
        "decision": KIND_NAMES[kind] if kind >= 0 else None,
        "hand": _cards(own[L.PR_HAND:L.PR_HAND + R.N_CARD_CODES]),
        "bonus": R.GROUPS[int(own[L.PR_BONUS])],
        "action_deck": [R.CARD_NAMES[int(c)] for c in own[L.PR_ADECK + top:L.PR_ADECK + int(own[L.PR_ADECK_LEN])]],
        "groups": groups,
        "discards": {R.PLAYERS[q]: _cards(pub[L.disc_at.py_func(q, 0):L.disc_at.py_func(q, 0) + R.N_CARD_CODES])
                     for q in range(2)},
        "hand_sizes": {R.PLAYERS[q]: int(pub[L.PUB_HANDN + q]) for q in range(2)},
        "influence_deck_sizes": {R.PLAYERS[q]: int(pub[L.PUB_IDECKN + q]) for q in range(2)},
        "action_deck_sizes": {R.PLAYERS[q]: int(pub[L.PUB_ADECKN + q]) for q in range(2)},
        "out": {R.PLAYERS[q]: bool(pub[L.PUB_OUT + q]) for q in range(2)},
        "voc_discard": [R.VOC_NAMES[v] for v in range(R.N_VOC_KINDS) for _ in range(int(pub[L.PUB_VOC_DISC + v]))],
        "voc_box": [R.VOC_NAMES[v] for v in range(R.N_VOC_KINDS) for _ in range(int(pub[L.PUB_VOC_BOX + v]))],
        "voc_deck_size": int(pub[L.PUB_VOC_DECKN]),
        "quiet_turns": int(pub[L.PUB_QUIET]),
        "spy_seen": ({"turn": spy_turn, "hand": _cards(own[L.PR_SPY_SEEN:L.PR_SPY_SEEN + R.N_CARD_CODES])}
                     if spy_turn >= 0 else None),
    }
    if int(pub[L.PUB_MODE]) == 1 and kind in (STEP, VETO, SPY_PICK, CASTLE, DRAW, VETO_DRAW):
        action = int(pub[L.PUB_ACTION])
        out["this_turn"] = {"placed": int(pub[L.PUB_NPLACED]), "face_up": bool(pub[L.PUB_PLACED_UP]),
                            "action": R.CARD_NAMES[action] if action >= 0 else None}
    if kind == VETO:  # R7.0, R8.1: the announced card and its target
        g1, g2, x = int(pub[L.PUB_CTX_G1]), int(pub[L.PUB_CTX_G2]), int(pub[L.PUB_CTX_A])
        out["announced"] = {"card": R.CARD_NAMES[int(pub[L.PUB_ACTION])],
                            "group": R.GROUPS[g1] if g1 >= 0 else None,
                            "second_group": R.GROUPS[g2] if g2 >= 0 else None,
                            "target": R.CARD_NAMES[x] if x >= 0 else None}
    return out


class Game:
    """One game of Caesar & Cleopatra, driven one decision at a time.

    ``Game(seed, game)`` deals game ``game`` of run seed ``seed``: the same
    cards as ``ccsim run --seed SEED`` deals its game ``game``.  Orderings are
    13 letters, a preset or ``shuffled`` (R2.2); ``variants`` are R11 names;
    ``rules`` overrides rules parameters (``rules.RULE_PARAMS`` names).
    ``players`` names the two seats in the record (default: the strategies
    asked for each seat, or ``"api"``).
    """

    def __init__(self, seed: int = 1, game: int = 0, cleopatra_order: str = "shuffled",
                 caesar_order: str = "shuffled", variants=(), rules=None, players=None):
        from ccsim.runner.config import RunConfig
        from ccsim.kernel.engine.episode import start_and_advance_nb

        cfg = RunConfig(games=1, seed=seed, cleopatra_order=cleopatra_order, caesar_order=caesar_order,
                        variants=tuple(variants), rules=dict(rules or {})).validated()
        if isinstance(game, bool) or not isinstance(game, int) or game < 0:
            raise GameError(f"game must be a non-negative integer, got {game!r}")
        self.seed, self.game, self.config = cfg.seed, game, cfg
        self._rules = cfg.rules_vector()
        self._orders = cfg.order_codes()
        self.st = np.zeros(L.state_size(L.max_events(self._rules), 0), np.int32)
        self.rng = np.zeros(L.N_RNG, np.uint64)
        self._asked = [None, None]
        self._players = tuple(players) if players else None
        self._strategies = {}
        with first_call(start_and_advance_nb, "the game engine", ENGINE_SECONDS):
            start_and_advance_nb(self.st, self.rng, self._rules, np.int64(seed), np.int64(game), self._orders)

    # ------------------------------------------------------------- state -----
    @property
    def over(self) -> bool:
        return int(self.st[L.PUB_END]) != 0

    @property
    def to_move(self) -> str | None:
        """The player who decides now (``"cleopatra"`` or ``"caesar"``), None once over."""
        return R.PLAYERS[int(self.st[L.PUB_DEC_P])] if int(self.st[L.PUB_DEC_KIND]) >= 0 else None

    @property
    def decision(self) -> str | None:
        """The pending decision's kind (``ccsim.kernel.decisions.KIND_NAMES``), None once over."""
        kind = int(self.st[L.PUB_DEC_KIND])
        return KIND_NAMES[kind] if kind >= 0 else None

    @property
    def turn(self) -> int:
        return int(self.st[L.PUB_TURN])

    def _pending(self):
        kind = int(self.st[L.PUB_DEC_KIND])
        if kind < 0:
            raise GameError("the game is over: no decision is pending")
        return kind, int(self.st[L.PUB_DEC_P]), int(self.st[L.PUB_DEC_N])

    def legal(self) -> list[dict]:
        """The options of the pending decision, each the event it produces (GAME_RECORD.md words)."""
        if self.over:
            return []
        kind, p, n = self._pending()
        return [describe_option(kind, int(c), p, self.st) for c in self.st[L.OPTS:L.OPTS + n]]

    def observation(self, player) -> dict:
        """Exactly what ``player`` may see (R8): from the public block and her own block only."""
        p = R.PLAYERS.index(player) if isinstance(player, str) else int(player)
        b = L.PRIV + p * L.PRIV_SIZE
        return observation_dict(self.st[L.PUB:L.PUB + L.PUB_SIZE], self.st[b:b + L.PRIV_SIZE], p)

    # ------------------------------------------------------------- moves -----
    def step(self, i: int) -> "Game":
        """Take option ``i`` (an index into ``legal()``) and play on to the next decision."""
        from ccsim.kernel.engine.step import apply_nb
        _, _, n = self._pending()
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= int(i) < n:
            raise GameError(f"option {i!r} is not one of the {n} legal options (0..{n - 1})")
        with first_call(apply_nb, "the game engine's moves", ENGINE_SECONDS):
            apply_nb(self.st, self.rng, np.int64(i))
        return self

    def ask(self, strategy: str) -> int:
        """The index the registered strategy (or weights file) ``strategy`` chooses here for the
        player to move, from her observation only.  It draws on that seat's random stream and
        memory, as the batch kernel's seat does: ask once per decision to reproduce its games."""
        from ccsim.kernel.engine.dispatch import choose_with_nb, NO_ENTRY
        kind, p, n = self._pending()
        sid, params = self._strategy(strategy)
        with first_call(choose_with_nb, "the strategy dispatch", STRATEGY_SECONDS):
            i = int(choose_with_nb(self.st, self.rng, np.int64(sid), params, np.int64(p), np.int64(kind), np.int64(n)))
        if i == NO_ENTRY or not 0 <= i < n:
            raise GameError(f"strategy {strategy!r} gave no valid option ({i})")
        self._asked[p] = str(strategy)
        return i

    def prepare(self, strategy: str) -> "Game":
        """Resolve ``strategy`` now (compiled, or loaded from the cache, on first use), so that an
        unknown name fails before the game starts and the first ``ask`` is quick: GameError if unknown."""
        self._strategy(strategy)
        return self

    def _strategy(self, name):
        if name not in self._strategies:
            from strategies.registry import resolve
            try:
                self._strategies[name] = resolve(name)
            except KeyError as e:
                raise GameError(e.args[0]) from None
        return self._strategies[name]

    def copy(self) -> "Game":
        """An independent game at the same position (its random streams and memories too)."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.st, g.rng, g._asked = self.st.copy(), self.rng.copy(), list(self._asked)
        return g

    # ------------------------------------------------------------- records ---
    @property
    def result(self) -> dict | None:
        """The record's ``result`` block once the game is over, else None."""
        if not self.over:
            return None
        return self._result_row_dict()

    def _result_row_dict(self):
        from ccsim.kernel.engine.episode import result_row_nb, N_RESULT
        from ccsim.play.record import result_dict
        row = np.zeros(N_RESULT, np.int16)
        result_row_nb(self.st, row)
        return result_dict(row)

    def record(self) -> dict:
        """The ``ccsim-game/1`` record of the game so far (complete once over; before that its
        ``result`` is null and ``ccsim replay --check`` checks the events it has)."""
        from ccsim.play.record import make_record
        k = int(self.st[L.H_NLOG])
        log = self.st[L.LOG:L.LOG + k * L.EV_W].reshape(k, L.EV_W)
        names = self._players or tuple(a or "api" for a in self._asked)
        setup = self.st[L.SETUP:L.SETUP + L.SETUP_SIZE]
        if int(self.st[L.PUB_PHASE]) == PH_PLACEMENT:
            raise GameError("no record before both initial placements (R2.5) are made")
        from ccsim.kernel.engine.episode import result_row_nb, N_RESULT
        row = np.zeros(N_RESULT, np.int16)
        result_row_nb(self.st, row)
        rec = make_record(self.game, f"ccsim Game(seed={self.seed}, game={self.game})", self.config.variants,
                          list(names), setup, log, row, rules=self._rules)  # the rules in force travel with it
        if not self.over:
            rec["result"] = None
        return rec
