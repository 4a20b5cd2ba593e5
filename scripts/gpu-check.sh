#!/bin/sh
# gpu-check.sh - gpuc on a machine with an NVIDIA GPU, in one go and offline: checks what the build
# needs (it installs nothing: such a machine may have no network), builds with what is there, finds
# the GPU through EGL (trying NVIDIA's EGL vendor file when EGL shows no GPU), runs `make check`,
# `make bench` and `make bench-zoo` on it, and writes one markdown report that sets the gauntlet
# rows beside the published RTX 5090 figures (tests/bench/README.md). Each step has a time budget
# (8 minutes in all by default); a step past its budget is stopped and the report says so.
#
#   scripts/gpu-check.sh [--allow-cpu] [--dry-run] [--steps LIST] [--out FILE]
#     --allow-cpu   run on whatever device gpuc opens (llvmpipe included) instead of failing without a
#                   GPU: to try the script on a machine without one
#     --dry-run     say what would run, with the budgets, and run nothing
#     --steps LIST  comma-separated among build,check,bench,zoo (default: all four)
#     --out FILE    the report (default: build/gpu-check/report.md; the steps' logs go beside it)
# Budgets in seconds (environment): GPU_CHECK_BUILD_S (90), GPU_CHECK_CHECK_S (210),
# GPU_CHECK_BENCH_S (110), GPU_CHECK_ZOO_S (70). GPU_CHECK_BENCH_ARGS / GPU_CHECK_ZOO_ARGS are added to
# the benchmarks' arguments (e.g. '--n 65536' for a quick try). Exit status: 0 when every step that ran
# passed, 1 when one failed or ran out of time, 2 for bad arguments or nothing to run on.
set -u
cd "$(dirname "$0")/.." || exit 2

allow_cpu=0 dry_run=0 steps=build,check,bench,zoo out=build/gpu-check/report.md
while [ $# -gt 0 ]; do
    case $1 in
    --allow-cpu) allow_cpu=1 ;;
    --dry-run) dry_run=1 ;;
    --steps) steps=${2:-}; shift ;;
    --steps=*) steps=${1#--steps=} ;;
    --out) out=${2:-}; shift ;;
    --out=*) out=${1#--out=} ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
for s in $(echo "$steps" | tr ',' ' '); do
    case $s in build | check | bench | zoo) ;; *) echo "gpu-check: unknown step '$s' (build, check, bench, zoo)" >&2; exit 2 ;; esac
done
[ -n "$out" ] || { echo "gpu-check: --out needs a file" >&2; exit 2; }
wants() { case ",$steps," in *",$1,"*) return 0 ;; esac; return 1; }

budget_build=${GPU_CHECK_BUILD_S:-90} budget_check=${GPU_CHECK_CHECK_S:-210}
budget_bench=${GPU_CHECK_BENCH_S:-110} budget_zoo=${GPU_CHECK_ZOO_S:-70}
device=gpu
[ $allow_cpu = 1 ] && device=auto
dir=$(dirname "$out")
bench_json=build/bench/bench.json zoo_json=$dir/zoo.json
jobs=$(nproc 2>/dev/null || echo 2)
# Offline: install nothing (DEPS_CHECK=0); the GPU's device and hardware profile for every step.
make_vars="DEPS_CHECK=0"

if [ $dry_run = 1 ]; then
    echo "gpu-check: would check the build's tools and headers (installing nothing), then run on device '$device':"
    wants build && echo "  build  (${budget_build} s): make -j$jobs $make_vars all build/tests/gpuc-tests examples build/bench/gpuc-bench"
    wants check && echo "  check  (${budget_check} s): GPUC_DEVICE=$device make $make_vars check"
    wants bench && echo "  bench  (${budget_bench} s): GPUC_DEVICE=$device make $make_vars bench${GPU_CHECK_BENCH_ARGS:+ BENCH_ARGS='--json $bench_json $GPU_CHECK_BENCH_ARGS'}"
    wants zoo && echo "  zoo    (${budget_zoo} s): GPUC_DEVICE=$device make $make_vars bench-zoo BENCH_ARGS='--json $zoo_json ${GPU_CHECK_ZOO_ARGS:-}'"
    echo "  report: $out (logs beside it), the gauntlet rows beside tests/bench/README.md's RTX 5090 figures"
    exit 0
fi

mkdir -p "$dir" || exit 2
log() { echo "gpu-check: $*" >&2; }

