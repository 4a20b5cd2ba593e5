/* zoo_gpujs.c - GPU.js's columns of the kernel zoo: runs scripts/bench-gpujs-zoo.js with node once per
 * row and size, reads its one-line-per-cell answer and its result files, and keeps them for both backends. */
#include "zoo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ZOO_SCRIPT "scripts/bench-gpujs-zoo.js"
#define ZOO_MAX_ROWS 8
#define ZOO_MAX_MODES 4

/* One row's run of the script: its cells, or why there are none. */
typedef struct gpujs_row {
    char name[16];
    size_t n;
    int rounds;
    uint32_t seed;
    zoo_gpujs_cell cells[ZOO_MAX_MODES];
    int ncells;
    char note[240];
} gpujs_row;

struct zoo_gpujs {
    gpujs_row rows[ZOO_MAX_ROWS];
    int nrows;
    char versions[96]; /* "node=v20 gpu.js=2.24.1" from the script's version line */
};

uint32_t zoo_fnv1a(const char *text)
{
    uint32_t h = 0x811c9dc5u;
    for (; *text; text++) {
        h ^= (unsigned char)*text;
        h *= 16777619u;
    }
    return h;
}

void zoo_line_value(const char *line, const char *key, char *out, size_t size)
{
    size_t klen = strlen(key);
    out[0] = '\0';
    for (const char *at = line; (at = strstr(at, key)); at += klen) {
        if ((at != line && at[-1] != ' ') || at[klen] != '=')
            continue;
        const char *v = at + klen + 1;
        size_t len = *v == '"' ? strcspn(++v, "\"") : strcspn(v, " \n");
        len = len < size - 1 ? len : size - 1;
        memcpy(out, v, len);
        out[len] = '\0';
        return;
    }
}

static bool read_file(const char *path, void **data, size_t *bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = fseek(f, 0, SEEK_END) == 0;
    long size = ok ? ftell(f) : -1;
    ok = size >= 0 && fseek(f, 0, SEEK_SET) == 0;
    void *buf = ok ? malloc((size_t)size + 1) : NULL;
    ok = buf && fread(buf, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *bytes = (size_t)size;
    return true;
}

/* One cell line: "gpujs-zoo row=R mode=M ... median_ms=... file=..." */
static void parse_cell(gpujs_row *r, const char *line)
{
    if (r->ncells == ZOO_MAX_MODES)
        return;
    zoo_gpujs_cell *c = &r->cells[r->ncells++];
    char value[256];
    zoo_line_value(line, "mode", c->mode, sizeof c->mode);
    zoo_line_value(line, "error", c->error, sizeof c->error);
    if (c->error[0])
        return;
    zoo_line_value(line, "median_ms", value, sizeof value);
    c->median_ms = strtod(value, NULL);
    zoo_line_value(line, "runs", value, sizeof value);
    c->runs = atoi(value);
    zoo_line_value(line, "kernel", c->kernel, sizeof c->kernel);
    zoo_line_value(line, "fallback", c->fallback, sizeof c->fallback);
    zoo_line_value(line, "source_fnv1a", value, sizeof value);
    c->source_fnv1a = (uint32_t)strtoul(value, NULL, 16);
    zoo_line_value(line, "file", value, sizeof value);
    if (!value[0] || !read_file(value, &c->data, &c->bytes))
        snprintf(c->error, sizeof c->error, "no result file from node (%.150s)", value[0] ? value : "none named");
    if (value[0])
        remove(value);
}

bool zoo_have_node(void)
{
    int rc = system("command -v node >/dev/null 2>&1");
    return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

/* Runs the script for one row into r (its cells, or a note saying why there are none). */
static void run_script(struct zoo_gpujs *g, gpujs_row *r)
{
    const char *script = getenv("GPUC_ZOO_SCRIPT") && *getenv("GPUC_ZOO_SCRIPT") ? getenv("GPUC_ZOO_SCRIPT") : ZOO_SCRIPT;
    if (access(script, R_OK) != 0) {
        snprintf(r->note, sizeof r->note, "%s not found: run from the source tree, or set GPUC_ZOO_SCRIPT", script);
        return;
    }
    if (!zoo_have_node()) {
        snprintf(r->note, sizeof r->note, "node not found on PATH");
        return;
    }
    char dir[] = "/tmp/gpuc-zoo-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(r->note, sizeof r->note, "no temporary folder: %s", strerror(errno));
        return;
    }
    char cmd[1024], errpath[64], line[1024];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    snprintf(cmd, sizeof cmd, "node '%s' --row %s --n %zu --rounds %d --seed %u --out %s 2>%s", script, r->name, r->n,
             r->rounds, r->seed, dir, errpath);
    printf("%-12s (running GPU.js in node: %s)\n", r->name, cmd);
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(r->note, sizeof r->note, "could not start node: %s", strerror(errno));
        rmdir(dir);
        return;
    }
    while (fgets(line, sizeof line, p)) {
        if (!strncmp(line, "gpujs-zoo version ", 18)) {
            snprintf(g->versions, sizeof g->versions, "%.*s", (int)strcspn(line + 18, "\n"), line + 18);
        } else if (!strncmp(line, "gpujs-zoo unavailable ", 22)) {
            zoo_line_value(line, "reason", r->note, sizeof r->note);
        } else if (!strncmp(line, "gpujs-zoo row=", 14)) {
            parse_cell(r, line);
        }
    }
    int rc = pclose(p);
    for (int i = 0; i < r->ncells; i++)
        snprintf(r->cells[i].runtime, sizeof r->cells[i].runtime, "%s", g->versions);
    if (!r->ncells && !r->note[0]) {
        void *err = NULL;
        size_t bytes = 0;
        bool got = read_file(errpath, &err, &bytes);
        if (got)
            ((char *)err)[bytes] = '\0';
        snprintf(r->note, sizeof r->note, "node exited with status %d: %.160s", WIFEXITED(rc) ? WEXITSTATUS(rc) : -1,
                 got && bytes ? (char *)err : "no output");
        free(err);
    }
    remove(errpath);
    rmdir(dir);
}

