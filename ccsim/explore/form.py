"""The page's form: what it offers (drawn from the table of rules parameters) and how a filled form
becomes a ``Question`` (``ccsim.analyses.question``'s, the page's question), checked by the very
validators of the command line.

A filled form is a query string — the page's URL and every API call carry it — of text fields:

    action_count.cleopatra.veto=1&variant=two_orgies&cleopatra_order=veto-first&level=learned&seed=1

each rules parameter by its dotted key (``ccsim.runner.parameters``), ``variant`` repeated, the two
action-deck orders, the level of play and the run seed.  A field left out is its standard value.
The server never trusts the page: ``read_question`` checks every field again, by the command line's own
validators (``ccsim.runner.ruleset``, ``ccsim.runner.orderings``, ``--strategy``, ``--seed``), and refuses
the form with one line per bad field, said the way the form says it: the field's label instead of a dotted
key or a flag, what was typed (an empty field says it is empty), and the closest known name for a
mistyped one (``plain_message``).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ccsim.errors import UsageError, suggest
from ccsim.kernel import rules as R
from ccsim.runner.checks import check_seed
from ccsim.runner.orderings import PRESETS, SHUFFLED, OrderingError, parse_ordering
from ccsim.runner.parameters import PARAMETERS, VARIANT_WORDS
from ccsim.runner.ruleset import RulesError, action_counts, rules_block, rules_vector
from ccsim.analyses.balance.judge import level_lean
from ccsim.analyses.levels import default_level, default_levels
from ccsim.analyses.question import Question
from strategies import seats
from strategies.registry import available, search_players, strategy_id

__all__ = ["FormError", "Question", "form_spec", "read_question", "ORDER_FIELDS", "FIELDS", "PAGE_LEVEL", "page_level",
           "plain_message", "one_value"]

#: the page's own default level: ``learned`` plays both seats alike and answers a change within ±1 point in
#: about a second (the page aims at 3 s); the published answer's judge, ``neural-search``, plays a few dozen
#: games a second, too slow for a live page, so the page shows that answer beside its own figures
PAGE_LEVEL = "learned"


def page_level() -> str:
    """The level the page opens with: ``PAGE_LEVEL`` when registered, else the strongest fast level."""
    return PAGE_LEVEL if any(s["name"] == PAGE_LEVEL for s in available()) else default_level()


ORDER_FIELDS = ("cleopatra_order", "caesar_order")
PARAMETER_KEYS = tuple(p.key for p in PARAMETERS)
FIELDS = frozenset((*PARAMETER_KEYS, "variant", *ORDER_FIELDS, "level", "seed"))
#: the form's sections, in a designer's order: (title, key prefixes, shown open); a parameter goes in
#: the first section one of whose prefixes its key starts with
SECTIONS = (
    ("Action cards", ("action_count.",), True),
    ("Hand and board", ("hand_size", "side_limit", "group_limit"), True),
    ("Vote deck and bonus card", ("orgies", "vp_bonus", "bonus_threshold"), True),
    ("Patricians", ("group_size.",), False),
    ("Influence decks", ("deck_count.",), False),
    ("Scoring", ("vp_",), False),
    ("Safety cap", ("max_turns",), False),
)
_INTEGER = re.compile(r"[+-]?\d{1,9}")


class FormError(UsageError):
    """A form that cannot run: ``errors`` maps each bad field to its one-line message."""

    def __init__(self, errors: dict[str, str]):
        super().__init__(next(iter(errors.values())))
        self.errors = errors


# --- what the page offers ---------------------------------------------------------------------

def _section_of(key: str) -> int:
    return next(i for i, (_, prefixes, _) in enumerate(SECTIONS) if key.startswith(prefixes))


def _levels() -> list[dict]:
    """Every registered strategy as a level of mirror games, the strongest fast level first, each
    with what it costs (the search players play a few games a second)."""
    search = search_players()
    first = list(dict.fromkeys([page_level(), *default_levels()]))
    fast = first + sorted(s["name"] for s in available() if s["name"] not in first and s["name"] not in search)
    out = [dict(name=n, cost="fast: thousands of games a second") for n in fast]
    out += [dict(name=n, cost="search: a few games a second, an answer takes minutes") for n in sorted(search)]
    return [lv | dict(gap=gap_words(lv["name"]), balanced=seats.is_balanced(lv["name"])) for lv in out]


def gap_words(name: str) -> str:
    """A level's seat gap as the form shows it beside the name: "plays Cleopatra 10.9 points better than
    Caesar: lopsided"; a level never measured says so (none is called the strongest)."""
    return level_lean(name, seats.status(name), seats.describe(name), style="menu")


