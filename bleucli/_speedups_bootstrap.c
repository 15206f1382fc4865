/*
 * A seeded bootstrap after the draws, in C: included by _speedups.c, never compiled on its own.
 *
 * A `-pbs` or `-ci` run with BLEU or chrF needs, after count_seeded_draws, the float32 sums of
 * every resample, each resample's score, and per system the mean and CI of the sorted scores and
 * the p-value of its deltas. bleucli.significance computes all of that with numpy (the reference,
 * and the path without this extension); importing numpy alone costs a third of such a run. The
 * functions here compute the same numbers, bit for bit, on plain buffers (array.array, bytearray
 * and memoryview), so that bleucli.significance.c_bootstrap never imports numpy:
 *
 *   resample_sums         the float32 sums numpy's product of the counts and the statistics
 *                         gives, when they are exact integers (else False: numpy's path decides);
 *   bleu_resampled_scores the numbers of bleucli.metrics.vectorized.bleu_scores, operation by
 *                         operation (float32 precisions, libm log and exp as Python's math calls
 *                         them, Python's own sum of floats);
 *   chrf_resampled_scores those of vectorized.chrf_scores (float32 throughout);
 *   bootstrap_interval    numpy's mean of the sorted scores (its pairwise summation) and the
 *                         half-width of the 95% interval, in the scores' precision;
 *   bootstrap_p_value     the deltas against the baseline and the count of centred |deltas| above
 *                         the observed one, as numpy compares them.
 *
 * Whatever these do not replicate (a zero precision, an overflow, chrF's zero rows, numbers
 * beyond float32's exact integers) makes them return False or None without raising, and the
 * caller takes numpy's path. No expression here may be contracted into a fused multiply-add.
 */

#if defined(__clang__)
#define BOOT_NO_CONTRACT
#define BOOT_PRAGMA_NO_CONTRACT _Pragma("clang fp contract(off)")
#elif defined(__GNUC__)
#define BOOT_NO_CONTRACT __attribute__((optimize("fp-contract=off")))
#define BOOT_PRAGMA_NO_CONTRACT
#else
#define BOOT_NO_CONTRACT
#define BOOT_PRAGMA_NO_CONTRACT
#endif

/* The product of the counts (resamples x segments) and the statistics (segments x width), all exact
   small integers held in float32, so that every product and partial sum is exact (below 2**24) and
   the order of the additions does not matter. A register tile: 6 resamples x 16 columns, the
   statistics packed 16 columns at a time (segments x 16, zero-padded) so that they are read in order;
   the tail resamples read a row of zero counts. */
