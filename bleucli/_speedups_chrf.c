/*
 * chrF and chrF++ in C: included by _speedups.c (it uses check_tokens, read_order and the
 * module's conventions), never compiled on its own.
 *
 * The numbers are those of bleucli/metrics/chrf.py, the reference implementation (and the
 * fallback without this extension), which follows sacreBLEU 2.6: the characters of a line
 * (lowercased first when asked) without the code points str.split() splits on, unless the
 * whitespace is kept; chrF++'s words are str.split()'s, each with one ASCII punctuation mark
 * split off its end, or else off its start; per reference the statistics [hyp, ref, match]
 * of every character order and then every word order, an order the reference is too short
 * for counting nothing; the reference with the highest F score wins (the first of equals);
 * F is f_score's, the same double operations in the same order (see chrf_f).
 *
 * Why it is fast: no n-gram is an object. Every n-gram of the references gets a dense id in
 * one table of 64-bit keys: a character is (CHAR_TAG | code point), a word (WORD_TAG | its id
 * in a table of word texts), an n-gram of order n + 1 (id of its first n tokens << 32 | id of
 * its last token); ids are below 2^31, so the three kinds of keys never meet. A reference
 * becomes, per order, the list of its distinct n-gram ids with their counts (its profile).
 * A hypothesis is only looked up: an n-gram the references lack has no id, nor has any
 * n-gram that extends it, and once an order has no id at all no higher order can match. Its
 * counts go to an array indexed by id, and the clipped matches against a reference are
 * sum(min(hypothesis count, reference count)) over the reference's profile; with up to four
 * references, each reference's count of each id is in an array too, and the j-th occurrence of
 * an n-gram in the hypothesis matches where a reference has it more than j times: the matches
 * are summed as the hypothesis is counted (chrf_match_one, chrf_match_kind). A character of the
 * basic plane finds its id in a map by code point (ChrfCharId), without hashing. Tables are
 * emptied through the list of slots they filled, never by clearing all their memory, so one
 * huge line does not slow the segments after it.
 *
 * Memory: the buffers (a ChrfWork) are the module's, kept from call to call (a sentence score
 * is one call: allocating and emptying a fresh table each time was a sixth of its cost). A call
 * leaves no reference in the tables (chrf_release); the per-id counters chrf_single leaves
 * behind are zeroed by the next call with shared references (chrf_zero_counters). A call made while another one uses them (a str subclass's
 * lower() runs any Python code, which may score chrF too, or let another thread run) gets its
 * own, freed when it returns; so are buffers grown past CHRF_KEPT_BYTES by a huge segment, so
 * that one huge line neither holds memory nor spreads later tables over it. The state is per
 * module object, hence per interpreter: nothing in C globals.
 */

#define CHRF_CHAR_TAG ((uint64_t)1 << 63)
#define CHRF_WORD_TAG ((uint64_t)1 << 62)
/* Ids are int32_t; a table refuses to hold more (OverflowError), long before it would wrap. */
#define CHRF_MAX_IDS ((int32_t)Py_MIN((Py_ssize_t)INT32_MAX / 2, MAX_TOKENS))

/* --- a growable table from 64-bit keys to dense ids ------------------------------------ */

typedef struct {
    uint64_t *keys;
    int32_t *ids;    /* per slot */
    size_t *slots;   /* per id: its slot, to empty the table without touching all of it */
    size_t mask;
    int shift;
    int32_t count, limit;
} ChrfTable;

static int
chrf_table_alloc(ChrfTable *t, int bits)
{
    size_t capacity = (size_t)1 << bits;
    t->keys = PyMem_Malloc(capacity * sizeof(uint64_t));
    t->ids = PyMem_Malloc(capacity * sizeof(int32_t));
    t->slots = PyMem_Malloc((capacity / 2 + 1) * sizeof(size_t));
    if (t->keys == NULL || t->ids == NULL || t->slots == NULL) {
        PyMem_Free(t->keys);
        PyMem_Free(t->ids);
        PyMem_Free(t->slots);
        t->keys = NULL;
        t->ids = NULL;
        t->slots = NULL;
        PyErr_NoMemory();
        return -1;
    }
    memset(t->keys, 0xff, capacity * sizeof(uint64_t));
    t->mask = capacity - 1;
    t->shift = 64 - bits;
    t->limit = (int32_t)Py_MIN((size_t)CHRF_MAX_IDS, capacity / 2);
    return 0;
}

static void
chrf_table_free(ChrfTable *t)
{
    PyMem_Free(t->keys);
    PyMem_Free(t->ids);
    PyMem_Free(t->slots);
    memset(t, 0, sizeof(ChrfTable));
}

static inline size_t
chrf_slot(const ChrfTable *t, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> t->shift);
}

/* Twice the room, the same ids. */
static int
chrf_table_grow(ChrfTable *t)
{
    ChrfTable bigger;
    int32_t id;
    if (t->count >= CHRF_MAX_IDS) {
        PyErr_Format(PyExc_OverflowError, "chrF: more than %d distinct n-grams in the references of one call "
                     "(the compiled matcher's ids are 32-bit)", (int)CHRF_MAX_IDS);
        return -1;
    }
    if (chrf_table_alloc(&bigger, 64 - t->shift + 1) < 0) {
        return -1;
    }
    for (id = 0; id < t->count; id++) {
        uint64_t key = t->keys[t->slots[id]];
        size_t i = chrf_slot(&bigger, key);
        while (bigger.keys[i] != EMPTY_KEY) {
            i = (i + 1) & bigger.mask;
        }
        bigger.keys[i] = key;
        bigger.ids[i] = id;
        bigger.slots[id] = i;
    }
    bigger.count = t->count;
    chrf_table_free(t);
    *t = bigger;
    return 0;
}

/* Forget every key (only the slots that hold one are touched). */
static void
chrf_table_clear(ChrfTable *t)
{
    int32_t id;
    for (id = 0; id < t->count; id++) {
        t->keys[t->slots[id]] = EMPTY_KEY;
    }
    t->count = 0;
}

/* The id of key, or -1. */
static inline int32_t
chrf_lookup(const ChrfTable *t, uint64_t key)
{
    size_t i = chrf_slot(t, key);
    for (;;) {
        uint64_t k = t->keys[i];
        if (k == key) {
            return t->ids[i];
        }
        if (k == EMPTY_KEY) {
            return -1;
        }
        i = (i + 1) & t->mask;
    }
}

/* The id of key, a new one if it is not there; -1 with an exception set. */
static inline int32_t
chrf_intern(ChrfTable *t, uint64_t key)
{
    size_t i = chrf_slot(t, key);
    for (;;) {
        uint64_t k = t->keys[i];
        if (k == key) {
            return t->ids[i];
        }
        if (k == EMPTY_KEY) {
            break;
        }
        i = (i + 1) & t->mask;
    }
    if (t->count >= t->limit) {
        if (chrf_table_grow(t) < 0) {
            return -1;
        }
        i = chrf_slot(t, key);
        while (t->keys[i] != EMPTY_KEY) {
            i = (i + 1) & t->mask;
        }
    }
    t->keys[i] = key;
    t->slots[t->count] = i;
    return t->ids[i] = t->count++;
}

/* --- words: a table of texts (code points), compared by content ------------------------ */

typedef struct {
    Py_UCS4 *text;        /* every word's code points, one after the other */
    Py_ssize_t text_len, text_room;
    Py_ssize_t *start;    /* per word id: where its text starts (its end: the next one's start) */
    uint64_t *hash;       /* per word id */
    size_t *slot;         /* per word id */
    int32_t *slots;       /* per slot: a word id, -1 if empty */
    Py_ssize_t room;      /* word ids start/hash/slot have room for */
    size_t mask;
    int32_t count;
} ChrfWords;

static int
chrf_words_alloc_slots(ChrfWords *w, size_t capacity)
{
    w->slots = PyMem_Malloc(capacity * sizeof(int32_t));
    if (w->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(w->slots, 0xff, capacity * sizeof(int32_t));
    w->mask = capacity - 1;
    return 0;
}

static void
chrf_words_free(ChrfWords *w)
{
    PyMem_Free(w->text);
    PyMem_Free(w->start);
    PyMem_Free(w->hash);
    PyMem_Free(w->slot);
    PyMem_Free(w->slots);
    memset(w, 0, sizeof(ChrfWords));
}

static void
chrf_words_clear(ChrfWords *w)
{
    int32_t id;
    for (id = 0; id < w->count; id++) {
        w->slots[w->slot[id]] = -1;
    }
    w->count = 0;
    w->text_len = 0;
}

static inline uint64_t
chrf_text_hash(const Py_UCS4 *text, Py_ssize_t length)
{
    uint64_t h = 0x243F6A8885A308D3ULL ^ (uint64_t)length;
    Py_ssize_t i;
    for (i = 0; i < length; i++) {
        h = (h ^ text[i]) * 0x100000001B3ULL;
        h ^= h >> 29;
    }
    return h * 0x9E3779B97F4A7C15ULL;
}

/* The id of the word text[0:length]; a new one if insert, else -1 when absent. -2 with an
   exception set. */
static int32_t
chrf_word_id(ChrfWords *w, const Py_UCS4 *text, Py_ssize_t length, int insert)
{
    uint64_t h = chrf_text_hash(text, length);
    size_t i = (size_t)(h >> 7) & w->mask;
    for (;;) {
        int32_t id = w->slots[i];
        if (id < 0) {
            break;
        }
        if (w->hash[id] == h && w->start[id + 1] - w->start[id] == length
            && memcmp(w->text + w->start[id], text, (size_t)length * sizeof(Py_UCS4)) == 0) {
            return id;
        }
        i = (i + 1) & w->mask;
    }
    if (!insert) {
        return -1;
    }
    if (w->count >= CHRF_MAX_IDS) {
        PyErr_SetString(PyExc_OverflowError, "chrF: too many distinct words (the compiled matcher's ids are 32-bit)");
        return -2;
    }
    if ((Py_ssize_t)w->count + 2 > w->room) {
        Py_ssize_t room = w->room * 2 + 64;
        Py_ssize_t *start = PyMem_Realloc(w->start, (size_t)room * sizeof(Py_ssize_t));
        if (start == NULL) {
            PyErr_NoMemory();
            return -2;
        }
        w->start = start;
        {
            uint64_t *hash = PyMem_Realloc(w->hash, (size_t)room * sizeof(uint64_t));
            size_t *slot;
            if (hash == NULL) {
                PyErr_NoMemory();
                return -2;
            }
            w->hash = hash;
            slot = PyMem_Realloc(w->slot, (size_t)room * sizeof(size_t));
            if (slot == NULL) {
                PyErr_NoMemory();
                return -2;
            }
            w->slot = slot;
        }
        w->room = room;
    }
    if (2 * ((size_t)w->count + 1) > w->mask + 1) {  /* keep it at most half full */
        int32_t *old = w->slots;
        size_t capacity = (w->mask + 1) * 2;
        int32_t id;
        if (chrf_words_alloc_slots(w, capacity) < 0) {
            w->slots = old;
            return -2;
        }
        PyMem_Free(old);
        for (id = 0; id < w->count; id++) {
            size_t j = (size_t)(w->hash[id] >> 7) & w->mask;
            while (w->slots[j] >= 0) {
                j = (j + 1) & w->mask;
            }
            w->slots[j] = id;
            w->slot[id] = j;
        }
        i = (size_t)(h >> 7) & w->mask;
        while (w->slots[i] >= 0) {
            i = (i + 1) & w->mask;
        }
    }
    if (w->text_len + length > w->text_room) {
        Py_ssize_t room = Py_MAX(w->text_room * 2, w->text_len + length) + 64;
        Py_UCS4 *grown = PyMem_Realloc(w->text, (size_t)room * sizeof(Py_UCS4));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -2;
        }
        w->text = grown;
        w->text_room = room;
    }
    memcpy(w->text + w->text_len, text, (size_t)length * sizeof(Py_UCS4));
    w->start[w->count] = w->text_len;
    w->text_len += length;
    w->start[w->count + 1] = w->text_len;
    w->hash[w->count] = h;
    w->slot[w->count] = i;
    w->slots[i] = w->count;
    return w->count++;
}

