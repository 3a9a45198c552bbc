"""Ignore modes: line normalisers that say which differences a reader wants to look past.

A mode maps a printed line to a key; two lines whose keys are equal count as unchanged
(`git diff -w` asks "what changed besides whitespace?", these ask "besides renaming?").
The page runs the same normalisers (ir_trace/report/assets/normalize.js); tests hold the two to each
other on every real sample. Every scan is linear in the line's length.

Modes, chosen from what PyPTO prints (see README "Ignoring noise"):

- ``ssa``: SSA version suffixes. ConvertToSSA and later passes append
  ``__<kind>_v<N>`` to a name, where kind is lowercase words joined by ``_`` (seen:
  ``ssa``, ``idx``, ``iter``, ``phi``, ``rv``, ``tmp``, ``row_major_tmp``, ``rm_a0_tmp``)
  and N is decimal. The suffix is removed wherever it ends a name or is followed by ``_``
  (``x__ssa_v0`` -> ``x``, ``k0__ssa_v1_3`` -> ``k0_3``). Names a user wrote, such as
  ``k_proj_v1``, have no ``__`` and stay.
- ``memref``: memory annotations. InitMemRef adds a ``pl.MemRef(...)`` argument to tensor
  and tile types; MemoryReuse renames its buffer and AllocateMemoryAddr fills in its offset.
  The argument is removed with its ", " separator, parentheses balanced (strings skipped).
  Memory spaces (``pl.Mem.Vec``) and ``pl.tile.alloc`` statements are kept: they are
  statements and types a pass decides, not annotations of one.
- ``loc``: MLIR source locations, ``loc(...)`` and the ``#loc`` alias table (mlir/normalize.py).
- ``whitespace``: every white-space character is removed (the set JavaScript's ``\\s``
  matches, so both languages agree).
- ``regex``: every match of a custom regular expression is removed (see `CustomRegex`).

On MLIR snapshots (``kind="mlir"``) ``ssa`` removes MLIR's value, block and alias numbering
instead (``%12``, ``^bb2``, ``#map3``: mlir/normalize.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NoReturn

from ir_trace.noise.mlir_normalize import IGNORED_LINE, is_loc_alias_line, loc_spans, mlir_ssa_spans

MODES = ("ssa", "memref", "loc", "whitespace")  # built-in modes; "regex" comes with its pattern
MODE_LABELS = {
    "ssa": "SSA versions",
    "memref": "memory annotations",
    "loc": "locations",
    "whitespace": "whitespace",
    "regex": "regex",
}

# ECMAScript's WhiteSpace and LineTerminator: what `\s` matches in the page.
JS_SPACES = "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" + (
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_DROP_SPACES = {ord(c): None for c in JS_SPACES}
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_MEMREF = "pl.MemRef("

Spans = list[tuple[int, int]]  # sorted, disjoint [start, end) character ranges of a line


def without_spans(line: str, spans: Spans) -> str:
    """`line` with the `spans` (sorted, disjoint) cut out."""
    if not spans:
        return line
    parts, kept = [], 0
    for start, end in spans:
        parts.append(line[kept:start])
        kept = end
    parts.append(line[kept:])
    return "".join(parts)


# ---------- SSA version suffixes ----------


def strip_ssa_versions(line: str) -> str:
    """`line` without its `__<kind>_v<N>` suffixes."""
    return _SSA_SUFFIX.sub("", line) if "__" in line else line


def ssa_version_spans(line: str) -> Spans:
    """[start, end) of each `__<kind>_v<N>` suffix of `line`, in order."""
    if "__" not in line:
        return []
    return [match.span() for match in _SSA_SUFFIX.finditer(line)]


# `__word(_word)*_vN` after a name character, vN ending the name or followed by "_": the first such vN ends it
# (the lazy repeat), so a suffix never swallows the next one. Linear: the words, split at "_", cannot be
# split two ways, and a failed start costs the words up to the next "__" or non-name character.
# (The lookbehind follows the "__", so the search looks for that literal first, at C speed.)
_SSA_SUFFIX = re.compile(r"__(?<=[A-Za-z0-9_]__)(?:[a-z][a-z0-9]*_)+?v[0-9]+(?![A-Za-z0-9])")


# ---------- memory annotations ----------


def strip_memrefs(line: str) -> str:
    """`line` without its `pl.MemRef(...)` arguments (and their ", " separators)."""
    return without_spans(line, memref_spans(line))


def memref_spans(line: str) -> Spans:
    """[start, end) of each `pl.MemRef(...)` argument of `line` with its ", " separator, in order."""
    if _MEMREF not in line:
        return []
    spans, kept, at = [], 0, line.find(_MEMREF)
    while at >= 0:
        if at > 0 and (line[at - 1] in _NAME_CHARS or line[at - 1] == "."):
            at = line.find(_MEMREF, at + 1)
            continue
        close = _closing_paren(line, at + len(_MEMREF))
        if close < 0:
            break  # unbalanced: leave the rest as printed rather than hide text
        start, end = at, close + 1
        if line.startswith(", ", start - 2) and start - 2 >= kept:
            start -= 2
        elif line.startswith(", ", end):
            end += 2
        spans.append((start, end))
        kept = end
        at = line.find(_MEMREF, end)
    return spans


def _closing_paren(line: str, i: int) -> int:
    """Index of the ")" closing a "(" just before `i`; string literals are skipped. -1 if none.
    Each search jumps to the next character that matters (a parenthesis, a quote; in a string its escape or end)."""
    depth, stops = 1, _PAREN_STOPS
    while (found := stops.search(line, i)) is not None:
        c, i = found.group(), found.end()
        if stops is not _PAREN_STOPS:
            if len(c) == 1:  # the closing quote (an escape is two characters)
                stops = _PAREN_STOPS
        elif c in "\"'":
            stops = _STRING_STOPS[c]
        elif c == "(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return i - 1
    return -1


_PAREN_STOPS = re.compile(r"""[()"']""")
_STRING_STOPS = {quote: re.compile(r"\\.|" + quote, re.DOTALL) for quote in "\"'"}


