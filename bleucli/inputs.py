"""Loading references and systems from files and stdin, with sacreBLEU's conventions.

The CLI is a thin layer over these functions: they read, split and check
inputs and raise :class:`~bleucli.errors.InputError` (naming files and lines)
for anything that would otherwise be scored silently wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import InputError, LengthMismatchError, OptionError
from .reading import STDIN_NAME, TextSource, decode_source, read_source, split_columns


@dataclass
class Corpus:
    """References (as streams) and one or more systems, all the same length."""

    reference_names: list[str]
    references: list[list[str]]
    system_names: list[str]
    systems: list[list[str]]
    notices: list[str] = field(default_factory=list)


def load_references(paths: Sequence[str], num_refs: int = 1, encoding: str = "utf-8") -> tuple[list[str], list[list[str]], list[str]]:
    """Read reference streams: one per file, or ``num_refs`` tab-separated columns of one file."""
    if not paths:
        raise OptionError("no references: give reference files before -i (or use a test set)")
    if num_refs < 1:
        raise OptionError(f"--num-refs must be at least 1, got {num_refs}")
    if num_refs > 1 and len(paths) != 1:
        raise OptionError("--num-refs splits one reference file on tabs: give exactly one reference file")
    sources = [read_source(p, encoding) for p in paths]
    notices = [n for s in sources for n in s.notices]
    if num_refs > 1:
        streams = split_columns(sources[0], num_refs, "references (--num-refs)")
        if not streams:
            raise InputError("is empty", sources[0].name)
        return [f"{sources[0].name} (column {k + 1})" for k in range(num_refs)], streams, notices
    streams = []
    for source in sources:
        lines = source.lines()
        if not lines:
            raise InputError("is empty", source.name)
        streams.append(lines)
    return [s.name for s in sources], streams, notices


def stdin_source(data: bytes | None, encoding: str = "utf-8") -> TextSource:
    """Decode what was read from stdin; a closed stdin (``None``) is an error."""
    if data is None:
        raise InputError("standard input is closed; give hypotheses with -i FILE", STDIN_NAME)
    return decode_source(data, STDIN_NAME, encoding)


def split_systems(source: TextSource, tsv: bool) -> tuple[list[str], list[list[str]], list[str]]:
    """One system per input; with ``tsv``, one system per tab-separated column of stdin."""
    if tsv:
        columns = split_columns(source, None, "systems (--tsv)")
        return [f"System {k + 1}" for k in range(len(columns))], columns, []
    lines = source.lines()
    notices = []
    for number, line in enumerate(lines, 1):
        if "\t" in line:
            notices.append(
                f"{source.name}:{number} contains a tab; it is scored as a space inside one hypothesis "
                "(use --tsv if stdin holds one system per column)"
            )
            break
    return [source.name], [lines], notices


def check_lengths(corpus: Corpus) -> None:
    """Every system and reference stream must have the same number of lines, and some."""
    expected = len(corpus.references[0])
    for name, stream in zip(corpus.reference_names, corpus.references):
        if len(stream) != expected:
            raise LengthMismatchError(
                f"reference {name} has {len(stream)} lines but reference "
                f"{corpus.reference_names[0]} has {expected}"
            )
    for name, system in zip(corpus.system_names, corpus.systems):
        if not system:
            raise InputError(f"is empty, but reference {corpus.reference_names[0]} has {expected} lines", name)
        if len(system) != expected:
            raise LengthMismatchError(
                f"hypothesis {name} has {len(system)} lines but reference "
                f"{corpus.reference_names[0]} has {expected}"
            )
