/* Which of a set of short patterns occur in each row of an Arrow string array: one pass over
 * the bytes, a uint32 of bits per row.
 *
 * screen(offsets, data, validity, start, width, n, pat_offsets, pat_data, pat_kinds, pat_bits)
 *     -> bytes of uint32[n]
 *
 * The text array is an Arrow ``string`` (width 4) or ``large_string`` (width 8) array of ``n``
 * rows given by its buffers and slice offset. Pattern ``p`` is the bytes ``pat_data[pat_offsets[p] :
 * pat_offsets[p + 1]]`` (int64 offsets, non-empty), each byte read by its kind in ``pat_kinds``
 * (one byte per pattern byte):
 *
 *   0  this byte exactly;
 *   1  any ASCII digit (the byte itself is ignored);
 *   2  this ASCII letter, stored lowercase, in either case (as Polars' ``contains_any(...,
 *      ascii_case_insensitive=True)`` compares);
 *   3  any byte >= 0x80 (any non-ASCII character starts with one).
 *
 * Row ``i`` of the result is the OR of ``pat_bits[p]`` (uint32) over the patterns that occur
 * anywhere in the row's bytes; 0 for a null row.
 *
 * The patterns are one trie over bytes: a digit position is ten edges, a letter position two
 * (its cases), and an "any high byte" position one edge of its own, followed besides an exact
 * edge for the same byte (the only branching of a walk). At each byte offset of a row the trie
 * is walked, from the node two bytes down that a 64K-entry table gives for the byte there and
 * the next one (most offsets cost that one load: no pattern starts with their two bytes), or,
 * where "any high byte" edges leave the root or its children, from the root; every node
 * passed ORs in the bits of the patterns that end there. A row stops early once it has every
 * bit. The GIL is released during the scan.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/_arrow_strings.h"

enum { EXACT = 0, DIGIT = 1, LETTER = 2, HIGH = 3 };

/* Children of a node with more than this many exact edges are found by a 256-entry table. */
enum { DENSE_FROM = 8 };

/* Patterns whose expansions (ten digits, two cases per position) need more trie nodes than this
 * are refused (ValueError): the trie is built on every call. */
enum { MAX_NODES = 1 << 20 };

typedef struct {
    int32_t lo, n;   /* exact edges: bytes cbyte[lo : lo + n] (sorted), nodes cnode[...] */
    int32_t high;    /* the node after any byte >= 0x80, or -1 */
    int32_t dense;   /* >= 0: children by byte in dense[256 * this : ...] */
    uint32_t bits;   /* the bits of the patterns that end here */
} Node;

typedef struct {
    Node *nodes;
    Py_ssize_t n_nodes, cap;
    /* while building: each node's exact edges as a linked list */
    int32_t *first, *next; /* first[node]: first edge; next[edge]: the following edge */
    uint8_t *ebyte;
    int32_t *echild;
    Py_ssize_t n_edges, ecap;
    /* frozen */
    uint8_t *cbyte;
    int32_t *cnode;
    int32_t *dense;
    uint32_t all_bits;
    int too_big; /* MAX_NODES reached */
    /* Without "any high byte" edges at the root or below its children (general = 0), the
     * walk from offset i starts at pair_node[row[i] * 256 + row[i + 1]]: the node two exact
     * bytes down (>= 0), none (-2; the first byte may still end a pattern: first_bits), or
     * -1: no pattern starts with those two bytes. */
    int general;
    int32_t *pair_node;
    uint32_t first_bits[256];
} Trie;

static int32_t new_node(Trie *t) {
    if (t->n_nodes >= MAX_NODES) {
        t->too_big = 1;
        return -1;
    }
    if (t->n_nodes == t->cap) {
        Py_ssize_t cap = t->cap ? 2 * t->cap : 256;
        Node *nodes = realloc(t->nodes, sizeof(Node) * (size_t)cap);
        int32_t *first = realloc(t->first, sizeof(int32_t) * (size_t)cap);
        if (nodes) t->nodes = nodes;
        if (first) t->first = first;
        if (!nodes || !first || cap > INT32_MAX) return -1;
        t->cap = cap;
    }
    Node *node = &t->nodes[t->n_nodes];
    node->lo = node->n = 0;
    node->high = node->dense = -1;
    node->bits = 0;
    t->first[t->n_nodes] = -1;
    return (int32_t)t->n_nodes++;
}

