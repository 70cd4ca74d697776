"""``ccsim explore``: a local web page where a designer changes a rule or a deck order and sees
the answer while they think (docs/designer.md).

One concept a module: ``form`` reads the page's fields into a ``Question`` with the CLI's own
validators and messages; ``compute`` plays it in chunks on the same deals for the standard and
the changed rules and reports the running figures; ``sample`` narrates one game; ``keep`` writes
the change as TOML and the ``ccsim whatif`` line that reproduces the figures; ``play`` a game of the
form's rules against a level, clicked on the page; ``server`` is the
web application (Starlette, the optional ``explore`` extra) and ``static/`` the page itself.
"""
