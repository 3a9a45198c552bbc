"""`python -m ir_trace`: the same arguments and exit codes as `pypto-ir-trace`."""

import sys

from ir_trace.app.launch import main

if __name__ == "__main__":
    sys.exit(main())
