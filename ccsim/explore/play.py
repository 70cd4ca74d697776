"""Play these rules: a designer's game against a level of play, under the rules on the form.

The game is ``ccsim.Game`` (the compiled engine, one decision at a time), dealt as game ``deal`` of
the form's seed under its rules, variants and deck orders.  The page is told the board as the human's
seat may see it (``Game.observation``, R8), the story so far as ``ccsim play`` tells it
(``ccsim.play.story``), and, when she is to move, her options as a tree of small choices built from the
kernel's own option list (``Game.legal()`` cut by ``option_path``): no second copy of the rules.

A move names the board it was chosen on (``at``, the decisions taken so far), so a move from a stale
page or a second tab is refused (``Stale``) instead of being played on a board its player never saw.
The opponent's moves are played by ``opponent_moves`` in the server's worker thread, one decision at a
time, stopping between two decisions when the page goes away.
"""
from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from urllib.parse import urlencode

from ccsim.kernel import rules as R
from ccsim.kernel.engine.score import vp_nb
from ccsim.kernel.layout import PUB_RULES
from ccsim.play.game import Game
from ccsim.play.story import Story, announced_words, option_path, option_words, set_aside, step_order
from ccsim.explore.compute import Cancelled
from ccsim.explore.form import FormError, Question, nested_block, one_value
from strategies.registry import search_players, strategy_id

__all__ = ["PLAY_FIELDS", "MAX_DEAL", "MAX_TABLES", "Stale", "Table", "Tables", "read_play", "new_table",
           "human_move", "opponent_moves", "view", "choice_tree", "scores", "end_words", "since_her_turn", "link_query",
           "record_name"]

#: the play routes' own query fields (the rest is the form)
PLAY_FIELDS = ("against", "seat", "deal", "game", "at", "option")
MAX_DEAL = 999_999        # deals 0 .. MAX_DEAL of the form's seed; a new deal is one of them at random
MAX_TABLES = 32           # games the server keeps at once: the least recently played goes first

#: why a game ended, in plain words (R9; ``R.END_NAMES``)
END_WHY = {"all_patricians": "the last patrician was taken (R9.1)",
           "no_influence": "no influence card was left to play (R9.2)",
           "stalemate": "two turns in a row changed nothing (R9.4)",
           "truncated": "it reached the safety cap on turns (R9.5)"}


class Stale(Exception):
    """A move chosen on a board that is no longer the game's (a stale page, a second tab)."""


@dataclass
class Table:
    """One game on the page: the human's seat against level ``against``, deal ``deal`` of the form."""
    id: str
    game: Game
    seat: str
    against: str
    deal: int
    query: str                  # the form's query string: the link that reopens the deal carries it
    story: Story
    at: int = 0                 # decisions taken so far: a move names the board it was chosen on
    lock: threading.Lock = field(default_factory=threading.Lock)  # one move (and its replies) at a time

    @property
    def her(self) -> str:
        return R.PLAYERS[1 - R.PLAYERS.index(self.seat)]


class Tables:
    """The games the server holds, at most ``limit``: a new game pushes out the least recently played."""

    def __init__(self, limit: int = MAX_TABLES):
        self._lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        self.limit = limit

    def add(self, table: Table) -> None:
        with self._lock:
            while len(self._tables) >= self.limit:
                del self._tables[next(iter(self._tables))]
            self._tables[table.id] = table

    def get(self, game_id: str) -> Table:
        """The game, most recently played now; FormError (one line) when the server holds none by that id."""
        with self._lock:
            table = self._tables.pop(game_id, None)
            if table is None:
                raise FormError({"game": "This game is no longer on the server (it restarted, or many games "
                                         "started since): start a new one"})
            self._tables[game_id] = table
            return table


# --- a new game ---------------------------------------------------------------------------------

def _against(fields: dict, default_level: str) -> str:
    name = one_value(fields, "against", default_level).strip()
    try:
        strategy_id(name)
    except KeyError as e:
        raise FormError({"against": f"Opponent: {e.args[0]}"}) from None
    return name


def _seat(fields: dict) -> str:
    seat = one_value(fields, "seat", R.PLAYERS[0]).strip()
    if seat not in R.PLAYERS:
        raise FormError({"seat": f"Your seat: must be {' or '.join(R.PLAYERS)}; you asked for {seat!r}"})
    return seat


def _deal(fields: dict) -> int:
    """The deal asked for; none: a new one, drawn at random."""
    deal = one_value(fields, "deal", str(secrets.randbelow(MAX_DEAL + 1))).strip()
    if not deal.isdigit() or len(deal) > 7 or int(deal) > MAX_DEAL:
        raise FormError({"deal": f"Deal: must be a whole number from 0 to {MAX_DEAL:,}; you typed {deal!r}"})
    return int(deal)


