/* npy_header.h - the dict of a .npy header, read as NumPy reads it: Python's ast.literal_eval of the
 * header text (after, for format versions 1 and 2, dropping the "L" suffix of Python 2 longs), which
 * must give a dict with exactly the keys descr, fortran_order and shape. */
#ifndef GPUC_CLI_NPY_HEADER_H
#define GPUC_CLI_NPY_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NumPy's np.load refuses a header longer than this many characters (its max_header_size). */
#define NPY_MAX_HEADER_CHARS 10000

/* Dimensions of shape kept; a longer shape only counts (rank). */
#define NPY_HEADER_DIMS 4

typedef struct npy_header {
    char descr[16];        /* the descr string, when descr_is_str and it fits (descr_len < 16) */
    size_t descr_len;
    bool descr_is_str;     /* else a list (a structured dtype) or a tuple (a sub-array): NumPy reads
                            * both, gpuc does not */
    bool fortran_order;
    int rank;              /* the shape's length */
    int64_t shape[NPY_HEADER_DIMS]; /* each >= 0 */
} npy_header;

/* Evaluates the header text (len bytes, format version 1, 2 or 3: Latin-1 text for 1 and 2, UTF-8 for
 * 3). Returns 0 with *h filled in where np.load would accept the dict and gpuc can tell what it says
 * (a descr that is a string, a list or a tuple; shape a tuple of ints, none negative; fortran_order a
 * bool), else -1 with why (a sentence) set. Some headers NumPy reads are refused as unreadable here:
 * \N{...} escapes, nesting deeper than 64 brackets. */
int npy_header_parse(const char *text, size_t len, int version, npy_header *h, char why[128]);

#endif
