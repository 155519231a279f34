#!/bin/sh
# The registry check (results/regcheck): the live registries of bench/
# pass it without a word, and copies of them with one thing broken on
# purpose fail it with one error naming the copy's FILE:LINE, one case per
# kind of reference (an accelerator's flavour, kind, nests and model, a
# kernel's check list, a claim's ratio, kinds and cells, a ratio's engines,
# a ref2014.ARCH key, a flavour's fragment, a plan option ...) and per
# kind of record fault (a missing required key, an unknown key, a key given
# twice, an unknown record type).  The copies are made from the live files
# at each case, so the cases follow them.
# usage: tests-registry.sh TOOLS_DIR      prints PASS:/FAIL: lines
set -eu
tools=$1
TEST_PREFIX="registry: "
# shellcheck source=bench/host/testlib.sh
. "$(dirname "$0")/../bench/host/testlib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
live=$top/bench
reg=$tmp/reg

# clean NAME COMMAND...: COMMAND exits 0 and prints nothing.
clean() {
	cl_name=$1
	shift
	rc=0
	"$@" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ]; then
		pass "$cl_name"
	else
		fail "$cl_name (exit $rc): $(head -n 5 "$tmp/out")"
	fi
}

clean "the live registries: no error, no output" "$tools/regcheck"

# regcheck on the copies in $reg (registry.c's overrides of REG_DIR).
regcheck() {
	ENGINES_CONF=$reg/engines.conf ACCELS_CONF=$reg/accels.conf \
		FLAVOURS_CONF=$reg/flavours.conf KERNELS_CONF=$reg/kernels.conf \
		CORES_CONF=$reg/cores.conf ARGS_CONF=$reg/args.conf \
		MEASURED_CONF=$reg/measured.conf TIMES_CONF=$reg/times.conf "$tools/regcheck"
}
# fresh: copies of the live registries.
fresh() {
	rm -rf "$reg"
	mkdir "$reg"
	for r in engines accels flavours kernels cores args measured times; do
		cp "$live/$r.conf" "$reg/$r.conf"
	done
}
# line_of FILE TYPE NAME [KEY]: the line of record "TYPE NAME", or of its
# KEY; fails when there is none.
line_of() {
	awk -v t="$2" -v n="$3" -v k="${4:-}" '
	/^[^ \t#]/ { rec = ($1 == t && $2 == n); if (rec && k == "") { print NR; found = 1; exit } next }
	rec && $1 == k { print NR; found = 1; exit }
	END { exit !found }' "$1"
}
# A case whose record or key the live registries no longer have is a FAIL
# (and its regcheck, on an unbroken copy, another), never an abort.
# edit FILE LINE SED: sed's command SED on line LINE (a number) of FILE.
edit() {
	case "$2" in
	'' | *[!0-9]*) fail "a case's line is not in $(basename "$1") (update the case)"; return 0 ;;
	esac
	sed "$2$3" "$1" > "$1.new"
	mv "$1.new" "$1"
}
# set_key FILE TYPE NAME KEY VALUE: KEY's value in that record.
set_key() {
	sk_line=$(line_of "$1" "$2" "$3" "$4") ||
		{ fail "$2 $3 has no $4 in $(basename "$1") (update the case)"; return 0; }
	awk -v l="$sk_line" -v k="$4" -v v="$5" 'NR == l { print "\t" k "\t\t" v; next } { print }' \
		"$1" > "$1.new"
	mv "$1.new" "$1"
}
# broken WHAT FILE LINE PATTERN: regcheck exits 1 with one line, an error
# at FILE:LINE matching PATTERN (grep -E).
broken() {
	rc=0
	regcheck > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l < "$tmp/out")" = 1 ] &&
	   grep -q "^$2:$3: " "$tmp/out" && grep -Eq -- "$4" "$tmp/out"; then
		pass "$1: $(basename "$2"):$3"
	else
		fail "$1: want one error at $(basename "$2"):$3 matching '$4', got exit $rc:"
		head -n 5 "$tmp/out" | sed 's/^/    /'
	fi
}
# bad_value WHAT FILE TYPE NAME KEY VALUE PATTERN: a fresh copy with KEY of
# record "TYPE NAME" set to VALUE fails with one error at that key's line.
bad_value() {
	fresh
	set_key "$2" "$3" "$4" "$5" "$6"
	broken "$1" "$2" "$(line_of "$2" "$3" "$4" "$5")" "$7"
}
# The cases, one a line on stdin, REGISTRY the base name of a bench/*.conf:
#   bad_values: WHAT|REGISTRY|TYPE NAME|KEY|VALUE|PATTERN (bad_value's)
#   bad_edits:  WHAT|REGISTRY|TYPE NAME [KEY]|SED|TYPE NAME [KEY]|PATTERN
#     sed's command SED on the line of the first record (or key) of a
#     fresh copy fails with one error at the line of the second, in the
#     edited copy, matching PATTERN.
bad_values() {
	while IFS='|' read -r bv_what bv_conf bv_rec bv_key bv_value bv_pattern; do
		# shellcheck disable=SC2086 # TYPE NAME: two words
		bad_value "$bv_what" "$reg/$bv_conf.conf" $bv_rec "$bv_key" "$bv_value" \
			"$bv_pattern" < /dev/null
	done
}
bad_edits() {
	while IFS='|' read -r be_what be_conf be_at be_sed be_err be_pattern; do
		be_file=$reg/$be_conf.conf
		fresh
		# shellcheck disable=SC2086 # TYPE NAME [KEY]: words
		edit "$be_file" "$(line_of "$be_file" $be_at)" "$be_sed"
		# shellcheck disable=SC2086
		broken "$be_what" "$be_file" "$(line_of "$be_file" $be_err)" "$be_pattern" < /dev/null
	done
}

