"""bleucli: sacreBLEU-exact BLEU with versioned signatures.

The public API is imported lazily, so ``import bleucli`` (and the CLI's
``--help``/``--version``) costs almost nothing. It has sacreBLEU 2.6's
top-level names (``sacrebleu.__all__``: the metric classes and functions, the
test-set functions and ``DATASETS``, ``smart_open``, the n-gram helpers,
``SACREBLEU_DIR``: bleucli's cache directory), and ``dir(bleucli)`` lists them.
sacreBLEU's modules are at the same paths under ``bleucli.`` (docs/sacrebleu-compat.md).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from .lazy import lazy_attributes
from .tokenizers import set_spm_model_provider
from .version import __version__

if TYPE_CHECKING:  # pragma: no cover
    from .compat import (
        corpus_bleu,
        corpus_chrf,
        corpus_ter,
        raw_corpus_bleu,
        sentence_bleu,
        sentence_chrf,
        sentence_ter,
    )
    from .dataset import DATASETS
    from .errors import BleucliError, InputError, LengthMismatchError, OptionError
    from .metrics.bleu import BLEU, BLEUScore, compute_bleu
    from .metrics.chrf import CHRF, CHRFScore
    from .metrics.helpers import extract_char_ngrams, extract_word_ngrams
    from .metrics.ter import TER, TERScore
    from .signature import Signature
    from .testsets.compat import (
        download_test_set,
        get_available_testsets,
        get_available_testsets_for_langpair,
        get_files,
        get_langpairs_for_testset,
        get_reference_files,
        get_source_file,
        smart_open,
    )

_EXPORTS = {
    "BLEU": "bleucli.metrics.bleu",
    "BLEUScore": "bleucli.metrics.bleu",
    "compute_bleu": "bleucli.metrics.bleu",
    "corpus_bleu": "bleucli.compat",
    "raw_corpus_bleu": "bleucli.compat",
    "sentence_bleu": "bleucli.compat",
    "CHRF": "bleucli.metrics.chrf",
    "CHRFScore": "bleucli.metrics.chrf",
    "TER": "bleucli.metrics.ter",
    "TERScore": "bleucli.metrics.ter",
    "corpus_chrf": "bleucli.compat",
    "sentence_chrf": "bleucli.compat",
    "corpus_ter": "bleucli.compat",
    "sentence_ter": "bleucli.compat",
    "Signature": "bleucli.signature",
    "BleucliError": "bleucli.errors",
    "InputError": "bleucli.errors",
    "LengthMismatchError": "bleucli.errors",
    "OptionError": "bleucli.errors",
    # sacreBLEU's test-set functions and helpers (sacrebleu.__all__)
    "DATASETS": "bleucli.dataset",
    "download_test_set": "bleucli.testsets.compat",
    "get_source_file": "bleucli.testsets.compat",
    "get_reference_files": "bleucli.testsets.compat",
    "get_files": "bleucli.testsets.compat",
    "get_available_testsets": "bleucli.testsets.compat",
    "get_available_testsets_for_langpair": "bleucli.testsets.compat",
    "get_langpairs_for_testset": "bleucli.testsets.compat",
    "smart_open": "bleucli.testsets.compat",
    "SACREBLEU_DIR": "bleucli.utils",
    "extract_word_ngrams": "bleucli.metrics.helpers",
    "extract_char_ngrams": "bleucli.metrics.helpers",
}

__all__ = ["__version__", *_EXPORTS]


def _submodule(name: str) -> Any:
    import importlib

    return importlib.import_module(f"{__name__}.{name}")


#: Submodules reachable as attributes without their own import, as ``sacrebleu.metrics``/``sacrebleu.utils`` are.
_SUBMODULES = ("metrics", "utils", "testsets", "tokenizers", "significance", "dataset")

# The API is imported lazily; ``dir(bleucli)`` lists it anyway, as sacreBLEU's ``dir(sacrebleu)`` does.
__getattr__, __dir__ = lazy_attributes(__name__, {
    **_EXPORTS, **{name: partial(_submodule, name) for name in _SUBMODULES},
})


def _download_spm_model(name: str, cache_dir: Any = None, offline: bool | None = None, registry: Any = None,
                        **_unused: Any) -> Any:
    """The test-set wing's SentencePiece models (download and verify on first use), for the tokenizers.

    The core tokenizers never import the test-set wing: this layer, which every
    ``import bleucli...`` runs, hands them this provider (see :mod:`bleucli.tokenizers.tok_spm`).
    """
    from .testsets.models import load_model

    return load_model(name, cache_dir=cache_dir, offline=offline, registry=registry)


set_spm_model_provider(_download_spm_model)
