#!/bin/sh
# lib/test_bpf.c's CLASSIC tests as a peer suite: every vector the host cut
# from the tree (filters/testbpf: mkvectors, /bench/filters/testbpf/
# vectors.txt) replayed through every engine the module lists, on skbs
# built as test_bpf builds them (the skb_meta knob: populate_skb()'s
# protocol, pkt_type, mark, hash, queue_mapping, VLAN tag and dummy device;
# FLAG_SKB_FRAG frames with their fragment as headlen), through the eval
# knob.  Every engine must return test_bpf's expected value (FLAG_EXPECTED_FAIL:
# its checker must reject the program with the expected errno), or show a
# documented 3.14-vs-6.1 difference of filters/testbpf/exceptions.txt.
#
# Run by plan-check.sh (bpf_bench loaded) or on its own as plan "testbpf".
# Appends PASS:/FAIL: lines to $out/tests.txt and writes every result to
# $out/testbpf.txt, one line per (test, subtest):
#   test=INDEX sub=N want=WANT ENGINE=VALUE...
# VALUE is what eval showed (a negative errno: the engine's checker
# rejected the program), or -22 for every engine when the prog write
# failed (every checker rejected it).
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh

results=$out/tests.txt
# The project's one test protocol, every line also into tests.txt.
# shellcheck disable=SC2034 # read by testlib.sh
TEST_LOG=$results TEST_TMP=0 TEST_PREFIX="guest: testbpf: "
# shellcheck source=/dev/null
. /bench/testlib.sh
TB=$FILTERS/testbpf
vectors=$TB/vectors.txt
raw=$out/testbpf.txt
work=/tmp/testbpf
t0=$(date +%s)

if [ ! -d "$KNOBS" ]; then
	if load_bench_module; then pass "bpf_bench loads"; else fail "bpf_bench loads"; exit 0; fi
fi
engines=$(cat "$KNOBS/engines")
# The engines eval shows, with their checker and semantics (lib.sh).
# shellcheck disable=SC2086
profiles=$(engine_profiles $engines)

