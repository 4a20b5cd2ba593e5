/* unit_source.c - the source readers on strings: the kernel's signature (the last function), finding
 * helpers and their calls, the nesting limit with its line and column, the preprocessor branches the
 * mask drops, continued lines, and the identifier rule for names. */
#include "unit.h"
#include "kernel/source/source_scan.h"

#include <stdlib.h>
#include <string.h>

/* The signature of src's kernel; fails the test when it does not parse. */
static kernel_signature parse(const char *src)
{
    kernel_signature sig;
    char err[256] = "";
    char *mask = source_mask(src);
    ck_assert_ptr_nonnull(mask);
    bool ok = source_parse_kernel(mask, &sig, err, sizeof err);
    free(mask);
    ck_assert_msg(ok, "%s", err);
    return sig;
}

/* The message parsing src fails with ("" when it parses). */
static void parse_error(const char *src, char *err, size_t errlen)
{
    kernel_signature sig;
    char *mask = source_mask(src);
    ck_assert_ptr_nonnull(mask);
    err[0] = '\0';
    if (source_parse_kernel(mask, &sig, err, errlen))
        err[0] = '\0';
    free(mask);
}

START_TEST(signature_of_last_function)
{
    kernel_signature sig = parse("float helper(float x) { return x * 2.0; }\n"
                                 "// a comment (float fake(int q) {})\n"
                                 "vec4 blur(float a[], int n, vec3 b[][], float s) {\n"
                                 "    return vec4(helper(a[n]) * s);\n"
                                 "}\n");
    ck_assert_str_eq(sig.name, "blur");
    ck_assert_int_eq(sig.return_type, GPUC_VEC4);
    ck_assert(!sig.returns_void);
    ck_assert_int_eq(sig.nparams, 4);
    static const char *const names[] = {"a", "n", "b", "s"};
    static const gpuc_type types[] = {GPUC_FLOAT, GPUC_INT, GPUC_VEC3, GPUC_FLOAT};
    static const int ranks[] = {1, 0, 2, 0};
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(sig.params[i].name, names[i]);
        ck_assert_int_eq(sig.params[i].type, types[i]);
        ck_assert_int_eq(sig.params[i].rank, ranks[i]);
    }
}
END_TEST

START_TEST(signature_void_and_empty)
{
    kernel_signature sig = parse("void paint() { color(1.0, 0.0, 0.0); }");
    ck_assert_str_eq(sig.name, "paint");
    ck_assert(sig.returns_void);
    ck_assert_int_eq(sig.nparams, 0);
    sig = parse("int three(void) { return 3; }");
    ck_assert_int_eq(sig.return_type, GPUC_INT);
    ck_assert_int_eq(sig.nparams, 0);
}
END_TEST

START_TEST(signature_errors_name_line_and_column)
{
    char err[256];
    /* The second parameter's text begins right after the comma, at column 19 of line 2. */
    parse_error("// kernel\nfloat k(float a[], double b) { return 1.0; }", err, sizeof err);
    ck_assert_msg(!strncmp(err, "line 2, column 19: parameter `b` has type `double`", 50), "%s", err);
    parse_error("float k(out float a) { return 1.0; }", err, sizeof err);
    ck_assert_msg(strstr(err, "kernel parameters are inputs") != NULL, "%s", err);
    parse_error("   ", err, sizeof err);
    ck_assert_msg(err[0] != '\0', "an empty source has no kernel");
}
END_TEST

START_TEST(calls_and_definitions)
{
    const char *src = "float sq(float x) { return x * x; }\n"
                      "float unused(float x);\n"
                      "float k(float a[]) { float s = sq(a[0]); return sq (s) + sqrt(s); }\n";
    char *mask = source_mask(src);
    ck_assert_ptr_nonnull(mask);
    gpuc_type type = GPUC_TYPE_NONE;
    ck_assert(source_find_function(mask, "sq", &type));
    ck_assert_int_eq(type, GPUC_FLOAT);
    ck_assert(!source_find_function(mask, "sqrt", &type)); /* called, never defined */
    ck_assert(!source_find_function(mask, "unused", &type)); /* a prototype is no definition */
    /* The definition on line 1 is not a call: the first call is `sq(a[0])`, then `sq (s)`. */
    size_t open, first = source_next_call(mask, "sq", 0, &open);
    ck_assert_uint_eq(first, (size_t)(strstr(src, "sq(a[0])") - src));
    ck_assert_uint_eq(open, first + 2);
    size_t second = source_next_call(mask, "sq", first + 1, &open);
    ck_assert_uint_eq(second, (size_t)(strstr(src, "sq (s)") - src));
    ck_assert_uint_eq(open, second + 3);
    ck_assert_uint_eq(source_next_call(mask, "sq", second + 1, &open), (size_t)-1);
    ck_assert(source_calls(mask, "sqrt"));
    ck_assert(!source_calls(mask, "unused"));
    ck_assert(!source_calls(mask, "s")); /* a variable, never called */
    ck_assert(source_mentions(src, "s"));
    ck_assert(!source_mentions(src, "q")); /* only inside other words */
    free(mask);
}
END_TEST

/* A kernel whose return expression sits in `parens` parentheses: the body's `{` is the first level
 * and each parenthesis one more (gpuc.h, GPUC_MAX_NESTING). */
