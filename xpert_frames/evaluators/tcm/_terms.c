/* Leftmost-longest dictionary matching over an Arrow string array, read from its buffers.
 *
 * find_terms(offsets, data, validity, start, width, pat_offsets, pat_data, pat_ids, n_ids)
 *     -> (row_offsets: bytes of int64[n + 1], values: bytes of uint32[])
 *
 * The text array is an Arrow ``string`` (width 4) or ``large_string`` (width 8) array given by
 * its buffers and slice offset. The dictionary is ``k`` non-empty UTF-8 patterns (``pat_data``
 * sliced by the int64 ``pat_offsets[k + 1]``) with an id each (``pat_ids``, int32: ``-1`` for a
 * pattern that is matched, so it consumes its text, but not reported; else ``0 <= id < n_ids``).
 *
 * Each row is scanned left to right: at the first position where some pattern matches, the
 * longest pattern matching there is taken and the scan continues after it (exactly an
 * Aho-Corasick leftmost-first search over the patterns sorted longest first). The row's value
 * is the ids of its matches in order of first appearance, each once, without the -1s. Null rows
 * get no values (the caller marks them null). Candidates are found by a hash of the pattern's
 * first character (a 64K-slot table), longest first; matches can only start at character
 * boundaries of valid UTF-8, so the scan steps one character at a time.
 * The GIL is released during the scan.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/_arrow_strings.h"

typedef struct {
    ArrowStrings text;
    Py_ssize_t n;
    /* dictionary */
    const int64_t *pat_off;
    const uint8_t *pat_data;
    const int32_t *pat_ids;
    Py_ssize_t n_pat;
    /* candidates by the hash of their first character: start[h] .. start[h + 1] in list */
    uint32_t *start_of, *list;
} Scan;

#define SLOTS 65536

static inline Py_ssize_t pat_len(const Scan *s, uint32_t p) {
    return (Py_ssize_t)(s->pat_off[p + 1] - s->pat_off[p]);
}

/* Sort pattern indices longest first (ties by index: deterministic). */
static const Scan *sort_scan;
static int longest_first(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    Py_ssize_t lx = pat_len(sort_scan, x), ly = pat_len(sort_scan, y);
    if (lx != ly) return lx > ly ? -1 : 1;
    return x < y ? -1 : (x > y);
}

