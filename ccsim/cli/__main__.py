"""``python -m ccsim.cli``: the ``ccsim`` command."""
from ccsim.cli import entry

entry()
