"""The diff core, pure and without I/O: sequence matching, the line diff of two snapshots, intra-line changes."""