def read_play(fields: dict[str, list[str]], default_level: str) -> tuple[str, str, int]:
    """(opponent's level, the human's seat, the deal) of a new game's fields; FormError with every bad
    field's one line."""
    errors, out = {}, []
    for read in (lambda f: _against(f, default_level), _seat, _deal):
        try:
            out.append(read(fields))
        except FormError as e:
            errors.update(e.errors)
    if errors:
        raise FormError(errors)
    return tuple(out)


def new_table(q: Question, query: str, against: str, seat: str, deal: int) -> Table:
    """Deal ``deal`` of the form's seed under its rules, variants and deck orders, the opponent resolved
    (compiled or loaded) now; then the opponent's moves up to the human's first decision are left to
    ``opponent_moves``."""
    names = [against, "human"] if seat == R.PLAYERS[1] else ["human", against]
    game = Game(seed=q.seed, game=deal, cleopatra_order=q.orders[0], caesar_order=q.orders[1],
                variants=q.variants, rules=nested_block(q), players=names).prepare(against)
    return Table(id=secrets.token_urlsafe(12), game=game, seat=seat, against=against, deal=deal, query=query,
                 story=Story(seat, q.words()))


# --- moves --------------------------------------------------------------------------------------

def _stale(why: str) -> Stale:
    return Stale(f"{why}: the board below is the game as it is now")


def human_move(table: Table, at: int, option: int) -> None:
    """The human's option ``option`` of the board ``at`` played (the caller holds ``table.lock``); Stale
    when that board is not the game's now, FormError when the option is not one of its options."""
    g = table.game
    if g.over:
        raise _stale("The game is over")
    if at != table.at:
        raise _stale("That move was chosen on an older board (another tab, or a page left open)")
    if g.to_move != table.seat:
        raise _stale(f"It is {table.against}'s move, not yours")
    n = len(g.legal())
    if not 0 <= option < n:
        raise FormError({"option": f"Move: must be one of the {n} options of this board, got {option}"})
    table.story.tell(g)
    table.story.moving(g)
    g.step(option)
    table.at += 1


def opponent_moves(table: Table, put, cancel: threading.Event) -> None:
    """The opponent's decisions up to the human's next one (or the end), each followed by the board to
    ``put``; a search level says it is thinking before each.  ``cancel`` (the page gone) stops it between
    two decisions: the next request of the page goes on from there."""
    g = table.game
    thinks = table.against in search_players()
    while not g.over and g.to_move != table.seat:
        if cancel.is_set():
            raise Cancelled
        if thinks:
            put({"state": "thinking", "against": table.against, "at": table.at})
        g.step(g.ask(table.against))
        table.at += 1
        put({"state": "moved", **view(table)})


# --- what the page shows ------------------------------------------------------------------------

def choice_tree(legal: list[dict]) -> dict:
    """The options of a decision as the page offers them: a question and its choices, each either one
    option (its index into ``legal``, with its words) or the next question.  A step with one way on is
    folded into the choice before it ("place 4 · face-up"), as the terminal takes it by itself."""
    paths = [option_path(d) for d in legal]
    return _node(legal, paths, list(range(len(legal))), 0)


def _node(legal, paths, match: list[int], n: int) -> dict:
    steps: dict[tuple, list[int]] = {}
    for i in match:
        key, label, _ = paths[i][n]
        steps.setdefault((key, label), []).append(i)
    question = paths[match[0]][n][2]
    choices = [_choice(legal, paths, label, idx, n) for (key, label), idx in
               sorted(steps.items(), key=lambda kv: step_order(*kv[0]))]
    return {"question": question, "choices": choices}


def _choice(legal, paths, label: str, idx: list[int], n: int) -> dict:
    done = [i for i in idx if len(paths[i]) == n + 1]
    if done:
        return {"label": label, "option": done[0], "words": option_words(legal[done[0]])}
    sub = _node(legal, paths, idx, n + 1)
    if len(sub["choices"]) > 1:
        return {"label": label, "then": sub}
    only = sub["choices"][0]
    return {**only, "label": f"{label} · {only['label']}"}


