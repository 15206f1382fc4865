"""The scores of many statistics rows at once, bit for bit those of the scalar functions.

Significance tests score thousands of resampled statistics rows per system
(``Metric.scores_from_statistics_matrix``); calling a Python function per row
is most of their time. The functions here compute the same numbers with numpy
on whole columns. They are exact replicas, not approximations, because they
only use what numpy computes exactly as Python does:

* ``+ - * /`` on float32 or float64 arrays are correctly rounded IEEE
  operations, as on scalars; numpy 2 promotes a Python scalar against a
  float32 array exactly as against a float32 scalar (NEP 50: the Python number
  is converted to float32), so the float32 arithmetic sacreBLEU does on its
  float32 bootstrap sums happens here in the same dtype, operation by
  operation, in the scalar code's order;
* integer rows (approximate randomization) are computed in float64: the
  scalar code divides Python ints, which is correctly rounded and equals the
  float64 division while the integers stay below 2**53 (checked);
* logarithms, exponentials and Python's ``sum`` are left to Python itself
  (``math.log``, ``math.exp``, ``sum`` mapped over the values), because
  numpy's SIMD ``log``/``exp`` need not round as the C library does, and
  ``sum`` of floats is compensated from Python 3.12 on.

The dtype of the result is the scalar path's too: ``np.array`` of the per-row
values, which is float32 only when every row gave a numpy float32 (chrF and
TER on bootstrap sums) and float64 as soon as one row gave a Python float.

Anything these functions do not replicate (numpy 1's promotion rules, other
dtypes, huge integers, chrF's eps smoothing) returns None, and the caller takes
the scalar path, which stays the reference.
"""

from __future__ import annotations

import math
from typing import Any

#: Integers below this are exact in float64 (Python's int / int equals float64's division).
_FLOAT64_EXACT_INT = 2**53


def _numpy() -> Any:
    import numpy

    return numpy


def working_dtype(matrix: Any) -> Any:
    """The dtype the scalar path computes in for rows of ``matrix``, or None if not replicated here.

    float32 rows are handed to the metric as numpy rows (float32 arithmetic);
    float64 rows likewise (float64); integer rows as Python ints, whose true
    divisions are those of float64 while the values stay below 2**53.
    """
    np = _numpy()
    if int(np.__version__.split(".")[0]) < 2:  # value-based casting: float32 op Python float gives float64
        return None
    if matrix.ndim != 2:
        return None
    kind = matrix.dtype.kind
    if kind == "f":
        return matrix.dtype if matrix.dtype in (np.float32, np.float64) else None
    if kind in "iub":
        if matrix.size and int(np.abs(matrix.astype(np.float64)).max()) >= _FLOAT64_EXACT_INT:
            return None
        return np.dtype(np.float64)
    return None


def _with_python_floats(values: Any, python_rows: Any) -> Any:
    """``np.array`` of the scalar path's values: float64 as soon as one row returned a Python float."""
    np = _numpy()
    if values.dtype == np.float32 and python_rows.any():
        return values.astype(np.float64)
    return values


