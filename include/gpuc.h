/*
 * gpuc.h - GPU.js semantics in C, on headless OpenGL 4.3 compute.
 *
 * A kernel computes ONE output cell from `thread.x/y/z`, as a GPU.js kernel does. You give it an output
 * size and constants, and call it over arrays. gpuc runs it headless through EGL: on a GPU when the
 * machine has one, on Mesa llvmpipe (the CPU) when it does not.
 *
 *     gpuc *gpu;
 *     if (gpuc_open(&gpu, NULL) != GPUC_OK) { fprintf(stderr, "%s\n", gpuc_errmsg(gpu)); ... }
 *     gpuc_kernel *k;
 *     gpuc_create_kernel(gpu, "float twice(float a[]) { return 2.0 * a[thread.x]; }",
 *                        &(gpuc_kernel_desc){ .output = {1024} }, &k);
 *     gpuc_array *out;
 *     gpuc_run(k, (gpuc_arg[]){ gpuc_arg_host_f32(data, (gpuc_dims){1024}) }, 1, &out);
 *     gpuc_array_read_f32(out, result, 1024);
 *     gpuc_array_free(out); gpuc_kernel_free(k); gpuc_close(gpu);
 *
 * CONTENTS. Each section's title line ends in its tag: `grep -n '\[SEC:' gpuc.h` lists them all, and
 * `grep -n 'SEC:arrays' gpuc.h` finds one. The contract, in words:
 *   [SEC:contract]     THE KERNEL CONTRACT, THE INDEX RULE: what a kernel is and how it reads arrays
 *   [SEC:loops]        LOOPS AND LLVMPIPE'S LOOP BUDGET: loops refused, guarded or proven
 *   [SEC:errors]       ERRORS: a status from every call, the message kept per context
 *   [SEC:mpi]          ACROSS MPI RANKS: gpuc_mpi.h
 *   [SEC:descriptors]  DESCRIPTOR STRUCTS: zero is the default; initialisers in C and C++
 *   [SEC:threads]      THREADS: one thread at a time per context; frees from any thread
 *   [SEC:handles]      HANDLES: freed, misused and foreign kernels and arrays
 *   [SEC:fork]         TESTING WITH CHECK, AND fork(): a context cannot cross fork()
 * The declarations:
 *   [SEC:basics]       the version, GPUC_MAX_* limits, gpuc_status, the handles, gpuc_dims, gpuc_type
 *   [SEC:context]      backends, device profiles, gpuc_options, gpuc_open / close, gpuc_info, gpuc_stats
 *   [SEC:arrays]       device arrays: new, from and to host data, clone, clear, from a PNG file, shape
 *   [SEC:kernels]      kernel map outputs and constants (numbers, Booleans, arrays)
 *   [SEC:kernel-desc]  gpuc_kernel_desc (each field's default: every kernel / JavaScript only),
 *                      gpuc_create_kernel, gpuc_kernel_free, the kernel's signature, output, maps, GLSL
 *   [SEC:profile]      gpuc_kernel_stats, GPUC_TRACE, gpuc_kernel_describe, gpuc_print_profile
 *   [SEC:runs]         gpuc_arg and its helpers; gpuc_run, gpuc_run_to, gpuc_run_map
 *   [SEC:pictures]     graphical kernels' results as RGBA8 pixels and PNG files
 *   [SEC:js]           JavaScript kernels: from source or a file, kernel maps, added functions
 *   [SEC:algorithms]   the algorithms' KEPT KERNELS; then
 *   [SEC:topk]         top-k (ORDER, INPUT, RESULTS), gpuc_topk_cutoff, gpuc_rank
 *   [SEC:sort]         gpuc_sort, gpuc_argsort, gpuc_sort_pairs
 *   [SEC:scan]         gpuc_scan and gpuc_compact
 */
#ifndef GPUC_H
#define GPUC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* FILE, for gpuc_print_profile */

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the functions a shared libgpuc exports (everything else in it is hidden). */
#if defined(__GNUC__)
#define GPUC_API __attribute__((visibility("default")))
#else
#define GPUC_API
#endif

/* ---------------------------------------------------------------------------------------------- */
/* THE KERNEL CONTRACT                                                             [SEC:contract] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * A kernel is GLSL (4.30) source whose LAST function is the kernel; functions before it are helpers.
 * Its parameters name the arguments:
 *   - `float a[]`, `int a[]`, `vecN a[]` (1D), `float a[][]`, `vecN a[][]`... (2D, read as a[y][x]),
 *     `float a[][][]`, `vecN a[][][]`... (3D, a[z][y][x]): arrays of float, int or vec2-vec4 cells (a
 *     vecN cell's components are `a[y][x][c]` or `a[y][x].x`). They are read-only (a write such as
 *     `a[i] = x`, `a[i]++` or `a[i]` as an out argument is refused at creation, GPUC_ERROR_COMPILE) and
 *     live in device buffers; gpuc reads them through the fastest binding it has (an image view of the
 *     buffer on a software rasteriser, the buffer itself as a storage buffer on hardware: see
 *     gpuc_device_profile), so inside the kernel `a[i]` is the only way to use them (no a.length, no
 *     passing `a` to a helper).
 *     THE INDEX RULE is GPU.js's: a read is of the flat cell its indices name in the argument's own
 *     shape, a[y][x] = cell y * width + x and a[z][y][x] = cell (z * height + y) * width + x, so an x
 *     past the end of a row reads on into the next row (as GPU.js does); only a flat index outside the
 *     whole array (negative, or past the last cell) reads 0. Fewer indices than the rank read the flat
 *     cell too (a[i] of a 2D array is cell i, as in GPU.js). The flat index is computed in 32-bit int
 *     arithmetic: indices so far out that it overflows (y * width past 2^31) wrap. No read ever leaves
 *     the array's own buffer.
 *     Host data (gpuc_arg_host_f32) for a vecN parameter holds N floats per cell, its dims counting
 *     cells; the one exception is `vec4 a[]`, which also takes a 1D float array (device or host, dims
 *     counting floats) and reads it four values per cell (cell i is values 4i..4i+3, zeros past the
 *     end): the fastest way to stream floats.
 *   - `float t`, `int n`: scalars; `bool flag`: a Boolean (gpuc_arg_bool; GPU.js's "Boolean");
 *     `vec2 v`, `vec3 v`, `vec4 v`: one vector (gpuc_arg_vec4...; GPU.js's Array(2..4) arguments). They
 *     become uniforms: a new value never recompiles.
 * Predeclared: `ivec3 thread` (the cell being computed), `const ivec3 outputSize` (the output size,
 * 1 in unused dimensions; GLSL reserves `output`; a uniform with .dynamic_output), and
 * `constants.<name>` for each constant (numbers and Booleans compiled in, as GPU.js does; an array
 * constant read as constants.<name>[i], [y][x] or [z][y][x]: see gpuc_constant). The return type (float, int, vec2, vec3, vec4) is the type of an output cell.
 * The preprocessor: `#define` works anywhere. gpuc finds the kernel and its helpers before the driver's
 * preprocessor runs, so it honours `#if 0`, `#if 1`, `#elif 0|1` and `#else` itself (a function in a
 * dropped branch does not exist); other conditionals (`#ifdef`, `#if EXPR`) may surround statements and
 * #defines, but a function defined inside one is refused (GPUC_ERROR_COMPILE, naming both lines).
 */

/* ---------------------------------------------------------------------------------------------- */
/* LOOPS AND LLVMPIPE'S LOOP BUDGET                                                   [SEC:loops] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * llvmpipe (gpuc_info.loop_budget = 65,535; 0 on hardware drivers and under the hardware device
 * profile) silently stops all the loops of one invocation after that many iterations in total,
 * counting every loop (for, while, do-while, in helpers too) and every enclosing loop's iterations;
 * a loop whose test is checked first spends one more on the test that ends it. gpuc never returns such a cut result:
 *   - A kernel whose loops must run past the budget is refused at creation (GPUC_ERROR_LIMIT, naming
 *     the loop's line and column: in a JavaScript kernel, its JavaScript line and column).
 *   - A kernel whose loops may run past it (a bound given at run time, a while loop, a break) is
 *     guarded: each loop notes how it ended, and a run in which llvmpipe cut a loop short fails with
 *     GPUC_ERROR_LIMIT naming the kernel and the loop. gpuc_run and gpuc_run_map then return no
 *     result; the dst of gpuc_run_to (and every map output) is marked unusable: reading it or passing
 *     it to a kernel fails with GPUC_ERROR_LIMIT until it is written or run into again. This holds
 *     for .pipeline runs too: the check follows each run of a guarded kernel. A guarded loop costs a
 *     few instructions per iteration (1.06-1.21x on tight loops; README "Limits").
 *   - A kernel whose loops are bounded under the budget pays nothing. Bounds gpuc counts: `for (int
 *     i = A; i < B; i++)` and its variants (<=, >, >=, !=, steps += / -= a constant, uint counters)
 *     whose A, B and step are numbers, constants.<name>, global `const int` values or `#define`d
 *     numbers, the counter only read elsewhere; a test `i < B && more` bounds a loop from above.
 *     Loops in helpers count where they are called, nested loops multiply. A count is proven or the
 *     loop is guarded: every other use of the counter must be one gpuc knows to be a read (an
 *     operand, an index, an `in` argument of a constructor, a built-in or a helper); an assignment of
 *     any form, ++/--, an out/inout argument (frexp, modf, uaddCarry...), a call gpuc does not know
 *     or a comma expression around it counts as a write. Nothing is counted in a source that uses a
 *     macro other than a plain number (`#define N 64`) in its code, or has a conditional other than
 *     `#if 0` / `#if 1`. Continued lines (a backslash before the line break) are joined first, as the
 *     compiler joins them. gpuc_options.guard_all_loops guards every loop, counted or not.
 * Loops may nest at most 12 deep (helpers' loops counted at their calls; GPUC_ERROR_LIMIT beyond),
 * because Mesa's compiler doubles its time with every level. A `#define` whose body holds a loop or
 * `break` is refused where there is a budget (gpuc must see every loop to guard it).
 */

/* ---------------------------------------------------------------------------------------------- */
/* ERRORS                                                                            [SEC:errors] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * Every call that can fail returns a gpuc_status; the message behind the last failure is kept
 * per context (gpuc_errmsg) and names the kernel, the argument and the limit involved. A failed call
 * changes nothing it was given: outputs are set only on success.
 */

/* ---------------------------------------------------------------------------------------------- */
/* ACROSS MPI RANKS                                                                     [SEC:mpi] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * gpuc_mpi.h (the optional libgpuc_mpi, pkg-config gpuc-mpi) runs top-k, sort, compaction and scan
 * over data spread across MPI ranks, each rank on its own context.
 */

/* ---------------------------------------------------------------------------------------------- */
/* DESCRIPTOR STRUCTS                                                           [SEC:descriptors] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * Zero means "the default" everywhere, so initialise only what you need. Designated
 * initialisers do not warn under -Wextra: `(gpuc_dims){.x = n}`, `{.name = "chunk", .value = 256}`; the
 * short positional forms `(gpuc_dims){n}`, `{"chunk", 256}` mean the same but need
 * -Wno-missing-field-initializers there. In C++ (this header compiles as C++11 and later) start from
 * `gpuc_kernel_desc desc = {};` and assign fields, or spell every field: `gpuc_dims d = {n, 0, 0};`.
 */

/* ---------------------------------------------------------------------------------------------- */
/* THREADS                                                                          [SEC:threads] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * A context serves one thread at a time: the first call on a thread makes the context current
 * there, and it stays current on that thread (it is "held") until gpuc_detach or gpuc_close. A call on
 * another thread while one thread holds it fails with GPUC_ERROR_NO_DEVICE. Several contexts may live
 * in one process and thread: each call makes its own context current. gpuc_array_free and
 * gpuc_kernel_free are the exception: they may be called on any thread. Where the context cannot be
 * made current (another thread holds it) the object is queued and destroyed at the context's next
 * call on the thread that holds it, or at gpuc_close (gpuc_stats.frees_pending counts the queue); GL
 * is never called on another context. A thread that exits while holding a context leaves it current
 * to a dead thread, and EGL (Mesa) then never lets any thread make it current again: the context can
 * still be closed, which frees gpuc's host memory, but the driver's objects of that context (buffers,
 * programs) stay allocated until the process ends. Call gpuc_detach (or gpuc_close) on a thread
 * before it exits if another thread is to go on with its context.
 * A default context's small call (gpuc_options.threads, SMALL CALLS) leaves the context's
 * calling-thread twin current on the thread in its place: the context stays held by that thread,
 * also while the thread works with other contexts, until a call there that needs the context itself
 * (one that is not small), gpuc_detach or gpuc_close; meanwhile calls on other threads fail and
 * frees there are queued, as above.
 */

/* ---------------------------------------------------------------------------------------------- */
/* HANDLES                                                                          [SEC:handles] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * A gpuc_kernel or gpuc_array handle stays valid memory until its context closes, also after it
 * was freed: a freed handle keeps 24 bytes (32 with malloc's own; the kernel or array behind it is
 * released at once), and is never handed out again while its context is open. So, as SQLite's
 * SQLITE_MISUSE, a kernel or array freed twice, or used after it was freed, is refused instead of
 * reading freed memory: every function taking one fails with GPUC_ERROR_MISUSE and a message naming the
 * call ("gpuc_run: this kernel was freed ..."), the functions returning a value return none (0,
 * GPUC_TYPE_NONE, NULL, "") and gpuc_*_free do nothing, each leaving that message on the handle's
 * context. A kernel or array of one context passed to another's call fails with
 * GPUC_ERROR_INVALID_ARGUMENT. What stays undefined: any handle after gpuc_close of its context (the
 * context, its kernels and arrays, freed or not, are all released: do not use or free them again), a
 * pointer gpuc never handed out, and one handle freed or used on two threads at once.
 */

