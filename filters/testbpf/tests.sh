#!/bin/sh
# tests.sh - host tests of filters/testbpf (run by: make -C filters/testbpf
# check; make check runs it after building the tree)
#
#   sh tests.sh BUILDDIR TREE   (BUILDDIR holds vectors.txt and summary.txt)
#
# Asserts what was cut from the tree's lib/test_bpf.c: the counts of CLASSIC
# tests and subtests, a well-formed vector file, populate_skb()'s fields, and
# an exceptions file that names only vectors there are.
set -eu

[ $# -eq 2 ] || { echo "usage: tests.sh BUILDDIR TREE" >&2; exit 2; }
B=$1 TREE=$2
SRC=$(cd "$(dirname "$0")" && pwd)
V=$B/vectors.txt
export LC_ALL=C

# The project's one test protocol (pass, fail, ok, test_summary).
# shellcheck disable=SC2034 # read by testlib.sh
TEST_PREFIX="host: testbpf: " TEST_TMP=0
# shellcheck source=bench/host/testlib.sh
. "$SRC/../../bench/host/testlib.sh"

sum=$(cat "$B/summary.txt")
# 134 CLASSIC tests on 6.1 and on 6.12 (tests[] has 820 and 845 entries)
# shellcheck disable=SC2016 # awk's fields
st=0; echo "$sum" | awk '$1 == "mkvectors:" { n++; if ($2 != 134 || $10 != $6 - $2) bad = 1 }
	END { exit bad || n != 1 }' FS='[ (]+' || st=1
ok "$st" "134 CLASSIC tests of test_bpf's tests[] extracted, the eBPF ones skipped ($sum)"
st=0; echo "$sum" | grep -q '; 172 subtests (95 with a frame under 14 bytes, 28 FLAG_NO_DATA on an empty frame, 10 FLAG_SKB_FRAG), 12 FLAG_EXPECTED_FAIL checker tests, 13 programs from a fill_helper; 0 subtests skipped$' || st=1
ok "$st" "172 subtests (95 under 14 bytes, 28 without data, 10 with a fragment), 12 expected checker failures, 13 filled programs, none skipped"

# Every test: LEN instruction lines, at least one subtest, an end line;
# every sub line has a frame of LEN bytes.
st=0; awk '
	$1 == "test" { if (t != "") bad = 1; t = $2; want = $4; n = 0; subs = 0; next }
	/^\{ 0x[0-9a-f]+, [0-9]+, [0-9]+, 0x[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f] \},$/ { n++; next }
	$1 == "sub" {
		subs++
		h = ($5 == "-") ? "" : $5
		if (NF != 6 || length(h) != 2 * $3 || ($1 == "sub" && $6 !~ /^([0-9]+|err=-[0-9]+)$/)) bad = 1
		next
	}
	$1 == "end" { if (n != want || !subs || want < 1 || want > 4097) bad = 1; tests++; t = ""; next }
	$1 == "meta" || /^#/ { next }
	{ bad = 1 }
	END { exit bad || tests != 134 || t != "" }' "$V" || st=1
ok "$st" "vectors.txt: 134 tests, each with its instructions and subtests"

# populate_skb()'s fields, as test_bpf.c defines them.
def() { awk -v n="$1" '$1 == "#define" && $2 == n { print $3 }' "$TREE/lib/test_bpf.c"; }
meta=$(sed -n 's/^meta //p' "$V")
want="protocol=0x0800 pkt_type=$(def SKB_TYPE) mark=$(def SKB_MARK) hash=$(def SKB_HASH) queue_mapping=$(def SKB_QUEUE_MAP) vlan_tci=$(def SKB_VLAN_TCI) vlan_present=$(def SKB_VLAN_PRESENT) vlan_proto=0x0800 ifindex=$(def SKB_DEV_IFINDEX) dev_type=$(def SKB_DEV_TYPE)"
st=0; [ "$(echo "$meta" | tr A-F a-f)" = "$(echo "$want" | tr A-F a-f)" ] || st=1
ok "$st" "skb fields of populate_skb(): $meta"

# test_bpf's #33 "tcpdump port 22" is the harness's fprog #1 but for the
# accept value (test_bpf's tcpdump: snaplen 65535, today's: 262144).
st=0; awk '$1 == "test" { on = ($2 == 33) } on && /^\{/' "$V" |
	sed 's/0x0000ffff }/0x00040000 }/' | cmp -s - "$SRC/../fprog1.dd" || st=1
ok "$st" "test #33 (tcpdump port 22) is filters/fprog1.dd, snaplen 65535 for 262144"

# The guests are little-endian, and so are the vectors: test_bpf's
# LD_NLATTR frame has its nla_len 4 as "04 00" there (#ifdef __BIG_ENDIAN).
st=0; awk '$1 == "test" { on = ($4 ~ /^[0-9]+$/ && $5 == "LD_NLATTR") } on && $1 == "sub" && $2 == 1' "$V" |
	grep -q ' ffff0400020004000300' || st=1
ok "$st" "little-endian vectors: LD_NLATTR's attributes are host-endian for x86_64, um, i386, arm"

# The exceptions name existing (test, subtest) pairs (a test by its
# description, blanks as "_"), a known WHO, a
# value and a reason.
st=0; awk -v vec="$V" '
	BEGIN {
		while ((getline l < vec) > 0) {
			nf = split(l, f, " ")
			if (f[1] == "test") { t = f[5]; for (i = 6; i <= nf; i++) t = t "_" f[i] }
			if (f[1] == "sub") have[t " " f[2]] = 1
		}
	}
	/^#/ || /^[ \t]*$/ { next }
	!(($1 " " $2) in have) || $3 !~ /^(checker=(3\.14|6\.1)|semantics=(3\.14|6\.1|2014)|engine=[a-z0-9]+)(@[a-z0-9_-]+)?$/ ||
	    $4 !~ /^-?[0-9]+$/ || NF < 6 { print "bad exception: " $0 > "/dev/stderr"; bad = 1 }
	END { exit bad }' "$SRC/exceptions.txt" || st=1
ok "$st" "exceptions.txt names vectors there are, with WHO, value and reason"

# Nothing of test_bpf.c is stored in the repository.
st=0; grep -rqs 'tcpdump complex\|LD_VLAN_TAG_PRESENT' "$SRC" --include='*.c' --include='*.h' --include='*.awk' && st=1
ok "$st" "no test_bpf vector is stored in filters/testbpf"

test_summary
