"""Real schema histories through ``breaking``, judged by the two schemas and sampled documents.

A history folder holds consecutive versions of real schemas: ``index.json`` lists pairs
``{"schema", "commit", "old", "new", "subject"}`` whose ``old`` and ``new`` name the file
before and after one commit (the layout of the shared ``schema-history`` folder, and of the
seeded subset ``tests/fixtures/history/``). For each pair, :func:`check_pair` runs the
breaking check on the two versions (as two schema folders holding ``NAME.json``) and judges
what it said:

* **bad witness**: a finding's witness that the two schemas do not separate in its direction
  (python-jsonschema with each file's own draft, and the ECMA-262 oracle of
  :mod:`codegen.core.ecma`; a document on which the two judges disagree is counted apart);
* **about what did not change**: a finding whose place is written the same in both versions,
  with everything it references (its subtree and the local references it reaches equal), or a
  ``PROPERTY_DELETED`` naming a property still at its place;
* **silent pass**: a direction in which some sampled document separates the versions, with no
  finding in that direction (``CHANGE_UNPROVEN`` is a finding); a document the two judges
  decide apart is counted apart, and a silent pass too when the ECMA-262 reading (the check's)
  separates the versions unreported;
* **unproven**: a pair with a ``CHANGE_UNPROVEN`` finding.

Sampled documents (:func:`documents`) are drawn from both versions by a seeded walker of the
schema (each keyword read loosely: a candidate, not a member), by hypothesis-jsonschema where
it can read the schema, and from real documents when a folder of them is given; each is also
mutated (a value replaced by a constant or enum value either version names, a property added
or dropped, a type changed). The schemas judge every one: truth is what the two schemas accept.
"""

from __future__ import annotations

import contextlib
import copy
import json
import multiprocessing
import random
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import jsonschema

from codegen.breaking.table import Side, compare
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaTree, load_tree
from codegen.core.report import Finding

__all__ = [
    "BACKWARD",
    "FORWARD",
    "HistoryPair",
    "Verdict",
    "assembled_pairs",
    "check_pair",
    "documents",
    "read_history",
    "summary",
]

BACKWARD, FORWARD = "DATA_BACKWARD", "DATA_FORWARD"
DIRECTIONS = (BACKWARD, FORWARD)
UNPROVEN = "CHANGE_UNPROVEN"


@dataclass(frozen=True)
class HistoryPair:
    """Two consecutive versions of one real schema: the file before and after a commit."""

    schema: str
    commit: str
    subject: str
    old_text: str
    new_text: str
    # The findings a hand-made pair must yield: (rule, categories) pairs, in any order.
    expect: tuple[tuple[str, tuple[str, ...]], ...] | None = None

    @property
    def name(self) -> str:
        return f"{self.schema}@{self.commit}"

    @cached_property
    def old(self) -> Any:
        return json.loads(self.old_text)

    @cached_property
    def new(self) -> Any:
        return json.loads(self.new_text)


def _edited(document: Any, edit: Callable[[Any], None]) -> Any:
    changed = copy.deepcopy(document)
    edit(changed)
    return changed


