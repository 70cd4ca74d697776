"""Publishing a balance search: the resumable folder, the skill curve and the one answer from every setting
measured at the judge (``answer``; ``python -m ccsim.analyses.balance.publish DIR`` rewrites a folder's)."""
