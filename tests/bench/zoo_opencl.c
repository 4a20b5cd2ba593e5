/* zoo_opencl.c - the bench's OpenCL columns: one CPU device (PoCL on this machine kind) and its queue
 * for the process, per row a program of one-work-item-per-cell kernels and its buffers; a note where
 * OpenCL is absent. */
#include "zoo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_HAVE_OPENCL

zoo_cl *zoo_cl_create(const char *source, char *why, size_t why_len)
{
    (void)source;
    snprintf(why, why_len, "built without OpenCL (opencl-headers, ocl-icd-opencl-dev; the device: pocl-opencl-icd)");
    return NULL;
}
int zoo_cl_kernel(zoo_cl *c, const char *name)
{
    (void)c;
    (void)name;
    return -1;
}
int zoo_cl_buffer(zoo_cl *c, size_t bytes)
{
    (void)c;
    (void)bytes;
    return -1;
}
int zoo_cl_write(zoo_cl *c, int buffer, const void *data, size_t bytes)
{
    (void)c, (void)buffer, (void)data, (void)bytes;
    return -1;
}
int zoo_cl_read(zoo_cl *c, int buffer, void *data, size_t bytes)
{
    (void)c, (void)buffer, (void)data, (void)bytes;
    return -1;
}
int zoo_cl_arg_buffer(zoo_cl *c, int kernel, int arg, int buffer)
{
    (void)c, (void)kernel, (void)arg, (void)buffer;
    return -1;
}
int zoo_cl_arg(zoo_cl *c, int kernel, int arg, const void *value, size_t size)
{
    (void)c, (void)kernel, (void)arg, (void)value, (void)size;
    return -1;
}
int zoo_cl_run(zoo_cl *c, int kernel, size_t gx, size_t gy)
{
    (void)c, (void)kernel, (void)gx, (void)gy;
    return -1;
}
const char *zoo_cl_device(const zoo_cl *c)
{
    (void)c;
    return "";
}
void zoo_cl_free(zoo_cl *c)
{
    (void)c;
}
void zoo_cl_shutdown(void)
{
}

#else

#include <CL/cl.h>

#define ZOO_CL_MAX 6 /* kernels and buffers per program */

/* One context and queue on the device for the whole process (PoCL's start costs more than a row's
 * program), made by the first zoo_cl_create, released by zoo_cl_shutdown. */
static struct {
    bool tried;
    cl_int err;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char name[160]; /* "Portable Computing Language (OpenCL 3.0 PoCL 3.1 ...): cpu-..., 2 compute units" */
} device_state;

struct zoo_cl {
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernels[ZOO_CL_MAX];
    cl_mem buffers[ZOO_CL_MAX];
    size_t sizes[ZOO_CL_MAX];
    int nkernels, nbuffers;
};

static int cl_failed(const char *what, cl_int err)
{
    if (err == CL_SUCCESS)
        return 0;
    printf("OpenCL: %s failed (error %d)\n", what, (int)err);
    fflush(stdout);
    return -1;
}

/* The first platform's first CPU device: PoCL's on this machine kind (GPU devices are left alone, the
 * column is the CPU runtime a C user would pick). */
static cl_int first_cpu_device(cl_platform_id *platform, cl_device_id *device)
{
    cl_platform_id platforms[8];
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(8, platforms, &count);
    if (err != CL_SUCCESS)
        return err;
    for (cl_uint i = 0; i < count && i < 8; i++)
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, device, NULL) == CL_SUCCESS) {
            *platform = platforms[i];
            return CL_SUCCESS;
        }
    return CL_DEVICE_NOT_FOUND;
}

static cl_int open_device(void)
{
    if (device_state.tried)
        return device_state.err;
    device_state.tried = true;
    cl_platform_id platform;
    cl_int err = first_cpu_device(&platform, &device_state.device);
    if (err == CL_SUCCESS) {
        char platform_name[64] = "", version[64] = "", name[64] = "";
        cl_uint units = 0;
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name - 1, platform_name, NULL);
        clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version - 1, version, NULL);
        clGetDeviceInfo(device_state.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
        clGetDeviceInfo(device_state.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
        snprintf(device_state.name, sizeof device_state.name, "%s (%s): %s, %u compute units", platform_name,
                 version, name, units);
        device_state.context = clCreateContext(NULL, 1, &device_state.device, NULL, NULL, &err);
    }
    if (err == CL_SUCCESS)
        device_state.queue = clCreateCommandQueue(device_state.context, device_state.device, 0, &err);
    device_state.err = err;
    return err;
}

void zoo_cl_shutdown(void)
{
    if (device_state.queue)
        clReleaseCommandQueue(device_state.queue);
    if (device_state.context)
        clReleaseContext(device_state.context);
    memset(&device_state, 0, sizeof device_state);
}