def scores(table: Table) -> dict:
    """Victory points as the human may count them now (R10.1–R10.4): hers with her bonus card, the
    opponent's without his (hidden, R8.2), and the patricians each has won; once the game is over, the
    final score (R10), both bonus cards counted."""
    if table.game.over:
        r = table.game.result
        return {side: {"vp": r["vp"][p], "patricians": sum(r["patricians"][p].values()), "final": True}
                for side, p in (("you", table.seat), ("her", table.her))}
    st, obs = table.game.st, table.game.observation(table.seat)
    me, her = R.PLAYERS.index(table.seat), 1 - R.PLAYERS.index(table.seat)
    won = {R.PLAYERS[p]: sum(x["won"][R.PLAYERS[p]] for x in obs["groups"].values()) for p in (me, her)}
    return {"you": {"vp": int(vp_nb(st, R.GROUPS.index(obs["bonus"]), me)), "patricians": won[table.seat]},
            "her": {"vp": int(vp_nb(st, -1, her)), "patricians": won[table.her],
                    "hidden_bonus": int(st[PUB_RULES + R.RP_VP_BONUS])}}


def end_words(result: dict, seat: str, variants=()) -> str:
    """Who won and why, in plain words (R9 how it ended, R10.5 how it was decided)."""
    why = END_WHY.get(result["end"], result["end"])
    if result["end"] == "no_influence" and "lone_player_no_draw" in variants:
        why = "no influence card was left to play (R9.2, or R11's lone player)"
    vp = result["vp"]
    pats = {p: sum(result["patricians"][p].values()) for p in R.PLAYERS}
    ended = f"The game ended after {result['turns']} turns: {why}."
    w = result["winner"]
    if w is None:
        return f"{ended} A draw: equal VP ({vp[seat]} each) and equal patricians ({pats[seat]} each) (R10.5)."
    loser = R.PLAYERS[1 - R.PLAYERS.index(w)]
    who = "You win" if w == seat else f"{w.capitalize()} wins"
    if vp[w] != vp[loser]:
        return f"{ended} {who}, {vp[w]} VP to {vp[loser]}: the most VP wins (R10.5)."
    return (f"{ended} {who}: equal VP ({vp[w]} each), and {pats[w]} patricians to {pats[loser]}; "
            "on equal VP the most patricians wins (R10.5).")


def since_her_turn(lines: list[str], her: str) -> int:
    """Where the story's last turn of the opponent starts (0 before she has had one): the page tells the
    game from there, her turn and what the human has done since."""
    starts = [i for i, line in enumerate(lines) if line.startswith("  turn ") and f": {her} (" in line]
    return starts[-1] if starts else 0


def _groups(obs: dict, me: str, her: str) -> list[dict]:
    return [{"name": name, "left": x["patricians_left"], "won": {"you": x["won"][me], "her": x["won"][her]},
             "you": x[me], "her": x[her]} for name, x in obs["groups"].items()]


def link_query(table: Table) -> str:
    """The page's query that reopens this deal: the form, the opponent, the seat and the deal."""
    own = urlencode({"against": table.against, "seat": table.seat, "deal": table.deal})
    return f"{table.query}&{own}" if table.query else own


def view(table: Table) -> dict:
    """The board as the human's seat may see it (R8), the story so far, and her choices when she is to move."""
    g = table.game
    table.story.tell(g)
    obs = g.observation(table.seat)
    mine = not g.over and g.to_move == table.seat
    deck = obs["action_deck"]
    out = {"game": table.id, "at": table.at, "seat": table.seat, "her": table.her, "against": table.against,
           "deal": table.deal, "seed": g.seed, "rules": table.story.rules, "turn": obs["turn"],
           "to_move": g.to_move, "yours": mine, "decision": obs["decision"], "bonus": obs["bonus"],
           "groups": _groups(obs, table.seat, table.her), "hand": obs["hand"], "set_aside": set_aside(obs),
           "next_action": deck[0] if deck else None, "action_left": len(deck),
           "her_hand": obs["hand_sizes"][table.her],
           "decks": {"you": obs["influence_deck_sizes"][table.seat], "her": obs["influence_deck_sizes"][table.her],
                     "her_action": obs["action_deck_sizes"][table.her]},
           "discards": {"you": obs["discards"][table.seat], "her": obs["discards"][table.her]},
           "voc": {"deck": obs["voc_deck_size"], "discard": obs["voc_discard"], "box": obs["voc_box"]},
           "scores": scores(table), "announced": announced_words(obs),
           "spy_seen": obs["spy_seen"]["hand"] if obs["decision"] == "spy_pick" and obs["spy_seen"] else None,
           "note": table.story.note(g) if mine else None,
           "story": table.story.lines, "recent": since_her_turn(table.story.lines, table.her),
           "choices": choice_tree(g.legal()) if mine else None,
           "link": "?" + link_query(table), "end": None}
    if g.over:
        r = g.result
        out["end"] = {"result": r, "words": end_words(r, table.seat, g.config.variants)}
    return out


def record_name(table: Table) -> str:
    """The downloaded record's file name: the seed and the deal say which game it is."""
    return f"ccsim-game-seed{table.game.seed}-deal{table.deal}.jsonl"
