/* context.c - gpuc_open / gpuc_close, the per-context error message, and the checks every public
 * call makes before it touches GL. */
#include "internal.h"
#include "device/device_info.h"
#include "device/device_profile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *gpuc_status_name(gpuc_status status)
{
    switch (status) {
    case GPUC_OK: return "GPUC_OK";
    case GPUC_ERROR_INVALID_ARGUMENT: return "GPUC_ERROR_INVALID_ARGUMENT";
    case GPUC_ERROR_TYPE_MISMATCH: return "GPUC_ERROR_TYPE_MISMATCH";
    case GPUC_ERROR_COMPILE: return "GPUC_ERROR_COMPILE";
    case GPUC_ERROR_LIMIT: return "GPUC_ERROR_LIMIT";
    case GPUC_ERROR_OUT_OF_MEMORY: return "GPUC_ERROR_OUT_OF_MEMORY";
    case GPUC_ERROR_NO_DEVICE: return "GPUC_ERROR_NO_DEVICE";
    case GPUC_ERROR_GL: return "GPUC_ERROR_GL";
    case GPUC_ERROR_MISUSE: return "GPUC_ERROR_MISUSE";
    }
    return "GPUC_ERROR_UNKNOWN";
}

gpuc_status gpuc_fail(gpuc *gpu, gpuc_status status, const char *fmt, ...)
{
    if (gpu) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(gpu->errmsg, sizeof gpu->errmsg, fmt, ap);
        va_end(ap);
    }
    return status;
}

gpuc_status gpuc_refuse_inherited(gpuc *gpu)
{
    return gpuc_fail(gpu, GPUC_ERROR_MISUSE,
                     "this gpuc context was opened in process %ld and is used in process %ld, a fork()ed child: "
                     "a context cannot cross fork() (Mesa's worker threads stayed in the parent; any GL call would "
                     "wait for ever). Open the context in the process that uses it, after the fork: with Check, in "
                     "a checked fixture (tcase_add_checked_fixture) rather than in main, or run with CK_FORK=no. "
                     "gpuc_close here frees only host memory", gpu->device.opener_pid, (long)getpid());
}

gpuc_status gpuc_enter(gpuc *gpu)
{
    if (!gpu)
        return GPUC_ERROR_INVALID_ARGUMENT;
    if (!gpu->opened)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "this gpuc context failed to open and cannot be used");
    if (egl_device_inherited(&gpu->device))
        return gpuc_refuse_inherited(gpu);
    if (!egl_device_make_current(&gpu->device)) {
        if (egl_device_failed_as_held_elsewhere())
            return gpuc_fail(gpu, GPUC_ERROR_NO_DEVICE, "this gpuc context is in use on another thread: a context "
                             "serves one thread at a time (gpuc_detach on that thread hands it over)");
        return gpuc_fail(gpu, GPUC_ERROR_NO_DEVICE, "could not make the GL context current on this thread");
    }
    gpuc_children_collect(gpu); /* frees other threads queued for this context */
    return GPUC_OK;
}

bool gpuc_twin_stands_in(gpuc *gpu)
{
    return gpu->twin && !egl_device_inherited(&gpu->device) && egl_device_handed_over_here(&gpu->device) &&
           egl_device_is_current(&gpu->twin->device);
}

gpuc_status gpuc_enter_host(gpuc *gpu, bool *gl_ready)
{
    *gl_ready = false;
    /* Frees queued by other threads wait for the context itself: then it is entered as usual. */
    if (gpu && gpu->opened && gpuc_twin_stands_in(gpu) && !atomic_load(&gpu->queued))
        return GPUC_OK;
    *gl_ready = true;
    return gpuc_enter(gpu);
}

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "a GL error";
    }
}

gpuc_status gpuc_check_gl(gpuc *gpu, const char *what)
{
    GLenum e = glGetError();
    GLenum first = e;
    while (e != GL_NO_ERROR) /* drain, so the next check starts clean */
        e = glGetError();
    /* A debug context's copy of an error reported here (glGetError's name says it) is not reported again
     * by the next check, which would blame an innocent call. */
    if (first != GL_NO_ERROR)
        gpu->gl_debug_error[0] = '\0';
    if (first == GL_OUT_OF_MEMORY)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "%s: the device is out of memory (GL_OUT_OF_MEMORY)", what);
    if (first != GL_NO_ERROR)
        return gpuc_fail(gpu, GPUC_ERROR_GL, "%s: the driver reported %s", what, gl_error_name(first));
    if (gpu->gl_debug_error[0]) {
        gpuc_status st = gpuc_fail(gpu, GPUC_ERROR_GL, "%s: KHR_debug: %s", what, gpu->gl_debug_error);
        gpu->gl_debug_error[0] = '\0';
        return st;
    }
    return GPUC_OK;
}

