/* test_threads.c - contexts on several threads: a free on a thread that cannot use the array's context
 * is queued (never run on the context that thread holds), gpuc_detach hands a context over, and a
 * context whose thread exited still closes. Workers record what they saw; the main thread asserts. */
#include "fixture.h"
#include "suites.h"

#include <EGL/egl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

#define N 64

static const char *const TWICE = "float twice(float a[]) { return 2.0 * a[thread.x]; }";

/* What a worker did, for the main thread to check. */
typedef struct worker {
    gpuc *other;       /* a context the worker was given (opened on the main thread) */
    gpuc_array *array; /* an array of `other` to free, or one the worker made */
    gpuc_kernel *kernel;
    gpuc_status status;
    char message[256];
    float values[N];
    gpuc_stats other_stats;
    gpuc *own; /* a context the worker opened */
} worker;

static void fill(float *v, float base)
{
    for (int i = 0; i < N; i++)
        v[i] = base + (float)i;
}

static void run_thread(void *(*body)(void *), worker *w)
{
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, body, w), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
}

/* Opens its own context, makes an array there, then frees the main thread's array and kernel (whose
 * context the main thread holds) and reads its own array back. */
static void *free_foreign_objects(void *arg)
{
    worker *w = arg;
    float mine[N];
    fill(mine, 1000.0f);
    gpuc *own;
    gpuc_array *a = NULL;
    w->status = gpuc_open(&own, NULL);
    if (w->status == GPUC_OK)
        w->status = gpuc_array_from_f32(own, mine, (gpuc_dims){N}, &a);
    if (w->status == GPUC_OK) {
        gpuc_array_free(w->array);
        gpuc_kernel_free(w->kernel);
        gpuc_get_stats(w->other, &w->other_stats);
        w->status = gpuc_array_read_f32(a, w->values, N);
    }
    snprintf(w->message, sizeof w->message, "%s", gpuc_errmsg(own));
    gpuc_close(own);
    return NULL;
}

START_TEST(free_where_another_thread_holds_the_context_is_queued)
{
    float data[N], kept[N];
    fill(data, 0.0f);
    gpuc_array *doomed, *keep;
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){N}, &doomed));
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){N}, &keep));
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    worker w = {.other = gpu, .array = doomed, .kernel = k};
    run_thread(free_foreign_objects, &w);
    ck_assert_msg(w.status == GPUC_OK, "worker: %s: %s", gpuc_status_name(w.status), w.message);
    /* The worker's array has the same GL buffer name in its context as `doomed` in ours: deleting by
     * name there would have destroyed it. */
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(w.values[i], 1000.0f + (float)i);
    ck_assert_uint_eq(w.other_stats.frees_deferred, 2);
    ck_assert_uint_eq(w.other_stats.frees_pending, 2);
    /* Our next call (on the thread that holds the context) destroys them. */
    ck_assert_gpuc_ok(gpuc_array_read_f32(keep, kept, N));
    ck_assert_float_eq(kept[N - 1], (float)(N - 1));
    gpuc_stats s;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &s));
    ck_assert_uint_eq(s.frees_deferred, 2);
    ck_assert_uint_eq(s.frees_pending, 0);
    gpuc_array_free(keep);
}
END_TEST

/* Frees an array of a context that no thread holds, and tries a call on it. */
static void *free_on_a_bare_thread(void *arg)
{
    worker *w = arg;
    gpuc_array_free(w->array);
    gpuc_get_stats(w->other, &w->other_stats);
    return NULL;
}

START_TEST(free_where_no_thread_holds_the_context_is_immediate_and_hands_it_back)
{
    float data[N], out[N];
    fill(data, 5.0f);
    gpuc_array *doomed, *keep;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){N}, &doomed));
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){N}, &keep));
    ck_assert_gpuc_ok(gpuc_detach(gpu));
    worker w = {.other = gpu, .array = doomed};
    run_thread(free_on_a_bare_thread, &w);
    ck_assert_uint_eq(w.other_stats.frees_deferred, 0);
    ck_assert_uint_eq(w.other_stats.frees_pending, 0);
    /* The worker borrowed the context and let go of it: it did not exit holding it. */
    ck_assert_gpuc_ok(gpuc_array_read_f32(keep, out, N));
    ck_assert_float_eq(out[3], 8.0f);
    gpuc_array_free(keep);
}
END_TEST

