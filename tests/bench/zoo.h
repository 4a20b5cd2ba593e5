/* zoo.h - the kernel zoo's shared parts: the driver that times, checks and prints every column of a
 * row the same way (zoo.c) and the GPU.js runner (zoo_gpujs.c), for the row files row_zoo_*.c. */
#ifndef GPUC_BENCH_ZOO_H
#define GPUC_BENCH_ZOO_H

#include "bench.h"

/* What a row's result is: float32 values, or RGBA8 pixels (a graphical kernel). */
typedef enum zoo_kind { ZOO_FLOATS, ZOO_PIXELS } zoo_kind;

typedef struct zoo_cl zoo_cl; /* an OpenCL program and its buffers (zoo_opencl.c, below) */

/* One row, as its file describes it to the driver. */
typedef struct zoo_row {
    const char *name; /* the row (--row NAME) and the node script's --row */
    char heading[200]; /* what the row computes at its size, for the table */
    zoo_kind kind;
    size_t count; /* values (ZOO_FLOATS) or bytes (ZOO_PIXELS) of one result */
    /* How a result that is not bit-equal to the C reference is judged (tests/bench/README.md):
     * ZOO_FLOATS: every value within tolerance * scale[i] of C's, scale[i] being the sum of the
     * magnitudes of the terms value i adds up (rounding in another order moves a sum by a multiple of
     * that); scale NULL: every value must equal C's. ZOO_PIXELS: at most `tolerance` (a fraction) of
     * the pixels may have a channel more than 1 away from C's. */
    const float *scale;
    double tolerance;
    const char *js_source; /* the JavaScript kernel gpuc compiles; GPU.js must have run the same text */
    bool no_gpujs; /* a row GPU.js's script does not have (the topk count pass) */
} zoo_row;

/* One row on one backend, from zoo_begin to zoo_end. */
typedef struct zoo_table {
    bench_env *env;
    const zoo_row *row;
    const bench_params *p;
    void *reference; /* the C result */
    void *out;       /* each column's result */
    double c_ms;
    double gpujs_ms; /* GPU.js's fastest correct cell; -1 without one */
    char gpujs_mode[24];
    bool gpujs_shown; /* GPU.js's cells are printed before the first gpuc column */
    double c2_ms; /* a second C loop (zoo_c_column), -1 without one */
    const char *c2_name;
    /* The CPU runtimes' columns (zoo_cpu_column): each gpuc column is timed in pairs against each. */
    struct zoo_cpu_ref {
        const char *name; /* "OpenMP", "PoCL" */
        bench_run_fn run;
        void *state;
    } cpu[2];
    int ncpu;
    /* Per CPU runtime, gpuc's best ratio in pairs so far over its correct columns (-1: none yet), and
     * the column that took it. */
    double best_ratio[2];
    char best_column[2][64];
} zoo_table;

/* Times the C reference `c_run` (its last result becomes the reference every other column is checked
 * against). GPU.js's cells follow before the first gpuc column (run by node the first time a row is
 * asked for, kept for the other backend). Returns 0, or -1 when the row cannot go on (it said why). */
int zoo_begin(zoo_table *t, bench_env *env, const zoo_row *row, const bench_params *p, bench_run_fn c_run,
              void *c_state);

/* Times a second C loop (the same sums in another loop order, checked like the others: bit-equal
 * when bit_equal); the gpuc columns then show their ratio to it too, named `name`. */
void zoo_c_column(zoo_table *t, const char *column, const char *name, bench_run_fn run, void *state, bool bit_equal);

/* Times one gpuc column and prints it with its check and its ratios to C and to GPU.js's fastest mode.
 * bit_equal: the column adds in C's order, so its result must be bit-equal to C's, not only within
 * the row's tolerance. */
void zoo_gpuc(zoo_table *t, const char *column, bench_run_fn run, void *state, bool bit_equal);

/* Times a CPU runtime's column (OpenMP, OpenCL), checked like the others; each gpuc column after it is
 * also timed in pairs against it (bench_paired_ratio) and shows that ratio, named `name`. At most two. */
void zoo_cpu_column(zoo_table *t, const char *column, const char *name, bench_run_fn run, void *state, bool bit_equal);

/* A CPU runtime's column that is not there (built without it, no device): prints why; not a failure. */
void zoo_cpu_note(zoo_table *t, const char *column, const char *why);

/* The two CPU runtimes' columns, labelled as they ran (OpenMP's thread count; PoCL or another OpenCL
 * CPU device; `form`: what a work-item does), or their note: built without OpenMP; cl NULL, `why`
 * saying why there is no OpenCL. */