fresh
clean "the copies, unbroken, pass (the cases below break one thing each)" regcheck

# An architecture added by records only (tests-arch.sh's armv7) passes.
fresh
cat "$live/host/fixtures/arch/flavour.conf" >> "$reg/flavours.conf"
cat "$live/host/fixtures/arch/accel.conf" >> "$reg/accels.conf"
cat "$live/host/fixtures/arch/times.conf" >> "$reg/times.conf"
clean "the live registries with the armv7 fixture records appended pass" regcheck

a=$reg/accels.conf

bad_values <<'EOF'
an accelerator naming an unknown flavour|accels|accel uml|flavour|nosuch|accel uml: flavour: no flavour record 'nosuch'
an accelerator of an unknown kind|accels|accel tcg|kind|emulatd|accel tcg: kind: no kind record 'emulatd'
a nested accelerator nesting an unknown one|accels|accel kvm-nested|nests|kvm-amd|accel kvm-nested: nests: no accel record 'kvm-amd'
an accelerator modelling an unknown core (cores.conf)|accels|accel modeled|model|zen9|accel modeled: model: no core record 'zen9'
auto unless: an unknown accelerator|accels|accel icount|auto|unless:kvm-sparc|no accel record 'kvm-sparc'
a plan option args.conf does not know|accels|accel icount|plan_args|bench.skbs=1,10000 bench.sample=5|accel icount: plan_args: 'bench.sample=5': no arg record 'sample'
a plan naming an unknown engine (engines.conf)|accels|accel icount-arm|check_plan|bench.engines=oldjit,jjt bench.samples=3|no engine record 'jjt'
an accelerator against one of another kind|accels|accel icount-deb-epyc|against|modeled-deb-off|accel icount-deb-epyc: against modeled-deb-off, of another kind or flavour
an accelerator against an unknown one|accels|accel icount-deb-epyc|against|icount-deb-of|accel icount-deb-epyc: against: no accel record 'icount-deb-of'
variants relinked from a flavour of another arch|accels|accel uml|layout_builds|um x86_64|accel uml: layout_builds x86_64: not a flavour of arch um that relinks
variants relinked from an unknown flavour|accels|accel uml|layout_builds|um um-align32|accel uml: layout_builds: no flavour record 'um-align32'
layout_builds not starting with the accelerator's own flavour|accels|accel uml|layout_builds|um-align64 um|accel uml: layout_builds starts with um-align64, not its own flavour um
a kind's variants not paired, bench or none|accels|kind modeled|variants|relink|kind modeled: variants: 'relink' is not one of
EOF
# layouts on an accelerator whose kind's figures do not see the layout
fresh
awk -v l="$(line_of "$a" accel icount flavour)" '{ print } NR == l { print "\tlayouts\t\t4" }' "$a" > "$a.new"
mv "$a.new" "$a"
broken "layouts on a counted accelerator (kind variants none)" "$a" "$(line_of "$a" accel icount layouts)" \
	"accel icount: layouts, but kind counted has variants none"
