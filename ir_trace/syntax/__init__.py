"""The shape of printed IR without parsing it: PyPTO's top-level items, MLIR op lines and symbol ops, functions."""

# Memos keyed by lines (here, in the diff and in the ignore-mode counts) keep no line longer than this: a 100 MB
# `dense<>` line and what was worked out of it would stay for the whole process after its snapshots are gone
# (and its work is linear anyway).
MEMO_LINE_CHARS = 1 << 16
