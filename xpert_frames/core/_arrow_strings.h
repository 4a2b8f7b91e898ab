/* An Arrow ``string`` (int32 offsets, width 4) or ``large_string`` (int64 offsets, width 8)
 * array read from its buffers, for the package's one C extension (numeric/_screen.c): the
 * buffers checked once against the rows (arrow_strings_from; the bounds arithmetic cannot
 * overflow), then rows read without Python objects. */
#ifndef XF_ARROW_STRINGS_H
#define XF_ARROW_STRINGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

typedef struct {
    const uint8_t *offsets;
    const uint8_t *data;
    const uint8_t *validity; /* NULL: all valid */
    Py_ssize_t start;        /* the array's slice offset */
    Py_ssize_t data_len;
    int width;
} ArrowStrings;

static inline int arrow_is_valid(const ArrowStrings *s, Py_ssize_t i) {
    if (!s->validity) return 1;
    Py_ssize_t bit = s->start + i;
    return (s->validity[bit >> 3] >> (bit & 7)) & 1;
}

static inline int64_t arrow_offset(const ArrowStrings *s, Py_ssize_t i) {
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

/* The bytes of row i, or NULL if its offsets are outside the data buffer. */
static inline const uint8_t *arrow_row(const ArrowStrings *s, Py_ssize_t i, size_t *len) {
    int64_t lo = arrow_offset(s, i), hi = arrow_offset(s, i + 1);
    if (lo < 0 || hi < lo || hi > s->data_len) return NULL;
    *len = (size_t)(hi - lo);
    return s->data + lo;
}

/* Fill ``s`` for ``n`` rows from ``start``; ``vbuf`` receives the validity buffer (release it
 * when ``vbuf->obj``). Returns 0, or -1 with a ValueError naming ``name``. */
static int arrow_strings_from(ArrowStrings *s, Py_buffer *off, Py_buffer *data,
                              PyObject *validity, Py_buffer *vbuf, Py_ssize_t start, int width,
                              Py_ssize_t n, const char *name) {
    if (width != 4 && width != 8) {
        PyErr_Format(PyExc_ValueError, "%s: offset width must be 4 or 8, got %d", name, width);
        return -1;
    }
    /* Overflow-safe: (start + n + 1) * width <= off->len, computed as divisions. */
    Py_ssize_t slots = off->len / width; /* offsets the buffer holds */
    if (start < 0 || n < 0 || start >= slots || n > slots - start - 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s: offsets buffer holds %zd bytes, too few for %zd rows from %zd "
                     "(width %d)",
                     name, off->len, n, start, width);
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
        /* start + n < slots <= PY_SSIZE_T_MAX / 4: no overflow below. */
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

#endif
