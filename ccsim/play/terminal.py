"""`ccsim play`: a game against any strategy in the terminal, through ``ccsim.Game``.

The screen shows only what the human player may see (R8): the table from her
observation, her hand and her next action cards; what happened since her last
move is told one event a line, her opponent's hidden cards kept hidden
(``story.Story``, which the page's game tells too).  The board is redrawn before every prompt in a
layout that fits 80x30.  A move is chosen in small steps on top of
``Game.legal()`` (which card, then face, then group...), each step showing at
most a handful of choices under keys fixed per card and per group, so the
same move has the same key at every prompt (``story.option_path``); the last step names exactly one
legal option.  A typed line is read whole or not at all: a key that means nothing
where it falls refuses the line, with a line saying why.  ``?`` helps, ``u`` undoes, ``l`` shows the story so far;
``q``, end of input or Ctrl-C end the game cleanly, and ``--record`` still
gets the record so far.
"""
from __future__ import annotations

import json
import secrets
import shutil
import sys
import textwrap

import click

from ccsim.kernel import rules as R
from ccsim.play.story import GROUP_KEYS, Story, announced_words, option_path, set_aside, step_order

_ORDER_HELP = "13 letters A S C R W V top first, a preset, or shuffled"

RESERVED = "?uqlh"  # help, undo, quit, log (h: help too)

HELP = """Keys: each prompt lists its own, and on one prompt a key means one thing.
  a card?      1-5 and p (the philosopher, worth 0) the influence cards;
               a assassination, s spy, c castling, r scout, w wrath, v veto;
               e end the turn
  a group?     A senator, B praetor, C quaestor, D censor, E aedile
  which face?  o face-up (open), d face-down
  active?      a active, p passive        draw?  i influence, a action, n none
  veto?        v veto it, n let it happen  discard?  a card's key, n when done
A line may hold the keys of several prompts: '3db' places a 3 face-down on B
(praetor): card, then face, then group. Where the rules leave one face only,
it may be left out ('3b'), and a typed face is still a face: '3dd' is
face-down on D (censor); the other face refuses the line. A line with a key
that means nothing where it falls is not read at all, and the prompt says why.
  ?  this help    u  undo (a step, or your last move)    l  the story so far
  q  quit (the record so far is still written with --record)"""


def _cards(cards) -> str:
    return " ".join(cards) if cards else "-"


def _counted(cards) -> str:
    """``1 1 1 2 spy`` as ``1x3 2 spy``: a discard pile in a few words."""
    out = []
    for c in dict.fromkeys(cards):
        n = cards.count(c)
        out.append(f"{c}x{n}" if n > 1 else c)
    return " ".join(out) or "-"


def width() -> int:
    return max(40, min(80, shutil.get_terminal_size((80, 30)).columns))


def height() -> int:
    return max(20, shutil.get_terminal_size((80, 30)).lines)


def wrap(text: str, indent: str = "", more: str = "    ") -> list[str]:
    """``text`` wrapped at the terminal width (at most 80), never inside a word."""
    return textwrap.wrap(text, width(), initial_indent=indent, subsequent_indent=more,
                         break_long_words=False, break_on_hyphens=False) or [""]


def screen_lines(obs: dict) -> list[str]:
    """The table as player ``obs['player']`` sees it, compact (about 12 lines of at most 80)."""
    me = obs["player"]
    her = R.PLAYERS[1 - R.PLAYERS.index(me)]
    w = width()
    lines = [f"Turn {obs['turn']} - you are {me}, your bonus group: {obs['bonus']}",
             f"  {'group':9}{'left':>4} {'you/her':>7}  {'you: [x] is face-down':26} {her}"]
    for g, x in obs["groups"].items():
        mine = x[me]
        side = " ".join(mine["up"] + [f"[{c}]" for c in mine["down"]]) or "-"
        theirs = " ".join(x[her]["up"] + ([f"+{x[her]['down']} face-down"] if x[her]["down"] else [])) or "-"
        left = x["patricians_left"] or "out"
        won = f"{x['won'][me]}/{x['won'][her]}"
        row = f"{GROUP_KEYS[g].upper()} {g:9}{left:>4} {won:>7}  {side:26} {theirs}"
        lines.append(row if len(row) <= w else row.replace(" face-down", " down")[:w])
    lines += wrap(_hand_line(obs))
    lines += wrap(f"your next action cards: {_cards(obs['action_deck'][:5])}"
                  + (" ..." if len(obs["action_deck"]) > 5 else ""))
    lines += wrap(f"{her}: {obs['hand_sizes'][her]} cards in hand, decks {obs['influence_deck_sizes'][her]} "
                  f"influence + {obs['action_deck_sizes'][her]} action")
    lines += wrap(f"discards: yours {_counted(obs['discards'][me])}; {her}'s {_counted(obs['discards'][her])}")
    lines += wrap(f"VoC discard: {_cards(obs['voc_discard'])}   box: {_cards(obs['voc_box'])}   "
                  f"deck: {obs['voc_deck_size']} cards")
    if obs.get("announced"):
        lines += wrap(announced_words(obs))
    if obs.get("decision") == "spy_pick" and obs.get("spy_seen"):
        lines += wrap(f"your spy sees {her}'s hand: {_cards(obs['spy_seen']['hand'])}")
    return lines