/* --- settings ---------------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t char_order, word_order, order;
    double factor, factor_plus_one;  /* float(beta ** 2), float(1 + beta ** 2): Python's int * float */
    int lowercase, whitespace, eps_smoothing;
} ChrfSettings;

/* settings: (char_order, word_order, float(beta ** 2), float(1 + beta ** 2), lowercase,
   whitespace, eps_smoothing), as CHRF makes it. */
static int
chrf_read_settings(PyObject *object, ChrfSettings *s)
{
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 7) {
        PyErr_SetString(PyExc_TypeError, "chrF settings: (char_order, word_order, factor, factor + 1, lowercase, "
                        "whitespace, eps_smoothing)");
        return -1;
    }
    if ((s->char_order = read_order(PyTuple_GET_ITEM(object, 0))) < 0
        || (s->word_order = read_order(PyTuple_GET_ITEM(object, 1))) < 0) {
        return -1;
    }
    if (s->char_order + s->word_order == 0) {
        PyErr_SetString(PyExc_ValueError, "chrF needs an order >= 1");
        return -1;
    }
    if (s->char_order > MAX_ORDER - s->word_order) {
        PyErr_SetString(PyExc_OverflowError, "chrF orders too large");
        return -1;
    }
    s->order = s->char_order + s->word_order;
    s->factor = PyFloat_AsDouble(PyTuple_GET_ITEM(object, 2));
    if (s->factor == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    s->factor_plus_one = PyFloat_AsDouble(PyTuple_GET_ITEM(object, 3));
    if (s->factor_plus_one == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if ((s->lowercase = PyObject_IsTrue(PyTuple_GET_ITEM(object, 4))) < 0
        || (s->whitespace = PyObject_IsTrue(PyTuple_GET_ITEM(object, 5))) < 0
        || (s->eps_smoothing = PyObject_IsTrue(PyTuple_GET_ITEM(object, 6))) < 0) {
        return -1;
    }
    return 0;
}

/* --- the F score ------------------------------------------------------------------------- */

/* f_score of bleucli/metrics/chrf.py for [hyp, ref, match] * order: the same operations on
   doubles in the same order (Python's int / int is the correctly rounded quotient, as a
   division of the two exactly converted doubles is below 2^53), never contracted into fused
   multiply-adds, which would round differently. */
#if defined(__clang__)
#define CHRF_NO_CONTRACT
#elif defined(__GNUC__)
#define CHRF_NO_CONTRACT __attribute__((optimize("fp-contract=off")))
#else
#define CHRF_NO_CONTRACT
#endif

CHRF_NO_CONTRACT static double
chrf_f(const int64_t *stats, Py_ssize_t order, const ChrfSettings *s)
{
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    const double eps = 1e-16;
    double score = 0.0, avg_prec = 0.0, avg_rec = 0.0;
    Py_ssize_t effective = 0, n;
    for (n = 0; n < order; n++) {
        int64_t n_hyp = stats[3 * n], n_ref = stats[3 * n + 1], n_match = stats[3 * n + 2];
        double prec = n_hyp > 0 ? (double)n_match / (double)n_hyp : eps;
        double rec = n_ref > 0 ? (double)n_match / (double)n_ref : eps;
        if (s->eps_smoothing) {
            double denom = s->factor * prec + rec;
            score += denom > 0 ? s->factor_plus_one * prec * rec / denom : eps;
        }
        else if (n_hyp > 0 && n_ref > 0) {
            avg_prec += prec;
            avg_rec += rec;
            effective++;
        }
    }
    if (s->eps_smoothing) {
        return 100 * score / (double)order;
    }
    if (effective == 0) {
        avg_prec = avg_rec = 0.0;
    }
    else {
        avg_prec /= (double)effective;
        avg_rec /= (double)effective;
    }
    if (avg_prec + avg_rec != 0.0) {
        score = s->factor_plus_one * avg_prec * avg_rec;
        score /= (s->factor * avg_prec) + avg_rec;
        return 100 * score;
    }
    return 0.0;
}

/* --- a call's buffers -------------------------------------------------------------------- */

/* One reference as profiles: per order (characters 1..char_order, then words), the span of
   (id, count) pairs in ChrfWork.pairs; orders beyond the reference's length have none. */
typedef struct {
    Py_ssize_t n_chars, n_words;
    Py_ssize_t first;  /* index in ChrfWork.offsets of its order 1 */
    Py_ssize_t at[2];  /* single use: where its character and word ids start in ChrfWork.ref_uni[kind] */
} ChrfRef;

/* A character's id in the table, cached per code point below CHRF_CHARMAP (see chrf_token_ids):
   valid while gen is the work's chars_gen, which moves on each time the table is emptied. */
typedef struct {
    uint32_t gen;
    int32_t id;
} ChrfCharId;

#define CHRF_CHARMAP ((Py_UCS4)1 << 16)

typedef struct {
    ChrfTable table;
    ChrfWords words;
    ChrfCharId *char_ids;  /* CHRF_CHARMAP entries: the basic multilingual plane; beyond, the table */
    uint32_t chars_gen;
    Py_UCS4 *text;       /* the current line's code points (lowercased) */
    Py_UCS4 *chars;      /* ... without whitespace (unless kept) */
    Py_ssize_t *spans;   /* its words: start, end, start, end... */
    int32_t *uni, *ids;  /* per position: the token's id, the id of the n-gram starting there */
    Py_ssize_t line_room, sized_room, n_text, n_chars, n_words;
    /* the arrays per n-gram id (chrf_grow_ids) have an item [-1] too: an absent n-gram's */
    int32_t *counts;     /* per n-gram id: a count, 0 between uses ([-1]: meaningless) */
    int32_t *touched;    /* the ids counts holds non-zero */
    int32_t *tags;       /* chrf_single: per id, 1 + the last reference that has it, 0: none */
    int32_t *aggregate;  /* per n-gram id: summed reference counts (chrf_aggregate); chrf_single: the
                            counts one reference used, 0 between uses */
    Py_ssize_t counts_room;
    int32_t *pairs;      /* every reference's profiles: id, count, id, count... */
    Py_ssize_t n_pairs, pairs_room;
    Py_ssize_t *offsets; /* where each order of each reference starts in pairs (and ends: the next one) */
    Py_ssize_t n_offsets, offsets_room;
    ChrfRef *refs;
    Py_ssize_t n_refs, refs_room;
    int32_t *ref_counts; /* with few shared references (dense_refs): per n-gram id, per reference, its
                            count there ([id * n_refs + k]), so a hypothesis is matched as it is counted;
                            ref_counts[-1] is 0 (one reference: an absent n-gram matches nothing) */
    int32_t *ref_counts_base;
    Py_ssize_t ref_counts_room;
    int dense_refs;
    int64_t *matches;    /* per reference, per order: the clipped matches of the current hypothesis */
    int64_t *stats;      /* per reference: its statistics row */
    /* single use (chrf_single): per kind (characters, words), the hypothesis' token ids and
       n-gram ids, and every reference's, one after the other */
    int32_t *hyp_uni[2], *hyp_ids[2], *ref_uni[2], *ref_ids[2];
    Py_ssize_t hyp_room[2], hyp_ids_room[2], ref_room[2], ref_ids_room[2], hyp_len[2], ref_len[2];
    int32_t hyp_first[2], hyp_end[2];  /* single use: the ids the hypothesis' tokens of each kind were given */
    Py_ssize_t matches_room, stats_room;
    Py_ssize_t dirty;    /* the most ids the table held since counts, tags and aggregate were all zero */
} ChrfWork;

static void chrf_free_ids(int32_t *array);

static void
chrf_work_free(ChrfWork *w)
{
    chrf_table_free(&w->table);
    chrf_words_free(&w->words);
    PyMem_Free(w->char_ids);
    PyMem_Free(w->text);
    PyMem_Free(w->chars);
    PyMem_Free(w->spans);
    PyMem_Free(w->uni);
    PyMem_Free(w->ids);
    chrf_free_ids(w->counts);
    chrf_free_ids(w->touched);
    chrf_free_ids(w->tags);
    chrf_free_ids(w->aggregate);
    PyMem_Free(w->pairs);
    PyMem_Free(w->ref_counts_base);
    PyMem_Free(w->offsets);
    PyMem_Free(w->refs);
    PyMem_Free(w->matches);
    PyMem_Free(w->stats);
    for (int kind = 0; kind < 2; kind++) {
        PyMem_Free(w->hyp_uni[kind]);
        PyMem_Free(w->hyp_ids[kind]);
        PyMem_Free(w->ref_uni[kind]);
        PyMem_Free(w->ref_ids[kind]);
    }
    memset(w, 0, sizeof(ChrfWork));
}

static int
chrf_work_init(ChrfWork *w)
{
    memset(w, 0, sizeof(ChrfWork));
    if (chrf_table_alloc(&w->table, 10) < 0 || chrf_words_alloc_slots(&w->words, 256) < 0) {
        chrf_work_free(w);
        return -1;
    }
    w->char_ids = PyMem_Calloc(CHRF_CHARMAP, sizeof(ChrfCharId));  /* generation 0: nothing */
    if (w->char_ids == NULL) {
        chrf_work_free(w);
        PyErr_NoMemory();
        return -1;
    }
    w->chars_gen = 1;
    return 0;
}

/* Grow *buffer (of *room items of `size` bytes) to hold `need` items. */
static int
chrf_reserve(void **buffer, Py_ssize_t *room, Py_ssize_t need, size_t size)
{
    Py_ssize_t grown;
    void *memory;
    if (need <= *room) {
        return 0;
    }
    grown = Py_MAX(need, *room + *room / 2) + 16;
    if ((size_t)grown > PY_SSIZE_T_MAX / size) {
        PyErr_NoMemory();
        return -1;
    }
    memory = PyMem_Realloc(*buffer, (size_t)grown * size);
    if (memory == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buffer = memory;
    *room = grown;
    return 0;
}

/* *array (of int32_t, room for `old` ids) grown to `room` ids, the new ones zeroed if `zero`. An
   array indexed by n-gram id has an item before its first, (*array)[-1], 0 when it is made: an
   absent n-gram (-1) is counted or tested there without a branch (chrf_match_one, chrf_single_one). */
static int
chrf_grow_ids(int32_t **array, Py_ssize_t old, Py_ssize_t room, int zero)
{
    int32_t *base = *array != NULL ? *array - 1 : NULL;
    int32_t *grown = PyMem_Realloc(base, (size_t)(room + 1) * sizeof(int32_t));
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (base == NULL) {
        grown[0] = 0;
    }
    *array = grown + 1;
    if (zero) {
        memset(grown + 1 + old, 0, (size_t)(room - old) * sizeof(int32_t));
    }
    return 0;
}

/* An array of chrf_grow_ids freed. */
static void
chrf_free_ids(int32_t *array)
{
    PyMem_Free(array != NULL ? array - 1 : NULL);
}

/* counts, tags, touched and aggregate with room for `need` ids. */
static int
chrf_reserve_counts(ChrfWork *w, Py_ssize_t need)
{
    Py_ssize_t old = w->counts_room, room;
    if (need <= old) {
        return 0;
    }
    room = Py_MAX(need, 2 * old) + 64;
    if (chrf_grow_ids(&w->counts, old, room, 1) < 0 || chrf_grow_ids(&w->touched, old, room, 0) < 0
        || chrf_grow_ids(&w->tags, old, room, 1) < 0 || chrf_grow_ids(&w->aggregate, old, room, 1) < 0) {
        return -1;
    }
    w->counts_room = room;
    return 0;
}

static inline int
chrf_is_punctuation(Py_UCS4 c)
{
    /* string.punctuation: ASCII 33..47, 58..64, 91..96, 123..126 */
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

static inline int chrf_find_words(ChrfWork *w, const ChrfSettings *s);

/* Py_UNICODE_ISSPACE of the code points below 256 (what str.split() splits on among them: \t \n
   \v \f \r, \x1c..\x1f, space, \x85, \xa0), a load per character instead of two tests;
   tests/test_chrf_compiled_paths.py checks it against str.split(). */
static const unsigned char chrf_space1[256] = {
    [9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, [32] = 1,
    [0x85] = 1, [0xa0] = 1,
};

/* Py_UNICODE_ISSPACE, through chrf_space1 below 256. */
static inline int
chrf_is_space(Py_UCS4 c)
{
    return c < 256 ? chrf_space1[c] : Py_UNICODE_ISSPACE(c);
}

/* The line's code points (lowercased as str.lower() does), its characters and its words,
   into w->text, w->chars and w->spans. */
static int
chrf_read_line(ChrfWork *w, PyObject *line, const ChrfSettings *s, const char *what, Py_ssize_t position)
{
    PyObject *lowered = NULL;
    Py_ssize_t length, i, n_chars = 0;
    int kind, ascii_lower = 0;
    const void *data;
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "%s %zd is %.100s, not a str", what, position, Py_TYPE(line)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(line) < 0) {
        return -1;
    }
#endif
    if (s->lowercase) {
        if (PyUnicode_IS_ASCII(line)) {
            ascii_lower = 1;
        }
        else {  /* str.lower's full case mapping (one code point may become several) */
            lowered = PyObject_CallMethod(line, "lower", NULL);
            if (lowered == NULL) {
                return -1;
            }
            if (!PyUnicode_Check(lowered)) {
                PyErr_SetString(PyExc_TypeError, "lower() did not return a str");
                Py_DECREF(lowered);
                return -1;
            }
            line = lowered;
        }
    }
    length = PyUnicode_GET_LENGTH(line);
    if (check_tokens(0, length, what) < 0
        || chrf_reserve((void **)&w->text, &w->line_room, length + 1, sizeof(Py_UCS4)) < 0) {
        Py_XDECREF(lowered);
        return -1;
    }
    if (w->line_room != w->sized_room) {
        /* every buffer sized by one line grows with text (line_room) */
        Py_ssize_t room = w->line_room;
        Py_UCS4 *chars = PyMem_Realloc(w->chars, (size_t)room * sizeof(Py_UCS4));
        Py_ssize_t *spans;
        int32_t *uni, *ids;
        if (chars == NULL) {
            goto no_memory;
        }
        w->chars = chars;
        spans = PyMem_Realloc(w->spans, (size_t)room * 2 * sizeof(Py_ssize_t));
        if (spans == NULL) {
            goto no_memory;
        }
        w->spans = spans;
        uni = PyMem_Realloc(w->uni, (size_t)room * sizeof(int32_t));
        if (uni == NULL) {
            goto no_memory;
        }
        w->uni = uni;
        ids = PyMem_Realloc(w->ids, (size_t)room * sizeof(int32_t));
        if (ids == NULL) {
            goto no_memory;
        }
        w->ids = ids;
        w->sized_room = room;
    }
    kind = PyUnicode_KIND(line);
    data = PyUnicode_DATA(line);
    if (kind == PyUnicode_1BYTE_KIND && s->char_order > 0 && !s->whitespace && s->word_order == 0) {
        /* chrF of most lines: the characters without whitespace in one pass (without words, the
           text itself is not needed); every character is stored and the count moves past it
           unless it is whitespace, without a branch per character */
        const Py_UCS1 *bytes = data;
        Py_UCS4 *chars = w->chars;
        if (ascii_lower) {
            for (i = 0; i < length; i++) {
                Py_UCS4 c = bytes[i];
                c += (Py_UCS4)(c - 'A' <= 'Z' - 'A') << 5;  /* 'A'..'Z' to 'a'..'z' */
                chars[n_chars] = c;
                n_chars += !chrf_space1[c];
            }
        }
        else {
            for (i = 0; i < length; i++) {
                Py_UCS4 c = bytes[i];
                chars[n_chars] = c;
                n_chars += !chrf_space1[c];
            }
        }
        Py_XDECREF(lowered);
        w->n_text = 0;
        w->n_chars = n_chars;
        w->n_words = 0;
        return 0;
    }
    if (kind == PyUnicode_1BYTE_KIND && s->char_order > 0 && !s->whitespace) {
        /* the text and its characters without whitespace in one pass, as above */
        const Py_UCS1 *bytes = data;
        Py_UCS4 *text = w->text, *chars = w->chars;
        for (i = 0; i < length; i++) {
            Py_UCS4 c = bytes[i];
            c += (Py_UCS4)(ascii_lower & (c - 'A' <= 'Z' - 'A')) << 5;
            text[i] = c;
            chars[n_chars] = c;
            n_chars += !chrf_space1[c];
        }
        Py_XDECREF(lowered);
        w->n_text = length;
        w->n_chars = n_chars;
        return chrf_find_words(w, s);
    }
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *bytes = data;
        for (i = 0; i < length; i++) {
            Py_UCS4 c = bytes[i];
            if (ascii_lower && c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            w->text[i] = c;
        }
    }
    else {
        for (i = 0; i < length; i++) {
            w->text[i] = PyUnicode_READ(kind, data, i);
        }
    }
    Py_XDECREF(lowered);
    w->n_text = length;
    if (s->char_order > 0) {
        if (s->whitespace) {
            memcpy(w->chars, w->text, (size_t)length * sizeof(Py_UCS4));
            n_chars = length;
        }
        else {
            for (i = 0; i < length; i++) {
                Py_UCS4 c = w->text[i];
                if (!chrf_is_space(c)) {
                    w->chars[n_chars++] = c;
                }
            }
        }
    }
    w->n_chars = n_chars;
    return chrf_find_words(w, s);
no_memory:
    Py_XDECREF(lowered);
    PyErr_NoMemory();
    return -1;
}

/* The words of the line in w->text (chrF++ only) into w->spans: str.split()'s, each with one ASCII
   punctuation mark split off its end, or else off its start. */
static inline int
chrf_find_words(ChrfWork *w, const ChrfSettings *s)
{
    Py_ssize_t i, length = w->n_text, n_words = 0;
    if (s->word_order > 0) {
        i = 0;
        while (i < length) {
            Py_ssize_t start;
            while (i < length && chrf_is_space(w->text[i])) {
                i++;
            }
            if (i == length) {
                break;
            }
            start = i;
            while (i < length && !chrf_is_space(w->text[i])) {
                i++;
            }
            if (i - start > 1 && chrf_is_punctuation(w->text[i - 1])) {
                w->spans[2 * n_words] = start;
                w->spans[2 * n_words + 1] = i - 1;
                w->spans[2 * n_words + 2] = i - 1;
                w->spans[2 * n_words + 3] = i;
                n_words += 2;
            }
            else if (i - start > 1 && chrf_is_punctuation(w->text[start])) {
                w->spans[2 * n_words] = start;
                w->spans[2 * n_words + 1] = start + 1;
                w->spans[2 * n_words + 2] = start + 1;
                w->spans[2 * n_words + 3] = i;
                n_words += 2;
            }
            else {
                w->spans[2 * n_words] = start;
                w->spans[2 * n_words + 1] = i;
                n_words++;
            }
        }
    }
    w->n_words = n_words;
    return 0;
}

/* Forget the references (and their n-grams). */
static void
chrf_forget_references(ChrfWork *w)
{
    if (w->dirty < (Py_ssize_t)w->table.count) {
        w->dirty = w->table.count;
    }
    chrf_table_clear(&w->table);
    if (++w->chars_gen == 0) {  /* wrapped: an entry of generation 1 could look current */
        memset(w->char_ids, 0, CHRF_CHARMAP * sizeof(ChrfCharId));
        w->chars_gen = 1;
    }
    chrf_words_clear(&w->words);
    w->n_pairs = 0;
    w->n_offsets = 0;
    w->n_refs = 0;
}

/* Buffers kept between calls up to about this many bytes; beyond, freed after the call. */
#define CHRF_KEPT_BYTES ((size_t)1 << 20)

/* Roughly the bytes the work's buffers hold that grow with the input (char_ids, always the same
   size, is not counted). */
static size_t
chrf_work_bytes(const ChrfWork *w)
{
    size_t bytes = (w->table.mask + 1) * (sizeof(uint64_t) + sizeof(int32_t)) + (w->table.mask / 2 + 2) * sizeof(size_t)
        + (size_t)w->words.text_room * sizeof(Py_UCS4)
        + (size_t)w->words.room * (sizeof(Py_ssize_t) + sizeof(uint64_t) + sizeof(size_t))
        + (w->words.mask + 1) * sizeof(int32_t)
        + (size_t)w->line_room * (2 * sizeof(Py_UCS4) + 2 * sizeof(Py_ssize_t) + 2 * sizeof(int32_t))
        + (size_t)w->counts_room * 4 * sizeof(int32_t) + (size_t)w->pairs_room * sizeof(int32_t)
        + (size_t)w->ref_counts_room * sizeof(int32_t)
        + (size_t)w->offsets_room * sizeof(Py_ssize_t) + (size_t)w->refs_room * sizeof(ChrfRef)
        + (size_t)(w->matches_room + w->stats_room) * sizeof(int64_t);
    int kind;
    for (kind = 0; kind < 2; kind++) {
        bytes += (size_t)(w->hyp_room[kind] + w->hyp_ids_room[kind] + w->ref_room[kind] + w->ref_ids_room[kind])
            * sizeof(int32_t);
    }
    return bytes;
}

/* The module's work (made on first use), or when a call is using it `own`, fresh; NULL with
   an exception set. Either holds no references. */
static ChrfWork *
chrf_acquire(PyObject *module, ChrfWork *own)
{
    ModuleState *state = PyModule_GetState(module);
#ifndef Py_GIL_DISABLED
    if (state != NULL && !state->chrf_busy) {
        ChrfWork *kept = state->chrf_work;
        if (kept == NULL) {
            kept = PyMem_Malloc(sizeof(ChrfWork));
            if (kept == NULL) {
                PyErr_NoMemory();
                return NULL;
            }
            if (chrf_work_init(kept) < 0) {
                PyMem_Free(kept);
                return NULL;
            }
            state->chrf_work = kept;
        }
        state->chrf_busy = 1;
        return kept;
    }
#else
    (void)state;  /* without the GIL two threads could share the module's buffers: each call has its own */
#endif
    return chrf_work_init(own) < 0 ? NULL : own;
}

/* Zero the per-id counters chrf_single and chrf_aggregate leave behind (ids below w->dirty), which
   the paths with shared references expect at zero. chrf_single itself zeroes the ones it uses,
   so a run of sentence scores never pays for this. */
static void
chrf_zero_counters(ChrfWork *w)
{
    Py_ssize_t dirty;
    chrf_forget_references(w);
    dirty = Py_MIN(w->dirty, w->counts_room);
    if (dirty > 0) {
        memset(w->counts, 0, (size_t)dirty * sizeof(int32_t));
        memset(w->tags, 0, (size_t)dirty * sizeof(int32_t));
        memset(w->aggregate, 0, (size_t)dirty * sizeof(int32_t));
    }
    w->dirty = 0;
}

/* The end of a call with w (whatever its outcome): the module's work is emptied for the next
   call, or freed when it grew too big; a call's own is freed. */
static void
chrf_release(PyObject *module, ChrfWork *w)
{
    ModuleState *state = PyModule_GetState(module);
    if (state != NULL && w == state->chrf_work) {
        chrf_forget_references(w);  /* the counters are zeroed by the next call that needs them */
        state->chrf_busy = 0;
        if (chrf_work_bytes(w) <= CHRF_KEPT_BYTES) {
            return;
        }
        state->chrf_work = NULL;
        chrf_work_free(w);
        PyMem_Free(w);
        return;
    }
    chrf_work_free(w);
}

/* The module's chrF buffers freed with the module. */
static void
chrf_state_free(ModuleState *state)
{
    if (state->chrf_work != NULL) {
        chrf_work_free(state->chrf_work);
        PyMem_Free(state->chrf_work);
        state->chrf_work = NULL;
    }
}

/* A table is grown ahead for the n-grams of one order of a line up to this long (an order of a
   longer one, which may repeat a few n-grams, grows it only as far as its distinct n-grams need). */
#define CHRF_ROOM_AHEAD ((Py_ssize_t)1 << 16)

/* Room in t for `stop` more n-grams of one order, made ahead where that is done (see
   CHRF_ROOM_AHEAD): 1 if they all have room (chrf_insert needs no test of room), 0 if not (each
   goes through chrf_intern), -1 with an exception set. */
static inline int
chrf_room_for(ChrfTable *t, Py_ssize_t stop)
{
    while (stop <= CHRF_ROOM_AHEAD && (Py_ssize_t)t->count + stop > (Py_ssize_t)t->limit && t->limit < CHRF_MAX_IDS) {
        if (chrf_table_grow(t) < 0) {
            return -1;
        }
    }
    return (Py_ssize_t)t->count + stop <= (Py_ssize_t)t->limit;
}

/* A table's fields copied for one order's n-grams, all with room (chrf_room_for): a local of the
   caller, which the compiler keeps in registers (a store into an int32_t array may not change it,
   as it may change the table's own fields). chrf_table_done puts the count back. */
typedef struct {
    uint64_t *keys;
    int32_t *ids;
    size_t *slots;
    size_t mask;
    int shift;
    int32_t count;
} ChrfInsert;

static inline Py_ALWAYS_INLINE ChrfInsert
chrf_insert_begin(const ChrfTable *t)
{
    ChrfInsert in = {t->keys, t->ids, t->slots, t->mask, t->shift, t->count};
    return in;
}

/* The id of key, a new one if it is not there: chrf_intern without its test of room. */
static inline Py_ALWAYS_INLINE int32_t
chrf_insert(ChrfInsert *in, uint64_t key)
{
    size_t j = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> in->shift);
    for (;;) {
        uint64_t k = in->keys[j];
        if (k == key) {
            return in->ids[j];
        }
        if (k == EMPTY_KEY) {
            in->keys[j] = key;
            in->slots[in->count] = j;
            return in->ids[j] = in->count++;
        }
        j = (j + 1) & in->mask;
    }
}

/* ids[i] = the id of (ids[i], last[i]) for i < stop, interned: the n-grams of one order made from
   the previous order's ids and their last tokens. With room for all of them in the table, without
   a test of room per n-gram and with the table's fields in locals; -1 with an exception set. */
static int
chrf_intern_ngrams(ChrfTable *t, int32_t *ids, const int32_t *last, Py_ssize_t stop)
{
    Py_ssize_t i;
    int room = chrf_room_for(t, stop);
    if (room < 0) {
        return -1;
    }
    if (room) {
        ChrfInsert in = chrf_insert_begin(t);
        for (i = 0; i < stop; i++) {
            ids[i] = chrf_insert(&in, ((uint64_t)(uint32_t)ids[i] << 32) | (uint32_t)last[i]);
        }
        t->count = in.count;
        return 0;
    }
    for (i = 0; i < stop; i++) {  /* near the most ids a table holds: each n-gram checked */
        int32_t id = chrf_intern(t, ((uint64_t)(uint32_t)ids[i] << 32) | (uint32_t)last[i]);
        if (id < 0) {
            return -1;
        }
        ids[i] = id;
    }
    return 0;
}

/* The profiles of orders 1..order of a reference whose tokens' ids are in w->uni[0:length],
   appended to pairs (order offsets to offsets). */
static int
chrf_add_profiles(ChrfWork *w, Py_ssize_t length, Py_ssize_t order)
{
    Py_ssize_t n, i, top = Py_MIN(order, length);
    int32_t *ids = w->ids;
    memcpy(ids, w->uni, (size_t)length * sizeof(int32_t));
    if (chrf_reserve((void **)&w->offsets, &w->offsets_room, w->n_offsets + order + 1, sizeof(Py_ssize_t)) < 0) {
        return -1;
    }
    for (n = 1; n <= top; n++) {
        Py_ssize_t stop = length - n + 1, distinct = 0, t;
        if (n > 1 && chrf_intern_ngrams(&w->table, ids, w->uni + n - 1, stop) < 0) {
            return -1;
        }
        if (chrf_reserve_counts(w, (Py_ssize_t)w->table.count + 1) < 0
            || chrf_reserve((void **)&w->pairs, &w->pairs_room, w->n_pairs + 2 * stop, sizeof(int32_t)) < 0) {
            return -1;
        }
        {
            int32_t *counts = w->counts, *touched = w->touched, *pairs = w->pairs + w->n_pairs;
            for (i = 0; i < stop; i++) {
                int32_t id = ids[i];
                if (counts[id]++ == 0) {
                    touched[distinct++] = id;
                }
            }
            w->offsets[w->n_offsets++] = w->n_pairs;
            for (t = 0; t < distinct; t++) {
                int32_t id = touched[t];
                pairs[2 * t] = id;
                pairs[2 * t + 1] = counts[id];
                counts[id] = 0;
            }
            w->n_pairs += 2 * distinct;
        }
    }
    for (; n <= order; n++) {  /* orders the reference is too short for: no n-grams */
        w->offsets[w->n_offsets++] = w->n_pairs;
    }
    return 0;
}

/* Token ids of the current line's characters (kind 0) or words (kind 1) into out: interned
   (insert: the references', or chrf_single's hypothesis) or looked up (-1: absent). */
static inline Py_ALWAYS_INLINE int  /* inlined: each caller's kind and insert are constants */
chrf_token_ids(ChrfWork *w, int kind, int insert, int32_t *out)
{
    Py_ssize_t i;
    if (kind == 0) {
        /* a code point of the basic plane finds its id in char_ids, without hashing; every
           character interned there is cached there, so one not cached is not in the table */
        ChrfCharId *cached = w->char_ids;
        const uint32_t gen = w->chars_gen;
        for (i = 0; i < w->n_chars; i++) {
            Py_UCS4 c = w->chars[i];
            int32_t id;
            if (c < CHRF_CHARMAP) {
                if (cached[c].gen == gen) {
                    id = cached[c].id;
                }
                else if (insert) {
                    id = chrf_intern(&w->table, CHRF_CHAR_TAG | c);
                    if (id < 0) {
                        return -1;
                    }
                    cached[c].gen = gen;
                    cached[c].id = id;
                }
                else {
                    id = -1;
                }
            }
            else {
                uint64_t key = CHRF_CHAR_TAG | c;
                id = insert ? chrf_intern(&w->table, key) : chrf_lookup(&w->table, key);
                if (insert && id < 0) {
                    return -1;
                }
            }
            out[i] = id;
        }
        return 0;
    }
    for (i = 0; i < w->n_words; i++) {
        Py_ssize_t start = w->spans[2 * i], end = w->spans[2 * i + 1];
        int32_t word = chrf_word_id(&w->words, w->text + start, end - start, insert), id;
        if (word == -2) {
            return -1;
        }
        if (word < 0) {
            out[i] = -1;
            continue;
        }
        id = insert ? chrf_intern(&w->table, CHRF_WORD_TAG | (uint32_t)word)
                    : chrf_lookup(&w->table, CHRF_WORD_TAG | (uint32_t)word);
        if (insert && id < 0) {
            return -1;
        }
        out[i] = id;
    }
    return 0;
}

/* A reference added to the work's references. */
static int
chrf_add_reference(ChrfWork *w, PyObject *line, const ChrfSettings *s, Py_ssize_t position)
{
    ChrfRef *ref;
    if (chrf_read_line(w, line, s, "a reference of segment", position) < 0
        || chrf_reserve((void **)&w->refs, &w->refs_room, w->n_refs + 1, sizeof(ChrfRef)) < 0) {
        return -1;
    }
    ref = &w->refs[w->n_refs];
    ref->n_chars = w->n_chars;
    ref->n_words = w->n_words;
    ref->first = w->n_offsets;
    if (s->char_order > 0 && (chrf_token_ids(w, 0, 1, w->uni) < 0 || chrf_add_profiles(w, w->n_chars, s->char_order) < 0)) {
        return -1;
    }
    if (s->word_order > 0 && (chrf_token_ids(w, 1, 1, w->uni) < 0 || chrf_add_profiles(w, w->n_words, s->word_order) < 0)) {
        return -1;
    }
    w->n_refs++;
    return 0;
}

/* The id of key in a table's arrays (chrf_lookup, with the table's fields in the caller's locals:
   a store into an int32_t array may not change them, so they stay in registers). */
static inline int32_t
chrf_find(const uint64_t *keys, const int32_t *table_ids, size_t mask, int shift, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> shift);
    for (;;) {
        uint64_t k = keys[i];
        if (k == key) {
            return table_ids[i];
        }
        if (k == EMPTY_KEY) {
            return -1;
        }
        i = (i + 1) & mask;
    }
}

/* chrf_match_kind against one reference (dense_refs): each order in one pass that looks the
   n-grams up, counts them and sums their matches (the j-th occurrence of an n-gram matches if the
   reference has it more than j times), without a branch for an absent one (-1: counts[-1] and
   ref_counts[-1], which is 0). The pass also zeroes the previous order's counts, done with; ids
   of different orders differ, so no count is zeroed while it is in use. */
static void
chrf_match_one(ChrfWork *w, Py_ssize_t length, Py_ssize_t order, Py_ssize_t base)
{
    Py_ssize_t n, i, stop = length, top = Py_MIN(order, length);
    int32_t *ids = w->ids, *counts = w->counts;
    const int32_t *uni = w->uni, *have = w->ref_counts;
    const uint64_t *keys = w->table.keys;
    const int32_t *table_ids = w->table.ids;
    const size_t mask = w->table.mask;
    const int shift = w->table.shift;
    int64_t found = 0;
    counts[-1] = 0;
    for (i = 0; i < length; i++) {
        int32_t id = uni[i];
        ids[i] = id;
        found += counts[id]++ < have[id];
    }
    if (top > 0) {
        w->matches[base] = found;
    }
    for (n = 2; n <= top && found > 0; n++) {  /* nothing found (a found n-gram matches its first time): no longer one can be */
        stop = length - n + 1;
        found = 0;
        for (i = 0; i < stop; i++) {
            int32_t a = ids[i], b = ids[i + 1], id;
            counts[a] = 0;
            id = (a | b) < 0 ? -1 : chrf_find(keys, table_ids, mask, shift, ((uint64_t)(uint32_t)a << 32) | (uint32_t)uni[i + n - 1]);
            ids[i] = id;
            found += counts[id]++ < have[id];
        }
        counts[ids[stop]] = 0;
        w->matches[base + n - 1] = found;
    }
    for (i = 0; i < stop; i++) {  /* the last order's counts */
        counts[ids[i]] = 0;
    }
}

/* The clipped matches of the hypothesis tokens in w->uni[0:length] (ids, -1 if no reference
   has the token) against every reference, orders 1..order of the kind starting at order index
   `base`, into w->matches[ref * s->order + base + n - 1].

   Order by order, ids[i] becomes the id of the n-gram starting at i, or -1: it is looked up
   only if the two (n - 1)-grams inside it (at i and i + 1) are in the references. With few
   references (dense_refs), the j-th occurrence of an n-gram in the hypothesis is a match against
   a reference that has it more than j times: sum(min(hypothesis count, reference count)) is
   summed as the hypothesis is counted, without a pass over the references' profiles. Once an
   order finds nothing, no longer n-gram can be found. */
static void
chrf_match_kind(ChrfWork *w, Py_ssize_t length, Py_ssize_t order, Py_ssize_t base, const ChrfSettings *s)
{
    Py_ssize_t n, i, k, top = Py_MIN(order, length), n_refs = w->n_refs, reset = 0;
    int32_t *ids = w->ids, *counts = w->counts;
    const int32_t *uni = w->uni;
    if (w->dense_refs && n_refs == 1) {
        chrf_match_one(w, length, order, base);
        return;
    }
    memcpy(ids, uni, (size_t)length * sizeof(int32_t));
    for (n = 1; n <= top; n++) {
        Py_ssize_t stop = length - n + 1, distinct = 0, t;
        if (n > 1) {
            const ChrfTable *table = &w->table;
            for (i = 0; i < stop; i++) {
                int32_t a = ids[i], b = ids[i + 1];
                counts[a] = 0;  /* the previous order's count, done with (or counts[-1]) */
                ids[i] = (a | b) < 0 ? -1
                    : chrf_lookup(table, ((uint64_t)(uint32_t)a << 32) | (uint32_t)uni[i + n - 1]);
            }
            counts[ids[stop]] = 0;  /* the previous order's last n-gram */
            reset = 0;
        }
        if (w->dense_refs) {
            const int32_t *have = w->ref_counts;
            int64_t any = 0;
            if (n_refs == 1) {  /* without a branch: an absent n-gram (-1) counts in counts[-1], matches nothing */
                int64_t found = 0;
                for (i = 0; i < stop; i++) {
                    int32_t id = ids[i];
                    found += counts[id]++ < have[id];
                }
                w->matches[base + n - 1] = any = found;
            }
            else {
                int64_t *matches = w->matches + base + n - 1;
                for (i = 0; i < stop; i++) {
                    int32_t id = ids[i];
                    if (id >= 0) {
                        int32_t seen = counts[id]++;
                        const int32_t *per_ref = have + (size_t)id * (size_t)n_refs;
                        for (k = 0; k < n_refs; k++) {
                            matches[k * s->order] += seen < per_ref[k];
                        }
                        any = 1;
                    }
                }
            }
            /* zeroed by the next order's pass (or below after the last), which reads these ids */
            reset = stop;
            if (any == 0) {  /* nothing found (a found n-gram matches its first time): no longer one can be */
                break;
            }
            continue;
        }
        for (i = 0; i < stop; i++) {
            int32_t id = ids[i];
            if (id >= 0 && counts[id]++ == 0) {
                w->touched[distinct++] = id;
            }
        }
        if (distinct == 0) {  /* nothing found: no longer n-gram can be */
            break;
        }
        for (k = 0; k < n_refs; k++) {
            const ChrfRef *ref = &w->refs[k];
            Py_ssize_t at = ref->first + base + n - 1;
            const int32_t *pair = w->pairs + w->offsets[at], *end = w->pairs + w->offsets[at + 1];
            int64_t found = 0;
            for (; pair < end; pair += 2) {
                int32_t have = counts[pair[0]];
                found += have < pair[1] ? have : pair[1];
            }
            w->matches[k * s->order + base + n - 1] = found;
        }
        for (t = 0; t < distinct; t++) {
            counts[w->touched[t]] = 0;
        }
    }
    for (i = 0; i < reset; i++) {  /* the dense path's last order */
        counts[ids[i]] = 0;
    }
}

/* References up to this many are matched through ref_counts (chrf_match_kind); more (pairwise
   matrices, thousands of references) through their profiles, whose memory does not grow with
   the product of references and n-grams. */
#define CHRF_DENSE_REFS 4

/* The offsets array has one more entry after the last order of the last reference. */
static int
chrf_close_references(ChrfWork *w)
{
    if (chrf_reserve((void **)&w->offsets, &w->offsets_room, w->n_offsets + 1, sizeof(Py_ssize_t)) < 0
        || chrf_reserve_counts(w, (Py_ssize_t)w->table.count + 1) < 0) {
        return -1;
    }
    w->offsets[w->n_offsets] = w->n_pairs;
    w->dense_refs = w->n_refs <= CHRF_DENSE_REFS;
    if (w->dense_refs) {  /* every reference's count of every id: each profile written into ref_counts */
        Py_ssize_t k, n_refs = w->n_refs, size = (Py_ssize_t)w->table.count * n_refs;
        if (chrf_reserve((void **)&w->ref_counts_base, &w->ref_counts_room, size + 1, sizeof(int32_t)) < 0) {
            return -1;
        }
        memset(w->ref_counts_base, 0, (size_t)(size + 1) * sizeof(int32_t));
        w->ref_counts = w->ref_counts_base + 1;
        for (k = 0; k < n_refs; k++) {
            const int32_t *pair = w->pairs + w->offsets[w->refs[k].first];
            const int32_t *end = w->pairs + w->offsets[k + 1 < n_refs ? w->refs[k + 1].first : w->n_offsets];
            for (; pair < end; pair += 2) {
                w->ref_counts[(size_t)pair[0] * (size_t)n_refs + (size_t)k] = pair[1];
            }
        }
    }
    return 0;
}

/* _add_orders: hyp, ref, match of orders 1..order of one kind. */
static void
chrf_add_orders(int64_t *row, Py_ssize_t hyp_len, Py_ssize_t ref_len, const int64_t *matches, Py_ssize_t order)
{
    Py_ssize_t n;
    for (n = 1; n <= order; n++) {
        Py_ssize_t ref_total = ref_len - n + 1;
        if (ref_total <= 0) {
            row[0] = row[1] = row[2] = 0;
        }
        else {
            row[0] = hyp_len >= n ? hyp_len - n + 1 : 0;
            row[1] = ref_total;
            row[2] = matches[n - 1];
        }
        row += 3;
    }
}

/* The statistics row of the hypothesis (of hyp_chars characters and hyp_words words, its clipped
   matches in w->matches) against each of the work's references into w->stats, and the best one:
   the highest F score, the first of equals. */
static const int64_t *
chrf_best_row(ChrfWork *w, Py_ssize_t hyp_chars, Py_ssize_t hyp_words, const ChrfSettings *s)
{
    Py_ssize_t k, width = 3 * s->order;
    const int64_t *best = NULL;
    double best_f = -1.0;
    for (k = 0; k < w->n_refs; k++) {
        int64_t *row = w->stats + k * width;
        const int64_t *matches = w->matches + k * s->order;
        double f;
        chrf_add_orders(row, hyp_chars, w->refs[k].n_chars, matches, s->char_order);
        chrf_add_orders(row + 3 * s->char_order, hyp_words, w->refs[k].n_words, matches + s->char_order,
                        s->word_order);
        if (w->n_refs == 1) {
            return row;
        }
        f = chrf_f(row, s->order, s);
        if (f > best_f) {
            best_f = f;
            best = row;
        }
    }
    return best;
}

/* The hypothesis `line` against the work's references (closed): the statistics row of the
   best reference into *best (a row of w->stats), or with `each` the rows of all, per reference. */
static int
chrf_hypothesis(ChrfWork *w, PyObject *line, const ChrfSettings *s, Py_ssize_t position, const int64_t **best)
{
    Py_ssize_t hyp_chars, hyp_words, width = 3 * s->order;
    if (chrf_read_line(w, line, s, "hypothesis", position) < 0
        || chrf_reserve((void **)&w->matches, &w->matches_room, w->n_refs * s->order + 1, sizeof(int64_t)) < 0) {
        return -1;
    }
    if ((size_t)w->n_refs > (size_t)PY_SSIZE_T_MAX / sizeof(int64_t) / (size_t)(width + 1)
        || chrf_reserve((void **)&w->stats, &w->stats_room, w->n_refs * width + 1, sizeof(int64_t)) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    memset(w->matches, 0, (size_t)(w->n_refs * s->order) * sizeof(int64_t));
    hyp_chars = w->n_chars;
    hyp_words = w->n_words;
    if (s->char_order > 0) {
        chrf_token_ids(w, 0, 0, w->uni);
        chrf_match_kind(w, hyp_chars, s->char_order, 0, s);
    }
    if (s->word_order > 0) {
        if (chrf_token_ids(w, 1, 0, w->uni) < 0) {
            return -1;
        }
        chrf_match_kind(w, hyp_words, s->word_order, s->char_order, s);
    }
    *best = chrf_best_row(w, hyp_chars, hyp_words, s);
    return 0;
}


/* --- single use: one hypothesis against one segment's references ------------------------ */

/* chrf_token_ids appended to *uni (of *length, room *room). */
static inline Py_ALWAYS_INLINE int
chrf_append_ids(ChrfWork *w, int kind, int insert, int32_t **uni, Py_ssize_t *length, Py_ssize_t *room)
{
    Py_ssize_t n = kind == 0 ? w->n_chars : w->n_words;
    if (chrf_reserve((void **)uni, room, *length + n + 1, sizeof(int32_t)) < 0
        || chrf_token_ids(w, kind, insert, *uni + *length) < 0) {
        return -1;
    }
    *length += n;
    return 0;
}

/* Clipped matches of one kind, orders 1..order, into w->matches[ref * s->order + base + n - 1].

   Only n-grams that can match are looked at: an n-gram of order n + 1 matches only if both
   n-grams inside it (at its start and one further) are in the hypothesis and a reference.
   Order by order, in one pass each: the hypothesis' live n-grams are interned and counted;
   each reference's live n-grams are looked up, use up the hypothesis' counts
   (sum(min(hyp count, ref count)) without a table of reference counts) and tag the ids they
   found with the reference's number. Ids of an order are new in the table, so their counters
   are zeroed when they are made, and nothing has to be reset after use. Once nothing
   matches, nothing longer can. */
static int
chrf_single_kind(ChrfWork *w, int kind, Py_ssize_t order, Py_ssize_t base, const ChrfSettings *s)
{
    Py_ssize_t n, i, k, H = w->hyp_len[kind];
    Py_ssize_t top = Py_MIN(order, H);
    int32_t *hu = w->hyp_uni[kind], *ru = w->ref_uni[kind], *hi, *ri, *counts, *tag, *used;
    if (chrf_reserve((void **)&w->hyp_ids[kind], &w->hyp_ids_room[kind], H + 2, sizeof(int32_t)) < 0
        || chrf_reserve((void **)&w->ref_ids[kind], &w->ref_ids_room[kind], w->ref_len[kind] + 2, sizeof(int32_t)) < 0
        || chrf_reserve_counts(w, (Py_ssize_t)w->table.count + H + 1) < 0) {
        return -1;
    }
    hi = w->hyp_ids[kind];
    ri = w->ref_ids[kind];
    counts = w->counts;
    tag = w->tags;
    used = w->aggregate;
    memcpy(ri, ru, (size_t)w->ref_len[kind] * sizeof(int32_t));
    for (i = 0; i < H; i++) {
        counts[hu[i]] = tag[hu[i]] = 0;
    }
    for (i = 0; i < H; i++) {
        counts[hi[i] = hu[i]]++;
    }
    for (n = 1; n <= top; n++) {
        Py_ssize_t stop = H - n + 1;
        int any = 0;
        if (n > 1) {
            ChrfTable *table = &w->table;
            if (chrf_reserve_counts(w, (Py_ssize_t)table->count + stop + 1) < 0) {
                return -1;
            }
            counts = w->counts;
            tag = w->tags;
            used = w->aggregate;
            for (i = 0; i < stop; i++) {
                int32_t a = hi[i], b = hi[i + 1];
                if (a >= 0 && tag[a] && b >= 0 && tag[b]) {
                    int32_t made = table->count;
                    int32_t id = chrf_intern(table, ((uint64_t)(uint32_t)a << 32) | (uint32_t)hu[i + n - 1]);
                    if (id < 0) {
                        return -1;
                    }
                    if (id == made) {
                        counts[id] = tag[id] = 0;
                    }
                    counts[id]++;
                    hi[i] = id;
                }
                else {
                    hi[i] = -1;
                }
            }
        }
        for (k = 0; k < w->n_refs; k++) {
            Py_ssize_t at = w->refs[k].at[kind];
            Py_ssize_t end = at + (kind == 0 ? w->refs[k].n_chars : w->refs[k].n_words) - n + 1;
            int64_t matched = 0;
            int32_t mark = (int32_t)(k + 1);  /* k < the number of tokens of the references: it fits */
            for (i = at; i < end; i++) {
                int32_t id = ri[i];
                if (n > 1) {
                    id = id >= 0 && ri[i + 1] >= 0
                        ? chrf_lookup(&w->table, ((uint64_t)(uint32_t)id << 32) | (uint32_t)ru[i + n - 1]) : -1;
                    ri[i] = id;
                }
                if (id >= 0) {
                    if (tag[id] != mark) {
                        tag[id] = mark;
                        used[id] = 0;
                    }
                    if (used[id] < counts[id]) {
                        used[id]++;
                        matched++;
                    }
                }
            }
            w->matches[k * s->order + base + n - 1] = matched;
            any |= matched > 0;
        }
        if (!any) {  /* no n-gram of this order matched: none longer can */
            break;
        }
    }
    return 0;
}

/* chrf_single_kind against one reference, with fewer tests per position: counts holds the
   hypothesis' count of each id, aggregate the reference's (every occurrence of an id the
   hypothesis has is found: its (n - 1)-grams are found before it). An n-gram of the hypothesis
   is interned only if the reference has both (n - 1)-grams inside it; an n-gram of the reference
   is looked up only if the hypothesis has both. The reference's j-th occurrence of an id is a
   match if the hypothesis has it more than j times; an absent one (-1) is counted in the
   arrays' item [-1] (counts[-1] is 0, so it matches nothing). The ids an order makes are new:
   their counters are zeroed before the pass that makes them. */
static int
chrf_single_one(ChrfWork *w, int kind, Py_ssize_t order, Py_ssize_t base)
{
    Py_ssize_t n, i, H = w->hyp_len[kind], R = w->ref_len[kind];
    Py_ssize_t top = Py_MIN(order, H);
    int32_t *hu = w->hyp_uni[kind], *ru = w->ref_uni[kind], *hi, *ri, *counts, *used;
    const int32_t *prev_h, *prev_r;
    ChrfTable *table = &w->table;
    int64_t matched;
    if (chrf_reserve((void **)&w->hyp_ids[kind], &w->hyp_ids_room[kind], H + 2, sizeof(int32_t)) < 0
        || chrf_reserve((void **)&w->ref_ids[kind], &w->ref_ids_room[kind], R + 2, sizeof(int32_t)) < 0
        || chrf_reserve_counts(w, (Py_ssize_t)table->count + H + 1) < 0) {
        return -1;
    }
    hi = w->hyp_ids[kind];
    ri = w->ref_ids[kind];
    counts = w->counts;
    used = w->aggregate;
    /* the ids of the hypothesis' tokens of this kind, made together: their counters zeroed at once */
    memset(counts + w->hyp_first[kind], 0, (size_t)(w->hyp_end[kind] - w->hyp_first[kind]) * sizeof(int32_t));
    memset(used + w->hyp_first[kind], 0, (size_t)(w->hyp_end[kind] - w->hyp_first[kind]) * sizeof(int32_t));
    counts[-1] = used[-1] = 0;
    for (i = 0; i < H; i++) {
        counts[hu[i]]++;
    }
    matched = 0;
    for (i = 0; i < R; i++) {
        int32_t id = ru[i];
        matched += used[id]++ < counts[id];
    }
    if (top > 0) {
        w->matches[base] = matched;
    }
    for (n = 2; n <= top && matched > 0; n++) {  /* nothing matched: nothing longer can */
        Py_ssize_t stop = H - n + 1, ref_stop = R - n + 1;
        int room;
        int32_t made = table->count;
        if (chrf_reserve_counts(w, (Py_ssize_t)made + stop + 1) < 0) {
            return -1;
        }
        counts = w->counts;
        used = w->aggregate;
        used[-1] = 0;  /* the previous order's absent n-grams were counted there */
        memset(counts + made, 0, (size_t)stop * sizeof(int32_t));  /* the ids this order can make */
        memset(used + made, 0, (size_t)stop * sizeof(int32_t));
        if ((room = chrf_room_for(table, stop)) < 0) {
            return -1;
        }
        /* the previous order's ids: the tokens' own for order 2 (hu, ru), then what the last pass wrote */
        prev_h = n == 2 ? hu : hi;
        prev_r = n == 2 ? ru : ri;
        if (room) {
            /* room for every n-gram: interned without a test of room, the table's fields in locals */
            ChrfInsert in = chrf_insert_begin(table);
            for (i = 0; i < stop; i++) {
                int32_t a = prev_h[i], b = prev_h[i + 1], id = -1;
                if ((used[a] > 0) & (used[b] > 0)) {
                    id = chrf_insert(&in, ((uint64_t)(uint32_t)a << 32) | (uint32_t)hu[i + n - 1]);
                    counts[id]++;
                }
                hi[i] = id;
            }
            table->count = in.count;
        }
        else {
            for (i = 0; i < stop; i++) {
                int32_t a = prev_h[i], b = prev_h[i + 1], id = -1;
                if ((used[a] > 0) & (used[b] > 0)) {
                    id = chrf_intern(table, ((uint64_t)(uint32_t)a << 32) | (uint32_t)hu[i + n - 1]);
                    if (id < 0) {
                        return -1;
                    }
                    counts[id]++;
                }
                hi[i] = id;
            }
        }
        matched = 0;
        {
            const uint64_t *keys = table->keys;
            const int32_t *table_ids = table->ids;
            const size_t mask = table->mask;
            const int shift = table->shift;
            for (i = 0; i < ref_stop; i++) {
                int32_t a = prev_r[i], b = prev_r[i + 1];
                int32_t id = (a | b) < 0 ? -1
                    : chrf_find(keys, table_ids, mask, shift, ((uint64_t)(uint32_t)a << 32) | (uint32_t)ru[i + n - 1]);
                ri[i] = id;
                matched += used[id]++ < counts[id];
            }
        }
        w->matches[base + n - 1] = matched;
    }
    return 0;
}

/* The hypothesis against the references of one segment, neither kept: the best reference's
   statistics row into *best, as chrf_hypothesis gives it. */
static int
chrf_single(ChrfWork *w, PyObject *hypothesis, PyObject *references, const ChrfSettings *s, Py_ssize_t position,
            const int64_t **best)
{
    PyObject *fast;
    Py_ssize_t k, n_refs, width = 3 * s->order;
    int kind;
    if (PyUnicode_Check(references)) {
        PyErr_Format(PyExc_TypeError, "the references of segment %zd must be a sequence of str, not a str", position);
        return -1;
    }
    chrf_forget_references(w);
    w->hyp_len[0] = w->hyp_len[1] = w->ref_len[0] = w->ref_len[1] = 0;
    if (chrf_read_line(w, hypothesis, s, "hypothesis", position) < 0) {
        return -1;
    }
    w->hyp_first[0] = w->table.count;
    if (s->char_order > 0 && chrf_append_ids(w, 0, 1, &w->hyp_uni[0], &w->hyp_len[0], &w->hyp_room[0]) < 0) {
        return -1;
    }
    w->hyp_end[0] = w->hyp_first[1] = w->table.count;
    if (s->word_order > 0 && chrf_append_ids(w, 1, 1, &w->hyp_uni[1], &w->hyp_len[1], &w->hyp_room[1]) < 0) {
        return -1;
    }
    w->hyp_end[1] = w->table.count;
    /* a tuple or list subclass (what CHRF keeps per segment) is read in place: PySequence_Fast
       would copy it into a new list, a thousand instructions a segment */
    fast = PyTuple_Check(references) || PyList_Check(references) ? (Py_INCREF(references), references)
        : PySequence_Fast(references, "the references of a segment must be a sequence of str");
    if (fast == NULL) {
        return -1;
    }
    n_refs = PySequence_Fast_GET_SIZE(fast);
    if (n_refs == 0) {
        PyErr_Format(PyExc_ValueError, "segment %zd has no reference", position);
        goto error;
    }
    if (chrf_reserve((void **)&w->refs, &w->refs_room, n_refs, sizeof(ChrfRef)) < 0) {
        goto error;
    }
    for (k = 0; k < n_refs; k++) {
        ChrfRef *ref = &w->refs[k];
        if (chrf_read_line(w, PySequence_Fast_GET_ITEM(fast, k), s, "a reference of segment", position) < 0) {
            goto error;
        }
        ref->n_chars = w->n_chars;
        ref->n_words = w->n_words;
        ref->at[0] = w->ref_len[0];
        ref->at[1] = w->ref_len[1];
        if ((s->char_order > 0 && chrf_append_ids(w, 0, 0, &w->ref_uni[0], &w->ref_len[0], &w->ref_room[0]) < 0)
            || (s->word_order > 0 && chrf_append_ids(w, 1, 0, &w->ref_uni[1], &w->ref_len[1], &w->ref_room[1]) < 0)) {
            goto error;
        }
    }
    Py_DECREF(fast);
    w->n_refs = n_refs;
    if ((size_t)n_refs > (size_t)PY_SSIZE_T_MAX / sizeof(int64_t) / (size_t)(width + 1)
        || chrf_reserve((void **)&w->matches, &w->matches_room, n_refs * s->order + 1, sizeof(int64_t)) < 0
        || chrf_reserve((void **)&w->stats, &w->stats_room, n_refs * width + 1, sizeof(int64_t)) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    memset(w->matches, 0, (size_t)(n_refs * s->order) * sizeof(int64_t));
    for (kind = 0; kind < 2; kind++) {
        Py_ssize_t order = kind == 0 ? s->char_order : s->word_order;
        if (order > 0 && (n_refs == 1 ? chrf_single_one(w, kind, order, kind == 0 ? 0 : s->char_order)
                          : chrf_single_kind(w, kind, order, kind == 0 ? 0 : s->char_order, s)) < 0) {
            return -1;
        }
    }
    *best = chrf_best_row(w, w->hyp_len[0], w->hyp_len[1], s);
    return 0;
error:
    Py_DECREF(fast);
    return -1;
}

/* The arguments chrf_statistics and chrf_systems share: four of them, the settings (args[2])
   into *s; returns the rows flag (args[3]), or -1 with an exception set. */
static int
chrf_rows_arguments(PyObject *const *args, Py_ssize_t nargs, const char *usage, ChrfSettings *s)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (chrf_read_settings(args[2], s) < 0) {
        return -1;
    }
    return read_rows_mode(args[3]);
}

/* chrf_statistics(hypotheses, references, settings, rows) -> their column sums (rows 0 or False), a list
   per segment (1 or True) or one bytes object of int64 rows (2, see read_rows_mode): hypotheses[i]
   against the str in references[i]. */
static PyObject *
chrf_statistics(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ChrfSettings s;
    ChrfWork own, *w = NULL;
    PyObject *hyps = NULL, *refs = NULL, *result = NULL;
    Py_ssize_t n, i, width;
    int rows;
    int64_t *sums = NULL;
    char *matrix = NULL;
    if ((rows = chrf_rows_arguments(args, nargs, "chrf_statistics(hypotheses, references, settings, rows)", &s)) < 0) {
        return NULL;
    }
    width = 3 * s.order;
    hyps = PySequence_Fast(args[0], "hypotheses must be a sequence");
    if (hyps == NULL) {
        return NULL;
    }
    refs = PySequence_Fast(args[1], "references must be a sequence");
    if (refs == NULL) {
        Py_DECREF(hyps);
        return NULL;
    }
    n = PySequence_Fast_GET_SIZE(hyps);
    if (PySequence_Fast_GET_SIZE(refs) != n) {
        PyErr_SetString(PyExc_ValueError, "as many hypotheses as segments of references are needed");
        goto done;
    }
    if ((w = chrf_acquire(module, &own)) == NULL) {
        goto done;
    }
    if (rows == ROWS_LISTS) {
        result = PyList_New(n);
    }
    else if (rows == ROWS_MATRIX) {
        result = int64_matrix(n, width, &matrix);
    }
    else {
        sums = PyMem_Calloc((size_t)width + 1, sizeof(int64_t));
        if (sums == NULL) {
            PyErr_NoMemory();
        }
    }
    if (rows ? result != NULL : sums != NULL) {
        for (i = 0; i < n; i++) {
            const int64_t *best;
            if (chrf_single(w, PySequence_Fast_GET_ITEM(hyps, i), PySequence_Fast_GET_ITEM(refs, i), &s, i + 1,
                            &best) < 0) {
                Py_CLEAR(result);
                break;
            }
            if (rows == ROWS_MATRIX) {
                memcpy(matrix + (size_t)i * (size_t)width * sizeof(int64_t), best, (size_t)width * sizeof(int64_t));
            }
            else if (rows) {
                PyObject *row = int64_list(best, width);
                if (row == NULL) {
                    Py_CLEAR(result);
                    break;
                }
                PyList_SET_ITEM(result, i, row);
            }
            else {
                Py_ssize_t c;
                for (c = 0; c < width; c++) {
                    sums[c] += best[c];
                }
            }
            if (i == n - 1 && !rows) {
                result = int64_list(sums, width);
            }
        }
        if (n == 0 && !rows) {
            result = int64_list(sums, width);
        }
    }
    PyMem_Free(sums);
    chrf_release(module, w);
done:
    Py_DECREF(hyps);
    Py_DECREF(refs);
    return result;
}

/* A score object: cls made as object.__new__(cls), its __dict__ the fields dict plus "score". */
static PyObject *
chrf_score_object(PyObject *module, PyObject *cls, PyObject *fields, double score)
{
    ModuleState *state = PyModule_GetState(module);
    PyTypeObject *type;
    PyObject *object, *dict, *value;
    if (!PyType_Check(cls) || !PyDict_Check(fields)) {
        PyErr_SetString(PyExc_TypeError, "chrF scores: a class and a dict of fields are needed");
        return NULL;
    }
    type = (PyTypeObject *)cls;
    object = type->tp_alloc(type, 0);
    if (object == NULL) {
        return NULL;
    }
    dict = PyObject_GenericGetDict(object, NULL);
    if (dict == NULL) {
        Py_DECREF(object);
        return NULL;
    }
    value = PyFloat_FromDouble(score);
    if (value == NULL || PyDict_Update(dict, fields) < 0 || (state != NULL && state->score_keys[1] != NULL ? PyDict_SetItem(dict, state->score_keys[1], value)
                                                          : PyDict_SetItemString(dict, "score", value)) < 0) {
        Py_XDECREF(value);
        Py_DECREF(dict);
        Py_DECREF(object);
        return NULL;
    }
    Py_DECREF(value);
    Py_DECREF(dict);
    return object;
}

/* The references (a sequence of str) of chrf_sentences, chrf_pairwise and chrf_aggregate
   (segment 0), or of segment `segment` for all the systems of chrf_systems (errors name it). */
static int
chrf_shared_references(ChrfWork *w, PyObject *references, const ChrfSettings *s, Py_ssize_t segment)
{
    PyObject *fast;
    Py_ssize_t k, n;
    if (PyUnicode_Check(references)) {
        if (segment > 0) {
            PyErr_Format(PyExc_TypeError, "the references of segment %zd must be a sequence of str, not a str",
                         segment);
        }
        else {
            PyErr_SetString(PyExc_TypeError, "references must be a sequence of str, not a str");
        }
        return -1;
    }
    chrf_zero_counters(w);
    /* a tuple subclass (what CHRF keeps per segment) is read in place, not copied */
    fast = PyTuple_Check(references) ? (Py_INCREF(references), references)
        : PySequence_Fast(references, "references must be a sequence of str");
    if (fast == NULL) {
        return -1;
    }
    n = PySequence_Fast_GET_SIZE(fast);
    if (n == 0) {
        if (segment > 0) {
            PyErr_Format(PyExc_ValueError, "segment %zd has no reference", segment);
        }
        else {
            PyErr_SetString(PyExc_ValueError, "no references given");
        }
        Py_DECREF(fast);
        return -1;
    }
    for (k = 0; k < n; k++) {
        if (chrf_add_reference(w, PySequence_Fast_GET_ITEM(fast, k), s, segment > 0 ? segment : k + 1) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return chrf_close_references(w);
}

/* chrf_systems(systems, references, settings, rows) -> per system, what chrf_statistics(system,
   references, settings, rows) gives (its rows, or their column sums): each segment's references
   are made into profiles once, then every system's hypothesis of that segment is only looked up
   in them (chrf_hypothesis), instead of reading the references again for each system; a
   hypothesis equal to an earlier system's (an exact str) takes that one's row. */
static PyObject *
chrf_systems(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ChrfSettings s;
    ChrfWork own, *w = NULL;
    PyObject *systems = NULL, *refs = NULL, *fast = NULL, *result = NULL;
    Py_ssize_t n_sys, n, i, j, c, width;
    int rows;
    int64_t *sums = NULL, *kept = NULL;
    if ((rows = chrf_rows_arguments(args, nargs, "chrf_systems(systems, references, settings, rows)", &s)) < 0) {
        return NULL;
    }
    width = 3 * s.order;
    if ((systems = PySequence_Tuple(args[0])) == NULL) {
        return NULL;
    }
    /* tuples: a str subclass's lower() may run code that changes a list while it is read */
    if ((refs = PySequence_Tuple(args[1])) == NULL) {
        goto done;
    }
    n_sys = PySequence_Fast_GET_SIZE(systems);
    n = PySequence_Fast_GET_SIZE(refs);
    /* each system as a fast sequence (fast[j]), each result as a list of n rows (result[j]) */
    if ((fast = PyList_New(n_sys)) == NULL || (result = PyList_New(n_sys)) == NULL) {
        goto done;
    }
    for (j = 0; j < n_sys; j++) {
        PyObject *system = PySequence_Tuple(PySequence_Fast_GET_ITEM(systems, j));
        if (system == NULL) {
            goto fail;
        }
        PyList_SET_ITEM(fast, j, system);
        if (PySequence_Fast_GET_SIZE(system) != n) {
            PyErr_SetString(PyExc_ValueError, "as many hypotheses as segments of references are needed");
            goto fail;
        }
        if (rows) {
            char *unused;
            PyObject *list = rows == ROWS_MATRIX ? int64_matrix(n, width, &unused) : PyList_New(n);
            if (list == NULL) {
                goto fail;
            }
            PyList_SET_ITEM(result, j, list);
        }
    }
    if (!rows && (sums = PyMem_Calloc((size_t)(n_sys * width) + 1, sizeof(int64_t))) == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    /* kept[j]: the length of system j's hypothesis of the segment (-1: not an exact str) and its
       row. Systems often agree on a segment (three hypotheses in ten across 8 WMT22 en-de systems),
       and an equal str has the same row: it is read and matched once. */
    if (n_sys > 1 && ((size_t)n_sys > (size_t)PY_SSIZE_T_MAX / sizeof(int64_t) / (size_t)(width + 1)
                      || (kept = PyMem_Malloc((size_t)n_sys * (size_t)(width + 1) * sizeof(int64_t))) == NULL)) {
        PyErr_NoMemory();
        goto fail;
    }
    if ((w = chrf_acquire(module, &own)) == NULL) {
        goto fail;
    }
    for (i = 0; i < n; i++) {
        if (chrf_shared_references(w, PySequence_Fast_GET_ITEM(refs, i), &s, i + 1) < 0) {
            goto fail;
        }
        for (j = 0; j < n_sys; j++) {
            const int64_t *best = NULL;
            PyObject *hyp = PySequence_Fast_GET_ITEM(PyList_GET_ITEM(fast, j), i);
            int64_t *mine = kept == NULL ? NULL : kept + j * (width + 1);
            if (mine != NULL) {
                Py_ssize_t k;
                mine[0] = -1;
                if (PyUnicode_CheckExact(hyp)) {
#if PY_VERSION_HEX < 0x030C0000
                    if (PyUnicode_READY(hyp) < 0) {
                        goto fail;
                    }
#endif
                    mine[0] = PyUnicode_GET_LENGTH(hyp);
                }
                for (k = 0; k < j && mine[0] >= 0; k++) {
                    const int64_t *theirs = kept + k * (width + 1);
                    if (theirs[0] == mine[0]
                        && same_text(PySequence_Fast_GET_ITEM(PyList_GET_ITEM(fast, k), i), hyp)) {
                        best = theirs + 1;
                        break;
                    }
                }
            }
            if (best == NULL && chrf_hypothesis(w, hyp, &s, i + 1, &best) < 0) {
                goto fail;
            }
            if (mine != NULL) {
                memcpy(mine + 1, best, (size_t)width * sizeof(int64_t));
            }
            if (rows == ROWS_MATRIX) {
                memcpy(PyBytes_AS_STRING(PyList_GET_ITEM(result, j)) + (size_t)i * (size_t)width * sizeof(int64_t),
                       best, (size_t)width * sizeof(int64_t));
            }
            else if (rows) {
                PyObject *row = int64_list(best, width);
                if (row == NULL) {
                    goto fail;
                }
                PyList_SET_ITEM(PyList_GET_ITEM(result, j), i, row);
            }
            else {
                for (c = 0; c < width; c++) {
                    sums[j * width + c] += best[c];
                }
            }
        }
    }
    if (!rows) {
        for (j = 0; j < n_sys; j++) {
            PyObject *total = int64_list(sums + j * width, width);
            if (total == NULL) {
                goto fail;
            }
            PyList_SET_ITEM(result, j, total);
        }
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    if (w != NULL) {
        chrf_release(module, w);
    }
    PyMem_Free(sums);
    PyMem_Free(kept);
    Py_XDECREF(fast);
    Py_XDECREF(refs);
    Py_DECREF(systems);
    return result;
}

/* The set-up of the entry points whose hypotheses share references (chrf_sentences,
   chrf_pairwise, chrf_aggregate): nargs is 3 (or `extra`, when not 0), the settings (args[2])
   read, the hypotheses (args[0]) as a fast sequence into *hyps, the work acquired into *w and the
   references (args[1]) read into it. With `single`, one str as hypotheses is accepted and left
   to the caller (*hyps NULL, no references read). 0, or -1 with an exception set and nothing held. */
static int
chrf_begin(PyObject *module, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t extra, const char *usage,
           int single, ChrfSettings *s, ChrfWork *own, ChrfWork **w, PyObject **hyps)
{
    *w = NULL;
    *hyps = NULL;
    if (nargs != 3 && (extra == 0 || nargs != extra)) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (chrf_read_settings(args[2], s) < 0) {
        return -1;
    }
    if (PyUnicode_Check(args[0])) {
        if (!single) {
            PyErr_SetString(PyExc_TypeError, "hypotheses must be a sequence of str, not a str");
            return -1;
        }
    }
    else if ((*hyps = PySequence_Fast(args[0], "hypotheses must be a sequence of str")) == NULL) {
        return -1;
    }
    if ((*w = chrf_acquire(module, own)) == NULL) {
        Py_CLEAR(*hyps);
        return -1;
    }
    if (*hyps != NULL && chrf_shared_references(*w, args[1], s, 0) < 0) {
        chrf_release(module, *w);
        *w = NULL;
        Py_CLEAR(*hyps);
        return -1;
    }
    return 0;
}

/* chrf_sentences(hypotheses, references, settings[, cls, fields]) -> for each hypothesis its
   sentence chrF against all the references (float, or an instance of cls with the fields and
   the score); hypotheses may be one str, then the result is one value. */
static PyObject *
chrf_sentences(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ChrfSettings s;
    ChrfWork own, *w = NULL;
    PyObject *hyps = NULL, *result = NULL, *cls = NULL, *fields = NULL;
    Py_ssize_t n, i;
    if (chrf_begin(module, args, nargs, 5, "chrf_sentences(hypotheses, references, settings[, cls, fields])", 1,
                   &s, &own, &w, &hyps) < 0) {
        return NULL;
    }
    if (nargs == 5) {
        cls = args[3];
        fields = args[4];
    }
    if (hyps == NULL) {  /* one sentence: nothing is kept for a next hypothesis */
        const int64_t *best;
        if (chrf_single(w, args[0], args[1], &s, 1, &best) == 0) {
            double score = chrf_f(best, s.order, &s);
            result = cls != NULL ? chrf_score_object(module, cls, fields, score) : PyFloat_FromDouble(score);
        }
        goto done;
    }
    n = PySequence_Fast_GET_SIZE(hyps);
    if ((result = PyList_New(n)) == NULL) {
        goto done;
    }
    for (i = 0; i < n; i++) {
        const int64_t *best;
        double score;
        PyObject *value;
        if (chrf_hypothesis(w, PySequence_Fast_GET_ITEM(hyps, i), &s, i + 1, &best) < 0) {
            Py_CLEAR(result);
            goto done;
        }
        score = chrf_f(best, s.order, &s);
        value = cls != NULL ? chrf_score_object(module, cls, fields, score) : PyFloat_FromDouble(score);
        if (value == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, value);
    }
done:
    chrf_release(module, w);
    Py_XDECREF(hyps);
    return result;
}

/* chrf_pairwise(hypotheses, references, settings) -> [i][j]: chrF of hypothesis i against
   reference j alone (each reference's profiles made once, each hypothesis read once). */
static PyObject *
chrf_pairwise(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ChrfSettings s;
    ChrfWork own, *w = NULL;
    PyObject *hyps = NULL, *result = NULL;
    Py_ssize_t n, i, k, width;
    if (chrf_begin(module, args, nargs, 0, "chrf_pairwise(hypotheses, references, settings)", 0,
                   &s, &own, &w, &hyps) < 0) {
        return NULL;
    }
    width = 3 * s.order;
    n = PySequence_Fast_GET_SIZE(hyps);
    if ((result = PyList_New(n)) == NULL) {
        goto done;
    }
    for (i = 0; i < n; i++) {
        const int64_t *best;
        PyObject *row;
        if (chrf_hypothesis(w, PySequence_Fast_GET_ITEM(hyps, i), &s, i + 1, &best) < 0
            || (row = PyList_New(w->n_refs)) == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, row);
        for (k = 0; k < w->n_refs; k++) {  /* each reference alone: its own row, no choice */
            PyObject *value = PyFloat_FromDouble(chrf_f(w->stats + k * width, s.order, &s));
            if (value == NULL) {
                Py_CLEAR(result);
                goto done;
            }
            PyList_SET_ITEM(row, k, value);
        }
    }
done:
    chrf_release(module, w);
    Py_DECREF(hyps);
    return result;
}

/* chrf_aggregate(hypotheses, references, settings) -> chrF of each hypothesis against the
   average of the references (bleucli.metrics.pairwise.aggregate_chrf_scores): with R
   references, hypothesis counts times R against the summed reference counts. */
static PyObject *
chrf_aggregate(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ChrfSettings s;
    ChrfWork own, *w = NULL;
    PyObject *hyps = NULL, *result = NULL;
    Py_ssize_t n, i, k, n_refs;
    int64_t *ref_totals = NULL, *row = NULL;
    if (chrf_begin(module, args, nargs, 0, "chrf_aggregate(hypotheses, references, settings)", 0,
                   &s, &own, &w, &hyps) < 0) {
        return NULL;
    }
    n_refs = w->n_refs;
    ref_totals = PyMem_Calloc((size_t)s.order + 1, sizeof(int64_t));
    row = PyMem_Calloc((size_t)s.order * 3 + 1, sizeof(int64_t));
    if (ref_totals == NULL || row == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* the summed reference counts (an int32_t holds them: at most the references' tokens) */
    for (k = 0; k < n_refs; k++) {
        const ChrfRef *ref = &w->refs[k];
        Py_ssize_t o;
        for (o = 0; o < s.order; o++) {
            Py_ssize_t at = ref->first + o, length = o < s.char_order ? ref->n_chars : ref->n_words;
            Py_ssize_t order = o < s.char_order ? o + 1 : o - s.char_order + 1;
            const int32_t *pair = w->pairs + w->offsets[at], *end = w->pairs + w->offsets[at + 1];
            for (; pair < end; pair += 2) {
                w->aggregate[pair[0]] += pair[1];
            }
            if (length >= order) {
                ref_totals[o] += length - order + 1;
            }
        }
    }
    n = PySequence_Fast_GET_SIZE(hyps);
    if ((result = PyList_New(n)) == NULL) {
        goto done;
    }
    for (i = 0; i < n; i++) {
        PyObject *value;
        Py_ssize_t kind;
        if (chrf_read_line(w, PySequence_Fast_GET_ITEM(hyps, i), &s, "hypothesis", i + 1) < 0) {
            Py_CLEAR(result);
            goto done;
        }
        for (kind = 0; kind < 2; kind++) {
            Py_ssize_t order = kind == 0 ? s.char_order : s.word_order, base = kind == 0 ? 0 : s.char_order;
            Py_ssize_t length = kind == 0 ? w->n_chars : w->n_words, o, j;
            if (order == 0) {
                continue;
            }
            if (kind == 0) {
                chrf_token_ids(w, 0, 0, w->uni);
            }
            else if (chrf_token_ids(w, 1, 0, w->uni) < 0) {
                Py_CLEAR(result);
                goto done;
            }
            memcpy(w->ids, w->uni, (size_t)length * sizeof(int32_t));
            for (o = 0; o < order; o++) {
                Py_ssize_t n_order = o + 1, stop = length - o, distinct = 0, t;
                int64_t matched = 0;
                int64_t *out = row + 3 * (base + o);
                if (ref_totals[base + o] == 0) {
                    out[0] = out[1] = out[2] = 0;
                    continue;
                }
                if (n_order > 1) {
                    for (j = 0; j < stop; j++) {
                        int32_t last = w->uni[j + n_order - 1];
                        w->ids[j] = w->ids[j] < 0 || last < 0 ? -1
                            : chrf_lookup(&w->table, ((uint64_t)(uint32_t)w->ids[j] << 32) | (uint32_t)last);
                    }
                }
                for (j = 0; j < stop; j++) {
                    int32_t id = w->ids[j];
                    if (id >= 0 && w->counts[id]++ == 0) {
                        w->touched[distinct++] = id;
                    }
                }
                for (t = 0; t < distinct; t++) {
                    int32_t id = w->touched[t];
                    int64_t have = (int64_t)n_refs * w->counts[id], summed = w->aggregate[id];
                    matched += have < summed ? have : summed;
                    w->counts[id] = 0;
                }
                out[0] = (int64_t)n_refs * (stop > 0 ? stop : 0);
                out[1] = ref_totals[base + o];
                out[2] = matched;
            }
        }
        value = PyFloat_FromDouble(chrf_f(row, s.order, &s));
        if (value == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, value);
    }
done:
    PyMem_Free(ref_totals);
    PyMem_Free(row);
    chrf_release(module, w);
    Py_DECREF(hyps);
    return result;
}

#define CHRF_METHODS \
    {"chrf_statistics", (PyCFunction)(void (*)(void))chrf_statistics, METH_FASTCALL, \
     "chrf_statistics(hypotheses, references, settings, rows) -> chrF's statistics rows of each\n" \
     "hypothesis against its segment's references (a sequence of str each), or with rows false their\n" \
     "column sums. settings: (char_order, word_order, float(beta ** 2), float(1 + beta ** 2), lowercase,\n" \
     "whitespace, eps_smoothing)."}, \
    {"chrf_systems", (PyCFunction)(void (*)(void))chrf_systems, METH_FASTCALL, \
     "chrf_systems(systems, references, settings, rows) -> per system, chrf_statistics(system,\n" \
     "references, settings, rows): each segment's references read once for all the systems."}, \
    {"chrf_sentences", (PyCFunction)(void (*)(void))chrf_sentences, METH_FASTCALL, \
     "chrf_sentences(hypotheses, references, settings[, cls, fields]) -> the sentence chrF of each\n" \
     "hypothesis against the same references (floats, or instances of cls whose __dict__ is fields\n" \
     "with the score); one str as hypotheses gives one value."}, \
    {"chrf_pairwise", (PyCFunction)(void (*)(void))chrf_pairwise, METH_FASTCALL, \
     "chrf_pairwise(hypotheses, references, settings) -> [i][j]: chrF of hypothesis i against\n" \
     "reference j alone."}, \
    {"chrf_aggregate", (PyCFunction)(void (*)(void))chrf_aggregate, METH_FASTCALL, \
     "chrf_aggregate(hypotheses, references, settings) -> chrF of each hypothesis against the\n" \
     "average of the references (reference aggregation)."},
