/* array_copy.c - device arrays copied and cleared on the device (GPU.js's texture.clone() and
 * texture.clear()): no host round trip, the padding of the last texel kept zero. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Copies the first `bytes` of from's buffer into to's, on the device. */
static gpuc_status copy_on_device(const gpuc_array *from, gpuc_array *to, size_t bytes, const char *doing)
{
    glBindBuffer(GL_COPY_READ_BUFFER, from->buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, to->buffer);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)bytes);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    return gpuc_check_gl(from->gpu, doing);
}

gpuc_status gpuc_array_clone(const gpuc_array *handle, gpuc_array **out)
{
    gpuc_array *a;
    gpuc_status st = gpuc_array_enter(handle, "gpuc_array_clone", &a);
    if (st != GPUC_OK)
        return st;
    if (!out)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_clone: out is NULL");
    if (a->truncated_by[0])
        return gpuc_array_refuse_truncated(a, "gpuc_array_clone");
    if ((st = gpuc_array_to_device(a)) != GPUC_OK)
        return st;
    gpuc_array *c;
    /* Every byte is copied below, padding included: nothing needs clearing first. */
    st = gpuc_array_make(a->gpu, a->type, a->dims, ARRAY_OVERWRITTEN, &c);
    if (st != GPUC_OK)
        return st;
    st = copy_on_device(a, c, a->bytes, "gpuc_array_clone: copying the array on the device");
    /* A host copy already read back comes along, so reading the clone costs no read back either. */
    if (st == GPUC_OK && a->mirror_valid) {
        c->mirror = malloc(a->values * 4);
        if (c->mirror) {
            memcpy(c->mirror, a->mirror, a->values * 4);
            c->mirror_valid = true;
        }
    }
    if (st != GPUC_OK) {
        gpuc_array_destroy(c);
        return st;
    }
    *out = gpuc_array_handed_out(c);
    return GPUC_OK;
}

gpuc_status gpuc_array_head_copy(gpuc_array *a, size_t cells, gpuc_array **out)
{
    size_t values = cells * (size_t)gpuc_type_components(a->type);
    if (cells == 0 || values > a->values)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_array_head_copy: %zu cells of an array of %zu values (a bug in gpuc)", cells, a->values);
    if (a->truncated_by[0])
        return gpuc_array_refuse_truncated(a, "gpuc_array_head_copy");
    gpuc_status st = gpuc_array_to_device(a);
    gpuc_array *c = NULL;
    /* Made with its padding zeroed; the copy below writes the values only. */
    if (st == GPUC_OK)
        st = gpuc_array_make(a->gpu, a->type, (gpuc_dims){.x = (uint32_t)cells}, ARRAY_OVERWRITTEN, &c);
    if (st != GPUC_OK)
        return st;
    st = copy_on_device(a, c, values * 4, "copying the head of an array on the device");
    if (st != GPUC_OK) {
        gpuc_array_destroy(c);
        return st;
    }
    *out = c;
    return GPUC_OK;
}

gpuc_status gpuc_array_clear(gpuc_array *handle)
{
    gpuc_array *a;
    gpuc_status st = gpuc_array_enter(handle, "gpuc_array_clear", &a);
    if (st == GPUC_OK)
        st = gpuc_array_to_device(a);
    if (st != GPUC_OK)
        return st;
    GLuint zero = 0;
    glBindBuffer(GL_COPY_WRITE_BUFFER, a->buffer);
    glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, (GLsizeiptr)a->bytes, GL_RED_INTEGER, GL_UNSIGNED_INT,
                         &zero);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    st = gpuc_check_gl(a->gpu, "gpuc_array_clear");
    if (st != GPUC_OK)
        return st;
    /* Cleared is written: a result a loop-budget cut made unusable is usable again (all zeros). */
    a->truncated_by[0] = '\0';
    if (a->mirror) {
        memset(a->mirror, 0, a->values * 4);
        a->mirror_valid = true;
    }
    return GPUC_OK;
}
