/* run.c - gpuc_run / gpuc_run_to: check every argument against the kernel's signature before touching
 * any state, upload host arrays, bind, dispatch (in several ranges when the output is larger than
 * one dispatch or one storage binding allows) and, without .pipeline, read the result back. */
#include "kernel/kernel.h"
#include "kernel/kernel_args.h"
#include "kernel/constant_arrays.h"
#include "kernel/kernel_loops.h"
#include "kernel/codegen/kernel_specialise.h"
#include "kernel/program/program_table.h"
#include "kernel/small_calls.h"

#include <stdio.h>

static const char *arg_kind_name(gpuc_arg_kind kind)
{
    switch (kind) {
    case GPUC_ARG_ARRAY: return "a device array";
    case GPUC_ARG_HOST_F32: return "host float32 data";
    case GPUC_ARG_HOST_I32: return "host int32 data";
    case GPUC_ARG_F32: return "a float scalar";
    case GPUC_ARG_I32: return "an int scalar";
    case GPUC_ARG_VEC: return "a vector";
    default: return "no argument (GPUC_ARG_NONE)";
    }
}

/* The parameter's name as its user wrote it (a JavaScript kernel's is not its GLSL name). */
static const char *param_name(const kernel_param *p)
{
    return p->shown[0] ? p->shown : p->name;
}

/* A GLSL parameter as declared (`float a[]`); a JavaScript one by its name and what it takes in
 * JavaScript's terms (`a`, an array of numbers). */
static void describe_param(const kernel_param *p, char *out, size_t len)
{
    static const char *const brackets[] = {"", "[]", "[][]", "[][][]"};
    int n = gpuc_type_components(p->type);
    const char *number = p->type == GPUC_INT ? "integer" : "number";
    if (!p->shown[0])
        snprintf(out, len, "`%s %s%s`", gpuc_type_name(p->type), p->name, brackets[p->rank]);
    else if (p->rank > 0 && n > 1)
        snprintf(out, len, "`%s`, an array of %d-number cells (Array1D(%d))", p->shown, n, n);
    else if (p->rank > 0)
        snprintf(out, len, "`%s`, an array of %ss", p->shown, number);
    else if (n > 1)
        snprintf(out, len, "`%s`, an array of %d numbers (Array(%d))", p->shown, n, n);
    else if (p->type == GPUC_BOOL)
        snprintf(out, len, "`%s`, a Boolean", p->shown);
    else
        snprintf(out, len, "`%s`, %s %s", p->shown, p->type == GPUC_INT ? "an" : "a", number);
}

static gpuc_status mismatch(const gpuc_kernel *k, int i, const char *fmt_detail, const char *detail)
{
    char param[KERNEL_NAME_MAX + 64], msg[256];
    describe_param(&k->sig.params[i], param, sizeof param);
    snprintf(msg, sizeof msg, fmt_detail, detail);
    return gpuc_fail(k->gpu, GPUC_ERROR_TYPE_MISMATCH, "kernel '%s', argument %d (%s): %s", k->name, i, param, msg);
}

/* A parameter's rank fits an argument's: equal, or any for a rank-blind (JavaScript) parameter. */
static bool rank_fits(const kernel_param *p, int rank)
{
    return rank == p->rank || p->any_rank;
}

