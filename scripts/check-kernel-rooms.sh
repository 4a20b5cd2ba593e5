#!/bin/sh
# Checks the folder rule of src/kernel/: the readers in source/ and loops/ need no GL, so they include
# only their own rooms' headers (loops/ may read source/, source/ nothing above it), src/util/ and
# gpuc.h, and no system header of GL, glad, EGL or KHR; internal.h (the context, GL's types) is out.
# The GL-free unit tests (tests/unit/) and the fuzz targets link those rooms alone and rely on it.
# Prints each offending line as FILE:LINE: and fails. Usage: scripts/check-kernel-rooms.sh
set -eu
cd "$(dirname "$0")/.."
status=0
check_room() {
    room=$1 allowed=$2
    for f in src/kernel/"$room"/*.c src/kernel/"$room"/*.h; do
        [ -e "$f" ] || continue
        # Quoted includes outside the allowed rooms, and any GL, glad, EGL or KHR header however included.
        bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$f" | grep -vE "#[[:space:]]*include[[:space:]]*\"($allowed)" |
              grep -vE '#[[:space:]]*include[[:space:]]*<' || true)
        bad="$bad$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](GL|GLES[0-9]*|glad|EGL|KHR)/' "$f" || true)"
        if [ -n "$bad" ]; then
            echo "$bad" | sed "s|^|$f:|"
            status=1
        fi
    done
}
check_room source 'kernel/source/|util/|gpuc\.h"'
check_room loops 'kernel/source/|kernel/loops/|util/|gpuc\.h"'
if [ "$status" -ne 0 ]; then
    echo "check-kernel-rooms: src/kernel/source/ and src/kernel/loops/ are GL-free: they include their own rooms," \
         "src/util/ and gpuc.h only (not internal.h, GL, glad or EGL); move the code that needs more to src/kernel/" >&2
fi
exit "$status"
