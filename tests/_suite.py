"""Run the official JSON-Schema-Test-Suite (every draft) through a generator, judge each case.

Tried as a new user would: each test group's schema becomes one contract file (a ``title`` and
a ``description`` added, and a ``$id`` when it has none; a boolean schema written as ``{}`` or
``{"not": {}}``), the generator runs on a temporary project holding that file (with the other
groups of its suite file that declare none of its identifiers: one tree per batch; a batch that
is refused is run again one group at a time, so a refusal is its group's), whose
``default_draft`` is the group's draft (its folder's: a schema without ``$schema`` is read by
it) and whose ``[tool.maverick-codegen.refs]`` maps ``http://localhost:1234/``, where the suite's
runners serve its ``remotes/`` folder, to that folder. Every case of the group is validated in
JSON mode through ``TypeAdapter(model).validate_json``. A case *agrees* when the model accepts
exactly when the suite says the instance is valid.

Outcomes of a group: ``set aside`` (none today), ``refused`` (the generator exits 2 with a
message), ``crashed`` (a traceback, or an exit code other than 0 and 2), ``import failed``
(the generated module does not import), or ``generated`` with one verdict per case.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import re
import sys
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic

FOLDER = Path(__file__).resolve().parent / "json_schema_test_suite"
SUITE = FOLDER / "draft2020-12"
REMOTES = FOLDER / "remotes"
REMOTE_PREFIX = "http://localhost:1234/"
# The suite's folders and the drafts they test, as [tool.maverick-codegen] default_draft names them.
DRAFTS = {"draft4": "draft-04", "draft6": "draft-06", "draft7": "draft-07",
          "draft2019-09": "2019-09", "draft2020-12": "2020-12"}  # fmt: skip
OUTCOMES = ("agree", "disagree", "refused", "set aside", "crashed", "import failed")


def snake(name: str) -> str:
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).replace("-", "_")
    return words.lower()


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in snake(name).split("_"))


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


@dataclass(frozen=True)
class Case:
    description: str
    data: Any
    valid: bool


@dataclass(frozen=True)
class Group:
    """One test group of the suite: a schema and the cases judged against it."""

    keyword: str  # the file's stem, e.g. "if-then-else"
    index: int
    description: str
    schema: Any
    cases: tuple[Case, ...]
    folder: str = "draft2020-12"  # the suite's folder: the draft (or its optional/format)
    formats: str | None = None  # [tool.maverick-codegen] formats, when said

    @property
    def draft(self) -> str:
        """The draft as ``default_draft`` names it."""
        return DRAFTS[self.folder.partition("/")[0]]

    @property
    def tag(self) -> str:
        """The folder and the formats setting, as a Python name (packages, project folders)."""
        return snake(self.folder).replace("/", "_") + (f"_{self.formats}" if self.formats else "")

    @property
    def name(self) -> str:
        return f"{snake(self.keyword)}_{self.index:02d}"

    @property
    def title(self) -> str:
        return f"{camel(self.keyword)}{self.index:02d}"

    @property
    def rel(self) -> str:
        """The contract file's path inside the schema folder."""
        return f"suite/{self.name}.json"

    @property
    def set_aside(self) -> str | None:
        """Why the group is not judged (no group is set aside today)."""
        return None

    def contract(self) -> dict[str, Any]:
        """The group's schema as a contract file of its own."""
        body: dict[str, Any]
        if self.schema is True:
            body = {}
        elif self.schema is False:
            body = {"not": {}}
        else:
            body = {k: v for k, v in self.schema.items() if k != "title"}
        identity = "id" if self.folder == "draft4" else "$id"
        contract = {identity: f"https://suite.example/{self.rel}"} if identity not in body else {}
        return {
            **contract,
            "title": self.title,
            "description": body.pop("description", None) or self.description,
            **body,
        }

    def config(self, package: str, remotes: Path = REMOTES) -> str:
        """The project's ``[tool.maverick-codegen]``: the group's draft, the remotes mapped."""
        return (
            f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{package}"\n'
            f'package = "{package}"\ndefault_draft = "{self.draft}"\n'
            + (f'formats = "{self.formats}"\n' if self.formats else "")
            + "\n"
            f'[tool.maverick-codegen.refs]\n"{REMOTE_PREFIX}" = {json.dumps(str(remotes))}\n'
        )


