/* unit_jam.c - the jam rewrite (kernel/source/kernel_jam.h) on program texts as gpuc's rewrites leave
 * them (array reads are accessor calls): which loops it fuses, how each cell's copy reads, and every
 * refusal its header lists, each with its reason. Whether a jammed program computes what the kernel
 * does is the jam suite's (tests/test_jam.c), on the device against C. */
#include "unit.h"
#include "kernel/source/kernel_jam.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The jammed text of src's kernel `name` for `cells` cells; fails the test when it is refused. */
static char *jammed(const char *src, const char *name, int cells)
{
    const char *why = "";
    char *text = kernel_jam(src, name, cells, NULL, 0, NULL, NULL, &why);
    ck_assert_msg(text != NULL, "refused: %s", why);
    ck_assert_ptr_null(why);
    return text;
}

/* Why src's kernel `name` is refused; fails the test when it is jammed. */
static const char *refusal(const char *src, const char *name)
{
    const char *why = NULL;
    char *text = kernel_jam(src, name, 4, NULL, 0, NULL, NULL, &why);
    ck_assert_msg(text == NULL, "jammed:\n%s", text ? text : "");
    ck_assert_ptr_nonnull(why);
    return why;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

START_TEST(jam_fuses_a_counted_loop)
{
    char *t = jammed("float matmul() {\n"
                     "    float sum = 0.0; // each cell's\n"
                     "    for (int i = 0; i < constants.n; i++)\n"
                     "        sum += a(thread.y, i) * b(i, thread.x);\n"
                     "    return sum;\n"
                     "}\n", "matmul", 4);
    ck_assert(strstr(t, "void gpuc_jam(out float gpuc_jam_0, out float gpuc_jam_1, out float gpuc_jam_2, "
                        "out float gpuc_jam_3)"));
    ck_assert_int_eq(count(t, "for ("), 1); /* one loop for the four cells */
    ck_assert(strstr(t, "for (int i = 0; i < constants.n; i++)"));
    ck_assert(strstr(t, "gpuc_j0_sum += a(thread.y, i) * b(i, thread.x);"));
    ck_assert(strstr(t, "gpuc_j3_sum += a(thread.y, i) * b(i, (thread.x + 3));"));
    ck_assert(strstr(t, "gpuc_jam_2 = gpuc_j2_sum;"));
    ck_assert_int_eq(count(t, "_sum = 0.0;"), 4);
    free(t);
}
END_TEST

START_TEST(jam_keeps_unfusable_loops_per_cell)
{
    /* a bound from thread.x, and a counter a helper may write: each cell runs its own copy */
    char *t = jammed("void bump(inout int k) { k += 1; }\n"
                     "float f() {\n"
                     "    float s = 0.0;\n"
                     "    for (int i = 0; i < thread.x; i++) s += 1.0;\n"
                     "    for (int j = 0; j < 8; j++) { bump(j); s += float(j); }\n"
                     "    for (int k = 0; k < 4; k++) for (int m = 0; m <= k; m++) s += float(m);\n"
                     "    for (int r = 0; r < 4; r++) { r.x += 1; s += 1.0; }\n" /* a write through a swizzle */
                     "    for (int q = 0; q < 4; q++) { (q) = q; s += float(q); }\n" /* a parenthesised lvalue */
                     "    return s;\n"
                     "}\n", "f", 4);
    ck_assert(strstr(t, "for (int gpuc_j1_i = 0; gpuc_j1_i < (thread.x + 1); gpuc_j1_i++)"));
    ck_assert(strstr(t, "bump(gpuc_j2_j)"));
    ck_assert(strstr(t, "for (int k = 0; k < 4; k++) {"));   /* fused */
    ck_assert(strstr(t, "for (int m = 0; m <= k; m++) {"));  /* fused: its bound is the fused counter */
    ck_assert(strstr(t, "for (int gpuc_j3_r = 0; gpuc_j3_r < 4; gpuc_j3_r++)"));
    ck_assert(strstr(t, "for (int gpuc_j1_q = 0; gpuc_j1_q < 4; gpuc_j1_q++)"));
    ck_assert_int_eq(count(t, "for ("), 4 + 4 + 1 + 1 + 4 + 4);
    free(t);
}
END_TEST

START_TEST(jam_fuses_a_loop_bounded_by_a_defined_number)
{
    char *t = jammed("// sizes\n#define TAPS 5\n#if 0\n#define OTHER 7\n#endif\n"
                     "float k() {\n    float s = 0.0;\n"
                     "    for (int i = 0; i < TAPS; i++) s += w(i) * img(thread.y, thread.x + i);\n"
                     "    return s;\n}\n", "k", 4);
    ck_assert(strstr(t, "for (int i = 0; i < TAPS; i++) {"));
    ck_assert_int_eq(count(t, "for ("), 1);
    ck_assert(strstr(t, "gpuc_j2_s += w(i) * img(thread.y, (thread.x + 2) + i);"));
    free(t);
}
END_TEST

START_TEST(jam_drops_what_follows_the_return)
{
    char *t = jammed("float k() {\n    float v = float(thread.x);\n"
                     "    for (int i = 0; i < 2; i++) v += float(i);\n    return v * 2.0;\n    return 0.0;\n}\n",
                     "k", 4);
    ck_assert(!strstr(t, "0.0;"));
    ck_assert(strstr(t, "float gpuc_j1_v = float((thread.x + 1));"));
    free(t);
}
END_TEST

START_TEST(jam_refusals)
{
    static const struct {
        const char *src, *reason;
    } cases[] = {
        {"float g;\nfloat k() { for (int i = 0; i < 2; i++) g += 1.0; return g; }", "a global variable"},
        {"#define N 4\n#undef N\nfloat k() { return 1.0; }", "a preprocessor line the jam does not follow"},
        {"float k() { return 1.0; }\n#define N 4\n", "a preprocessor line after the kernel's start"},
        {"#define F(x) x\nfloat k() { float s = 0.0; for (int i = 0; i < 4; i++) s += F(v(i)); return s; }",
         "a macro or a conditional the reader does not follow"},
        {"float h() { return float(thread.x); }\nfloat k() { return h(); }", "a helper function reads `thread`"},
        {"float k() { float s = 0.0; for (int i = 0; i < 4; i++) { if (s > 2.0) break; s += 1.0; } return s; }",
         "break, continue or discard"},
        {"float k() { if (thread.x > 1) return 1.0; return 0.0; }", "a return inside the kernel's statements"},
        {"float k() { thread.x = 0; return 1.0; }", "`thread` written"},
        {"float k() { (thread.y) += 1; return 1.0; }", "`thread` written"},
        {"float k() { ++((thread.z)); return 1.0; }", "`thread` written"},
        {"void w(inout int v) { v = 0; }\nfloat k() { w(thread.x); return 1.0; }", "`thread` written"},
        {"float k() { ivec3 t = thread; return float(t.x); }", "`thread` read other than"},
        {"float k() { return float(gl_GlobalInvocationID.x); }", "a gl_ variable"},
        {"float k() { float i; return modf(1.5, i); }", "a builtin that writes its argument"},
        {"float k() { float s = 0.0; s += 1.0; }", "does not end in a return"},
        {"float k() { return 1.0; }\nfloat k(float x) { return x; }", "the kernel function is overloaded"},
        /* each cell a chunk of its own: nothing to share */
        {"float k() { float s = 0.0; for (int i = 0; i < 64; i++) s += a(thread.x * 64 + i); return s; }",
         "no read in a fused loop that its cells share"},
        {"float k() { float s = 0.0; int b = thread.x * 64; for (int i = 0; i < 64; i++) s += a(b + i); return s; }",
         "no read in a fused loop that its cells share"},
        /* text that does not compile: the reader pairs brackets first */
        {"float k() { float s = 0.0; for (int i = 0; i < 4; i++) { s += a(i); return s; }", "an unmatched bracket"},
        {"float k() { float s = 0.0; for (int i = 0; i < 4; i++) s += a(i)); return s; }", "an unmatched bracket"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *why = refusal(cases[i].src, "k");
        ck_assert_msg(strstr(why, cases[i].reason), "case %zu: \"%s\", expected \"%s\"", i, why, cases[i].reason);
    }
}
END_TEST

/* A kernel of many locals (the reader finds names by a hash of their text): every one renamed in
 * every cell, the counter fused, and a local written after its declaration (w7) still its cell's own
 * where it stands in a read (the read stays per cell: w7 differs between cells once written). */
START_TEST(jam_follows_many_locals)
{
    enum { LOCALS = 600 };
    strbuf sb = {0};
    strbuf_puts(&sb, "float k() {\n    float s = 0.0;\n");
    for (int i = 0; i < LOCALS; i++)
        strbuf_printf(&sb, "    int w%d = thread.y + %d;\n", i, i);
    strbuf_puts(&sb, "    w7 += thread.x;\n    for (int i = 0; i < 4; i++) {\n        s += a(thread.y, i) + a(w7, i);\n");
    for (int i = 0; i < LOCALS; i += 37)
        strbuf_printf(&sb, "        s += float(w%d);\n", i);
    strbuf_puts(&sb, "    }\n    return s;\n}\n");
    char *src = strbuf_take(&sb);
    ck_assert_ptr_nonnull(src);
    char *text = jammed(src, "k", 4);
    ck_assert_int_eq(count(text, "for (int i = 0; i < 4; i++)"), 1);
    for (int c = 0; c < 4; c++) {
        char name[32];
        snprintf(name, sizeof name, "int gpuc_j%d_w%d = ", c, LOCALS - 1);
        ck_assert_msg(count(text, name) == 1, "%s", name);
        snprintf(name, sizeof name, "float(gpuc_j%d_w592)", c);
        ck_assert_msg(count(text, name) == 1, "%s", name);
        snprintf(name, sizeof name, "a(gpuc_j%d_w7, i)", c);
        ck_assert_msg(count(text, name) == 1, "%s", name);
    }
    free(text);
    free(src);
}
END_TEST

START_TEST(jam_accepts_consts_structs_and_prototypes) /* a global const bounds a fused loop */
{
    char *t = jammed("const float w[2] = float[2](0.5, 0.25);\n"
                     "struct pair { float a; float b; };\n"
                     "float h(float x);\n"
                     "float h(float x) { return x * w[1]; }\n"
                     "const int N = 2, M[2] = int[2](1, 2);\n"
                     "float k() {\n"
                     "    pair p = pair(0.0, 1.0);\n"
                     "    for (int i = 0; i < N; i++) p.a += h(w[i]) + float(thread.x);\n"
                     "    return p.a;\n"
                     "}\n", "k", 8);
    ck_assert(strstr(t, "pair gpuc_j7_p = pair(0.0, 1.0);"));
    ck_assert(strstr(t, "gpuc_j5_p.a += h(w[i]) + float((thread.x + 5));"));
    ck_assert_int_eq(count(t, "for ("), 1);
    free(t);
}
END_TEST

/* Which of a, b and m the last jammed_texels read through a window (kernel_jam's window_used). */
static bool windows_used[3];

/* The jammed text of src's kernel `name` (8 cells) where arrays a, b (float) and m (int) may be read a
 * texel at a time; used[] says which were. */
static char *jammed_texels(const char *src, const char *name, bool used[3])
{
    static const kernel_jam_texels texels[] = {{"a", "vec4"}, {"b", "vec4"}, {"m", "ivec4"}};
    const char *why = "";
    char *text = kernel_jam(src, name, 8, texels, 3, used, windows_used, &why);
    ck_assert_msg(text != NULL, "refused: %s", why);
    return text;
}

START_TEST(jam_reads_neighbours_a_texel_at_a_time)
{
    bool used[3];
    char *t = jammed_texels("float matmul() {\n"
                            "    float sum = 0.0;\n"
                            "    for (int i = 0; i < constants.n; i++)\n"
                            "        sum += a(thread.y, i) * b(i, thread.x);\n"
                            "    return sum;\n"
                            "}\n", "matmul", used);
    /* once for the eight cells, before their copies, inside the loop */
    ck_assert(strstr(t, "for (int i = 0; i < constants.n; i++) {\n"
                        "vec4 gpuc_texels_0_0 = gpuc_texel_b(i, thread.x);\n"
                        "vec4 gpuc_texels_0_1 = gpuc_texel_b(i, thread.x + 4);\n"
                        "gpuc_j0_sum += a(thread.y, i) * gpuc_texels_0_0.x;\n"));
    ck_assert(strstr(t, "gpuc_j6_sum += a(thread.y, i) * gpuc_texels_0_1.z;"));
    ck_assert_int_eq(count(t, "gpuc_texel_"), 2);
    ck_assert(!used[0] && used[1] && !used[2]);
    free(t);

    /* the leading arguments anything every cell computes alike: counters of loops around, gpuc's
     * constants, calls of those; one argument (a flat read); an int array's texels; inside a call */
    t = jammed_texels("float h(int c) { return float(c); }\n"
                      "float k() {\n"
                      "    float s = 0.0;\n"
                      "    for (int i = 0; i < 4; i++)\n"
                      "        for (int j = 0; j < 2; j++) {\n"
                      "            s += h(i * 2) * b(max(i - j, 0) * constants.n, thread.x);\n"
                      "            s += float(m(thread.x)) + max(b(j, thread.x), 0.0);\n"
                      "        }\n"
                      "    return s;\n"
                      "}\n", "k", used);
    ck_assert(strstr(t, "vec4 gpuc_texels_0_1 = gpuc_texel_b(max(i - j, 0) * constants.n, thread.x + 4);"));
    ck_assert(strstr(t, "ivec4 gpuc_texels_1_0 = gpuc_texel_m(thread.x);"));
    ck_assert(strstr(t, "vec4 gpuc_texels_2_1 = gpuc_texel_b(j, thread.x + 4);"));
    ck_assert(strstr(t, "gpuc_j5_s += float(gpuc_texels_1_1.y) + max(gpuc_texels_2_1.y, 0.0);"));
    ck_assert(!used[0] && used[1] && used[2]);
    free(t);

    /* read per cell: the last argument thread.x plus what a cell may change or what is not compiled in,
     * a leading argument that differs between cells or that a cell may change, a read outside the fused
     * loops, thread.x not a whole argument */
    t = jammed_texels("float k() {\n"
                      "    float s = b(0, thread.x);\n"
                      "    int q = 1;\n"
                      "    for (int i = 0; i < 4; i++) {\n"
                      "        s += b(i, thread.x + q) + b(i, (thread.x)) + b(thread.x, thread.x);\n"
                      "        s += b(q, thread.x) + b(i + thread.y % 2, thread.x - constants.n) + a(q++, thread.x);\n"
                      "        s += a(i, thread.x) * b(i, thread.x);\n" /* shares the loop: jammed */
                      "    }\n"
                      "    return s;\n"
                      "}\n", "k", used);
    ck_assert(strstr(t, "float gpuc_j3_s = b(0, (thread.x + 3));"));
    ck_assert(strstr(t, "b(i, (thread.x + 3) + gpuc_j3_q) + b(i, ((thread.x + 3))) + b((thread.x + 3), (thread.x + 3))"));
    ck_assert(strstr(t, "b(gpuc_j2_q, (thread.x + 2)) + b(i + thread.y % 2, (thread.x + 2) - constants.n) + "
                        "a(gpuc_j2_q++, (thread.x + 2))"));
    ck_assert_int_eq(count(t, "gpuc_texel_"), 4); /* the last line's two reads */
    free(t);

    /* fewer than four cells, or no arrays given: every read per cell */
    const char *why = "";
    static const kernel_jam_texels b_only[] = {{"b", "vec4"}};
    const char *src = "float k() { float s = 0.0; for (int i = 0; i < 4; i++) s += b(i, thread.x); return s; }";
    t = kernel_jam(src, "k", 2, b_only, 1, used, NULL, &why);
    ck_assert(t && !strstr(t, "gpuc_texel") && !used[0]);
    free(t);
    t = kernel_jam(src, "k", 8, b_only, 0, NULL, NULL, &why);
    ck_assert(t && !strstr(t, "gpuc_texel"));
    free(t);
    /* a refused jam says no array is read so */
    used[0] = true;
    ck_assert_ptr_null(kernel_jam("float k() { return b(0, thread.x); }", "k", 8, b_only, 1, used, NULL, &why));
    ck_assert(!used[0]);
}
END_TEST

/* Reads of a row's neighbours at thread.x plus an offset compiled in (a stencil's img(yy, xx),
 * xx = thread.x + i - 2): the group's window of texels read once, each cell's element picked from it;
 * a fused loop of a few literal trips unrolled where that makes the offset compiled in. */
START_TEST(jam_reads_a_window_of_neighbours)
{
    bool used[3];
    char *t = jammed_texels("const int R = 1;\n"
                            "float k() {\n"
                            "    float s = 0.0;\n"
                            "    for (int j = 0; j < 3; j++)\n"
                            "        for (int i = -2; i <= 2; i++) {\n"
                            "            const int yy = thread.y + j - R;\n"
                            "            int xx = thread.x + i - R, r = yy * 2;\n"
                            "            s += b(yy, xx) * a(j, i + 2) + float(m(r, thread.x));\n"
                            "        }\n"
                            "    return s;\n"
                            "}\n", "k", used);
    /* i unrolled (five blocks, its value a const in each), j fused */
    ck_assert(strstr(t, "for (int j = 0; j < 3; j++) {\n{\nconst int i = -2;\n"));
    ck_assert(strstr(t, "}\n{\nconst int i = 2;\n"));
    ck_assert_int_eq(count(t, "const int i ="), 5);
    /* the window: 3 texels from thread.x + (e & ~3), e = i - R; the locals every cell computes alike
     * as cell 0 has them */
    ck_assert(strstr(t, "int gpuc_shift_0 = int(0 + i - R) & 3;\n"
                        "vec4 gpuc_window_0[3] = vec4[3](gpuc_texel_b(gpuc_j0_yy, thread.x + (int(0 + i - R) & ~3)), "
                        "gpuc_texel_b(gpuc_j0_yy, thread.x + (int(0 + i - R) & ~3) + 4), "
                        "gpuc_texel_b(gpuc_j0_yy, thread.x + (int(0 + i - R) & ~3) + 8));\n"));
    ck_assert(strstr(t, "ivec4 gpuc_texels_1_1 = gpuc_texel_m(gpuc_j0_r, thread.x + 4);"));
    ck_assert(strstr(t, "gpuc_j6_s += gpuc_window_0[(gpuc_shift_0 + 6) >> 2][(gpuc_shift_0 + 6) & 3] * a(j, i + 2) + "
                        "float(gpuc_texels_1_1.z);"));
    ck_assert_int_eq(count(t, "gpuc_window_4["), 9); /* the fifth trip's: declared once, picked by 8 cells */
    ck_assert(!used[0] && used[1] && used[2]);
    ck_assert(!windows_used[0] && windows_used[1] && !windows_used[2]); /* m's reads are at thread.x + 4q */
    free(t);

    /* thread.x plus a compiled-in offset written in the call, in a loop not unrolled (its bound a
     * constant); 1D and 3D */
    t = jammed_texels("float k() {\n"
                      "    float s = 0.0;\n"
                      "    for (int i = 0; i < constants.n; i++)\n"
                      "        s += b(thread.x - 3) * a(i, 0) + b(i, 1, thread.x + 2 * 3 - 1);\n"
                      "    return s;\n"
                      "}\n", "k", used);
    ck_assert(!strstr(t, "const int i"));
    ck_assert(strstr(t, "int gpuc_shift_0 = int(0 - 3) & 3;\nvec4 gpuc_window_0[3] = vec4[3](gpuc_texel_b(thread.x + "
                        "(int(0 - 3) & ~3)), "));
    ck_assert(strstr(t, "gpuc_texel_b(i, 1, thread.x + (int(0 + 2 * 3 - 1) & ~3) + 8));"));
    free(t);

    /* per cell: the offset not compiled in (a loop of 9 trips, one stepping by 2, one bounded by an
     * octal number, one by a constant), a local written later, thread.x scaled, a tail that binds less than +, a local
     * declared twice, a float local; no loop unrolled */
    t = jammed_texels("float k() {\n"
                      "    float s = 0.0;\n"
                      "    int q = 1;\n"
                      "    for (int j = 0; j < 2; j++) {\n"
                      "        int xw = thread.x + j;\n"
                      "        xw = xw + 1;\n"
                      "        for (int i = 0; i < 9; i++)\n"
                      "            s += b(j, thread.x + i);\n"
                      "        for (int i = 0; i < 3; i += 2)\n"
                      "            s += b(j, thread.x + i);\n"
                      "        for (int i = 0; i < 07; i++)\n" /* octal: whole numbers are decimal only */
                      "            s += b(j, thread.x + i);\n"
                      "        for (int i = 0; i < constants.n; i++) {\n"
                      "            int x2 = thread.x + i, x3 = thread.x * 2 + 1, x4 = thread.x + 1 & 3;\n"
                      "            s += b(j, x2) + b(j, x3) + b(j, x4) + b(j, xw) + b(j, thread.x + q) + a(j, i);\n"
                      "        }\n"
                      "        for (int i = 0; i < 2; i++) {\n"
                      "            int x2 = thread.x + 1;\n"
                      "            s += b(j, x2) + a(j, i);\n"
                      "        }\n"
                      "    }\n"
                      "    return s;\n"
                      "}\n", "k", used);
    ck_assert(!strstr(t, "const int") && !strstr(t, "gpuc_window") && !strstr(t, "gpuc_texel"));
    ck_assert(strstr(t, "gpuc_j3_s += b(j, (thread.x + 3) + i);"));
    ck_assert(strstr(t, "gpuc_j3_s += b(j, gpuc_j3_x2) + b(j, gpuc_j3_x3) + b(j, gpuc_j3_x4) + b(j, gpuc_j3_xw) + "
                        "b(j, (thread.x + 3) + gpuc_j3_q) + a(j, i);"));
    ck_assert(!used[0] && !used[1] && !used[2]);
    free(t);

    /* a local every cell computes alike is one only from its declaration on, in its block */
    t = jammed_texels("float k() {\n"
                      "    float s = 0.0;\n"
                      "    for (int i = 0; i < 4; i++) {\n"
                      "        int r = i + 1, x = thread.x + 1, u = r * 2, v = x;\n"
                      "        s += b(u, thread.x) + b(v, thread.x) + b(r, x) + a(i, 0);\n"
                      "    }\n"
                      "    return s;\n"
                      "}\n", "k", used);
    ck_assert(strstr(t, "gpuc_j2_s += b(gpuc_j2_u, (thread.x + 2)) + b(gpuc_j2_v, (thread.x + 2)) + "
                        "gpuc_window_0[(gpuc_shift_0 + 2) >> 2][(gpuc_shift_0 + 2) & 3] + a(i, 0);"));
    ck_assert(strstr(t, "gpuc_texel_b(gpuc_j0_r, thread.x + (int(0 + 1) & ~3)"));
    free(t);
}
END_TEST

Suite *unit_jam_suite(void)
{
    Suite *s = suite_create("unit_jam");
    TCase *tc = tcase_create("jam");
    tcase_add_test(tc, jam_fuses_a_counted_loop);
    tcase_add_test(tc, jam_keeps_unfusable_loops_per_cell);
    tcase_add_test(tc, jam_fuses_a_loop_bounded_by_a_defined_number);
    tcase_add_test(tc, jam_drops_what_follows_the_return);
    tcase_add_test(tc, jam_refusals);
    tcase_add_test(tc, jam_follows_many_locals);
    tcase_add_test(tc, jam_accepts_consts_structs_and_prototypes);
    tcase_add_test(tc, jam_reads_neighbours_a_texel_at_a_time);
    tcase_add_test(tc, jam_reads_a_window_of_neighbours);
    suite_add_tcase(s, tc);
    return s;
}
