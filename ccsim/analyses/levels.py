"""Levels of play: who plays the games an analysis measures the rules with.

A *level* is one strategy playing itself (mirror games: any seat advantage is
the rules', not a strategy's), or a pair of strategies playing each deal twice
with the seats swapped (``greedy+tactician``: each deal once with greedy as
Cleopatra and tactician as Caesar, once the other way round).

Mirror games speak of the game only when the player plays both seats alike: its
seat gap (``strategies.seats``) known and within the limit, *balanced*.  Every
door that reports an edge defaults to the strongest *fast* level shown balanced
(``default_level``: ``learned`` today, ``neural`` being lopsided), and the judge
of a published answer is the strongest *search* level shown balanced
(``search_level``: ``neural-search``).  Any other level plays when asked for by
name; ``level_caveat`` is the plain line its output opens with when it is
lopsided or not yet known.
"""
from __future__ import annotations

from dataclasses import dataclass

from strategies.registry import available, strategy_id

__all__ = ["FAST_LEVELS", "SEARCH_LEVELS", "Level", "default_levels", "default_level", "search_level",
           "fast_balanced_levels", "level_caveat", "level_json", "DEFAULT_HELP", "strong_level", "strong_caveat", "parse_level", "PAIR_MARK", "level_words"]

#: The fast levels a door may default to, strongest first (the ladder, results/strength/ladder.json:
#: ``neural``, then ``learned``, then ``tactician``); only those shown balanced are defaults.  A new
#: strongest fast player is one more name at the front.
FAST_LEVELS = ("neural", "learned", "tactician")

#: how every door's --help names its default level (the registry is not loaded to print a help)
DEFAULT_HELP = "the strongest fast level shown balanced: learned"

#: The search levels, strongest first (results/strength/ladder.json): the first shown balanced judges.
SEARCH_LEVELS = ("neural-search", "master", "expert")

#: a level of play as a designer would say it (the name stays beside it: it is what the command line takes)
LEVEL_WORDS = {
    "greedy": "the greedy baseline",
    "majority": "the majority heuristic",
    "tactician": "the tactician heuristic",
    "learned": "the learned linear player",
    "neural": "the neural-network player",
    "expert": "the expert search",
    "master": "the master search",
    "neural-search": "the network-guided search",
}

#: how a pair level is written on the command line and in files: ``greedy+tactician``
PAIR_MARK = "+"


def _registered(names) -> tuple[str, ...]:
    known = {s["name"] for s in available()}
    return tuple(n for n in names if n in known)


def _balanced(names) -> tuple[str, ...]:
    from strategies.seats import is_balanced
    return tuple(n for n in _registered(names) if is_balanced(n))


def fast_balanced_levels() -> tuple[str, ...]:
    """The registered fast levels shown balanced, strongest first (learned, tactician)."""
    return _balanced(FAST_LEVELS)


def default_levels() -> tuple[str, ...]:
    """The levels ``ccsim balance`` races at by default: every fast level shown balanced."""
    return fast_balanced_levels()


def default_level() -> str:
    """The strongest fast level shown balanced: the default of every door that reports an edge."""
    return fast_balanced_levels()[0]


def search_level() -> str | None:
    """The judge: the strongest search level shown balanced (``neural-search``), None if there is none."""
    return next(iter(_balanced(SEARCH_LEVELS)), None)


def strong_level() -> str | None:
    """The level whose figure every door shows beside a fast level's: the judge (``search_level``) when a
    search is shown balanced, else the strongest search registered (``neural-search``), its status said
    beside its figures (``strong_caveat``)."""
    return search_level() or next(iter(_registered(SEARCH_LEVELS)), None)


def strong_caveat(name: str | None = None) -> str | None:
    """Why the strong level's figures are not yet a verdict (it is not shown balanced), None when it judges."""
    from strategies import seats
    name = name or strong_level()
    if name is None or seats.status(name) == seats.BALANCED:
        return None
    row = seats.seat_row(name)
    if row is None:
        return f"{name}'s seat gap is not measured, so its figures are strong play's, not a verdict"
    lo, hi = row["seat_gap_ci95"]
    return (f"{name} {seats.describe(name)} against tactician ({row['seat_gap']:+.1f} [{lo:+.1f}, {hi:+.1f}] points on "
            f"{row['deals']:,} deals a seat: {seats.status(name)}), so its figures are strong play's, not yet a "
            f"verdict (results/strength)")


