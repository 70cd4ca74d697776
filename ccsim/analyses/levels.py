"""Levels of play: who plays the games an analysis measures the rules with.

A *level* is one strategy playing itself (mirror games: any seat advantage is
the rules', not a strategy's), or a pair of strategies playing each deal twice
with the seats swapped (``greedy+tactician``: each deal once with greedy as
Cleopatra and tactician as Caesar, once the other way round).

The default levels live here, in one place, for ``ccsim whatif`` and
``ccsim balance``: the strongest *fast* level first (what a designer's question
should be answered at), then ``tactician``, the strongest heuristic; and the
strongest *search* level, which ``ccsim balance`` measures its final candidates
at (too slow for a race: tens of games a second).
"""
from __future__ import annotations

from dataclasses import dataclass

from strategies.registry import available, strategy_id

__all__ = ["DEFAULT_LEVELS", "SEARCH_LEVELS", "Level", "default_levels", "default_level", "search_level",
           "parse_level", "PAIR_MARK", "level_words"]

#: The default levels of play, strongest first: the strongest fast player (``neural``, the value
#: network: 60% against ``tactician``, results/strength/network.json), then ``tactician``.  A name
#: that is not registered is skipped; a new strongest fast player is one more name at the front.
DEFAULT_LEVELS = ("neural", "tactician")

#: The search levels, strongest first (results/strength/: ``neural-search`` scores 52.8% against
#: ``master`` at 2.6 times its speed): the first registered is the level of the final measurements.
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


def default_levels() -> tuple[str, ...]:
    """The registered names of ``DEFAULT_LEVELS``, in its order (neural, then tactician)."""
    return _registered(DEFAULT_LEVELS)


def search_level() -> str | None:
    """The strongest search level registered (``neural-search``), None if there is none."""
    return next(iter(_registered(SEARCH_LEVELS)), None)


def default_level() -> str:
    """The strongest fast level registered: the default strategy of ``ccsim whatif``."""
    return default_levels()[0]


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
