/* probe.h - what `make soak` watches: the process's resident memory (/proc/self/statm) and open file
 * descriptors (/proc/self/fd), sampled through a phase and judged flat after its warm-up. */
#ifndef GPUC_SOAK_PROBE_H
#define GPUC_SOAK_PROBE_H

#include <stdbool.h>

/* One phase's samples: the first after the warm-up is the baseline; every later one is compared with
 * it. */
typedef struct probe {
    const char *phase;
    double rss_bound_mb;    /* most resident growth allowed after the warm-up */
    int fd_bound;           /* most descriptors allowed above the baseline */
    bool have_baseline;
    double base_rss_mb, peak_rss_mb, last_rss_mb;
    int base_fds, peak_fds, last_fds;
} probe;

/* Resident memory in MiB, and open descriptors (not counting Mesa's shader-cache files, which its
 * writer thread opens and closes on its own); -1 when /proc cannot be read. */
double probe_rss_mb(void);
int probe_fds(void);

/* Samples and prints one line ("phase  done/total  rss  fds"); the first sample with warmed_up set
 * becomes the baseline. */
void probe_sample(probe *p, long done, long total, bool warmed_up);

/* Prints the phase's verdict; false when growth after the warm-up passed a bound (or nothing was
 * sampled after it). */
bool probe_verdict(const probe *p);

#endif
