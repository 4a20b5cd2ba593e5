/* egl_device.c - a headless OpenGL 4.3 core context through EGL, with no X and no environment.
 *
 * Order of preference for "auto": hardware EGL devices (EGL_EXT_device_enumeration), then Mesa's
 * software device (llvmpipe), then Mesa's surfaceless platform. eglGetDisplay(EGL_DEFAULT_DISPLAY)
 * is never used: Mesa would try X11 and fail on a server. */
#include "device/egl_device.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_EGL_DEVICES 16

/* EGL displays are process-wide: two gpuc contexts on one device share one EGLDisplay, and
 * eglTerminate would pull it from under the other. Count users per display. */
static pthread_mutex_t display_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    EGLDisplay display;
    int users;
    int threads; /* the thread count its contexts asked for (gpuc_options.threads; 0: llvmpipe's default) */
} display_users[2 * (MAX_EGL_DEVICES + 1)]; /* each software display has a twin for thread counts */

#define DISPLAY_SLOTS ((int)(sizeof display_users / sizeof display_users[0]))

/* display_lock held: dpy's slot while it has users, else -1. */
static int display_slot_locked(EGLDisplay dpy)
{
    for (int i = 0; i < DISPLAY_SLOTS; i++)
        if (display_users[i].users > 0 && display_users[i].display == dpy)
            return i;
    return -1;
}

/* display_lock held: one more user of dpy (a new slot for its first). */
static void display_retain_locked(EGLDisplay dpy, int threads)
{
    int slot = display_slot_locked(dpy);
    for (int i = 0; slot < 0 && i < DISPLAY_SLOTS; i++)
        if (!display_users[i].display)
            slot = i, display_users[i].display = dpy, display_users[i].users = 0, display_users[i].threads = threads;
    if (slot >= 0)
        display_users[slot].users++;
}

/* One user fewer of dpy; the last terminates it. Under display_lock, as a first eglInitialize is (in
 * open_on_display), so a context opening on dpy on another thread never finds it terminated between its
 * eglInitialize and its count. */
static void display_leave(EGLDisplay dpy)
{
    pthread_mutex_lock(&display_lock);
    int slot = display_slot_locked(dpy);
    if (slot >= 0 && --display_users[slot].users == 0) {
        display_users[slot].display = NULL;
        eglTerminate(dpy);
    }
    pthread_mutex_unlock(&display_lock);
}

/* fork(): the child gets a copy of Mesa's display state but not its worker threads (llvmpipe's
 * rasteriser and JIT queues), so a GL call there on an inherited context, or on a new one made on the
 * inherited display, waits for ever. The child handler counts process images, so that an inherited
 * context is told from its own with one load, and records whether a display was in use at the fork.
 * The handlers hold display_lock across the fork, so the child never inherits it locked. */
static atomic_uint process_image = 1;
static atomic_bool forked_with_display;
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void before_fork(void)
{
    pthread_mutex_lock(&display_lock);
}

static void after_fork_in_parent(void)
{
    pthread_mutex_unlock(&display_lock);
}

static void after_fork_in_child(void)
{
    atomic_fetch_add_explicit(&process_image, 1, memory_order_relaxed);
    for (int i = 0; i < DISPLAY_SLOTS; i++)
        if (display_users[i].users > 0)
            atomic_store(&forked_with_display, true);
    pthread_mutex_unlock(&display_lock);
}

static void register_fork_handlers(void)
{
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

bool egl_device_inherited(const egl_device *dev)
{
    return dev->process != atomic_load_explicit(&process_image, memory_order_relaxed);
}

bool egl_device_forked_with_display(void)
{
    return atomic_load(&forked_with_display);
}

/* Whether gpuc uses `dpy` (or, for EGL_NO_DISPLAY, any display) now. */
static bool display_in_use(EGLDisplay dpy)
{
    bool used = false;
    pthread_mutex_lock(&display_lock);
    for (int i = 0; i < DISPLAY_SLOTS; i++)
        used = used || (display_users[i].users > 0 && (dpy == EGL_NO_DISPLAY || display_users[i].display == dpy));
    pthread_mutex_unlock(&display_lock);
    return used;
}

bool egl_choice_parse(const char *text, egl_choice *out)
{
    if (!text || !*text || !strcmp(text, "auto")) {
        *out = (egl_choice){EGL_CHOICE_AUTO, -1};
        return true;
    }
    if (!strcmp(text, "gpu")) {
        *out = (egl_choice){EGL_CHOICE_GPU, -1};
        return true;
    }
    if (!strcmp(text, "cpu") || !strcmp(text, "llvmpipe")) {
        *out = (egl_choice){EGL_CHOICE_CPU, -1};
        return true;
    }
    char *end;
    long index = strtol(text, &end, 10);
    if (*end || end == text || index < 0 || index >= MAX_EGL_DEVICES)
        return false;
    *out = (egl_choice){EGL_CHOICE_INDEX, (int)index};
    return true;
}

static const char *egl_error_name(EGLint code)
{
    switch (code) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    default: return "an EGL error";
    }
}

