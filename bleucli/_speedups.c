/*
 * Clipped n-gram matches in C: the one loop BLEU and chrF spend most of their time in.
 *
 * ngram_matches(hypothesis, references, max_order) returns, for n = 1..max_order,
 * the sum over the hypothesis' n-grams of min(count in the hypothesis, max count
 * in any reference). A sequence is either a str (its characters are the tokens:
 * chrF and the char tokenizer) or a list of str (words). The pure-Python
 * matchers in bleucli/metrics compute the same numbers and are used when this
 * module is not built; the tests compare the two on real and random data.
 *
 * Why it is fast: no n-gram is ever built as an object. Tokens get small integer
 * ids (reference tokens first, so a hypothesis token the references lack gets
 * none and can never match), and an n-gram of order n+1 gets the id of the pair
 * (id of its first n tokens, id of its last token), interned in a table of
 * 64-bit keys that is rebuilt for each order. Counting is then indexing arrays.
 * A hypothesis n-gram whose prefix has no id has none either, and once no
 * hypothesis n-gram of an order matches, no longer one can.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define EMPTY_KEY UINT64_MAX

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

/* Open-addressing table from 64-bit keys to dense ids 0, 1, 2, ... */
typedef struct {
    uint64_t *keys;
    int32_t *ids;
    size_t mask;
    int shift;
    int32_t count;
} IdTable;

static int
table_init(IdTable *t, size_t entries)
{
    int bits = table_bits(entries);
    size_t capacity = (size_t)1 << bits;
    t->keys = PyMem_Malloc(capacity * sizeof(uint64_t));
    t->ids = PyMem_Malloc(capacity * sizeof(int32_t));
    if (t->keys == NULL || t->ids == NULL) {
        PyMem_Free(t->keys);
        PyMem_Free(t->ids);
        t->keys = NULL;
        t->ids = NULL;
        return -1;
    }
    t->mask = capacity - 1;
    t->shift = 64 - bits;
    t->count = 0;
    memset(t->keys, 0xff, capacity * sizeof(uint64_t));
    return 0;
}

static void
table_clear(IdTable *t)
{
    memset(t->keys, 0xff, (t->mask + 1) * sizeof(uint64_t));
    t->count = 0;
}

static void
table_free(IdTable *t)
{
    PyMem_Free(t->keys);
    PyMem_Free(t->ids);
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

/* Words: a table of str objects, compared by content, hashed with str's own hash. */
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
        return 0;
    }
    if (PyList_Check(object)) {
        s->is_text = 0;
        s->length = PyList_GET_SIZE(object);
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "a sequence must be a str or a list of str, not %.100s",
                 Py_TYPE(object)->tp_name);
    return -1;
}

