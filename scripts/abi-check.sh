#!/bin/sh
# Compares the public ABI of built gpuc libraries with the baselines kept in abi/ (libabigail), or rewrites them.
#   scripts/abi-check.sh LIBRARY BASELINE [LIBRARY BASELINE ...]          exit 0: every ABI is its baseline's;
#                                                                          1: one differs (abidiff's report printed)
#   scripts/abi-check.sh --write LIBRARY BASELINE [LIBRARY BASELINE ...]  regenerate the baselines, printing what changed
# The ABI is what include/*.h declares and the library exports: abidw reads the library's DWARF (the build
# uses -g) and keeps only the types of those headers and the exported functions, with no paths of this
# machine, no source locations (a comment added to gpuc.h moves no ABI) and no DT_NEEDED list, so that
# the same sources give the same file on every build and machine. README.md ("ABI policy") says which
# change needs which version bump; `make abi-baseline` runs --write after such a change is announced.
set -eu

write=0
if [ "${1:-}" = "--write" ]; then
    write=1
    shift
fi
if [ $# -eq 0 ] || [ $(($# % 2)) -ne 0 ]; then
    echo "usage: $0 [--write] LIBRARY BASELINE [LIBRARY BASELINE ...]" >&2
    exit 2
fi
for tool in abidw abidiff; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "abi-check: $tool not found: install libabigail's tools (apt-get install abigail-tools, or scripts/install-deps.sh as root)" >&2
        exit 2
    fi
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The public ABI of library $1, written to $2.
dump() {
    [ -f "$1" ] || { echo "abi-check: $1 is not built" >&2; exit 2; }
    abidw --headers-dir include --drop-private-types --exported-interfaces-only --drop-undefined-syms \
        --no-corpus-path --no-comp-dir-path --no-show-locs --no-elf-needed --out-file "$2" "$1"
}

# The soname recorded in ABI file $1.
soname() {
    sed -n "s/^<abi-corpus .*soname='\([^']*\)'.*/\1/p" "$1"
}

# Reads an abidiff report on stdin and says in one line what kind of change it is.
# abidiff names a data member whose place moved "offset changed"; a member added after every old one
# comes without any such line (the struct only grows): old sources still compile, but old binaries
# pass the library, or get from it, a smaller struct than it now reads or writes.
classify() {
    report=$(cat)
    if printf '%s\n' "$report" | grep -q 'function symbols\? not referenced by debug info\|Removed function\|Removed variable\|[1-9][0-9]* Removed'; then
        echo "a function or variable was removed: every program calling it fails to load (soname bump)"
    elif printf '%s\n' "$report" | grep -q 'offset changed\|type of .* changed\|data member .* was removed\|[1-9][0-9]* data member deletion'; then
        echo "a public struct's existing members moved or changed: old binaries read and write the wrong fields (soname bump)"
    elif printf '%s\n' "$report" | grep -q 'size changed\|data member insertion'; then
        echo "members appended at the end of a public struct (no old member moved): source compatible, but binaries built against the old header pass or receive the smaller struct (soname bump)"
    elif printf '%s\n' "$report" | grep -q '[1-9][0-9]* Added'; then
        echo "functions or variables added, nothing else changed: old binaries still run (patch bump at least; programs using the new calls need this version)"
    else
        echo "an ABI change abidiff describes above"
    fi
}

status=0
while [ $# -gt 0 ]; do
    lib=$1 baseline=$2
    shift 2
    fresh="$scratch/$(basename "$baseline")"
    dump "$lib" "$fresh"
    if [ "$write" = 1 ]; then
        mkdir -p "$(dirname "$baseline")"
        if [ -f "$baseline" ]; then
            set +e
            abidiff --harmless "$baseline" "$fresh" >"$scratch/report"
            rc=$?
            set -e
            if [ "$rc" -eq 0 ] && cmp -s "$baseline" "$fresh"; then
                echo "abi-baseline: $baseline unchanged"
                continue
            fi
            cat "$scratch/report"
            echo "abi-baseline: $baseline: $(classify <"$scratch/report")"
            if [ "$(soname "$baseline")" = "$(soname "$fresh")" ] && [ $((rc & 4)) -ne 0 ]; then
                echo "abi-baseline: note: the soname stays $(soname "$fresh"): right while this version is unreleased;" \
                     "once it is released, a change like this one needs the version bump README.md's ABI policy names"
            fi
        fi
        cp "$fresh" "$baseline"
        echo "abi-baseline: wrote $baseline ($(soname "$baseline"))"
        continue
    fi
    [ -f "$baseline" ] || { echo "abi-check: no baseline $baseline (make abi-baseline writes it)" >&2; exit 2; }
    set +e
    abidiff "$baseline" "$fresh" >"$scratch/report" 2>&1
    rc=$?
    set -e
    if [ "$rc" -eq 0 ]; then
        echo "abi-check: $lib: the ABI of $baseline ($(soname "$baseline"))"
        continue
    fi
    if [ $((rc & 3)) -ne 0 ]; then
        cat "$scratch/report" >&2
        echo "abi-check: abidiff failed (exit $rc) on $baseline and $lib" >&2
        exit 2
    fi
    cat "$scratch/report"
    echo "abi-check: FAILED: $lib differs from $baseline: $(classify <"$scratch/report")." \
         "An intended change is announced by bumping the version as README.md's ABI policy says and" \
         "regenerating the baseline (make abi-baseline) in the same commit." >&2
    status=1
done
exit $status