static inline Py_ssize_t char_len(uint8_t b) {
    return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

/* The slot of the character whose ``n`` bytes start at ``p`` (its bytes as one integer,
 * multiplied by a large odd constant; the top 16 bits). */
static inline uint32_t slot_of(const uint8_t *p, Py_ssize_t n) {
    uint32_t key = 0;
    for (Py_ssize_t k = 0; k < n; k++) key = key << 8 | p[k];
    return (uint32_t)(key * 2654435761u) >> 16;
}

/* Bucket the patterns by their first character, longest first within a bucket. */
static int build(Scan *s) {
    size_t n = (size_t)(s->n_pat ? s->n_pat : 1);
    s->start_of = calloc(SLOTS + 1, sizeof(uint32_t));
    s->list = malloc(n * sizeof(uint32_t));
    uint32_t *order = malloc(n * sizeof(uint32_t)), *slot = malloc(n * sizeof(uint32_t));
    uint32_t *fill = malloc(SLOTS * sizeof(uint32_t));
    if (!s->start_of || !s->list || !order || !slot || !fill) {
        free(order);
        free(slot);
        free(fill);
        return -1;
    }
    for (Py_ssize_t p = 0; p < s->n_pat; p++) {
        const uint8_t *d = s->pat_data + s->pat_off[p];
        Py_ssize_t c = char_len(d[0]), L = pat_len(s, (uint32_t)p);
        slot[p] = slot_of(d, c < L ? c : L);
        s->start_of[slot[p] + 1]++;
        order[p] = (uint32_t)p;
    }
    for (int k = 0; k < SLOTS; k++) s->start_of[k + 1] += s->start_of[k];
    memcpy(fill, s->start_of, SLOTS * sizeof(uint32_t));
    sort_scan = s; /* called with the GIL held: no concurrent use */
    qsort(order, (size_t)s->n_pat, sizeof(uint32_t), longest_first);
    for (Py_ssize_t j = 0; j < s->n_pat; j++) s->list[fill[slot[order[j]]]++] = order[j];
    free(order);
    free(slot);
    free(fill);
    return 0;
}

/* The longest pattern matching at text[i:], or -1. */
static inline int64_t match_at(const Scan *s, const uint8_t *t, Py_ssize_t i, Py_ssize_t len) {
    Py_ssize_t c = char_len(t[i]);
    if (c > len - i) c = len - i;
    uint32_t h = slot_of(t + i, c);
    for (uint32_t k = s->start_of[h]; k < s->start_of[h + 1]; k++) {
        uint32_t p = s->list[k];
        Py_ssize_t L = pat_len(s, p);
        if (L <= len - i && memcmp(t + i, s->pat_data + s->pat_off[p], (size_t)L) == 0) return p;
    }
    return -1;
}

typedef struct {
    uint32_t *values;
    size_t len, cap;
} Out;

static int push(Out *o, uint32_t v) {
    if (o->len == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 1024;
        uint32_t *p = realloc(o->values, cap * sizeof *p);
        if (!p) return -1;
        o->values = p;
        o->cap = cap;
    }
    o->values[o->len++] = v;
    return 0;
}

/* 0 ok, -1 out of memory, -2 bad offsets (row in *bad). */
static int scan_rows(const Scan *s, int64_t *row_off, Out *out, uint32_t *seen, Py_ssize_t *bad) {
    row_off[0] = 0;
    for (Py_ssize_t r = 0; r < s->n; r++) {
        if (arrow_is_valid(&s->text, r)) {
            size_t bytes = 0;
            const uint8_t *t = arrow_row(&s->text, r, &bytes);
            if (!t) {
                *bad = r;
                return -2;
            }
            Py_ssize_t len = (Py_ssize_t)bytes, i = 0;
            uint32_t stamp = (uint32_t)(r + 1);
            while (i < len) {
                int64_t p = match_at(s, t, i, len);
                if (p < 0) {
                    i += char_len(t[i]);
                    continue;
                }
                i += pat_len(s, (uint32_t)p);
                int32_t id = s->pat_ids[p];
                if (id >= 0 && seen[id] != stamp) {
                    seen[id] = stamp;
                    if (push(out, (uint32_t)id) < 0) return -1;
                }
            }
        }
        row_off[r + 1] = (int64_t)out->len;
    }
    return 0;
}

static PyObject *find_terms(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer off, data, pat_off, pat_data, pat_ids, vbuf = {0};
    PyObject *validity, *result = NULL;
    Py_ssize_t start, n_ids;
    int width;
    if (!PyArg_ParseTuple(args, "y*y*Oniy*y*y*n", &off, &data, &validity, &start, &width,
                          &pat_off, &pat_data, &pat_ids, &n_ids))
        return NULL;
    Scan s = {0};
    int64_t *row_off = NULL;
    uint32_t *seen = NULL;
    Out out = {0};
    s.n = width == 4 || width == 8 ? off.len / width - 1 - start : 0;
    if (arrow_strings_from(&s.text, &off, &data, validity, &vbuf, start, width, s.n, "text") < 0)
        goto done;
    s.n_pat = pat_off.len / 8 - 1;
    if (s.n_pat < 0 || pat_ids.len != s.n_pat * 4 || n_ids < 0 || n_ids > UINT32_MAX - 1) {
        PyErr_SetString(PyExc_ValueError,
                        "inconsistent buffers: pattern offsets or pattern ids");
        goto done;
    }
    s.pat_off = pat_off.buf;
    s.pat_data = pat_data.buf;
    s.pat_ids = pat_ids.buf;
    for (Py_ssize_t p = 0; p < s.n_pat; p++) {
        if (s.pat_off[p] < 0 || s.pat_off[p + 1] <= s.pat_off[p] ||
            s.pat_off[p + 1] > pat_data.len || s.pat_ids[p] < -1 || s.pat_ids[p] >= n_ids) {
            PyErr_Format(PyExc_ValueError, "pattern %zd: empty, out of its buffer or a bad id",
                         p);
            goto done;
        }
    }
    row_off = malloc((size_t)(s.n + 1) * sizeof(int64_t));
    seen = calloc((size_t)(n_ids ? n_ids : 1), sizeof(uint32_t));
    if (!row_off || !seen || build(&s) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int status;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS
    status = scan_rows(&s, row_off, &out, seen, &bad);
    Py_END_ALLOW_THREADS
    if (status == -1) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == -2) {
        PyErr_Format(PyExc_ValueError, "row %zd: string offsets outside the data buffer", bad);
        goto done;
    }
    result = Py_BuildValue("(y#y#)", (const char *)row_off, (Py_ssize_t)((s.n + 1) * 8),
                           (const char *)(out.values ? out.values : (uint32_t *)""),
                           (Py_ssize_t)(out.len * 4));
done:
    free(s.start_of);
    free(s.list);
    free(row_off);
    free(seen);
    free(out.values);
    if (vbuf.obj) PyBuffer_Release(&vbuf);
    PyBuffer_Release(&off);
    PyBuffer_Release(&data);
    PyBuffer_Release(&pat_off);
    PyBuffer_Release(&pat_data);
    PyBuffer_Release(&pat_ids);
    return result;
}

static PyMethodDef methods[] = {
    {"find_terms", find_terms, METH_VARARGS,
     "find_terms(offsets, data, validity, start, width, pat_offsets, pat_data, pat_ids, n_ids)"
     " -> (row_offsets int64 bytes, values uint32 bytes): leftmost-longest dictionary matches "
     "of each row, their ids in order of first appearance, each once, -1 ids dropped."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_terms",
    "Leftmost-longest dictionary matching on Arrow string buffers (GIL released).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__terms(void) { return PyModule_Create(&module); }
