"""Tables written to files: the one Parquet writer of every command's ``--out``."""
from pathlib import Path

import pandas as pd


def write_parquet(df: pd.DataFrame, path: Path) -> None:
    """``df`` as a Parquet file at ``path``, without its index, and without its ``attrs`` (the run's
    metadata a frame carries in memory goes to summary.json, not into the table's file)."""
    out = df.copy()
    out.attrs = {}
    out.to_parquet(path, index=False)
