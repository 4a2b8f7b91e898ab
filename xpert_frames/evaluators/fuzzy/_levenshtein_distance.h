/* The distance itself, for _levenshtein.c: strict UTF-8 decoding, pattern bit masks and
 * Hyyro's bit-parallel Levenshtein distance (one word, or blocks of words). Included once,
 * after Python.h (Py_ssize_t). */
#ifndef XF_LEVENSHTEIN_DISTANCE_H
#define XF_LEVENSHTEIN_DISTANCE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY_KEY 0xFFFFFFFFu /* not a code point */
#define MAP_SIZE 128          /* per 64-bit word: at most 64 keys, load <= 1/2 */

enum { OK = 0, ERR_UTF8 = 1, ERR_NOMEM = 2, ERR_OFFSETS = 3 };

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

#endif
