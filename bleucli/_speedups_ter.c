/*
 * TER's edit distance with block shifts in C: sacreBLEU 2.6's search (itself Tercom's
 * heuristics), number for number. Included by _speedups.c, whose word table (WordTable,
 * words_id) it uses; bleucli/metrics/ter_edit.py is the reference and the fallback, and the
 * tests compare the two on real and random data.
 *
 * ter_edits(hypothesis, references) -> the fewest edits (shifts count one each) turning the
 * hypothesis (a list of str) into any of the references (a sequence of lists of str).
 *
 * What decides the number, kept exactly (see ter_edit.py's docstring for the rules): the
 * greedy rounds (apply the single shift that most reduces the distance), the candidate
 * shifts (exact matches of at most 10 words moved at most 50 positions, covering a
 * hypothesis error and landing on a reference error, the target never inside the span),
 * the tie-breaking (gain, then longer, then earlier hypothesis position, then earlier
 * target), the cap of 1000 candidates per pair (the round reaching it is discarded), the
 * beam of the Levenshtein distance (+-25 cells around the length-ratio diagonal, computed
 * in doubles as Python does) and the preference of the trace (match/substitution, then
 * deletion, then insertion), which fixes the alignment the next round's candidates come
 * from.
 *
 * Why it is fast: words are integer ids (a hypothesis word no reference has gets -1, which
 * matches nothing); the beamed rows of the current hypothesis are kept, so a candidate's
 * rows are computed only from its first changed word, and stop as soon as a row past the
 * changed region equals the current hypothesis' row there (every later row is then equal
 * too, and so is the distance). Only the band of each row is stored: memory grows with
 * the hypothesis length times the beam, not with the product of the two lengths.
 *
 * Limits: lengths are checked against MAX_TOKENS (the word table) and TER_MAX_LENGTH (the
 * distances are int32_t, below TER_INF); longer input is an OverflowError.
 */

#define TER_MAX_SHIFT_SIZE 10
#define TER_MAX_SHIFT_DIST 50
#define TER_BEAM_WIDTH 25
#define TER_MAX_CANDIDATES 1000
#define TER_INF ((int32_t)0x40000000)  /* an unreachable cell (sacreBLEU's int(1e16)) */
#define TER_MAX_LENGTH ((Py_ssize_t)0x10000000)  /* hypothesis + reference words: distances stay below TER_INF */

enum { TER_NOP, TER_SUB, TER_DEL, TER_INS, TER_UNDEF };  /* DEL consumes a hypothesis word, INS a reference word */

/* One hypothesis/reference pair. Row i (0..n_hyp) of the beamed matrix covers columns
   [lo[i], hi[i]) and is stored from vals + off[i] (ops likewise); cells outside are
   unreachable. Shifts keep the hypothesis length, so the bands are fixed for the pair. */
typedef struct {
    Py_ssize_t n_hyp, n_ref, width;
    const int32_t *ref;
    Py_ssize_t *lo, *hi, *off, *align, *hyp_sums, *ref_sums;
    int32_t *vals, *words, *shifted, *best, *row_a, *row_b;
    unsigned char *ops, *trace;
} TerPair;

static void
ter_pair_free(TerPair *p)
{
    PyMem_Free(p->lo);
    PyMem_Free(p->vals);
    PyMem_Free(p->ops);
    memset(p, 0, sizeof(TerPair));
}