/* ---------------------------------------------------------------------------------------------- */
/* TESTING WITH CHECK, AND fork()                                                      [SEC:fork] */
/* ---------------------------------------------------------------------------------------------- */
/*
 * A context cannot cross fork(): the child gets a copy of Mesa's display without the worker threads
 * that serve it, and any GL call there would wait for ever. Check runs each test in a forked child
 * (CK_FORK, its default), so a context opened in main and used in the tests is
 * this case. gpuc refuses it at once instead of hanging: in a fork()ed child, every call that would
 * touch GL or EGL through a context opened in the parent (or its kernels and arrays) fails with
 * GPUC_ERROR_MISUSE, naming both processes and what to do (queries answered from host memory, such as
 * gpuc_get_info or gpuc_array_dims, still answer); gpuc_*_free and gpuc_close of them free only the
 * child's copy of gpuc's host memory (the parent's context is untouched); and gpuc_open fails with
 * GPUC_ERROR_NO_DEVICE while the parent had a context open at the fork (a fresh one would hang the same
 * way; once the parent closed all its contexts before forking, the child may open its own). What works:
 * open the context in a checked fixture (tcase_add_checked_fixture: it runs inside each forked test) and
 * none in main, or run the tests in one process (CK_FORK=no, or srunner_set_fork_status(sr, CK_NOFORK)).
 * The same holds for any program that forks. gpuc_check.h (installed beside this header) has that
 * fixture ready, with status assertions and float comparisons for Check suites of your kernels.
 */

/* ---------------------------------------------------------------------------------------------- */
/* Basics: the version, limits, statuses, handles, sizes and types                   [SEC:basics] */
/* ---------------------------------------------------------------------------------------------- */

/* The version of gpuc.h a program is compiled against (the Makefile reads these three lines).
 * GPUC_VERSION is the same as one int, major * 10000 + minor * 100 + patch (0.2.0 is 200), for
 * `#if GPUC_VERSION >= ...`. The ABI (README.md, "ABI policy") holds within a soname: before 1.0 that
 * is one major.minor (libgpuc.so.0.2: every 0.2.x), from 1.0 on one major. */
#define GPUC_VERSION_MAJOR 0
#define GPUC_VERSION_MINOR 2
#define GPUC_VERSION_PATCH 0
#define GPUC_VERSION (GPUC_VERSION_MAJOR * 10000 + GPUC_VERSION_MINOR * 100 + GPUC_VERSION_PATCH)

/* The version of the library loaded at run time, which differs from the macros above when a program
 * runs against another libgpuc.so than the one it was built with (the same soname: the same ABI, a
 * patch release of it). gpuc_version() is the int form (major * 10000 + minor * 100 + patch, like
 * GPUC_VERSION); gpuc_version_string() is "major.minor.patch" ("0.2.0"), static, never NULL. Neither
 * needs a context. */
GPUC_API int gpuc_version(void);
GPUC_API const char *gpuc_version_string(void);

/* Most constants a kernel may declare. */
#define GPUC_MAX_CONSTANTS 32
/* Most arguments a kernel may take, GLSL or JavaScript (it was 16; no public struct holds an array
 * of this size, so raising it changed no layout). The device bounds them further, each bound checked at
 * creation (GPUC_ERROR_LIMIT naming the kernel, the count, the GL limit and its value): array arguments
 * by its image units (gpuc_info.max_image_units: GL_MAX_COMPUTE_IMAGE_UNIFORMS, on the fragment backend
 * GL_MAX_FRAGMENT_IMAGE_UNIFORMS too; 32 on llvmpipe), or under the hardware profile by its storage
 * buffers, where an array must also fit one binding, gpuc_info.max_storage_block_size, or the run fails
 * with GPUC_ERROR_LIMIT; scalars, vectors and arrays' sizes are uniforms, bounded by the stage's
 * GL_MAX_*_UNIFORM_COMPONENTS (counted as 4 components each; every GL 4.3 device holds 64). */
#define GPUC_MAX_ARGS 64
/* Deepest nesting a kernel's source may have, GLSL or JavaScript. One level is each bracket `(` `[` `{`
 * inside another, each if / else / for / while / do body (a braced body counts once), each prefix
 * operator applied to another (`- -x`), each right operand of `=`, `+=`, ... and `? :` (JavaScript's
 * `**` too); the kernel's own body is the first level. Deeper sources are refused at creation with
 * GPUC_ERROR_COMPILE naming the line and column:
 * gpuc's source readers and the drivers' compilers recurse over the nesting, and a source ten thousand
 * levels deep would overflow their stack. No kernel written by hand comes near it. JavaScript helpers
 * called inside one another add up, since the front end follows each call into its helper: at most
 * 4 * GPUC_MAX_NESTING statements and operators along a chain of calls. */
#define GPUC_MAX_NESTING 256
/* Most named sub-outputs of a kernel map (GPU.js's createKernelMap), besides its result. */
#define GPUC_MAX_MAP_OUTPUTS 7

typedef enum gpuc_status {
    GPUC_OK = 0,
    GPUC_ERROR_INVALID_ARGUMENT, /* NULL, zero or out-of-range input, a handle of another context */
    GPUC_ERROR_TYPE_MISMATCH,    /* an argument's type or shape differs from the kernel's parameter */
    GPUC_ERROR_COMPILE,          /* the kernel source does not parse or compile */
    GPUC_ERROR_LIMIT,            /* a device or library limit would be exceeded */
    GPUC_ERROR_OUT_OF_MEMORY,    /* host or device memory ran out */
    GPUC_ERROR_NO_DEVICE,        /* no EGL display / OpenGL 4.3 context could be made (also: fork(), below) */
    GPUC_ERROR_GL,               /* the driver reported an error */
    GPUC_ERROR_MISUSE            /* a freed kernel or array, or a context used in a fork()ed child (HANDLES) */
} gpuc_status;

/* A fixed English name for a status ("GPUC_ERROR_LIMIT"...); never NULL. */
GPUC_API const char *gpuc_status_name(gpuc_status status);

/* Opaque handles. */
typedef struct gpuc gpuc;               /* a headless GL context and everything made in it */
typedef struct gpuc_kernel gpuc_kernel; /* a compiled kernel (GPU.js's createKernel result) */
typedef struct gpuc_array gpuc_array;   /* an array in device memory (GPU.js's Texture) */

/* Sizes. x is the fastest-varying dimension. Zero in y (and z) means that dimension is absent:
 * {n} is 1D, {w, h} is 2D (h rows of w), {w, h, d} is 3D. x must be at least 1. */
typedef struct gpuc_dims {
    uint32_t x, y, z;
} gpuc_dims;

/* Cell types of arrays and kernel results. vecN cells are N float32 components. */
typedef enum gpuc_type {
    GPUC_TYPE_NONE = 0,
    GPUC_FLOAT,
    GPUC_INT,
    GPUC_VEC2,
    GPUC_VEC3,
    GPUC_VEC4,
    /* Boolean constants (gpuc_constant.type; GPU.js's `constants: {flag: true}`) and scalar parameters
     * (`bool flag`, GPU.js's "Boolean" argument: gpuc_arg_bool): no array or result has this type. */
    GPUC_BOOL
} gpuc_type;

/* ---------------------------------------------------------------------------------------------- */
/* Context                                                                          [SEC:context] */
/* ---------------------------------------------------------------------------------------------- */

/* How kernels run. Both give the same answers; see README for when each is faster. */
typedef enum gpuc_backend {
    GPUC_BACKEND_DEFAULT = 0, /* the environment variable GPUC_BACKEND, else compute */
    /* Compute shaders writing storage buffers (the default): every kernel kind, scatter included. */
    GPUC_BACKEND_COMPUTE,
    /* GPU.js's own model: each kernel is a fragment shader drawn over a float render target (R32F,
     * RG32F, RGBA32F; R32I for int results) whose pixels are the output cells, copied into the result
     * array on the device. Outputs larger than one target are drawn in tiles of rows. Gather only:
     * scatter kernels fail with GPUC_ERROR_INVALID_ARGUMENT.
     * Denormals (float32 magnitudes below 1.2e-38): llvmpipe runs fragment shaders with denormals
     * flushed to zero, so in a kernel on this backend a denormal operand of arithmetic (+ - * /, min,
     * max, ...) counts as a zero of its sign and a denormal result becomes one; comparisons (<, ==, ...)
     * see a denormal as zero (1e-40 > 0.0 is false, 1e-40 == 0.0 true). Moving a value unchanged
     * (reading, returning, storing it), negation, abs(), floatBitsToInt / intBitsToFloat and isnan()
     * keep every bit; compare floatBitsToInt keys where denormals matter. NaN compares as on compute
     * (false, except !=). On compute every float32 is a value. gpuc's own algorithms (sort, top-k,
     * compaction, scan of ints) compare bit keys and give the same answers on both backends. */
    GPUC_BACKEND_FRAGMENT
} gpuc_backend;

/* The kernel layer's choices that depend on what the driver is. The GL-standard way (HARDWARE) reads
 * arrays from storage buffers, computes one cell per invocation, stores each cell as it is, runs work
 * groups of 256 and has no loop budget: loops run as written, GPU.js's loopMaxIterations still caps
 * loops whose bound is not a constant. A software rasteriser (SOFTWARE: llvmpipe, softpipe, zink on
 * lavapipe) gets what measured fastest on llvmpipe instead: arrays read through buffer-texture image
 * views (an SSBO load is a scalar loop over the SIMD lanes there), up to 8 steps per invocation of
 * loop-free kernels and 16 of kernels with counted loops, neighbouring cells stored as whole 16-byte
 * texels (two 64-bit words where GL_ARB_gpu_shader_int64 is offered), kernels with counted loops
 * computing up to 8 neighbouring cells of a row in one call of their body with its loops fused (rows
 * that do not split into groups of 4 too, from 16 cells: a step that crosses a row's end computes its
 * cells one by one), so that a read the cells share is made once and the cells' reads of neighbouring
 * elements (matmul's b[i][thread.x]; a stencil's img[yy][xx] with xx = thread.x + i - 2, its window
 * loop of a few literal trips unrolled) a 16-byte texel for 4 cells (see gpuc_kernel_describe:
 * "computed by one call of the body with its loops fused", or why not), work groups of 64, and
 * llvmpipe's loop budget guarded
 * (LOOPS AND LLVMPIPE'S LOOP BUDGET). One algorithm's choice follows the profile too: how a scatter
 * compaction writes an exact-length result (GPUC_COMPACT_SCATTER). Both give the same answers. AUTO takes the
 * driver's own (gpuc_info.software); forcing HARDWARE on llvmpipe exists to test that path there. The
 * loop budget is not part of the profile: it follows the driver (gpuc_info.loop_budget), so a forced
 * profile on llvmpipe still refuses or guards loops that llvmpipe would cut. */
typedef enum gpuc_device_profile {
    GPUC_PROFILE_AUTO = 0, /* gpuc_options: the environment variable GPUC_DEVICE_PROFILE, else the driver's */
    GPUC_PROFILE_SOFTWARE,
    GPUC_PROFILE_HARDWARE
} gpuc_device_profile;