static void *call_on_a_held_context(void *arg)
{
    worker *w = arg;
    gpuc_array *a = NULL;
    w->status = gpuc_array_new(w->other, GPUC_FLOAT, (gpuc_dims){N}, &a);
    snprintf(w->message, sizeof w->message, "%s", gpuc_errmsg(w->other));
    w->array = a;
    gpuc_detach(w->other); /* else this thread would exit holding the context (gpuc.h, THREADS) */
    return NULL;
}

START_TEST(call_where_another_thread_holds_the_context_says_so)
{
    gpuc_array *mine;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &mine));
    worker w = {.other = gpu};
    run_thread(call_on_a_held_context, &w);
    ck_assert_int_eq(w.status, GPUC_ERROR_NO_DEVICE);
    ck_assert_ptr_null(w.array);
    ck_assert_msg(strstr(w.message, "in use on another thread") && strstr(w.message, "gpuc_detach"), "message: %s",
                  w.message);
    /* After gpuc_detach here, the same call there works. */
    ck_assert_gpuc_ok(gpuc_detach(gpu));
    worker w2 = {.other = gpu};
    run_thread(call_on_a_held_context, &w2);
    ck_assert_msg(w2.status == GPUC_OK, "%s", w2.message);
    gpuc_array_free(w2.array);
    gpuc_array_free(mine);
}
END_TEST

/* A stranded context's driver memory is lost for good (gpuc.h, THREADS), which LeakSanitizer would
 * report: the worker that strands one makes its allocations unseen by it. gpuc's own freeing on a
 * thread that cannot use the context is checked by closing_where_a_live_thread_holds_the_context. */
#if defined(__SANITIZE_ADDRESS__)
void __lsan_disable(void);
void __lsan_enable(void);
#define LSAN_DISABLE() __lsan_disable()
#define LSAN_ENABLE() __lsan_enable()
#else
#define LSAN_DISABLE() ((void)0)
#define LSAN_ENABLE() ((void)0)
#endif

/* Opens a context, makes an array and runs a kernel in it, and optionally lets go before exiting. */
static void *make_and_leave(void *arg)
{
    worker *w = arg;
    bool strands = !w->other;
    if (strands)
        LSAN_DISABLE();
    float data[N];
    fill(data, 1.0f);
    w->status = gpuc_open(&w->own, NULL);
    if (w->status == GPUC_OK)
        w->status = gpuc_array_from_f32(w->own, data, (gpuc_dims){N}, &w->array);
    if (w->status == GPUC_OK)
        w->status = gpuc_create_kernel(w->own, TWICE, &(gpuc_kernel_desc){.output = {N}}, &w->kernel);
    snprintf(w->message, sizeof w->message, "%s", gpuc_errmsg(w->own));
    if (strands)
        LSAN_ENABLE();
    else
        gpuc_detach(w->own);
    return NULL;
}

START_TEST(detach_hands_a_context_to_another_thread)
{
    worker w = {.other = gpu};
    run_thread(make_and_leave, &w);
    ck_assert_msg(w.status == GPUC_OK, "worker: %s", w.message);
    gpuc_array *r;
    ck_assert_int_eq(gpuc_run(w.kernel, (gpuc_arg[]){gpuc_arg_array(w.array)}, 1, &r), GPUC_OK);
    float out[N];
    ck_assert_int_eq(gpuc_array_read_f32(r, out, N), GPUC_OK);
    ck_assert_float_eq(out[N - 1], 2.0f * (float)N);
    gpuc_array_free(r);
    gpuc_kernel_free(w.kernel);
    gpuc_stats s;
    ck_assert_int_eq(gpuc_get_stats(w.own, &s), GPUC_OK);
    ck_assert_uint_eq(s.frees_deferred, 0);
    gpuc_close(w.own);
}
END_TEST