#define BOOT_TILE 16  /* columns of a tile (two AVX registers) */
#define BOOT_TILE_ROWS 6  /* resamples of a tile: 12 accumulators, the row and a broadcast fit in 16 registers */
#define BOOT_CHUNK 256  /* segments per pass: their packed statistics stay in the L2 cache */
static void
boot_product(const float *counts, const float *packed, const float *zeros, float *out, Py_ssize_t rows,
             Py_ssize_t n_seg, Py_ssize_t width, Py_ssize_t blocks)
{
    Py_ssize_t s0, b, r0, s, i, l;
    memset(out, 0, (size_t)(rows * width) * sizeof(float));
    for (s0 = 0; s0 < n_seg; s0 += BOOT_CHUNK) {
        Py_ssize_t s1 = s0 + BOOT_CHUNK < n_seg ? s0 + BOOT_CHUNK : n_seg;
        for (r0 = 0; r0 < rows; r0 += BOOT_TILE_ROWS) {
            const float *drawn[BOOT_TILE_ROWS];
            for (i = 0; i < BOOT_TILE_ROWS; i++) {
                drawn[i] = r0 + i < rows ? counts + (r0 + i) * n_seg : zeros;
            }
            for (b = 0; b < blocks; b++) {
                const float *column = packed + b * n_seg * BOOT_TILE;
                Py_ssize_t lanes = width - b * BOOT_TILE < BOOT_TILE ? width - b * BOOT_TILE : BOOT_TILE;
                float acc[BOOT_TILE_ROWS][BOOT_TILE];
                for (i = 0; i < BOOT_TILE_ROWS; i++) {
                    for (l = 0; l < BOOT_TILE; l++) {
                        acc[i][l] = 0.0f;
                    }
                }
                for (s = s0; s < s1; s++) {
                    const float *v = column + s * BOOT_TILE;
                    for (i = 0; i < BOOT_TILE_ROWS; i++) {
                        const float times = drawn[i][s];
                        for (l = 0; l < BOOT_TILE; l++) {
                            acc[i][l] += times * v[l];
                        }
                    }
                }
                for (i = 0; i < BOOT_TILE_ROWS && r0 + i < rows; i++) {
                    for (l = 0; l < lanes; l++) {
                        out[(r0 + i) * width + b * BOOT_TILE + l] += acc[i][l];
                    }
                }
            }
        }
    }
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
#define BOOT_HAVE_AVX2 1
#define BOOT_ROW(k)                                                                                \
    t = _mm256_broadcast_ss(d##k + s);                                                           \
    a##k##0 = _mm256_fmadd_ps(t, v0, a##k##0);                                                   \
    a##k##1 = _mm256_fmadd_ps(t, v1, a##k##1);
/* The same product with AVX2 and FMA, where the processor has them: the 12 accumulators of a tile
   in registers (a fused multiply-add is exact here too, every value being an integer below 2**24). */
__attribute__((target("avx2,fma"))) static void
boot_product_avx2(const float *counts, const float *packed, const float *zeros, float *out, Py_ssize_t rows,
                  Py_ssize_t n_seg, Py_ssize_t width, Py_ssize_t blocks)
{
    Py_ssize_t s0, b, r0, s, i, l;
    memset(out, 0, (size_t)(rows * width) * sizeof(float));
    for (s0 = 0; s0 < n_seg; s0 += BOOT_CHUNK) {
        Py_ssize_t s1 = s0 + BOOT_CHUNK < n_seg ? s0 + BOOT_CHUNK : n_seg;
        for (r0 = 0; r0 < rows; r0 += BOOT_TILE_ROWS) {
            const float *d0 = counts + r0 * n_seg;
            const float *d1 = r0 + 1 < rows ? counts + (r0 + 1) * n_seg : zeros;
            const float *d2 = r0 + 2 < rows ? counts + (r0 + 2) * n_seg : zeros;
            const float *d3 = r0 + 3 < rows ? counts + (r0 + 3) * n_seg : zeros;
            const float *d4 = r0 + 4 < rows ? counts + (r0 + 4) * n_seg : zeros;
            const float *d5 = r0 + 5 < rows ? counts + (r0 + 5) * n_seg : zeros;
            for (b = 0; b < blocks; b++) {
                const float *column = packed + b * n_seg * BOOT_TILE;
                Py_ssize_t lanes = width - b * BOOT_TILE < BOOT_TILE ? width - b * BOOT_TILE : BOOT_TILE;
                float tile[BOOT_TILE_ROWS][BOOT_TILE];
                __m256 a00 = _mm256_setzero_ps(), a01 = _mm256_setzero_ps(), a10 = _mm256_setzero_ps(),
                       a11 = _mm256_setzero_ps(), a20 = _mm256_setzero_ps(), a21 = _mm256_setzero_ps(),
                       a30 = _mm256_setzero_ps(), a31 = _mm256_setzero_ps(), a40 = _mm256_setzero_ps(),
                       a41 = _mm256_setzero_ps(), a50 = _mm256_setzero_ps(), a51 = _mm256_setzero_ps();
                for (s = s0; s < s1; s++) {
                    const __m256 v0 = _mm256_loadu_ps(column + s * BOOT_TILE);
                    const __m256 v1 = _mm256_loadu_ps(column + s * BOOT_TILE + 8);
                    __m256 t;
                    BOOT_ROW(0) BOOT_ROW(1) BOOT_ROW(2) BOOT_ROW(3) BOOT_ROW(4) BOOT_ROW(5)
                }
                _mm256_storeu_ps(tile[0], a00); _mm256_storeu_ps(tile[0] + 8, a01);
                _mm256_storeu_ps(tile[1], a10); _mm256_storeu_ps(tile[1] + 8, a11);
                _mm256_storeu_ps(tile[2], a20); _mm256_storeu_ps(tile[2] + 8, a21);
                _mm256_storeu_ps(tile[3], a30); _mm256_storeu_ps(tile[3] + 8, a31);
                _mm256_storeu_ps(tile[4], a40); _mm256_storeu_ps(tile[4] + 8, a41);
                _mm256_storeu_ps(tile[5], a50); _mm256_storeu_ps(tile[5] + 8, a51);
                for (i = 0; i < BOOT_TILE_ROWS && r0 + i < rows; i++) {
                    for (l = 0; l < lanes; l++) {
                        out[(r0 + i) * width + b * BOOT_TILE + l] += tile[i][l];
                    }
                }
            }
        }
    }
}
#undef BOOT_ROW
#endif

/* resample_sums(counts, matrices, out) -> bool */
static PyObject *
resample_sums(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer counts, out, *views = NULL;
    PyObject *seq = NULL, *result = NULL;
    Py_ssize_t n_mat = 0, got = 0, k, rows, n_seg, width = 0, blocks, s, c;
    float *packed = NULL, *zeros = NULL;
    int exact = 1, portable = 0;
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "resample_sums(counts, matrices, out[, portable]) takes three or four arguments");
        return NULL;
    }
    if (nargs == 4 && (portable = PyObject_IsTrue(args[3])) < 0) {
        return NULL;
    }
    if (resample_view(args[0], &counts, "resample_sums: counts", 'f', 2, 0) < 0) {
        return NULL;
    }
    if (resample_view(args[2], &out, "resample_sums: out", 'f', 2, 1) < 0) {
        PyBuffer_Release(&counts);
        return NULL;
    }
    rows = counts.shape[0];
    n_seg = counts.shape[1];
    seq = PySequence_Fast(args[1], "resample_sums: matrices must be a sequence");
    if (seq == NULL) {
        goto done;
    }
    n_mat = PySequence_Fast_GET_SIZE(seq);
    views = PyMem_Calloc((size_t)(n_mat ? n_mat : 1), sizeof(Py_buffer));
    if (views == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (got = 0; got < n_mat; got++) {
        if (resample_view(PySequence_Fast_GET_ITEM(seq, got), &views[got], "resample_sums: a matrix", 'q', 2, 0) < 0) {
            goto done;
        }
        if (views[got].shape[0] != n_seg) {
            PyErr_SetString(PyExc_ValueError, "resample_sums: every matrix needs one row per segment");
            got++;
            goto done;
        }
        width += views[got].shape[1];
    }
    if (out.shape[0] != rows || out.shape[1] != width) {
        PyErr_SetString(PyExc_ValueError, "resample_sums: out must be resamples x the matrices' widths");
        goto done;
    }
    /* float32 sums are exact integers, in any order, when even n_seg times a matrix's largest
       |value| stays within 2**24 (bleucli.significance._float32_sums_are_exact) */
    for (k = 0; k < n_mat && exact; k++) {
        const int64_t *m = (const int64_t *)views[k].buf;
        Py_ssize_t cells = views[k].shape[0] * views[k].shape[1];
        uint64_t largest = 0;
        for (c = 0; c < cells; c++) {
            uint64_t a = m[c] < 0 ? (uint64_t)0 - (uint64_t)m[c] : (uint64_t)m[c];
            largest = a > largest ? a : largest;
        }
        exact = largest <= (1u << 24) && largest * (uint64_t)n_seg <= (1u << 24);
    }
    {   /* and every count within 0..segments (they are count_seeded_draws' integers) */
        const float *drawn = (const float *)counts.buf;
        int inside = 1;
        for (c = 0; c < rows * n_seg; c++) {
            inside &= drawn[c] >= 0.0f && drawn[c] <= (float)n_seg;
        }
        exact &= inside;
    }
    if (!exact) {
        result = Py_NewRef(Py_False);
        goto done;
    }
    blocks = (width + BOOT_TILE - 1) / BOOT_TILE;
    packed = PyMem_Calloc((size_t)(n_seg * (blocks ? blocks : 1) * BOOT_TILE), sizeof(float));
    zeros = PyMem_Calloc((size_t)n_seg, sizeof(float));
    if (packed == NULL || zeros == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    {   /* the matrices side by side, 16 columns at a time: packed[block][segment][lane] */
        Py_ssize_t first = 0;
        for (k = 0; k < n_mat; k++) {
            const int64_t *m = (const int64_t *)views[k].buf;
            Py_ssize_t w = views[k].shape[1];
            for (s = 0; s < n_seg; s++) {
                for (c = 0; c < w; c++) {
                    Py_ssize_t column = first + c;
                    packed[((column / BOOT_TILE) * n_seg + s) * BOOT_TILE + column % BOOT_TILE] = (float)m[s * w + c];
                }
            }
            first += w;
        }
    }
#ifdef BOOT_HAVE_AVX2
    if (!portable && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        boot_product_avx2((const float *)counts.buf, packed, zeros, (float *)out.buf, rows, n_seg, width, blocks);
    }
    else
#endif
    {
        boot_product((const float *)counts.buf, packed, zeros, (float *)out.buf, rows, n_seg, width, blocks);
    }
    result = Py_NewRef(Py_True);
done:
    for (k = 0; k < got; k++) {
        PyBuffer_Release(&views[k]);
    }
    PyMem_Free(views);
    PyMem_Free(packed);
    PyMem_Free(zeros);
    Py_XDECREF(seq);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&out);
    return result;
}

/* column_sums(matrix) -> list of int, or None if a sum leaves int64: each column's exact sum of an
   int64 matrix (segments x width), the corpus totals of a paired test's rows. */
static PyObject *
column_sums(PyObject *Py_UNUSED(module), PyObject *matrix)
{
    Py_buffer view;
    Py_ssize_t rows, width, r, c;
    int64_t *totals;
    PyObject *result = NULL;
    int overflow = 0;
    if (resample_view(matrix, &view, "column_sums: matrix", 'q', 2, 0) < 0) {
        return NULL;
    }
    rows = view.shape[0];
    width = view.shape[1];
    totals = PyMem_Calloc((size_t)(width ? width : 1), sizeof(int64_t));
    if (totals == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    for (r = 0; r < rows && !overflow; r++) {
        const int64_t *row = (const int64_t *)view.buf + r * width;
        for (c = 0; c < width; c++) {
            int64_t x = row[c];
            if ((x > 0 && totals[c] > INT64_MAX - x) || (x < 0 && totals[c] < INT64_MIN - x)) {
                overflow = 1;
                break;
            }
            totals[c] += x;
        }
    }
    PyBuffer_Release(&view);
    if (overflow) {
        PyMem_Free(totals);
        Py_RETURN_NONE;
    }
    result = PyList_New(width);
    for (c = 0; result != NULL && c < width; c++) {
        PyObject *total = PyLong_FromLongLong((long long)totals[c]);
        if (total == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, c, total);
    }
    PyMem_Free(totals);
    return result;
}

/* Python's sum() of floats: left to right up to 3.11, Neumaier's compensated sum from 3.12. */
static double
boot_python_sum(const double *values, Py_ssize_t n, int compensated)
{
    double total = values[0], c = 0.0;
    Py_ssize_t i;
    for (i = 1; i < n; i++) {
        double x = values[i];
        if (compensated) {
            double t = total + x;
            if (fabs(total) >= fabs(x)) {
                c += (total - t) + x;
            }
            else {
                c += (x - t) + total;
            }
            total = t;
        }
        else {
            total += x;
        }
    }
    if (compensated && c != 0.0 && isfinite(c)) {
        total += c;
    }
    return total;
}

/* A scorer's buffers: `sums` (float32, resamples x columns) with `columns` from its first column,
   and `out` (one score per resample, of `out_kind`); both released and -1 on any mismatch. */
static int
scorer_views(PyObject *sums_obj, PyObject *out_obj, Py_buffer *sums, Py_buffer *out, const char *name,
             char out_kind, Py_ssize_t columns)
{
    char what[96];
    PyOS_snprintf(what, sizeof(what), "%s: sums", name);
    if (resample_view(sums_obj, sums, what, 'f', 2, 0) < 0) {
        return -1;
    }
    PyOS_snprintf(what, sizeof(what), "%s: out", name);
    if (resample_view(out_obj, out, what, out_kind, 1, 1) < 0) {
        PyBuffer_Release(sums);
        return -1;
    }
    if (columns > sums->shape[1] || out->shape[0] != sums->shape[0]) {
        PyErr_Format(PyExc_ValueError, "%s: sums and out do not fit", name);
        PyBuffer_Release(sums);
        PyBuffer_Release(out);
        return -1;
    }
    return 0;
}

/* bleu_resampled_scores(sums, first, max_order, smooth, smooth_value, effective_order, compensated, out)
   -> bool; smooth: 0 none, 1 floor, 2 add-k, 3 exp. */
BOOT_NO_CONTRACT static PyObject *
bleu_resampled_scores(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    BOOT_PRAGMA_NO_CONTRACT
    Py_buffer sums, out;
    Py_ssize_t first, order, rows, width, r, n;
    int smooth, effective, compensated, ok = 1;
    double smooth_value;
    float smooth32;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "bleu_resampled_scores takes eight arguments");
        return NULL;
    }
    first = PyLong_AsSsize_t(args[1]);
    order = PyLong_AsSsize_t(args[2]);
    smooth = PyLong_AsLong(args[3]);
    smooth_value = PyFloat_AsDouble(args[4]);
    effective = PyObject_IsTrue(args[5]);
    compensated = PyObject_IsTrue(args[6]);
    if (PyErr_Occurred() || effective < 0 || compensated < 0) {
        return NULL;
    }
    if (order < 1 || order > 64 || first < 0 || smooth < 0 || smooth > 3) {
        PyErr_SetString(PyExc_ValueError, "bleu_resampled_scores: bad order, column or smoothing");
        return NULL;
    }
    if (scorer_views(args[0], args[7], &sums, &out, "bleu_resampled_scores", 'd', first + 2 + 2 * order) < 0) {
        return NULL;
    }
    rows = sums.shape[0];
    width = sums.shape[1];
    /* numpy converts the Python float to float32 before operating on float32 arrays (NEP 50) */
    smooth32 = (float)smooth_value;
    for (r = 0; r < rows && ok; r++) {
        const float *row = (const float *)sums.buf + r * width + first;
        double *score = (double *)out.buf + r;
        double sys_len = (double)row[0], ref_len = (double)row[1];
        double precision[64], logs[64], mean, bp;
        float divisor = 1.0f;
        Py_ssize_t used = order;
        int nothing = 1, broken = 0;
        for (n = 0; n < order; n++) {
            nothing &= row[2 + n] == 0.0f;
        }
        if (nothing) {
            *score = 0.0;
            continue;
        }
        for (n = 0; n < order; n++) {
            float correct = row[2 + n], total = row[2 + order + n];
            int zero;
            precision[n] = 0.0;
            if (smooth == 2 && n > 0) {
                correct = correct + smooth32;
                total = total + smooth32;
            }
            broken |= total == 0.0f;
            if (broken) {
                continue;
            }
            if (effective) {
                used = n + 1;
            }
            zero = correct == 0.0f;
            if (zero) {
                if (smooth == 3) {
                    divisor = divisor * 2.0f;
                    precision[n] = (double)(100.0f / (divisor * total));
                }
                else if (smooth == 1) {
                    precision[n] = (double)((float)(100.0 * smooth_value) / total);
                }
            }
            else {
                precision[n] = (double)(100.0f * correct / total);
            }
        }
        for (n = 0; n < used; n++) {
            if (!(precision[n] > 0.0) || !isfinite(precision[n])) {
                ok = 0;  /* a zero precision (log_zero's int in the sum) or an overflow: numpy's path */
                break;
            }
            logs[n] = log(precision[n]);
        }
        if (!ok) {
            break;
        }
        mean = exp(boot_python_sum(logs, used, compensated) / (double)used);
        bp = 1.0;
        if (sys_len < ref_len) {
            bp = sys_len <= 0.0 ? 0.0 : exp(1.0 - ref_len / sys_len);
        }
        if (!isfinite(mean)) {
            ok = 0;  /* math.exp raises OverflowError there */
            break;
        }
        *score = bp * mean;
    }
    PyBuffer_Release(&sums);
    PyBuffer_Release(&out);
    return PyBool_FromLong(ok);
}