bad_values <<'EOF'
a plan option out of its args.conf range|accels|accel uml|check_args|bench.diff_random=100 bench.diff_fuzz=99999|'99999' is not a number 0\.\.3600
EOF
bad_edits <<'EOF'
an accelerator without a required key (unit)|accels|accel tcg unit|d|accel tcg|accel tcg: no unit
a misspelt key|accels|accel kvm boots|s/boots/bootz/|accel kvm bootz|accel kvm: unknown key 'bootz'
EOF
fresh
edit "$a" "$(line_of "$a" accel tcg unit)" p
broken "a key given twice" "$a" "$(($(line_of "$a" accel tcg unit) + 1))" \
	"accel tcg: unit given twice \(first at line $(line_of "$a" accel tcg unit)\)"
bad_edits <<'EOF'
an unknown record type (registry.c)|accels|accel tcg|s/^accel/acel/|acel tcg|no record type 'acel' in this file
EOF

bad_values <<'EOF'
a kernel's check naming an unknown accelerator|kernels|kernel 6.12|check|icount-sparc|kernel 6.12: check: no accel record 'icount-sparc'
a kernel's series directory that is not there|kernels|kernel 6.12|series|kernel-patches/6.13|no directory kernel-patches/6.13
EOF
bad_edits <<'EOF'
no default kernel tree|kernels|kernel 6.1 default|d|kernel 6.1|no kernel record has default 1
EOF

bad_values <<'EOF'
a claim naming an unknown ratio|engines|claim new-faster|pair|new/old|claim new-faster: pair new/old: no ratio record 'new/old'
a claim judged on an unknown kind (accels.conf)|engines|claim seccomp-short|kinds|hardware countd|no kind record 'countd'
a claim naming an unknown cell|engines|claim model-miss-cost|to|fprog3-miss|no cell record 'fprog3-miss'
EOF
bad_edits <<'EOF'
a claim without a key of its kind|engines|claim seccomp-large index|d|claim seccomp-large|claim seccomp-large: no index \(kind seccomp has one\)
a ratio of an unknown engine|engines|ratio oldjit/jit|s#oldjit/jit#oldjit/jjt#|ratio oldjit/jjt|ratio oldjit/jjt: oldjit/jjt: no engine record 'jjt'
ref2014.ARCH of no flavour's ref2014_arch|engines|engine old ref2014.x86_64|s/ref2014\.x86_64/ref2014.sparc/|engine old ref2014.sparc|engine old: ref2014.sparc: no flavour compared with the 2014 table of 'sparc'
EOF
bad_values <<'EOF'
ref2014 figures not one per cell|engines|engine new|ref2014.i386|40 119 69|3 words, not one per cell record \(4
EOF
bad_edits <<'EOF'
missing.FLAVOUR of an unknown flavour|engines|engine oldjit missing.um|s/missing\.um/missing.uml/|engine oldjit missing.uml|no flavour record 'uml'
EOF
bad_values <<'EOF'
a cell of a filter that is not in filters/|engines|cell fprog2-hit|filter|fprog3|cell fprog2-hit: filter 'fprog3': no filters/fprog3.dd
a split whose design and conversion do not chain|engines|split old/new|design|old/jit|not A/B x B/C of old/new
EOF

bad_values <<'EOF'
a flavour's fragment that is not there|flavours|flavour arm|fragment|bench/kernel-omit.config bench/kernel-arm64.config|flavour arm: fragment: no file bench/kernel-arm64.config
a seccomp_arch with no filters|flavours|flavour i386|seccomp_arch|sparc|no filters/seccomp/short-sparc.bpf
EOF

bad_values <<'EOF'
a core's cycles naming no model counter|cores|core a15|cycles|insns:0.5 l3_miss:150|core a15: cycles 'l3_miss:150' is not COUNTER:WEIGHT
a core's cycles with a base term (llvm-mca's) but no mcpu|cores|core a15|cycles|base:1 mispredicts:15|core a15: cycles has a base term but the core has no mcpu
a core's taken that is no number of cycles|cores|core glc|taken|fast|core glc: taken 'fast' is not the cycles of a taken branch
a core whose predictor is no predictor record|cores|core zen5|predictor|tage2|core zen5: predictor: no predictor record 'tage2'
a core's TAGE not TABLES:BITS:LONGEST|cores|core zen5|tage|8:11|core zen5: tage: '8:11' is not N:N:N
a predictor counting a counter the plugin has not|cores|predictor tage|cond|cond_miss_tage2|predictor tage: cond: 'cond_miss_tage2' is not one of
an accelerator modelling an unknown further core|accels|accel modeled|model_also|glc skl|accel modeled: model_also: no core record 'skl'
a measured host modelled by an unknown core|measured|measured amd-epyc-uml|core|zen4|measured amd-epyc-uml: core: no core record 'zen4'
a measured ratio whose CI does not hold it|measured|measured intel-xeon-uml|ratio.old/new|0.4727:0.4488:0.4980 0.4108:0.4434:0.4401 0.5740:0.5370:0.6135 0.5391:0.4955:0.5864|'0.4108:0.4434:0.4401' is not RATIO:LO:HI
a measured ratio of fewer cells than cell records|measured|measured intel-xeon-uml|ratio.old/new2014|0.9259:0.8806:0.9735 0.7640:0.7136:0.8179|2 words, not one per cell record
EOF
bad_edits <<'EOF'
a measured ratio of a pair with no ratio record|measured|measured intel-xeon-uml ratio.old/new|s#ratio\.old/new\t#ratio.new/old\t#|measured intel-xeon-uml ratio.new/old|no ratio record 'new/old'
a uint arg without its max|args|arg diff_seed max|d|arg diff_seed|arg diff_seed: a uint needs min and max
EOF

