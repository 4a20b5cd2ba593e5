/* profile.c - what each kernel's runs cost: counters of runs, cells and bytes, host times, device time
 * from GL timer queries while profiling (gpuc_options.profile, GPUC_PROFILE, GPUC_TRACE), and
 * GPUC_TRACE's line per run on stderr. The device time is the difference of two GL_TIMESTAMP queries
 * (glQueryCounter) around the dispatches or draws, not a GL_TIME_ELAPSED query: on llvmpipe that reads
 * about 1 ns for any compute dispatch, and days for a context's first draw.
 * A run whose program had not run before is counted apart (first_runs): llvmpipe compiles a program's
 * machine code at its first dispatch or draw, 10-50 ms, several times a warm run of most kernels. The
 * other runs' host times give the minimum, mean, maximum and (over the latest PROFILE_SAMPLES) median. */
#include "kernel/kernel.h"
#include "kernel/program/program_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void profile_program(gpuc_kernel *k, profile_run *r)
{
    r->program = k->special && k->program == k->special->program ? k->special : k->cached;
    r->first = r->program && !r->program->ran;
    r->capped_cells = 0;
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
    if (p->query_first) {
        p->first_timed++;
        p->first_device_ms += p->stats.last_device_ms;
    }
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
    p->query_first = r->first;
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
    char capped[96] = "";
    if (r->capped_cells)
        snprintf(capped, sizeof capped, " loop cap: %llu cells stopped at loop_max_iterations",
                 (unsigned long long)r->capped_cells);
    fprintf(stderr, "gpuc: kernel '%s' output %s device %s ms up %llu B down %llu B host %.3f ms%s%s\n", k->name,
            size, device, (unsigned long long)(k->gpu->stats.bytes_uploaded - r->up0),
            (unsigned long long)(k->gpu->stats.bytes_read_back - r->down0), end - r->start,
            r->first ? " first run (compiles)" : "", capped);
}

/* Counts a successful run's host time: apart when its program ran for the first time, else in the
 * steady runs' minimum, maximum and samples. */
static void count_time(kernel_profile *p, const profile_run *r, double ms)
{
    gpuc_kernel_stats *s = &p->stats;
    if (r->first) {
        s->first_runs++;
        s->first_run_ms += ms;
        return;
    }
    uint64_t steady = s->runs - s->first_runs; /* this run already counted in runs */
    if (steady == 1 || ms < s->min_ms)
        s->min_ms = ms;
    if (steady == 1 || ms > s->max_ms)
        s->max_ms = ms;
    if (!p->samples)
        p->samples = malloc(PROFILE_SAMPLES * sizeof *p->samples);
    if (!p->samples) /* without memory the median is taken over none: 0 */
        return;
    p->samples[p->next] = ms;
    p->next = (p->next + 1) % PROFILE_SAMPLES;
    if (p->nsamples < PROFILE_SAMPLES)
        p->nsamples++;
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
    count_time(p, r, end - r->start);
    if (r->program)
        r->program->ran = true;
    if (r->capped_cells) {
        s->loop_capped_runs++;
        s->loop_capped_cells += r->capped_cells;
    }
    if (k->gpu->trace)
        trace_line(k, r, end, r->timing && !p->query_pending);
}

void profile_release(gpuc_kernel *k, bool gl)
{
    if (gl && k->profile.query[0])
        glDeleteQueries(2, k->profile.query);
    k->profile.query[0] = k->profile.query[1] = 0;
    free(k->profile.samples);
    k->profile.samples = NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The steady runs' mean and median (of the latest samples) into s. */
static void summarise(const kernel_profile *p, gpuc_kernel_stats *s)
{
    uint64_t steady = s->runs - s->first_runs;
    s->mean_ms = steady ? (s->run_ms - s->first_run_ms) / (double)steady : 0;
    s->median_ms = 0;
    double sorted[PROFILE_SAMPLES];
    if (!p->nsamples)
        return;
    memcpy(sorted, p->samples, (size_t)p->nsamples * sizeof *sorted);
    qsort(sorted, (size_t)p->nsamples, sizeof *sorted, by_value);
    int n = p->nsamples;
    s->median_ms = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

void profile_snapshot(gpuc_kernel *k, gpuc_kernel_stats *out)
{
    collect(k);
    *out = k->profile.stats;
    summarise(&k->profile, out);
}

gpuc_status gpuc_get_kernel_stats(gpuc_kernel *handle, gpuc_kernel_stats *out)
{
    gpuc_kernel *k;
    gpuc_status st = kernel_enter(handle, "gpuc_get_kernel_stats", &k);
    if (st != GPUC_OK)
        return st;
    if (!out)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_get_kernel_stats: out is NULL");
    profile_snapshot(k, out);
    return GPUC_OK;
}

gpuc_status gpuc_reset_kernel_stats(gpuc_kernel *handle)
{
    gpuc_kernel *k;
    gpuc_status st = kernel_enter(handle, "gpuc_reset_kernel_stats", &k);
    if (st != GPUC_OK)
        return st;
    kernel_profile *p = &k->profile;
    collect(k); /* a pending .pipeline run's time belongs to the counts being dropped */
    memset(&p->stats, 0, sizeof p->stats);
    p->stats.last_device_ms = -1;
    p->first_timed = 0;
    p->first_device_ms = 0;
    p->nsamples = p->next = 0;
    return GPUC_OK;
}