/* chrf_resampled_scores(sums, first, order, beta, out) -> bool */
BOOT_NO_CONTRACT static PyObject *
chrf_resampled_scores(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    BOOT_PRAGMA_NO_CONTRACT
    Py_buffer sums, out;
    Py_ssize_t first, order, rows, width, r, i;
    long long beta;
    float factor, one_plus;
    int ok = 1;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "chrf_resampled_scores(sums, first, order, beta, out) takes five arguments");
        return NULL;
    }
    first = PyLong_AsSsize_t(args[1]);
    order = PyLong_AsSsize_t(args[2]);
    beta = PyLong_AsLongLong(args[3]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (order < 1 || first < 0) {
        PyErr_SetString(PyExc_ValueError, "chrf_resampled_scores: bad order or column");
        return NULL;
    }
    if (beta < 0 || beta > 4096) {  /* beta**2 + 1 must be an exact float32 */
        Py_RETURN_FALSE;
    }
    factor = (float)(beta * beta);
    one_plus = (float)(1 + beta * beta);
    if (scorer_views(args[0], args[4], &sums, &out, "chrf_resampled_scores", 'f', first + 3 * order) < 0) {
        return NULL;
    }
    rows = sums.shape[0];
    width = sums.shape[1];
    for (r = 0; r < rows && ok; r++) {
        const float *row = (const float *)sums.buf + r * width + first;
        float precision = 0.0f, recall = 0.0f, counted, score;
        long long effective = 0;
        for (i = 0; i < 3 * order; i += 3) {
            float hyp = row[i], ref = row[i + 1], match = row[i + 2];
            if (hyp > 0.0f && ref > 0.0f) {
                precision = precision + match / hyp;
                recall = recall + match / ref;
                effective++;
            }
        }
        if (effective == 0) {
            ok = 0;  /* the scalar code returns the Python float 0.0: a float64 array, numpy's path */
            break;
        }
        counted = (float)effective;
        precision = precision / counted;
        recall = recall / counted;
        if (precision + recall == 0.0f) {
            ok = 0;
            break;
        }
        score = one_plus * precision * recall;
        score = score / ((factor * precision) + recall);
        ((float *)out.buf)[r] = 100.0f * score;
    }
    PyBuffer_Release(&sums);
    PyBuffer_Release(&out);
    return PyBool_FromLong(ok);
}

