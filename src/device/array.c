/* array.c - arrays in device memory (GPU.js's Texture): one GL buffer each, padded to whole 16-byte
 * texels so that kernels can read it through an rgba32f/rgba32i buffer-texture view at memory
 * bandwidth (SSBO loads are 8-30x slower on llvmpipe: docs/performance/README.md). */
#include "internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Cells above this make thread indices overflow a GLSL int. */
#define MAX_CELLS ((size_t)INT32_MAX)
/* An array made or written from host data of at most this many values keeps that data as its host
 * copy: reading it then reads nothing back, and an algorithm call small enough for the calling-thread
 * twin (65,536 elements, src/algo/algo_twin.c) can take it there as host data instead of paying
 * llvmpipe's thread hand-off for every pass (compaction of 4,096 values of such an array: 3 dispatches
 * on the pool; docs/performance/small-inputs.md). At most 256 KB of host memory per array. */
#define HOST_COPY_MOST_VALUES 65536
/* Byte counts (cells * 4 components * 4 bytes < 2^35) are size_t products that need 64 bits. */
_Static_assert(sizeof(size_t) >= 8, "gpuc's size arithmetic assumes a 64-bit size_t");

int gpuc_type_components(gpuc_type type)
{
    switch (type) {
    case GPUC_FLOAT:
    case GPUC_INT: return 1;
    case GPUC_VEC2: return 2;
    case GPUC_VEC3: return 3;
    case GPUC_VEC4: return 4;
    default: return 0;
    }
}

const char *gpuc_type_name(gpuc_type type)
{
    switch (type) {
    case GPUC_FLOAT: return "float";
    case GPUC_INT: return "int";
    case GPUC_VEC2: return "vec2";
    case GPUC_VEC3: return "vec3";
    case GPUC_VEC4: return "vec4";
    case GPUC_BOOL: return "bool";
    default: return "(no type)";
    }
}

int gpuc_dims_rank(gpuc_dims dims)
{
    return dims.z ? 3 : dims.y ? 2 : 1;
}

gpuc_status gpuc_dims_check(gpuc *gpu, gpuc_dims dims, const char *what, size_t *cells, int *rank)
{
    if (dims.x == 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: size {%u, %u, %u} has x = 0 (x must be at least 1)",
                         what, dims.x, dims.y, dims.z);
    if (dims.z && !dims.y)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "%s: size {%u, 0, %u} has z without y (use {x}, {x, y} or {x, y, z})", what, dims.x, dims.z);
    /* Checked: {2^31, 2^31, 4} is 2^64 cells, which a plain product wraps to 0. */
    uint64_t total;
    if (__builtin_mul_overflow((uint64_t)dims.x, (uint64_t)(dims.y ? dims.y : 1), &total) ||
        __builtin_mul_overflow(total, (uint64_t)(dims.z ? dims.z : 1), &total))
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "%s: size {%u, %u, %u} is more than 2^64 cells; gpuc's limit is %zu "
                         "(2^31 - 1)", what, dims.x, dims.y, dims.z, MAX_CELLS);
    if (total > MAX_CELLS)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "%s: size {%u, %u, %u} is %llu cells; gpuc's limit is %zu (2^31 - 1)",
                         what, dims.x, dims.y, dims.z, (unsigned long long)total, MAX_CELLS);
    *cells = (size_t)total;
    *rank = gpuc_dims_rank(dims);
    return GPUC_OK;
}

static void array_child_destroy(gpuc_child *child, bool gl)
{
    gpuc_array_destroy_gl((gpuc_array *)((char *)child - offsetof(gpuc_array, child)), gl);
}

/* A kept buffer of exactly `bytes`, taken out of the context's spares, or 0. Its old contents are as
 * undefined as a new buffer's: gpuc_array_make clears what it must either way. */
static GLuint take_spare_buffer(gpuc *gpu, size_t bytes)
{
    for (int i = 0; i < GPUC_SPARE_BUFFERS; i++)
        if (gpu->spare_buffers[i].buffer && gpu->spare_buffers[i].bytes == bytes) {
            GLuint b = gpu->spare_buffers[i].buffer;
            gpu->spare_buffers[i].buffer = 0;
            return b;
        }
    return 0;
}

/* Keeps a freed array's buffer for the next array of its size when it is small or the kept buffers,
 * it with them, hold at most GPUC_SPARE_BYTES_MAX: in a free slot, else in place of the smallest
 * kept buffer when that one is smaller. A small buffer costs little to make again; a large one costs
 * llvmpipe fresh pages at its first write (an algorithm call frees several small arrays before its
 * caller frees the large ones: with first come, first kept, a loop of 2^18-value compactions made a
 * new 1 MiB and a new 512 KiB buffer at every call). */
