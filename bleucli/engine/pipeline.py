"""One scoring run, from typed options and opened inputs to a result: the API under the CLI.

Every mode goes through :func:`run` and comes back as a :class:`RunResult`
with the signatures it will print, so that the final steps are the same for
all of them (the CLI's :func:`bleucli.clikit.scoring.finish`): check
``--expect-signature``, render, print. Test-set fields (``test:``,
``lang:``...) are given to the metrics when they are built
(:meth:`~bleucli.options.MetricOptions.build`), so every score of every mode
carries them.

::

    options  ──► metrics (MetricOptions.build)
    inputs   ──► aligned segments ──► chunks ──► Workers (executor) ──► Statistics ──► scores
                                                          └── rows ──► significance ──► results
    RunResult ──► expected signature check ──► bleucli.render ──► stdout

Nothing here prints, exits or imports click.
"""

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, SignatureMismatchError
from ..frozen import Frozen
from ..metrics.base import Metric, Score
from ..options import RunOptions
from ..signature import Signature
from .progress import advance, paired_units, phase, phase_of
from .streaming import Streams

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor

    from .progress import Reporter


#: The opened inputs of a run (:class:`bleucli.engine.streaming.Streams`).
Inputs = Streams


class RunResult(Frozen):
    """What a run produced, by mode; ``signatures`` are what it will print (one per metric)."""

    mode: str
    signatures: list[Signature]
    system_names: Sequence[str] = ()
    #: ``corpus``: ``[system][metric]``
    scores: Sequence[Sequence[Score]] = ()
    #: ``sentence``: produced as the input is read (the CLI prints them once all are in)
    sentences: Iterator[Score] | None = None
    #: ``ci``: one per metric
    confidence: Sequence[Any] = ()
    #: ``bs``/``ar``: one per metric
    paired: Sequence[Any] = ()


def run(options: RunOptions, metrics: Sequence[Metric[Any]], inputs: Inputs,
        executor: "Executor | None" = None, documents: Sequence[str] | None = None,
        progress: "Reporter | None" = None) -> RunResult:
    """Score ``inputs`` with ``metrics`` as ``options`` say (see :class:`RunResult`).

    ``documents`` are each segment's document id, which ``--resample-unit document``
    (``options.significance.unit``) resamples by.

    The work runs in this process, in ``options.jobs`` local processes, or on
    ``executor`` if one is given (``options.jobs`` is then the number of tasks
    in flight: a Dask cluster's threads, say). Sentence scores are computed as
    they are read, so an executor must stay open until they are.

    ``progress`` (a command's bar, :mod:`bleucli.engine.progress`) is told of the segments scored
    (``Scoring``: corpus scores, the statistics of a test, or sentence scores as they are consumed after
    this returns), of each metric's confidence interval (``Bootstrap``) and of the resamples scored by a
    paired test. No number depends on it.
    """
    if options.dask is not None and executor is None:
        raise OptionError("--dask needs the cluster's executor: open it with bleucli.dask.dask_executor")
    from .streaming import parallel_sentence_scores, score_streams_multi, sentence_scores, stream_rows

    nrefs = len(inputs.references)
    signatures = [metric.signature(nrefs) for metric in metrics]
    mode = options.mode
    if mode == "sentence":
        if len(metrics) != 1 or len(inputs.systems) != 1:
            raise OptionError("--sentence-level scores one system with one metric")
        if executor is not None or options.jobs != 1:
            sentences = parallel_sentence_scores(metrics[0], inputs, options.jobs, executor)
        else:
            sentences = sentence_scores(metrics[0], inputs.systems[0], inputs.references, inputs.system_names[0],
                                        inputs.reference_names)
        sentences = phase_of(progress, "Scoring", lambda: input_segments(inputs), sentences)
        return RunResult(mode, signatures, inputs.system_names, sentences=sentences)
    if mode == "corpus":
        with phase(progress, "Scoring", lambda: input_segments(inputs)):
            scores = score_streams_multi(metrics, inputs.systems, inputs.references, inputs.system_names,
                                         inputs.reference_names, options.jobs, executor)
        return RunResult(mode, [s.signature for s in scores[0]], inputs.system_names, scores=scores)
    check_significance_systems(options, len(inputs.systems))
    check_documents(options, documents)
    with phase(progress, "Scoring", lambda: input_segments(inputs)):
        rows = stream_rows(metrics, inputs, options.jobs, executor)
    return run_on_rows(options, metrics, rows, inputs.system_names, nrefs, inputs.from_stdin, documents,
                       progress)


