/* internal.h - the structures behind gpuc.h's opaque handles, shared by the device and kernel layers.
 * Nothing here is public; only src/ includes it. */
#ifndef GPUC_INTERNAL_H
#define GPUC_INTERNAL_H

#include "gpuc.h"
#include "device/egl_device.h"

#include <glad/gl.h>

#define GPUC_ERRMSG_MAX 2048

typedef struct program_entry program_entry; /* kernel/program_table.h */
typedef struct program_table program_table; /* kernel/program_table.c */
typedef struct js_registry js_registry;     /* js/api.c: gpuc_add_function / gpuc_add_native_function */

struct gpuc {
    bool opened;          /* false for a handle returned by a failed gpuc_open */
    bool debug;           /* KHR_debug checks on every call */
    egl_device device;    /* only the device layer looks inside */
    gpuc_info info;
    gpuc_stats stats;
    char errmsg[GPUC_ERRMSG_MAX];
    char gl_debug_error[512]; /* first error reported through KHR_debug since the last check */
    program_table *programs;  /* compiled programs, keyed by their GLSL text (made on first use) */
    int max_unused_programs;  /* gpuc_options.max_unused_programs, resolved: programs no kernel uses kept */
    gpuc_array *arrays;       /* every live array, released by gpuc_close */
    gpuc_kernel *kernels;     /* every live kernel, released by gpuc_close */
    js_registry *js;          /* functions added for JavaScript kernels */
    /* Fragment backend: the vertex array and framebuffer every draw uses (made on first draw). */
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
    void *mirror;       /* host copy of the contents, valid while mirror_valid */
    bool mirror_valid;
    bool internal;      /* owned by a kernel (upload scratch), not on the user's list */
    /* Non-empty while the array holds a result cut short (llvmpipe's loop budget): the kernel's name.
     * Reading it or passing it to a kernel fails until it is written or run into again. */
    char truncated_by[64];
    gpuc_array *prev, *next;
};

/* ---- errors (device/context.c) ---- */

/* Records a formatted message on gpu and returns status (convenient as `return gpuc_fail(...)`). */
gpuc_status gpuc_fail(gpuc *gpu, gpuc_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Makes gpu's context current on this thread; fails with a message if the handle is unusable. */
gpuc_status gpuc_enter(gpuc *gpu);

/* Turns pending GL errors (glGetError, KHR_debug) into a failure naming `what`. */
gpuc_status gpuc_check_gl(gpuc *gpu, const char *what);

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
void gpuc_array_destroy(gpuc_array *a);

/* Uploads host data into an array of the same value count (no checks beyond GL errors). */
gpuc_status gpuc_array_upload(gpuc_array *a, const void *data);

/* The buffer-texture view used to read the array in kernels (made on first use). */
gpuc_status gpuc_array_view(gpuc_array *a, GLuint *view, GLenum *format);

/* GPUC_ERROR_LIMIT for an array whose contents a loop-budget cut made unusable (truncated_by set). */
gpuc_status gpuc_array_refuse_truncated(const gpuc_array *a, const char *doing);

/* Reads the array's contents into its host mirror (one device -> host copy); refuses a truncated one. */
gpuc_status gpuc_array_fetch_mirror(gpuc_array *a);

/* ---- JavaScript front end (js/) ---- */
void gpuc_js_registry_free(gpuc *gpu);

/* ---- kernels (kernel/) ---- */
void gpuc_kernel_destroy(gpuc_kernel *k);
void gpuc_program_cache_clear(gpuc *gpu);
/* Deletes the fragment backend's vertex array and framebuffer (kernel/fragment_run.c). */
void fragment_state_release(gpuc *gpu);
/* Deletes the loop-status buffer (kernel/kernel_loops.c). */
void kernel_loops_release(gpuc *gpu);

#endif