static void on_gl_debug(void *user, unsigned type, const char *message)
{
    gpuc *gpu = user;
    /* Errors only: drivers also report shader compiler warnings and performance notes here. */
    if ((type == GL_DEBUG_TYPE_ERROR || type == GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR) && !gpu->gl_debug_error[0])
        snprintf(gpu->gl_debug_error, sizeof gpu->gl_debug_error, "%s", message);
}

/* The device's callback (egl_device.c, which also uses it to know the context is current) forwards
 * the messages here once output is on. */
static void enable_gl_debug(gpuc *gpu)
{
    if (!GLAD_GL_KHR_debug && !GLAD_GL_VERSION_4_3)
        return;
    egl_device_on_gl_messages(&gpu->device, on_gl_debug, gpu);
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS); /* the message arrives inside the call that caused it */
}

/* The backend asked for: the option, else GPUC_BACKEND, else compute. */
/* An on/off environment variable: on when set to anything but "" or "0". */
static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static gpuc_status choose_backend(gpuc *gpu, gpuc_backend asked, gpuc_backend *out)
{
    if (asked == GPUC_BACKEND_COMPUTE || asked == GPUC_BACKEND_FRAGMENT) {
        *out = asked;
        return GPUC_OK;
    }
    if (asked != GPUC_BACKEND_DEFAULT)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_options.backend %d is not a gpuc_backend", (int)asked);
    const char *env = getenv("GPUC_BACKEND");
    if (!env || !*env || !strcmp(env, "compute")) {
        *out = GPUC_BACKEND_COMPUTE;
        return GPUC_OK;
    }
    if (!strcmp(env, "fragment")) {
        *out = GPUC_BACKEND_FRAGMENT;
        return GPUC_OK;
    }
    return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "GPUC_BACKEND \"%s\" is not a backend: use compute or fragment",
                     env);
}

/* GPUC_SMALL_CALLS: "twin" (or unset, or "") lets a default-threads context run small calls in the
 * calling thread on a twin context (kernel/small_calls.c), and a software context small compactions on
 * the host (algo/compact_host.c); "pool" keeps every call on the device's own path (llvmpipe's workers). */
static gpuc_status small_calls_setting(gpuc *gpu, bool *twin)
{
    const char *env = getenv("GPUC_SMALL_CALLS");
    *twin = !env || !*env || !strcmp(env, "twin");
    if (*twin || !strcmp(env, "pool"))
        return GPUC_OK;
    return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "GPUC_SMALL_CALLS \"%s\" is not a setting: use twin or pool",
                     env);
}

