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

static int
resample_view(PyObject *obj, Py_buffer *view, const char *what, char kind, Py_ssize_t itemsize, int writable)
{
    const char *format;
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        return -1;
    }
    format = view->format == NULL ? "B" : view->format;
    if (*format == '<' || *format == '=' || *format == '@') {
        format++;
    }
    if (view->ndim != 2 || view->itemsize != itemsize
        || !(format[0] == kind || (kind == 'q' && format[0] == 'l' && sizeof(long) == 8)) || format[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "count_draws: %s must be a C-contiguous 2-D array of %s", what,
                     kind == 'q' ? "int64" : "float32");
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
    if (resample_view(args[0], &draws, "draws", 'q', 8, 0) < 0) {
        return NULL;
    }
    if (resample_view(args[1], &out, "out", 'f', 4, 1) < 0) {
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

#define RESAMPLE_METHODS \
    {"count_draws", (PyCFunction)(void (*)(void))count_draws, METH_FASTCALL, \
     "count_draws(draws, out): row r of out (float32) = how often each segment index occurs in row r\n" \
     "of draws (int64, the same shape); ValueError for an index outside 0..shape[1]-1."},
