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
 * anywhere in the row's bytes; 0 for a null row. At each byte offset, the patterns that may
 * start with the byte there and the next one are tried (a 64K-bit table says whether there
 * are any, a 64K-entry index lists them; a row's last byte: the one-byte patterns); a pattern
 * whose bits the row already has is skipped. A one-byte ``H`` pattern is a flag set by any
 * byte >= 0x80. The GIL is released during the scan.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/_arrow_strings.h"

enum { EXACT = 0, DIGIT = 1, LETTER = 2, HIGH = 3 };

typedef struct {
    const int64_t *pat_off;
    const uint8_t *pat_data;
    const uint8_t *pat_kinds;
    const uint32_t *pat_bits;
    Py_ssize_t n_pat;
    /* patterns that may start with bytes b0, b1: list2[first2[k] : first2[k + 1]] for
     * k = b0 * 256 + b1 (one-byte patterns under every b1) */
    int32_t *first2;
    int32_t *list2;
    /* the one-byte patterns accepting b (a row's last byte): list1[first1[b] : first1[b + 1]] */
    int32_t first1[257];
    int32_t *list1;
    uint32_t high_bits; /* the bits of the one-byte patterns ``H``: set by any byte >= 0x80 */
    uint8_t pair[8192]; /* bit k: list2 for k is not empty */
    /* a long list2 (full-width forms share their first two bytes): third[k] - 1 indexes
     * thirds, 256 bits of the bytes its patterns accept third (all set if one is shorter) */
    uint16_t *third;
    uint8_t *thirds;
} Patterns;

/* Lists of at least this many patterns get a third-byte filter. */
enum { LONG_LIST = 6 };

static int accepts(uint8_t kind, uint8_t want, uint8_t c) {
    switch (kind) {
    case DIGIT:
        return c >= '0' && c <= '9';
    case LETTER:
        return (uint8_t)(c | 0x20) == want;
    case HIGH:
        return c >= 0x80;
    default:
        return c == want;
    }
}

static int high_only(const Patterns *p, Py_ssize_t k) {
    int64_t at = p->pat_off[k];
    return p->pat_off[k + 1] - at == 1 && p->pat_kinds[at] == HIGH;
}

/* Counts (fill = 0) or lists (fill = 1) pattern k under every two-byte key it may start
 * with (``slots``: counts, or fill positions). */
static void each_pair(Patterns *p, Py_ssize_t k, int32_t *slots, int fill) {
    int64_t at = p->pat_off[k];
    int two = p->pat_off[k + 1] - at >= 2;
    for (int b = 0; b < 256; b++) {
        if (!accepts(p->pat_kinds[at], p->pat_data[at], (uint8_t)b)) continue;
        for (int c = 0; c < 256; c++) {
            if (two && !accepts(p->pat_kinds[at + 1], p->pat_data[at + 1], (uint8_t)c)) continue;
            int key = (b << 8) | c;
            if (fill)
                p->list2[slots[key]++] = (int32_t)k;
            else
                slots[key]++;
        }
    }
}

/* The dispatch tables; -1 when out of memory. */
static int build(Patterns *p) {
    int32_t *count = calloc(65536, sizeof(int32_t));
    p->first2 = malloc(65537 * sizeof(int32_t));
    if (!count || !p->first2) {
        free(count);
        return -1;
    }
    int32_t count1[256] = {0};
    for (Py_ssize_t k = 0; k < p->n_pat; k++) {
        int64_t at = p->pat_off[k];
        if (high_only(p, k)) {
            p->high_bits |= p->pat_bits[k];
            continue;
        }
        each_pair(p, k, count, 0);
        if (p->pat_off[k + 1] - at == 1)
            for (int b = 0; b < 256; b++)
                if (accepts(p->pat_kinds[at], p->pat_data[at], (uint8_t)b)) count1[b]++;
    }
    p->first2[0] = 0;
    for (int key = 0; key < 65536; key++) {
        p->first2[key + 1] = p->first2[key] + count[key];
        if (count[key]) p->pair[key >> 3] |= (uint8_t)(1u << (key & 7));
    }
    p->first1[0] = 0;
    for (int b = 0; b < 256; b++) p->first1[b + 1] = p->first1[b] + count1[b];
    p->list2 = malloc(sizeof(int32_t) * (size_t)(p->first2[65536] ? p->first2[65536] : 1));
    p->list1 = malloc(sizeof(int32_t) * (size_t)(p->first1[256] ? p->first1[256] : 1));
    if (!p->list2 || !p->list1) {
        free(count);
        return -1;
    }
    memcpy(count, p->first2, 65536 * sizeof(int32_t)); /* now the fill positions */
    int32_t fill1[256];
    memcpy(fill1, p->first1, sizeof(fill1));
    for (Py_ssize_t k = 0; k < p->n_pat; k++) {
        int64_t at = p->pat_off[k];
        if (high_only(p, k)) continue;
        each_pair(p, k, count, 1);
        if (p->pat_off[k + 1] - at == 1)
            for (int b = 0; b < 256; b++)
                if (accepts(p->pat_kinds[at], p->pat_data[at], (uint8_t)b))
                    p->list1[fill1[b]++] = (int32_t)k;
    }
    free(count);
    int n_long = 0;
    for (int key = 0; key < 65536; key++)
        if (p->first2[key + 1] - p->first2[key] >= LONG_LIST) n_long++;
    p->third = calloc(65536, sizeof(uint16_t));
    p->thirds = calloc((size_t)(n_long ? n_long : 1), 32);
    if (!p->third || !p->thirds || n_long > 65535) return -1;
    int slot = 0;
    for (int key = 0; key < 65536; key++) {
        if (p->first2[key + 1] - p->first2[key] < LONG_LIST) continue;
        uint8_t *bits = p->thirds + 32 * slot;
        p->third[key] = (uint16_t)++slot;
        for (int32_t j = p->first2[key]; j < p->first2[key + 1]; j++) {
            int32_t k = p->list2[j];
            int64_t at = p->pat_off[k];
            for (int c = 0; c < 256; c++)
                if (p->pat_off[k + 1] - at < 3 ||
                    accepts(p->pat_kinds[at + 2], p->pat_data[at + 2], (uint8_t)c))
                    bits[c >> 3] |= (uint8_t)(1u << (c & 7));
        }
    }
    return 0;
}

/* The patterns of list[lo : hi] tried at row[i], their first ``checked`` bytes known to match. */
static uint32_t try_at(const Patterns *p, const int32_t *list, int32_t lo, int32_t hi,
                       const uint8_t *row, size_t len, size_t i, int64_t checked,
                       uint32_t found) {
    for (int32_t j = lo; j < hi; j++) {
        int32_t k = list[j];
        uint32_t bits = p->pat_bits[k];
        if ((found & bits) == bits) continue;
        int64_t at = p->pat_off[k], n = p->pat_off[k + 1] - at;
        if ((int64_t)(len - i) < n) continue;
        int64_t m = n < checked ? n : checked;
        while (m < n && accepts(p->pat_kinds[at + m], p->pat_data[at + m], row[i + m])) m++;
        if (m == n) found |= bits;
    }
    return found;
}

static uint32_t scan_row(const Patterns *p, const uint8_t *row, size_t len) {
    const uint8_t *pair = p->pair;
    uint32_t found = 0;
    uint8_t high = 0;
    size_t i = 0;
    for (; i + 1 < len; i++) {
        uint8_t c = row[i], d = row[i + 1];
        high |= c;
        if ((pair[(c << 5) | (d >> 3)] >> (d & 7)) & 1) {
            int key = (c << 8) | d;
            uint16_t t = p->third[key];
            if (t && i + 2 < len) {
                uint8_t e = row[i + 2];
                if (!((p->thirds[32 * (t - 1) + (e >> 3)] >> (e & 7)) & 1)) continue;
            }
            found = try_at(p, p->list2, p->first2[key], p->first2[key + 1], row, len, i, 2,
                           found);
        }
    }
    if (i < len) {
        uint8_t c = row[i];
        high |= c;
        found = try_at(p, p->list1, p->first1[c], p->first1[c + 1], row, len, i, 1, found);
    }
    return high & 0x80 ? found | p->high_bits : found;
}

static PyObject *screen(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer off, data, pat_off, pat_data, pat_kinds, pat_bits, vbuf = {0};
    PyObject *validity, *result = NULL;
    Py_ssize_t start, n;
    int width;
    if (!PyArg_ParseTuple(args, "y*y*Oniny*y*y*y*", &off, &data, &validity, &start, &width, &n,
                          &pat_off, &pat_data, &pat_kinds, &pat_bits))
        return NULL;
    Patterns p = {0};
    ArrowStrings text;
    uint32_t *out = NULL;
    if (arrow_strings_from(&text, &off, &data, validity, &vbuf, start, width, n, "text") < 0)
        goto done;
    p.n_pat = pat_off.len / 8 - 1;
    if (p.n_pat < 0 || pat_bits.len != p.n_pat * 4 || pat_kinds.len != pat_data.len) {
        PyErr_SetString(PyExc_ValueError,
                        "inconsistent buffers: pattern offsets, kinds or bits");
        goto done;
    }
    p.pat_off = pat_off.buf;
    p.pat_data = pat_data.buf;
    p.pat_kinds = pat_kinds.buf;
    p.pat_bits = pat_bits.buf;
    for (Py_ssize_t k = 0; k < p.n_pat; k++) {
        if (p.pat_off[k] < 0 || p.pat_off[k + 1] <= p.pat_off[k] ||
            p.pat_off[k + 1] > pat_data.len) {
            PyErr_Format(PyExc_ValueError, "pattern %zd: empty or out of its buffer", k);
            goto done;
        }
    }
    for (Py_ssize_t b = 0; b < pat_kinds.len; b++) {
        uint8_t kind = ((const uint8_t *)pat_kinds.buf)[b], c = p.pat_data[b];
        if (kind > HIGH || (kind == LETTER && (c < 'a' || c > 'z'))) {
            PyErr_Format(PyExc_ValueError,
                         "pattern byte %zd: kind %d (expected 0-3; kind 2 needs a lowercase "
                         "ASCII letter)",
                         b, (int)kind);
            goto done;
        }
    }
    out = malloc(sizeof(uint32_t) * (size_t)(n ? n : 1));
    if (!out || build(&p) < 0) {
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
        out[i] = scan_row(&p, row, len);
    }
    Py_END_ALLOW_THREADS
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "row %zd: string offsets outside the data buffer", bad);
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(n * 4));
done:
    free(p.first2);
    free(p.list2);
    free(p.list1);
    free(p.third);
    free(p.thirds);
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
