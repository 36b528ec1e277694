"""The ``format`` checks of a project that asserts formats: the models', ``breaking``'s, npm's.

``[tool.maverick-codegen] formats = "assert"`` makes ``format`` a validation keyword: a string
that is not of its format is refused (a value of another JSON type is not a string and passes,
as the specification says). :data:`FORMATS` is the source text of ``_format(name, x)`` and the
check of each format behind it, written into the package's ``_types`` module in that mode only
(the package of a project that annotates stays as it is); :data:`ASSERTED` names the formats it
decides. Each check follows the grammar its RFC gives, as JSON-Schema-Test-Suite's optional
format tests read it (``tests/test_json_schema_formats.py`` runs them all through generated
models): RFC 3339 for ``date-time``, ``date``, ``time`` (an offset required, ``T`` and ``Z`` in
either case, a leap second only at 23:59:60 UTC) and ``duration`` (its appendix A: whole
numbers, no sign, weeks alone); RFC 4122 ``uuid`` (hyphenated hex); RFC 2673 dotted-quad
``ipv4`` (no leading zero) and RFC 4291 ``ipv6`` (no zone); RFC 5321 ``email``; RFC 1123
``hostname`` whose ``xn--`` labels are IDNA2008 A-labels, and RFC 5890 ``idn-hostname`` and RFC
6531 ``idn-email`` (both through the ``idna`` package: IDNA2008 with its contextual and bidi
rules); RFC 3986 ``uri`` and ``uri-reference``, RFC 3987 ``iri`` and ``iri-reference``; RFC
6570 ``uri-template`` (an apostrophe in a literal allowed, as the suite says); RFC 6901
``json-pointer`` and its relative form; ECMA-262 ``regex`` (``regress``, the ``u`` flag, as
``pattern`` is read). Every check matches the whole string
(a trailing newline is no part of any format) and reads ASCII digits only.

The libraries python-jsonschema's FormatChecker uses (rfc3339-validator, fqdn, rfc3987,
uri-template, isoduration...) were measured against the same tests and disagree with 91 of the
764 cases of 2020-12 (leap seconds, durations, trailing newlines, IDNA contextual rules,
embedded IPv4 with a leading zero...): the grammars are written here, and ``idna`` (exact on
those tests) decides what IDNA2008 says.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from codegen.core.format_checks import FORMAT_IMPORTS, FORMATS

__all__ = [
    "ASSERTED",
    "FORMATS",
    "FORMAT_IMPORTS",
    "FORMAT_TYPES",
    "FORMAT_TYPE_IMPORTS",
    "format_check",
    "format_examples",
    "regular_formats",
]

# Every format the checks decide: every format the specification defines (draft-04 to 2020-12).
# Asserting any other is refused at generate time (it would pass every string).
ASSERTED = frozenset({
    "date-time", "date", "time", "duration", "uuid", "ipv4", "ipv6", "email", "idn-email",
    "hostname", "idn-hostname", "uri", "uri-reference", "iri", "iri-reference", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
})  # fmt: skip

# The types of the asserted formats whose Python type holds every valid string (uuid, ipv4,
# ipv6), written into the package's _types module after FORMATS (formats = "assert" only): each
# a subclass of Python's type that checks the string with _format first, keeps it, and dumps it
# back as it was (JSON mode), so that no check reads a rewritten value (an upper-case UUID, an
# IPv6 address not in its shortest form) and a dump is the document that was read.
FORMAT_TYPES = r'''

def _format_schema(cls: Any, name: str, plain: type) -> core_schema.CoreSchema:
    """A string of format ``name`` as ``cls`` (its text kept), or an instance of ``plain``
    (Python mode), dumped in JSON mode as its text."""

    def validate(value: Any) -> Any:
        if type(value) is str:
            if not _format(name, value):
                raise PydanticCustomError("format", f"the string is not of the format {name}")
            return cls(value)
        if isinstance(value, cls):
            return value
        if isinstance(value, plain):
            return cls(str(value))
        raise PydanticCustomError("format", f"format {name}: the value must be a string")

    return core_schema.no_info_plain_validator_function(
        validate,
        serialization=core_schema.plain_serializer_function_ser_schema(
            lambda value: value.text, when_used="json"
        ),
    )


class _KeptText:
    """A value of an asserted format read from a string, which it keeps and dumps back."""

    __slots__ = ()
    text: str
    format_name: str  # the format, and the Python type of its values (Python mode)
    plain: type

    def __init__(self, text: str) -> None:
        super().__init__(text)  # type: ignore[call-arg]
        object.__setattr__(self, "text", text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.text,))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return _format_schema(cls, cls.format_name, cls.plain)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        return {"type": "string", "format": cls.format_name}


class JsonUUID(_KeptText, UUID):
    """A UUID (format uuid, asserted) that keeps the text it was read from."""

    __slots__ = ("text",)
    format_name, plain = "uuid", UUID


class JsonIPv4Address(_KeptText, IPv4Address):
    """An IPv4 address (format ipv4, asserted) that keeps the text it was read from."""

    __slots__ = ("text",)
    format_name, plain = "ipv4", IPv4Address


class JsonIPv6Address(_KeptText, IPv6Address):
    """An IPv6 address (format ipv6, asserted) that keeps the text it was read from."""

    __slots__ = ("text",)
    format_name, plain = "ipv6", IPv6Address
'''
# What FORMAT_TYPES takes from the module it is written into, besides FORMATS.
FORMAT_TYPE_IMPORTS = (
    "from ipaddress import IPv4Address, IPv6Address",
    "from uuid import UUID",
    "from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler",
    "from pydantic_core import PydanticCustomError, core_schema",
)


@functools.cache
def _namespace() -> dict[str, Any]:
    """:data:`FORMATS` run once (for the checks of this package that judge a value as the
    generated models do)."""
    namespace: dict[str, Any] = {}
    # What the text takes from the module it is written into (the package's _types).
    given = ("from collections.abc import Callable", "import regress")
    exec("\n".join((*given, *FORMAT_IMPORTS)) + "\n" + FORMATS, namespace)
    return namespace


# A string of each format (breaking's witnesses); the strings outside a format are those of the
# others that are not of it, a control character (no format takes one) and "(" (no regex).
_EXAMPLES = {
    "date-time": "1970-01-01T00:00:00Z", "date": "1970-01-01", "time": "00:00:00Z",
    "duration": "P1D", "uuid": "00000000-0000-0000-0000-000000000000", "ipv4": "127.0.0.1",
    "ipv6": "::1", "email": "a@example.com", "idn-email": "a@example.com",
    "hostname": "example.com", "idn-hostname": "example.com", "uri": "https://example.com/",
    "uri-reference": "https://example.com/", "iri": "https://example.com/",
    "iri-reference": "https://example.com/", "uri-template": "https://example.com/{id}",
    "json-pointer": "/a", "relative-json-pointer": "0", "regex": "a",
}  # fmt: skip


def format_examples(name: str, *, inside: bool) -> tuple[str, ...]:
    """A string of the format ``name`` (``inside``), or the strings known not to be of it:
    what ``breaking`` shows where a witness must hold (or break) an asserted format."""
    if inside:
        return (_EXAMPLES[name],)
    check = format_check()
    known = sorted({*_EXAMPLES.values(), "\x00", "("})
    return tuple(text for text in known if not check(name, text))


def format_check() -> Callable[[str, str], bool]:
    """``_format(name, x)``: whether the string ``x`` is of the format ``name``, as the
    generated models decide (``breaking``'s engine judges with it)."""
    check = _namespace()["_format"]
    return lambda name, x: bool(check(name, x))


# The formats whose check is one regular expression over the whole string, by the name of the
# pattern in FORMATS: the npm package's validators use the same grammar (read by ECMA-262 with
# the u flag, as written here: no construct of Python's own).
_REGULAR = {"duration": "_DURATION_RE", "uuid": "_UUID_RE", "uri": "_URI_RE",
            "uri-reference": "_URI_REFERENCE_RE", "iri": "_IRI_RE",
            "iri-reference": "_IRI_REFERENCE_RE", "uri-template": "_URI_TEMPLATE_RE",
            "json-pointer": "_JSON_POINTER_RE",
            "relative-json-pointer": "_RELATIVE_POINTER_RE"}  # fmt: skip


def regular_formats() -> dict[str, str]:
    """The source of the regular expression of each format :data:`_REGULAR` names, and of the
    date and time parts that ``date-time`` reads (``_DATE``, ``_TIME``)."""
    namespace = _namespace()
    found = {name: namespace[pattern].pattern for name, pattern in _REGULAR.items()}
    return {**found, "_DATE": namespace["_DATE"], "_TIME": namespace["_TIME"]}
