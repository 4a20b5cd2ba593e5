/* row_zoo_life.c - zoo row `life`: Conway's Game of Life on an n x n torus for `rounds` generations,
 * gpuc's kernels run as a pipeline ping-pong (gpuc_run_to), beside a naive C loop and GPU.js. */
#include "zoo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIFE_MAX_N 8192

/* The same text as scripts/bench-gpujs-zoo.js's (the bench checks its hash). */
static const char *const life_js = "function (board) {\n"
                                   "  const w = this.output.x;\n"
                                   "  const h = this.output.y;\n"
                                   "  const x = this.thread.x;\n"
                                   "  const y = this.thread.y;\n"
                                   "  let n = 0;\n"
                                   "  for (let dy = -1; dy <= 1; dy++) {\n"
                                   "    for (let dx = -1; dx <= 1; dx++) {\n"
                                   "      if (dx !== 0 || dy !== 0) {\n"
                                   "        n += board[(y + dy + h) % h][(x + dx + w) % w];\n"
                                   "      }\n"
                                   "    }\n"
                                   "  }\n"
                                   "  if (n === 3 || (n === 2 && board[y][x] === 1)) {\n"
                                   "    return 1;\n"
                                   "  }\n"
                                   "  return 0;\n"
                                   "}";

static const char *const life_glsl =
    "float life(float board[][]) {\n"
    "    int w = outputSize.x, h = outputSize.y;\n"
    "    float n = 0.0;\n"
    "    for (int dy = -1; dy <= 1; dy++)\n"
    "        for (int dx = -1; dx <= 1; dx++)\n"
    "            if (dx != 0 || dy != 0)\n"
    "                n += board[(thread.y + dy + h) % h][(thread.x + dx + w) % w];\n"
    "    return (n == 3.0 || (n == 2.0 && board[thread.y][thread.x] == 1.0)) ? 1.0 : 0.0;\n"
    "}\n";

/* GPU.js's kernel in OpenCL C, one work-item per cell on the same float boards, the side compiled in. */
static const char *const life_cl =
    "__kernel void life(__global const float *board, __global float *next) {\n"
    "    const int x = get_global_id(0), y = get_global_id(1);\n"
    "    float n = 0.0f;\n"
    "    for (int dy = -1; dy <= 1; dy++)\n"
    "        for (int dx = -1; dx <= 1; dx++)\n"
    "            if (dx != 0 || dy != 0)\n"
    "                n += board[((y + dy + N) % N) * N + (x + dx + N) % N];\n"
    "    next[y * N + x] = (n == 3.0f || (n == 2.0f && board[y * N + x] == 1.0f)) ? 1.0f : 0.0f;\n"
    "}\n";

typedef struct life_state {
    size_t n;
    int generations;
    const float *board; /* the first generation, 0 or 1 */
    unsigned char *c_from, *c_to;
    gpuc_kernel *k;
    gpuc_array *first, *ping, *pong;
    const unsigned char *omp_from; /* the OpenMP column's generation, for its row function */
    unsigned char *omp_to;
    zoo_cl *cl; /* the OpenCL column: kernel 0, buffers 0 and 1 ping-pong */
} life_state;

/* The loop a C user writes first: a byte per cell, neighbours counted with the same wrap-around; row y. */
static inline void life_row(const unsigned char *restrict from, unsigned char *restrict to, size_t n, size_t y)
{
    for (size_t x = 0; x < n; x++) {
        int alive = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (dx || dy)
                    alive += from[((y + n + dy) % n) * n + (x + n + dx) % n];
        to[y * n + x] = alive == 3 || (alive == 2 && from[y * n + x]);
    }
}

static inline unsigned char *life_naive(unsigned char *from, unsigned char *to, size_t n, int generations)
{
    for (int g = 0; g < generations; g++) {
        for (size_t y = 0; y < n; y++)
            life_row(from, to, n, y);
        unsigned char *t = from;
        from = to;
        to = t;
    }
    return from;
}

/* The C column's copies in and out of its byte boards. */
static void bytes_from_board(unsigned char *to, const float *board, size_t cells)
{
    for (size_t i = 0; i < cells; i++)
        to[i] = board[i] != 0.0f;
}

static void floats_from_bytes(float *out, const unsigned char *last, size_t cells)
{
    for (size_t i = 0; i < cells; i++)
        out[i] = last[i];
}

/* The board's size is a constant in the kernel (outputSize is compiled in) and in the C a user
 * writes: at the published size the wrap-around divides by a constant 512 (a mask), at other sizes by
 * n from the command line. */
static int c_run(void *vs, float *out)
{
    life_state *s = vs;
    size_t n = s->n;
    bytes_from_board(s->c_from, s->board, n * n);
    unsigned char *last = n == 512 ? life_naive(s->c_from, s->c_to, 512, s->generations)
                                   : life_naive(s->c_from, s->c_to, n, s->generations);
    floats_from_bytes(out, last, n * n);
    return 0;
}

/* The same loop, each generation's rows under `#pragma omp parallel for`, the side compiled in where
 * c_run has it. */
static void omp_row(void *vs, size_t y)
{
    life_state *s = vs;
    if (s->n == 512)
        life_row(s->omp_from, s->omp_to, 512, y);
    else
        life_row(s->omp_from, s->omp_to, s->n, y);
}

