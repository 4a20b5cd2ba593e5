/* npy.c - NumPy's .npy format (numpy.lib.format): a magic string, a version, a Python dict literal
 * giving descr, fortran_order and shape (read by npy_header.c as NumPy reads it), then the values.
 * Only what gpuc can run is accepted: float32 and int32 cells of 1-3 dimensions in C order (other
 * whole-number and float64 dtypes, either byte order, converted with a note on stderr). The shape is
 * checked against gpuc's cell limit and the bytes the file holds before any memory is taken for the
 * values. Everything else is refused with a message saying what the file holds. */
#include "npy.h"
#include "npy_header.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The values are written as this host holds them: the reader assumes a little-endian host, as every
 * machine gpuc builds for is (x86-64, arm64), and swaps big-endian data. */
static const char MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* gpuc's limit on an array's cells (README "Limits"): 2^31 - 1. */
#define NPY_MAX_CELLS 2147483647u

static FILE *messages; /* where refusals are printed: stderr unless npy_set_messages chose */

void npy_set_messages(FILE *f)
{
    messages = f;
}

static int fail(const char *what, const char *msg, const char *detail)
{
    fprintf(messages ? messages : stderr, "gpuc: %s: %s%s\n", what, msg, detail ? detail : "");
    return -1;
}

/* A dtype gpuc reads: its kind ('f' float, 'i' signed, 'u' unsigned, 'b' bool), size in bytes and
 * byte order. */
typedef struct npy_dtype {
    char kind;
    int size;
    bool big_endian;
} npy_dtype;

/* The descr strings NumPy writes and numpy.dtype reads for plain numbers: an optional byte order
 * (<, >, = or |: | and = mean this host's) then kind and size ("<f4", "|u1", ">i8", "f4"). */
static bool parse_descr(const npy_header *h, npy_dtype *t)
{
    const char *d = h->descr;
    size_t n = h->descr_len;
    if (!h->descr_is_str || n >= sizeof h->descr || n < 2)
        return false;
    t->big_endian = *d == '>';
    if (strchr("<>=|", *d))
        d++, n--;
    if (n < 2 || !strchr("fiub", *d))
        return false;
    int size = 0;
    for (size_t i = 1; i < n; i++) {
        if (d[i] < '0' || d[i] > '9' || size > 100)
            return false;
        size = size * 10 + (d[i] - '0');
    }
    t->kind = *d;
    t->size = size;
    if (*d == 'f')
        return size == 4 || size == 8;
    if (*d == 'b')
        return size == 1;
    return size == 1 || size == 2 || size == 4 || size == 8;
}

/* Value i of `in` (count values of type t) as a float or int32 into out; false for an int outside
 * int32. */
static bool convert(const npy_dtype *t, const unsigned char *in, size_t count, void *out, size_t first,
                    size_t *bad_at, long long *bad_value)
{
    for (size_t i = 0; i < count; i++) {
        unsigned char b[8];
        for (int k = 0; k < t->size; k++) /* to little-endian */
            b[k] = in[i * (size_t)t->size + (size_t)(t->big_endian ? t->size - 1 - k : k)];
        uint64_t u = 0;
        for (int k = t->size - 1; k >= 0; k--)
            u = u << 8 | b[k];
        if (t->kind == 'f') {
            float f;
            if (t->size == 4) {
                uint32_t w = (uint32_t)u;
                memcpy(&f, &w, 4);
            } else {
                double v;
                memcpy(&v, &u, 8);
                f = (float)v;
            }
            ((float *)out)[first + i] = f;
            continue;
        }
        int64_t v;
        if (t->kind == 'b')
            v = u != 0;
        else if (t->kind == 'u')
            v = u > INT64_MAX ? INT64_MAX : (int64_t)u;
        else {
            int shift = 64 - 8 * t->size; /* sign-extend */
            v = (int64_t)(u << shift) >> shift;
        }
        if (v < INT32_MIN || v > INT32_MAX) {
            *bad_at = first + i;
            *bad_value = t->kind == 'u' && u > INT64_MAX ? -1 : v;
            return false;
        }
        ((int32_t *)out)[first + i] = (int32_t)v;
    }
    return true;
}

static const char *dtype_name(const npy_dtype *t)
{
    static const char *names[] = {"float32", "float64", "int8", "int16", "int32", "int64",
                                  "uint8", "uint16", "uint32", "uint64", "bool"};
    int log = t->size == 1 ? 0 : t->size == 2 ? 1 : t->size == 4 ? 2 : 3;
    return t->kind == 'f' ? names[log - 2] : t->kind == 'i' ? names[2 + log] : t->kind == 'u' ? names[6 + log]
                                                                                           : names[10];
}