/* numpy's pairwise summation (its add.reduce of a contiguous array), in float and in double */
#define BOOT_PAIRWISE(NAME, T)                                                              \
    static T NAME(const T *a, Py_ssize_t n)                                                 \
    {                                                                                       \
        if (n < 8) {                                                                        \
            T res = 0;                                                                      \
            Py_ssize_t i;                                                                   \
            for (i = 0; i < n; i++) {                                                       \
                res += a[i];                                                                \
            }                                                                               \
            return res;                                                                     \
        }                                                                                   \
        else if (n <= 128) {                                                                \
            T r[8], res;                                                                    \
            Py_ssize_t i, j;                                                                \
            for (j = 0; j < 8; j++) {                                                       \
                r[j] = a[j];                                                                \
            }                                                                               \
            for (i = 8; i < n - (n % 8); i += 8) {                                          \
                for (j = 0; j < 8; j++) {                                                   \
                    r[j] += a[i + j];                                                       \
                }                                                                           \
            }                                                                               \
            res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));        \
            for (; i < n; i++) {                                                            \
                res += a[i];                                                                \
            }                                                                               \
            return res;                                                                     \
        }                                                                                   \
        else {                                                                              \
            Py_ssize_t n2 = n / 2;                                                          \
            n2 -= n2 % 8;                                                                   \
            return NAME(a, n2) + NAME(a + n2, n - n2);                                      \
        }                                                                                   \
    }
