/* count-above: the seed tutorial's count-above kernel over 65,536 floats, checked against a C loop. */
#include <gpuc.h>
#include <stdio.h>

static const char *COUNT_ABOVE =
    "float countAbove(float values[], float t) {\n"
    "    int hits = 0;\n"
    "    for (int i = 0; i < constants.chunk; i++)\n"
    "        if (values[i * constants.threads + thread.x] > t) hits++;\n"
    "    return float(hits);\n"
    "}\n";

int main(void)
{
    enum { N = 65536, THREADS = 256, CHUNK = 256 };
    static float values[N], counts[THREADS];
    for (int i = 0; i < N; i++)
        values[i] = (float)((i * 7919) % 1000);
    const float t = 500.0f;

    gpuc *gpu;
    gpuc_kernel *k;
    gpuc_array *out;
    if (gpuc_open(&gpu, NULL) != GPUC_OK ||
        gpuc_create_kernel(gpu, COUNT_ABOVE, &(gpuc_kernel_desc){
            .output = {THREADS}, .constants = {{"threads", THREADS}, {"chunk", CHUNK}}}, &k) != GPUC_OK ||
        gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(values, (gpuc_dims){N}), gpuc_arg_f32(t)}, 2, &out) != GPUC_OK ||
        gpuc_array_read_f32(out, counts, THREADS) != GPUC_OK) {
        fprintf(stderr, "gpuc: %s\n", gpuc_errmsg(gpu));
        gpuc_close(gpu);
        return 1;
    }
    int same = 0;
    for (int x = 0; x < THREADS; x++) {
        int hits = 0;
        for (int i = 0; i < CHUNK; i++)
            hits += values[i * THREADS + x] > t;
        same += (float)hits == counts[x];
    }
    printf("device: %s\n", gpuc_get_info(gpu)->renderer);
    printf("partial counts equal to the C loop: %d of %d\n", same, THREADS);
    gpuc_close(gpu);
    return same == THREADS ? 0 : 1;
}
