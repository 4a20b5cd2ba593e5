/* npy.c - NumPy's .npy format (numpy.lib.format): a magic string, a version, a Python dict literal
 * giving descr, fortran_order and shape, then the values. Only what gpuc can run is accepted:
 * little-endian float32 / int32 (float64 / int64 converted, with a note on stderr), 1-3 dimensions,
 * C order. Everything else is refused with a message saying what the file holds. */
#include "npy.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values are copied as they lie in the file: this reader assumes a little-endian host, as every
 * machine gpuc builds for is (x86-64, arm64). */
static const char MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

static int fail(const char *what, const char *msg, const char *detail)
{
    fprintf(stderr, "gpuc: %s: %s%s\n", what, msg, detail ? detail : "");
    return -1;
}

/* The value text after `'key':` in the header dict, or NULL. */
static const char *dict_value(const char *header, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *p = strstr(header, quoted);
    if (!p) {
        snprintf(quoted, sizeof quoted, "\"%s\"", key);
        p = strstr(header, quoted);
    }
    if (!p)
        return NULL;
    p += strlen(quoted);
    while (*p == ' ')
        p++;
    if (*p != ':')
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    return p;
}

/* Parses "(3, 4)" / "(5,)" / "()" into shape; returns the rank, or -1. */
static int parse_shape(const char *p, size_t shape[], int max)
{
    if (*p++ != '(')
        return -1;
    int rank = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == ')')
            return rank;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || errno || *p == '-')
            return -1;
        if (rank == max)
            return max + 1; /* too many dimensions: the caller says so */
        shape[rank++] = (size_t)v;
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',')
            p++;
        else if (*p != ')')
            return -1;
    }
}