static int omp_run(void *vs, float *out)
{
    life_state *s = vs;
    size_t n = s->n;
    unsigned char *from = s->c_from, *to = s->c_to;
    bytes_from_board(from, s->board, n * n);
    for (int g = 0; g < s->generations; g++) {
        s->omp_from = from;
        s->omp_to = to;
        if (zoo_omp_rows(n, omp_row, s))
            return -1;
        unsigned char *t = from;
        from = to;
        to = t;
    }
    floats_from_bytes(out, from, n * n);
    return 0;
}

/* As GPU.js's pipeline in OpenCL: the board written once, the generations ping-pong, the last read. */
static int cl_run(void *vs, float *out)
{
    life_state *s = vs;
    size_t bytes = s->n * s->n * sizeof(float);
    if (zoo_cl_write(s->cl, 0, s->board, bytes))
        return -1;
    int from = 0;
    for (int g = 0; g < s->generations; g++, from = 1 - from)
        if (zoo_cl_arg_buffer(s->cl, 0, 0, from) || zoo_cl_arg_buffer(s->cl, 0, 1, 1 - from) ||
            zoo_cl_run(s->cl, 0, s->n, s->n))
            return -1;
    return zoo_cl_read(s->cl, from, out, bytes) ? -1 : 0;
}

static zoo_cl *cl_setup(size_t n, char *why, size_t why_len)
{
    char source[2048];
    snprintf(source, sizeof source, "#define N %zu\n%s", n, life_cl);
    zoo_cl *cl = zoo_cl_create(source, why, why_len);
    if (cl && (zoo_cl_kernel(cl, "life") < 0 || zoo_cl_buffer(cl, n * n * sizeof(float)) < 0 ||
               zoo_cl_buffer(cl, n * n * sizeof(float)) < 0)) {
        snprintf(why, why_len, "OpenCL setup failed (above)");
        zoo_cl_free(cl);
        return NULL;
    }
    return cl;
}

/* GPU.js's pipeline: the board goes up once, the generations ping-pong on the device, the last comes back. */
static int gpuc_life_run(void *vs, float *out)
{
    life_state *s = vs;
    if (gpuc_array_write_f32(s->first, s->board, s->n * s->n) != GPUC_OK)
        return -1;
    gpuc_array *from = s->first, *to = s->ping;
    for (int g = 0; g < s->generations; g++) {
        if (gpuc_run_to(s->k, (gpuc_arg[]){gpuc_arg_array(from)}, 1, to) != GPUC_OK)
            return -1;
        from = to;
        to = to == s->ping ? s->pong : s->ping;
    }
    return gpuc_array_read_f32(from, out, s->n * s->n) == GPUC_OK ? 0 : -1;
}

static void gpuc_column(zoo_table *t, life_state *s, const char *column, bool js)
{
    gpuc *gpu = t->env->gpu;
    gpuc_kernel_desc desc = {.output = {(uint32_t)s->n, (uint32_t)s->n}, .pipeline = true};
    gpuc_dims d = {(uint32_t)s->n, (uint32_t)s->n};
    gpuc_status st = js ? gpuc_create_kernel_js(gpu, life_js, &desc, &s->k) : gpuc_create_kernel(gpu, life_glsl, &desc, &s->k);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_FLOAT, d, &s->first);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_FLOAT, d, &s->ping);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_FLOAT, d, &s->pong);
    if (st == GPUC_OK)
        zoo_gpuc(t, column, gpuc_life_run, s, true);
    else
        zoo_error(t, column, gpuc_errmsg(gpu));
    gpuc_kernel_free(s->k);
    gpuc_array_free(s->first);
    gpuc_array_free(s->ping);
    gpuc_array_free(s->pong);
    s->k = NULL;
    s->first = s->ping = s->pong = NULL;
}

int row_zoo_life(bench_env *env, const bench_params *p)
{
    if (p->n > LIFE_MAX_N) {
        printf("-- zoo life: --n %zu is over this row's %d\n", p->n, LIFE_MAX_N);
        env->failures++;
        return -1;
    }
    size_t cells = p->n * p->n;
    float *board = malloc(cells * sizeof *board);
    life_state s = {.n = p->n, .generations = p->rounds, .board = board, .c_from = malloc(cells),
                    .c_to = malloc(cells)};
    /* Cells are whole numbers: every column must give exactly C's board (scale NULL). */
    zoo_row row = {.name = "life", .kind = ZOO_FLOATS, .count = cells, .js_source = life_js};
    snprintf(row.heading, sizeof row.heading,
             "%zu x %zu torus, alive with probability 0.3, seed %#x, %d generations, pipeline ping-pong", p->n, p->n,
             p->seed, p->rounds);
    zoo_table t;
    if (!board || !s.c_from || !s.c_to) {
        printf("-- zoo life: out of memory\n");
        env->failures++;
    } else {
        uint32_t seed = p->seed;
        for (size_t i = 0; i < cells; i++) {
            seed = seed * 1664525u + 1013904223u;
            board[i] = zoo_unit(seed) < 0.3 ? 1.0f : 0.0f;
        }
        if (zoo_begin(&t, env, &row, p, c_run, &s) == 0) {
            char why[200];
            zoo_openmp_column(&t, "naive loop", omp_run, &s, true);
            s.cl = cl_setup(p->n, why, sizeof why);
            zoo_opencl_column(&t, s.cl, why, "1 work-item per cell", cl_run, &s, true);
            gpuc_column(&t, &s, "gpuc GLSL", false);
            gpuc_column(&t, &s, "gpuc JS (pasted)", true);
            zoo_end(&t);
            zoo_cl_free(s.cl);
        }
    }
    free(board);
    free(s.c_from);
    free(s.c_to);
    return 0;
}