# ---------- MLIR: numbering and locations (mlir/normalize.py finds them) ----------


def strip_mlir_ssa(line: str) -> str:
    """An MLIR line without its value, block and alias numbering."""
    return without_spans(line, mlir_ssa_spans(line))


def strip_locs(line: str) -> str:
    """An MLIR line without its locations; a line of the location alias table keyed as ignored whole
    (IGNORED_LINE before its text: equal table lines still match each other)."""
    return IGNORED_LINE + line if is_loc_alias_line(line) else without_spans(line, loc_spans(line))


# ---------- whitespace ----------


def strip_whitespace(line: str) -> str:
    if line.isascii():  # nearly every line: its bytes translated, several times faster than the characters
        return line.encode("ascii").translate(None, _ASCII_SPACES).decode("ascii")
    return line.translate(_DROP_SPACES)


_ASCII_SPACES = "".join(c for c in JS_SPACES if c.isascii()).encode("ascii")


def whitespace_spans(line: str) -> Spans:
    return [m.span() for m in _SPACE_RUNS.finditer(line)]


# ---------- custom regex ----------


class IgnoreRegexError(ValueError):
    """A custom regex outside the subset both Python and JavaScript read the same way."""


@dataclass(frozen=True)
class CustomRegex:
    """A regular expression whose matches are removed, in the subset both engines agree on.

    The subset (checked by `check_regex`, mirrored in normalize.js): literal characters;
    `.`; classes `[...]` / `[^...]` with ranges; escapes `\\d \\D \\w \\W \\s \\S \\b \\B
    \\t \\n \\r \\f \\v` and an escaped punctuation character `^$\\.*+?()[]{}|/` (and `-` inside
    a class); groups `(...)` and `(?:...)`; alternation `|`; anchors `^ $`; quantifiers
    `* + ? {n} {n,} {n,m}`, each optionally lazy (`?`). Not allowed: backreferences,
    lookaround, named groups, inline flags, and a quantifier on a group that holds a
    quantifier (the shape that backtracks exponentially). Semantics are JavaScript's with the
    `u` flag: `\\w \\d \\b` are ASCII, `\\s` is JS_SPACES, `.` stops at line terminators.
    """

    pattern: str

    def compiled(self) -> re.Pattern:
        return _compile_regex(self.pattern)

    def strip(self, line: str) -> str:
        return self.compiled().sub("", line)

    def spans(self, line: str) -> Spans:
        """The matches `strip` removes (empty ones remove nothing)."""
        return [m.span() for m in self.compiled().finditer(line) if m.end() > m.start()]


