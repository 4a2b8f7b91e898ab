/*
 * Arrow strings straight to rapidfuzz's own scorer (optional; the Python twin is
 * xpert_frames.distance.scorers.score_with_cpdist).
 *
 * score(scorer, a_views, a_data, a_first, b_views, b_data, b_first, rows, out, max_cells)
 *
 *   scorer      a rapidfuzz scorer function carrying an `_RF_Scorer` capsule (its C scorer
 *               interface, scorer struct version 3), e.g. Levenshtein.normalized_similarity
 *   *_views     the views buffer of an Arrow string_view array (Utf8View, what Polars holds
 *               and exports without a copy): 16 bytes a row, an int32 length, then the string
 *               itself when it is at most 12 bytes, else a 4-byte prefix, the int32 index of
 *               a data buffer and the int32 offset of the string in it
 *   *_data      a sequence of its data buffers (any objects with the buffer protocol)
 *   *_first     the array's offset (the first row's index into the views buffer)
 *   rows        int64 row numbers of the pairs to score (contiguous buffer)
 *   out         writable float64 buffer, as long as rows: out[i] = scorer(a[rows[i]], b[rows[i]])
 *   max_cells   a pair whose code-point lengths multiply to more is not scored: out[i] = NaN
 *
 * Returns how many pairs were not scored for max_cells. Two equal strings (equal bytes) score
 * 1.0 without a call, as rapidfuzz scores them.
 *
 * Each string is handed over as code points, like rapidfuzz's own conversion of a Python str:
 * an ASCII string as its bytes (uint8, no copy), any other UTF-8 decoded to uint32. The pairs
 * are scored with the GIL released, one call of rapidfuzz's uncached scorer per pair, with the
 * score cutoff and hint rapidfuzz.process.cpdist passes by default (the scorer's worst score).
 * No distance is computed here. Parallelism comes from the caller: Python threads over slices
 * of `rows`, each in its own call (this module keeps no state between calls). Every row's
 * view is checked against its buffers before a byte is read, without arithmetic that could
 * overflow.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ rapidfuzz's C scorer ABI
 * The members of rapidfuzz's `rapidfuzz.h` (MIT) this module reads, laid out as that header
 * lays them out for scorer struct version 3 (checked before any other member is read). */
#define XF_RF_SCORER_VERSION ((uint32_t)3)
#define XF_RF_FLAG_RESULT_F64 ((uint32_t)1 << 5)
#define XF_RF_UINT8 0 /* enum RF_StringType: an int-sized enum */
#define XF_RF_UINT32 2

typedef struct xf_rf_string {
    void (*dtor)(struct xf_rf_string *self);
    int kind;
    void *data;
    int64_t length;
    void *context;
} xf_rf_string;

typedef struct xf_rf_kwargs {
    void (*dtor)(struct xf_rf_kwargs *self);
    void *context;
} xf_rf_kwargs;

typedef struct {
    uint32_t flags;
    union {
        double f64;
        int64_t i64;
        size_t sizet;
    } optimal_score;
    union {
        double f64;
        int64_t i64;
        size_t sizet;
    } worst_score;
} xf_rf_flags;

typedef bool (*xf_rf_f64_call)(const xf_rf_string *s1, const xf_rf_string *s2,
                               const xf_rf_kwargs *kwargs, double score_cutoff, double score_hint,
                               double *result);

typedef struct {
    uint32_t version;
    bool (*kwargs_init)(xf_rf_kwargs *self, PyObject *kwargs);
    bool (*get_scorer_flags)(const xf_rf_kwargs *kwargs, xf_rf_flags *flags);
    void (*scorer_func_init)(void); /* the cached scorer: not used here */
    union {
        xf_rf_f64_call f64;
        void (*other)(void);
    } uncached_call;
} xf_rf_scorer;

