"""Gather the corpus of real schemas (tests/corpus/) from packages that install here; seeded.

Run once, from the repository root, to (re)build ``tests/corpus/``:

    pip download --no-deps -d /tmp/corpus-wheels openapi-spec-validator==0.9.0 \
        openapi-schema-validator==0.9.0
    npm ci --prefix tests/consumers/typescript --no-audit --no-fund
    .venv/bin/python tests/corpus/gather.py /tmp/corpus-wheels ../shared/schemastore

(the second folder: SchemaStore's schemas with their test documents, in its layout;
``gather.py --schemastore-only FOLDER`` rebuilds that source alone, tests/corpus/schemastore.py).

It copies each schema file as its package ships it (or exports a pydantic model's
``model_json_schema()``) to ``schemas/<source>/``, each licence to ``licences/``, writes the
manifest ``sources.json`` and ``SOURCES.md``, then the documents of every file
(``documents.py``) to ``documents/<source>/``. The test and the bench read only these files.
"""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))

from tests import _schemastore  # noqa: E402  (the repository root is on the path only now)
from tests.corpus import documents, schemastore  # noqa: E402

SITE = Path(metadata.distribution("jsonschema").locate_file(""))
NODE = REPO / "tests" / "consumers" / "typescript" / "node_modules"
SPECS = "jsonschema_specifications/schemas"
# Models of the MCP protocol (revision 2025-11-25) and of A2A (v0.3) whose JSON Schema export
# is in the corpus: messages, results and the objects they carry.
MCP_MODELS = (
    "Tool",
    "CallToolRequest",
    "CallToolResult",
    "InitializeRequest",
    "InitializeResult",
    "ListToolsResult",
    "Resource",
    "Prompt",
    "GetPromptResult",
    "JSONRPCRequest",
    "JSONRPCErrorResponse",
    "CreateMessageRequest",
    "ElicitRequest",
    "ServerCapabilities",
)
A2A_MODELS = (
    "AgentCard",
    "Task",
    "Message",
    "SendMessageRequest",
    "JSONRPCResponse",
    "A2ARequest",
    "SecurityScheme",
    "TaskStatusUpdateEvent",
    "Part",
)


def _licence(dist: str, names: tuple[str, ...] = ("LICENSE", "COPYING")) -> str:
    """Copy a distribution's licence file(s) to licences/; the first copy's name."""
    found = [f for f in metadata.distribution(dist).files or () if Path(f.name).stem in names]
    copied = []
    for file in found:
        target = HERE / "licences" / f"{dist}-{Path(file.name).stem}.txt"
        target.write_text(Path(file.locate()).read_text(encoding="utf-8"), encoding="utf-8")
        copied.append(target.name)
    return ", ".join(sorted(copied))


def _entry(source: str, name: str, package: str, version: str, path: str, **more: Any) -> Any:
    return {"file": f"{source}/{name}", "source": source, "package": package,
            "version": version, "path": path, **more}  # fmt: skip


def _copy(origin: Path, source: str, name: str) -> None:
    target = HERE / "schemas" / source / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(origin, target)


def metaschemas() -> list[Any]:
    """Every metaschema and vocabulary metaschema jsonschema-specifications ships."""
    version = metadata.version("jsonschema-specifications")
    licence = _licence("jsonschema-specifications")
    found = []
    for origin in sorted((SITE / SPECS).rglob("*")):
        if origin.is_dir():
            continue
        rel = origin.relative_to(SITE / SPECS)
        name = rel.as_posix().replace("/vocabularies/", "-").replace("/", "-")
        name = name if name.endswith(".json") else name + ".json"
        source = "jsonschema-draft3" if rel.parts[0] == "draft3" else "jsonschema-metaschemas"
        _copy(origin, source, name)
        found.append(
            _entry(
                source,
                name,
                "jsonschema-specifications",
                version,
                f"{SPECS}/{rel.as_posix()}",
                licence="MIT",
                licence_file=licence,
            )
        )
    return found


def openapi(wheels: Path) -> list[Any]:
    """The OpenAPI document schemas (2.0 to 3.2) and the OpenAPI 3.1/3.2 schema dialects."""
    found = []
    for dist, prefix, licence in (
        ("openapi_spec_validator", "openapi_spec_validator/resources/schemas/", "Apache-2.0"),
        ("openapi_schema_validator", "openapi_schema_validator/schemas/", "BSD-3-Clause"),
    ):
        wheel = next(wheels.glob(f"{dist}-*.whl"))
        version = wheel.name.split("-")[1]
        package = dist.replace("_", "-")
        with zipfile.ZipFile(wheel) as archive:
            copied = []
            for member in archive.namelist():
                if "/licenses/" in member:
                    target = HERE / "licences" / f"{package}-{Path(member).name}.txt"
                    target.write_bytes(archive.read(member))
                    copied.append(target.name)
            for member in sorted(archive.namelist()):
                if not (member.startswith(prefix) and member.endswith(".json")):
                    continue
                rel = member[len(prefix) :]
                name = rel.replace("/schema.json", ".json").replace("/", "-")
                source = "openapi" if dist == "openapi_spec_validator" else "openapi-dialects"
                target = HERE / "schemas" / source / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(member))
                found.append(
                    _entry(
                        source,
                        name,
                        package,
                        version,
                        member,
                        licence=licence,
                        licence_file=", ".join(sorted(copied)),
                    )
                )
    return found


