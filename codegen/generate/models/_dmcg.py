"""The only module that imports datamodel-code-generator.

One call over the whole schema tree, with a small fixed set of options: in this process, or for
a large tree in a worker process (:class:`Generator`). The generator's own header (and its
timestamp) is replaced by ours, formatting is left to :mod:`codegen.generate.files.fmt`, and remote
references are never fetched.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from codegen.core.errors import CodegenError, Location
from codegen.generate.models.class_names import rename_classes

__all__ = [
    "HEADER_PLACEHOLDER",
    "WORKER_MIN_CHARS",
    "WORKER_MIN_FILES",
    "Generator",
    "generate_modules",
    "is_warm",
    "serve",
    "warm_up",
]

HEADER_PLACEHOLDER = "# @@maverick-codegen-header@@"

_warm = False  # whether this process has run the generator (see is_warm)


def generate_modules(
    schema_dir: Path,
    *,
    single_module: tuple[str, ...] | None = None,
    shown: Path | None = None,
    names: Mapping[str, str] | None = None,
) -> dict[tuple[str, ...], str]:
    """Generate one module per schema file below ``schema_dir``.

    ``shown`` is the folder named in error messages (the generator may run on a copy).

    ``single_module`` names the module when the tree holds one file
    (the generator then returns a bare string). Keys of the result are module paths such as
    ``("agents", "finding.py")``; package ``__init__.py`` files are not returned.

    ``names``: the class each schema must be (``"path/file.json#/pointer"``, as the generator
    reports where a class comes from, -> class name). The generator names the classes it makes
    of other schemas (an inline object, an enumeration) itself, and gives one of ours another
    name when one of those takes it first: :func:`rename_classes` gives ours their names
    afterwards, by its model metadata.
    """
    where = Location(shown or schema_dir)
    with tempfile.TemporaryDirectory(prefix="maverick-dmcg-") as scratch:
        metadata = Path(scratch) / "models.json"
        result = _generate(schema_dir, where, Path(scratch), metadata)
        made = _models(metadata) if names else []
    if isinstance(result, str):
        if single_module is None:
            raise CodegenError("generator returned one module for a tree", where)
        modules = {single_module: _lines(result)}
    elif result is None:
        raise CodegenError("generator returned nothing", where, "GENERATOR")
    else:
        modules = {
            tuple(key): _lines(code)
            for key, code in result.items()
            if tuple(key)[-1] != "__init__.py"
        }
    if not made:
        return modules
    try:
        return rename_classes(modules, made, names or {}, single_module)
    except Exception as exc:  # the generator's code defeated an edit: a bug of ours, named
        detail = f"{type(exc).__name__}: {exc}"
        raise CodegenError(
            f"maverick-codegen could not name the generated classes ({detail}); this is a bug "
            "of maverick-codegen, not of the schemas: please report it with them",
            where,
            "GENERATOR",
        ) from exc


def _lines(code: str) -> str:
    """``code`` with a carriage return (a description's, written as it is in a docstring) a line
    feed: Python counts it as a line end, and the edits split lines at line feeds only."""
    return code.replace("\r\n", "\n").replace("\r", "\n") if "\r" in code else code


def _models(metadata: Path) -> list[tuple[str, str, str]]:
    """(module, class name, where from) of each class the generator made (its metadata)."""
    models = json.loads(metadata.read_text(encoding="utf-8"))["models"]
    return [(str(m["module"]), str(m["class_name"]), str(m["source_ref"])) for m in models]


def _generate(schema_dir: Path, where: Location, scratch: Path, metadata: Path) -> Any:
    """One call of the generator (its model metadata written to ``metadata``)."""
    global _warm  # noqa: PLW0603 - one flag for the process
    import datamodel_code_generator as dmcg  # noqa: PLC0415  (kept out of start-up)

    options: dict[str, Any] = {
        "input_file_type": "jsonschema",
        "output_model_type": "pydantic_v2.BaseModel",
        "target_python_version": "3.11",
        "schema_version": "2020-12",
        # No formatter here: codegen.generate.files.fmt formats everything once, with the pinned
        # ruff.
        "formatters": [],
        "custom_file_header": HEADER_PLACEHOLDER,
        "disable_timestamp": True,
        "allow_remote_refs": False,
        "use_title_as_name": True,
        "use_schema_description": True,
        "use_annotated": True,
        "field_constraints": True,
        "use_standard_collections": True,
        "use_union_operator": True,
        "use_double_quotes": True,
        "use_exact_imports": True,
        "strict_nullable": True,
        "strict_types": ["str", "int", "float", "bool"],
        "enable_faux_immutability": True,
        "capitalise_enum_members": True,
        "deserialize_default_values": ["enum"],
        "keep_model_order": True,
        "strict_refs": True,
        # A $defs key with dots ("resource.azure.v0") names no module of its own.
        "treat_dot_as_module": False,
        "emit_model_metadata": metadata,
    }
    # The generator reads settings (black, isort, ruff tables) from the caller's directory:
    # point it at an empty folder so that the output never depends on it.
    neutral = scratch / "settings"
    neutral.mkdir(exist_ok=True)
    options["settings_path"] = neutral
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = dmcg.generate(schema_dir, **options)
        _warm = True
    except Exception as exc:  # the generator raises many unrelated types
        raise CodegenError(f"datamodel-code-generator failed: {exc}", where, "GENERATOR") from exc
    return result


# -- The generator in a worker process ---------------------------------------------------------
#
# On a large tree, generation runs in a child process so that the parent compiles validators,
# renders the registry and formats its own files meanwhile (two cores instead of one), and so
# that the child's import of the generator overlaps the parent's reading of the schemas. The
# modules are the same either way: the child calls generate_modules, and the parent raises the
# child's CodegenError as its own.

WORKER_MIN_FILES = 100
"""Trees of at least this many schema files are generated in a worker process; below, the
worker's start-up (an interpreter and the generator's import) costs more than it saves
(measured on bench_codegen's synthetic trees, best of 5: 64 files 0.91 s in this process
against 0.94 s with a worker, 128 files 1.40 s against 1.33 s)."""

WORKER_MIN_CHARS = 1_000_000
"""Schema files of at least this many characters in all (one file of a megabyte) are also
generated in a worker process, while this one compiles their validators
(``bench/bench_large.py``)."""

_BOOT = (
    "import os, sys; sys.path.insert(0, {root!r}); "
    "from codegen.generate.models._dmcg import serve; "
    "serve(); sys.stderr.flush(); os._exit(0)"
)
"""The worker's program. Once :func:`serve` has written (and flushed) its answer, the worker
leaves without the interpreter's teardown (freeing the generator's modules and objects costs
about 0.06 s, which the parent waits for); an exception in it still ends the usual way, with
its traceback on stderr and a non-zero status."""


def _run(request: dict[str, Any]) -> dict[tuple[str, ...], str]:
    single = request["single_module"]
    return generate_modules(
        Path(request["schema_dir"]),
        single_module=tuple(single) if single is not None else None,
        shown=Path(request["shown"]),
        names=request.get("names"),
    )


_WARM_UP = {
    "type": "object",
    "title": "WarmUp",
    "properties": {"name": {"type": "string", "minLength": 1}},
    "required": ["name"],
    "additionalProperties": False,
}


def warm_up() -> None:
    """Generate a one-line schema in this process: the generator imports most of itself on its
    first call, so the next one runs at full speed (:func:`is_warm` then holds)."""
    global _warm  # noqa: PLW0603 - one flag for the process
    with tempfile.TemporaryDirectory(prefix="maverick-warm-up-") as folder:
        (Path(folder) / "warm_up.json").write_text(json.dumps(_WARM_UP), encoding="utf-8")
        sys.stdout, shown = sys.stderr, sys.stdout  # what the generator prints goes to stderr
        try:
            generate_modules(Path(folder), single_module=("warm_up.py",))
        finally:
            sys.stdout = shown
    _warm = True


def is_warm() -> bool:
    """Whether this process has generated already (a small generation costs it little)."""
    return _warm


def serve() -> None:
    """The worker's main: get the generator ready, read one request, answer it on stdout.

    The worker warms up (:func:`warm_up`) while the parent reads the schemas, so that the
    request is answered at full speed.
    """
    warm_up()
    line = sys.stdin.readline()
    if not line:  # the parent stopped before asking (bad input): nothing to do
        return
    answers, sys.stdout = sys.stdout, sys.stderr  # stdout carries the answer and nothing else
    try:
        modules = _run(json.loads(line))
    except CodegenError as exc:
        answer: dict[str, Any] = {"error": exc.message, "rule": exc.rule}
    else:
        answer = {"modules": [[list(key), code] for key, code in modules.items()]}
    answers.write(json.dumps(answer))
    answers.flush()


class Generator:
    """One generation, asked for with :meth:`submit` and collected with :meth:`result`.

    In a worker process when ``in_worker`` (started at once, so that its import overlaps the
    caller's work), else in this process when the result is asked for. Use it as a context
    manager: leaving the block stops a worker whose result was never collected.
    """

    def __init__(self, *, in_worker: bool) -> None:
        self._request: dict[str, Any] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        if in_worker:
            root = str(Path(__file__).resolve().parents[2])
            self._process = subprocess.Popen(
                [sys.executable, "-c", _BOOT.format(root=root)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )

    @property
    def in_worker(self) -> bool:
        return self._process is not None

    def __enter__(self) -> Generator:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None and self._process.returncode is None:
            self._process.kill()
            self._process.communicate()

    def submit(
        self,
        schema_dir: Path,
        *,
        single_module: tuple[str, ...] | None,
        shown: Path,
        names: Mapping[str, str] | None = None,
    ) -> None:
        """Ask for the modules of ``schema_dir`` (see :func:`generate_modules`)."""
        self._request = {
            "schema_dir": str(schema_dir),
            "single_module": list(single_module) if single_module is not None else None,
            "shown": str(shown),
            "names": dict(names or {}),
        }
        if self._process is not None:
            assert self._process.stdin is not None
            try:
                self._process.stdin.write(json.dumps(self._request).encode() + b"\n")
                self._process.stdin.flush()
            except BrokenPipeError:
                pass  # the worker died: result() reports it, with what it wrote to stderr

    def result(self) -> dict[tuple[str, ...], str]:
        """The modules asked for; raises the generator's :class:`CodegenError`."""
        request = self._request
        if request is None:
            raise RuntimeError("result() before submit()")
        if self._process is None:
            return _run(request)
        out, err = self._process.communicate()
        try:
            answer = json.loads(out)
        except ValueError:
            raise RuntimeError(
                f"the datamodel-code-generator worker stopped with exit status "
                f"{self._process.returncode} and no answer:\n{err.decode(errors='replace')}"
            ) from None
        if "error" in answer:
            raise CodegenError(answer["error"], Location(Path(request["shown"])), answer["rule"])
        return {tuple(key): code for key, code in answer["modules"]}