/* The scorer struct behind a scorer function's `_RF_Scorer` capsule, version checked. */
static xf_rf_scorer *scorer_of(PyObject *scorer) {
    PyObject *capsule = PyObject_GetAttrString(scorer, "_RF_Scorer");
    if (capsule == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "expected a rapidfuzz scorer with an _RF_Scorer capsule, got %R", scorer);
        return NULL;
    }
    xf_rf_scorer *found = NULL;
    if (!PyCapsule_IsValid(capsule, NULL)) {
        PyErr_SetString(PyExc_TypeError, "the scorer's _RF_Scorer is not a rapidfuzz capsule");
    } else {
        found = (xf_rf_scorer *)PyCapsule_GetPointer(capsule, NULL);
        if (found != NULL && found->version != XF_RF_SCORER_VERSION) {
            PyErr_Format(PyExc_RuntimeError,
                         "rapidfuzz's scorer struct version is %lu, this module reads version %lu",
                         (unsigned long)found->version, (unsigned long)XF_RF_SCORER_VERSION);
            found = NULL;
        } else if (found != NULL &&
                   (found->get_scorer_flags == NULL || found->uncached_call.f64 == NULL)) {
            PyErr_SetString(PyExc_RuntimeError, "the rapidfuzz scorer has no uncached scorer");
            found = NULL;
        }
    }
    Py_DECREF(capsule);
    return found;
}

/* ------------------------------------------------------------------ strings */
/* True when all n bytes are below 0x80 (eight at a time, then the rest). */
static bool is_ascii(const uint8_t *p, Py_ssize_t n) {
    Py_ssize_t i = 0;
    for (; n - i >= 8; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, sizeof word);
        if (word & UINT64_C(0x8080808080808080)) {
            return false;
        }
    }
    for (; i < n; i++) {
        if (p[i] & 0x80) {
            return false;
        }
    }
    return true;
}

/* UTF-8 to code points; returns how many were written (at most n). A malformed byte (never in
 * a valid Arrow string array) becomes one code point of its own, U+DC80..U+DCFF as in Python's
 * surrogateescape, so that no byte is read twice and none past the end. */
static Py_ssize_t decode_utf8(const uint8_t *p, Py_ssize_t n, uint32_t *out) {
    Py_ssize_t i = 0;
    Py_ssize_t k = 0;
    while (i < n) {
        uint32_t c = p[i];
        Py_ssize_t need = 0;
        uint32_t min = 0;
        if (c < 0x80) {
            out[k++] = c;
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1, c &= 0x1F, min = 0x80;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2, c &= 0x0F, min = 0x800;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3, c &= 0x07, min = 0x10000;
        }
        bool ok = need > 0 && n - i > need;
        for (Py_ssize_t j = 1; ok && j <= need; j++) {
            uint8_t next = p[i + j];
            ok = (next & 0xC0) == 0x80;
            c = (c << 6) | (uint32_t)(next & 0x3F);
        }
        ok = ok && c >= min && c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
        if (ok) {
            out[k++] = c;
            i += need + 1;
        } else {
            out[k++] = 0xDC00u + p[i];
            i++;
        }
    }
    return k;
}

typedef struct {
    uint32_t *data;
    Py_ssize_t capacity; /* in code points */
} scratch;

/* Room for n code points; false when it cannot be had (no exception set: no GIL here). */
static bool reserve(scratch *s, Py_ssize_t n) {
    if (n <= s->capacity) {
        return true;
    }
    if ((size_t)n > SIZE_MAX / sizeof(uint32_t)) {
        return false;
    }
    Py_ssize_t want = n < 256 ? 256 : n;
    uint32_t *grown = PyMem_RawRealloc(s->data, (size_t)want * sizeof(uint32_t));
    if (grown == NULL) {
        return false;
    }
    s->data = grown;
    s->capacity = want;
    return true;
}

/* One Arrow string_view array as raw buffers. */
#define XF_VIEW_BYTES 16
#define XF_VIEW_INLINE 12

typedef struct {
    const uint8_t *views;
    Py_ssize_t rows; /* rows addressable from `first` */
    Py_ssize_t first;
    Py_buffer *data; /* n_data buffers held until close_column */
    Py_ssize_t n_data;
} column;

static void close_column(column *col) {
    for (Py_ssize_t i = 0; i < col->n_data; i++) {
        PyBuffer_Release(&col->data[i]);
    }
    PyMem_Free(col->data);
    col->data = NULL;
    col->n_data = 0;
}

/* Checks the views buffer once (whole 16-byte views, a `first` inside them) and holds every
 * data buffer of `data` (a sequence). On error nothing is held. */