# -- BLEU -------------------------------------------------------------------------------------------
def bleu_scores(matrix: Any, max_order: int, smooth_method: str, smooth_value: float | None,
                effective_order: bool, log_zero: float) -> Any:
    """``_bleu(...)[0]`` of every row ``[sys_len, ref_len, correct..., total...]`` (float64 array), or None."""
    np = _numpy()
    dtype = working_dtype(matrix)
    if dtype is None or matrix.shape[1] != 2 + 2 * max_order:
        return None
    rows = matrix.shape[0]
    data = matrix.astype(dtype, copy=False)
    # int(statistics[0]): the lengths are truncated to integers, then divided as Python ints.
    sys_len = np.trunc(data[:, 0].astype(np.float64))
    ref_len = np.trunc(data[:, 1].astype(np.float64))
    correct = [data[:, 2 + n].copy() for n in range(max_order)]
    total = [data[:, 2 + max_order + n].copy() for n in range(max_order)]

    nothing = np.ones(rows, dtype=bool)  # `if not any(correct)`: before add-k changes the counts
    for n in range(max_order):
        nothing &= correct[n] == 0

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        precisions = np.zeros((rows, max_order), dtype=np.float64)
        broken = np.zeros(rows, dtype=bool)  # rows whose loop has left at `total[n] == 0`
        used = np.full(rows, max_order, dtype=np.int64)  # effective order: the last order reached
        divisor = np.ones(rows, dtype=dtype)  # exp smoothing's divisor: a power of two, exact in either dtype
        for n in range(max_order):
            if smooth_method == "add-k" and n > 0:
                correct[n] = correct[n] + smooth_value
                total[n] = total[n] + smooth_value
            broken |= total[n] == 0
            live = ~broken
            if effective_order:
                used[live] = n + 1
            zero = correct[n] == 0
            if smooth_method == "exp":
                hit = live & zero
                divisor = np.where(hit, divisor * 2, divisor)
                value = 100.0 / (divisor * total[n])
                precisions[:, n] = np.where(hit, value, precisions[:, n])
            elif smooth_method == "floor":
                value = 100.0 * smooth_value / total[n]  # type: ignore[operator]
                precisions[:, n] = np.where(live & zero, value, precisions[:, n])
            value = 100.0 * correct[n] / total[n]
            precisions[:, n] = np.where(live & ~zero, value, precisions[:, n])

    # The log-mean in Python: math.log per precision, sum(...) per row, as the scalar code does
    # (the same types too: the int log_zero for a zero precision).
    log, exp = math.log, math.exp
    values = precisions.ravel()
    if values.all():  # no zero precision (the usual case): math.log of every value
        flat = list(map(log, values.tolist()))
    else:
        flat = [log(p) if p != 0.0 else log_zero for p in values.tolist()]
    if effective_order:
        starts = range(0, rows * max_order, max_order)
        sums = [sum(flat[s:s + u]) for s, u in zip(starts, used.tolist())]
    else:
        sums = list(map(sum, zip(*[iter(flat)] * max_order)))
    # sum / used_orders: a float (or an exact int) over an int, as float64 divides them
    ratio = np.array(sums, dtype=np.float64) / used
    ratio[nothing] = 0.0  # these rows return 0.0 before the exp in the scalar code (none may overflow)
    means = np.array(list(map(exp, ratio.tolist())), dtype=np.float64)

    # BP: 1 unless the hypothesis is shorter; exp(1 - ref_len / sys_len) of the (exact) integer lengths
    bp = np.ones(rows, dtype=np.float64)
    short = sys_len < ref_len
    bp[short & (sys_len <= 0)] = 0.0
    computed = short & (sys_len > 0)
    if computed.any():
        bp[computed] = list(map(exp, (1 - ref_len[computed] / sys_len[computed]).tolist()))
    scores = bp * means
    scores[nothing] = 0.0
    return scores


# -- chrF -------------------------------------------------------------------------------------------
def chrf_scores(matrix: Any, order: int, beta: int, eps_smoothing: bool) -> Any:
    """``f_score(row, ...)`` of every row ``[hyp, ref, match] * order``, as the scalar path's array, or None."""
    np = _numpy()
    dtype = working_dtype(matrix)
    if dtype is None or eps_smoothing or matrix.shape[1] != 3 * order:
        return None
    rows = matrix.shape[0]
    data = matrix.astype(dtype, copy=False)
    factor = beta ** 2
    avg_prec = np.zeros(rows, dtype=dtype)
    avg_rec = np.zeros(rows, dtype=dtype)
    effective = np.zeros(rows, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for i in range(0, 3 * order, 3):
            n_hyp, n_ref, n_match = data[:, i], data[:, i + 1], data[:, i + 2]
            both = (n_hyp > 0) & (n_ref > 0)
            # left to right over the orders, only where both sides have n-grams
            avg_prec = np.where(both, avg_prec + n_match / n_hyp, avg_prec)
            avg_rec = np.where(both, avg_rec + n_match / n_ref, avg_rec)
            effective += both
        none = effective == 0
        counted = np.where(none, 1, effective).astype(dtype)  # an int divisor converts to the rows' dtype
        avg_prec = np.where(none, 0.0, avg_prec / counted).astype(dtype)
        avg_rec = np.where(none, 0.0, avg_rec / counted).astype(dtype)
        summed = avg_prec + avg_rec
        score = (1 + factor) * avg_prec * avg_rec
        score = score / ((factor * avg_prec) + avg_rec)
        score = 100 * score
    zero = none | (summed == 0)  # these rows return the Python float 0.0
    score = np.where(zero, 0.0, score).astype(dtype)
    return _with_python_floats(score, zero)


# -- TER --------------------------------------------------------------------------------------------
def ter_scores(matrix: Any) -> Any:
    """``ter_from_statistics(num_edits, ref_length)`` of every row, as the scalar path's array, or None."""
    np = _numpy()
    dtype = working_dtype(matrix)
    if dtype is None or matrix.shape[1] != 2:
        return None
    data = matrix.astype(dtype, copy=False)
    edits, ref_length = data[:, 0], data[:, 1]
    positive = ref_length > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rate = 100 * (edits / ref_length)
    fallback = np.where(edits > 0, 100.0, 0.0)  # Python floats in the scalar code
    score = np.where(positive, rate, fallback).astype(dtype)
    return _with_python_floats(score, ~positive)
