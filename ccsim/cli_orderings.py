"""`ccsim orderings ...`: the action-deck ordering toolkit (compare, search, positions)."""
import click


@click.group("orderings")
def orderings():
    """Compare, search and explain action-deck orderings (R2.2)."""
