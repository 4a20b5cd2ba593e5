#!/bin/sh
# glsl-dump.sh DIR COMMAND [ARG...] - runs COMMAND with every GLSL shader it hands to the driver
# written to DIR/NNNNN.glsl, in the order it compiles them. For showing that a change to gpuc leaves
# the programs it generates byte-identical: dump a program's shaders before and after, then
# `diff -r`. It interposes eglGetProcAddress (gpuc loads GL through it) with LD_PRELOAD, so the
# command needs no rebuilding; needs cc and a dynamically linked libEGL.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR COMMAND [ARG...]" >&2; exit 2; }
dir=$1
shift
mkdir -p "$dir"
shim_dir=$(mktemp -d)
trap 'rm -rf "$shim_dir"' EXIT
cat > "$shim_dir/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*proc)(void);
typedef void (*shader_source_fn)(unsigned, int, const char *const *, const int *);
static shader_source_fn real_shader_source;
static int dumped;

static void dump_shader_source(unsigned shader, int count, const char *const *strings, const int *lengths)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%05d.glsl", getenv("GLSL_DUMP_DIR"), dumped++);
    FILE *f = fopen(path, "w");
    for (int i = 0; f && i < count; i++) {
        if (lengths && lengths[i] >= 0)
            fwrite(strings[i], 1, (size_t)lengths[i], f);
        else
            fputs(strings[i], f);
    }
    if (f)
        fclose(f);
    real_shader_source(shader, count, strings, lengths);
}

proc eglGetProcAddress(const char *name)
{
    static proc (*real)(const char *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "eglGetProcAddress");
    proc p = real(name);
    if (p && !strcmp(name, "glShaderSource")) {
        real_shader_source = (shader_source_fn)p;
        return (proc)dump_shader_source;
    }
    return p;
}
EOF
cc -shared -fPIC -O1 -o "$shim_dir/shim.so" "$shim_dir/shim.c" -ldl
GLSL_DUMP_DIR=$dir LD_PRELOAD="$shim_dir/shim.so${LD_PRELOAD:+:$LD_PRELOAD}" "$@"
