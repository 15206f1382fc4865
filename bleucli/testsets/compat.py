"""sacreBLEU 2.6's test-set functions (``sacrebleu`` and ``sacrebleu.utils``), same names and arguments.

``DATASETS``, ``get_source_file``, ``get_reference_files``, ``get_files``,
``download_test_set``, ``get_langpairs_for_testset``, ``get_available_testsets``,
``get_available_testsets_for_langpair`` and ``smart_open`` behave as sacreBLEU's:
the file functions download and process a set when needed and return paths of
plain-text files, one segment per line. The files are those of bleucli's
verified cache (:mod:`bleucli.testsets.prepare`), so the lines are what
``-t SET -l PAIR`` scores, not copies under ``~/.sacrebleu``; that is why
``SACREBLEU_DIR`` is not offered. Where sacreBLEU raises a bare ``Exception``
("No such test set"), these raise bleucli's typed errors
(:class:`~bleucli.errors.UnknownTestSetError`, ``UnknownLanguagePairError``).
Downloads use the environment's cache and registry (``BLEUCLI_CACHE_DIR``,
``BLEUCLI_TESTSETS``, ``BLEUCLI_OFFLINE``); :mod:`bleucli.testsets.api` takes
them as arguments.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator, Mapping
from typing import IO, Any

from .prepare import PairData
from .registry import TestSet, load_registry


class _Datasets(Mapping[str, TestSet]):
    """sacreBLEU's ``DATASETS``: test-set name -> entry (``.name``, ``.description``,
    ``.citation``, ``.langpairs``), read from the registry in use when accessed."""

    def _sets(self) -> Mapping[str, TestSet]:
        return load_registry().testsets

    def __getitem__(self, name: str) -> TestSet:
        return self._sets()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._sets())

    def __len__(self) -> int:
        return len(self._sets())

    def __repr__(self) -> str:
        return f"DATASETS({', '.join(self)})"


DATASETS: Mapping[str, TestSet] = _Datasets()


def _pair_data(test_set: str, langpair: str) -> PairData:
    from .api import processed_pair

    return processed_pair(test_set, langpair)


def get_files(test_set: str, langpair: str) -> list[str]:
    """The source, reference and metadata files of a (set, pair), in sacreBLEU's field order."""
    data = _pair_data(test_set, langpair)
    return [str(data.field_path(name)) for name in data.field_names]


def get_source_file(test_set: str, langpair: str) -> str:
    """The source file of a (set, pair), downloaded first if needed."""
    return str(_pair_data(test_set, langpair).field_path("src"))


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    """The reference files that ``-t test_set -l langpair`` scores against, downloaded first if needed."""
    data = _pair_data(test_set, langpair)
    return [str(data.field_path(name)) for name in data.scoring_refs]


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """Download and process a test set; the files of ``langpair``, or of every pair when it is ``None``."""
    pairs = [langpair] if langpair is not None else list(load_registry().get(test_set).pairs)
    return [path for pair in pairs for path in get_files(test_set, pair)]


def get_langpairs_for_testset(testset: str) -> list[str]:
    """The language pairs of a test set; ``[]`` for an unknown set, as in sacreBLEU."""
    found = load_registry().testsets.get(testset)
    return [] if found is None else list(found.pairs)


def get_available_testsets() -> list[str]:
    """Every test set name, sorted in reverse (sacreBLEU's order: newest WMT first)."""
    return sorted(load_registry().testsets, reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets having ``langpair`` in either direction, in registry order."""
    src, tgt = langpair.split("-")[:2]
    return [name for name, testset in load_registry().testsets.items()
            if f"{src}-{tgt}" in testset.pairs or f"{tgt}-{src}" in testset.pairs]


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    """Open a plain or ``.gz`` text file with ``\\n`` as the only line end, as sacreBLEU's ``smart_open``."""
    if file.endswith(".gz"):
        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")  # type: ignore[return-value]
    return open(file, mode=mode, encoding=encoding, newline="\n")
