/* test_js_tutorial.c - the fifteen tutorial kernels (spec/tutorial-tasks.md) written in JavaScript, as
 * their GPU.js originals are, must give exactly what the same kernels written in GLSL give, and the
 * tasks driven from them must print the spec's lines (the three seed pages among them). */
#include "fixture.h"
#include "suites.h"
#include "tutorial_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs k once and returns its result as floats (caller frees). */
static float *run_k(gpuc_kernel *k, const gpuc_arg *args, int nargs, size_t *n)
{
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, nargs, &r));
    *n = gpuc_array_values(r);
    float *v = malloc(*n * sizeof *v);
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, v, *n));
    gpuc_array_free(r);
    return v;
}

typedef struct pair {
    gpuc_kernel *js, *glsl;
} pair;

static pair make_pair(const char *js, const char *glsl, gpuc_kernel_desc desc)
{
    pair p;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &desc, &p.js));
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, glsl, &desc, &p.glsl));
    return p;
}

static void free_pair(pair p)
{
    gpuc_kernel_free(p.js);
    gpuc_kernel_free(p.glsl);
}

/* Runs both kernels of p and asserts that their results are identical; returns the JS one's. */
static float *run_pair(pair p, const gpuc_arg *args, int nargs, size_t *n)
{
    size_t ng;
    float *a = run_k(p.js, args, nargs, n);
    float *b = run_k(p.glsl, args, nargs, &ng);
    ck_assert_uint_eq(*n, ng);
    for (size_t i = 0; i < *n; i++)
        ck_assert_msg(a[i] == b[i], "cell %zu: JavaScript kernel gives %g, GLSL kernel %g", i, a[i], b[i]);
    free(b);
    return a;
}

static void list(char *buf, size_t len, const float *v, int n, const char *sep)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%g", i ? sep : "", v[i]);
}

#define H1(p, n) gpuc_arg_host_f32((p), (gpuc_dims){(uint32_t)(n)})

/* ---- Top-K ---- */

static const char *RANK_JS =
    "function rank(scores) {\n"
    "  const mine = scores[this.thread.x];\n"
    "  let r = 0;\n"
    "  for (let i = 0; i < this.constants.n; i++) {\n"
    "    const other = scores[i];\n"
    "    if (other > mine || (other === mine && i < this.thread.x)) r++;\n"
    "  }\n"
    "  return r;\n"
    "}\n";
static const char *RANK_GLSL =
    "float rank(float scores[]) {\n"
    "  float mine = scores[thread.x]; int r = 0;\n"
    "  for (int i = 0; i < constants.n; i++) {\n"
    "    float other = scores[i];\n"
    "    if (other > mine || (other == mine && i < thread.x)) r++;\n"
    "  }\n"
    "  return float(r);\n"
    "}\n";

static const char *GATHER_JS =
    "function gather(ranks, scores) {\n"
    "  let v = 0;\n"
    "  for (let i = 0; i < this.constants.n; i++) {\n"
    "    if (ranks[i] === this.thread.x) v = scores[i];\n"
    "  }\n"
    "  return v;\n"
    "}\n";
static const char *GATHER_GLSL =
    "float gather(float ranks[], float scores[]) {\n"
    "  float v = 0.0;\n"
    "  for (int i = 0; i < constants.n; i++) if (ranks[i] == float(thread.x)) v = scores[i];\n"
    "  return v;\n"
    "}\n";

static float *ranks_of(const float *scores, int n)
{
    pair p = make_pair(RANK_JS, RANK_GLSL, (gpuc_kernel_desc){.output = {(uint32_t)n}, .constants = {{"n", n}}});
    size_t got;
    float *r = run_pair(p, (gpuc_arg[]){H1(scores, n)}, 1, &got);
    free_pair(p);
    for (int i = 0; i < n; i += 97) { /* C oracle on a sample of cells */
        int want = 0;
        for (int j = 0; j < n; j++)
            want += scores[j] > scores[i] || (scores[j] == scores[i] && j < i);
        ck_assert_float_eq(r[i], (float)want);
    }
    return r;
}

START_TEST(topk_1_rank)
{
    float s[4096];
    gen_scores(s, 4096, 2026);
    float *r = ranks_of(s, 4096);
    char line[128];
    snprintf(line, sizeof line, "rank of element 0: %g (its score is %g)", r[0], s[0]);
    ck_assert_str_eq(line, "rank of element 0: 2220 (its score is 94)");
    free(r);
}
END_TEST