static gpuc_status check_array_arg(const gpuc_kernel *k, int i, const gpuc_arg *a, const gpuc_array *dst)
{
    const kernel_param *p = &k->sig.params[i];
    if (a->kind == GPUC_ARG_ARRAY) {
        if (!a->array)
            return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s', argument %d (`%s`): the array is NULL",
                             k->name, i, param_name(p));
        if (a->array->gpu != k->gpu)
            return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s', argument %d (`%s`): the array belongs to another gpuc context", k->name, i,
                             param_name(p));
        if (a->array == dst)
            return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s', argument %d (`%s`): the destination array is also an input; a kernel "
                             "cannot read and write one array in the same run (use two and swap)",
                             k->name, i, param_name(p));
        if (a->array->truncated_by[0]) {
            char doing[2 * KERNEL_NAME_MAX + 48];
            snprintf(doing, sizeof doing, "kernel '%s', argument %d (`%s`)", k->name, i, param_name(p));
            return gpuc_array_refuse_truncated(a->array, doing);
        }
        if (a->array->type != p->type && !kernel_reads_floats_as_vec4(p, a->array->type, a->array->dims))
            return mismatch(k, i, "got a %s array", gpuc_type_name(a->array->type));
        int rank = gpuc_dims_rank(a->array->dims);
        if (!rank_fits(p, rank)) {
            char got[32];
            snprintf(got, sizeof got, "%dD", rank);
            return mismatch(k, i, "got a %s array", got);
        }
        return GPUC_OK;
    }
    if (a->kind != GPUC_ARG_HOST_F32 && a->kind != GPUC_ARG_HOST_I32)
        return mismatch(k, i, "expected an array, got %s", arg_kind_name(a->kind));
    if ((a->kind == GPUC_ARG_HOST_I32) != (p->type == GPUC_INT))
        return mismatch(k, i, p->shown[0] ? "got %s (host data is float32, gpuc_arg_host_f32, for arrays of numbers, "
                                            "int32 for arrays of integers)"
                                          : "got %s (host data is float32 for float and vecN parameters, int32 for int "
                                            "ones)",
                        arg_kind_name(a->kind));
    if (!a->host)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s', argument %d (`%s`): host data is NULL",
                         k->name, i, param_name(p));
    size_t cells;
    int rank;
    gpuc_status st = gpuc_dims_check(k->gpu, a->dims, "host data", &cells, &rank);
    if (st != GPUC_OK) { /* the message names the kernel and the argument: made only when needed */
        char what[2 * KERNEL_NAME_MAX + 48];
        snprintf(what, sizeof what, "kernel '%s', argument %d (`%s`)", k->name, i, param_name(p));
        return gpuc_dims_check(k->gpu, a->dims, what, &cells, &rank);
    }
    if (!rank_fits(p, rank)) {
        char got[32];
        snprintf(got, sizeof got, "%dD", rank);
        return mismatch(k, i, "got %s host data", got);
    }
    return GPUC_OK;
}

/* A `vecN v` parameter takes GPUC_ARG_VEC with exactly N components. */
static gpuc_status check_vec_arg(const gpuc_kernel *k, int i, const gpuc_arg *a)
{
    int want = gpuc_type_components(k->sig.params[i].type);
    char helper[32];
    snprintf(helper, sizeof helper, "gpuc_arg_vec%d", want);
    if (a->kind != GPUC_ARG_VEC) {
        char detail[96];
        snprintf(detail, sizeof detail, "expected a vector of %d (%s), got %s", want, helper, arg_kind_name(a->kind));
        return mismatch(k, i, "%s", detail);
    }
    if (a->components != want) {
        char detail[96];
        snprintf(detail, sizeof detail, "expected a vector of %d (%s), got one of %d components", want, helper,
                 a->components);
        return mismatch(k, i, "%s", detail);
    }
    return GPUC_OK;
}

static gpuc_status check_args(const gpuc_kernel *k, const gpuc_arg *args, int nargs, const gpuc_array *dst)
{
    if (nargs != k->sig.nparams)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s' takes %d argument%s, got %d", k->name,
                         k->sig.nparams, k->sig.nparams == 1 ? "" : "s", nargs);
    if (nargs > 0 && !args)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s': args is NULL", k->name);
    for (int i = 0; i < nargs; i++) {
        const kernel_param *p = &k->sig.params[i];
        gpuc_status st = GPUC_OK;
        if (p->rank > 0)
            st = check_array_arg(k, i, &args[i], dst);
        else if (p->type == GPUC_FLOAT && args[i].kind != GPUC_ARG_F32)
            st = mismatch(k, i, "expected a float scalar (gpuc_arg_f32), got %s", arg_kind_name(args[i].kind));
        else if (p->type == GPUC_INT && args[i].kind != GPUC_ARG_I32)
            st = mismatch(k, i, "expected an int scalar (gpuc_arg_i32), got %s", arg_kind_name(args[i].kind));
        else if (p->type == GPUC_BOOL && args[i].kind != GPUC_ARG_I32 && args[i].kind != GPUC_ARG_F32)
            st = mismatch(k, i, "expected a Boolean (gpuc_arg_bool, or a number: 0 is false), got %s",
                          arg_kind_name(args[i].kind));
        else if (p->type >= GPUC_VEC2 && p->type <= GPUC_VEC4)
            st = check_vec_arg(k, i, &args[i]);
        if (st != GPUC_OK)
            return st;
    }
    return GPUC_OK;
}