_ESCAPABLE = set("^$\\.*+?()[]{}|/")
_CLASS_ESCAPES = {"d", "D", "w", "W", "s", "t", "n", "r", "f", "v"}
_ESCAPES = _CLASS_ESCAPES | {"S", "b", "B"}
_CONTROL = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v"}
_PY_SPACE_CLASS = "".join(f"\\u{ord(c):04x}" for c in JS_SPACES)
_QUANTIFIER = re.compile(r"\{(\d+)(,(\d*))?\}")
_SPACE_RUNS = re.compile(f"[{_PY_SPACE_CLASS}]+")


def check_regex(pattern: str) -> str:
    """The Python translation of `pattern`, or IgnoreRegexError saying what is outside the subset."""
    if not pattern:
        raise IgnoreRegexError("the regex is empty")
    translated = _Translator(pattern).run()
    try:
        re.compile(translated, re.ASCII)
    except re.error as exc:  # e.g. a range out of order
        raise IgnoreRegexError(f"{exc.msg} in {pattern!r}") from None
    return translated


class _Translator:
    """One left-to-right pass over the pattern: validates the subset and writes Python syntax."""

    def __init__(self, pattern: str):
        self.p, self.i = pattern, 0
        self.out: list[str] = []
        # per open group: [start index in out, holds a quantifier, position of its '(' in the pattern]
        self.groups: list[list] = [[0, False, 0]]
        # (start index in out, is a group holding a quantifier) of the last atom
        self.atom: tuple[int, bool] | None = None

    def fail(self, why: str, at: int | None = None) -> NoReturn:
        """Refuse the pattern; `at` (0-based, default: the current index) is shown 1-based."""
        raise IgnoreRegexError(f"{why} at position {(self.i if at is None else at) + 1}")

    def run(self) -> str:
        p = self.p
        while self.i < len(p):
            c = p[self.i]
            if c == "\\":
                self.escape(in_class=False)
            elif c == "[":
                self.char_class()
            elif c == "(":
                self.open_group()
            elif c == ")":
                self.close_group()
            elif c == "|":
                self.out.append("|")
                self.atom = None
                self.i += 1
            elif c in "*+?{":
                self.quantifier()
            elif c in "^$":
                self.out.append(c)
                self.atom = None
                self.i += 1
            elif c in "]}":
                self.fail(f"unescaped '{c}'")
            elif c == ".":
                self.put_atom("[^\\n\\r\\u2028\\u2029]")
                self.i += 1
            else:
                self.put_atom(re.escape(c))
                self.i += 1
        if len(self.groups) > 1:
            self.fail("unclosed '('", at=self.groups[-1][2])
        return "".join(self.out)

    def put_atom(self, text: str, nested: bool = False) -> None:
        self.atom = (len(self.out), nested)
        self.out.append(text)

    def escape(self, in_class: bool) -> str | None:
        p, i = self.p, self.i
        if i + 1 >= len(p):
            self.fail("a trailing '\\'")
        c = p[i + 1]
        self.i += 2
        if c in _ESCAPABLE or (in_class and c == "-"):
            text = "\\" + c
        elif c == "s":
            text = _PY_SPACE_CLASS if in_class else f"[{_PY_SPACE_CLASS}]"
        elif c == "S" and not in_class:
            text = f"[^{_PY_SPACE_CLASS}]"
        elif c in _CONTROL:
            text = "\\" + c
        elif c in _ESCAPES and (not in_class or c in _CLASS_ESCAPES):
            text = "\\" + c
        else:
            self.i = i
            self.fail(f"escape '\\{c}' is not in the supported subset")
        if in_class:
            return text
        if c in "bB":
            self.out.append(text)
            self.atom = None
        else:
            self.put_atom(text)
        return None

    def char_class(self) -> None:
        p = self.p
        start = self.i
        self.i += 1
        parts = ["["]
        if self.i < len(p) and p[self.i] == "^":
            parts.append("^")
            self.i += 1
        items = 0
        while self.i < len(p) and p[self.i] != "]":
            c = p[self.i]
            if c == "\\":
                text = self.escape(in_class=True)
                assert text is not None  # in a class, escape returns its text
                parts.append(text)
            elif c == "[":
                self.fail("'[' inside a class must be escaped")
            else:
                parts.append("-" if c == "-" else re.escape(c))  # a range in both engines, or literal at an end
                self.i += 1
            items += 1
        if self.i >= len(p):
            self.i = start
            self.fail("unclosed '['")
        if not items:
            self.fail("an empty class", at=start)
        self.i += 1
        parts.append("]")
        self.put_atom("".join(parts))

    def open_group(self) -> None:
        p, start = self.p, self.i
        if p.startswith("(?:", self.i):
            self.out.append("(?:")
            self.i += 3
        elif p.startswith("(?", self.i):
            self.fail("lookaround, named groups and inline flags are not supported")
        else:
            self.out.append("(")
            self.i += 1
        self.groups.append([len(self.out) - 1, False, start])
        self.atom = None

    def close_group(self) -> None:
        if len(self.groups) == 1:
            self.fail("unbalanced ')'")
        start, holds_quantifier, _ = self.groups.pop()
        self.groups[-1][1] = self.groups[-1][1] or holds_quantifier
        self.out.append(")")
        self.i += 1
        self.atom = (start, holds_quantifier)

    def quantifier(self) -> None:
        p, start = self.p, self.i
        if self.atom is None:
            self.fail("nothing to repeat")
        if p[self.i] == "{":
            match = _QUANTIFIER.match(p, self.i)
            if match is None:
                self.fail("unescaped '{' (write '\\{' for the character)")
            low, high = int(match[1]), match[3]
            if high and int(high) < low:
                self.fail("numbers out of order in {n,m}")
            text, self.i = match[0], match.end()
        else:
            text, self.i = p[self.i], self.i + 1
        if self.i < len(p) and p[self.i] == "?":
            text += "?"
            self.i += 1
        if self.atom[1]:
            self.fail("a quantifier on a group that holds a quantifier (it can take exponential time)", at=start)
        if self.i < len(p) and p[self.i] in "*+?{":
            self.fail("nothing to repeat")
        self.out.append(text)
        self.groups[-1][1] = True
        self.atom = None