# bench/times.conf: each record names an accelerator or flavour of the
# registries; a measured time is not a key of accels.conf or flavours.conf.
bad_edits <<'EOF'
a measured time of an accelerator accels.conf has not|times|accel uml|s/^accel uml$/accel umll/|accel umll|accel umll: no such accelerator in accels.conf
a measured time of a flavour flavours.conf has not|times|flavour i386|s/^flavour i386$/flavour i486/|flavour i486|flavour i486: no such flavour in flavours.conf
EOF
bad_values <<'EOF'
a run_sd not HIT_PCT,MISS_PCT|times|accel uml|run_sd|0.6|accel uml: run_sd '0.6' is not HIT_PCT,MISS_PCT
EOF
fresh
edit "$a" "$(line_of "$a" accel tcg kind)" 's/$/\n\tguest_s\t\t227/'
broken "a measured time in accels.conf (its place is times.conf)" "$a" "$(($(line_of "$a" accel tcg kind) + 1))" \
	"accel tcg: unknown key 'guest_s'"

# bench/host/regcheck.sh, make bench's check before any build: with no
# tools directory it compiles its own checker (the copies: the overrides
# reach it); with one, it runs that one.
clean "regcheck.sh with no tools built: the live registries pass" "$live/host/regcheck.sh" "$top"
fresh
set_key "$a" accel uml flavour nosuch
rc=0
ACCELS_CONF=$a "$live/host/regcheck.sh" "$top" > "$tmp/out" 2>&1 || rc=$?
is "$rc $(cut -d: -f1,2 "$tmp/out" | tr '\n' ' ')" "1 $a:$(line_of "$a" accel uml flavour) " \
	"regcheck.sh with no tools built: a broken copy fails at its FILE:LINE"
# TOOLS/regcheck newer than the sources runs; an older one is rebuilt.
mkdir "$tmp/tools"
printf '#!/bin/sh\necho tools regcheck\n' > "$tmp/tools/regcheck"
chmod +x "$tmp/tools/regcheck"
is "$("$live/host/regcheck.sh" "$top" "$tmp/none" "$tmp/tools" 2>&1 || true)" "tools regcheck" \
	"regcheck.sh TOP TOOLS...: runs the first TOOLS/regcheck newer than its sources"
touch -t 200001010000 "$tmp/tools/regcheck"
is "$("$live/host/regcheck.sh" "$top" "$tmp/tools" 2>&1 || true)" "" \
	"regcheck.sh TOP TOOLS...: an older TOOLS/regcheck is not run (one compiled from the sources is)"

test_summary
