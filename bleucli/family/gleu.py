"""GLEU for grammatical error correction, as keisks/jfleg's ``eval/gleu.py`` computes it.

GLEU (Napoles et al. 2015, updated 2016 for several references) rewards
n-grams of the hypothesis found in the reference and penalizes those kept from
the source where the reference changed them. jfleg's script picks one
reference per sentence at random, 500 times (seed ``101 * j`` for iteration
j), computes corpus GLEU for each choice, and reports the mean, the
(population) standard deviation and a normal 95% interval of the 500 values.

Reproduced to the last bit, quirks included:

* statistics per sentence and reference: hypothesis and reference lengths,
  then for each order ``max(|h ∩ r| - |h ∩ (s \\ r)|, 0)`` (``∩`` clipped
  counts; ``s \\ r``: the source's n-grams absent from the reference) and
  ``max(len - n + 1, 0)``;
* a corpus GLEU is 0 if any statistic is 0 (lengths included); the log
  precisions are summed left to right and divided by 4 whatever the order;
* the interval is ``mean ± 1.959963984540054 * std`` (scipy's
  ``norm.interval(0.95)``), mean and std are numpy's ``np.mean``/``np.std``.

**Sampling.** ``random.randint(0, k-1)`` draws differently under Python 2
(``int(random() * k)``) and Python 3 (``getrandbits``) from the same seed, so
the script gives two sets of numbers. ``sampling="python2"`` (the default)
reproduces the published JFLEG results (e.g. the source as hypothesis: 38.21
dev, 40.54 test); ``"python3"`` what the script prints under Python 3 (up to
3.11: 3.12's compensated ``sum`` may change the last bits). Tokens follow the
interpreter too: Python 2's ``str.split()`` on bytes splits on ASCII
whitespace only, Python 3's on any Unicode whitespace.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, OptionError
from ..options import GLEU_ITERATIONS, GLEU_MAX_ORDER, GLEU_SAMPLING
from ..signature import Signature

#: scipy.stats.norm.ppf(0.975): the half-width of ``norm.interval(0.95)`` in standard deviations.
NORMAL_975 = 1.959963984540054

#: What Python 2's ``str.split()`` splits on (bytes; UTF-8 never uses these bytes inside a character).
_ASCII_WHITESPACE = " \t\n\r\x0b\x0c"
_TO_SPACE = str.maketrans({c: " " for c in _ASCII_WHITESPACE})


@dataclass(frozen=True)
class GLEUScore:
    """jfleg's GLEU: mean over the sampled reference choices, their std and 95% interval (0..1)."""

    name: str
    score: float
    signature: Signature
    std: float
    ci: tuple[float, float]
    iterations: tuple[float, ...]
    single_reference: bool

    def jfleg_strings(self) -> list[str]:
        """What gleu.py prints: ``['%f' mean, '%f' std, '(%.3f,%.3f)' interval]``."""
        return ["%f" % self.score, "%f" % self.std, "(%.3f,%.3f)" % self.ci]  # noqa: UP031 - jfleg's formats

    def format(self, width: int = 6, short: bool = False) -> str:
        from .render import variant_line

        return variant_line(self.name, self.signature, self.score, width, short, self.details(width))

    def details(self, width: int = 6) -> str:
        return f"(std = {self.std:.{width}f}, 95% CI = [{self.ci[0]:.{width}f}, {self.ci[1]:.{width}f}])"

    def to_dict(self) -> dict[str, Any]:
        from .render import variant_record

        return variant_record(self.name, self.signature, self.score, {
            "std": self.std, "ci": _json_interval(self.ci), "jfleg_output": self.jfleg_strings(),
            "n_iterations": len(self.iterations)})


def _json_interval(ci: tuple[float, float]) -> list[float] | None:
    """The interval for JSON: ``null`` where gleu.py's is (nan, nan) (every value equal, e.g. one reference)."""
    return None if any(math.isnan(v) for v in ci) else list(ci)


def _counts(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(zip(*(tokens[i:] for i in range(n))))


def sentence_statistics(hyp: list[str], ref: list[str], src_counts: list[Counter[Any]], order: int) -> list[int]:
    """gleu.py's ``gleu_stats`` for one sentence and one reference."""
    stats = [len(hyp), len(ref)]
    for n in range(1, order + 1):
        h, r, s = _counts(hyp, n), _counts(ref, n), src_counts[n - 1]
        source_only = Counter({gram: count for gram, count in s.items() if gram not in r})
        stats.append(max(sum((h & r).values()) - sum((h & source_only).values()), 0))
        stats.append(max(len(hyp) + 1 - n, 0))
    return stats


def corpus_gleu(stats: Sequence[int]) -> float:
    """gleu.py's ``gleu(stats)``: 0 if any statistic is 0; log precisions summed and divided by 4."""
    if any(s == 0 for s in stats):
        return 0.0
    c, r = stats[0], stats[1]
    log_precision = 0.0
    for x, y in zip(stats[2::2], stats[3::2]):
        log_precision += math.log(float(x) / y)
    log_precision /= 4
    return math.exp(min(0.0, 1 - float(r) / c) + log_precision)


def reference_choices(iterations: int, sentences: int, references: int, sampling: str) -> list[list[int]]:
    """The reference index of each sentence for each iteration (seed ``j * 101``)."""
    return list(_choice_rows(iterations, sentences, references, sampling))


def _choice_rows(iterations: int, sentences: int, references: int, sampling: str) -> Iterator[list[int]]:
    for j in range(iterations):
        rng = random.Random(j * 101)
        if sampling == "python2":  # Python 2's randint: int(random() * width)
            draw = rng.random
            yield [int(draw() * references) for _ in range(sentences)]
        else:
            yield [rng.randint(0, references - 1) for _ in range(sentences)]


def split_ascii_whitespace(line: str) -> list[str]:
    """Python 2's ``str.split()`` of the line's UTF-8 bytes: ASCII whitespace only separates tokens."""
    return [token for token in line.translate(_TO_SPACE).split(" ") if token]


def tokenizer_for(sampling: str) -> Any:
    """The tokens of the interpreter whose sampling is reproduced (see the module docstring)."""
    return split_ascii_whitespace if sampling == "python2" else str.split


def smoothed_gleu(stats: Sequence[int]) -> float:
    """gleu.py's ``gleu(stats, smooth=True)`` for sentence scores: every zero statistic becomes 1 first."""
    return corpus_gleu([s if s != 0 else 1 for s in stats])


@dataclass(frozen=True)
class SentenceGLEU:
    """One sentence of ``gleu.py --sent``: mean, std and interval of its smoothed GLEU against each reference."""

    mean: float
    std: float
    ci: tuple[float, float]
    per_reference: tuple[float, ...]

    def jfleg_strings(self) -> list[str]:
        return ["%f" % self.mean, "%f" % self.std, "(%.3f,%.3f)" % self.ci]  # noqa: UP031 - jfleg's formats

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "std": self.std, "ci": _json_interval(self.ci),
                "per_reference": list(self.per_reference), "jfleg_output": self.jfleg_strings()}


