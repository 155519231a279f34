#!/bin/sh
# Differential test of every engine the module lists (old: revived 3.14,
# new: 6.1 eBPF interpreter, jit, ...), through the bench module's eval
# knob.  Expected values are given per version (3.14=V 6.1=V) and mapped
# to the engines by their checker and semantics in bench/engines.conf.
#
#  1. one test per row of docs/classic-vs-ebpf-differences.md that the
#     module's skbs can show, each asserting the documented values;
#  2. the checker table: every 3.14 rule rejects (asserted per engine),
#     edge cases are accepted;
#  3. the regression cases of filters/diff/cases.txt (bpfdiff cases), then
#     every tcpdump program of filters/diff x every frame, linear and with
#     headlen 14/34/54, every SKF_AD_* load on hostile frames
#     (ancillary.dd), and generated random programs, compared by
#     /bench/bpfdiff with a model of both engines (0 unexplained);
#     the random programs again with the heap laid out otherwise first
#     (BPFDIFF_DISTURB): every line of diff-random.txt the same;
#  4. fuzz for BENCH_DIFF_FUZZ seconds; no oops or WARN in dmesg.
#
# Run by plan-check.sh (bpf_bench already loaded; the module is left as it
# was found: headlen 0) or on its own as plan "diff".  Appends PASS:/FAIL:
# lines to $out/tests.txt; bpfdiff's per-pair results go to
# $out/diff-tcpdump.txt and $out/diff-random.txt (run-check.sh compares the
# first with libpcap on the host).
# Options (bench.diff_KEY=VALUE on the kernel command line): BENCH_DIFF_SEED
# (default 1), BENCH_DIFF_RANDOM (generated programs, default 400),
# BENCH_DIFF_FUZZ (seconds, default 30).
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh

results=$out/tests.txt
# The project's one test protocol, every line also into tests.txt.
# shellcheck disable=SC2034 # read by testlib.sh
TEST_LOG=$results TEST_TMP=0
# shellcheck source=/dev/null
. /bench/testlib.sh
DIFF=$FILTERS/diff
seed=${BENCH_DIFF_SEED:-1}
nrandom=${BENCH_DIFF_RANDOM:-400}
fuzz=${BENCH_DIFF_FUZZ:-30}
t0=$(date +%s)

if [ ! -d "$KNOBS" ]; then
	if load_bench_module; then pass "guest: diff: bpf_bench loads"; else fail "guest: diff: bpf_bench loads"; exit 0; fi
fi
engines=$(cat "$KNOBS/engines")
if ! echo "$engines" | grep -qx old; then
	fail "guest: diff: engine old is built in (CONFIG_BPF_CLASSIC_INTERP=y)"
	exit 0
fi

# p "CODE, JT, JF, K" ...: a program in -dd form, one insn per argument.
p() { for i in "$@"; do printf '{ %s },\n' "$i"; done; }
# pkt NAME: the hex of a frame of filters/diff/packets.txt.
pkt() { awk -v n="$1" '$1 == n { print $2; found = 1 } END { exit !found }' "$DIFF/packets.txt"; }
# The engines eval shows, with their checker and semantics (lib.sh).
# shellcheck disable=SC2086
profiles=$(engine_profiles $engines)
# want SPEC: the eval line SPEC means for these engines (lib.sh, want_eval).
want() { want_eval "$1" "$profiles"; }
# eval_of PROG PACKETHEX HEADLEN: the eval line, or why it could not be read.
eval_of() {
	if ! err=$(/bench/knob "$KNOBS/prog" "$1"); then echo "prog $err"; return; fi
	if ! err=$(/bench/knob "$KNOBS/packet" "$2"); then echo "packet $err"; return; fi
	if ! err=$(/bench/knob "$KNOBS/headlen" "$3"); then echo "headlen $err"; return; fi
	cat "$KNOBS/eval" 2>&1 || echo "eval unreadable"
}
# t_eval NAME PROG PACKET HEADLEN SPEC: eval shows exactly what SPEC means (want).
t_eval() {
	w=$(want "$5")
	got=$(eval_of "$2" "$(pkt "$3")" "$4")
	if [ "$got" = "$w" ]; then
		pass "guest: diff: $1 ($3 headlen $4: $got)"
	else
		fail "guest: diff: $1 ($3 headlen $4): got '$got', want '$w'"
	fi
}
# t_evals: t_eval's cases, one a line on stdin: NAME|PACKET|HEADLEN|SPEC|PROG,
# PROG its insns ("CODE, JT, JF, K") separated by ";".
t_evals() {
	while IFS='|' read -r te_name te_pkt te_hl te_spec te_prog; do
		t_eval "$te_name" "$(printf '%s\n' "$te_prog" | tr ';' '\n' |
			sed 's/^ *//; s/.*/{ & },/')" "$te_pkt" "$te_hl" "$te_spec" < /dev/null
	done
}
# t_reject NAME PROG ERRNO: every checker rejects: the write fails, prog kept.
t_reject() {
	if why=$(write_refused prog "$2" "$3"); then
		pass "guest: diff: $1 rejected by every engine ($3), prog kept"
	else
		fail "guest: diff: $1: $why"
	fi
}

