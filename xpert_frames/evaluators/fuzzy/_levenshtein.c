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

#include "../../core/_arrow_strings.h"
#include "_levenshtein_distance.h"

#define ROWS_PER_TASK 2048
#define MAX_THREADS 256

typedef ArrowStrings Side;

typedef struct {
    Side a, b;
    double *out;
    Py_ssize_t n;
    atomic_llong next;
    atomic_int error;
    atomic_llong error_row;
} Job;

/* ------------------------------------------------------------------ rows and threads */
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
    if (!arrow_is_valid(&job->a, i) || !arrow_is_valid(&job->b, i)) {
        job->out[i] = NAN;
        return OK;
    }
    size_t na = 0, nb = 0;
    const uint8_t *pa = arrow_row(&job->a, i, &na);
    const uint8_t *pb = arrow_row(&job->b, i, &nb);
    if (!pa || !pb) return ERR_OFFSETS;
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
    if (arrow_strings_from(&job.a, &a_off, &a_data, a_validity, &a_valid, a_start, a_width, job.n, "a") <
            0 ||
        arrow_strings_from(&job.b, &b_off, &b_data, b_validity, &b_valid, b_start, b_width, job.n, "b") <
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