typedef struct gpuc_options {
    /* Which device: "auto" (a GPU if there is one, else llvmpipe), "gpu" (a hardware device only),
     * "cpu" or "llvmpipe" (Mesa's software rasterizer), or an EGL device index ("0", "1", ...).
     * NULL means the environment variable GPUC_DEVICE, and "auto" where that is unset. */
    const char *device;
    /* Create a debug context and check every GL call through KHR_debug (also GPUC_DEBUG=1; a library
     * built with `make DEBUG=1` does this in every context unless GPUC_DEBUG=0). A GL error then fails
     * the call that caused it with GPUC_ERROR_GL and the driver's message. Every gpuc context carries
     * gpuc's own KHR_debug callback (debug or not: its user parameter tells gpuc, without an EGL call,
     * that the context is current); a program that sets its own in a gpuc context loses these reports
     * and makes each call ask EGL again (0.16 us more), nothing else. */
    bool debug;
    /* Compute or fragment programs. GPUC_BACKEND_DEFAULT reads GPUC_BACKEND ("compute" or
     * "fragment"; unset or "" means compute); anything else there fails gpuc_open. */
    gpuc_backend backend;
    /* Compiled programs kept while no kernel uses them. A kernel's program is cached by its GLSL text
     * (see gpuc_create_kernel); while a live kernel uses it, it is never deleted. Once every kernel
     * using it has been freed it is "unused": kept, so that creating the same kernel again does not
     * recompile, up to this many unused programs per context; past that the least recently used one
     * is deleted (and compiled again if a kernel asks for it later). Each kept program holds its
     * compiled code (on llvmpipe about 0.1-0.5 MB once it has run). 0 means
     * GPUC_DEFAULT_UNUSED_PROGRAMS; GPUC_NO_UNUSED_PROGRAMS keeps none (a program goes with its last
     * kernel); any other negative value fails gpuc_open with GPUC_ERROR_INVALID_ARGUMENT. */
    int max_unused_programs;
    /* Measure each kernel run's device time with GL timer queries (GL_TIMESTAMP), reported by
     * gpuc_get_kernel_stats. Also on when the environment variable GPUC_PROFILE or GPUC_TRACE is set
     * to anything but "" or "0". Off, a run costs no query; on, a .pipeline run's time is collected
     * at the kernel's next run or stats query (waiting for that run to finish then). GPUC_TRACE=1
     * also prints one line per run on stderr (see gpuc_get_kernel_stats). */
    bool profile;
    /* llvmpipe's worker threads (software devices only; ignored on a GPU). 0: its default, the
     * environment's LP_NUM_THREADS, else one thread per online CPU. GPUC_THREADS_CALLER: none, every
     * dispatch and draw runs in the calling thread. 1 .. GPUC_MAX_THREADS: that many workers.
     * Why: llvmpipe hands every dispatch (one work group too) and every draw to its workers and waits
     * for them: 15-20 us a call on a quiet 2-core machine. Measured (gpuc-bench --row small-calls,
     * 2 cores, quiet; host arrays in, result read back), before the twin below: a brain.js sigmoid
     * layer of 64 cells 22.9 us a call with the default threads and 7.7 us in the calling thread
     * (GPU.js webasm 15.8), its delta 19.3 against 4.5 us (webasm 5.1). Now (2026-12-03, AMD EPYC, 2
     * cores, medians of noisy runs that read about 2x slower than the day before, GPU.js included):
     * the 64-cell delta 2.35 us in a default context (its twin) and 2.40 in the calling thread
     * (webasm 3.6), the 64-cell layer 5.6 and 5.3 (webasm 11.2), one-cell calls 2.5-4.4 in either
     * (webasm 3.4-5.0).
     * Kernels of whole milliseconds run 1.8-2x slower without workers on a quiet machine (matmul 512:
     * 73 against 41 ms). So: GPUC_THREADS_CALLER for a context that runs small kernels, the default for
     * large ones; a program may open one of each (arrays and kernels belong to one context).
     * Limits: llvmpipe reads the count once, when it makes a display's screen, and all contexts on a
     * display share its threads. A non-zero value gives the context a display of its own (shared with
     * other gpuc contexts asking for the same count; the software EGL device's and Mesa's surfaceless
     * platform's: two non-default counts at once); while both are open with other counts, gpuc_open
     * fails with GPUC_ERROR_NO_DEVICE, saying why. gpuc sets LP_NUM_THREADS (and puts it
     * back) around that display's first eglInitialize: do not call setenv/getenv on other threads
     * meanwhile, and an EGL display the program initialised itself keeps its threads. Other values
     * fail gpuc_open with GPUC_ERROR_INVALID_ARGUMENT. gpuc_info.device names a non-default count.
     * SMALL CALLS IN A DEFAULT CONTEXT (0, on llvmpipe's EGL device, either backend): a kernel called with
     * host arrays only (or device arrays whose values the host holds too: HOST COPIES), whose work (output
     * cells times the most iterations one cell's loops run) is at most 131,072, runs from its 4th such call
     * on in a calling-thread twin of the context: a GPUC_THREADS_CALLER context of the same backend gpuc
     * opens beside it on the first need (it takes that count's display, as above; with no threads of its
     * own llvmpipe rasterises a draw in the calling thread too), where the kernel's program is compiled a
     * second time (10-200 ms, once per kernel: hence the 3 calls first). gpuc_run's result is then an array of the
     * context whose values stay in host memory until its first use on the device (reading it reads nothing
     * back; a copy, or a call on the context's path given it, uploads it first), and the twin stays current
     * in the context's place (THREADS: the context stays held by the thread), so that the next small call,
     * the read and the free switch no context: such a call makes no EGL call. A gpuc_run_to dst already on
     * the device is written there (the context current again). Results, errors, gpuc_stats and
     * gpuc_get_kernel_stats counts are the context's own path's; gpuc_kernel_describe ends with "small
     * calls in the calling thread" and the twin's runs. Measured: a 64-cell delta call 19-20 -> 7 us, a
     * 64-cell layer 20-24 -> 11.6 us (loaded machine), then with the twin left current as the
     * calling-thread context's (figures above). A float or int device array with a host copy (HOST COPIES:
     * made or written from host data, or a small call's result, and not written on the device since) goes
     * to the twin as that host data, read as the array's own type; measured (2 cores, median of 401): a
     * delta over two such arrays of 64 / 1,024 / 16,384 cells 11-16 / 21 / 75-79 us -> 2.5 / 5.4 / 49 us, a
     * kernel given the last call's result likewise. A .pipeline kernel too, of at most 16,384 output
     * cells (the twin reads its result back, which the context's path does not: past that the pool
     * wins; the call counts no read-back, as the context's path would): its result is held in host
     * memory as above, and a chain of small .pipeline calls runs in the calling thread; measured (2
     * cores, medians of 501): two chained .pipeline calls over 64 / 1,024 cells 16-17 / 31-42 -> 4.5-7.6
     * / 9.5-14 us, brain.js's layer then delta (`make bench`, small-calls row) 34-43 -> 6-8 us. On the
     * fragment backend (since 2026-12-06; the same row, 2 cores): the one-cell layer and delta 22-28 ->
     * 5.3-6.0 us, the 64-cell delta 24-32 -> 7-12 us, the 1,024-cell layer then delta 153-158 -> 89-97. Kept
     * on the context's path: any other device-array argument (a .pipeline result the context's own path
     * computed, an array such a kernel wrote since, a vecN array), kernel maps, scatter, graphical,
     * dynamic output, array constants, guarded or capped loops, profiling
     * (gpuc_options.profile, GPUC_PROFILE, GPUC_TRACE), and a twin gpuc cannot open (both extra displays
     * held by other counts: then silently). The environment variable GPUC_SMALL_CALLS=pool keeps every call
     * on the pool, and small compactions on the device (gpuc_compact, SMALL INPUTS ON THE HOST) ("twin",
     * the default; anything else fails gpuc_open with GPUC_ERROR_INVALID_ARGUMENT). */
    int threads;
    /* The most pixels (width x height) gpuc_array_from_png accepts from one picture, checked from
     * the file's header before any pixel memory is taken: a PNG of a few hundred KB can claim
     * 11,585 x 11,585 pixels, 2 GiB as a vec4 array. 0 means GPUC_DEFAULT_MAX_IMAGE_PIXELS;
     * GPUC_NO_IMAGE_PIXEL_LIMIT leaves only gpuc's and the device's array limits; any other negative
     * value fails gpuc_open with GPUC_ERROR_INVALID_ARGUMENT. */
    int64_t max_image_pixels;
    /* Guard every loop at run time, also those whose trip counts gpuc proves from the source (which
     * otherwise run unguarded: see gpuc_create_kernel). For checking gpuc itself: a kernel's answer
     * must not depend on it, only its speed (a guard costs up to about 1.2x on a tight loop), and a
     * kernel gpuc refuses at creation because its loops must exceed llvmpipe's budget is instead run
     * and fails with GPUC_ERROR_LIMIT. Also on when the environment variable GPUC_GUARD_ALL_LOOPS is
     * set to anything but "" or "0". */
    bool guard_all_loops;
    /* Which device profile shapes the generated programs (see gpuc_device_profile). GPUC_PROFILE_AUTO
     * reads the environment variable GPUC_DEVICE_PROFILE ("auto", "software" or "hardware"; unset or
     * "" means auto: the driver decides); anything else there fails gpuc_open. */
    gpuc_device_profile device_profile;
} gpuc_options;

/* gpuc_options.threads: llvmpipe works in the calling thread; the most worker threads llvmpipe makes. */
#define GPUC_THREADS_CALLER (-1)
#define GPUC_MAX_THREADS 32

/* gpuc_options.max_unused_programs: the default (for 0), and the value that keeps none. */
#define GPUC_DEFAULT_UNUSED_PROGRAMS 64
#define GPUC_NO_UNUSED_PROGRAMS (-1)
/* gpuc_options.max_image_pixels: the default (for 0: 8192 x 8192, 1 GiB as vec4 floats), and the
 * value that sets no limit of its own. */
#define GPUC_DEFAULT_MAX_IMAGE_PIXELS 67108864
#define GPUC_NO_IMAGE_PIXEL_LIMIT (-1)

/* The hardware GPUs EGL shows on this machine, for choosing one per process (gpuc_mpi_open does): fills
 * indices[0 .. min(count, max)) with their EGL device indices (give "N" as gpuc_options.device) and
 * returns how many there are: 0 where there is none (llvmpipe is not counted) or EGL cannot list
 * devices. indices may be NULL when max is 0. Opens no context. */
GPUC_API int gpuc_list_devices(int *indices, int max);

/* Opens a headless context. opts may be NULL (all defaults).
 * On success *gpu is a usable context. On failure *gpu is still set (unless memory for the handle
 * itself ran out, then NULL): that handle only answers gpuc_errmsg, which says which step failed
 * and what to install, and must be released with gpuc_close. */
GPUC_API gpuc_status gpuc_open(gpuc **gpu, const gpuc_options *opts);

/* Releases the context and everything still made in it (kernels, arrays): their handles, freed or not,
 * are invalid afterwards, so do not use or free them again (HANDLES). NULL is ignored. In a fork()ed
 * child, a context of the parent's is only forgotten: the child's copy of gpuc's host memory is freed,
 * no EGL or GL call is made (TESTING WITH CHECK). Call it on the thread that holds the context,
 * or on any thread once that one called gpuc_detach. Elsewhere (the holder is still running, or it
 * exited without letting go) it frees gpuc's host memory but no GL call can be made: the driver
 * releases the context's objects only when the holding thread lets go of it, never if it exited. */
GPUC_API void gpuc_close(gpuc *gpu);

/* Lets the calling thread go of the context (if it holds it; otherwise does nothing), first
 * destroying what other threads queued for freeing. The next call on any thread takes it. Call it
 * before a thread that used a context exits, when the context is to be used or closed on another
 * thread. GPUC_ERROR_INVALID_ARGUMENT for NULL or a failed context. */
GPUC_API gpuc_status gpuc_detach(gpuc *gpu);

/* The message of the most recent failed call on this context ("" while none has failed); a later
 * success does not clear it. A NULL gpu gives a fixed message. The pointer stays valid until the
 * next failing call or gpuc_close. */
GPUC_API const char *gpuc_errmsg(const gpuc *gpu);

/* What was opened. All strings are owned by the context. */
typedef struct gpuc_info {
    const char *renderer;     /* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" */
    const char *vendor;       /* GL_VENDOR */
    const char *gl_version;   /* GL_VERSION */
    const char *glsl_version; /* GL_SHADING_LANGUAGE_VERSION */
    const char *device;       /* how it was chosen: "gpu", "cpu" (llvmpipe), plus the EGL path */
    int device_index;         /* the EGL device index, or -1 for Mesa's surfaceless platform */
    bool software;            /* true on llvmpipe / any software renderer */
    /* Limits that shape kernels. */
    int max_work_group_count[3];
    int max_work_group_size[3];
    int max_work_group_invocations;
    int64_t max_storage_block_size;  /* bytes one output binding may span */
    int64_t max_texture_buffer_size; /* texels (4 components each) one array, input or output, may span */
    int max_shared_memory;           /* bytes */
    int max_image_units;             /* compute image uniforms: bound the array arguments (software profile) */
    /* Iterations one invocation may loop in total before the driver silently stops its loops
     * (65,535 on llvmpipe); 0 when the driver has no such budget. It follows the driver, not the
     * device profile: a hardware profile forced on llvmpipe keeps the budget and its loop guard. */
    int64_t loop_budget;
    /* The backend kernels run on: GPUC_BACKEND_COMPUTE or GPUC_BACKEND_FRAGMENT (never DEFAULT), and
     * its name, "compute" or "fragment". */
    gpuc_backend backend;
    const char *backend_name;
    int max_target_size; /* fragment backend: widest and tallest render target (texels) */
    /* The device profile the programs are made for: GPUC_PROFILE_SOFTWARE or GPUC_PROFILE_HARDWARE
     * (never AUTO; gpuc_options.device_profile), and its name, "software" or "hardware". */
    gpuc_device_profile device_profile;
    const char *device_profile_name;
} gpuc_info;

/* The device that was opened, or NULL for a NULL or failed context. */
GPUC_API const gpuc_info *gpuc_get_info(const gpuc *gpu);

/* Counters since gpuc_open (programs_held: the count now), for tests and benchmarks. */
typedef struct gpuc_stats {
    uint64_t programs_compiled; /* GLSL programs compiled and linked (cache misses) */
    uint64_t program_cache_hits;
    uint64_t programs_held;     /* programs the context holds now: used by live kernels, or unused and
                                 * kept (at most gpuc_options.max_unused_programs of those) */
    uint64_t programs_evicted;  /* unused programs deleted to stay within that bound */
    uint64_t dispatches;        /* glDispatchCompute calls, or draws on the fragment backend */
    uint64_t uploads;           /* host -> device copies */
    uint64_t readbacks;         /* device -> host copies */
    uint64_t bytes_uploaded;
    uint64_t bytes_read_back;
    uint64_t loop_checks;       /* runs of guarded kernels, checked for loops llvmpipe cut short */
    /* gpuc_array_free / gpuc_kernel_free calls made where another thread held the context (see
     * THREADS), and how many of those objects still wait for that thread's next call. */
    uint64_t frees_deferred;
    uint64_t frees_pending;
} gpuc_stats;

/* Fills *stats. Returns GPUC_ERROR_INVALID_ARGUMENT for NULL arguments or a failed context. */
GPUC_API gpuc_status gpuc_get_stats(const gpuc *gpu, gpuc_stats *stats);

/* ---------------------------------------------------------------------------------------------- */
/* Arrays (device memory)                                                            [SEC:arrays] */
/* ---------------------------------------------------------------------------------------------- */

/* Creates a zero-filled array of `dims` cells of `type`. */
GPUC_API gpuc_status gpuc_array_new(gpuc *gpu, gpuc_type type, gpuc_dims dims, gpuc_array **out);

