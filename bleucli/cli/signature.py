"""``bleucli signature diff A B``: compare two signatures field by field (for CI scripts)."""

from __future__ import annotations

import click

from ..clikit.output import emit
from ..errors import SignatureMismatchError


@click.group()
def signature() -> None:
    """Work with score signatures."""


@signature.command("diff")
@click.argument("expected")
@click.argument("actual")
def diff(expected: str, actual: str) -> int:
    """Compare signature EXPECTED with ACTUAL (long or short form, with or without NAME|).

    Prints each differing field and exits 7 if any differ, 0 if they match.
    A value of '*' in EXPECTED matches anything (e.g. version:*).
    """
    from ..signature import Signature, parse_signature

    name_a, fields_a = parse_signature(expected)
    name_b, fields_b = parse_signature(actual, metric=name_a)
    if name_a and name_b and name_a != name_b:
        raise SignatureMismatchError([("metric", name_a, name_b)])
    actual_sig = Signature(metric=name_b or name_a or "BLEU", fields=tuple(fields_b.items()))
    differences = actual_sig.diff(fields_a)
    if differences:
        for key, exp, got in differences:
            emit(f"{key}: {exp if exp is not None else '(absent)'} -> {got if got is not None else '(absent)'}")
        raise SignatureMismatchError(differences)
    emit("signatures match")
    return 0
