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
#define GPUC_SPARE_BUFFERS 8 /* freed buffers kept per context, larger before smaller (device/array.c): */
#define GPUC_SPARE_BUFFER_MAX_BYTES (256 * 1024) /* small ones (at most this size) as they come, */
#define GPUC_SPARE_BYTES_MAX ((size_t)64 << 20)  /* larger ones while all kept hold at most this */

typedef struct program_entry program_entry; /* kernel/program/program_table.h */
typedef struct program_table program_table; /* kernel/program/program_table.c */
typedef struct js_registry js_registry;     /* js/api.c: gpuc_add_function / gpuc_add_native_function */
typedef struct algo_kernel_cache algo_kernel_cache; /* algo/kernel_cache.c */
typedef struct algo_scratch algo_scratch;           /* algo/host_scratch.c */

/* What a caller holds for a kernel or array: a handle of a few bytes that stays allocated until its
 * context closes, so that a call given a freed one can say so instead of reading freed memory (as
 * SQLite's SQLITE_MISUSE). The tag says what it is and whether the thing behind it lives. Bodies
 * (struct gpuc_array, struct gpuc_kernel) start with a tag of their own: the library's own code works
 * on bodies and may hand them to the public calls, which accept a handle or a body (device/children.c). */
enum {
    GPUC_TAG_ARRAY = 0x61727261,       /* an array's body */
    GPUC_TAG_ARRAY_HANDLE = 0x61726848, /* a live array's handle */
    GPUC_TAG_KERNEL = 0x6b726e6c,      /* a kernel's body */
    GPUC_TAG_KERNEL_HANDLE = 0x6b726e48,
    GPUC_TAG_FREED = 0x66726565 /* either kind's handle after gpuc_array_free / gpuc_kernel_free */
};
typedef struct gpuc_handle gpuc_handle;
struct gpuc_handle {
    uint32_t tag;
    bool kernel; /* which kind it was (for the message once freed) */
    gpuc *gpu;
    union {
        void *body;              /* live: the array or kernel */
        gpuc_handle *next_freed; /* freed: the context's list of freed handles, released at gpuc_close */
    };
};

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

/* The choices of the kernel layer that depend on what the driver is (gpuc_device_profile), decided
 * once at gpuc_open (device/device_profile.c) and read at each choice point. */
typedef struct device_profile {
    /* Arrays are read through buffer-texture image views (llvmpipe: image loads are vectorised, SSBO
     * loads a scalar loop per lane); false: from storage buffers, the GL-standard way. */
    bool image_reads;
    /* Loop-free ordinary kernels compute neighbouring cells per step and store whole texels
     * (kernel/codegen/codegen_texels.c); false: one cell per invocation, stored as it is. */
    bool texel_stores;
    /* Those texels are stored as two 64-bit words (llvmpipe with GL_ARB_gpu_shader_int64): llvmpipe
     * stores every component of a storage-buffer write in a scalar loop over the lanes, so two
     * 64-bit components cost less than four 32-bit ones. */
    bool store_pairs;
    /* Steps (cells, or texels' worth of cells) one invocation may compute: loop-free kernels, and
     * kernels with counted loops (kernel.c's cells_per_invocation); 1 and 1 on hardware. */
    int most_steps, most_steps_with_loops;
    /* Neighbouring cells of a row a kernel with counted loops computes in one call of its body, the
     * loops fused (kernel/source/kernel_jam.h: a read every cell makes at one index is made once, where
     * llvmpipe gathers it per lane); 0 on hardware, where one cell per invocation is the norm. */
    int jam_cells;
    int local_size; /* invocations per work group of a kernel's compute program */
    /* Storage buffers one program of the backend may bind (blocks of its stage, within the bindings). */
    int max_storage_blocks;
    /* Default-block uniform components one program of the backend may declare (its stage's
     * GL_MAX_*_UNIFORM_COMPONENTS): scalar and vector arguments and arrays' sizes are uniforms. */
    int max_uniform_components;
    /* An exact-length compaction's scatter writes every element at full length (survivors, then the
     * dropped elements' zeros) and copies the survivors out, where enough of them are dropped
     * (algo/compact_place.c): on llvmpipe a lane that skips its store, as a dropped element past an
     * exact output's end does, costs about two writes in a random pattern. false: they skip it. */
    bool scatter_full_length;
} device_profile;

