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
"""


class CCSimError(ValueError):
    """Input ccsim cannot use: a one-line message (exit status 2 at the command line)."""


class UsageError(CCSimError):
    """A flag, name or value that cannot be used."""


class InputError(CCSimError):
    """A file or record that cannot be used."""