def assembled_pairs(schemastore: Path) -> list[HistoryPair]:
    """Pairs made from SchemaStore's current files (``schemas/json/``) by the edits issue 33
    met on real commits: 8 values added to the 2,397-value enum of a 190 KB linter config
    (ruff), the same file re-indented with a root description added, a draft-07 workflow
    schema whose messages must name ``#/definitions/normalJob`` (a property made required
    there, a ``oneOf`` branch removed), and a TypeScript config whose ``target`` enum loses a
    value that its pattern branch still accepts (no break), then loses it from the pattern
    too (a break)."""
    folder = schemastore / "schemas" / "json"

    def read(name: str) -> tuple[str, Any]:
        text = (folder / f"{name}.json").read_text(encoding="utf-8")
        return text, json.loads(text)

    pairs = []
    ruff_text, ruff = read("ruff")
    selectors = ruff["definitions"]["RuleSelector"]["enum"]
    fewer = _edited(ruff, lambda d: d["definitions"]["RuleSelector"].update(
        enum=[v for i, v in enumerate(selectors) if i % 300 != 7]))  # fmt: skip
    pairs.append(HistoryPair("ruff", "enum+8", "8 RuleSelector values added",
                             json.dumps(fewer, indent=2), ruff_text))  # fmt: skip
    described = _edited(ruff, lambda d: d.update(description="Ruff's configuration."))
    pairs.append(HistoryPair("ruff", "reformat", "re-indented, a root description added",
                             ruff_text, json.dumps(described, indent=4)))  # fmt: skip
    workflow_text, workflow = read("github-workflow")

    def tighten(d: Any) -> None:
        d["definitions"]["normalJob"]["required"].append("steps")
        jobs = d["properties"]["jobs"]["patternProperties"]
        for schema in jobs.values():
            schema["oneOf"] = schema["oneOf"][:1]

    tightened = json.dumps(_edited(workflow, tighten), indent=2)
    pairs.append(HistoryPair("github-workflow", "normalJob", "steps required, a job kind removed",
                             workflow_text, tightened))  # fmt: skip
    tsconfig_text, tsconfig = read("tsconfig")

    def target(d: Any) -> Any:
        return d["definitions"]["compilerOptionsDefinition"]["properties"]["compilerOptions"][
            "properties"]["target"]  # fmt: skip

    def drop_es3(d: Any) -> None:
        target(d)["anyOf"][0]["enum"].remove("es3")

    def drop_es3_pattern(d: Any) -> None:
        drop_es3(d)
        branch = target(d)["anyOf"][1]
        branch["pattern"] = branch["pattern"].replace("[356]", "[56]")

    enum_only = json.dumps(_edited(tsconfig, drop_es3), indent=4)
    both = json.dumps(_edited(tsconfig, drop_es3_pattern), indent=4)
    pairs.append(HistoryPair("tsconfig", "target-enum", "es3 left the enum, not the pattern",
                             tsconfig_text, enum_only))  # fmt: skip
    pairs.append(HistoryPair("tsconfig", "target-es3", "es3 left the enum and the pattern",
                             tsconfig_text, both))  # fmt: skip
    return pairs


def read_history(folder: Path) -> list[HistoryPair]:
    """The pairs ``folder/index.json`` lists, in its order."""
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    return [
        HistoryPair(
            entry["schema"],
            entry["commit"],
            entry.get("subject", ""),
            (folder / entry["old"]).read_text(encoding="utf-8"),
            (folder / entry["new"]).read_text(encoding="utf-8"),
            None
            if "expect" not in entry
            else tuple((rule, tuple(categories)) for rule, categories in entry["expect"]),
        )
        for entry in index
    ]


# ---------------------------------------------------------------------------- one version


@dataclass
class Version:
    """One version of a pair: its document as written, its tree and its two judges."""

    document: Any
    tree: SchemaTree

    @cached_property
    def _plain(self) -> Any:
        cls = jsonschema.validators.validator_for(self.document)
        return cls(self.document)

    @cached_property
    def _ecma(self) -> Any:
        return validator_at(tree_registry(self.tree), self.tree.files[0])

    def verdicts(self, document: Any) -> tuple[bool, bool]:
        """(python-jsonschema, ECMA oracle): whether each accepts ``document``."""
        return bool(self._plain.is_valid(document)), bool(self._ecma.is_valid(document))


@dataclass
class Verdict:
    """What the check said about one pair, and how the schemas judged it."""

    pair: HistoryPair
    findings: list[Finding]
    seconds: float
    error: str = ""
    bad_witnesses: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)  # messages naming the internal form
    silent: dict[str, Any] = field(default_factory=dict)  # direction: a separating document
    separated: dict[str, Any] = field(default_factory=dict)  # direction: a separating document
    sampled_apart: set[str] = field(default_factory=set)  # directions a sampled document showed
    judges_disagree: int = 0  # documents python-jsonschema and the ECMA oracle judge apart
    sampled: int = 0

    @property
    def unproven(self) -> bool:
        return any(f.rule == UNPROVEN for f in self.findings)

    def directions(self) -> set[str]:
        return {c for f in self.findings for c in f.categories if c in DIRECTIONS}


