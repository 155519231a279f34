#!/bin/sh
# tests.sh - host tests of the filters/ stage (run by: make -C filters check)
#
#   sh tests.sh MKPACKETS PCAPDIFF SCRATCHDIR   (PCAPDIFF: filters/diff/pcapdiff, whose
#   --run mode gives libpcap's bpf_filter() verdict, the one reference)
#
# Prints one line per test, "PASS: ..." or "FAIL: ..." (and "SKIP: ..." for
# tests whose input is absent), then "N passed, N failed".  Exit 1 if any
# test failed.  TEST_BPF_C may point at lib/test_bpf.c (default: the kernel
# tree in ../build/linux).
set -eu

[ $# -eq 3 ] || { echo "usage: tests.sh MKPACKETS PCAPDIFF SCRATCHDIR" >&2; exit 2; }
MK=$1
PCAPDIFF=$2
T=$3
SRC=$(cd "$(dirname "$0")" && pwd)
TEST_BPF_C=${TEST_BPF_C:-$SRC/../build/linux/lib/test_bpf.c}
export LC_ALL=C
: "${TCPDUMP:=$(command -v tcpdump || echo /usr/sbin/tcpdump)}"
export TCPDUMP

# The project's one test protocol (pass, fail, skip, ok, test_summary).
# shellcheck disable=SC2034 # read by testlib.sh
TEST_TMP=0
# shellcheck source=bench/host/testlib.sh
. "$SRC/../bench/host/testlib.sh"

rm -rf "$T"
mkdir -p "$T"

# --- expected facts (design intent; tcpdump must agree) --------------------

# Instruction counts of tcpdump 4.99.3/libpcap 1.10.3 -dd output.
expected_insns() {
	case $1 in
	fprog1) echo 24 ;;
	fprog2) echo 30 ;;
	testbpf34wrap) echo 33 ;;
	*) echo none ;;
	esac
}

# Expected verdict class (A = accepted, 0 = rejected) per filter/packet.
# Every pair is listed; an unlisted pair is a test failure.
expected_class() {
	case $1:$2 in
	fprog1:tcp22-payload | fprog1:tcp22-ack | fprog1:udp22 | \
		fprog1:ipv6-tcp22 | fprog1:testbpf100) echo A ;;
	fprog1:tcp80 | fprog1:udp53 | fprog1:ipv4-frag22 | fprog1:arp) echo 0 ;;
	fprog2:tcp22-payload | fprog2:testbpf100) echo A ;;
	fprog2:tcp22-ack | fprog2:tcp80 | fprog2:udp53 | fprog2:udp22 | \
		fprog2:ipv6-tcp22 | fprog2:ipv4-frag22 | fprog2:arp) echo 0 ;;
	testbpf34wrap:tcp22-payload | testbpf34wrap:testbpf100) echo A ;;
	testbpf34wrap:tcp22-ack | testbpf34wrap:tcp80 | testbpf34wrap:udp53 | \
		testbpf34wrap:udp22 | testbpf34wrap:ipv6-tcp22 | \
		testbpf34wrap:ipv4-frag22 | testbpf34wrap:arp) echo 0 ;;
	*) echo unknown ;;
	esac
}

ACCEPT=262144	# snaplen of our pcaps = K of tcpdump's accepting ret

TESTBPF100_HEAD="10 bf 48 d6 43 d6 3c 07 54 43 e5 76 08 00 45 10 00 64 75 b5 40 00 40 06 ad 2e 0a 01 01 95 0a 01 02 0a c2 24 00 16"

filters=$(for e in "$SRC"/*.expr; do n=${e##*/}; echo "${n%.expr}"; done)
packets=$("$MK" --list)
nfilters=$(printf '%s\n' "$filters" | wc -l)
npackets=$(printf '%s\n' "$packets" | wc -l)

# --- the .dd programs ------------------------------------------------------