/* Creates an array from host data: dims cells of float32 / int32. For vecN arrays use
 * gpuc_array_new + gpuc_array_write_f32. `data` is copied; the caller keeps it.
 *
 * HOST COPIES. An array made (or written, gpuc_array_write_*) from at most 65,536 host values keeps
 * them as its host copy too (up to 256 KB of host memory beside the device's) until a kernel writes it
 * on the device (a run without .pipeline then reads its values back, and those are its host copy, as
 * are a small call's results in the calling-thread twin, .pipeline or not: SMALL CALLS;
 * gpuc_array_clear and gpuc_array_clone keep one): reading it reads nothing back, and in a default
 * context a small kernel call or algorithm call given it may run in the calling-thread twin as with
 * host data (SMALL CALLS, SMALL ALGORITHM CALLS), nothing read back from the device. Making or writing
 * such an array costs a copy more (65,536 values: 8-9 -> 15-16 us made and freed; 4,096: 0.5-0.9 -> 0.9
 * us). */
GPUC_API gpuc_status gpuc_array_from_f32(gpuc *gpu, const float *data, gpuc_dims dims, gpuc_array **out);
GPUC_API gpuc_status gpuc_array_from_i32(gpuc *gpu, const int32_t *data, gpuc_dims dims, gpuc_array **out);

/* Copies `count` values (float components for float/vecN arrays, int32 for int arrays) between the
 * host and the array. count must equal the array's value count (gpuc_array_values). Multi-dimensional
 * arrays are row-major: x fastest, then y, then z (a 2D array reads as h rows of w, as GPU.js returns
 * it). Reading a kernel result that was already read back (a kernel without .pipeline, or a small call
 * in the calling-thread twin: SMALL CALLS) copies from host memory and touches no GPU. Reading an array
 * a loop-budget cut left unusable (gpuc_run_to) fails with GPUC_ERROR_LIMIT; writing it makes it usable
 * again. */
GPUC_API gpuc_status gpuc_array_write_f32(gpuc_array *a, const float *data, size_t count);
GPUC_API gpuc_status gpuc_array_write_i32(gpuc_array *a, const int32_t *data, size_t count);
GPUC_API gpuc_status gpuc_array_read_f32(const gpuc_array *a, float *data, size_t count);
GPUC_API gpuc_status gpuc_array_read_i32(const gpuc_array *a, int32_t *data, size_t count);

/* GPU.js's texture.clone(): *out becomes a new array of a's type, shape and contents, copied on the
 * device (no host round trip; a host copy a already read back comes along). The caller frees it.
 * GPUC_ERROR_INVALID_ARGUMENT for NULL arguments; GPUC_ERROR_LIMIT for an array a loop-budget cut
 * left unusable (see gpuc_run_to). */
GPUC_API gpuc_status gpuc_array_clone(const gpuc_array *a, gpuc_array **out);

/* GPU.js's texture.clear(): sets every value of a to 0 (+0.0 for floats) on the device. An array a
 * loop-budget cut left unusable is usable again afterwards. GPUC_ERROR_INVALID_ARGUMENT for NULL. */
GPUC_API gpuc_status gpuc_array_clear(gpuc_array *a);

/* A PNG file as GPU.js passes a picture (an HTMLImage, ImageData or canvas argument) to a kernel: *out
 * becomes a new vec4 2D array of width x height cells in which cell [y][x] is the pixel of the file's
 * scanline height - 1 - y (GPU.js puts y = 0 at the bottom of a picture, as gpuc_array_write_png and
 * graphical kernels do), its channels r, g, b, a each divided by 255 (the float32 nearest v / 255).
 * Read it in a kernel as `vec4 image[][]` (`image[thread.y][thread.x]`); in a JavaScript kernel give
 * the parameter GPU.js's type, "HTMLImage" (or "ImageData", "HTMLCanvas", "vec4[][]"). Every PNG kind
 * is read as 8-bit RGBA: gray and palette pictures expanded to RGB, 16-bit channels cut to their high
 * byte, transparency chunks turned into alpha, alpha 1 where the file has none; values are taken as
 * stored (no gamma or colour profile is applied). Fails with GPUC_ERROR_INVALID_ARGUMENT naming the
 * file when it cannot be opened, is not a PNG or is corrupt in any chunk (a CRC, a chunk's content
 * libpng refuses or warns about, an ancillary chunk over 8 MB, the image data, a palette index past
 * the palette: libpng's message or gpuc's), GPUC_ERROR_LIMIT when it has more pixels than gpuc_options.max_image_pixels
 * allows or one array may hold (checked from the header, before any pixel memory is taken). The load
 * takes little host memory beside the array: a block of rows (an interlaced file: its 8-bit pixels,
 * 4 bytes a pixel). *out is NULL on failure. */
GPUC_API gpuc_status gpuc_array_from_png(gpuc *gpu, const char *path, gpuc_array **out);

/* Shape queries; a NULL or freed array gives zeros / GPUC_TYPE_NONE (HANDLES). */
GPUC_API gpuc_dims gpuc_array_dims(const gpuc_array *a); /* as given: absent dimensions stay 0 */
GPUC_API gpuc_type gpuc_array_type(const gpuc_array *a);
GPUC_API size_t gpuc_array_cells(const gpuc_array *a);  /* x * y * z, absent dimensions counting 1 */
GPUC_API size_t gpuc_array_values(const gpuc_array *a); /* cells * components per cell */

/* Releases an array. NULL is ignored; an array freed before is refused with a message on its context
 * (HANDLES). May be called on any thread: where another thread holds the context, the array is queued
 * and its memory released at that thread's next call (THREADS, above). Its device buffer may be kept
 * for the context's next array of the same size (a result made and freed at every call, as gpuc_run's
 * are, then costs no allocation: llvmpipe zero-fills a new buffer page by page); a context keeps at
 * most 8 such buffers, those over 256 KiB while all it keeps hold at most 64 MiB, until gpuc_close. */
GPUC_API void gpuc_array_free(gpuc_array *a);

/* ---------------------------------------------------------------------------------------------- */
/* Kernels                                                                          [SEC:kernels] */
/* ---------------------------------------------------------------------------------------------- */

/* A kernel map output (GPU.js's createKernelMap({name: function}, kernel)): every call of the helper
 * `function` (defined in the kernel's source, returning float, int or vecN) also stores the value it
 * returns into this output's cell, in the same pass; the last call in a cell wins, and a cell whose
 * run never calls it gets 0. */
typedef struct gpuc_map_output {
    /* the output's name (GPU.js's object key): a GLSL identifier other than "result", or an index
     * "0".."99" (GPU.js's array form names its outputs by position) */
    const char *name;
    /* the helper whose results it keeps. In a JavaScript kernel (gpuc_create_kernel_js): the helper's
     * JavaScript name (a function of the kernel's source or added with gpuc_add_function; its every
     * `return` is kept, wherever it is called from), or a whole JavaScript function's source, as
     * GPU.js's createKernelMap({ name: function (a, b) { ... } }) takes it (an anonymous one is named
     * by the output and the kernel calls it by that name) */
    const char *function;
} gpuc_map_output;

/* Most array constants one kernel may have, and most values one may hold (further bounded by the
 * device's GL_MAX_UNIFORM_BLOCK_SIZE / 4: 16,384 on llvmpipe, at least 4,096 anywhere). */
#define GPUC_MAX_ARRAY_CONSTANTS 8
#define GPUC_MAX_CONSTANT_VALUES 16384

/* A compile-time constant, seen in the kernel as constants.<name> (this.constants.<name> in
 * JavaScript). Numbers and Booleans are compiled in, as GPU.js does: other values make another program.
 *   - A number: `value`, type GPUC_TYPE_NONE infers it (a whole number that fits an int is an int,
 *     anything else a float), or GPUC_INT / GPUC_FLOAT. Finite, within its type's range.
 *   - A Boolean (GPU.js's `flag: true`): type GPUC_BOOL, value 0 (false) or 1 (true); a GLSL `bool`.
 *   - An array (GPU.js's `weights: [...]`, typed arrays, arrays of arrays): `values` points to
 *     dims.x * dims.y * dims.z floats (absent dimensions 1; x fastest, row-major like every gpuc
 *     array), dims 1D-3D, type GPUC_TYPE_NONE or GPUC_FLOAT (int typed arrays: give their values as
 *     floats, as GPU.js reads them), `value` unused. The values are copied to the device at creation
 *     (a uniform buffer the kernel owns, as GPU.js keeps them in a texture: the program itself does not
 *     depend on them, so kernels of other values share it). Read by index only, with as many indices
 *     as dims: constants.w[i], constants.w[y][x], constants.w[z][y][x] (GPUC_ERROR_COMPILE otherwise;
 *     gpuc rewrites these reads in the code, so not inside a #define's body, where GLSL's compiler
 *     would not find the field).
 *     Like an argument, it is read at the flat index y * w + x (a read past a row runs into the next),
 *     and 0.0 outside the array. Finite values only; at most GPUC_MAX_ARRAY_CONSTANTS of them, each of
 *     at most GPUC_MAX_CONSTANT_VALUES values (GPUC_ERROR_LIMIT).
 * The fields after `type` were added later: zero there (any older initialiser) means a number. */
typedef struct gpuc_constant {
    const char *name;
    double value;
    gpuc_type type;     /* GPUC_TYPE_NONE, GPUC_INT, GPUC_FLOAT or GPUC_BOOL */
    const float *values; /* an array constant's values, or NULL for a number or a Boolean */
    gpuc_dims dims;     /* an array constant's size; {0} for a number or a Boolean */
} gpuc_constant;

/* ---- Describing and creating a kernel -------------------------------------- [SEC:kernel-desc] */
/* gpuc_kernel_desc, field by field, with the default each takes when left zero (DESCRIPTOR STRUCTS);
 * each is explained where it is declared.
 *   Every kernel, GLSL and JavaScript:
 *     output               required: the output size, 1D-3D (x at least 1, at most 2^31 - 1 cells)
 *     constants            none: the list ends at the first entry whose name is NULL
 *     pipeline             false: each run reads its result back into host memory before it returns
 *     name                 NULL: the kernel function's name (a JavaScript kernel's, else its file's base
 *                          name with gpuc_create_kernel_js_file, else "anonymous")
 *     scatter              false: one invocation per output cell, which it writes
 *     threads              {0}: the output size (scatter kernels only; others must leave it zero)
 *     graphical            false: the kernel returns its cell's value
 *     map                  none: no map outputs (with some, the kernel runs through gpuc_run_map)
 *     dynamic_output       false: the output size is fixed at creation
 *   JavaScript kernels only (gpuc_create_kernel_js and the calls beside it; GLSL kernels ignore them):
 *     arg_types            NULL: each parameter's type inferred from how the kernel uses it
 *     loop_max_iterations  0: 1000, GPU.js's default
 *     random_seed          0: a new Math.random seed each time a kernel is created
 *     precise_math         false: the device's own Math.sin, Math.cos and Math.tan */
