"""The pages' Jinja templates filled in without importing Jinja, when they use only what is understood here.

Importing Jinja2 and compiling a template cost a small dump's cold run ~0.13 s here, for two templates that
only substitute values. The templates stay Jinja's (render.py hands any template this module refuses to
Jinja), and tests/test_page_template.py holds both pages to Jinja's rendering of them (autoescape on,
StrictUndefined, trailing newline kept). Understood:

    {{ name }}        the value, HTML-escaped as Jinja's autoescape (markupsafe) escapes it
    {{ name|safe }}   the value as it is
    {% if name | default("") %} … {% endif %}   the text between when the value is given and true

Anything else in `{{ }}`, `{% %}` or `{# #}` is refused when the template is read (`UnsupportedTemplate`),
and a value the page needs but is not given is an error (`MissingValue`), not an empty string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_TAG = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}|\{#")
_VALUE = re.compile(r"\s*([A-Za-z_]\w*)\s*(\|\s*safe\s*)?")
_IF = re.compile(r"\s*if\s+([A-Za-z_]\w*)\s*\|\s*default\(\s*\"\"\s*\)\s*")
_ENDIF = re.compile(r"\s*endif\s*")
_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;"), ("'", "&#39;"))  # markupsafe's


@dataclass(frozen=True)
class _Value:
    name: str
    safe: bool


@dataclass(frozen=True)
class _If:
    name: str
    body: tuple  # of str, _Value and _If


class UnsupportedTemplate(ValueError):
    """A template uses what this module does not understand: Jinja renders it."""


class MissingValue(ValueError):
    """A value the template shows was not given (Jinja's StrictUndefined refuses it too)."""


def render_template(path: Path, **values: object) -> str:
    """The template at `path` (read and parsed once per path) filled in with `values`."""
    return "".join(_rendered(_parsed(str(path)), values))


@lru_cache(maxsize=8)
def _parsed(path: str) -> tuple:
    text = Path(path).read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as Jinja's lexer
    body, rest = _parts(text, 0, path)
    if rest != len(text):
        raise UnsupportedTemplate(f"{path}: an {{% endif %}} without its {{% if %}}")
    return body


def _parts(text: str, start: int, path: str) -> tuple[tuple, int]:
    """The parts from `start` up to an unmatched {% endif %} (its offset) or the end (len(text))."""
    parts: list = []
    at = start
    for tag in _TAG.finditer(text, start):
        if tag.start() < at:  # inside an {% if %} body already taken
            continue
        parts.append(text[at : tag.start()])
        at = tag.end()
        if tag.group(1) is not None:
            parts.append(_value(tag.group(1), path))
        elif tag.group(2) is not None and _ENDIF.fullmatch(tag.group(2)):
            return tuple(part for part in parts if part != ""), tag.start()
        elif tag.group(2) is not None and (condition := _IF.fullmatch(tag.group(2))):
            body, end = _parts(text, at, path)
            if end == len(text):
                raise UnsupportedTemplate(f"{path}: {{% if {condition.group(1)} %}} without its {{% endif %}}")
            parts.append(_If(condition.group(1), body))
            at = _TAG.match(text, end).end()  # type: ignore[union-attr]  # the {% endif %} found there
        else:
            raise UnsupportedTemplate(f"{path}: not understood here: {tag.group()!r}")
    parts.append(text[at:])
    return tuple(part for part in parts if part != ""), len(text)


def _value(expression: str, path: str) -> _Value:
    match = _VALUE.fullmatch(expression)
    if match is None:
        raise UnsupportedTemplate(f"{path}: not understood here: {{{{{expression}}}}}")
    return _Value(match.group(1), safe=match.group(2) is not None)


def _rendered(parts: tuple, values: dict):
    for part in parts:
        if isinstance(part, str):
            yield part
        elif isinstance(part, _Value):
            if part.name not in values:
                raise MissingValue(f"the page needs {part.name!r}, not given")
            yield str(values[part.name]) if part.safe else escaped(values[part.name])
        elif values.get(part.name, ""):
            yield from _rendered(part.body, values)


def escaped(value: object) -> str:
    """`value` as Jinja's autoescape writes it (markupsafe.escape of a plain value)."""
    text = str(value)
    for char, entity in _ESCAPES:  # "&" first
        text = text.replace(char, entity)
    return text
