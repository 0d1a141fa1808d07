"""Custom_id formats, each declared once: one ``CustomId`` builds the ids and parses them.

A format is literal text with fields in braces, such as
``CustomId("tuque:act:{game:id}:{seq:int}:{action:int}")``. A field is one of:

=====================  ===========================================================
``{name:id}``          a row id or a snowflake, 1 to 2**63 - 1, parsed to an ``int``
``{name:int}``         a count or an index, 0 to 2**63 - 1, parsed to an ``int``
``{name:word}``        lower-case letters, digits and ``_``, a ``str`` its handler checks
``{name:a|b|c}``       one of the words listed, a ``str``
=====================  ===========================================================

Numbers are decimal without leading zeros, so each set of fields has exactly one id:
:attr:`CustomId.pattern` matches the ids :meth:`CustomId.build` gives and no other
spelling, and :meth:`CustomId.parse` is ``build`` undone. The one thing a regular
expression does not bound is a number's size, so ``parse`` refuses a number out of
range that ``pattern`` lets through.

No library does this: ``parse`` (PyPI) parses ``format()``-like strings, but its
regular expression is private, its ``d`` also reads signs, ``0x`` and ``_``, and
it matches case-insensitively by default; a DynamicItem needs the exact expression.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["MAX_LENGTH", "CustomId", "Fields"]

MAX_LENGTH = 100
"""Discord's limit of a custom_id's length."""

Fields = dict[str, int | str]
"""An id's fields by name: an ``int`` for ``id`` and ``int`` fields, else a ``str``."""

_FIELD = re.compile(r"\{(\w+):([^{}]+)\}")
_NUMBERS = {
    "id": ("[1-9][0-9]*", range(1, 2**63)),  # SQLite's rowids and Discord's snowflakes
    "int": ("0|[1-9][0-9]*", range(2**63)),
}
_WORD = "[a-z0-9_]+"
_WORD_CHAR = re.compile("[a-z0-9_]")


def _word_check(kind: str) -> Callable[[str], bool]:
    """Whether a value fits a ``word`` field, or a field of the words ``kind`` lists."""
    if kind == "word":
        word = re.compile(_WORD)
        return lambda value: word.fullmatch(value) is not None
    return frozenset(kind.split("|")).__contains__


class CustomId:
    """One kind of custom_id, from its format (see the module's table).

    Raises ``ValueError`` for a field of an unknown type, a name used twice, or a
    brace outside a field.
    """

    def __init__(self, format: str) -> None:
        self.format = format
        self.types: dict[str, type[int] | type[str]] = {}
        """Each field's name and the type :meth:`parse` gives it, in the format's order."""
        self._ranges: dict[str, range] = {}
        expression, end = "", 0
        for field in _FIELD.finditer(format):
            name, kind = field.groups()
            if name in self.types:
                raise ValueError(f"{format!r} names {name!r} twice")
            expression += _literal(format, format[end : field.start()])
            if kind in _NUMBERS:
                choices, self._ranges[name] = _NUMBERS[kind]
            elif kind == "word" or re.fullmatch(rf"{_WORD}(\|{_WORD})+", kind):
                choices = _WORD if kind == "word" else kind
            else:
                raise ValueError(f"{format!r}: {name!r} has no type this module knows: {kind!r}")
            self.types[name] = int if kind in _NUMBERS else str
            expression += f"(?P<{name}>{choices})"
            end = field.end()
        expression += _literal(format, format[end:])
        self.pattern = re.compile(rf"(?=.{{1,{MAX_LENGTH}}}\Z){expression}")
        """Matches (``fullmatch``) exactly the ids of this format, with a group per field
        named as the field: a DynamicItem's ``template``."""
        # build() checks each field alone and fills in a template, where every field
        # ends the format or is followed by a character no field holds: only then does
        # an id split into its fields in one way (else it parses what it built, to see).
        self._template = _FIELD.sub(lambda field: "{" + field[1] + "}", format)
        self._values = {
            name: _word_check(kind) for name, kind in _FIELD.findall(format) if kind not in _NUMBERS
        }
        self._split_once = all(
            field.end() == len(format)
            or not (format[field.end()] == "{" or _WORD_CHAR.match(format, field.end()))
            for field in _FIELD.finditer(format)
        )

    def build(self, **fields: int | str) -> str:
        """The id of ``fields`` (each of the format's fields, typed as :attr:`types`).

        Raises ``ValueError`` for a field missing or unknown, a value its field does
        not take (a number out of range, a word not listed, an ``int`` for a ``str``),
        or an id longer than :data:`MAX_LENGTH`.
        """
        if fields.keys() != self.types.keys():
            raise ValueError(f"{self.format!r} takes {list(self.types)}, not {list(fields)}")
        if not self._split_once:
            built = self._template.format_map(fields)
            if self.parse(built) != fields:
                raise ValueError(f"{fields} make no id of {self.format!r}")
            return built
        for name, value in fields.items():
            numbers = self._ranges.get(name)
            if numbers is not None:
                fits = type(value) is int and value in numbers
            else:
                fits = type(value) is str and self._values[name](value)
            if not fits:
                raise ValueError(f"{fields} make no id of {self.format!r}")
        built = self._template.format_map(fields)
        if len(built) > MAX_LENGTH:
            raise ValueError(f"{fields} make an id longer than {MAX_LENGTH}: {built!r}")
        return built

    def parse(self, custom_id: str) -> Fields | None:
        """The fields of ``custom_id``, or None if it is not an id of this format."""
        match = self.pattern.fullmatch(custom_id)
        if match is None:
            return None
        fields: Fields = {name: kind(match[name]) for name, kind in self.types.items()}
        if any(fields[name] not in numbers for name, numbers in self._ranges.items()):
            return None
        return fields


def _literal(format: str, text: str) -> str:
    if "{" in text or "}" in text:
        raise ValueError(f"{format!r}: a brace outside a field in {text!r}")
    return re.escape(text)
