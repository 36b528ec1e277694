"""What generated models say, counted from their modules' syntax (never imported): shared by
``bench/bench_typed.py`` and ``tests/test_corpus.py``.

* ``fields``: every annotated field of a model class (``model_config`` and ``ClassVar`` aside),
  a root model's ``root`` included;
* ``vague``: a field whose type, ``Annotated``, ``None`` and ``MISSING`` set aside, holds ``Any``
  (or ``object``) in its union, or is only ``dict[str, Any]``, ``list[Any]`` (or an
  unparameterised ``dict`` or ``list``): a ``RootModel[Any]`` is one, a union of a class and
  ``list[Any]`` is not;
* ``typed``: the others;
* ``classes``: model classes (``Enum`` classes apart), ``enums``: the ``Enum`` classes;
* ``enum/Literal/format``: fields whose type names a ``Literal``, an ``Enum`` class or a format
  type (``datetime``, ``date``, ``time``, ``timedelta``, ``UUID``, the address and URL types).
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections import Counter

ENUM_BASES = {"Enum", "StrEnum", "IntEnum"}
FORMAT_TYPES = {
    "datetime", "date", "time", "timedelta", "UUID", "UUID1", "UUID3", "UUID4", "UUID5",
    "AwareDatetime", "NaiveDatetime", "AnyUrl", "AnyHttpUrl", "HttpUrl", "EmailStr",
    "NameEmail", "IPv4Address", "IPv6Address", "IPvAnyAddress", "IPv4Network", "IPv6Network",
    "IPvAnyNetwork", "IPv4Interface", "IPv6Interface", "IPvAnyInterface", "FileUrl",
    "AnyUrlStr", "Base64Str", "Base64Bytes",
}  # fmt: skip
VAGUE_NAMES = {"Any", "object"}
CONTAINERS = {"dict", "Dict", "Mapping", "list", "List", "Sequence"}
NOTHING = {"None", "MISSING", "MissingType"}


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _members(node: ast.AST) -> list[ast.AST]:
    """The members of a type, ``Annotated``, ``Optional``, unions and nothing set aside."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return [node]
    if isinstance(node, ast.Constant) and node.value is None:
        return []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _members(node.left) + _members(node.right)
    if isinstance(node, ast.Subscript):
        head = _name(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head == "Annotated":
            return _members(args[0])
        if head in ("Optional", "Union"):
            return [m for a in args for m in _members(a)]
    if _name(node) in NOTHING:
        return []
    return [node]


def _vague(members: list[ast.AST]) -> bool:
    """Whether a type says nothing: ``Any`` (or ``object``) among its members, or only
    containers of anything (``dict[str, Any]``, ``list[Any]``, ``dict``, ``list``). A union of
    a class and ``list[Any]`` says something."""
    if not members or any(_name(m) in VAGUE_NAMES for m in members):
        return True
    return all(_any_container(m) for m in members)


def _any_container(member: ast.AST) -> bool:
    if _name(member) in CONTAINERS:
        return True
    if isinstance(member, ast.Subscript) and _name(member.value) in CONTAINERS:
        args = member.slice.elts if isinstance(member.slice, ast.Tuple) else [member.slice]
        inner = _members(args[-1])
        return not inner or any(_name(m) in VAGUE_NAMES for m in inner)
    return False


def _specific(annotation: ast.AST, enums: set[str]) -> bool:
    """Whether a type names a Literal, an Enum class or a format type."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            with contextlib.suppress(SyntaxError):
                if _specific(ast.parse(node.value, mode="eval").body, enums):
                    return True
        name = _name(node)
        if name == "Literal" or name in enums or name in FORMAT_TYPES:
            return True
    return False


def count_modules(texts: list[str]) -> Counter[str]:
    """The counts of the modules ``texts`` (see the module's docstring)."""
    trees = [ast.parse(text) for text in texts]
    classes = [n for t in trees for n in t.body if isinstance(n, ast.ClassDef)]
    enums = {c.name for c in classes if any(_name(b) in ENUM_BASES for b in c.bases)}
    counts: Counter[str] = Counter(enums=len(enums))
    for cls in classes:
        if cls.name in enums:
            continue
        counts["classes"] += 1
        fields = [
            n
            for n in cls.body
            if isinstance(n, ast.AnnAssign)
            and isinstance(n.target, ast.Name)
            and n.target.id != "model_config"
            and "ClassVar" not in ast.dump(n.annotation)
        ]
        if not fields:  # a root model without its own ``root`` line: the base's parameter
            for base in cls.bases:
                if isinstance(base, ast.Subscript) and _name(base.value) == "RootModel":
                    fields.append(ast.AnnAssign(ast.Name("root"), base.slice, None, 1))
        for field in fields:
            counts["fields"] += 1
            if _vague(_members(field.annotation)):
                counts["vague"] += 1
                continue
            counts["typed"] += 1
            counts["enum/Literal/format"] += _specific(field.annotation, enums)
    return counts


# ------------------------------------------------------------------------------- TypeScript
# What TypeScript declarations say, counted from their text: every property signature of a type
# literal or interface (``name?: T;``), and of those the vague ones: a type with ``unknown``
# (or ``any``) among the members of its union (``null`` and ``undefined`` set aside), or only
# containers of it (``unknown[]``, ``Array<unknown>``, ``{ [k: string]: unknown }``), as above;
# a name declared as such a type (``type Nodeset = unknown;``, ``interface Vars { [k: string]:
# unknown; }``) is one too.
_TOKEN = re.compile(
    r"""\s*(?:(?P<comment>/\*.*?\*/|//[^\n]*)|(?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')"""
    r"""|(?P<word>[A-Za-z_$][\w$]*|\d[\w.]*)|(?P<punct>=>|\.\.\.|[^\s\w]))""",
    re.DOTALL,
)
_OPEN, _CLOSE = {"{": "}", "(": ")", "[": "]", "<": ">"}, {"}", ")", "]", ">"}
_TS_VAGUE = {"unknown", "any"}
_TS_NOTHING = {"null", "undefined"}


def _tokens(text: str) -> list[str]:
    found = []
    for match in _TOKEN.finditer(text):
        if match.group("comment") is None and match.lastgroup is not None:
            found.append(match.group(match.lastgroup))
    return found


def _split(tokens: list[str], separator: str) -> list[list[str]]:
    """``tokens`` split at ``separator`` outside brackets (empty parts dropped)."""
    parts: list[list[str]] = [[]]
    depth = 0
    for token in tokens:
        if token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth -= 1
        if token == separator and depth == 0:
            parts.append([])
        else:
            parts[-1].append(token)
    return [p for p in parts if p]


def _ts_members(tokens: list[str]) -> list[list[str]]:
    """The members of a type's union, parentheses and ``null``/``undefined`` set aside."""
    members = []
    for part in _split(tokens, "|"):
        bare = part
        while bare[0] == "(" and bare[-1] == ")" and _split(bare[1:-1], "|") and _closes(bare):
            bare = bare[1:-1]
        if len(_split(bare, "|")) > 1:
            members += _ts_members(bare)
        elif bare not in ([n] for n in _TS_NOTHING):
            members.append(bare)
    return members


def _closes(part: list[str]) -> bool:
    """Whether the first token of ``part`` (an opening bracket) is closed by its last."""
    depth = 0
    for index, token in enumerate(part):
        depth += token in _OPEN
        depth -= token in _CLOSE
        if depth == 0:
            return index == len(part) - 1
    return False


def _anything(members: list[list[str]], names: frozenset[str]) -> bool:
    """Whether a union's members hold ``unknown`` (``any``, or a type named so)."""
    return not members or any(len(m) == 1 and (m[0] in _TS_VAGUE or m[0] in names) for m in members)


def _ts_vague_container(member: list[str], names: frozenset[str]) -> bool:
    if member[-2:] == ["[", "]"]:
        return _anything(_ts_members(member[:-2]), names)
    if member[:2] in (["Array", "<"], ["Record", "<"]) and member[-1] == ">":
        return _anything(_ts_members(_split(member[2:-1], ",")[-1]), names)
    if member[0] == "{" and member[-1] == "}":
        body = [m for m in _split(member[1:-1], ";") if m]
        if not body:
            return True
        if len(body) == 1 and body[0][0] == "[":
            return _anything(_ts_members(_split(body[0], ":")[-1]), names)
    return len(member) == 1 and member[0] in names


def ts_vague(tokens: list[str], names: frozenset[str] = frozenset()) -> bool:
    """Whether a TypeScript type (its tokens) says nothing (see above); ``names``: the types
    declared so (``type Jobs = unknown[];``, an interface of an index signature only)."""
    members = _ts_members(tokens)
    if _anything(members, names):
        return True
    return all(_ts_vague_container(m, names) for m in members)


def _vague_names(tokens: list[str]) -> frozenset[str]:
    """The names of the declared types (aliases, interfaces) that say nothing, each read once
    the types they name are known."""
    declared: dict[str, list[str]] = {}
    for index, token in enumerate(tokens[:-2]):
        if token == "type" and tokens[index + 2] == "=":
            end, depth = index + 3, 0
            while end < len(tokens) and not (depth == 0 and tokens[end] == ";"):
                depth += (tokens[end] in _OPEN and tokens[end] != "<") - (
                    tokens[end] in _CLOSE and tokens[end] != ">"
                )
                end += 1
            declared[tokens[index + 1]] = tokens[index + 3 : end]
        elif token == "interface" and tokens[index + 2] == "{":
            end, depth = index + 2, 0
            while end < len(tokens):
                depth += (tokens[end] == "{") - (tokens[end] == "}")
                end += 1
                if depth == 0:
                    break
            declared[tokens[index + 1]] = tokens[index + 2 : end]
    names: frozenset[str] = frozenset()
    while True:
        found = frozenset(n for n, t in declared.items() if t and ts_vague(t, names))
        if found == names:
            return names
        names = found


def count_declarations(texts: list[str]) -> Counter[str]:
    """``properties`` and ``vague`` of the property signatures of TypeScript declarations;
    ``distinct`` and ``distinct vague``: each signature (name and type) counted once, as a type
    written out again where it is used (json-schema-to-typescript inlines) is one."""
    counts: Counter[str] = Counter(properties=0, vague=0)
    distinct: set[tuple[str, ...]] = set()  # each signature once (a repeated inline type)
    tokenized = [_tokens(text) for text in texts]
    names = _vague_names([t for tokens in tokenized for t in tokens])
    for tokens in tokenized:
        index = 0
        starts = True  # at the start of a member of a type literal or interface
        stack: list[str] = []
        while index < len(tokens):
            token = tokens[index]
            if starts and stack and stack[-1] == "{":
                at = index + (tokens[index] == "readonly" and tokens[index + 1] not in ":?")
                key = tokens[at] if at < len(tokens) else ""
                colon = at + 1 + (at + 1 < len(tokens) and tokens[at + 1] == "?")
                if key not in _OPEN and key not in _CLOSE and tokens[colon : colon + 1] == [":"]:
                    end, depth = colon + 1, 0
                    while end < len(tokens) and not (depth == 0 and tokens[end] in (";", "}")):
                        depth += (tokens[end] in _OPEN) - (tokens[end] in _CLOSE)
                        end += 1
                    vague = ts_vague(tokens[colon + 1 : end], names)
                    counts["properties"] += 1
                    counts["vague"] += vague
                    signature = (key, *tokens[colon + 1 : end])
                    if signature not in distinct:
                        distinct.add(signature)
                        counts["distinct"] += 1
                        counts["distinct vague"] += vague
            starts = token in ("{", ";", ",")
            if token in _OPEN and token != "<":
                stack.append(token)
            elif token in _CLOSE and token != ">" and stack:
                stack.pop()
            index += 1
    return counts
