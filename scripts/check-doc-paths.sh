#!/bin/sh
# Fails when the map of the internals names what the tree does not have, so that the map cannot go
# stale: every path (a token starting with one of the tree's folders: src/kernel/run.c, src/js/,
# tests/test_*.c; a wildcard must match something) must exist, and every function written `name()` in
# backquotes must be defined in the sources (a line starting with its return type, or a #define).
# A path running into a placeholder (tests/test_<name>.c) or holding "..." is not checked.
# It reads src/README.md whole and README.md's "## Layout" section, or the Markdown files given.
# Usage: scripts/check-doc-paths.sh [--list] [FILE.md...]   (--list: print what they name, one a line)
set -eu
list=0
if [ "${1:-}" = --list ]; then
    list=1
    shift
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for md in "$@"; do
    realpath "$md"
done >"$scratch/files"
cd "$(dirname "$0")/.."

# Prints "FILE:LINE<TAB>path|function<TAB>TOKEN" for each thing the file names (layout=1: only inside
# its "## Layout" section). A path is not part of a longer one (no letter, dot or slash before it).
names() {
    awk -v layout="$2" '
        function emit(kind, tok) { printf "%s:%d\t%s\t%s\n", FILENAME, FNR, kind, tok }
        layout == 1 && /^## / { inside = ($0 ~ /^## Layout[ \t]*$/) }
        layout == 1 && !inside { next }
        {
            line = $0
            while (match(line, /(^|[^A-Za-z0-9_.\/-])(abi|docs|examples|glsl|include|scripts|src|tests|tools)\/[A-Za-z0-9_.*\/+-]*/)) {
                tok = substr(line, RSTART, RLENGTH)
                line = substr(line, RSTART + RLENGTH)
                sub(/^[^a-z]/, "", tok)
                sub(/\.+$/, "", tok)
                if (tok !~ /\.\.\./ && substr(line, 1, 1) != "<")
                    emit("path", tok)
            }
            line = $0
            while (match(line, /`[A-Za-z_][A-Za-z0-9_]*\(\)`/)) {
                emit("function", substr(line, RSTART + 1, RLENGTH - 4))
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$1"
}

if [ $# -eq 0 ]; then
    what="src/README.md and README.md's Layout"
    names src/README.md 0 >"$scratch/named"
    names README.md 1 >>"$scratch/named"
else
    what="$*"
    : >"$scratch/named"
    while read -r md; do
        names "$md" 0 >>"$scratch/named"
    done <"$scratch/files"
fi
if [ "$list" = 1 ]; then
    cut -f2,3 "$scratch/named" | sort -u
    exit 0
fi

# Every function the C and GLSL sources define, one name a line.
find src include tools tests examples glsl \( -name '*.c' -o -name '*.h' -o -name '*.glsl' -o -name '*.cpp' \) \
    -exec sed -nE -e 's/^[A-Za-z_][A-Za-z0-9_[:blank:]*]*[[:blank:]*]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' \
    -e 's/^#define ([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' {} + | sort -u >"$scratch/defined"

failed=0
paths=0
functions=0
tab=$(printf '\t')
while IFS="$tab" read -r where kind tok; do
    case "$kind" in
    path)
        paths=$((paths + 1))
        case "$tok" in
        *'*'*)
            # shellcheck disable=SC2086 # the wildcard is meant to expand
            set -- $tok
            [ -e "$1" ] && continue
            ;;
        */) [ -d "$tok" ] && continue ;;
        *) [ -e "$tok" ] && continue ;;
        esac
        echo "check-doc-paths: $where: $tok is not in the tree" >&2
        failed=1
        ;;
    function)
        functions=$((functions + 1))
        grep -qx "$tok" "$scratch/defined" && continue
        echo "check-doc-paths: $where: $tok() is not defined in the sources" >&2
        failed=1
        ;;
    esac
done <"$scratch/named"
[ "$failed" = 0 ] || exit 1
echo "check-doc-paths: the $paths paths and $functions functions $what name exist"
