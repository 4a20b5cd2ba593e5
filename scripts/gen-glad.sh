#!/bin/sh
# Regenerates the committed OpenGL 4.3 core loader in src/glad/ from the Khronos XML that
# Debian's python3-glad bundles (--reproducible keeps glad offline and the output stable).
set -eu
cd "$(dirname "$0")/.."
GLAD=${GLAD:-/usr/bin/glad}   # the python3 on PATH may lack the glad module; Debian's wrapper has it
if [ ! -x "$GLAD" ]; then
    echo "gen-glad: $GLAD not found; install it with: apt-get install python3-glad" >&2
    exit 1
fi
rm -rf src/glad
"$GLAD" --quiet --reproducible --api gl:core=4.3 --extensions GL_KHR_debug --out-path src/glad c
echo "gen-glad: wrote src/glad (GL 4.3 core + GL_KHR_debug)"
