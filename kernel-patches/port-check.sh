#!/bin/sh
# The 6.12 series against 6.1's: every difference between the two must be
# one of the recorded port differences (kernel-patches/6.12/
# port-differences.txt), so a fix made in one series and not in the other
# fails, naming the patch, the file and the hunk.
#
# Patches pair by subject (then, for those left, by number); a patch that
# has no pair is a difference of its own (file "(patch)").  Each patch is
# split into its message (subject and body, "(message)") and one section
# per file: the file's header lines and its hunks.  What a port moves
# legitimately is dropped before comparing: the From/Date headers, the
# diffstat, "index" lines, the line numbers and function heading of every
# "@@" line (the hunks stay apart as a bare "@@").  The sections of a pair
# are compared with diff(1); each change diff reports is one difference:
#   PATCH FILE HUNK LINES HASH
# PATCH the 6.1 number (0004), FILE the file's path, HUNK the 6.1 hunk the
# change starts in (1 the first; 0 the file's header lines, or the
# message), LINES -removed/+added lines of 6.12's against 6.1's, HASH the
# cksum(1) CRC of the changed lines (both sides) in hex.  A record of the
# list is those five fields and the reason; a difference matches a record
# when all five are equal, once per record.  A record that matches no
# difference fails too (stale), so the list stays exact.
#
# usage: port-check.sh [--update [-m REASON]] [OLD NEW [LIST]]
#   OLD   the 6.1 series (kernel-patches)
#   NEW   the 6.12 series (kernel-patches/6.12)
#   LIST  the recorded differences (NEW/port-differences.txt)
#   --update  rewrite LIST from today's differences (a deliberate port
#         change): a difference keeps the reason of the record with its
#         patch, file and hash; a new one gets REASON, or without -m the
#         reason of a record it replaces (its patch, file and hunk), else
#         "(no reason given)".
# Exits 0 when every difference is recorded and every record found, 1 when
# not (each one named on stderr), 2 on a usage error.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
usage() {
	echo "usage: port-check.sh [--update [-m REASON]] [OLD NEW [LIST]]" >&2
	exit 2
}
update=0 reason=
while [ $# -gt 0 ]; do
	case $1 in
	--update) update=1 ;;
	-m) [ $# -ge 2 ] || usage; reason=$2; shift ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
case $# in
0) old=$here new=$here/6.12 ;;
2 | 3) old=$1 new=$2 ;;
*) usage ;;
esac
list=${3:-$new/port-differences.txt}
for d in "$old" "$new"; do
	[ -d "$d" ] || { echo "port-check: $d: no such series directory" >&2; exit 2; }
done
if [ "$update" = 0 ] && [ ! -f "$list" ]; then
	echo "port-check: $list: no list of recorded differences (--update writes it)" >&2
	exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C

# patches DIR: "NUMBER<TAB>SUBJECT<TAB>PATH" per patch of the series.
patches() {
	find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort |
	while read -r p; do
		awk -v path="$p" '
		/^Subject: / { s = $0; on = 1; next }
		on && /^[ \t]/ { s = s $0; next }
		on { exit }
		END {
			sub(/^Subject: (\[[^]]*\] )?/, "", s)
			n = path; sub(/.*\//, "", n)
			printf "%s\t%s\t%s\n", substr(n, 1, 4), s, path
		}' "$p"
	done
}
patches "$old" > "$work/old.tsv"
patches "$new" > "$work/new.tsv"

# Pairs: "NAME<TAB>OLDPATH<TAB>NEWPATH" (a path "-" when there is no pair),
# by subject, then by number among those left; in 6.1's order.
awk -F '\t' '
FNR == NR { nn[FNR] = $1; ns[FNR] = $2; np[FNR] = $3; n = FNR; next }
{ on[FNR] = $1; os[FNR] = $2; op[FNR] = $3; o = FNR }
END {
	for (i = 1; i <= o; i++)
		for (j = 1; j <= n; j++)
			if (!used[j] && ns[j] == os[i]) { pair[i] = j; used[j] = 1; break }
	for (i = 1; i <= o; i++)
		if (!(i in pair))
			for (j = 1; j <= n; j++)
				if (!used[j] && nn[j] == on[i]) { pair[i] = j; used[j] = 1; break }
	for (i = 1; i <= o; i++)
		printf "%s\t%s\t%s\n", on[i], op[i], (i in pair) ? np[pair[i]] : "-"
	for (j = 1; j <= n; j++)
		if (!used[j])
			printf "%s\t-\t%s\n", nn[j], np[j]
}' "$work/new.tsv" "$work/old.tsv" > "$work/pairs.tsv"