int npy_read(const char *path, const char *what, npy_array *a)
{
    memset(a, 0, sizeof *a);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(what, strerror(errno), NULL);
    unsigned char pre[12];
    if (fread(pre, 1, 8, f) != 8 || memcmp(pre, MAGIC, 6)) {
        fclose(f);
        return fail(what, "not a NumPy .npy file (no \\x93NUMPY magic)", NULL);
    }
    size_t header_len;
    if (pre[6] == 1) {
        if (fread(pre + 8, 1, 2, f) != 2) {
            fclose(f);
            return fail(what, "truncated .npy header", NULL);
        }
        header_len = (size_t)pre[8] | (size_t)pre[9] << 8;
    } else if (pre[6] == 2 || pre[6] == 3) {
        if (fread(pre + 8, 1, 4, f) != 4) {
            fclose(f);
            return fail(what, "truncated .npy header", NULL);
        }
        header_len = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    } else {
        fclose(f);
        return fail(what, "unknown .npy format version (1, 2 and 3 are read)", NULL);
    }
    if (header_len > 1 << 20) {
        fclose(f);
        return fail(what, ".npy header longer than 1 MiB", NULL);
    }
    char *header = malloc(header_len + 1);
    if (!header || fread(header, 1, header_len, f) != header_len) {
        free(header);
        fclose(f);
        return fail(what, "truncated .npy header", NULL);
    }
    header[header_len] = '\0';

    const char *descr = dict_value(header, "descr");
    const char *order = dict_value(header, "fortran_order");
    const char *shape_text = dict_value(header, "shape");
    int st = 0;
    char dtype[8] = "";
    if (!descr || !order || !shape_text || (*descr != '\'' && *descr != '"'))
        st = fail(what, "the .npy header lacks descr, fortran_order or shape", NULL);
    else {
        size_t n = strcspn(descr + 1, "'\"");
        if (n >= sizeof dtype || n == 0)
            st = fail(what, "unsupported dtype (a structured or long descr)", NULL);
        else
            memcpy(dtype, descr + 1, n);
    }
    int src_bytes = 4, src_int = 0;
    if (!st) {
        if (!strcmp(dtype, "<f4"))
            src_bytes = 4, src_int = 0;
        else if (!strcmp(dtype, "<i4"))
            src_bytes = 4, src_int = 1;
        else if (!strcmp(dtype, "<f8"))
            src_bytes = 8, src_int = 0;
        else if (!strcmp(dtype, "<i8"))
            src_bytes = 8, src_int = 1;
        else if (dtype[0] == '>')
            st = fail(what, "big-endian data is not read: save it little-endian (arr.astype('<f4'))", NULL);
        else
            st = fail(what, dtype, " is not a dtype gpuc reads (float32 and int32; float64 and int64 are converted)");
    }
    if (!st && strncmp(order, "False", 5))
        st = fail(what, "the array is in Fortran order: save it in C order (numpy.ascontiguousarray)", NULL);
    int rank = st ? 0 : parse_shape(shape_text, a->shape, 3);
    if (!st && rank < 0)
        st = fail(what, "cannot read the .npy shape", NULL);
    else if (!st && (rank == 0 || rank > 3))
        st = fail(what, rank ? "more than 3 dimensions (gpuc arrays are 1D-3D)" : "a 0-dimensional array (give a number instead)",
                  NULL);
    free(header);
    size_t count = 1;
    for (int i = 0; !st && i < rank; i++) {
        if (a->shape[i] == 0)
            st = fail(what, "an empty array (a dimension of size 0)", NULL);
        else if (a->shape[i] > UINT32_MAX || count > (SIZE_MAX / 8) / a->shape[i])
            st = fail(what, "too large", NULL);
        else
            count *= a->shape[i];
    }
    void *raw = st ? NULL : malloc(count * (size_t)src_bytes);
    if (!st && !raw)
        st = fail(what, "out of memory", NULL);
    if (!st && fread(raw, (size_t)src_bytes, count, f) != count)
        st = fail(what, "the file is shorter than its shape says", NULL);
    if (!st && fgetc(f) != EOF)
        st = fail(what, "the file is longer than its shape says", NULL);
    fclose(f);
    if (st) {
        free(raw);
        return -1;
    }
    a->is_int = src_int;
    a->rank = rank;
    a->count = count;
    if (src_bytes == 4) {
        a->data = raw;
        return 0;
    }
    /* 8-byte values become 4-byte ones in place (each write lands before its read). */
    if (src_int) {
        const int64_t *in = raw;
        int32_t *out = raw;
        for (size_t i = 0; i < count; i++) {
            int64_t v;
            memcpy(&v, &in[i], sizeof v);
            if (v < INT32_MIN || v > INT32_MAX) {
                free(raw);
                char at[64];
                snprintf(at, sizeof at, "%lld at flat index %zu", (long long)v, i);
                return fail(what, "int64 value outside int32 (gpuc's ints are 32-bit): ", at);
            }
            out[i] = (int32_t)v;
        }
        fprintf(stderr, "gpuc: note: %s: int64 converted to int32\n", what);
    } else {
        const double *in = raw;
        float *out = raw;
        for (size_t i = 0; i < count; i++) {
            double v;
            memcpy(&v, &in[i], sizeof v);
            out[i] = (float)v;
        }
        fprintf(stderr, "gpuc: note: %s: float64 converted to float32\n", what);
    }
    a->data = raw;
    return 0;
}

int npy_write(const char *path, int is_int, const size_t *shape, int rank, const void *data)
{
    char dict[256];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", is_int ? "<i4" : "<f4");
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
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "gpuc: --out \"%s\": %s\n", path, strerror(errno));
        return -1;
    }
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(header_len & 0xff),
                             (unsigned char)(header_len >> 8)};
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
    for (size_t i = 10 + (size_t)n; ok && i + 1 < padded; i++)
        ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF && fwrite(data, 4, count, f) == count;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        fprintf(stderr, "gpuc: --out \"%s\": cannot write it\n", path);
    return ok ? 0 : -1;
}

void npy_free(npy_array *a)
{
    free(a->data);
    a->data = NULL;
}