gpuc_status gpuc_open(gpuc **out, const gpuc_options *opts)
{
    if (!out)
        return GPUC_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    gpuc *gpu = calloc(1, sizeof *gpu);
    if (!gpu)
        return GPUC_ERROR_OUT_OF_MEMORY;
    *out = gpu; /* even on failure: it carries the message (SQLite's sqlite3_open does the same) */

    const gpuc_options defaults = {0};
    if (!opts)
        opts = &defaults;
    const char *debug_env = getenv("GPUC_DEBUG");
    gpu->debug = opts->debug || (debug_env && *debug_env && strcmp(debug_env, "0") != 0);
#ifdef GPUC_DEBUG_BUILD
    gpu->debug = !(debug_env && !strcmp(debug_env, "0")); /* make DEBUG=1: on unless GPUC_DEBUG=0 */
#endif
    /* Timer queries and trace lines: kernel/profile.c. */
    gpu->trace = env_flag("GPUC_TRACE");
    gpu->profile_report = env_flag("GPUC_PROFILE");
    gpu->profile = opts->profile || gpu->trace || gpu->profile_report;
    gpu->threads = opts->threads;
    gpu->guard_all_loops = opts->guard_all_loops || env_flag("GPUC_GUARD_ALL_LOOPS");

    const char *choice_text = opts->device ? opts->device : getenv("GPUC_DEVICE");
    egl_choice choice;
    if (!egl_choice_parse(choice_text, &choice))
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "%s \"%s\" is not a device: use auto, gpu, cpu, llvmpipe or an EGL device index (0-15)",
                         opts->device ? "gpuc_options.device" : "GPUC_DEVICE", choice_text);

    gpuc_backend backend = GPUC_BACKEND_COMPUTE;
    gpuc_status st = choose_backend(gpu, opts->backend, &backend);
    gpuc_device_profile profile = GPUC_PROFILE_AUTO;
    if (st == GPUC_OK)
        st = device_profile_parse(gpu, opts->device_profile, &profile);
    bool twin = false;
    if (st == GPUC_OK)
        st = small_calls_setting(gpu, &twin);
    if (st != GPUC_OK)
        return st;
    if (opts->max_unused_programs < GPUC_NO_UNUSED_PROGRAMS)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_options.max_unused_programs is %d; give a count, 0 for the default (%d) or "
                         "GPUC_NO_UNUSED_PROGRAMS (-1) to keep none", opts->max_unused_programs,
                         GPUC_DEFAULT_UNUSED_PROGRAMS);
    gpu->max_unused_programs = opts->max_unused_programs == 0 ? GPUC_DEFAULT_UNUSED_PROGRAMS
                               : opts->max_unused_programs < 0 ? 0
                                                               : opts->max_unused_programs;
    if (opts->max_image_pixels < GPUC_NO_IMAGE_PIXEL_LIMIT)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_options.max_image_pixels is %lld; give a count, 0 for the default (%lld) or "
                         "GPUC_NO_IMAGE_PIXEL_LIMIT (-1) for the device's limits only",
                         (long long)opts->max_image_pixels, (long long)GPUC_DEFAULT_MAX_IMAGE_PIXELS);
    gpu->max_image_pixels = opts->max_image_pixels == 0 ? GPUC_DEFAULT_MAX_IMAGE_PIXELS
                            : opts->max_image_pixels < 0 ? 0
                                                         : (uint64_t)opts->max_image_pixels;

    if (opts->threads < GPUC_THREADS_CALLER || opts->threads > GPUC_MAX_THREADS)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_options.threads is %d; give 0 (llvmpipe's default), GPUC_THREADS_CALLER (-1) or "
                         "1 .. GPUC_MAX_THREADS (%d)", opts->threads, GPUC_MAX_THREADS);
    char err[GPUC_ERRMSG_MAX];
    if (!egl_device_open(choice, gpu->debug, opts->threads, &gpu->device, err, sizeof err))
        return gpuc_fail(gpu, GPUC_ERROR_NO_DEVICE, "%s", err);
    gpu->opened = true;
    if (gpu->debug)
        enable_gl_debug(gpu);
    device_info_query(&gpu->info, &gpu->device, backend);
    device_profile_choose(gpu, profile);
    /* Only a context of llvmpipe's default threads on an EGL device (a twin's display is that device's). */
    gpu->small_calls = twin && opts->threads == 0 && gpu->device.software && gpu->device.index >= 0 &&
                       !gpuc_driver_is_zink(gpu);
    gpu->host_small_calls = twin && gpu->info.device_profile == GPUC_PROFILE_SOFTWARE;
    st = gpuc_check_gl(gpu, "reading the device's limits");
    if (st != GPUC_OK) {
        gpu->opened = false;
        egl_device_close(&gpu->device);
        return st;
    }
    return GPUC_OK;
}

enum { TWIN_UNTRIED, TWIN_OPEN, TWIN_REFUSED }; /* gpuc.twin_state */

/* internal.h. gpuc_open makes the twin current, so the context is made current again here. */
gpuc *gpuc_twin(gpuc *gpu)
{
    if (gpu->twin_state != TWIN_UNTRIED)
        return gpu->twin;
    gpu->twin_state = TWIN_REFUSED;
    char device[16];
    snprintf(device, sizeof device, "%d", gpu->device.index);
    gpuc_options o = {0};
    o.device = device;
    o.threads = GPUC_THREADS_CALLER;
    o.backend = gpu->info.backend; /* the twin draws what the context would draw, dispatches what it dispatches */
    o.debug = gpu->debug;
    o.guard_all_loops = gpu->guard_all_loops;
    gpuc *twin = NULL;
    if (gpuc_open(&twin, &o) != GPUC_OK) { /* e.g. two other thread counts hold both displays */
        gpuc_close(twin);
        twin = NULL;
    }
    /* Closed first on failure: the pool then serves the call, with the context current. */
    if (!egl_device_make_current(&gpu->device)) {
        gpuc_close(twin);
        return NULL;
    }
    if (!twin)
        return NULL;
    twin->trace = twin->profile = twin->profile_report = false; /* the context reports its runs */
    twin->device_profile = gpu->device_profile; /* the programs were shaped for the context's */
    gpu->twin = twin;
    gpu->twin_state = TWIN_OPEN;
    return twin;
}