def groups(
    keywords: Iterable[str] | None = None, folder: str = "draft2020-12", formats: str | None = None
) -> list[Group]:
    """Every group of one draft's suite, in file and index order (optionally of some files);
    ``folder`` may be a draft's ``optional/format``, ``formats`` the project's setting."""
    wanted = set(keywords) if keywords is not None else None
    found = []
    for path in sorted((FOLDER / folder).glob("*.json")):
        if wanted is not None and path.stem not in wanted:
            continue
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            cases = tuple(Case(t["description"], t["data"], t["valid"]) for t in group["tests"])
            found.append(
                Group(
                    path.stem, index, group["description"], group["schema"], cases, folder, formats
                )
            )
    return found


@dataclass
class Result:
    """What became of one group: its status, a detail, and each case's verdict."""

    group: Group
    status: str  # set aside | refused | crashed | import failed | generated
    detail: str = ""
    accepted: list[bool] = field(default_factory=list)  # per case, when generated
    case_errors: list[str] = field(default_factory=list)  # per case: a validator that crashed

    def counts(self) -> Counter[str]:
        n = len(self.group.cases)
        if self.status != "generated":
            return Counter({self.status: n})
        tally: Counter[str] = Counter()
        for case, accepted, error in zip(
            self.group.cases, self.accepted, self.case_errors, strict=True
        ):
            tally["crashed" if error else "agree" if accepted == case.valid else "disagree"] += 1
        return tally

    def disagreements(self) -> list[str]:
        if self.status != "generated":
            return []
        return [
            f"{self.group.rel} ({self.group.description}): {case.description}: the suite says "
            f"{'valid' if case.valid else 'invalid'}, the model "
            f"{'accepts' if accepted else 'refuses'} {json.dumps(case.data)[:120]}"
            for case, accepted, error in zip(
                self.group.cases, self.accepted, self.case_errors, strict=True
            )
            if not error and accepted != case.valid
        ]


def _verdicts(model: Any, cases: Iterable[Case]) -> tuple[list[bool], list[str]]:
    adapter = pydantic.TypeAdapter(model)
    accepted, errors = [], []
    for case in cases:
        try:
            adapter.validate_json(json.dumps(case.data))
        except pydantic.ValidationError:
            accepted.append(False)
            errors.append("")
        except Exception as exc:  # a validator that raises anything else has crashed
            accepted.append(False)
            errors.append("".join(traceback.format_exception_only(exc)).strip())
        else:
            accepted.append(True)
            errors.append("")
    return accepted, errors


@contextlib.contextmanager
def importable(folder: Path, package: str) -> Iterator[None]:
    """``package`` importable from ``folder`` inside the block, forgotten after it."""
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


# A refusal names the file, line and column, then the message, the JSON pointer (unless the
# problem is the whole document) and the rule id.
REFUSAL = re.compile(
    r"(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): (?P<message>.+?) "
    r"\((?P<rule>[A-Z][A-Z0-9_]*)\)\n?"
)


# What follows the refused files' reasons: how many files, and what to do.
SUMMARY = re.compile(r"error: \d+ of \d+ schema files in .* refused \(\d+ reasons? above\).*")


def refusal_problem(group: Group, project: Path, stderr: str) -> str | None:
    """Why a refusal message does not locate its problem, or None when it does: each line is
    ``file:line:col: message (RULE)``, and a summary follows the refusals of generate."""
    lines = stderr.strip().split("\n")
    if len(lines) > 1 and SUMMARY.fullmatch(lines[-1]):
        lines.pop()
    for line in lines:
        m = REFUSAL.fullmatch(line)
        if m is None:
            return f"not 'file:line:col: message (RULE)': {stderr.strip()[:300]!r}"
        if Path(m["file"]).resolve() != (project / "schemas" / group.rel).resolve():
            return f"names {m['file']}, not the schema file"
        if (m["line"], m["col"]) != ("1", "1") and " at /" not in m["message"]:
            return f"names no JSON pointer: {stderr.strip()[:300]!r}"
    return None