#: the published answer of ``ccsim balance`` (results/balance/summary.json's ``recommendation``), shipped with
#: the page so that an installed copy shows it too; scripts/docs_figures.py writes it and checks it
PUBLISHED = Path(__file__).with_name("static") / "answer.json"


def published_answer() -> dict | None:
    """The published recommendation as the page shows it (None when the package holds none)."""
    if not PUBLISHED.exists():
        return None
    return json.loads(PUBLISHED.read_text(encoding="utf-8"))


def form_spec() -> dict:
    """What the page draws its form from (JSON-ready)."""
    sections = [dict(title=t, open=o, parameters=[]) for t, _, o in SECTIONS]
    for p in PARAMETERS:
        sections[_section_of(p.key)]["parameters"].append(
            dict(key=p.key, label=p.label, standard=p.standard, lo=p.lo, hi=p.hi, rule=p.rule,
                 words=p.words))
    return dict(sections=sections,
                variants=[dict(name=v, words=VARIANT_WORDS[v]) for v in R.VARIANTS],
                orders=[dict(name=SHUFFLED, letters="", words="a fresh shuffle every game (R1.4)")]
                + [dict(name=n, letters=s, words=w) for n, (s, w) in PRESETS.items()],
                levels=_levels(), default_level=page_level(), players=list(R.PLAYERS),
                published=published_answer())


# --- reading a filled form --------------------------------------------------------------------

def _number(text: str):
    """A field's text as an int when it is one; else the text, for the validator to refuse in its words."""
    text = text.strip()
    return int(text) if _INTEGER.fullmatch(text) else text


def one_value(fields: dict, name: str, default: str) -> str:
    """The single value of field ``name`` (``default`` when absent); FormError when it is given twice."""
    values = fields.get(name) or [default]
    if len(values) != 1:
        raise FormError({name: f"{name}: given {len(values)} times"})
    return values[0]


def _field_of(message: str, block: dict) -> str:
    """The field a ruleset message names (``rules.<key>: ...``), or the player's action cards for a
    player's total; the variants when it names no field (a variant the changed rules cannot take)."""
    m = re.match(r"rules\.([\w.]+):", message)
    name = m.group(1) if m else ""
    if name in block or name.startswith("action_count."):
        return name
    return name if name in FIELDS else "variant"


def _rules(fields: dict) -> tuple[dict, tuple, dict]:
    """(flat block of the settings that differ from the standard, variants, errors): every bad setting
    marked at its field, by ``rules_vector`` (asked again without each refused field)."""
    std = {p.key: p.standard for p in PARAMETERS}
    block, errors = {}, {}
    for key in PARAMETER_KEYS:
        if key in fields:
            try:
                value = _number(one_value(fields, key, ""))
            except FormError as e:
                errors.update(e.errors)
                continue
            if value != std[key]:
                block[key] = value
    variants = tuple(dict.fromkeys(fields.get("variant", [])))
    try:
        rules_vector(None, variants)
    except RulesError as e:
        errors["variant"], variants = str(e), ()
    for _ in range(len(block) + 1):
        try:
            rules_vector(block, variants)
            break
        except RulesError as e:
            name = _field_of(str(e), block)
            errors.setdefault(name, str(e))
            dropped = [k for k in block if k == name or k.startswith(name + ".")]
            for k in dropped or list(block):  # a message naming no field: the block as a whole
                del block[k]
    return block, variants, errors


def _orders(fields: dict, vec, check_standard: bool) -> tuple[tuple, dict]:
    """Both decks' orders in canonical form, each checked against its player's action cards under the
    changed rules and (when both rules are played with it, as ``ccsim whatif`` does) the standard's."""
    out, errors = [], {}
    for p, name in enumerate(ORDER_FIELDS):
        try:
            text = one_value(fields, name, SHUFFLED)
            order = parse_ordering(text, action_counts(vec, p))
            if check_standard and order != SHUFFLED:
                parse_ordering(text, R.ACTION_COUNTS)
        except (OrderingError, FormError) as e:
            errors[name] = e.errors[name] if isinstance(e, FormError) else str(e)
            order = SHUFFLED
        out.append(order)
    return tuple(out), errors