static int open_column(column *col, const Py_buffer *views, PyObject *data, Py_ssize_t first,
                       const char *side) {
    col->data = NULL;
    col->n_data = 0;
    Py_ssize_t count = views->len / XF_VIEW_BYTES;
    if (views->len % XF_VIEW_BYTES != 0) {
        PyErr_Format(PyExc_ValueError, "%s views: expected 16-byte string views (a length "
                     "divisible by 16), got %zd bytes", side, views->len);
        return -1;
    }
    if (first < 0 || first > count) {
        PyErr_Format(PyExc_IndexError, "%s: array offset %zd outside %zd views", side, first,
                     count);
        return -1;
    }
    PyObject *seq = PySequence_Fast(data, "expected a sequence of data buffers");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    col->data = PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof(Py_buffer));
    if (col->data == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(seq, i), &col->data[i],
                               PyBUF_SIMPLE) != 0) {
            Py_DECREF(seq);
            close_column(col);
            return -1;
        }
        col->n_data = i + 1;
    }
    Py_DECREF(seq);
    col->views = views->buf;
    col->first = first;
    col->rows = count - first;
    return 0;
}

/* Bytes of row `row`: 0, or -1 when the row is outside the views, or its view's length,
 * buffer index or offset outside the data buffers. */
static int row_bytes(const column *col, int64_t row, const uint8_t **start, Py_ssize_t *len) {
    if (row < 0 || row >= (int64_t)col->rows) {
        return -1;
    }
    /* first + row < count = views->len / 16: no overflow. */
    const uint8_t *view = col->views + (size_t)(col->first + (Py_ssize_t)row) * XF_VIEW_BYTES;
    int32_t length;
    memcpy(&length, view, sizeof length);
    if (length < 0) {
        return -1;
    }
    if (length <= XF_VIEW_INLINE) {
        *start = view + 4;
        *len = (Py_ssize_t)length;
        return 0;
    }
    int32_t index;
    int32_t offset;
    memcpy(&index, view + 8, sizeof index);
    memcpy(&offset, view + 12, sizeof offset);
    if (index < 0 || (Py_ssize_t)index >= col->n_data || offset < 0) {
        return -1;
    }
    const Py_buffer *buf = &col->data[index];
    /* offset + length <= buf->len, written so that nothing can overflow */
    if ((Py_ssize_t)offset > buf->len || (Py_ssize_t)length > buf->len - (Py_ssize_t)offset) {
        return -1;
    }
    *start = (const uint8_t *)buf->buf + offset;
    *len = (Py_ssize_t)length;
    return 0;
}

/* The RF_String of `len` bytes: ASCII as its bytes, anything else decoded into `buf`. */
static int to_rf_string(const uint8_t *bytes, Py_ssize_t len, scratch *buf, xf_rf_string *out) {
    memset(out, 0, sizeof *out);
    if (is_ascii(bytes, len)) {
        out->kind = XF_RF_UINT8;
        out->data = (void *)bytes;
        out->length = (int64_t)len;
        return 0;
    }
    if (!reserve(buf, len)) {
        return -2;
    }
    out->kind = XF_RF_UINT32;
    out->data = buf->data;
    out->length = (int64_t)decode_utf8(bytes, len, buf->data);
    return 0;
}

/* ------------------------------------------------------------------ score() */
enum { DONE = 0, BAD_ROW = 1, NO_MEMORY = 2, SCORER_FAILED = 3 };

/* Whether la * lb > max_cells, without computing the product (all non-negative). */
static bool over_cap(int64_t la, int64_t lb, long long max_cells) {
    return la > 0 && lb > (int64_t)(max_cells / la);
}