zoo_cl *zoo_cl_create(const char *source, char *why, size_t why_len)
{
    cl_int err = open_device();
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "no OpenCL CPU device (error %d; the device: pocl-opencl-icd)", (int)err);
        return NULL;
    }
    zoo_cl *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, why_len, "out of memory");
        return NULL;
    }
    cl_device_id device = device_state.device;
    c->context = device_state.context;
    c->queue = device_state.queue;
    c->program = clCreateProgramWithSource(c->context, 1, &source, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(c->program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[2048] = "";
        if (c->program)
            clGetProgramBuildInfo(c->program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        log[strcspn(log, "\n")] = '\0';
        snprintf(why, why_len, "OpenCL program not built (error %d): %.120s", (int)err, log);
        zoo_cl_free(c);
        return NULL;
    }
    return c;
}

const char *zoo_cl_device(const zoo_cl *c)
{
    (void)c;
    return device_state.name;
}

int zoo_cl_kernel(zoo_cl *c, const char *name)
{
    cl_int err = CL_OUT_OF_RESOURCES;
    if (c->nkernels < ZOO_CL_MAX)
        c->kernels[c->nkernels] = clCreateKernel(c->program, name, &err);
    return cl_failed(name, err) ? -1 : c->nkernels++;
}

int zoo_cl_buffer(zoo_cl *c, size_t bytes)
{
    cl_int err = CL_OUT_OF_RESOURCES;
    if (c->nbuffers < ZOO_CL_MAX)
        c->buffers[c->nbuffers] = clCreateBuffer(c->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (cl_failed("clCreateBuffer", err))
        return -1;
    c->sizes[c->nbuffers] = bytes;
    return c->nbuffers++;
}

static bool buffer_ok(const zoo_cl *c, int buffer, size_t bytes)
{
    return buffer >= 0 && buffer < c->nbuffers && bytes <= c->sizes[buffer];
}

int zoo_cl_write(zoo_cl *c, int buffer, const void *data, size_t bytes)
{
    if (!buffer_ok(c, buffer, bytes))
        return cl_failed("write: no such buffer", CL_INVALID_MEM_OBJECT);
    return cl_failed("clEnqueueWriteBuffer",
                     clEnqueueWriteBuffer(c->queue, c->buffers[buffer], CL_FALSE, 0, bytes, data, 0, NULL, NULL));
}

int zoo_cl_read(zoo_cl *c, int buffer, void *data, size_t bytes)
{
    if (!buffer_ok(c, buffer, bytes))
        return cl_failed("read: no such buffer", CL_INVALID_MEM_OBJECT);
    return cl_failed("clEnqueueReadBuffer",
                     clEnqueueReadBuffer(c->queue, c->buffers[buffer], CL_TRUE, 0, bytes, data, 0, NULL, NULL));
}

int zoo_cl_arg_buffer(zoo_cl *c, int kernel, int arg, int buffer)
{
    if (kernel < 0 || kernel >= c->nkernels || !buffer_ok(c, buffer, 0))
        return cl_failed("clSetKernelArg: no such kernel or buffer", CL_INVALID_VALUE);
    return cl_failed("clSetKernelArg",
                     clSetKernelArg(c->kernels[kernel], (cl_uint)arg, sizeof(cl_mem), &c->buffers[buffer]));
}

int zoo_cl_arg(zoo_cl *c, int kernel, int arg, const void *value, size_t size)
{
    if (kernel < 0 || kernel >= c->nkernels)
        return cl_failed("clSetKernelArg: no such kernel", CL_INVALID_KERNEL);
    return cl_failed("clSetKernelArg", clSetKernelArg(c->kernels[kernel], (cl_uint)arg, size, value));
}

int zoo_cl_run(zoo_cl *c, int kernel, size_t gx, size_t gy)
{
    if (kernel < 0 || kernel >= c->nkernels)
        return cl_failed("clEnqueueNDRangeKernel: no such kernel", CL_INVALID_KERNEL);
    size_t global[2] = {gx, gy};
    /* The local size is PoCL's to choose, as a user who leaves it NULL gets. */
    return cl_failed("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(c->queue, c->kernels[kernel], gy ? 2 : 1, NULL,
                                                                      global, NULL, 0, NULL, NULL));
}

void zoo_cl_free(zoo_cl *c)
{
    if (!c)
        return;
    /* The shared queue finishes c's work before its objects go. */
    if (c->queue)
        clFinish(c->queue);
    for (int i = 0; i < c->nkernels; i++)
        clReleaseKernel(c->kernels[i]);
    for (int i = 0; i < c->nbuffers; i++)
        clReleaseMemObject(c->buffers[i]);
    if (c->program)
        clReleaseProgram(c->program);
    free(c);
}

#endif
