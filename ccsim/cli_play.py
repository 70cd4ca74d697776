"""`ccsim play`: a game against any strategy in the terminal, through ``ccsim.Game``.

The screen shows only what the human player may see (R8): the table from her
observation, her hand and her next action cards; what happened since her last
move is told one event a line, her opponent's hidden cards kept hidden
(``narrate.as_seen_by``).  Bad input gets one line and the same question;
``q``, end of input or Ctrl-C end the game cleanly, and ``--record`` still
gets the record so far.
"""
from __future__ import annotations

import json
import secrets
import sys

import click

from ccsim import rules as R

_ORDER_HELP = "13 letters A S C R W V top first, a preset, or shuffled"


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


def _cards(cards) -> str:
    return " ".join(cards) if cards else "-"


def screen(obs: dict) -> str:
    """The table as player ``obs['player']`` sees it."""
    me = obs["player"]
    her = R.PLAYERS[1 - R.PLAYERS.index(me)]
    lines = [f"Turn {obs['turn']}  —  you are {me}, your bonus card: {obs['bonus']}", "",
             f"{'group':9} {'left':>4}  {'won you/her':>11}   {'your side':28} {her + ' side'}"]
    for g, x in obs["groups"].items():
        mine = x[me]
        side = _cards(mine["up"]) + (f"  down: {_cards(mine['down'])}" if mine["down"] else "")
        theirs = _cards(x[her]["up"]) + (f"  +{x[her]['down']} face-down" if x[her]["down"] else "")
        left = x["patricians_left"] or "out"
        lines.append(f"{g:9} {left:>4}  {x['won'][me]:>5}/{x['won'][her]:<5}   {side:28} {theirs}")
    lines += ["",
              f"your hand: {_cards(obs['hand'])}",
              f"your next action cards: {_cards(obs['action_deck'][:5])}"
              + (" …" if len(obs["action_deck"]) > 5 else ""),
              f"{her}: {obs['hand_sizes'][her]} cards in hand, decks {obs['influence_deck_sizes'][her]} influence"
              f" + {obs['action_deck_sizes'][her]} action; discards: {_cards(obs['discards'][her])}",
              f"your discards: {_cards(obs['discards'][me])}",
              f"VoC discard: {_cards(obs['voc_discard'])}   box: {_cards(obs['voc_box'])}   "
              f"deck: {obs['voc_deck_size']} cards"]
    if obs.get("announced"):
        a = obs["announced"]
        where = " ".join(x for x in (a["target"], "at" if a["target"] else None, a["group"], a["second_group"]) if x)
        lines.append(f"{her} announces {a['card']}" + (f": {where}" if where else ""))
    return "\n".join(lines)


class _Quit(Exception):
    """The player left the game (q, end of input, Ctrl-C)."""


def _ask(options: list[str]) -> int:
    """The number the player types (1-based on screen); asks again on bad input."""
    for i, text in enumerate(options, 1):
        click.echo(f"  {i:>3}. {text}")
    while True:
        click.echo(f"your choice (1-{len(options)}, q to quit): ", nl=False)
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
        if line in ("q", "quit", "exit"):
            raise _Quit
        if not line.isdigit():
            click.echo(f"  not a number: {line!r}" if line else "  please type the number of a move")
            continue
        k = int(line)
        if not 1 <= k <= len(options):
            click.echo(f"  {k} is not between 1 and {len(options)}")
            continue
        return k - 1


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
@click.option("--record", default=None, metavar="FILE.jsonl", help="Write the game's record (ccsim-game/1).")
def play_cmd(against, seat, seed, game_index, cleopatra_order, caesar_order, variants, record):
    """Play a game against a strategy in the terminal."""
    from ccsim.config import ConfigError
    from ccsim.game import Game, GameError
    from ccsim.narrate import as_seen_by, event_text
    from ccsim.record import decode_events
    from ccsim import layout as L

    seed = secrets.randbelow(2**31) if seed is None else seed
    me = R.PLAYERS.index(seat)
    names = ["human", against] if me == 0 else [against, "human"]
    try:
        g = Game(seed=seed, game=game_index, cleopatra_order=cleopatra_order, caesar_order=caesar_order,
                 variants=variants, players=names)
        g._strategy(against)  # an unknown strategy fails now, before the game starts
    except (ConfigError, GameError) as e:
        raise click.UsageError(str(e)) from None
    if record:
        try:
            open(record, "a", encoding="utf-8").close()
        except OSError as e:
            raise click.UsageError(f"--record {record}: cannot write ({e.strerror})") from None
    click.echo(f"Caesar & Cleopatra: you ({seat}) against {against}; seed {seed}, game {game_index} "
               f"(replay the deal with --seed {seed} --game {game_index}).")
    told = 0

    def tell():
        nonlocal told
        k = int(g.st[L.H_NLOG])
        for e in decode_events(g.st[L.LOG + told * L.EV_W:L.LOG + k * L.EV_W].reshape(-1, L.EV_W)):
            click.echo("  " + event_text(as_seen_by(e, seat)))
        told = k

    quit_ = False
    try:
        while not g.over:
            if g.to_move != seat:
                g.step(g.ask(against))
                continue
            tell()
            click.echo("\n" + screen(g.observation(seat)))
            click.echo(f"\n{g.decision.replace('_', ' ')}:")
            g.step(_ask([option_words(d) for d in g.legal()]))
    except (_Quit, KeyboardInterrupt):
        quit_ = True
    tell()
    if quit_:
        click.echo(f"\nYou left the game at turn {g.turn}.")
    else:
        r = g.result
        click.echo(f"\nEnd: {r['end']} after {r['turns']} turns. VP cleopatra {r['vp']['cleopatra']}, "
                   f"caesar {r['vp']['caesar']}. " + ("A draw." if r["winner"] is None else
                                                     ("You win!" if r["winner"] == seat else f"{r['winner']} wins.")))
    if record:
        try:
            rec = g.record()
        except GameError as e:
            click.echo(f"no record written: {e}")
            return
        with open(record, "w", encoding="utf-8") as f:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        click.echo(f"record written to {record}" + (" (the game so far)" if not g.over else ""))
