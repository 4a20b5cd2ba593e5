/* kernel.h - the kernel handle shared by kernel.c (creation) and run.c (dispatch). */
#ifndef GPUC_KERNEL_H
#define GPUC_KERNEL_H

#include "internal.h"
#include "kernel/codegen/codegen.h"
#include "kernel/profile.h"
#include "kernel/source/source_scan.h"

struct gpuc_kernel {
    uint32_t tag; /* GPUC_TAG_KERNEL (internal.h: handles) */
    gpuc *gpu;
    gpuc_handle *handle; /* what the caller holds; NULL once freed */
    char name[KERNEL_NAME_MAX];
    kernel_signature sig;
    gpuc_dims output;
    size_t cells;          /* output cells */
    gpuc_dims grid;        /* the invocations: the output, or a scatter kernel's threads */
    size_t grid_cells;
    bool scatter;
    bool pipeline;
    bool graphical;        /* cells are RGBA8 pixels (one int each) painted by color() */
    bool dynamic_output;   /* sizes are uniforms; gpuc_kernel_set_output may change the output */
    gpuc_type result_type; /* the output's cell type: the return type, or GPUC_INT when graphical */
    int nmaps;                            /* kernel map outputs besides the result */
    codegen_map maps[CODEGEN_MAX_MAPS];
    char map_names[CODEGEN_MAX_MAPS][KERNEL_NAME_MAX];
    /* Fragment backend (kernel/fragment_run.c): rows of row_width cells, drawn tile_rows at a time into
     * renderbuffers of that size (one per output), made on the first run. */
    bool fragment;
    int row_width, tile_rows;
    GLuint targets[1 + CODEGEN_MAX_MAPS];
    GLint row_width_location, cell_end_location;
    program_entry *cached;                /* the cache's entry: the kernel holds one reference */
    GLuint program;                       /* in use: cached->program, or special->program */
    const char *glsl;                     /* cached->glsl: valid while the kernel holds the reference */
    /* Kernels with loops (kernel_specialise.c): the program compiled for the argument sizes of the last
     * runs, the sizes of the run before, and how the program in use reads each array. */
    bool specialisable;
    program_entry *special;
    GLint special_sizes[GPUC_MAX_ARGS][3], last_sizes[GPUC_MAX_ARGS][3];
    bool last_sizes_valid;
    bool special_scalar[GPUC_MAX_ARGS];
    bool scalar_view[GPUC_MAX_ARGS];      /* array i is read through a one-component view */
    GLint first_cell_location, cell_count_location;
    GLint output_size_location, grid_location; /* set at each run; -1 when the sizes are compiled in */
    GLint param_location[GPUC_MAX_ARGS];  /* scalars: the uniform; arrays: their size uniform */
    int image_unit[GPUC_MAX_ARGS];        /* arrays: the image unit (buffer_reads: storage binding) they use */
    bool buffer_reads;                    /* arrays are read from storage buffers (the hardware profile) */
    gpuc_array *upload[GPUC_MAX_ARGS];    /* reused device copies of host-array arguments */
    GLuint constant_buffers[GPUC_MAX_ARRAY_CONSTANTS]; /* array constants' values (constant_arrays.c) */
    int nconstant_buffers;
    int cells_per_invocation;             /* steps per invocation (see compute_main.glsl, kernel.c) */
    int lane_cells;                       /* > 0: neighbouring cells per step, stored as texels (main_texels) */
    /* The lane_cells cells of a step are one call of the jammed body (source/kernel_jam.h), their
     * counted loops fused; else why the jam was refused (NULL where it was never tried). */
    bool jammed;
    const char *jam_refused;
    /* Array i's reads in the jammed body are partly a texel at a time (gpuc_texel_<name>; the program
     * specialised to its sizes keeps its rgba view where its rows are whole texels: kernel_specialise.c). */
    bool texel_reads[GPUC_MAX_ARGS];
    bool window_reads[GPUC_MAX_ARGS]; /* some of them a window of texels at an offset (gpuc_kernel_describe) */
    size_t cells_per_dispatch;            /* grid cells; a multiple of 1024 (keeps range offsets aligned) */
    /* llvmpipe's loop budget (kernel_loops.c): whether the loops are guarded at run time, and how
     * messages name each loop of the source (loop i reports id i + 1). */
    bool loop_guard;
    int64_t loop_most;                    /* iterations of one cell's loops, at most, or LOOP_UNBOUNDED */
    int nloops;
    char (*loop_names)[160];
    /* JavaScript kernels: loops capped at loopMaxIterations (each cell that reached a cap raises the
     * loop-status block's gpuc_loop_capped count), and whether Math runs in double precision. */
    int loop_caps;
    bool precise_math;
    kernel_profile profile;               /* gpuc_get_kernel_stats (kernel/profile.c) */
    /* Small calls of a default-threads context (kernel/small_calls.c): whether and how far this kernel
     * is on its way to a twin in the context's calling-thread twin, the twin kernel (owned here) and
     * the twin's array it runs into, and the runs it took. */
    int small_state;
    unsigned small_runs;
    struct gpuc_kernel *twin;
    gpuc_array *twin_result;
    uint64_t twin_runs;
    gpuc_child child;                     /* how its context destroys it */
};

