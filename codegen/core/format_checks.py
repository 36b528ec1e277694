"""The source text of the format checks (:data:`FORMATS`) that a project asserting formats has
written into its package's ``_types`` module: what each format is, by its RFC, as
:mod:`codegen.core.formats` says; that module runs the same text for ``breaking`` and the npm
package, so that every consumer decides a format as the models do.
"""

from __future__ import annotations

__all__ = ["FORMATS", "FORMAT_IMPORTS"]

# What FORMATS imports, written into the module beside it (the package's _types).
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
