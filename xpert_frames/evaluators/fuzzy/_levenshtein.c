/* Normalized Levenshtein similarity of aligned Arrow string arrays, read from their buffers.
 *
 * similarity(a_offsets, a_data, a_validity, a_start, a_width,
 *            b_offsets, b_data, b_validity, b_start, b_width, out, threads) -> None
 *
 * Each side is an Arrow ``string`` (width 4) or ``large_string`` (width 8) array given by its
 * buffers (offsets, UTF-8 data, validity bitmap or None) and its slice offset ``start``. ``out``
 * is a writable float64 buffer of the rows to score; row i gets ``1 - d / max(len)`` where d is
 * the edit distance on Unicode code points (exactly rapidfuzz's ``normalized_similarity`` on
 * Python str: equal strings, including two empty ones, 1.0), or NaN where either side is null.
 *
 * Distance: common prefix and suffix removed, then Hyyro's bit-parallel algorithm (2003) with
 * the shorter string as the pattern: one 64-bit word for <= 64 code points, a block of words
 * with carries for longer ones: O(ceil(m / 64) * n) per pair. The GIL is released; rows are
 * handed out in chunks to ``threads`` threads. Invalid UTF-8 or inconsistent offsets raise
 * ValueError (Polars never produces them; the check is cheap next to the distance).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY_KEY 0xFFFFFFFFu /* not a code point */
#define MAP_SIZE 128          /* per 64-bit word: at most 64 keys, load <= 1/2 */
#define ROWS_PER_TASK 2048
#define MAX_THREADS 256

enum { OK = 0, ERR_UTF8 = 1, ERR_NOMEM = 2, ERR_OFFSETS = 3 };

typedef struct {
    const uint8_t *offsets;
    const uint8_t *data;
    const uint8_t *validity; /* NULL: all valid */
    Py_ssize_t start;
    Py_ssize_t data_len;
    int width;
} Side;

typedef struct {
    Side a, b;
    double *out;
    Py_ssize_t n;
    atomic_llong next;
    atomic_int error;
    atomic_llong error_row;
} Job;

/* Per-thread scratch, grown on demand. ``ascii`` and the maps are all-empty between pairs. */
typedef struct {
    uint32_t *s1, *s2;
    size_t cap1, cap2;
    uint64_t *ascii; /* 256 * words: ascii[c * words + w] */
    uint32_t *keys;  /* MAP_SIZE * words */
    uint64_t *vals;
    uint64_t *vp, *vn;
    size_t words_cap;
} Work;

/* ------------------------------------------------------------------ UTF-8 (strict) */
static inline int is_cont(uint8_t c) { return (c & 0xC0) == 0x80; }

/* Decodes p[0:n] into out (room for n code points); returns the count or -1 if invalid. */
static Py_ssize_t decode_utf8(const uint8_t *p, size_t n, uint32_t *out) {
    size_t i = 0;
    Py_ssize_t k = 0;
    while (i < n) {
        uint8_t c = p[i];
        if (c < 0x80) {
            uint64_t eight;
            while (i + 8 <= n && (memcpy(&eight, p + i, 8), !(eight & 0x8080808080808080ull))) {
                for (int t = 0; t < 8; t++) out[k + t] = p[i + t]; /* eight ASCII bytes */
                k += 8;
                i += 8;
            }
            if (i < n && p[i] < 0x80) {
                out[k++] = p[i];
                i++;
            }
        } else if (c >= 0xC2 && c <= 0xDF) {
            if (i + 1 >= n || !is_cont(p[i + 1])) return -1;
            out[k++] = ((uint32_t)(c & 0x1F) << 6) | (p[i + 1] & 0x3F);
            i += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= n || !is_cont(p[i + 1]) || !is_cont(p[i + 2])) return -1;
            if (c == 0xE0 && p[i + 1] < 0xA0) return -1; /* overlong */
            if (c == 0xED && p[i + 1] > 0x9F) return -1; /* surrogate */
            out[k++] = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(p[i + 1] & 0x3F) << 6) |
                       (p[i + 2] & 0x3F);
            i += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= n || !is_cont(p[i + 1]) || !is_cont(p[i + 2]) || !is_cont(p[i + 3]))
                return -1;
            if (c == 0xF0 && p[i + 1] < 0x90) return -1; /* overlong */
            if (c == 0xF4 && p[i + 1] > 0x8F) return -1; /* > U+10FFFF */
            out[k++] = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(p[i + 1] & 0x3F) << 12) |
                       ((uint32_t)(p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
            i += 4;
        } else {
            return -1;
        }
    }
    return k;
}

/* ------------------------------------------------------------------ pattern bit masks */
static inline size_t map_slot(const uint32_t *keys, uint32_t c) {
    size_t h = (c * 2654435761u) >> 25; /* 7 bits */
    while (keys[h] != EMPTY_KEY && keys[h] != c) h = (h + 1) & (MAP_SIZE - 1);
    return h;
}

