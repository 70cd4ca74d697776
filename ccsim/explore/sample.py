"""A sample game under the changed rules, told turn by turn with the board: the record's own
narration (``ccsim.play.narrate``, what ``ccsim replay`` prints), cut into steps for the page."""
from __future__ import annotations

from ccsim.runner.config import RunConfig
from ccsim.runner.ruleset import rules_block
from ccsim.play.narrate import narrate
from ccsim.analyses.run import iter_records
from ccsim.analyses.whatif import variants_of

__all__ = ["MAX_GAME", "sample_game", "steps"]

MAX_GAME = 99  # the deals a page may step through: game 0 .. 99 of the seed (bounded work)


def steps(text: str) -> dict:
    """A narration cut at each turn: the opening lines, then one step a turn (its events, then the
    table after it; the last step ends with the final table and the result)."""
    head, *turns = text.split("\nTurn ")
    return dict(opening=head.strip("\n"), turns=["Turn " + t.strip("\n") for t in turns])


def sample_game(q, game: int, arm) -> dict:
    """Deal ``game`` of the question's seed played under ``arm``'s rules and decks at its level, in
    mirror games: the very game the answer counted (deal ``game`` of that arm)."""
    cfg = RunConfig(games=game + 1, seed=q.seed, cleopatra=q.level, caesar=q.level,
                    cleopatra_order=arm.orders[0], caesar_order=arm.orders[1],
                    variants=tuple(variants_of(arm.rules)), rules=rules_block(arm.rules)).validated()
    for rec in iter_records(cfg, game + 1, "ccsim explore,"):
        last = rec
    return dict(game=game, arm=arm.name, **steps(narrate(last)))