_compiled_cache: dict[str, re.Pattern] = {}


def _compile_regex(pattern: str) -> re.Pattern:
    if pattern not in _compiled_cache:
        _compiled_cache[pattern] = re.compile(check_regex(pattern), re.ASCII)
    return _compiled_cache[pattern]


# ---------- modes together ----------


@dataclass(frozen=True)
class IgnoreModes:
    """The modes in effect: a set of built-in mode names and an optional custom regex."""

    modes: frozenset[str] = frozenset()
    regex: str | None = None

    @classmethod
    def parse(cls, names: str | Iterable[str] = "", regex: str | None = None) -> IgnoreModes:
        """From "ssa,memref" (or a list of names) and a regex; ValueError names the bad part."""
        items = names.split(",") if isinstance(names, str) else list(names)
        modes = set()
        for item in (name.strip() for name in items):
            if not item:
                continue
            if item not in MODES:
                raise ValueError(f"unknown ignore mode {item!r} (choose from {', '.join(MODES)})")
            modes.add(item)
        if regex is not None:
            check_regex(regex)
        return cls(frozenset(modes), regex or None)

    @classmethod
    def from_spec(cls, spec: str) -> IgnoreModes:
        """The inverse of `spec()` (a regex may hold "|"; mode names never do)."""
        names, bar, regex = spec.partition("|")
        return cls.parse(names, regex if bar else None)

    def __bool__(self) -> bool:
        return bool(self.modes) or self.regex is not None

    @property
    def names(self) -> list[str]:
        """Mode names in a fixed order, "regex" last when a custom regex is on."""
        return [m for m in MODES if m in self.modes] + (["regex"] if self.regex else [])

    def spec(self) -> str:
        """A stable text form for cache keys and fingerprints."""
        return ",".join(m for m in MODES if m in self.modes) + ("|" + self.regex if self.regex else "")

    def to_json(self) -> dict | None:
        """The payload's and the summary's form; None when no mode is on."""
        return {"modes": [m for m in MODES if m in self.modes], "regex": self.regex} if self else None

    @classmethod
    def from_json(cls, data: dict | None) -> IgnoreModes:
        return cls.parse(data["modes"], data.get("regex")) if data else cls()

    def describe(self) -> str:
        """Human words: "SSA versions and memory annotations"."""
        words = [MODE_LABELS[m] for m in self.names]
        return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]

    def steps(self, kind: str) -> list[tuple[Callable[[str], str], Callable[[str], Spans]]]:
        """(strip, spans) per mode on for snapshots printed as `kind` ("pypto" or "mlir").
        Order: the custom regex sees the printed text; whitespace goes last."""
        steps: list[tuple[Callable[[str], str], Callable[[str], Spans]]] = []
        if self.regex:
            custom = CustomRegex(self.regex)
            steps.append((custom.strip, custom.spans))
        if "memref" in self.modes:
            steps.append((strip_memrefs, memref_spans))
        if "loc" in self.modes:
            steps.append((strip_locs, loc_spans))
        if "ssa" in self.modes:
            steps.append(
                (strip_mlir_ssa, mlir_ssa_spans) if kind == "mlir" else (strip_ssa_versions, ssa_version_spans)
            )
        if "whitespace" in self.modes:
            steps.append((strip_whitespace, whitespace_spans))
        return steps

    def strips(self, kind: str = "pypto") -> list[Callable[[str], str]]:
        """The modes' steps in the order they run: a line's key is the last one's output."""
        return [strip for strip, _spans in self.steps(kind)]

    def normaliser(self, kind: str = "pypto") -> Callable[[str], str]:
        """line -> key, for lines printed as `kind`. The key of a line a mode ignores whole starts with
        IGNORED_LINE (the diff counts a change made only of such lines as none)."""
        strips = self.strips(kind)

        def key(line: str) -> str:
            for strip in strips:
                line = strip(line)
            return line

        return key

    def kept_pieces(self, kind: str = "pypto") -> Callable[[str], Spans | None]:
        """line -> the [start, end) pieces of it that its key is made of (the key is their
        concatenation), or None when the modes remove nothing from it. Lets the emphasis of
        an edited line skip what the modes ignore while still pointing into the printed text."""
        finders = [spans for _strip, spans in self.steps(kind)]

        def pieces(line: str) -> Spans | None:
            kept, text = None, line
            for find in finders:
                spans = find(text)
                if spans:
                    kept = _cut_pieces([(0, len(line))] if kept is None else kept, spans)
                    text = without_spans(text, spans)
            return kept

        return pieces


