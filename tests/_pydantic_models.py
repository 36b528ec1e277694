"""Pydantic v2 models as a team has them: what ``tests/test_pydantic_round_trip.py`` exports
with ``model_json_schema()``, generates from and compares.

Together they cover schemas with and without ``$defs`` (nested, self-recursive and mutually
recursive models), ``Optional[X]`` and ``X | None``, ``Literal``, ``Enum`` (str and int),
``Field`` constraints (``min_length``, ``max_length``, ``pattern``, ``ge``/``le``/``gt``/``lt``,
``multiple_of``, list lengths), defaults (scalar, list, enum, model), aliases, discriminated and
plain unions, ``dict[str, X]``, tuples, sets, ``extra="forbid"``, and titles and descriptions
on fields: pydantic writes a property's ``title``, ``default`` and constraints side by side.
Patterns are ones that Rust's regex (pydantic), ECMA-262 and Python's ``re`` read alike.
"""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal
from enum import Enum, IntEnum, StrEnum
from typing import Annotated, Any, Generic, Literal, Optional, TypeVar, Union

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, PositiveInt, RootModel
from pydantic.alias_generators import to_camel


class Scalars(BaseModel):
    """No ``$defs``: scalars, their constraints, ``Optional``, ``Literal`` and defaults."""

    name: str = Field(
        "abc", title="Name", description="A display name.", min_length=2, max_length=8
    )
    code: str = Field(pattern=r"^[A-Z]{2}-[0-9]{3}$")
    count: int = Field(ge=0, le=10)
    ratio: float = Field(gt=0, lt=1)
    step: int = Field(10, multiple_of=5, ge=0)
    weight: float = Field(0.5, multiple_of=0.25)
    flag: bool = False
    note: Optional[str] = None  # noqa: UP045 (the spelling is what is covered)
    maybe: int | None = Field(None, ge=1)
    required_or_null: str | None
    mode: Literal["fast", "slow"] = "fast"
    version: Literal[1] = 1
    mixed: Literal["x", 2, True] | None = None


class Line(BaseModel):
    sku: str = Field(min_length=1, pattern=r"^[A-Z]+-[0-9]+$")
    qty: int = Field(1, ge=1, description="How many.")


class Order(BaseModel):
    """The issue's two-class model, and a few more shapes of nested models."""

    id: str
    lines: list[Line] = Field(min_length=1, max_length=3)
    gift: Line | None = None
    first: Line = Field(default=Line(sku="A-1", qty=2), title="First line")
    extra: list[Line] = []
    tags: list[str] = Field(default=["new"], max_length=2)


class Tree(BaseModel):
    """Self-recursive."""

    value: int
    children: list[Tree] = []
    parent: Optional[Tree] = None  # noqa: UP045


class Folder(BaseModel):
    """Mutually recursive through ``File``."""

    name: str
    files: list[File] = []


class File(BaseModel):
    name: str = Field(max_length=5)
    inside: Folder | None = None


class Color(StrEnum):
    RED = "red"
    GREEN = "green"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


class Enums(BaseModel):
    color: Color
    level: Level = Level.LOW
    maybe_color: Color | None = None
    levels: list[Level] = []


class Cat(BaseModel):
    pet_type: Literal["cat"]
    meows: int = Field(ge=0)


class Dog(BaseModel):
    pet_type: Literal["dog"]
    barks: float = 1.0


class Lizard(BaseModel):
    pet_type: Literal["reptile", "lizard"]
    scales: bool


class Pets(BaseModel):
    """Discriminated unions (with and without a default) beside plain ones."""

    pet: Cat | Dog | Lizard = Field(discriminator="pet_type")
    pets: list[Annotated[Union[Cat, Dog], Field(discriminator="pet_type")]] = []  # noqa: UP007
    maybe_pet: Annotated[Cat | Dog, Field(discriminator="pet_type")] | None = None
    either: Cat | Dog | None = None
    scalar: int | str = 0
    number_or_list: float | list[int] = Field(default_factory=list)


class Collections(BaseModel):
    counts: dict[str, int] = {}
    lines: dict[str, Line] = Field(default_factory=dict, max_length=2)
    pair: tuple[int, str]
    triple: tuple[str, int, bool] | None = None
    many: tuple[int, ...] = ()
    unique: set[int] = Field(default_factory=set)
    nested: list[list[int]] = Field([[1]], min_length=1)


class Aliased(BaseModel):
    """Aliases on required and defaulted fields; the model takes only the alias."""

    model_config = ConfigDict(extra="forbid")

    user_name: str = Field(alias="userName", min_length=1)
    user_age: int = Field(0, alias="user-age", ge=0)
    home: Line | None = Field(None, alias="Home")