/* The bands (sacreBLEU's beam) and every buffer of a pair; -1 with MemoryError. */
static int
ter_pair_init(TerPair *p, const int32_t *hyp, Py_ssize_t n_hyp, const int32_t *ref, Py_ssize_t n_ref)
{
    Py_ssize_t i, cells, beam = TER_BEAM_WIDTH;
    size_t n_index, n_ints;
    double ratio = n_hyp ? (double)n_ref / (double)n_hyp : 1.0;
    memset(p, 0, sizeof(TerPair));
    p->n_hyp = n_hyp;
    p->n_ref = n_ref;
    p->ref = ref;
    if (TER_BEAM_WIDTH < ratio / 2) {
        beam = (Py_ssize_t)ceil(ratio / 2 + TER_BEAM_WIDTH);
    }
    /* lo, hi, off: n_hyp + 1 each; align: n_ref; hyp_sums: n_hyp + 1; ref_sums: n_ref + 1 */
    n_index = 4 * ((size_t)n_hyp + 1) + 2 * (size_t)n_ref + 1;
    p->lo = PyMem_Malloc(n_index * sizeof(Py_ssize_t));
    if (p->lo == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    p->hi = p->lo + n_hyp + 1;
    p->off = p->hi + n_hyp + 1;
    p->hyp_sums = p->off + n_hyp + 1;
    p->ref_sums = p->hyp_sums + n_hyp + 1;
    p->align = p->ref_sums + n_ref + 1;
    p->lo[0] = 0;
    p->hi[0] = n_ref + 1;
    p->off[0] = 0;
    cells = n_ref + 1;
    p->width = n_ref + 1;
    for (i = 1; i <= n_hyp; i++) {
        Py_ssize_t diagonal = (Py_ssize_t)floor((double)i * ratio);
        Py_ssize_t lo = diagonal - beam > 0 ? diagonal - beam : 0;
        Py_ssize_t hi = (i == n_hyp || diagonal + beam > n_ref + 1) ? n_ref + 1 : diagonal + beam;
        p->lo[i] = lo;
        p->hi[i] = hi;
        p->off[i] = cells;
        cells += hi - lo;
    }
    /* vals: the rows; then words, shifted, best (n_hyp each) and two scratch rows */
    n_ints = (size_t)cells + 3 * (size_t)n_hyp + 2 * (size_t)p->width;
    p->vals = PyMem_Malloc(n_ints * sizeof(int32_t));
    /* ops of every cell, then a trace of at most n_hyp + n_ref operations */
    p->ops = PyMem_Malloc((size_t)cells + (size_t)n_hyp + (size_t)n_ref + 1);
    if (p->vals == NULL || p->ops == NULL) {
        ter_pair_free(p);
        PyErr_NoMemory();
        return -1;
    }
    p->words = p->vals + cells;
    p->shifted = p->words + n_hyp;
    p->best = p->shifted + n_hyp;
    p->row_a = p->best + n_hyp;
    p->row_b = p->row_a + p->width;
    p->trace = p->ops + cells;
    if (n_hyp) {
        memcpy(p->words, hyp, (size_t)n_hyp * sizeof(int32_t));
    }
    for (i = 0; i <= n_ref; i++) {  /* row 0: i reference words inserted */
        p->vals[i] = (int32_t)i;
        p->ops[i] = TER_INS;
    }
    return 0;
}

/* Row i of the beamed matrix from row i - 1 (prev, covering [lo_p, hi_p)), for the
   hypothesis word `word`: sacreBLEU's cell rule, the first of match/substitution, deletion,
   insertion that is strictly below the cell's current value (unreachable at first). With
   WITH_OPS the operations are written to ops as well (a constant at each call). */
static inline void
ter_row(const TerPair *p, Py_ssize_t i, int32_t word, const int32_t *prev, Py_ssize_t lo_p,
        Py_ssize_t hi_p, int32_t *cur, unsigned char *ops, const int with_ops)
{
    const int32_t *ref = p->ref;
    Py_ssize_t lo = p->lo[i], hi = p->hi[i], j = lo;
    int32_t left = TER_INF;
    if (lo == 0) {  /* lo_p is 0 too: the bands never move left */
        cur[0] = left = prev[0] + 1;
        if (with_ops) {
            ops[0] = TER_DEL;
        }
        j = 1;
    }
    for (; j < hi; j++) {
        /* j >= lo >= lo_p, so prev[j] is reachable unless j >= hi_p */
        int32_t diag = j - 1 >= lo_p && j - 1 < hi_p ? prev[j - 1 - lo_p] : TER_INF;
        int32_t up = j < hi_p ? prev[j - lo_p] : TER_INF;
        int same = word == ref[j - 1];
        int32_t best = TER_INF, cost = diag + !same;
        unsigned char op = TER_UNDEF;
        if (cost < best) {
            best = cost;
            op = same ? TER_NOP : TER_SUB;
        }
        cost = up + 1;
        if (cost < best) {
            best = cost;
            op = TER_DEL;
        }
        cost = left + 1;
        if (cost < best) {
            best = cost;
            op = TER_INS;
        }
        cur[j - lo] = left = best;
        if (with_ops) {
            ops[j - lo] = op;
        }
    }
}

/* Rows from + 1 .. n_hyp of the current words, with operations; returns the distance. */
static int32_t
ter_fill(TerPair *p, Py_ssize_t from)
{
    Py_ssize_t i;
    for (i = from + 1; i <= p->n_hyp; i++) {
        ter_row(p, i, p->words[i - 1], p->vals + p->off[i - 1], p->lo[i - 1], p->hi[i - 1],
                p->vals + p->off[i], p->ops + p->off[i], 1);
    }
    return p->vals[p->off[p->n_hyp] + p->n_ref - p->lo[p->n_hyp]];
}

/* The beamed distance of `words`, equal to the current words before position `first` and
   again from `same_from` on: rows from the current row `first`, until one at or past
   same_from equals the current one (then so does the distance, `current`). */
static int32_t
ter_candidate(TerPair *p, const int32_t *words, Py_ssize_t first, Py_ssize_t same_from, int32_t current)
{
    Py_ssize_t i, lo_p = p->lo[first], hi_p = p->hi[first];
    const int32_t *prev = p->vals + p->off[first];
    int32_t *cur = p->row_a, *other = p->row_b;
    for (i = first + 1; i <= p->n_hyp; i++) {
        Py_ssize_t lo = p->lo[i], hi = p->hi[i];
        ter_row(p, i, words[i - 1], prev, lo_p, hi_p, cur, NULL, 0);
        if (i >= same_from && memcmp(cur, p->vals + p->off[i], (size_t)(hi - lo) * sizeof(int32_t)) == 0) {
            return current;
        }
        prev = cur;
        cur = other;
        other = (int32_t *)prev;
        lo_p = lo;
        hi_p = hi;
    }
    return prev[p->n_ref - lo_p];
}

/* The alignment of the current words from their trace: align[j] is the hypothesis position
   reference word j is aligned to (or follows), and the prefix sums of the hypothesis and
   reference words that are not matches. -1 with RuntimeError on an unreachable cell (as
   sacreBLEU raises; the bands make it impossible). */
static int
ter_alignment(TerPair *p)
{
    Py_ssize_t i = p->n_hyp, j = p->n_ref, n = 0, k, pos_hyp = -1, pos_ref = -1;
    while (i > 0 || j > 0) {
        unsigned char op = j >= p->lo[i] && j < p->hi[i] ? p->ops[p->off[i] + j - p->lo[i]] : TER_UNDEF;
        p->trace[n++] = op;
        if (op == TER_NOP || op == TER_SUB) {
            i--;
            j--;
        }
        else if (op == TER_INS) {
            j--;
        }
        else if (op == TER_DEL) {
            i--;
        }
        else {
            PyErr_SetString(PyExc_RuntimeError, "TER beam search reached an undefined cell");
            return -1;
        }
    }
    p->hyp_sums[0] = p->ref_sums[0] = 0;
    for (k = n - 1; k >= 0; k--) {
        unsigned char op = p->trace[k];
        if (op == TER_NOP || op == TER_SUB) {
            int err = op == TER_SUB;
            pos_hyp++;
            pos_ref++;
            p->align[pos_ref] = pos_hyp;
            p->hyp_sums[pos_hyp + 1] = p->hyp_sums[pos_hyp] + err;
            p->ref_sums[pos_ref + 1] = p->ref_sums[pos_ref] + err;
        }
        else if (op == TER_DEL) {
            pos_hyp++;
            p->hyp_sums[pos_hyp + 1] = p->hyp_sums[pos_hyp] + 1;
        }
        else {
            pos_ref++;
            p->align[pos_ref] = pos_hyp;
            p->ref_sums[pos_ref + 1] = p->ref_sums[pos_ref] + 1;
        }
    }
    return 0;
}

/* p->shifted := the current words with words[start:start+length] moved before `target`
   (sacreBLEU's slicing, its third case for a target inside the span included); sets the
   first changed position and the position from which the words are the same again. */
static void
ter_shift(TerPair *p, Py_ssize_t start, Py_ssize_t length, Py_ssize_t target,
          Py_ssize_t *first, Py_ssize_t *same_from)
{
    const int32_t *w = p->words;
    int32_t *out = p->shifted;
    Py_ssize_t n = p->n_hyp, end = start + length;
    size_t span = (size_t)length * sizeof(int32_t);
    memcpy(out, w, (size_t)n * sizeof(int32_t));
    if (target < start) {  /* words[target:start] and the span swap places */
        memcpy(out + target, w + start, span);
        memcpy(out + target + length, w + target, (size_t)(start - target) * sizeof(int32_t));
        *first = target;
        *same_from = end;
    }
    else if (target > end) {  /* words[end:target] and the span swap places */
        memcpy(out + start, w + end, (size_t)(target - end) * sizeof(int32_t));
        memcpy(out + target - length, w + start, span);
        *first = start;
        *same_from = target;
    }
    else {  /* words[end:length + target] (clamped to the end, as slices are), then the span */
        Py_ssize_t stop = length + target < n ? length + target : n;
        memcpy(out + start, w + end, (size_t)(stop - end) * sizeof(int32_t));
        memcpy(out + stop - length, w + start, span);
        *first = start;
        *same_from = stop;
    }
}

/* The fewest edits from the hypothesis to the reference of p (ids; set up by ter_pair_init).
   -1 with an exception set. */
static Py_ssize_t
ter_distance(TerPair *p)
{
    Py_ssize_t n_hyp = p->n_hyp, n_ref = p->n_ref, shifts = 0, checked = 0, first = 0;
    int32_t current;
    if (n_ref == 0) {
        return n_hyp;
    }
    current = ter_fill(p, 0);
    for (;;) {
        Py_ssize_t start_h, best_first = 0;
        /* the best key so far: (gain, length, -start_h, -target), lexicographically */
        int32_t best_gain = 0;
        Py_ssize_t best_length = 0, best_start = 0, best_target = 0;
        int have_best = 0;
        const int32_t *ref = p->ref;
        if (current == 0) {
            return shifts;  /* no hypothesis error: every candidate would be filtered out */
        }
        if (ter_alignment(p) < 0) {
            return -1;
        }
        for (start_h = 0; start_h < n_hyp; start_h++) {
            int32_t word = p->words[start_h];
            Py_ssize_t start_r = start_h > TER_MAX_SHIFT_DIST ? start_h - TER_MAX_SHIFT_DIST : 0;
            Py_ssize_t stop_r = start_h + TER_MAX_SHIFT_DIST + 1 < n_ref ? start_h + TER_MAX_SHIFT_DIST + 1 : n_ref;
            if (word < 0) {
                continue;  /* in no reference */
            }
            for (; start_r < stop_r; start_r++) {
                Py_ssize_t length = 0;
                int stop = 0;
                if (ref[start_r] != word) {
                    continue;
                }
                while (!stop && length < TER_MAX_SHIFT_SIZE && p->words[start_h + length] == ref[start_r + length]) {
                    Py_ssize_t offset, previous = -1, aligned;
                    length++;
                    stop = n_hyp == start_h + length || n_ref == start_r + length;
                    /* sacreBLEU's filters: the span has a hypothesis error, the target a
                       reference error, and the target is not inside the span */
                    if (p->hyp_sums[start_h + length] == p->hyp_sums[start_h]) {
                        continue;
                    }
                    if (p->ref_sums[start_r + length] == p->ref_sums[start_r]) {
                        continue;
                    }
                    aligned = p->align[start_r];
                    if (start_h <= aligned && aligned < start_h + length) {
                        continue;
                    }
                    for (offset = -1; offset < length; offset++) {
                        Py_ssize_t target = start_r + offset == -1 ? 0 : p->align[start_r + offset] + 1;
                        Py_ssize_t same_from;
                        int32_t distance, gain;
                        if (target == previous) {
                            continue;
                        }
                        previous = target;
                        ter_shift(p, start_h, length, target, &first, &same_from);
                        distance = ter_candidate(p, p->shifted, first, same_from, current);
                        checked++;
                        gain = current - distance;
                        if (!have_best || gain > best_gain
                            || (gain == best_gain && (length > best_length
                                || (length == best_length && (start_h < best_start
                                    || (start_h == best_start && target < best_target)))))) {
                            int32_t *swap = p->best;
                            have_best = 1;
                            best_gain = gain;
                            best_length = length;
                            best_start = start_h;
                            best_target = target;
                            best_first = first;
                            p->best = p->shifted;
                            p->shifted = swap;
                        }
                    }
                    if (checked >= TER_MAX_CANDIDATES) {
                        /* the cap: this round's shift is not applied */
                        return shifts + current;
                    }
                }
            }
        }
        if (!have_best || best_gain <= 0) {
            return shifts + current;
        }
        shifts++;
        {
            int32_t *swap = p->words;
            p->words = p->best;
            p->best = swap;
        }
        current = ter_fill(p, best_first);
    }
}

/* The ids of a list of str: the word table's, or -1 for a word it lacks. -1 with an exception. */
static int
ter_ids(WordTable *table, PyObject *list, int32_t *ids, int insert)
{
    Py_ssize_t i, n = PyList_GET_SIZE(list);
    for (i = 0; i < n; i++) {
        int32_t id = words_id(table, PyList_GET_ITEM(list, i), insert);
        if (id == -2) {
            return -1;
        }
        ids[i] = id;
    }
    return 0;
}

static int
ter_check_list(PyObject *object, const char *what)
{
    if (!PyList_Check(object)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of str, not %.100s", what, Py_TYPE(object)->tp_name);
        return -1;
    }
    if (PyList_GET_SIZE(object) > TER_MAX_LENGTH / 2) {
        PyErr_Format(PyExc_OverflowError, "%s: more than the %zd words the compiled TER takes", what,
                     TER_MAX_LENGTH / 2);
        return -1;
    }
    return 0;
}

static PyObject *
ter_edits(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *hypothesis, *fast = NULL;
    Py_ssize_t n_refs, k, total = 0, best = -1;
    int32_t *ids = NULL;
    WordTable table = {0};
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "ter_edits(hypothesis, references) takes 2 arguments");
        return NULL;
    }
    hypothesis = args[0];
    if (ter_check_list(hypothesis, "the hypothesis") < 0) {
        return NULL;
    }
    if (PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "references must be a sequence of lists of str, not a str");
        return NULL;
    }
    fast = PySequence_Fast(args[1], "references must be a sequence of lists of str");
    if (fast == NULL) {
        return NULL;
    }
    n_refs = PySequence_Fast_GET_SIZE(fast);
    if (n_refs == 0) {
        PyErr_SetString(PyExc_ValueError, "TER needs at least one reference");
        goto done;
    }
    for (k = 0; k < n_refs; k++) {
        PyObject *ref = PySequence_Fast_GET_ITEM(fast, k);
        if (ter_check_list(ref, "a reference") < 0 || check_tokens(total, PyList_GET_SIZE(ref), "references") < 0) {
            goto done;
        }
        total += PyList_GET_SIZE(ref);
    }
    if (words_init(&table, (size_t)total) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    /* the references' words first, then the hypothesis' (which never adds one) */
    ids = PyMem_Malloc(((size_t)total + (size_t)PyList_GET_SIZE(hypothesis) + 1) * sizeof(int32_t));
    if (ids == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    total = 0;
    for (k = 0; k < n_refs; k++) {
        PyObject *ref = PySequence_Fast_GET_ITEM(fast, k);
        if (ter_ids(&table, ref, ids + total, 1) < 0) {
            goto done;
        }
        total += PyList_GET_SIZE(ref);
    }
    if (ter_ids(&table, hypothesis, ids + total, 0) < 0) {
        goto done;
    }
    {
        const int32_t *hyp = ids + total;
        Py_ssize_t n_hyp = PyList_GET_SIZE(hypothesis);
        total = 0;
        for (k = 0; k < n_refs; k++) {
            Py_ssize_t n_ref = PyList_GET_SIZE(PySequence_Fast_GET_ITEM(fast, k)), edits;
            TerPair pair;
            if (n_ref == 0) {
                edits = n_hyp;
            }
            else {
                if (ter_pair_init(&pair, hyp, n_hyp, ids + total, n_ref) < 0) {
                    best = -1;
                    goto done;
                }
                edits = ter_distance(&pair);
                ter_pair_free(&pair);
                if (edits < 0) {
                    best = -1;
                    goto done;
                }
            }
            if (best < 0 || edits < best) {
                best = edits;
            }
            total += n_ref;
        }
    }
done:
    words_free(&table);
    PyMem_Free(ids);
    Py_DECREF(fast);
    if (best < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(best);
}