static char *nested(int parens)
{
    const char *head = "float k() { return ";
    size_t n = strlen(head);
    char *s = malloc(n + 2 * (size_t)parens + 16);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, n);
    memset(s + n, '(', (size_t)parens);
    strcpy(s + n + parens, "1.0");
    memset(s + n + parens + 3, ')', (size_t)parens);
    strcpy(s + n + 2 * (size_t)parens + 3, "; }");
    return s;
}

START_TEST(nesting_limit)
{
    char err[256] = "";
    char *s = nested(GPUC_MAX_NESTING - 1); /* 1 + 255 levels: the most allowed */
    ck_assert_msg(source_check_nesting(s, err, sizeof err), "%s", err);
    free(s);
    s = nested(GPUC_MAX_NESTING); /* 257 levels: refused at the 256th `(`, column 20 + 255 */
    ck_assert(!source_check_nesting(s, err, sizeof err));
    ck_assert_msg(!strncmp(err, "line 1, column 275: ", 20), "%s", err);
    free(s);
    /* if bodies count: `if (a) if (b) ...` nests without brackets. 1 (body) + 256 ifs > 256. */
    size_t n = 0;
    char *ifs = malloc(16 + 8 * (GPUC_MAX_NESTING + 1));
    ck_assert_ptr_nonnull(ifs);
    n += (size_t)sprintf(ifs, "void k() { ");
    for (int i = 0; i < GPUC_MAX_NESTING; i++)
        n += (size_t)sprintf(ifs + n, "if (x) ");
    sprintf(ifs + n, "y(); }");
    ck_assert(!source_check_nesting(ifs, err, sizeof err));
    free(ifs);
}
END_TEST

START_TEST(preprocessor_branches)
{
    const char *src = "#if 0\nfloat gone() { return 1.0; }\n#else\nfloat kept() { return 2.0; }\n#endif\n"
                      "/* float commented() {} */ float k() { return kept(); } // float tail() {}\n";
    char *mask = source_mask(src);
    ck_assert_ptr_nonnull(mask);
    ck_assert_uint_eq(strlen(mask), strlen(src)); /* same length: offsets are the source's */
    ck_assert_ptr_null(strstr(mask, "gone"));
    ck_assert_ptr_nonnull(strstr(mask, "float kept()"));
    ck_assert_ptr_null(strstr(mask, "commented"));
    ck_assert_ptr_null(strstr(mask, "tail"));
    ck_assert_ptr_null(strstr(mask, "#"));
    free(mask);
    char err[256] = "";
    ck_assert_msg(source_check_preprocessor(src, err, sizeof err), "%s", err);
    /* A function that exists only under a condition gpuc cannot evaluate is refused, naming lines. */
    ck_assert(!source_check_preprocessor("#ifdef FAST\nfloat k() { return 1.0; }\n#endif\n", err, sizeof err));
    ck_assert_msg(strstr(err, "line") != NULL, "%s", err);
}
END_TEST

START_TEST(continued_lines_keep_numbering)
{
    /* The continuation joins lines 1 and 2; the removed break follows the joined line, so `z` stays on line 3. */
    char *joined = source_join_lines("a \\\nb\nz");
    ck_assert_ptr_nonnull(joined);
    ck_assert_str_eq(joined, "a b\n\nz");
    int line, column;
    source_position(joined, strlen(joined) - 1, &line, &column);
    ck_assert_int_eq(line, 3);
    ck_assert_int_eq(column, 1);
    free(joined);
    char out[16];
    source_line("one\ntwo\nthree", 2, out, sizeof out);
    ck_assert_str_eq(out, "two");
}
END_TEST

START_TEST(identifier_rule)
{
    ck_assert(source_valid_identifier("width"));
    ck_assert(source_valid_identifier("_x9"));
    ck_assert(!source_valid_identifier("9x"));
    ck_assert(!source_valid_identifier("a-b"));
    ck_assert(!source_valid_identifier("a__b")); /* reserved by GLSL */
    ck_assert(!source_valid_identifier("gl_Position"));
    ck_assert(!source_valid_identifier("gpuc_size"));
    ck_assert(!source_valid_identifier(""));
    ck_assert(!source_valid_identifier(NULL));
    char longest[KERNEL_NAME_MAX + 1];
    memset(longest, 'a', sizeof longest);
    longest[KERNEL_NAME_MAX - 1] = '\0'; /* 63 characters: fits */
    ck_assert(source_valid_identifier(longest));
    longest[KERNEL_NAME_MAX - 1] = 'a';
    longest[KERNEL_NAME_MAX] = '\0'; /* 64: one too many */
    ck_assert(!source_valid_identifier(longest));
}
END_TEST

Suite *unit_source_suite(void)
{
    Suite *s = suite_create("source");
    TCase *tc = tcase_create("readers");
    tcase_add_test(tc, signature_of_last_function);
    tcase_add_test(tc, signature_void_and_empty);
    tcase_add_test(tc, signature_errors_name_line_and_column);
    tcase_add_test(tc, calls_and_definitions);
    tcase_add_test(tc, nesting_limit);
    tcase_add_test(tc, preprocessor_branches);
    tcase_add_test(tc, continued_lines_keep_numbering);
    tcase_add_test(tc, identifier_rule);
    suite_add_tcase(s, tc);
    return s;
}