def check_documents(options: RunOptions, documents: Sequence[str] | None) -> None:
    """Document resampling needs each segment's document id."""
    if options.significance.unit == "document" and documents is None:
        raise OptionError("--resample-unit document needs each segment's document id: --docids FILE, "
                          "or a test set with doc ids (-t)")



def input_segments(inputs: Inputs) -> int | None:
    """The segments of a run, counted in its first file's lines, or an ``--aligned`` file's (None: stdin,
    or a compressed file).

    Only a drawn bar asks (the count reads the file once more, at the speed of a newline scan).
    """
    from ..input.aligned import aligned_source
    from ..input.ranges import count_lines
    from ..input.reading import FileLines

    first = inputs.systems[0] if inputs.systems else None
    if isinstance(first, FileLines) and first.seekable():
        return count_lines(first.path)
    aligned = aligned_source([*inputs.systems, *inputs.references])
    if aligned is not None and aligned.seekable():
        return count_lines(aligned.path)
    return None


def check_significance_systems(options: RunOptions, n_systems: int) -> None:
    """Paired tests need a baseline and others; a confidence interval is for one system."""
    if options.significance.paired and n_systems < 2:
        raise OptionError("paired tests need several systems: give the baseline and the others with -i")
    if options.mode == "ci" and n_systems > 1:
        raise OptionError("--confidence takes one system; use --paired-bs or --paired-ar for several")


def run_on_rows(options: RunOptions, metrics: Sequence[Metric[Any]], rows: Sequence[Sequence[Any]],
                system_names: Sequence[str], nrefs: int, from_stdin: bool = False,
                documents: Sequence[str] | None = None, progress: "Reporter | None" = None) -> RunResult:
    """Corpus scores or a significance test from per-segment rows ``[metric][system][segment]``.

    What :func:`run` does once the rows are read, and what ``bleucli merge``
    does with per-segment shards. With ``--resample-unit document`` the rows
    are first summed per document (``documents``: each segment's id), and the
    tests resample those (:mod:`bleucli.significance.units`); the scores shown
    stay the segment rows' own. ``progress`` is told of each matrix of resamples a
    paired test scores.
    """
    from ..significance import (
        confidence_interval,
        default_system_names,
        paired_system_names,
        paired_test,
        seed_label,
    )
    from ..statistics import Statistics

    mode = options.mode
    if mode == "corpus":
        scores = [[metric.score_from_statistics(Statistics.of_rows(per_metric[k]).totals(), nrefs)
                   for metric, per_metric in zip(metrics, rows)] for k in range(len(system_names))]
        return RunResult(mode, [s.signature for s in scores[0]], system_names, scores=scores)
    check_significance_systems(options, len(system_names))
    check_documents(options, documents)
    test = options.significance
    signatures = [metric.signature(nrefs) for metric in metrics]
    resampling: dict[str, Any] = {"bs" if mode != "ar" else "ar": test.resamples, "seed": seed_label(test.seed)}
    by_document = test.unit == "document"
    corpus: list[list[Score]] = []
    if by_document:
        from ..significance.units import document_index, resampled_rows

        corpus = [[metric.score_from_statistics(Statistics.of_rows(system_rows).totals(), nrefs)
                   for system_rows in per_metric] for metric, per_metric in zip(metrics, rows)]
        index = document_index(documents or (), len(rows[0][0]), options.significance.docids or "doc ids")
        by_metric = [resampled_rows(per_metric, index) for per_metric in rows]
        rows = [metric_rows for metric_rows, _ in by_metric]
        resampling.update(by_metric[0][1])
    signatures = [s.with_fields(**resampling) for s in signatures]
    if mode == "ci":
        with phase(progress, "Bootstrap", len(metrics)):  # a unit per metric: its interval
            intervals = [_advanced(confidence_interval(metric, per_metric[0], test.resamples, test.seed,
                                                       nrefs=nrefs)) for metric, per_metric in zip(metrics, rows)]
        if by_document:
            intervals = [_with_unit(result, scores, resampling) for result, scores in zip(intervals, corpus)]
        return RunResult(mode, signatures, system_names, confidence=intervals)
    names = default_system_names(len(system_names)) if from_stdin else paired_system_names(list(system_names))
    label = "Paired bootstrap" if mode == "bs" else "Approximate randomization"
    with phase(progress, label, len(metrics) * paired_units(mode, len(system_names), test.seed is not None)):
        results = [paired_test(mode, metric, per_metric[0], per_metric[1:], test.resamples,  # type: ignore[arg-type]
                               test.seed, names=names, jobs=options.jobs, nrefs=nrefs)
                   for metric, per_metric in zip(metrics, rows)]
    if by_document:
        results = [_with_unit(result, scores, resampling) for result, scores in zip(results, corpus)]
    warn_zero_deltas(results)
    return RunResult(mode, signatures, system_names, paired=results)