/* The device array an array argument is read from: the user's, or the kernel's upload of host data. */
static gpuc_status array_for_arg(gpuc_kernel *k, int i, const gpuc_arg *a, gpuc_array **out)
{
    if (a->kind == GPUC_ARG_ARRAY) {
        *out = (gpuc_array *)a->array;
        return GPUC_OK;
    }
    const kernel_param *p = &k->sig.params[i];
    gpuc_type type = kernel_arg_type(p, a);
    gpuc_array *u = k->upload[i];
    bool fits = u && u->type == type && u->dims.x == a->dims.x && u->dims.y == a->dims.y && u->dims.z == a->dims.z;
    if (!fits) {
        gpuc_array *fresh;
        gpuc_status st = gpuc_array_make(k->gpu, type, a->dims, ARRAY_INTERNAL | ARRAY_OVERWRITTEN, &fresh);
        if (st != GPUC_OK)
            return st;
        if (u)
            gpuc_array_destroy(u);
        k->upload[i] = u = fresh;
    }
    *out = u;
    return gpuc_array_upload(u, a->host);
}

/* Binds array argument i where the program reads it: its image view, or (buffer_reads) its buffer as a
 * storage buffer, which must fit one storage binding. */
static gpuc_status bind_array(const gpuc_kernel *k, int i, gpuc_array *a)
{
    if (k->buffer_reads) {
        if ((int64_t)a->bytes > k->gpu->info.max_storage_block_size)
            return gpuc_fail(k->gpu, GPUC_ERROR_LIMIT,
                             "kernel '%s', argument %d (`%s`): the array is %zu bytes; an array read from a storage "
                             "buffer must fit one binding (GL_MAX_SHADER_STORAGE_BLOCK_SIZE = %lld)", k->name, i,
                             param_name(&k->sig.params[i]), a->bytes, (long long)k->gpu->info.max_storage_block_size);
        gpuc_status st = gpuc_array_to_device(a);
        if (st == GPUC_OK)
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)k->image_unit[i], a->buffer);
        return st;
    }
    GLuint view;
    GLenum format;
    gpuc_status st = gpuc_array_view(a, k->scalar_view[i], &view, &format);
    if (st == GPUC_OK)
        glBindImageTexture((GLuint)k->image_unit[i], view, 0, GL_FALSE, 0, GL_READ_ONLY, format);
    return st;
}

/* A Boolean argument as JavaScript reads a number: false for 0, -0 and NaN, true otherwise. */
static bool arg_truthy(const gpuc_arg *a)
{
    return a->kind == GPUC_ARG_I32 ? a->i32 != 0 : a->f32 == a->f32 && a->f32 != 0.0f;
}

/* Uniforms the compiler dropped (location -1) are not set: GL would ignore the call, after a lookup
 * that costs as much as setting one (an array's size uniform is unused by 1D reads). */
static gpuc_status bind_args(gpuc_kernel *k, const gpuc_arg *args)
{
    for (int i = 0; i < k->sig.nparams; i++) {
        const kernel_param *p = &k->sig.params[i];
        if (p->rank == 0 && k->param_location[i] < 0)
            continue;
        if (p->rank == 0) {
            if (p->type == GPUC_FLOAT)
                glUniform1f(k->param_location[i], args[i].f32);
            else if (p->type == GPUC_INT)
                glUniform1i(k->param_location[i], args[i].i32);
            else if (p->type == GPUC_BOOL)
                glUniform1i(k->param_location[i], arg_truthy(&args[i]));
            else if (p->type == GPUC_VEC2)
                glUniform2fv(k->param_location[i], 1, args[i].vec);
            else if (p->type == GPUC_VEC3)
                glUniform3fv(k->param_location[i], 1, args[i].vec);
            else
                glUniform4fv(k->param_location[i], 1, args[i].vec);
            continue;
        }
        gpuc_array *a;
        gpuc_status st = array_for_arg(k, i, &args[i], &a);
        if (st == GPUC_OK)
            st = bind_array(k, i, a);
        if (st != GPUC_OK)
            return st;
        if (k->param_location[i] < 0)
            continue;
        GLint size[3];
        kernel_array_size(p, a->type, a->dims, size);
        glUniform3i(k->param_location[i], size[0], size[1], size[2]);
    }
    return GPUC_OK;
}