def _level(fields: dict) -> str:
    name = one_value(fields, "level", page_level()).strip()
    try:
        strategy_id(name)
    except KeyError as e:
        raise FormError({"level": f"--strategy: {e.args[0]}"}) from None
    return name


def _seed(fields: dict) -> int:
    return check_seed(_number(one_value(fields, "seed", "1")), lambda m: FormError({"seed": m}))


#: the form's own name of each field that is not a rules parameter (a parameter's is its label)
FIELD_LABELS = {"level": "level of play", "seed": "seed", "variant": "variants",
                **{f: f"{p.capitalize()}'s action deck" for p, f in zip(R.PLAYERS, ORDER_FIELDS)},
                **{f"action_count.{p}": f"{p.capitalize()}'s action cards" for p in R.PLAYERS}}
_LABELS = {**{p.key: p.label for p in PARAMETERS}, **FIELD_LABELS}
_DOTTED = re.compile(r"\b(" + "|".join(sorted((re.escape(k) for k in _LABELS if "_" in k or "." in k),
                                               key=len, reverse=True)) + r")\b")
_RANGE = r"(?:an integer )?(?:in )?(\S+) ?\.\. ?(\S+?)"
#: the validators' phrasings, said the way the form would: (pattern, replacement)
_PHRASES = (
    (re.compile(rf"must be {_RANGE}, got ''$"), r"is empty: type a whole number from \1 to \2"),
    (re.compile(rf"must be {_RANGE}, got '(.*)'$"), r"must be a whole number from \1 to \2; you typed '\3'"),
    (re.compile(r"must be (?:an integer )?(?:in )?(\S+?) ?\.\. ?(.+?), got (-?\d+)$"), r"must be from \1 to \2; it is \3"),
    (re.compile(r"unknown strategy ''"), "is empty: choose a player from the list"),
    (re.compile(r"unknown strategy '([^']*)'"), r"unknown player '\1'"),
    (re.compile(r" \(known: [^)]*; or a path to a weighted \.toml file\)"), ""),
)


def _label(field: str) -> str:
    return _LABELS.get(field, field)


def plain_message(field: str, message: str) -> str:
    """A validator's one line said the way the form says it: "hand size: must be a whole number from 1 to
    6; you typed 'abc'" for "rules.hand_size: must be an integer 1..6, got 'abc'"."""
    message = suggest(message)
    m = re.match(r"(?:rules\.([\w.]+)|--(?:strategy|seed)):? ", message)
    if m:  # the validator's own name of the field goes: the form's label comes first
        message = message[m.end():]
    for pattern, words in _PHRASES:
        message = pattern.sub(words, message)
    message = message.replace("2**63-1", "2⁶³−1")
    message = _DOTTED.sub(lambda k: _label(k.group(1)), message)
    named = _label(m.group(1)) if m and m.group(1) else _label(field)
    return f"{named[0].upper()}{named[1:]}: {message}"


def read_question(fields: dict[str, list[str]]) -> Question:
    """The ``Question`` of a filled form (field -> its values, as a query string parses); ``FormError``
    with every bad field's one-line message, and nothing runs."""
    errors = {k: f"unknown field {k!r}" for k in fields if k not in FIELDS}
    block, variants, rule_errors = _rules(fields)
    errors.update(rule_errors)
    vec = rules_vector(block, variants)
    orders, order_errors = _orders(fields, vec, bool(block or variants))
    errors.update(order_errors)
    q = dict(block=block, variants=variants, orders=orders)
    for name, read in (("level", _level), ("seed", _seed)):
        try:
            q[name] = read(fields)
        except FormError as e:
            errors.update(e.errors)
    if errors:
        raise FormError({k: plain_message(k, v) for k, v in errors.items()})
    return Question(**q)


def nested_block(q: Question) -> dict:
    """The change's rules block in the record's nested form (GAME_RECORD.md), for TOML and records."""
    return rules_block(q.rules)