zoo_gpujs_cell *zoo_gpujs_cells(bench_env *env, const char *row, const bench_params *p, int *ncells, const char **note)
{
    static const char *off = "--no-gpujs";
    *ncells = 0;
    if (env->no_gpujs) {
        *note = off;
        return NULL;
    }
    if (!env->gpujs && !(env->gpujs = calloc(1, sizeof *env->gpujs))) {
        *note = "out of memory";
        return NULL;
    }
    struct zoo_gpujs *g = env->gpujs;
    gpujs_row *r = NULL;
    for (int i = 0; i < g->nrows && !r; i++)
        if (!strcmp(g->rows[i].name, row) && g->rows[i].n == p->n && g->rows[i].rounds == p->rounds &&
            g->rows[i].seed == p->seed)
            r = &g->rows[i];
    if (!r) {
        if (g->nrows == ZOO_MAX_ROWS) {
            *note = "too many rows";
            return NULL;
        }
        r = &g->rows[g->nrows++];
        snprintf(r->name, sizeof r->name, "%s", row);
        r->n = p->n;
        r->rounds = p->rounds;
        r->seed = p->seed;
        run_script(g, r);
        if (g->versions[0] && r->ncells) /* the figures to stand beside are 2.24.1's */
            printf("%-12s (GPU.js: %s%s)\n", row, g->versions,
                   strstr(g->versions, "gpu.js=2.24.1") ? "" : "; NOT 2.24.1, the version these rows are defined for");
    }
    if (!r->ncells) {
        *note = r->note[0] ? r->note : "node printed no cells";
        return NULL;
    }
    *ncells = r->ncells;
    return r->cells;
}

void zoo_gpujs_free(bench_env *env)
{
    if (!env->gpujs)
        return;
    for (int i = 0; i < env->gpujs->nrows; i++)
        for (int c = 0; c < env->gpujs->rows[i].ncells; c++)
            free(env->gpujs->rows[i].cells[c].data);
    free(env->gpujs);
    env->gpujs = NULL;
}