START_TEST(topk_2_gather)
{
    float s[4096];
    gen_scores(s, 4096, 2026);
    float *r = ranks_of(s, 4096);
    pair p = make_pair(GATHER_JS, GATHER_GLSL, (gpuc_kernel_desc){.output = {10}, .constants = {{"n", 4096}}});
    size_t n;
    float *top = run_pair(p, (gpuc_arg[]){H1(r, 4096), H1(s, 4096)}, 2, &n);
    char line[256];
    list(line, sizeof line, top, 10, ", ");
    ck_assert_str_eq(line, "998, 997, 996, 995, 994, 994, 994, 994, 994, 993");
    free(top);
    free(r);
    free_pair(p);
}
END_TEST

START_TEST(topk_3_brightest)
{
    enum { S = 64 };
    static float b[S * S];
    gen_brightness(b, S, 1701);
    const char *rank2d_js =
        "function rank2d(b) {\n"
        "  const mine = b[this.thread.y][this.thread.x];\n"
        "  const me = this.thread.y * this.constants.size + this.thread.x;\n"
        "  let r = 0;\n"
        "  for (let y = 0; y < this.constants.size; y++) {\n"
        "    for (let x = 0; x < this.constants.size; x++) {\n"
        "      const o = b[y][x];\n"
        "      if (o > mine || (o === mine && y * this.constants.size + x < me)) r++;\n"
        "    }\n"
        "  }\n"
        "  return r;\n"
        "}\n";
    const char *rank2d_glsl =
        "float rank2d(float b[][]) {\n"
        "  float mine = b[thread.y][thread.x]; int me = thread.y * constants.size + thread.x; int r = 0;\n"
        "  for (int y = 0; y < constants.size; y++) for (int x = 0; x < constants.size; x++) {\n"
        "    float o = b[y][x];\n"
        "    if (o > mine || (o == mine && y * constants.size + x < me)) r++;\n"
        "  }\n"
        "  return float(r);\n"
        "}\n";
    const char *pick_js = "function pick(ranks) {\n"
                          "  let found = -1;\n"
                          "  for (let i = 0; i < this.constants.n; i++) if (ranks[i] === this.thread.x) found = i;\n"
                          "  return found;\n"
                          "}\n";
    const char *pick_glsl = "float pick(float ranks[]) {\n"
                            "  int found = -1;\n"
                            "  for (int i = 0; i < constants.n; i++) if (ranks[i] == float(thread.x)) found = i;\n"
                            "  return float(found);\n"
                            "}\n";
    pair p = make_pair(rank2d_js, rank2d_glsl, (gpuc_kernel_desc){.output = {S, S}, .constants = {{"size", S}}});
    size_t n;
    float *r = run_pair(p, (gpuc_arg[]){gpuc_arg_host_f32(b, (gpuc_dims){S, S})}, 1, &n);
    free_pair(p);
    p = make_pair(pick_js, pick_glsl, (gpuc_kernel_desc){.output = {8}, .constants = {{"n", S * S}}});
    float *idx = run_pair(p, (gpuc_arg[]){H1(r, S * S)}, 1, &n);
    free_pair(p);
    int top = (int)idx[0];
    char line[256];
    snprintf(line, sizeof line, "brightest: %g at row %d col %d", b[top], top / S, top % S);
    ck_assert_str_eq(line, "brightest: 627 at row 44 col 15");
    list(line, sizeof line, idx, 8, ", ");
    ck_assert_str_eq(line, "2831, 2702, 2895, 2766, 2829, 2768, 2767, 2832");
    free(idx);
    free(r);
}
END_TEST

/* The seed page's kernel, verbatim from GPU.js. */
static const char *COUNT_JS =
    "function (values, t) {\n"
    "  let hits = 0;\n"
    "  for (let i = 0; i < this.constants.chunk; i++) {\n"
    "    if (values[i * this.constants.threads + this.thread.x] > t) hits++;\n"
    "  }\n"
    "  return hits;\n"
    "}\n";
static const char *COUNT_GLSL =
    "float countAbove(float values[], float t) {\n"
    "  int hits = 0;\n"
    "  for (int i = 0; i < constants.chunk; i++) if (values[i * constants.threads + thread.x] > t) hits++;\n"
    "  return float(hits);\n"
    "}\n";

