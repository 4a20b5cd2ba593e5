#!/bin/sh
# run-tutorials.sh - the project's main job: install missing Debian packages (as root), build the
# library and the examples (`make examples`), then run the three seed tutorials
# (Top-K task 4, Bitonic Sort task 3, Stream Compaction task 4), each under a header line, and check
# every line each prints against the tutorial's expected lines: the SPEC table of
# tests/test_examples.c (the same lines `make check` asserts), read from there so the two never
# disagree. Each checked line is reported "ok" or "MISMATCH" with what was printed instead.
# Exits non-zero if the build or any tutorial fails or any line differs. BUILD=dir picks the build
# folder (default build).
# It is the README's first command, so it runs on a bare Debian (no make yet): the missing packages
# (make and Open MPI among them) are installed before make starts, so that the make below finds Open
# MPI and builds the MPI examples too (make decides what to build before its own install step runs).
set -u
cd "$(dirname "$0")/.." || exit 1
build=${BUILD:-build}
table=tests/test_examples.c

if [ "${DEPS_CHECK:-1}" != 0 ] && ! scripts/install-deps.sh --check 2>/dev/null; then
    scripts/install-deps.sh >&2 || { echo "run-tutorials: the Debian packages could not be installed" >&2; exit 1; }
fi
make examples BUILD="$build" >&2 || { echo "run-tutorials: make examples failed" >&2; exit 1; }

# Prints the expected lines of tutorial $1: its entry {"NAME", "..." "..."} in the SPEC table, string
# literals joined and \n turned into line ends (the table's literals hold no other escapes).
expected_lines() {
    awk -v name="$1" '
        /^static const spec_output SPEC\[\]/ { in_table = 1; next }
        in_table && /^};/ { exit }
        in_table && index($0, "{\"" name "\",") { found = 1; sub(/^[^,]*,/, "") }
        found {
            line = $0
            while (match(line, /"[^"]*"/)) {
                text = text substr(line, RSTART + 1, RLENGTH - 2)
                line = substr(line, RSTART + RLENGTH)
            }
            if ($0 ~ /},[ \t]*$/) { gsub(/\\n/, "\n", text); printf "%s", text; exit }
        }' "$table"
}

status=0
for tutorial in topk-4-cutoff bitonic-3-direction compact-4-binary-search; do
    echo "== $tutorial"
    expected=$(expected_lines "$tutorial")
    if [ -z "$expected" ]; then
        echo "run-tutorials: no expected lines for $tutorial in $table's SPEC table" >&2
        status=1
        continue
    fi
    if ! output=$("$build/examples/$tutorial"); then
        printf '%s\n' "$output"
        echo "run-tutorials: $tutorial failed" >&2
        status=1
        continue
    fi
    printf '%s\n' "$output"
    # Line i of the output against expected line i; extra or missing lines are mismatches too.
    n_expected=$(printf '%s\n' "$expected" | wc -l)
    n_output=$(printf '%s\n' "$output" | wc -l)
    n=$n_expected
    [ "$n_output" -gt "$n" ] && n=$n_output
    i=1
    while [ "$i" -le "$n" ]; do
        want=$(printf '%s\n' "$expected" | sed -n "${i}p")
        got=$(printf '%s\n' "$output" | sed -n "${i}p")
        if [ "$i" -le "$n_expected" ] && [ "$i" -le "$n_output" ] && [ "$got" = "$want" ]; then
            echo "   check line $i: \"$want\": ok"
        elif [ "$i" -gt "$n_expected" ]; then
            echo "   check line $i: MISMATCH: printed \"$got\", expected no more lines"
            status=1
        else
            [ "$i" -gt "$n_output" ] && got="(nothing)"
            echo "   check line $i: \"$want\": MISMATCH: printed \"$got\""
            status=1
        fi
        i=$((i + 1))
    done
done
[ $status -eq 0 ] && echo "run-tutorials: every checked line matched" || echo "run-tutorials: FAILED (see MISMATCH above)" >&2
exit $status
