/* The byte work of reading TREC qrels and runs (dcglab.evaluation.batch.tokens).
 *
 * tokenize() splits text into lines and fields as trec_eval 10.0 does (any C
 * isspace byte separates fields; '#' comment lines and blank lines are skipped),
 * parses the grade or score as a C double (the value strtod gives, as trec_eval's
 * atof), hashes the qid and the docno, and stops at the first line that is not
 * a well-formed data line. The caller owns every output array; the GIL is
 * released while the bytes are read, so two parts of a file (or two files) can
 * be read on two threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Each byte's class: ordinary, whitespace other than a newline (C's isspace),
 * newline, or odd (NUL, or not ASCII: the line is then checked as a whole). */
enum { ORD = 0, SP = 1, NL = 2, ODD = 3 };
#define ODD8(x) ODD, ODD, ODD, ODD, ODD, ODD, ODD, ODD
#define ODD32 ODD8(0), ODD8(0), ODD8(0), ODD8(0)
static const unsigned char CLASS[256] = {
    [0] = ODD, ['\t'] = SP, ['\n'] = NL, ['\v'] = SP, ['\f'] = SP, ['\r'] = SP, [' '] = SP,
    [128] = ODD32, ODD32, ODD32, ODD32};

/* Whether p[0:n] holds a NUL byte (*nul) or a byte >= 0x80 (*high), 8 bytes at a time. */
static inline void scan_line(const unsigned char *p, Py_ssize_t n, int *nul, int *high) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t zero = 0, top = 0;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        zero |= (w - ones) & ~w & highs;
        top |= w & highs;
    }
    for (; i < n; i++) {
        zero |= p[i] == 0;
        top |= p[i] & 0x80;
    }
    *nul = zero != 0;
    *high = top != 0;
}

/* A 64-bit hash of a byte string: 8-byte words mixed by multiply-xorshift
 * rounds, the length folded in, and MurmurHash3's 64-bit finaliser. */