int npy_read_stream(FILE *f, uint64_t file_bytes, const char *what, npy_array *a)
{
    memset(a, 0, sizeof *a);
    unsigned char pre[12];
    if (fread(pre, 1, 8, f) != 8 || memcmp(pre, MAGIC, 6))
        return fail(what, "not a NumPy .npy file (no \\x93NUMPY magic)", NULL);
    if ((pre[6] < 1 || pre[6] > 3) || pre[7] != 0)
        return fail(what, "unknown .npy format version (1.0, 2.0 and 3.0 are read)", NULL);
    size_t len_bytes = pre[6] == 1 ? 2 : 4;
    if (fread(pre + 8, 1, len_bytes, f) != len_bytes)
        return fail(what, "truncated .npy header", NULL);
    uint64_t header_len = (uint64_t)pre[8] | (uint64_t)pre[9] << 8;
    if (len_bytes == 4)
        header_len |= (uint64_t)pre[10] << 16 | (uint64_t)pre[11] << 24;
    uint64_t data_at = 8 + len_bytes + header_len;
    /* A header of more bytes than NumPy's character limit: refused before reading it (UTF-8 takes at
     * most 4 bytes a character). */
    if (header_len > 4 * (uint64_t)NPY_MAX_HEADER_CHARS)
        return fail(what, "the header is longer than NumPy's limit of 10000 characters", NULL);
    if (data_at > file_bytes)
        return fail(what, "truncated .npy header", NULL);
    char *text = malloc((size_t)header_len + 1);
    if (!text)
        return fail(what, "out of memory", NULL);
    if (fread(text, 1, (size_t)header_len, f) != header_len) {
        free(text);
        return fail(what, "truncated .npy header", NULL);
    }
    npy_header h;
    char why[128];
    int st = npy_header_parse(text, (size_t)header_len, pre[6], &h, why);
    free(text);
    if (st)
        return fail(what, "NumPy would not read this header: ", why);

    npy_dtype t;
    if (!parse_descr(&h, &t)) {
        if (!h.descr_is_str)
            return fail(what, "a structured or sub-array dtype (gpuc reads arrays of plain numbers)", NULL);
        char shown[40];
        snprintf(shown, sizeof shown, "'%.*s'", (int)(h.descr_len < sizeof h.descr ? h.descr_len : 12), h.descr);
        return fail(what, shown, " is not a dtype gpuc reads (float32, float64, bool, and ints of 8-64 bits in either "
                                 "byte order, written as NumPy writes them)");
    }
    if (h.rank == 0)
        return fail(what, "a 0-dimensional array (give a number instead)", NULL);
    if (h.rank > 3)
        return fail(what, "more than 3 dimensions (gpuc arrays are 1D-3D)", NULL);
    /* Before any memory for the values: the cells within gpuc's limit, the bytes within the file. */
    uint64_t count = 1;
    for (int i = 0; i < h.rank; i++) {
        if (h.shape[i] == 0)
            return fail(what, "an empty array (a dimension of size 0)", NULL);
        if ((uint64_t)h.shape[i] > NPY_MAX_CELLS || count * (uint64_t)h.shape[i] > NPY_MAX_CELLS) {
            char limit[160];
            snprintf(limit, sizeof limit, "the shape has more than gpuc's limit of %u cells (2^31 - 1)", NPY_MAX_CELLS);
            return fail(what, limit, NULL);
        }
        count *= (uint64_t)h.shape[i];
        a->shape[i] = (size_t)h.shape[i];
    }
    int several = 0;
    for (int i = 0; i < h.rank; i++)
        several += h.shape[i] > 1;
    if (h.fortran_order && several > 1)
        return fail(what, "the array is in Fortran order: save it in C order (numpy.ascontiguousarray)", NULL);
    uint64_t want = count * (uint64_t)t.size, have = file_bytes - data_at;
    if (have != want) {
        char sizes[128];
        snprintf(sizes, sizeof sizes, " (%llu bytes of values; the shape and dtype need %llu)",
                 (unsigned long long)have, (unsigned long long)want);
        return fail(what, have < want ? "the file is shorter than its shape says"
                                      : "the file is longer than its shape says", sizes);
    }
    bool is_float = t.kind == 'f';
    void *values = malloc((size_t)count * 4);
    if (!values)
        return fail(what, "out of memory", NULL);
    /* Read and convert in blocks: the values' own memory and one block is all this takes. */
    unsigned char block[65536];
    size_t per_block = sizeof block / (size_t)t.size;
    for (size_t done = 0; done < count;) {
        size_t n = count - done < per_block ? (size_t)(count - done) : per_block;
        size_t bad_at;
        long long bad_value;
        if (fread(block, (size_t)t.size, n, f) != n) {
            free(values);
            return fail(what, "the file is shorter than its shape says", NULL);
        }
        if (!convert(&t, block, n, values, done, &bad_at, &bad_value)) {
            free(values);
            char at[96];
            if (bad_value < 0 && t.kind == 'u')
                snprintf(at, sizeof at, "a value past 2^63 at flat index %zu", bad_at);
            else
                snprintf(at, sizeof at, "%lld at flat index %zu", bad_value, bad_at);
            char msg[64];
            snprintf(msg, sizeof msg, "%s value outside int32 (gpuc's ints are 32-bit): ", dtype_name(&t));
            return fail(what, msg, at);
        }
        done += n;
    }
    if (!(t.kind == 'f' && t.size == 4) && !(t.kind == 'i' && t.size == 4))
        fprintf(messages ? messages : stderr, "gpuc: note: %s: %s converted to %s\n", what, dtype_name(&t),
                is_float ? "float32" : "int32");
    a->is_int = !is_float;
    a->rank = h.rank;
    a->count = (size_t)count;
    a->data = values;
    return 0;
}

