#!/bin/sh
# Tests of the capture workload (make bench FILTERS=... PCAP=...,
# docs/capture.md).
#
# usage: tests-capture.sh TOP BUILD host
#            no guest: FILTERS and PCAP refused in one line before a
#            build (workload.sh, run-bench.sh --check); pcapdiff --capture
#            on a pcapng, on truncated and VLAN-tagged frames; the default
#            capture's libpcap counts against the committed ones
#        tests-capture.sh TOP BUILD guest
#            make bench's runner with the default FILTERS and PCAP under
#            uml and icount: every engine's accepted count equals libpcap's;
#            uml on a pcapng of truncated and VLAN-tagged frames; a flipped
#            verdict fails the run naming its frame
# prints PASS:/FAIL: lines (bench/host/testlib.sh)
set -eu
top=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
mode=$3
TEST_PREFIX="capture: "
# shellcheck source=bench/host/testlib.sh
. "$top/bench/host/testlib.sh"
here=$top/bench/host
user=$top/filters/user
pcapdiff=$build/diff/pcapdiff
mkcaps=$build/tools/mkcaps
packets=$top/filters/diff/packets.txt

# frames_of PCAP FILTERS DIR: DIR/wl (the filters compiled), DIR/frames.bin
# and DIR/workload.txt (pcapdiff --capture's lines)
frames_of() {
	sh "$user/workload.sh" make "$2" "$1" "$pcapdiff" "$3/wl" &&
		"$pcapdiff" --capture "$1" "$3/wl" "$3/frames.bin" > "$3/workload.txt"
}

# w FILTERS [PCAP]: workload.sh's check (default PCAP: the test capture)
# shellcheck disable=SC2317 # called through refused
w() { sh "$user/workload.sh" check "$1" "${2:-$tmp/p.pcap}" "$pcapdiff"; }