static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline uint64_t read64(const unsigned char *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint64_t read32(const unsigned char *p) {
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* The bytes p[0:n] of a string whose length is folded in elsewhere, 1 <= n < 8,
 * as one word: all of them, read in at most two loads (wyhash's way). */
static inline uint64_t short_word(const unsigned char *p, Py_ssize_t n) {
    if (n >= 4) return read32(p) | (read32(p + n - 4) << 32);
    return ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
}

/* A 64-bit hash of a byte string: 8-byte words mixed by multiply-xorshift
 * rounds (the last word overlapping the one before), the length folded in,
 * and MurmurHash3's 64-bit finaliser. */
static inline uint64_t hash_bytes(const unsigned char *p, Py_ssize_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)n * 0xC2B2AE3D27D4EB4FULL);
    if (n >= 8) {
        Py_ssize_t i = 0;
        for (; i + 8 < n; i += 8) {
            h = (h ^ mix(read64(p + i))) * 0x9FB21C651E98DF25ULL;
            h ^= h >> 29;
        }
        h = (h ^ mix(read64(p + n - 8) ^ 0xA0761D6478BD642FULL)) * 0x9FB21C651E98DF25ULL;
        h ^= h >> 29;
    } else if (n > 0) {
        h = (h ^ mix(short_word(p, n) ^ 0xA0761D6478BD642FULL)) * 0x9FB21C651E98DF25ULL;
        h ^= h >> 29;
    }
    return mix(h);
}

/* Whether p[0:n] is valid UTF-8 (no overlong forms, no surrogates, <= U+10FFFF). */
static int valid_utf8(const unsigned char *p, Py_ssize_t n) {
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int len;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (i + len > n) return 0;
        for (int k = 1; k < len; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += len;
    }
    return 1;
}

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#if defined(__x86_64__) && LDBL_MANT_DIG == 64
static const long double POW10L[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
#endif

static int word_is(const unsigned char *p, Py_ssize_t n, const char *w) {
    if ((Py_ssize_t)strlen(w) != n) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if ((p[i] | 0x20) != (unsigned char)w[i]) return 0;
    return 1;
}

/* Parse a number field: [+-](digits[.digits]|.digits)([eE][+-]digits), or inf,
 * infinity, nan (any case). The value is strtod's (correctly rounded, as atof);
 * a short decimal takes Clinger's exact fast path (an integer of at most 2^53
 * times or over an exact power of ten <= 1e22 is one correctly rounded
 * operation). Returns 0 for a field that is not such a number. */
static int parse_number(const unsigned char *p, Py_ssize_t n, double *out) {
    Py_ssize_t i = 0;
    int neg = 0;
    if (n > 0 && (p[0] == '+' || p[0] == '-')) {
        neg = p[0] == '-';
        i = 1;
    }
    if (i < n && ((p[i] | 0x20) == 'i' || (p[i] | 0x20) == 'n')) {
        if (!word_is(p + i, n - i, "inf") && !word_is(p + i, n - i, "infinity") &&
            !word_is(p + i, n - i, "nan"))
            return 0;
    } else {
        uint64_t mant = 0;
        int digits = 0, frac = 0, any = 0;
        long exp10 = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9') {
            if (digits < 19) mant = mant * 10 + (uint64_t)(p[i] - '0');
            if (mant || digits) digits++;
            any = 1;
            i++;
        }
        if (i < n && p[i] == '.') {
            i++;
            while (i < n && p[i] >= '0' && p[i] <= '9') {
                if (digits < 19) {
                    mant = mant * 10 + (uint64_t)(p[i] - '0');
                    frac++;
                }
                if (mant || digits) digits++;
                any = 1;
                i++;
            }
        }
        if (!any) return 0;
        if (i < n && (p[i] | 0x20) == 'e') {
            i++;
            int eneg = 0, edigits = 0;
            if (i < n && (p[i] == '+' || p[i] == '-')) {
                eneg = p[i] == '-';
                i++;
            }
            while (i < n && p[i] >= '0' && p[i] <= '9') {
                if (exp10 < 100000) exp10 = exp10 * 10 + (p[i] - '0');
                edigits++;
                i++;
            }
            if (!edigits) return 0;
            if (eneg) exp10 = -exp10;
        }
        if (i != n) return 0;
        long e = exp10 - frac;
        if (digits <= 19 && mant <= (1ULL << 53) && e >= -22 && e <= 22) {
            double v = (double)mant;
            v = e < 0 ? v / POW10[-e] : v * POW10[e];
            *out = neg ? -v : v;
            return 1;
        }
#if defined(__x86_64__) && LDBL_MANT_DIG == 64
        /* Up to 19 digits: mant and 10^|e| <= 10^27 are exact in x87's 64-bit
         * significand, so one operation rounds the value once to 64 bits; rounding
         * that to 53 bits is the correct rounding unless its 11 dropped bits lie
         * at (or next to) the halfway point, which strtod then decides. */
        if (digits <= 19 && e >= -27 && e <= 27 && mant) {
            long double p10 = POW10L[e < 0 ? -e : e];
            long double q = e < 0 ? (long double)mant / p10 : (long double)mant * p10;
            uint64_t bits;
            memcpy(&bits, &q, 8);
            unsigned low = (unsigned)(bits & 0x7FF);
            if (low < 0x3FF || low > 0x401) {
                double v = (double)q;
                *out = neg ? -v : v;
                return 1;
            }
        }
#endif
    }
    char small[64];
    char *buf = n < (Py_ssize_t)sizeof small ? small : malloc((size_t)n + 1);
    if (buf == NULL) return 0;
    memcpy(buf, p, (size_t)n);
    buf[n] = 0;
    *out = strtod(buf, NULL);
    if (buf != small) free(buf);
    return 1;
}

typedef struct {
    int32_t *qid_code;
    int64_t *doc_start;
    int32_t *doc_len;
    uint64_t *doc_hash;
    double *value;
} Columns;

/* The distinct qids of a text, coded in order of first appearance: an open
 * addressing table of (hash, code), each code's first (start, length). */
typedef struct {
    const unsigned char *text;
    uint64_t *hash;
    int32_t *code;
    size_t mask;
    int64_t *start;
    int64_t *len;
    size_t n, cap;
} Qids;

static int qids_init(Qids *q, const unsigned char *text) {
    q->text = text;
    q->mask = 1023;
    q->n = 0;
    q->cap = 256;
    q->hash = malloc((q->mask + 1) * sizeof *q->hash);
    q->code = malloc((q->mask + 1) * sizeof *q->code);
    q->start = malloc(q->cap * sizeof *q->start);
    q->len = malloc(q->cap * sizeof *q->len);
    if (!q->hash || !q->code || !q->start || !q->len) return 0;
    for (size_t i = 0; i <= q->mask; i++) q->code[i] = -1;
    return 1;
}

static void qids_free(Qids *q) {
    free(q->hash);
    free(q->code);
    free(q->start);
    free(q->len);
}

static int qids_grow(Qids *q) {
    size_t size = (q->mask + 1) * 2;
    uint64_t *hash = malloc(size * sizeof *hash);
    int32_t *code = malloc(size * sizeof *code);
    if (!hash || !code) {
        free(hash);
        free(code);
        return 0;
    }
    for (size_t i = 0; i < size; i++) code[i] = -1;
    for (size_t i = 0; i <= q->mask; i++) {
        if (q->code[i] < 0) continue;
        size_t at = q->hash[i] & (size - 1);
        while (code[at] >= 0) at = (at + 1) & (size - 1);
        hash[at] = q->hash[i];
        code[at] = q->code[i];
    }
    free(q->hash);
    free(q->code);
    q->hash = hash;
    q->code = code;
    q->mask = size - 1;
    return 1;
}

/* The code of the qid text[start:start+n] (a new one if unseen); -1 when out of memory. */
static int32_t qids_code(Qids *q, int64_t start, int64_t n) {
    const unsigned char *p = q->text + start;
    uint64_t h = hash_bytes(p, n);
    size_t at = h & q->mask;
    while (q->code[at] >= 0) {
        int32_t c = q->code[at];
        if (q->hash[at] == h && q->len[c] == n && memcmp(q->text + q->start[c], p, (size_t)n) == 0)
            return c;
        at = (at + 1) & q->mask;
    }
    if (q->n >= INT32_MAX) return -1;
    if (q->n == q->cap) {
        size_t cap = q->cap * 2;
        int64_t *s = realloc(q->start, cap * sizeof *s);
        if (!s) return -1;
        q->start = s;
        int64_t *l = realloc(q->len, cap * sizeof *l);
        if (!l) return -1;
        q->len = l;
        q->cap = cap;
    }
    int32_t c = (int32_t)q->n++;
    q->start[c] = start;
    q->len[c] = n;
    q->hash[at] = h;
    q->code[at] = c;
    if (2 * q->n > q->mask && !qids_grow(q)) return -1;
    return c;
}

/* Read the lines of text[start:stop] into rows 0.. of the columns (at most
 * `capacity`). Returns the rows read; *bad is the offset of the first
 * malformed line (or -1); -1 rows when out of memory. */
static Py_ssize_t read_lines(const unsigned char *text, Py_ssize_t start, Py_ssize_t stop,
                             int n_fields, Py_ssize_t capacity, Columns *c, Qids *q,
                             Py_ssize_t *bad) {
    Py_ssize_t row = 0, pos = start;
    int value_field = n_fields == 4 ? 3 : 4;
    int64_t last_start = -1, last_len = -1;
    int32_t last_code = -1;
    *bad = -1;
    const unsigned char *E = text + stop;
    while (pos < stop) {
        /* one pass over the fields; a byte that is NUL or not ASCII marks the
         * line for the full check; the rest of a line is scanned after its
         * last field is read (a run's sixth, or a comment's mark) */
        const unsigned char *line = text + pos, *p = line;
        Py_ssize_t fs[6], fe[6];
        int nf = 0, odd = 0, comment = 0;
        for (;;) {
            while (p < E && CLASS[*p] == SP) p++;
            if (p == E || *p == '\n') break;
            const unsigned char *a = p;
            for (;;) {
                while (p < E && CLASS[*p] == ORD) p++;
                if (p < E && CLASS[*p] == ODD) {
                    odd = 1;
                    p++;
                    continue;
                }
                break;
            }
            if (nf == 0 && *a == '#') {
                comment = 1;
                break;
            }
            if (nf < 6) {
                fs[nf] = a - line;
                fe[nf] = p - line;
            }
            nf++;
            if (nf == 6 && n_fields == 6) break;
        }
        const unsigned char *eol = p;
        if (p < E && *p != '\n') {
            eol = memchr(p, '\n', (size_t)(E - p));
            if (eol == NULL) eol = E;
            int nul, high;
            scan_line(p, eol - p, &nul, &high);
            odd |= nul | high;
        }
        Py_ssize_t n = eol - line;
        if (odd && (memchr(line, 0, (size_t)n) != NULL || !valid_utf8(line, n))) goto fail;
        if (nf > 0 && !comment) {
            if ((n_fields == 4 && nf != 4) || (n_fields == 6 && nf < 6) || row >= capacity)
                goto fail;
            double v;
            if (!parse_number(line + fs[value_field], fe[value_field] - fs[value_field], &v))
                goto fail;
            c->value[row] = v;
            int64_t qs = pos + fs[0], ql = fe[0] - fs[0];
            if (!(ql == last_len && memcmp(text + qs, text + last_start, (size_t)ql) == 0)) {
                last_code = qids_code(q, qs, ql);
                if (last_code < 0) return -1;
                last_start = qs;
                last_len = ql;
            }
            c->qid_code[row] = last_code;
            c->doc_start[row] = pos + fs[2];
            c->doc_len[row] = (int32_t)(fe[2] - fs[2]);
            c->doc_hash[row] = hash_bytes(line + fs[2], fe[2] - fs[2]);
            row++;
        }
        pos = (eol - text) + 1;
        continue;
    fail:
        *bad = pos;
        return row;
    }
    return row;
}

static int writable(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t n) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return 0;
    if (view->len < itemsize * n) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "an output array is too short");
        return 0;
    }
    return 1;
}