def run_maverick(group: Group, workdir: Path) -> Result:
    """``maverick-codegen generate`` on a project holding the group's contract alone."""
    from codegen.cli import main

    if group.set_aside:
        return Result(group, "set aside", group.set_aside)
    project = workdir / group.tag / group.name
    package = f"suite_{group.tag}_{group.name}"
    schema_file = project / "schemas" / group.rel
    schema_file.parent.mkdir(parents=True)
    schema_file.write_text(json.dumps(group.contract(), indent=2) + "\n", encoding="utf-8")
    (project / "pyproject.toml").write_text(group.config(package), encoding="utf-8")
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            code = main(["--config", str(project / "pyproject.toml"), "generate"], io.StringIO())
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        return Result(group, "crashed", "".join(traceback.format_exception_only(exc)).strip())
    if code == 2:
        problem = refusal_problem(group, project, stderr.getvalue())
        if problem is not None:
            return Result(group, "crashed", f"refusal without a location: {problem}")
        return Result(group, "refused", stderr.getvalue().strip())
    if code != 0:
        return Result(group, "crashed", f"exit {code}: {stderr.getvalue().strip()}")
    return _judge(group, project / "out", package, lambda module: getattr(module, group.title))


def _judge(group: Group, folder: Path, package: str, pick: Callable[[Any], Any]) -> Result:
    with importable(folder, package):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = pick(importlib.import_module(package))
                accepted, errors = _verdicts(model, group.cases)
        except Exception as exc:
            detail = "".join(traceback.format_exception_only(exc)).strip()
            return Result(group, "import failed", detail)
    return Result(group, "generated", accepted=accepted, case_errors=errors)


def run_plain_dmcg(group: Group, workdir: Path) -> Result:
    """datamodel-code-generator with its default options, on the same contract file."""
    import datamodel_code_generator as dmcg

    if group.set_aside:
        return Result(group, "set aside", group.set_aside)
    folder = workdir / group.tag / group.name
    package = f"plain_{group.tag}_{group.name}"
    (folder / package).mkdir(parents=True)
    source = folder / f"{group.name}.json"
    source.write_text(json.dumps(group.contract(), indent=2) + "\n", encoding="utf-8")
    try:
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            code = dmcg.generate(
                source,
                input_file_type=dmcg.InputFileType.JsonSchema,
                output_model_type=dmcg.DataModelType.PydanticV2BaseModel,
            )
    except Exception as exc:  # its refusal: it raises on what it does not take
        return Result(group, "refused", "".join(traceback.format_exception_only(exc)).strip())
    (folder / package / "__init__.py").write_text(str(code), encoding="utf-8")
    return _judge(group, folder, package, lambda module: getattr(module, group.title))


def _identifiers(group: Group) -> set[str]:
    """Every identifier the group's contract declares, at any depth (two files of one tree
    must not declare the same), and whether it refers dynamically."""
    found = set()
    for node in _nodes(group.contract()):
        for key in ("$id", "id"):
            if isinstance(node.get(key), str) and not node[key].startswith("#"):
                found.add(node[key].rstrip("#"))
        if "$dynamicRef" in node or "$recursiveRef" in node:
            found.add("(dynamic)")  # a dynamic tree types no reference: kept apart
    return found


def batches(found: Iterable[Group]) -> list[list[Group]]:
    """The groups of one suite file in trees of their own: no identifier declared twice in a
    tree, and the groups that refer dynamically apart from the others."""
    made: list[tuple[set[str], list[Group]]] = []
    for group in found:
        ids = _identifiers(group)
        dynamic = "(dynamic)" in ids
        for taken, members in made:
            if not (taken & ids) and dynamic == ("(dynamic)" in taken):
                taken.update(ids)
                members.append(group)
                break
        else:
            made.append((set(ids) | ({"(dynamic)"} if dynamic else set()), [group]))
    return [members for _, members in made]


def run_maverick_batch(batch: list[Group], workdir: Path) -> list[Result]:
    """``maverick-codegen generate`` on one project holding every group of ``batch`` (one file
    each); when it refuses, each group again on a project of its own (so that a refusal is
    the group's)."""
    from codegen.cli import main

    first = batch[0]
    project = workdir / first.tag / f"{snake(first.keyword)}_from_{first.index:02d}"
    package = f"suite_{first.tag}_{snake(first.keyword)}_{first.index:02d}"
    for group in batch:
        schema_file = project / "schemas" / group.rel
        schema_file.parent.mkdir(parents=True, exist_ok=True)
        schema_file.write_text(json.dumps(group.contract(), indent=2) + "\n", encoding="utf-8")
    (project / "pyproject.toml").write_text(first.config(package), encoding="utf-8")
    with contextlib.redirect_stderr(io.StringIO()):
        code = main(["--config", str(project / "pyproject.toml"), "generate"], io.StringIO())
    if code != 0:
        return [run_maverick(group, workdir) for group in batch]
    return [
        _judge(
            group,
            project / "out",
            package,
            lambda module, g=group: getattr(
                importlib.import_module(f"{module.__name__}.suite.{g.name}"), g.title
            ),
        )
        for group in batch
    ]


