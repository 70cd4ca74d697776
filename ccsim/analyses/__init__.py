"""What is measured over many games: statistics (``stats``), summaries, designer
metrics, batch runs (``run``), tournaments, what-if rules, ordering studies and the fair-rules search, as
tables (the presentation room draws them).  They use the runner; the report and the command line use them."""