RET_A="0x16, 0, 0, 0"
syn=tcp22-syn

say "diff: documented differences (docs/classic-vs-ebpf-differences.md)"
t_eval "#1 lsh #33 accepted by 3.14 only, shifts by 33 & 31" \
	"$(p "0x00, 0, 0, 1" "0x64, 0, 0, 33" "$RET_A")" $syn 0 "3.14=2 6.1=-22"
t_eval "#2 rsh #32 is rsh #0 in 3.14" \
	"$(p "0x00, 0, 0, 0x80000000" "0x74, 0, 0, 32" "$RET_A")" $syn 0 \
	"3.14=2147483648 6.1=-22"
# #3: 3.14 rejects ld rand; 6.1's engines return random numbers (R here).
prog="$(p "0x20, 0, 0, 0xfffff038" "$RET_A")"
l1=$(eval_of "$prog" "$(pkt $syn)" 0)
l2=$(cat "$KNOBS/eval" 2>&1)
l3=$(cat "$KNOBS/eval" 2>&1)
n1=$(echo "$l1" | sed -n 's/.*new=\([0-9]*\).*/\1/p')
n2=$(echo "$l2" | sed -n 's/.*new=\([0-9]*\).*/\1/p')
n3=$(echo "$l3" | sed -n 's/.*new=\([0-9]*\).*/\1/p')
w=$(want "3.14=-22 6.1=R")
if [ "$(echo "$l1" | sed 's/=[0-9][0-9]*/=R/g')" != "$w" ]; then
	fail "guest: diff: #3 ld rand: got '$l1', want '$w' (R: a number)"
elif [ -n "$n1" ] && { [ "$n1" != "$n2" ] || [ "$n2" != "$n3" ]; }; then
	pass "guest: diff: #3 ld rand: rejected by 3.14, random in 6.1 ($l1; $l2; $l3)"
else
	fail "guest: diff: #3 ld rand: new returns the same value three times ($l1; $l2; $l3)"
fi
t_eval "#4 ld vlanp: rejected by 3.14, 0 in 6.1 (no VLAN)" \
	"$(p "0x20, 0, 0, 0xfffff03c" "$RET_A")" $syn 0 "3.14=-22 6.1=0"
t_reject "#5 ancillary SKF_AD_OFF+64" "$(p "0x20, 0, 0, 0xfffff040" "$RET_A")" EINVAL
t_reject "#5 ancillary SKF_AD_OFF+1" "$(p "0x28, 0, 0, 0xfffff001" "$RET_A")" EINVAL
t_eval "#6 ifindex without a device: 3.14 ends with 0, 6.1 with A" \
	"$(p "0x00, 0, 0, 42" "0x20, 0, 0, 0xfffff008" "0x06, 0, 0, 1")" $syn 0 \
	"3.14=0 6.1=42"
t_eval "#7 hatype without a device: 3.14 ends with 0, 6.1 with A" \
	"$(p "0x00, 0, 0, 42" "0x20, 0, 0, 0xfffff01c" "0x06, 0, 0, 1")" $syn 0 \
	"3.14=0 6.1=42"
nla="$(p "0x00, 0, 0, 0" "0x01, 0, 0, 1" "0x20, 0, 0, 0xfffff00c" "0x06, 0, 0, 0x77")"
t_eval "#8 nlattr, linear skb: both go on" "$nla" random64 0 "all=119"
t_eval "#8 nlattr, non-linear skb: 3.14 ends with 0, 6.1 goes on" "$nla" random64 14 \
	"3.14=0 6.1=119"
