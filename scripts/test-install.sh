#!/bin/sh
# Installs gpuc into a scratch prefix and uses it the way README.md's "Building against an installed
# gpuc" says, running that section's commands as written: a pkg-config program (shared and static) and
# a CMake project (gpuc::gpuc and gpuc::gpuc_static) are built and run, with no LD_LIBRARY_PATH. Then
# the CMake version file's answers, ldconfig's place in `make install`, and `make uninstall`: what
# `make installcheck` promises.
set -eu
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
PREFIX="$scratch/prefix"
export PREFIX
unset LD_LIBRARY_PATH # the programs must find libgpuc.so on their own (rpath)
# The version as the Makefile takes it from gpuc.h, and the soname's number (major.minor before 1.0).
version_part() { sed -n "s/^#define GPUC_VERSION_$1 \([0-9][0-9]*\)\$/\1/p" include/gpuc.h; }
version="$(version_part MAJOR).$(version_part MINOR).$(version_part PATCH)"
if [ "$(version_part MAJOR)" = 0 ]; then soversion="0.$(version_part MINOR)"; else soversion=$(version_part MAJOR); fi

fail() {
    echo "installcheck: $*" >&2
    exit 1
}

# The commands of the README block after `<!-- installcheck: NAME -->`, exactly as a reader sees them.
readme_block() {
    awk -v name="$1" '
        $0 == "<!-- installcheck: " name " -->" { want = 1; next }
        want && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }
    ' README.md
}

make -s install PREFIX="$PREFIX" >/dev/null
for f in include/gpuc.h include/gpuc_check.h lib/pkgconfig/gpuc-check.pc lib/libgpuc.a "lib/libgpuc.so.$version" lib/pkgconfig/gpuc.pc \
    lib/cmake/gpuc/gpucConfig.cmake lib/cmake/gpuc/gpucConfigVersion.cmake bin/gpuc share/man/man1/gpuc.1; do
    [ -f "$PREFIX/$f" ] || fail "make install did not write PREFIX/$f"
done
# The installed command line runs and knows its version.
"$PREFIX/bin/gpuc" --version | grep -q "$version" || fail "the installed gpuc --version does not say $version"
grep -q "^\.TH GPUC 1 .*\"gpuc $version\"" "$PREFIX/share/man/man1/gpuc.1" ||
    fail "the man page's .TH line does not name gpuc $version (tools/gpuc/gpuc.1)"

# The program both ways build: it checks that the library it runs against is the header's version and
# prints that version, which must be the one make install was given.
mkdir "$scratch/app"
cat >"$scratch/app/app.c" <<'C'
#include <gpuc.h>
#include <stdio.h>
int main(void)
{
    if (gpuc_version() != GPUC_VERSION) {
        fprintf(stderr, "libgpuc %s (%d) runs under a program built with gpuc.h %d\n", gpuc_version_string(),
                gpuc_version(), GPUC_VERSION);
        return 1;
    }
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
    printf("gpuc %s: %d %d %d %d\n", gpuc_version_string(), out[0], out[1], out[2], out[3]);
    gpuc_close(gpu);
    return out[3] == 9 ? 0 : 1;
}
C

# Runs a README block in the app directory (or the directory $3); every line of output it prints must
# be the program's.
run_block() {
    script=$(readme_block "$1")
    [ -n "$script" ] || fail "README.md has no block marked <!-- installcheck: $1 -->"
    printf '%s\n' "$script" >"$scratch/$1.sh"
    (cd "${3:-$scratch/app}" && sh -eu "$scratch/$1.sh") >"$scratch/$1.out" 2>"$scratch/$1.err" || {
        cat "$scratch/$1.err" "$scratch/$1.out" >&2
        fail "README block '$1' failed (commands above in $1.sh)"
    }
    runs=$(grep -c "^gpuc $version: 0 1 4 9\$" "$scratch/$1.out" || true)
    [ "$runs" -eq "$2" ] || {
        cat "$scratch/$1.out" >&2
        fail "README block '$1': $runs of $2 programs printed 'gpuc $version: 0 1 4 9'"
    }
}

[ "$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --modversion gpuc)" = "$version" ] ||
    fail "pkg-config --modversion gpuc is not $version"
run_block pkg-config 2
# The shared program found libgpuc.so through gpuc.pc's rpath, and it was the scratch copy.
ldd "$scratch/app/app" | grep -q "=> $PREFIX/lib/libgpuc.so.$soversion " ||
    { ldd "$scratch/app/app" >&2; fail "app does not load $PREFIX/lib/libgpuc.so.$soversion"; }
if ldd "$scratch/app/app-static" | grep -q libgpuc; then fail "app-static still needs libgpuc.so"; fi