START_TEST(context_whose_thread_exited_still_closes)
{
    worker w = {0};
    run_thread(make_and_leave, &w);
    ck_assert_msg(w.status == GPUC_OK, "worker: %s", w.message);
    /* EGL keeps the context current to the dead thread: calls fail clearly, frees are queued. */
    gpuc_array *a = NULL;
    ck_assert_int_eq(gpuc_array_new(w.own, GPUC_FLOAT, (gpuc_dims){N}, &a), GPUC_ERROR_NO_DEVICE);
    ck_assert_ptr_null(a);
    gpuc_array_free(w.array);
    gpuc_stats s;
    ck_assert_int_eq(gpuc_get_stats(w.own, &s), GPUC_OK);
    ck_assert_uint_eq(s.frees_pending, 1);
    /* Closing frees gpuc's host memory (the kernel, the queued array): LeakSanitizer would see it. */
    gpuc_close(w.own);
    /* Our own context is untouched. */
    float data[N], out[N];
    fill(data, 2.0f);
    gpuc_array *mine;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){N}, &mine));
    ck_assert_gpuc_ok(gpuc_array_read_f32(mine, out, N));
    ck_assert_float_eq(out[1], 3.0f);
    gpuc_array_free(mine);
}
END_TEST

/* Holds a context it made (an array and a kernel in it) until told to go, then lets EGL release it. */
typedef struct holder {
    worker w;
    sem_t made, closed;
} holder;

static void *make_and_hold(void *arg)
{
    holder *h = arg;
    h->w.other = NULL;
    float data[N];
    fill(data, 1.0f);
    h->w.status = gpuc_open(&h->w.own, NULL);
    if (h->w.status == GPUC_OK)
        h->w.status = gpuc_array_from_f32(h->w.own, data, (gpuc_dims){N}, &h->w.array);
    if (h->w.status == GPUC_OK)
        h->w.status = gpuc_create_kernel(h->w.own, TWICE, &(gpuc_kernel_desc){.output = {N}}, &h->w.kernel);
    snprintf(h->w.message, sizeof h->w.message, "%s", gpuc_errmsg(h->w.own));
    sem_post(&h->made);
    sem_wait(&h->closed);
    eglReleaseThread(); /* EGL destroys the closed context once no thread holds it */
    return NULL;
}

START_TEST(closing_where_a_live_thread_holds_the_context)
{
    holder h;
    ck_assert_int_eq(sem_init(&h.made, 0, 0), 0);
    ck_assert_int_eq(sem_init(&h.closed, 0, 0), 0);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, make_and_hold, &h), 0);
    sem_wait(&h.made);
    ck_assert_msg(h.w.status == GPUC_OK, "worker: %s", h.w.message);
    /* No GL call can be made here: gpuc frees its host memory (LeakSanitizer checks it) and EGL
     * destroys the context when the holder lets go. */
    gpuc_array_free(h.w.array);
    gpuc_close(h.w.own);
    sem_post(&h.closed);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    sem_destroy(&h.made);
    sem_destroy(&h.closed);
    /* Our own context is untouched. */
    float data[N], out[N];
    fill(data, 4.0f);
    gpuc_array *mine;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){N}, &mine));
    ck_assert_gpuc_ok(gpuc_array_read_f32(mine, out, N));
    ck_assert_float_eq(out[2], 6.0f);
    gpuc_array_free(mine);
}
END_TEST

/* This binary's EGL questions and context switches, counted: the definitions below come before
 * libEGL's in the link, so gpuc's calls reach them, and they forward to libEGL's. */
static unsigned egl_current_asked, egl_made_current;

EGLContext eglGetCurrentContext(void)
{
    static EGLContext (*real)(void);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "eglGetCurrentContext");
    egl_current_asked++;
    return real();
}

EGLBoolean eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx)
{
    static EGLBoolean (*real)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "eglMakeCurrent");
    egl_made_current++;
    return real(dpy, draw, read, ctx);
}

/* A call of TWICE on `in` into a new array, read back and checked, then freed. */
static void run_twice(gpuc *g, gpuc_kernel *k, gpuc_array *in, float base)
{
    gpuc_array *r;
    float out[N];
    ck_assert_msg(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(in)}, 1, &r) == GPUC_OK, "%s", gpuc_errmsg(g));
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, N));
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(out[i], 2.0f * (base + (float)i));
    gpuc_array_free(r);
}

/* gpuc knows that its context is current on this thread without asking EGL (the mark of
 * egl_device.c): a call that reads an array back and frees it makes no EGL call at all. Its input is
 * a .pipeline result, which the host holds no copy of, so the calls stay on the context's own path
 * (an array made from host data would send them to the twin: gpuc.h, HOST COPIES). */
