"""Running games: configurations (``config``), rules blocks (``ruleset``), orderings,
grids of tasks (``grid``), the local and Dask backends (``backends``), the
cold-start helper (``coldstart``) and the setting aside of finished work that
cannot be read back (``damaged``).  Below the analyses, above the strategies."""
