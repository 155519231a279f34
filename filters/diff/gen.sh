#!/bin/sh
# gen.sh - generate / compare / install the derived files of filters/diff/.
#
#   gen.sh generate MKDIFFPKTS OUTDIR   write OUTDIR/programs.dd (every
#                                       expression of expressions.txt
#                                       compiled by tcpdump -dd for
#                                       Ethernet, each after a "# expr"
#                                       line), OUTDIR/packets.txt, and the
#                                       ancillary-load corpus ancillary.dd
#                                       and ancillary-packets.txt
#                                       (ancillary.sh)
#   gen.sh compare OUTDIR               fail (with a diff) if the committed
#                                       files differ from OUTDIR's
#   gen.sh install OUTDIR               copy OUTDIR over the committed files
#
# Like filters/gen.sh: no capture privileges and no interface; tcpdump
# reads a record-less Ethernet pcap (snaplen 262144), which fixes the link
# type to DLT_EN10MB.  TCPDUMP may name the binary.
set -eu

SRC=$(cd "$(dirname "$0")" && pwd)
FILES="programs.dd packets.txt ancillary.dd ancillary-packets.txt"
export LC_ALL=C

die() {
	printf 'filters/diff/gen.sh: %s\n' "$*" >&2
	exit 1
}

# shellcheck source=filters/tcpdump.sh
. "$SRC/../tcpdump.sh"
# shellcheck source=filters/genlib.sh
. "$SRC/../genlib.sh"

generate() {
	mk=$1 out=$2
	find_tcpdump
	[ -x "$mk" ] || die "$mk: not built"
	rm -rf "$out"
	mkdir -p "$out"
	empty=$out/en10mb-empty.pcap
	# pcap header: magic, v2.4, zone 0, sigfigs 0, snaplen 262144, DLT_EN10MB
	printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\000\000\004\000\001\000\000\000' >"$empty"
	n=0
	while IFS= read -r expr; do
		case $expr in '#'* | '') continue ;; esac
		n=$((n + 1))
		printf '# %s\n' "$expr" >>"$out/programs.dd.tmp"
		if ! "$TCPDUMP" -r "$empty" -dd "$expr" >"$out/one.dd" 2>"$out/one.err"; then
			cat "$out/one.err" >&2
			die "tcpdump cannot compile expression $n: $expr"
		fi
		[ -s "$out/one.dd" ] || die "tcpdump printed an empty program for: $expr"
		cat "$out/one.dd" >>"$out/programs.dd.tmp"
	done <"$SRC/expressions.txt"
	[ "$n" -ge 200 ] || die "only $n expressions in expressions.txt (want at least 200)"
	mv "$out/programs.dd.tmp" "$out/programs.dd"
	"$mk" >"$out/packets.txt.tmp"
	mv "$out/packets.txt.tmp" "$out/packets.txt"
	# the ancillary-load corpus (ancillary.sh: no tcpdump program has one)
	sh "$SRC/ancillary.sh" programs >"$out/ancillary.dd"
	sh "$SRC/ancillary.sh" packets >"$out/ancillary-packets.txt"
	rm -f "$empty" "$out/one.dd" "$out/one.err"
}

compare() {
	out=$1 bad=0
	for f in $FILES; do
		[ -f "$out/$f" ] || die "$out/$f: not generated"
		if [ ! -f "$SRC/$f" ]; then
			printf 'filters/diff: %s is generated but not committed\n' "$f" >&2
			bad=1
		elif ! cmp -s "$out/$f" "$SRC/$f"; then
			printf 'filters/diff: committed %s differs from regenerated %s:\n' "$f" "$out/$f" >&2
			diff -u "$SRC/$f" "$out/$f" | head -n 40 >&2 || true
			bad=1
		fi
	done
	if [ "$bad" -ne 0 ]; then
		printf 'filters/diff: FAILED: tcpdump/libpcap or mkdiffpkts changed? If intended: make -C filters/diff update\n' >&2
		exit 1
	fi
	printf 'filters/diff: committed files match regenerated ones (%s programs, %s packets)\n' \
		"$(grep -c '^#' "$out/programs.dd")" "$(wc -l <"$out/packets.txt" | tr -d ' ')"
}

install_gen() {
	install_files "$1" "$FILES"
}

gen_main MKDIFFPKTS "$@"
