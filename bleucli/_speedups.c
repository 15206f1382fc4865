/*
 * Clipped n-gram matches in C: the one loop BLEU and chrF spend most of their time in.
 *
 * ngram_matches(hypothesis, references, max_order) returns, for n = 1..max_order,
 * the sum over the hypothesis' n-grams of min(count in the hypothesis, max count
 * in any reference). A sequence is either a str (its characters are the tokens:
 * chrF and the char tokenizer) or a list of str (words). References(references)
 * keeps the references' tables for many hypotheses: .matches(hypothesis, max_order)
 * gives the same list. The pure-Python matchers in bleucli/metrics compute the same
 * numbers and are used when this module is not built; the tests compare the two on
 * real and random data.
 *
 * Why it is fast: no n-gram is ever built as an object. Tokens get small integer
 * ids (reference tokens first, so a hypothesis token the references lack gets
 * none and can never match), and an n-gram of order n+1 gets the id of the pair
 * (id of its first n tokens, id of its last token), interned in a table of
 * 64-bit keys that is rebuilt for each order. Counting is then indexing arrays.
 * A hypothesis n-gram whose prefix has no id has none either, and once no
 * hypothesis n-gram of an order matches, no longer one can.
 *
 * Limits. Token ids, n-gram ids, table entries and counts are int32_t. None of them
 * exceeds the number of tokens it comes from (a reference position adds at most one id
 * per order, a count counts positions), so sizes are checked once, as Py_ssize_t, before
 * anything is narrowed or allocated; input beyond a limit is an error, never a wrapped id:
 *   - MAX_TOKENS = INT32_MAX (2147483647) on 64-bit platforms: the most tokens of a
 *     hypothesis, of a reference, and of one segment's references together. More is
 *     an OverflowError. Where size_t is 32-bit it is PY_SSIZE_T_MAX / 128 - 1 (16777214)
 *     instead, so that no allocation size (under 128 bytes a token) can wrap.
 *   - MAX_ORDER = MAX_TOKENS: the largest max_order (no n-gram is longer than the longest
 *     sequence taken). A larger one, even one beyond Py_ssize_t, is an OverflowError; a
 *     negative one a ValueError.
 *   - The number of references is never narrowed (it stays a Py_ssize_t): no limit.
 * Both limits are module attributes (MAX_TOKENS, MAX_ORDER). Real segments are millions
 * of times shorter.
 *
 * Interpreters. Multi-phase initialisation (PEP 489) and no state in C globals (the
 * statics are constant tables): each module object, in each interpreter, has its own
 * heap type References, held in the module state. So the module can be imported in
 * sub-interpreters, including those with their own GIL (declared for Python 3.12+). It
 * does need the GIL, and says so to free-threaded builds: see module_slots.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Python 3.10's headers lack it: there, inline is only a hint */
#ifndef Py_ALWAYS_INLINE
#define Py_ALWAYS_INLINE
#endif

#define EMPTY_KEY UINT64_MAX

/* Every allocation here takes under this many bytes a token (the largest, a word table of
   capacity < 4 * (tokens + 1), takes 20 bytes a slot on 64-bit platforms: 80 a token). */
#define ALLOCATION_BYTES_PER_TOKEN 128

/* The most tokens of a sequence, or of one segment's references together: ids, entries and
   counts are int32_t (each at most the number of tokens), and no allocation size may wrap.
   BLEUCLI_MAX_TOKENS lowers it at build time (-DBLEUCLI_MAX_TOKENS=20): only for the tests,
   which so reach every check with small input. */
#ifndef BLEUCLI_MAX_TOKENS
#define BLEUCLI_MAX_TOKENS INT32_MAX
#endif
#define MAX_TOKENS ((Py_ssize_t)Py_MIN((size_t)BLEUCLI_MAX_TOKENS, \
                                       (size_t)PY_SSIZE_T_MAX / ALLOCATION_BYTES_PER_TOKEN - 1))

/* The largest max_order: no n-gram is longer than MAX_TOKENS tokens (and order arithmetic,
   order + 1 or length - order + 1, stays far from overflowing a Py_ssize_t). */
#define MAX_ORDER MAX_TOKENS

/* 0 if `more` tokens fit beside `already` within MAX_TOKENS, else -1 with OverflowError.
   `what` names what is counted, for the message. */
static int
check_tokens(Py_ssize_t already, Py_ssize_t more, const char *what)
{
    if (more > MAX_TOKENS - already) {
        PyErr_Format(PyExc_OverflowError, "%s: more than the %zd tokens the compiled matcher takes "
                     "(its ids and counts are 32-bit)", what, MAX_TOKENS);
        return -1;
    }
    return 0;
}

/* Slots for an open-addressing table of `entries` keys: a power of two, at most half full. */
static int
table_bits(size_t entries)
{
    int bits = 4;
    while (((size_t)1 << bits) < 2 * entries + 2) {
        bits++;
    }
    return bits;
}

/* Open-addressing table from 64-bit keys to dense ids 0, 1, 2, ... It has room for
   `entries` keys, and `best` holds one count per id: all three in one allocation. Every
   table is made for a segment's reference tokens (entries = total_ref <= MAX_TOKENS), so
   count and every id and count in it fit an int32_t, and keys (id << 32 | id, or a code
   point) never equal EMPTY_KEY. */
typedef struct {
    uint64_t *keys;
    int32_t *ids;
    int32_t *best;
    size_t mask;
    int shift;
    int32_t count;
    int32_t n_best;  /* how many ids best counts */
} IdTable;

/* t over keys and ids of 1 << bits slots and the counts best, not cleared: an allocation of its own
   (table_init) or buffers kept between calls (count_matches, shared_build). */
static inline void
table_over(IdTable *t, uint64_t *keys, int32_t *ids, int32_t *best, int bits)
{
    t->keys = keys;
    t->ids = ids;
    t->best = best;
    t->mask = ((size_t)1 << bits) - 1;
    t->shift = 64 - bits;
}

/* Every key forgotten. */
static inline void
table_clear(IdTable *t)
{
    memset(t->keys, 0xff, (t->mask + 1) * sizeof(uint64_t));
    t->count = 0;
}

static int
table_init(IdTable *t, size_t entries)
{
    int bits = table_bits(entries);
    size_t capacity = (size_t)1 << bits;
    uint64_t *keys = PyMem_Malloc(capacity * sizeof(uint64_t) + (capacity + entries + 1) * sizeof(int32_t));
    if (keys == NULL) {
        t->keys = NULL;
        return -1;
    }
    table_over(t, keys, (int32_t *)(keys + capacity), (int32_t *)(keys + capacity) + capacity, bits);
    table_clear(t);
    return 0;
}

static void
table_free(IdTable *t)
{
    PyMem_Free(t->keys);
}

static inline size_t
table_slot(const IdTable *t, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> t->shift);
}

/* The id of key; if it is not there, a new id when insert, else -1. (insert is a
   constant at every call, so the compiler drops the branch.) */
static inline int32_t
table_id(IdTable *t, uint64_t key, int insert)
{
    size_t i = table_slot(t, key);
    for (;;) {
        uint64_t k = t->keys[i];
        if (k == key) {
            return t->ids[i];
        }
        if (k == EMPTY_KEY) {
            if (!insert) {
                return -1;
            }
            t->keys[i] = key;
            return t->ids[i] = t->count++;
        }
        i = (i + 1) & t->mask;
    }
}

/* --- the steps of clipped n-gram counting, one function each: every matcher takes them (RefTables
   for References and ngram_matches, count_matches for bleu_statistics, SharedRefs for bleu_systems),
   each with its own buffers. References are n_refs runs of positions, reference k's at
   offsets[k]..offsets[k + 1]; ids[i] is the id of the n-gram of the current order starting at i,
   base[i] the id of token i. Always inlined: they are the hot loops of their callers. */

/* The references' n-grams of order `order` from those of order - 1 (in ids, overwritten): each
   extended by the token that follows it, interned in table. */
static inline Py_ALWAYS_INLINE void
extend_references(IdTable *table, int32_t *ids, const int32_t *base, const Py_ssize_t *offsets, Py_ssize_t n_refs,
                  Py_ssize_t order)
{
    Py_ssize_t k, i;
    for (k = 0; k < n_refs; k++) {
        Py_ssize_t stop = offsets[k + 1] - order + 1;
        for (i = offsets[k]; i < stop; i++) {
            ids[i] = table_id(table, ((uint64_t)(uint32_t)ids[i] << 32) | (uint32_t)base[i + order - 1], 1);
        }
    }
}

/* table->best[id] for the n_best ids of order `order` (ids: the references'): the most times one
   reference has n-gram id. own: a counter per id, all 0, left so (one reference's counts). */
static inline Py_ALWAYS_INLINE void
count_best(IdTable *table, int32_t *own, const int32_t *ids, const Py_ssize_t *offsets, Py_ssize_t n_refs,
           Py_ssize_t order, Py_ssize_t n_best)
{
    Py_ssize_t k, i;
    int32_t *best = table->best;
    table->n_best = (int32_t)n_best;  /* n_best <= total_ref <= MAX_TOKENS: checked where it was read */
    memset(best, 0, ((size_t)n_best + 1) * sizeof(int32_t));
    for (k = 0; k < n_refs; k++) {
        Py_ssize_t start = offsets[k], stop = offsets[k + 1] - order + 1;
        if (n_refs == 1) {
            for (i = start; i < stop; i++) {
                best[ids[i]]++;
            }
            break;
        }
        for (i = start; i < stop; i++) {
            own[ids[i]]++;
        }
        for (i = start; i < stop; i++) {
            int32_t id = ids[i];
            if (own[id] > best[id]) {
                best[id] = own[id];
            }
        }
        for (i = start; i < stop; i++) {
            own[ids[i]] = 0;
        }
    }
}

/* The hypothesis' `grams` n-grams of order `order` (order >= 2) from those of order - 1 (in ids,
   overwritten), looked up in table: an n-gram the references lack (or whose prefix or last token
   they lack) gets -1. */
static inline Py_ALWAYS_INLINE void
find_hypothesis(IdTable *table, int32_t *ids, const int32_t *base, Py_ssize_t grams, Py_ssize_t order)
{
    Py_ssize_t i;
    for (i = 0; i < grams; i++) {
        int32_t prefix = ids[i], last = base[i + order - 1];
        ids[i] = prefix < 0 || last < 0 ? -1
            : table_id(table, ((uint64_t)(uint32_t)prefix << 32) | (uint32_t)last, 0);
    }
}

/* The clipped matches of the hypothesis' `grams` n-gram ids against best: the j-th occurrence of an
   n-gram matches while j <= best[id] (seen counts the occurrences; the caller zeroes it, before or
   after, as suits its buffers; its counts stay <= grams <= MAX_TOKENS). *any: whether some n-gram
   is the references' at all (if none is, no longer one can be). */
static inline Py_ALWAYS_INLINE Py_ssize_t
clipped_matches(const int32_t *ids, Py_ssize_t grams, int32_t *seen, const int32_t *best, int *any)
{
    Py_ssize_t i, found = 0;
    int some = 0;
    for (i = 0; i < grams; i++) {
        int32_t id = ids[i];
        if (id >= 0) {
            some = 1;
            if (++seen[id] <= best[id]) {
                found++;
            }
        }
    }
    *any = some;
    return found;
}

/* Words: a table of str objects, compared by content, hashed with str's own hash. It
   holds a reference to each word, so a caller changing its token lists cannot free them.
   Made for a segment's reference tokens (at most MAX_TOKENS), so count fits an int32_t. */
typedef struct {
    PyObject **words;
    Py_hash_t *hashes;
    int32_t *ids;
    size_t mask;
    int32_t count;
} WordTable;

static int
words_init(WordTable *t, size_t entries)
{
    size_t capacity = (size_t)1 << table_bits(entries);
    t->words = PyMem_Calloc(capacity, sizeof(PyObject *));
    t->hashes = PyMem_Malloc(capacity * sizeof(Py_hash_t));
    t->ids = PyMem_Malloc(capacity * sizeof(int32_t));
    if (t->words == NULL || t->hashes == NULL || t->ids == NULL) {
        PyMem_Free(t->words);
        PyMem_Free(t->hashes);
        PyMem_Free(t->ids);
        return -1;
    }
    t->mask = capacity - 1;
    t->count = 0;
    return 0;
}

static void
words_free(WordTable *t)
{
    if (t->words != NULL) {
        size_t i;
        for (i = 0; i <= t->mask; i++) {
            Py_XDECREF(t->words[i]);
        }
    }
    PyMem_Free(t->words);
    PyMem_Free(t->hashes);
    PyMem_Free(t->ids);
}

static inline int
same_text(PyObject *a, PyObject *b)
{
    Py_ssize_t length;
    int kind;
    if (a == b) {
        return 1;
    }
    length = PyUnicode_GET_LENGTH(a);
    kind = PyUnicode_KIND(a);
    /* strings are stored in the narrowest kind that holds them, so equal text has equal kind */
    return length == PyUnicode_GET_LENGTH(b) && kind == PyUnicode_KIND(b)
        && memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)length * (size_t)kind) == 0;
}

/* The id of word; a new one if insert, else -1 when absent. -2 on error. */
static int32_t
words_id(WordTable *t, PyObject *word, int insert)
{
    Py_hash_t hash;
    size_t i;
    if (!PyUnicode_Check(word)) {
        PyErr_Format(PyExc_TypeError, "tokens must be str, not %.100s", Py_TYPE(word)->tp_name);
        return -2;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(word) < 0) {
        return -2;
    }
#endif
    /* str's own hash (cached in the object), even for subclasses: equal text, equal hash */
    hash = PyUnicode_Type.tp_hash(word);
    if (hash == -1 && PyErr_Occurred()) {
        return -2;
    }
    i = (size_t)hash & t->mask;
    for (;;) {
        PyObject *w = t->words[i];
        if (w == NULL) {
            if (!insert) {
                return -1;
            }
            Py_INCREF(word);
            t->words[i] = word;
            t->hashes[i] = hash;
            return t->ids[i] = t->count++;
        }
        if (t->hashes[i] == hash && same_text(w, word)) {
            return t->ids[i];
        }
        i = (i + 1) & t->mask;
    }
}

/* One sequence: a str or a list of str, read without copying. */
typedef struct {
    PyObject *object;
    Py_ssize_t length;
    int is_text;
    int kind;
    const void *data;
} Sequence;

static int
sequence_open(Sequence *s, PyObject *object)
{
    s->object = object;
    if (PyUnicode_Check(object)) {
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(object) < 0) {
            return -1;
        }
#endif
        s->is_text = 1;
        s->length = PyUnicode_GET_LENGTH(object);
        s->kind = PyUnicode_KIND(object);
        s->data = PyUnicode_DATA(object);
        return check_tokens(0, s->length, "a sequence");
    }
    if (PyList_Check(object)) {
        s->is_text = 0;
        s->length = PyList_GET_SIZE(object);
        return check_tokens(0, s->length, "a sequence");
    }
    PyErr_Format(PyExc_TypeError, "a sequence must be a str or a list of str, not %.100s",
                 Py_TYPE(object)->tp_name);
    return -1;
}

/* A segment's references as n-gram id tables, built order by order as hypotheses need them.

   tables[n - 1] gives the id of an order-n n-gram from the key (id of its first n - 1
   tokens, id of its last token); for words, order 1 is the word table instead (tables[0]
   then only holds the counts). tables[n - 1].best[id] is the most times one reference has
   that n-gram. ref_ids holds, per reference position, the id of the n-gram of order `built`
   starting there, from which the next order is built. Tables used once (single_use) keep
   only the current order, in tables[0]: one small table reused stays in the cache. */