static bool keep_spare_buffer(gpuc *gpu, GLuint buffer, size_t bytes)
{
    size_t kept = bytes;
    int slot = -1, smallest = -1;
    for (int i = 0; i < GPUC_SPARE_BUFFERS; i++) {
        if (!gpu->spare_buffers[i].buffer) {
            slot = slot < 0 ? i : slot;
            continue;
        }
        kept += gpu->spare_buffers[i].bytes;
        if (smallest < 0 || gpu->spare_buffers[i].bytes < gpu->spare_buffers[smallest].bytes)
            smallest = i;
    }
    if (bytes > GPUC_SPARE_BUFFER_MAX_BYTES && kept > GPUC_SPARE_BYTES_MAX)
        return false;
    if (slot < 0) {
        if (smallest < 0 || gpu->spare_buffers[smallest].bytes >= bytes)
            return false;
        glDeleteBuffers(1, &gpu->spare_buffers[smallest].buffer);
        slot = smallest;
    }
    gpu->spare_buffers[slot].buffer = buffer;
    gpu->spare_buffers[slot].bytes = bytes;
    return true;
}

void gpuc_array_spares_free(gpuc *gpu, bool gl)
{
    for (int i = 0; i < GPUC_SPARE_BUFFERS; i++) {
        if (gl && gpu->spare_buffers[i].buffer)
            glDeleteBuffers(1, &gpu->spare_buffers[i].buffer);
        gpu->spare_buffers[i].buffer = 0;
    }
}

/* Gives a its buffer: a kept one of its size, or a new one. Bytes [0, keep) are the caller's (written
 * from `data` when given, else about to be overwritten); the rest (padding included, which reads past
 * the end of the data must see as 0) is cleared: clearing data the caller overwrites anyway would
 * cost a full pass over memory. */
static gpuc_status make_buffer(gpuc_array *a, size_t keep, const void *data)
{
    glGetError(); /* start clean: the allocation's own error is what we want to see */
    a->buffer = take_spare_buffer(a->gpu, a->bytes);
    if (a->buffer) {
        glBindBuffer(GL_COPY_WRITE_BUFFER, a->buffer);
    } else {
        glGenBuffers(1, &a->buffer);
        glBindBuffer(GL_COPY_WRITE_BUFFER, a->buffer);
        glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)a->bytes, NULL, GL_DYNAMIC_COPY);
    }
    if (data && keep)
        glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)keep, data);
    GLuint zero = 0;
    if (keep < a->bytes)
        glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, (GLintptr)keep, (GLsizeiptr)(a->bytes - keep),
                             GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    gpuc_status st = gpuc_check_gl(a->gpu, "allocating an array");
    if (st != GPUC_OK) {
        glDeleteBuffers(1, &a->buffer);
        a->buffer = 0;
    }
    return st;
}

gpuc_status gpuc_array_to_device(gpuc_array *a)
{
    if (a->buffer)
        return GPUC_OK;
    /* A host-held array's values are its host copy (valid from its making on; a zeroed array if not).
     * One write into a fresh or kept buffer: zink, whose busy buffers a whole-buffer write renames
     * (splits_whole_uploads), never has host-held arrays (no twin there). */
    return make_buffer(a, a->mirror_valid ? a->values * 4 : 0, a->mirror_valid ? a->mirror : NULL);
}

gpuc_status gpuc_array_make(gpuc *gpu, gpuc_type type, gpuc_dims dims, unsigned flags, gpuc_array **out)
{
    int components = gpuc_type_components(type);
    if (!components)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "array type %d is not float, int, vec2, vec3 or vec4",
                         (int)type);
    size_t cells;
    int rank;
    gpuc_status st = gpuc_dims_check(gpu, dims, "array", &cells, &rank);
    if (st != GPUC_OK)
        return st;
    uint64_t values = (uint64_t)cells * (uint64_t)components;
    uint64_t texels = (values + 3) / 4;
    if (gpu->info.max_texture_buffer_size > 0 && texels > (uint64_t)gpu->info.max_texture_buffer_size)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "array of %llu %s values needs %llu texels; the device's GL_MAX_TEXTURE_BUFFER_SIZE is %lld",
                         (unsigned long long)values, gpuc_type_name(type), (unsigned long long)texels,
                         (long long)gpu->info.max_texture_buffer_size);

    gpuc_array *a = calloc(1, sizeof *a);
    if (!a)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for an array handle");
    a->tag = GPUC_TAG_ARRAY;
    a->gpu = gpu;
    a->type = type;
    a->dims = dims;
    a->cells = cells;
    a->values = (size_t)values;
    a->bytes = (size_t)texels * 16;
    a->internal = (flags & ARRAY_INTERNAL) != 0;
    if (!a->internal && !(a->handle = gpuc_handle_new(gpu, a, false))) {
        free(a);
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for an array handle");
    }

    st = (flags & ARRAY_HOST_HELD) ? GPUC_OK : make_buffer(a, (flags & ARRAY_OVERWRITTEN) ? a->values * 4 : 0, NULL);
    if (st != GPUC_OK) {
        free(a->handle);
        free(a);
        return st;
    }
    if (!a->internal)
        gpuc_child_add(gpu, &a->child, array_child_destroy);
    *out = a;
    return GPUC_OK;
}