if [ "$mode" = host ]; then
	"$mkcaps" "$packets" "$tmp/p.pcap"
	"$mkcaps" --pcapng "$packets" "$tmp/p.pcapng"
	"$mkcaps" --linktype 101 "$packets" "$tmp/raw.pcap"
	refused "an expression tcpdump refuses: one line naming the filter" \
		"^FILTERS: entry 2: 'web': tcpdump refuses 'tcp prot 80'" w 'ok=tcp;web=tcp prot 80'
	refused "a filter named twice" "^FILTERS: entry 2: 'a' given twice" w 'a=tcp;a=udp'
	refused "a name that is not one" "^FILTERS: entry 1: '9x' is not a filter name" w '9x=tcp'
	refused "a name of the 2014 programs" "^FILTERS: entry 1: 'fprog1' names one of the 2014 programs" w 'fprog1=tcp'
	refused "an entry without an expression" "^FILTERS: entry 1: 'a' has no expression" w 'a='
	printf '3\n40 0 0 12\n' > "$tmp/short.ddd"
	refused "a @FILE that is not a program" "^FILTERS: entry 1: 'p': .*neither tcpdump -ddd nor -dd" w "p=@$tmp/short.ddd"
	refused "a capture of another link type" "^PCAP: .*raw.pcap: link type RAW; only Ethernet" w 'a=tcp' "$tmp/raw.pcap"
	refused "a file that is no capture" "^PCAP: .*: tcpdump cannot read it" w 'a=tcp' "$top/README.md"
	# a file of NAME<TAB>EXPRESSION lines, and @FILE programs (-ddd, -dd)
	tcpdump -r "$tmp/p.pcap" -ddd 'tcp port 22' > "$tmp/ssh.ddd" 2> /dev/null
	printf '# comment\n\nssh\t@%s\nfprog1dd\t@%s\nudp\tudp\n' "$tmp/ssh.ddd" "$top/filters/fprog1.dd" > "$tmp/list"
	succeeds "a FILTERS file with @FILE programs (-ddd and -dd) is taken" "$tmp/out" \
		sh "$user/workload.sh" make "$tmp/list" "$tmp/p.pcap" "$pcapdiff" "$tmp/wl"
	is "$(tr '\n' ' ' < "$tmp/wl/names")" "ssh fprog1dd udp " "the filters in the file's order"
	is "$(cmp "$tmp/wl/fprog1dd.dd" "$top/filters/fprog1.dd" && echo same)" same "a -dd program is kept as it is"
	# the run's check: one line, before anything is built
	refused "run-bench.sh --check refuses FILTERS tcpdump refuses" "^FILTERS: entry 1: 'x': tcpdump refuses" \
		env ACCEL=uml FILTERS='x=tcp prot 80' PCAP="$tmp/p.pcap" "$here/run-bench.sh" "$top" "$build" --check
	refused "run-bench.sh --check refuses a modelled accelerator with FILTERS" "^\[bench\] ACCEL=modeled: the capture workload .* has no modelled cells" \
		env ACCEL=modeled FILTERS='x=tcp' PCAP="$tmp/p.pcap" "$here/run-bench.sh" "$top" "$build" --check
	refused "make compare's check refuses FILTERS and PCAP before any build" "^\[compare\] FILTERS, PCAP: make compare does not take" \
		env PATCHES="$top/bench/compare-fixtures/comment-only" ACCEL=icount FILTERS='x=tcp' "$here/run-compare.sh" "$top" "$build" --check
	refused "run-bench.sh --check refuses a bad CAPTURE_MAX" "^\[bench\] CAPTURE_MAX=0x: must be a number" \
		env ACCEL=uml PCAP="$tmp/p.pcap" CAPTURE_MAX=0x "$here/run-bench.sh" "$top" "$build" --check
	# pcap and pcapng of the same frames: the same frames file
	mkdir -p "$tmp/a" "$tmp/b" "$tmp/c"
	frames_of "$tmp/p.pcap" 'ssh=port 22;v=vlan;big=greater 100' "$tmp/a"
	frames_of "$tmp/p.pcapng" 'ssh=port 22;v=vlan;big=greater 100' "$tmp/b"
	is "$(cmp "$tmp/a/frames.bin" "$tmp/b/frames.bin" && echo same)" same "a pcapng gives the frames file its pcap gives"
	# truncated frames (caplen 60) are replayed as captured: len = caplen
	"$mkcaps" --pcapng --snap 60 "$packets" "$tmp/t.pcapng"
	frames_of "$tmp/t.pcapng" 'big=greater 100;n=greater 61;m=greater 60' "$tmp/c"
	want=$(awk '{ n = length($2) / 2; if (n > 60) t++ } END { print t + 0 }' "$packets")
	is "$(sed -n 's/^truncated=//p' "$tmp/c/workload.txt")" "$want" "truncated frames counted (caplen < len)"
	is "$(sed -n 's/^accepted_big=//p' "$tmp/c/workload.txt")" 0 "a truncated frame's length is its caplen (greater 100: none)"
	is "$(sed -n 's/^accepted_n=//p' "$tmp/c/workload.txt")" 0 "a truncated frame's length is its caplen (greater 61: none)"
	is "$(sed -n 's/^accepted_m=//p' "$tmp/c/workload.txt")" \
		"$(awk '{ if (length($2) / 2 >= 60) t++ } END { print t + 0 }' "$packets")" \
		"a truncated frame's length is its caplen (greater 60: those of at least 60 bytes)"
	# VLAN-tagged frames keep the tag in the data
	mkdir -p "$tmp/v"
	"$mkcaps" --vlan 7 "$packets" "$tmp/v.pcap"
	frames_of "$tmp/v.pcap" 'v=vlan' "$tmp/v"
	is "$(sed -n 's/^vlan=//p' "$tmp/v/workload.txt")" "$(sed -n 's/^accepted_v=//p' "$tmp/v/workload.txt")" \
		"VLAN-tagged frames keep the tag in the data: vlan accepts each"
	# the default workload: libpcap's counts on the committed capture
	mkdir -p "$tmp/d"
	frames_of "$user/default.pcap" "$user/default.filters" "$tmp/d"
	grep -v '^#' "$user/default-counts.txt" > "$tmp/d/want"
	is "$(diff "$tmp/d/want" "$tmp/d/workload.txt" > /dev/null && echo same)" same \
		"the default capture: pcapdiff --capture's counts are the committed ones (filters/user/default-counts.txt)"
	test_summary
	exit