/* Where the loops of a kernel gpuc generated come from in the user's own source (the JavaScript
 * front end passes this): the loop whose keyword is at glsl_offset in the GLSL was written at line,
 * column of the kernel source, or of the source `function` names ("added function 'f'") if not NULL. */
typedef struct kernel_loop_origin {
    size_t glsl_offset;
    int line, column;
    const char *function;
} kernel_loop_origin;

typedef struct kernel_origin {
    const char *language; /* "JavaScript" */
    const kernel_loop_origin *loops;
    int nloops;
    bool any_rank_arrays; /* every array parameter takes arrays of any rank (kernel_param.any_rank) */
    /* The parameters as the user wrote them (messages name them so), nparam_names of them, or NULL. */
    char (*param_names)[KERNEL_NAME_MAX];
    int nparam_names;
    int capped_loops;     /* loops capped at loopMaxIterations that call gpuc_js_capped (loop_cap section) */
    bool precise_math;    /* Math runs in double precision (gpuc_kernel_desc.precise_math) */
    const bool *exact_rank; /* NULL, or per parameter: this one takes its own rank only (JavaScript's .length) */
} kernel_origin;

/* A kernel description's sizes as kernel_check_sizes found them: checked once, here, where they are
 * owned, and passed on (the JavaScript front end translates with them, creation keeps them). */
typedef struct kernel_sizes {
    gpuc_dims output;
    size_t cells;
    gpuc_dims grid; /* the invocations: a scatter kernel's .threads, else the output */
    size_t grid_cells;
} kernel_sizes;

/* Checks desc's sizes into *sizes: .threads only for a scatter kernel, the output and the grid each a
 * size the device's arrays can have (gpuc_dims_check); fails with the message naming which. */
gpuc_status kernel_check_sizes(gpuc *gpu, const gpuc_kernel_desc *desc, kernel_sizes *sizes);

/* gpuc_create_kernel after its checks (the context entered, nothing NULL, desc's sizes checked into
 * sizes), with the origin of generated source (NULL for the user's own GLSL). GLSL the JavaScript
 * front end wrote skips the nesting check: the limit was applied to the JavaScript (the GLSL it
 * writes is fully parenthesised, so deeper). */
gpuc_status kernel_create(gpuc *gpu, const char *source, const gpuc_kernel_desc *desc, const kernel_sizes *sizes,
                          const kernel_origin *origin, gpuc_kernel **out);

/* The kernel a child of its context is, or NULL for any other child (an array). */
gpuc_kernel *kernel_of_child(gpuc_child *child);

/* The kernel behind a caller's handle, for `call` (gpuc_handle_body). */
static inline gpuc_status kernel_open(const gpuc_kernel *handle, const char *call, gpuc_kernel **k)
{
    gpuc_status st = GPUC_OK;
    *k = (gpuc_kernel *)gpuc_handle_body(handle, GPUC_TAG_KERNEL, call, &st);
    return st;
}

/* kernel_open, then gpuc_enter on the kernel's context: the start of a call that touches GL. */
static inline gpuc_status kernel_enter(const gpuc_kernel *handle, const char *call, gpuc_kernel **k)
{
    gpuc_status st = kernel_open(handle, call, k);
    return st != GPUC_OK ? st : gpuc_enter((*k)->gpu);
}

/* Whether k's program writes the context's loop-status block (its loops guarded, or capped). */
static inline bool kernel_loop_status(const gpuc_kernel *k)
{
    return k->loop_guard || k->loop_caps > 0;
}

/* Jammed though the grid's rows (a 1D grid: the grid) do not split into whole groups of lane_cells:
 * a step that crosses a row's end or the range's computes its cells one by one (kernel.c's jam_cells;
 * compute_main.glsl's jam_cells_tails). */
static inline bool kernel_jam_tails(const gpuc_kernel *k)
{
    return k->jammed && k->lane_cells > 0 && k->grid.x % (uint32_t)k->lane_cells != 0;
}

/* Cells one step of an invocation computes: lane_cells for a kernel storing texels, else one. */
static inline size_t kernel_step_cells(const gpuc_kernel *k)
{
    return k->lane_cells > 0 ? (size_t)k->lane_cells : 1;
}

/* Whether an output of `size` (`cells` cells) fits the arrays its run makes, the result's and each map
 * output's (every output is an array a later kernel may read, so the device's texture-buffer limit
 * bounds it on both backends: the fragment backend's render target bounds only a tile). `what` starts
 * the message ("kernel 'k'"); the failure names the output and the limit. */
gpuc_status kernel_output_fits(gpuc_kernel *k, gpuc_dims size, size_t cells, const char *what);

/* Fragment backend: chooses k->row_width and k->tile_rows for the output (kernel creation). */
void fragment_layout(gpuc_kernel *k);

/* Fragment backend: draws the kernel (program and arguments bound) into dsts[0] (the result) and
 * dsts[1..nmaps] (map outputs), tile by tile, copying each tile into the arrays on the device. */
gpuc_status fragment_draw(gpuc_kernel *k, gpuc_array *const *dsts);

/* Releases the kernel's render targets. */
void fragment_targets_free(gpuc_kernel *k);

#endif