typedef struct {
    int is_text;
    int single_use;
    Py_ssize_t n_refs, total_ref, built, room, n_tables;
    Py_ssize_t *offsets;
    int32_t *ref_base, *ref_ids, *own, *seen;
    IdTable *tables;
    WordTable words;
} RefTables;

static void
reftables_free(RefTables *r)
{
    Py_ssize_t n;
    if (r->tables != NULL) {
        for (n = 0; n < r->n_tables; n++) {
            table_free(&r->tables[n]);
        }
    }
    words_free(&r->words);
    PyMem_Free(r->tables);
    PyMem_Free(r->offsets);
    PyMem_Free(r->ref_base);
    memset(r, 0, sizeof(RefTables));
}

static inline IdTable *
order_table(RefTables *r, Py_ssize_t order)
{
    return &r->tables[r->single_use ? 0 : order - 1];
}

/* Order built + 1: each n-gram of order `built` extended by the token that follows it. */
static int
reftables_extend(RefTables *r)
{
    Py_ssize_t order = r->built;
    IdTable *table;
    if (r->single_use) {
        table = &r->tables[0];
        table_clear(table);
    }
    else {
        if (r->n_tables == r->room) {
            Py_ssize_t room = r->room * 2 + 4;
            IdTable *tables = PyMem_Realloc(r->tables, (size_t)room * sizeof(IdTable));
            if (tables == NULL) {
                return -1;
            }
            r->tables = tables;
            r->room = room;
        }
        table = &r->tables[order];
        if (table_init(table, (size_t)r->total_ref) < 0) {
            return -1;
        }
        r->n_tables++;  /* from here on reftables_free owns the table */
    }
    r->built++;
    extend_references(table, r->ref_ids, r->ref_base, r->offsets, r->n_refs, order + 1);
    count_best(table, r->own, r->ref_ids, r->offsets, r->n_refs, order + 1, table->count);
    return 0;
}

/* Order 1 of the references (a sequence of str, or of lists of str). -1 with an exception set. */
static int
reftables_init(RefTables *r, PyObject *references, int single_use)
{
    PyObject *fast;
    Py_ssize_t k, i, ids;
    memset(r, 0, sizeof(RefTables));
    r->single_use = single_use;
    if (PyUnicode_Check(references)) {  /* a str is a sequence, of one-character references */
        PyErr_SetString(PyExc_TypeError, "references must be a sequence of references, not a str");
        return -1;
    }
    fast = PySequence_Fast(references, "references must be a sequence");
    if (fast == NULL) {
        return -1;
    }
    r->n_refs = PySequence_Fast_GET_SIZE(fast);
    r->offsets = PyMem_Calloc((size_t)r->n_refs + 1, sizeof(Py_ssize_t));
    if (r->offsets == NULL) {
        goto no_memory;
    }
    r->is_text = -1;
    for (k = 0; k < r->n_refs; k++) {
        Sequence ref;
        if (sequence_open(&ref, PySequence_Fast_GET_ITEM(fast, k)) < 0) {
            goto error;
        }
        if (r->is_text >= 0 && ref.is_text != r->is_text) {
            PyErr_SetString(PyExc_TypeError, "references must all be str or all be lists of str");
            goto error;
        }
        r->is_text = ref.is_text;
        r->offsets[k] = r->total_ref;
        if (check_tokens(r->total_ref, ref.length, "one segment's references together") < 0) {
            goto error;
        }
        r->total_ref += ref.length;
    }
    r->offsets[r->n_refs] = r->total_ref;
    /* ref_base, ref_ids, own, seen: one block */
    r->ref_base = PyMem_Calloc((size_t)r->total_ref * 4 + 4, sizeof(int32_t));
    if (r->ref_base == NULL) {
        goto no_memory;
    }
    r->ref_ids = r->ref_base + r->total_ref + 1;
    r->own = r->ref_ids + r->total_ref + 1;
    r->seen = r->own + r->total_ref + 1;
    r->room = 6;
    r->tables = PyMem_Calloc((size_t)r->room, sizeof(IdTable));
    if (r->tables == NULL) {
        goto no_memory;
    }
    if (r->is_text == 0) {
        if (words_init(&r->words, (size_t)r->total_ref) < 0) {
            goto no_memory;
        }
        for (k = 0; k < r->n_refs; k++) {
            PyObject *list = PySequence_Fast_GET_ITEM(fast, k);
            Py_ssize_t length = r->offsets[k + 1] - r->offsets[k];
            if (PyList_GET_SIZE(list) != length) {  /* no Python code ran since it was measured; never read past it */
                PyErr_SetString(PyExc_RuntimeError, "a reference changed while it was read");
                goto error;
            }
            for (i = 0; i < length; i++) {
                int32_t id = words_id(&r->words, PyList_GET_ITEM(list, i), 1);
                if (id < 0) {
                    goto error;
                }
                r->ref_base[r->offsets[k] + i] = id;
            }
        }
        ids = r->words.count;
        if (table_init(&r->tables[0], (size_t)r->total_ref) < 0) {  /* for the counts only */
            goto no_memory;
        }
    }
    else {
        if (table_init(&r->tables[0], (size_t)r->total_ref) < 0) {
            goto no_memory;
        }
        for (k = 0; k < r->n_refs; k++) {
            Sequence ref;
            sequence_open(&ref, PySequence_Fast_GET_ITEM(fast, k));
            for (i = 0; i < ref.length; i++) {
                r->ref_base[r->offsets[k] + i] = table_id(&r->tables[0], PyUnicode_READ(ref.kind, ref.data, i), 1);
            }
        }
        ids = r->tables[0].count;
    }
    r->n_tables = r->built = 1;
    memcpy(r->ref_ids, r->ref_base, (size_t)r->total_ref * sizeof(int32_t));
    count_best(&r->tables[0], r->own, r->ref_ids, r->offsets, r->n_refs, 1, ids);
    Py_DECREF(fast);
    return 0;

no_memory:
    PyErr_NoMemory();
error:
    Py_DECREF(fast);
    reftables_free(r);
    return -1;
}

/* max_order (an int) as a Py_ssize_t in 0..MAX_ORDER; else -1 with TypeError (not an
   int), ValueError (negative) or OverflowError (beyond MAX_ORDER, even beyond Py_ssize_t). */
static Py_ssize_t
read_order(PyObject *object)
{
    Py_ssize_t order = PyLong_AsSsize_t(object);
    if (order == -1 && PyErr_Occurred()) {
        PyObject *zero;
        int negative;
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return -1;
        }
        PyErr_Clear();  /* beyond a Py_ssize_t: its sign decides which error */
        zero = PyLong_FromLong(0);
        if (zero == NULL) {
            return -1;
        }
        negative = PyObject_RichCompareBool(object, zero, Py_LT);
        Py_DECREF(zero);
        if (negative < 0) {
            return -1;
        }
        order = negative ? -1 : PY_SSIZE_T_MAX;
    }
    if (order < 0) {
        PyErr_SetString(PyExc_ValueError, "max_order must be >= 0");
        return -1;
    }
    if (order > MAX_ORDER) {
        PyErr_Format(PyExc_OverflowError, "max_order must be at most %zd (the most tokens the compiled "
                     "matcher takes)", MAX_ORDER);
        return -1;
    }
    return order;
}

/* matches[n - 1] for n = 1..max_order: the clipped matches of hypothesis against r. */
static PyObject *
reftables_match(RefTables *r, PyObject *hypothesis, PyObject *order_object)
{
    Sequence hyp;
    Py_ssize_t max_order = read_order(order_object), order, i, *matches;
    int32_t *hyp_base = NULL, *hyp_ids;
    PyObject *result = NULL;

    if (max_order < 0) {
        return NULL;
    }
    if (sequence_open(&hyp, hypothesis) < 0) {
        return NULL;
    }
    if (r->n_refs > 0 && hyp.is_text != r->is_text) {
        PyErr_SetString(PyExc_TypeError, "hypothesis and references must be of one kind (str or list of str)");
        return NULL;
    }
    matches = PyMem_Calloc((size_t)max_order + 1, sizeof(Py_ssize_t));
    hyp_base = PyMem_Malloc(((size_t)hyp.length * 2 + 2) * sizeof(int32_t));
    if (matches == NULL || hyp_base == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    hyp_ids = hyp_base + hyp.length + 1;
    if (r->total_ref == 0) {  /* nothing to match (and no table to look in when there is no reference) */
        goto build;
    }
    for (i = 0; i < hyp.length; i++) {
        int32_t id;
        if (hyp.is_text) {
            id = table_id(&r->tables[0], PyUnicode_READ(hyp.kind, hyp.data, i), 0);
        }
        else if ((id = words_id(&r->words, PyList_GET_ITEM(hyp.object, i), 0)) == -2) {
            goto done;
        }
        hyp_base[i] = hyp_ids[i] = id;
    }
    for (order = 1; order <= max_order; order++) {
        Py_ssize_t hyp_grams = hyp.length - order + 1;
        IdTable *table;
        int any;
        if (hyp_grams <= 0) {
            break;
        }
        while (r->built < order) {
            if (reftables_extend(r) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        }
        table = order_table(r, order);
        if (order > 1) {
            find_hypothesis(table, hyp_ids, hyp_base, hyp_grams, order);
        }
        memset(r->seen, 0, (size_t)table->n_best * sizeof(int32_t));
        matches[order] = clipped_matches(hyp_ids, hyp_grams, r->seen, table->best, &any);
        if (!any) {
            break;
        }
    }
build:
    result = PyList_New(max_order);
    if (result != NULL) {
        for (order = 1; order <= max_order; order++) {
            PyObject *value = PyLong_FromSsize_t(matches[order]);
            if (value == NULL) {
                Py_CLEAR(result);
                break;
            }
            PyList_SET_ITEM(result, order - 1, value);
        }
    }
done:
    PyMem_Free(matches);
    PyMem_Free(hyp_base);
    return result;
}

/* 0 when every token of a list or tuple of tokens is exactly a str (a str's characters
   always are); else -1 with TypeError. NLTK compares tokens with their own __eq__ and
   __hash__, which a str subclass may redefine: its callers then count in Python. */
static int
exact_str_tokens(PyObject *sequence)
{
    Py_ssize_t i, n;
    PyObject **items;
    if (PyUnicode_Check(sequence)) {
        return 0;
    }
    if (PyList_Check(sequence)) {
        n = PyList_GET_SIZE(sequence);
        items = ((PyListObject *)sequence)->ob_item;
    }
    else if (PyTuple_Check(sequence)) {
        n = PyTuple_GET_SIZE(sequence);
        items = ((PyTupleObject *)sequence)->ob_item;
    }
    else {
        PyErr_Format(PyExc_TypeError, "a sequence must be a str or a list of str, not %.100s",
                     Py_TYPE(sequence)->tp_name);
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (!PyUnicode_CheckExact(items[i])) {
            PyErr_Format(PyExc_TypeError, "tokens must be exactly str here, not %.100s", Py_TYPE(items[i])->tp_name);
            return -1;
        }
    }
    return 0;
}

static PyObject *
ngram_matches(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    RefTables tables;
    PyObject *result;
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "ngram_matches(hypothesis, references, max_order[, exact_str])");
        return NULL;
    }
    if (nargs == 4) {
        int exact = PyObject_IsTrue(args[3]);
        if (exact < 0) {
            return NULL;
        }
        if (exact) {
            PyObject *fast;
            Py_ssize_t k;
            if (PyUnicode_Check(args[1])) {
                PyErr_SetString(PyExc_TypeError, "references must be a sequence of references, not a str");
                return NULL;
            }
            if (exact_str_tokens(args[0]) < 0) {
                return NULL;
            }
            fast = PySequence_Fast(args[1], "references must be a sequence");
            if (fast == NULL) {
                return NULL;
            }
            for (k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
                if (exact_str_tokens(PySequence_Fast_GET_ITEM(fast, k)) < 0) {
                    Py_DECREF(fast);
                    return NULL;
                }
            }
            Py_DECREF(fast);
        }
    }
    if (reftables_init(&tables, args[1], 1) < 0) {
        return NULL;
    }
    result = reftables_match(&tables, args[0], args[2]);
    reftables_free(&tables);
    return result;
}

/* References: RefTables kept for reuse by many hypotheses (several systems, MBR). The
   references themselves are kept too, as a tuple, so that the object pickles (-j workers
   started by spawn receive the metric, and a metric may hold its references' tables). */
typedef struct {
    PyObject_HEAD
    RefTables tables;
    PyObject *sequences;
    PyObject *lengths;
} ReferencesObject;

static int
References_init(ReferencesObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *references, *fast;
    Py_ssize_t k, total = 0;
    static char *keywords[] = {"references", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:References", keywords, &references)) {
        return -1;
    }
    if (self->sequences != NULL) {
        PyErr_SetString(PyExc_TypeError, "References is initialised once");
        return -1;
    }
    if (PyUnicode_Check(references)) {
        PyErr_SetString(PyExc_TypeError, "references must be a sequence of references, not a str");
        return -1;
    }
    /* a new tuple of the references, with copies of token lists: what the caller does to
       its lists later changes neither the tables nor what pickles */
    fast = PySequence_Fast(references, "references must be a sequence");
    if (fast == NULL) {
        return -1;
    }
    /* counted before anything is copied: too many tokens fail at once, not after gigabytes */
    for (k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
        Sequence ref;
        if (sequence_open(&ref, PySequence_Fast_GET_ITEM(fast, k)) < 0
            || check_tokens(total, ref.length, "one segment's references together") < 0) {
            Py_DECREF(fast);
            return -1;
        }
        total += ref.length;
    }
    self->sequences = PyTuple_New(PySequence_Fast_GET_SIZE(fast));
    if (self->sequences == NULL) {
        Py_DECREF(fast);
        return -1;
    }
    for (k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
        if (PyList_Check(item)) {
            item = PyList_GetSlice(item, 0, PyList_GET_SIZE(item));
            if (item == NULL) {
                Py_DECREF(fast);
                return -1;
            }
        }
        else {
            Py_INCREF(item);
        }
        PyTuple_SET_ITEM(self->sequences, k, item);
    }
    Py_DECREF(fast);
    if (reftables_init(&self->tables, self->sequences, 0) < 0) {
        return -1;
    }
    self->lengths = PyTuple_New(self->tables.n_refs);
    if (self->lengths == NULL) {
        return -1;
    }
    for (k = 0; k < self->tables.n_refs; k++) {
        PyObject *length = PyLong_FromSsize_t(self->tables.offsets[k + 1] - self->tables.offsets[k]);
        if (length == NULL) {
            return -1;
        }
        PyTuple_SET_ITEM(self->lengths, k, length);
    }
    return 0;
}

static void
References_dealloc(ReferencesObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    reftables_free(&self->tables);
    Py_XDECREF(self->sequences);
    Py_XDECREF(self->lengths);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);  /* a heap type: each instance holds a reference to it */
}

static PyObject *
References_matches(ReferencesObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (self->lengths == NULL) {
        PyErr_SetString(PyExc_TypeError, "References was not initialised");
        return NULL;
    }
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "matches(hypothesis, max_order)");
        return NULL;
    }
    return reftables_match(&self->tables, args[0], args[1]);
}

static PyObject *
References_lengths(ReferencesObject *self, void *Py_UNUSED(closure))
{
    if (self->lengths == NULL) {
        PyErr_SetString(PyExc_TypeError, "References was not initialised");
        return NULL;
    }
    Py_INCREF(self->lengths);
    return self->lengths;
}

static PyObject *
References_reduce(ReferencesObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->lengths == NULL) {
        PyErr_SetString(PyExc_TypeError, "References was not initialised");
        return NULL;
    }
    return Py_BuildValue("O(O)", (PyObject *)Py_TYPE(self), self->sequences);
}

