"""What the breaking check and jsoncompat say about each change pair, against the oracle.

For each pair and direction (``DATA_BACKWARD``: a document the old contract accepts and the
new one refuses; ``DATA_FORWARD``: the reverse), the search (:mod:`tests._separation`) finds
a separating document or not, and each checker reports the direction or not:

* separated and not reported: a **silent pass**;
* reported with a witness: the witness is checked (the old and new schemas per the oracle,
  and the old and new generated models, must separate it), else it is a **false alarm**;
* reported without a witness: **unproven** when the engine says so (rule
  :data:`UNPROVEN`; jsoncompat: an error), else (a claim without evidence) a false alarm
  where nothing separates the pair;
* on a pair whose accepted sets are equal by construction, any data finding is a false alarm.

Counts are of (pair, direction) cases. :func:`run` judges every pair and times each checker.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import jsoncompat

from codegen.breaking import table
from codegen.core.ecma import EcmaDraft202012Validator
from codegen.core.loader import SchemaFile, SchemaTree, iter_subschemas
from codegen.core.report import Finding
from tests._evolution import BACKWARD, FORWARD, Pair
from tests._separation import Generated, Side, candidates, separates

__all__ = ["DIRECTIONS", "UNPROVEN", "Case", "Tally", "bundled", "judge_findings", "run"]

DIRECTIONS = (BACKWARD, FORWARD)
UNPROVEN = "CHANGE_UNPROVEN"
ROLES = {BACKWARD: "deserializer", FORWARD: "serializer"}  # jsoncompat: old <= new, new <= old


@dataclass
class Case:
    """One pair: the separating documents found, and what each checker said."""

    pair: Pair
    separating: dict[str, tuple[str, Any]] = field(default_factory=dict)  # direction: title, doc
    findings: list[Finding] = field(default_factory=list)
    said: dict[str, dict[str, str]] = field(default_factory=dict)  # tool: direction: verdict
    problems: dict[str, list[str]] = field(default_factory=dict)  # tool: what went wrong
    witnesses_checked: int = 0
    unreadable: int = 0  # schemas hypothesis-jsonschema could not generate from


@dataclass
class Tally:
    """One checker's counts over every pair."""

    tool: str
    pairs: int = 0
    separated: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    silent: int = 0
    false_alarms: int = 0
    unproven: int = 0
    witnesses_checked: int = 0
    seconds: float = 0.0


def _titles_reaching(trees: Sequence[SchemaTree], pair: Pair, path: str) -> list[str]:
    """The pair's contracts whose closure holds the file a finding is located in."""
    found = [
        title
        for title in pair.contracts
        if any(
            title in tree.by_title
            and any(str(f.rel) == path for f in tree.closure(tree.by_title[title]))
            for tree in trees
        )
    ]
    return found or list(pair.contracts)


def _witness_problem(
    direction: str, text: str, old: Side, new: Side, titles: Sequence[str]
) -> str | None:
    """None when the witness separates some contract per both schemas and both models."""
    try:
        document = json.loads(text)
    except ValueError:
        return f"witness {text!r} is not JSON"
    want = (True, False) if direction == BACKWARD else (False, True)
    said = []
    for title in titles:
        schemas = (old.accepts(title, document), new.accepts(title, document))
        models = (old.model_accepts(title, text), new.model_accepts(title, text))
        if schemas == want and models == want:
            return None
        said.append(f"{title}: old/new schema {schemas}, old/new model {models}")
    return f"witness {text} does not separate ({'; '.join(said)})"


def judge_findings(case: Case, old: Side, new: Side) -> None:
    """Judge the engine's findings on one pair (fills case.said and case.problems)."""
    said, problems = case.said.setdefault("maverick", {}), case.problems.setdefault("maverick", [])
    for direction in DIRECTIONS:
        mine = [f for f in case.findings if direction in f.categories]
        good = False
        for finding in (f for f in mine if f.witness is not None):
            titles = _titles_reaching((old.tree, new.tree), case.pair, finding.path)
            problem = _witness_problem(direction, str(finding.witness), old, new, titles)
            case.witnesses_checked += 1
            if problem is None and direction not in case.separating:
                document = json.loads(str(finding.witness))
                case.separating[direction] = (titles[0], document)
            good = good or problem is None
            if problem is not None:
                problems.append(f"{direction} {finding.rule}: {problem}")
        if good:
            said[direction] = "witnessed"
        elif any(f.witness is not None for f in mine):
            said[direction] = "false witness"
        elif any(f.rule == UNPROVEN for f in mine):
            said[direction] = "unproven"
        else:
            said[direction] = "unwitnessed" if mine else "compatible"
    for finding in case.findings:
        data = [c for c in finding.categories if c in DIRECTIONS]
        if data and (len(data) != 1 or (finding.witness is None) != (finding.rule == UNPROVEN)):
            problems.append(
                f"{finding.rule} {finding.categories}: a data finding carries exactly one data "
                f"category, and a witness unless it is {UNPROVEN}"
            )