for f in $filters; do
	dd="$SRC/$f.dd"
	if [ ! -s "$dd" ]; then
		fail "$f.dd exists and is non-empty"
		continue
	fi
	bad=$(grep -cv '^{ 0x[0-9a-f]*, [0-9]*, [0-9]*, 0x[0-9a-f]\{8\} },$' "$dd" || true)
	st=0; [ "$bad" -eq 0 ] || st=1
	ok "$st" "$f.dd: every line is in tcpdump -dd format ($bad bad lines)"

	n=$(wc -l <"$dd")
	want=$(expected_insns "$f")
	if [ "$want" = none ]; then
		fail "$f.dd: no expected instruction count in tests.sh (has $n)"
	else
		st=0; [ "$n" -eq "$want" ] || st=1
		ok "$st" "$f.dd: $n instructions, expected $want"
	fi

	last=$(tail -n 1 "$dd")
	case $last in
	"{ 0x6, 0, 0, "*) pass "$f.dd: last instruction is ret ($last)" ;;
	*) fail "$f.dd: last instruction is ret ($last)" ;;
	esac

	accs=$(awk -F'[{}, ]+' '$2 == "0x6" && $5 != "0x00000000" { print $5 }' "$dd" | sort -u)
	st=0; [ "$accs" = 0x00040000 ] || st=1
	ok "$st" "$f.dd: the only non-zero ret is ret #$ACCEPT (got: $(echo "$accs" | tr '\n' ' '))"

	# jt/jf of conditional jumps stay inside the program
	oob=$(awk -F'[{}, ]+' -v n="$n" '
		$2 ~ /^0x(15|1d|25|2d|35|3d|45|4d)$/ &&
		(NR + $3 >= n || NR + $4 >= n) { c++ } END { print c + 0 }' "$dd")
	st=0; [ "$oob" -eq 0 ] || st=1
	ok "$st" "$f.dd: all jump targets inside the program ($oob out of range)"

	# the committed .dd is what tcpdump prints for the committed .expr
	"$MK" --pcap-header "$T/empty.pcap"
	if "$TCPDUMP" -r "$T/empty.pcap" -dd "$(cat "$SRC/$f.expr")" \
		>"$T/$f.dd" 2>/dev/null && cmp -s "$T/$f.dd" "$dd"; then
		pass "$f.dd: equals tcpdump -r <en10mb pcap> -dd \"\$(cat $f.expr)\""
	else
		fail "$f.dd: equals tcpdump -r <en10mb pcap> -dd \"\$(cat $f.expr)\""
	fi
done

# tcpdump -y EN10MB -dd (no pcap) gives the same programs, as non-root in an
# empty network namespace when we can set that up (proves no interface or
# capture privilege is involved).
f=fprog1
if "$TCPDUMP" -y EN10MB -dd "$(cat "$SRC/$f.expr")" 2>/dev/null | cmp -s - "$SRC/$f.dd"; then
	pass "$f.dd: equals tcpdump -y EN10MB -dd output"
else
	fail "$f.dd: equals tcpdump -y EN10MB -dd output"
fi
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	command -v setpriv >/dev/null 2>&1 && unshare -n true 2>/dev/null; then
	cp "$SRC/$f.expr" "$T/nonroot.expr"
	chmod -R a+rX "$T"
	if unshare -n setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TCPDUMP" -r "$T/empty.pcap" -dd "$(cat "$T/nonroot.expr")" \
		2>/dev/null | cmp -s - "$SRC/$f.dd"; then
		pass "$f.dd: reproduced as uid 65534 in an interface-less netns"
	else
		fail "$f.dd: reproduced as uid 65534 in an interface-less netns"
	fi
else
	skip "non-root/no-netns reproduction (needs root, unshare, setpriv)"
fi

# --- regeneration ----------------------------------------------------------

if sh "$SRC/gen.sh" generate "$MK" "$T/gen" >"$T/gen.log" 2>&1 &&
	sh "$SRC/gen.sh" compare "$T/gen" >>"$T/gen.log" 2>&1; then
	pass "regenerated packets, .dd files and verdicts.txt equal the committed ones"
else
	fail "regenerated packets, .dd files and verdicts.txt equal the committed ones (see $T/gen.log)"
fi

mkdir -p "$T/w1" "$T/w2"
"$MK" --write "$T/w1"
"$MK" --write "$T/w2"
st=0; diff -r "$T/w1" "$T/w2" >/dev/null || st=1
ok "$st" "mkpackets output is deterministic (two runs byte-identical)"

# --- packets ---------------------------------------------------------------

for p in $packets; do
	pcap="$SRC/packets/$p.pcap"
	hex="$SRC/packets/$p.hex"
	# magic, version, snaplen, linktype 1, one record, caplen == len,
	# hex has the same bytes in canonical format, checksums verify
	st=0; "$MK" --verify "$pcap" "$hex" >/dev/null 2>"$T/verify.err" || st=1
	ok "$st" "packets/$p: pcap parses (magic, linktype 1, 1 record), .hex has the record's bytes, checksums ok $(tr '\n' ' ' <"$T/verify.err")"

	nbytes=$(wc -w <"$hex")
	reclen=$(od -An -tu4 -j32 -N4 "$pcap" | tr -d ' ')
	st=0; [ "$nbytes" -eq "$reclen" ] && [ "$(wc -c <"$pcap")" -eq $((40 + reclen)) ] || st=1
	ok "$st" "packets/$p: pcap record length $reclen == .hex byte count $nbytes"

	st=0; awk 'NF > 16 || $0 ~ /[^0-9a-f ]/ { bad = 1 } END { exit bad }' "$hex" || st=1
	ok "$st" "packets/$p.hex: lowercase hex, at most 16 bytes per line"

	# independent parser: tcpdump -vv must not see bad checksums
	"$TCPDUMP" -vv -n -r "$pcap" >"$T/vv" 2>/dev/null || true
	if [ -s "$T/vv" ] && ! grep -q -e 'bad cksum' -e 'incorrect' -e 'bad udp cksum' "$T/vv"; then
		pass "packets/$p: tcpdump -vv decodes it without checksum complaints"
	else
		fail "packets/$p: tcpdump -vv decodes it without checksum complaints: $(cat "$T/vv")"
	fi
	case $p in
	tcp22-payload | tcp22-ack | tcp80 | ipv6-tcp22)
		st=0; grep -q 'cksum 0x[0-9a-f]* (correct)' "$T/vv" || st=1
		ok "$st" "packets/$p: tcpdump -vv says the TCP checksum is correct"
		;;
	udp53 | udp22)
		st=0; grep -q 'udp sum ok' "$T/vv" || st=1
		ok "$st" "packets/$p: tcpdump -vv says the UDP checksum is correct"
		;;
	esac