def _write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(text, encoding="utf-8")


def run_breaking(pair: HistoryPair, workdir: Path) -> tuple[list[Finding], float, Version, Version]:
    """The breaking check of the pair (both directions), timed from loading both versions."""
    _write(workdir / "old", pair.schema, pair.old_text)
    _write(workdir / "new", pair.schema, pair.new_text)
    start = time.perf_counter()
    previous, current = load_tree(workdir / "old"), load_tree(workdir / "new")
    findings = compare(Side(previous, "old"), Side(current, "new"))
    seconds = time.perf_counter() - start
    return findings, seconds, Version(pair.old, previous), Version(pair.new, current)


# ---------------------------------------------------------------------------- judging


def _resolves(document: Any, pointer: str) -> tuple[bool, Any]:
    try:
        return True, resolve_pointer(document, pointer)
    except LookupError:
        return False, None


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            yield ref[1:]
        for item in value.values():
            yield from _refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _refs(item)


def unchanged_at(old: Any, new: Any, pointer: str) -> bool:
    """Whether ``pointer`` names the same value in both documents, and every local reference
    it reaches (transitively) names the same value in both too."""
    pending, seen = [pointer], set()
    while pending:
        at = pending.pop()
        if at in seen:
            continue
        seen.add(at)
        (here, a), (there, b) = _resolves(old, at), _resolves(new, at)
        if not (here and there) or a != b:
            return False
        pending += _refs(a)
    return True


_REQUIRED_RULES = frozenset(
    {"PROPERTY_MADE_REQUIRED", "PROPERTY_MADE_OPTIONAL", "PROPERTY_ADDED_REQUIRED"}
)
"""Rules shown at a property's declaration for a change of its holder's ``required``."""


def _about_what_did_not_change(pair: HistoryPair, finding: Finding) -> str | None:
    if finding.rule.startswith("CONTRACT_") or not finding.pointer:
        return None
    if finding.rule == "PROPERTY_DELETED" and finding.path.startswith("old/"):
        present, _ = _resolves(pair.new, finding.pointer)
        if present:
            return f"{finding.rule} at {finding.pointer}: the property is still there"
    pointer = finding.pointer
    if finding.rule in _REQUIRED_RULES and "/properties/" in pointer:
        pointer = pointer.rsplit("/properties/", 1)[0]  # what changed is the holder's required
    if unchanged_at(pair.old, pair.new, pointer):
        return f"{finding.rule} at {finding.pointer}: written the same in both versions"
    return None


def _witness_problem(finding: Finding, old: Version, new: Version) -> tuple[str | None, bool]:
    """A problem with the finding's witness (None when both judges separate it), and whether
    the two judges disagree on it."""
    document = json.loads(str(finding.witness))
    olds, news = old.verdicts(document), new.verdicts(document)
    backward = BACKWARD in finding.categories
    want = (True, False) if backward else (False, True)
    said = [(o, n) for o, n in zip(olds, news, strict=True)]
    if all(s == want for s in said):
        return None, False
    disagree = olds[0] != olds[1] or news[0] != news[1]
    return (
        f"{finding.rule} {finding.categories}: witness {finding.witness} judged (old, new) "
        f"{said[0]} by python-jsonschema, {said[1]} by the ECMA oracle",
        disagree,
    )