/* Appends one line of the failure log kept while trying candidates. */
static void note(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(char *err, size_t errlen, const char *fmt, ...)
{
    size_t used = strlen(err);
    if (used + 1 >= errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + used, errlen - used, fmt, ap);
    va_end(ap);
}

/* llvmpipe reads LP_NUM_THREADS once, when it makes a display's screen (the display's first
 * eglInitialize in the process), and every context on that display shares the screen's threads. A
 * context asking for a thread count of its own therefore gets a display of its own: Mesa tells
 * displays apart by platform, native display and attribute list, and an empty list is not the
 * default's NULL one. The variable is set only around that display's first eglInitialize. */
static const EGLAttrib own_threads_display[] = {EGL_NONE};

static EGLBoolean initialize_with_threads(EGLDisplay dpy, int threads)
{
    const char *old = getenv("LP_NUM_THREADS");
    char *saved = old ? strdup(old) : NULL;
    char value[16];
    snprintf(value, sizeof value, "%d", threads < 0 ? 0 : threads);
    setenv("LP_NUM_THREADS", value, 1);
    EGLBoolean ok = eglInitialize(dpy, NULL, NULL);
    if (saved)
        setenv("LP_NUM_THREADS", saved, 1);
    else
        unsetenv("LP_NUM_THREADS");
    free(saved);
    return ok;
}

/* A context's mark (struct egl_device's note): the user parameter of its debug callback. A word of its
 * own rather than the egl_device's address, which a later context's device may take: a context closed
 * while another thread holds it lives on there (EGL destroys it when that thread lets go) and goes on
 * answering with its mark, so such a mark is kept for ever (`kept_marks`, under display_lock), never
 * given to another context. */
typedef struct context_mark {
    const egl_device *dev; /* whose messages it forwards; NULL once that device closed */
    struct context_mark *next;
} context_mark;
static context_mark *kept_marks;

static void GLAD_API_PTR forward_gl_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                            const GLchar *message, const void *user)
{
    (void)source, (void)id, (void)severity, (void)length;
    const context_mark *mark = user;
    if (mark->dev && mark->dev->on_gl_message)
        mark->dev->on_gl_message(mark->dev->gl_message_user, type, message);
}

/* Gives dev's new (current) context its mark. Kept only when the context reads it back without a GL
 * error: a driver without KHR_debug (core in 4.3), or no memory for it, leaves EGL to be asked. */
static void mark_context(egl_device *dev)
{
    context_mark *mark = calloc(1, sizeof *mark);
    if (!mark || !glDebugMessageCallback || !glGetPointerv) {
        free(mark);
        return;
    }
    mark->dev = dev;
    while (glGetError() != GL_NO_ERROR)
        ;
    glDebugMessageCallback(forward_gl_message, mark);
    void *read = NULL;
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &read);
    bool clean = true;
    while (glGetError() != GL_NO_ERROR)
        clean = false;
    if (clean && read == mark) {
        dev->mark = mark;
        return;
    }
    glDebugMessageCallback(NULL, NULL);
    free(mark);
}

/* At close: the mark is freed once its context is gone (`destroyed`), else kept (context_mark). */
static void forget_mark(egl_device *dev, bool destroyed)
{
    context_mark *mark = dev->mark;
    if (!mark)
        return;
    mark->dev = NULL;
    if (destroyed) {
        free(mark);
        return;
    }
    pthread_mutex_lock(&display_lock);
    mark->next = kept_marks;
    kept_marks = mark;
    pthread_mutex_unlock(&display_lock);
}

