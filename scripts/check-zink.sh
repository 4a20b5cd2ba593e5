#!/bin/sh
# Runs a command on Mesa's zink (OpenGL over Vulkan) over lavapipe (Vulkan on the CPU), after checking that gpuc really gets zink.
#   scripts/check-zink.sh GPUC_PROGRAM COMMAND [ARG...]    (make check-zink: make check's suites, both backends)
# zink compiles GLSL to SPIR-V and lavapipe takes that to NIR, a path llvmpipe's own GL front end never
# takes, so a shader one driver tolerates and the other rejects shows up here. The driver is checked
# through GPUC_PROGRAM's `info` (GL_RENDERER begins with "zink"): a Mesa without zink_dri.so or
# lavapipe would otherwise fall back to llvmpipe, or fail, and the run would prove nothing.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 GPUC_PROGRAM COMMAND [ARG...]" >&2
    exit 2
fi
cli=$1
shift

export MESA_LOADER_DRIVER_OVERRIDE=zink
# Mesa 22.3's zink skips Vulkan devices of the CPU type, lavapipe's, unless software rendering is asked for.
export LIBGL_ALWAYS_SOFTWARE=1
# Mesa's Vulkan window-system code complains on stderr (and every gpuc program's stderr with it) when
# XDG_RUNTIME_DIR is unset, as it is in CI: a private directory for the run then.
runtime=""
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
    runtime=$(mktemp -d)
    XDG_RUNTIME_DIR=$runtime
    export XDG_RUNTIME_DIR
fi
trap '[ -z "$runtime" ] || rm -rf "$runtime"' EXIT

info=$("$cli" info 2>&1) || true
renderer=$(printf '%s\n' "$info" | sed -n 's/^renderer: *//p')
case "$renderer" in
zink*) echo "check-zink: GL_RENDERER is \"$renderer\"" ;;
*)
    printf '%s\n' "$info" >&2
    echo "check-zink: gpuc does not run on zink (GL_RENDERER \"$renderer\"): zink needs Mesa's zink_dri.so" \
         "(libgl1-mesa-dri) and lavapipe (mesa-vulkan-drivers; scripts/install-deps.sh installs both)" >&2
    exit 1
    ;;
esac
start=$(date +%s)
status=0
"$@" || status=$?
echo "check-zink: $* took $(($(date +%s) - start)) s on zink, exit $status"
exit $status