static PyMethodDef References_methods[] = {
    {"matches", (PyCFunction)(void (*)(void))References_matches, METH_FASTCALL,
     "matches(hypothesis, max_order) -> list of clipped matches, orders 1..max_order."},
    {"__reduce__", (PyCFunction)References_reduce, METH_NOARGS, "Pickle support: the references."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef References_getset[] = {
    {"lengths", (getter)References_lengths, NULL, "Each reference's number of tokens.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* A heap type, made by each module object from this spec (no type object is shared by
   interpreters). Not GC-tracked: an instance holds only str and lists of str (copies). */
static PyType_Slot References_slots[] = {
    {Py_tp_dealloc, (void *)References_dealloc},
    {Py_tp_doc, "References(references): one segment's references (str, or lists of str) prepared\n"
                "as n-gram tables, matched against any number of hypotheses."},
    {Py_tp_methods, References_methods},
    {Py_tp_getset, References_getset},
    {Py_tp_init, (void *)References_init},
    {Py_tp_new, (void *)PyType_GenericNew},
    {0, NULL},
};

static PyType_Spec References_spec = {
    .name = "bleucli._speedups.References",  /* pickle finds the class by this name */
    .basicsize = sizeof(ReferencesObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,  /* like the static type it was */
    .slots = References_slots,
};

/* ======================================================================================
 * Tokenization in C, and BLEU's whole per-segment path without Python token objects.
 *
 * tokens_13a(line) gives exactly the tokens of bleucli.tokenizers.tok_13a (sacreBLEU 2.6's
 * Tokenizer13a followed by str.split()); the Python tokenizer stays the reference and the
 * fallback, and the tests compare the two on every line of the test data and on random text.
 * bleu_statistics(...) tokenizes a chunk's hypotheses and references (13a, intl, zh, char or
 * none), gives tokens ids and counts clipped n-gram matches, all in C: no str is made for a
 * token. intl, zh and char are described at their functions (tokenize_intl, tokenize_zh,
 * tokenize_char); zh is 13a's rules below without the pre-pass and the padding.
 *
 * 13a as sacreBLEU runs it: remove "<skipped>", "-\n"; "\n" -> " "; if there is an "&",
 * replace &quot; &amp; &lt; &gt; (in that order, each one pass, as str.replace); pad the
 * line with a space on each side; then four regex substitutions, each a left-to-right
 * scan of non-overlapping two-character matches:
 *   1. ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> " \1 "   (an ASCII class: the table below)
 *   2. ([^0-9])([\.,]) -> "\1 \2 "
 *   3. ([\.,])([^0-9]) -> " \1 \2"
 *   4. ([0-9])(-) -> "\1 \2 "
 * and split on whitespace (str.split(): Py_UNICODE_ISSPACE). The slow path below runs
 * exactly that. The fast path, one pass that emits tokens directly, is taken when no
 * period or comma is followed by an ASCII digit and no ASCII digit is followed by a
 * period, comma or dash: then rules 2-4 split every period and comma off and nothing else,
 * as rule 1 does for its class (bleucli/tokenizers/_mteval.py proves the same shortcut).
 * ====================================================================================== */

/* ASCII classes for 13a's fast path */
#define CH_WORD 0
#define CH_SPACE 1
#define CH_SPLIT 2   /* rule 1's class (but space): always a token of its own */
#define CH_DIGIT 3
#define CH_DASH 4
#define CH_POINT 5   /* . or , : a token of its own unless a digit touches it */

static const unsigned char ascii_13a[128] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,
    1, 2, 2, 2, 2, 2, 2, 0, 2, 2, 2, 2, 5, 4, 5, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2,
    2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2,
    2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 0,
};

enum { TOKENIZE_NONE = 0, TOKENIZE_13A = 1, TOKENIZE_INTL = 2, TOKENIZE_CHAR = 3, TOKENIZE_ZH = 4 };

/* intl's classes of a code point, from the table that bleucli.tokenizers.tok_intl builds out of
   the `regex` module's Unicode data (the module sacreBLEU uses) and gives set_intl_classes. */
#define INTL_P 1  /* \p{P} */
#define INTL_S 2  /* \p{S} */
#define INTL_N 4  /* \p{N} */
#define INTL_CODE_POINTS 0x110000

/* zh's Chinese characters: one bit per code point (ZH_TABLE_BYTES bytes), set by set_zh_ranges from
   bleucli.tokenizers.tok_zh.CHINESE_RANGES (the ranges sacreBLEU's table really selects). */
#define ZH_TABLE_BYTES (0x110000 / 8)

static inline int
is_chinese(const unsigned char *table, Py_UCS4 c)
{
    return (table[c >> 3] >> (c & 7)) & 1;
}

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* The longest line tokenized: the slow path's buffers grow to 24 code points a character
   (rules 1-4 at most triple, double, double, double), which must not overflow a size. */
#define MAX_LINE ((Py_ssize_t)(PY_SSIZE_T_MAX / (24 * (Py_ssize_t)sizeof(Py_UCS4)) - 4))

/* Tokens of one segment, one after the other: token k is chars[starts[k] .. starts[k + 1]),
   with hash hashes[k]. Reused (grown, never shrunk) for every segment of a call. */
typedef struct {
    Py_UCS4 *chars;
    Py_ssize_t n_chars, cap_chars;
    Py_ssize_t *starts;
    uint64_t *hashes;
    Py_ssize_t n_tokens, cap_tokens;
    Py_UCS4 *work[2];       /* the slow path's two buffers */
    Py_ssize_t cap_work[2];
    const unsigned char *intl;  /* intl's classes (INTL_CODE_POINTS bytes), when installed */
    const unsigned char *zh;    /* zh's Chinese characters (ZH_TABLE_BYTES bytes), when installed */
} Arena;

static void
arena_free(Arena *a)
{
    PyMem_Free(a->chars);
    PyMem_Free(a->starts);
    PyMem_Free(a->hashes);
    PyMem_Free(a->work[0]);
    PyMem_Free(a->work[1]);
    memset(a, 0, sizeof(Arena));
}

/* Room for `chars` more code points and `tokens` more tokens. */
static int
arena_reserve(Arena *a, Py_ssize_t chars, Py_ssize_t tokens)
{
    if (a->n_chars + chars > a->cap_chars) {
        Py_ssize_t cap = Py_MAX(a->n_chars + chars, 2 * a->cap_chars);
        Py_UCS4 *more = PyMem_Realloc(a->chars, (size_t)cap * sizeof(Py_UCS4));
        if (more == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        a->chars = more;
        a->cap_chars = cap;
    }
    if (a->n_tokens + tokens > a->cap_tokens || a->starts == NULL) {
        Py_ssize_t cap = Py_MAX(a->n_tokens + tokens, 2 * a->cap_tokens);
        Py_ssize_t *starts = PyMem_Realloc(a->starts, ((size_t)cap + 1) * sizeof(Py_ssize_t));
        uint64_t *hashes;
        if (starts == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        a->starts = starts;
        hashes = PyMem_Realloc(a->hashes, ((size_t)cap + 1) * sizeof(uint64_t));
        if (hashes == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        a->hashes = hashes;
        a->cap_tokens = cap;
    }
    return 0;
}

static void
arena_clear(Arena *a)
{
    a->n_chars = 0;
    a->n_tokens = 0;
    a->starts[0] = 0;
}

static inline void
arena_close(Arena *a, uint64_t hash)
{
    hash ^= hash >> 31;  /* finish_hash */
    a->hashes[a->n_tokens++] = hash;
    a->starts[a->n_tokens] = a->n_chars;
}

/* Work buffer `which` with room for `size` code points. */
static Py_UCS4 *
work_buffer(Arena *a, int which, Py_ssize_t size)
{
    if (size > a->cap_work[which]) {
        Py_UCS4 *more = PyMem_Realloc(a->work[which], (size_t)size * sizeof(Py_UCS4));
        if (more == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        a->work[which] = more;
        a->cap_work[which] = size;
    }
    return a->work[which];
}

/* The tokens of text[0:n] split on whitespace (str.split()), appended to the arena. */
static int
split_whitespace(Arena *a, int kind, const void *data, Py_ssize_t n)
{
    Py_ssize_t i;
    int open = 0;
    uint64_t hash = FNV_OFFSET;
    if (arena_reserve(a, n, n / 2 + 1) < 0) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 128 ? (ascii_13a[c] == CH_SPACE) : Py_UNICODE_ISSPACE(c)) {
            if (open) {
                arena_close(a, hash);
                open = 0;
            }
            continue;
        }
        if (!open) {
            open = 1;
            hash = FNV_OFFSET;
        }
        a->chars[a->n_chars++] = c;
        hash = (hash ^ c) * FNV_PRIME;
    }
    if (open) {
        arena_close(a, hash);
    }
    return 0;
}

/* Remove every non-overlapping `pattern` (ASCII, length m), left to right, replacing it by
   `replacement` (0: nothing): str.replace for a replacement no longer than one character. */
static Py_ssize_t
replace_in_place(Py_UCS4 *s, Py_ssize_t n, const char *pattern, Py_ssize_t m, Py_UCS4 replacement)
{
    Py_ssize_t i = 0, w = 0, j;
    while (i < n) {
        if (s[i] == (Py_UCS4)(unsigned char)pattern[0] && i + m <= n) {
            for (j = 1; j < m && s[i + j] == (Py_UCS4)(unsigned char)pattern[j]; j++) {
            }
            if (j == m) {
                if (replacement) {
                    s[w++] = replacement;
                }
                i += m;
                continue;
            }
        }
        s[w++] = s[i++];
    }
    return w;
}

static int
contains(const Py_UCS4 *s, Py_ssize_t n, Py_UCS4 c)
{
    Py_ssize_t i;
    for (i = 0; i < n; i++) {
        if (s[i] == c) {
            return 1;
        }
    }
    return 0;
}

static inline int
is_digit(Py_UCS4 c)
{
    return c >= '0' && c <= '9';
}

static inline int
is_point(Py_UCS4 c)
{
    return c == '.' || c == ',';
}

/* mteval-v13a's rules: text (for 13a already stripped of <skipped>, newlines and entities)
   padded with a space on each side when `pad` (13a; zh does not pad), the four substitutions,
   then the whitespace split. With `chinese` (zh's table), each Chinese character is first
   spaced, " c ", as zh does before the rules: that and rule 1 both replace single characters,
   of disjoint classes (rule 1's are ASCII; set_zh_ranges refuses ASCII), so one pass does both. */
static int
tokenize_13a_rules(Arena *a, int kind, const void *data, Py_ssize_t n, int pad, const unsigned char *chinese)
{
    Py_ssize_t i, len;
    Py_UCS4 *src, *dst;
    /* rule 1 (and the padding; zh's spacing) */
    dst = work_buffer(a, 0, 3 * n + 2);
    if (dst == NULL) {
        return -1;
    }
    len = 0;
    if (pad) {
        dst[len++] = ' ';
    }
    for (i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 128 ? (ascii_13a[c] == CH_SPLIT || c == ' ') : (chinese != NULL && is_chinese(chinese, c))) {
            dst[len++] = ' ';
            dst[len++] = c;
            dst[len++] = ' ';
        }
        else {
            dst[len++] = c;
        }
    }
    if (pad) {
        dst[len++] = ' ';
    }
    /* rule 2: ([^0-9])([\.,]) -> "\1 \2 " */
    src = dst;
    if ((dst = work_buffer(a, 1, 2 * len)) == NULL) {
        return -1;
    }
    src = a->work[0];
    n = len;
    len = 0;
    for (i = 0; i < n;) {
        if (i + 1 < n && !is_digit(src[i]) && is_point(src[i + 1])) {
            dst[len++] = src[i];
            dst[len++] = ' ';
            dst[len++] = src[i + 1];
            dst[len++] = ' ';
            i += 2;
        }
        else {
            dst[len++] = src[i++];
        }
    }
    /* rule 3: ([\.,])([^0-9]) -> " \1 \2" */
    if (work_buffer(a, 0, 2 * len) == NULL) {
        return -1;
    }
    src = a->work[1];
    dst = a->work[0];
    n = len;
    len = 0;
    for (i = 0; i < n;) {
        if (i + 1 < n && is_point(src[i]) && !is_digit(src[i + 1])) {
            dst[len++] = ' ';
            dst[len++] = src[i];
            dst[len++] = ' ';
            dst[len++] = src[i + 1];
            i += 2;
        }
        else {
            dst[len++] = src[i++];
        }
    }
    /* rule 4: ([0-9])(-) -> "\1 \2 " */
    if (work_buffer(a, 1, 2 * len) == NULL) {
        return -1;
    }
    src = a->work[0];
    dst = a->work[1];
    n = len;
    len = 0;
    for (i = 0; i < n;) {
        if (i + 1 < n && is_digit(src[i]) && src[i + 1] == '-') {
            dst[len++] = src[i];
            dst[len++] = ' ';
            dst[len++] = '-';
            dst[len++] = ' ';
            i += 2;
        }
        else {
            dst[len++] = src[i++];
        }
    }
    return split_whitespace(a, PyUnicode_4BYTE_KIND, dst, len);
}

static inline uint64_t
finish_hash(uint64_t hash)
{
    return hash ^ (hash >> 31);
}

/* mteval-v14's international tokenization by its rules, each a left-to-right scan of
   non-overlapping matches as regex.sub makes them:
     1. (\P{N})(\p{P}) -> "\1 \2 "
     2. (\p{P})(\P{N}) -> " \1 \2"
     3. (\p{S}) -> " \1 "
   then the whitespace split. */
static int
tokenize_intl(Arena *a, int kind, const void *data, Py_ssize_t n)
{
    const unsigned char *cls = a->intl;
    Py_ssize_t i, len = 0;
    Py_UCS4 *src, *dst = work_buffer(a, 0, 2 * n + 2);
    if (dst == NULL) {
        return -1;
    }
    for (i = 0; i < n;) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (i + 1 < n && !(cls[c] & INTL_N)) {
            Py_UCS4 next = PyUnicode_READ(kind, data, i + 1);
            if (cls[next] & INTL_P) {
                dst[len++] = c;
                dst[len++] = ' ';
                dst[len++] = next;
                dst[len++] = ' ';
                i += 2;
                continue;
            }
        }
        dst[len++] = c;
        i++;
    }
    if (work_buffer(a, 1, 2 * len + 2) == NULL) {
        return -1;
    }
    src = a->work[0];
    dst = a->work[1];
    n = len;
    len = 0;
    for (i = 0; i < n;) {
        if (i + 1 < n && (cls[src[i]] & INTL_P) && !(cls[src[i + 1]] & INTL_N)) {
            dst[len++] = ' ';
            dst[len++] = src[i];
            dst[len++] = ' ';
            dst[len++] = src[i + 1];
            i += 2;
        }
        else {
            dst[len++] = src[i++];
        }
    }
    if (work_buffer(a, 0, 3 * len + 2) == NULL) {
        return -1;
    }
    src = a->work[1];
    dst = a->work[0];
    n = len;
    len = 0;
    for (i = 0; i < n; i++) {
        if (cls[src[i]] & INTL_S) {
            dst[len++] = ' ';
            dst[len++] = src[i];
            dst[len++] = ' ';
        }
        else {
            dst[len++] = src[i];
        }
    }
    return split_whitespace(a, PyUnicode_4BYTE_KIND, dst, len);
}

/* 13a's fast path for one kind of str (a constant where it is inlined, so that reading a
   character is one load): 1 when done; 0 when a digit touches a period, comma or dash (the
   caller then takes the rules); 2 when `raw` and the line has a character that the pre-pass
   may change (& < or a newline). The arena's counts change only when 1 is returned.
   With `chinese` (zh, a constant NULL for 13a), a Chinese character is a token of its own (a
   separator if it is whitespace), and separates a digit from its neighbours, as the spaces
   that zh puts around it do. Padding the line or not changes nothing here: on this path no
   period or comma touches a digit, and every one of them is split off either way. */
static inline Py_ALWAYS_INLINE int
fast_13a(Arena *a, const int kind, const void *data, Py_ssize_t n, int raw, const unsigned char *chinese)
{
    Py_UCS4 *chars = a->chars;
    Py_ssize_t *starts = a->starts;
    uint64_t *hashes = a->hashes;
    Py_ssize_t n_chars = a->n_chars, n_tokens = a->n_tokens, i;
    int open = 0, previous = CH_SPACE;
    uint64_t hash = FNV_OFFSET;
    for (i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        int cls;
        if (c < 128) {
            cls = ascii_13a[c];
            if (cls >= CH_DIGIT) {  /* a digit, a dash, a period or a comma */
                if ((cls == CH_DIGIT && previous == CH_POINT) || (previous == CH_DIGIT && cls != CH_DIGIT)) {
                    return 0;
                }
                previous = cls;
                if (cls != CH_POINT) {
                    cls = CH_WORD;
                }
            }
            else {
                previous = cls;
                if (raw && cls != CH_WORD && (c == '&' || c == '<' || c == '\n')) {
                    return 2;
                }
            }
        }
        else {
            cls = Py_UNICODE_ISSPACE(c) ? CH_SPACE : CH_WORD;
            if (chinese != NULL && cls == CH_WORD && is_chinese(chinese, c)) {
                cls = CH_SPLIT;
            }
            previous = cls;
        }
        if (cls == CH_WORD) {
            if (!open) {
                open = 1;
                hash = FNV_OFFSET;
            }
            chars[n_chars++] = c;
            hash = (hash ^ c) * FNV_PRIME;
            continue;
        }
        if (open) {
            hashes[n_tokens++] = finish_hash(hash);
            starts[n_tokens] = n_chars;
            open = 0;
        }
        if (cls != CH_SPACE) {  /* a token of its own */
            chars[n_chars++] = c;
            hashes[n_tokens++] = finish_hash((FNV_OFFSET ^ c) * FNV_PRIME);
            starts[n_tokens] = n_chars;
        }
    }
    if (open) {
        hashes[n_tokens++] = finish_hash(hash);
        starts[n_tokens] = n_chars;
    }
    a->n_chars = n_chars;
    a->n_tokens = n_tokens;
    return 1;
}

static int
tokenize_13a_fast(Arena *a, int kind, const void *data, Py_ssize_t n, int raw)
{
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        return fast_13a(a, PyUnicode_1BYTE_KIND, data, n, raw, NULL);
    case PyUnicode_2BYTE_KIND:
        return fast_13a(a, PyUnicode_2BYTE_KIND, data, n, raw, NULL);
    default:
        return fast_13a(a, PyUnicode_4BYTE_KIND, data, n, raw, NULL);
    }
}

/* The tokens of text[0:n] as bleucli.tokenizers.tok_zh.TokenizerZh gives them: str.strip(),
   a space each side of every Chinese character, mteval-v13a's rules without 13a's pre-pass
   (<skipped>, entities) and without its padding (so a leading ".5" or a final "2019." stays
   one token), the whitespace split. 13a's fast path when it applies, else the rules. */
static int
tokenize_zh(Arena *a, int kind, const void *data, Py_ssize_t n)
{
    Py_ssize_t start = 0;
    int done;
    while (start < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, start))) {
        start++;
    }
    while (n > start && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, n - 1))) {
        n--;
    }
    data = (const char *)data + start * kind;  /* a kind is its characters' size in bytes */
    n -= start;
    if (arena_reserve(a, n, n + 1) < 0) {
        return -1;
    }
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        done = fast_13a(a, PyUnicode_1BYTE_KIND, data, n, 0, a->zh);
        break;
    case PyUnicode_2BYTE_KIND:
        done = fast_13a(a, PyUnicode_2BYTE_KIND, data, n, 0, a->zh);
        break;
    default:
        done = fast_13a(a, PyUnicode_4BYTE_KIND, data, n, 0, a->zh);
    }
    return done == 1 ? 0 : tokenize_13a_rules(a, kind, data, n, 0, a->zh);
}