/* tokenize(text, start, stop, n_fields, qid_code, doc_start, doc_len, doc_hash,
 * value) -> (rows, bad_offset, qid_starts, qid_lengths): the columns filled
 * (rows of them), the first malformed line's offset (-1: none), and the first
 * place of each distinct qid in order of code (bytes of int64). */
static PyObject *tokenize(PyObject *self, PyObject *args) {
    Py_buffer text;
    Py_ssize_t start, stop;
    int n_fields;
    PyObject *outs[5];
    if (!PyArg_ParseTuple(args, "y*nniOOOOO", &text, &start, &stop, &n_fields, &outs[0],
                          &outs[1], &outs[2], &outs[3], &outs[4]))
        return NULL;
    Py_buffer views[5];
    Py_ssize_t sizes[5] = {4, 8, 4, 8, 8};
    Py_ssize_t capacity = PY_SSIZE_T_MAX;
    PyObject *result = NULL;
    int got = 0;
    Qids q;
    if (start < 0 || stop > text.len || start > stop || (n_fields != 4 && n_fields != 6)) {
        PyErr_SetString(PyExc_ValueError, "bad text range or field count");
        goto done;
    }
    for (; got < 5; got++) {
        if (!writable(outs[got], &views[got], sizes[got], 0)) goto done;
        Py_ssize_t cap = views[got].len / sizes[got];
        if (cap < capacity) capacity = cap;
    }
    if (!qids_init(&q, text.buf)) {
        qids_free(&q);
        PyErr_NoMemory();
        goto done;
    }
    Columns c = {views[0].buf, views[1].buf, views[2].buf, views[3].buf, views[4].buf};
    Py_ssize_t rows, bad;
    Py_BEGIN_ALLOW_THREADS
    rows = read_lines(text.buf, start, stop, n_fields, capacity, &c, &q, &bad);
    Py_END_ALLOW_THREADS
    if (rows < 0)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("nny#y#", rows, bad, (const char *)q.start,
                               (Py_ssize_t)(q.n * sizeof *q.start), (const char *)q.len,
                               (Py_ssize_t)(q.n * sizeof *q.len));
    qids_free(&q);
done:
    for (int k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    PyBuffer_Release(&text);
    return result;
}

/* count_lines(text, start, stop) -> the number of '\n' bytes in text[start:stop] */
static PyObject *count_lines(PyObject *self, PyObject *args) {
    Py_buffer text;
    Py_ssize_t start, stop, count = 0;
    if (!PyArg_ParseTuple(args, "y*nn", &text, &start, &stop)) return NULL;
    if (start < 0 || stop > text.len || start > stop) {
        PyBuffer_Release(&text);
        PyErr_SetString(PyExc_ValueError, "start and stop must lie within the text");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    const unsigned char *p = (const unsigned char *)text.buf + start, *end = (const unsigned char *)text.buf + stop;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        count++;
        p++;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&text);
    return PyLong_FromSsize_t(count);
}

/* Views of the (start, length) columns of a set of strings in a text. */
typedef struct {
    Py_buffer text, start, len;
} Strs;

static void strs_close(Strs *v) {
    PyBuffer_Release(&v->text);
    PyBuffer_Release(&v->start);
    PyBuffer_Release(&v->len);
}

static int strs_open(PyObject *t, PyObject *s, PyObject *l, Strs *v, Py_ssize_t *n) {
    if (PyObject_GetBuffer(t, &v->text, PyBUF_SIMPLE) < 0) return 0;
    if (PyObject_GetBuffer(s, &v->start, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&v->text);
        return 0;
    }
    if (PyObject_GetBuffer(l, &v->len, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&v->text);
        PyBuffer_Release(&v->start);
        return 0;
    }
    *n = v->start.len / 8;
    if (v->len.len / 4 != *n) {
        PyErr_SetString(PyExc_ValueError, "starts (int64) and lengths (int32) differ in length");
        goto bad;
    }
    const int64_t *st = v->start.buf;
    const int32_t *ln = v->len.buf;
    for (Py_ssize_t i = 0; i < *n; i++)
        if (st[i] < 0 || ln[i] < 0 || st[i] + ln[i] > v->text.len) {
            PyErr_SetString(PyExc_ValueError, "a string lies outside its text");
            goto bad;
        }
    return 1;
bad:
    strs_close(v);
    return 0;
}

/* The arguments (text, start, length, out) of a function that writes one item of
 * `itemsize` bytes per string into out. */
static int strs_and_out(PyObject *args, Strs *v, Py_ssize_t *n, Py_buffer *out,
                        Py_ssize_t itemsize) {
    PyObject *t, *s, *l, *o;
    if (!PyArg_ParseTuple(args, "OOOO", &t, &s, &l, &o)) return 0;
    if (!strs_open(t, s, l, v, n)) return 0;
    if (!writable(o, out, itemsize, *n)) {
        strs_close(v);
        return 0;
    }
    return 1;
}

/* code_strings(text, start, length, codes) -> (first_starts, first_lengths): each
 * string's code in order of first appearance (as tokenize codes qids), and the
 * place of each code's first string (bytes of int64). */
static PyObject *code_strings(PyObject *self, PyObject *args) {
    Strs v;
    Py_ssize_t n;
    Py_buffer out;
    if (!strs_and_out(args, &v, &n, &out, 4)) return NULL;
    Qids q;
    PyObject *result = NULL;
    if (!qids_init(&q, v.text.buf)) {
        PyErr_NoMemory();
        goto done;
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    const int64_t *st = v.start.buf;
    const int32_t *ln = v.len.buf;
    int32_t *codes = out.buf;
    for (Py_ssize_t i = 0; i < n && !failed; i++) {
        codes[i] = qids_code(&q, st[i], ln[i]);
        failed = codes[i] < 0;
    }
    Py_END_ALLOW_THREADS
    if (failed)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("y#y#", (const char *)q.start, (Py_ssize_t)(q.n * sizeof *q.start),
                               (const char *)q.len, (Py_ssize_t)(q.n * sizeof *q.len));
done:
    qids_free(&q);
    PyBuffer_Release(&out);
    strs_close(&v);
    return result;
}

static inline int compare(const Strs *v, Py_ssize_t i, const Strs *w, Py_ssize_t j) {
    int32_t a = ((const int32_t *)v->len.buf)[i], b = ((const int32_t *)w->len.buf)[j];
    const unsigned char *p = (const unsigned char *)v->text.buf + ((const int64_t *)v->start.buf)[i];
    const unsigned char *q = (const unsigned char *)w->text.buf + ((const int64_t *)w->start.buf)[j];
    int c = memcmp(p, q, (size_t)(a < b ? a : b));
    return c ? c : (a > b) - (a < b);
}

/* hashes(text, start, length, out): the hash of each string (as tokenize's) */
static PyObject *hashes(PyObject *self, PyObject *args) {
    Strs v;
    Py_ssize_t n;
    Py_buffer out;
    if (!strs_and_out(args, &v, &n, &out, 8)) return NULL;
    Py_BEGIN_ALLOW_THREADS
    uint64_t *h = out.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        h[i] = hash_bytes((const unsigned char *)v.text.buf + ((int64_t *)v.start.buf)[i],
                          ((int32_t *)v.len.buf)[i]);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&out);
    strs_close(&v);
    Py_RETURN_NONE;
}

/* equal(text_a, start_a, len_a, text_b, start_b, len_b) -> whether string i of
 * a equals string i of b for every i */
static PyObject *equal(PyObject *self, PyObject *args) {
    PyObject *t1, *s1, *l1, *t2, *s2, *l2;
    if (!PyArg_ParseTuple(args, "OOOOOO", &t1, &s1, &l1, &t2, &s2, &l2)) return NULL;
    Strs v, w;
    Py_ssize_t n, m;
    if (!strs_open(t1, s1, l1, &v, &n)) return NULL;
    if (!strs_open(t2, s2, l2, &w, &m)) {
        strs_close(&v);
        return NULL;
    }
    int same = n == m;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; same && i < n; i++) same = compare(&v, i, &w, i) == 0;
    Py_END_ALLOW_THREADS
    strs_close(&v);
    strs_close(&w);
    return PyBool_FromLong(same);
}

