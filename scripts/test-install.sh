#!/bin/sh
# Installs gpuc into a scratch prefix and builds a program against it with pkg-config alone, linked
# both ways (shared and static), then runs it: what `make installcheck` promises.
set -eu
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
make -s install PREFIX="$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cat >"$prefix/hello.c" <<'C'
#include <gpuc.h>
#include <stdio.h>
int main(void)
{
    gpuc *gpu;
    if (gpuc_open(&gpu, NULL) != GPUC_OK) {
        fprintf(stderr, "%s\n", gpuc_errmsg(gpu));
        return 1;
    }
    gpuc_kernel *k;
    gpuc_array *r;
    int32_t out[4];
    gpuc_kernel_desc desc = {.output = {4}};
    if (gpuc_create_kernel(gpu, "int f() { return thread.x * thread.x; }", &desc, &k) != GPUC_OK ||
        gpuc_run(k, NULL, 0, &r) != GPUC_OK || gpuc_array_read_i32(r, out, 4) != GPUC_OK) {
        fprintf(stderr, "%s\n", gpuc_errmsg(gpu));
        return 1;
    }
    printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
    gpuc_close(gpu);
    return out[3] == 9 ? 0 : 1;
}
C
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$prefix/hello-shared" "$prefix/hello.c" $(pkg-config --cflags --libs gpuc)
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$prefix/hello-static" "$prefix/hello.c" $(pkg-config --cflags gpuc) \
    "$prefix/lib/libgpuc.a" $(pkg-config --libs --static gpuc | sed 's/-lgpuc//')
LD_LIBRARY_PATH="$prefix/lib" "$prefix/hello-shared"
"$prefix/hello-static"
echo "installcheck: pkg-config --cflags --libs gpuc works on an installed copy (shared and static)"