/* Binds output `binding` (0: the result, 1 + i: map output i) to the cells [first, first + count),
 * rounded up to a whole texel (kernels storing texels write the padding of the array's last one). */
static void bind_output(const gpuc_kernel *k, int binding, const gpuc_array *dst, size_t first, size_t count)
{
    gpuc_type t = binding == 0 ? k->result_type : k->maps[binding - 1].type;
    size_t cell_bytes = (size_t)gpuc_type_components(t) * 4;
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, (GLuint)binding, dst->buffer, (GLintptr)(first * cell_bytes),
                      (GLsizeiptr)((count * cell_bytes + 15) / 16 * 16));
}

/* The entry of the program in use, whose range uniforms a dispatch sets: the kernel's own, or the
 * program specialised to its argument sizes (kernel_specialise.c), which has uniforms of its own. */
static program_entry *program_in_use(const gpuc_kernel *k)
{
    return k->special && k->program == k->special->program ? k->special : k->cached;
}

static void set_range(const gpuc_kernel *k, GLuint first, GLuint count)
{
    program_entry *e = program_in_use(k);
    if (e->range_set && e->range_first == first && e->range_count == count)
        return;
    glUniform1ui(k->first_cell_location, first);
    glUniform1ui(k->cell_count_location, count);
    e->range_set = true;
    e->range_first = first;
    e->range_count = count;
}

static void dispatch(gpuc_kernel *k, gpuc_array *const *dsts)
{
    if (k->scatter) /* it may write anywhere: bind all of it (checked to fit at creation) */
        bind_output(k, 0, dsts[0], 0, k->cells);
    for (size_t first = 0; first < k->grid_cells; first += k->cells_per_dispatch) {
        size_t count = k->grid_cells - first < k->cells_per_dispatch ? k->grid_cells - first : k->cells_per_dispatch;
        for (int i = 0; !k->scatter && i <= k->nmaps; i++)
            bind_output(k, i, dsts[i], first, count);
        set_range(k, (GLuint)first, (GLuint)count);
        size_t per_group = (size_t)k->gpu->device_profile.local_size * (size_t)k->cells_per_invocation *
                           kernel_step_cells(k);
        glDispatchCompute((GLuint)((count + per_group - 1) / per_group), 1, 1);
        k->gpu->stats.dispatches++;
    }
    /* Whatever reads dst next (an image load, a map, a copy) must see these writes. */
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                    GL_BUFFER_UPDATE_BARRIER_BIT);
}

/* A program whose sizes are uniforms is shared by kernels of other sizes: set this kernel's. */
static void bind_sizes(const gpuc_kernel *k)
{
    const gpuc_dims *d[] = {&k->output, &k->grid};
    const GLint at[] = {k->output_size_location, k->grid_location};
    for (int i = 0; i < 2; i++)
        if (at[i] >= 0)
            glUniform3i(at[i], (GLint)d[i]->x, d[i]->y ? (GLint)d[i]->y : 1, d[i]->z ? (GLint)d[i]->z : 1);
}

static gpuc_status run_on_twin(gpuc_kernel *k, const gpuc_arg *args, const small_call_host *host, gpuc_array *dst);
static gpuc_status run_here(gpuc_kernel *k, const gpuc_arg *args, gpuc_array *const *dsts);

/* Runs the kernel into dsts[0] (and its map outputs into dsts[1..nmaps]): a small call on the twin,
 * the rest on the context. A run whose loops llvmpipe cut short fails, and leaves the outputs marked
 * truncated. */
static gpuc_status run_into(gpuc_kernel *k, const gpuc_arg *args, gpuc_array *const *dsts)
{
    small_call_host host;
    if (small_call_wanted(k, args, &host))
        return run_on_twin(k, args, &host, dsts[0]);
    return run_here(k, args, dsts);
}

