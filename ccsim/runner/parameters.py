"""The one table of rules parameters: what each dotted key of a rules block means in plain words.

A rules block (``ccsim.runner.ruleset``, GAME_RECORD.md's ``rules``) names its settings by dotted
keys — ``side_limit``, ``group_size.censor``, ``action_count.cleopatra.veto`` — which stay the
contract in TOML, JSON and Parquet.  A designer reads them here instead: every place that shows a
change to a person draws its words from this table ("a side holds at most 4 cards (standard: 5)").

Each ``Parameter`` holds its key, a plain-words template with ``{n}`` (``one``: the same for n = 1),
its standard value (read from the kernel's standard rules vector, never written twice), its
allowed range (ruleset's), the rule it changes and a short label for forms and plots.
"""
from __future__ import annotations

from dataclasses import dataclass

from ccsim.kernel import rules as R
from ccsim.runner import ruleset

__all__ = ["Parameter", "PARAMETERS", "parameter", "setting_words", "change_words", "VARIANT_WORDS",
           "STANDARD_RULES"]

#: how the standard rules (docs/rules.md, every parameter at its standard value) are named to a person
STANDARD_RULES = "the standard rules"


@dataclass(frozen=True)
class Parameter:
    """One rules parameter: ``words.format(n=...)`` says a setting of it in plain words."""
    key: str        # the dotted key of a rules block, e.g. "action_count.cleopatra.veto"
    words: str      # template with {n}: "Cleopatra has {n} veto cards"
    standard: int   # its value under the standard rules
    lo: int         # lowest allowed value
    hi: int         # highest allowed value
    rule: str       # the rule it changes, e.g. "R7.6"
    label: str      # short label for a form or an axis: "Cleopatra's vetoes"
    one: str = ""   # the template for n = 1 when the noun changes ("Cleopatra has {n} veto card")

    def say(self, n: int) -> str:
        """The setting ``n`` in plain words ("a side holds at most 4 cards")."""
        return (self.one if n == 1 and self.one else self.words).format(n=n)


def _standard(key: str) -> int:
    """The standard value of a key, from the kernel's standard rules vector (one source)."""
    return int(R.DEFAULT_RULES[ruleset.slots_of(key)[0]])


def _p(key, words, one, rule, label, lo=None, hi=None) -> Parameter:
    """A Parameter with its standard value and (by default) its range from ruleset."""
    if lo is None:
        _, lo, hi = ruleset.SCALARS[key]
    return Parameter(key, words, _standard(key), lo, hi, rule, label, one)


# --- the plain names of things the keys index (R1.1, R1.2, R1.4, R7) -------------------------
_PLAYER = {"cleopatra": "Cleopatra", "caesar": "Caesar"}
#: action card: (plural noun, singular noun, short plural, the rule of the card)
_ACTION = {
    "assassination": ("assassination cards", "assassination card", "assassinations", "R7.1"),
    "spy": ("spy cards", "spy card", "spies", "R7.2"),
    "castling": ("castling cards", "castling card", "castlings", "R7.3"),
    "scout": ("scout cards", "scout card", "scouts", "R7.4"),
    "wrath": ("Wrath of God cards", "Wrath of God card", "wraths", "R7.5"),
    "veto": ("veto cards", "veto card", "vetoes", "R7.6"),
}
assert tuple(_ACTION) == R.ACTION_NAMES


def _influence(card: str) -> tuple[str, str, str]:
    """(plural, singular, label) of an influence card code: "1".."5" by value, "P" the philosopher."""
    if card == "P":
        return "philosophers", "philosopher", "philosophers"
    return f"cards of value {card}", f"card of value {card}", f"{card}s"


def _group_sizes() -> list[Parameter]:
    _, _, lo, hi = ruleset.OBJECTS["group_size"]
    return [_p(f"group_size.{g}", f"the {g} group has {{n}} patricians", f"the {g} group has {{n}} patrician",
               "R1.1", f"{g}s", lo, hi) for g in R.GROUPS]


def _deck_counts() -> list[Parameter]:
    _, _, lo, hi = ruleset.OBJECTS["deck_count"]
    out = []
    for card in R.INFLUENCE_NAMES:
        many, single, label = _influence(card)
        out.append(_p(f"deck_count.{card}", f"each influence deck holds {{n}} {many}",
                      f"each influence deck holds {{n}} {single}", "R2.1", f"{label} in a deck", lo, hi))
    return out