/* The child of ``node`` by exact byte ``b``, made if missing; -1 when out of memory. */
static int32_t exact_child(Trie *t, int32_t node, uint8_t b) {
    for (int32_t e = t->first[node]; e >= 0; e = t->next[e])
        if (t->ebyte[e] == b) return t->echild[e];
    if (t->n_edges == t->ecap) {
        Py_ssize_t cap = t->ecap ? 2 * t->ecap : 256;
        int32_t *next = realloc(t->next, sizeof(int32_t) * (size_t)cap);
        uint8_t *ebyte = realloc(t->ebyte, (size_t)cap);
        int32_t *echild = realloc(t->echild, sizeof(int32_t) * (size_t)cap);
        if (next) t->next = next;
        if (ebyte) t->ebyte = ebyte;
        if (echild) t->echild = echild;
        if (!next || !ebyte || !echild || cap > INT32_MAX) return -1;
        t->ecap = cap;
    }
    int32_t child = new_node(t);
    if (child < 0) return -1;
    int32_t e = (int32_t)t->n_edges++;
    t->ebyte[e] = b;
    t->echild[e] = child;
    t->next[e] = t->first[node];
    t->first[node] = e;
    t->nodes[node].n++;
    return child;
}

/* Pattern bytes ``m..`` (kinds, data, ``len`` in all) below ``node``; -1 when out of memory. */
static int insert(Trie *t, int32_t node, const uint8_t *data, const uint8_t *kinds, int64_t m,
                  int64_t len, uint32_t bits) {
    if (m == len) {
        t->nodes[node].bits |= bits;
        return 0;
    }
    uint8_t want = data[m];
    switch (kinds[m]) {
    case DIGIT:
        for (uint8_t b = '0'; b <= '9'; b++) {
            int32_t child = exact_child(t, node, b);
            if (child < 0 || insert(t, child, data, kinds, m + 1, len, bits) < 0) return -1;
        }
        return 0;
    case LETTER: {
        uint8_t cases[2] = {want, (uint8_t)(want - 'a' + 'A')};
        for (int k = 0; k < 2; k++) {
            int32_t child = exact_child(t, node, cases[k]);
            if (child < 0 || insert(t, child, data, kinds, m + 1, len, bits) < 0) return -1;
        }
        return 0;
    }
    case HIGH: {
        int32_t child = t->nodes[node].high;
        if (child < 0) {
            child = new_node(t);
            if (child < 0) return -1;
            t->nodes[node].high = child;
        }
        return insert(t, child, data, kinds, m + 1, len, bits);
    }
    default: {
        int32_t child = exact_child(t, node, want);
        return child < 0 ? -1 : insert(t, child, data, kinds, m + 1, len, bits);
    }
    }
}

static int by_byte(const void *a, const void *b) {
    return (int)((const uint8_t *)a)[0] - (int)((const uint8_t *)b)[0];
}

/* The edge lists as sorted arrays, dense tables for wide nodes; -1 when out of memory. */
static int freeze(Trie *t) {
    t->cbyte = malloc((size_t)(t->n_edges ? t->n_edges : 1));
    t->cnode = malloc(sizeof(int32_t) * (size_t)(t->n_edges ? t->n_edges : 1));
    Py_ssize_t n_dense = 0;
    for (Py_ssize_t k = 0; k < t->n_nodes; k++)
        if (k == 0 || t->nodes[k].n > DENSE_FROM) n_dense++;
    t->dense = malloc(sizeof(int32_t) * 256 * (size_t)n_dense);
    uint8_t(*pairs)[5] = malloc(5 * (size_t)(t->n_edges ? t->n_edges : 1));
    if (!t->cbyte || !t->cnode || !t->dense || !pairs) {
        free(pairs);
        return -1;
    }
    int32_t at = 0, dense = 0;
    for (Py_ssize_t k = 0; k < t->n_nodes; k++) {
        Node *node = &t->nodes[k];
        int32_t n = 0;
        for (int32_t e = t->first[k]; e >= 0; e = t->next[e], n++) {
            pairs[n][0] = t->ebyte[e];
            memcpy(pairs[n] + 1, &t->echild[e], 4);
        }
        qsort(pairs, (size_t)n, 5, by_byte);
        node->lo = at;
        for (int32_t j = 0; j < n; j++, at++) {
            t->cbyte[at] = pairs[j][0];
            memcpy(&t->cnode[at], pairs[j] + 1, 4);
        }
        if (k == 0 || n > DENSE_FROM) {
            int32_t *table = t->dense + 256 * dense;
            for (int b = 0; b < 256; b++) table[b] = -1;
            for (int32_t j = 0; j < n; j++) table[t->cbyte[node->lo + j]] = t->cnode[node->lo + j];
            node->dense = dense++;
        }
    }
    free(pairs);
    return 0;
}