/* run_into on the context itself (current here). */
static gpuc_status run_here(gpuc_kernel *k, const gpuc_arg *args, gpuc_array *const *dsts)
{
    for (int i = 0; i <= k->nmaps; i++) { /* a host-held array given as dst gets its buffer first */
        gpuc_status made = gpuc_array_to_device(dsts[i]);
        if (made != GPUC_OK)
            return made;
    }
    profile_run prof;
    profile_start(k, &prof);
    kernel_specialise(k, args);
    glUseProgram(k->program);
    bind_sizes(k);
    constant_arrays_bind(k);
    profile_program(k, &prof);
    gpuc_status st = bind_args(k, args);
    if (st == GPUC_OK && kernel_loop_status(k))
        st = kernel_loops_bind(k);
    if (st != GPUC_OK)
        return st;
    profile_uploaded(k, &prof);
    profile_draw_begin(k, &prof);
    if (k->fragment)
        st = fragment_draw(k, dsts);
    else
        dispatch(k, dsts);
    profile_draw_end(k, &prof);
    for (int i = 0; i <= k->nmaps; i++) {
        dsts[i]->mirror_valid = false;
        dsts[i]->truncated_by[0] = '\0';
    }
    if (st == GPUC_OK)
        st = gpuc_check_gl(k->gpu, k->name);
    /* The guard is verified after a good run only; the cap count is read (and cleared) after every run. */
    gpuc_status looped = kernel_loops_after_run(k, st == GPUC_OK && k->loop_guard, &prof.capped_cells);
    if (st == GPUC_OK && (st = looped) == GPUC_ERROR_LIMIT)
        for (int i = 0; i <= k->nmaps; i++)
            snprintf(dsts[i]->truncated_by, sizeof dsts[i]->truncated_by, "%s", k->name);
    profile_fetching(k, &prof);
    for (int i = 0; st == GPUC_OK && !k->pipeline && i <= k->nmaps; i++)
        st = gpuc_array_fetch_mirror(dsts[i]);
    profile_finish(k, &prof, st);
    return st;
}

/* Hands k's context over to its twin for a call (egl_device_hand_over: the context stays held by this
 * thread while the twin is current here); false (the message on the context) when EGL refuses. */
static bool over_to_twin(gpuc_kernel *k)
{
    if (egl_device_hand_over(&k->gpu->device, &k->twin->gpu->device))
        return true;
    gpuc_fail(k->gpu, GPUC_ERROR_NO_DEVICE, "kernel '%s': could not make the calling-thread twin current for a "
              "small call", k->name);
    return false;
}

/* Makes k's context current again after work on its twin; false (the message on the context) when EGL
 * refuses. */
static bool back_from_twin(gpuc_kernel *k)
{
    if (egl_device_make_current(&k->gpu->device))
        return true;
    gpuc_fail(k->gpu, GPUC_ERROR_NO_DEVICE, "kernel '%s': could not make the GL context current again after a "
              "small call in its calling-thread twin", k->name);
    return false;
}

/* A small call on the kernel's twin (kernel/small_calls.c): the twin runs with the arguments as
 * small_call_wanted gave them (`host`; `args` are the context's, for its path if the twin fails) into
 * its own array, read back there; its values are copied into dst, which then reads as a result
 * read back does (a .pipeline result too: the twin reads back whatever it computes). The context's
 * counters and the kernel's count the run as the context's own path would: the twin's uploads,
 * dispatches, read-back (none for .pipeline) and the programs it compiles for the call (the context
 * would have compiled them), not the copies. The context is current here, or the twin already
 * stands in for it (a small call before this one left it so); a host-held dst leaves the twin standing
 * in, any other dst the context current. */