def run_all(
    run: Callable[[Group, Path], Result],
    workdir: Path,
    only: Iterable[str] | None = None,
    folder: str = "draft2020-12",
) -> list[Result]:
    """Every group's result; :func:`run_maverick` runs in batches (one tree per batch)."""
    found = groups(only, folder)
    if run is not run_maverick:
        return [run(group, workdir) for group in found]
    results: list[Result] = []
    for keyword in dict.fromkeys(g.keyword for g in found):
        for batch in batches(g for g in found if g.keyword == keyword):
            results += run_maverick_batch(batch, workdir)
    order = {(g.keyword, g.index): i for i, g in enumerate(found)}
    return sorted(results, key=lambda r: order[(r.group.keyword, r.group.index)])


def table(results: Iterable[Result]) -> tuple[str, Counter[str]]:
    """One row per keyword file and a total row; the counts are cases."""
    rows: dict[str, Counter[str]] = {}
    total: Counter[str] = Counter()
    for result in results:
        counts = result.counts()
        rows.setdefault(result.group.keyword, Counter()).update(counts)
        total.update(counts)
    width = max(len(k) for k in [*rows, "keyword file"])
    header = f"{'keyword file':<{width}} {'cases':>6} " + " ".join(f"{o:>13}" for o in OUTCOMES)

    def line(name: str, counts: Counter[str]) -> str:
        cells = " ".join(f"{counts[o]:>13}" for o in OUTCOMES)
        return f"{name:<{width}} {sum(counts.values()):>6} {cells}"

    lines = [header, *(line(k, rows[k]) for k in sorted(rows)), line("total", total)]
    return "\n".join(lines) + "\n", total


