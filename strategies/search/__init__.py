"""The searches' wing: `expert` (determinized Monte Carlo on the engine) and its parameter files,
`expert-seer` (the search seeing the hidden cards, a measuring device) and the leaf value."""
