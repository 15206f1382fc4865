"""Function API with sacreBLEU's argument shapes and defaults.

``references`` is a list of reference *streams* (``references[k][i]`` is the
k-th reference of segment i), exactly as in sacreBLEU, but streams of
different lengths raise :class:`bleucli.errors.LengthMismatchError` instead of
being silently truncated. Defaults are :mod:`bleucli.options`' (the API's
``tokenize="13a"`` and ``sentence_bleu``'s effective order are sacreBLEU's own).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .metrics.bleu import BLEU, BLEUScore
from .metrics.chrf import CHRF, CHRFScore
from .metrics.ter import TER, TERScore
from .options import BLEU_DEFAULTS as B
from .options import CHRF_DEFAULTS as C
from .options import TER_DEFAULTS as T


def corpus_bleu(
    hypotheses: Iterable[str],
    references: Sequence[Sequence[str | None]],
    smooth_method: str = B.smooth_method,
    smooth_value: float | None = B.smooth_value,
    force: bool = B.force,
    lowercase: bool = B.lowercase,
    tokenize: str = "13a",
    use_effective_order: bool = B.effective_order,
) -> BLEUScore:
    """Corpus BLEU as sacreBLEU's ``corpus_bleu`` computes it."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)  # type: ignore[return-value]


def raw_corpus_bleu(
    hypotheses: Iterable[str],
    references: Sequence[Sequence[str | None]],
    smooth_value: float | None = 0.1,
) -> BLEUScore:
    """BLEU on already-tokenized text: no tokenizer, floor smoothing, effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value,
                       force=True, tokenize="none", use_effective_order=True)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = B.smooth_method,
    smooth_value: float | None = B.smooth_value,
    lowercase: bool = B.lowercase,
    tokenize: str = "13a",
    use_effective_order: bool = True,
) -> BLEUScore:
    """Sentence BLEU as sacreBLEU's ``sentence_bleu``: effective order on by default."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def corpus_chrf(
    hypotheses: Iterable[str],
    references: Sequence[Sequence[str | None]],
    char_order: int = C.char_order,
    word_order: int = C.word_order,
    beta: int = C.beta,
    remove_whitespace: bool = not C.whitespace,
    eps_smoothing: bool = C.eps_smoothing,
) -> CHRFScore:
    """Corpus chrF as sacreBLEU's ``corpus_chrf`` (note ``remove_whitespace``, not ``whitespace``)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)  # type: ignore[return-value]


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str],
    char_order: int = C.char_order,
    word_order: int = C.word_order,
    beta: int = C.beta,
    remove_whitespace: bool = not C.whitespace,
    eps_smoothing: bool = C.eps_smoothing,
) -> CHRFScore:
    """Sentence chrF as sacreBLEU's ``sentence_chrf``."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)  # type: ignore[return-value]


def corpus_ter(
    hypotheses: Iterable[str],
    references: Sequence[Sequence[str | None]],
    normalized: bool = T.normalized,
    no_punct: bool = T.no_punct,
    asian_support: bool = T.asian_support,
    case_sensitive: bool = T.case_sensitive,
) -> TERScore:
    """Corpus TER as sacreBLEU's ``corpus_ter``."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)  # type: ignore[return-value]


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    normalized: bool = T.normalized,
    no_punct: bool = T.no_punct,
    asian_support: bool = T.asian_support,
    case_sensitive: bool = T.case_sensitive,
) -> TERScore:
    """Sentence TER as sacreBLEU's ``sentence_ter``."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)  # type: ignore[return-value]
