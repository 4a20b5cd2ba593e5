/* fixture.c - see fixture.h. */
#include "fixture.h"

#include <gpuc_check.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

gpuc *gpu;

void fixture_pin_driver(void)
{
    static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu/dri", "/usr/lib/aarch64-linux-gnu/dri",
                                       "/usr/lib64/dri", "/usr/lib/dri", NULL};
    for (int i = 0; dirs[i]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/swrast_dri.so", dirs[i]);
        if (dlopen(path, RTLD_NOW | RTLD_NODELETE | RTLD_GLOBAL))
            return; /* never closed: that is the point */
    }
}

/* Opens *g with GPUC_SMALL_CALLS=pool (read once, at gpuc_open), the variable as it was afterwards (a
 * suite run without fork shares one environment). */
static gpuc_status open_on_pool(gpuc **g)
{
    const char *was = getenv("GPUC_SMALL_CALLS");
    char *kept = was ? strdup(was) : NULL;
    setenv("GPUC_SMALL_CALLS", "pool", 1);
    gpuc_status st = gpuc_open(g, NULL);
    if (kept)
        setenv("GPUC_SMALL_CALLS", kept, 1);
    else
        unsetenv("GPUC_SMALL_CALLS");
    free(kept);
    return st;
}

gpuc *fixture_open_pool(void)
{
    gpuc *g = NULL;
    gpuc_status st = open_on_pool(&g);
    ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    return g;
}

bool fixture_host_small_calls(const gpuc *g)
{
    const char *calls = getenv("GPUC_SMALL_CALLS");
    return gpuc_get_info(g)->device_profile == GPUC_PROFILE_SOFTWARE && !(calls && !strcmp(calls, "pool"));
}

static void open_fixture_context(bool pool)
{
    fixture_pin_driver();
    gpuc_status st = pool ? open_on_pool(&gpu) : gpuc_open(&gpu, NULL);
    if (st != GPUC_OK) {
        fprintf(stderr, "gpuc_open: %s: %s\n", gpuc_status_name(st), gpuc_errmsg(gpu));
        gpuc_close(gpu);
        gpu = NULL;
        exit(EXIT_FAILURE); /* Check counts this test as an error */
    }
}

static void open_context(void)
{
    open_fixture_context(false);
}

static void open_pool_context(void)
{
    open_fixture_context(true);
}

static void close_context(void)
{
    gpuc_close(gpu);
    gpu = NULL;
}

TCase *fixture_tcase_bare(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 300);
    return tc;
}

TCase *fixture_tcase(const char *name)
{
    TCase *tc = fixture_tcase_bare(name);
    tcase_add_checked_fixture(tc, open_context, close_context);
    return tc;
}

TCase *fixture_tcase_pool(const char *name)
{
    TCase *tc = fixture_tcase_bare(name);
    tcase_add_checked_fixture(tc, open_pool_context, close_context);
    return tc;
}

float test_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

bool fixture_fragment_backend(void)
{
    const char *b = getenv("GPUC_BACKEND");
    return b && !strcmp(b, "fragment");
}

float *fixture_take_floats(gpuc_array *a, size_t n)
{
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(gpuc_array_cells(a), n);
    ck_assert_int_eq(gpuc_array_type(a), GPUC_FLOAT);
    float *out = malloc(n * sizeof *out);
    ck_assert_ptr_nonnull(out);
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, out, n));
    gpuc_array_free(a);
    return out;
}

int32_t *fixture_take_ints(gpuc_array *a, size_t n)
{
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(gpuc_array_cells(a), n);
    ck_assert_int_eq(gpuc_array_type(a), GPUC_INT);
    int32_t *out = malloc(n * sizeof *out);
    ck_assert_ptr_nonnull(out);
    ck_assert_gpuc_ok(gpuc_array_read_i32(a, out, n));
    gpuc_array_free(a);
    return out;
}

char *fixture_run_command(const char *command, int *status)
{
    FILE *p = popen(command, "r");
    ck_assert_msg(p != NULL, "cannot run %s", command);
    size_t cap = 4096, len = 0, got;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    while ((got = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += got;
        if (cap - len < 2) {
            out = realloc(out, cap *= 2);
            ck_assert_ptr_nonnull(out);
        }
    }
    out[len] = '\0';
    int raw = pclose(p);
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return out;
}

char *fixture_read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    ck_assert_int_ge(size, 0);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

size_t fixture_count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *at = text; (at = strstr(at, needle)); at += strlen(needle))
        n++;
    return n;
}

double fixture_ulps(float x, float y)
{
    return gpuc_check_ulps(x, y); /* the installed helper's count (include/gpuc_check.h) */
}
