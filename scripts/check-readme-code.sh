#!/bin/sh
# Compiles every C and C++ block of a Markdown file (README.md by default) as a reader would paste it,
# under -Wall -Wextra -Werror -pedantic, so that the examples neither rot nor warn. Each ```c or ```cpp
# block must follow a marker saying what it is:
#   <!-- compile: c file -->         a whole file (file-scope code; gpuc.h, gpuc_check.h and Check visible)
#   <!-- compile: c statements -->   statements, compiled inside a function that has gpu, k, n, args
#   <!-- compile: c++ statements --> and results in scope (as C11, or as C++11)
# A block without a marker fails the check. Usage: scripts/check-readme-code.sh [FILE.md]
set -eu
md=$(realpath "${1:-$(dirname "$0")/../README.md}")
cd "$(dirname "$0")/.."
CC=${CC:-cc}
CXX=${CXX:-c++}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
check_flags=$(pkg-config --cflags check 2>/dev/null || true)

# Splits the file into scratch/N.LANG.KIND (N counting blocks), or reports an unmarked block.
awk -v dir="$scratch" '
    /^<!-- compile: / { lang = $3; kind = $4; marked = NR; next }
    /^```(c|cpp)$/ && !inside {
        if (marked != NR - 1) { printf "%d: a ```%s block without a <!-- compile: ... --> marker\n", NR, substr($0, 4); bad = 1 }
        inside = 1; n++; out = dir "/" n "." lang "." kind; start[n] = NR; next
    }
    inside && /^```$/ { inside = 0; close(out); next }
    inside && marked == start[n] - 1 { print > out; next }
    END { for (i = 1; i <= n; i++) print i, start[i] > (dir "/lines"); exit bad }
' "$md" || { echo "check-readme-code: $md has C blocks without a marker (above)" >&2; exit 1; }
[ -f "$scratch/lines" ] || { echo "check-readme-code: $md has no C or C++ block" >&2; exit 1; }

failed=0
count=0
for block in "$scratch"/*.*.*; do
    base=$(basename "$block")
    n=${base%%.*}
    rest=${base#*.}
    lang=${rest%%.*}
    kind=${rest#*.}
    line=$(awk -v n="$n" '$1 == n { print $2 }' "$scratch/lines")
    src="$scratch/block$n"
    case "$kind" in
    file) cp "$block" "$src" ;;
    statements)
        {
            echo '#include <gpuc.h>'
            echo '#include <stdio.h>'
            echo 'void snippet(gpuc *gpu, gpuc_kernel *k, uint32_t n, gpuc_arg *args, gpuc_array **results);'
            echo 'void snippet(gpuc *gpu, gpuc_kernel *k, uint32_t n, gpuc_arg *args, gpuc_array **results)'
            echo '{'
            cat "$block"
            echo '(void)gpu; (void)k; (void)n; (void)args; (void)results;'
            echo '}'
        } >"$src"
        ;;
    *) echo "check-readme-code: $md:$line: unknown block kind '$kind'" >&2; failed=1; continue ;;
    esac
    case "$lang" in
    c) compile="$CC -x c -std=c11 -D_POSIX_C_SOURCE=200809L" ;;
    c++) compile="$CXX -x c++ -std=c++11" ;;
    *) echo "check-readme-code: $md:$line: unknown language '$lang'" >&2; failed=1; continue ;;
    esac
    # shellcheck disable=SC2086 # the flags are words
    if ! $compile -Iinclude $check_flags -Wall -Wextra -Werror -pedantic -fsyntax-only "$src" \
        2>"$scratch/err$n"; then
        echo "check-readme-code: $md:$line: the $lang block does not compile cleanly:" >&2
        sed "s|$src|block|" "$scratch/err$n" >&2
        failed=1
    fi
    count=$((count + 1))
done
[ "$failed" = 0 ] || exit 1
echo "check-readme-code: $count C and C++ blocks of $(basename "$md") compile under -Wall -Wextra -Werror -pedantic"
