#!/bin/sh
# Pack the guest: busybox, /init and the plans, the static guest tools (knob,
# seccomp-bench, bpfdiff, knobfuzz, capture), the bench module (and lib/test_bpf.ko when built), the
# filters, the packets and the seccomp filters.
# Uses the kernel's own usr/gen_init_cpio so that /dev/console exists
# without root.
#
# usage: mkinitramfs.sh OUT.cpio.gz KOBJ TOOLS_DIR MODULE.ko [MODULE.ko...]
#        mkinitramfs.sh --seccomp-files [ARCH]   only print the gen_init_cpio
#                       lines of ARCH's seccomp filters (tests)
# env:   EXTRA_CPIO  archives appended as they are (e.g. perf)
#        TESTBPF     the directory of lib/test_bpf.c's vectors (make
#                    testbpf; default build/testbpf)
#        SECCOMP_ARCH the arch of the seccomp filters to pack (the flavour's
#                    seccomp_arch, bench/flavours.conf; default x86_64): its
#                    filters/seccomp/short-<arch>.bpf, large-<arch>.bpf and
#                    verdicts-<arch>.txt go in as short.bpf, large.bpf and
#                    verdicts.txt, so the guest plans need no arch of their own
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)

# seccomp_files ARCH: the gen_init_cpio lines of ARCH's seccomp filters.
seccomp_files() {
	for f in short.bpf large.bpf verdicts.txt; do
		src=$top/filters/seccomp/${f%.*}-$1.${f##*.}
		[ -f "$src" ] || {
			echo "mkinitramfs.sh: no $f for seccomp arch '$1': $src is missing (filters/seccomp/README.md: an arch's filters)" >&2
			return 1
		}
		echo "file /bench/filters/seccomp/$f $src 0644 0 0"
	done
}
if [ "${1:-}" = --seccomp-files ]; then
	seccomp_files "${2:-x86_64}"
	exit
fi
seccomp_arch=${SECCOMP_ARCH:-x86_64}
seccomp_files "$seccomp_arch" > /dev/null

out=$1 kobj=$2 tools=$3
shift 3
gen=$kobj/usr/gen_init_cpio
# BUSYBOX: a static busybox for the guest's architecture (default: the host's).
busybox=${BUSYBOX:-$(command -v busybox)}
[ -x "$gen" ] || { echo "missing $gen (build the kernel first)" >&2; exit 1; }

list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	for d in /bin /sbin /proc /sys /out /tmp /bench /bench/modules \
		/bench/filters /bench/filters/packets /bench/filters/seccomp \
		/bench/filters/diff /bench/filters/testbpf; do
		echo "dir $d 0755 0 0"
	done
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $top/bench/guest/init.sh 0755 0 0"
	echo "file /bench/knob $tools/knob 0755 0 0"
	echo "file /bench/seccomp-bench $tools/seccomp-bench 0755 0 0"
	echo "file /bench/bpfdiff $tools/bpfdiff 0755 0 0"
	echo "file /bench/capture $tools/capture 0755 0 0"
	[ ! -f "$tools/knobfuzz" ] || echo "file /bench/knobfuzz $tools/knobfuzz 0755 0 0"
	echo "file /bench/lib.sh $top/bench/guest/lib.sh 0644 0 0"
	echo "file /bench/seccomp.sh $top/bench/guest/seccomp.sh 0644 0 0"
	echo "file /bench/engines.conf $top/bench/engines.conf 0644 0 0"
	echo "file /bench/testlib.sh $top/bench/host/testlib.sh 0644 0 0"
	echo "file /bench/paired.sh $top/bench/guest/paired.sh 0644 0 0"
	for p in "$top"/bench/guest/plan-*.sh; do
		echo "file /bench/$(basename "$p") $p 0755 0 0"
	done
	for m in "$@"; do
		[ -f "$m" ] && echo "file /bench/modules/$(basename "$m") $m 0644 0 0"
	done
	echo "file /bench/filters/verdicts.txt $top/filters/verdicts.txt 0644 0 0"
	for f in "$top"/filters/*.dd; do
		echo "file /bench/filters/$(basename "$f") $f 0644 0 0"
	done
	for f in "$top"/filters/packets/*.hex; do
		echo "file /bench/filters/packets/$(basename "$f") $f 0644 0 0"
	done
	seccomp_files "$seccomp_arch"
	for f in "$top"/filters/diff/programs.dd "$top"/filters/diff/packets.txt \
		"$top"/filters/diff/ancillary.dd "$top"/filters/diff/ancillary-packets.txt \
		"$top"/filters/diff/cases.txt; do
		echo "file /bench/filters/diff/$(basename "$f") $f 0644 0 0"
	done
	# lib/test_bpf.c's CLASSIC tests, cut from the tree (make testbpf)
	for f in "${TESTBPF:-$top/build/testbpf}"/vectors.txt "$top"/filters/testbpf/exceptions.txt; do
		[ -f "$f" ] || { echo "missing $f (make testbpf)" >&2; exit 1; }
		echo "file /bench/filters/testbpf/$(basename "$f") $f 0644 0 0"
	done
} > "$list"
# The archive is reproducible: every entry gets mtime 0 (gen_init_cpio -t
# for directories and nodes, staged copies for files).  Its bytes decide
# how many instructions unpacking it takes, so under icount a rebuilt but
# equal initramfs boots into the same state (the modeled accelerators'
# counts are identical across boots only so).
stage=$(mktemp -d)
trap 'rm -f "$list"; rm -rf "$stage"' EXIT
while read -r kind name loc rest; do
	if [ "$kind" = file ]; then
		mkdir -p "$stage$(dirname "$name")"
		cp "$loc" "$stage$name"
		touch -d @0 "$stage$name"
		loc=$stage$name
	fi
	echo "$kind $name $loc $rest"
done < "$list" > "$stage.list"
mv "$stage.list" "$list"
"$gen" -t 0 "$list" | gzip -n -9 > "$out.tmp"
for extra in ${EXTRA_CPIO:-}; do
	cat "$extra" >> "$out.tmp"
done
mv "$out.tmp" "$out"
echo "[initramfs] $out: $(wc -c < "$out") bytes, $(grep -c '^file' "$list") files"