def _cut_pieces(pieces: Spans, spans: Spans) -> Spans:
    """`pieces` of a line (whose concatenation is a text) minus `spans` of that text: one merge."""
    out, k, at = [], 0, 0  # at: where the current piece starts in the text
    for start, end in pieces:
        top = at + end - start
        cur = at
        while k < len(spans) and spans[k][0] < top:
            s, e = spans[k]
            if s > cur:
                out.append((start + cur - at, start + s - at))
            cur = max(cur, min(e, top))
            if e > top:
                break  # the span goes on into the next piece
            k += 1
        if cur < top:
            out.append((start + cur - at, end))
        at = top
    return out


def untouched_without(strip: Callable[[str], str]) -> str | None:
    """A text that `strip` leaves every line without as it is (so a caller need not call it there), if any."""
    return _NEEDED.get(strip)


_NEEDED: dict[Callable[[str], str], str] = {strip_ssa_versions: "__", strip_memrefs: _MEMREF}


def line_key(modes: IgnoreModes, memo: dict[str, str] | None = None, kind: str = "pypto") -> Callable[[str], str]:
    """The modes' normaliser, remembering each line's key in `memo` (for diff's `line_key`)."""
    return remembered(modes.normaliser(kind), {} if memo is None else memo)


def remembered(function: Callable[[str], str], memo: dict[str, str]) -> Callable[[str], str]:
    """`function`, its output for each text kept in `memo` (lines repeat across a run's snapshots)."""

    def call(text: str) -> str:
        value = memo.get(text)
        if value is None:
            value = memo[text] = function(text)
        return value

    return call


def line_pieces(modes: IgnoreModes, memo: dict | None = None, kind: str = "pypto") -> Callable[[str], Spans | None]:
    """The modes' `kept_pieces`, remembered per line in `memo` (for diff's `line_pieces`)."""
    pieces = modes.kept_pieces(kind)
    memo = {} if memo is None else memo

    def memoised(line: str) -> Spans | None:
        if line not in memo:
            memo[line] = pieces(line)
        return memo[line]

    return memoised


def normalise_lines(
    lines: list[str], modes: IgnoreModes, memo: dict[str, str] | None = None, kind: str = "pypto"
) -> list[str]:
    """Keys of `lines` under `modes`; `memo` shares work across snapshots (most lines repeat)."""
    if not modes:
        return list(lines)
    key = modes.normaliser(kind)
    memo = {} if memo is None else memo
    out = []
    for line in lines:
        value = memo.get(line)
        if value is None:
            value = memo[line] = key(line)
        out.append(value)
    return out
