"""pypto-ir-trace: one interactive HTML report of what each PyPTO pass changed."""

__version__ = "0.1.0"