# How the generated model enforces each keyword (docs/json-schema-support.md is rendered from
# this table and the suite run; a test keeps both in step with the generator's keyword sets).
TYPED = "the field types (Pydantic, strict)"
CHECKED = "a compiled predicate in the class's validator"
HOW = {
    "type": f"{TYPED}: `str`, `JsonInt` (1.0 is an integer), `JsonNumber` (int or float, "
    "never rounded), `bool`, `None`, lists, classes; a union of types checks each type's "
    "constraints by predicate (its objects a class of their `properties`, its arrays a list of "
    "their `items`)",
    "enum": f"{TYPED} when every value is a string (an `Enum` class); else the union of its "
    f"values' types (its strings an `Enum`) and {CHECKED}, with JSON equality (`1 == 1.0`, "
    "`false != 0`, deep for arrays and objects)",
    "const": f"{TYPED} for a string (a `Literal`), else its value's type; {CHECKED}, with JSON "
    "equality",
    "multipleOf": f"{CHECKED}, exact for decimals (0.0075 is a multiple of 0.0001)",
    "maximum": f"{TYPED} for one numeric type and a bound below 2**52; else {CHECKED} "
    "(exact for integers of any size)",
    "exclusiveMaximum": "as `maximum`",
    "minimum": "as `maximum`",
    "exclusiveMinimum": "as `maximum`",
    "maxLength": f"{TYPED} for a string type (code points); else {CHECKED}",
    "minLength": "as `maxLength`",
    "pattern": f"{CHECKED}: ECMA-262 with the `u` flag (the `regress` package), as Ajv and "
    "the Claude CLI read it; an invalid expression is refused (`PATTERN`)",
    "maxItems": f"{TYPED} for an array type; else {CHECKED}",
    "minItems": "as `maxItems`",
    "uniqueItems": f"{CHECKED}, with JSON equality; the value stays a list",
    "items": f"{TYPED} (`list[T]`) for an array type; else {CHECKED}",
    "prefixItems": f"{TYPED} (`list[T]`, T the union of the items' types) when `items` says the "
    f"rest (or `maxItems` leaves none); {CHECKED} (the value stays a list)",
    "contains": f"{CHECKED}, with `minContains` and `maxContains`",
    "maxContains": "with `contains`",
    "minContains": "with `contains`",
    "unevaluatedItems": f"{CHECKED}, seeing every adjacent in-place applicator that holds",
    "properties": f"{TYPED}: one field per property of an object (without `type`, a class of "
    "its objects in a union with the other JSON types; a property without a type takes it from "
    "the `anyOf`/`oneOf` branches that each type it, or from another `allOf` entry); an "
    "optional property without a default "
    f"is `MISSING` when absent (null refused); what a property's schema says beyond its type is "
    f"{CHECKED}",
    "required": f"{TYPED} for declared properties; else {CHECKED}",
    "additionalProperties": f'{TYPED} when false (`extra="forbid"`) or true (`extra="allow"`);'
    " a schema, without `properties`, types a map (`dict[str, T]`); a schema, or beside "
    f"`patternProperties`: {CHECKED}",
    "patternProperties": f"{CHECKED} (ECMA-262); with `additionalProperties` (or a pattern every "
    f"key matches), without `properties`, {TYPED} type a map (`dict[str, T]`)",
    "propertyNames": CHECKED,
    "maxProperties": CHECKED,
    "minProperties": CHECKED,
    "dependentRequired": f"{CHECKED}, one rule per entry",
    "dependentSchemas": f"{CHECKED}, one rule per entry",
    "unevaluatedProperties": f"{TYPED} when false beside `allOf` bases that declare every "
    f"property (the subclass is closed); else {CHECKED}, seeing every in-place applicator",
    "allOf": f"{TYPED} for entries that are only a `$ref` (class bases; one such entry alone is "
    "that type; of several entries alone, the type of the one that says most); each other entry "
    f"is a rule: {CHECKED}, with its description as the message",
    "anyOf": f"{TYPED} (a union); when a branch says more than its types, {CHECKED}",
    "oneOf": f"{CHECKED}: exactly one branch holds",
    "not": CHECKED,
    "if": f"{CHECKED}, with `then` and `else`: a rule, with its description as the message",
    "then": "with `if`",
    "else": "with `if`",
    "$ref": f"{TYPED}: a JSON pointer or a relative file; a class's target validates itself, "
    f"any other target is {CHECKED} (a node of the same file that is no definition: its type "
    "copied in place)",
    "format": "an annotation, as draft 2020-12 says by default: the value stays a `str`; "
    'asserted with `formats = "assert"` ([below](#format))',
    "contentEncoding": "an annotation",
    "contentMediaType": "an annotation",
    "contentSchema": "an annotation",
    "title": "an annotation (a class name)",
    "description": "an annotation (docstrings, field descriptions, rule messages)",
    "default": "the field's default",
    "examples": "an annotation",
    "deprecated": "an annotation",
    "readOnly": "an annotation",
    "writeOnly": "an annotation",
    "$comment": "an annotation",
    "$schema": "chooses the file's draft (draft-04, -06, -07, 2019-09, 2020-12; without it, "
    "`default_draft`): see *Drafts* below",
    "$defs": "definitions: an entry whose title is a class name is a class of its own",
    "definitions": "as `$defs` (draft-04 to draft-07 name it so; later metaschemas keep it)",
    "$id": "the base URI of its schema resource: references resolve against it, also in "
    "embedded resources (the loader rewrites each reference to name its target by file and JSON "
    "pointer)",
    "$anchor": "a plain-name fragment (`#name`) a reference may use: resolved by the loader",
    "$dynamicRef": f"{CHECKED}: its target is the outermost resource of the dynamic scope that "
    "declares its `$dynamicAnchor`, known when the predicate is compiled (one function per "
    "scope that can reach it); a `$dynamicRef` whose target declares no such anchor is a `$ref`",
    "$dynamicAnchor": "with `$dynamicRef`",
    "$vocabulary": "an annotation (in the JSON Schema metaschemas, which references may reach)",
}
# Suite files named otherwise than the keyword they test, in any draft; files that test no one
# keyword.
FILE_KEYWORD = {
    "if-then-else": "if", "ref": "$ref", "refRemote": "$ref", "defs": "$defs",
    "definitions": "$defs", "content": "contentSchema", "anchor": "$anchor",
    "dynamicRef": "$dynamicRef", "recursiveRef": "$dynamicRef", "vocabulary": "$vocabulary",
    "dependencies": "dependentSchemas", "additionalItems": "items",
}  # fmt: skip
OTHER_FILES = {
    "boolean_schema": '`true` and `false` as schemas, anywhere (`{}` and `{"not": {}}`)',
    "infinite-loop-detection": "a `$ref` met twice at one place: compiled once, called twice",
}
# How each draft's own keywords are read (codegen/core/drafts.py, codegen/core/translate.py).
DRAFT_NOTES = {
    "draft-04": "`id` is `$id`; `exclusiveMaximum: true` beside `maximum` is an exclusive bound; "
    "`integer` refuses `1.0`; no boolean schemas but `additionalProperties` and "
    "`additionalItems`; `const`, `contains`, `propertyNames`, `if` are not keywords (ignored)",
    "draft-06": "`exclusiveMaximum` is a number; `const`, `contains`, `propertyNames`, boolean "
    "schemas; `if` is not a keyword (ignored)",
    "draft-07": "`if`/`then`/`else`",
    "2019-09": "`$defs`, `$anchor`, `dependentRequired`/`dependentSchemas`, `unevaluated*`, "
    "`minContains`/`maxContains`; `$recursiveRef` is a dynamic reference to the outermost "
    "resource that declares `$recursiveAnchor: true`; `contains` marks no item evaluated",
    "2020-12": "`prefixItems` and `items`; `$dynamicRef`/`$dynamicAnchor`",
}
COMMON_NOTES = (
    "From draft-04 to draft-07, `$ref` beside other keywords makes the draft ignore them, "
    "`definitions` holds definitions and `dependencies` is `dependentRequired` (a list of "
    "names) or `dependentSchemas` (a schema); up to 2019-09, `items` may be a list (the "
    "`prefixItems` of 2020-12, `additionalItems` then being its `items`). A keyword the draft "
    "does not define is ignored, as every draft says (`maverick-codegen lint` reports it)."
)


