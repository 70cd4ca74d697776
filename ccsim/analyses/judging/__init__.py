"""The judge's figure beside every fast one: the judge's store of measurements (``store``), the map that
carries a fast level's effect to the judge's (``effect_map``), the figure a door shows (``figure``), and
settings played at one level on common deals (``play``).  docs/judge.md says it in plain words."""