static PyObject *score(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *scorer, *a_data, *b_data;
    Py_buffer a_views, b_views, rows, out;
    Py_ssize_t a_first, b_first;
    long long max_cells;
    if (!PyArg_ParseTuple(args, "Oy*Ony*Ony*w*L:score", &scorer, &a_views, &a_data, &a_first,
                          &b_views, &b_data, &b_first, &rows, &out, &max_cells)) {
        return NULL;
    }
    PyObject *result = NULL;
    xf_rf_kwargs kwargs = {NULL, NULL};
    bool kwargs_made = false;
    column a = {NULL, 0, 0, NULL, 0}, b = {NULL, 0, 0, NULL, 0};
    xf_rf_scorer *rf = NULL;
    if (max_cells < 1) {
        PyErr_Format(PyExc_ValueError, "max_cells must be positive, got %lld", max_cells);
        goto finally;
    }
    rf = scorer_of(scorer);
    if (rf == NULL || open_column(&a, &a_views, a_data, a_first, "a") != 0 ||
        open_column(&b, &b_views, b_data, b_first, "b") != 0) {
        goto finally;
    }
    if (rows.len % (Py_ssize_t)sizeof(int64_t) != 0 ||
        out.len % (Py_ssize_t)sizeof(double) != 0 ||
        rows.len / (Py_ssize_t)sizeof(int64_t) != out.len / (Py_ssize_t)sizeof(double)) {
        PyErr_Format(PyExc_ValueError, "expected int64 rows and a float64 out of the same "
                     "length, got %zd and %zd bytes", rows.len, out.len);
        goto finally;
    }
    if (rf->kwargs_init != NULL) {
        PyObject *none = PyDict_New();
        if (none == NULL) {
            goto finally;
        }
        bool made = rf->kwargs_init(&kwargs, none);
        Py_DECREF(none);
        if (!made) {
            goto finally;
        }
        kwargs_made = true;
    }
    xf_rf_flags flags;
    if (!rf->get_scorer_flags(&kwargs, &flags)) {
        goto finally;
    }
    if (!(flags.flags & XF_RF_FLAG_RESULT_F64)) {
        PyErr_SetString(PyExc_TypeError, "expected a scorer returning float64 scores");
        goto finally;
    }
    double worst = flags.worst_score.f64;
    Py_ssize_t n = rows.len / (Py_ssize_t)sizeof(int64_t);
    const uint8_t *row_buf = rows.buf;
    uint8_t *out_buf = out.buf;
    scratch sa = {NULL, 0}, sb = {NULL, 0};
    int status = DONE;
    Py_ssize_t failed_at = 0;
    int64_t bad_row = 0;
    Py_ssize_t skipped = 0;

    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t row;
        memcpy(&row, row_buf + (size_t)i * sizeof(int64_t), sizeof row);
        const uint8_t *p1, *p2;
        Py_ssize_t n1, n2;
        if (row_bytes(&a, row, &p1, &n1) != 0 || row_bytes(&b, row, &p2, &n2) != 0) {
            status = BAD_ROW;
            failed_at = i;
            bad_row = row;
            break;
        }
        double value = 1.0;
        if (n1 != n2 || memcmp(p1, p2, (size_t)n1) != 0) {
            xf_rf_string s1, s2;
            if (to_rf_string(p1, n1, &sa, &s1) != 0 || to_rf_string(p2, n2, &sb, &s2) != 0) {
                status = NO_MEMORY;
                break;
            }
            if (over_cap(s1.length, s2.length, max_cells)) {
                value = Py_NAN;
                skipped++;
            } else if (!rf->uncached_call.f64(&s1, &s2, &kwargs, worst, worst, &value)) {
                status = SCORER_FAILED; /* rapidfuzz set the exception (it takes the GIL) */
                break;
            }
        }
        memcpy(out_buf + (size_t)i * sizeof(double), &value, sizeof value);
    }
    Py_END_ALLOW_THREADS

    PyMem_RawFree(sa.data);
    PyMem_RawFree(sb.data);
    if (status == BAD_ROW) {
        PyErr_Format(PyExc_IndexError, "rows[%zd] = %lld: outside the arrays (%zd and %zd rows) "
                     "or its view outside the data buffers", failed_at, (long long)bad_row,
                     a.rows, b.rows);
    } else if (status == NO_MEMORY) {
        PyErr_NoMemory();
    } else if (status == SCORER_FAILED) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "the rapidfuzz scorer failed");
        }
    } else {
        result = PyLong_FromSsize_t(skipped);
    }

finally:
    if (kwargs_made && kwargs.dtor != NULL) {
        kwargs.dtor(&kwargs);
    }
    close_column(&a);
    close_column(&b);
    PyBuffer_Release(&a_views);
    PyBuffer_Release(&b_views);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    return result;
}

static PyObject *check(PyObject *module, PyObject *scorer) {
    (void)module;
    xf_rf_scorer *rf = scorer_of(scorer);
    if (rf == NULL) {
        return NULL;
    }
    return PyLong_FromUnsignedLong((unsigned long)rf->version);
}

static PyMethodDef methods[] = {
    {"score", score, METH_VARARGS,
     "score(scorer, a_views, a_data, a_first, b_views, b_data, b_first, rows, out, "
     "max_cells) -> int\n"
     "Score the pairs rows[i] of two Arrow string_view arrays with a rapidfuzz scorer "
     "(GIL released), into out[i]; NaN for a pair over max_cells, returns how many."},
    {"check", check, METH_O,
     "check(scorer) -> int\nThe scorer's C interface version, if this module can use it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_arrow_scorer",
    "Arrow string buffers straight to rapidfuzz's C scorer interface.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__arrow_scorer(void) { return PyModule_Create(&module_def); }
