/* children.c - what a context owns and how each thing goes: kernels and arrays register as children
 * with the function that destroys them, the layers above register a hook for their per-context
 * state, and a free on a thread that cannot use the context is queued, never run on another context.
 * The handles callers hold outlive what they name until gpuc_close, so that misuse is told apart. */
#include "internal.h"

#include <stdlib.h>

gpuc_handle *gpuc_handle_new(gpuc *gpu, void *body, bool kernel)
{
    gpuc_handle *h = malloc(sizeof *h);
    if (h)
        *h = (gpuc_handle){.tag = kernel ? GPUC_TAG_KERNEL_HANDLE : GPUC_TAG_ARRAY_HANDLE, .kernel = kernel,
                           .gpu = gpu, .body = body};
    return h;
}

/* Marks a live handle freed: it stays, on its context's list, until gpuc_close frees it. */
static void handle_retire(gpuc_handle *h)
{
    /* A free may come from any thread (gpuc_child_free queues it): push without a lock. */
    h->tag = GPUC_TAG_FREED;
    h->next_freed = atomic_load(&h->gpu->freed_handles);
    while (!atomic_compare_exchange_weak(&h->gpu->freed_handles, &h->next_freed, h))
        ;
}

static void free_retired_handles(gpuc *gpu)
{
    gpuc_handle *h = atomic_exchange(&gpu->freed_handles, NULL);
    while (h) {
        gpuc_handle *next = h->next_freed;
        free(h);
        h = next;
    }
}

void gpuc_child_add(gpuc *gpu, gpuc_child *child, gpuc_child_destroy_fn *destroy)
{
    child->destroy = destroy;
    child->prev = NULL;
    child->queued_next = NULL;
    child->next = gpu->children;
    if (child->next)
        child->next->prev = child;
    gpu->children = child;
}

void gpuc_child_remove(gpuc *gpu, gpuc_child *child)
{
    if (child->prev)
        child->prev->next = child->next;
    else if (gpu->children == child)
        gpu->children = child->next;
    if (child->next)
        child->next->prev = child->prev;
    child->prev = child->next = NULL;
}

static void destroy_queued(gpuc *gpu, bool gl)
{
    gpuc_child *child = atomic_exchange(&gpu->queued, NULL);
    while (child) {
        gpuc_child *next = child->queued_next;
        gpuc_child_remove(gpu, child);
        child->destroy(child, gl);
        atomic_fetch_sub(&gpu->frees_pending, 1);
        child = next;
    }
}

void gpuc_children_collect(gpuc *gpu)
{
    if (atomic_load_explicit(&gpu->queued, memory_order_acquire))
        destroy_queued(gpu, true);
}

void gpuc_child_free(gpuc *gpu, gpuc_child *child)
{
    /* GL names are per context: deleting with another context current would delete whatever that
     * context has under the same name. So: this context, now, or later on its own thread. */
    egl_binding saved;
    if (gpu->opened && egl_device_inherited(&gpu->device)) {
        /* A context a fork()ed child inherited: its GL objects are the parent's; free host memory only. */
        gpuc_child_remove(gpu, child);
        child->destroy(child, false);
        return;
    }
    if (gpu->opened && egl_device_borrow(&gpu->device, &saved)) {
        gpuc_child_remove(gpu, child);
        child->destroy(child, true);
        destroy_queued(gpu, true);
        egl_device_give_back(&saved);
        return;
    }
    child->queued_next = atomic_load(&gpu->queued);
    while (!atomic_compare_exchange_weak(&gpu->queued, &child->queued_next, child))
        ;
    atomic_fetch_add(&gpu->frees_deferred, 1);
    atomic_fetch_add(&gpu->frees_pending, 1);
}

/* The caller's handle retired, if the child has one. */
static void retire_held_handle(gpuc_handle **handle)
{
    if (*handle) {
        handle_retire(*handle);
        *handle = NULL;
    }
}

void gpuc_child_free_handle(gpuc *gpu, gpuc_child *child, gpuc_handle **handle)
{
    retire_held_handle(handle);
    gpuc_child_free(gpu, child);
}

void gpuc_child_free_without_gl(gpuc *gpu, gpuc_child *child, gpuc_handle **handle)
{
    retire_held_handle(handle);
    gpuc_child_remove(gpu, child);
    child->destroy(child, false);
}

gpuc_status gpuc_on_close(gpuc *gpu, gpuc_close_hook *hook)
{
    for (int i = 0; i < gpu->nclose_hooks; i++)
        if (gpu->close_hooks[i] == hook)
            return GPUC_OK;
    if (gpu->nclose_hooks == GPUC_MAX_CLOSE_HOOKS)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "internal: more than %d layers keep per-context state",
                         GPUC_MAX_CLOSE_HOOKS);
    gpu->close_hooks[gpu->nclose_hooks++] = hook;
    return GPUC_OK;
}

void gpuc_children_close(gpuc *gpu, bool gl)
{
    destroy_queued(gpu, gl);
    while (gpu->children) {
        gpuc_child *child = gpu->children;
        gpuc_child_remove(gpu, child);
        child->destroy(child, gl);
    }
    /* Newest first: a layer set up later may lean on one set up earlier. */
    while (gpu->nclose_hooks > 0)
        gpu->close_hooks[--gpu->nclose_hooks](gpu, gl);
    free_retired_handles(gpu);
}

gpuc_status gpuc_handle_refuse(const void *p, uint32_t body_tag, const char *call)
{
    const char *want = body_tag == GPUC_TAG_KERNEL ? "kernel" : "array";
    if (!p)
        return GPUC_ERROR_INVALID_ARGUMENT; /* no context to carry a message */
    const gpuc_handle *h = p;
    uint32_t tag = h->tag;
    if (tag == GPUC_TAG_FREED)
        return gpuc_fail(h->gpu, GPUC_ERROR_MISUSE,
                         "%s: this %s was freed (gpuc_%s_free) and cannot be used again; a freed handle stays "
                         "recognisable until its context closes", call, h->kernel ? "kernel" : "array",
                         h->kernel ? "kernel" : "array");
    if (tag == GPUC_TAG_ARRAY_HANDLE || tag == GPUC_TAG_KERNEL_HANDLE)
        return gpuc_fail(h->gpu, GPUC_ERROR_MISUSE, "%s: given a gpuc_%s where a gpuc_%s belongs", call,
                         tag == GPUC_TAG_KERNEL_HANDLE ? "kernel" : "array", want);
    /* Not a handle of an open context: nothing in it can be trusted to name one. */
    return GPUC_ERROR_MISUSE;
}
