/* fuzz_js.c - libFuzzer target over the JavaScript front end (parser, checker, GLSL writer) without
 * any GL: every input must give GLSL or an error message, never a crash, hang or leak. The first
 * byte picks settings (declared or inferred argument types, loop cap, dynamic output, added
 * functions, a kernel map); the constants include a Boolean and 1D-3D arrays. */
#include "js/map_text.h"
#include "js/translate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 16)
        return 0;
    uint8_t mode = data[0];
    char *src = malloc(size);
    if (!src)
        return 0;
    memcpy(src, data + 1, size - 1);
    src[size - 1] = '\0';

    static const float table[6] = {1, 2, 3, 4, 5, 6};
    static const gpuc_constant constants[] = {{"n", 64}, {"size", 8}, {"f", 0.5}, {"k", 3, GPUC_FLOAT},
                                              {.name = "on", .value = 1, .type = GPUC_BOOL},
                                              {.name = "w", .values = table, .dims = {6}},
                                              {.name = "m", .values = table, .dims = {3, 2}},
                                              {.name = "c", .values = table, .dims = {1, 3, 2}}, {NULL}};
    static const char *const functions[] = {"function helper(a, b) { return a * b + 1; }",
                                            "function vec(v) { return [v, v * 2]; }"};
    static const char *const natives[] = {"float nat(float a, int b) { return a + float(b); }"};
    static const char *const arg_types[] = {NULL, "float[], float", "float[][], int", "vec4[], float[][][], Array(3)"};
    /* With mode bit 8 (both low bits set and bit 3): a kernel map keeping `helper` and a sub-kernel given
     * as source, as gpuc_create_kernel_map_js passes them. */
    js_map_entry map[2] = {{.name = "m", .function = "helper"}, {.name = "s", .function = "(x) => x + 1"}};
    bool with_map = (mode & 11) == 11;
    js_settings s = {
        .output = {16, (mode & 1) ? 4 : 0, (mode & 2) ? 2 : 0},
        .constants = constants,
        .nconstants = 8,
        .arg_types = arg_types[(mode >> 2) & 3],
        .loop_max_iterations = (mode & 16) ? 7 : 0,
        .random_seed = mode,
        .dynamic_output = (mode & 8) != 0,
        .functions = (mode & 32) ? functions : NULL,
        .nfunctions = (mode & 32) ? 2 : 0,
        .natives = (mode & 64) ? natives : NULL,
        .nnatives = (mode & 64) ? 1 : 0,
        .map = with_map ? map : NULL,
        .nmap = with_map ? 2 : 0,
    };
    char *glsl = NULL, name[64], err[1024];
    bool oom;
    if (js_translate(src, &s, &glsl, name, sizeof name, err, sizeof err, &oom, NULL)) {
        if (!glsl || !strstr(glsl, "jsk"))
            abort(); /* success must come with GLSL holding the kernel */
        free(glsl);
    } else if (glsl || !err[0]) {
        abort(); /* failure must come with a message and no GLSL */
    }
    if (mode & 128) {
        js_check_function(src, name, sizeof name, err, sizeof err);
        js_check_native(src, name, sizeof name, err, sizeof err);
        js_map_entry entries[GPUC_MAX_MAP_OUTPUTS];
        int n;
        if (js_read_map_text(src, entries, GPUC_MAX_MAP_OUTPUTS, &n, err, sizeof err))
            js_free_map_text(entries, n);
    }
    free(src);
    return 0;
}