/* The two-byte start table (after freeze); -1 when out of memory. */
static int pairs_of(Trie *t) {
    const Node *root = &t->nodes[0];
    t->general = root->high >= 0;
    for (int32_t j = 0; j < root->n; j++)
        if (t->nodes[t->cnode[root->lo + j]].high >= 0) t->general = 1;
    if (t->general) return 0;
    t->pair_node = malloc(sizeof(int32_t) * 65536);
    if (!t->pair_node) return -1;
    for (int key = 0; key < 65536; key++) t->pair_node[key] = -1;
    for (int32_t j = 0; j < root->n; j++) {
        int b0 = t->cbyte[root->lo + j];
        const Node *first = &t->nodes[t->cnode[root->lo + j]];
        t->first_bits[b0] = first->bits;
        if (first->bits)
            for (int b1 = 0; b1 < 256; b1++) t->pair_node[(b0 << 8) | b1] = -2;
        for (int32_t m = 0; m < first->n; m++)
            t->pair_node[(b0 << 8) | t->cbyte[first->lo + m]] = t->cnode[first->lo + m];
    }
    return 0;
}

static inline int32_t child_of(const Trie *t, const Node *node, uint8_t b) {
    if (node->dense >= 0) return t->dense[256 * node->dense + b];
    const uint8_t *bytes = t->cbyte + node->lo;
    for (int32_t j = 0; j < node->n; j++) {
        if (bytes[j] == b) return t->cnode[node->lo + j];
        if (bytes[j] > b) break;
    }
    return -1;
}

/* The bits of the patterns starting at row[j - 1] whose walk has reached ``k``. */
static uint32_t walk(const Trie *t, int32_t k, const uint8_t *row, size_t len, size_t j,
                     uint32_t found) {
    for (;;) {
        const Node *node = &t->nodes[k];
        found |= node->bits;
        if (j == len) return found;
        uint8_t b = row[j++];
        int32_t exact = child_of(t, node, b);
        int32_t high = b >= 0x80 ? node->high : -1;
        if (exact >= 0 && high >= 0) found = walk(t, high, row, len, j, found);
        k = exact >= 0 ? exact : high;
        if (k < 0) return found;
    }
}

static uint32_t scan_general(const Trie *t, const uint8_t *row, size_t len) {
    const int32_t *root = t->dense; /* the root's table is the first */
    const int32_t root_high = t->nodes[0].high;
    uint32_t found = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t b = row[i];
        int32_t exact = root[b];
        int32_t high = b >= 0x80 ? root_high : -1;
        if (exact >= 0) found = walk(t, exact, row, len, i + 1, found);
        if (high >= 0) found = walk(t, high, row, len, i + 1, found);
        if (found == t->all_bits) break;
    }
    return found;
}

static uint32_t scan_row(const Trie *t, const uint8_t *row, size_t len) {
    if (t->general) return scan_general(t, row, len);
    const int32_t *pair_node = t->pair_node;
    uint32_t found = 0;
    if (len == 0) return 0;
    for (size_t i = 0; i + 1 < len; i++) {
        int32_t k = pair_node[(row[i] << 8) | row[i + 1]];
        if (k == -1) continue; /* most offsets: no pattern starts with their two bytes */
        found |= t->first_bits[row[i]];
        if (k >= 0) found = walk(t, k, row, len, i + 2, found);
        if (found == t->all_bits) return found;
    }
    return found | t->first_bits[row[len - 1]]; /* the last byte: one-byte patterns */
}