# The format section: how each format is checked with formats = "assert", and its Python type.
# The figures are those tests/test_json_schema_formats.py measures and checks on this page.
FORMAT_ROWS = (
    ("date-time", "RFC 3339 `date-time`: `T` and `Z` in either case, an offset required, a real "
     "day of its month, a leap second only at 23:59:60 UTC", "`str` (Python's `datetime` has no "
     "second 60 and no year 0, and keeps microseconds only)"),
    ("date", "RFC 3339 `full-date`: a real day of its month", "`str` (no year 0 in `date`)"),
    ("time", "RFC 3339 `full-time`: an offset required, the leap-second rule", "`str`"),
    ("duration", "RFC 3339 appendix A: whole numbers, no sign, weeks alone",
     "`str` (years and months are no `timedelta`)"),
    ("uuid", "RFC 4122, hyphenated hex", "`JsonUUID`, a `UUID` that keeps its text"),
    ("ipv4", "dotted quad, no leading zero", "`JsonIPv4Address`, an `IPv4Address` that keeps its "
     "text"),
    ("ipv6", "RFC 4291 text form, no zone; an embedded IPv4 address as `ipv4`",
     "`JsonIPv6Address`, an `IPv6Address` that keeps its text"),
    ("email", "RFC 5321 `Mailbox`: dot-string or quoted local part, a `hostname` or an address "
     "literal", "`str`"),
    ("idn-email", "RFC 6531: `email` with UTF-8, the domain an `idn-hostname` (its NFC form)",
     "`str`"),
    ("hostname", "RFC 1123 labels, 253 characters at most; an `xn--` label a valid IDNA2008 "
     "A-label (the `idna` package)", "`str`"),
    ("idn-hostname", "RFC 5890: IDNA2008 with its contextual and bidi rules (the `idna` "
     "package), any of the four full stops", "`str`"),
    ("uri, uri-reference", "RFC 3986 (a scheme required for `uri`)", "`str`"),
    ("iri, iri-reference", "RFC 3987", "`str`"),
    ("uri-template", "RFC 6570 (an apostrophe allowed in a literal, as the suite says)", "`str`"),
    ("json-pointer, relative-json-pointer", "RFC 6901 and its relative form", "`str`"),
    ("regex", "ECMA-262 with the u flag (`regress`), as `pattern` is read", "`str`"),
)  # fmt: skip
FORMAT_FIGURES = {"draft-07": (669, 676), "2020-12": (757, 764)}