START_TEST(a_call_on_the_current_context_asks_egl_nothing)
{
    float data[N];
    fill(data, 3.0f);
    gpuc_array *in;
    gpuc_kernel *k, *copy;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float copy(float a[]) { return a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {N}, .pipeline = true}, &copy));
    ck_assert_gpuc_ok(gpuc_run(copy, (gpuc_arg[]){gpuc_arg_host_f32(data, (gpuc_dims){N})}, 1, &in));
    gpuc_kernel_free(copy);
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    run_twice(gpu, k, in, 3.0f);
    unsigned asked = egl_current_asked, made = egl_made_current;
    for (int i = 0; i < 10; i++)
        run_twice(gpu, k, in, 3.0f);
    ck_assert_uint_eq(egl_current_asked - asked, 0);
    ck_assert_uint_eq(egl_made_current - made, 0);
    gpuc_kernel_free(k);
    gpuc_array_free(in);
}
END_TEST

/* Whether this suite's context sends small host-data calls to its calling-thread twin (either backend,
 * not zink: kernel/small_calls.c); elsewhere the tests below check the context's own path. */
static bool twin_expected(void)
{
    return strncmp(gpuc_get_info(gpu)->renderer, "zink", 4) != 0;
}

/* A small call of TWICE on host data into a new array, read back and checked, then freed. */
static gpuc_status run_twice_host(gpuc *g, gpuc_kernel *k, const float *in, float base, char *why, size_t len)
{
    gpuc_array *r = NULL;
    float out[N];
    gpuc_status st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){N})}, 1, &r);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(r, out, N);
    for (int i = 0; st == GPUC_OK && i < N; i++)
        if (out[i] != 2.0f * (base + (float)i)) {
            snprintf(why, len, "cell %d: %g, want %g", i, (double)out[i], 2.0 * (base + (float)i));
            st = GPUC_ERROR_GL;
        }
    if (st != GPUC_OK && !why[0])
        snprintf(why, len, "%s", gpuc_errmsg(g));
    gpuc_array_free(r);
    return st;
}

/* TWICE made on gpu and called small past the twin's warm-up (3 calls, then the twin's first). */
static gpuc_kernel *warmed_twice(const float *data, float base)
{
    char why[200] = "";
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    for (int i = 0; i < 5; i++)
        ck_assert_msg(run_twice_host(gpu, k, data, base, why, sizeof why) == GPUC_OK, "%s", why);
    return k;
}

/* A default context's small calls run on its calling-thread twin, which stays current in the
 * context's place between them: a call that reads its result and frees it makes no EGL call (the
 * build before switched to the twin and back in every call: 2 eglMakeCurrent). */
START_TEST(small_calls_on_the_twin_ask_egl_nothing)
{
    float data[N];
    char why[200] = "";
    fill(data, 3.0f);
    gpuc_kernel *k = warmed_twice(data, 3.0f);
    unsigned asked = egl_current_asked, made = egl_made_current;
    for (int i = 0; i < 10; i++)
        ck_assert_msg(run_twice_host(gpu, k, data, 3.0f, why, sizeof why) == GPUC_OK, "%s", why);
    ck_assert_uint_eq(egl_current_asked - asked, 0);
    ck_assert_uint_eq(egl_made_current - made, 0);
    ck_assert_msg((strstr(gpuc_kernel_describe(k), "small calls in the calling thread") != NULL) == twin_expected(),
                  "%s", gpuc_kernel_describe(k));
    gpuc_kernel_free(k);
}
END_TEST

/* What a worker makes of a context whose twin the main thread left current in its place. */
static void *use_a_context_held_through_its_twin(void *arg)
{
    worker *w = arg;
    gpuc_array *a = NULL;
    w->status = gpuc_array_new(w->other, GPUC_FLOAT, (gpuc_dims){N}, &a);
    snprintf(w->message, sizeof w->message, "%s", gpuc_errmsg(w->other));
    gpuc_array_free(a);
    gpuc_array_free(w->array); /* the main thread's: queued */
    gpuc_get_stats(w->other, &w->other_stats);
    return NULL;
}