t_eval "#9 nlattr at A > len - 4: 3.14 ends with 0, 6.1 goes on" \
	"$(p "0x00, 0, 0, 1000" "0x20, 0, 0, 0xfffff00c" "0x06, 0, 0, 0x77")" random64 0 \
	"3.14=0 6.1=119"
r64=$(pkt random64)
ff64="ffff${r64#????}"
prog="$(p "0x00, 0, 0, 0" "0x01, 0, 0, 1" "0x20, 0, 0, 0xfffff010" "0x06, 0, 0, 0x77")"
got=$(eval_of "$prog" "$ff64" 0)
w=$(want "3.14=0 6.1=119")
if [ "$got" = "$w" ]; then
	pass "guest: diff: #10 nlattr_nest longer than the packet: 3.14 ends with 0, 6.1 goes on ($got)"
else
	fail "guest: diff: #10 nlattr_nest longer than the packet: got '$got', want '$w'"
fi
neg="$(p "0x30, 0, 0, 0xfff00032" "0x06, 0, 0, 1")"
t_eval "#13 ldb [SKF_NET_OFF+50], linear: both read it" "$neg" udp-dhcp 0 "all=1"
t_eval "#13 ldb [SKF_NET_OFF+50] beyond headlen: 3.14 ends with 0, 6.1 reads the page" \
	"$neg" udp-dhcp 34 "3.14=0 6.1=1 2014=0"
far=$(awk 'BEGIN { print "{ 0x5, 0, 0, 0x00000960 },"
	for (i = 0; i < 2400; i++) print "{ 0x28, 0, 0, 0x00000002 },"
	print "{ 0x6, 0, 0, 0x00000001 }," }')
t_eval "#14 ja over 2400 ldh [2]: converted jump too far for 6.1" "$far" $syn 0 \
	"3.14=1 6.1=-22 new2014=1"
if [ "$(cat "$KNOBS/prog")" = "$far" ]; then
	pass "guest: diff: #15 the program is unchanged after 3.14's checker rewrote its copy"
else
	fail "guest: diff: #15 the prog knob changed after eval ran the 3.14 checker"
fi