done

# what tcpdump decodes matches what the packets are meant to be
decode() { "$TCPDUMP" -n -r "$SRC/packets/$1.pcap" 2>/dev/null; }
expect_decode() {
	if decode "$1" | grep -q -e "$2"; then
		pass "packets/$1: decodes as '$2'"
	else
		fail "packets/$1: decodes as '$2' (got: $(decode "$1"))"
	fi
}
expect_decode tcp22-payload 'IP 10\.0\.0\.1\.40000 > 10\.0\.0\.2\.22: Flags \[P\.\].* length 48'
expect_decode tcp22-ack 'IP 10\.0\.0\.1\.40000 > 10\.0\.0\.2\.22: Flags \[\.\].* length 0$'
expect_decode tcp80 'IP 10\.0\.0\.1\.80 > 10\.0\.0\.2\.80: Flags \[P\.\].* length 48'
expect_decode udp53 'IP 10\.0\.0\.1\.33333 > 10\.0\.0\.2\.53: .* A? example\.com\.'
expect_decode udp22 'IP 10\.0\.0\.1\.40000 > 10\.0\.0\.2\.22: UDP, length 16'
expect_decode ipv6-tcp22 'IP6 fd00::1\.40000 > fd00::2\.22: Flags \[P\.\].* length 48'
expect_decode arp 'ARP, Request who-has 10\.0\.0\.2 tell 10\.0\.0\.1'
if "$TCPDUMP" -v -n -r "$SRC/packets/ipv4-frag22.pcap" 2>/dev/null | grep -q 'offset 1480, flags \[none\], proto TCP'; then
	pass "packets/ipv4-frag22: non-first TCP fragment (offset 1480)"
else
	fail "packets/ipv4-frag22: non-first TCP fragment (offset 1480)"
fi

# testbpf100 is byte for byte lib/test_bpf.c's 100-byte test skb
want=$(printf '%s' "$TESTBPF100_HEAD"; i=38; while [ $i -lt 100 ]; do printf ' 00'; i=$((i + 1)); done)
got=$(tr '\n' ' ' <"$SRC/packets/testbpf100.hex" | sed 's/ $//')
st=0; [ "$got" = "$want" ] || st=1
ok "$st" "packets/testbpf100: exactly test_bpf.c's 38 bytes + 62 zero bytes (100 bytes)"

# negative controls: the checkers do catch a bad IPv4 header checksum
cp "$SRC/packets/tcp22-payload.pcap" "$T/bad.pcap"
cp "$SRC/packets/tcp22-payload.hex" "$T/bad.hex"
# byte 24 of the frame (the IPv4 checksum's high byte) is at 40 + 24 in the pcap
printf '\377' | dd of="$T/bad.pcap" bs=1 seek=64 conv=notrunc 2>/dev/null
sed '2s/^\(.\{24\}\)../\1ff/' "$SRC/packets/tcp22-payload.hex" >"$T/bad.hex"
if ! "$MK" --verify "$T/bad.pcap" "$T/bad.hex" >/dev/null 2>&1; then
	pass "negative control: mkpackets --verify rejects a corrupted IPv4 checksum"
else
	fail "negative control: mkpackets --verify rejects a corrupted IPv4 checksum"
fi
if "$TCPDUMP" -v -n -r "$T/bad.pcap" 2>/dev/null | grep -q 'bad cksum'; then
	pass "negative control: tcpdump -v reports the corrupted IPv4 checksum"
else
	fail "negative control: tcpdump -v reports the corrupted IPv4 checksum"