void gpuc_array_destroy_gl(gpuc_array *a, bool gl)
{
    if (gl) {
        if (a->view)
            glDeleteTextures(1, &a->view);
        if (a->scalar_view)
            glDeleteTextures(1, &a->scalar_view);
        if (a->buffer && !keep_spare_buffer(a->gpu, a->buffer, a->bytes))
            glDeleteBuffers(1, &a->buffer);
    }
    free(a->mirror);
    free(a->handle); /* never handed out, or its context is closing; a freed one was retired first */
    a->tag = 0;
    free(a);
}

gpuc_array *gpuc_array_handed_out(gpuc_array *a)
{
    return a && a->tag == GPUC_TAG_ARRAY && a->handle ? (gpuc_array *)(void *)a->handle : a;
}

void gpuc_array_destroy(gpuc_array *a)
{
    if (!a->internal)
        gpuc_child_remove(a->gpu, &a->child);
    gpuc_array_destroy_gl(a, true);
}

gpuc_status gpuc_array_new(gpuc *gpu, gpuc_type type, gpuc_dims dims, gpuc_array **out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_new: out is NULL");
    st = gpuc_array_make(gpu, type, dims, 0, out);
    if (st == GPUC_OK)
        *out = gpuc_array_handed_out(*out);
    return st;
}

gpuc_status gpuc_array_upload(gpuc_array *a, const void *data)
{
    a->gpu->stats.uploads++;
    return gpuc_array_upload_part(a, 0, a->values, data);
}

/* Zink (Mesa 22.3, over lavapipe) gives a busy buffer new storage when one glBufferSubData covers all
 * of it, and an image view of that buffer then reads the old storage: gpuc_topk read its reused input
 * as zeros there, every few dozen calls. Writing such an upload in two pieces keeps the storage (its
 * last 4 bytes separately: no piece covers the whole buffer). Only on zink: elsewhere the whole-buffer
 * write lets a GPU driver rename a busy buffer instead of waiting for it. */
static bool splits_whole_uploads(const gpuc *gpu)
{
    return gpuc_driver_is_zink(gpu);
}

gpuc_status gpuc_array_upload_part(gpuc_array *a, size_t first, size_t count, const void *data)
{
    gpuc_status st = gpuc_array_to_device(a);
    if (st != GPUC_OK)
        return st;
    glBindBuffer(GL_COPY_WRITE_BUFFER, a->buffer);
    size_t head = count * 4;
    if (first == 0 && head == a->bytes && head > 4 && splits_whole_uploads(a->gpu))
        head -= 4;
    glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)(first * 4), (GLsizeiptr)head, data);
    if (head < count * 4)
        glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)head, 4, (const char *)data + head);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    a->mirror_valid = false;
    a->truncated_by[0] = '\0';
    a->gpu->stats.bytes_uploaded += count * 4;
    return gpuc_check_gl(a->gpu, "uploading an array");
}

/* Keeps `data`, which the array was just given whole, as its host copy when the array is small
 * (HOST_COPY_MOST_VALUES). Only a cache: without memory for it the array simply has none. */
static void keep_host_copy(gpuc_array *a, const void *data)
{
    if (a->values > HOST_COPY_MOST_VALUES)
        return;
    if (!a->mirror && !(a->mirror = malloc(a->values * 4)))
        return;
    memcpy(a->mirror, data, a->values * 4);
    a->mirror_valid = true;
}

static gpuc_status array_from(gpuc *gpu, gpuc_type type, const void *data, gpuc_dims dims, gpuc_array **out,
                              const char *fn)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!data || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, data ? "out" : "data");
    gpuc_array *a;
    st = gpuc_array_make(gpu, type, dims, ARRAY_OVERWRITTEN, &a);
    if (st != GPUC_OK)
        return st;
    st = gpuc_array_upload(a, data);
    if (st != GPUC_OK) {
        gpuc_array_destroy(a);
        return st;
    }
    keep_host_copy(a, data);
    *out = gpuc_array_handed_out(a);
    return GPUC_OK;
}

