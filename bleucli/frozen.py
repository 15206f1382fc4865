"""Immutable records with typed fields: the base of the option groups and of :class:`~bleucli.signature.Signature`.

A subclass declares its fields as annotated class attributes, with defaults,
the way a ``typing.NamedTuple`` or a frozen dataclass does, and gets the same
behaviour: keyword or positional construction, defaults, ``_replace``,
``_asdict``, ``_fields``, equality, hashing, a readable ``repr``, pickling
and no assignment after construction. mypy checks it as a frozen dataclass
(``dataclass_transform``).

Why not those two: they are created at import, and this module's subclasses
are imported by every command, ``--version`` included. A frozen dataclass
costs about 4.5M instructions to create and a ``NamedTuple`` about 0.9M,
because both compile generated source for each class; a subclass of this one
costs a dictionary walk (about 0.1M). Measured with
``valgrind --tool=cachegrind`` on ``bleucli --version``: the nine option
groups as NamedTuples were 3% of the whole command.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
elif sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover - Python 3.10: the decorator only informs type checkers

    def dataclass_transform(**_: Any) -> Any:
        return lambda cls: cls


_Self = TypeVar("_Self", bound="Frozen")


@dataclass_transform(frozen_default=True)
class Frozen:
    """Base class of immutable records; see the module docstring."""

    #: the field names, in declaration order (base classes' fields first)
    _fields: ClassVar[tuple[str, ...]] = ()
    #: the field names as a set (checking keyword arguments at once)
    _field_set: ClassVar[frozenset[str]] = frozenset()
    #: the defaults of the fields that have one
    _field_defaults: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls._fields)
        defaults = dict(cls._field_defaults)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if name.startswith("_") or "ClassVar" in str(annotation):
                continue
            if name not in fields:
                fields.append(name)
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
            elif defaults:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows a field with one")
        cls._fields = tuple(fields)
        cls._field_set = frozenset(fields)
        cls._field_defaults = defaults

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Set operations and one dict merge instead of a loop per field: every run builds a few
        # dozen records at start-up (the option groups, the metric registry's entries and flags).
        fields = self._fields
        if args:
            if len(args) > len(fields):
                raise TypeError(f"{type(self).__name__} takes {len(fields)} arguments, {len(args)} given")
            given = dict(zip(fields, args))
            if kwargs:
                if not given.keys().isdisjoint(kwargs):
                    twice = next(name for name in kwargs if name in given)
                    raise TypeError(f"{type(self).__name__} got {twice!r} twice")
                given.update(kwargs)
        else:
            given = kwargs
        if not given.keys() <= self._field_set:
            unknown = next(name for name in given if name not in self._field_set)
            raise TypeError(f"{type(self).__name__} has no field {unknown!r}")
        values = given
        if len(given) < len(fields):
            values = {**self._field_defaults, **given}
            if len(values) < len(fields):
                missing = next(name for name in fields if name not in values)
                raise TypeError(f"{type(self).__name__} needs {missing!r}")
        self.__dict__.update(values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: use _replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _astuple(self) -> tuple[Any, ...]:
        return tuple(self.__dict__[name] for name in self._fields)

    def _asdict(self) -> dict[str, Any]:
        """The fields and their values, in declaration order."""
        return {name: self.__dict__[name] for name in self._fields}

    def _replace(self: _Self, **changes: Any) -> _Self:
        """A copy with some fields changed (``NamedTuple._replace``, ``dataclasses.replace``)."""
        return type(self)(**{**self.__dict__, **changes})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._astuple() == other._astuple()

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, self._astuple()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._astuple())