static void trie_free(Trie *t) {
    free(t->nodes);
    free(t->first);
    free(t->next);
    free(t->ebyte);
    free(t->echild);
    free(t->cbyte);
    free(t->cnode);
    free(t->dense);
    free(t->pair_node);
}

static PyObject *screen(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer off, data, pat_off, pat_data, pat_kinds, pat_bits, vbuf = {0};
    PyObject *validity, *result = NULL;
    Py_ssize_t start, n;
    int width;
    if (!PyArg_ParseTuple(args, "y*y*Oniny*y*y*y*", &off, &data, &validity, &start, &width, &n,
                          &pat_off, &pat_data, &pat_kinds, &pat_bits))
        return NULL;
    Trie t = {0};
    ArrowStrings text;
    uint32_t *out = NULL;
    if (arrow_strings_from(&text, &off, &data, validity, &vbuf, start, width, n, "text") < 0)
        goto done;
    Py_ssize_t n_pat = pat_off.len / 8 - 1;
    const int64_t *offsets = pat_off.buf;
    const uint8_t *bytes = pat_data.buf, *kinds = pat_kinds.buf;
    const uint32_t *bits = pat_bits.buf;
    if (n_pat < 0 || pat_bits.len != n_pat * 4 || pat_kinds.len != pat_data.len) {
        PyErr_SetString(PyExc_ValueError,
                        "inconsistent buffers: pattern offsets, kinds or bits");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_pat; k++) {
        if (offsets[k] < 0 || offsets[k + 1] <= offsets[k] || offsets[k + 1] > pat_data.len) {
            PyErr_Format(PyExc_ValueError, "pattern %zd: empty or out of its buffer", k);
            goto done;
        }
    }
    for (Py_ssize_t b = 0; b < pat_kinds.len; b++) {
        uint8_t kind = kinds[b], c = bytes[b];
        if (kind > HIGH || (kind == LETTER && (c < 'a' || c > 'z'))) {
            PyErr_Format(PyExc_ValueError,
                         "pattern byte %zd: kind %d (expected 0-3; kind 2 needs a lowercase "
                         "ASCII letter)",
                         b, (int)kind);
            goto done;
        }
    }
    out = malloc(sizeof(uint32_t) * (size_t)(n ? n : 1));
    int failed = !out || new_node(&t) < 0;
    for (Py_ssize_t k = 0; k < n_pat && !failed; k++) {
        int64_t at = offsets[k];
        failed = insert(&t, 0, bytes + at, kinds + at, 0, offsets[k + 1] - at, bits[k]) < 0;
        t.all_bits |= bits[k];
    }
    if (t.too_big) {
        PyErr_Format(PyExc_ValueError,
                     "the patterns expand to more than %d trie nodes (each digit position is "
                     "ten edges, each letter two); use shorter patterns",
                     (int)MAX_NODES);
        goto done;
    }
    if (failed || freeze(&t) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (pairs_of(&t) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *row;
        if (!arrow_is_valid(&text, i)) {
            out[i] = 0;
            continue;
        }
        row = arrow_row(&text, i, &len);
        if (!row) {
            bad = i;
            break;
        }
        out[i] = scan_row(&t, row, len);
    }
    Py_END_ALLOW_THREADS
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "row %zd: string offsets outside the data buffer", bad);
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(n * 4));
done:
    trie_free(&t);
    free(out);
    if (vbuf.obj) PyBuffer_Release(&vbuf);
    PyBuffer_Release(&off);
    PyBuffer_Release(&data);
    PyBuffer_Release(&pat_off);
    PyBuffer_Release(&pat_data);
    PyBuffer_Release(&pat_kinds);
    PyBuffer_Release(&pat_bits);
    return result;
}

static PyMethodDef methods[] = {
    {"screen", screen, METH_VARARGS,
     "screen(offsets, data, validity, start, width, n, pat_offsets, pat_data, pat_kinds, "
     "pat_bits) -> uint32 bytes: per row, the OR of the bits of the patterns that occur in it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_screen",
    "Which of a set of short patterns occur in each row of an Arrow string array (GIL "
    "released).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__screen(void) { return PyModule_Create(&module); }
