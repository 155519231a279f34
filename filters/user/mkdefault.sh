#!/bin/sh
# Make filters/user/default.pcap, the capture the capture workload uses
# when PCAP is not given: traffic of real programs (traffic.sh: busybox
# httpd, wget, nc, ping, ping6, nslookup) over the loopback interface of
# a guest, captured there by Debian's tcpdump.  The guest is Debian's own
# kernel (nested-outer.sh fetches it; nothing is installed or loaded on
# the host) under QEMU TCG.  The capture is committed: its accepted counts
# and tables are reproducible from it; running this again makes another
# capture (other timings, other random payloads).
#
# usage: mkdefault.sh TOP BUILD
#        writes filters/user/default.pcap and default-counts.txt (libpcap's
#        counts of the default filters on it: pcapdiff --capture, BUILD's);
#        BUILD holds a built x86_64 kernel tree (obj-x86_64: its
#        gen_init_cpio) and gets nested/ and capture-guest/
set -eu

top=$1 build=$2
out=$top/filters/user/default.pcap
here=$top/bench/host
# shellcheck source=bench/host/cpio-libs.sh
. "$here/cpio-libs.sh"
"$here/nested-outer.sh" "$top" "$build/nested" "$build/obj-x86_64"
work=$build/capture-guest
rm -rf "$work"
mkdir -p "$work"
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "nod /dev/urandom 0666 0 0 c 1 9"
	for d in /bin /sbin /usr /usr/bin /usr/sbin /proc /sys /tmp /etc; do
		echo "dir $d 0755 0 0"
	done
	echo "file /bin/busybox $(command -v busybox) 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $top/filters/user/traffic.sh 0755 0 0"
	cpio_bin_lines "$(command -v tcpdump)" /usr/bin/tcpdump
} | awk '!seen[$0]++' > "$work/list"
"$build/nested/gen_init_cpio" "$work/list" | gzip -n -6 > "$work/initrd.cpio.gz"
echo "[capture] booting Debian's kernel under QEMU TCG: traffic over lo, captured by tcpdump (about a minute)"
timeout 600 qemu-system-x86_64 -accel tcg -m 512 -smp 1 -no-reboot -display none \
	-monitor none -serial stdio -kernel "$build/nested/vmlinuz" \
	-initrd "$work/initrd.cpio.gz" -append "console=ttyS0 quiet panic=-1" \
	< /dev/null > "$work/console.log" 2>&1 || true
grep -a '^\[capture\] ' "$work/console.log" | grep -v 'begin\|end' || true
tr -d '\r' < "$work/console.log" | sed -n '/^\[capture\] begin$/,/^\[capture\] end$/p' |
	grep -E '^[A-Za-z0-9+/=]+$' | base64 -d > "$work/cap.pcap"
tcpdump -r "$work/cap.pcap" -c 1 > /dev/null 2>&1 ||
	{ echo "[capture] no capture came back (console: $work/console.log)" >&2; exit 1; }
cp "$work/cap.pcap" "$out"
echo "[capture] $out: $(tcpdump -r "$out" 2> /dev/null | wc -l) frames, $(wc -c < "$out") bytes"
sh "$top/filters/user/workload.sh" make "$top/filters/user/default.filters" "$out" "$build/diff/pcapdiff" "$work/wl"
{
	echo "# libpcap's counts of filters/user/default.filters on default.pcap"
	echo "# (pcapdiff --capture; filters/user/mkdefault.sh wrote it)"
	"$build/diff/pcapdiff" --capture "$out" "$work/wl" "$work/frames.bin"
} > "$top/filters/user/default-counts.txt"