/* Whether dev's context is current on this thread, as its mark says: the debug callback's user
 * parameter of whatever context is current here is dev's mark only for dev's own context (only this
 * file sets marks, and no caller of gpuc sees one). With no context current the query does nothing
 * (glvnd's no-op dispatch) and `read` stays NULL. False never means "not current" for sure (a program
 * could have replaced the callback in gpuc's context): callers ask EGL then. On another program's
 * context that lacks KHR_debug the query would leave GL_INVALID_ENUM in it; GL 4.3, GLES 3.2 and every
 * Mesa context have KHR_debug. */
static bool marked_current(const egl_device *dev)
{
    if (!dev->mark)
        return false;
    void *read = NULL;
    glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &read);
    return read == dev->mark;
}

void egl_device_on_gl_messages(egl_device *dev, egl_gl_message_fn *fn, void *user)
{
    dev->on_gl_message = fn;
    dev->gl_message_user = user;
}

/* Creates the context on an already-obtained display. `label` names the candidate in messages;
 * threads (non-zero only for a software display of its own) is set for the display's screen. */
static bool open_on_display(EGLDisplay dpy, const char *label, bool debug, int threads, egl_device *dev, char *err,
                            size_t errlen)
{
    if (dpy == EGL_NO_DISPLAY) {
        note(err, errlen, "  %s: no display (%s)\n", label, egl_error_name(eglGetError()));
        return false;
    }
    /* Counted as a user before anything else, under display_lock: a close on another thread cannot
     * terminate dpy from here on, and of two contexts opening at once only one makes its screen. */
    pthread_mutex_lock(&display_lock);
    int slot = display_slot_locked(dpy);
    if (threads && slot >= 0 && display_users[slot].threads != threads) {
        int other = display_users[slot].threads;
        pthread_mutex_unlock(&display_lock);
        note(err, errlen, "  %s: llvmpipe makes its threads once per display and process, and another gpuc "
                          "context of this process runs %s (gpuc_options.threads %d): close it first or ask for "
                          "the same count\n", label, other < 0 ? "in its calling thread" : "its own thread count",
             other);
        return false;
    }
    EGLBoolean initialized =
        threads && slot < 0 ? initialize_with_threads(dpy, threads) : eglInitialize(dpy, NULL, NULL);
    if (initialized)
        display_retain_locked(dpy, threads);
    pthread_mutex_unlock(&display_lock);
    if (!initialized) {
        note(err, errlen, "  %s: eglInitialize failed (%s)\n", label, egl_error_name(eglGetError()));
        return false;
    }
    const char *exts = eglQueryString(dpy, EGL_EXTENSIONS);
    if (!exts || !strstr(exts, "EGL_KHR_no_config_context") || !strstr(exts, "EGL_KHR_surfaceless_context")) {
        note(err, errlen, "  %s: lacks EGL_KHR_no_config_context or EGL_KHR_surfaceless_context\n", label);
        goto fail;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        note(err, errlen, "  %s: eglBindAPI(EGL_OPENGL_API) failed (%s)\n", label, egl_error_name(eglGetError()));
        goto fail;
    }
    EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                        EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (ctx == EGL_NO_CONTEXT) {
        note(err, errlen, "  %s: no OpenGL 4.3 core context (%s)\n", label, egl_error_name(eglGetError()));
        goto fail;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        note(err, errlen, "  %s: eglMakeCurrent failed (%s)\n", label, egl_error_name(eglGetError()));
        eglDestroyContext(dpy, ctx);
        goto fail;
    }
    if (!gladLoadGL((GLADloadfunc)eglGetProcAddress)) {
        note(err, errlen, "  %s: could not load the OpenGL functions\n", label);
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        goto fail;
    }
    dev->display = dpy;
    dev->context = ctx;
    mark_context(dev);
    return true;
fail:
    display_leave(dpy);
    return false;
}

static bool device_is_software(PFNEGLQUERYDEVICESTRINGEXTPROC query_string, EGLDeviceEXT device)
{
    const char *exts = query_string ? query_string(device, EGL_EXTENSIONS) : NULL;
    return exts && strstr(exts, "EGL_MESA_device_software");
}

