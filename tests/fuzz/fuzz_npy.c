/* fuzz_npy.c - libFuzzer target for the gpuc program's .npy reader (tools/gpuc/npy.c, npy_header.c):
 * any bytes as a file. It must never crash or read out of bounds, never take memory for values the
 * file does not hold (the reader is given the input's own size), and what it accepts must be
 * consistent: 1-3 dimensions, none 0, their product the value count, within gpuc's 2^31 - 1 cells. */
#include "npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *quiet;
    if (!quiet) /* the reader's refusals, one per input, are not worth printing */
        npy_set_messages(quiet = fopen("/dev/null", "w"));
    if (size == 0)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    npy_array a;
    int st = npy_read_stream(f, size, "fuzz", &a);
    fclose(f);
    if (st == 0) {
        size_t count = 1;
        if (a.rank < 1 || a.rank > 3 || !a.data)
            abort();
        for (int i = 0; i < a.rank; i++) {
            if (a.shape[i] == 0)
                abort();
            count *= a.shape[i];
        }
        if (count != a.count || count > 2147483647u || count > size)
            abort();
        volatile uint8_t sink = 0;
        for (size_t i = 0; i < count * 4; i++) /* every value written (ASan/MSan would see stray reads) */
            sink ^= ((const uint8_t *)a.data)[i];
        (void)sink;
        npy_free(&a);
    }
    return 0;
}
