"""Exceptions raised by the bleucli library.

The library never prints and never exits: it raises one of these, and the CLI
(``bleucli.cli.report``) alone decides the message format and the exit code.
Each class says *what kind* of failure happened so that a caller can react to
the kind (bad data vs. bad option) without parsing messages.
"""

from __future__ import annotations


class BleucliError(Exception):
    """Base class of every error bleucli raises on purpose."""


class OptionError(BleucliError, ValueError):
    """An option value is invalid (unknown tokenizer, NaN smoothing value...)."""


class InputError(BleucliError, ValueError):
    """Input data cannot be scored as given.

    ``source`` names the file (or ``<stdin>``) and ``line`` the 1-based line
    when the problem is tied to one, so the message can point at it.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.message}" if where else self.message


class LengthMismatchError(InputError):
    """Hypothesis and reference streams have different numbers of segments."""


class SignatureMismatchError(BleucliError):
    """The computed signature differs from the one the caller expected."""

    def __init__(self, differences: list[tuple[str, str | None, str | None]]) -> None:
        self.differences = differences
        listed = ", ".join(
            f"{key}: expected {exp if exp is not None else '(absent)'}, got {got if got is not None else '(absent)'}"
            for key, exp, got in differences
        )
        super().__init__(f"signature mismatch ({listed})")