/* The suffix of gpuc_info.device for a display with a thread count of its own. */
static void describe_threads(int threads, char *out, size_t size)
{
    if (threads < 0)
        snprintf(out, size, ", llvmpipe in the calling thread");
    else if (threads > 0)
        snprintf(out, size, ", llvmpipe with %d thread%s", threads, threads == 1 ? "" : "s");
    else
        out[0] = '\0';
}

static bool try_device(EGLDeviceEXT device, int index, bool software, bool debug, int threads, egl_device *dev,
                       char *err, size_t errlen)
{
    char label[64], suffix[48];
    snprintf(label, sizeof label, "EGL device %d (%s)", index, software ? "software" : "hardware");
    threads = software ? threads : 0; /* a hardware driver has no such threads */
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, threads ? own_threads_display : NULL);
    if (!open_on_display(dpy, label, debug, threads, dev, err, errlen))
        return false;
    describe_threads(threads, suffix, sizeof suffix);
    dev->index = index;
    dev->software = software;
    snprintf(dev->how, sizeof dev->how, "%s: EGL device %d%s", software ? "cpu" : "gpu", index, suffix);
    return true;
}

static bool try_surfaceless(bool debug, int threads, egl_device *dev, char *err, size_t errlen)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client || !strstr(client, "EGL_MESA_platform_surfaceless")) {
        note(err, errlen, "  Mesa surfaceless platform: not available\n");
        return false;
    }
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                                           threads ? own_threads_display : NULL);
    if (!open_on_display(dpy, "Mesa surfaceless platform", debug, threads, dev, err, errlen))
        return false;
    char suffix[48];
    describe_threads(threads, suffix, sizeof suffix);
    dev->index = -1;
    dev->software = true; /* without a device we cannot tell; the renderer string decides later */
    snprintf(dev->how, sizeof dev->how, "cpu: Mesa surfaceless platform%s", suffix);
    return true;
}

/* Device "gpu" found no hardware device it could open: say what EGL showed instead, since the usual
 * cause is a machine without a GPU (or without its EGL driver), not a missing Mesa. */
static void explain_no_hardware(EGLDeviceEXT *devices, EGLint count, PFNEGLQUERYDEVICESTRINGEXTPROC query_string,
                                char *err, size_t errlen)
{
    int hardware = 0;
    for (int i = 0; i < count; i++)
        hardware += !device_is_software(query_string, devices[i]);
    if (hardware)
        note(err, errlen, "device \"gpu\": none of the %d hardware EGL device(s) above gave an OpenGL 4.3 core "
                          "context; check the GPU driver's EGL and OpenGL support", hardware);
    else /* nothing was tried: the log so far says nothing useful */
        snprintf(err, errlen, "device \"gpu\": no hardware EGL device was found; EGL lists %d device(s)%s",
                 (int)count, count ? ":" : "");
    for (int i = 0; !hardware && i < count; i++) {
        const char *drm = query_string ? query_string(devices[i], EGL_DRM_DEVICE_FILE_EXT) : NULL;
        note(err, errlen, "%s EGL device %d (%s%s%s)", i ? "," : "", i,
             device_is_software(query_string, devices[i]) ? "software: Mesa's llvmpipe" : "hardware",
             drm ? ", " : "", drm ? drm : "");
    }
    note(err, errlen, ". Use device \"auto\" or \"cpu\" to run on the CPU with llvmpipe, or install the GPU's "
                      "driver with EGL support.");
}

int egl_device_list_hardware(int *indices, int max)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC query_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    EGLDeviceEXT devices[MAX_EGL_DEVICES];
    EGLint count = 0;
    if (!client || !strstr(client, "EGL_EXT_device_enumeration") || !query_devices ||
        !query_devices(MAX_EGL_DEVICES, devices, &count))
        return 0;
    int hardware = 0;
    for (int i = 0; i < count; i++) {
        if (device_is_software(query_string, devices[i]))
            continue;
        if (indices && hardware < max)
            indices[hardware] = i;
        hardware++;
    }
    return hardware;
}