/* Every character but whitespace (str.split()'s) is a token: char's tokens. */
static int
tokenize_char(Arena *a, int kind, const void *data, Py_ssize_t n)
{
    Py_ssize_t i;
    if (arena_reserve(a, n, n + 1) < 0) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 128 ? ascii_13a[c] == CH_SPACE : Py_UNICODE_ISSPACE(c)) {
            continue;
        }
        a->chars[a->n_chars++] = c;
        arena_close(a, (FNV_OFFSET ^ c) * FNV_PRIME);
    }
    return 0;
}

/* Whether text[0:n] has a character that 13a's pre-pass may change: & (entities), < (<skipped>)
   or a newline. */
static int
needs_prepass(int kind, const void *data, Py_ssize_t n)
{
    Py_ssize_t i;
    if (kind == PyUnicode_1BYTE_KIND) {
        return memchr(data, '&', (size_t)n) != NULL || memchr(data, '<', (size_t)n) != NULL
            || memchr(data, '\n', (size_t)n) != NULL;
    }
    for (i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '&' || c == '<' || c == '\n') {
            return 1;
        }
    }
    return 0;
}

/* The tokens of text[0:n] (already lowercased and right-stripped when BLEU asks for it),
   appended to the arena. */
static int
tokenize_text(Arena *a, int tokenizer, int kind, const void *data, Py_ssize_t n)
{
    int done;
    Py_UCS4 *text;
    Py_ssize_t i, length;
    if (n > MAX_LINE) {
        PyErr_SetString(PyExc_MemoryError, "a line too long to tokenize");
        return -1;
    }
    if (tokenizer == TOKENIZE_NONE) {
        return split_whitespace(a, kind, data, n);
    }
    if (tokenizer == TOKENIZE_INTL) {
        return tokenize_intl(a, kind, data, n);
    }
    if (tokenizer == TOKENIZE_CHAR) {
        return tokenize_char(a, kind, data, n);
    }
    if (tokenizer == TOKENIZE_ZH) {
        return tokenize_zh(a, kind, data, n);
    }
    /* each character gives at most one token character, and at most one token */
    if (arena_reserve(a, n, n + 1) < 0) {
        return -1;
    }
    done = tokenize_13a_fast(a, kind, data, n, 1);
    if (done == 1) {
        return 0;
    }
    if (done == 0 && !needs_prepass(kind, data, n)) {
        return tokenize_13a_rules(a, kind, data, n, 1, NULL);
    }
    /* the pre-pass, on a copy (str.replace, in sacreBLEU's order); the arena's work buffers
       are used by the rules, so the copy goes to its own allocation */
    text = PyMem_Malloc(((size_t)n + 1) * sizeof(Py_UCS4));
    if (text == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < n; i++) {
        text[i] = PyUnicode_READ(kind, data, i);
    }
    length = replace_in_place(text, n, "<skipped>", 9, 0);
    if (contains(text, length, '\n')) {
        length = replace_in_place(text, length, "-\n", 2, 0);
        length = replace_in_place(text, length, "\n", 1, ' ');
    }
    if (contains(text, length, '&')) {
        length = replace_in_place(text, length, "&quot;", 6, '"');
        length = replace_in_place(text, length, "&amp;", 5, '&');
        length = replace_in_place(text, length, "&lt;", 4, '<');
        length = replace_in_place(text, length, "&gt;", 4, '>');
    }
    done = tokenize_13a_fast(a, PyUnicode_4BYTE_KIND, text, length, 0);
    if (done == 0) {
        done = tokenize_13a_rules(a, PyUnicode_4BYTE_KIND, text, length, 1, NULL) < 0 ? -1 : 1;
    }
    PyMem_Free(text);
    return done < 0 ? -1 : 0;
}

/* The tokens of a Python str as BLEU tokenizes it: lowercased if asked, right-stripped,
   then the tokenizer. */
static int
tokenize_line(Arena *a, int tokenizer, PyObject *line, int lowercase)
{
    Py_ssize_t n;
    int kind, result;
    const void *data;
    PyObject *lowered = NULL;
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "a line must be a str, not %.100s", Py_TYPE(line)->tp_name);
        return -1;
    }
    if (lowercase) {
        lowered = PyObject_CallMethod(line, "lower", NULL);
        if (lowered == NULL) {
            return -1;
        }
        if (!PyUnicode_Check(lowered)) {
            PyErr_SetString(PyExc_TypeError, "str.lower() did not return a str");
            Py_DECREF(lowered);
            return -1;
        }
        line = lowered;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(line) < 0) {
        Py_XDECREF(lowered);
        return -1;
    }
#endif
    kind = PyUnicode_KIND(line);
    data = PyUnicode_DATA(line);
    n = PyUnicode_GET_LENGTH(line);
    while (n > 0 && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, n - 1))) {
        n--;
    }
    result = tokenize_text(a, tokenizer, kind, data, n);
    Py_XDECREF(lowered);
    return result;
}

static int
read_tokenizer(PyObject *name)
{
    if (PyUnicode_Check(name)) {
        if (PyUnicode_CompareWithASCIIString(name, "13a") == 0) {
            return TOKENIZE_13A;
        }
        if (PyUnicode_CompareWithASCIIString(name, "none") == 0) {
            return TOKENIZE_NONE;
        }
        if (PyUnicode_CompareWithASCIIString(name, "intl") == 0) {
            return TOKENIZE_INTL;
        }
        if (PyUnicode_CompareWithASCIIString(name, "char") == 0) {
            return TOKENIZE_CHAR;
        }
        if (PyUnicode_CompareWithASCIIString(name, "zh") == 0) {
            return TOKENIZE_ZH;
        }
    }
    PyErr_SetString(PyExc_ValueError, "the compiled tokenizers are '13a', 'intl', 'zh', 'char' and 'none'");
    return -1;
}


/* Everything one call of bleu_statistics reuses from segment to segment. */
typedef struct {
    Arena arena;
    /* token ids of one segment: vocabulary table (slot -> token index), then per token */
    int32_t *vocab;
    size_t vocab_cap, vocab_mask;
    int32_t *ids;           /* token k's id (-1: a hypothesis token no reference has) */
    Py_ssize_t ids_cap;
    /* n-gram matching: per reference position, the current order's ids; counts */
    int32_t *ref_ids, *hyp_ids, *best, *own, *seen;
    Py_ssize_t count_cap;
    uint64_t *keys;
    int32_t *key_ids;
    size_t key_cap;
    Py_ssize_t *offsets;
    Py_ssize_t offsets_cap;
    Py_ssize_t *matches;
    Py_ssize_t matches_cap;
} Scratch;

/* Per module object (one per interpreter that imports it): its References type, and the
   buffers that bleu_statistics and tokenize reuse from call to call (a sentence score is one
   call: a dozen allocations would be a quarter of its time). `busy` while a call uses them: a
   call made meanwhile (str.lower() of a str subclass can run any code) takes its own. */
typedef struct {
    PyTypeObject *references_type;
    PyObject *builtin_sum;  /* what _bleu sums its logs with */
    PyObject *intl_classes;  /* bytes: intl's classes of every code point (set_intl_classes) */
    PyObject *zh_table;      /* bytes: zh's Chinese characters, a bit per code point (set_zh_ranges) */
    PyObject *score_keys[9];  /* interned names of a BLEUScore's fields, in the order of BLEUScore._build */
    Scratch scratch;
    int busy;
    void *chrf_work;  /* the chrF functions' buffers (a ChrfWork of _speedups_chrf.c), NULL until used */
    int chrf_busy;    /* while a chrF call uses them: a call made meanwhile takes its own */
} ModuleState;

/* Buffers kept between calls up to about this many bytes; beyond, freed after the call. */
#define KEPT_SCRATCH_BYTES (1 << 20)

static void
scratch_free(Scratch *s)
{
    arena_free(&s->arena);
    PyMem_Free(s->vocab);
    PyMem_Free(s->ids);
    PyMem_Free(s->ref_ids);
    PyMem_Free(s->keys);
    PyMem_Free(s->key_ids);
    PyMem_Free(s->offsets);
    PyMem_Free(s->matches);
    memset(s, 0, sizeof(Scratch));
}

/* Roughly the bytes a scratch holds. */
static size_t
scratch_bytes(const Scratch *s)
{
    const Arena *a = &s->arena;
    return (size_t)(a->cap_chars + a->cap_work[0] + a->cap_work[1]) * sizeof(Py_UCS4)
        + (size_t)a->cap_tokens * (sizeof(Py_ssize_t) + sizeof(uint64_t))
        + s->vocab_cap * sizeof(int32_t) + (size_t)s->ids_cap * sizeof(int32_t)
        + (size_t)s->count_cap * 5 * sizeof(int32_t) + s->key_cap * (sizeof(uint64_t) + sizeof(int32_t))
        + (size_t)s->offsets_cap * sizeof(Py_ssize_t) + (size_t)s->matches_cap * sizeof(Py_ssize_t);
}

/* The module's scratch, or (when a call is using it) `own`, emptied; with intl's classes. */
static Scratch *
scratch_acquire(PyObject *module, Scratch *own)
{
    ModuleState *state = PyModule_GetState(module);
    Scratch *s = own;
    if (state == NULL || state->busy) {
        memset(own, 0, sizeof(Scratch));
    }
    else {
        state->busy = 1;
        s = &state->scratch;
    }
    s->arena.intl = state != NULL && state->intl_classes != NULL
        ? (const unsigned char *)PyBytes_AS_STRING(state->intl_classes) : NULL;
    s->arena.zh = state != NULL && state->zh_table != NULL
        ? (const unsigned char *)PyBytes_AS_STRING(state->zh_table) : NULL;
    return s;
}

/* 0, or -1 with ValueError when the tokenizer is intl or zh and its table is not installed. */
static int
check_tables(const Scratch *s, int tokenizer)
{
    if (tokenizer == TOKENIZE_INTL && s->arena.intl == NULL) {
        PyErr_SetString(PyExc_ValueError, "intl needs its classes first (set_intl_classes)");
        return -1;
    }
    if (tokenizer == TOKENIZE_ZH && s->arena.zh == NULL) {
        PyErr_SetString(PyExc_ValueError, "zh needs its ranges first (set_zh_ranges)");
        return -1;
    }
    return 0;
}

/* set_zh_ranges(ranges): zh's Chinese characters, as inclusive (first, last) code point pairs
   (bleucli.tokenizers.tok_zh.CHINESE_RANGES: the table is made from them, never written here),
   kept by the module as a bit per code point for the tokenizer "zh". ASCII is refused: the
   C tokenizer spaces Chinese characters in the same pass as rule 1 pads its ASCII class, and
   treats digits, periods, commas and dashes as never Chinese. */
static PyObject *
set_zh_ranges(PyObject *module, PyObject *ranges)
{
    ModuleState *state = PyModule_GetState(module);
    PyObject *seq, *table;
    unsigned char *bits;
    Py_ssize_t i;
    if (state == NULL) {
        return NULL;
    }
    if ((seq = PySequence_Fast(ranges, "zh's ranges must be a sequence of (first, last) pairs")) == NULL) {
        return NULL;
    }
    if ((table = PyBytes_FromStringAndSize(NULL, ZH_TABLE_BYTES)) == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    bits = (unsigned char *)PyBytes_AS_STRING(table);
    memset(bits, 0, ZH_TABLE_BYTES);
    for (i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        long first, last, c;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "zh's ranges must be a sequence of (first, last) pairs");
            goto fail;
        }
        first = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
        last = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        if ((first == -1 || last == -1) && PyErr_Occurred()) {
            goto fail;
        }
        if (first < 128 || first > last || last > 0x10FFFF) {
            PyErr_Format(PyExc_ValueError, "zh's range (%ld, %ld): not 128 <= first <= last <= 0x10FFFF",
                         first, last);
            goto fail;
        }
        for (c = first; c <= last; c++) {
            bits[c >> 3] |= (unsigned char)(1u << (c & 7));
        }
    }
    Py_DECREF(seq);
    if (state->busy) {
        PyErr_SetString(PyExc_RuntimeError, "set_zh_ranges during a call");
        Py_DECREF(table);
        return NULL;
    }
    Py_XSETREF(state->zh_table, table);
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    Py_DECREF(table);
    return NULL;
}