/* Small calls on a worker of a context the main thread handed over, then let go of. */
static void *small_calls_then_detach(void *arg)
{
    worker *w = arg;
    float data[N];
    fill(data, 7.0f);
    w->status = GPUC_OK;
    for (int i = 0; i < 8 && w->status == GPUC_OK; i++)
        w->status = run_twice_host(w->other, w->kernel, data, 7.0f, w->message, sizeof w->message);
    gpuc_detach(w->other);
    return NULL;
}

/* While the twin stands in for the context on the main thread, the context is the main thread's: a
 * worker's call is refused as on a context current there, and its free is queued (EGL alone would have
 * let the worker take the context, current nowhere); after gpuc_detach the worker may use it. */
START_TEST(a_context_whose_twin_stands_in_is_held_by_its_thread)
{
    float data[N];
    char why[200] = "";
    fill(data, 1.0f);
    gpuc_array *doomed;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){N}, &doomed));
    gpuc_kernel *k = warmed_twice(data, 1.0f);
    worker w = {.other = gpu, .array = doomed};
    run_thread(use_a_context_held_through_its_twin, &w);
    ck_assert_int_eq(w.status, GPUC_ERROR_NO_DEVICE);
    ck_assert_msg(strstr(w.message, "in use on another thread"), "message: %s", w.message);
    ck_assert_uint_eq(w.other_stats.frees_pending, 1);
    /* The next call here frees what waited (and still answers). */
    ck_assert_msg(run_twice_host(gpu, k, data, 1.0f, why, sizeof why) == GPUC_OK, "%s", why);
    gpuc_stats s;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &s));
    ck_assert_uint_eq(s.frees_pending, 0);
    /* Handed over by gpuc_detach, the worker's small calls run (on the twin, from that thread). */
    ck_assert_gpuc_ok(gpuc_detach(gpu));
    worker w2 = {.other = gpu, .kernel = k};
    run_thread(small_calls_then_detach, &w2);
    ck_assert_msg(w2.status == GPUC_OK, "worker: %s", w2.message);
    ck_assert_msg(run_twice_host(gpu, k, data, 1.0f, why, sizeof why) == GPUC_OK, "%s", why);
    ck_assert_msg((strstr(gpuc_kernel_describe(k), "small calls in the calling thread") != NULL) == twin_expected(),
                  "%s", gpuc_kernel_describe(k));
    gpuc_kernel_free(k);
}
END_TEST

/* The mark never says "current" for another context: two gpuc contexts used in turn on one thread,
 * and the program letting go of every context between calls, each call runs in its own context
 * (GL names are per context: a call in the wrong one would fail or read the other's buffer). */