# ---- what the build needs, found without a package manager ------------------------------------------
missing="" optional=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_header() { printf '#include <%s>\n' "$1" | ${CC:-cc} -E $2 - >/dev/null 2>&1; } # $2: flags, split
for c in ${CC:-cc} make; do have_cmd "$c" || missing="$missing $c"; done
if have_cmd "${CC:-cc}"; then
    have_header EGL/egl.h "" || missing="$missing EGL-headers(libegl-dev)"
    have_header png.h "" || missing="$missing libpng-headers(libpng-dev)"
    have_header check.h "$(pkg-config --cflags check 2>/dev/null)" || optional="$optional check(make-check)"
fi
have_cmd pkg-config || optional="$optional pkg-config"
have_cmd timeout || optional="$optional timeout(coreutils:no-budgets)"
have_cmd gnuplot || optional="$optional gnuplot(bench-chart)"
have_cmd node || optional="$optional node(GPU.js-columns)"
[ -n "$missing" ] && log "missing, needed to build:$missing"
[ -n "$optional" ] && log "missing, optional:$optional"

# ---- one step: a command under its budget, its log, its status ----------------------------------------
report_steps=""
failed=0
run_step() { # name budget command...
    name=$1 budget=$2
    shift 2
    logf=$dir/$name.log
    log "$name (budget ${budget} s): $*"
    start=$(date +%s)
    if have_cmd timeout; then
        timeout --kill-after=10 "$budget" "$@" >"$logf" 2>&1
    else
        "$@" >"$logf" 2>&1
    fi
    rc=$?
    secs=$(( $(date +%s) - start ))
    case $rc in
    0) status=passed ;;
    124 | 137) status="stopped at its budget of ${budget} s"; [ $failed = 2 ] || failed=1 ;;
    *) status="failed (exit $rc)"; [ $failed = 2 ] || failed=1 ;;
    esac
    log "$name: $status after $secs s"
    report_steps="$report_steps| $name | \`$*\` | $status | $secs s / $budget s |
"
    return $rc
}
skip_step() { # name why
    log "$1: skipped: $2"
    report_steps="$report_steps| $1 | - | skipped: $2 | - |
"
}

# ---- build ------------------------------------------------------------------------------------------------
built=1
if [ -n "$missing" ]; then
    built=0 failed=2
    for s in build check bench zoo; do wants $s && skip_step $s "cannot build without$missing"; done
elif wants build; then
    run_step build "$budget_build" make -j"$jobs" $make_vars all build/tests/gpuc-tests examples \
        build/bench/gpuc-bench || built=0
fi

# ---- the device: a GPU through EGL, with NVIDIA's vendor file if EGL found none ---------------------------
info=""
if [ $built = 1 ] && [ -x build/bin/gpuc ]; then
    if ! info=$(build/bin/gpuc info --device "$device" 2>&1) && [ "$device" = gpu ]; then
        for vendor in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json \
            /usr/share/glvnd/egl_vendor.d/10_nvidia.json /etc/glvnd/egl_vendor.d/10_nvidia.json; do
            [ -f "$vendor" ] || continue
            log "EGL found no GPU; trying __EGL_VENDOR_LIBRARY_FILENAMES=$vendor"
            if again=$(__EGL_VENDOR_LIBRARY_FILENAMES=$vendor build/bin/gpuc info --device gpu 2>&1); then
                export __EGL_VENDOR_LIBRARY_FILENAMES="$vendor"
                info=$again
                break
            fi
        done
    fi
    if ! echo "$info" | grep -q '^renderer:'; then
        log "no device to run on: $info"
        [ $allow_cpu = 1 ] || log "(--allow-cpu runs on llvmpipe instead)"
        built=0 failed=2
        for s in check bench zoo; do wants $s && skip_step $s "gpuc opened no '$device' device"; done
    fi
fi
export GPUC_DEVICE=$device

# ---- make check, make bench, make bench-zoo -------------------------------------------------------------
if [ $built = 1 ]; then
    if ! wants check; then :
    elif echo "$optional" | grep -q 'check(make-check)'; then skip_step check "Check (check.h) is not installed"
    else run_step check "$budget_check" make $make_vars check
    fi
    if wants bench; then
        rm -f "$bench_json"
        if [ -n "${GPU_CHECK_BENCH_ARGS:-}" ]; then
            run_step bench "$budget_bench" make $make_vars bench BENCH_ARGS="--json $bench_json $GPU_CHECK_BENCH_ARGS"
        else
            run_step bench "$budget_bench" make $make_vars bench
        fi
    fi
    if wants zoo; then
        rm -f "$zoo_json"
        run_step zoo "$budget_zoo" make $make_vars bench-zoo BENCH_ARGS="--json $zoo_json ${GPU_CHECK_ZOO_ARGS:-}"
    fi
fi