/* set_intl_classes(table): intl's classes of every code point, INTL_CODE_POINTS bytes (bits:
   1 punctuation, 2 symbol, 4 number), kept by the module for the tokenizer "intl". */
static PyObject *
set_intl_classes(PyObject *module, PyObject *table)
{
    ModuleState *state = PyModule_GetState(module);
    Py_ssize_t i;
    if (state == NULL) {
        return NULL;
    }
    if (!PyBytes_CheckExact(table) || PyBytes_GET_SIZE(table) != INTL_CODE_POINTS) {
        PyErr_Format(PyExc_ValueError, "intl's classes are bytes, one per code point (%d)", INTL_CODE_POINTS);
        return NULL;
    }
    for (i = 0; i < INTL_CODE_POINTS; i++) {
        if ((unsigned char)PyBytes_AS_STRING(table)[i] > (INTL_P | INTL_S | INTL_N)) {
            PyErr_SetString(PyExc_ValueError, "intl's classes: a byte beyond the three class bits");
            return NULL;
        }
    }
    if (state->busy) {
        PyErr_SetString(PyExc_RuntimeError, "set_intl_classes during a call");
        return NULL;
    }
    Py_INCREF(table);
    Py_XSETREF(state->intl_classes, table);
    Py_RETURN_NONE;
}

static void
scratch_release(PyObject *module, Scratch *s)
{
    ModuleState *state = PyModule_GetState(module);
    if (state != NULL && s == &state->scratch) {
        state->busy = 0;
        if (scratch_bytes(s) <= KEPT_SCRATCH_BYTES) {
            return;
        }
    }
    scratch_free(s);
}

static int
grow(void **buffer, size_t size)
{
    void *more = PyMem_Realloc(*buffer, size);
    if (more == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buffer = more;
    return 0;
}

static inline int
same_token(const Arena *a, Py_ssize_t x, Py_ssize_t y)
{
    Py_ssize_t length = a->starts[x + 1] - a->starts[x];
    return a->hashes[x] == a->hashes[y] && length == a->starts[y + 1] - a->starts[y]
        && (length == 1 ? a->chars[a->starts[x]] == a->chars[a->starts[y]]  /* char's tokens, punctuation */
            : memcmp(a->chars + a->starts[x], a->chars + a->starts[y], (size_t)length * sizeof(Py_UCS4)) == 0);
}

/* The id tables of assign_ids made ready: s->vocab with room for the total_ref reference tokens'
   ids (a power of two, s->vocab_mask its mask) and emptied, s->ids with room for n_ids tokens. 0,
   or -1 with an exception. */
static int
empty_vocab(Scratch *s, Py_ssize_t n_ids, Py_ssize_t total_ref)
{
    size_t capacity = (size_t)1 << table_bits((size_t)total_ref);
    if (capacity > s->vocab_cap) {
        if (grow((void **)&s->vocab, capacity * sizeof(int32_t)) < 0) {
            return -1;
        }
        s->vocab_cap = capacity;
    }
    if (n_ids > s->ids_cap) {
        if (grow((void **)&s->ids, (size_t)n_ids * sizeof(int32_t)) < 0) {
            return -1;
        }
        s->ids_cap = n_ids;
    }
    memset(s->vocab, 0xff, capacity * sizeof(int32_t));
    s->vocab_mask = capacity - 1;
    return 0;
}

/* The slot of s->vocab that holds a token equal to the arena's token k, else the empty slot where
   it would go. */
static inline Py_ALWAYS_INLINE size_t
vocab_slot(const Scratch *s, Py_ssize_t k)
{
    const size_t mask = s->vocab_mask;
    size_t i = (size_t)((s->arena.hashes[k] * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
    for (;;) {
        int32_t other = s->vocab[i];
        if (other < 0 || same_token(&s->arena, k, other)) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

/* Ids of the arena's tokens: reference tokens 0..total_ref-1 get dense ids (equal text,
   equal id), hypothesis tokens (any after them) the id of an equal reference token or -1.
   Returns the number of distinct reference tokens, or -1 with an exception. */
static Py_ssize_t
assign_ids(Scratch *s, Py_ssize_t total_ref)
{
    Py_ssize_t k, n = s->arena.n_tokens;
    int32_t count = 0;
    if (empty_vocab(s, n, total_ref) < 0) {
        return -1;
    }
    for (k = 0; k < n; k++) {
        size_t i = vocab_slot(s, k);
        int32_t other = s->vocab[i], id = -1;
        if (other >= 0) {
            id = s->ids[other];
        }
        else if (k < total_ref) {
            s->vocab[i] = (int32_t)k;
            id = count++;
        }
        s->ids[k] = id;
    }
    return count;
}

/* Clipped matches of orders 1..max_order (into s->matches[1..]) of the hypothesis
   (ids[total_ref..n_tokens)) against the references (ids[offsets[k]..offsets[k+1])).
   Same algorithm as reftables_match with a single-use table. */
static int
count_matches(Scratch *s, Py_ssize_t n_refs, Py_ssize_t total_ref, Py_ssize_t vocabulary,
              Py_ssize_t max_order)
{
    const int32_t *ref_base = s->ids, *hyp_base = s->ids + total_ref;
    Py_ssize_t hyp_len = s->arena.n_tokens - total_ref, order, n_best = vocabulary;
    Py_ssize_t need = Py_MAX(total_ref, hyp_len) + 1;
    IdTable table;
    int bits;
    memset(s->matches, 0, ((size_t)max_order + 1) * sizeof(Py_ssize_t));
    if (total_ref == 0 || hyp_len == 0) {
        return 0;
    }
    if (need > s->count_cap) {
        if (grow((void **)&s->ref_ids, (size_t)need * 5 * sizeof(int32_t)) < 0) {
            return -1;
        }
        s->count_cap = need;
    }
    s->hyp_ids = s->ref_ids + need;
    s->best = s->hyp_ids + need;
    s->own = s->best + need;
    s->seen = s->own + need;
    bits = table_bits((size_t)total_ref);
    if (((size_t)1 << bits) > s->key_cap) {
        s->key_cap = (size_t)1 << bits;
        if (grow((void **)&s->keys, s->key_cap * sizeof(uint64_t)) < 0
            || grow((void **)&s->key_ids, s->key_cap * sizeof(int32_t)) < 0) {
            s->key_cap = 0;
            return -1;
        }
    }
    table_over(&table, s->keys, s->key_ids, s->best, bits);
    memcpy(s->ref_ids, ref_base, (size_t)total_ref * sizeof(int32_t));
    memcpy(s->hyp_ids, hyp_base, (size_t)hyp_len * sizeof(int32_t));
    for (order = 1; order <= max_order; order++) {
        Py_ssize_t hyp_grams = hyp_len - order + 1;
        int any;
        if (hyp_grams <= 0) {
            break;
        }
        if (order > 1) {  /* the references' n-grams of this order, from those of the last */
            table_clear(&table);
            extend_references(&table, s->ref_ids, ref_base, s->offsets, n_refs, order);
            n_best = table.count;
            find_hypothesis(&table, s->hyp_ids, hyp_base, hyp_grams, order);
        }
        if (n_refs > 1) {  /* own: one reference's counts (a buffer shared with other calls) */
            memset(s->own, 0, ((size_t)n_best + 1) * sizeof(int32_t));
        }
        count_best(&table, s->own, s->ref_ids, s->offsets, n_refs, order, n_best);
        memset(s->seen, 0, ((size_t)n_best + 1) * sizeof(int32_t));
        s->matches[order] = clipped_matches(s->hyp_ids, hyp_grams, s->seen, s->best, &any);
        if (!any) {
            break;
        }
    }
    return 0;
}

/* tokenize(line, tokenizer) -> list of str: what the Python tokenizer's tokens() gives
   (no lowercasing, no stripping: those are BLEU's, done before its tokenizer). */
static PyObject *
tokenize(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Scratch own, *s;
    Arena *arena;
    int tokenizer;
    PyObject *result = NULL, *line;
    Py_ssize_t k, n;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "tokenize(line, tokenizer)");
        return NULL;
    }
    line = args[0];
    if ((tokenizer = read_tokenizer(args[1])) < 0) {
        return NULL;
    }
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "a line must be a str, not %.100s", Py_TYPE(line)->tp_name);
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(line) < 0) {
        return NULL;
    }
#endif
    s = scratch_acquire(module, &own);
    arena = &s->arena;
    if (check_tables(s, tokenizer) < 0 || arena_reserve(arena, 16, 16) < 0) {
        goto done;
    }
    arena_clear(arena);
    if (tokenize_text(arena, tokenizer, PyUnicode_KIND(line), PyUnicode_DATA(line),
                      PyUnicode_GET_LENGTH(line)) < 0) {
        goto done;
    }
    n = arena->n_tokens;
    result = PyList_New(n);
    if (result == NULL) {
        goto done;
    }
    for (k = 0; k < n; k++) {
        PyObject *token = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, arena->chars + arena->starts[k],
                                                    arena->starts[k + 1] - arena->starts[k]);
        if (token == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, k, token);
    }
done:
    scratch_release(module, s);
    return result;
}

/* tokenize(line, name), for the picklable one-argument functions below. */
static PyObject *
tokens_named(PyObject *module, PyObject *line, const char *name)
{
    PyObject *args[2] = {line, NULL};
    PyObject *result;
    args[1] = PyUnicode_FromString(name);
    if (args[1] == NULL) {
        return NULL;
    }
    result = tokenize(module, args, 2);
    Py_DECREF(args[1]);
    return result;
}

/* tokens_13a(line) -> list of str: tokenize(line, "13a"), as one picklable function of one
   argument (a metric keeps it as its tokenizer's tokens()); tokens_intl and tokens_zh alike. */
static PyObject *
tokens_13a(PyObject *module, PyObject *line)
{
    return tokens_named(module, line, "13a");
}

static PyObject *
tokens_intl(PyObject *module, PyObject *line)
{
    return tokens_named(module, line, "intl");
}

static PyObject *
tokens_zh(PyObject *module, PyObject *line)
{
    return tokens_named(module, line, "zh");
}

/* The references of one segment tokenized into the arena (cleared first), at s->offsets[0..n_refs]:
   their number, or -1. */
static Py_ssize_t
tokenize_references(Scratch *s, PyObject *references, int tokenizer, int lowercase)
{
    PyObject *refs = PySequence_Fast(references, "a segment's references must be a sequence");
    Py_ssize_t n_refs, k;
    if (refs == NULL) {
        return -1;
    }
    n_refs = PySequence_Fast_GET_SIZE(refs);
    if (n_refs + 1 > s->offsets_cap) {
        if (grow((void **)&s->offsets, ((size_t)n_refs + 1) * sizeof(Py_ssize_t)) < 0) {
            Py_DECREF(refs);
            return -1;
        }
        s->offsets_cap = n_refs + 1;
    }
    arena_clear(&s->arena);
    for (k = 0; k < n_refs; k++) {
        s->offsets[k] = s->arena.n_tokens;
        if (tokenize_line(&s->arena, tokenizer, PySequence_Fast_GET_ITEM(refs, k), lowercase) < 0
            || check_tokens(0, s->arena.n_tokens - s->offsets[k], "a sequence") < 0
            || check_tokens(0, s->arena.n_tokens, "one segment's references together") < 0) {
            Py_DECREF(refs);
            return -1;
        }
    }
    Py_DECREF(refs);
    s->offsets[n_refs] = s->arena.n_tokens;
    return n_refs;
}

/* BLEU's reference length for a hypothesis of hyp_len tokens against the n_refs references at
   s->offsets: the only one's, the shortest's (shortest), or the closest's (the shorter on a tie). */
static inline Py_ALWAYS_INLINE Py_ssize_t
reference_length(const Scratch *s, Py_ssize_t n_refs, Py_ssize_t hyp_len, int shortest)
{
    Py_ssize_t k, ref_len = -1, best_diff = -1;
    for (k = 0; k < n_refs; k++) {
        Py_ssize_t length = s->offsets[k + 1] - s->offsets[k];
        Py_ssize_t diff = length > hyp_len ? length - hyp_len : hyp_len - length;
        if (k == 0 || (shortest ? length < ref_len
                       : (diff < best_diff || (diff == best_diff && length < ref_len)))) {
            ref_len = length;
            best_diff = diff;
        }
    }
    return ref_len;
}

/* A hypothesis against the n_refs references tokenized by tokenize_references: its tokens replace
   whatever followed the references in the arena (so one tokenization of the references serves a
   whole batch of hypotheses), then ids, clipped matches (s->matches) and the lengths. */
static int
hypothesis_statistics(Scratch *s, PyObject *hyp, Py_ssize_t n_refs, int tokenizer, int lowercase, int shortest,
                      Py_ssize_t max_order, Py_ssize_t *hyp_len_out, Py_ssize_t *ref_len_out)
{
    Py_ssize_t vocabulary, hyp_len, total_ref = s->offsets[n_refs];
    s->arena.n_tokens = total_ref;
    s->arena.n_chars = s->arena.starts[total_ref];
    if (tokenize_line(&s->arena, tokenizer, hyp, lowercase) < 0
        || check_tokens(0, s->arena.n_tokens - total_ref, "a sequence") < 0) {
        return -1;
    }
    hyp_len = s->arena.n_tokens - total_ref;
    if ((vocabulary = assign_ids(s, total_ref)) < 0 || count_matches(s, n_refs, total_ref, vocabulary, max_order) < 0) {
        return -1;
    }
    *hyp_len_out = hyp_len;
    *ref_len_out = reference_length(s, n_refs, hyp_len, shortest);
    return 0;
}

/* --- one segment's references counted once for several hypotheses (bleu_systems) -------------

   hypothesis_statistics gives each hypothesis its own ids and n-gram tables, the references' part
   included: right for one hypothesis, but with several systems the references' ids, their n-gram
   tables of every order and their clipped counts (`best`) would be made again for each. SharedRefs
   keeps them for the segment (one table per order, as RefTables keeps them, made by the same steps as
   count_matches makes them one after the other), and each hypothesis is only looked up in them: the
   same ids' counts, so the same matches. */

/* The largest max_order whose tables are kept (one per order); beyond (only a direct call of the
   extension asks), each hypothesis is counted on its own. BLEU's own limit is 9. */
#define SHARED_MAX_ORDER 16

typedef struct {
    Py_ssize_t orders;   /* orders the references have n-grams of (at most max_order) */
    IdTable tables[SHARED_MAX_ORDER];  /* order n's at tables[n - 1] (as RefTables'), over the buffers below;
                                          order 1's only for its counts (its ids are s->vocab's) */
    uint64_t *keys;      /* order n's table (n >= 2) at (n - 2) * its slots */
    int32_t *key_ids;
    size_t tables_room;
    int32_t *best;       /* order n's clipped counts at (n - 1) * (total_ref + 1) */
    int32_t *ref_ids, *own, *seen;  /* per reference position; own and seen all 0 between uses */
    size_t counts_room;  /* of best */
    Py_ssize_t work_room;  /* of ref_ids, own and seen */
    int32_t *hyp_tok, *hyp_ids;  /* a hypothesis's token ids and current order's n-gram ids */
    Py_ssize_t hyp_room;
} SharedRefs;

