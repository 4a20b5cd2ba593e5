/* codegen.h - assembles the GLSL compute program of a kernel from glsl/'s sections and the user's
 * (rewritten) source. The program has three source strings, told apart by `#line L S`:
 * S = 1 gpuc's declarations, S = 0 the user's source (line numbers are the user's), S = 2 main().
 * gpuc's two parts also number their lines from far above any user line (CODEGEN_*_LINE), because
 * Mesa reports some errors (calls, initialisers) with source string 0 whatever the `#line` said. */
#ifndef GPUC_CODEGEN_H
#define GPUC_CODEGEN_H

#include "kernel/source/kernel_types.h"
#include "kernel/source/source_scan.h"
#include "util/strbuf.h"

/* The storage binding of the loop-status word guarded kernels write (after the result and map outputs). */
#define CODEGEN_LOOP_STATUS_BINDING (1 + GPUC_MAX_MAP_OUTPUTS)

/* Source-string numbers in the generated program. */
enum { SOURCE_USER = 0, SOURCE_DECLARATIONS = 1, SOURCE_MAIN = 2 };

/* Line L of gpuc's declarations is numbered CODEGEN_DECLARATIONS_LINE + L, of main() CODEGEN_MAIN_LINE + L
 * (a kernel source of a million lines would blur them; none is that long). */
#define CODEGEN_DECLARATIONS_LINE 1000000
#define CODEGEN_MAIN_LINE 2000000

/* The part of the program a reported (source, line) lies in, by the line first: SOURCE_USER,
 * SOURCE_DECLARATIONS or SOURCE_MAIN. Sets *part_line to the line within that part. */
int codegen_part_of(int source, int line, int *part_line);

/* Copies the line of the generated program `glsl` that the compiler numbers `line` (as `#line` set it)
 * into out, without its newline and leading spaces; "" when there is none. */
void codegen_generated_line(const char *glsl, int line, char *out, size_t outlen);

/* What shapes the program besides the user's source. */
typedef struct codegen_shape {
    gpuc_dims output; /* the output size (outputSize) */
    gpuc_dims grid;   /* the invocations (thread's range): the output, or a scatter kernel's .threads */
    bool scatter;     /* the kernel chooses its output cell through outputIndex */
    int cells_per_invocation;
    /* > 0: main() is main_texels (codegen_texels.c), each step computing this many neighbouring cells
     * and storing whole texels; 0: one cell per step, stored as it is (kernels with loops, scatter). */
    int lane_cells;
    bool store_pairs; /* main_texels stores a texel as two 64-bit words (struct gpuc's store_pairs) */
    /* outputSize and the grid are uniforms set at each run (kernel_sizes_uniform), not constants:
     * then the program does not depend on the sizes, and kernels of every size share it. */
    bool sizes_uniform;
    bool fragment;    /* a fragment shader (fragment backend) instead of a compute shader */
    bool graphical;   /* a void kernel calling color(); its cells are RGBA8 pixels packed in ints */
    int nmaps;
    const codegen_map *maps;
    bool loop_guard;  /* the source's loops are guarded (loop_guard.h): declare what they call, report cuts */
    bool loop_caps;   /* the source calls gpuc_js_capped (capped JavaScript loops): count the cells it flags */
    int local_size;   /* compute: invocations per work group (device_profile.local_size) */
    bool buffer_reads; /* arrays are read from storage buffers, not image views (device_profile.image_reads) */
    /* With lane_cells: the jammed body (kernel/source/kernel_jam.h) computing a step's cells in one
     * call, placed before main(); NULL: main_texels calls the kernel once per cell. */
    const char *jam_function;
    /* With jam_function: the grid's rows (a 1D grid: the grid) do not split into whole steps, so a step
     * that crosses a row's end or the range's computes its cells one by one (jam_cells_tails). */
    bool jam_tails;
    /* Per parameter (may be NULL): the jammed body reads array i a texel at a time too, through
     * gpuc_texel_<name> (array_access.glsl's texel_read sections). */
    const bool *texel_reads;
} codegen_shape;

/* The first binding of the array arguments: image unit 0 for image reads; with buffer reads the
 * storage binding after the outputs (and the loop-status block, when the program writes it) on compute, 0 on
 * fragment (whose outputs are render targets). Array argument j is bound at first + j. */
int codegen_first_input_binding(bool buffer_reads, bool fragment, bool loop_status, int nmaps);

/* The compute_main.glsl section that turns a flat cell into `thread` for a grid of this shape. */
const char *codegen_thread_section(gpuc_dims grid);

/* The GLSL name of a cell type. */
const char *codegen_glsl_type(gpuc_type t);

/* The GLSL type of a 16-byte texel holding values of type t (main_texels' stores, the jam's texel
 * reads): ivec4 for int, vec4 for every float type. */
const char *codegen_texel_type(gpuc_type t);

/* Cells a step of main_texels computes: the fewest whose values fill whole 16-byte texels of every
 * output (4 for float, int and vec3 cells, 2 for vec2, 1 for vec4; the most any output needs). */
int codegen_lane_cells(gpuc_type result, const codegen_map *maps, int nmaps);

/* Appends main_texels for the kernel (shape.lane_cells > 0; the compute backend). */
bool codegen_texel_main(strbuf *sb, const kernel_signature *sig, codegen_shape shape);

/* The fixed vertex shader the fragment backend draws with. */
const char *codegen_vertex_shader(void);

/* The GLSL text (caller frees), or NULL when out of memory. */
char *codegen_program(const kernel_signature *sig, const char *user_source, codegen_shape shape,
                      const resolved_constant *constants, int nconstants);

#endif
