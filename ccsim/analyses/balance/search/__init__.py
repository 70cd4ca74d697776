"""The balance search: the race over a space's candidates on common deals, the fresh re-measure, the final
candidates and the verdict in words."""