/* The seed's host driver: bisect the threshold until `k` values lie above it. */
static double bisect(pair p, const gpuc_array *values, int threads, int k, float lo_value, float hi_value)
{
    double lo = lo_value - 1.0, hi = hi_value;
    while (hi - lo > 0.5) {
        double mid = (lo + hi) / 2;
        size_t n;
        float *partial = run_pair(p, (gpuc_arg[]){gpuc_arg_array(values), gpuc_arg_f32((float)mid)}, 2, &n);
        double total = 0;
        for (int i = 0; i < threads; i++)
            total += partial[i];
        free(partial);
        if (total >= k)
            lo = mid;
        else
            hi = mid;
    }
    return floor(lo);
}

static double cutoff_of(const float *v, int n, int threads, int chunk, int *above)
{
    float lo = v[0], hi = v[0];
    for (int i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){(uint32_t)n}, &a));
    pair p = make_pair(COUNT_JS, COUNT_GLSL, (gpuc_kernel_desc){.output = {(uint32_t)threads},
                                                                .constants = {{"threads", threads}, {"chunk", chunk}}});
    double cut = bisect(p, a, threads, 10, lo, hi);
    *above = 0;
    for (int i = 0; i < n; i++)
        *above += v[i] > cut;
    free_pair(p);
    gpuc_array_free(a);
    return cut;
}

START_TEST(topk_4_cutoff_seed_page)
{
    enum { N = 65536 };
    float *v = malloc(N * sizeof *v);
    gen_fine_scores(v, N, 4801);
    int above;
    double cut = cutoff_of(v, N, 256, 256, &above);
    char line[64];
    snprintf(line, sizeof line, "cutoff: %.0f", cut);
    ck_assert_str_eq(line, "cutoff: 68327");
    ck_assert_int_eq(above, 10);
    free(v);
}
END_TEST

START_TEST(topk_5_which_wins)
{
    float small[4096];
    gen_fine_scores(small, 4096, 606);
    float *r = ranks_of(small, 4096);
    float tenth = 0;
    for (int i = 0; i < 4096; i++)
        if (r[i] == 9.0f)
            tenth = small[i];
    ck_assert_float_eq(tenth, 44230.0f);
    int above;
    ck_assert_double_eq(cutoff_of(small, 4096, 64, 64, &above), 44229.0);
    enum { N = 131072 };
    float *big = malloc(N * sizeof *big);
    gen_fine_scores(big, N, 4801);
    ck_assert_double_eq(cutoff_of(big, N, 512, 256, &above), 72756.0);
    /* rankBig loops 131,072 times per cell: over llvmpipe's budget, refused the same way in both forms. */
    gpuc_kernel_desc big_rank = {.output = {512, 256}, .constants = {{"n", N}, {"width", 512}}};
    gpuc_kernel *k;
    if (gpuc_get_info(gpu)->loop_budget > 0)
        ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, RANK_JS, &big_rank, &k), GPUC_ERROR_LIMIT, "iterations");
    free(big);
    free(r);
}
END_TEST

/* ---- Bitonic sort ---- */

static const char *PASS_JS =
    "function (data, stage, stride) {\n"
    "  const i = this.thread.x;\n"
    "  const strideBit = Math.floor(i / stride) % 2;\n"
    "  const dirBit = Math.floor(i / stage) % 2;\n"
    "  const partner = strideBit === 0 ? i + stride : i - stride;\n"
    "  const a = data[i];\n"
    "  const b = data[partner];\n"
    "  if (strideBit === dirBit) {\n"
    "    return Math.min(a, b);\n"
    "  }\n"
    "  return Math.max(a, b);\n"
    "}\n";
static const char *PASS_GLSL =
    "float pass(float data[], int stage, int stride) {\n"
    "  int i = thread.x; int strideBit = (i / stride) % 2; int dirBit = (i / stage) % 2;\n"
    "  int partner = strideBit == 0 ? i + stride : i - stride;\n"
    "  float a = data[i], b = data[partner];\n"
    "  return strideBit == dirBit ? min(a, b) : max(a, b);\n"
    "}\n";