typedef struct gpuc_kernel_desc {
    gpuc_dims output;                           /* required: the output size (1D, 2D or 3D) */
    gpuc_constant constants[GPUC_MAX_CONSTANTS]; /* ended by the first entry whose name is NULL */
    /* GPU.js's `pipeline`: keep results on the device only (no read back after a run; a small call in a
     * default context's calling-thread twin has it in host memory instead, until its first use on the
     * device: gpuc_options.threads, SMALL CALLS). Without it, a run reads its result back into host
     * memory before it returns, as GPU.js returns arrays. */
    bool pipeline;
    const char *name; /* for messages; NULL means the kernel function's name */
    /* A scatter kernel (what a compute shader can do and GPU.js cannot): it runs once per cell of
     * `threads` (thread.x/y/z range over it; zero means the output size) and chooses where its result
     * goes by setting the predeclared `int outputIndex` to a flat output cell (x fastest). Left at -1,
     * or outside the output, the invocation writes nothing; cells nobody writes keep their value (zero
     * in gpuc_run's new array, the old contents with gpuc_run_to). Two invocations writing one cell:
     * one of them wins, unspecified which. The whole output must fit one storage binding
     * (gpuc_info.max_storage_block_size). */
    bool scatter;
    gpuc_dims threads;
    /* JavaScript kernels only, from here to precise_math (gpuc_create_kernel_js; GLSL kernels ignore
     * arg_types, loop_max_iterations, random_seed and precise_math). */
    /* The parameters' types, comma-separated in order, since JS parameters have none: "float" or "int"
     * (scalars), "vec2", "vec3", "vec4" (one vector, read v[0]..v[3]; pass gpuc_arg_vec2..4), "float[]", "float[][]", "float[][][]" (1D-3D arrays, read a[i], a[y][x], a[z][y][x]),
     * "int[]"..., "vec2[]", "vec3[]", "vec4[]", "vec2[][]"... (arrays of 2-4 numbers). GPU.js's names
     * are accepted too, as GPU.js records them: "Number", "Float", "Integer"; "Boolean" (or "bool": a
     * `bool` uniform, pass gpuc_arg_bool); "Array(2)".."Array(4)"
     * (one vector); "Array", "Input",
     * "NumberTexture" (float arrays whose rank is the most indices the kernel reads them with: GPU.js
     * gives 1D, 2D and 3D arrays alike the type "Array"); "Array2D", "Array3D"; "Array1D(2)" ...
     * "Array3D(4)" (vecN arrays); "HTMLImage", "ImageData", "HTMLCanvas", "OffscreenCanvas",
     * "ImageBitmap", "HTMLVideo" (pictures: vec4[][], see gpuc_array_from_png) and "HTMLImageArray"
     * (vec4[][][]). NULL infers them from the kernel: a parameter it indexes n times is an n-D float
     * array, any other a float. Whatever the type says, a JavaScript kernel's array parameter takes an
     * argument array of any rank, read by THE INDEX RULE (GPU.js's arrays are flat with a size).
     * A vector argument needs its type given here, as in GPU.js, where only argumentTypes make an
     * Array(N): an untyped [x, y, z, w] argument is a 1D array there too. */
    const char *arg_types;
    /* GPU.js's loopMaxIterations: loops whose bound is not a compile-time constant stop after this
     * many iterations (gpuc_kernel_stats.loop_capped_cells counts the cells it stopped, GPUC_TRACE says
     * so). 0 means 1000 (GPU.js's default). A value above llvmpipe's loop budget is
     * accepted: such a loop is guarded, and a run that reaches the budget fails with GPUC_ERROR_LIMIT
     * (see LOOPS AND LLVMPIPE'S LOOP BUDGET). */
    int loop_max_iterations;
    /* Math.random's seed: the same seed gives the same numbers in every run. 0 picks a new seed each
     * time a kernel is created (a new program each time). */
    uint32_t random_seed;
    /* Math.sin, Math.cos and Math.tan reduced modulo pi/2 in double precision and computed in double:
     * within 1 ulp of JavaScript's answer rounded to float32 for every float x, where llvmpipe's own
     * (the default) are 1-7 ulps off for |x| < 100 but hundreds of ulps next to the functions' zeros
     * beyond. It costs 4-7 times the device's own on llvmpipe (docs/porting.md, "Math accuracy",
     * gives the bounds and the cost). */
    bool precise_math;
    /* Every kernel again from here on. GPU.js's `graphical: true`: the kernel returns void and paints its cell by calling
     * color(r, g, b) or color(r, g, b, a) (in a JavaScript kernel, this.color(...)) (alpha 1 when left out; a cell never painted is transparent
     * black). Each channel is clamped to [0, 1] and rounded to 0..255. The result is an int array of
     * the output size (2D: width x height) whose cells are RGBA8 pixels, r in the lowest byte: read it
     * with gpuc_array_read_pixels, save it with gpuc_array_write_png. */
    bool graphical;
    /* Kernel map outputs, ended by the first entry whose name is NULL. Run such a kernel with
     * gpuc_run_map. Not with .scatter. */
    gpuc_map_output map[GPUC_MAX_MAP_OUTPUTS];
    /* GPU.js's `dynamicOutput: true`: the output size may be changed later with gpuc_kernel_set_output,
     * without compiling anything new. `.output` is the first size. outputSize (this.output in a
     * JavaScript kernel) is then a uniform set at each run, not a constant: a GLSL kernel may not use
     * it where GLSL wants a constant (an array size), and a loop bounded by it is guarded at run time
     * (LOOPS AND LLVMPIPE'S LOOP BUDGET): a size whose loops would pass the budget fails that run with
     * GPUC_ERROR_LIMIT. A 2D or 3D dynamic kernel finds thread.x/y/z by dividing by a uniform width:
     * measured on llvmpipe at 2048 x 2048, a kernel returning thread.x + thread.y takes 1.5x (compute)
     * and 1.8x (fragment) the time of a fixed size, one with a 256-iteration loop 1.02x; a 1D one
     * costs nothing. Not with .scatter. */
    bool dynamic_output;
} gpuc_kernel_desc;

/* Compiles `source` (see THE KERNEL CONTRACT) into a kernel (*out; NULL when it fails). Syntax and
 * type errors are reported here, with the line and column in `source` and that line quoted; where the
 * compiler stopped at JavaScript written as GLSL (`this.thread.x`, `output.x`, `Math.floor`, `var`/`let`,
 * an untyped `const`, `function`, `===`, a constants.<name> the desc does not give), the message says
 * what to write instead (and names the constants given), then quotes the compiler. Programs
 * are cached per context by their generated GLSL (a hash lookup), so creating the same kernel again
 * does not recompile while a live kernel uses that program, or while it is among the most recently
 * used unused ones (gpuc_options.max_unused_programs); kernels of different constants are different
 * programs. A kernel with a 1D output (1D .threads for scatter) whose source never names outputSize
 * gets its sizes as uniforms, so one program serves every length (but small ones: outputs under
 * 65,536 cells compute fewer cells per invocation, to keep every core busy, through at most five
 * variants of the program, one per power of two); otherwise the sizes are compiled in.
 * A kernel with loops that reads arrays is compiled once more when it runs a second time in a row
 * with arguments of the same sizes: that program has those sizes compiled in (GPU.js, too, compiles a
 * kernel per argument size) and reads float and int arrays one value per texel (except arrays with
 * rows of 4, read a row per texel), about twice as fast in a loop on llvmpipe; runs with other sizes
 * use the first program (same results, bit for bit).
 * Loops that must run past llvmpipe's loop budget, or nest deeper than 12, fail with
 * GPUC_ERROR_LIMIT (see LOOPS AND LLVMPIPE'S LOOP BUDGET), as does an output (the result or a map
 * output) that no array could hold: more than 2^31 - 1 cells, or more values than
 * gpuc_info.max_texture_buffer_size texels of 4 (on both backends; the message names the output).
 * The GLSL is compiled as written, and the driver may reassociate float arithmetic (Mesa turns
 * a + b + c + d into (a + b) + (c + d)) and leaves GLSL's own edge cases open (atan(0.0, 0.0)).
 * Where the order matters, assign the expression to a `precise` variable
 * (`precise float s = a + b + c + d;`): the order holds within that assignment, not through a helper
 * function's return or inside a condition. JavaScript kernels get this, and JavaScript's Math, for
 * free (gpuc_create_kernel_js). */
GPUC_API gpuc_status gpuc_create_kernel(gpuc *gpu, const char *source, const gpuc_kernel_desc *desc,
                               gpuc_kernel **out);

/* Releases a kernel (arrays it returned stay valid). NULL is ignored; a kernel freed before is refused
 * with a message on its context (HANDLES). Any thread, as gpuc_array_free. */
GPUC_API void gpuc_kernel_free(gpuc_kernel *k);

/* The kernel's parameters as parsed from its signature, and the cell type of its result (the return
 * type; GPUC_INT, RGBA8 pixels, for a graphical kernel). */
GPUC_API int gpuc_kernel_arg_count(const gpuc_kernel *k);
GPUC_API gpuc_type gpuc_kernel_return_type(const gpuc_kernel *k);

/* GPU.js's kernel.setOutput([w, h]) for a kernel created with .dynamic_output: later runs compute
 * `output` cells (their results have this size) and outputSize / this.output read it. Nothing is
 * compiled (the size is a uniform). The new size must have as many dimensions as the kernel's first one
 * and pass the checks gpuc_create_kernel makes (x >= 1, at most 2^31 - 1 cells; GPUC_ERROR_LIMIT past
 * them, or past what one device array holds, GL_MAX_TEXTURE_BUFFER_SIZE texels of 4 values). GPUC_ERROR_INVALID_ARGUMENT, kernel unchanged, for a NULL kernel, a kernel without
 * .dynamic_output, a zero size or another number of dimensions. Arrays earlier runs returned keep
 * their size; gpuc_run_to then wants a dst of the new size. */
GPUC_API gpuc_status gpuc_kernel_set_output(gpuc_kernel *k, gpuc_dims output);

/* The kernel's output size now (as given: absent dimensions 0); zeros for NULL. */
GPUC_API gpuc_dims gpuc_kernel_output(const gpuc_kernel *k);

/* A kernel map's outputs besides the result: their count (0 for other kernels and NULL), and the
 * name of output i (NULL when out of range). */
GPUC_API int gpuc_kernel_map_count(const gpuc_kernel *k);
GPUC_API const char *gpuc_kernel_map_name(const gpuc_kernel *k, int i);

/* The complete GLSL compute (or, on the fragment backend, fragment) program gpuc made of the kernel (GPU.js's kernel.toString()): for reading
 * what runs, or compiling it elsewhere (runs at repeated argument sizes of a kernel with loops use a
 * copy with those sizes compiled in: see gpuc_create_kernel). Valid while the kernel lives (until gpuc_kernel_free or
 * gpuc_close); "" for NULL. */
GPUC_API const char *gpuc_kernel_glsl(const gpuc_kernel *k);

/* ---- What runs cost ------------------------------------------------------------ [SEC:profile] */
/* What one kernel's runs cost, since it was created (gpuc_run, gpuc_run_to and gpuc_run_map calls
 * that succeeded; gpuc's own algorithms are not counted here). Counters are always kept (a clock read
 * and a few additions per run); device time only while profiling (gpuc_options.profile, GPUC_PROFILE
 * or GPUC_TRACE). Host times are wall-clock milliseconds on the calling thread. */
typedef struct gpuc_kernel_stats {
    uint64_t runs;           /* successful runs */
    uint64_t cells;          /* output cells computed over those runs (each run: the output's cells) */
    uint64_t timed_runs;     /* runs whose device time was measured and collected */
    double device_ms;        /* total GPU time of the timed runs' dispatches or draws: the difference of
                              * GL_TIMESTAMP queries before and after them (on the fragment backend it
                              * includes copying the tiles into the result) */
    double last_device_ms;   /* the most recent timed run's device time; -1 when none was timed */
    uint64_t bytes_uploaded; /* host-array arguments copied to the device */
    double upload_ms;        /* host time binding arguments, uploads included */
    uint64_t bytes_read_back;/* results read back (runs without .pipeline) */
    double read_back_ms;     /* host time reading results back (waits for the device to finish) */
    double run_ms;           /* host time of the runs from binding to read back, all of the above included */
    /* Why a kernel is slow (fields appended; they follow the same runs):
     * A run whose program has not run before is counted apart: the kernel's first run, and each run
     * that compiled a program specialised to its argument sizes (see gpuc_create_kernel). On llvmpipe
     * such a run also compiles the program's machine code, 10-50 ms (a 256 x 256 matmul: about 40 ms
     * first, 10-13 ms after). The other runs are the steady runs. */
    uint64_t first_runs;      /* runs of a program not run before (counted in runs too) */
    double first_run_ms;      /* their host time (included in run_ms) */
    double min_ms;            /* the steady runs' host time per run: shortest, */
    double median_ms;         /* median of the latest 1024 steady runs, */
    double mean_ms;           /* mean, (run_ms - first_run_ms) / (runs - first_runs), */
    double max_ms;            /* longest; each 0 while there are no steady runs */
    /* JavaScript kernels: GPU.js's loopMaxIterations (gpuc_kernel_desc.loop_max_iterations) stops a
     * loop whose bound is not a compile-time constant after that many iterations, silently, and gpuc
     * keeps that cap. These count where it happened: a loop counts when it reached the cap with its
     * test still true (a test that assigns or calls is not evaluated again: reaching the cap counts). */
    uint64_t loop_capped_runs;  /* runs in which the cap stopped a loop in some cell */
    uint64_t loop_capped_cells; /* cells in which it did, over those runs (a cell once, however many loops) */
} gpuc_kernel_stats;

/* Fills *out with k's counters. While profiling, first collects a .pipeline run's pending device time
 * (waiting for that run to finish). Must be called where the kernel's context can be used (as
 * gpuc_run). GPUC_ERROR_INVALID_ARGUMENT for NULL arguments.
 *
 * GPUC_TRACE (set and not "0") prints one line per successful run on stderr, waiting for each run's
 * device time (so traced .pipeline runs do not overlap the host):
 *     gpuc: kernel 'NAME' output WxHxD device MS ms up BYTES B down BYTES B host MS ms
 * (output as the kernel's present dimensions, e.g. "1024" or "640x480"; device "-" when the driver
 * gave no time), followed by " first run (compiles)" on a run counted in first_runs and by
 * " loop cap: N cells stopped at loop_max_iterations" on a run in which the cap stopped loops.
 * A kernel with capped JavaScript loops reads that count after each run, so its .pipeline runs wait
 * for the run as a read-back does. */
GPUC_API gpuc_status gpuc_get_kernel_stats(gpuc_kernel *k, gpuc_kernel_stats *out);

/* Sets k's counters back to zero (as at creation; last_device_ms -1), for measuring from here on: a
 * pending .pipeline run's device time is dropped with them. Programs that already ran stay warm, so
 * runs after a reset count in first_runs only if they compile a new program. Must be called where
 * the kernel's context can be used. GPUC_ERROR_INVALID_ARGUMENT for NULL, GPUC_ERROR_MISUSE for a
 * freed kernel (as every call). */
GPUC_API gpuc_status gpuc_reset_kernel_stats(gpuc_kernel *k);

/* What k runs as, in words: each of these changes a kernel's speed, often 1.3-2.5x. The backend and
 * the thread mode (gpuc_options.threads); its loops, guarded for llvmpipe's loop budget or not, and
 * those capped at loop_max_iterations (JavaScript); whether the program in use is specialised to the
 * argument sizes; double-precision Math (precise_math); cells per invocation (or steps per invocation,
 * each of several neighbouring cells stored as whole texels) and
 * whether neighbouring cells share one call of the body, their loops fused, or why not (compute,
 * software profile: a kernel whose body uses break, continue, a return inside it, a global variable or
 * a helper that reads `thread`, among others, computes each cell alone, which is correct and up to
 * 2-4x slower on llvmpipe); how arrays are read (image views or storage buffers), and which a jammed
 * body reads a 16-byte texel for 4 neighbouring cells (matmul's `b[i][thread.x]`) or as a window of
 * texels for each step's cells (a stencil's `img[yy][thread.x + i - 2]`); pipeline. For example
 *     "compute backend, llvmpipe's default workers; 1 loop, unguarded (proven under the loop budget:
 *      at most 257 iterations a cell, final tests counted); program specialised to the argument sizes;
 *      1 cell per invocation; arrays read from image views"
 * The words may change between releases: read them, do not parse them. Valid until the next call for
 * k or its free; "" for NULL or a freed kernel. */