say "diff: same in both engines"
t_reject "ret x is no opcode" "$(p "0x0e, 0, 0, 0")" EINVAL
t_evals <<EOF
div by X == 0 ends with 0|$syn|0|all=0|0x00, 0, 0, 9; 0x3c, 0, 0, 0; 0x06, 0, 0, 1
mod by X == 0 ends with 0|$syn|0|all=0|0x00, 0, 0, 9; 0x9c, 0, 0, 0; 0x06, 0, 0, 1
EOF
# xshift_byte V: " ENGINE=V" for each engine that shifts by X's low byte
# on this flavour (engines.conf xshift.FLAVOUR byte: the arm32 JIT, #17).
xshift_byte() {
	for e in $engines; do
		[ "$(engine_attr "$e" "xshift.${BENCH_FLAVOUR:-unknown}")" != byte ] ||
			printf ' %s=%s' "$e" "$1"
	done
}
t_evals <<EOF
rsh by X = 32 shifts by 0 (#17: by 32 on a low-byte JIT)|$syn|0|all=2147483648$(xshift_byte 0)|0x00, 0, 0, 0x80000000; 0x01, 0, 0, 32; 0x7c, 0, 0, 0; $RET_A
lsh by X = 33 shifts by 1 (#17: by 33 on a low-byte JIT)|$syn|0|all=6$(xshift_byte 0)|0x00, 0, 0, 3; 0x01, 0, 0, 33; 0x6c, 0, 0, 0; $RET_A
lsh by X = 257 shifts by 1 everywhere|$syn|0|all=6|0x00, 0, 0, 3; 0x01, 0, 0, 257; 0x6c, 0, 0, 0; $RET_A
ld [61] on a 64-byte frame ends with 0|random64|0|all=0|0x20, 0, 0, 61; 0x06, 0, 0, 1
ld [32] across the end of a 34-byte linear area|$syn|34|all=171072|0x20, 0, 0, 32; $RET_A
ldh [57] straddling the end of the packet ends with 0|$syn|0|all=0|0x28, 0, 0, 57; 0x06, 0, 0, 1
ldx #0xffffffff; ldb [x+0] (SKF_NET_OFF+0xfffff) ends with 0|$syn|0|all=0|0x01, 0, 0, 0xffffffff; 0x50, 0, 0, 0; 0x06, 0, 0, 1
ldb [x-1] with X = 15 reads byte 14|$syn|0|all=69|0x01, 0, 0, 15; 0x50, 0, 0, 0xffffffff; $RET_A
ldxb 4*([14]&0xf) of IPv4 is 20|$syn|0|all=20|0xb1, 0, 0, 14; 0x87, 0, 0, 0; $RET_A
ldb [SKF_AD_OFF] is the protocol|$syn|0|all=2048|0x30, 0, 0, 0xfffff000; $RET_A
ldb [SKF_LL_OFF] is the first MAC byte|$syn|14|all=2|0x30, 0, 0, 0xffe00000; $RET_A
A starts at 0|$syn|0|all=0|$RET_A
X starts at 0|$syn|0|all=0|0x87, 0, 0, 0; $RET_A
ld [0x80000000] ends with 0|$syn|0|all=0|0x20, 0, 0, 0x80000000; 0x06, 0, 0, 1
EOF

say "diff: checker rules"
t_reject "length 0" "
" EINVAL
long=$(awk 'BEGIN { for (i = 0; i < 4096; i++) print "{ 0x4, 0, 0, 0x00000001 },"
	print "{ 0x16, 0, 0, 0x00000000 }," }')
t_reject "length 4097 (the module's limit, before any checker)" "$long" E2BIG
t_reject "unknown opcode 0xff" "$(p "0xff, 0, 0, 0" "$RET_A")" EINVAL
t_reject "unknown opcode 0x100" "$(p "0x100, 0, 0, 0" "$RET_A")" EINVAL
t_reject "ldx [k] is no opcode" "$(p "0x21, 0, 0, 0" "$RET_A")" EINVAL
t_reject "div #0" "$(p "0x34, 0, 0, 0" "$RET_A")" EINVAL
t_reject "mod #0" "$(p "0x94, 0, 0, 0" "$RET_A")" EINVAL
t_reject "st M[16]" "$(p "0x02, 0, 0, 16" "$RET_A")" EINVAL
t_reject "ldx M[16]" "$(p "0x02, 0, 0, 0" "0x61, 0, 0, 16" "$RET_A")" EINVAL
t_reject "ld M[0] never written" "$(p "0x60, 0, 0, 0" "$RET_A")" EINVAL
t_reject "ld M[0] written on one path only" \
	"$(p "0x15, 0, 1, 0" "0x02, 0, 0, 0" "0x60, 0, 0, 0" "$RET_A")" EINVAL
t_reject "ja past the end" "$(p "0x05, 0, 0, 1" "$RET_A")" EINVAL
t_reject "jeq jt past the end" "$(p "0x15, 1, 0, 0" "$RET_A")" EINVAL
t_reject "jset jf past the end" "$(p "0x45, 0, 2, 0" "0x06, 0, 0, 1" "$RET_A")" EINVAL
t_reject "last insn not ret (only insn)" "$(p "0x00, 0, 0, 1")" EINVAL
t_reject "last insn not ret" "$(p "0x06, 0, 0, 1" "0x00, 0, 0, 1")" EINVAL
t_reject "unknown ancillary SKF_AD_OFF+0xffc" "$(p "0x30, 0, 0, 0xfffffffc" "$RET_A")" EINVAL
t_evals <<EOF
SKF_AD_VLAN_TPID: 3.14 rejects, 6.1 takes|$syn|0|3.14=-22 6.1=0|0x28, 0, 0, 0xfffff03c; $RET_A
shift by K = 32: 3.14 takes, 6.1 rejects|$syn|0|3.14=0 6.1=-22|0x64, 0, 0, 32; $RET_A
jeq to the last insn|$syn|0|all=2|0x00, 0, 0, 5; 0x15, 1, 0, 5; 0x06, 0, 0, 1; 0x06, 0, 0, 2
ja to the last insn|$syn|0|all=3|0x05, 0, 0, 1; 0x06, 0, 0, 1; 0x06, 0, 0, 3
EOF
max=$(awk 'BEGIN { for (i = 0; i < 4095; i++) print "{ 0x4, 0, 0, 0x00000001 },"
	print "{ 0x16, 0, 0, 0x00000000 }," }')
t_eval "4096 insns" "$max" $syn 0 "all=4095"
t_evals <<EOF
jgt #0x80000000 unsigned|$syn|0|all=1|0x00, 0, 0, 0xffffffff; 0x25, 0, 1, 0x80000000; 0x06, 0, 0, 1; 0x06, 0, 0, 2
jge #0x80000000 unsigned|$syn|0|all=2|0x00, 0, 0, 0x7fffffff; 0x35, 0, 1, 0x80000000; 0x06, 0, 0, 1; 0x06, 0, 0, 2
jeq #0xffffffff|$syn|0|all=9|0x00, 0, 0, 0xffffffff; 0x15, 0, 1, 0xffffffff; 0x06, 0, 0, 9; 0x06, 0, 0, 10
jset #0x80000000|$syn|0|all=7|0x00, 0, 0, 0x80000000; 0x45, 0, 1, 0x80000000; 0x06, 0, 0, 7; 0x06, 0, 0, 8
EOF

say "diff: knobs"
# A run on an engine whose checker rejects the program fails with its errno.
set_knob prog "$(p "0x00, 0, 0, 1" "0x64, 0, 0, 33" "$RET_A")"
set_knob packet "$(pkt $syn)"
set_knob headlen 0
set_knob skbs 1
set_knob samples 1
set_knob sample_us 100
set_knob expect 2
set_knob engine new
if err=$(/bench/knob "$KNOBS/run" 1); then err="errno=none"; fi
if [ "$err" = errno=EINVAL ]; then
	pass "guest: diff: run on new with a program only 3.14 takes fails EINVAL"
else
	fail "guest: diff: run on new with a program only 3.14 takes: got $err, want errno=EINVAL"
fi
set_knob engine old
if err=$(/bench/knob "$KNOBS/run" 1) && grep -q " verdict=2 " "$KNOBS/result"; then
	pass "guest: diff: the same program runs on old"
else
	fail "guest: diff: the same program runs on old ($err)"
fi
for v in 1515 abc -1 0x; do
	before=$(cat "$KNOBS/headlen")
	err=$(/bench/knob "$KNOBS/headlen" "$v") && err="errno=none"
	if [ "$err" = errno=EINVAL ] && [ "$(cat "$KNOBS/headlen")" = "$before" ]; then
		pass "guest: diff: headlen <- '$v' fails EINVAL, value kept"
	else
		fail "guest: diff: headlen <- '$v': got $err, want errno=EINVAL, value kept"
	fi
done
err=$(/bench/knob "$KNOBS/eval" 1) && err="errno=none"
if [ "$err" = errno=EPERM ]; then pass "guest: diff: eval is read-only (EPERM)"; else fail "guest: diff: eval write: got $err, want errno=EPERM"; fi
# Timed cells on non-linear skbs: every engine still returns tcpdump's verdict.
set_knob headlen 34
for e in $engines; do
	if line=$(run_cell "$e" fprog1 tcp22-payload 3 2>&1) && echo "$line" | grep -q " verdict=262144 "; then
		pass "guest: diff: $e fprog1 on tcp22-payload with headlen 34 returns 262144"
	else
		fail "guest: diff: $e fprog1 on tcp22-payload with headlen 34: $line"
	fi
done
set_knob headlen 0

# bpfdiff: the corpus, random programs, fuzz.  A failed run prints why.
bpfdiff() { # NAME ARGS...
	name=$1; shift
	s=$(date +%s)
	if r=$(/bench/bpfdiff "$@" 2>&1); then ok=1; else ok=0; fi
	# the whole output: every UNEXPLAINED report with its replay line
	echo "$r" > "$out/bpfdiff-$(echo "$name" | tr ' ' -).txt"
	echo "$r" | grep -E "^(UNEXPLAINED|  )" | head -n 40 || true
	sumline=$(echo "$r" | tail -n 1)
	say "diff: $name: $sumline [$(($(date +%s) - s)) s]"
	if [ "$ok" = 1 ]; then pass "guest: diff: $name: 0 unexplained"; else fail "guest: diff: $name: $sumline"; fi
}
say "diff: regression cases (filters/diff/cases.txt)"
bpfdiff "cases" cases "$DIFF/cases.txt"
# fuzz1-45021: row #13 on insn 2, a dead ldh cpu on new's path.
w=$(want "3.14=0 6.1=54 2014=0")
got=$(awk '$1 == "fuzz1-45021:fuzz122" { $1 = $2 = $3 = ""; print substr($0, 4) }' "$out/bpfdiff-cases.txt")
if [ "$got" = "$w documented #13" ]; then
	pass "guest: diff: fuzz1-45021 (ldh [SKF_LL_OFF+41] on headlen 25, dead ldh cpu): $got"
else
	fail "guest: diff: fuzz1-45021 (ldh [SKF_LL_OFF+41] on headlen 25, dead ldh cpu): got '$got', want '$w documented #13'"
fi
# nla-nest-*: a nest shorter than its header holds nothing, on every engine
# and tree (patch 0002's check; nla_len() is u16 on 6.12).
w=$(want "3.14=0 6.1=0 2014=0")
bad=$(awk -v w="$w agree" '$1 ~ /^nla-/ { n++; l = $0; $1 = $2 = $3 = ""; if (substr($0, 4) != w) { print l; exit } } END { if (!n) print "no nla-nest-* case ran" }' "$out/bpfdiff-cases.txt")
if [ -z "$bad" ]; then
	pass "guest: diff: every nla-nest-* case (SKF_AD_NLATTR_NEST on a nest shorter than its header) gives 0 on every engine"
else
	fail "guest: diff: every nla-nest-* case gives 0 on every engine: $bad"
fi
# BENCH_DIFF_HEADLENS: the non-linear headlens, comma-separated
headlens=$(echo "${BENCH_DIFF_HEADLENS:-14,34,54}" | tr , " ")
say "diff: tcpdump corpus x packets, linear and headlen $headlens"
# shellcheck disable=SC2086 # the headlens are words
bpfdiff "tcpdump programs" run "$DIFF/programs.dd" "$DIFF/packets.txt" "$out/diff-tcpdump.txt" $headlens
say "diff: the ancillary loads (ancillary.dd: every SKF_AD_* load; nests and attributes of every length) x their frames, linear and headlen $headlens"
# shellcheck disable=SC2086 # the headlens are words
bpfdiff "ancillary loads" run "$DIFF/ancillary.dd" "$DIFF/ancillary-packets.txt" "$out/diff-ancillary.txt" $headlens
say "diff: $nrandom random programs (seed $seed) x packets"
# shellcheck disable=SC2086
bpfdiff "random programs" run "random:$seed:$nrandom" "$DIFF/packets.txt" "$out/diff-random.txt" $headlens
# The same programs on the same frames again, with the heap laid out
# otherwise first (BPFDIFF_DISTURB: datagrams of 1..1999 bytes held on
# socket pairs): an engine whose value changes reads what it must not.
say "diff: the $nrandom random programs again, the heap disturbed first (BPFDIFF_DISTURB=400)"
# shellcheck disable=SC2086
BPFDIFF_DISTURB=400 bpfdiff "random programs, heap disturbed" run "random:$seed:$nrandom" \
	"$DIFF/packets.txt" "$out/diff-random-heap.txt" $headlens
changed=$(awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
	$0 != a[FNR] { c++; if (c <= 3) printf "%s%s -> %s", c > 1 ? "; " : "", a[FNR], $0 }
	END { if (FNR != n) printf "%s%d lines then %d", c ? "; " : "", n, FNR }' \
	"$out/diff-random.txt" "$out/diff-random-heap.txt")
if [ -z "$changed" ] && [ -s "$out/diff-random.txt" ]; then
	pass "guest: diff: the random programs give the same value on every engine with the heap disturbed ($(wc -l < "$out/diff-random.txt") lines)"
else
	fail "guest: diff: the random programs give the same value on every engine with the heap disturbed: nondeterministic: ${changed:-no lines}"
fi

# Fuzz: only what the fuzz run logs counts, so start from an empty log.
dmesg -c > "$out/dmesg-before-fuzz.txt" 2>/dev/null || true
say "diff: fuzz for $fuzz s (seed $seed)"
bpfdiff "fuzz" fuzz "$seed" "$fuzz" "$DIFF/packets.txt"
if dmesg | grep -E 'BUG|WARNING|Oops|Call Trace|general protection' > "$out/dmesg-fuzz-bad.txt"; then
	fail "guest: diff: no BUG/WARNING/Oops in dmesg after the fuzz ($(head -n 1 "$out/dmesg-fuzz-bad.txt"))"
else
	pass "guest: diff: no BUG/WARNING/Oops in dmesg after the fuzz"
	rm -f "$out/dmesg-fuzz-bad.txt"
fi
say "diff: done in $(($(date +%s) - t0)) s"