def format_section() -> list[str]:
    """The support page's section on ``format``."""
    lines = [
        "## `format`",
        "",
        'By default (`formats = "annotate"`) `format` is an annotation, as the specification says:',
        "every string is valid, the field stays `str`, and the format is written into the field's",
        'description and the catalog. With `[tool.maverick-codegen] formats = "assert"` each',
        "format below is checked on strings (a value of another type passes: `format` applies to",
        "strings only); a format not in this table is refused at generate time (`FORMAT`). Where",
        "Python has a type that holds every valid string, the field has it, and a dump writes",
        "back the text that was read.",
        "",
        "| Format | Checked as | Python type |",
        "|---|---|---|",
        *(f"| `{'`, `'.join(n.split(', '))}` | {how} | {kind} |" for n, how, kind in FORMAT_ROWS),
        "",
        "The suite's optional format tests",
        "(`tests/json_schema_test_suite/<draft>/optional/format/`) through models generated with",
        '`formats = "assert"`: '
        + "; ".join(f"{d}: {j} of {n} cases judged" for d, (j, n) in FORMAT_FIGURES.items())
        + ", 0 disagreements (the refused cases are the suite's `unknown` format). Annotated,",
        "every case is accepted. The npm package asserts the same formats with Ajv and",
        "`ajv-formats` but `hostname`, `idn-hostname`, `email` and `idn-email`, which it refuses",
        "([Consumers](consumers.md)).",
        "",
    ]
    return lines


def support_table(results: dict[str, list[Result]]) -> str:
    """The support page: per keyword, how it is enforced and the suite's figures for it (every
    draft), then each draft's figures and how its keywords are read."""
    counts: dict[str, Counter[str]] = {}
    per_draft: dict[str, Counter[str]] = {}
    for folder, found in results.items():
        for result in found:
            keyword = FILE_KEYWORD.get(result.group.keyword, result.group.keyword)
            counts.setdefault(keyword, Counter()).update(result.counts())
            per_draft.setdefault(DRAFTS[folder], Counter()).update(result.counts())
    lines = [
        "<!-- Rendered by tests/test_json_schema_suite.py from the suite run: "
        "UPDATE_DOCS=1 pytest tests/test_json_schema_suite.py -->",
        "# JSON Schema support",
        "",
        "How the generated model enforces each keyword (of draft 2020-12, which every draft is",
        "read into), and the cases of the official JSON-Schema-Test-Suite (required tests of",
        "draft-04, -06, -07, 2019-09 and 2020-12, tests/json_schema_test_suite/) that test it:",
        "each group's schema as a contract of its draft, `maverick-codegen generate`, every case",
        "through the generated model in JSON mode. *Agree* counts the cases decided as the",
        "suite does, over every draft.",
        "",
        "| Keyword | How the generated model enforces it | Suite: agree / judged |",
        "|---|---|---|",
    ]
    for keyword in sorted(HOW, key=str.lower):
        tally = counts.get(keyword)
        judged = sum(tally.values()) - tally["set aside"] - tally["refused"] if tally else 0
        figure = f"{tally['agree']} / {judged}" if tally else "(no suite file)"
        lines.append(f"| `{keyword}` | {HOW[keyword]} | {figure} |")
    for name, what in OTHER_FILES.items():
        tally = counts[name]
        lines.append(f"| {what} | {CHECKED} | {tally['agree']} / {sum(tally.values())} |")
    lines += [
        "",
        "## Drafts",
        "",
        "| Draft | How its keywords are read | Cases | Agree | Disagree | Refused | Crashed |",
        "|---|---|---|---|---|---|---|",
    ]
    for draft, note in DRAFT_NOTES.items():
        tally = per_draft.get(draft, Counter())
        cells = [sum(tally.values()), tally["agree"], tally["disagree"], tally["refused"],
                 tally["crashed"] + tally["import failed"]]  # fmt: skip
        lines.append(f"| {draft} | {note} | " + " | ".join(map(str, cells)) + " |")
    total: Counter[str] = Counter()
    for tally in per_draft.values():
        total.update(tally)
    lines += [
        "",
        COMMON_NOTES,
        "",
        f"In all: {total['agree']} of {sum(total.values())} cases agree, {total['disagree']} "
        f"disagree, {total['refused']} are refused, "
        f"{total['crashed'] + total['import failed']} crash. The refused cases are the groups "
        "whose `$schema` is a metaschema of their own (the suite's `vocabulary` files): a file's",
        "`$schema` must name one of the five drafts.",
        "",
        *format_section(),
    ]
    return "\n".join(lines)
