/* internal.h - the structures behind gpuc.h's opaque handles, shared by the device and kernel layers.
 * Nothing here is public; only src/ includes it. The device layer reads only the device's fields and
 * the children; the fields below them belong to the layers named beside them. */
#ifndef GPUC_INTERNAL_H
#define GPUC_INTERNAL_H

#include "gpuc.h"
#include "device/egl_device.h"

#include <glad/gl.h>

#include <stdatomic.h>

#define GPUC_ERRMSG_MAX 2048
/* Layers above the device that keep per-context state (program cache, fragment state, JS registry). */
#define GPUC_MAX_CLOSE_HOOKS 8

typedef struct program_entry program_entry; /* kernel/program_table.h */
typedef struct program_table program_table; /* kernel/program_table.c */
typedef struct js_registry js_registry;     /* js/api.c: gpuc_add_function / gpuc_add_native_function */
typedef struct algo_kernel_cache algo_kernel_cache; /* algo/kernel_cache.c */

/* A kernel or array as its context owns it (device/children.c): embedded in the object, with the
 * function that destroys it. gl: the context is current, delete its GL objects; false when it cannot
 * be made current (gpuc_close on a thread that does not hold it): free host memory only. */
typedef struct gpuc_child gpuc_child;
typedef void gpuc_child_destroy_fn(gpuc_child *child, bool gl);
struct gpuc_child {
    gpuc_child_destroy_fn *destroy;
    gpuc_child *prev, *next; /* the context's list of live children */
    gpuc_child *queued_next; /* the queue of frees waiting for the context's own thread */
};

/* A layer's teardown of its per-context state at gpuc_close (gl as above). */
typedef void gpuc_close_hook(gpuc *gpu, bool gl);

struct gpuc {
    bool opened;          /* false for a handle returned by a failed gpuc_open */
    bool debug;           /* KHR_debug checks on every call */
    bool profile, trace;  /* time kernel runs; print a line per run (kernel/profile.c) */
    egl_device device;    /* only the device layer looks inside */
    gpuc_info info;
    /* Kernels store texels as two 64-bit words (llvmpipe with GL_ARB_gpu_shader_int64): llvmpipe
     * stores every component of a storage-buffer write in a scalar loop over the lanes, so two
     * 64-bit components cost less than four 32-bit ones (kernel/codegen_texels.c). */
    bool store_pairs;
    gpuc_stats stats;
    char errmsg[GPUC_ERRMSG_MAX];
    char gl_debug_error[512]; /* first error reported through KHR_debug since the last check */
    /* What the context owns (device/children.c); the device layer destroys it without knowing what
     * it is. */
    gpuc_child *children;                /* live kernels and user arrays, newest first */
    _Atomic(gpuc_child *) queued;         /* freed on a thread that could not use the context */
    atomic_uint_least64_t frees_deferred; /* gpuc_stats.frees_deferred / frees_pending */
    atomic_uint_least64_t frees_pending;
    gpuc_close_hook *close_hooks[GPUC_MAX_CLOSE_HOOKS];
    int nclose_hooks;
    /* State of the layers above, owned by them and torn down by their close hooks. */
    program_table *programs;  /* kernel/program_table.c: compiled programs, keyed by their GLSL text */
    int max_unused_programs;  /* gpuc_options.max_unused_programs, resolved: programs no kernel uses kept */
    js_registry *js;          /* js/api.c: functions added for JavaScript kernels */
    algo_kernel_cache *algo_kernels; /* algo/kernel_cache.c: the algorithm drivers' kernels, made once */
    /* kernel/fragment_run.c: the vertex array and framebuffer every draw uses (made on first draw). */
    GLuint fragment_vao, fragment_fbo;
    /* The word guarded kernels raise when llvmpipe cut a loop short (kernel/kernel_loops.c). */
    GLuint loop_status;
};

struct gpuc_array {
    gpuc *gpu;
    gpuc_type type;
    gpuc_dims dims;     /* as given by the user: absent dimensions 0 */
    size_t cells;       /* product of the present dimensions */
    size_t values;      /* cells * components */
    size_t bytes;       /* buffer size: values * 4, padded to whole 16-byte texels */
    GLuint buffer;      /* the storage */
    GLuint view;        /* a buffer texture over `buffer`, made on first use as an input */
    GLuint scalar_view; /* the same, one component per texel (r32f/r32i), made on first such use */
    void *mirror;       /* host copy of the contents, valid while mirror_valid */
    bool mirror_valid;
    bool internal;      /* owned by a kernel (upload scratch), not a child of the context */
    /* Non-empty while the array holds a result cut short (llvmpipe's loop budget): the kernel's name.
     * Reading it or passing it to a kernel fails until it is written or run into again. */
    char truncated_by[64];
    gpuc_child child;
};

