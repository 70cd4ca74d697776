"""Presentation: what the doors (the command line, the report, the explore page) make of an
analysis's data for a person or a file: tables written to Parquet, figures drawn.  The analyses
return data frames and dataclasses and import nothing from here (tests/test_layers.py)."""