static gpuc_status run_on_twin(gpuc_kernel *k, const gpuc_arg *args, const small_call_host *host, gpuc_array *dst)
{
    gpuc *gpu = k->gpu, *twin = k->twin->gpu;
    gpuc_kernel *t = k->twin;
    gpuc_twin_copies copies = host->copies;
    if (k->pipeline) { /* the twin reads the result back; the context's path would leave it on the device */
        copies.readbacks = 1;
        copies.bytes_read_back = (uint64_t)dst->values * 4;
    }
    /* A program the twin compiles for the call (specialised to its sizes) is one the context would have. */
    uint64_t compiled_was = twin->stats.programs_compiled, hits_was = twin->stats.program_cache_hits;
    if (!k->twin_result) { /* a first run, not counted: llvmpipe compiles the twin's machine code */
        gpuc_status warm = over_to_twin(k) ? GPUC_OK : GPUC_ERROR_NO_DEVICE;
        if (warm == GPUC_OK)
            warm = gpuc_array_make(twin, k->result_type, k->output, ARRAY_INTERNAL | ARRAY_OVERWRITTEN,
                                   &k->twin_result);
        if (warm == GPUC_OK)
            warm = run_into(t, host->args, &k->twin_result);
        if (!back_from_twin(k))
            return GPUC_ERROR_NO_DEVICE;
        if (warm != GPUC_OK) { /* the twin failed where the context may not: the context's path serves */
            small_call_forget(k, true);
            return run_into(k, args, &dst);
        }
    }
    profile_run prof;
    profile_start(k, &prof);
    prof.program = NULL; /* the twin's program counts its own first run */
    prof.capped_cells = 0;
    gpuc_stats was = twin->stats;
    gpuc_kernel_stats twin_was = t->profile.stats;
    gpuc_status st = GPUC_ERROR_NO_DEVICE; /* over_to_twin's message */
    if (over_to_twin(k) && (st = run_into(t, host->args, &k->twin_result)) != GPUC_OK)
        /* the twin's message names the kernel and the argument as the context's would */
        snprintf(gpu->errmsg, sizeof gpu->errmsg, "%s", twin->errmsg);
    profile_fetching(k, &prof);
    /* A host-held dst (gpuc_run's new result) takes the values as its host copy, and the twin stays
     * current in the context's place: the next small call, the read and the free need no switch.
     * Any other dst is written on the context. */
    bool host_held = !dst->buffer;
    if (!host_held && !back_from_twin(k))
        return GPUC_ERROR_NO_DEVICE;
    if (st == GPUC_OK && !host_held) {
        uint64_t uploaded = gpu->stats.bytes_uploaded;
        st = gpuc_array_upload_part(dst, 0, dst->values, k->twin_result->mirror);
        gpu->stats.bytes_uploaded = uploaded; /* a copy, not an upload of the call */
    }
    if (st == GPUC_OK)
        st = gpuc_array_mirror_host(dst, k->twin_result->mirror);
    if (st == GPUC_OK)
        k->twin_runs++;
    else { /* as after a failed run on the context: dst's contents are not known */
        dst->mirror_valid = false;
        dst->truncated_by[0] = '\0';
    }
    gpuc_stats_add_twin(gpu, &was, &twin->stats, &copies);
    gpu->stats.programs_compiled += twin->stats.programs_compiled - compiled_was;
    gpu->stats.program_cache_hits += twin->stats.program_cache_hits - hits_was;
    prof.first = t->profile.stats.first_runs > twin_was.first_runs;
    prof.uploaded = prof.start + (t->profile.stats.upload_ms - twin_was.upload_ms);
    prof.fetching -= t->profile.stats.read_back_ms - twin_was.read_back_ms;
    profile_finish(k, &prof, st);
    return st;
}

/* The arguments with each array handle replaced by its array, in `own` (checked later by check_args;
 * a freed array fails here, naming the call, the kernel and the argument). */
static gpuc_status open_args(const gpuc_kernel *k, const char *call, const gpuc_arg *args, int nargs,
                             gpuc_arg own[GPUC_MAX_ARGS], const gpuc_arg **opened)
{
    *opened = args;
    if (!args || nargs <= 0 || nargs > GPUC_MAX_ARGS)
        return GPUC_OK; /* check_args says what is wrong */
    for (int i = 0; i < nargs; i++) {
        own[i] = args[i];
        if (args[i].kind != GPUC_ARG_ARRAY || !args[i].array)
            continue;
        gpuc_status st = GPUC_OK;
        own[i].array = gpuc_handle_body(args[i].array, GPUC_TAG_ARRAY, call, &st);
        if (st != GPUC_OK) {
            char what[KERNEL_NAME_MAX + 64];
            snprintf(what, sizeof what, "%s: kernel '%s', argument %d", call, k->name, i);
            return gpuc_handle_refuse(args[i].array, GPUC_TAG_ARRAY, what);
        }
    }
    *opened = own;
    return GPUC_OK;
}

static gpuc_status run_outputs(gpuc_kernel *k, const char *call, const gpuc_arg *given, int nargs,
                               gpuc_array **results, bool gl_ready);

static gpuc_status refuse_map(const gpuc_kernel *k, const char *call)
{
    return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                     "%s: kernel '%s' is a kernel map (%d outputs besides its result); run it with gpuc_run_map", call,
                     k->name, k->nmaps);
}

