#!/bin/sh
# A user's workload: the filters of FILTERS compiled for the capture PCAP.
#
# usage: workload.sh check FILTERS PCAP PCAPDIFF
#        workload.sh make FILTERS PCAP PCAPDIFF OUTDIR
#   FILTERS  'NAME=EXPRESSION;NAME=EXPRESSION...', or a file of
#            NAME<TAB>EXPRESSION lines ('#' comments, blank lines skipped).
#            An EXPRESSION of the form @FILE is a classic program that
#            does not come from an expression: FILE holds tcpdump -ddd
#            output (an instruction count, then "CODE JT JF K" lines) or
#            -dd lines ("{ 0x28, 0, 0, 0x0000000c },").
#   PCAP     the capture (pcap or pcapng) the expressions are compiled for
#            (its link type; only Ethernet is replayed)
#   PCAPDIFF filters/diff/pcapdiff (bpf_validate() of @FILE programs)
# check: every refusal in one line on stderr, exit 2; nothing written.
# make:  OUTDIR/names (the filters in order), OUTDIR/NAME.expr (the
#        expression, or @FILE's path), NAME.dd (the program as the bench
#        module's prog knob takes it), NAME.txt (tcpdump -d's listing, or
#        the -dd lines of a @FILE program).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "FILTERS: $*" >&2; exit 2; }
# shellcheck source=filters/tcpdump.sh
. "$here/tcpdump.sh"

[ $# -ge 4 ] || { echo "usage: workload.sh check|make FILTERS PCAP PCAPDIFF [OUTDIR]" >&2; exit 2; }
cmd=$1 filters=$2 pcap=$3 pcapdiff=$4 out=${5:-}
case "$cmd" in
check) [ $# = 4 ] || die "usage: workload.sh check FILTERS PCAP PCAPDIFF" ;;
make) [ $# = 5 ] || die "usage: workload.sh make FILTERS PCAP PCAPDIFF OUTDIR" ;;
*) die "unknown command '$cmd' (check, make)" ;;
esac
find_tcpdump
{ [ -f "$pcap" ] && [ -r "$pcap" ]; } || { echo "PCAP: $pcap: no such readable file" >&2; exit 2; }
# the capture's link type, by tcpdump's own reading of it
lt=$("$TCPDUMP" -r "$pcap" -c 1 2>&1 >/dev/null | sed -n 's/.*link-type \([^ ]*\).*/\1/p' | head -n 1)
[ -n "$lt" ] || { echo "PCAP: $pcap: tcpdump cannot read it: $("$TCPDUMP" -r "$pcap" -c 1 2>&1 >/dev/null | head -n 1)" >&2; exit 2; }
[ "$lt" = EN10MB ] || { echo "PCAP: $pcap: link type $lt; only Ethernet (EN10MB) captures are replayed" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# the list as NAME<TAB>EXPRESSION lines
if [ -f "$filters" ]; then
	grep -v '^[[:space:]]*#' "$filters" | grep -v '^[[:space:]]*$' > "$scratch/list" || true
	from="$filters: line"
else
	printf '%s\n' "$filters" | tr ';' '\n' | grep -v '^[[:space:]]*$' |
		sed 's/^[[:space:]]*//; s/=/	/' > "$scratch/list" || true
	from="entry"
fi
[ -s "$scratch/list" ] || die "no filter in '$filters' (NAME=EXPRESSION;... or a file of NAME<TAB>EXPRESSION lines)"
[ "$(wc -l < "$scratch/list")" -le 64 ] || die "more than 64 filters"

# dd_of_ddd FILE: tcpdump -ddd's lines as -dd lines; fails on anything else
dd_of_ddd() {
	awk 'NR == 1 { if ($0 !~ /^[0-9]+$/) exit 1; n = $1; next }
		NF == 4 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ {
			printf "{ 0x%x, %d, %d, 0x%08x },\n", $1, $2, $3, $4; got++; next }
		{ exit 1 }
		END { if (got != n || n == 0) exit 1 }' "$1"
}

n=0
printf '' > "$scratch/names"
while IFS='	' read -r name expr; do
	n=$((n + 1))
	where="$from $n"
	case "$name" in
	'' | [!A-Za-z]* | *[!A-Za-z0-9_]*)
		die "$where: '$name' is not a filter name (a letter, then letters, digits, _)" ;;
	esac
	[ "${#name}" -le 24 ] || die "$where: name '$name' longer than 24 characters"
	case "$name" in
	fprog1 | fprog2 | testbpf34wrap) die "$where: '$name' names one of the 2014 programs (filters/$name.expr): choose another name" ;;
	esac
	! grep -qx "$name" "$scratch/names" || die "$where: '$name' given twice"
	echo "$name" >> "$scratch/names"
	[ -n "$(echo "$expr" | tr -d ' \t')" ] || die "$where: '$name' has no expression"
	case "$expr" in
	@*)
		f=${expr#@}
		{ [ -f "$f" ] && [ -r "$f" ]; } || die "$where: '$name': no readable program file '$f'"
		if ! dd_of_ddd "$f" > "$scratch/$name.dd" 2>/dev/null; then
			grep -v '^[[:space:]]*$' "$f" > "$scratch/$name.dd" || true
			grep -qvE '^[[:space:]]*\{ *0x[0-9a-fA-F]+, *[0-9]+, *[0-9]+, *0x[0-9a-fA-F]+ *\},[[:space:]]*$' "$scratch/$name.dd" &&
				die "$where: '$name': $f is neither tcpdump -ddd nor -dd output"
			[ -s "$scratch/$name.dd" ] || die "$where: '$name': $f holds no instruction"
		fi
		[ "$(wc -l < "$scratch/$name.dd")" -le 4096 ] || die "$where: '$name': more than 4096 instructions"
		printf '00 00 00 00 00 00 00 00 00 00 00 00 08 00\n' > "$scratch/frame.hex"
		why=$("$pcapdiff" --run "$scratch/$name.dd" "$scratch/frame.hex" 2>&1 >/dev/null) ||
			die "$where: '$name': $f: libpcap refuses the program (${why#pcapdiff: })"
		echo "$f" > "$scratch/$name.expr"
		cp "$scratch/$name.dd" "$scratch/$name.txt" ;;
	*)
		if ! "$TCPDUMP" -r "$pcap" -ddd -- "$expr" > "$scratch/$name.ddd" 2> "$scratch/err"; then
			die "$where: '$name': tcpdump refuses '$expr': $(grep -v '^reading from' "$scratch/err" | head -n 1 | sed 's/^tcpdump: //')"
		fi
		dd_of_ddd "$scratch/$name.ddd" > "$scratch/$name.dd" ||
			die "$where: '$name': tcpdump -ddd printed no program for '$expr'"
		"$TCPDUMP" -r "$pcap" -d -- "$expr" > "$scratch/$name.txt" 2>/dev/null
		echo "$expr" > "$scratch/$name.expr" ;;
	esac
done < "$scratch/list"

[ "$cmd" = make ] || exit 0
mkdir -p "$out"
cp "$scratch/names" "$out/names"
while read -r name; do
	for ext in expr dd txt; do cp "$scratch/$name.$ext" "$out/$name.$ext"; done
done < "$scratch/names"