def shipped() -> list[Any]:
    """Schemas other tools ship: black's configuration, datamodel-code-generator's model
    metadata, jsonschema's Swagger 2.0 benchmark (with its documents), Ajv's own schemas."""
    found = []
    for dist, path, name in (
        ("black", "black/resources/black.schema.json", "black.schema.json"),
        ("datamodel-code-generator",
         "datamodel_code_generator/resources/model_metadata.schema.json",
         "model_metadata.schema.json"),
    ):  # fmt: skip
        _copy(SITE / path, "tools", name)
        found.append(
            _entry(
                "tools",
                name,
                dist,
                metadata.version(dist),
                path,
                licence="MIT",
                licence_file=_licence(dist),
            )
        )
    issue = json.loads((SITE / "jsonschema/benchmarks/issue232/issue.json").read_text())
    target = HERE / "schemas" / "swagger" / "swagger-2.0.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(issue[0]["schema"], indent=2) + "\n", encoding="utf-8")
    found.append(
        _entry(
            "swagger",
            "swagger-2.0.json",
            "jsonschema",
            metadata.version("jsonschema"),
            "jsonschema/benchmarks/issue232/issue.json (its test group's schema)",
            licence="MIT",
            licence_file=_licence("jsonschema"),
        )
    )
    package = json.loads((NODE / "ajv/package.json").read_text())
    (HERE / "licences" / "ajv-LICENSE.txt").write_text((NODE / "ajv/LICENSE").read_text())
    for path, name in (("lib/refs/json-schema-secure.json", "json-schema-secure.json"),
                       ("lib/refs/data.json", "data.json")):  # fmt: skip
        _copy(NODE / "ajv" / path, "ajv", name)
        found.append(
            _entry(
                "ajv",
                name,
                "ajv (npm)",
                package["version"],
                f"ajv/{path}",
                licence="MIT",
                licence_file="ajv-LICENSE.txt",
            )
        )
    return found


def pydantic_exports() -> list[Any]:
    """``model_json_schema()`` of MCP's (mcp-types) and A2A's (a2a-sdk) pydantic models."""
    import mcp_types._v2025_11_25 as mcp
    from a2a.compat.v0_3 import types as a2a

    found = []
    for module, dist, source, names in (
        (mcp, "mcp-types", "mcp", MCP_MODELS),
        (a2a, "a2a-sdk", "a2a", A2A_MODELS),
    ):
        licence = _licence(dist)
        spdx = "MIT" if dist == "mcp-types" else "Apache-2.0"
        for model in names:
            target = HERE / "schemas" / source / f"{model}.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            schema = getattr(module, model).model_json_schema()
            target.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
            found.append(
                _entry(
                    source,
                    f"{model}.json",
                    dist,
                    metadata.version(dist),
                    f"{module.__name__}.{model}.model_json_schema()",
                    licence=spdx,
                    licence_file=licence,
                )
            )
    return found


def from_schemastore(root: Path) -> list[Any]:
    """A seeded subset of SchemaStore's schemas (tests/corpus/schemastore.py), those whose
    references all resolve in the folder, with their documents (written here)."""
    folder = _schemastore.Folder(root)
    target = HERE / "licences" / "schemastore-LICENSE.txt"
    target.write_text((root / "LICENSE").read_text(encoding="utf-8"), encoding="utf-8")
    refused = {n for n in folder.names() if _schemastore.unresolved(folder, n)}
    return schemastore.gather(root, HERE, refused, target.name)


def main() -> None:
    """``gather.py WHEELS SCHEMASTORE``: every source; ``gather.py --schemastore-only
    SCHEMASTORE``: that source again, the others kept as they are."""
    if sys.argv[1] == "--schemastore-only":
        for folder in ("schemas", "documents"):
            shutil.rmtree(HERE / folder / schemastore.SOURCE, ignore_errors=True)
        kept = [f for f in manifest_files() if f["source"] != schemastore.SOURCE]
        files = sorted([*kept, *from_schemastore(Path(sys.argv[2]))], key=lambda f: f["file"])
        _write_manifest(files)
        return
    wheels = Path(sys.argv[1])
    for folder in ("schemas", "documents", "licences"):
        shutil.rmtree(HERE / folder, ignore_errors=True)
    (HERE / "licences").mkdir()
    files = [*metaschemas(), *openapi(wheels), *shipped(), *pydantic_exports()]
    for entry in files:
        entry["documents"] = documents.write(HERE, entry["file"])
    files += from_schemastore(Path(sys.argv[2]))
    files.sort(key=lambda f: f["file"])
    _write_manifest(files)


def manifest_files() -> list[Any]:
    files: list[Any] = json.loads((HERE / "sources.json").read_text(encoding="utf-8"))["files"]
    return files


def _write_manifest(files: list[Any]) -> None:
    manifest = {"files": files}
    (HERE / "sources.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (HERE / "SOURCES.md").write_text(documents.sources_page(files), encoding="utf-8")
    print(f"{len(files)} schemas")


if __name__ == "__main__":
    main()