class Settings(BaseModel):
    """``extra="forbid"``, a model default, an enum default and titled constrained defaults."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field("Untitled", title="Title", description="Shown on top.", min_length=1)
    retries: int = Field(3, title="Retries", ge=0, le=5, multiple_of=1)
    color: Color = Color.GREEN
    line: Line = Line(sku="B-2")
    ids: list[int] = Field([1, 2], title="Ids", min_length=1, max_length=4)
    limits: dict[str, float] = {"cpu": 1.5}


class Status(str, Enum):  # noqa: UP042 (as older code writes it)
    IN_PROGRESS = "in-progress"
    FIRST = "1st"
    EMPTY = ""


class Awkward(BaseModel):
    """What a Python class cannot spell as written: keywords, dashes, digits, ``model_``
    names and names of BaseModel's own attributes, as aliases; enum values that are no
    identifiers; defaults the field's own schema refuses (``int = None``, a default shorter
    than its ``min_length``)."""

    model_config = ConfigDict(title="Awkward Things", populate_by_name=True)

    from_: str = Field("x", alias="from")
    class_: int | None = Field(None, alias="class")
    first: str = Field("a", alias="1st")
    model_type: str = Field("m", alias="model_type")
    dump: bool = Field(False, alias="model_dump")
    copy_: list[int] = Field([], alias="copy")
    json_: dict[str, Any] = Field({}, alias="json")
    status: Status = Status.FIRST
    count: int = None  # type: ignore[assignment] # a default its type refuses
    short: str = Field("a", min_length=2)  # a default its constraint refuses
    anything: Any = None
    items_: list[Any] = Field(default_factory=list, alias="items")


class Formats(BaseModel):
    """Formats (annotations in draft 2020-12; pydantic checks them) and pydantic's Decimal
    schema (a number or a string with a lookahead pattern)."""

    when: datetime.datetime | None = None
    day: datetime.date = datetime.date(2024, 1, 31)
    id: uuid.UUID | None = None
    price: Decimal = Decimal("1.50")
    positive: PositiveInt = 1
    limits: list[Annotated[int, Field(gt=0, le=100)]] = [1]
    blob: bytes = b""


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """A generic model: its title (``Page[Line]``) is no class name."""

    items: list[T]
    next: Page[T] | None = None
    total: Annotated[int, Field(ge=0)] = 0


class Numbers(RootModel[list[Annotated[float, Field(ge=0)]]]):
    """A root model: the schema of an array, not of an object."""


class Choice(RootModel[Cat | Dog | int]):
    """A root model of a plain union with a scalar."""


class Node(BaseModel):
    """Recursive through a dict, camel-case aliases from the configuration."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    node_name: str = Field(validation_alias=AliasChoices("nodeName", "name"))
    sub_nodes: dict[str, Node] = {}


class Misc(BaseModel):
    """Keys restricted by ``propertyNames``, constraints inside ``Optional`` and lists, a
    ``$ref`` beside a title, description, default and examples, ``deprecated``, frozensets,
    ``Literal[None]``, a discriminated union in a list in a dict."""

    by_level: dict[Literal["low", "high"], int] = {}
    by_code: dict[Annotated[str, Field(pattern=r"^[a-z]+$")], list[Line]] = {}
    short: Annotated[str, Field(min_length=2)] | None = None
    sizes: list[Annotated[int, Field(multiple_of=3)] | None] = []
    line: Line = Field(
        Line(sku="C-3"), title="Main line", description="The main one.", examples=[{"sku": "D-4"}]
    )
    old: int | None = Field(None, deprecated=True)
    codes: frozenset[str] = Field(frozenset(), max_length=3)
    nothing: Literal[None] = None
    number: int | float | None = Field(None, ge=-1.5, lt=1e6)
    pets: dict[str, list[Annotated[Cat | Dog, Field(discriminator="pet_type")]]] = {}
    node: Node | None = None


class Num(BaseModel):
    op: Literal["num"]
    value: float


class Add(BaseModel):
    op: Literal["add"]
    left: Expr
    right: Expr


class Neg(BaseModel):
    op: Literal["neg"]
    arg: Expr


Expr = Annotated[Num | Add | Neg, Field(discriminator="op")]


class Program(BaseModel):
    """A recursive discriminated union (an expression tree)."""

    body: list[Expr] = Field(min_length=1)
    result: Expr | None = None


class One(BaseModel):
    kind: Literal[1]
    text: str = ""


class Two(BaseModel):
    kind: Literal[2, 3]
    flag: Literal[True] = True


class Case(Enum):
    LOWER = "a"
    UPPER = "A"
    NUMBER = 1
    HALF = 1.5


class Ratio(float, Enum):
    HALF = 0.5
    TWO = 2.0


class Tagged(BaseModel):
    """Integer tags of a discriminated union (``1.0`` is the JSON number ``1``), enumerations
    of mixed and float values, ``Literal[True]`` beside ``Literal[1]``."""

    item: One | Two = Field(discriminator="kind")
    case: Case = Case.NUMBER
    ratio: Ratio = Ratio.TWO
    pair: tuple[int, str] = (1, "a")
    maybe: Optional[Literal["a"]] = "a"  # noqa: UP045


MODELS: tuple[type[BaseModel], ...] = (
    Scalars,
    Order,
    Tree,
    Folder,
    Enums,
    Pets,
    Collections,
    Aliased,
    Settings,
    Awkward,
    Formats,
    Page[Line],
    Numbers,
    Choice,
    Misc,
    Program,
    Tagged,
)