def _advanced(result: Any) -> Any:
    """``result``, one unit of the watched phase done (:func:`bleucli.engine.progress.advance`)."""
    advance(1)
    return result


def warn_zero_deltas(results: Sequence[Any]) -> None:
    """Warn about systems whose score equals the baseline's: ``-pbs``/``-par`` keep sacreBLEU's p-value.

    With an observed delta of exactly 0, sacreBLEU's p-value counts resamples
    whose delta exceeds 0 and calls two identical outputs "significantly
    different" (p = 1/(N+1)). The scoring command keeps that number (it is a
    drop-in); ``bleucli rank`` and ``compare`` give such pairs p = 1.
    """
    from ..errors import warn
    from ..significance.deltas import zero_delta

    for result in results:
        for row in result.systems:
            if zero_delta(row.score, result.baseline.score):
                warn(f"{result.metric}: {row.system} scores exactly as the baseline (an observed delta of exactly 0); "
                     f"its p-value ({row.p_value:.4f}) is sacreBLEU's and does not mean a significant difference "
                     "(bleucli rank and compare give it p = 1)")


def _with_unit(result: Any, scores: Sequence[Score], resampling: dict[str, Any]) -> Any:
    """A document-resampled result with the unit in its signature and the segment rows' own scores.

    Summing a float column (TER's reference lengths, segment scores) per
    document first may change a score's last bit; the score shown is the one
    the scoring command prints for the same files.
    """
    import dataclasses

    from ..significance import ConfidenceResult

    signature = result.signature.with_fields(**resampling)
    if isinstance(result, ConfidenceResult):
        return dataclasses.replace(result, score=scores[0].score, corpus=scores[0], signature=signature)
    rows = [dataclasses.replace(row, score=score.score, signature=signature) for row, score in zip(result.rows, scores)]
    return dataclasses.replace(result, signature=signature, baseline=rows[0], systems=tuple(rows[1:]))


def detail_scores(metrics: Sequence[Metric[Any]], hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                  groups: Sequence[tuple[str, Sequence[bool]]]) -> list[tuple[str, int, list[Score]]]:
    """sacreBLEU's ``--detail``: each group's segments (of the full, unfiltered set) scored by every metric.

    ``groups`` are ``(label, keep)`` pairs (:func:`bleucli.testsets.detail_groups`);
    the result is ``(label, number of segments, [score per metric])`` in the same order.
    """
    out = []
    for label, keep in groups:
        hyps = [h for h, k in zip(hypotheses, keep) if k]
        refs = [[r for r, k in zip(stream, keep) if k] for stream in references]
        out.append((label, len(hyps), [metric.corpus_score(hyps, refs) for metric in metrics]))
    return out


def expected_signature_fields(expected: str, names: Sequence[str]) -> tuple[int, dict[str, str]]:
    """Which metric an expected signature is about (its ``NAME|`` prefix, else the first), and its fields.

    Raises :class:`OptionError` for a malformed expectation, so the CLI can
    refuse it before reading any input.
    """
    from ..signature import metric_family, parse_signature

    head = expected.strip().split("|", 1)[0]
    index = 0
    if ":" not in head:
        families = [metric_family(n) for n in names]
        if metric_family(head) in families:
            index = families.index(metric_family(head))
    return index, parse_signature(expected, metric=names[index])[1]


def check_expected_signature(expected: str | None, signatures: Sequence[Signature]) -> None:
    """Raise :class:`SignatureMismatchError` when the run's signature differs from ``expected``."""
    if expected is None:
        return
    index, fields = expected_signature_fields(expected, [s.metric for s in signatures])
    differences = signatures[index].diff(fields)
    if differences:
        raise SignatureMismatchError(differences)


__all__ = ["Inputs", "RunResult", "run", "check_expected_signature", "expected_signature_fields", "detail_scores"]