fi
if ! "$MK" --verify "$SRC/packets/tcp22-payload.pcap" "$SRC/packets/tcp80.hex" >/dev/null 2>&1; then
	pass "negative control: mkpackets --verify rejects a .hex of another packet"
else
	fail "negative control: mkpackets --verify rejects a .hex of another packet"
fi

# --- verdicts.txt ----------------------------------------------------------

V="$SRC/verdicts.txt"
grep -v '^#' "$V" >"$T/v"
lines=$(wc -l <"$T/v")
st=0; [ "$lines" -eq $((nfilters * npackets)) ] || st=1
ok "$st" "verdicts.txt: $lines lines == $nfilters filters x $npackets packets"

st=0; awk 'NF != 3 || $3 !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' "$T/v" || st=1
ok "$st" "verdicts.txt: every line is '<filter> <packet> <decimal verdict>'"

for f in $filters; do
	for p in $packets; do
		n=$(awk -v f="$f" -v p="$p" '$1 == f && $2 == p' "$T/v" | wc -l)
		if [ "$n" -ne 1 ]; then
			fail "verdicts.txt: exactly one line for $f $p (found $n)"
		fi
	done
done
dups=$(cut -d' ' -f1,2 "$T/v" | sort | uniq -d | wc -l)
st=0; [ "$dups" -eq 0 ] || st=1
ok "$st" "verdicts.txt: one line for every (filter, packet) pair, no duplicates"

for f in $filters; do
	for p in $packets; do
		v=$(awk -v f="$f" -v p="$p" '$1 == f && $2 == p { print $3 }' "$T/v")
		c=$(expected_class "$f" "$p")
		case $c in
		A) want=$ACCEPT ;;
		0) want=0 ;;
		*) fail "tests.sh has no expected verdict for $f $p"; continue ;;
		esac
		st=0; [ "$v" = "$want" ] || st=1
		ok "$st" "verdict $f $p = $v, expected $want"
	done
done

# the reference interpreter, running each .dd on each .hex, returns exactly
# the verdict tcpdump decided
mism=0
while read -r f p v; do
	r=$("$PCAPDIFF" --run "$SRC/$f.dd" "$SRC/packets/$p.hex" 2>&1) || r="error: $r"
	if [ "$r" != "$v" ]; then
		printf '  bpf_filter(%s.dd, %s.hex) = %s, verdicts.txt says %s\n' "$f" "$p" "$r" "$v"
		mism=$((mism + 1))
	fi
done <"$T/v"
st=0; [ "$mism" -eq 0 ] || st=1
ok "$st" "libpcap bpf_filter(.dd, .hex) == verdicts.txt for all $lines pairs ($mism mismatches)"

# --- lib/test_bpf.c comparison ---------------------------------------------

if [ -r "$TEST_BPF_C" ]; then
	for pair in "tcpdump port 22:fprog1:33" "tcpdump complex:testbpf34wrap:34"; do
		name=${pair%%:*}
		rest=${pair#*:}
		f=${rest%%:*}
		num=${rest#*:}
		out="$T/testbpf$num.dd"
		if ! awk -v test="$name" -f "$SRC/testbpf2dd.awk" "$TEST_BPF_C" >"$out"; then
			fail "test_bpf #$num '$name' extracted from $TEST_BPF_C"
			continue
		fi
		# identical except the accepting ret: 0xffff (snaplen 65535 of
		# 2014 tcpdump) vs 0x40000 (snaplen 262144 of tcpdump 4.99)
		diffs=$(diff "$out" "$SRC/$f.dd" | grep -c '^[<>]' || true)
		st=0; sed 's/^{ 0x6, 0, 0, 0x0000ffff },$/{ 0x6, 0, 0, 0x00040000 },/' "$out" |
			cmp -s - "$SRC/$f.dd" || st=1
		ok "$st" "test_bpf #$num '$name' == $f.dd except ret #0xffff vs ret #0x40000 ($diffs differing lines)"
		if [ "$num" = 33 ]; then
			# test_bpf's expectations {10, 0}, {30, 0}, {100, 65535} on
			# its own program and skb
			for sz in 10 30 100; do
				tr ' ' '\n' <"$SRC/packets/testbpf100.hex" |
					head -n "$sz" >"$T/tb$sz.hex"
				r=$("$PCAPDIFF" --run "$out" "$T/tb$sz.hex")
				if [ "$sz" -eq 100 ]; then w=65535; else w=0; fi
				st=0; [ "$r" = "$w" ] || st=1
				ok "$st" "bpf_filter(test_bpf #33, first $sz bytes of testbpf100) = $r, test_bpf expects $w"
			done
		fi
	done
else
	skip "lib/test_bpf.c comparison ($TEST_BPF_C not readable)"
fi

test_summary
