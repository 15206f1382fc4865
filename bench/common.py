"""Shared helpers for the benchmarks: data discovery, timing, and the side-by-side table.

Benchmarks read the shared WMT data (``../shared/data`` next to the checkout,
or ``BLEUCLI_SHARED_DATA``) and time bleucli and sacreBLEU in the same run, so
the ratio is measured under the same machine load. Medians of several runs.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLEUCLI_SHARED_DATA", REPO.parent / "shared" / "data"))
CORPUS_DIR = REPO / "bench" / ".corpus"


def read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as handle:
        return [line.rstrip() for line in handle]


def data_sets() -> list[Path]:
    return sorted(p for p in SHARED.iterdir() if p.is_dir() and (p / "sys").is_dir() and any((p / "sys").iterdir()))


def references(folder: Path) -> list[Path]:
    return sorted(folder.glob("ref*.*"), key=lambda p: (len(p.name), p.name))


def clear_sacrebleu_caches() -> None:
    """Empty sacreBLEU's tokenizer caches (``lru_cache`` on ``__call__``), which outlive a run.

    Within one call sacreBLEU may reuse what it tokenized; a repeated run must
    not find the previous run's lines already tokenized.
    """
    import importlib
    import pkgutil

    try:
        import sacrebleu.tokenizers as package
    except ImportError:
        return
    for info in pkgutil.iter_modules(package.__path__):
        try:
            module = importlib.import_module(f"{package.__name__}.{info.name}")
        except ImportError:  # optional tokenizers (MeCab, sentencepiece) not installed
            continue
        for value in vars(module).values():
            if not isinstance(value, type):
                continue
            clear = getattr(value.__call__, "cache_clear", None)  # an lru_cache'd __call__
            if clear is not None:
                clear()


def median_time(function: Callable[[], object], repeat: int) -> float:
    """Median CPU time of this process: robust to other load on a shared machine."""
    times = []
    for _ in range(repeat):
        clear_sacrebleu_caches()
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times)


def build_large_corpus(lines: int) -> tuple[Path, Path]:
    """A corpus of ``lines`` (hypothesis, reference) pairs with unique lines, from every shared set.

    Systems are paired with the references of their set. Every pair gets a
    numbered first token, so no line repeats (references are shared by all
    systems of a set) and no tokenizer cache can help either tool.
    """
    CORPUS_DIR.mkdir(parents=True, exist_ok=True)
    hyp_path, ref_path = CORPUS_DIR / f"hyp.unique.{lines}.txt", CORPUS_DIR / f"ref.unique.{lines}.txt"
    if hyp_path.exists() and ref_path.exists():
        return hyp_path, ref_path
    pool: list[tuple[str, str]] = []
    for folder in data_sets():
        refs = read_lines(references(folder)[0])
        for system in sorted((folder / "sys").iterdir()):
            pool.extend(zip(read_lines(system), refs))
    with open(hyp_path, "w", encoding="utf-8") as hyp_out, open(ref_path, "w", encoding="utf-8") as ref_out:
        for i in range(lines):
            hyp, ref = pool[i % len(pool)]
            prefix = f"L{i} "
            hyp_out.write(f"{prefix}{hyp}\n")
            ref_out.write(f"{prefix}{ref}\n")
    return hyp_path, ref_path


def print_matcher() -> None:
    """Say which n-gram matcher bleucli runs: compiled and pure-Python figures differ several-fold."""
    from bleucli.metrics.compiled import implementation

    print(f"bleucli n-gram matcher: {implementation()} (BLEUCLI_PURE_PYTHON=1 selects pure Python)", flush=True)


def print_table(rows: list[tuple[str, float, float]]) -> None:
    print(f"{'benchmark':<44} {'bleucli s':>10} {'sacreBLEU s':>12} {'speed-up':>9}")
    for name, ours, theirs in rows:
        print(f"{name:<44} {ours:>10.3f} {theirs:>12.3f} {theirs / ours:>8.2f}x")