GPUC_API const char *gpuc_kernel_describe(const gpuc_kernel *k);

/* Prints a table of the context's live kernels (oldest first) to out: for each, runs, first runs and
 * their host ms, steady runs, their min, median, mean and max host ms, mean device ms of the steady timed
 * runs ("-" if none), cells a loop cap stopped; then gpuc_kernel_describe's words. Collects pending
 * .pipeline device times (waiting for those runs). With the environment variable GPUC_PROFILE set
 * (not "" or "0"), gpuc_close prints it on stderr. GPUC_ERROR_INVALID_ARGUMENT for NULL arguments. */
GPUC_API gpuc_status gpuc_print_profile(gpuc *gpu, FILE *out);

/* ---- Running a kernel ------------------------------------------------------------- [SEC:runs] */
/* One argument of a run. Build them with the helpers below. */
typedef enum gpuc_arg_kind {
    GPUC_ARG_NONE = 0,
    GPUC_ARG_ARRAY,    /* a device array (never copied back) */
    GPUC_ARG_HOST_F32, /* host float32 data, uploaded for this run */
    GPUC_ARG_HOST_I32, /* host int32 data, uploaded for this run */
    GPUC_ARG_F32,      /* a float scalar */
    GPUC_ARG_I32,      /* an int scalar */
    /* One vector of 2-4 floats (GPU.js's Array(2), Array(3), Array(4) arguments) for a `vec2 v`,
     * `vec3 v` or `vec4 v` parameter: a uniform, so a new value never recompiles. `vec` holds the
     * components, `components` how many (2-4; it must equal the parameter's). */
    GPUC_ARG_VEC
} gpuc_arg_kind;

/* The fields after i32 were added later, at the end: an initialiser written for the older struct
 * (`{GPUC_ARG_F32, NULL, NULL, {0}, 2.0f, 0}`) still means what it did. */
typedef struct gpuc_arg {
    gpuc_arg_kind kind;
    const gpuc_array *array;
    const void *host;
    gpuc_dims dims;
    float f32;
    int32_t i32;
    float vec[4];   /* GPUC_ARG_VEC: the components (unused ones 0) */
    int components; /* GPUC_ARG_VEC: 2, 3 or 4 */
} gpuc_arg;

static inline gpuc_arg gpuc_arg_array(const gpuc_array *a)
{
    gpuc_arg arg = {GPUC_ARG_ARRAY, a, NULL, {0, 0, 0}, 0.0f, 0, {0.0f, 0.0f, 0.0f, 0.0f}, 0};
    return arg;
}
static inline gpuc_arg gpuc_arg_host_f32(const float *data, gpuc_dims dims)
{
    gpuc_arg arg = {GPUC_ARG_HOST_F32, NULL, data, dims, 0.0f, 0, {0.0f, 0.0f, 0.0f, 0.0f}, 0};
    return arg;
}
static inline gpuc_arg gpuc_arg_host_i32(const int32_t *data, gpuc_dims dims)
{
    gpuc_arg arg = {GPUC_ARG_HOST_I32, NULL, data, dims, 0.0f, 0, {0.0f, 0.0f, 0.0f, 0.0f}, 0};
    return arg;
}
static inline gpuc_arg gpuc_arg_f32(float v)
{
    gpuc_arg arg = {GPUC_ARG_F32, NULL, NULL, {0, 0, 0}, v, 0, {0.0f, 0.0f, 0.0f, 0.0f}, 0};
    return arg;
}
static inline gpuc_arg gpuc_arg_i32(int32_t v)
{
    gpuc_arg arg = {GPUC_ARG_I32, NULL, NULL, {0, 0, 0}, 0.0f, v, {0.0f, 0.0f, 0.0f, 0.0f}, 0};
    return arg;
}
/* A Boolean argument for a `bool flag` parameter (in a JavaScript kernel, one typed "Boolean"): an int
 * scalar, 1 or 0 (what GPU.js uploads for true and false). Such a parameter takes any number too, read
 * as JavaScript's Boolean(x) reads it (GPU.js 2.24.1 refuses a number there): gpuc_arg_i32 is true
 * unless 0, gpuc_arg_f32 unless 0, -0 or NaN. */
static inline gpuc_arg gpuc_arg_bool(bool v)
{
    return gpuc_arg_i32(v ? 1 : 0);
}
/* A vector argument (GPUC_ARG_VEC) for a `vec2 v` / `vec3 v` / `vec4 v` parameter, or, in a
 * JavaScript kernel, a parameter typed "Array(2)" / "Array(3)" / "Array(4)" (read as v[0], v[1]...). */
static inline gpuc_arg gpuc_arg_vec2(float x, float y)
{
    gpuc_arg arg = {GPUC_ARG_VEC, NULL, NULL, {0, 0, 0}, 0.0f, 0, {x, y, 0.0f, 0.0f}, 2};
    return arg;
}
static inline gpuc_arg gpuc_arg_vec3(float x, float y, float z)
{
    gpuc_arg arg = {GPUC_ARG_VEC, NULL, NULL, {0, 0, 0}, 0.0f, 0, {x, y, z, 0.0f}, 3};
    return arg;
}
static inline gpuc_arg gpuc_arg_vec4(float x, float y, float z, float w)
{
    gpuc_arg arg = {GPUC_ARG_VEC, NULL, NULL, {0, 0, 0}, 0.0f, 0, {x, y, z, w}, 4};
    return arg;
}

/* Runs the kernel over its whole output and returns the result as a new array (GPU.js's immutable
 * results). nargs must equal the kernel's parameter count; each argument's kind, type and number of
 * dimensions must match its parameter (a JavaScript kernel's array parameters take arrays of any
 * number of dimensions, read by THE INDEX RULE). Without .pipeline the result is read back before
 * this returns; with it, the result stays on the device and can be passed straight to the next kernel. A run whose
 * loops llvmpipe cut short fails with GPUC_ERROR_LIMIT and returns nothing. */
GPUC_API gpuc_status gpuc_run(gpuc_kernel *k, const gpuc_arg *args, int nargs, gpuc_array **result);

/* Like gpuc_run, but writes into an existing array `dst` (same cell type and cell count as the
 * kernel's output; it may not also be one of the arguments). Useful for ping-pong loops. When
 * llvmpipe cut the run's loops short (GPUC_ERROR_LIMIT), dst is left marked unusable: reading it or
 * passing it to a kernel fails with GPUC_ERROR_LIMIT until it is written or run into again. */
GPUC_API gpuc_status gpuc_run_to(gpuc_kernel *k, const gpuc_arg *args, int nargs, gpuc_array *dst);

/* Runs a kernel map (a kernel with .map outputs) once: results[0] receives the result and
 * results[1 + i] map output i (gpuc_kernel_map_name(k, i)), all new arrays of the output size whose
 * cell types are the kernel's and the helpers' return types, computed in one pass (extra storage
 * buffers on compute, extra render targets on fragment). `results` must hold
 * 1 + gpuc_kernel_map_count(k) pointers; they are set only on success. Plain kernels work too
 * (results[0] alone). gpuc_run and gpuc_run_to refuse a kernel map. */
GPUC_API gpuc_status gpuc_run_map(gpuc_kernel *k, const gpuc_arg *args, int nargs, gpuc_array **results);

/* ---- Pictures (graphical kernels) --------------------------------------------- [SEC:pictures] */

/* Copies the RGBA8 pixels of a graphical kernel's result (an int array: GPUC_INT, 2D w x h, or 1D as
 * w x 1) into rgba, `bytes` = 4 * cells bytes, four bytes r, g, b, a per pixel, each row from x = 0, in
 * GPU.js's getPixels(flip) order: by default (flip false) image order, the top row first, which is the
 * last thread.y (GL and GPU.js put thread.y = 0 at the bottom); with flip, the rows as GL stores them,
 * thread.y = 0 first. */
GPUC_API gpuc_status gpuc_array_read_pixels(const gpuc_array *a, uint8_t *rgba, size_t bytes, bool flip);

/* Writes a graphical kernel's result as an 8-bit RGBA PNG file (libpng) showing the picture as GPU.js's
 * canvas does: thread.y = 0 is the bottom row of the image. Fails with GPUC_ERROR_INVALID_ARGUMENT for
 * a NULL or non-int array or a 3D one, and with a message naming the file when it cannot be written. */
GPUC_API gpuc_status gpuc_array_write_png(const gpuc_array *a, const char *path);

/* ---------------------------------------------------------------------------------------------- */
/* JavaScript kernels (src/js/): GPU.js kernel source, pasted as is                      [SEC:js] */
/* ---------------------------------------------------------------------------------------------- */

/* Creates a kernel from GPU.js JavaScript source, e.g.
 *     "function (values, t) { let hits = 0;\n"
 *     "  for (let i = 0; i < this.constants.chunk; i++)\n"
 *     "    if (values[i * this.constants.threads + this.thread.x] > t) hits++;\n"
 *     "  return hits; }"
 * with the same desc, arguments and results as gpuc_create_kernel (desc.arg_types gives the
 * parameters' types; without it they are inferred from use). The last function in js_source is the
 * kernel; functions before it (and function declarations inside it) are helpers it may call, as are
 * those added with gpuc_add_function / gpuc_add_native_function, and functions bound to names inside it
 * (`const f = function (x) {...}`, `const g = (x) => x * 2`) or called where they are defined
 * (`(function (v) {...})(x)`; Babel's `(0, m.f)(x)` calls helper f); the kernel may itself be an arrow
 * function. Minified code runs as written (`c ? f() : g();`, `a && (b = 1);`, comma expressions as
 * statements and in for headers, `!0` / `!1`, `x ?.5 : 1`, a let hiding a parameter in an inner block,
 * `let a = void 0` as `let a;`; a const declared `= void 0` may not be read). Helpers may take the kernel's array arguments (`add(a, b, i)` reading a[i]): such a
 * helper is compiled once per combination of arrays it is called with. The subset is GPU.js 2.24's:
 * let/const/var (`var` function-scoped, as in JavaScript; declared again holding another type, it
 * is another variable from there on, and a use that paths reach holding different types, say after
 * an if that re-typed it in one branch or a loop that re-types it, is refused naming both), numbers,
 * booleans, [a, b(, c(, d))] as
 * vectors, square arrays of those ([[1, 2], [3, 4]]: GPU.js's Matrix(2..4), read m[y][x]; not
 * arithmetic, and not a kernel's result), `const [x, y] = v` and `const { x, y } = this.thread`
 * destructuring, arithmetic, comparison, logical,
 * bitwise and assignment operators, ?:, if/else, for, while, do...while, break, continue, switch,
 * return; this.thread.x/y/z, this.output.x/y/z, this.constants.<name>, argument arrays a[i],
 * a[y][x], a[z][y][x] (read by THE INDEX RULE, fewer indices than the rank included), their
 * .length as JavaScript's (a.length of a 2D array is its rows, a[0].length its width; an argument whose
 * .length is read takes arrays of that rank only, GPUC_ERROR_TYPE_MISMATCH otherwise) and .length of a
 * vector or matrix, a pixel's
 * channels pixel.r, .g, .b, .a (components 0-3 of an array of numbers), vector arguments v[i]
 * (arg_types "Array(2..4)"), array constants this.constants.w[i] (w[y][x], w[z][y][x]), Boolean
 * constants, and Math (abs ... trunc,
 * random, PI, E, LN2, LN10, LOG2E, LOG10E, SQRT2, SQRT1_2). Semantics are GPU.js's: numbers are float32; this.thread.*, Math.floor/ceil/round/trunc
 * and bitwise results are integers; `/` divides as floats; `%` takes the dividend's sign; int mixed
 * with float gives float; a kernel returns a number (float) or an array of 2-4 numbers (vecN); loops
 * whose bound is not a compile-time constant stop after desc.loop_max_iterations; a switch case with
 * statements does not run on into the next case (GPU.js's if/else reading of switch). Unsupported
 * JavaScript (strings, object literals, for...of, closures over outer variables, assignments
 * to arguments, arrays longer than 4, arrays of 4 dimensions, recursion) fails with
 * GPUC_ERROR_COMPILE and a message giving the construct and its line:column in js_source (in the
 * user's names; a type error on an argument names the desc.arg_types entry that would fix it). Names
 * GLSL reserves (`float`, `output`, `texture`...) work as any other name, constants' too. Each
 * invocation's loops must stay under gpuc_info.loop_budget in total: a kernel or run that does not
 * fails with GPUC_ERROR_LIMIT naming the loop's JavaScript line:column.
 * Numbers follow JavaScript as GPU.js's float32 backends do: float arithmetic runs in JavaScript's
 * order (a + b + c + d is ((a + b) + c) + d, never reassociated by the driver); every Math function
 * gives JavaScript's answer at ±0, ±Infinity, NaN, denormals and overflow (Math.atan2(-0, -0) is -π),
 * except Math.round, which is GPU.js's floor(x + 0.5) as an integer; exp, log and their family are
 * within 1 ulp of JavaScript's answer rounded to float32, asin/acos/atan2 2, pow 3, sin/cos/tan are
 * the device's own (on llvmpipe 1-7 ulps for |x| < 100, hundreds next to their zeros beyond: set
 * desc.precise_math for 1 ulp); docs/porting.md has the measured bounds and their cost.
 * Known differences from JavaScript: a `var` read before any assignment gives 0 (not undefined),
 * integer results (Math.floor...) are int32, and helpers cannot recurse. desc.map (kernel maps) may
 * name JavaScript helpers by their JavaScript names or give their source (gpuc_map_output). */