/* Standard input, read whole (a pipe has no size to check first): the reader then sees a file in
 * memory of a known size, as it sees a regular file. */
static int read_stdin(const char *what, npy_array *a)
{
    size_t cap = 1 << 16, len = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    if (!buf)
        return fail(what, "out of memory reading standard input", NULL);
    if (ferror(stdin)) {
        free(buf);
        return fail(what, "cannot read standard input: ", strerror(errno));
    }
    if (len == 0) {
        free(buf);
        return fail(what, "standard input is empty (expected a .npy file)", NULL);
    }
    FILE *f = fmemopen(buf, len, "rb");
    if (!f) {
        free(buf);
        return fail(what, "cannot read standard input: ", strerror(errno));
    }
    int st = npy_read_stream(f, len, what, a);
    fclose(f);
    free(buf);
    return st;
}

int npy_read(const char *path, const char *what, npy_array *a)
{
    memset(a, 0, sizeof *a);
    if (!strcmp(path, "-"))
        return read_stdin(what, a);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(what, strerror(errno), NULL);
    struct stat sb;
    if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return fail(what, "not a regular file (gpuc checks a .npy file's size before reading it)", NULL);
    }
    int st = npy_read_stream(f, (uint64_t)sb.st_size, what, a);
    fclose(f);
    return st;
}

int npy_write(const char *path, npy_cell cell, const size_t *shape, int rank, const void *data)
{
    static const char *const descr[] = {"<f4", "<i4", "|u1"};
    static const size_t cell_bytes[] = {4, 4, 1};
    char dict[256];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr[cell]);
    size_t count = 1;
    for (int i = 0; i < rank; i++) {
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%zu,%s", shape[i], i + 1 < rank ? " " : "");
        count *= shape[i];
    }
    if (rank > 1)
        n--; /* NumPy writes (5,) for one dimension, (3, 4) for more */
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    /* The header (magic, version, length, dict, spaces, newline) is padded to a multiple of 64. */
    size_t total = 10 + (size_t)n + 1;
    size_t padded = (total + 63) / 64 * 64;
    size_t header_len = padded - 10;
    bool to_stdout = !strcmp(path, "-");
    const char *shown = to_stdout ? "standard output" : path;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "gpuc: --out \"%s\": %s\n", path, strerror(errno));
        return -1;
    }
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(header_len & 0xff),
                             (unsigned char)(header_len >> 8)};
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
    for (size_t i = 10 + (size_t)n; ok && i + 1 < padded; i++)
        ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF && fwrite(data, cell_bytes[cell], count, f) == count;
    ok = (to_stdout ? fflush(f) == 0 && !ferror(f) : fclose(f) == 0) && ok;
    if (!ok)
        fprintf(stderr, "gpuc: --out \"%s\": cannot write %s\n", path, to_stdout ? shown : "it");
    return ok ? 0 : -1;
}

void npy_free(npy_array *a)
{
    free(a->data);
    a->data = NULL;
}
