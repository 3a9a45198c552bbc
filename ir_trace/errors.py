"""The one domain error type: anything a user can fix, mapped to exit code 1 in `cli.main`."""


class IRTraceError(Exception):
    """A problem with the user's input or environment, reported as one line."""


class DumpError(IRTraceError):
    """The passes_dump/ directory is missing, misnamed or damaged."""


def one_line(message: str) -> str:
    """`message` with its control characters escaped (`\\n`, `\\x1b`): a path holding a newline
    must not split a message in two, nor a file name's escape sequence drive the terminal."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in message)
