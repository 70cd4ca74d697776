"""The heuristics' wing: the baselines (`random`, `greedy`), the weighted policy and its styles
(``styles``: the ``weighted`` and ``heuristic`` parameter files), and the tables and features
they read (``layouts``, ``features``, ``tables``, ``scoring``, ``twists``)."""
