"""`make bench`: the product's speed measured beside its floor (see run.py)."""