GPUC_API gpuc_status gpuc_create_kernel_js(gpuc *gpu, const char *js_source, const gpuc_kernel_desc *desc,
                                           gpuc_kernel **out);

/* gpuc_create_kernel_js over the text of the file at `path` (a GPU.js kernel function saved as is,
 * helpers before it). Unless desc.name is set, the kernel is named (in messages, GPUC_TRACE lines and
 * stats) by its function's name, and an anonymous `function (...)` by the file's base name without
 * its extension ("kernels/blur.js": 'blur'), not "anonymous". A file that cannot be read, holds a NUL
 * byte (GPUC_ERROR_INVALID_ARGUMENT) or is over 16 MiB (GPUC_ERROR_LIMIT) fails with a message naming
 * it; otherwise as gpuc_create_kernel_js. */
GPUC_API gpuc_status gpuc_create_kernel_js_file(gpuc *gpu, const char *path, const gpuc_kernel_desc *desc,
                                                gpuc_kernel **out);

/* GPU.js's createKernelMap(subKernels, kernel) as written in JavaScript: sub_kernels is its first
 * argument's text, either an object whose keys name the outputs,
 *     "{ addResult: add, divideResult: function divide(a, b) { return a / b; } }"
 * or an array, whose outputs are named "0", "1"... (GPU.js's result[0], result[1]),
 *     "[add, function divide(a, b) { return a / b; }]".
 * Each value is a function's name (defined in js_source or added with gpuc_add_function), a function
 * or arrow function written in place (an anonymous one is named by its key), or
 * alias('name', function ...). Outputs come in the order written: run the kernel with gpuc_run_map,
 * results[0] the kernel's result and results[1 + i] output i (gpuc_kernel_map_name). Each output
 * keeps what its sub-kernel last returned in the cell (0 where it was never called), as GPU.js's
 * subKernelResult does; a sub-kernel the kernel never calls fails, as in GPU.js. desc.map must be
 * empty; otherwise as gpuc_create_kernel_js. Errors in sub_kernels: GPUC_ERROR_COMPILE with its
 * line:column. */
GPUC_API gpuc_status gpuc_create_kernel_map_js(gpuc *gpu, const char *sub_kernels, const char *js_source,
                                               const gpuc_kernel_desc *desc, gpuc_kernel **out);

/* GPU.js's addFunction: registers one named JavaScript function (`function name(a, b) { ... }`)
 * that every JavaScript kernel created afterwards in this context may call. Its parameters take the
 * types of its first call. Syntax errors are reported here; type errors when a kernel uses it. */
GPUC_API gpuc_status gpuc_add_function(gpuc *gpu, const char *js_source);

/* GPU.js's addNativeFunction: registers a GLSL function (`float name(float a, vec2 b) { ... }`;
 * parameter and return types float, int, bool, vec2, vec3, vec4) that JavaScript kernels created
 * afterwards may call by name (names starting with jsrt_ are the front end's own, and refused). It is compiled as given, before the kernel's helpers,
 * in every JavaScript kernel created afterwards: one that does not compile fails them with its own line
 * quoted. Like a kernel,
 * it may nest at most GPUC_MAX_NESTING levels. */
GPUC_API gpuc_status gpuc_add_native_function(gpuc *gpu, const char *glsl_source);

/* ---------------------------------------------------------------------------------------------- */
/* Algorithms (src/algo/): host drivers over the kernel API                      [SEC:algorithms] */
/* ---------------------------------------------------------------------------------------------- */

/* KEPT KERNELS. A context makes each algorithm kernel on its first use and keeps it until gpuc_close
 * (where its output is 1D one kernel serves every length within a power of two, which fixes its
 * cells per invocation; a scatter kernel is kept per output size, so an exact-length scatter
 * compaction makes one for each count it has not seen): a later call of the same shape creates no
 * kernel and compiles nothing (gpuc_stats.program_cache_hits and
 * programs_compiled stay unchanged) and pays only for its dispatches and read backs. Up to 96 kernels
 * are kept per context, the least recently used past that freed at the next algorithm call; their
 * programs count in gpuc_stats.programs_held. A context serves one thread at a time (THREADS), and
 * so do its kept kernels: they go with the context to the next thread that takes it.
 *
 * SMALL ALGORITHM CALLS IN A DEFAULT CONTEXT (gpuc_options.threads, SMALL CALLS): a gpuc_sort,
 * gpuc_argsort, gpuc_sort_pairs, gpuc_scan or gpuc_compact call of at most 65,536 elements (32,768 on
 * the fragment backend, whose sort is the network: at 2^16 keys its draws gain from llvmpipe's threads)
 * whose arrays are all host data runs whole in the context's calling-thread twin from the 4th call of its
 * shape on (the same element types, method, flags and predicate, and n within the same power of two;
 * the latest 8 shapes are counted), where its kernels are made a second time (once per shape); each
 * pass then costs no hand-off to llvmpipe's threads. The results are new arrays of the context holding
 * their values in host memory until their first use on the device, as a small kernel call's result
 * (reading them reads nothing back). Results, errors and gpuc_stats
 * counts are the context's own path's; a call that fails in the twin runs again on the context. A
 * device array argument goes too where the host holds its values as well (HOST COPIES): the twin takes
 * that host copy, and nothing is read back from the device; any other device array keeps the context's
 * path (never copied). Measured (`gpuc-bench --scaling`, whose compaction input is an array made from
 * host data, 2 cores): compaction of 2^12 values 12.9-20.4x -> 6.5-11.2x C's time, of 2^14 3.6-4.1x ->
 * 2.2-2.7x. Measured (`gpuc-bench --scaling`, 2 cores): a bitonic sort of 2^12 keys from host data
 * 0.9-2.2 -> 0.35-0.40 ms; on the fragment backend (since 2026-12-06) 1.6-1.9 -> 1.1-1.3 ms. Kept on
 * the context's path as SMALL CALLS says (profiling, an explicit thread count, GPUC_SMALL_CALLS=pool,
 * no twin), and gpuc_topk, gpuc_topk_cutoff and gpuc_rank. A small gpuc_compact by a threshold goes to
 * neither: the host does it (gpuc_compact, SMALL INPUTS ON THE HOST). */

/* ---- Top-k ------------------------------------------------------------------------ [SEC:topk] */
/*
 * ORDER. Values are ordered as float32 numbers, exactly (the drivers compare order-preserving integer
 * keys, never rounded floats): -inf < negatives < -0.0 == +0.0 < positives < +inf < NaN. -0.0 and +0.0
 * are one value (as `==` says in C), so they tie. Every NaN (any sign or payload) ranks above +inf, as
 * torch.topk does: NaNs come first among the largest and last among the smallest. Ties, NaNs included,
 * are broken by the lower index first: the tutorial's rank semantics (rank of element i = the number of
 * elements that come before it), for largest and smallest alike. Returned values keep their own bits.
 *
 * INPUT. `values` is a 1D float array: a device array (gpuc_arg_array; never copied) or host data
 * (gpuc_arg_host_f32, uploaded once per call). Other kinds, types or shapes fail with
 * GPUC_ERROR_TYPE_MISMATCH or GPUC_ERROR_INVALID_ARGUMENT; more elements than the device's largest array
 * with GPUC_ERROR_LIMIT.
 *
 * RESULTS are new arrays owned by the caller (gpuc_array_free). With .pipeline they stay on the device
 * for the next kernel; without it they are read back before the call returns, as gpuc_run does. */

typedef struct gpuc_topk_desc {
    size_t k;       /* required: how many to select, 1 <= k <= n */
    bool smallest;  /* select the k smallest (ascending) instead of the k largest (descending) */
    bool pipeline;  /* keep the results on the device only (no read back) */
} gpuc_topk_desc;

/* The k largest (or smallest) of n float32 values and their indices, in order (see ORDER above).
 * values_out gets k floats, indices_out k ints (indices into `values`); either may be NULL (not both).
 * How, for k <= 32,768 (tile pruning): one pass over the input computes the largest key of every tile
 * (1,024 values, smaller tiles when n / 1,024 < 4k, down to 64) and reads those maxima back (8 bytes
 * per tile). The k-th largest of them, T, is a lower bound of the k-th value (k tiles each hold a
 * value >= T), and only tiles whose maximum is >= T can hold a result: a count kernel over those tiles
 * alone counts the values >= T per group of up to 256 (read back: 4 bytes per group); a gather kernel
 * fetches them with their indices (read back: 16 bytes each), and the host orders them (values by key,
 * ties by index) and keeps k. When more than 65,536 values are >= T (sorted input, heavy ties), T is
 * raised by bisection over the keys, each step one more count over the tiles that reach it, until at
 * most 65,536 are above it or T is the exact k-th key, whose ties are then gathered in index order,
 * only as many as needed. Inputs of at most 131,072 values, and those where even tiles of 64 leave
 * fewer tiles than k (n below about 64k, where no tile could be pruned), are selected on the host with
 * no dispatch: host data as given, a device array's values read back once (4 bytes each). There the
 * candidates are the values whose keys reach a bound taken from a sample of every (k / 64)-th key
 * (k / 8 for 16 <= k < 128): about 1.4k of them on random data; every value where k < 16 or where the
 * bound leaves fewer than k. The host finds the k-th key of the candidates (gathered or kept) by three
 * histograms of 11, 11 and 10 bits and sorts only the k kept: about 2 ns a value on llvmpipe's
 * 2-core machine, against 0.4 ms for the 3 dispatches and read backs of pruning at 2^16. Cost of
 * pruning on random data: one pass over n, about k tiles read again, 3 read backs (two floats per
 * tile, an int per group of a surviving tile, one texel per gathered value; up to two counts more when
 * the bound meets ties) and 2 small uploads (tile list, gather slots). The two results are made from
 * host memory and held there until their first use on the device (with .pipeline: uploaded, 2 more),
 * so reading them reads nothing back; adversarial
 * data adds one count over the surviving tiles per bisection step (at most 32; sorted 2^23 values
 * took 3 more dispatches in all). Host memory: O(n / tile + 65,536); 12 bytes a value where the host
 * selects, in blocks the context keeps for its next calls up to 1 MiB each (at most 3 MiB per context,
 * until gpuc_close: blocks freed at each call made glibc hand their pages back to the kernel and
 * fault them in again at the next). On llvmpipe (2 cores) the call on 2^23 random values with k = 512
 * took 3.3-4.6 ms on a loaded machine (its one pass 1.2 ms of it; a one-thread C heap pass takes 3.1
 * ms); make bench's topk row, which adds a bias pass over the 2^23 values before each call, runs at
 * about 2.4x the C heap, most of it that pass (README, "Performance").
 * For k > 32,768 (the counting path): a count kernel over contiguous chunks finds the k-th key by
 * bisection over the 32 key bits (33 counting passes over the data; each pass's per-chunk counts are
 * summed on the device, so one int comes back per step); survivor counts per group of 64 values and
 * their prefix sums are computed on the device; a gather kernel collects the survivors in index order;
 * a bitonic sort kernel over the next power of two >= k orders them, all on the device. Cost: 33 passes
 * over n, plus O(P log^2 P) for P = next power of two >= k, 33 single ints read back. */
GPUC_API gpuc_status gpuc_topk(gpuc *gpu, gpuc_arg values, const gpuc_topk_desc *desc, gpuc_array **values_out,
                               gpuc_array **indices_out);

typedef struct gpuc_topk_cutoff_desc {
    size_t k;        /* required: 1 <= k <= n */
    int threads;     /* count kernel invocations; 0 means 256 */
    int chunk;       /* elements each invocation counts (strided by `threads`); 0 means enough to cover n.
                      * threads * chunk must cover n, and threads and chunk must each stay under the
                      * device's loop budget (GPUC_ERROR_LIMIT): past 256 * 65,535 values on llvmpipe,
                      * give more threads. threads * chunk may not pass 2^31 - 1 (GPUC_ERROR_LIMIT). */
} gpuc_topk_cutoff_desc;

/* The seed's bisection (tutorial top-k task 4): a count-above kernel (thread x counts
 * values[i * threads + x] > t for i < chunk) and a host bisection in double precision: lo = min - 1,
 * hi = max; mid = (lo + hi) / 2 (passed to the kernel as float32); count(> mid) >= k raises lo, else
 * hi = mid; stop when hi - lo <= 0.5. *cutoff = floor(lo): for whole-number data, count(> cutoff) >= k.
 * The per-thread counts are summed on the device: one int comes back per step. *above (may be NULL)
 * gets count(> cutoff). Values must be finite: an infinity or a NaN (no bracket, no order) fails with
 * GPUC_ERROR_INVALID_ARGUMENT; gpuc_topk handles them. */
GPUC_API gpuc_status gpuc_topk_cutoff(gpuc *gpu, gpuc_arg values, const gpuc_topk_cutoff_desc *desc,
                                      double *cutoff, int64_t *above);

typedef struct gpuc_rank_desc {
    bool smallest; /* rank 0 is the smallest instead of the largest */
    bool pipeline; /* keep the result on the device only */
} gpuc_rank_desc;

/* Rank by counting (tutorial top-k tasks 1-3): ranks_out gets n ints, rank of element i = the number of
 * elements that come before it in ORDER (larger, or equal at a lower index), so the ranks are a
 * permutation of 0..n-1. Each invocation compares against all n elements: O(n^2) work, and n may not
 * exceed the device's loop budget (gpuc_info.loop_budget, 65,535 on llvmpipe: GPUC_ERROR_LIMIT);
 * use gpuc_topk for large n. desc may be NULL (largest first, read back). */