/* Sorts v (n a power of two) with the full network, one pass per (stage, stride). */
static int bitonic_sort(float *v, int n)
{
    pair p = make_pair(PASS_JS, PASS_GLSL,
                       (gpuc_kernel_desc){.output = {(uint32_t)n}, .arg_types = "float[], int, int"});
    int passes = 0;
    for (int stage = 2; stage <= n; stage *= 2)
        for (int stride = stage / 2; stride >= 1; stride /= 2) {
            size_t got;
            float *next = run_pair(p, (gpuc_arg[]){H1(v, n), gpuc_arg_i32(stage), gpuc_arg_i32(stride)}, 3, &got);
            memcpy(v, next, (size_t)n * sizeof *v);
            free(next);
            passes++;
        }
    free_pair(p);
    return passes;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

START_TEST(bitonic_1_compare_exchange)
{
    const char *js = "function (d) {\n"
                     "  const i = this.thread.x;\n"
                     "  const p = i % 2 === 0 ? i + 1 : i - 1;\n"
                     "  return i % 2 === 0 ? Math.min(d[i], d[p]) : Math.max(d[i], d[p]);\n"
                     "}\n";
    const char *glsl = "float ce(float d[]) {\n"
                       "  int i = thread.x; int p = i % 2 == 0 ? i + 1 : i - 1;\n"
                       "  return i % 2 == 0 ? min(d[i], d[p]) : max(d[i], d[p]);\n"
                       "}\n";
    float v[16];
    gen_values(v, 16, 1601);
    pair p = make_pair(js, glsl, (gpuc_kernel_desc){.output = {16}});
    size_t n;
    float *r = run_pair(p, (gpuc_arg[]){H1(v, 16)}, 1, &n);
    char line[256];
    list(line, sizeof line, r, 16, ", ");
    ck_assert_str_eq(line, "5.72, 42.57, 47.94, 48.47, 16.51, 49.12, 45.6, 74.3, 19.66, 67.19, 22.84, 45.93, "
                           "55.21, 62.81, 0.05, 91.6");
    free(r);
    free_pair(p);
}
END_TEST

START_TEST(bitonic_2_partner)
{
    pair p = make_pair("function (stride) { return this.thread.x ^ stride; }",
                       "float partner(int stride) { return float(thread.x ^ stride); }",
                       (gpuc_kernel_desc){.output = {16}, .arg_types = "int"});
    const char *want[] = {"1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14",
                          "4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11"};
    for (int s = 0; s < 2; s++) {
        size_t n;
        float *r = run_pair(p, (gpuc_arg[]){gpuc_arg_i32(s ? 4 : 1)}, 1, &n);
        char line[256];
        list(line, sizeof line, r, 16, ", ");
        ck_assert_str_eq(line, want[s]);
        free(r);
    }
    free_pair(p);
}
END_TEST

START_TEST(bitonic_3_direction_seed_page)
{
    float v[8];
    gen_values(v, 8, 3103);
    pair p = make_pair(PASS_JS, PASS_GLSL, (gpuc_kernel_desc){.output = {8}, .arg_types = "float[], int, int"});
    size_t n;
    float *r = run_pair(p, (gpuc_arg[]){H1(v, 8), gpuc_arg_i32(2), gpuc_arg_i32(1)}, 3, &n);
    char line[256];
    list(line, sizeof line, r, 8, ", ");
    ck_assert_str_eq(line, "66.62, 67.76, 72.94, 33.76, 43.23, 43.51, 98.62, 1.59");
    free(r);
    free_pair(p);
}
END_TEST

START_TEST(bitonic_4_network)
{
    float v[256], sorted[256];
    gen_values(v, 256, 2560);
    memcpy(sorted, v, sizeof v);
    qsort(sorted, 256, sizeof *sorted, cmp_float);
    ck_assert_int_eq(bitonic_sort(v, 256), 36);
    char line[64];
    snprintf(line, sizeof line, "smallest: %g, largest: %g", v[0], v[255]);
    ck_assert_str_eq(line, "smallest: 0.37, largest: 99.96");
    ck_assert_mem_eq(v, sorted, sizeof v);
}
END_TEST

START_TEST(bitonic_5_sort)
{
    float v[128], sorted[100];
    gen_values(v, 100, 10007);
    memcpy(sorted, v, sizeof sorted);
    qsort(sorted, 100, sizeof *sorted, cmp_float);
    for (int i = 100; i < 128; i++)
        v[i] = 1e6f;
    bitonic_sort(v, 128);
    char line[64];
    snprintf(line, sizeof line, "smallest: %g, largest: %g", v[0], v[99]);
    ck_assert_str_eq(line, "smallest: 0.2, largest: 99.95");
    ck_assert_mem_eq(v, sorted, sizeof sorted);
}
END_TEST

/* ---- Stream compaction ---- */

static const char *FLAG_JS = "function (s) { return s[this.thread.x] >= this.constants.threshold ? 1 : 0; }";
static const char *FLAG_GLSL = "float flag(float s[]) { return s[thread.x] >= float(constants.threshold) ? 1.0 : 0.0; }";
static const char *SCAN_JS =
    "function (flags) {\n"
    "  let sum = 0;\n"
    "  for (let i = 0; i < this.constants.n; i++) {\n"
    "    if (i < this.thread.x) sum += flags[i];\n"
    "  }\n"
    "  return sum;\n"
    "}\n";
static const char *SCAN_GLSL = "float scan(float flags[]) {\n"
                               "  float sum = 0.0;\n"
                               "  for (int i = 0; i < constants.n; i++) if (i < thread.x) sum += flags[i];\n"
                               "  return sum;\n"
                               "}\n";
static const char *GATHER_LINEAR_JS =
    "function (samples, flags, offsets) {\n"
    "  let v = 0;\n"
    "  for (let i = 0; i < this.constants.n; i++) {\n"
    "    if (flags[i] === 1 && offsets[i] === this.thread.x) v = samples[i];\n"
    "  }\n"
    "  return v;\n"
    "}\n";
static const char *GATHER_LINEAR_GLSL =
    "float g(float samples[], float flags[], float offsets[]) {\n"
    "  float v = 0.0;\n"
    "  for (int i = 0; i < constants.n; i++)\n"
    "    if (flags[i] == 1.0 && offsets[i] == float(thread.x)) v = samples[i];\n"
    "  return v;\n"
    "}\n";
/* The seed page's binary-search gather, verbatim. */
static const char *SEARCH_JS =
    "function (samples, flags, offsets) {\n"
    "  let lo = 0;\n"
    "  let hi = this.constants.n;\n"
    "  for (let step = 0; step < this.constants.steps; step++) {\n"
    "    if (lo < hi) {\n"
    "      const mid = Math.floor((lo + hi) / 2);\n"
    "      if (offsets[mid] + flags[mid] > this.thread.x) {\n"
    "        hi = mid;\n"
    "      } else {\n"
    "        lo = mid + 1;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  return samples[Math.min(lo, this.constants.n - 1)];\n"
    "}\n";
static const char *SEARCH_GLSL =
    "float search(float samples[], float flags[], float offsets[]) {\n"
    "  int lo = 0, hi = constants.n;\n"
    "  for (int s = 0; s < constants.steps; s++) if (lo < hi) {\n"
    "    int mid = (lo + hi) / 2;\n"
    "    if (offsets[mid] + flags[mid] > float(thread.x)) hi = mid; else lo = mid + 1;\n"
    "  }\n"
    "  return samples[min(lo, constants.n - 1)];\n"
    "}\n";

typedef struct compaction {
    float samples[64];
    float *flags, *offsets;
} compaction;

static void compaction_run(compaction *c, uint32_t seed)
{
    gen_samples(c->samples, 64, seed);
    gpuc_kernel_desc d = {.output = {64}, .constants = {{"threshold", 50}, {"n", 64}}};
    pair p = make_pair(FLAG_JS, FLAG_GLSL, d);
    size_t n;
    c->flags = run_pair(p, (gpuc_arg[]){H1(c->samples, 64)}, 1, &n);
    free_pair(p);
    p = make_pair(SCAN_JS, SCAN_GLSL, d);
    c->offsets = run_pair(p, (gpuc_arg[]){H1(c->flags, 64)}, 1, &n);
    free_pair(p);
    float running = 0;
    for (int i = 0; i < 64; i++) { /* C oracle */
        ck_assert_float_eq(c->flags[i], c->samples[i] >= 50 ? 1.0f : 0.0f);
        ck_assert_float_eq(c->offsets[i], running);
        running += c->flags[i];
    }
}

static void compaction_free(compaction *c)
{
    free(c->flags);
    free(c->offsets);
}

START_TEST(compact_1_flags)
{
    compaction c;
    compaction_run(&c, 1130);
    char line[256];
    list(line, sizeof line, c.samples, 12, ", ");
    ck_assert_str_eq(line, "13, 42, 67, 21, 53, 94, 17, 14, 84, 80, 61, 23");
    list(line, sizeof line, c.flags, 12, ", ");
    ck_assert_str_eq(line, "0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0");
    compaction_free(&c);
}
END_TEST

START_TEST(compact_2_offsets)
{
    compaction c;
    compaction_run(&c, 1121);
    char line[256];
    list(line, sizeof line, c.flags, 12, ", ");
    ck_assert_str_eq(line, "0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1, 1");
    list(line, sizeof line, c.offsets, 12, ", ");
    ck_assert_str_eq(line, "0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 4, 5");
    compaction_free(&c);
}
END_TEST

static float *packed(compaction *c, const char *js, const char *glsl)
{
    pair p = make_pair(js, glsl, (gpuc_kernel_desc){.output = {64}, .constants = {{"n", 64}, {"steps", 7}}});
    size_t n;
    float *r = run_pair(p, (gpuc_arg[]){H1(c->samples, 64), H1(c->flags, 64), H1(c->offsets, 64)}, 3, &n);
    free_pair(p);
    return r;
}

START_TEST(compact_3_gather)
{
    compaction c;
    compaction_run(&c, 1042);
    float *r = packed(&c, GATHER_LINEAR_JS, GATHER_LINEAR_GLSL);
    char line[256];
    list(line, sizeof line, c.samples, 12, ", ");
    ck_assert_str_eq(line, "29, 44, 54, 11, 88, 82, 82, 73, 94, 95, 70, 73");
    list(line, sizeof line, r, 12, ", ");
    ck_assert_str_eq(line, "54, 88, 82, 82, 73, 94, 95, 70, 73, 67, 67, 66");
    free(r);
    compaction_free(&c);
}
END_TEST

START_TEST(compact_4_binary_search_seed_page)
{
    compaction c;
    compaction_run(&c, 1181);
    float *r = packed(&c, SEARCH_JS, SEARCH_GLSL);
    char line[256];
    list(line, sizeof line, c.samples, 12, ", ");
    ck_assert_str_eq(line, "19, 10, 1, 99, 83, 25, 99, 5, 87, 96, 88, 33");
    list(line, sizeof line, r, 12, ", ");
    ck_assert_str_eq(line, "99, 83, 99, 87, 96, 88, 57, 86, 66, 58, 99, 62");
    int survivors = (int)(c.offsets[63] + c.flags[63]);
    ck_assert_int_eq(survivors, 34);
    for (int x = 0, k = 0; k < 64; k++) /* C oracle: the survivors in order */
        if (c.flags[k] == 1.0f)
            ck_assert_float_eq(r[x++], c.samples[k]);
    free(r);
    compaction_free(&c);
}
END_TEST

START_TEST(compact_5_count)
{
    compaction c;
    compaction_run(&c, 1130);
    float *r = packed(&c, SEARCH_JS, SEARCH_GLSL);
    int count = (int)(c.offsets[63] + c.flags[63]);
    char line[512];
    snprintf(line, sizeof line, "survivors: %d", count);
    ck_assert_str_eq(line, "survivors: 32");
    list(line, sizeof line, r, count, ", ");
    ck_assert_str_eq(line, "67, 53, 94, 84, 80, 61, 63, 79, 95, 76, 69, 93, 61, 66, 94, 87, 69, 83, 78, 94, 65, 83, "
                           "68, 85, 79, 50, 74, 58, 65, 68, 72, 98");
    free(r);
    compaction_free(&c);
}
END_TEST

Suite *suite_js_tutorial(void)
{
    Suite *s = suite_create("js_tutorial");
    TCase *tc = fixture_tcase("tutorial kernels in JavaScript");
    tcase_add_test(tc, topk_1_rank);
    tcase_add_test(tc, topk_2_gather);
    tcase_add_test(tc, topk_3_brightest);
    tcase_add_test(tc, topk_4_cutoff_seed_page);
    tcase_add_test(tc, topk_5_which_wins);
    tcase_add_test(tc, bitonic_1_compare_exchange);
    tcase_add_test(tc, bitonic_2_partner);
    tcase_add_test(tc, bitonic_3_direction_seed_page);
    tcase_add_test(tc, bitonic_4_network);
    tcase_add_test(tc, bitonic_5_sort);
    tcase_add_test(tc, compact_1_flags);
    tcase_add_test(tc, compact_2_offsets);
    tcase_add_test(tc, compact_3_gather);
    tcase_add_test(tc, compact_4_binary_search_seed_page);
    tcase_add_test(tc, compact_5_count);
    suite_add_tcase(s, tc);
    return s;
}
