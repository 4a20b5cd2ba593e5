#!/bin/sh
# Instructions per kernel call, gpuc_run_to against a bare GL dispatch of the same program, counted by
# callgrind (valgrind) with llvmpipe on the calling thread. The slope between two call counts removes
# start-up and shader compilation. Mesa's disk shader cache is off, so both counts compile alike (a
# cache hit in the second run only made the slope negative). Usage: scripts/call-overhead.sh [BINARY]
set -eu
bin=${1:-build/bench/gpuc-call-overhead}
count() { # mode calls -> instructions
    MESA_SHADER_CACHE_DISABLE=true LP_NUM_THREADS=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
        sed -n 's/.*I *refs: *//p' | tr -d ,
}
per_call() { # mode -> instructions per call
    a=$(count "$1" 2000)
    b=$(count "$1" 6000)
    echo $(((b - a) / 4000))
}
gpuc=$(per_call 1)
bare=$(per_call 2)
echo "instructions per call: gpuc_run_to $gpuc, bare GL dispatch $bare"
awk -v g="$gpuc" -v b="$bare" 'BEGIN { printf "gpuc / bare GL = %.3f (goal: within 1.20)\n", g / b }'
