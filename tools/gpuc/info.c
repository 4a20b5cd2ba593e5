/* info.c - `gpuc info [--json]`: the device gpuc_open chooses (GPUC_DEVICE / --device, GPUC_BACKEND /
 * --backend), its limits, and every EGL device seen. The public API has no device list, so the EGL
 * devices are found by opening each index in turn (gpuc_open with device "0", "1", ...) until gpuc
 * says there are no more: what a user's own program could do. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEVICES = 16 }; /* gpuc's EGL device indexes are 0-15 */

typedef struct seen_device {
    bool opened;
    char renderer[160];
    char why[400]; /* the first line of gpuc's message when it could not be opened */
} seen_device;

/* Opens EGL device 0, 1, ... until gpuc says the index is past the last device. Returns the count. */
static int list_devices(gpuc_backend backend, seen_device seen[MAX_DEVICES])
{
    int n = 0;
    for (; n < MAX_DEVICES; n++) {
        char index[4];
        snprintf(index, sizeof index, "%d", n);
        gpuc *g = NULL;
        gpuc_options opts = {.device = index, .backend = backend};
        memset(&seen[n], 0, sizeof seen[n]);
        if (gpuc_open(&g, &opts) == GPUC_OK) {
            seen[n].opened = true;
            snprintf(seen[n].renderer, sizeof seen[n].renderer, "%s", gpuc_get_info(g)->renderer);
        } else {
            const char *msg = gpuc_errmsg(g);
            bool past_end = strstr(msg, "there are only") != NULL;
            const char *line = strstr(msg, "EGL device");
            snprintf(seen[n].why, sizeof seen[n].why, "%.*s", (int)strcspn(line ? line : msg, "\n"),
                     line ? line : msg);
            gpuc_close(g);
            if (past_end)
                break;
            continue;
        }
        gpuc_close(g);
    }
    return n;
}

int cli_open(const gpuc_options *opts, gpuc **gpu)
{
    if (gpuc_open(gpu, opts) == GPUC_OK)
        return CLI_OK;
    const char *msg = gpuc_errmsg(*gpu);
    const char *choice = opts->device ? opts->device : getenv("GPUC_DEVICE");
    /* An EGL index past the last device is a wrong choice, not a missing driver: say which there are. */
    if (!choice || !*choice || strspn(choice, "0123456789") != strlen(choice) || !strstr(msg, "there are only")) {
        fprintf(stderr, "gpuc: no device: %s\n", msg);
        return CLI_FAILED;
    }
    seen_device seen[MAX_DEVICES];
    int n = list_devices(opts->backend, seen);
    fprintf(stderr, "gpuc: %s %s: there is no EGL device %s on this machine; the devices are:%s\n",
            opts->device ? "--device" : "GPUC_DEVICE", choice, choice, n ? "" : " none");
    for (int i = 0; i < n; i++)
        fprintf(stderr, "  %d: %s\n", i, seen[i].opened ? seen[i].renderer : seen[i].why);
    return CLI_BAD_INPUT;
}

/* A JSON string (the renderer and messages are plain text, but may hold quotes or backslashes). */
static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void print_json(const gpuc_info *in, const seen_device *seen, int n)
{
    printf("{\n  \"renderer\": ");
    json_string(in->renderer);
    printf(",\n  \"vendor\": ");
    json_string(in->vendor);
    printf(",\n  \"gl_version\": ");
    json_string(in->gl_version);
    printf(",\n  \"glsl_version\": ");
    json_string(in->glsl_version);
    printf(",\n  \"device\": ");
    json_string(in->device);
    printf(",\n  \"device_index\": %d,\n  \"software\": %s,\n  \"backend\": ", in->device_index,
           in->software ? "true" : "false");
    json_string(in->backend_name);
    printf(",\n  \"device_profile\": ");
    json_string(in->device_profile_name);
    printf(",\n  \"limits\": {\n    \"loop_budget\": %lld,\n", (long long)in->loop_budget);
    printf("    \"max_work_group_count\": [%d, %d, %d],\n", in->max_work_group_count[0], in->max_work_group_count[1],
           in->max_work_group_count[2]);
    printf("    \"max_work_group_size\": [%d, %d, %d],\n", in->max_work_group_size[0], in->max_work_group_size[1],
           in->max_work_group_size[2]);
    printf("    \"max_work_group_invocations\": %d,\n", in->max_work_group_invocations);
    printf("    \"max_storage_block_size\": %lld,\n", (long long)in->max_storage_block_size);
    printf("    \"max_texture_buffer_size\": %lld,\n", (long long)in->max_texture_buffer_size);
    printf("    \"max_shared_memory\": %d,\n    \"max_image_units\": %d,\n    \"max_target_size\": %d\n  },\n",
           in->max_shared_memory, in->max_image_units, in->max_target_size);
    printf("  \"egl_devices\": [");
    for (int i = 0; i < n; i++) {
        printf("%s\n    {\"index\": %d, \"opened\": %s, ", i ? "," : "", i, seen[i].opened ? "true" : "false");
        printf(seen[i].opened ? "\"renderer\": " : "\"error\": ");
        json_string(seen[i].opened ? seen[i].renderer : seen[i].why);
        putchar('}');
    }
    printf("%s]\n}\n", n ? "\n  " : "");
}

