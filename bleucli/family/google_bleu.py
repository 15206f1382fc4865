"""Google-BLEU: the "GLEU" of Wu et al. (2016), as NLTK 3.10's ``nltk.translate.gleu_score`` computes it.

Not the GLEU of grammatical error correction (:mod:`bleucli.family.gleu`):
for each hypothesis and reference, over all n-grams of orders
``min_len..max_len`` together, ``tp`` is the clipped overlap and the score is
``tp / max(hypothesis n-grams, reference n-grams)`` (the minimum of precision
and recall); the reference with the highest ratio is kept (the first of
equals; pairs with no n-gram at all are skipped), and a corpus score is the
sum of the kept numerators over the sum of the kept denominators (0 when that
is 0). HF ``evaluate``'s ``google_bleu`` is this on its own tokens.

Same call shapes as NLTK (:func:`corpus_gleu`, :func:`sentence_gleu`, on token
lists), plus :func:`google_bleu` on strings with a signature. The n-gram
overlap of every order comes from the compiled matcher when it is built.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import AssertionInputError, InputError, OptionError
from ..options import GOOGLE_BLEU_MAX_ORDER, GOOGLE_BLEU_MIN_ORDER
from ..signature import Signature


@dataclass(frozen=True)
class GoogleBLEUScore:
    """Corpus Google-BLEU (0..1) with its summed counts."""

    name: str
    score: float
    signature: Signature
    matches: int
    total: int

    def format(self, width: int = 4, short: bool = False) -> str:
        from .render import variant_line

        return variant_line(self.name, self.signature, self.score, width, short)

    def to_dict(self) -> dict[str, Any]:
        from .render import variant_record

        return variant_record(self.name, self.signature, self.score, {"matches": self.matches, "total": self.total})


def _check_orders(min_len: int, max_len: int) -> None:
    for value in (min_len, max_len):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(f"Google-BLEU n-gram orders must be integers >= 1, got {value!r}")
    if min_len > max_len:
        raise OptionError(f"Google-BLEU min order {min_len} is above max order {max_len}")


def _usual_orders(min_len: Any, max_len: Any) -> bool:
    return all(type(value) is int for value in (min_len, max_len)) and 1 <= min_len <= max_len


def _everygrams(sequence: Sequence[Any], min_len: int, max_len: int) -> Counter[tuple[Any, ...]]:
    """NLTK 3.10's ``Counter(everygrams(sequence, min_len, max_len))``, unpadded, to the letter.

    ``max_len=-1`` is the sequence's length; ``min_len=0`` counts the empty n-gram once per
    position; ``min_len > max_len`` or ``max_len=0`` gives nothing.
    """
    tokens = list(sequence)
    if max_len == -1:
        max_len = len(tokens)
    grams: Counter[tuple[Any, ...]] = Counter()
    for start in range(len(tokens)):
        window = tokens[start:start + max_len]
        if not window:
            break
        for length in range(min_len, len(window) + 1):
            grams[tuple(window[:length])] += 1
    return grams


def _nltk_counts(list_of_references: Sequence[Any], hypotheses: Sequence[Any], min_len: int,
                 max_len: int) -> tuple[int, int]:
    """NLTK's corpus_gleu loop for orders outside ``1 <= min_len <= max_len`` (slow, as NLTK's)."""
    corpus_match = corpus_all = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        hyp_ngrams = _everygrams(hypothesis, min_len, max_len)
        tpfp = sum(hyp_ngrams.values())
        counts = []
        for reference in references:
            ref_ngrams = _everygrams(reference, min_len, max_len)
            n_all = max(tpfp, sum(ref_ngrams.values()))
            if n_all > 0:
                counts.append((sum((ref_ngrams & hyp_ngrams).values()), n_all))
        if counts:
            n_match, n_all = max(counts, key=lambda count: count[0] / count[1])
            corpus_match += n_match
            corpus_all += n_all
    return corpus_match, corpus_all


def _ngram_count(length: int, min_len: int, max_len: int) -> int:
    """How many n-grams of orders min_len..max_len a sequence of ``length`` tokens has (NLTK's everygrams)."""
    return sum(length - n + 1 for n in range(min_len, min(max_len, length) + 1))


def _overlaps(hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_len: int) -> list[list[int]]:
    """Clipped matches of orders 1..max_len of the hypothesis against each reference alone."""
    from ..metrics.compiled import compiled_matcher

    compiled = compiled_matcher()
    hyp = list(hypothesis)
    if compiled is not None:
        try:
            return [compiled.ngram_matches(hyp, [list(ref)], max_len, True) for ref in references]
        except TypeError:  # tokens not exactly str: NLTK compares any hashable by its own __eq__
            pass
    hyp_counts = [Counter(zip(*(hyp[i:] for i in range(n)))) for n in range(1, max_len + 1)]
    result = []
    for ref in references:
        ref = list(ref)
        result.append([sum((hyp_counts[n - 1] & Counter(zip(*(ref[i:] for i in range(n))))).values())
                       for n in range(1, max_len + 1)])
    return result


def corpus_counts(list_of_references: Sequence[Sequence[Sequence[str]]], hypotheses: Sequence[Sequence[str]],
                  min_len: int = GOOGLE_BLEU_MIN_ORDER, max_len: int = GOOGLE_BLEU_MAX_ORDER) -> tuple[int, int]:
    """The summed ``(matches, total)`` of NLTK's ``corpus_gleu``."""
    if len(list_of_references) != len(hypotheses):
        raise AssertionInputError(
            f"{len(hypotheses)} hypotheses but {len(list_of_references)} lists of references (NLTK fails "
            "with an AssertionError: 'The number of hypotheses and their reference(s) should be the same')")
    if not _usual_orders(min_len, max_len):
        return _nltk_counts(list_of_references, hypotheses, min_len, max_len)
    corpus_match = corpus_all = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        references = list(references)  # any iterable, as for NLTK
        tpfp = _ngram_count(len(hypothesis), min_len, max_len)
        best: tuple[int, int] | None = None
        for ref, matches in zip(references, _overlaps(hypothesis, references, max_len)):
            n_all = max(tpfp, _ngram_count(len(ref), min_len, max_len))
            if n_all > 0:
                tp = sum(matches[min_len - 1:max_len])
                if best is None or tp / n_all > best[0] / best[1]:  # max() keeps the first of equals
                    best = (tp, n_all)
        if best is not None:
            corpus_match += best[0]
            corpus_all += best[1]
    return corpus_match, corpus_all


def corpus_gleu(list_of_references: Sequence[Sequence[Sequence[str]]], hypotheses: Sequence[Sequence[str]],
                min_len: int = GOOGLE_BLEU_MIN_ORDER, max_len: int = GOOGLE_BLEU_MAX_ORDER) -> float:
    """NLTK's ``corpus_gleu(list_of_references, hypotheses, min_len, max_len)`` on token lists.

    As NLTK: tokens may be any hashables, references any iterable, and any ``min_len``/``max_len``
    gives NLTK's score (``max_len=-1``: each sentence's length; ``min_len > max_len``: 0.0).
    """
    matches, total = corpus_counts(list_of_references, hypotheses, min_len, max_len)
    return 0.0 if total == 0 else matches / total


def sentence_gleu(references: Sequence[Sequence[str]], hypothesis: Sequence[str],
                  min_len: int = GOOGLE_BLEU_MIN_ORDER, max_len: int = GOOGLE_BLEU_MAX_ORDER) -> float:
    """NLTK's ``sentence_gleu(references, hypothesis, min_len, max_len)`` on token lists."""
    return corpus_gleu([references], [hypothesis], min_len, max_len)


def google_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]],
                min_len: int = GOOGLE_BLEU_MIN_ORDER, max_len: int = GOOGLE_BLEU_MAX_ORDER,
                tokenize: str | None = None) -> GoogleBLEUScore:
    """Corpus Google-BLEU of strings (reference streams as for ``BLEU.corpus_score``).

    ``tokenize=None`` splits on whitespace (NLTK takes tokens as given); a
    bleucli tokenizer name (``13a`` is HF evaluate's default) uses its tokens.
    """
    from ..metrics.base import check_references, segments

    _check_orders(min_len, max_len)
    split: Any = str.split
    if tokenize is not None:
        from ..tokenizers import get_tokenizer

        split = get_tokenizer(tokenize).tokens
    refs = check_references(references)
    pairs = [(split(h), [split(r) for r in seg]) for h, seg in segments(hypotheses, refs)]
    if not pairs:
        raise InputError("nothing to score: no segments")
    matches, total = corpus_counts([r for _, r in pairs], [h for h, _ in pairs], min_len, max_len)
    fields = {"min": min_len, "max": max_len, "tok": tokenize or "whitespace"}
    signature = Signature.build("Google-BLEU", fields, nrefs=len(refs))
    return GoogleBLEUScore("Google-BLEU", 0.0 if total == 0 else matches / total, signature, matches, total)