static PyObject *
ngram_matches(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *references, *result = NULL;
    Sequence hyp, *refs = NULL;
    Py_ssize_t n_refs, k, i, max_order, total_ref = 0, order;
    Py_ssize_t *offsets = NULL;
    int32_t *memory = NULL, *ref_base, *ref_ids, *hyp_base, *hyp_ids, *best, *seen, *own;
    IdTable table = {NULL, NULL, 0, 0, 0};
    WordTable words = {NULL, NULL, NULL, 0, 0};
    Py_ssize_t *matches = NULL;
    int use_words;

    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "ngram_matches(hypothesis, references, max_order)");
        return NULL;
    }
    max_order = PyLong_AsSsize_t(args[2]);
    if (max_order == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (max_order < 0) {
        PyErr_SetString(PyExc_ValueError, "max_order must be >= 0");
        return NULL;
    }
    if (sequence_open(&hyp, args[0]) < 0) {
        return NULL;
    }
    if (PyUnicode_Check(args[1])) {  /* a str is a sequence, of one-character references */
        PyErr_SetString(PyExc_TypeError, "references must be a sequence of references, not a str");
        return NULL;
    }
    references = PySequence_Fast(args[1], "references must be a sequence");
    if (references == NULL) {
        return NULL;
    }
    n_refs = PySequence_Fast_GET_SIZE(references);
    matches = PyMem_Calloc((size_t)max_order + 1, sizeof(Py_ssize_t));
    refs = PyMem_Calloc((size_t)n_refs + 1, sizeof(Sequence));
    offsets = PyMem_Calloc((size_t)n_refs + 1, sizeof(Py_ssize_t));
    if (matches == NULL || refs == NULL || offsets == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    use_words = !hyp.is_text;
    for (k = 0; k < n_refs; k++) {
        if (sequence_open(&refs[k], PySequence_Fast_GET_ITEM(references, k)) < 0) {
            goto done;
        }
        if (refs[k].is_text != hyp.is_text) {
            PyErr_SetString(PyExc_TypeError, "hypothesis and references must be of one kind (str or list of str)");
            goto done;
        }
        offsets[k] = total_ref;
        total_ref += refs[k].length;
    }
    offsets[n_refs] = total_ref;
    if (max_order == 0 || n_refs == 0 || total_ref == 0 || hyp.length == 0) {
        goto build;
    }
    /* ref_base, ref_ids: total_ref each; hyp_base, hyp_ids: hyp.length each;
       best, seen, own: one count per possible id (at most total_ref) */
    memory = PyMem_Malloc(((size_t)total_ref * 5 + (size_t)hyp.length * 2) * sizeof(int32_t));
    if (memory == NULL || table_init(&table, (size_t)total_ref) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    ref_base = memory;
    ref_ids = ref_base + total_ref;
    best = ref_ids + total_ref;
    seen = best + total_ref;
    own = seen + total_ref;
    hyp_base = own + total_ref;
    hyp_ids = hyp_base + hyp.length;

    /* order 1: token ids */
    if (use_words) {
        if (words_init(&words, (size_t)total_ref) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        for (k = 0; k < n_refs; k++) {
            PyObject *list = refs[k].object;
            for (i = 0; i < refs[k].length; i++) {
                int32_t id = words_id(&words, PyList_GET_ITEM(list, i), 1);
                if (id < 0) {
                    goto done;
                }
                ref_base[offsets[k] + i] = id;
            }
        }
        for (i = 0; i < hyp.length; i++) {
            int32_t id = words_id(&words, PyList_GET_ITEM(hyp.object, i), 0);
            if (id == -2) {
                goto done;
            }
            hyp_base[i] = id;
        }
        words_free(&words);
        words.words = NULL;
    }
    else {
        for (k = 0; k < n_refs; k++) {
            for (i = 0; i < refs[k].length; i++) {
                ref_base[offsets[k] + i] = table_id(&table, PyUnicode_READ(refs[k].kind, refs[k].data, i), 1);
            }
        }
        for (i = 0; i < hyp.length; i++) {
            hyp_base[i] = table_id(&table, PyUnicode_READ(hyp.kind, hyp.data, i), 0);
        }
    }
    memcpy(ref_ids, ref_base, (size_t)total_ref * sizeof(int32_t));
    memcpy(hyp_ids, hyp_base, (size_t)hyp.length * sizeof(int32_t));

    for (order = 1; order <= max_order; order++) {
        Py_ssize_t ids = use_words && order == 1 ? words.count : table.count, found = 0;
        Py_ssize_t hyp_grams = hyp.length - order + 1;
        int any = 0;
        if (hyp_grams <= 0) {
            break;
        }
        memset(best, 0, (size_t)ids * sizeof(int32_t));
        /* best[id]: the most times any one reference has the n-gram */
        if (n_refs == 1) {
            for (i = 0; i + order <= total_ref; i++) {
                best[ref_ids[i]]++;
            }
        }
        else {
            memset(own, 0, (size_t)ids * sizeof(int32_t));
            for (k = 0; k < n_refs; k++) {
                Py_ssize_t start = offsets[k], stop = offsets[k + 1] - order + 1;
                for (i = start; i < stop; i++) {
                    own[ref_ids[i]]++;
                }
                for (i = start; i < stop; i++) {
                    int32_t id = ref_ids[i];
                    if (own[id] > best[id]) {
                        best[id] = own[id];
                    }
                }
                for (i = start; i < stop; i++) {
                    own[ref_ids[i]] = 0;
                }
            }
        }
        /* the j-th occurrence of an n-gram in the hypothesis matches while j <= best */
        memset(seen, 0, (size_t)ids * sizeof(int32_t));
        for (i = 0; i < hyp_grams; i++) {
            int32_t id = hyp_ids[i];
            if (id >= 0) {
                any = 1;
                if (++seen[id] <= best[id]) {
                    found++;
                }
            }
        }
        matches[order] = found;
        if (!any || order == max_order) {
            break;
        }
        /* order + 1: each n-gram extended by the token that follows it */
        table_clear(&table);
        for (k = 0; k < n_refs; k++) {
            Py_ssize_t stop = offsets[k + 1] - order;
            for (i = offsets[k]; i < stop; i++) {
                ref_ids[i] = table_id(&table, ((uint64_t)(uint32_t)ref_ids[i] << 32)
                                              | (uint32_t)ref_base[i + order], 1);
            }
        }
        for (i = 0; i + order < hyp.length; i++) {
            int32_t prefix = hyp_ids[i], last = hyp_base[i + order];
            hyp_ids[i] = prefix < 0 || last < 0 ? -1
                : table_id(&table, ((uint64_t)(uint32_t)prefix << 32) | (uint32_t)last, 0);
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
    if (words.words != NULL) {
        words_free(&words);
    }
    table_free(&table);
    PyMem_Free(memory);
    PyMem_Free(matches);
    PyMem_Free(refs);
    PyMem_Free(offsets);
    Py_DECREF(references);
    return result;
}

static PyMethodDef methods[] = {
    {"ngram_matches", (PyCFunction)(void (*)(void))ngram_matches, METH_FASTCALL,
     "ngram_matches(hypothesis, references, max_order) -> list of clipped matches, orders 1..max_order.\n\n"
     "hypothesis and each reference: a str (characters are the tokens) or a list of str."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "bleucli._speedups",
    "Compiled n-gram matching; bleucli falls back to pure Python without it.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
