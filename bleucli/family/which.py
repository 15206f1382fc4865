"""One system under several BLEU definitions, each with a signature naming it.

The definitions (README "Which BLEU?"):

* ``sacreBLEU``: :class:`bleucli.metrics.bleu.BLEU` as configured (13a by default);
* ``NLTK``: :func:`bleucli.family.nltk.corpus_bleu` (NLTK 3.10 semantics) on the same
  tokens, x100, signature ``BLEU-nltk|...|weights:...|smooth:method0|nltk:3.10``;
* ``multi-bleu``: Moses' multi-bleu.perl statistics on the same tokens
  (:mod:`bleucli.family.multibleu`), x100, signature ``BLEU-multibleu|...|moses:multi-bleu.perl``;
* ``shortest-BP``: sacreBLEU's BLEU with NIST's shortest-reference brevity penalty.

Each is computed from its own definition (nothing is derived from another's
number), and each carries a signature so two numbers are comparable only
when the signatures match. Nothing here prints or exits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..signature import Signature

#: Metric names of the non-sacreBLEU definitions in signatures.
NLTK_METRIC = "BLEU-nltk"
MULTIBLEU_METRIC = "BLEU-multibleu"


def format_weights(weights: Sequence[float]) -> str:
    """Weights as the signature writes them: ``repr`` of each float, comma-separated (exact, short)."""
    return ",".join(repr(float(w)) if not isinstance(w, int) or isinstance(w, bool) else str(w) for w in weights)


def nltk_smoothing_label(method: int, epsilon: float, alpha: float, k: float) -> str:
    """``method0``, or the method with the parameters it reads (``method1[eps=0.1]``, ``method7[k=5]``...)."""
    parameter = {1: f"eps={epsilon}", 4: f"k={k}", 6: f"alpha={alpha}", 7: f"k={k}"}.get(method)
    return f"method{method}" + (f"[{parameter}]" if parameter else "")


def nltk_signature(nrefs: int, lowercase: bool, tokenizer: str, weights: Sequence[float], smoothing: str,
                   auto_reweigh: bool) -> Signature:
    from .nltk import NLTK_VERSION

    return Signature.build(NLTK_METRIC, {
        "case": "lc" if lowercase else "mixed", "tok": tokenizer, "weights": format_weights(weights),
        "smooth": smoothing, "reweigh": True if auto_reweigh else None, "nltk": NLTK_VERSION,
    }, nrefs=nrefs)


def multibleu_signature(nrefs: int, lowercase: bool, tokenizer: str) -> Signature:
    return Signature.build(MULTIBLEU_METRIC, {
        "case": "lc" if lowercase else "mixed", "tok": tokenizer, "moses": "multi-bleu.perl",
    }, nrefs=nrefs)


@dataclass(frozen=True)
class DefinitionScore:
    """One definition's score on the 0-100 scale, and its difference from sacreBLEU's."""

    name: str
    score: float
    delta: float
    signature: Signature
    metric: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "metric": self.metric, "score": self.score, "delta": self.delta,
                "signature": f"{self.metric}|{self.signature}", "signature_fields": self.signature.to_dict()}


def score_definitions(hypotheses: Sequence[str], references: Sequence[Sequence[str]], tokenize: str = "13a",
                      lowercase: bool = False) -> list[DefinitionScore]:
    """Score one system (``references``: one sequence of lines per reference) under every definition."""
    from ..metrics.bleu import BLEU
    from . import nltk
    from .multibleu import score_tokens

    nrefs = len(references)
    sacre = BLEU(tokenize=tokenize, lowercase=lowercase, force=True)
    base = sacre.corpus_score(hypotheses, references)
    shortest = BLEU(tokenize=tokenize, lowercase=lowercase, force=True, ref_length="shortest").corpus_score(
        hypotheses, references)
    tokens = sacre.tokenizer.tokens

    def split(line: str) -> list[str]:
        return tokens((line.lower() if lowercase else line).rstrip())

    hyp_tokens = [split(line) for line in hypotheses]
    ref_tokens = [[split(ref[i]) for ref in references] for i in range(len(hypotheses))]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # NLTK's zero-order warning: the score says it
        nltk_value = nltk.corpus_bleu(ref_tokens, hyp_tokens)
    multi = score_tokens(hyp_tokens, ref_tokens)
    rows = [
        ("sacreBLEU", base.score, base.signature, sacre.name),
        ("NLTK corpus_bleu", 100 * nltk_value, nltk_signature(nrefs, lowercase, sacre.tokenizer.signature,
                                                              nltk.DEFAULT_WEIGHTS, "method0", False), NLTK_METRIC),
        ("multi-bleu.perl", 100 * multi.score, multibleu_signature(nrefs, lowercase, sacre.tokenizer.signature),
         MULTIBLEU_METRIC),
        ("shortest-ref BP", shortest.score, shortest.signature, sacre.name),
    ]
    return [DefinitionScore(name, value, value - base.score, signature, metric)
            for name, value, signature, metric in rows]


__all__ = ["DefinitionScore", "score_definitions", "nltk_signature", "multibleu_signature",
           "nltk_smoothing_label", "format_weights", "NLTK_METRIC", "MULTIBLEU_METRIC"]