static void print_text(const gpuc_info *in, const seen_device *seen, int n)
{
    printf("device:        %s\n", in->device);
    printf("renderer:      %s\n", in->renderer);
    printf("vendor:        %s\n", in->vendor);
    printf("GL version:    %s\n", in->gl_version);
    printf("GLSL version:  %s\n", in->glsl_version);
    printf("software:      %s\n", in->software ? "yes" : "no");
    printf("backend:       %s\n", in->backend_name);
    printf("profile:       %s\n", in->device_profile_name);
    printf("limits:\n");
    printf("  loop budget:               %lld%s\n", (long long)in->loop_budget,
           in->loop_budget ? " iterations per invocation" : " (none)");
    printf("  work group count:          %d x %d x %d\n", in->max_work_group_count[0], in->max_work_group_count[1],
           in->max_work_group_count[2]);
    printf("  work group size:           %d x %d x %d (%d invocations)\n", in->max_work_group_size[0],
           in->max_work_group_size[1], in->max_work_group_size[2], in->max_work_group_invocations);
    printf("  storage block:             %lld bytes\n", (long long)in->max_storage_block_size);
    printf("  texture buffer:            %lld texels\n", (long long)in->max_texture_buffer_size);
    printf("  shared memory:             %d bytes\n", in->max_shared_memory);
    printf("  image units:               %d\n", in->max_image_units);
    if (in->max_target_size)
        printf("  render target:             %d texels\n", in->max_target_size);
    printf("EGL devices seen: %d\n", n);
    for (int i = 0; i < n; i++)
        printf("  %d: %s\n", i, seen[i].opened ? seen[i].renderer : seen[i].why);
}

int cmd_info(int argc, char **argv)
{
    bool json = false;
    gpuc_options opts = {0};
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strncmp(argv[i], "--device", 8) || !strncmp(argv[i], "--backend", 9)) {
            /* "--device D" or "--device=D", as run and glsl take them */
            bool device = argv[i][2] == 'd';
            const char *rest = argv[i] + (device ? 8 : 9), *v;
            if (*rest == '=')
                v = rest + 1;
            else if (*rest)
                return cli_bad("info: unknown argument %s (see gpuc info --help)", argv[i]);
            else if (i + 1 < argc)
                v = argv[++i];
            else
                return cli_bad("%s needs a value (see gpuc info --help)", argv[i]);
            if (device && !*v)
                return cli_bad("--device: empty (auto, gpu, cpu, llvmpipe or an EGL device index)");
            if (device)
                opts.device = v;
            else if (!strcmp(v, "compute"))
                opts.backend = GPUC_BACKEND_COMPUTE;
            else if (!strcmp(v, "fragment"))
                opts.backend = GPUC_BACKEND_FRAGMENT;
            else
                return cli_bad("--backend \"%s\": expected compute or fragment", v);
        } else {
            return cli_bad("info: unknown argument %s (see gpuc info --help)", argv[i]);
        }
    }
    gpuc *gpu = NULL;
    int rc = cli_open(&opts, &gpu);
    if (rc != CLI_OK) {
        gpuc_close(gpu);
        return rc;
    }
    seen_device seen[MAX_DEVICES];
    int n = list_devices(gpuc_get_info(gpu)->backend, seen);
    if (json)
        print_json(gpuc_get_info(gpu), seen, n);
    else
        print_text(gpuc_get_info(gpu), seen, n);
    gpuc_close(gpu);
    return CLI_OK;
}
