/*
 * The bootstrap's resample counts in C: included by _speedups.c, never compiled on its own.
 *
 * count_draws(draws, out): row r of `out` (float32, resamples x segments) becomes how often each
 * segment was drawn in row r of `draws` (int64 indices, the same shape). This is what
 * bleucli.significance._counts_into computes with numpy (the reference, and the path without
 * this extension): there, one bincount over a whole block needs two temporaries of the block's
 * size (the offset indices and the int64 counts) and a cast; here the counts go straight into
 * `out`. A count is at most the number of segments, and the caller counts in float32 only
 * below 2**24 segments, where every count is exact.
 */

/* A C-contiguous buffer of `ndim` dimensions whose items are `kind` ('f' float32, 'd' float64, 'q'
   int64); `what` names it in the TypeError (with its function). Shared with _speedups_bootstrap.c. */
static int
resample_view(PyObject *obj, Py_buffer *view, const char *what, char kind, int ndim, int writable)
{
    const char *format;
    Py_ssize_t itemsize = kind == 'f' ? 4 : 8;
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        return -1;
    }
    format = view->format == NULL ? "B" : view->format;
    if (*format == '<' || *format == '=' || *format == '@') {
        format++;
    }
    if (view->ndim != ndim || view->itemsize != itemsize
        || !(format[0] == kind || (kind == 'q' && format[0] == 'l' && sizeof(long) == 8)) || format[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous %d-D array of %s", what, ndim,
                     kind == 'q' ? "int64" : kind == 'f' ? "float32" : "float64");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *
count_draws(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer draws, out;
    Py_ssize_t rows, n_seg, r, j;
    const int64_t *d;
    float *o;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "count_draws(draws, out) takes two arguments");
        return NULL;
    }
    if (resample_view(args[0], &draws, "count_draws: draws", 'q', 2, 0) < 0) {
        return NULL;
    }
    if (resample_view(args[1], &out, "count_draws: out", 'f', 2, 1) < 0) {
        PyBuffer_Release(&draws);
        return NULL;
    }
    rows = draws.shape[0];
    n_seg = draws.shape[1];
    if (out.shape[0] != rows || out.shape[1] != n_seg) {
        PyErr_SetString(PyExc_ValueError, "count_draws: draws and out must have the same shape");
        goto fail;
    }
    d = (const int64_t *)draws.buf;
    o = (float *)out.buf;
    {   /* checked first, without a branch per draw: nothing is written for bad draws */
        uint64_t bad = 0;
        for (j = 0; j < rows * n_seg; j++) {
            bad |= (uint64_t)d[j] >= (uint64_t)n_seg;  /* a negative draw is a huge unsigned one */
        }
        for (j = 0; bad && j < rows * n_seg; j++) {
            if (d[j] < 0 || d[j] >= n_seg) {
                PyErr_Format(PyExc_ValueError, "count_draws: draw %lld of row %zd is not a segment index (0..%zd)",
                             (long long)d[j], j / n_seg, n_seg - 1);
                goto fail;
            }
        }
    }
    memset(o, 0, (size_t)(rows * n_seg) * sizeof(float));
    for (r = 0; r < rows; r++) {
        float *row = o + r * n_seg;
        const int64_t *drawn = d + r * n_seg;
        for (j = 0; j < n_seg; j++) {
            row[drawn[j]] += 1.0f;
        }
    }
    PyBuffer_Release(&draws);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
fail:
    PyBuffer_Release(&draws);
    PyBuffer_Release(&out);
    return NULL;
}

#ifdef __SIZEOF_INT128__
/*
 * count_seeded_draws(state_high, state_low, inc_high, inc_low, out): `out` (float32, resamples x
 * segments) becomes the counts count_draws would make of `default_rng(seed).integers(0, segments,
 * size=out.shape)`, drawn here instead of by numpy: the generator starts from the PCG64 state
 * (state, inc) that bleucli.significance.pcg64 computes for the seed. It is numpy's stream:
 * PCG64 steps its 128-bit LCG and gives the XSL-RR output of the new state; a 32-bit draw is the
 * low half of a 64-bit output and the next one its high half; an index below `segments` is
 * Lemire's multiply-and-reject on a 32-bit draw, as numpy's buffered_bounded_lemire_uint32
 * (one segment: every draw is 0 and no number is drawn). No int64 array of draws is written,
 * and a run that draws here never imports numpy.random. Only built where the compiler has a
 * 128-bit integer; bleucli falls back to numpy without it.
 */
typedef struct {
    __uint128_t state, inc;
    int has_high;
    uint32_t high;
} Pcg64Stream;

