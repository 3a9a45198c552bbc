"""The one domain error type: anything a user can fix, mapped to exit code 1 in `cli.main`."""


class IRTraceError(Exception):
    """A problem with the user's input or environment, reported as one line."""


class DumpError(IRTraceError):
    """The passes_dump/ directory is missing, misnamed or damaged."""
