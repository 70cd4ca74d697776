"""The next ring: when nothing of the space is fair at the judge, where to widen (``centre``), its stages
(``stages``: screen, map, race, confirm), played (``run``) inside the search (``widen``)."""