bool egl_device_open(egl_choice choice, bool debug, int threads, egl_device *dev, char *err, size_t errlen)
{
    memset(dev, 0, sizeof *dev);
    err[0] = '\0';
    pthread_once(&fork_handlers_once, register_fork_handlers);
    if (egl_device_forked_with_display()) {
        snprintf(err, errlen, "this process (%ld) was fork()ed while its parent had a gpuc context open: EGL "
                 "cannot be used again in the child (Mesa's display came along without its worker threads, and "
                 "any GL call would wait for ever). Open contexts only after the fork, never before it in the "
                 "parent: with Check, open them in a checked fixture (tcase_add_checked_fixture) and none in "
                 "main, or run with CK_FORK=no", (long)getpid());
        return false;
    }
    dev->process = atomic_load_explicit(&process_image, memory_order_relaxed);
    dev->opener_pid = (long)getpid();
    note(err, errlen, "could not create a headless OpenGL 4.3 context; tried:\n");

    EGLDeviceEXT devices[MAX_EGL_DEVICES];
    EGLint count = 0;
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC query_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (client && strstr(client, "EGL_EXT_device_enumeration") && query_devices) {
        if (!query_devices(MAX_EGL_DEVICES, devices, &count))
            count = 0;
    } else {
        note(err, errlen, "  EGL device enumeration: not available (is libegl1 installed?)\n");
    }

    if (choice.kind == EGL_CHOICE_INDEX) {
        if (choice.index >= count) {
            note(err, errlen, "  EGL device %d: there are only %d EGL devices\n", choice.index, (int)count);
        } else if (try_device(devices[choice.index], choice.index, device_is_software(query_string, devices[choice.index]),
                              debug, threads, dev, err, errlen)) {
            return true;
        }
    } else {
        /* Hardware devices first (unless "cpu"), then software ones (unless "gpu"). */
        for (int pass = 0; pass < 2; pass++) {
            bool want_software = pass == 1;
            if ((want_software && choice.kind == EGL_CHOICE_GPU) || (!want_software && choice.kind == EGL_CHOICE_CPU))
                continue;
            for (int i = 0; i < count; i++) {
                bool software = device_is_software(query_string, devices[i]);
                if (software == want_software && try_device(devices[i], i, software, debug, threads, dev, err, errlen))
                    return true;
            }
        }
        if (choice.kind != EGL_CHOICE_GPU && try_surfaceless(debug, threads, dev, err, errlen))
            return true;
        if (choice.kind == EGL_CHOICE_GPU) {
            explain_no_hardware(devices, count, query_string, err, errlen);
            return false;
        }
    }
    note(err, errlen, "Install Mesa's EGL and llvmpipe (apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri), "
                      "or a GPU driver with EGL support.");
    return false;
}

/* This thread, as egl_device.stood_in_on names it: the address of a thread-local byte. */
static _Thread_local char this_thread;
/* Set when egl_device_make_current refused a context stood in for on another thread (read and
 * cleared by egl_device_failed_as_held_elsewhere, as EGL's own error is). */
static _Thread_local bool refused_as_stood_in;

/* Whether another thread holds dev through a stand-in. Read before taking dev, and again after EGL
 * gave it here: a thread marks dev handed over (egl_device_hand_over) before it lets go of it, and
 * EGL's binding orders the two, so a stand-in begun before dev could be taken here is seen then. */
static bool stood_in_elsewhere(const egl_device *dev)
{
    const void *on = atomic_load(&dev->stood_in_on);
    return on && on != &this_thread;
}