START_TEST(calls_follow_the_current_context)
{
    gpuc *other;
    ck_assert_gpuc_ok(gpuc_open(&other, NULL));
    float data[2][N];
    fill(data[0], 1.0f);
    fill(data[1], 500.0f);
    gpuc *ctx[2] = {gpu, other};
    gpuc_array *in[2];
    gpuc_kernel *k[2];
    for (int c = 0; c < 2; c++) {
        ck_assert_gpuc_ok(gpuc_array_from_f32(ctx[c], data[c], (gpuc_dims){N}, &in[c]));
        ck_assert_gpuc_ok(gpuc_create_kernel(ctx[c], TWICE, &(gpuc_kernel_desc){.output = {N}}, &k[c]));
    }
    unsigned made = egl_made_current;
    for (int round = 0; round < 6; round++) {
        int c = round % 2;
        if (round == 4) /* the program lets go of the current context itself */
            ck_assert(eglMakeCurrent(eglGetCurrentDisplay(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
        run_twice(ctx[c], k[c], in[c], c ? 500.0f : 1.0f);
    }
    /* Every round found the other context current (or none) and switched: 6 switches, and round 4's. */
    ck_assert_uint_eq(egl_made_current - made, 7);
    for (int c = 0; c < 2; c++) {
        gpuc_kernel_free(k[c]);
        gpuc_array_free(in[c]);
    }
    gpuc_close(other);
}
END_TEST

/* Holds a context it made until that context is closed, then computes in the context it is handed. */
typedef struct outliver {
    gpuc *first, *second;
    gpuc_kernel *kernel; /* the second's */
    gpuc_status status;
    char message[256];
    float values[N];
    sem_t made, handed;
} outliver;

static void *hold_then_use_another(void *arg)
{
    outliver *o = arg;
    o->status = gpuc_open(&o->first, NULL);
    sem_post(&o->made);
    sem_wait(&o->handed); /* first is closed now (this thread still holds its GL context), second given */
    if (o->status != GPUC_OK)
        return NULL;
    float data[N];
    fill(data, 7.0f);
    gpuc_array *in = NULL, *r = NULL;
    o->status = gpuc_array_from_f32(o->second, data, (gpuc_dims){N}, &in);
    if (o->status == GPUC_OK)
        o->status = gpuc_run(o->kernel, (gpuc_arg[]){gpuc_arg_array(in)}, 1, &r);
    if (o->status == GPUC_OK)
        o->status = gpuc_array_read_f32(r, o->values, N);
    snprintf(o->message, sizeof o->message, "%s", gpuc_errmsg(o->second));
    gpuc_array_free(r);
    gpuc_array_free(in);
    gpuc_detach(o->second);
    eglReleaseThread();
    return NULL;
}

/* A context closed while another thread holds it lives on there until that thread lets go, and keeps
 * its mark (egl_device.c): on that thread, where the closed one is still current, a context opened
 * after it is never taken for it (marks that were not unique would send the worker's GL calls to the
 * closed context: they fail so). Whether the new context's memory is the closed one's block, which an
 * address for a mark would have made an alias, is malloc's choice: not forced here. */
START_TEST(a_context_closed_on_another_thread_is_not_taken_for_a_new_one)
{
    outliver o = {0};
    ck_assert_int_eq(sem_init(&o.made, 0, 0), 0);
    ck_assert_int_eq(sem_init(&o.handed, 0, 0), 0);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, hold_then_use_another, &o), 0);
    sem_wait(&o.made);
    ck_assert_msg(o.status == GPUC_OK, "worker: %s", gpuc_errmsg(o.first));
    gpuc_close(o.first);
    ck_assert_gpuc_ok(gpuc_open(&o.second, NULL));
    ck_assert_gpuc_ok(gpuc_create_kernel(o.second, TWICE, &(gpuc_kernel_desc){.output = {N}}, &o.kernel));
    ck_assert_gpuc_ok(gpuc_detach(o.second));
    sem_post(&o.handed);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_msg(o.status == GPUC_OK, "worker: %s: %s", gpuc_status_name(o.status), o.message);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(o.values[i], 2.0f * (7.0f + (float)i));
    gpuc_kernel_free(o.kernel);
    gpuc_close(o.second);
    sem_destroy(&o.made);
    sem_destroy(&o.handed);
}
END_TEST

START_TEST(detach_bad_input)
{
    ck_assert_int_eq(gpuc_detach(NULL), GPUC_ERROR_INVALID_ARGUMENT);
    /* Detaching a context this thread does not hold does nothing. */
    ck_assert_gpuc_ok(gpuc_detach(gpu));
    ck_assert_gpuc_ok(gpuc_detach(gpu));
}
END_TEST

Suite *suite_threads(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = fixture_tcase("threads");
    tcase_add_test(tc, free_where_another_thread_holds_the_context_is_queued);
    tcase_add_test(tc, free_where_no_thread_holds_the_context_is_immediate_and_hands_it_back);
    tcase_add_test(tc, call_where_another_thread_holds_the_context_says_so);
    tcase_add_test(tc, detach_hands_a_context_to_another_thread);
    tcase_add_test(tc, context_whose_thread_exited_still_closes);
    tcase_add_test(tc, closing_where_a_live_thread_holds_the_context);
    tcase_add_test(tc, detach_bad_input);
    tcase_add_test(tc, a_call_on_the_current_context_asks_egl_nothing);
    tcase_add_test(tc, calls_follow_the_current_context);
    tcase_add_test(tc, a_context_closed_on_another_thread_is_not_taken_for_a_new_one);
    tcase_add_test(tc, small_calls_on_the_twin_ask_egl_nothing);
    tcase_add_test(tc, a_context_whose_twin_stands_in_is_held_by_its_thread);
    suite_add_tcase(s, tc);
    return s;
}
