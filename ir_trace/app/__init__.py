"""The command: argument parsing, the progress bar, the summary line (stands on `ir_trace.api`)."""