/* ---- errors (device/context.c) ---- */

/* Records a formatted message on gpu and returns status (convenient as `return gpuc_fail(...)`). */
gpuc_status gpuc_fail(gpuc *gpu, gpuc_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Makes gpu's context current on this thread; fails with a message if the handle is unusable. */
gpuc_status gpuc_enter(gpuc *gpu);

/* Turns pending GL errors (glGetError, KHR_debug) into a failure naming `what`. */
gpuc_status gpuc_check_gl(gpuc *gpu, const char *what);

/* ---- what a context owns (device/children.c) ---- */

/* Makes `child` the context's, destroyed by `destroy` at gpuc_close unless freed before. */
void gpuc_child_add(gpuc *gpu, gpuc_child *child, gpuc_child_destroy_fn *destroy);

/* Takes `child` off the context's list (before destroying it on an internal path). */
void gpuc_child_remove(gpuc *gpu, gpuc_child *child);

/* A public free: destroys `child` now if the context is or can be made current on this thread (and
 * puts back what was current), else queues it for the context's next call on its own thread. */
void gpuc_child_free(gpuc *gpu, gpuc_child *child);

/* Destroys the queued children; the context is current on this thread (gpuc_enter calls it). */
void gpuc_children_collect(gpuc *gpu);

/* Registers a layer's teardown once (calling it again with the same hook does nothing). Hooks run at
 * gpuc_close after every child is destroyed, newest first. */
gpuc_status gpuc_on_close(gpuc *gpu, gpuc_close_hook *hook);

/* gpuc_close: destroys the queue, every child, then runs the hooks. */
void gpuc_children_close(gpuc *gpu, bool gl);

/* ---- arrays (device/array.c) ---- */

/* Components per cell of a type (1 for float/int, N for vecN), 0 for GPUC_TYPE_NONE. */
int gpuc_type_components(gpuc_type type);
const char *gpuc_type_name(gpuc_type type);

/* Validates dims: x >= 1, z only with y, total cells under 2^31. On success fills *cells and the
 * number of present dimensions (1..3). `what` names the thing in the message. */
gpuc_status gpuc_dims_check(gpuc *gpu, gpuc_dims dims, const char *what, size_t *cells, int *rank);
int gpuc_dims_rank(gpuc_dims dims);

/* How gpuc_array_make prepares an array. */
enum {
    ARRAY_INTERNAL = 1, /* owned by a kernel (upload scratch): not on the user's list */
    ARRAY_OVERWRITTEN = 2 /* the caller writes every value next: zero only the padding, not the data */
};

/* Makes an array, zero-filled unless ARRAY_OVERWRITTEN. */
gpuc_status gpuc_array_make(gpuc *gpu, gpuc_type type, gpuc_dims dims, unsigned flags, gpuc_array **out);
/* Destroys an array now; the context is current. */
void gpuc_array_destroy(gpuc_array *a);
/* Destroys an array, deleting its GL objects only when gl (see gpuc_child_destroy_fn). */
void gpuc_array_destroy_gl(gpuc_array *a, bool gl);

/* Uploads host data into an array of the same value count (no checks beyond GL errors). */
gpuc_status gpuc_array_upload(gpuc_array *a, const void *data);

/* The buffer-texture view kernels read the array through (made on first use): four components per
 * texel, or with `scalar` one (for a float or int array that fits GL_MAX_TEXTURE_BUFFER_SIZE texels). */
gpuc_status gpuc_array_view(gpuc_array *a, bool scalar, GLuint *view, GLenum *format);

/* GPUC_ERROR_LIMIT for an array whose contents a loop-budget cut made unusable (truncated_by set). */
gpuc_status gpuc_array_refuse_truncated(const gpuc_array *a, const char *doing);

/* Reads the array's contents into its host mirror (one device -> host copy); refuses a truncated one. */
gpuc_status gpuc_array_fetch_mirror(gpuc_array *a);

/* Fills the host copy from `data`, which holds what the array was just given (all of its values):
 * an array made from host data is then read without reading it back. */
gpuc_status gpuc_array_mirror_host(gpuc_array *a, const void *data);

#endif