struct gpuc {
    bool opened;          /* false for a handle returned by a failed gpuc_open */
    bool debug;           /* KHR_debug checks on every call */
    bool profile, trace;  /* time kernel runs; print a line per run (kernel/profile.c) */
    bool guard_all_loops; /* guard every loop, proven or not (kernel/kernel_loops.c) */
    bool profile_report;  /* GPUC_PROFILE: gpuc_close prints gpuc_print_profile's table on stderr */
    int threads;          /* gpuc_options.threads as given (gpuc_kernel_describe) */
    egl_device device;    /* only the device layer looks inside */
    gpuc_info info;
    device_profile device_profile; /* device/device_profile.c: what the kernel layer's choices follow */
    gpuc_stats stats;
    char errmsg[GPUC_ERRMSG_MAX];
    char gl_debug_error[512]; /* first error reported through KHR_debug since the last check */
    /* What the context owns (device/children.c); the device layer destroys it without knowing what
     * it is. */
    gpuc_child *children;                /* live kernels and user arrays, newest first */
    _Atomic(gpuc_child *) queued;         /* freed on a thread that could not use the context */
    atomic_uint_least64_t frees_deferred; /* gpuc_stats.frees_deferred / frees_pending */
    atomic_uint_least64_t frees_pending;
    _Atomic(gpuc_handle *) freed_handles; /* handles of freed kernels and arrays, kept until gpuc_close */
    gpuc_close_hook *close_hooks[GPUC_MAX_CLOSE_HOOKS];
    int nclose_hooks;
    /* State of the layers above, owned by them and torn down by their close hooks. */
    program_table *programs;  /* kernel/program/program_table.c: compiled programs, keyed by their GLSL text */
    int max_unused_programs;  /* gpuc_options.max_unused_programs, resolved: programs no kernel uses kept */
    uint64_t max_image_pixels; /* gpuc_options.max_image_pixels, resolved: 0 for no limit */
    js_registry *js;          /* js/api.c: functions added for JavaScript kernels */
    algo_kernel_cache *algo_kernels; /* algo/kernel_cache.c: the algorithm drivers' kernels, made once */
    algo_scratch *algo_scratch;      /* algo/host_scratch.c: host memory the drivers reuse from call to call */
    /* kernel/fragment_run.c: the vertex array and framebuffer every draw uses (made on first draw). */
    GLuint fragment_vao, fragment_fbo;
    const struct gpuc_kernel *fragment_attached; /* whose targets fragment_fbo holds; NULL: unknown */
    /* The word guarded kernels raise when llvmpipe cut a loop short (kernel/kernel_loops.c). */
    GLuint loop_status;
    /* device/array.c: buffers of freed arrays, kept for the next array of the same size (a kernel
     * call makes and frees its result every time: making a buffer costs a microsecond, and llvmpipe
     * zero-fills a new one, whose fresh pages fault in: conv5's 4 MiB result took 4-15 ms a call). */
    struct { GLuint buffer; size_t bytes; } spare_buffers[GPUC_SPARE_BUFFERS];
    /* Small calls (kernel/small_calls.c, algo/algo_twin.c): a context with llvmpipe's default threads
     * runs a kernel's small calls, and small algorithm calls whole, on `twin`, a context of its own
     * working in the calling thread, of the same backend (gpuc_twin opens it on the first need;
     * twin_state says whether it was tried). Closed by gpuc_close after the kernels. */
    bool small_calls; /* threads 0 on a software EGL device (not zink), GPUC_SMALL_CALLS not "pool" */
    /* A small threshold compaction of values the host holds runs on the host (algo/compact_host.c): on
     * the software device profile (whatever the backend and threads; a forced hardware profile keeps
     * the GPU's path, to test it), GPUC_SMALL_CALLS not "pool". */
    bool host_small_calls;
    int twin_state;
    gpuc *twin;       /* gpuc_twin's */
    /* algo/algo_twin.c: the shapes of the latest small algorithm calls and how often each came. */
    struct { uint64_t shape, last; uint32_t calls; } algo_small[8];
    uint64_t algo_small_clock;
};

