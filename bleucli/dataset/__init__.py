"""sacreBLEU 2.6's ``sacrebleu.dataset``: ``DATASETS[name]`` objects with its methods.

Each entry wraps bleucli's test-set registry (:mod:`bleucli.testsets`): ``source(pair)``,
``references(pair)``, ``get_files(pair)``, ``get_source_file(pair)``,
``get_reference_files(pair)``, ``fieldnames(pair)``, ``process_to_text(pair)`` and
``maybe_download()`` download and process the set on first use (into bleucli's verified
cache, not ``~/.sacrebleu``); ``name``, ``description``, ``citation`` and ``langpairs``
(pair -> bleucli's pair spec) are the registry's. Anything else is the registry entry's
(:class:`bleucli.testsets.registry.TestSet`). Nothing is imported before first use.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..lazy import lazy_attributes


class Dataset:
    """One test set with sacreBLEU's ``Dataset`` methods, over bleucli's registry entry."""

    def __init__(self, testset: Any) -> None:
        self._testset = testset
        self.name: str = testset.name
        self.description: str = testset.description
        self.citation: str | None = testset.citation

    @property
    def langpairs(self) -> Mapping[str, Any]:
        return self._testset.langpairs

    def __getattr__(self, name: str) -> Any:  # the registry entry's other fields (format, pairs, subsets...)
        return getattr(self._testset, name)

    def __repr__(self) -> str:
        return f"Dataset({self.name!r})"

    def fieldnames(self, langpair: str) -> list[str]:
        """The fields of ``langpair`` in sacreBLEU's order (``src``, ``ref``..., metadata)."""
        from ..testsets.api import processed_pair

        return list(processed_pair(self.name, langpair).field_names)

    def get_files(self, langpair: str) -> list[str]:
        from ..testsets.compat import get_files

        return get_files(self.name, langpair)

    def get_source_file(self, langpair: str) -> str:
        from ..testsets.compat import get_source_file

        return get_source_file(self.name, langpair)

    def get_reference_files(self, langpair: str) -> list[str]:
        from ..testsets.compat import get_reference_files

        return get_reference_files(self.name, langpair)

    def source(self, langpair: str) -> Iterator[str]:
        """The source lines, stripped (as sacreBLEU's ``source``)."""
        from ..testsets.compat import smart_open

        with smart_open(self.get_source_file(langpair)) as lines:
            for line in lines:
                yield line.strip()

    def references(self, langpair: str) -> Iterator[tuple[str, ...]]:
        """Each segment's references as a tuple of lines (with their newline, as sacreBLEU's)."""
        from contextlib import ExitStack

        from ..testsets.compat import smart_open

        with ExitStack() as stack:
            files = [stack.enter_context(smart_open(path)) for path in self.get_reference_files(langpair)]
            yield from zip(*files)

    def process_to_text(self, langpair: str | None = None) -> None:
        """Download and process ``langpair`` (every pair when ``None``)."""
        from ..testsets.compat import download_test_set

        download_test_set(self.name, langpair)

    def maybe_download(self) -> None:
        self.process_to_text()


class _Datasets(Mapping[str, Dataset]):
    """sacreBLEU's ``DATASETS``: name -> :class:`Dataset`, read from the registry in use when accessed."""

    @staticmethod
    def _entries() -> Mapping[str, Any]:
        from ..testsets.compat import DATASETS as ENTRIES

        return ENTRIES

    def __getitem__(self, name: str) -> Dataset:
        return Dataset(self._entries()[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries())

    def __len__(self) -> int:
        return len(self._entries())

    def __repr__(self) -> str:
        return f"DATASETS({', '.join(self)})"


def _subsets() -> dict[str, dict[str, str]]:
    """sacreBLEU's ``SUBSETS``: set name -> document id -> ``COUNTRY-domain`` (the SGML sets' annotations)."""
    from ..testsets.compat import DATASETS as ENTRIES

    return {name: dict(entry.subsets) for name, entry in ENTRIES.items() if entry.subsets}


def _countries() -> list[str]:
    return sorted({value.split("-")[0] for value in _subsets().get("wmt19", {}).values()})


def _domains() -> list[str]:
    return sorted({value.split("-")[1] for value in _subsets().get("wmt19", {}).values()})


DATASETS: Mapping[str, Dataset] = _Datasets()

__all__ = ["DATASETS", "Dataset", "SUBSETS", "COUNTRIES", "DOMAINS"]

__getattr__, __dir__ = lazy_attributes(__name__, {"SUBSETS": _subsets, "COUNTRIES": _countries,
                                                  "DOMAINS": _domains})