# split_patch PATCH DIR: the patch's sections into DIR: DIR/names (one a line),
# DIR/N the normalised text of the Nth, DIR/N.h its original "@@" lines.
split_patch() {
	mkdir -p "$2"
	: > "$2/names"
	awk -v dir="$2" '
	function section(name) {
		n++
		sec = dir "/" n
		hdr = dir "/" n ".h"
		print name >> (dir "/names")
		printf "" > sec
		printf "" > hdr
	}
	BEGIN { state = "head" }
	state == "head" {
		if ($0 ~ /^Subject: /) { subj = $0; insubj = 1; next }
		if (insubj && $0 ~ /^[ \t]/) { subj = subj $0; next }
		insubj = 0
		if ($0 == "") { section("(message)"); print subj > sec; state = "msg" }
		next
	}
	state == "msg" {
		if ($0 == "---") state = "between"
		else print > sec
		next
	}
	/^diff --git / && state != "hunk" {
		name = $0
		sub(/^diff --git a\/[^ ]* b\//, "", name)
		section(name)
		print > sec
		state = "fhead"
		next
	}
	/^@@ / && (state == "fhead" || state == "after") {
		# @@ -a[,b] +c[,d] @@: b and d lines (1 without a count)
		h = $0
		sub(/^@@ -/, "", h)
		split(h, f, " ")
		oldn = (f[1] ~ /,/) ? substr(f[1], index(f[1], ",") + 1) + 0 : 1
		h = f[2]
		sub(/^\+/, "", h)
		newn = (h ~ /,/) ? substr(h, index(h, ",") + 1) + 0 : 1
		print "@@" > sec
		print > hdr
		state = (oldn > 0 || newn > 0) ? "hunk" : "after"
		next
	}
	state == "fhead" { if ($0 !~ /^index /) print > sec; next }
	state == "hunk" {
		c = substr($0, 1, 1)
		if (c == " " || c == "") { oldn--; newn-- }
		else if (c == "-") oldn--
		else if (c == "+") newn--
		print > sec
		if (oldn <= 0 && newn <= 0) state = "after"
		next
	}
	# the diffstat, and what follows the last hunk
	' "$1"
}

# Every difference: "PATCH<TAB>FILE<TAB>HUNK<TAB>LINES<TAB>HASH<TAB>WHERE<TAB>CHUNK"
# into found.tsv, CHUNK the file of its changed lines (diff's < and >).
mkdir -p "$work/chunks"
: > "$work/found.tsv"
: > "$work/empty"
k=0
while IFS='	' read -r name op np; do
	if [ "$op" = - ] || [ "$np" = - ]; then
		side=6.1
		[ "$op" = - ] && side=6.12
		printf "%s\t(patch)\t0\t-\tonly-in-%s\tthe whole patch\t-\n" "$name" "$side" >> "$work/found.tsv"
		continue
	fi
	rm -rf "$work/a" "$work/b"
	split_patch "$op" "$work/a"
	split_patch "$np" "$work/b"
	# the sections of both, 6.1's order first
	awk '!seen[$0]++' "$work/a/names" "$work/b/names" > "$work/names"
	while IFS= read -r f; do
		ia=$(awk -v f="$f" '$0 == f { print NR; exit }' "$work/a/names")
		ib=$(awk -v f="$f" '$0 == f { print NR; exit }' "$work/b/names")
		sa=$work/empty ha=$work/empty sb=$work/empty
		[ -z "$ia" ] || { sa=$work/a/$ia ha=$work/a/$ia.h; }
		[ -z "$ib" ] || sb=$work/b/$ib
		rc=0
		diff "$sa" "$sb" > "$work/diff" || rc=$?
		[ "$rc" -le 1 ] || { echo "port-check: diff failed on $name $f" >&2; exit 2; }
		[ "$rc" = 1 ] || continue
		# one record per change of diff's normal output; the hunk from
		# the count of "@@" lines of 6.1's section up to its first line
		k=$(awk -v name="$name" -v f="$f" -v k="$k" -v chunks="$work/chunks" -v out="$work/found.tsv" '
		function flush(  cmd, crc) {
			if (cur == "")
				return
			close(cur)
			cmd = "cksum < \"" cur "\""
			cmd | getline crc
			close(cmd)
			split(crc, c, " ")
			printf "%s\t%s\t%d\t-%d/+%d\t%08x\t%s\t%s\n", name, f, hunk, del, add, c[1], where, cur >> out
			cur = ""
		}
		FILENAME == ARGV[1] { if ($0 == "@@") { at++; hs[at] = FNR } hk[FNR] = at; next }
		FILENAME == ARGV[2] { hd[FNR] = $0; next }
		/^[0-9]+(,[0-9]+)?[acd][0-9]+(,[0-9]+)?$/ {
			flush()
			k++
			cur = chunks "/" k
			printf "" > cur
			# 6.1 line start (after it for an addition)
			start = $0 + 0
			hunk = (start > 0) ? hk[start] : 0
			if ($0 ~ /^[0-9]+a/)
				start++
			where = (f == "(message)") ? "the message, line " start : \
				(hunk == 0) ? "the file header" : "6.1 " hd[hunk] ", its line " start - hs[hunk]
			gsub(/\t/, " ", where)
			del = add = 0
			next
		}
		/^</ { del++; print > cur; next }
		/^>/ { add++; print > cur; next }
		END { flush(); print k }' "$sa" "$ha" "$work/diff")
	done < "$work/names"
done < "$work/pairs.tsv"

if [ "$update" = 1 ]; then
	old_list=$work/empty
	[ ! -f "$list" ] || old_list=$list
	{
		cat <<'EOF'
# The recorded differences between the 6.12 series (kernel-patches/6.12)
# and the 6.1 one (kernel-patches): kernel-patches/port-check.sh fails on
# a difference this list lacks and on a record no difference matches.
# Written by `kernel-patches/port-check.sh --update [-m REASON]`; a record
# is one line:
#   PATCH FILE HUNK LINES HASH REASON
# PATCH the 6.1 patch number; FILE the path ((message): subject and body,
# (patch): a patch of one series only); HUNK the 6.1 hunk the difference
# starts in (0: the file's header lines or the message); LINES -removed/+added
# of 6.12's against 6.1's; HASH the cksum of the differing lines, in hex.
EOF
		# A difference keeps the reason of the record it matches (its
		# patch, file and hash); a new one gets -m's reason, else that
		# of a record it replaces (same patch, file and hunk, now stale).
		awk -F '\t' -v reason="$reason" '
		FILENAME == ARGV[1] {
			if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/)
				next
			split($0, r, /[ \t]+/)
			w = $0
			for (i = 1; i <= 5; i++)
				sub(/^[^ \t]+[ \t]+/, "", w)
			o++
			ok[o] = r[1] SUBSEP r[2] SUBSEP r[5]
			oh[o] = r[1] SUBSEP r[2] SUBSEP r[3]
			ow[o] = w
			next
		}
		{ n++; f[n] = $0; fk[n] = $1 SUBSEP $2 SUBSEP $5; fh[n] = $1 SUBSEP $2 SUBSEP $3 }
		END {
			for (i = 1; i <= n; i++)
				for (j = 1; j <= o; j++)
					if (!used[j] && ok[j] == fk[i]) { used[j] = 1; why[i] = ow[j]; break }
			for (i = 1; i <= n; i++) {
				if (i in why)
					continue
				why[i] = (reason != "") ? reason : "(no reason given)"
				if (reason == "")
					for (j = 1; j <= o; j++)
						if (!used[j] && oh[j] == fh[i]) { why[i] = ow[j]; break }
			}
			for (i = 1; i <= n; i++) {
				split(f[i], c, "\t")
				printf "%s %s %s %s %s %s\n", c[1], c[2], c[3], c[4], c[5], why[i]
			}
		}' "$old_list" "$work/found.tsv"
	} > "$work/list"
	mv "$work/list" "$list"
	echo "port-check: $(wc -l < "$work/found.tsv" | tr -d ' ') differences recorded in $list"
	exit 0
fi

# Match: each difference takes one record with its five fields.
awk -F '\t' -v list="$list" '
FILENAME == ARGV[1] {
	if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/)
		next
	split($0, r, /[ \t]+/)
	key = r[1] " " r[2] " " r[3] " " r[4] " " r[5]
	want[key]++
	recs++
	rec[recs] = key
	line[recs] = FNR
	next
}
{
	n++
	key = $1 " " $2 " " $3 " " $4 " " $5
	if (want[key] > 0) { want[key]--; ok++; next }
	bad++
	if ($2 == "(patch)") {
		side = $5
		sub(/^only-in-/, "", side)
		printf "port-check: %s (patch): in the %s series only, a difference not recorded\n", $1, side > "/dev/stderr"
		next
	}
	printf "port-check: %s %s hunk %s (%s): a difference not recorded, %s %s (< 6.1, > 6.12):\n", \
		$1, $2, $3, $6, $4, $5 > "/dev/stderr"
	f = $7
	for (i = 0; i < 8 && (getline l < f) > 0; i++)
		printf "    %s\n", l > "/dev/stderr"
	if (i == 8 && (getline l < f) > 0)
		printf "    ...\n" > "/dev/stderr"
	close(f)
}
END {
	for (i = 1; i <= recs; i++)
		if (want[rec[i]] > 0) {
			want[rec[i]]--
			bad++
			printf "port-check: %s:%d: recorded difference %s found in no patch (stale: %s)\n", \
				list, line[i], rec[i], "fix the series or rewrite the list with --update" > "/dev/stderr"
		}
	if (bad) {
		printf "port-check: %d of %d differences recorded in %s; %d problem(s)\n", ok, n, list, bad > "/dev/stderr"
		exit 1
	}
	printf "port-check: the %d differences between the series are all recorded\n", n
}' "$list" "$work/found.tsv"