def _action_counts() -> list[Parameter]:
    out = []
    for player, name in _PLAYER.items():
        for card, (many, single, short, rule) in _ACTION.items():
            out.append(_p(f"action_count.{player}.{card}", f"{name} has {{n}} {many}", f"{name} has {{n}} {single}",
                          rule, f"{name}'s {short}", 0, ruleset.ACTION_MAX))
    return out


#: every parameter of a rules block, in a designer's order: hand and board, patricians, decks,
#: action cards, scoring, the safety cap
PARAMETERS: tuple[Parameter, ...] = (
    _p("hand_size", "a hand refills to {n} cards", "a hand refills to {n} card", "R4.4", "hand size"),
    _p("side_limit", "a side holds at most {n} cards", "a side holds at most {n} card", "R4.2.1", "side limit"),
    _p("group_limit", "a group holds at most {n} cards", "", "R4.2.2", "group limit"),
    *_group_sizes(),
    *_deck_counts(),
    _p("orgies", "the vote deck holds {n} plain orgies", "the vote deck holds {n} plain orgy", "R1.2", "orgies"),
    *_action_counts(),
    _p("vp_patrician", "a patrician scores {n} VP", "", "R10.1", "VP a patrician"),
    _p("vp_majority", "a group majority scores {n} VP", "", "R10.2", "VP a majority"),
    _p("vp_all", "a whole group scores {n} VP", "", "R10.3", "VP a whole group"),
    _p("vp_bonus", "a bonus card scores {n} VP", "", "R10.4", "VP a bonus"),
    _p("bonus_threshold", "a bonus card needs {n} patricians of its group",
       "a bonus card needs {n} patrician of its group", "R10.4", "bonus threshold"),
    _p("max_turns", "a game stops after {n} turns", "a game stops after {n} turn", "R9.5", "turn cap"),
)
_BY_KEY = {p.key: p for p in PARAMETERS}
assert set(_BY_KEY) == set(R.RULE_PARAM_NAMES) - {"variants"}, "the table names every rules parameter once"


def _both_players(card: str) -> Parameter:
    """``action_count.<card>``: the same count for both players (ruleset's by-card form)."""
    many, single, short, rule = _ACTION[card]
    p = _BY_KEY[f"action_count.cleopatra.{card}"]
    return Parameter(f"action_count.{card}", f"each player has {{n}} {many}", p.standard, p.lo, p.hi, rule,
                     short, f"each player has {{n}} {single}")


def parameter(key: str) -> Parameter:
    """The Parameter of a dotted key as a rules block accepts it (``action_count.veto``: both
    players); RulesError (one line) for a key a rules block does not have."""
    ruleset.slots_of(key)  # the one place that says which keys exist
    if key in _BY_KEY:
        return _BY_KEY[key]
    return _both_players(key.split(".")[-1])


def setting_words(key: str, value: int) -> str:
    """One setting in plain words with its standard beside it:
    ``setting_words("action_count.cleopatra.veto", 1)`` -> "Cleopatra has 1 veto card (standard: 2)"."""
    p = parameter(key)
    return f"{p.say(int(value))} (standard: {p.standard})"


#: the four variants of R11 in plain words
VARIANT_WORDS = {
    "majority_needs_complete": "a majority scores only once its whole group is won (R10.2 variant)",
    "late_orgies_boxed": "once two groups are out of play, a plain orgy turned up is boxed",
    "two_orgies": "one plain orgy is boxed before play",
    "lone_player_no_draw": "once one player is out, the other no longer draws",
}
assert set(VARIANT_WORDS) == set(R.VARIANTS)


def change_words(block: dict, variants=()) -> str:
    """A whole change — a rules block, flat or nested, and R11 variants — in plain words, settings
    joined by "; " in the block's order; "the standard rules" when it changes nothing.  The block is
    validated first (RulesError, one line)."""
    ruleset.rules_vector(block, variants)
    said = [setting_words(k, v) for k, v in ruleset.flat_items(block or {})]
    said += [VARIANT_WORDS[v] for v in dict.fromkeys(variants)]
    return "; ".join(said) if said else STANDARD_RULES
