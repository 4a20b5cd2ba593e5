/* probe.c - see probe.h. */
#include "probe.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

double probe_rss_mb(void)
{
    long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return -1;
    int got = fscanf(f, "%ld %ld", &size, &resident);
    fclose(f);
    if (got != 2)
        return -1;
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

int probe_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n - 1; /* not the descriptor opendir itself holds */
}

void probe_sample(probe *p, long done, long total, bool warmed_up)
{
    double rss = probe_rss_mb();
    int fds = probe_fds();
    p->last_rss_mb = rss;
    p->last_fds = fds;
    if (warmed_up && !p->have_baseline) {
        p->have_baseline = true;
        p->base_rss_mb = p->peak_rss_mb = rss;
        p->base_fds = p->peak_fds = fds;
    } else if (p->have_baseline) {
        if (rss > p->peak_rss_mb)
            p->peak_rss_mb = rss;
        if (fds > p->peak_fds)
            p->peak_fds = fds;
    }
    printf("  %-9s %7ld/%-7ld rss %7.1f MiB  fds %3d%s\n", p->phase, done, total, rss, fds,
           warmed_up ? "" : "  (warm-up)");
    fflush(stdout);
}

bool probe_verdict(const probe *p)
{
    if (!p->have_baseline || p->base_rss_mb < 0 || p->base_fds < 0) {
        printf("soak: %s: FAILED: no sample after the warm-up (or /proc unreadable)\n", p->phase);
        return false;
    }
    double grew = p->peak_rss_mb - p->base_rss_mb;
    int more_fds = p->peak_fds - p->base_fds;
    bool ok = grew <= p->rss_bound_mb && more_fds <= p->fd_bound;
    printf("soak: %s: rss %.1f MiB after warm-up, highest %.1f (+%.1f, bound +%.0f); fds %d, highest %d "
           "(bound +%d): %s\n",
           p->phase, p->base_rss_mb, p->peak_rss_mb, grew, p->rss_bound_mb, p->base_fds, p->peak_fds, p->fd_bound,
           ok ? "flat" : "FAILED: growing");
    fflush(stdout);
    return ok;
}
