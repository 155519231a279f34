#!/bin/sh
# Pack Debian's perf (linux-perf, the same 6.1 version as the guest kernel)
# and the shared libraries it links against into a cpio archive that is
# appended to the x86_64 initramfs (the kernel unpacks concatenated
# archives).  Choosing the packaged perf over building tools/perf keeps
# the build short and needs no extra -dev packages.
#
# usage: mkperfcpio.sh OUT.cpio.gz KOBJ
set -eu

out=$1 kobj=$2
gen=$kobj/usr/gen_init_cpio
[ -x "$gen" ] || { echo "missing $gen (build the kernel first)" >&2; exit 1; }
perf=$(command -v perf) || { echo "perf not found (apt-get install linux-perf)" >&2; exit 1; }
# shellcheck source=bench/host/cpio-libs.sh
. "$(dirname "$0")/cpio-libs.sh"

list=$(mktemp)
trap 'rm -f "$list"' EXIT
cpio_bin_lines "$perf" /usr/bin/perf | awk '!seen[$0]++' > "$list"
"$gen" "$list" | gzip -n -6 > "$out.tmp"
mv "$out.tmp" "$out"
echo "[initramfs] $out: perf $(perf --version | cut -d' ' -f3) and $(grep -c '^file' "$list") files, $(wc -c < "$out") bytes"
