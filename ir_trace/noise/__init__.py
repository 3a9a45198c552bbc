"""The ignore modes: normalisers of the differences a reader looks past (ssa, memref, loc, whitespace, regex)."""
