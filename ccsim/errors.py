"""One family of errors for what a user gave ccsim that it cannot use.

Every error ccsim raises for bad input is a ``CCSimError`` with a one-line
message; the command line prints it as ``ccsim: error: <message>`` and exits
with status 2.  Two kinds sit under it:

* ``UsageError``: a flag, a name or a value that cannot be used (an unknown
  strategy, ordering or variant, games <= 0, a bad seed, a scheduler that does
  not answer);
* ``InputError``: a file that cannot be used (a config, rules, parameter,
  study or what-if file, a game record).

The modules' own classes (``ConfigError``, ``RecordError``, …) are these
kinds, so a notebook can catch ``CCSimError`` once, or one module's class.
They stay ``ValueError``s, as they always were.

``suggest(message)`` adds the closest known names to a message about an unknown one ("did you mean
`tactician`?"): the command line and the explore page pass every message through it.
"""
import difflib
import re

__all__ = ["CCSimError", "UsageError", "InputError", "suggest"]

#: "unknown strategy 'tactican' ... (known: a, b, c; or ...)" and "ordering 'x': ... nor a preset (a, b)"
_UNKNOWN = (re.compile(r"unknown [\w ]+? '(?P<name>[^']+)'.*?\(known: (?P<known>[^)]*)\)"),
            re.compile(r"ordering '(?P<name>[^']+)'.*?nor a preset \((?P<known>[^)]*)\)"))


def suggest(message: str) -> str:
    """The message with "did you mean `x`?" after the unknown name when a known one is close (difflib);
    the message unchanged when none is, or when it already suggests one."""
    if "did you mean" in message.lower():
        return message
    for pattern in _UNKNOWN:
        m = pattern.search(message)
        if m is None:
            continue
        known = [k.strip() for k in m.group("known").split(";")[0].split(",") if k.strip()]
        close = difflib.get_close_matches(m.group("name"), known, n=2, cutoff=0.6)
        if not close:
            return message
        words = f"did you mean {' or '.join(f'`{c}`' for c in close)}?"
        if pattern is _UNKNOWN[1]:  # an ordering's message goes on to its letters: the guess comes last
            return f"{message}; {words}"
        at = m.start("name") + len(m.group("name")) + 1  # after the name's closing quote
        return f"{message[:at]}: {words}{message[at:]}"
    return message


class CCSimError(ValueError):
    """Input ccsim cannot use: a one-line message (exit status 2 at the command line)."""


class UsageError(CCSimError):
    """A flag, name or value that cannot be used."""


class InputError(CCSimError):
    """A file or record that cannot be used."""