bool egl_device_make_current(egl_device *dev)
{
    if (marked_current(dev) || eglGetCurrentContext() == (EGLContext)dev->context)
        return true;
    /* Held on another thread through a stand-in: refused without taking it even for a moment (the
     * holder's own switch back would fail meanwhile). */
    if (stood_in_elsewhere(dev)) {
        refused_as_stood_in = true;
        return false;
    }
    if (!eglMakeCurrent((EGLDisplay)dev->display, EGL_NO_SURFACE, EGL_NO_SURFACE, (EGLContext)dev->context))
        return false;
    if (!stood_in_elsewhere(dev)) {
        egl_device_stand_down(dev); /* back from this thread's stand-in, if it had one */
        return true;
    }
    /* The stand-in began between the two looks (a call racing another thread's on one context): let go
     * again; what was current here before is not kept on this path, and nothing stays current. */
    eglMakeCurrent((EGLDisplay)dev->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    refused_as_stood_in = true;
    return false;
}

bool egl_device_failed_as_held_elsewhere(void)
{
    bool stood_in = refused_as_stood_in;
    refused_as_stood_in = false;
    return eglGetError() == EGL_BAD_ACCESS || stood_in;
}

bool egl_device_hand_over(egl_device *dev, egl_device *other)
{
    /* Marked before dev is let go of: no other thread can take dev in between unseen. */
    atomic_store(&dev->stood_in_on, &this_thread);
    if (marked_current(other) || eglMakeCurrent((EGLDisplay)other->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                                                (EGLContext)other->context))
        return true;
    if (egl_device_is_current(dev)) /* still here: nothing was handed over */
        egl_device_stand_down(dev);
    return false;
}

bool egl_device_handed_over_here(const egl_device *dev)
{
    return atomic_load(&dev->stood_in_on) == &this_thread;
}

void egl_device_stand_down(egl_device *dev)
{
    const void *mine = &this_thread;
    atomic_compare_exchange_strong(&dev->stood_in_on, &mine, NULL);
}

bool egl_device_borrow(const egl_device *dev, egl_binding *saved)
{
    /* The usual case, a free on the context's own thread, asks no EGL question: each EGL call costs a
     * getpid system call in glvnd's libEGL (its fork check), and a small kernel call frees an array. */
    if (marked_current(dev)) {
        *saved = (egl_binding){EGL_NO_DISPLAY, (EGLContext)dev->context, EGL_NO_SURFACE, EGL_NO_SURFACE, false};
        return true;
    }
    EGLContext current = eglGetCurrentContext();
    *saved = (egl_binding){EGL_NO_DISPLAY, current, EGL_NO_SURFACE, EGL_NO_SURFACE, false};
    if (current == (EGLContext)dev->context)
        return true;
    if (stood_in_elsewhere(dev)) /* held on another thread through a stand-in: not taken at all */
        return false;
    *saved = (egl_binding){eglGetCurrentDisplay(), current, eglGetCurrentSurface(EGL_DRAW),
                           eglGetCurrentSurface(EGL_READ), false};
    if (!eglMakeCurrent((EGLDisplay)dev->display, EGL_NO_SURFACE, EGL_NO_SURFACE, (EGLContext)dev->context))
        return false;
    saved->switched = true;
    if (stood_in_elsewhere(dev)) { /* the stand-in began between the two looks */
        egl_device_give_back(saved);
        return false;
    }
    return true;
}

void egl_device_give_back(const egl_binding *saved)
{
    if (!saved->switched)
        return;
    if (saved->context != EGL_NO_CONTEXT)
        eglMakeCurrent((EGLDisplay)saved->display, (EGLSurface)saved->draw, (EGLSurface)saved->read,
                       (EGLContext)saved->context);
    else
        eglMakeCurrent(eglGetCurrentDisplay(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

bool egl_device_is_current(const egl_device *dev)
{
    return marked_current(dev) || eglGetCurrentContext() == (EGLContext)dev->context;
}

void egl_device_release(const egl_device *dev)
{
    if (egl_device_is_current(dev))
        eglMakeCurrent((EGLDisplay)dev->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void egl_device_close(egl_device *dev)
{
    if (!dev->display)
        return;
    if (egl_device_inherited(dev)) { /* the parent's: no EGL call may be made on it here */
        forget_mark(dev, false); /* this thread's GL state may still name the parent's context */
        memset(dev, 0, sizeof *dev);
        return;
    }
    EGLDisplay dpy = (EGLDisplay)dev->display;
    /* Let go of it here, putting back what this thread had current; a context another thread holds
     * cannot be borrowed, and EGL destroys it only when that thread lets go. */
    egl_binding saved;
    bool here = egl_device_borrow(dev, &saved);
    if (here && !saved.switched)
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    else if (here)
        egl_device_give_back(&saved);
    eglDestroyContext(dpy, (EGLContext)dev->context);
    forget_mark(dev, here);
    display_leave(dpy);
    /* Frees EGL's per-thread state, but would also unbind another gpuc context: only when none is left. */
    if (!display_in_use(EGL_NO_DISPLAY))
        eglReleaseThread();
    memset(dev, 0, sizeof *dev);
}
