"""The names a schema folder generates: Python modules from file paths, classes from titles.

Any valid schema generates, whatever its file is called and whatever its title says; the names
are derived by these rules, the same on every run and every machine (docs/schemas.md, "Names"):

* **Modules**: each folder and each file name (without ``.json``) in snake_case: CamelCase
  words split (``GitHubWorkflow`` -> ``git_hub_workflow``), every run of other characters an
  underscore (``compose-spec`` -> ``compose_spec``, ``foo.v2`` -> ``foo_v2``), lower case; a
  name starting with a digit gets a leading underscore (``1password`` -> ``_1password``), a
  Python keyword a trailing one (``class`` -> ``class_``), an empty one is ``schema``.
* **Classes**: the contract's ``title`` when it is a class name (an identifier starting with a
  capital), else its words in PascalCase, each word's first letter raised and the rest kept
  (``GitHub Workflow`` -> ``GitHubWorkflow``, ``openHAB 5.1`` -> ``OpenHAB51``); without a
  title, the file name's words (``compose-spec.json`` -> ``ComposeSpec``). A class name that
  would start with a digit is prefixed ``Schema``. A ``$defs`` entry (``definitions`` in the
  older drafts) is a class of its own when it has a title or is an object schema (``type``
  ``object``): named from its title the same way, else from its key (``order-line`` ->
  ``OrderLine``).
* **Collisions**: the files (and folders) of one folder whose module names are the same, or
  the same as a subfolder's, are numbered in the order of their file names (``foo_bar``,
  ``foo_bar_2``...); so are two classes of the tree with one name, in the order of their files
  and pointers (``Config``, ``Config2``...), and a class named as a name the generated modules
  use (:data:`RESERVED`: pydantic's ``Field``, typing's ``Any``...), which would shadow it
  (``Field2``). ``maverick-codegen lint`` reports each.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = ["RESERVED", "Names", "class_name", "derive", "is_class_name", "module_name"]

# The names a generated module holds besides its classes, which a class must not shadow: what
# datamodel-code-generator imports for the skeleton's keywords (pydantic's classes and strict
# types, typing's, enum's), what the postprocessor adds (typing's Self, pydantic's MISSING,
# pydantic-core's error, the package's _types helpers), the registry's names, and below
# Python's capitalised builtins (a fixed list: the same names on every Python version).
RESERVED = frozenset((
    "AliasChoices", "Annotated", "Any", "BaseModel", "ClassVar", "ConfigDict", "Discriminator",
    "Field", "JsonInt", "JsonNumber", "Literal", "MISSING", "Optional",
    "PydanticCustomError", "RootModel", "Self", "StrEnum", "StrictBool", "StrictBytes",
    "StrictFloat", "StrictInt", "StrictStr", "TYPE_CHECKING", "Tag", "TypeAlias", "Union",
    "AGENT_CONTRACTS", "CONTRACTS", "ContractInfo",
)) | frozenset((  # Python's builtins a class name could be: pydantic would resolve an annotation
    # to the builtin before the module's class is defined, and the checks raise some of them.
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
    "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
    "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
    "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError",
    "Exception", "ExceptionGroup", "FileExistsError", "FileNotFoundError", "FloatingPointError",
    "FutureWarning", "GeneratorExit", "IOError", "ImportError", "ImportWarning",
    "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError", "KeyError",
    "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError", "NameError",
    "NotADirectoryError", "NotImplemented", "NotImplementedError", "OSError", "OverflowError",
    "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
    "PythonFinalizationError", "RecursionError", "ReferenceError", "ResourceWarning",
    "RuntimeError", "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError",
    "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError", "TypeError",
    "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError",
    "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError", "Warning",
    "ZeroDivisionError",
))  # fmt: skip
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_OTHER = re.compile(r"[^0-9A-Za-z_]+")
_WORDS = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Names:
    """What one file generates: its module path below the package, its classes by pointer."""

    module_parts: tuple[str, ...]
    classes: Mapping[str, str]  # internal pointer ("" the contract) -> class name


def is_class_name(title: object) -> bool:
    """Whether ``title`` is a Python class name (an identifier starting with a capital)."""
    return (
        isinstance(title, str)
        and title.isidentifier()
        and title[0].isupper()
        and not keyword.iskeyword(title)
    )


def module_name(name: str) -> str:
    """A file's or folder's name (without ``.json``) as a Python module name."""
    if name.isidentifier() and name == name.lower() and not keyword.iskeyword(name):
        return name  # snake_case already: as it is
    snake = _OTHER.sub("_", _CAMEL.sub("_", name)).strip("_").lower()
    snake = re.sub("_+", "_", snake) or "schema"
    if snake[0].isdigit():
        snake = "_" + snake
    return snake + "_" if keyword.iskeyword(snake) else snake


def class_name(title: object, file_name: str) -> str:
    """The class name of a contract titled ``title`` in a file called ``file_name``."""
    if is_class_name(title):
        return str(title)
    source = title if isinstance(title, str) and _WORDS.search(title) else file_name
    name = "".join(w[0].upper() + w[1:] for w in _WORDS.findall(source)) or "Schema"
    if not name[0].isalpha():
        name = "Schema" + name
    return name + "_" if keyword.iskeyword(name) else name


def _numbered(name: str, taken: set[str], separator: str) -> str:
    found, n = name, 1
    while found in taken:
        n += 1
        found = f"{name}{separator}{n}"
    taken.add(found)
    return found


def derive(
    files: Iterable[tuple[PurePosixPath, object, Mapping[str, tuple[object, str, bool]]]],
) -> dict[PurePosixPath, Names]:
    """The names of every file of a folder: ``(path, title, {pointer: (title, key, object
    schema) of each $defs entry})``, in any order (the result does not depend on it)."""
    entries = sorted(files, key=lambda f: f[0].parts)
    modules: dict[PurePosixPath, tuple[str, ...]] = {}
    folders: dict[tuple[str, ...], tuple[str, ...]] = {(): ()}
    taken: dict[tuple[str, ...], set[str]] = {}  # derived folder -> names used in it
    for rel, _, _ in entries:  # folders first: a file never takes a package's name
        for depth in range(1, len(rel.parts)):
            written = rel.parts[:depth]
            if written not in folders:
                parent = folders[written[:-1]]
                used = taken.setdefault(parent, set())
                folders[written] = (*parent, _numbered(module_name(written[-1]), used, "_"))
    for rel, _, _ in entries:
        parent = folders[rel.parts[:-1]]
        stem = rel.name[: -len(".json")] if rel.name.endswith(".json") else rel.name
        used = taken.setdefault(parent, set())
        modules[rel] = (*parent, _numbered(module_name(stem), used, "_"))
    classes: set[str] = set(RESERVED)
    names: dict[PurePosixPath, Names] = {}
    for rel, title, defs in entries:
        stem = rel.name[: -len(".json")] if rel.name.endswith(".json") else rel.name
        found = {"": _numbered(class_name(title, stem), classes, "")}
        for pointer, (entry_title, key, is_object) in defs.items():  # the document's order
            titled = isinstance(entry_title, str) and bool(_WORDS.search(entry_title))
            if titled or is_object:
                found[pointer] = _numbered(class_name(entry_title, key), classes, "")
        names[rel] = Names(modules[rel], found)
    return names