gpuc_status gpuc_run(gpuc_kernel *handle, const gpuc_arg *args, int nargs, gpuc_array **result)
{
    gpuc_kernel *k;
    bool gl_ready = true;
    gpuc_status st = kernel_open(handle, "gpuc_run", &k);
    if (st == GPUC_OK) /* the context is made current only if the call is not small (run_outputs) */
        st = gpuc_enter_host(k->gpu, &gl_ready);
    if (st != GPUC_OK)
        return st;
    if (k->nmaps)
        return refuse_map(k, "gpuc_run");
    if (!result)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_run: result is NULL");
    return run_outputs(k, "gpuc_run", args, nargs, result, gl_ready);
}

gpuc_status gpuc_run_map(gpuc_kernel *handle, const gpuc_arg *args, int nargs, gpuc_array **results)
{
    gpuc_kernel *k;
    gpuc_status st = kernel_enter(handle, "gpuc_run_map", &k);
    if (st != GPUC_OK)
        return st;
    if (!results)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_run_map: results is NULL");
    return run_outputs(k, "gpuc_run_map", args, nargs, results, true);
}

/* gpuc_run and gpuc_run_map once the kernel is open: new arrays for the result and each map output.
 * (gpuc_run does not call gpuc_run_map, which would ask EGL a second time whether the context is
 * current: each EGL call costs a system call, a tenth of a small call's host time.) */
static gpuc_status run_outputs(gpuc_kernel *k, const char *call, const gpuc_arg *given, int nargs,
                               gpuc_array **results, bool gl_ready)
{
    gpuc_arg own[GPUC_MAX_ARGS];
    const gpuc_arg *args;
    gpuc_status st = open_args(k, call, given, nargs, own, &args);
    if (st == GPUC_OK)
        st = check_args(k, args, nargs, NULL);
    if (st != GPUC_OK)
        return st;
    /* A small call's result is host-held: the twin fills its host copy, and nothing of the context is
     * touched (where the twin stands in for it, nothing has made it current for this call). */
    small_call_host host;
    bool small = small_call_wanted(k, args, &host);
    if (!small && !gl_ready && (st = gpuc_enter(k->gpu)) != GPUC_OK)
        return st;
    gpuc_array *dsts[1 + GPUC_MAX_MAP_OUTPUTS] = {NULL};
    /* An ordinary kernel writes every cell; a scatter kernel's unwritten cells must read 0. */
    for (int i = 0; st == GPUC_OK && i <= k->nmaps; i++)
        st = gpuc_array_make(k->gpu, i ? k->maps[i - 1].type : k->result_type, k->output,
                             small ? ARRAY_HOST_HELD : k->scatter ? 0 : ARRAY_OVERWRITTEN, &dsts[i]);
    if (st == GPUC_OK)
        st = small ? run_on_twin(k, args, &host, dsts[0]) : run_here(k, args, dsts);
    if (st != GPUC_OK) {
        for (int i = 0; i <= k->nmaps; i++)
            if (dsts[i])
                gpuc_array_destroy(dsts[i]);
        return st;
    }
    for (int i = 0; i <= k->nmaps; i++)
        results[i] = gpuc_array_handed_out(dsts[i]);
    return GPUC_OK;
}

gpuc_status gpuc_run_to(gpuc_kernel *handle, const gpuc_arg *given, int nargs, gpuc_array *dst_handle)
{
    gpuc_kernel *k;
    gpuc_status st = kernel_enter(handle, "gpuc_run_to", &k);
    if (st != GPUC_OK)
        return st;
    if (k->nmaps)
        return refuse_map(k, "gpuc_run_to");
    if (!dst_handle)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_run_to: dst is NULL");
    gpuc_array *dst;
    if ((st = gpuc_array_open(dst_handle, "gpuc_run_to: dst", &dst)) != GPUC_OK)
        return st;
    gpuc_arg own[GPUC_MAX_ARGS];
    const gpuc_arg *args;
    if ((st = open_args(k, "gpuc_run_to", given, nargs, own, &args)) != GPUC_OK)
        return st;
    if (dst->gpu != k->gpu)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_run_to: dst belongs to another gpuc context");
    if (dst->type != k->result_type || dst->cells != k->cells)
        return gpuc_fail(k->gpu, GPUC_ERROR_TYPE_MISMATCH,
                         "kernel '%s' returns %zu %s cells; dst holds %zu %s cells", k->name, k->cells,
                         gpuc_type_name(k->result_type), dst->cells, gpuc_type_name(dst->type));
    st = check_args(k, args, nargs, dst);
    if (st != GPUC_OK)
        return st;
    return run_into(k, args, &dst);
}