# ---- the report ---------------------------------------------------------------------------------------------
# One JSON object per line in the benchmarks' files: the named field's value (string or number).
json_field() { sed -n -e "s/.*\"$1\": \"\([^\"]*\)\".*/\1/p" -e "t" -e "s/.*\"$1\": \([^\",}]*\).*/\1/p"; }

# The gauntlet rows: gpuc's fastest checked column per row beside the RTX 5090 figures.
gauntlet_table() {
    [ -s "$bench_json" ] || { echo "(no gauntlet results: $bench_json is missing or empty)"; return; }
    echo "| row | n | gpuc, fastest column (ms) | column | C oracle (ms) | RTX 5090 hand-written WebGPU (ms) | gpuc / it | GPU.js WebGPU (ms) | GPU.js WebGL2 (ms) |"
    echo "|---|---:|---:|---|---:|---:|---:|---:|---:|"
    sed -n '/<!-- rtx5090/,/<!-- \/rtx5090/p' tests/bench/README.md | grep '^| [a-z]' | grep -v '^| row' |
        while IFS='|' read -r _ row _plain webgl2 webgpu hand _; do
            row=$(echo $row) hand=$(echo $hand) webgpu=$(echo $webgpu) webgl2=$(echo $webgl2)
            best="" best_col="" oracle="" n="" result="not run"
            while read -r line; do
                r=$(echo "$line" | json_field row)
                [ "$r" = "$row" ] || continue
                result="none passed" n=$(echo "$line" | json_field n)
                col=$(echo "$line" | json_field column) ms=$(echo "$line" | json_field median_ms)
                ok=$(echo "$line" | json_field ok) be=$(echo "$line" | json_field backend)
                case $col in
                C*) [ -z "$oracle" ] && oracle=$ms ;;
                gpuc*) [ "$ok" = true ] || continue
                    if [ -z "$best" ] || awk "BEGIN { exit !($ms < $best) }"; then best=$ms best_col="$col [$be]"; fi ;;
                esac
            done <"$bench_json"
            ratio=-
            [ -n "$best" ] && ratio=$(awk "BEGIN { printf \"%.2fx\", $best / $hand }")
            echo "| $row | ${n:--} | ${best:-$result} | ${best_col:--} | ${oracle:--} | $hand | $ratio | $webgpu | $webgl2 |"
        done
}

# The zoo rows: every column as the benchmark measured it (no published GPU figures to set beside).
zoo_table() {
    [ -s "$zoo_json" ] || { echo "(no zoo results: $zoo_json is missing or empty)"; return; }
    echo "| row | column | backend | median ms | checked against C |"
    echo "|---|---|---|---:|---|"
    grep '"group": "zoo"' "$zoo_json" | while read -r line; do
        echo "| $(echo "$line" | json_field row) | $(echo "$line" | json_field column) |" \
            "$(echo "$line" | json_field backend) | $(echo "$line" | json_field median_ms) |" \
            "$(echo "$line" | json_field ok) |"
    done
}

{
    echo "# gpuc on $(hostname 2>/dev/null || echo this machine): scripts/gpu-check.sh"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), gpuc $(git describe --always --dirty 2>/dev/null || echo '(no git)'), device '$device'${__EGL_VENDOR_LIBRARY_FILENAMES:+, __EGL_VENDOR_LIBRARY_FILENAMES=$__EGL_VENDOR_LIBRARY_FILENAMES}."
    echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($jobs online)."
    [ -n "$missing" ] && echo "Missing, needed to build:$missing."
    [ -n "$optional" ] && echo "Missing, optional:$optional."
    echo
    echo "## The device"
    echo
    echo '```'
    echo "${info:-(gpuc info did not run)}" | sed -n '1,/^limits:/p' | sed '$d'
    echo '```'
    echo
    echo "## Steps"
    echo
    echo "| step | command | status | time / budget |"
    echo "|---|---|---|---|"
    printf '%s' "$report_steps"
    for s in check bench zoo; do
        [ -s "$dir/$s.log" ] || continue
        echo
        echo "### $s: the log's last lines"
        echo
        echo '```'
        if [ $s = check ]; then grep -E '^(====|==|[0-9]+%:)|:[FE]:' "$dir/$s.log" | tail -40
        else tail -25 "$dir/$s.log"; fi
        echo '```'
    done
    echo
    echo "## The gauntlet rows beside the published RTX 5090 figures"
    echo
    echo "Published at n = 2^23 (topk), 2^22 (bitonic-sort, compaction), 2^20 (launch-overhead); gpuc's fastest"
    echo "column whose checksum matched, median ms, from $bench_json."
    echo
    gauntlet_table
    echo
    echo "## The kernel zoo"
    echo
    zoo_table
} >"$out"
log "report: $out"
exit $failed
