/* profile.h - per-kernel run counters, GL timer queries and GPUC_TRACE lines (kernel/profile.c); run.c
 * marks the phases of a run, the kernel keeps the totals. */
#ifndef GPUC_PROFILE_H
#define GPUC_PROFILE_H

#include "internal.h"
#include "glad/gl.h"

#include <stdbool.h>
#include <stdint.h>

/* How many of the latest steady runs' host times the median is taken over. */
#define PROFILE_SAMPLES 1024

/* What a kernel keeps: its public counters, and the timer query of a run not yet collected. */
typedef struct kernel_profile {
    gpuc_kernel_stats stats;
    GLuint query[2];    /* GL_TIMESTAMP before and after the run's dispatches (made on the first timed run) */
    bool query_pending; /* a run's time is in `query`, not yet added to stats */
    bool query_first;   /* that run was a first run (profile_program) */
    uint64_t first_timed; /* timed first runs, and their device time: the table's device mean leaves them out */
    double first_device_ms;
    double *samples;    /* the latest steady runs' host times, a ring of PROFILE_SAMPLES (made at the first) */
    int nsamples, next; /* filled entries; where the next time goes */
    char describe[512]; /* gpuc_kernel_describe's text */
} kernel_profile;

/* One run's marks (on the stack of run_into). */
typedef struct profile_run {
    double start, uploaded, fetching; /* host clock, ms */
    uint64_t up0, down0;              /* the context's byte counters at the start */
    bool timing;                      /* a query was begun for this run */
    program_entry *program;           /* the program the run uses (profile_program) */
    bool first;                       /* that program has not run before */
    uint64_t capped_cells;            /* cells a JavaScript loop cap stopped (kernel_loops_capped) */
} profile_run;

/* A run starts (before binding arguments) / has bound its arguments / starts reading back. */
void profile_start(gpuc_kernel *k, profile_run *r);
/* The run's program is chosen (after kernel_specialise): notes whether it runs for the first time. */
void profile_program(gpuc_kernel *k, profile_run *r);
void profile_uploaded(gpuc_kernel *k, profile_run *r);
void profile_fetching(gpuc_kernel *k, profile_run *r);
/* Around the dispatches or draws: a GL_TIMESTAMP query on each side while profiling. */
void profile_draw_begin(gpuc_kernel *k, profile_run *r);
void profile_draw_end(gpuc_kernel *k, profile_run *r);
/* The run ended with st: counts it if it succeeded, collects its time (now unless .pipeline without
 * tracing) and prints its GPUC_TRACE line. */
void profile_finish(gpuc_kernel *k, profile_run *r, gpuc_status st);
/* k's counters into *out, a pending .pipeline run's device time collected first (waiting for it);
 * the context is current. (gpuc_get_kernel_stats, gpuc_print_profile) */
void profile_snapshot(gpuc_kernel *k, gpuc_kernel_stats *out);
/* The kernel's query and samples, at its destruction (gl: whether GL calls may be made). */
void profile_release(gpuc_kernel *k, bool gl);

#endif