void zoo_openmp_column(zoo_table *t, const char *form, bench_run_fn run, void *state, bool bit_equal);
void zoo_opencl_column(zoo_table *t, const zoo_cl *cl, const char *why, const char *form, bench_run_fn run, void *state,
                       bool bit_equal);

/* A gpuc column that could not be set up (the kernel did not compile...): prints why, counts a failure. */
void zoo_error(zoo_table *t, const char *column, const char *why);

void zoo_end(zoo_table *t);

/* The bench's generator's value in [0, 1): (s >> 8) / 2^24, the same double the node script computes. */
double zoo_unit(uint32_t s);

/* ---- The CPU runtimes beside naive C: OpenMP (zoo_openmp.c), OpenCL (zoo_opencl.c) ---- */

/* Calls row(state, i) for every i < rows under `#pragma omp parallel for` (every core, the default
 * static schedule); returns 0, or -1 when the bench was built without OpenMP (nothing called). */
int zoo_omp_rows(size_t rows, void (*row)(void *state, size_t i), void *state);
int zoo_omp_threads(void); /* OpenMP's thread count; 0 without OpenMP */
const char *zoo_omp_note(void); /* why there is no OpenMP column */
const char *zoo_omp_policy(void); /* OMP_WAIT_POLICY as the run has it */
/* Called first in main: sets OMP_WAIT_POLICY=passive where the user set no policy and runs the bench
 * again with it (libgomp reads it once, at load). */
void zoo_omp_passive(char **argv);

/* One OpenCL program on the first CPU device (PoCL here), its kernels and buffers, on the process's
 * one context and in-order queue.
 * Every call returns -1 (after printing the OpenCL error) or an index / 0. zoo_cl_create returns NULL
 * with `why` set when there is no OpenCL (built without its headers, no device, the build failed). */
zoo_cl *zoo_cl_create(const char *source, char *why, size_t why_len);
int zoo_cl_kernel(zoo_cl *c, const char *name);
int zoo_cl_buffer(zoo_cl *c, size_t bytes);
int zoo_cl_write(zoo_cl *c, int buffer, const void *data, size_t bytes); /* queued; data must stay */
int zoo_cl_read(zoo_cl *c, int buffer, void *data, size_t bytes);        /* waits for the queue */
int zoo_cl_arg_buffer(zoo_cl *c, int kernel, int arg, int buffer);
int zoo_cl_arg(zoo_cl *c, int kernel, int arg, const void *value, size_t size);
int zoo_cl_run(zoo_cl *c, int kernel, size_t gx, size_t gy); /* gy 0: a 1D range */
const char *zoo_cl_device(const zoo_cl *c);
void zoo_cl_free(zoo_cl *c);
void zoo_cl_shutdown(void); /* releases the process's OpenCL context and queue (end of main) */

/* ---- GPU.js through node (zoo_gpujs.c) ---- */

typedef struct zoo_gpujs_cell {
    char mode[24];     /* webasm, webasm-threads or cpu */
    char runtime[96];  /* "node=v20.20.2 gpu.js=2.24.1", from the script's version line */
    double median_ms;
    int runs;
    char kernel[32];   /* the GPU.js kernel class that ran: WebAssemblyKernel, CPUKernel */
    char fallback[160]; /* why GPU.js ran another backend than the mode asks for; "" when it did not */
    uint32_t source_fnv1a; /* FNV-1a of the kernel text node ran */
    char error[200];   /* "" when the cell ran */
    void *data;        /* its last result, as zoo_row.kind says */
    size_t bytes;
    bool in_json;      /* written to --json already (once, not per backend) */
} zoo_gpujs_cell;

/* GPU.js's cells for `row` at p's sizes: runs scripts/bench-gpujs-zoo.js the first time and keeps its
 * cells in env. Returns them and their count, or NULL with *note saying why there are none (node or
 * gpu.js not found, --no-gpujs, the script failed). */
zoo_gpujs_cell *zoo_gpujs_cells(bench_env *env, const char *row, const bench_params *p, int *ncells,
                                const char **note);

/* 32-bit FNV-1a of a text (the node script prints the same of the kernel it ran). */
uint32_t zoo_fnv1a(const char *text);

/* The value of `key=` in a line of key=value words (a value with spaces in double quotes), or "". */
void zoo_line_value(const char *line, const char *key, char *out, size_t size);

/* Whether `node` is on PATH. */
bool zoo_have_node(void);

#endif
