"""BLEU with sacreBLEU 2.6's exact semantics, edge cases included.

Statistics per segment are ``[hyp_len, ref_len, correct_1..N, total_1..N]``;
the corpus score comes from their sum. The arithmetic in :func:`compute_bleu`
follows sacreBLEU's operation order so that scores are equal as floats, not
just to the printed digit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from itertools import repeat
from typing import Any, Protocol

from ..errors import InputError, OptionError, warn
from ..options import BLEU_DEFAULTS, MAX_ORDER_LIMIT, REF_LENGTHS, SMOOTH_DEFAULTS
from ..signature import Signature
from ..statistics import Statistics
from ..tokenizers import available_tokenizers, default_tokenizer_for, get_tokenizer
from .base import Metric, Score
from .compiled import ROWS_MATRIX, ROWS_SUMS, StoredReferences, TextReferences, Tokens, compiled_matcher
from .ngram_match import PairReference, ReferenceNgrams
from .substring_match import CharacterReference

#: The defaults of every option live in :mod:`bleucli.options`; named here for this module's readers.
DEFAULT_MAX_ORDER = BLEU_DEFAULTS.max_order

#: Stand-in for log(0): drives the geometric mean, and so the score, to 0.
_LOG_ZERO = -9999999999

#: Tokenizers that the compiled extension runs itself (``bleu_statistics``, ``tokens_13a``...).
COMPILED_TOKENIZERS = ("13a", "intl", "zh", "char", "none")

#: sacreBLEU warns when at least this many hypotheses end in " ." (looks tokenized).
TOKENIZED_PERIOD_THRESHOLD = 100

#: attributes whose assignment leaves the signature unchanged (see BLEU.__setattr__)
_KEEPS_SENTENCE_SIGNATURES = frozenset({"_nrefs", "_signature_cache", "_sentence_signatures"})


#: sacreBLEU's ``sacrebleu.metrics.bleu.MAX_NGRAM_ORDER``: BLEU's default n-gram order.
MAX_NGRAM_ORDER = DEFAULT_MAX_ORDER


@dataclass(frozen=True, repr=False)  # str/repr: sacreBLEU's line (Score.__repr__)
class BLEUScore(Score):
    """A BLEU result. ``counts``/``totals`` include the +k of add-k smoothing, as in sacreBLEU."""

    # lists, as sacreBLEU's (``score.counts + [...]``, ``json.dumps(score.__dict__)``...)
    counts: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)
    precisions: list[float] = field(default_factory=list)
    bp: float = 1.0
    sys_len: int = 0
    ref_len: int = 0

    def __hash__(self) -> int:  # the dataclass's would hash the lists; scores stay hashable
        return hash((self.name, self.score, self.signature, tuple(self.counts), tuple(self.totals),
                     tuple(self.precisions), self.bp, self.sys_len, self.ref_len))

    @property
    def ratio(self) -> float:
        """Hypothesis length over reference length (0 when there is no reference text)."""
        return self.sys_len / self.ref_len if self.ref_len > 0 else 0.0

    @property
    def prec_str(self) -> str:
        """sacreBLEU's name: the precisions to one decimal, ``/``-joined (``82.4/57.1/41.7/30.8``)."""
        return "/".join(f"{p:.1f}" for p in self.precisions)

    def details(self) -> str:
        precisions = self.prec_str
        return (
            f"{precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def statistics_data(self) -> dict[str, Any]:
        return {"counts": list(self.counts), "totals": list(self.totals), "precisions": list(self.precisions),
                "bp": self.bp, "ratio": self.ratio, "sys_len": self.sys_len, "ref_len": self.ref_len}


def check_smoothing(method: str, value: float | None) -> float | None:
    """Validate a smoothing method and value; return the value that will be used."""
    if method not in SMOOTH_DEFAULTS:
        raise OptionError(
            f"unknown smoothing method '{method}' (choose from: {', '.join(SMOOTH_DEFAULTS)})"
        )
    default = SMOOTH_DEFAULTS[method]
    if default is None:
        return None  # exp and none take no value; sacreBLEU ignores one if given
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OptionError(f"smoothing value for {method} must be a number, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise OptionError(f"smoothing value for {method} must be a finite number >= 0, got {value}")
    if value > MAX_SMOOTH_VALUE:
        raise OptionError(f"smoothing value (--smooth-value) for {method} must be at most {MAX_SMOOTH_VALUE!r}, "
                          f"got {value!r}: a precision of 100 x {value!r} is inf, and the score with it "
                          "(a smaller --smooth-value gives finite scores)")
    return value


#: The largest smoothing value ``k`` for which ``100.0 * k`` (a floor precision; add-k's ``100.0 * (count + k)``,
#: where ``count`` is far below the spacing of floats near ``k``) is finite; one float more overflows to inf.
#: Below it every precision, and so the score, is finite and equals sacreBLEU's; above it sacreBLEU gives inf
#: (``-s floor -sv 5``'s score of 160.9 is sacreBLEU's too and stays).
MAX_SMOOTH_VALUE = 1.7976931348623156e306


def compute_bleu(
    correct: Sequence[float],
    total: Sequence[float],
    sys_len: int,
    ref_len: int,
    smooth_method: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
    max_order: int = DEFAULT_MAX_ORDER,
) -> tuple[float, list[float], list[float], list[float], float]:
    """BLEU from summed statistics: ``(score, counts, totals, precisions, bp)``.

    The quirks are sacreBLEU's and deliberate: BP is 0 for an empty hypothesis;
    no match at any order gives 0 whatever the smoothing; add-k adds k to the
    counts of orders above 1 (and the returned counts show it); with effective
    order the mean runs over the orders for which the *hypothesis* has n-grams.
    """
    _check_statistics(correct, total, sys_len, ref_len)
    return _bleu(correct, total, sys_len, ref_len, smooth_method, check_smoothing(smooth_method, smooth_value),
                 effective_order, max_order)


def _check_statistics(correct: Sequence[float], total: Sequence[float], sys_len: float, ref_len: float) -> None:
    """Refuse statistics no corpus can have: sacreBLEU turns counts above totals into BLEU 499.99."""
    import numbers  # here, not at the top: only the public compute_bleu checks, and the ABCs cost 1.7M instructions

    if len(correct) != len(total):
        raise InputError(f"BLEU statistics: {len(correct)} match counts but {len(total)} totals")
    for name, value in (("hypothesis length", sys_len), ("reference length", ref_len)):
        if not isinstance(value, numbers.Real) or isinstance(value, bool) or not 0 <= value < float("inf"):
            raise InputError(f"BLEU statistics: the {name} must be a finite number >= 0, got {value!r}")
    for order, (count, most) in enumerate(zip(correct, total), 1):
        if not 0 <= count <= most < float("inf"):
            raise InputError(f"BLEU statistics: {order}-gram matches ({count!r}) must be between 0 and "
                             f"the {order}-gram total ({most!r})")


def _bleu(
    correct: Sequence[float],
    total: Sequence[float],
    sys_len: int,
    ref_len: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_order: int,
) -> tuple[float, list[float], list[float], list[float], float]:
    """:func:`compute_bleu` for a smoothing value already checked (by the metric's constructor)."""
    correct = list(correct)
    total = list(total)
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    else:
        bp = 1.0
    precisions = [0.0] * max_order
    if not any(correct):
        return 0.0, correct, total, precisions, bp

    exp_divisor = 1.0
    used_orders = max_order
    for n in range(max_order):
        if smooth_method == "add-k" and n > 0:
            correct[n] += smooth_value  # type: ignore[operator]
            total[n] += smooth_value  # type: ignore[operator]
        if total[n] == 0:
            break
        if effective_order:
            used_orders = n + 1
        if correct[n] == 0:
            if smooth_method == "exp":
                exp_divisor *= 2
                precisions[n] = 100.0 / (exp_divisor * total[n])
            elif smooth_method == "floor":
                precisions[n] = 100.0 * smooth_value / total[n]  # type: ignore[operator]
        else:
            precisions[n] = 100.0 * correct[n] / total[n]

    logs = [math.log(p) if p != 0.0 else _LOG_ZERO for p in precisions[:used_orders]]
    score = bp * math.exp(sum(logs) / used_orders)
    return score, correct, total, precisions, bp


def _compiled_tokens(tokenizer: str, lowercase: bool, line: str) -> Tokens:
    """A line's tokens as BLEU makes them (lowercased if asked, right-stripped), by the extension;
    for char the string of them, the kind :meth:`BLEU._sequence` gives the matchers for char."""
    module = compiled_matcher()
    assert module is not None  # only used by metrics made with the extension
    tokens = module.tokenize((line.lower() if lowercase else line).rstrip(), tokenizer)
    return "".join(tokens) if tokenizer == "char" else tokens


def _install_tables(compiled: Any, tokenizer: str) -> None:
    """Give the extension the table ``tokenizer`` needs (intl's classes, zh's ranges), if any."""
    if tokenizer == "intl":
        _install_intl_classes(compiled)
    elif tokenizer == "zh":
        _install_zh_ranges(compiled)


@cache
def _install_intl_classes(compiled: Any) -> None:
    """Give the extension intl's Unicode classes, once per process (and per module object)."""
    from ..tokenizers.tok_intl import unicode_classes

    compiled.set_intl_classes(unicode_classes())


@cache
def _install_zh_ranges(compiled: Any) -> None:
    """Give the extension zh's Chinese ranges (the Python tuple itself: one source), once per process."""
    from ..tokenizers.tok_zh import CHINESE_RANGES

    compiled.set_zh_ranges(CHINESE_RANGES)


@cache
def _ngram_totals(hyp_len: int, max_order: int) -> tuple[int, ...]:
    """How many n-grams of each order a hypothesis of ``hyp_len`` tokens has (cached: a few hundred lengths occur)."""
    return tuple(hyp_len - n if hyp_len > n else 0 for n in range(max_order))


def closest_ref_len(hyp_len: int, ref_lens: Iterable[int]) -> int:
    """The reference length closest to the hypothesis; the shorter one wins a tie."""
    best_len, best_diff = -1, -1
    for length in ref_lens:
        diff = abs(hyp_len - length)
        if best_diff == -1 or diff < best_diff or (diff == best_diff and length < best_len):
            best_len, best_diff = length, diff
    return best_len


class BLEURefData(Protocol):
    """One segment's references prepared for matching, whatever the matcher.

    The kinds: the compiled ``References`` (tables kept for many hypotheses)
    and :class:`StoredReferences` (tokens only, tables built per call);
    without the extension :class:`ReferenceNgrams` (prepared n-gram sets),
    :class:`PairReference` (one reference used once) and
    :class:`CharacterReference` (``char``: substring search).
    """

    @property
    def lengths(self) -> Sequence[int]:
        """Each reference's token count."""

    def matches(self, hypothesis: Any, max_order: int) -> list[int]:
        """Clipped n-gram matches of orders 1..max_order."""


class BLEU(Metric[BLEURefData]):
    """Corpus and sentence BLEU, configured like sacreBLEU's ``BLEU`` class."""

    name = "BLEU"
    #: sacreBLEU's class constants: smoothing method -> default value, the tokenizer names, the default one
    SMOOTH_DEFAULTS = dict(SMOOTH_DEFAULTS)
    TOKENIZERS = tuple(available_tokenizers())
    TOKENIZER_DEFAULT = BLEU_DEFAULTS.tokenize or "13a"

    @staticmethod
    def compute_bleu(correct: Sequence[float], total: Sequence[float], sys_len: int, ref_len: int,
                     smooth_method: str = "none", smooth_value: float | None = None,
                     effective_order: bool = False, max_ngram_order: int = DEFAULT_MAX_ORDER) -> BLEUScore:
        """sacreBLEU's ``BLEU.compute_bleu``: a :class:`BLEUScore` from summed statistics.

        The numbers are :func:`compute_bleu`'s; the signature, whose number of
        references the statistics do not tell, says ``nrefs:?``.
        """
        score, counts, totals, precisions, bp = compute_bleu(
            correct, total, sys_len, ref_len, smooth_method, smooth_value, effective_order, max_ngram_order)
        signature = BLEU(smooth_method=smooth_method, smooth_value=smooth_value, effective_order=effective_order,
                         max_ngram_order=max_ngram_order, force=True).signature("?")
        return BLEUScore(name="BLEU", score=score, signature=signature, counts=list(counts), totals=list(totals),
                         precisions=list(precisions), bp=bp, sys_len=int(sys_len), ref_len=int(ref_len))

    @classmethod
    def from_options(cls, options: Any, references: Sequence[Sequence[str | None]] | None = None,
                     trg_lang: str = "", models: dict[str, Any] | None = None) -> BLEU:
        """BLEU from :class:`~bleucli.options.BLEUOptions` (the tokenizer default follows ``trg_lang``)."""
        return cls(
            lowercase=options.lowercase, force=options.force, tokenize=options.tokenize,
            smooth_method=options.smooth_method, smooth_value=options.smooth_value,
            max_ngram_order=options.max_order, effective_order=options.effective_order, trg_lang=trg_lang,
            references=references, spm_model=options.spm_model, models=models, ref_length=options.ref_length,
        )

    def __init__(
        self,
        lowercase: bool = BLEU_DEFAULTS.lowercase,
        force: bool = BLEU_DEFAULTS.force,
        tokenize: str | None = BLEU_DEFAULTS.tokenize,
        smooth_method: str = BLEU_DEFAULTS.smooth_method,
        smooth_value: float | None = BLEU_DEFAULTS.smooth_value,
        max_ngram_order: int = BLEU_DEFAULTS.max_order,
        effective_order: bool = BLEU_DEFAULTS.effective_order,
        trg_lang: str = "",
        references: Sequence[Sequence[str | None]] | None = None,
        spm_model: str | None = BLEU_DEFAULTS.spm_model,
        models: dict[str, Any] | None = None,
        ref_length: str = BLEU_DEFAULTS.ref_length,
    ) -> None:
        """``spm_model``: a local SentencePiece model file (implies ``tokenize="spm"``); ``models``: where
        registry SentencePiece models are cached (``cache_dir``, ``offline``, ``registry``; default: the
        environment's)."""
        self.smooth_value = check_smoothing(smooth_method, smooth_value)
        self.smooth_method = smooth_method
        if isinstance(max_ngram_order, bool) or not isinstance(max_ngram_order, int) or not (
            1 <= max_ngram_order <= MAX_ORDER_LIMIT
        ):
            raise OptionError(
                f"max n-gram order must be an integer from 1 to {MAX_ORDER_LIMIT}, got {max_ngram_order!r}")
        self.max_ngram_order = max_ngram_order
        if ref_length not in REF_LENGTHS:
            raise OptionError(f"unknown reference length '{ref_length}' (choose from: {', '.join(REF_LENGTHS)})")
        #: ``shortest``: the brevity penalty uses each segment's shortest reference (NIST before mteval-v13)
        self.ref_length = ref_length
        self._shortest = ref_length == "shortest"
        self.lowercase = bool(lowercase)
        self.force = bool(force)
        self.effective_order = bool(effective_order)
        self.trg_lang = trg_lang
        if tokenize is None and spm_model is not None:
            tokenize = "spm"
        if spm_model is not None and tokenize != "spm":  # checked before the model file is opened
            raise OptionError(f"a SentencePiece model file (--spm-model) needs the tokenizer 'spm', not '{tokenize}'")
        self.tokenize = tokenize if tokenize is not None else default_tokenizer_for(trg_lang)
        self.tokenizer = get_tokenizer(self.tokenize, spm_model=spm_model, models=models)
        if self.tokenize == "spm" and spm_model is None:
            warn("tokenizer 'spm' is sacreBLEU's old name of 'flores101' (same model and signature)")
        self._split = self.tokenizer.tokens
        # tokenizers whose tokens are single characters offer them as one string
        self._characters = getattr(self.tokenizer, "characters", None)
        compiled = compiled_matcher()
        self._compiled_matches = None if compiled is None else compiled.ngram_matches
        self._compiled_references = None if compiled is None else compiled.References
        #: a tokenizer the extension also has (the same tokens: tests/test_compiled_tokenizers.py):
        #: chunks and sentence scores are then tokenized, counted and matched in C, without a str a token
        self._compiled_tokenizer: str | None = None
        self._compiled_statistics: Any = None
        self._compiled_systems: Any = None  # several systems against each segment's references, tokenized once
        if compiled is not None and self.tokenize in COMPILED_TOKENIZERS:
            self._compiled_tokenizer = self.tokenize
            self._compiled_statistics = compiled.bleu_statistics
            self._compiled_systems = getattr(compiled, "bleu_systems", None)
            _install_tables(compiled, self.tokenize)
            # lists of str for the paths that keep reference tables (char gives them strings: _characters)
            self._split = {"13a": compiled.tokens_13a, "intl": compiled.tokens_intl,
                           "zh": compiled.tokens_zh}.get(self.tokenize, self._split)
        #: sentence scores in one C call (statistics and score); add-k stays in Python (it makes counts floats)
        self._compiled_sentence: Any = None
        self._compiled_sentences: Any = None  # a batch against one reference set, tokenized once
        if self._compiled_statistics is not None and smooth_method != "add-k":
            self._compiled_sentence = compiled.bleu_sentence  # type: ignore[union-attr]
            self._compiled_sentences = compiled.bleu_sentences  # type: ignore[union-attr]
        if tokenize is not None and trg_lang and tokenize != default_tokenizer_for(trg_lang) \
                and default_tokenizer_for(trg_lang) != "13a":
            warn(f"consider the '{default_tokenizer_for(trg_lang)}' tokenizer for target language '{trg_lang}'")
        super().__init__(references)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled in another process (dask workers, spawned processes): the extension there
        needs intl's classes or zh's ranges too before it tokenizes with them."""
        self.__dict__.update(state)
        tokenizer = state.get("_compiled_tokenizer")
        if tokenizer in ("intl", "zh"):
            import importlib

            _install_tables(importlib.import_module(self._compiled_statistics.__module__), tokenizer)

    # -- statistics ---------------------------------------------------------------
    def _tokens(self, line: str) -> list[str]:
        if self.lowercase:
            line = line.lower()
        return self._split(line.rstrip())

    def _sequence(self, line: str) -> Tokens:
        """A line as the matchers take it: its tokens, or for ``char`` the string of them."""
        if self._characters is None:
            return self._tokens(line)
        if self.lowercase:
            line = line.lower()
        return self._characters(line.rstrip())

    def prepare_references(self, references: tuple[str, ...], shared: bool) -> BLEURefData:
        if self._compiled_tokenizer is not None and not shared:  # only references= keeps these
            return TextReferences(references, partial(_compiled_tokens, self._compiled_tokenizer, self.lowercase))
        if self._compiled_references is not None:
            sequences = list(map(self._sequence, references))
            return self._compiled_references(sequences) if shared else StoredReferences(sequences)
        if self._characters is not None and len(references) == 1:
            return CharacterReference(self._sequence(references[0]))  # matched by substring search
        if len(references) == 1 and not shared:
            return PairReference(self._tokens(references[0]))
        return ReferenceNgrams([self._tokens(ref) for ref in references], self.max_ngram_order)

    def single_use_statistics(self, hypothesis: str, references: tuple[str, ...]) -> list[int]:
        """The statistics of :meth:`segment_statistics` against ``prepare_references(references, False)``,
        without building the prepared object: with the compiled matcher a one-system corpus and a
        sentence score take this path for every segment, where the object costs ~5% of the time."""
        if self._compiled_statistics is not None:
            return self._compiled_statistics([hypothesis], [references], self._compiled_tokenizer,
                                             self.max_ngram_order, self.lowercase, self._shortest, True)[0]
        if self._compiled_matches is None:
            return self.segment_statistics(hypothesis, self.prepare_references(references, False))
        hyp = self._sequence(hypothesis)
        refs = list(map(self._sequence, references))
        hyp_len = len(hyp)
        order = self.max_ngram_order
        ref_len = len(refs[0]) if len(refs) == 1 else (
            min(map(len, refs)) if self._shortest else closest_ref_len(hyp_len, map(len, refs)))
        return [hyp_len, ref_len, *self._compiled_matches(hyp, refs, order), *_ngram_totals(hyp_len, order)]

    def _rows(
        self, hypotheses: Iterable[str], references: Sequence[Sequence[str | None]] | None
    ) -> Iterator[list[Any]]:
        if references is not None or self._compiled_statistics is None:
            return super()._rows(hypotheses, references)
        return self._text_reference_rows(hypotheses)

    def _text_reference_rows(self, hypotheses: Iterable[str]) -> Iterator[list[Any]]:
        """The rows against references kept as text (``references=``), chunk by chunk in C."""
        statistics, tokenizer = self._compiled_statistics, self._compiled_tokenizer
        order, lowercase, shortest = self.max_ngram_order, self.lowercase, self._shortest
        # TextReferences (made with the compiled tokenizer) keep the references' text
        texts = ((hyp, info.texts) for hyp, info in self._cached_segments(hypotheses))  # type: ignore[attr-defined]
        from .fast_path import rows_in_chunks

        return rows_in_chunks(texts, lambda hyps, refs: statistics(hyps, refs, tokenizer, order, lowercase, shortest,
                                                                   True))

    def chunk_rows(
        self, systems: Sequence[Sequence[str]], references: Sequence[tuple[str, ...]]
    ) -> list[Any]:
        """As :meth:`Metric.chunk_rows`; compiled, each system's rows are one
        :class:`~bleucli.engine.rows.RowMatrix`."""
        if self._compiled_statistics is None:
            return super().chunk_rows(systems, references)
        from ..engine.rows import RowMatrix  # here: runs that keep no rows never load it

        width = 2 + 2 * self.max_ngram_order
        return [RowMatrix(data, width) for data in self._compiled_batch(systems, references, ROWS_MATRIX)]

    def chunk_statistics(
        self, systems: Sequence[Sequence[str]], references: Sequence[tuple[str, ...]]
    ) -> list[Statistics]:
        if self._compiled_statistics is None or not references:
            return super().chunk_statistics(systems, references)
        segments = len(references)
        return [Statistics(tuple(sums), segments) for sums in self._compiled_batch(systems, references, ROWS_SUMS)]

    def _compiled_batch(self, systems: Sequence[Sequence[str]], references: Sequence[tuple[str, ...]],
                        rows: int) -> list[Any]:
        """Each system's statistics in C, as ``rows`` asks (:data:`ROWS_SUMS` or :data:`ROWS_MATRIX`).

        Two or more systems share each segment's tokenized references (``bleu_systems``): a
        reference is tokenized once, not once per system. Should that fail, the systems are scored
        one by one, so that the error is the one a single system gives (the first system's first).
        """
        arguments = (references, self._compiled_tokenizer, self.max_ngram_order, self.lowercase, self._shortest, rows)
        if len(systems) > 1 and self._compiled_systems is not None:
            try:
                return self._compiled_systems(systems, *arguments)
            except Exception:  # the same call per system raises the error to report
                pass
        return [self._compiled_statistics(system, *arguments) for system in systems]

    def segment_statistics(self, hypothesis: str, references: BLEURefData) -> list[int]:
        hyp = self._sequence(hypothesis)
        hyp_len = len(hyp)
        ref_lens = references.lengths
        order = self.max_ngram_order
        ref_len = ref_lens[0] if len(ref_lens) == 1 else (
            min(ref_lens) if self._shortest else closest_ref_len(hyp_len, ref_lens))
        return [hyp_len, ref_len, *references.matches(hyp, order), *_ngram_totals(hyp_len, order)]

    def _observe(self, hypotheses: Iterable[str]) -> Iterable[str]:
        if self.force:
            return hypotheses
        return self._count_tokenized_periods(hypotheses)

    def _count_tokenized_periods(self, hypotheses: Iterable[str]) -> Iterator[str]:
        count = 0
        for hyp in hypotheses:
            if isinstance(hyp, str) and hyp.endswith(" ."):
                count += 1
            yield hyp
        self.report_suspicious(count)

    def count_suspicious(self, hypotheses: Iterable[str]) -> int:
        if self.force:
            return 0
        if type(hypotheses) is list and set(map(type, hypotheses)) <= {str}:  # a chunk of lines: counted in C
            return sum(map(str.endswith, hypotheses, repeat(" .")))
        return sum(1 for hyp in hypotheses if isinstance(hyp, str) and hyp.endswith(" ."))

    def report_suspicious(self, count: int) -> None:
        if count >= TOKENIZED_PERIOD_THRESHOLD:
            warn(
                f"{count} hypotheses end in a tokenized period (' .'): the output looks tokenized, "
                "which distorts BLEU; detokenize it, or use force=True (--force) if it is not"
            )

    # -- scoring -----------------------------------------------------------------
    def score_from_statistics(self, statistics: Sequence[Any], nrefs: int | str | None = None) -> BLEUScore:
        order = self.max_ngram_order
        score, counts, totals, precisions, bp = _bleu(
            statistics[2: 2 + order],
            statistics[2 + order: 2 + 2 * order],
            int(statistics[0]),
            int(statistics[1]),
            self.smooth_method,
            self.smooth_value,
            self.effective_order,
            order,
        )
        return BLEUScore._build(
            name=self.name,
            score=score,
            signature=self.signature(nrefs),
            counts=list(counts),
            totals=list(totals),
            precisions=list(precisions),
            bp=bp,
            sys_len=int(statistics[0]),
            ref_len=int(statistics[1]),
        )

    def resampled_score(self, statistics: Sequence[Any]) -> float:
        """The score alone (the same :func:`_bleu` call as :meth:`score_from_statistics`)."""
        order = self.max_ngram_order
        return _bleu(statistics[2: 2 + order], statistics[2 + order: 2 + 2 * order], int(statistics[0]),
                     int(statistics[1]), self.smooth_method, self.smooth_value, self.effective_order, order)[0]

    def resampled_scores_in_c(self, sums: Any, first: int, width: int) -> Any:
        """:func:`.vectorized.bleu_scores` computed in C (:func:`.resampled.bleu_scores_in_c`), or None."""
        from .resampled import bleu_scores_in_c

        order = self.max_ngram_order
        if width != 2 + 2 * order:
            return None
        return bleu_scores_in_c(sums, first, order, self.smooth_method, self.smooth_value, self.effective_order)

    def scores_from_statistics_matrix(self, matrix: Any) -> Any:
        """:meth:`resampled_score` of every row at once, bit for bit (:func:`.vectorized.bleu_scores`)."""
        from .vectorized import bleu_scores

        scores = bleu_scores(matrix, self.max_ngram_order, self.smooth_method, self.smooth_value,
                             self.effective_order, _LOG_ZERO)
        return super().scores_from_statistics_matrix(matrix) if scores is None else scores

    #: the sentence path's signature per number of references (reset by any change of configuration)
    _sentence_signatures: dict[int, Signature]

    def __setattr__(self, name: str, value: Any) -> None:
        """Assign; any change but the reference count's forgets the signatures of the sentence path.

        :meth:`sentence_score` runs millions of times (MBR decoding, data filtering): it keeps its
        signature per number of references instead of checking the whole configuration per call
        (:meth:`signature` does, a tenth of the call's time), so a change of configuration (the CLI sets
        ``signature_fields`` after construction) must drop them.
        """
        object.__setattr__(self, name, value)
        if name not in _KEEPS_SENTENCE_SIGNATURES:
            self.__dict__["_sentence_signatures"] = {}

    def _sentence_signature(self, nrefs: int) -> Signature:
        """:meth:`signature` for ``nrefs``, kept for the next sentences."""
        signature = self.signature(nrefs)
        self._sentence_signatures[nrefs] = signature
        return signature

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        if not self.effective_order:
            warn("effective order is recommended for sentence-level BLEU (effective_order=True)")
        # The compiled path for a list or tuple of references (MBR and data filtering call this millions
        # of times); the extension refuses a line that is not a str with TypeError, and then the checks
        # of Metric.sentence_score give their errors. Statistics, the _bleu arithmetic (the same floats:
        # tests/test_compiled_tokenizers.py) and the result object (as BLEUScore._build makes it) are made in C.
        if self._compiled_sentence is not None and type(references) in (list, tuple) and references:
            nrefs = len(references)
            signature = self._sentence_signatures.get(nrefs) or self._sentence_signature(nrefs)
            try:
                result: BLEUScore = self._compiled_sentence(
                    hypothesis, references, self._compiled_tokenizer, self.max_ngram_order, self.lowercase,
                    self._shortest, self.smooth_method, self.smooth_value, self.effective_order, BLEUScore, self.name,
                    signature)
            except TypeError:
                return super().sentence_score(hypothesis, references)  # type: ignore[return-value]
            if self._nrefs != nrefs:
                self._nrefs = nrefs
            return result
        return super().sentence_score(hypothesis, references)  # type: ignore[return-value]

    def sentence_scores(self, hypotheses: Iterable[str], references: Sequence[str]) -> list[Score]:
        from .fast_path import sentence_scores_in_c  # here: a plain run never needs it

        compiled = self._sentence_scores_in_c if self._compiled_sentence is not None else None
        return sentence_scores_in_c(compiled, super().sentence_scores, hypotheses, references)

    def _sentence_scores_in_c(self, hypotheses: list[str], references: Sequence[str]) -> list[Score]:
        """:meth:`sentence_scores` in one C call (the arguments checked by :func:`.fast_path.sentence_scores_in_c`)."""
        nrefs = self._nrefs = len(references)
        # one signature and one set of arguments for the whole batch; each result as sentence_score builds it
        signature = self._sentence_signatures.get(nrefs) or self._sentence_signature(nrefs)
        return self._compiled_sentences(hypotheses, references, self._compiled_tokenizer, self.max_ngram_order,
                                        self.lowercase, self._shortest, self.smooth_method, self.smooth_value,
                                        self.effective_order, BLEUScore, self.name, signature)

    def _signature_key(self) -> Any:
        return (self.lowercase, self.effective_order, self.tokenizer.signature, self.smooth_method,
                self.smooth_value, self.max_ngram_order, self.ref_length)

    def _signature_fields(self) -> dict[str, object]:
        smooth = self.smooth_method
        if self.smooth_value is not None:
            smooth += f"[{self.smooth_value:.2f}]"
        return {
            "case": "lc" if self.lowercase else "mixed",
            "eff": self.effective_order,
            "tok": self.tokenizer.signature,
            "smooth": smooth,
            "order": self.max_ngram_order if self.max_ngram_order != DEFAULT_MAX_ORDER else None,
            "reflen": self.ref_length if self._shortest else None,
        }

    def _pairwise_matrix(self, hypotheses: list[str], references: list[str]) -> list[list[float]]:
        return _bleu_pairwise_matrix(self, hypotheses, references)


# -- pairwise sentence scores (MBR matrices) ---------------------------------
# Each cell is what sacreBLEU 2.6's ``sentence_score(hypothesis, [reference]).score``
# returns: the statistics of a pair are BLEU's own and the same arithmetic scores them.


def _bleu_pairwise_matrix(metric: BLEU, hyps: list[str], refs: list[str]) -> list[list[float]]:
    """:meth:`BLEU.pairwise_scores`: each reference prepared once (shared tables), each hypothesis tokenized once."""
    order = metric.max_ngram_order
    prepared = [metric.prepare_references((ref,), True) for ref in refs]
    ref_lens = [p.lengths[0] for p in prepared]
    options = (metric.smooth_method, metric.smooth_value, metric.effective_order, order)
    matrix = []
    for hyp in hyps:
        sequence = metric._sequence(hyp)
        hyp_len = len(sequence)
        totals = _ngram_totals(hyp_len, order)
        if metric.smooth_method == "add-k":
            matrix.append([_bleu(p.matches(sequence, order), totals, hyp_len, ref_len, *options)[0]
                           for p, ref_len in zip(prepared, ref_lens)])
        else:
            score = _row_scorer(hyp_len, totals, *options)
            matrix.append([score(p.matches(sequence, order), ref_len) for p, ref_len in zip(prepared, ref_lens)])
    return matrix


def _row_scorer(hyp_len: int, totals: tuple[int, ...], smooth_method: str, smooth_value: float | None,
                effective_order: bool, order: int) -> Any:
    """``_bleu(matches, totals, hyp_len, ref_len, ...)[0]`` for one hypothesis (pairwise matrices).

    The same values in the same order of operations (each precision, its log,
    ``sum`` of the same list of logs, the division, ``exp``, the penalty), so
    the result is identical; what depends on the hypothesis alone (the orders
    it has, the length of the log list) is settled once, and logs and brevity
    penalties are memoized (a row has few distinct counts and lengths). Not
    for add-k, whose smoothing changes the counts (that goes through ``_bleu``).
    """
    reach = 0  # orders the hypothesis has n-grams of: _bleu stops at the first empty one
    while reach < order and totals[reach] != 0:
        reach += 1
    used = reach if effective_order else order
    padding = [_LOG_ZERO] * (used - reach)  # orders never reached keep precision 0.0
    exp_smoothing = smooth_method == "exp"
    zero_logs: list[Any] = []  # per order: the log used for a zero count (exp: per number of zeros so far)
    for n in range(reach):
        if exp_smoothing:
            zero_logs.append({})
        elif smooth_method == "floor":
            precision = 100.0 * smooth_value / totals[n]  # type: ignore[operator]
            zero_logs.append(math.log(precision) if precision != 0.0 else _LOG_ZERO)
        else:
            zero_logs.append(_LOG_ZERO)
    match_logs: list[dict[int, float]] = [{} for _ in range(reach)]
    penalties: dict[int, float] = {}
    log = math.log
    exp = math.exp

    def score(correct: list[int], ref_len: int) -> float:
        if not any(correct):
            return 0.0
        logs = []
        divisor = 1.0
        for n in range(reach):
            count = correct[n]
            if count:
                value = match_logs[n].get(count)
                if value is None:
                    value = match_logs[n][count] = log(100.0 * count / totals[n])
            elif exp_smoothing:
                divisor *= 2
                value = zero_logs[n].get(divisor)
                if value is None:
                    precision = 100.0 / (divisor * totals[n])
                    value = zero_logs[n][divisor] = log(precision) if precision != 0.0 else _LOG_ZERO
            else:
                value = zero_logs[n]
            logs.append(value)
        if padding:
            logs += padding
        penalty = penalties.get(ref_len)
        if penalty is None:
            if hyp_len < ref_len:
                penalty = exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0
            else:
                penalty = 1.0
            penalties[ref_len] = penalty
        return penalty * exp(sum(logs) / used)

    return score