def judge(
    pair: HistoryPair, findings: list[Finding], *, seconds: float, old: Version, new: Version,
    samples: Sequence[Any],
) -> Verdict:  # fmt: skip
    verdict = Verdict(pair, findings, seconds)
    for finding in findings:
        if finding.witness is not None:
            problem, disagree = _witness_problem(finding, old, new)
            if problem is not None:
                verdict.bad_witnesses.append(problem)
                verdict.judges_disagree += disagree
            elif BACKWARD in finding.categories or FORWARD in finding.categories:
                direction = BACKWARD if BACKWARD in finding.categories else FORWARD
                verdict.separated.setdefault(direction, json.loads(finding.witness))
        about = _about_what_did_not_change(pair, finding)
        if about is not None:
            verdict.unchanged.append(about)
        if "$defs" in finding.message and "$defs" not in pair.old_text + pair.new_text:
            verdict.internal.append(f"{finding.rule}: {finding.message}")
    reported = verdict.directions()
    for document in samples:
        verdict.sampled += 1
        (plain_old, ecma_old), (plain_new, ecma_new) = (
            old.verdicts(document),
            new.verdicts(document),
        )
        if plain_old != ecma_old or plain_new != ecma_new:
            # The judges differ (a pattern read by Python's re and by ECMA-262): counted apart;
            # the check reads patterns as ECMA-262, so what that reading separates must show.
            verdict.judges_disagree += 1
            if ecma_old != ecma_new:
                direction = BACKWARD if ecma_old else FORWARD
                if direction not in reported:
                    verdict.silent.setdefault(direction, document)
            continue
        if plain_old == plain_new:
            continue
        direction = BACKWARD if plain_old else FORWARD
        verdict.separated.setdefault(direction, document)
        verdict.sampled_apart.add(direction)
        if direction not in reported:
            verdict.silent.setdefault(direction, document)
    return verdict


# ---------------------------------------------------------------------------- documents