typedef struct {
    const Strs *v;
    const uint64_t *key;
} TieContext;

/* key descending, then the string descending (strcmp) */
static int tie_order(const void *x, const void *y, void *ctx) {
    const TieContext *c = ctx;
    int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    if (c->key[i] != c->key[j]) return c->key[i] > c->key[j] ? -1 : 1;
    int r = compare(c->v, i, c->v, j);
    return r ? -r : (i > j) - (i < j);
}

/* sort_ties(text, start, length, key, bounds, order): within each group
 * order[bounds[g]:bounds[g+1]] (indices into the strings, initially in
 * place), sort by key descending, then by the string descending. */
static PyObject *sort_ties(PyObject *self, PyObject *args) {
    PyObject *t, *s, *l, *k, *b, *o;
    if (!PyArg_ParseTuple(args, "OOOOOO", &t, &s, &l, &k, &b, &o)) return NULL;
    Strs v;
    Py_ssize_t n;
    if (!strs_open(t, s, l, &v, &n)) return NULL;
    Py_buffer key, bounds, order;
    int ok = 0;
    if (PyObject_GetBuffer(k, &key, PyBUF_C_CONTIGUOUS) < 0) goto out0;
    if (PyObject_GetBuffer(b, &bounds, PyBUF_C_CONTIGUOUS) < 0) goto out1;
    if (!writable(o, &order, 8, n)) goto out2;
    if (key.len / 8 != n || order.len / 8 != n) {
        PyErr_SetString(PyExc_ValueError, "keys, order and strings differ in length");
        goto out3;
    }
    Py_ssize_t groups = bounds.len / 8 - 1;
    const int64_t *bd = bounds.buf;
    for (Py_ssize_t g = 0; g < groups; g++)
        if (bd[g] < 0 || bd[g] > bd[g + 1] || bd[g + 1] > n) {
            PyErr_SetString(PyExc_ValueError, "bad group bounds");
            goto out3;
        }
    const int64_t *ord = order.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        if (ord[i] < 0 || ord[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "an index lies outside the strings");
            goto out3;
        }
    TieContext ctx = {&v, key.buf};
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t g = 0; g < groups; g++)
        if (bd[g + 1] - bd[g] > 1)
            qsort_r((int64_t *)order.buf + bd[g], (size_t)(bd[g + 1] - bd[g]), 8, tie_order, &ctx);
    Py_END_ALLOW_THREADS
    ok = 1;
out3:
    PyBuffer_Release(&order);
out2:
    PyBuffer_Release(&bounds);
out1:
    PyBuffer_Release(&key);
out0:
    strs_close(&v);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"tokenize", tokenize, METH_VARARGS, "Read TREC lines into columns."},
    {"count_lines", count_lines, METH_VARARGS, "Count newline bytes."},
    {"hashes", hashes, METH_VARARGS, "Hash each string."},
    {"code_strings", code_strings, METH_VARARGS, "Code strings by first appearance."},
    {"equal", equal, METH_VARARGS, "Whether two lists of strings are equal."},
    {"sort_ties", sort_ties, METH_VARARGS, "Sort groups by key, then string, descending."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_trec",
                                    "The byte work of reading TREC files.", -1, methods};

PyMODINIT_FUNC PyInit__trec(void) { return PyModule_Create(&module); }