struct gpuc_array {
    uint32_t tag; /* GPUC_TAG_ARRAY */
    gpuc *gpu;
    gpuc_handle *handle; /* what the caller holds; NULL for an internal array or once freed */
    gpuc_type type;
    gpuc_dims dims;     /* as given by the user: absent dimensions 0 */
    size_t cells;       /* product of the present dimensions */
    size_t values;      /* cells * components */
    size_t bytes;       /* buffer size: values * 4, padded to whole 16-byte texels */
    GLuint buffer;      /* the storage; 0 while the array is host-held (ARRAY_HOST_HELD) */
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

/* gpu's calling-thread twin (see struct gpuc's small_calls), opened on the first call on the same EGL
 * device with GPUC_THREADS_CALLER, compute, gpu's debug and loop settings and device profile; NULL when
 * it cannot be had (then never tried again). gpu is current again afterwards, unless EGL refused
 * that too (then NULL, the twin closed). The twin reports nothing itself (trace and profiling off):
 * its work is counted as gpu's by who sends it there. */
gpuc *gpuc_twin(gpuc *gpu);

/* The copies a call on the twin makes that the context's own path would not: sending device arrays'
 * host copies there (gpuc_array_host_view: one upload of each array's values, which are on the
 * context's device already), and reading back a .pipeline result (which the context's path leaves on
 * the device). */
typedef struct gpuc_twin_copies {
    uint64_t uploads, bytes;
    uint64_t readbacks, bytes_read_back;
} gpuc_twin_copies;

/* Adds the transfers and dispatches the twin made between its counts `was` and `now` (uploads, bytes
 * uploaded, dispatches, read-backs, bytes read back, loop checks) to gpu's counts, less the copies
 * (`copies`, NULL for none; each at most what the twin made, so a call that failed before making them
 * leaves nothing to take away): work sent to the twin is counted as the context's own path would
 * count it. */
void gpuc_stats_add_twin(gpuc *gpu, const gpuc_stats *was, const gpuc_stats *now, const gpuc_twin_copies *copies);

/* GPUC_ERROR_MISUSE for a context a fork()ed child inherited (egl_device_inherited). */
gpuc_status gpuc_refuse_inherited(gpuc *gpu);

/* Makes gpu's context current on this thread; fails with a message if the handle is unusable. */
gpuc_status gpuc_enter(gpuc *gpu);

/* Whether gpu's twin is current on this thread in gpu's place: a small call left it so (run.c's
 * run_on_twin hands the context over to it, egl_device_hand_over), and gpu is held by this thread
 * although EGL has it current nowhere. Work that needs no GL call on gpu may go on as it is. */
bool gpuc_twin_stands_in(gpuc *gpu);

/* The start of a call that may need no GL call on gpu: where the twin stands in for it here, gpu is
 * left as it is and *gl_ready false (gpuc_enter before any GL call on gpu); else gpuc_enter, and
 * *gl_ready true. */
gpuc_status gpuc_enter_host(gpuc *gpu, bool *gl_ready);

/* Turns pending GL errors (glGetError, KHR_debug) into a failure naming `what`. */
gpuc_status gpuc_check_gl(gpuc *gpu, const char *what);

/* Whether gpu runs on Mesa's zink (GL over Vulkan), whose Mesa 22.3 needs the workarounds that call
 * this (device/array.c, kernel/fragment_run.c); measured on zink over lavapipe (README, zink section). */
bool gpuc_driver_is_zink(const gpuc *gpu);

/* ---- what a context owns (device/children.c) ---- */

/* A new live handle for body (an array's or a kernel's); NULL when host memory ran out. */
gpuc_handle *gpuc_handle_new(gpuc *gpu, void *body, bool kernel);

/* The failure for a handle gpuc_handle_body cannot use, naming `call`: GPUC_ERROR_MISUSE for a freed
 * handle or one of another kind, GPUC_ERROR_INVALID_ARGUMENT for NULL. */
gpuc_status gpuc_handle_refuse(const void *p, uint32_t body_tag, const char *call);

/* The body behind `p`, a caller's handle or the library's own body of the kind whose body tag is
 * body_tag (GPUC_TAG_ARRAY or GPUC_TAG_KERNEL); NULL with *st set by gpuc_handle_refuse otherwise.
 * Two loads and two compares: every public call taking a kernel or array makes it. */
static inline void *gpuc_handle_body(const void *p, uint32_t body_tag, const char *call, gpuc_status *st)
{
    uint32_t live = body_tag == GPUC_TAG_ARRAY ? GPUC_TAG_ARRAY_HANDLE : GPUC_TAG_KERNEL_HANDLE;
    uint32_t tag = p ? *(const uint32_t *)p : 0; /* handles and bodies start with their tag */
    if (tag == live)
        return ((const gpuc_handle *)p)->body;
    if (tag == body_tag)
        return (void *)p;
    *st = gpuc_handle_refuse(p, body_tag, call);
    return NULL;
}

/* What a public call hands the caller for an array body: its handle (a handle or NULL stays as it is). */
gpuc_array *gpuc_array_handed_out(gpuc_array *a);

/* The array behind a caller's handle, for `call` (gpuc_handle_body). */
static inline gpuc_status gpuc_array_open(const gpuc_array *handle, const char *call, gpuc_array **a)
{
    gpuc_status st = GPUC_OK;
    *a = (gpuc_array *)gpuc_handle_body(handle, GPUC_TAG_ARRAY, call, &st);
    return st;
}

/* gpuc_array_open, then gpuc_enter on the array's context: the start of a call that touches GL. */
static inline gpuc_status gpuc_array_enter(const gpuc_array *handle, const char *call, gpuc_array **a)
{
    gpuc_status st = gpuc_array_open(handle, call, a);
    return st != GPUC_OK ? st : gpuc_enter((*a)->gpu);
}

/* gpuc_array_free and gpuc_kernel_free: retires the caller's handle (*handle, then NULL) and frees
 * `child` as gpuc_child_free does. */
void gpuc_child_free_handle(gpuc *gpu, gpuc_child *child, gpuc_handle **handle);

/* As gpuc_child_free_handle, for a child that holds no GL object, on a thread that holds the context
 * (gpuc_twin_stands_in): destroyed now, host memory only, with no GL or EGL call. */
void gpuc_child_free_without_gl(gpuc *gpu, gpuc_child *child, gpuc_handle **handle);

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
    ARRAY_OVERWRITTEN = 2, /* the caller writes every value next: zero only the padding, not the data */
    /* No buffer yet: the caller fills the host copy (gpuc_array_mirror_host) before handing it out,
     * and the buffer is made from it at the array's first use on the device (gpuc_array_to_device).
     * A small call's result on the twin, made so with no GL call on a context the twin stands in for. */
    ARRAY_HOST_HELD = 4
};