BOOT_PAIRWISE(boot_pairwise_float, float)
BOOT_PAIRWISE(boot_pairwise_double, double)

static int
boot_compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static int
boot_compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A 1-D float32 or float64 buffer of finite numbers (else None is returned by the callers). */
static int
boot_scores_view(PyObject *obj, Py_buffer *view, int *is_float)
{
    Py_ssize_t i;
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0) {
        return -1;
    }
    *is_float = view->format != NULL && view->format[0] == 'f' && view->format[1] == '\0' && view->itemsize == 4;
    if (view->ndim != 1 || view->shape[0] < 1
        || !(*is_float || (view->format != NULL && view->format[0] == 'd' && view->format[1] == '\0'
                           && view->itemsize == 8))) {
        PyErr_SetString(PyExc_TypeError, "scores must be a non-empty 1-D buffer of float32 or float64");
        PyBuffer_Release(view);
        return -1;
    }
    for (i = 0; i < view->shape[0]; i++) {
        double x = *is_float ? (double)((const float *)view->buf)[i] : ((const double *)view->buf)[i];
        if (!isfinite(x)) {
            PyBuffer_Release(view);
            return 1;
        }
    }
    return 0;
}

/* bootstrap_interval(scores) -> (mean, half_width) or None: numpy's mean of the sorted scores and
   0.5 * (sorted[n - n // 40 - 1] - sorted[n // 40]), in the scores' precision. */
