/* npy.h - NumPy .npy files (format versions 1-3): float32 and int32 arrays of 1-3 dimensions in C
 * order, read (other number dtypes converted, with a note) and written. */
#ifndef GPUC_CLI_NPY_H
#define GPUC_CLI_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct npy_array {
    int is_int;       /* int32 values, else float32 */
    int rank;         /* 1-3 */
    size_t shape[3];  /* NumPy's order: outermost first */
    size_t count;     /* values: the product of the shape */
    void *data;       /* count float or int32_t values (owned) */
} npy_array;

/* Reads `path` ("-": standard input, read whole) into *a. On failure returns -1 after printing a message that names `what` (e.g.
 * "argument 2 \"x.npy\"") and the problem. */
int npy_read(const char *path, const char *what, npy_array *a);

/* The cells npy_write writes: float32, int32, or uint8 (a picture's channels). */
typedef enum npy_cell { NPY_FLOAT32, NPY_INT32, NPY_UINT8 } npy_cell;

/* Writes the values (of the given shape: rank 1-4, outermost first) as a version 1.0 .npy file at
 * `path`, or on standard output for "-". Returns -1 after printing why it could not. */
int npy_write(const char *path, npy_cell cell, const size_t *shape, int rank, const void *data);

/* npy_read's work on an open stream of file_bytes bytes in all (for a file in memory, as the fuzz
 * target reads). Leaves f open. */
int npy_read_stream(FILE *f, uint64_t file_bytes, const char *what, npy_array *a);

/* Where the reader prints why it refuses a file and its notes: stderr by default (the fuzz target
 * sends them elsewhere). */
void npy_set_messages(FILE *f);

void npy_free(npy_array *a);

#endif