gpuc_status gpuc_array_from_f32(gpuc *gpu, const float *data, gpuc_dims dims, gpuc_array **out)
{
    return array_from(gpu, GPUC_FLOAT, data, dims, out, "gpuc_array_from_f32");
}

gpuc_status gpuc_array_from_i32(gpuc *gpu, const int32_t *data, gpuc_dims dims, gpuc_array **out)
{
    return array_from(gpu, GPUC_INT, data, dims, out, "gpuc_array_from_i32");
}

/* Common checks of the read/write calls: a live array, data, the exact count and a matching
 * element kind (int32 for int arrays, float32 for the rest). */
static gpuc_status check_shape(gpuc_array *a, const void *data, size_t count, bool want_int, const char *fn)
{
    if (!data)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: data is NULL", fn);
    if ((a->type == GPUC_INT) != want_int)
        return gpuc_fail(a->gpu, GPUC_ERROR_TYPE_MISMATCH, "%s: the array holds %s cells; use gpuc_array_%s_%s", fn,
                         gpuc_type_name(a->type), strstr(fn, "read") ? "read" : "write", want_int ? "f32" : "i32");
    if (count != a->values)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: count is %zu but the array holds %zu values", fn,
                         count, a->values);
    return GPUC_OK;
}

static gpuc_status check_copy(const gpuc_array *handle, const void *data, size_t count, bool want_int,
                              const char *fn, gpuc_array **body)
{
    gpuc_status st = gpuc_array_enter(handle, fn, body);
    return st != GPUC_OK ? st : check_shape(*body, data, count, want_int, fn);
}

static gpuc_status array_write(gpuc_array *handle, const void *data, size_t count, bool want_int, const char *fn)
{
    gpuc_array *a;
    gpuc_status st = check_copy(handle, data, count, want_int, fn, &a);
    if (st == GPUC_OK)
        st = gpuc_array_upload(a, data);
    if (st == GPUC_OK)
        keep_host_copy(a, data);
    return st;
}

gpuc_status gpuc_array_write_f32(gpuc_array *handle, const float *data, size_t count)
{
    return array_write(handle, data, count, false, "gpuc_array_write_f32");
}

gpuc_status gpuc_array_write_i32(gpuc_array *handle, const int32_t *data, size_t count)
{
    return array_write(handle, data, count, true, "gpuc_array_write_i32");
}

gpuc_status gpuc_array_refuse_truncated(const gpuc_array *a, const char *doing)
{
    return gpuc_fail(a->gpu, GPUC_ERROR_LIMIT,
                     "%s: the array holds the result of a run of kernel '%s' that llvmpipe's loop budget cut short "
                     "(that run failed with GPUC_ERROR_LIMIT); write it or run a kernel into it first", doing,
                     a->truncated_by);
}

