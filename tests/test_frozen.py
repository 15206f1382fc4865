"""bleucli.frozen.Frozen, the base of the option groups and Signature: a frozen NamedTuple/dataclass."""

from __future__ import annotations

import pickle

import pytest

from bleucli.frozen import Frozen
from bleucli.options import BLEUOptions, RunOptions, TEROptions
from bleucli.signature import Signature


class Point(Frozen):
    x: int
    y: int = 2
    label: str | None = None


def test_construction_defaults_and_order() -> None:
    assert Point._fields == ("x", "y", "label")
    assert Point(1)._asdict() == {"x": 1, "y": 2, "label": None}
    assert Point(1, 3, "a") == Point(x=1, y=3, label="a")
    with pytest.raises(TypeError, match="needs 'x'"):
        Point()
    with pytest.raises(TypeError, match="no field 'z'"):
        Point(1, z=3)
    with pytest.raises(TypeError, match="twice"):
        Point(1, x=1)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        Point(1, 2, "a", 4)


def test_immutable_and_replace() -> None:
    p = Point(1)
    with pytest.raises(AttributeError, match="immutable"):
        p.x = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.x  # type: ignore[misc]
    q = p._replace(y=7)
    assert (p.y, q.y, q.x) == (2, 7, 1)
    with pytest.raises(TypeError):
        p._replace(nope=1)


def test_equality_hash_repr_pickle() -> None:
    assert Point(1) != Point(2) and hash(Point(1)) == hash(Point(1))
    assert Point(1) != (1, 2, None)  # a record, not a tuple
    assert repr(Point(1, label="a")) == "Point(x=1, y=2, label='a')"
    assert pickle.loads(pickle.dumps(Point(1, 5))) == Point(1, 5)


def test_field_without_default_after_one_is_refused() -> None:
    with pytest.raises(TypeError, match="without a default"):
        class Bad(Frozen):  # noqa: F841
            a: int = 1
            b: int


def test_options_and_signature_are_frozen_records() -> None:
    options = RunOptions()
    assert options.metrics.bleu == BLEUOptions() and TEROptions.max_words == TEROptions().max_words == 2000
    assert options._replace(jobs=2).jobs == 2 and options.jobs == 1
    assert pickle.loads(pickle.dumps(options)) == options
    signature = Signature.build("BLEU", {"case": "mixed"}, nrefs=1, version="1")
    assert str(signature) == "nrefs:1|case:mixed|version:1"
    assert {signature: 1}[Signature("BLEU", signature.fields)] == 1
