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

FORMAT_IMPORTS = ("import ipaddress", "import re", "import unicodedata", "import idna")

FORMATS = r'''
# format (asserted): each check reads the whole string, ASCII digits only.
_DATE = r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
_TIME = r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))"
_DATE_RE = re.compile(_DATE)
_TIME_RE = re.compile(_TIME)
_DATE_TIME_RE = re.compile(_DATE + "[Tt]" + _TIME)
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _date_ok(year: str, month: str, day: str) -> bool:
    y, m, d = int(year), int(month), int(day)
    if not 1 <= m <= 12:
        return False
    leap = m == 2 and y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    return 1 <= d <= _DAYS[m - 1] + leap


def _time_ok(parts: tuple[str | None, ...]) -> bool:
    hour, minute, second, zone, sign, off_h, off_m = parts
    h, m, s = int(hour or 0), int(minute or 0), int(second or 0)
    if h > 23 or m > 59 or s > 60:
        return False
    offset = 0
    if zone not in ("Z", "z"):
        oh, om = int(off_h or 0), int(off_m or 0)
        if oh > 23 or om > 59:
            return False
        offset = (oh * 60 + om) * (1 if sign == "+" else -1)
    # A leap second is 23:59:60 UTC, whatever the offset says the local time is.
    return s < 60 or (h * 60 + m - offset) % 1440 == 23 * 60 + 59


def _date_time(x: str) -> bool:
    found = _DATE_TIME_RE.fullmatch(x)
    if found is None:
        return False
    year, month, day, *rest = found.groups()
    return _date_ok(year, month, day) and _time_ok(tuple(rest))


def _date(x: str) -> bool:
    found = _DATE_RE.fullmatch(x)
    return found is not None and _date_ok(*found.groups())


def _time(x: str) -> bool:
    found = _TIME_RE.fullmatch(x)
    return found is not None and _time_ok(found.groups())


_DUR_TIME = r"T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"
_DUR_DATE = r"(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)"
_DURATION_RE = re.compile(rf"P(?:{_DUR_DATE}(?:{_DUR_TIME})?|{_DUR_TIME}|[0-9]+W)")
_UUID_RE = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}"
_IPV4_RE = re.compile(_IPV4)
_IPV6_TEXT = re.compile(r"[0-9A-Fa-f:.]+")


def _ipv4(x: str) -> bool:
    return _IPV4_RE.fullmatch(x) is not None


def _ipv6(x: str) -> bool:
    if _IPV6_TEXT.fullmatch(x) is None:  # no zone, no other character
        return False
    if "." in x and _IPV4_RE.fullmatch(x.rpartition(":")[2]) is None:
        return False  # the embedded IPv4 address, as ipv4 reads it
    try:
        ipaddress.IPv6Address(x)
    except ValueError:
        return False
    return True


_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def _hostname(x: str) -> bool:
    """RFC 1123 labels, at most 253 characters; a label with hyphens in its 3rd and 4th
    places is an IDNA2008 A-label (``xn--``) that ``idna`` decodes."""
    if not x or len(x) > 253:
        return False
    for label in x.split("."):
        if _LABEL.fullmatch(label) is None:
            return False
        if label[2:4] == "--":
            if label[:2].lower() != "xn":
                return False
            try:
                idna.decode(label.lower())
            except idna.IDNAError:
                return False
    return True


_DOTS = re.compile("[.\u3002\uff0e\uff61]")


def _idn_hostname(x: str) -> bool:
    """RFC 5890: labels of U-labels and A-labels (any of the four full stops between them),
    as IDNA2008 checks them, at most 253 characters once encoded."""
    if not x or (x.isascii() and not _hostname(x)):
        return False
    labels = _DOTS.split(x)
    if not all(labels):
        return False
    try:
        encoded = idna.encode(".".join(labels))
        # A bidi domain name (a label of right-to-left characters): RFC 5893's rule holds of
        # every label, left-to-right ones too.
        unicode = [idna.decode(label) for label in encoded.split(b".")]
        if any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for u in unicode for c in u):
            for label in unicode:
                idna.check_bidi(label, check_ltr=True)
    except (idna.IDNAError, UnicodeError, ValueError):
        return False
    return len(encoded) <= 253


_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_QUOTED = r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"'
_LOCAL = re.compile(rf"{_ATOM}(?:\.{_ATOM})*|{_QUOTED}")
_IDN_ATOM = r"(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\x00-\x7f])+"
_IDN_QUOTED = r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|[^\x00-\x7f]|\\[\x20-\x7e])*"'
_IDN_LOCAL = re.compile(rf"{_IDN_ATOM}(?:\.{_IDN_ATOM})*|{_IDN_QUOTED}")


def _mailbox(x: str, local: re.Pattern[str], domain: Callable[[str], bool]) -> bool:
    """RFC 5321's Mailbox: a dot-string or quoted local part, ``@``, and a domain or an
    address literal (``[IPv4]``, ``[IPv6:...]``)."""
    name, at, host = x.rpartition("@")
    if not at or local.fullmatch(name) is None:
        return False
    if host.startswith("[") and host.endswith("]"):
        inner = host[1:-1]
        return _ipv6(inner[5:]) if inner[:5].lower() == "ipv6:" else _ipv4(inner)
    return domain(host)


def _email(x: str) -> bool:
    return _mailbox(x, _LOCAL, _hostname)


def _idn_email(x: str) -> bool:
    # RFC 6531 takes a domain as written: one not in Unicode NFC is its NFC form.
    return _mailbox(x, _IDN_LOCAL, lambda host: _idn_hostname(unicodedata.normalize("NFC", host)))


# RFC 3986 (and RFC 3987's IRI, which allows the characters ucschar, iprivate in queries).
_HEX = "[0-9A-Fa-f]"
_PCT = f"%{_HEX}{{2}}"
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_H16 = f"{_HEX}{{1,4}}"
_LS32 = f"(?:{_H16}:{_H16}|{_IPV4})"
_IPV6 = (
    "(?:"
    f"(?:{_H16}:){{6}}{_LS32}"
    f"|::(?:{_H16}:){{5}}{_LS32}"
    f"|(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}"
    f"|(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}"
    f"|(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}"
    f"|(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}"
    f"|(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}"
    f"|(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}"
    f"|(?:(?:{_H16}:){{0,6}}{_H16})?::"
    ")"
)
_IP_LITERAL = rf"\[(?:{_IPV6}|[vV]{_HEX}+\.[{_UNRESERVED}{_SUB_DELIMS}:]+)\]"
_UCS = (
    "\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef\U00010000-\U0001fffd\U00020000-\U0002fffd"
    "\U00030000-\U0003fffd\U00040000-\U0004fffd\U00050000-\U0005fffd\U00060000-\U0006fffd"
    "\U00070000-\U0007fffd\U00080000-\U0008fffd\U00090000-\U0009fffd\U000a0000-\U000afffd"
    "\U000b0000-\U000bfffd\U000c0000-\U000cfffd\U000d0000-\U000dfffd\U000e1000-\U000efffd"
)
_PRIVATE = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"


def _reference(iri: bool) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The absolute form (scheme required) and the reference form of RFC 3986 (RFC 3987)."""
    unreserved = _UNRESERVED + (_UCS if iri else "")
    pchar = f"(?:[{unreserved}{_SUB_DELIMS}:@]|{_PCT})"
    query = f"(?:{pchar}|[/?{_PRIVATE if iri else ''}])*"
    fragment = f"(?:{pchar}|[/?])*"
    userinfo = f"(?:[{unreserved}{_SUB_DELIMS}:]|{_PCT})*"
    reg_name = f"(?:[{unreserved}{_SUB_DELIMS}]|{_PCT})*"
    host = f"(?:{_IP_LITERAL}|{reg_name})"
    authority = f"(?:{userinfo}@)?{host}(?::[0-9]*)?"
    segment = f"{pchar}*"
    segment_nz = f"{pchar}+"
    segment_nz_nc = f"(?:[{unreserved}{_SUB_DELIMS}@]|{_PCT})+"
    abempty = f"(?:/{segment})*"
    absolute = f"/(?:{segment_nz}(?:/{segment})*)?"
    rootless = f"{segment_nz}(?:/{segment})*"
    noscheme = f"{segment_nz_nc}(?:/{segment})*"
    hier = f"(?://{authority}{abempty}|{absolute}|{rootless}|)"
    relative = f"(?://{authority}{abempty}|{absolute}|{noscheme}|)"
    scheme = "[A-Za-z][A-Za-z0-9+.-]*"
    tail = f"(?:\\?{query})?(?:#{fragment})?"
    whole = re.compile(f"{scheme}:{hier}{tail}")
    return whole, re.compile(f"(?:{scheme}:{hier}|{relative}){tail}")


_URI_RE, _URI_REFERENCE_RE = _reference(iri=False)
_IRI_RE, _IRI_REFERENCE_RE = _reference(iri=True)

_VARCHAR = f"(?:[A-Za-z0-9_]|{_PCT})"
_VARSPEC = rf"{_VARCHAR}(?:\.?{_VARCHAR})*(?::[1-9][0-9]{{0,3}}|\*)?"
_EXPRESSION = rf"\{{[+#./;?&=,!@|]?{_VARSPEC}(?:,{_VARSPEC})*\}}"
_LITERAL = (
    "(?:[\\x21\\x23\\x24\\x26\\x27\\x28-\\x3b\\x3d\\x3f-\\x5b\\x5d\\x5f\\x61-\\x7a\\x7e"
    f"{_UCS}{_PRIVATE}]|{_PCT})"
)
_URI_TEMPLATE_RE = re.compile(f"(?:{_LITERAL}|{_EXPRESSION})*")
_JSON_POINTER = "(?:/(?:[^/~]|~[01])*)*"
_JSON_POINTER_RE = re.compile(_JSON_POINTER)
_RELATIVE_POINTER_RE = re.compile(f"(?:0|[1-9][0-9]*)(?:#|{_JSON_POINTER})")


def _regex_format(x: str) -> bool:
    try:
        regress.Regex(x, "u")  # not _regex: a document's strings are not cached
    except regress.RegressError:
        return False
    return True


def _matches(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda x: pattern.fullmatch(x) is not None


_FORMATS: dict[str, Callable[[str], bool]] = {
    "date-time": _date_time,
    "date": _date,
    "time": _time,
    "duration": _matches(_DURATION_RE),
    "uuid": _matches(_UUID_RE),
    "ipv4": _ipv4,
    "ipv6": _ipv6,
    "email": _email,
    "idn-email": _idn_email,
    "hostname": _hostname,
    "idn-hostname": _idn_hostname,
    "uri": _matches(_URI_RE),
    "uri-reference": _matches(_URI_REFERENCE_RE),
    "iri": _matches(_IRI_RE),
    "iri-reference": _matches(_IRI_REFERENCE_RE),
    "uri-template": _matches(_URI_TEMPLATE_RE),
    "json-pointer": _matches(_JSON_POINTER_RE),
    "relative-json-pointer": _matches(_RELATIVE_POINTER_RE),
    "regex": _regex_format,
}


def _format(name: str, x: str) -> bool:
    """Whether the string ``x`` is of the format ``name`` (one the package asserts)."""
    return _FORMATS[name](x)
'''


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


class JsonUUID(UUID):
    """A UUID (format uuid, asserted) that keeps the text it was read from."""

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        super().__init__(text)
        object.__setattr__(self, "text", text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.text,))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return _format_schema(cls, "uuid", UUID)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        return {"type": "string", "format": "uuid"}


class JsonIPv4Address(IPv4Address):
    """An IPv4 address (format ipv4, asserted) that keeps the text it was read from."""

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.text,))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return _format_schema(cls, "ipv4", IPv4Address)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        return {"type": "string", "format": "ipv4"}


class JsonIPv6Address(IPv6Address):
    """An IPv6 address (format ipv6, asserted) that keeps the text it was read from."""

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.text,))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return _format_schema(cls, "ipv6", IPv6Address)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        return {"type": "string", "format": "ipv6"}
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