# The Check helpers: the README's command builds examples/check's suite against the installed header,
# and it passes in Check's default fork mode.
cp examples/check/blur_test.c "$scratch/app/"
script=$(readme_block check)
[ -n "$script" ] || fail "README.md has no block marked <!-- installcheck: check -->"
printf '%s\n' "$script" >"$scratch/check.sh"
(cd "$scratch/app" && env -u CK_FORK sh -eu "$scratch/check.sh") >"$scratch/check.out" 2>&1 ||
    { cat "$scratch/check.out" >&2; fail "README block 'check' failed (commands in check.sh)"; }
grep -q "^100%: Checks: 3, Failures: 0, Errors: 0\$" "$scratch/check.out" ||
    { cat "$scratch/check.out" >&2; fail "README block 'check': the installed blur_test did not pass"; }

readme_block CMakeLists.txt >"$scratch/app/CMakeLists.txt"
[ -s "$scratch/app/CMakeLists.txt" ] || fail "README.md has no block marked <!-- installcheck: CMakeLists.txt -->"
run_block cmake 1
ldd "$scratch/app/build/app" | grep -q "=> $PREFIX/lib/libgpuc.so.$soversion " || fail "the CMake app does not load $PREFIX/lib/libgpuc.so.$soversion"
# The static target links and runs too (built beside app from the same file).
cat >>"$scratch/app/CMakeLists.txt" <<'CMAKE'
add_executable(app-static app.c)
target_link_libraries(app-static PRIVATE gpuc::gpuc_static)
CMAKE
(cd "$scratch/app" && cmake -S . -B build >/dev/null && cmake --build build --target app-static >/dev/null) ||
    fail "gpuc::gpuc_static does not build"
"$scratch/app/build/app-static" | grep -q "^gpuc $version: 0 1 4 9\$" || fail "the gpuc::gpuc_static program did not run"

# find_package(gpuc VERSION): same major version and no older than asked (ranges too).
mkdir "$scratch/want"
cat >"$scratch/want/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.19)
project(want NONE)
find_package(gpuc ${WANT} REQUIRED)
CMAKE
want() {
    cmake -S "$scratch/want" -B "$scratch/want/build-$2" -DCMAKE_PREFIX_PATH="$PREFIX" -DWANT="$2" \
        >"$scratch/want.log" 2>&1 && got=found || got=refused
    [ "$got" = "$1" ] || { cat "$scratch/want.log" >&2; fail "find_package(gpuc $2) $got gpuc $version"; }
}
# Before 1.0 each minor version is an ABI of its own (README.md, "ABI policy"): 0.2.x only, from 0.2.0.
want found 0.2
want found "$version"
want found 0.2...1.0
want refused 0.1
want refused 0.0.1
want refused 0.3
want refused 1.0
want refused 0.1...1.0
want refused '0.2...<0.2.0'

# ldconfig: run by install only for /usr and /usr/local, as root, without DESTDIR (what make would run).
if [ "$(id -u)" -eq 0 ]; then expect=1; else expect=0; fi
for p in /usr /usr/local/; do
    n=$(make -n install PREFIX="$p" | grep -c '^ldconfig$' || true)
    [ "$n" -eq "$expect" ] || fail "make install PREFIX=$p runs ldconfig $n times (uid $(id -u))"
done
n=$(make -n install PREFIX=/usr DESTDIR="$scratch/stage" | grep -c '^ldconfig$' || true)
[ "$n" -eq 0 ] || fail "make install DESTDIR=... runs ldconfig"
n=$(make -n install PREFIX="$PREFIX" | grep -c '^ldconfig$' || true)
[ "$n" -eq 0 ] || fail "make install into a scratch prefix runs ldconfig"
# A system prefix's gpuc.pc carries no rpath (ld.so finds the library there), a scratch one's does.
make -s install PREFIX=/usr DESTDIR="$scratch/stage" >/dev/null
if grep -q rpath "$scratch/stage/usr/lib/pkgconfig/gpuc.pc"; then fail "gpuc.pc for /usr carries an rpath"; fi
grep -q "^Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lgpuc\$" "$PREFIX/lib/pkgconfig/gpuc.pc" ||
    fail "gpuc.pc for a scratch prefix has no rpath"

# A package whose files are gone says so at configure time.
rm "$PREFIX/lib/libgpuc.a"
want refused 0.2
# (CMake wraps its messages: lines are joined before the search.)
tr '\n' ' ' <"$scratch/want.log" | tr -s ' ' | grep -q "names files that are missing: $PREFIX/lib/libgpuc.a " ||
    { cat "$scratch/want.log" >&2; fail "a half-removed install is not reported by name"; }
make -s install PREFIX="$PREFIX" >/dev/null # whole again for the MPI package below