/* Makes an array, zero-filled unless ARRAY_OVERWRITTEN. */
gpuc_status gpuc_array_make(gpuc *gpu, gpuc_type type, gpuc_dims dims, unsigned flags, gpuc_array **out);
/* Gives a host-held array (ARRAY_HOST_HELD) its buffer, filled from its host copy; nothing for one
 * that has it. The context is current. Every use of `buffer` or the views comes after this (the
 * array functions below that touch them call it themselves). */
gpuc_status gpuc_array_to_device(gpuc_array *a);
/* Destroys an array now; the context is current. */
void gpuc_array_destroy(gpuc_array *a);
/* Destroys an array, deleting its GL objects only when gl (see gpuc_child_destroy_fn); a small
 * buffer may be kept for the next array of its size instead (the context's spare_buffers). */
void gpuc_array_destroy_gl(gpuc_array *a, bool gl);
/* Deletes the kept buffers (gpuc_close, after the arrays; GL calls only when gl). */
void gpuc_array_spares_free(gpuc *gpu, bool gl);

/* Uploads host data into an array of the same value count (no checks beyond GL errors). */
gpuc_status gpuc_array_upload(gpuc_array *a, const void *data);
/* Uploads values [first, first + count) of the array (not counted as an upload in the stats). */
gpuc_status gpuc_array_upload_part(gpuc_array *a, size_t first, size_t count, const void *data);

/* The buffer-texture view kernels read the array through (made on first use): four components per
 * texel, or with `scalar` one (for a float or int array that fits GL_MAX_TEXTURE_BUFFER_SIZE texels). */
gpuc_status gpuc_array_view(gpuc_array *a, bool scalar, GLuint *view, GLenum *format);

/* A new 1D array of a's type holding a's first `cells` cells (1 <= cells <= a's cells), copied on the
 * device (device/array_copy.c); its padding is zero whatever follows them in a. Refuses a truncated a
 * (gpuc_array_refuse_truncated). The context is current. */
gpuc_status gpuc_array_head_copy(gpuc_array *a, size_t cells, gpuc_array **out);

/* GPUC_ERROR_LIMIT for an array whose contents a loop-budget cut made unusable (truncated_by set). */
gpuc_status gpuc_array_refuse_truncated(const gpuc_array *a, const char *doing);

/* Reads the array's contents into its host mirror (one device -> host copy); refuses a truncated one. */
gpuc_status gpuc_array_fetch_mirror(gpuc_array *a);

/* Fills the host copy from `data`, which holds what the array was just given (all of its values):
 * an array made from host data is then read without reading it back. */
gpuc_status gpuc_array_mirror_host(gpuc_array *a, const void *data);

/* A calling-thread twin's view of array a: true, with *host its host copy as host data of its type
 * and shape (gpuc_arg_host_f32 / _i32), where the host holds a's values (mirror_valid: made or
 * written from small host data, or a small call's result, and not written on the device since; a
 * result a loop-budget cut made unusable has none) and a is a float or int array; then the view's
 * upload is added to *copies (when not NULL). False otherwise: a's data is only on the device, which
 * the twins never read back. */
bool gpuc_array_host_view(const gpuc_array *a, gpuc_arg *host, gpuc_twin_copies *copies);

#endif