def _hand_line(obs: dict) -> str:
    """The hand; before play, the set-aside cards still to place, one on each group (R2.5)."""
    left = set_aside(obs)
    if left is None:
        return f"your hand: {_cards(obs['hand'])}"
    return f"your set-aside cards: {_cards(left)} (one goes on each group, R2.5)"


def screen(obs: dict) -> str:
    return "\n".join(screen_lines(obs))


def choice_lines(choices: list[tuple[str, str]]) -> list[str]:
    """``key) label`` entries in as many columns as fit."""
    cells = [f"{k}) {label}" for k, label in choices]
    w = width()
    cw = max(len(c) for c in cells) + 3
    ncol = max(1, min(len(cells), (w - 2) // cw))
    rows = (len(cells) + ncol - 1) // ncol
    out = []
    for r in range(rows):
        row = [cells[c * rows + r] for c in range(ncol) if c * rows + r < len(cells)]
        out.append(("  " + "".join(x.ljust(cw) for x in row)).rstrip())
    return out


class _Quit(Exception):
    """The player left the game (q, end of input, Ctrl-C)."""


class _Undo(Exception):
    """Take back the player's last move."""


def _readline() -> str:
    try:
        line = sys.stdin.readline()
    except KeyboardInterrupt:
        raise _Quit from None
    if not line:
        click.echo("")
        raise _Quit
    line = line.strip().lower()
    if not sys.stdin.isatty():
        click.echo(line)  # a scripted session: show what was typed
    return line


def _steps(paths: list, chosen: list) -> tuple[list[int], dict]:
    """The options still named by the keys chosen so far, and the next step's keys: key -> (label, question)."""
    n = len(chosen)
    match = [i for i, p in enumerate(paths) if [c[0] for c in chosen] == [s[0] for s in p[:n]]]
    steps = {}
    for i in match:
        if len(paths[i]) > n:
            k, label, q = paths[i][n]
            steps.setdefault(k, (label, q))
    return match, steps


def _done(paths: list, chosen: list, match: list[int]) -> int | None:
    return next((i for i in match if len(paths[i]) == len(chosen)), None)


def _forced(paths: list, chosen: list, legal_count: int) -> bool:
    match, steps = _steps(paths, chosen)
    return _done(paths, chosen, match) is None and len(steps) == 1 and len(match) < legal_count


def _kin(label: str) -> dict:
    """The keys of every choice of a step's kind, key -> label: a face step's two faces, a group step's five
    groups (the keys a player may type there whether or not the rules leave her that choice now)."""
    if label in ("face-up", "face-down"):
        return {"o": "face-up", "d": "face-down"}
    if label in R.GROUPS:
        return {GROUP_KEYS[g]: g for g in R.GROUPS}
    return {}


def read_keys(paths: list, chosen: list, line: str, legal_count: int) -> tuple[list, str | None]:
    """The steps a typed line takes from ``chosen`` (a step with one way on is taken by itself; its key may be
    typed or left out), or, when a character of the line means nothing where it falls, the steps unchanged and
    one line saying why: a line is read whole or not at all.

    A key of a step's kind is read at that step even when the step has one way on: 'd' after a card is always
    the face (as the help's '3db' reads card, face, group), so when the face is forced up '4dd' is refused
    for its face, never read as face-up on the censor with a 'd' left over."""
    out, j = list(chosen), 0
    while j < len(line):
        ch = line[j]
        if _forced(paths, out, legal_count):
            (k, (label, _)), = _steps(paths, out)[1].items()
            kin = _kin(label)
            if ch != k and ch in kin:
                after = " > ".join(lbl for _, lbl, _ in out)
                shown = k.upper() if label in R.GROUPS else k
                return chosen, (f"  {line!r} not read, nothing taken: {ch!r} ({kin[ch]}) is not possible after "
                                f"{after}: only {shown} ({label}) is, typed or left out")
            out.append((k, label, False))
            j += ch == k  # its key typed or not
            continue
        match, steps = _steps(paths, out)
        if _done(paths, out, match) is not None:
            return chosen, (f"  {line!r} not read, nothing taken: the move is complete at {line[:j]!r}; "
                            f"{line[j:]!r} means nothing more")
        if ch not in steps:
            keys = " ".join(k.upper() if lbl in R.GROUPS else k
                            for k, (lbl, _) in sorted(steps.items(), key=lambda kv: step_order(kv[0], kv[1][0])))
            if len(line) == 1:
                return chosen, f"  {ch!r} is not one of the keys here: {keys}"
            where = "here" if len(out) == len(chosen) else "after " + " > ".join(lbl for _, lbl, _ in out)
            return chosen, (f"  {line!r} not read, nothing taken: {ch!r} is not one of the keys {where} "
                            f"(keys there: {keys})")
        out.append((ch, steps[ch][0], True))
        j += 1
    return out, None


def choose(legal: list[dict], draw, story, note: str | None = None) -> int:
    """The index into ``legal`` the player names, step by step.

    ``draw(lines)`` redraws the screen with those lines under the board;
    ``story()`` the whole story so far.  Raises _Undo to take back the last move.  A typed line is read
    whole or refused whole (``read_keys``); ``?``, ``h``, ``u``, ``l`` and ``q`` alone on a line are the
    commands (no step ever uses them as keys, so a key means one thing on a screen)."""
    paths = [option_path(d) for d in legal]
    chosen: list[tuple[str, str, bool]] = []  # (key, label, typed by the player)
    msg = None
    while True:
        while _forced(paths, chosen, len(legal)):  # one way on: taken, and told
            (k, (label, _)), = _steps(paths, chosen)[1].items()
            chosen.append((k, label, False))
        match, steps = _steps(paths, chosen)
        done = _done(paths, chosen, match)
        if done is not None:
            return done
        question = next(iter(steps.values()))[1]
        opts = sorted(steps.items(), key=lambda kv: step_order(kv[0], kv[1][0]))
        head = (["so far: " + " > ".join(lbl for _, lbl, _ in chosen) + "   (u goes back)"] if chosen else [])
        draw(head + (wrap(note) if note else []) + wrap(question)
             + choice_lines([(k.upper() if lbl in R.GROUPS else k, lbl) for k, (lbl, _) in opts])
             + ([msg] if msg else []))
        msg = None
        click.echo(f"{len(opts)} choices (? help, u undo, q quit): ", nl=False)
        line = _readline().replace(" ", "")
        line = {"quit": "q", "exit": "q", "help": "?"}.get(line, line)
        if not line:
            msg = "  please type the key of a choice (? for help)"
            continue
        if len(line) == 1 and line in RESERVED and line not in steps:
            if line == "q":
                raise _Quit
            if line in "?h":
                click.echo(HELP)
                click.echo("press Enter to go on: ", nl=False)
                _readline()
            elif line == "l":
                click.echo("\n".join(story()))
                click.echo("press Enter to go on: ", nl=False)
                _readline()
            elif line == "u":
                while chosen and not chosen[-1][2]:
                    chosen.pop()
                if not chosen:
                    raise _Undo
                chosen.pop()
                while chosen and not chosen[-1][2]:
                    chosen.pop()
            continue
        chosen, msg = read_keys(paths, chosen, line, len(legal))


@click.command("play")
@click.option("--against", "against", default="tactician", show_default=True, metavar="STRATEGY",
              help="The opponent's strategy (a registered name or a weights file).")
@click.option("--as", "seat", type=click.Choice(list(R.PLAYERS)), default="cleopatra", show_default=True,
              help="Your seat (cleopatra moves first).")
@click.option("--seed", type=int, default=None, help="Run seed of the deal [random; printed].")
@click.option("--game", "game_index", type=int, default=0, show_default=True, help="Game index of the deal.")
@click.option("--cleopatra-order", default="shuffled", show_default=True, metavar="ORDER", help=_ORDER_HELP)
@click.option("--caesar-order", default="shuffled", show_default=True, metavar="ORDER", help=_ORDER_HELP)
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="Rule variant (R11), repeatable: " + ", ".join(R.VARIANTS))
@click.option("--rules", "rules_file", default=None, metavar="FILE.toml",
              help="Play under a rules change: a file of [[change]] tables (as ccsim whatif --rules).")
@click.option("--change", "change_name", default=None, metavar="NAME",
              help="Which change of the --rules file [its first].")
@click.option("--record", default=None, metavar="FILE.jsonl", help="Write the game's record (ccsim-game/1).")
def play_cmd(against, seat, seed, game_index, cleopatra_order, caesar_order, variants, rules_file, change_name,
             record):
    """Play a game against a strategy in the terminal.

    Under the standard rules (docs/rules.md), or a rules change with --rules (and --variant)."""
    block, variants, title = _rules_in_force(rules_file, change_name, variants)
    seed = secrets.randbelow(2**31) if seed is None else seed
    g = _new_game(against, seat, seed, game_index, cleopatra_order, caesar_order, variants, record, block)
    for line in wrap(f"Caesar & Cleopatra: you ({seat}) against {against}; seed {seed}, game {game_index} "
                     f"(replay the deal with --seed {seed} --game {game_index}).  ? shows the keys."):
        click.echo(line)
    story = _Story(seat, title)
    g, quit_ = _play(g, against, story)
    story.tell(g)
    click.echo("\n".join(story.lines[story.fresh:]))
    if quit_:
        click.echo(f"\nYou left the game at turn {g.turn}.")
    else:
        r = g.result
        for line in wrap(f"End: {r['end']} after {r['turns']} turns. VP cleopatra {r['vp']['cleopatra']}, "
                         f"caesar {r['vp']['caesar']}. " + ("A draw." if r["winner"] is None else
                                                           ("You win!" if r["winner"] == seat
                                                            else f"{r['winner']} wins."))):
            click.echo(line)
    if record:
        _write_record(g, record)


def _rules_in_force(rules_file, change_name, variants) -> tuple[dict, tuple, str]:
    """(rules block, variants, plain words) of --rules/--change/--variant; one line if unusable."""
    from ccsim.runner.changes import load_changes, pick_change
    from ccsim.runner.parameters import change_words

    if change_name is not None and rules_file is None:
        raise click.UsageError("--change needs --rules FILE.toml")
    block, name = {}, None
    if rules_file is not None:
        changes = load_changes(rules_file)[0]
        change = pick_change(changes, change_name, f"--rules {rules_file}")
        block, name = change.block, change.name
        if change_name is None and len(changes) > 1:
            for line in wrap(f"--rules {rules_file} holds {len(changes)} changes: playing the first, "
                             f"{change.name!r}; --change NAME plays another (its name = line in the file)."):
                click.echo(line)
        variants = tuple(dict.fromkeys((*change.variants, *variants)))
    words = change_words(block, variants)
    return block, tuple(variants), f"{name}: {words}" if name else words


def _new_game(against, seat, seed, game_index, cleopatra_order, caesar_order, variants, record, rules=None):
    """The game of the flags; an unknown strategy or an unwritable record fails now, before it starts."""
    from ccsim.play.game import Game
    from strategies.registry import lookup

    try:  # the name first: an unknown one fails before the engine compiles (and says so on stderr)
        lookup(against)
    except KeyError as e:
        raise click.UsageError(e.args[0]) from None
    names = ["human", against] if seat == R.PLAYERS[0] else [against, "human"]
    g = Game(seed=seed, game=game_index, cleopatra_order=cleopatra_order, caesar_order=caesar_order,
             variants=variants, rules=rules, players=names)
    g.prepare(against)
    if record:
        try:
            open(record, "a", encoding="utf-8").close()
        except OSError as e:
            raise click.UsageError(f"--record {record}: cannot write ({e.strerror})") from None
    return g


class _Story(Story):
    """The story on the terminal: lines wrapped at its width, and the screen drawn around them."""

    def __init__(self, seat: str, rules: str = "the standard rules"):
        super().__init__(seat, rules, wrap)

    def draw(self, g, below: list) -> None:
        """The screen: the board, the story since the human's last move (as much as fits), ``below``."""
        self.tell(g)
        board = [""] + wrap(f"rules: {self.rules}") + screen_lines(g.observation(self.seat))
        fresh = self.lines[self.fresh:]
        room = max(3, height() - 1 - len(board) - len(below) - 2)
        if len(fresh) > room:
            fresh = [f"  ... ({len(fresh) - room + 1} earlier lines: l shows them)"] + fresh[-(room - 1):]
        click.echo("\n".join(board + (["-" * min(width(), 40)] + fresh if fresh else []) + [""] + below))


def _play(g, against: str, story: _Story):
    """The game to its end, or until the human leaves: (the game, whether she left)."""
    seat, undo = story.seat, []
    try:
        while not g.over:
            if g.to_move != seat:
                g.step(g.ask(against))
                continue
            legal = g.legal()
            try:
                story.tell(g)
                i = choose(legal, lambda below: story.draw(g, below), lambda: story.lines, story.note(g))
            except _Undo:
                if not undo:
                    story.lines.append("  (nothing to undo)")
                    continue
                g, saved = undo.pop()
                story.restore(saved)
                story.lines.append("  (your last move is taken back)")
                continue
            undo.append((g.copy(), story.saved()))
            story.moving(g)
            g.step(i)
    except (_Quit, KeyboardInterrupt):
        return g, True
    return g, False


def _write_record(g, record: str) -> None:
    from ccsim.play.game import GameError
    try:
        rec = g.record()
    except GameError as e:
        click.echo("\n".join(wrap(f"no record written: {e}")))
        return
    with open(record, "w", encoding="utf-8") as f:
        f.write(json.dumps(rec, separators=(",", ":")) + "\n")
    click.echo("\n".join(wrap(f"record written to {record}" + (" (the game so far)" if not g.over else ""))))
