"""What is measured over many games: statistics (``stats``), summaries, designer
metrics, batch runs (``run``), tournaments, what-if rules, ordering studies and their
plots.  They use the runner; the report and the command line use them."""