GPUC_API gpuc_status gpuc_rank(gpuc *gpu, gpuc_arg values, const gpuc_rank_desc *desc, gpuc_array **ranks_out);

/* ---- Sorting ---------------------------------------------------------------------- [SEC:sort] */
/*
 * Sorting on the device. Keys are a 1D float or int array, given as a device array or as host data
 * (gpuc_arg_array / gpuc_arg_host_f32 / gpuc_arg_host_i32), of any length n from 1 to 2^30 that the
 * device can hold; results are new device arrays of n elements that the caller frees (read them with
 * gpuc_array_read_*, or pass them on). Everything stays on the device: nothing is read back.
 *
 * Two methods (gpuc_sort_desc.method), with the same results:
 * - RADIX (the default for large n on the compute backend, see GPUC_SORT_AUTO): 8 stable passes of one
 *   4-bit digit each over the keys mapped to order-preserving ints, lowest digit first (LSD). A pass
 *   counts the digits of every sub-block of 16 elements (and ranks each element among its digit
 *   there), sums those counts per quad of 4 sub-blocks, then within each chunk of 256 (from at most 3
 *   quads and 3 sub-blocks), scans the (digit, chunk) totals (gpuc_scan's prefix sum: 1 dispatch up
 *   to 256 totals, 2^12 keys, about 7 at 2^22 keys) into where each run starts, and scatters every
 *   element to its slot (6 kernels and the scan per pass: 56 dispatches in all at 2^12, 104 at
 *   2^22).
 *   Cost: 8 passes, each reading the keys twice and writing them once (scattered), plus 2 x n/16
 *   vec4 of sub-block counts and prefixes, n/64 vec4 of quad counts and 3 x n/16 ints of run totals
 *   and starts; nothing is read back; the first pass reads the keys as given and the last pass of a
 *   bare-key sort writes them as they came, so no pass of its own maps them in or out. Memory: two
 *   arrays of n ints between passes (n (key, index) pairs, 8 bytes each, for argsort and sort_pairs;
 *   a bare-key sort's result takes one's place for the last pass), a device copy of host keys during
 *   the first pass, the results of argsort and sort_pairs, about 3/4 n ints' worth of counts and runs,
 *   and the scan's levels (made once per sort). Compute-only (a scatter); one pass's
 *   output must fit one storage binding (gpuc_info.max_storage_block_size).
 * - BITONIC (the tutorial's algorithm; the default for small n and on the fragment backend): the
 *   bitonic network over the next power of two P >= n (padded with keys that sort last, removed
 *   afterwards), up to three of its log2(P) (log2(P) + 1) / 2 strides per pass. Cost:
 *   about log2(P)^2 / 6 passes over P keys (79 at 2^22), each reading up to 8 cells of 4 keys per
 *   cell it writes; nothing is read back. Memory: two arrays of P keys (or pairs). P / 4 (P / 2 for
 *   pairs) vec4 cells must not exceed the device's GL_MAX_TEXTURE_BUFFER_SIZE.
 * On llvmpipe (2 cores), 2^22 floats from the host and back: radix 0.27-0.45x the network's time,
 * about 0.47x qsort's (docs/performance/radix-sort.md).
 *
 * Order. Ints sort by value. Floats sort by value, -0.0 counting as less than +0.0; every NaN sorts
 * after every number, in both directions, and comes back as the quiet NaN 0x7fc00000 (its sign and
 * payload are not kept). Other values come back bit for bit.
 *
 * Stability. The radix method is stable; the bitonic network is not. gpuc_argsort and gpuc_sort_pairs
 * order equal keys by the original index (lower index first, in both directions) with either method,
 * so their order is fully determined: they give what a stable sort would.
 */
/* GPUC_SORT_AUTO picks the radix method, where it is available, for more keys than these (bare keys;
 * pairs for argsort and sort_pairs): below, the network's fewer dispatches cost less (measured on
 * llvmpipe, docs/performance/radix-sort.md: 65,536 keys until the radix passes took fewer dispatches;
 * since, from 16,385 to 65,536 keys radix takes 0.44-0.72x the network's time). */
#define GPUC_SORT_RADIX_ABOVE_KEYS 16384
#define GPUC_SORT_RADIX_ABOVE_PAIRS 16384

typedef enum gpuc_sort_method {
    GPUC_SORT_AUTO = 0, /* radix above GPUC_SORT_RADIX_ABOVE_KEYS (_PAIRS) keys where it is available
                         * (compute backend, and it fits), else bitonic */
    GPUC_SORT_BITONIC,  /* the bitonic network (any backend) */
    GPUC_SORT_RADIX     /* the LSD radix sort (compute backend only) */
} gpuc_sort_method;

typedef struct gpuc_sort_desc {
    bool descending;         /* largest first; default ascending */
    gpuc_sort_method method; /* default GPUC_SORT_AUTO */
} gpuc_sort_desc;

/* Sorts `keys` (float or int, 1D) into a new array *sorted of the same type and length.
 * desc may be NULL (ascending, GPUC_SORT_AUTO). Errors: NULL gpu/sorted or host data, n = 0, a method
 * that is not a gpuc_sort_method, GPUC_SORT_RADIX on the fragment backend (GPUC_ERROR_INVALID_ARGUMENT);
 * a 2D/3D or vecN array or a scalar (GPUC_ERROR_TYPE_MISMATCH); more elements than 2^30 or than the
 * device can read, or than the chosen method's limit above (GPUC_ERROR_LIMIT). */
GPUC_API gpuc_status gpuc_sort(gpuc *gpu, gpuc_arg keys, const gpuc_sort_desc *desc, gpuc_array **sorted);

/* Argsort: *indices (int, n) receives the original index of each element in sorted order, ties in
 * index order; *sorted_keys (may be NULL) the sorted keys themselves. Errors as gpuc_sort. */
GPUC_API gpuc_status gpuc_argsort(gpuc *gpu, gpuc_arg keys, const gpuc_sort_desc *desc, gpuc_array **sorted_keys,
                                  gpuc_array **indices);

/* Key-value sort: `values` (float or int, 1D, as long as keys) is the payload that follows its key;
 * *sorted_values receives it in the keys' sorted order (ties in index order), *sorted_keys (may be
 * NULL) the sorted keys. Errors as gpuc_sort, and GPUC_ERROR_INVALID_ARGUMENT for lengths that differ. */
GPUC_API gpuc_status gpuc_sort_pairs(gpuc *gpu, gpuc_arg keys, gpuc_arg values, const gpuc_sort_desc *desc,
                                     gpuc_array **sorted_keys, gpuc_array **sorted_values);

/* ---- Scan and compaction ---------------------------------------------------------- [SEC:scan] */

typedef struct gpuc_scan_desc {
    bool inclusive; /* out[i] includes values[i]; default exclusive (out[0] = 0) */
} gpuc_scan_desc;

/* Prefix sum on the device: *prefix (new, same type and length as `values`, a 1D float or int
 * array, host or device) receives out[i] = values[0] + ... + values[i-1] (exclusive; inclusive adds
 * values[i]). desc may be NULL. Multi-level (block sums of 4 values, then of 16, level upon level
 * until a level of at most 256 values, which one pass adds up): O(n) work, 1 pass up to 256 values,
 * about 2 log16(n / 256) + 1 above (5 at 2^12, 9 at 2^22), each invocation below the top reading at
 * most 16 values, nothing read back. Int sums wrap modulo 2^32. Float sums are added blockwise, not left to right, so they may
 * differ from a sequential sum by rounding. Errors as gpuc_sort. */
GPUC_API gpuc_status gpuc_scan(gpuc *gpu, gpuc_arg values, const gpuc_scan_desc *desc, gpuc_array **prefix);

/* How a value is compared with the threshold: keep it when `value OP threshold`. */
typedef enum gpuc_compare {
    GPUC_COMPARE_NONE = 0, /* no comparison: a .predicate kernel decides */
    GPUC_GREATER,          /* >  */
    GPUC_GREATER_EQUAL,    /* >= */
    GPUC_LESS,             /* <  */
    GPUC_LESS_EQUAL,       /* <= */
    GPUC_EQUAL,            /* == */
    GPUC_NOT_EQUAL         /* != */
} gpuc_compare;

/* How survivors reach their slots. */
typedef enum gpuc_compact_method {
    /* Default: one output cell per survivor finds its element by a search over the blocks' counts of
     * survivors before them (the seed's gather; each group of cells, sized to hold about 4 blocks'
     * survivors, starts from a block found by binary search, its cells then take a few fixed
     * halving steps), then by its rank within the block's mask. Works on both backends. On llvmpipe
     * each cell's chain of dependent reads makes it take about twice the scatter's time. */
    GPUC_COMPACT_GATHER = 0,
    /* One invocation per element writes each survivor to its slot and each dropped element a zero
     * to the tail (a scatter kernel: every output cell written once, so the output is not cleared
     * first). The packed output must fit one storage binding (gpuc_info.max_storage_block_size), else
     * GPUC_ERROR_LIMIT. Compute-only: on the fragment backend it fails saying so. On the software
     * device profile an exact-length result (not .full_length) of at least 131,072 values with 1/8 to
     * under 3/4 of them kept, whose n cells fit one storage binding too, is written at full length
     * into a scratch array of n cells and its
     * survivors copied out on the device: a lane that skips its store (a dropped element past an
     * exact output's end) costs llvmpipe more than that copy (2^18 and 2^22 values, half kept:
     * 0.77x the time; docs/performance/compaction.md). */
    GPUC_COMPACT_SCATTER
} gpuc_compact_method;

typedef struct gpuc_compact_desc {
    /* Either a comparison with a threshold... Float values compare as C compares float32 values (the
     * threshold is rounded to float), on both backends alike: denormals are values (1e-40 > 0),
     * -0.0 == 0.0, and NaN on either side passes only GPUC_NOT_EQUAL. Int values compare as ints and
     * need a whole threshold within int32. */
    gpuc_compare op;
    double threshold;
    /* ...or a predicate: kernel source (THE KERNEL CONTRACT) taking one parameter, the values array
     * (`float v[]` or `int v[]`), and returning int or float for cell thread.x: nonzero keeps it
     * (as C tests it: -0.0 drops, NaN and denormal results keep). The predicate is your code: on the
     * fragment backend its own float comparisons see denormals as zero (gpuc_backend). */
    const char *predicate;
    gpuc_compact_method method;
    /* *packed keeps the input's length: the survivors first, zeros after (otherwise it holds exactly
     * *count cells). Either way the programs do not depend on the count or the length: compacting
     * again, with other thresholds or other data, compiles nothing new in this context, except a
     * gather over survivors that come in uneven clumps (its search takes 3 more halving steps for
     * each 8-fold growth of the widest gap a group of cells must cross), and kernels whose grids are
     * small (under 65,536 cells: an exact-length output, the gather's groups, the n / 32 blocks of a
     * short input) take a program variant per power of two of their size (gpuc_create_kernel), at
     * most five each. */
    bool full_length;
} gpuc_compact_desc;

/* Stream compaction: the values (1D float or int, host or device) that pass the predicate, in their
 * input order, into *packed (new device array of the same type, *count elements, or n with
 * .full_length), *count the number kept. When nothing passes (and not .full_length), *packed is NULL
 * and *count 0. On the device: the predicate is evaluated once per element into a bit mask per
 * block of 32 elements (a threshold comparison reads float values four at a time; a .predicate
 * kernel is one pass more, writing its n results), the masks' bit counts scanned (see gpuc_scan;
 * over n / 32 counts) into the survivors before each block, and the survivors placed by the chosen
 * method. Cost: one read of the values for the masks, one of the values again as they are placed,
 * one write of the output; the scan's passes are over n / 32 values. Memory: n / 8 bytes of masks
 * and about n / 4 bytes of counts beside the output, and the scatter's scratch where it writes at
 * full length first (GPUC_COMPACT_SCATTER; small calls: SMALL ALGORITHM CALLS above). One
 * number (the count) is read back, and for
 * the gather a second (the widest range its searches cover, which sizes them); the gather also
 * makes a start for each group of output cells (n / 128 to n / 64 of them).
 * SMALL INPUTS ON THE HOST: a threshold comparison (not a .predicate) of at most 65,536 values the host
 * holds (host data, or a device array whose host copy is valid: HOST COPIES; other device arrays are
 * never copied) in a context on the software device profile (llvmpipe or zink on lavapipe, either
 * backend, any gpuc_options.threads; not a forced hardware profile, not GPUC_SMALL_CALLS=pool), not
 * profiling or tracing, runs on the host instead: a branch-free C loop, its results bit for bit the
 * kernels', nothing dispatched, uploaded or read back (gpuc_stats counts none), *packed holding its
 * values in host memory until its first use on the device. On llvmpipe the kernels cost about 0.085
 * ms at 4,096 values even in the calling thread; measured (2 cores, median of 301, host data in, the
 * result read), 4,096 values a call: default context 75-100 -> 4-6 us, GPUC_THREADS_CALLER 103-109 ->
 * 5 us, fragment backend (gather) 336-344 -> 4.5-5 us; 65,536 values 1.2-1.9 -> 0.07 ms. On a GPU the
 * kernels run (not measured there). Errors as gpuc_sort;
 * GPUC_ERROR_INVALID_ARGUMENT for a NULL desc, no or two predicates, an unknown op or method, or a
 * fractional threshold for int values; a predicate that does not compile fails as gpuc_create_kernel
 * does. */
GPUC_API gpuc_status gpuc_compact(gpuc *gpu, gpuc_arg values, const gpuc_compact_desc *desc, gpuc_array **packed,
                                  size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* GPUC_H */