fi

# guest: make bench's runner, the default workload, uml and icount
r=$tmp/results
out=$tmp/bench.out
if env ACCEL="uml icount" FILTERS="$user/default.filters" PCAP="$user/default.pcap" RESULTS_DIR="$r" \
	"$here/run-bench.sh" "$top" "$build" > "$out" 2>&1; then
	pass "make bench's runner with the default FILTERS and PCAP, uml and icount"
else
	fail "make bench's runner with the default FILTERS and PCAP, uml and icount: $(tail -n 3 "$out")"
fi
run=$(find "$r" -mindepth 1 -maxdepth 1 -type d | head -n 1)
nf=$(grep -c . "$run/workload/names" 2> /dev/null || echo 0)
# shellcheck disable=SC2016
is "$(awk -F, 'NR > 1 && $17 != $18 { bad++ } END { print bad + 0 }' "$run/capture.csv" 2> /dev/null)" 0 \
	"every engine's accepted count equals libpcap's (capture.csv)"
# uml: old, new, new2014; icount: those and jit, oldjit; two cells each
is "$(awk -F, 'NR > 1 { n[$2]++ } END { print n["uml"] + 0, n["icount"] + 0 }' "$run/capture.csv" 2> /dev/null)" \
	"$((nf * 3 * 2)) $((nf * 5 * 2))" "a row per filter x engine x cell on each accelerator"
is "$(grep -c '^filter web: tcp port 8080$' "$run/table.txt" 2> /dev/null)/$(grep -c MISMATCH "$run/table.txt" 2> /dev/null)" \
	2/0 "table.txt: a table of filter web per accelerator, no MISMATCH"
is "$(grep -c '^capture capture-' "$run/plots/index.txt" 2> /dev/null)" 4 "a plot per accelerator and cell"

# uml on truncated and VLAN-tagged frames of a pcapng
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
kernel=$(flavour_kernel "$build" um)
initrd=$build/initramfs-um.cpio.gz
mkdir -p "$tmp/t"
"$mkcaps" --pcapng --snap 60 --vlan 7 "$packets" "$tmp/t.pcapng"
frames_of "$tmp/t.pcapng" 'ssh=port 22;v=vlan;big=greater 50;icmp6=icmp6' "$tmp/t"
succeeds "uml: a pcapng of truncated and VLAN-tagged frames, every engine" "$tmp/t.out" \
	env GUEST_INPUT="$tmp/t/frames.bin" "$here/run-guest.sh" uml capture "$tmp/t/g" "$kernel" "$initrd" bench.capture_rounds=1
for f in ssh v big icmp6; do
	want=$(sed -n "s/^accepted_$f=//p" "$tmp/t/workload.txt")
	is "$(awk -v f="$f" '$1 == "accepted" && $2 == "filter=" f { sub(/accepted=/, "", $5); print $5 }' "$tmp/t/g/capture.txt" | sort -u | tr '\n' ' ')" \
		"$want " "uml: every engine accepts libpcap's $want frames of filter $f"
done
# a flipped verdict: the run fails, naming the frame
env GUEST_INPUT="$tmp/t/frames.bin" "$here/run-guest.sh" uml capture "$tmp/t/f" "$kernel" "$initrd" \
	bench.capture_rounds=1 bench.capture_flip=5 > "$tmp/f.out" 2>&1 && st=0 || st=1
is "$st" 1 "uml: a verdict that differs from libpcap's fails the run"
is "$(grep -Ec '^mismatch filter=ssh engine=[a-z0-9]+ frame=5 ' "$tmp/t/f/capture.txt" 2> /dev/null)" 1 \
	"uml: the failure names the filter, engine and capture frame (capture.txt)"
test_summary