BOOT_NO_CONTRACT static PyObject *
bootstrap_interval(PyObject *Py_UNUSED(module), PyObject *scores)
{
    BOOT_PRAGMA_NO_CONTRACT
    Py_buffer view;
    int is_float, status = boot_scores_view(scores, &view, &is_float);
    Py_ssize_t n, low, high;
    double mean, half;
    void *sorted;
    if (status < 0) {
        return NULL;
    }
    if (status > 0) {
        Py_RETURN_NONE;
    }
    n = view.shape[0];
    low = n / 40;
    high = n - low - 1;
    sorted = PyMem_Malloc((size_t)view.len);
    if (sorted == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(sorted, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (is_float) {
        float *s = sorted;
        qsort(s, (size_t)n, sizeof(float), boot_compare_float);
        /* numpy: a float32 sum, divided as a float64 by the intp count, then made float32 again */
        mean = (double)(float)((double)((float)0.0f + boot_pairwise_float(s, n)) / (double)n);
        half = (double)(0.5f * (s[high] - s[low]));
    }
    else {
        double *s = sorted;
        qsort(s, (size_t)n, sizeof(double), boot_compare_double);
        mean = (0.0 + boot_pairwise_double(s, n)) / (double)n;
        half = 0.5 * (s[high] - s[low]);
    }
    PyMem_Free(sorted);
    return Py_BuildValue("(dd)", mean, half);
}

/* bootstrap_p_value(system, baseline, observed, deltas) -> count or None: deltas = system -
   baseline; the number of resamples whose |delta| minus the mean |delta| exceeds `observed`
   (compared in the scores' precision, as numpy compares an array with a Python float). */
BOOT_NO_CONTRACT static PyObject *
bootstrap_p_value(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    BOOT_PRAGMA_NO_CONTRACT
    Py_buffer sys, base, deltas;
    int sys_float, base_float, status;
    Py_ssize_t n, i, count = 0;
    double observed;
    PyObject *result = NULL;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "bootstrap_p_value(system, baseline, observed, deltas) takes four arguments");
        return NULL;
    }
    observed = PyFloat_AsDouble(args[2]);
    if (observed == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    status = boot_scores_view(args[0], &sys, &sys_float);
    if (status != 0) {
        if (status < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    status = boot_scores_view(args[1], &base, &base_float);
    if (status != 0) {
        PyBuffer_Release(&sys);
        if (status < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    if (resample_view(args[3], &deltas, "bootstrap_p_value: deltas", sys_float ? 'f' : 'd', 1, 1) < 0) {
        PyBuffer_Release(&sys);
        PyBuffer_Release(&base);
        return NULL;
    }
    n = sys.shape[0];
    if (sys_float != base_float || base.shape[0] != n || deltas.shape[0] != n) {
        PyErr_SetString(PyExc_ValueError, "bootstrap_p_value: the system's, the baseline's and the deltas' "
                                          "buffers must have one length and precision");
        goto done;
    }
    if (sys_float) {
        const float *a = sys.buf, *b = base.buf;
        /* numpy's cast of the Python float: to the nearest float32, beyond the largest one (halfway to
           2**128 and up) to infinity; an out-of-range conversion is undefined in C, hence the test */
        float *d = deltas.buf, *diffs, mean,
              limit = fabs(observed) < 0x1.ffffffp127 ? (float)observed : (float)copysign(INFINITY, observed);
        diffs = PyMem_Malloc((size_t)n * sizeof(float));
        if (diffs == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (i = 0; i < n; i++) {
            d[i] = a[i] - b[i];
            diffs[i] = fabsf(d[i]);
        }
        mean = (float)((double)((float)0.0f + boot_pairwise_float(diffs, n)) / (double)n);
        for (i = 0; i < n; i++) {
            count += (float)(diffs[i] - mean) > limit;
        }
        PyMem_Free(diffs);
    }
    else {
        const double *a = sys.buf, *b = base.buf;
        double *d = deltas.buf, *diffs, mean;
        diffs = PyMem_Malloc((size_t)n * sizeof(double));
        if (diffs == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (i = 0; i < n; i++) {
            d[i] = a[i] - b[i];
            diffs[i] = fabs(d[i]);
        }
        mean = (0.0 + boot_pairwise_double(diffs, n)) / (double)n;
        for (i = 0; i < n; i++) {
            count += (diffs[i] - mean) > observed;
        }
        PyMem_Free(diffs);
    }
    result = PyLong_FromSsize_t(count);
done:
    PyBuffer_Release(&sys);
    PyBuffer_Release(&base);
    PyBuffer_Release(&deltas);
    return result;
}

#define BOOTSTRAP_METHODS \
    {"column_sums", (PyCFunction)column_sums, METH_O, \
     "column_sums(matrix) -> each column's sum of an int64 matrix (list of int), or None beyond int64."}, \
    {"resample_sums", (PyCFunction)(void (*)(void))resample_sums, METH_FASTCALL, \
     "resample_sums(counts, matrices, out[, portable]) -> bool: out (float32, resamples x widths) = counts\n" \
     "(float32, resamples x segments) times the int64 matrices side by side, when those float32 sums are\n" \
     "exact integers (else False and nothing written); portable: the loop without AVX2 (for the tests)."}, \
    {"bleu_resampled_scores", (PyCFunction)(void (*)(void))bleu_resampled_scores, METH_FASTCALL, \
     "bleu_resampled_scores(sums, first, max_order, smooth, smooth_value, effective_order, compensated,\n" \
     "out) -> bool: out (float64) = vectorized.bleu_scores of the BLEU columns from `first`."}, \
    {"chrf_resampled_scores", (PyCFunction)(void (*)(void))chrf_resampled_scores, METH_FASTCALL, \
     "chrf_resampled_scores(sums, first, order, beta, out) -> bool: out (float32) =\n" \
     "vectorized.chrf_scores of the chrF columns from `first`."}, \
    {"bootstrap_interval", (PyCFunction)bootstrap_interval, METH_O, \
     "bootstrap_interval(scores) -> (mean, half_width) or None, as numpy computes them."}, \
    {"bootstrap_p_value", (PyCFunction)(void (*)(void))bootstrap_p_value, METH_FASTCALL, \
     "bootstrap_p_value(system, baseline, observed, deltas) -> count or None."},
