"""Ordering studies (``ccsim orderings``, docs/orderings.md): which action-deck orderings play
best, and why.  ``study`` is the door (compare, search, positions); ``matchup`` plays a study's
games, ``search`` and ``positions`` are the second and third studies."""
