"""The optional compiled n-gram matcher, and the switch that turns it off.

``bleucli/_speedups.c`` counts clipped n-gram matches about ten times faster
than the pure-Python matchers of :mod:`.ngram_match` and
:mod:`.substring_match`, with the same integers as result. It is built when
the package is installed with a C compiler at hand; without one, or with
``BLEUCLI_PURE_PYTHON=1`` in the environment, the Python matchers run.
Scores are identical either way: the tests run the golden files through
both.

It offers two forms of one computation:

- ``ngram_matches(hypothesis, references, max_order)`` for references used
  once (sentence scores, one system);
- ``References(references)``, whose ``matches(hypothesis, max_order)`` keeps
  the references' n-gram tables for the next hypothesis (several systems,
  ``sentence_scores`` against one reference set, as MBR decoding needs).
  Its ``lengths`` are the references' token counts.

A hypothesis or reference is a ``str`` (its characters are the tokens: chrF
and the char tokenizer) or a ``list`` of ``str`` tokens.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from types import ModuleType

#: a hypothesis or reference as the matcher takes it: a string of one-character
#: tokens, or a list of tokens
Tokens = str | list[str]

PURE_PYTHON_VARIABLE = "BLEUCLI_PURE_PYTHON"

#: What the compiled batch functions (``bleu_statistics``, ``bleu_systems``, ``chrf_statistics``,
#: ``chrf_systems``) give for their ``rows`` argument: each system's column sums, a list per row, or
#: one ``bytes`` of int64 rows (a :class:`~bleucli.engine.rows.RowMatrix`'s ``data``).
ROWS_SUMS, ROWS_LISTS, ROWS_MATRIX = 0, 1, 2


class StoredReferences(tuple):
    """A segment's references as the compiled matcher takes them, without n-gram tables.

    A metric built with ``references=`` keeps one of these per segment: the
    tables of a ``References`` take tens of kilobytes a segment (a
    100,000-line corpus would hold gigabytes), while rebuilding them for each
    hypothesis costs about a microsecond. It follows the same protocol as
    the compiled ``References`` (``lengths``, ``matches``), so BLEU treats
    both alike.
    """

    __slots__ = ()

    @property
    def lengths(self) -> list[int]:
        """Each reference's token count."""
        return list(map(len, self))

    def matches(self, hypothesis: Tokens, max_order: int) -> list[int]:
        """Clipped matches of orders 1..max_order; the tables are built and dropped in C."""
        module = _load()
        assert module is not None  # only made when the extension is in use
        return module.ngram_matches(hypothesis, self, max_order)


class TextReferences:
    """A segment's references as text, for a BLEU built with ``references=`` whose tokenizer the
    extension runs itself: whole chunks of hypotheses are then scored by ``bleu_statistics`` against
    the kept text, which also takes less memory than token lists. ``lengths`` and ``matches`` (the
    protocol every kind of reference data follows) tokenize with ``tokens``, a picklable callable
    giving the tokens of a reference line as the metric makes them (for char, the string of them).
    """

    __slots__ = ("texts", "lengths", "tokens")

    def __init__(self, texts: tuple[str, ...], tokens: Callable[[str], Tokens]) -> None:
        self.texts = texts
        self.tokens = tokens
        self.lengths = tuple(len(tokens(text)) for text in texts)

    def __getstate__(self) -> tuple[tuple[str, ...], Callable[[str], Tokens], tuple[int, ...]]:
        return self.texts, self.tokens, self.lengths

    def __setstate__(self, state: tuple[tuple[str, ...], Callable[[str], Tokens], tuple[int, ...]]) -> None:
        self.texts, self.tokens, self.lengths = state

    def matches(self, hypothesis: Tokens, max_order: int) -> list[int]:
        """Clipped matches of orders 1..max_order of a tokenized hypothesis."""
        module = _load()
        assert module is not None  # only made when the extension is in use
        return module.ngram_matches(hypothesis, [self.tokens(text) for text in self.texts], max_order)


def compiled_matcher() -> ModuleType | None:
    """The C extension module (``ngram_matches``, ``References``), or None.

    Read when a metric is created, so that setting the variable affects the
    metrics made afterwards in the same process.
    """
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    return _load()


@cache
def _load() -> ModuleType | None:
    import importlib

    try:  # by name, so that type checkers need not know the extension (it may not be built)
        return importlib.import_module("bleucli._speedups")
    except ImportError:
        return None


def implementation() -> str:
    """``"compiled"`` or ``"python"``: which matcher new metrics use (printed by bench/)."""
    return "python" if compiled_matcher() is None else "compiled"