gpuc_status gpuc_array_mirror_host(gpuc_array *a, const void *data)
{
    size_t bytes = a->values * 4;
    if (!a->mirror && !(a->mirror = malloc(bytes)))
        return gpuc_fail(a->gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory keeping %zu bytes", bytes);
    memcpy(a->mirror, data, bytes);
    a->mirror_valid = true;
    return GPUC_OK;
}

bool gpuc_array_host_view(const gpuc_array *a, gpuc_arg *host, gpuc_twin_copies *copies)
{
    if (!a->mirror_valid || a->truncated_by[0] || (a->type != GPUC_FLOAT && a->type != GPUC_INT))
        return false;
    *host = a->type == GPUC_FLOAT ? gpuc_arg_host_f32(a->mirror, a->dims) : gpuc_arg_host_i32(a->mirror, a->dims);
    if (copies) {
        copies->uploads++;
        copies->bytes += (uint64_t)a->values * 4;
    }
    return true;
}

gpuc_status gpuc_array_fetch_mirror(gpuc_array *a)
{
    if (a->truncated_by[0])
        return gpuc_array_refuse_truncated(a, "reading it");
    if (!a->buffer && a->mirror_valid) /* host-held: its host copy is all there is */
        return GPUC_OK;
    gpuc_status st = gpuc_array_to_device(a);
    if (st != GPUC_OK)
        return st;
    size_t bytes = a->values * 4;
    if (!a->mirror) {
        a->mirror = malloc(bytes);
        if (!a->mirror)
            return gpuc_fail(a->gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory reading back %zu bytes", bytes);
    }
    /* Mapping is 3-5x faster than glGetBufferSubData on llvmpipe (measured with Mesa 22.3). */
    glBindBuffer(GL_COPY_READ_BUFFER, a->buffer);
    const void *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
    if (p) {
        memcpy(a->mirror, p, bytes);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    st = gpuc_check_gl(a->gpu, "reading an array back");
    if (st == GPUC_OK && !p)
        st = gpuc_fail(a->gpu, GPUC_ERROR_GL, "reading an array back: glMapBufferRange failed");
    if (st != GPUC_OK)
        return st;
    a->mirror_valid = true;
    a->gpu->stats.readbacks++;
    a->gpu->stats.bytes_read_back += bytes;
    return GPUC_OK;
}

static gpuc_status array_read(const gpuc_array *handle, void *data, size_t count, bool want_int, const char *fn)
{
    gpuc_array *a; /* not const: the mirror is a cache, and filling it is not a visible change */
    /* A small call's result read where the twin stands in for the context: from its host copy, with
     * no switch back to the context (two EGL switches, most of such a call's cost). */
    gpuc_status st = gpuc_array_open(handle, fn, &a);
    if (st == GPUC_OK && !(a->mirror_valid && gpuc_twin_stands_in(a->gpu)))
        st = gpuc_enter(a->gpu);
    if (st == GPUC_OK)
        st = check_shape(a, data, count, want_int, fn);
    if (st != GPUC_OK)
        return st;
    if (!a->mirror_valid) {
        st = gpuc_array_fetch_mirror(a);
        if (st != GPUC_OK)
            return st;
    }
    memcpy(data, a->mirror, count * 4);
    return GPUC_OK;
}

gpuc_status gpuc_array_read_f32(const gpuc_array *a, float *data, size_t count)
{
    return array_read(a, data, count, false, "gpuc_array_read_f32");
}

gpuc_status gpuc_array_read_i32(const gpuc_array *a, int32_t *data, size_t count)
{
    return array_read(a, data, count, true, "gpuc_array_read_i32");
}

gpuc_status gpuc_array_view(gpuc_array *a, bool scalar, GLuint *view, GLenum *format)
{
    bool is_int = a->type == GPUC_INT;
    *format = scalar ? (is_int ? GL_R32I : GL_R32F) : (is_int ? GL_RGBA32I : GL_RGBA32F);
    GLuint *made = scalar ? &a->scalar_view : &a->view;
    gpuc_status st = gpuc_array_to_device(a);
    if (st != GPUC_OK)
        return st;
    if (!*made) {
        glGenTextures(1, made);
        glBindTexture(GL_TEXTURE_BUFFER, *made);
        glTexBuffer(GL_TEXTURE_BUFFER, *format, a->buffer);
        glBindTexture(GL_TEXTURE_BUFFER, 0);
        st = gpuc_check_gl(a->gpu, "making an array's texture view");
        if (st != GPUC_OK) {
            glDeleteTextures(1, made);
            *made = 0;
            return st;
        }
    }
    *view = *made;
    return GPUC_OK;
}

/* The accessors answer "none" for a handle they cannot use (the message is on its context). */
gpuc_dims gpuc_array_dims(const gpuc_array *handle)
{
    gpuc_array *a;
    return gpuc_array_open(handle, "gpuc_array_dims", &a) == GPUC_OK ? a->dims : (gpuc_dims){0, 0, 0};
}

gpuc_type gpuc_array_type(const gpuc_array *handle)
{
    gpuc_array *a;
    return gpuc_array_open(handle, "gpuc_array_type", &a) == GPUC_OK ? a->type : GPUC_TYPE_NONE;
}

size_t gpuc_array_cells(const gpuc_array *handle)
{
    gpuc_array *a;
    return gpuc_array_open(handle, "gpuc_array_cells", &a) == GPUC_OK ? a->cells : 0;
}

size_t gpuc_array_values(const gpuc_array *handle)
{
    gpuc_array *a;
    return gpuc_array_open(handle, "gpuc_array_values", &a) == GPUC_OK ? a->values : 0;
}

void gpuc_array_free(gpuc_array *handle)
{
    gpuc_array *a;
    if (!handle || gpuc_array_open(handle, "gpuc_array_free", &a) != GPUC_OK)
        return; /* NULL is ignored; a second free leaves its message on the context */
    /* A host-held array has no GL object: where the twin stands in for its context on this thread, it
     * goes now without switching back (no other thread can be using the context). */
    if (!a->buffer && gpuc_twin_stands_in(a->gpu)) { /* (views are made only over a buffer) */
        gpuc_child_free_without_gl(a->gpu, &a->child, &a->handle);
        return;
    }
    gpuc_child_free_handle(a->gpu, &a->child, &a->handle);
}
