/* profile.c - what each kernel's runs cost: counters of runs, cells and bytes, host times, device time
 * from GL timer queries while profiling (gpuc_options.profile, GPUC_PROFILE, GPUC_TRACE), and
 * GPUC_TRACE's line per run on stderr. The device time is the difference of two GL_TIMESTAMP queries
 * (glQueryCounter) around the dispatches or draws, not a GL_TIME_ELAPSED query: on llvmpipe that reads
 * about 1 ns for any compute dispatch, and days for a context's first draw. */
#include "kernel/kernel.h"

#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void profile_start(gpuc_kernel *k, profile_run *r)
{
    r->start = r->uploaded = r->fetching = now_ms();
    r->up0 = k->gpu->stats.bytes_uploaded;
    r->down0 = k->gpu->stats.bytes_read_back;
    r->timing = false;
}

void profile_uploaded(gpuc_kernel *k, profile_run *r)
{
    (void)k;
    r->uploaded = r->fetching = now_ms();
}

void profile_fetching(gpuc_kernel *k, profile_run *r)
{
    (void)k;
    r->fetching = now_ms();
}

/* Adds a finished query's time to the totals; waits for the result if the run is still going. */
static void collect(gpuc_kernel *k)
{
    kernel_profile *p = &k->profile;
    if (!p->query_pending)
        return;
    p->query_pending = false;
    GLuint64 t0 = 0, t1 = 0;
    glGetQueryObjectui64v(p->query[0], GL_QUERY_RESULT, &t0);
    glGetQueryObjectui64v(p->query[1], GL_QUERY_RESULT, &t1);
    GLuint64 ns = t1 > t0 ? t1 - t0 : 0;
    p->stats.timed_runs++;
    p->stats.last_device_ms = (double)ns / 1e6;
    p->stats.device_ms += p->stats.last_device_ms;
}

void profile_draw_begin(gpuc_kernel *k, profile_run *r)
{
    if (!k->gpu->profile)
        return;
    kernel_profile *p = &k->profile;
    collect(k); /* the query object is reused: take the previous .pipeline run's time first */
    if (!p->query[0])
        glGenQueries(2, p->query);
    glQueryCounter(p->query[0], GL_TIMESTAMP);
    r->timing = true;
}

void profile_draw_end(gpuc_kernel *k, profile_run *r)
{
    if (r->timing)
        glQueryCounter(k->profile.query[1], GL_TIMESTAMP);
}

static void trace_line(const gpuc_kernel *k, const profile_run *r, double end, bool timed)
{
    char size[64];
    const uint32_t d[3] = {k->output.x, k->output.y, k->output.z};
    int n = snprintf(size, sizeof size, "%u", (unsigned)d[0]);
    for (int i = 1; i < gpuc_dims_rank(k->output); i++)
        n += snprintf(size + n, sizeof size - (size_t)n, "x%u", (unsigned)d[i]);
    char device[32] = "-";
    if (timed)
        snprintf(device, sizeof device, "%.3f", k->profile.stats.last_device_ms);
    fprintf(stderr, "gpuc: kernel '%s' output %s device %s ms up %llu B down %llu B host %.3f ms\n", k->name, size,
            device, (unsigned long long)(k->gpu->stats.bytes_uploaded - r->up0),
            (unsigned long long)(k->gpu->stats.bytes_read_back - r->down0), end - r->start);
}

void profile_finish(gpuc_kernel *k, profile_run *r, gpuc_status st)
{
    kernel_profile *p = &k->profile;
    if (r->timing) {
        p->query_pending = true;
        if (st != GPUC_OK) /* a failed run's time is not a run's time */
            p->query_pending = false;
        else if (!k->pipeline || k->gpu->trace) /* read back already waited (or tracing waits anyway) */
            collect(k);
    }
    if (st != GPUC_OK)
        return;
    double end = now_ms();
    gpuc_kernel_stats *s = &p->stats;
    s->runs++;
    s->cells += k->cells;
    s->bytes_uploaded += k->gpu->stats.bytes_uploaded - r->up0;
    s->bytes_read_back += k->gpu->stats.bytes_read_back - r->down0;
    s->upload_ms += r->uploaded - r->start;
    s->read_back_ms += end - r->fetching;
    s->run_ms += end - r->start;
    if (k->gpu->trace)
        trace_line(k, r, end, r->timing && !p->query_pending);
}

void profile_release(gpuc_kernel *k, bool gl)
{
    if (gl && k->profile.query[0])
        glDeleteQueries(2, k->profile.query);
    k->profile.query[0] = k->profile.query[1] = 0;
}

gpuc_status gpuc_get_kernel_stats(gpuc_kernel *handle, gpuc_kernel_stats *out)
{
    gpuc_kernel *k;
    gpuc_status st = kernel_enter(handle, "gpuc_get_kernel_stats", &k);
    if (st != GPUC_OK)
        return st;
    if (!out)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_get_kernel_stats: out is NULL");
    collect(k);
    *out = k->profile.stats;
    return GPUC_OK;
}