static inline uint64_t map_get(const uint32_t *keys, const uint64_t *vals, uint32_t c) {
    size_t h = map_slot(keys, c);
    return keys[h] == c ? vals[h] : 0;
}

static inline uint64_t pm_get(const Work *w, size_t words, size_t word, uint32_t c) {
    if (c < 256) return w->ascii[c * words + word];
    return map_get(w->keys + word * MAP_SIZE, w->vals + word * MAP_SIZE, c);
}

/* Sets the bit of every position of s1[0:m]; returns whether any code point was >= 256. */
static int pm_build(Work *w, const uint32_t *s1, size_t m, size_t words) {
    int wide = 0;
    for (size_t i = 0; i < m; i++) {
        uint32_t c = s1[i];
        size_t word = i / 64;
        uint64_t bit = (uint64_t)1 << (i % 64);
        if (c < 256) {
            w->ascii[c * words + word] |= bit;
        } else {
            uint32_t *keys = w->keys + word * MAP_SIZE;
            size_t h = map_slot(keys, c);
            if (keys[h] == EMPTY_KEY) {
                keys[h] = c;
                w->vals[word * MAP_SIZE + h] = 0;
            }
            w->vals[word * MAP_SIZE + h] |= bit;
            wide = 1;
        }
    }
    return wide;
}

static void pm_clear(Work *w, const uint32_t *s1, size_t m, size_t words, int wide) {
    for (size_t i = 0; i < m; i++)
        if (s1[i] < 256) w->ascii[s1[i] * words + i / 64] = 0;
    if (wide)
        for (size_t k = 0; k < words * MAP_SIZE; k++) w->keys[k] = EMPTY_KEY;
}

static int work_reserve_words(Work *w, size_t words) {
    if (words <= w->words_cap) return OK;
    size_t cap = words < 2 * w->words_cap ? 2 * w->words_cap : words;
    /* ascii is indexed c * words + w: re-zeroed whole on growth (it is all zero between pairs) */
    uint64_t *ascii = calloc(256 * cap, sizeof *ascii);
    uint32_t *keys = malloc(MAP_SIZE * cap * sizeof *keys);
    uint64_t *vals = malloc(MAP_SIZE * cap * sizeof *vals);
    uint64_t *vp = malloc(cap * sizeof *vp);
    uint64_t *vn = malloc(cap * sizeof *vn);
    if (!ascii || !keys || !vals || !vp || !vn) {
        free(ascii); free(keys); free(vals); free(vp); free(vn);
        return ERR_NOMEM;
    }
    for (size_t k = 0; k < MAP_SIZE * cap; k++) keys[k] = EMPTY_KEY;
    free(w->ascii); free(w->keys); free(w->vals); free(w->vp); free(w->vn);
    w->ascii = ascii; w->keys = keys; w->vals = vals; w->vp = vp; w->vn = vn;
    w->words_cap = cap;
    return OK;
}

/* ------------------------------------------------------------------ distance */
/* One word: Hyyro 2003, pattern s1 (1 <= m <= 64), text s2. */
static size_t leven_word(const Work *w, size_t m, const uint32_t *s2, size_t n) {
    uint64_t vp = ~(uint64_t)0, vn = 0;
    uint64_t last = (uint64_t)1 << (m - 1);
    size_t dist = m;
    for (size_t j = 0; j < n; j++) {
        uint64_t pm = pm_get(w, 1, 0, s2[j]);
        uint64_t x = pm | vn;
        uint64_t d0 = (((x & vp) + vp) ^ vp) | x;
        uint64_t hp = vn | ~(d0 | vp);
        uint64_t hn = d0 & vp;
        dist += (hp & last) != 0;
        dist -= (hn & last) != 0;
        hp = (hp << 1) | 1;
        hn = hn << 1;
        vp = hn | ~(d0 | hp);
        vn = hp & d0;
    }
    return dist;
}

/* Blocks of words (m > 64): Hyyro 2003's multi-word form, horizontal deltas carried upward. */
static size_t leven_block(Work *w, size_t m, const uint32_t *s2, size_t n, size_t words) {
    uint64_t last = (uint64_t)1 << ((m - 1) % 64);
    size_t dist = m;
    for (size_t k = 0; k < words; k++) {
        w->vp[k] = ~(uint64_t)0;
        w->vn[k] = 0;
    }
    for (size_t j = 0; j < n; j++) {
        uint64_t hp_carry = 1, hn_carry = 0;
        uint32_t c = s2[j];
        for (size_t k = 0; k < words; k++) {
            uint64_t pm = pm_get(w, words, k, c);
            uint64_t vp = w->vp[k], vn = w->vn[k];
            uint64_t x = pm | hn_carry;
            uint64_t d0 = (((x & vp) + vp) ^ vp) | x | vn;
            uint64_t hp = vn | ~(d0 | vp);
            uint64_t hn = d0 & vp;
            uint64_t hp_in = hp_carry, hn_in = hn_carry;
            if (k < words - 1) {
                hp_carry = hp >> 63;
                hn_carry = hn >> 63;
            } else {
                hp_carry = (hp & last) != 0;
                hn_carry = (hn & last) != 0;
            }
            hp = (hp << 1) | hp_in;
            hn = (hn << 1) | hn_in;
            w->vp[k] = hn | ~(d0 | hp);
            w->vn[k] = hp & d0;
        }
        dist += hp_carry;
        dist -= hn_carry;
    }
    return dist;
}

