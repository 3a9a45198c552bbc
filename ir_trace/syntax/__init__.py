"""The shape of printed IR without parsing it: PyPTO's top-level items, MLIR op lines and symbol ops, functions."""