class _Walker:
    """Seeded candidates of a schema: each keyword read loosely (a candidate, not a member)."""

    def __init__(self, document: Any, rng: random.Random, constants: list[Any],
                 names: list[str]) -> None:  # fmt: skip
        self.root, self.rng, self.constants, self.names = document, rng, constants, names

    def _target(self, ref: str) -> Any:
        if not ref.startswith("#"):
            return True
        try:
            return resolve_pointer(self.root, ref[1:])
        except LookupError:
            return True

    def value(self, schema: Any, depth: int = 0) -> Any:
        rng = self.rng
        if not isinstance(schema, dict) or depth > 12:
            return rng.choice([None, 0, "a", True, [], {}])
        if "$ref" in schema and rng.random() < 0.9:
            return self.value(self._target(schema["$ref"]), depth + 1)
        if "const" in schema:
            return copy.deepcopy(schema["const"])
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return copy.deepcopy(rng.choice(schema["enum"]))
        for key in ("oneOf", "anyOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                chosen = rng.choice(schema[key])
                merged = {k: v for k, v in schema.items() if k != key}
                if isinstance(chosen, dict):
                    merged.update(chosen)
                return self.value(merged, depth + 1)
        if isinstance(schema.get("allOf"), list) and schema["allOf"]:
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for member in schema["allOf"]:
                part = (
                    self._target(member["$ref"])
                    if isinstance(member, dict) and "$ref" in member
                    else member
                )
                if isinstance(part, dict):
                    for k, v in part.items():
                        if k == "properties" and isinstance(merged.get(k), dict):
                            merged[k] = {**merged[k], **v}
                        elif k not in merged:
                            merged[k] = v
            return self.value(merged, depth + 1)
        kinds = schema.get("type")
        if isinstance(kinds, list):
            kinds = rng.choice(kinds) if kinds else None
        if kinds is None:
            if "properties" in schema or "additionalProperties" in schema:
                kinds = "object"
            elif "items" in schema:
                kinds = "array"
            else:
                kinds = rng.choice(["string", "integer", "boolean", "object", "null"])
        if kinds == "object":
            return self._object(schema, depth)
        if kinds == "array":
            items = schema.get("items", {})
            if isinstance(items, list):
                return [self.value(s, depth + 1) for s in items]
            count = (
                rng.choice([0, 1, 1, 2, 3]) if not schema.get("minItems") else schema["minItems"]
            )
            return [self.value(items, depth + 1) for _ in range(count)]
        if kinds == "string":
            examples = schema.get("examples")
            if isinstance(examples, list) and examples and rng.random() < 0.5:
                return copy.deepcopy(rng.choice(examples))
            if "default" in schema and rng.random() < 0.3:
                return copy.deepcopy(schema["default"])
            low = int(schema.get("minLength", 0) or 0)
            return rng.choice(["a" * max(low, 1), "x" * low, "1.0.0", "https://a.example/b", "*"])
        if kinds in ("integer", "number"):
            low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
            low = low if isinstance(low, int | float) and not isinstance(low, bool) else 0
            return rng.choice([int(low), int(low) + 1, 1, 0]) if kinds == "integer" else 1.5
        if kinds == "boolean":
            return rng.random() < 0.5
        return None

    def _object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        rng = self.rng
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [n for n in schema.get("required") or [] if isinstance(n, str)]
        chosen = set(required)
        for name in properties:
            if rng.random() < (0.5 if depth < 3 else 0.2):
                chosen.add(name)
        result: dict[str, Any] = {}
        for name in sorted(chosen):
            result[name] = self.value(properties.get(name, {}), depth + 1)
        patterns = schema.get("patternProperties")
        if isinstance(patterns, dict) and patterns and rng.random() < 0.3:
            sub = rng.choice(list(patterns.values()))
            result[rng.choice(["a", "x1", "name"])] = self.value(sub, depth + 1)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and rng.random() < 0.3:
            result[rng.choice(["key", "k2"])] = self.value(extra, depth + 1)
        return result


def _constants_and_names(*documents: Any) -> tuple[list[Any], list[str]]:
    constants: list[Any] = [None, True, False, 0, 1, -1, 1.5, "", "a", [], {}]
    names: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if "const" in node:
                constants.append(node["const"])
            if isinstance(node.get("enum"), list):
                constants.extend(node["enum"])
            for key in ("properties", "patternProperties"):
                if isinstance(node.get(key), dict):
                    names.update(k for k in node[key] if key == "properties")
            if isinstance(node.get("required"), list):
                names.update(n for n in node["required"] if isinstance(n, str))
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    for document in documents:
        visit(document)
    unique = list({json.dumps(c, sort_keys=True): c for c in constants}.values())
    return unique, sorted(names)


def _places(document: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _places(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from _places(value, (*path, index))


def _set(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    holder = document
    for token in path[:-1]:
        holder = holder[token]
    holder[path[-1]] = value
    return document


def mutated(document: Any, rng: random.Random, constants: list[Any], names: list[str]) -> Any:
    """One small edit of ``document``: a value replaced by a constant or by a value of another
    type, a property (named by either version) added, or one dropped."""
    result = copy.deepcopy(document)
    places = list(_places(result))
    path = rng.choice(places)
    holder = result
    for token in path:
        holder = holder[token]
    roll = rng.random()
    if isinstance(holder, dict) and roll < 0.3 and holder:
        del holder[rng.choice(sorted(holder))]
        return result
    if isinstance(holder, dict) and roll < 0.6:
        name = rng.choice(names) if names and rng.random() < 0.8 else "zz_unknown"
        holder[name] = copy.deepcopy(rng.choice(constants))
        return result
    if isinstance(holder, list) and holder and roll < 0.5:
        holder.append(copy.deepcopy(holder[0]) if rng.random() < 0.5 else rng.choice(constants))
        return result
    return _set(result, path, copy.deepcopy(rng.choice(constants)))


def _hypothesis(version: Version, count: int, seed: int, seconds: float = 5.0) -> list[Any]:
    """Up to ``count`` documents hypothesis-jsonschema draws from the version within
    ``seconds`` (none when it cannot read the schema). It draws in a child process, ended when
    its time is up: its canonicalisation of a large real schema may not end."""
    if count <= 0:
        return []
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)

    def child() -> None:
        drawn: list[Any] = []
        with contextlib.suppress(BaseException):
            _draw(version, count, drawn)
        sending.send(json.dumps(drawn))

    process = context.Process(target=child, daemon=True)
    process.start()
    text = receiving.recv() if receiving.poll(seconds) else "[]"
    process.kill()
    process.join()
    result: list[Any] = json.loads(text)
    return result


def _draw(version: Version, count: int, drawn: list[Any]) -> None:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st
    from hypothesis_jsonschema import from_schema

    from tests._conformance import (
        draft7_generation_schema,
        install_hypothesis_jsonschema_shim,
    )

    install_hypothesis_jsonschema_shim()
    try:
        schema = draft7_generation_schema(version.tree, version.tree.files[0].title, depth=2)
        if len(json.dumps(schema)) > 400_000:
            return  # inlined past reason: the walker samples this one
        strategy = from_schema(schema)
    except Exception:
        return

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(data=st.data())
    def draw(data: st.DataObject) -> None:
        drawn.append(data.draw(strategy))

    with warnings.catch_warnings(), contextlib.suppress(Exception):
        warnings.simplefilter("ignore")
        draw()


def documents(
    pair: HistoryPair, old: Version, new: Version, *, seed: int, walked: int, drawn: int,
    real: Sequence[Any] = (),
) -> list[Any]:  # fmt: skip
    """Candidates that may separate the versions: walked from each version, drawn by
    hypothesis-jsonschema, the real documents given, and one mutation of each."""
    rng = random.Random(f"{seed}:{pair.name}")
    constants, names = _constants_and_names(pair.old, pair.new)
    found: list[Any] = list(real)
    for version in (old, new):
        walker = _Walker(version.document, rng, constants, names)
        found += [walker.value(version.document) for _ in range(walked)]
        found += _hypothesis(version, drawn, seed)
    found += [mutated(d, rng, constants, names) for d in list(found) for _ in range(2)]
    unique = {json.dumps(d, sort_keys=True): d for d in found}
    return list(unique.values())


def check_pair(
    pair: HistoryPair, *, seed: int = 0, walked: int = 40, drawn: int = 10,
    real: Sequence[Any] = (),
) -> Verdict:  # fmt: skip
    """Run the breaking check on the pair and judge what it said."""
    with tempfile.TemporaryDirectory(prefix="history-") as scratch:
        try:
            findings, seconds, old, new = run_breaking(pair, Path(scratch))
        except Exception as exc:  # reported in the verdict: every pair must be checked
            return Verdict(pair, [], 0.0, error=f"{type(exc).__name__}: {exc}")
        samples = documents(pair, old, new, seed=seed, walked=walked, drawn=drawn, real=real)
        return judge(pair, findings, seconds=seconds, old=old, new=new, samples=samples)


def summary(verdicts: Sequence[Verdict]) -> str:
    """The figures of a run: silent passes, bad witnesses, findings about what did not
    change, unproven pairs, errors, and the time per pair (median, max)."""
    times = [v.seconds for v in verdicts if not v.error]
    slowest = max(verdicts, key=lambda v: v.seconds) if verdicts else None
    lines = [
        f"pairs: {len(verdicts)}; errors: {sum(bool(v.error) for v in verdicts)}",
        f"silent passes: {sum(len(v.silent) for v in verdicts)} (pair, direction) cases",
        f"bad witnesses: {sum(len(v.bad_witnesses) for v in verdicts)}",
        f"findings about what did not change: {sum(len(v.unchanged) for v in verdicts)}",
        f"messages naming the internal form ($defs in a file without): "
        f"{sum(len(v.internal) for v in verdicts)}",
        f"pairs with CHANGE_UNPROVEN: {sum(v.unproven for v in verdicts)}",
        f"(pair, direction) cases separated: {sum(len(v.separated) for v in verdicts)} "
        f"(by a checked witness or a sampled document; by a sampled document: "
        f"{sum(len(v.sampled_apart) for v in verdicts)}); documents sampled: "
        f"{sum(v.sampled for v in verdicts)}; the two judges disagree on "
        f"{sum(v.judges_disagree for v in verdicts)} (counted apart)",
    ]
    if times and slowest is not None:
        lines.append(
            f"time per pair: median {statistics.median(times):.2f} s, max {max(times):.2f} s "
            f"({slowest.pair.name}); over 2 s: {sum(t > 2.0 for t in times)}"
        )
    return "\n".join(lines)
