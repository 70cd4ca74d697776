"""Running games: configurations (``config``), rules blocks (``ruleset``), orderings,
grids of tasks (``grid``), the local and Dask backends (``backends``) and the
cold-start helper (``coldstart``).  Below the analyses, above the strategies."""