# Split the vectors: one -dd file per test, one line per subtest.
rm -rf "$work"
mkdir -p "$work"
awk -v w="$work" '
	$1 == "meta" { sub(/^meta /, ""); print > (w "/meta"); next }
	# INDEX FLAGS NAME: the description, each blank written "_"
	# (exceptions.txt names tests so: indexes differ between trees)
	$1 == "test" { t = $2; n = $5; for (i = 6; i <= NF; i++) n = n "_" $i
		print t, $3, n > (w "/tests"); next }
	$1 == "sub" { print t, $2, $3, $4, $5, $6 > (w "/subs"); next }
	/^\{/ { print > (w "/" t ".dd") }' "$vectors"
if set_knob skb_meta "$(cat "$work/meta")"; then
	pass "skb_meta takes test_bpf's skb fields ($(cat "$KNOBS/skb_meta"))"
else
	fail "skb_meta takes test_bpf's skb fields ($(cat "$work/meta"))"
fi

# Replay: one prog write per test, one packet write and eval per subtest.
: > "$raw"
set_knob headlen 0
cur_headlen=0
rejected_all() { # the eval line of a program every checker rejected
	for e in $engines; do
		[ "$(engine_attr "$e" checker 6.1)" = none ] || printf '%s=-22 ' "$e"
	done
}
while read -r t _; do
	if set_knob_file prog "$work/$t.dd" 2> /dev/null; then
		accepted=1
	else
		accepted=0
	fi
	awk -v t="$t" '$1 == t' "$work/subs" > "$work/cur"
	while read -r _ sub len headlen hex want; do
		if [ "$accepted" = 0 ]; then
			line=$(rejected_all)
		else
			[ "$hex" != - ] || hex=" "
			if [ "$headlen" != "$cur_headlen" ]; then
				set_knob headlen "$headlen" || headlen=failed
				cur_headlen=$headlen
			fi
			if [ "$cur_headlen" != failed ] && set_knob packet "$hex" &&
				line=$(cat "$KNOBS/eval"); then
				:
			else
				line="eval-failed"
			fi
		fi
		echo "test=$t sub=$sub len=$len want=$want $line" >> "$raw"
	done < "$work/cur"
done < "$work/tests"
set_knob headlen 0
set_knob skb_meta " "

# Compare: every engine's value with test_bpf's, or a documented exception.
printf "%s\n" "$profiles" > "$work/profiles"
summary=$(awk -v exc="$TB/exceptions.txt" -v vec="$work/tests" -v flavour="${BENCH_FLAVOUR:-unknown}" '
	BEGIN {
		while ((getline l < exc) > 0) {
			if (l ~ /^#/ || l ~ /^[ \t]*$/)
				continue
			split(l, f, " ")
			# NAME SUB WHO VALUE REASON...
			k = f[1] " " f[2]
			# WHO@FLAVOUR: on that kernel flavour only
			w = f[3]
			if (w ~ /@/) {
				if (substr(w, index(w, "@") + 1) != flavour)
					continue
				w = substr(w, 1, index(w, "@") - 1)
			}
			nx++; xkey[nx] = k; xwho[nx] = w; xval[nx] = f[4]
			xline[nx] = l
		}
		while ((getline l < vec) > 0) {
			split(l, f, " ")
			name[f[1]] = f[3]
			nvec++
		}
	}
	NR == FNR { checker[$1] = $2; sem[$1] = $3; order[++ne] = $1; next }
	{
		split($1, a, "="); t = a[2]
		split($2, a, "="); s = a[2]
		want = substr($4, 6)
		if (want ~ /^err=/)
			want = substr(want, 5)
		nsub++
		if ($5 == "eval-failed") {
			printf "FAIL test %s sub %s: eval could not be read\n", t, s
			unexplained++
			next
		}
		delete got
		for (i = 5; i <= NF; i++) {
			split($i, a, "=")
			got[a[1]] = a[2]
		}
		for (j = 1; j <= ne; j++) {
			e = order[j]
			if (!(e in got)) {
				printf "FAIL test %s sub %s: no value of %s\n", t, s, e
				unexplained++
				continue
			}
			n++
			if (got[e] == want) {
				match_++
				continue
			}
			hit = 0
			for (x = 1; x <= nx; x++) {
				if (xkey[x] != name[t] " " s || xval[x] != got[e])
					continue
				w = xwho[x]
				if (w == "engine=" e || w == "checker=" checker[e] ||
				    w == "semantics=" sem[e]) {
					hit = x
					break
				}
			}
			if (hit) {
				documented++
				used[hit] = 1
				printf "DOC test %s sub %s: %s=%s (test_bpf: %s): %s\n", t, s, e, got[e], want, xline[hit]
			} else {
				unexplained++
				printf "FAIL test %s sub %s: %s=%s, test_bpf expects %s\n", t, s, e, got[e], want
			}
		}
	}
	END {
		unused = 0
		for (x = 1; x <= nx; x++) {
			if (used[x])
				continue
			# an exception of an engine this kernel lacks cannot be seen
			w = xwho[x]; present = 0
			for (j = 1; j <= ne; j++) {
				e = order[j]
				if (w == "engine=" e || w == "checker=" checker[e] || w == "semantics=" sem[e])
					present = 1
			}
			if (present) {
				unused++
				printf "UNUSED %s\n", xline[x]
			}
		}
		printf "COUNTS vectors=%d subtests=%d engines=%d results=%d matches=%d documented=%d unexplained=%d unused=%d\n",
			nvec, nsub, ne, n, match_, documented, unexplained + 0, unused
	}' "$work/profiles" "$raw")
echo "$summary" > "$out/testbpf-compare.txt"
counts=$(echo "$summary" | sed -n 's/^COUNTS //p')
echo "$summary" | grep '^FAIL ' | head -n 40 | sed 's/^FAIL /unexplained: /' | while read -r l; do fail "$l"; done
echo "$summary" | grep '^UNUSED ' | sed 's/^UNUSED /documented difference not seen: /' | while read -r l; do fail "$l"; done
nvec=$(grep -c . "$work/tests")
nsub=$(grep -c . "$work/subs")
# shellcheck disable=SC2086
set -- $counts
for kv in "$@"; do eval "c_${kv%%=*}=${kv#*=}"; done
ok "$([ "${c_vectors:-0}" = "$nvec" ] && [ "${c_subtests:-0}" = "$nsub" ] && [ "$nvec" -gt 0 ]; echo $?)" \
	"replayed $nvec vectors, $nsub subtests on ${c_engines:-0} engines ($(awk '{ print $1 }' "$work/profiles" | tr '\n' , | sed 's/,$//'))"
ok "$([ "${c_unexplained:-1}" = 0 ] && [ "${c_unused:-1}" = 0 ] && [ "${c_results:-0}" -gt 0 ]; echo $?)" \
	"${c_results:-0} results: ${c_matches:-0} match test_bpf, ${c_documented:-0} documented differences, ${c_unexplained:-?} unexplained ($(( $(date +%s) - t0 )) s)"
