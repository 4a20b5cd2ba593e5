#!/bin/sh
# Installs the Debian packages gpuc needs to build, test and run headless on Mesa llvmpipe.
#   scripts/install-deps.sh          install what is missing (as root; otherwise print the command)
#   scripts/install-deps.sh --check  exit 0 when everything is present, 1 (listing what is not) otherwise
set -eu

# Build: compiler, make, pkg-config, EGL/GL headers, libpng (graphical kernels write PNG files). Tests: Check. Run: Mesa's EGL and llvmpipe.
# make installcheck builds a CMake project against the installed copy: cmake.
# Regenerating the GL loader (scripts/gen-glad.sh): python3-glad.
# The optional MPI library (libgpuc_mpi), its examples and the mpi suite: Open MPI (mpicc, mpirun).
PACKAGES="build-essential pkg-config cmake libegl-dev libgl-dev libpng-dev libegl1 libegl-mesa0 libgl1-mesa-dri check python3-glad openmpi-bin libopenmpi-dev"
# make bench draws its scaling chart with gnuplot, and its OpenCL columns (the zoo, topk's count pass,
# compaction) run on PoCL, built against the OpenCL headers and loader: installed here, but not
# required to build (--check leaves them out, so a user without root can build and test without
# them; the bench then says so in place of the chart or the column).
# CI's checks beyond make check: make abi-check compares the public ABI with abi/ through libabigail's
# abidw and abidiff (abigail-tools); make check-zink runs the suites on Mesa's zink over lavapipe, the
# Vulkan driver on the CPU (mesa-vulkan-drivers; zink itself comes with libgl1-mesa-dri).
OPTIONAL_PACKAGES="gnuplot-nox pocl-opencl-icd ocl-icd-opencl-dev opencl-headers abigail-tools mesa-vulkan-drivers"

missing=""
want="$PACKAGES"
[ "${1:-}" = "--check" ] || want="$PACKAGES $OPTIONAL_PACKAGES"
for p in $want; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ "${1:-}" = "--check" ]; then
    if [ -n "$missing" ]; then
        echo "install-deps: missing:$missing" >&2
        exit 1
    fi
    exit 0
fi

if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing:$missing" >&2
    echo "install-deps: run as root:  apt-get update && $cmd" >&2
    exit 1
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