static void
shared_free(SharedRefs *r)
{
    PyMem_Free(r->keys);
    PyMem_Free(r->key_ids);
    PyMem_Free(r->best);
    PyMem_Free(r->ref_ids);
    PyMem_Free(r->hyp_tok);
    memset(r, 0, sizeof(SharedRefs));
}

/* *buffer (of *room elements of `size` bytes) with room for `need`; 0, or -1 with MemoryError. */
static int
shared_reserve(void **buffer, size_t *room, size_t need, size_t size)
{
    if (need <= *room) {
        return 0;
    }
    if (need > SIZE_MAX / size / 2) {
        PyErr_NoMemory();
        return -1;
    }
    need = Py_MAX(need, 2 * *room);
    if (grow(buffer, need * size) < 0) {
        return -1;
    }
    *room = need;
    return 0;
}

/* The segment's references (tokenized by tokenize_references) made into ids, one n-gram table per
   order up to max_order (or the longest reference) and their clipped counts. 0, or -1. */
static int
shared_build(Scratch *s, SharedRefs *r, Py_ssize_t n_refs, Py_ssize_t max_order)
{
    Py_ssize_t total_ref = s->offsets[n_refs], longest = 0, k, order, vocabulary;
    size_t capacity;
    int bits;
    r->orders = 0;
    if (total_ref == 0) {
        return 0;
    }
    if ((vocabulary = assign_ids(s, total_ref)) < 0) {  /* the arena holds the references only */
        return -1;
    }
    for (k = 0; k < n_refs; k++) {
        longest = Py_MAX(longest, s->offsets[k + 1] - s->offsets[k]);
    }
    r->orders = Py_MIN(max_order, longest);
    bits = table_bits((size_t)total_ref);
    capacity = (size_t)1 << bits;
    if (shared_reserve((void **)&r->best, &r->counts_room, (size_t)r->orders * ((size_t)total_ref + 1),
                       sizeof(int32_t)) < 0) {
        return -1;
    }
    if (total_ref + 1 > r->work_room) {  /* ref_ids, own and seen in one allocation; own and seen zeroed */
        size_t room = Py_MAX((size_t)total_ref + 1, 2 * (size_t)r->work_room);
        int32_t *more = PyMem_Calloc(room * 3, sizeof(int32_t));
        if (more == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(r->ref_ids);
        r->ref_ids = more;
        r->own = more + room;
        r->seen = more + 2 * room;
        r->work_room = (Py_ssize_t)room;
    }
    if (r->orders > 1) {
        size_t slots = (size_t)(r->orders - 1) * capacity, room = r->tables_room;
        if (shared_reserve((void **)&r->keys, &room, slots, sizeof(uint64_t)) < 0
            || shared_reserve((void **)&r->key_ids, &r->tables_room, slots, sizeof(int32_t)) < 0) {
            return -1;
        }
    }
    memcpy(r->ref_ids, s->ids, (size_t)total_ref * sizeof(int32_t));
    table_over(&r->tables[0], NULL, NULL, r->best, bits);  /* order 1: its counts only */
    count_best(&r->tables[0], r->own, r->ref_ids, s->offsets, n_refs, 1, vocabulary);
    for (order = 2; order <= r->orders; order++) {
        IdTable *table = &r->tables[order - 1];
        size_t at = (size_t)(order - 2) * capacity;
        table_over(table, r->keys + at, r->key_ids + at, r->best + (size_t)(order - 1) * ((size_t)total_ref + 1), bits);
        table_clear(table);
        extend_references(table, r->ref_ids, s->ids, s->offsets, n_refs, order);
        count_best(table, r->own, r->ref_ids, s->offsets, n_refs, order, table->count);
    }
    return 0;
}

/* A hypothesis against the references of shared_build: tokenized after them in the arena (as in
   hypothesis_statistics), looked up in their tables, its clipped matches into s->matches. */
static int
shared_hypothesis(Scratch *s, SharedRefs *r, PyObject *hyp, Py_ssize_t n_refs, int tokenizer, int lowercase,
                  int shortest, Py_ssize_t max_order, Py_ssize_t *hyp_len_out, Py_ssize_t *ref_len_out)
{
    Arena *a = &s->arena;
    Py_ssize_t total_ref = s->offsets[n_refs], hyp_len, i, order;
    a->n_tokens = total_ref;
    a->n_chars = a->starts[total_ref];
    if (tokenize_line(a, tokenizer, hyp, lowercase) < 0 || check_tokens(0, a->n_tokens - total_ref, "a sequence") < 0) {
        return -1;
    }
    hyp_len = a->n_tokens - total_ref;
    *hyp_len_out = hyp_len;
    *ref_len_out = reference_length(s, n_refs, hyp_len, shortest);
    memset(s->matches, 0, ((size_t)max_order + 1) * sizeof(Py_ssize_t));
    if (r->orders == 0 || hyp_len == 0) {
        return 0;
    }
    if (hyp_len > r->hyp_room) {
        size_t room = Py_MAX((size_t)hyp_len, 2 * (size_t)r->hyp_room);
        if (room > SIZE_MAX / 2 / sizeof(int32_t) || grow((void **)&r->hyp_tok, 2 * room * sizeof(int32_t)) < 0) {
            if (!PyErr_Occurred()) {
                PyErr_NoMemory();
            }
            return -1;
        }
        r->hyp_ids = r->hyp_tok + room;
        r->hyp_room = (Py_ssize_t)room;
    }
    for (i = 0; i < hyp_len; i++) {  /* each token's id: that of an equal reference token, or -1 */
        int32_t other = s->vocab[vocab_slot(s, total_ref + i)];
        r->hyp_tok[i] = r->hyp_ids[i] = other < 0 ? -1 : s->ids[other];
    }
    for (order = 1; order <= max_order; order++) {
        Py_ssize_t grams = hyp_len - order + 1;
        IdTable *table = &r->tables[order - 1];
        int any;
        if (grams <= 0 || order > r->orders) {  /* no reference has n-grams of this order: no match */
            break;
        }
        if (order > 1) {
            find_hypothesis(table, r->hyp_ids, r->hyp_tok, grams, order);
        }
        s->matches[order] = clipped_matches(r->hyp_ids, grams, r->seen, table->best, &any);
        for (i = 0; i < grams; i++) {  /* seen back to 0, touching only what was counted */
            if (r->hyp_ids[i] >= 0) {
                r->seen[r->hyp_ids[i]] = 0;
            }
        }
        if (!any) {
            break;
        }
    }
    return 0;
}

/* One segment: the hypothesis (a str) against its references (a sequence of str), into
   s->matches[1..max_order], *hyp_len and *ref_len (see bleu_statistics). 0, or -1 with an exception. */
static int
segment_statistics(Scratch *s, PyObject *hyp, PyObject *references, int tokenizer, int lowercase, int shortest,
                   Py_ssize_t max_order, Py_ssize_t *hyp_len_out, Py_ssize_t *ref_len_out)
{
    Py_ssize_t n_refs = tokenize_references(s, references, tokenizer, lowercase);
    if (n_refs < 0) {
        return -1;
    }
    return hypothesis_statistics(s, hyp, n_refs, tokenizer, lowercase, shortest, max_order, hyp_len_out, ref_len_out);
}

/* Room for max_order + 1 matches. */
static int
reserve_matches(Scratch *s, Py_ssize_t max_order)
{
    if (max_order + 1 > s->matches_cap) {
        if (grow((void **)&s->matches, ((size_t)max_order + 1) * sizeof(Py_ssize_t)) < 0) {
            return -1;
        }
        s->matches_cap = max_order + 1;
    }
    return arena_reserve(&s->arena, 64, 64);
}

/* How a batch's statistics come back (the `rows` argument): their column sums (a list of int), a
   list of int per segment, or one bytes object holding every row as int64 (segments x width, native
   order), which numpy reads in place (bleucli.statistics.RowMatrix): no int object per cell, no list
   per row, nothing for the cyclic garbage collector to walk. */
enum { ROWS_SUMS = 0, ROWS_LISTS = 1, ROWS_MATRIX = 2 };

/* The `rows` argument: an int 0, 1 or 2, or any other object as its truth (False 0, True 1). */
static int
read_rows_mode(PyObject *object)
{
    long mode;
    if (object == Py_True || object == Py_False || !PyLong_Check(object)) {
        return PyObject_IsTrue(object);
    }
    mode = PyLong_AsLong(object);
    if (mode == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (mode < ROWS_SUMS || mode > ROWS_MATRIX) {
        PyErr_SetString(PyExc_ValueError, "rows must be 0 (their sums), 1 (a list per row) or 2 (an int64 matrix)");
        return -1;
    }
    return (int)mode;
}

/* A list of the width ints of row. */
static PyObject *
int64_list(const int64_t *row, Py_ssize_t width)
{
    PyObject *list = PyList_New(width);
    Py_ssize_t i;
    if (list == NULL) {
        return NULL;
    }
    for (i = 0; i < width; i++) {
        PyObject *value = PyLong_FromLongLong(row[i]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

/* A bytes object of n rows of width int64 (uninitialized), its buffer in *data; NULL with MemoryError
   when the size does not fit. */
static PyObject *
int64_matrix(Py_ssize_t n, Py_ssize_t width, char **data)
{
    PyObject *bytes;
    if (width > 0 && n > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(int64_t) / width) {
        return PyErr_NoMemory();
    }
    bytes = PyBytes_FromStringAndSize(NULL, n * width * (Py_ssize_t)sizeof(int64_t));
    if (bytes != NULL) {
        *data = PyBytes_AS_STRING(bytes);
    }
    return bytes;
}

/* The settings bleu_statistics and bleu_systems share (their arguments 2..6). 0, or -1 with an exception. */
static int
read_batch_settings(PyObject *const *args, int *tokenizer, Py_ssize_t *max_order, int *lowercase, int *shortest,
                    int *rows)
{
    if ((*tokenizer = read_tokenizer(args[2])) < 0 || (*max_order = read_order(args[3])) < 0
        || (*lowercase = PyObject_IsTrue(args[4])) < 0 || (*shortest = PyObject_IsTrue(args[5])) < 0
        || (*rows = read_rows_mode(args[6])) < 0) {
        return -1;
    }
    return 0;
}

/* Where each system's rows go: per system its running sums (ROWS_SUMS), its list of lists, or its
   int64 matrix. `results` holds one object per system (list or bytes), `data` their buffers. */
typedef struct {
    int mode;
    Py_ssize_t width, n_systems;
    PyObject *results;  /* a list of n_systems objects */
    char **data;        /* ROWS_MATRIX: each system's buffer */
    int64_t *sums;      /* ROWS_SUMS: n_systems x width */
    int64_t *row;       /* one row, width */
} RowsOut;

static void
rows_out_free(RowsOut *out)
{
    Py_CLEAR(out->results);
    PyMem_Free(out->data);
    PyMem_Free(out->sums);
    PyMem_Free(out->row);
    out->data = NULL;
    out->sums = NULL;
    out->row = NULL;
}

static int
rows_out_init(RowsOut *out, int mode, Py_ssize_t n_systems, Py_ssize_t n_segments, Py_ssize_t width)
{
    Py_ssize_t j;
    memset(out, 0, sizeof(RowsOut));
    out->mode = mode;
    out->width = width;
    out->n_systems = n_systems;
    if ((size_t)width > (size_t)PY_SSIZE_T_MAX / sizeof(int64_t) / (size_t)(n_systems + 1)
        || (out->row = PyMem_Calloc((size_t)width + 1, sizeof(int64_t))) == NULL
        || (mode == ROWS_SUMS
            && (out->sums = PyMem_Calloc((size_t)(n_systems * width) + 1, sizeof(int64_t))) == NULL)
        || (mode == ROWS_MATRIX && (out->data = PyMem_Calloc((size_t)n_systems + 1, sizeof(char *))) == NULL)) {
        PyErr_NoMemory();
        rows_out_free(out);
        return -1;
    }
    if ((out->results = PyList_New(n_systems)) == NULL) {
        rows_out_free(out);
        return -1;
    }
    for (j = 0; j < n_systems && mode != ROWS_SUMS; j++) {
        PyObject *result = mode == ROWS_LISTS ? PyList_New(n_segments)
            : int64_matrix(n_segments, width, &out->data[j]);
        if (result == NULL) {
            rows_out_free(out);
            return -1;
        }
        PyList_SET_ITEM(out->results, j, result);
    }
    return 0;
}

/* out->row, system j's row of segment i, put where it goes. 0, or -1 with an exception. */
static int
rows_out_put(RowsOut *out, Py_ssize_t j, Py_ssize_t i)
{
    Py_ssize_t c, width = out->width;
    if (out->mode == ROWS_SUMS) {
        int64_t *sums = out->sums + j * width;
        for (c = 0; c < width; c++) {
            sums[c] += out->row[c];
        }
    }
    else if (out->mode == ROWS_MATRIX) {
        memcpy(out->data[j] + (size_t)i * (size_t)width * sizeof(int64_t), out->row, (size_t)width * sizeof(int64_t));
    }
    else {
        PyObject *list = int64_list(out->row, width);
        if (list == NULL) {
            return -1;
        }
        PyList_SET_ITEM(PyList_GET_ITEM(out->results, j), i, list);
    }
    return 0;
}

/* BLEU's row of system j's segment i, [hyp_len, ref_len, matches 1..max_order, totals 1..max_order],
   written where it goes: added to the system's sums, into its matrix, or made a list (through
   out->row). 0, or -1 with an exception. */
static inline int
bleu_put(RowsOut *out, Py_ssize_t j, Py_ssize_t i, Py_ssize_t hyp_len, Py_ssize_t ref_len, const Py_ssize_t *matches,
         Py_ssize_t max_order)
{
    Py_ssize_t order;
    int64_t *row;
    if (out->mode == ROWS_SUMS) {
        row = out->sums + j * out->width;
        row[0] += hyp_len;
        row[1] += ref_len;
        for (order = 1; order <= max_order; order++) {
            row[1 + order] += matches[order];
            row[1 + max_order + order] += hyp_len >= order ? hyp_len - order + 1 : 0;
        }
        return 0;
    }
    row = out->mode == ROWS_MATRIX ? (int64_t *)(void *)(out->data[j] + (size_t)i * (size_t)out->width * sizeof(int64_t))
        : out->row;
    row[0] = hyp_len;
    row[1] = ref_len;
    for (order = 1; order <= max_order; order++) {
        row[1 + order] = matches[order];
        row[1 + max_order + order] = hyp_len >= order ? hyp_len - order + 1 : 0;
    }
    return out->mode == ROWS_MATRIX ? 0 : rows_out_put(out, j, i);
}

/* The results (the sums made lists), the reference to them passed to the caller; NULL on error. */
static PyObject *
rows_out_finish(RowsOut *out)
{
    PyObject *results;
    Py_ssize_t j;
    if (out->mode == ROWS_SUMS) {
        for (j = 0; j < out->n_systems; j++) {
            PyObject *sums = int64_list(out->sums + j * out->width, out->width);
            if (sums == NULL) {
                rows_out_free(out);
                return NULL;
            }
            PyList_SET_ITEM(out->results, j, sums);
        }
    }
    results = out->results;
    out->results = NULL;
    rows_out_free(out);
    return results;
}

/* bleu_statistics(hypotheses, references, tokenizer, max_order, lowercase, shortest, rows)

   BLEU's statistics of each hypothesis (a str) against its segment's references (a
   sequence of str): [hyp_len, ref_len, matches 1..max_order, totals 1..max_order], their
   sum (rows 0 or False), a list per segment (1 or True), or one bytes object of int64 rows (2).
   ref_len: the only reference's length, the shortest's (shortest), or the closest to the
   hypothesis (shorter on a tie). */
static PyObject *
bleu_statistics(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* one system: written here without a RowsOut, whose allocations would be a visible share of
       a sentence's statistics (-sl calls this once per segment) */
    Scratch own, *s;
    PyObject *hyps = NULL, *refs_list = NULL, *result = NULL, *row = NULL;
    Py_ssize_t max_order, n_segments, segment, order, width;
    int tokenizer, lowercase, shortest, rows;
    long long *sums = NULL;
    char *matrix = NULL;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "bleu_statistics(hypotheses, references, tokenizer, max_order, lowercase, shortest, rows)");
        return NULL;
    }
    if (read_batch_settings(args, &tokenizer, &max_order, &lowercase, &shortest, &rows) < 0) {
        return NULL;
    }
    hyps = PySequence_Fast(args[0], "hypotheses must be a sequence");
    if (hyps == NULL) {
        return NULL;
    }
    s = scratch_acquire(module, &own);
    if (check_tables(s, tokenizer) < 0) {
        goto done;
    }
    refs_list = PySequence_Fast(args[1], "references must be a sequence");
    if (refs_list == NULL) {
        goto done;
    }
    n_segments = PySequence_Fast_GET_SIZE(hyps);
    if (PySequence_Fast_GET_SIZE(refs_list) != n_segments) {
        PyErr_SetString(PyExc_ValueError, "one sequence of references per hypothesis");
        goto done;
    }
    width = 2 + 2 * max_order;
    if (reserve_matches(s, max_order) < 0) {
        goto done;
    }
    if (rows == ROWS_SUMS && (sums = PyMem_Calloc((size_t)width, sizeof(long long))) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    result = rows == ROWS_LISTS ? PyList_New(n_segments)
        : rows == ROWS_MATRIX ? int64_matrix(n_segments, width, &matrix) : NULL;
    if (rows != ROWS_SUMS && result == NULL) {
        goto done;
    }
    for (segment = 0; segment < n_segments; segment++) {
        Py_ssize_t hyp_len, ref_len;
        if (segment_statistics(s, PySequence_Fast_GET_ITEM(hyps, segment), PySequence_Fast_GET_ITEM(refs_list, segment),
                               tokenizer, lowercase, shortest, max_order, &hyp_len, &ref_len) < 0) {
            goto fail;
        }
        if (rows == ROWS_LISTS) {
            row = PyList_New(width);
            if (row == NULL) {
                goto fail;
            }
#define SET_ITEM(index, value) do { PyObject *number = PyLong_FromSsize_t(value); \
                if (number == NULL) { goto fail; } PyList_SET_ITEM(row, index, number); } while (0)
            SET_ITEM(0, hyp_len);
            SET_ITEM(1, ref_len);
            for (order = 1; order <= max_order; order++) {
                SET_ITEM(1 + order, s->matches[order]);
                SET_ITEM(1 + max_order + order, hyp_len >= order ? hyp_len - order + 1 : 0);
            }
#undef SET_ITEM
            PyList_SET_ITEM(result, segment, row);
            row = NULL;
        }
        else if (rows == ROWS_MATRIX) {
            int64_t *cells = (int64_t *)(void *)(matrix + (size_t)segment * (size_t)width * sizeof(int64_t));
            cells[0] = hyp_len;
            cells[1] = ref_len;
            for (order = 1; order <= max_order; order++) {
                cells[1 + order] = s->matches[order];
                cells[1 + max_order + order] = hyp_len >= order ? hyp_len - order + 1 : 0;
            }
        }
        else {
            sums[0] += hyp_len;
            sums[1] += ref_len;
            for (order = 1; order <= max_order; order++) {
                sums[1 + order] += s->matches[order];
                sums[1 + max_order + order] += hyp_len >= order ? hyp_len - order + 1 : 0;
            }
        }
    }
    if (rows == ROWS_SUMS) {
        result = PyList_New(width);
        if (result == NULL) {
            goto done;
        }
        for (order = 0; order < width; order++) {
            PyObject *number = PyLong_FromLongLong(sums[order]);
            if (number == NULL) {
                goto fail;
            }
            PyList_SET_ITEM(result, order, number);
        }
    }
    goto done;
fail:
    Py_XDECREF(row);
    Py_CLEAR(result);
done:
    Py_XDECREF(hyps);
    Py_XDECREF(refs_list);
    PyMem_Free(sums);
    scratch_release(module, s);
    return result;
}

/* bleu_systems(systems, references, tokenizer, max_order, lowercase, shortest, rows) -> per system,
   what bleu_statistics(system, references, ...) gives: each segment's references are tokenized once,
   and every system's hypothesis of that segment is matched against them (hypothesis_statistics),
   instead of tokenizing the references again for each system. */
static PyObject *
bleu_systems(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Scratch own, *s;
    SharedRefs shared;
    Py_ssize_t *kept = NULL;
    PyObject *systems = NULL, *columns = NULL, *refs = NULL, *result = NULL;
    Py_ssize_t max_order, n_systems, n_segments, segment, j;
    int tokenizer, lowercase, shortest, rows, share;
    RowsOut out;
    memset(&shared, 0, sizeof(SharedRefs));
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "bleu_systems(systems, references, tokenizer, max_order, lowercase, shortest, rows)");
        return NULL;
    }
    if (read_batch_settings(args, &tokenizer, &max_order, &lowercase, &shortest, &rows) < 0) {
        return NULL;
    }
    /* tuples: a str subclass's lower() may run code that changes a list while it is read */
    if ((systems = PySequence_Tuple(args[0])) == NULL) {
        return NULL;
    }
    s = scratch_acquire(module, &own);
    if (check_tables(s, tokenizer) < 0 || (refs = PySequence_Tuple(args[1])) == NULL) {
        goto done;
    }
    n_systems = PyTuple_GET_SIZE(systems);
    n_segments = PyTuple_GET_SIZE(refs);
    if ((columns = PyTuple_New(n_systems)) == NULL) {
        goto done;
    }
    for (j = 0; j < n_systems; j++) {
        PyObject *system = PySequence_Tuple(PyTuple_GET_ITEM(systems, j));
        if (system == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(columns, j, system);
        if (PyTuple_GET_SIZE(system) != n_segments) {
            PyErr_SetString(PyExc_ValueError, "one sequence of references per hypothesis");
            goto done;
        }
    }
    if (reserve_matches(s, max_order) < 0
        || rows_out_init(&out, rows, n_systems, n_segments, 2 + 2 * max_order) < 0) {
        goto done;
    }
    share = n_systems > 1 && max_order <= SHARED_MAX_ORDER;
    /* with shared references, each system's row of the segment (hyp_len, ref_len, matches) and its
       hypothesis's length: systems often agree on a segment (three hypotheses in ten across 8 WMT22 en-de
       systems), and an equal str has the same row, so it is tokenized and matched once */
    if (share && ((size_t)n_systems > (size_t)PY_SSIZE_T_MAX / sizeof(Py_ssize_t) / (SHARED_MAX_ORDER + 3)
                  || (kept = PyMem_Malloc((size_t)n_systems * (size_t)(max_order + 3) * sizeof(Py_ssize_t))) == NULL)) {
        PyErr_NoMemory();
        rows_out_free(&out);
        goto done;
    }
    for (segment = 0; segment < n_segments; segment++) {
        Py_ssize_t n_refs = tokenize_references(s, PyTuple_GET_ITEM(refs, segment), tokenizer, lowercase);
        if (n_refs < 0 || (share && shared_build(s, &shared, n_refs, max_order) < 0)) {
            rows_out_free(&out);
            goto done;
        }
        for (j = 0; j < n_systems; j++) {
            Py_ssize_t hyp_len, ref_len, k;
            PyObject *hyp = PyTuple_GET_ITEM(PyTuple_GET_ITEM(columns, j), segment);
            if (share) {
                /* kept[j]: length (-1: not an exact str), hyp_len, ref_len, matches 1..max_order */
                Py_ssize_t *mine = kept + j * (max_order + 3);
                mine[0] = PyUnicode_CheckExact(hyp) ? PyUnicode_GET_LENGTH(hyp) : -1;
                for (k = 0; k < j && mine[0] != -1; k++) {
                    Py_ssize_t *theirs = kept + k * (max_order + 3);
                    PyObject *other = PyTuple_GET_ITEM(PyTuple_GET_ITEM(columns, k), segment);
                    if (theirs[0] == mine[0] && (other == hyp || same_text(other, hyp))) {
                        memcpy(mine + 1, theirs + 1, (size_t)(max_order + 2) * sizeof(Py_ssize_t));
                        break;
                    }
                }
                if (k == j || mine[0] == -1) {
                    if (shared_hypothesis(s, &shared, hyp, n_refs, tokenizer, lowercase, shortest, max_order,
                                          &hyp_len, &ref_len) < 0) {
                        rows_out_free(&out);
                        goto done;
                    }
                    mine[1] = hyp_len;
                    mine[2] = ref_len;
                    memcpy(mine + 3, s->matches + 1, (size_t)max_order * sizeof(Py_ssize_t));
                }
                if (bleu_put(&out, j, segment, mine[1], mine[2], mine + 2, max_order) < 0) {
                    rows_out_free(&out);
                    goto done;
                }
                continue;
            }
            if (hypothesis_statistics(s, hyp, n_refs, tokenizer, lowercase, shortest, max_order, &hyp_len,
                                      &ref_len) < 0
                || bleu_put(&out, j, segment, hyp_len, ref_len, s->matches, max_order) < 0) {
                rows_out_free(&out);
                goto done;
            }
        }
    }
    result = rows_out_finish(&out);
done:
    PyMem_Free(kept);
    shared_free(&shared);
    Py_XDECREF(systems);
    Py_XDECREF(columns);
    Py_XDECREF(refs);
    scratch_release(module, s);
    return result;
}

/* BLEU from one segment's statistics (hyp_len, ref_len, matches[1..max_order]: counts far
   below 2**53, so exact as doubles), with the operations of bleucli.metrics.bleu._bleu in its
   order, each on doubles as Python does them on floats and small ints (libm's log and exp are
   what math.log and math.exp call): the same floats. The logs are summed by the builtin sum
   itself (compensated since Python 3.12), given the same list of floats and ints
   (-9999999999 for log(0)). Smoothing none, floor or exp (add-k changes the counts' types:
   bleucli keeps it in Python). Returns the tuple (counts, totals, precisions, score, bp,
   sys_len, ref_len), or NULL. */
enum { SMOOTH_NONE = 0, SMOOTH_FLOOR = 1, SMOOTH_EXP = 2 };

#define LOG_ZERO (-9999999999LL)

static PyObject *
sentence_result(PyObject *module, Py_ssize_t hyp_len, Py_ssize_t ref_len, const Py_ssize_t *matches,
                Py_ssize_t max_order, int smooth, double smooth_value, int effective_order)
{
    ModuleState *state = PyModule_GetState(module);
    double sys_len = (double)hyp_len, ref = (double)ref_len, bp, exp_divisor = 1.0, mean, score = 0.0;
    double *precisions;
    Py_ssize_t n, used = max_order;
    int any = 0;
    PyObject *logs = NULL, *total = NULL, *used_object = NULL, *mean_object = NULL, *result = NULL;
    PyObject *counts = NULL, *totals = NULL, *precision_tuple = NULL;
    if (state == NULL || state->builtin_sum == NULL) {
        PyErr_SetString(PyExc_SystemError, "bleucli._speedups: no module state");
        return NULL;
    }
    precisions = PyMem_Calloc((size_t)max_order + 1, sizeof(double));
    if (precisions == NULL) {
        return PyErr_NoMemory();
    }
    bp = sys_len < ref ? (sys_len > 0 ? exp(1.0 - ref / sys_len) : 0.0) : 1.0;
    for (n = 0; n < max_order; n++) {
        any |= matches[n + 1] != 0;
    }
    if (any) {
        for (n = 0; n < max_order; n++) {
            double correct = (double)matches[n + 1];
            double total_n = hyp_len > n ? (double)(hyp_len - n) : 0.0;
            if (total_n == 0.0) {
                break;
            }
            if (effective_order) {
                used = n + 1;
            }
            if (correct == 0.0) {
                if (smooth == SMOOTH_EXP) {
                    exp_divisor *= 2;
                    precisions[n] = 100.0 / (exp_divisor * total_n);
                }
                else if (smooth == SMOOTH_FLOOR) {
                    precisions[n] = 100.0 * smooth_value / total_n;
                }
            }
            else {
                precisions[n] = 100.0 * correct / total_n;
            }
        }
        logs = PyList_New(used);
        if (logs == NULL) {
            goto done;
        }
        for (n = 0; n < used; n++) {
            PyObject *value = precisions[n] != 0.0 ? PyFloat_FromDouble(log(precisions[n]))
                : PyLong_FromLongLong(LOG_ZERO);
            if (value == NULL) {
                goto done;
            }
            PyList_SET_ITEM(logs, n, value);
        }
        if ((total = PyObject_CallOneArg(state->builtin_sum, logs)) == NULL
            || (used_object = PyLong_FromSsize_t(used)) == NULL
            || (mean_object = PyNumber_TrueDivide(total, used_object)) == NULL) {
            goto done;
        }
        mean = PyFloat_AsDouble(mean_object);
        if (mean == -1.0 && PyErr_Occurred()) {
            goto done;
        }
        score = bp * exp(mean);
    }
    counts = PyList_New(max_order);  /* lists, as BLEUScore's fields are (sacreBLEU's types) */
    totals = PyList_New(max_order);
    precision_tuple = PyList_New(max_order);
    if (counts == NULL || totals == NULL || precision_tuple == NULL) {
        goto done;
    }
    for (n = 0; n < max_order; n++) {
        PyObject *count = PyLong_FromSsize_t(matches[n + 1]);
        PyObject *most = PyLong_FromSsize_t(hyp_len > n ? hyp_len - n : 0);
        PyObject *precision = PyFloat_FromDouble(precisions[n]);
        if (count == NULL || most == NULL || precision == NULL) {
            Py_XDECREF(count);
            Py_XDECREF(most);
            Py_XDECREF(precision);
            goto done;
        }
        PyList_SET_ITEM(counts, n, count);
        PyList_SET_ITEM(totals, n, most);
        PyList_SET_ITEM(precision_tuple, n, precision);
    }
    result = Py_BuildValue("(OOOddnn)", counts, totals, precision_tuple, score, bp, hyp_len, ref_len);
done:
    PyMem_Free(precisions);
    Py_XDECREF(logs);
    Py_XDECREF(total);
    Py_XDECREF(used_object);
    Py_XDECREF(mean_object);
    Py_XDECREF(counts);
    Py_XDECREF(totals);
    Py_XDECREF(precision_tuple);
    return result;
}

static const char *const SCORE_KEYS[9] = {"name", "score", "signature", "counts", "totals", "precisions", "bp",
                                           "sys_len", "ref_len"};

/* An instance of `cls` (BLEUScore) made as object.__new__(cls) and filled through its __dict__, as
   BLEUScore._build does (the frozen dataclass's __init__ costs more than the arithmetic), from
   sentence_result's tuple. */
static PyObject *
score_object(ModuleState *state, PyObject *cls, PyObject *name, PyObject *signature, PyObject *fields)
{
    PyObject *values[9];
    PyObject *object, *dict;
    PyTypeObject *type;
    int i;
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "bleu_sentence: the result class must be a type");
        return NULL;
    }
    values[0] = name;
    values[1] = PyTuple_GET_ITEM(fields, 3);
    values[2] = signature;
    values[3] = PyTuple_GET_ITEM(fields, 0);
    values[4] = PyTuple_GET_ITEM(fields, 1);
    values[5] = PyTuple_GET_ITEM(fields, 2);
    values[6] = PyTuple_GET_ITEM(fields, 4);
    values[7] = PyTuple_GET_ITEM(fields, 5);
    values[8] = PyTuple_GET_ITEM(fields, 6);
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
    for (i = 0; i < 9; i++) {
        if (PyDict_SetItem(dict, state->score_keys[i], values[i]) < 0) {
            Py_DECREF(dict);
            Py_DECREF(object);
            return NULL;
        }
    }
    Py_DECREF(dict);
    return object;
}