/* Distance of a[0:la] and b[0:lb] (code points); -1 when out of memory. */
static Py_ssize_t leven(Work *w, const uint32_t *a, size_t la, const uint32_t *b, size_t lb) {
    while (la && lb && a[0] == b[0]) { a++; b++; la--; lb--; }
    while (la && lb && a[la - 1] == b[lb - 1]) { la--; lb--; }
    if (la > lb) {
        const uint32_t *t = a; a = b; b = t;
        size_t tl = la; la = lb; lb = tl;
    }
    if (la == 0) return (Py_ssize_t)lb;
    size_t words = (la + 63) / 64;
    if (work_reserve_words(w, words) != OK) return -1;
    int wide = pm_build(w, a, la, words);
    size_t d = words == 1 ? leven_word(w, la, b, lb) : leven_block(w, la, b, lb, words);
    pm_clear(w, a, la, words, wide);
    return (Py_ssize_t)d;
}

/* ------------------------------------------------------------------ rows and threads */
static inline int is_valid(const Side *s, Py_ssize_t i) {
    if (!s->validity) return 1;
    Py_ssize_t bit = s->start + i;
    return (s->validity[bit >> 3] >> (bit & 7)) & 1;
}

static inline int64_t offset_at(const Side *s, Py_ssize_t i) {
    Py_ssize_t k = s->start + i;
    if (s->width == 8) {
        int64_t v;
        memcpy(&v, s->offsets + 8 * k, 8);
        return v;
    }
    int32_t v;
    memcpy(&v, s->offsets + 4 * k, 4);
    return v;
}

/* The string of row i: its bytes, or NULL with *err set if the offsets are inconsistent. */
static const uint8_t *row_bytes(const Side *s, Py_ssize_t i, size_t *len, int *err) {
    int64_t lo = offset_at(s, i), hi = offset_at(s, i + 1);
    if (lo < 0 || hi < lo || hi > s->data_len) {
        *err = ERR_OFFSETS;
        return NULL;
    }
    *len = (size_t)(hi - lo);
    return s->data + lo;
}

static int reserve_u32(uint32_t **buf, size_t *cap, size_t need) {
    if (need <= *cap) return OK;
    size_t cap2 = need < 2 * *cap ? 2 * *cap : need;
    uint32_t *p = realloc(*buf, (cap2 ? cap2 : 1) * sizeof *p);
    if (!p) return ERR_NOMEM;
    *buf = p;
    *cap = cap2;
    return OK;
}

static int score_row(Job *job, Work *w, Py_ssize_t i) {
    if (!is_valid(&job->a, i) || !is_valid(&job->b, i)) {
        job->out[i] = NAN;
        return OK;
    }
    int err = OK;
    size_t na = 0, nb = 0;
    const uint8_t *pa = row_bytes(&job->a, i, &na, &err);
    const uint8_t *pb = row_bytes(&job->b, i, &nb, &err);
    if (err) return err;
    if (reserve_u32(&w->s1, &w->cap1, na) || reserve_u32(&w->s2, &w->cap2, nb)) return ERR_NOMEM;
    Py_ssize_t la = decode_utf8(pa, na, w->s1);
    if (la < 0) return ERR_UTF8;
    if (na == nb && memcmp(pa, pb, na) == 0) { /* equal, including two empty strings */
        job->out[i] = 1.0;
        return OK;
    }
    Py_ssize_t lb = decode_utf8(pb, nb, w->s2);
    if (lb < 0) return ERR_UTF8;
    Py_ssize_t d = leven(w, w->s1, (size_t)la, w->s2, (size_t)lb);
    if (d < 0) return ERR_NOMEM;
    Py_ssize_t longest = la > lb ? la : lb; /* > 0: the strings differ */
    job->out[i] = 1.0 - (double)d / (double)longest;
    return OK;
}

