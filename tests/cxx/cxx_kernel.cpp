// cxx_kernel.cpp - gpuc.h and gpuc_check.h used from C++ (built as C++11, 14, 17 and 20 under -Wall
// -Wextra -Werror -pedantic by `make check`; the check_kit suite runs each build): a kernel described
// in the C++ spelling of README.md (no compound literals, no designated initialisers), run once and
// compared with a C++ loop. Prints "C++ <__cplusplus>: 1024 cells match" and exits 0, else says why.
#include <gpuc_check.h>

#include <cstdio>
#include <vector>

int main()
{
    const uint32_t n = 1024;
    std::vector<float> values(n), want(n), got(n);
    for (uint32_t i = 0; i < n; i++) {
        values[i] = static_cast<float>(i % 97) - 40.0f;
        want[i] = values[i] * 0.5f + 3.0f;
    }

    gpuc *gpu = nullptr;
    if (gpuc_open(&gpu, nullptr) != GPUC_OK) {
        std::fprintf(stderr, "gpuc_open: %s\n", gpuc_errmsg(gpu));
        gpuc_close(gpu);
        return 1;
    }
    gpuc_kernel_desc desc = {}; // every field zero: the defaults
    desc.output.x = n;
    desc.constants[0].name = "offset";
    desc.constants[0].value = 3;
    gpuc_dims dims = {n, 0, 0};
    gpuc_arg args[] = {gpuc_arg_host_f32(values.data(), dims), gpuc_arg_f32(0.5f)};
    gpuc_kernel *k = nullptr;
    gpuc_array *out = nullptr;
    if (gpuc_create_kernel(gpu, "float scale(float a[], float s) { return a[thread.x] * s + constants.offset; }",
                           &desc, &k) != GPUC_OK ||
        gpuc_run(k, args, 2, &out) != GPUC_OK || gpuc_array_read_f32(out, got.data(), n) != GPUC_OK) {
        std::fprintf(stderr, "gpuc: %s\n", gpuc_errmsg(gpu));
        gpuc_close(gpu);
        return 1;
    }
    gpuc_close(gpu);

    char report[512];
    size_t bad = gpuc_check_compare_f32(got.data(), want.data(), n, GPUC_CHECK_ULPS, 1, report, sizeof report);
    if (bad) {
        std::fprintf(stderr, "C++ %ld: %s\n", static_cast<long>(__cplusplus), report);
        return 1;
    }
    std::printf("C++ %ld: %u cells match\n", static_cast<long>(__cplusplus), static_cast<unsigned>(n));
    return 0;
}