static inline uint32_t
pcg64_next32(Pcg64Stream *g)
{
    static const __uint128_t multiplier =
        ((__uint128_t)0x2360ED051FC65DA4ULL << 64) | (__uint128_t)0x4385DF649FCCF645ULL;
    uint64_t word;
    unsigned rot;
    if (g->has_high) {
        g->has_high = 0;
        return g->high;
    }
    g->state = g->state * multiplier + g->inc;
    word = (uint64_t)(g->state >> 64) ^ (uint64_t)g->state;
    rot = (unsigned)(g->state >> 122);
    word = (word >> rot) | (word << ((64 - rot) & 63));
    g->has_high = 1;
    g->high = (uint32_t)(word >> 32);
    return (uint32_t)word;
}

static PyObject *
count_seeded_draws(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer out;
    unsigned long long halves[4];
    Pcg64Stream g;
    Py_ssize_t rows, n_seg, r, j;
    int k;
    float *o;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "count_seeded_draws(state_high, state_low, inc_high, inc_low, out) takes five arguments");
        return NULL;
    }
    for (k = 0; k < 4; k++) {
        if (!PyLong_Check(args[k])) {
            PyErr_SetString(PyExc_TypeError, "count_seeded_draws: the state and inc halves must be ints");
            return NULL;
        }
        halves[k] = PyLong_AsUnsignedLongLong(args[k]);  /* OverflowError for a negative or too large half */
        if (halves[k] == (unsigned long long)-1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (resample_view(args[4], &out, "count_seeded_draws: out", 'f', 2, 1) < 0) {
        return NULL;
    }
    rows = out.shape[0];
    n_seg = out.shape[1];
    if (n_seg < 1 || (unsigned long long)n_seg > 0xFFFFFFFFULL) {
        PyErr_Format(PyExc_ValueError, "count_seeded_draws: %zd segments (1..2**32 - 1 can be drawn here)", n_seg);
        PyBuffer_Release(&out);
        return NULL;
    }
    g.state = ((__uint128_t)halves[0] << 64) | halves[1];
    g.inc = ((__uint128_t)halves[2] << 64) | halves[3];
    g.has_high = 0;
    g.high = 0;
    o = (float *)out.buf;
    memset(o, 0, (size_t)(rows * n_seg) * sizeof(float));
    if (n_seg == 1) {
        for (r = 0; r < rows; r++) {
            o[r] = 1.0f;
        }
    }
    else {
        const uint32_t bound = (uint32_t)n_seg, threshold = (uint32_t)(0xFFFFFFFFULL - (uint64_t)(n_seg - 1)) % bound;
        for (r = 0; r < rows; r++) {
            float *row = o + r * n_seg;
            j = 0;
            while (j < n_seg) {
                uint64_t m;
                if (!g.has_high && j + 1 < n_seg) {
                    /* two draws from one 64-bit output, unless either half needs Lemire's rejection
                       test (a low product below `bound`, about once in 2**32 / n_seg draws) */
                    uint64_t word = pcg64_next32(&g), m_low, m_high;
                    word |= (uint64_t)g.high << 32;
                    m_low = (word & 0xFFFFFFFFULL) * bound;
                    m_high = (word >> 32) * bound;
                    if ((uint32_t)m_low >= bound && (uint32_t)m_high >= bound) {
                        g.has_high = 0;
                        row[m_low >> 32] += 1.0f;
                        row[m_high >> 32] += 1.0f;
                        j += 2;
                        continue;
                    }
                    m = m_low;  /* the high half stays buffered, for the rejection loop or the next draw */
                }
                else {
                    m = (uint64_t)pcg64_next32(&g) * bound;
                }
                if ((uint32_t)m < bound) {
                    while ((uint32_t)m < threshold) {
                        m = (uint64_t)pcg64_next32(&g) * bound;
                    }
                }
                row[m >> 32] += 1.0f;
                j++;
            }
        }
    }
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

#define SEEDED_DRAW_METHODS \
    {"count_seeded_draws", (PyCFunction)(void (*)(void))count_seeded_draws, METH_FASTCALL, \
     "count_seeded_draws(state_high, state_low, inc_high, inc_low, out): out (float32, resamples x\n" \
     "segments) = the counts of numpy's PCG64 stream from that state, drawn as\n" \
     "integers(0, segments, size=out.shape)."},
#else
#define SEEDED_DRAW_METHODS
#endif

#define RESAMPLE_METHODS \
    SEEDED_DRAW_METHODS \
    {"count_draws", (PyCFunction)(void (*)(void))count_draws, METH_FASTCALL, \
     "count_draws(draws, out): row r of out (float32) = how often each segment index occurs in row r\n" \
     "of draws (int64, the same shape); ValueError for an index outside 0..shape[1]-1."},