static void *worker(void *arg) {
    Job *job = arg;
    Work w = {0};
    for (;;) {
        if (atomic_load(&job->error)) break;
        long long begin = atomic_fetch_add(&job->next, ROWS_PER_TASK);
        if (begin >= job->n) break;
        long long end = begin + ROWS_PER_TASK < job->n ? begin + ROWS_PER_TASK : job->n;
        for (long long i = begin; i < end; i++) {
            int err = score_row(job, &w, (Py_ssize_t)i);
            if (err) {
                int expected = OK;
                if (atomic_compare_exchange_strong(&job->error, &expected, err))
                    atomic_store(&job->error_row, i);
                break;
            }
        }
    }
    free(w.s1); free(w.s2); free(w.ascii); free(w.keys); free(w.vals); free(w.vp); free(w.vn);
    return NULL;
}

/* ------------------------------------------------------------------ Python glue */
static int side_from(Side *s, Py_buffer *off, Py_buffer *data, PyObject *validity,
                     Py_buffer *vbuf, Py_ssize_t start, int width, Py_ssize_t n,
                     const char *name) {
    if (width != 4 && width != 8) {
        PyErr_Format(PyExc_ValueError, "%s: offset width must be 4 or 8, got %d", name, width);
        return -1;
    }
    if (start < 0 || off->len < (start + n + 1) * width) {
        PyErr_Format(PyExc_ValueError,
                     "%s: offsets buffer holds %zd bytes, expected at least %zd for %zd rows "
                     "from %zd",
                     name, off->len, (start + n + 1) * width, n, start);
        return -1;
    }
    s->offsets = off->buf;
    s->data = data->buf;
    s->data_len = data->len;
    s->start = start;
    s->width = width;
    s->validity = NULL;
    if (validity != Py_None) {
        if (PyObject_GetBuffer(validity, vbuf, PyBUF_SIMPLE) < 0) return -1;
        if (vbuf->len < (start + n + 7) / 8) {
            PyErr_Format(PyExc_ValueError,
                         "%s: validity bitmap holds %zd bytes, expected at least %zd", name,
                         vbuf->len, (start + n + 7) / 8);
            PyBuffer_Release(vbuf);
            vbuf->obj = NULL;
            return -1;
        }
        s->validity = vbuf->buf;
    }
    return 0;
}

static PyObject *similarity(PyObject *self, PyObject *args) {
    Py_buffer a_off, a_data, b_off, b_data, out;
    Py_buffer a_valid = {0}, b_valid = {0};
    PyObject *a_validity, *b_validity;
    Py_ssize_t a_start, b_start;
    int a_width, b_width, threads;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*Oniy*y*Oniw*i", &a_off, &a_data, &a_validity, &a_start,
                          &a_width, &b_off, &b_data, &b_validity, &b_start, &b_width, &out,
                          &threads))
        return NULL;
    Job job;
    job.n = out.len / (Py_ssize_t)sizeof(double);
    job.out = out.buf;
    atomic_init(&job.next, 0);
    atomic_init(&job.error, OK);
    atomic_init(&job.error_row, -1);
    if (out.len % (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "out must be a float64 buffer");
        goto done;
    }
    if (side_from(&job.a, &a_off, &a_data, a_validity, &a_valid, a_start, a_width, job.n, "a") <
            0 ||
        side_from(&job.b, &b_off, &b_data, b_validity, &b_valid, b_start, b_width, job.n, "b") <
            0)
        goto done;
    if (threads < 1) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (job.n < 2 * ROWS_PER_TASK) threads = 1;
    pthread_t ids[MAX_THREADS];
    int started = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&ids[started], NULL, worker, &job) != 0) break;
        started++;
    }
    worker(&job);
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    Py_END_ALLOW_THREADS
    switch (atomic_load(&job.error)) {
    case OK:
        result = Py_NewRef(Py_None);
        break;
    case ERR_UTF8:
        PyErr_Format(PyExc_ValueError, "row %lld: invalid UTF-8 in a string column",
                     (long long)atomic_load(&job.error_row));
        break;
    case ERR_OFFSETS:
        PyErr_Format(PyExc_ValueError, "row %lld: string offsets outside the data buffer",
                     (long long)atomic_load(&job.error_row));
        break;
    default:
        PyErr_NoMemory();
    }
done:
    if (a_valid.obj) PyBuffer_Release(&a_valid);
    if (b_valid.obj) PyBuffer_Release(&b_valid);
    PyBuffer_Release(&a_off);
    PyBuffer_Release(&a_data);
    PyBuffer_Release(&b_off);
    PyBuffer_Release(&b_data);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"similarity", similarity, METH_VARARGS,
     "similarity(a_offsets, a_data, a_validity, a_start, a_width, b_offsets, b_data, "
     "b_validity, b_start, b_width, out, threads): normalized Levenshtein similarity of aligned "
     "Arrow string arrays into out (float64; NaN where either side is null)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_levenshtein",
    "Normalized Levenshtein similarity on Arrow string buffers (bit-parallel, GIL released).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__levenshtein(void) { return PyModule_Create(&module); }