/* The settings shared by bleu_sentence and bleu_sentences (their arguments 2..8), after checking that
   `function` was given 9 or 12 arguments (the first one named `first`). */
typedef struct {
    int tokenizer, lowercase, shortest, smooth, effective_order;
    Py_ssize_t max_order;
    double smooth_value;
} SentenceSettings;

static int
read_sentence_settings(const char *function, const char *first, PyObject *const *args, Py_ssize_t nargs,
                       SentenceSettings *out)
{
    if (nargs != 9 && nargs != 12) {
        PyErr_Format(PyExc_TypeError, "%s(%s, references, tokenizer, max_order, lowercase, shortest, smooth, "
                     "smooth_value, effective_order[, cls, name, signature])", function, first);
        return -1;
    }
    out->smooth_value = 0.0;
    if ((out->tokenizer = read_tokenizer(args[2])) < 0 || (out->max_order = read_order(args[3])) < 0
        || (out->lowercase = PyObject_IsTrue(args[4])) < 0 || (out->shortest = PyObject_IsTrue(args[5])) < 0
        || (out->effective_order = PyObject_IsTrue(args[8])) < 0) {
        return -1;
    }
    if (!PyUnicode_Check(args[6])) {
        out->smooth = -1;
    }
    else if (PyUnicode_CompareWithASCIIString(args[6], "none") == 0) {
        out->smooth = SMOOTH_NONE;
    }
    else if (PyUnicode_CompareWithASCIIString(args[6], "floor") == 0) {
        out->smooth = SMOOTH_FLOOR;
    }
    else if (PyUnicode_CompareWithASCIIString(args[6], "exp") == 0) {
        out->smooth = SMOOTH_EXP;
    }
    else {
        out->smooth = -1;
    }
    if (out->smooth < 0) {
        PyErr_SetString(PyExc_ValueError, "bleu_sentence smooths with 'none', 'floor' or 'exp'");
        return -1;
    }
    if (out->smooth == SMOOTH_FLOOR) {
        out->smooth_value = PyFloat_AsDouble(args[7]);
        if (out->smooth_value == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

/* The score of the hypothesis whose statistics are in s: the tuple of sentence_result, or with
   extra (cls, name, signature) an instance of cls. */
static PyObject *
sentence_score_of(PyObject *module, Scratch *s, const SentenceSettings *settings, Py_ssize_t hyp_len,
                  Py_ssize_t ref_len, PyObject *const *extra)
{
    PyObject *fields = sentence_result(module, hyp_len, ref_len, s->matches, settings->max_order, settings->smooth,
                                       settings->smooth_value, settings->effective_order);
    PyObject *result;
    if (fields == NULL || extra == NULL) {
        return fields;
    }
    result = score_object(PyModule_GetState(module), extra[0], extra[1], extra[2], fields);
    Py_DECREF(fields);
    return result;
}

/* bleu_sentence(hypothesis, references, tokenizer, max_order, lowercase, shortest, smooth,
                 smooth_value, effective_order) -> (counts, totals, precisions, score, bp, sys_len, ref_len)
   bleu_sentence(..., effective_order, cls, name, signature) -> cls instance (BLEUScore) with those fields

   One sentence's BLEU in one call: the statistics of bleu_statistics and the score of
   bleucli.metrics.bleu._bleu for smoothing "none", "floor" or "exp" (smooth_value: the floor's
   value, else ignored). */
static PyObject *
bleu_sentence(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Scratch own, *s;
    SentenceSettings settings;
    PyObject *result = NULL;
    Py_ssize_t hyp_len, ref_len;
    if (read_sentence_settings("bleu_sentence", "hypothesis", args, nargs, &settings) < 0) {
        return NULL;
    }
    s = scratch_acquire(module, &own);
    if (check_tables(s, settings.tokenizer) == 0 && reserve_matches(s, settings.max_order) == 0
        && segment_statistics(s, args[0], args[1], settings.tokenizer, settings.lowercase, settings.shortest,
                              settings.max_order, &hyp_len, &ref_len) == 0) {
        result = sentence_score_of(module, s, &settings, hyp_len, ref_len, nargs == 12 ? args + 9 : NULL);
    }
    scratch_release(module, s);
    return result;
}

/* bleu_sentences(hypotheses, references, ...as bleu_sentence) -> list: bleu_sentence for every
   hypothesis (a sequence of str) against the same references, which are tokenized once for all
   of them (sentence_scores: MBR decoding scores many candidates against one reference set). */
static PyObject *
bleu_sentences(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Scratch own, *s;
    SentenceSettings settings;
    PyObject *hyps, *results = NULL;
    Py_ssize_t n_refs, k, n, hyp_len, ref_len;
    if (read_sentence_settings("bleu_sentences", "hypotheses", args, nargs, &settings) < 0) {
        return NULL;
    }
    if ((hyps = PySequence_Fast(args[0], "the hypotheses must be a sequence")) == NULL) {
        return NULL;
    }
    n = PySequence_Fast_GET_SIZE(hyps);
    if ((results = PyList_New(n)) == NULL) {
        Py_DECREF(hyps);
        return NULL;
    }
    s = scratch_acquire(module, &own);
    if (check_tables(s, settings.tokenizer) < 0 || reserve_matches(s, settings.max_order) < 0
        || (n_refs = tokenize_references(s, args[1], settings.tokenizer, settings.lowercase)) < 0) {
        Py_CLEAR(results);
    }
    for (k = 0; results != NULL && k < n; k++) {
        PyObject *score = NULL;
        if (hypothesis_statistics(s, PySequence_Fast_GET_ITEM(hyps, k), n_refs, settings.tokenizer,
                                  settings.lowercase, settings.shortest, settings.max_order, &hyp_len, &ref_len) == 0) {
            score = sentence_score_of(module, s, &settings, hyp_len, ref_len, nargs == 12 ? args + 9 : NULL);
        }
        if (score == NULL) {
            Py_CLEAR(results);
            break;
        }
        PyList_SET_ITEM(results, k, score);
    }
    scratch_release(module, s);
    Py_DECREF(hyps);
    return results;
}

/* ======================================================================================
 * Newlines, for --jobs: a part of a file cut at a byte offset first finds where its lines
 * start in the other files, by counting newlines (bleucli/file_ranges.py). memchr jumps from
 * one newline to the next several times faster than bytes.count scans byte by byte.
 * ====================================================================================== */

/* newlines(buffer, start, end, limit) -> (found, position): the newlines in buffer[start:end],
   at most `limit` of them (a negative limit: all), and the offset just after the last one
   found (start if none). */
static PyObject *
newlines(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view;
    Py_ssize_t start, end, limit, found = 0;
    const char *at, *stop, *next;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "newlines(buffer, start, end, limit) takes 4 arguments");
        return NULL;
    }
    if ((start = PyLong_AsSsize_t(args[1])) == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if ((end = PyLong_AsSsize_t(args[2])) == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if ((limit = PyLong_AsSsize_t(args[3])) == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (start < 0 || end > view.len || start > end) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "newlines: start and end must satisfy 0 <= start <= end <= len(buffer)");
        return NULL;
    }
    at = (const char *)view.buf + start;
    stop = (const char *)view.buf + end;
    while (found != limit && at < stop && (next = memchr(at, '\n', (size_t)(stop - at))) != NULL) {
        found++;
        at = next + 1;
    }
    start = at - (const char *)view.buf;  /* just after the last newline found, or still start */
    PyBuffer_Release(&view);
    return Py_BuildValue("(nn)", found, start);
}

#include "_speedups_chrf.c"
#include "_speedups_ter.c"  /* TER's edit distance with shifts: ter_edits */
#include "_speedups_resample.c"  /* the bootstrap's resample counts: count_draws */
#include "_speedups_bootstrap.c"  /* a seeded bootstrap after the draws: sums, scores, intervals, p-values */

static PyMethodDef methods[] = {
    CHRF_METHODS
    RESAMPLE_METHODS
    BOOTSTRAP_METHODS
    {"ngram_matches", (PyCFunction)(void (*)(void))ngram_matches, METH_FASTCALL,
     "ngram_matches(hypothesis, references, max_order[, exact_str]) -> list of clipped matches, orders\n"
     "1..max_order.\n\nhypothesis and each reference: a str (characters are the tokens) or a list of str\n"
     "(compared by their text). With exact_str true, a token that is not exactly a str (a subclass,\n"
     "which may compare otherwise) raises TypeError, so that NLTK's callers count in Python."},
    {"tokenize", (PyCFunction)(void (*)(void))tokenize, METH_FASTCALL,
     "tokenize(line, tokenizer) -> list of str: the tokens of '13a', 'intl', 'zh', 'char' or 'none', exactly\n"
     "as the Python tokenizers' tokens() give them."},
    {"tokens_13a", (PyCFunction)tokens_13a, METH_O,
     "tokens_13a(line) -> list of str: tokenize(line, '13a')."},
    {"tokens_intl", (PyCFunction)tokens_intl, METH_O,
     "tokens_intl(line) -> list of str: tokenize(line, 'intl')."},
    {"set_intl_classes", (PyCFunction)set_intl_classes, METH_O,
     "set_intl_classes(table): intl's classes, one byte per code point (1 P, 2 S, 4 N), from regex's tables."},
    {"set_zh_ranges", (PyCFunction)set_zh_ranges, METH_O,
     "set_zh_ranges(ranges): zh's Chinese characters, inclusive (first, last) code point pairs (tok_zh)."},
    {"tokens_zh", (PyCFunction)tokens_zh, METH_O,
     "tokens_zh(line) -> list of str: tokenize(line, 'zh')."},
    {"bleu_sentence", (PyCFunction)(void (*)(void))bleu_sentence, METH_FASTCALL,
     "bleu_sentence(hypothesis, references, tokenizer, max_order, lowercase, shortest, smooth, smooth_value,\n"
     "effective_order[, cls, name, signature]) -> (counts, totals, precisions, score, bp, sys_len, ref_len),\n"
     "or with cls, name and signature an instance of cls with those fields: sentence BLEU in one call."},
    {"bleu_statistics", (PyCFunction)(void (*)(void))bleu_statistics, METH_FASTCALL,
     "bleu_statistics(hypotheses, references, tokenizer, max_order, lowercase, shortest, rows)\n"
     "-> BLEU's statistics: their sum (rows 0), a list per segment (1) or one bytes object of int64 rows (2);\n"
     "tokenized, counted and matched in C."},
    {"bleu_systems", (PyCFunction)(void (*)(void))bleu_systems, METH_FASTCALL,
     "bleu_systems(systems, references, ...as bleu_statistics) -> list: bleu_statistics of each system, each\n"
     "segment's references tokenized once for all of them."},
    {"bleu_sentences", (PyCFunction)(void (*)(void))bleu_sentences, METH_FASTCALL,
     "bleu_sentences(hypotheses, references, ...as bleu_sentence) -> list: bleu_sentence of each hypothesis\n"
     "against the same references, tokenized once for all of them."},
    {"newlines", (PyCFunction)(void (*)(void))newlines, METH_FASTCALL,
     "newlines(buffer, start, end, limit) -> (found, position): the newlines in buffer[start:end], at most\n"
     "limit of them (negative: all), and the offset just after the last one found (start if none)."},
    {"ter_edits", (PyCFunction)(void (*)(void))ter_edits, METH_FASTCALL,
     "ter_edits(hypothesis, references) -> int: the fewest edits (shifts count one each) turning the\n"
     "hypothesis (a list of str) into one of the references (lists of str), as sacreBLEU 2.6's TER."},
    {NULL, NULL, 0, NULL},
};


static int
add_limit(PyObject *m, const char *name, Py_ssize_t value)
{
    PyObject *number = PyLong_FromSsize_t(value);
    int result;
    if (number == NULL) {
        return -1;
    }
    result = PyModule_AddObjectRef(m, name, number);
    Py_DECREF(number);
    return result;
}

static int
module_exec(PyObject *m)
{
    ModuleState *state = PyModule_GetState(m);
    /* MAX_TOKENS fits the int32_t ids; a table slot (word table: the widest) times the
       at most 4 slots a token, plus its count, fits ALLOCATION_BYTES_PER_TOKEN */
    Py_BUILD_ASSERT(BLEUCLI_MAX_TOKENS <= INT32_MAX);
    Py_BUILD_ASSERT(4 * (sizeof(PyObject *) + sizeof(Py_hash_t) + sizeof(int32_t)) + sizeof(int32_t)
                    <= ALLOCATION_BYTES_PER_TOKEN);
    state->references_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &References_spec, NULL);
    if (state->references_type == NULL) {
        return -1;
    }
    state->builtin_sum = PyDict_GetItemString(PyEval_GetBuiltins(), "sum");
    if (state->builtin_sum == NULL) {
        PyErr_SetString(PyExc_ImportError, "no builtin sum");
        return -1;
    }
    Py_INCREF(state->builtin_sum);
    for (int i = 0; i < 9; i++) {
        if ((state->score_keys[i] = PyUnicode_InternFromString(SCORE_KEYS[i])) == NULL) {
            return -1;
        }
    }
    if (PyModule_AddType(m, state->references_type) < 0
        || add_limit(m, "MAX_TOKENS", MAX_TOKENS) < 0
        || add_limit(m, "MAX_ORDER", MAX_ORDER) < 0) {
        return -1;
    }
    return 0;
}

static int
module_traverse(PyObject *m, visitproc visit, void *arg)
{
    ModuleState *state = PyModule_GetState(m);
    if (state != NULL) {  /* never NULL with m_size > 0; checked all the same */
        Py_VISIT(state->references_type);
        Py_VISIT(state->builtin_sum);
        Py_VISIT(state->intl_classes);
        Py_VISIT(state->zh_table);
        for (int i = 0; i < 9; i++) {
            Py_VISIT(state->score_keys[i]);
        }
    }
    return 0;
}

static int
module_clear(PyObject *m)
{
    ModuleState *state = PyModule_GetState(m);
    if (state != NULL) {
        Py_CLEAR(state->references_type);
        Py_CLEAR(state->builtin_sum);
        Py_CLEAR(state->intl_classes);
        Py_CLEAR(state->zh_table);
        for (int i = 0; i < 9; i++) {
            Py_CLEAR(state->score_keys[i]);
        }
    }
    return 0;
}

static void
module_free(void *m)
{
    ModuleState *state = PyModule_GetState((PyObject *)m);
    module_clear((PyObject *)m);
    if (state != NULL) {
        scratch_free(&state->scratch);
        chrf_state_free(state);
    }
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, (void *)module_exec},
#if PY_VERSION_HEX >= 0x030C0000
    /* No C globals but constant tables, and a type per module object: an interpreter with
       its own GIL may import it. */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#if PY_VERSION_HEX >= 0x030D0000
    /* Not safe without the GIL, so free-threaded builds keep it enabled: References.matches
       builds a References' tables lazily (reftables_extend adds a table and rewrites ref_ids)
       and counts in its shared scratch array (seen), so two threads matching with one
       References at once would corrupt it; and both functions read the caller's token
       lists through borrowed references, which another thread could change under them.
       Dropping the GIL would take a critical section per References and copies (or
       locks) of the lists given. */
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "bleucli._speedups",
    "Compiled n-gram matching; bleucli falls back to pure Python without it.",
    sizeof(ModuleState), methods, module_slots, module_traverse, module_clear, module_free,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModuleDef_Init(&module);
}
