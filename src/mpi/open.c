/* open.c - gpuc_mpi_open: one context per rank, on the device the rank's place on its node picks, and
 * every rank fails when one does. */
#define _GNU_SOURCE /* sched_getaffinity: the cores this rank may run on */
#include "mpi_call.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Entry `index` (wrapping) of a comma-separated list, into out. False for an empty list. */
static bool list_entry(const char *list, int index, char *out, size_t size)
{
    int entries = 1;
    for (const char *p = list; *p; p++)
        entries += *p == ',';
    if (!*list)
        return false;
    int want = index % entries;
    const char *start = list;
    for (int i = 0; i < want; i++)
        start = strchr(start, ',') + 1;
    size_t len = strcspn(start, ",");
    if (len >= size)
        len = size - 1;
    memcpy(out, start, len);
    out[len] = '\0';
    return true;
}

/* The device choice for node-local rank `local` (see gpuc_mpi.h for the order), into choice; NULL when
 * opts and the environment leave it to gpuc_open's own default choice (no GPU: llvmpipe). */
static const char *choose_device(const gpuc_options *opts, int local, char *choice, size_t size)
{
    if (opts && opts->device)
        return opts->device;
    const char *list = getenv("GPUC_MPI_DEVICES");
    if (list && list_entry(list, local, choice, size))
        return choice;
    const char *env = getenv("GPUC_DEVICE");
    if (env && *env)
        return env;
    int gpus[64];
    int count = gpuc_list_devices(gpus, 64);
    if (count > 64)
        count = 64;
    if (count > 0) {
        snprintf(choice, size, "%d", gpus[local % count]);
        return choice;
    }
    return "cpu";
}

/* llvmpipe starts one thread per online core in every process: with several ranks on a node they
 * would share the cores many times over, and a rank that mpirun bound to one core (Open MPI's default
 * for up to two ranks) would run them all on that core. Give each rank the smaller of its share of the
 * node's cores and the cores it may run on, unless the user set LP_NUM_THREADS. */
static void share_cores(int ranks_on_node)
{
    if (getenv("LP_NUM_THREADS"))
        return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN), share = cores / (ranks_on_node > 0 ? ranks_on_node : 1);
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) < share)
        share = CPU_COUNT(&allowed);
    if (share >= cores) /* the whole machine: llvmpipe's own default */
        return;
    char value[32];
    snprintf(value, sizeof value, "%ld", share < 1 ? 1 : share);
    setenv("LP_NUM_THREADS", value, 0);
}

gpuc_status gpuc_mpi_open(MPI_Comm comm, const gpuc_options *opts, gpuc **out)
{
    mpi_call c;
    if (!mpi_call_begin(&c, "gpuc_mpi_open", NULL, comm))
        return c.status;
    c.status = GPUC_OK; /* mpi_call_begin complains about the NULL context: there is none yet */
    if (!out)
        mpi_call_fail(&c, GPUC_ERROR_INVALID_ARGUMENT, "the output pointer is NULL");
    else
        *out = NULL;

    MPI_Comm node = MPI_COMM_NULL;
    int local = 0, local_size = 1;
    MPI_TIMED(&c, MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, c.rank, MPI_INFO_NULL, &node));
    if (node != MPI_COMM_NULL) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_size(node, &local_size);
        MPI_Comm_free(&node);
    }

    gpuc *gpu = NULL;
    if (mpi_call_ok(&c)) {
        char choice[64];
        gpuc_options o = opts ? *opts : (gpuc_options){0};
        o.device = choose_device(opts, local, choice, sizeof choice);
        bool software = !strcmp(o.device, "cpu") || !strcmp(o.device, "llvmpipe");
        if (software || !gpuc_list_devices(NULL, 0))
            share_cores(local_size);
        gpuc_status st;
        DEVICE_TIMED(&c, st = gpuc_open(&gpu, &o));
        if (st != GPUC_OK)
            mpi_call_fail(&c, st, "device \"%s\" (node-local rank %d): %s", o.device, local, gpuc_errmsg(gpu));
    }
    if (mpi_call_agree(&c) != GPUC_OK) {
        gpuc_close(gpu);
        return mpi_call_end(&c);
    }
    *out = gpu;
    return mpi_call_end(&c);
}