def bundled(tree: SchemaTree, contract: SchemaFile) -> dict[str, Any]:
    """One self-contained schema of ``contract`` for jsoncompat: every other file it reaches
    becomes a ``$defs`` entry of the root (keeping its own ``$defs``), every ``$ref`` a local
    pointer. (:func:`codegen.generate.consumers.bundle.structured_output_schema` refuses roots that
    are not objects, which random contracts often are.)"""
    names = {f.rel: f"file{i}" for i, f in enumerate(tree.closure(contract)) if f is not contract}

    def rewritten(schema: SchemaFile) -> dict[str, Any]:
        document = copy.deepcopy(schema.data)
        for key in ("$id", "$schema"):
            document.pop(key, None)
        for _, node in iter_subschemas(document):
            if isinstance(node.get("$ref"), str):
                target, pointer = tree.resolve(schema, node["$ref"])
                home = "" if target is contract else f"/$defs/{names[target.rel]}"
                node["$ref"] = f"#{home}{pointer}"
        return document

    root = rewritten(contract)
    if names:
        others = {names[f.rel]: rewritten(f) for f in tree.files if f.rel in names}
        root["$defs"] = {**root.get("$defs", {}), **others}
    return root


def _translatable(tree: SchemaTree) -> bool:
    """Whether a bundle of the internal form (draft 2020-12) decides as the files do: not
    where draft-04's integer refuses 1.0, nor where a reference is dynamic."""
    return all(f.draft.float_integers for f in tree.files) and not tree.dynamic


def _jsoncompat(case: Case, old: Side, new: Side) -> float:
    """jsoncompat's verdicts on one pair; returns the seconds its calls took."""
    said, seconds = case.said.setdefault("jsoncompat", {}), 0.0
    problems = case.problems.setdefault("jsoncompat", [])
    texts = {}
    for title in case.pair.contracts:
        bundles = tuple(bundled(s.tree, s.tree.by_title[title]) for s in (old, new))
        for side, bundle in zip((old, new), bundles, strict=True):
            if not _translatable(side.tree):
                continue  # no bundle of draft 2020-12 says what these files say: not checked
            oracle = EcmaDraft202012Validator(bundle)
            for document in [*case.pair.probes, *(d for _, d in case.separating.values())]:
                if oracle.is_valid(document) != side.accepts(title, document):
                    problems.append(f"the bundle of {title} decides {document!r} otherwise")
        texts[title] = (json.dumps(bundles[0]), json.dumps(bundles[1]))
    for direction in DIRECTIONS:
        verdicts = set()
        for before, after in texts.values():
            start = time.perf_counter()
            try:
                compatible = jsoncompat.check_compat(before, after, ROLES[direction])
            except ValueError:  # a schema or feature it cannot check soundly
                verdicts.add("error")
            else:
                verdicts.add("compatible" if compatible else "reported")
            seconds += time.perf_counter() - start
        said[direction] = next(v for v in ("reported", "error", "compatible") if v in verdicts)
    return seconds


def _count(tally: Tally, case: Case) -> None:
    said = case.said[tally.tool]
    tally.pairs += 1
    tally.witnesses_checked += case.witnesses_checked if tally.tool == "maverick" else 0
    for direction in DIRECTIONS:
        verdict, separated = said[direction], direction in case.separating
        tally.separated[direction] += separated
        if verdict == "compatible":
            tally.silent += separated
        elif case.pair.equal and verdict != "error":
            tally.false_alarms += 1  # no data finding at all where the sets are equal
        elif verdict in ("unproven", "error"):
            tally.unproven += 1
        elif verdict == "false witness" or (
            verdict in ("unwitnessed", "reported") and not separated
        ):
            tally.false_alarms += 1


def run(
    pairs: Sequence[Pair],
    generated: Generated,
    examples: int,
) -> tuple[list[Case], list[Tally]]:
    """Every pair judged: the search, then the engine's findings and jsoncompat's verdicts."""
    cases, tallies = [], [Tally("maverick"), Tally("jsoncompat")]
    for pair in pairs:
        start = time.perf_counter()
        old, new = generated.side(pair, "old"), generated.side(pair, "new")
        tallies[0].seconds += time.perf_counter() - start  # loading both trees: the engine's
        case = Case(pair)
        documents, case.unreadable = candidates(pair, old, new, examples)
        for direction in DIRECTIONS:
            for title in pair.contracts:
                hits = (d for d in documents if separates(direction, old, new, title, d))
                hit = next(hits, None)
                if hit is not None and direction not in case.separating:
                    case.separating[direction] = (title, hit)
        start = time.perf_counter()
        case.findings = table.compare(table.Side(old.tree, ""), table.Side(new.tree, ""))
        tallies[0].seconds += time.perf_counter() - start
        judge_findings(case, old, new)
        tallies[1].seconds += _jsoncompat(case, old, new)
        for tally in tallies:
            _count(tally, case)
        cases.append(case)
    return cases, tallies
