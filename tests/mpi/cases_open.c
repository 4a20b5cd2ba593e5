/* cases_open.c - gpuc_mpi_open: a context per rank, and one rank's failure fails every rank. */
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every rank opens with its own options; all must fail alike when `bad_rank` is given a bad one. */
static void open_fails_everywhere(const char *what, int bad_rank, gpuc_options bad, gpuc_status want,
                                  const char *fragment)
{
    worker_case(what);
    gpuc_options fine = {.device = "cpu"};
    gpuc *gpu = (gpuc *)&fine; /* must come back NULL */
    char rank_fragment[32];
    snprintf(rank_fragment, sizeof rank_fragment, "rank %d: ", bad_rank);
    gpuc_status st = gpuc_mpi_open(wcomm, wrank == bad_rank ? &bad : &fine, &gpu);
    WCHECK_FAILS(st, want, rank_fragment);
    WCHECK(strstr(gpuc_mpi_errmsg(), fragment) != NULL, "message \"%s\" lacks \"%s\"", gpuc_mpi_errmsg(), fragment);
    WCHECK(strstr(gpuc_mpi_errmsg(), "gpuc_mpi_open") == gpuc_mpi_errmsg(), "message \"%s\" does not name the call",
           gpuc_mpi_errmsg());
    WCHECK(gpu == NULL, "the context pointer was not cleared on failure");
}

void cases_open(void)
{
    worker_case("the worker's context");
    const gpuc_info *info = gpuc_get_info(wgpu);
    WCHECK(info != NULL, "no info for the worker's context");
    if (info && gpuc_list_devices(NULL, 0) == 0)
        WCHECK(info->software, "no GPU here, yet the context is not llvmpipe (%s)", info->renderer);

    worker_case("gpuc_list_devices");
    int indices[4] = {-1, -1, -1, -1};
    int count = gpuc_list_devices(indices, 4);
    WCHECK(count >= 0, "negative device count %d", count);
    for (int i = 0; i < count && i < 4; i++)
        WCHECK(indices[i] >= 0, "device %d has EGL index %d", i, indices[i]);
    WCHECK(gpuc_list_devices(NULL, 0) == count, "the count without an output array differs");

    int last = wsize - 1;
    open_fails_everywhere("one rank asks for a device that does not exist", last, (gpuc_options){.device = "9"},
                          GPUC_ERROR_NO_DEVICE, "EGL device 9");
    open_fails_everywhere("one rank gives a bad backend", 0, (gpuc_options){.device = "cpu", .backend = 77},
                          GPUC_ERROR_INVALID_ARGUMENT, "backend");

    worker_case("one rank passes no output pointer");
    gpuc *gpu = NULL;
    gpuc_status st = gpuc_mpi_open(wcomm, NULL, wrank == last ? NULL : &gpu);
    WCHECK_FAILS(st, GPUC_ERROR_INVALID_ARGUMENT, "output pointer is NULL");
    WCHECK(gpu == NULL, "a context was left open on a failed call");

    worker_case("GPUC_MPI_DEVICES picks per node-local rank");
    setenv("GPUC_MPI_DEVICES", "cpu,9", 1);
    st = gpuc_mpi_open(wcomm, NULL, &gpu);
    if (wsize == 1) { /* the one rank takes entry 0 */
        WCHECK_OK(st);
        WCHECK(gpu && gpuc_get_info(gpu)->software, "entry \"cpu\" did not give llvmpipe");
    } else {
        WCHECK_FAILS(st, GPUC_ERROR_NO_DEVICE, "rank 1: ");
    }
    gpuc_close(gpu);
    gpu = NULL;
    unsetenv("GPUC_MPI_DEVICES");

    worker_case("opts->device wins over GPUC_MPI_DEVICES");
    setenv("GPUC_MPI_DEVICES", "9", 1);
    WCHECK_OK(gpuc_mpi_open(wcomm, &(gpuc_options){.device = "cpu"}, &gpu));
    gpuc_close(gpu);
    gpu = NULL;
    unsetenv("GPUC_MPI_DEVICES");

    worker_case("MPI_COMM_NULL");
    WCHECK_FAILS(gpuc_mpi_open(MPI_COMM_NULL, NULL, &gpu), GPUC_ERROR_INVALID_ARGUMENT, "MPI_COMM_NULL");
}