/* What the twin made of a count (now - was), less the copies of it (at most all of it). */
static uint64_t made_less(uint64_t now, uint64_t was, uint64_t copies)
{
    uint64_t made = now - was;
    return made - (copies < made ? copies : made);
}

void gpuc_stats_add_twin(gpuc *gpu, const gpuc_stats *was, const gpuc_stats *now, const gpuc_twin_copies *copies)
{
    gpuc_twin_copies none = {0, 0, 0, 0};
    if (!copies)
        copies = &none;
    gpu->stats.uploads += made_less(now->uploads, was->uploads, copies->uploads);
    gpu->stats.bytes_uploaded += made_less(now->bytes_uploaded, was->bytes_uploaded, copies->bytes);
    gpu->stats.dispatches += now->dispatches - was->dispatches;
    gpu->stats.readbacks += made_less(now->readbacks, was->readbacks, copies->readbacks);
    gpu->stats.bytes_read_back += made_less(now->bytes_read_back, was->bytes_read_back, copies->bytes_read_back);
    gpu->stats.loop_checks += now->loop_checks - was->loop_checks;
}

void gpuc_close(gpuc *gpu)
{
    if (!gpu)
        return;
    /* On a thread where the context cannot be made current (it is current on another thread, or that
     * thread exited holding it) no GL call may be made: host memory is freed, and the context's GL
     * objects go with the context when EGL can destroy it (gpuc.h, THREADS). */
    bool gl = gpu->opened && !egl_device_inherited(&gpu->device) && egl_device_make_current(&gpu->device);
    if (gl && gpu->profile_report)
        gpuc_print_profile(gpu, stderr);
    gpuc_children_close(gpu, gl);
    if (gpu->twin) { /* after the kernels, whose twins were its objects; then this context is current again */
        gpuc_close(gpu->twin);
        gpu->twin = NULL;
        if (gl)
            egl_device_make_current(&gpu->device);
    }
    gpuc_array_spares_free(gpu, gl); /* after the arrays, whose buffers may have joined them */
    egl_device_on_gl_messages(&gpu->device, NULL, NULL); /* gpu is freed below */
    if (gpu->opened)
        egl_device_close(&gpu->device);
    device_info_free(&gpu->info);
    free(gpu);
}

gpuc_status gpuc_detach(gpuc *gpu)
{
    if (!gpu)
        return GPUC_ERROR_INVALID_ARGUMENT;
    if (!gpu->opened)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "this gpuc context failed to open and cannot be used");
    if (egl_device_inherited(&gpu->device))
        return gpuc_refuse_inherited(gpu);
    /* A small call may have left the twin current in the context's place: the context first (which
     * ends the stand-in), so that what waits for it is freed here, then neither. */
    if (egl_device_handed_over_here(&gpu->device))
        egl_device_make_current(&gpu->device);
    if (egl_device_is_current(&gpu->device)) {
        gpuc_children_collect(gpu);
        egl_device_release(&gpu->device);
    }
    return GPUC_OK;
}

const char *gpuc_errmsg(const gpuc *gpu)
{
    if (!gpu)
        return "no gpuc context (NULL handle, or memory for it ran out)";
    return gpu->errmsg;
}

const gpuc_info *gpuc_get_info(const gpuc *gpu)
{
    return gpu && gpu->opened ? &gpu->info : NULL;
}

gpuc_status gpuc_get_stats(const gpuc *gpu, gpuc_stats *stats)
{
    if (!gpu || !stats || !gpu->opened)
        return GPUC_ERROR_INVALID_ARGUMENT;
    *stats = gpu->stats;
    stats->frees_deferred = atomic_load(&gpu->frees_deferred);
    stats->frees_pending = atomic_load(&gpu->frees_pending);
    return GPUC_OK;
}
