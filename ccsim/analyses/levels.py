"""Levels of play: who plays the games an analysis measures the rules with.

A *level* is one strategy playing itself (mirror games: any seat advantage is
the rules', not a strategy's), or a pair of strategies playing each deal twice
with the seats swapped (``greedy+tactician``: each deal once with greedy as
Cleopatra and tactician as Caesar, once the other way round).

The default levels live here, in one place, for ``ccsim whatif`` and
``ccsim balance``: the strongest *fast* level first (what a designer's question
should be answered at), then ``tactician``, the strongest heuristic.
"""
from __future__ import annotations

from dataclasses import dataclass

from strategies.registry import available, strategy_id

__all__ = ["DEFAULT_LEVELS", "Level", "default_levels", "default_level", "parse_level", "PAIR_MARK"]

#: The default levels of play, strongest first.  HOOK for the strongest fast level: ``learned`` (the
#: learned fast player) is used as soon as a strategy of that name is registered, and skipped until
#: then; a new strongest fast player is one more name at the front of this tuple.
DEFAULT_LEVELS = ("learned", "tactician")

#: how a pair level is written on the command line and in files: ``greedy+tactician``
PAIR_MARK = "+"


def default_levels() -> tuple[str, ...]:
    """The registered names of ``DEFAULT_LEVELS``, in its order (learned, then tactician)."""
    names = {s["name"] for s in available()}
    return tuple(n for n in DEFAULT_LEVELS if n in names)


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