# The MPI library, where Open MPI is present: installed with its own pkg-config file, and the README's
# block builds an MPI program against it that runs on two ranks (a distributed inclusive scan of
# 0 1 3 5, whose prefix sums rank 0 prints as the other programs do).
if command -v mpicc >/dev/null 2>&1; then
    for f in include/gpuc_mpi.h lib/libgpuc_mpi.a "lib/libgpuc_mpi.so.$version" lib/pkgconfig/gpuc-mpi.pc; do
        [ -f "$PREFIX/$f" ] || fail "make install did not write PREFIX/$f"
    done
    cat >"$scratch/app/app_mpi.c" <<'C'
#include <gpuc_mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const float all[4] = {0, 1, 3, 5};
    int lo = 4 * rank / size, hi = 4 * (rank + 1) / size;
    gpuc *gpu;
    gpuc_array *prefix = NULL;
    float mine[4] = {0}, sums[4] = {0};
    int counts[64], displs[64];
    if (size > 64 || gpuc_mpi_open(MPI_COMM_WORLD, NULL, &gpu) != GPUC_OK ||
        gpuc_mpi_scan(gpu, MPI_COMM_WORLD, gpuc_arg_host_f32(all + lo, (gpuc_dims){(uint32_t)(hi - lo)}),
                      &(gpuc_scan_desc){.inclusive = true}, &prefix) != GPUC_OK ||
        (prefix && gpuc_array_read_f32(prefix, mine, (size_t)(hi - lo)) != GPUC_OK)) {
        fprintf(stderr, "rank %d: %s\n", rank, gpuc_mpi_errmsg());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < size; r++) {
        counts[r] = 4 * (r + 1) / size - 4 * r / size;
        displs[r] = 4 * r / size;
    }
    MPI_Gatherv(mine, hi - lo, MPI_FLOAT, sums, counts, displs, MPI_FLOAT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("gpuc %s: %g %g %g %g\n", gpuc_version_string(), sums[0], sums[1], sums[2], sums[3]);
    gpuc_array_free(prefix);
    gpuc_close(gpu);
    MPI_Finalize();
    return 0;
}
C
    if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
    [ "$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --modversion gpuc-mpi)" = "$version" ] ||
        fail "pkg-config --modversion gpuc-mpi is not $version"
    export OMPI_MCA_rmaps_base_oversubscribe=1 # a machine with one core still runs the two ranks
    export HWLOC_COMPONENTS=-gl # no wait on a "localhost" lookup where /etc/hosts is missing (Makefile)
    run_block mpi 1
    ldd "$scratch/app/app-mpi" | grep -q "=> $PREFIX/lib/libgpuc_mpi.so.$soversion " ||
        { ldd "$scratch/app/app-mpi" >&2; fail "app-mpi does not load $PREFIX/lib/libgpuc_mpi.so.$soversion"; }
    # The CMake target gpuc::gpuc_mpi, in a project of its own beside a copy of the program.
    mkdir "$scratch/app-mpi"
    cp "$scratch/app/app_mpi.c" "$scratch/app-mpi/"
    readme_block CMakeLists-mpi.txt >"$scratch/app-mpi/CMakeLists.txt"
    [ -s "$scratch/app-mpi/CMakeLists.txt" ] || fail "README.md has no block marked <!-- installcheck: CMakeLists-mpi.txt -->"
    run_block cmake-mpi 1 "$scratch/app-mpi"
    ldd "$scratch/app-mpi/build/app-mpi" | grep -q "=> $PREFIX/lib/libgpuc_mpi.so.$soversion " ||
        fail "the CMake MPI app does not load $PREFIX/lib/libgpuc_mpi.so.$soversion"
    # An install without the MPI library refuses COMPONENTS mpi, saying so.
    rm "$PREFIX/lib/libgpuc_mpi.so.$version"
    if (cd "$scratch/app-mpi" && cmake -S . -B build-none -DCMAKE_PREFIX_PATH="$PREFIX") >"$scratch/mpi-none.log" 2>&1; then
        fail "find_package(gpuc COMPONENTS mpi) succeeded without libgpuc_mpi"
    fi
    tr '\n' ' ' <"$scratch/mpi-none.log" | tr -s ' ' | grep -q "installed without its MPI library" ||
        { cat "$scratch/mpi-none.log" >&2; fail "find_package(gpuc COMPONENTS mpi) without libgpuc_mpi does not say why"; }
    make -s install PREFIX="$PREFIX" >/dev/null
fi

make -s uninstall PREFIX="$PREFIX" >/dev/null
left=$(cd "$PREFIX" && find . -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -d "$PREFIX/lib/cmake/gpuc" ] || fail "make uninstall left lib/cmake/gpuc/"
echo "installcheck: the README's pkg-config, CMake and Check instructions build programs that run against an installed copy"
