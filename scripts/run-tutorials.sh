#!/bin/sh
# run-tutorials.sh - the project's main job: build the library and the examples (`make examples`,
# which installs missing Debian packages when run as root), then run the three seed tutorials
# (Top-K task 4, Bitonic Sort task 3, Stream Compaction task 4), each under a header line.
# Exits non-zero if the build or any tutorial fails. BUILD=dir picks the build folder (default build).
set -u
cd "$(dirname "$0")/.." || exit 1
build=${BUILD:-build}

make examples BUILD="$build" >&2 || { echo "run-tutorials: make examples failed" >&2; exit 1; }

status=0
for tutorial in topk-4-cutoff bitonic-3-direction compact-4-binary-search; do
    echo "== $tutorial"
    if ! "$build/examples/$tutorial"; then
        echo "run-tutorials: $tutorial failed" >&2
        status=1
    fi
done
exit $status