def _summary(values: Sequence[float]) -> tuple[float, float, tuple[float, float]]:
    """``np.mean``, ``np.std`` and scipy's ``norm.interval(0.95)`` of gleu.py's ``get_gleu_stats``."""
    import numpy as np

    array = np.array(values, dtype=np.float64)
    mean, std = float(np.mean(array)), float(np.std(array))
    if not std > 0:  # scipy's norm.interval needs scale > 0: with all values equal it gives (nan, nan)
        return mean, std, (math.nan, math.nan)
    return mean, std, (mean + -NORMAL_975 * std, mean + NORMAL_975 * std)


def jfleg_sentence_gleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    sources: Sequence[str],
    order: int = GLEU_MAX_ORDER,
    sampling: str = GLEU_SAMPLING[0],
) -> list[SentenceGLEU]:
    """``gleu.py --sent``: each sentence's smoothed GLEU against each of its references, summarized.

    ``sampling`` only chooses the tokens here (Python 2's or 3's ``split``):
    sentence scores use every reference, not a sampled one.
    """
    table = _statistics_table(hypotheses, references, sources, order, sampling)
    result = []
    for rows in table:
        per_reference = tuple(smoothed_gleu([int(v) for v in row]) for row in rows)
        mean, std, ci = _summary(per_reference)
        result.append(SentenceGLEU(mean, std, ci, per_reference))
    return result


def _statistics_table(hypotheses: Sequence[str], references: Sequence[Sequence[str]], sources: Sequence[str],
                      order: int, sampling: str) -> Any:
    """``[sentence][reference]`` -> gleu.py's statistics, after checking the options and the input shapes."""
    import numpy as np

    if sampling not in GLEU_SAMPLING:
        raise OptionError(f"unknown GLEU sampling '{sampling}' (choose from: {', '.join(GLEU_SAMPLING)})")
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise OptionError(f"GLEU order must be an integer >= 1, got {order!r}")
    if isinstance(hypotheses, str) or isinstance(sources, str) or not references:
        raise InputError("GLEU takes a list of hypotheses, a list of reference streams and a list of sources")
    n_sentences = len(hypotheses)
    if n_sentences == 0:
        raise InputError("nothing to score: no hypotheses")
    for what, stream in (("the source", sources), *((f"reference {k + 1}", s) for k, s in enumerate(references))):
        if len(stream) != n_sentences:
            raise InputError(f"{what} has {len(stream)} segments but the hypotheses have {n_sentences}")
    split = tokenizer_for(sampling)
    n_refs = len(references)
    table = np.zeros((n_sentences, n_refs, 2 + 2 * order), dtype=np.int64)
    for i, (hyp_line, src_line) in enumerate(zip(hypotheses, sources)):
        hyp, src = split(hyp_line), split(src_line)
        src_counts = [_counts(src, n) for n in range(1, order + 1)]
        for k in range(n_refs):
            table[i, k] = sentence_statistics(hyp, split(references[k][i]), src_counts, order)
    return table


def jfleg_gleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    sources: Sequence[str],
    order: int = GLEU_MAX_ORDER,
    iterations: int = GLEU_ITERATIONS,
    sampling: str = GLEU_SAMPLING[0],
) -> GLEUScore:
    """GLEU of ``hypotheses`` given reference streams and sources, as ``gleu.py -r REFS -s SRC --hyp HYP``."""
    import numpy as np

    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise OptionError(f"GLEU iterations must be an integer >= 1, got {iterations!r}")
    table = _statistics_table(hypotheses, references, sources, order, sampling)
    n_sentences, n_refs = len(hypotheses), len(references)
    # allocated first: iterations no memory holds fail at once (MemoryError, exit 10), not after minutes of drawing
    choices = np.empty((iterations, n_sentences), dtype=np.intp)
    for j, row in enumerate(_choice_rows(iterations, n_sentences, n_refs, sampling)):
        choices[j] = row
    summed = table[np.arange(n_sentences)[None, :], choices].sum(axis=1)  # integers: exact in any order
    scores = [corpus_gleu([int(v) for v in row]) for row in summed]
    mean, std, ci = _summary(scores)
    fields = {"order": order, "iter": iterations, "sampling": sampling}
    signature = Signature.build("GLEU", fields, nrefs=n_refs)
    return GLEUScore("GLEU", mean, signature, std, ci, tuple(scores), n_refs == 1)