def level_caveat(players) -> str | None:
    """The plain line an output opens with when its level's edge is not the game's: a lopsided level, one
    whose seat gap is not yet known, or two different players; None for a level shown balanced."""
    from strategies import seats
    players = tuple(dict.fromkeys(players))
    if len(players) > 1:
        return (f"Note: {' and '.join(players)} are different players, so Cleopatra's edge here measures them as "
                f"much as the rules; the game's edge comes from one balanced level in both seats "
                f"(default: {default_level()}).")
    name = players[0]
    status = seats.status(name)
    if status == seats.BALANCED:
        return None
    row = seats.seat_row(name)
    gap = "" if row is None else (f" ({seats.describe(name)}: {row['seat_gap']:+.1f} "
                                  f"[{row['seat_gap_ci95'][0]:+.1f}, {row['seat_gap_ci95'][1]:+.1f}] points)")
    what = {seats.LOPSIDED: f"is lopsided{gap}",
            seats.NOT_YET_KNOWN: f"has a seat gap not yet known{gap}",
            seats.NOT_MEASURED: "has a seat gap not measured"}[status]
    return (f"Note: {level_words(name)} {what}, so the edge below is the player's as much as the game's, and no "
            f"verdict of fair comes from it; the balanced default is {default_level()}.")


@dataclass(frozen=True)
class Level:
    """A level of play: ``players`` is one strategy (mirror games) or two (each deal played twice,
    seats swapped)."""
    players: tuple[str, ...]

    @property
    def name(self) -> str:
        return PAIR_MARK.join(self.players)

    @property
    def seatings(self) -> tuple[tuple[str, str], ...]:
        """(Cleopatra's strategy, Caesar's) of each game played on a deal: the rules' action counts
        stay with the seat, so a pair is two seatings, never the kernel's swapped arrangement."""
        if len(self.players) == 1:
            return ((self.players[0], self.players[0]),)
        a, b = self.players
        return (a, b), (b, a)


def parse_level(level, error: type[Exception], where: str = "--levels") -> Level:
    """A level from ``"tactician"``, ``"greedy+tactician"`` or ``["greedy", "tactician"]``;
    ``error`` (one line) for an unknown strategy or a malformed level."""
    players = level.split(PAIR_MARK) if isinstance(level, str) else level
    if (not isinstance(players, (list, tuple)) or not 1 <= len(players) <= 2
            or not all(isinstance(p, str) and p.strip() for p in players)):
        raise error(f"{where}: a level is a strategy or a pair of strategies (A{PAIR_MARK}B), got {level!r}")
    players = tuple(p.strip() for p in players)
    for p in players:
        try:
            strategy_id(p)
        except KeyError as e:
            raise error(f"{where}: {e.args[0]}") from None
    if len(players) == 2 and players[0] == players[1]:
        players = players[:1]  # a strategy against itself, seats swapped, is its mirror games twice
    return Level(players)


def level_words(name: str) -> str:
    """"the neural-network player (neural)": a level in plain words, its name in brackets; a pair level
    (A+B) or a strategy without words: its name."""
    words = LEVEL_WORDS.get(name)
    return f"{words} ({name})" if words else name


def level_json(name: str) -> dict:
    """A level as ``--json`` gives it: its name, its plain words, its seat status and gap (points, with the
    95% interval), and the caveat line its output opens with (None for a balanced level)."""
    from strategies import seats
    row = seats.seat_row(name)
    return dict(name=name, words=LEVEL_WORDS.get(name, name), status=seats.status(name),
                seat_gap=None if row is None else float(row["seat_gap"]),
                seat_gap_ci95=None if row is None else [float(c) for c in row["seat_gap_ci95"]],
                caveat=level_caveat((name,)))
