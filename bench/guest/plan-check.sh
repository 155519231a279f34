#!/bin/sh
# In-guest tests: the module loads, every engine returns tcpdump's verdict for
# every (filter, packet) pair, malformed writes to each knob fail with a clear
# errno and leave the previous configuration intact, and results parse.
# Writes "PASS: ..." / "FAIL: ..." lines to $out/tests.txt.
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh
# shellcheck source=/dev/null
. /bench/seccomp.sh

results=$out/tests.txt
: > "$results"
# The project's one test protocol, every line also into tests.txt.
# shellcheck disable=SC2034 # read by testlib.sh
TEST_LOG=$results TEST_TMP=0
# shellcheck source=/dev/null
. /bench/testlib.sh
check() { expect "$@"; }

if load_bench_module; then pass "guest: bpf_bench loads"; else fail "guest: bpf_bench loads"; exit 0; fi
write_meta "$out/meta.txt"
engines=$(cat "$KNOBS/engines")
# Every kernel has the engines marked always=1 in the registry, but those
# it marks missing on this flavour (UML has no BPF JIT).
flavour=${BENCH_FLAVOUR:-unknown}
for e in $(registry_engines); do
	[ "$(engine_attr "$e" always 0)" = 1 ] || continue
	[ -z "$(engine_attr "$e" "missing.$flavour")" ] || continue
	check "guest: engine $e is listed" grep -qx "$e" "$KNOBS/engines"
done

# Short cells: correctness, not timing.
set_knob samples 2
set_knob sample_us 200

# Every engine x filter x packet returns tcpdump's verdict on every call.
# The program, packet and expected verdict go in once per pair, then each
# cell is one knob process (engine, skbs, run) and the result is read by
# the shell: a process costs tens of ms in a User-mode Linux guest (every
# guest fork is a host one) and under TCG, and run_cell takes a dozen.
pairs=0
check_skbs=$(echo "${BENCH_CHECK_SKBS:-1,3}" | tr , " ")
while read -r filter packet verdict; do
	case "$filter" in "#"*|"") continue ;; esac
	[ -f "$FILTERS/$filter.dd" ] || continue
	if ! set_knob_file prog "$FILTERS/$filter.dd" ||
		! set_knob_file packet "$FILTERS/packets/$packet.hex" ||
		! set_knob expect "$verdict"; then
		fail "guest: $filter $packet: the program, packet and verdict are taken"
		continue
	fi
	for e in $engines; do
		# BENCH_CHECK_SKBS: the skbs counts, comma-separated (default 1,3)
		for skbs in $check_skbs; do
			pairs=$((pairs + 1))
			name="guest: $e $filter $packet skbs=$skbs returns $verdict"
			line=
			if err=$(/bench/knob "$KNOBS/engine" "$e" "$KNOBS/skbs" "$skbs" "$KNOBS/run" 1) &&
				read -r line < "$KNOBS/result" && case " $line " in
				*" verdict=$verdict "*) ;;
				*) false ;;
				esac; then
				pass "$name"
				cell_prefix "$e" "$filter" "$packet" "$skbs" bench
				# shellcheck disable=SC2154 # prefix: set by cell_prefix (lib.sh)
				echo "$prefix $line" >> "$out/cells.txt"
			else
				fail "$name: ${err:-${line:-no result}}"
			fi
		done
	done
done < "$FILTERS/verdicts.txt"
say "compared $pairs (engine, filter, packet, skbs) cells against tcpdump's verdicts"

# jited says what really ran (the registry's jited attribute).
for e in $engines; do
	[ "$(engine_attr "$e" checker 6.1)" != none ] || continue
	want=$(engine_attr "$e" jited 0)
	line=$(run_cell "$e" fprog1 tcp22-payload 1) || line=""
	check "guest: engine $e reports jited=$want" sh -c "echo '$line' | grep -q ' jited=$want '"
done
# oldjit: which instructions the 3.14 JIT of this flavour left to the
# interpreter (engines.conf fallback.FLAVOUR, else fallback): each probe
# program falls back (jited=0 fallback=1) exactly where the record says
# so, and returns what sk_run_filter() returns.  Probes: OP EXPECTED-RESULT PROGRAM (";" between
# instructions).
#   hatype: "ld hatype; ret a", 0 without skb->dev
#   mod:    "ld #7; mod #3; ret a", 1
if grep -qx oldjit "$KNOBS/engines"; then
	nojit=" $(engine_attr oldjit "fallback.$flavour" "$(engine_attr oldjit fallback)") "
	while read -r op want prog; do
		# one instruction a line, as the prog knob takes them
		set_knob prog "$(echo "$prog" | tr ';' '\n')"
		set_knob_file packet "$FILTERS/packets/tcp22-payload.hex"
		set_knob engine oldjit
		set_knob expect "$want"
		set_knob skbs 1
		if set_knob run 1; then line=$(cat "$KNOBS/result"); else line=""; fi
		case $nojit in
		*" $op "*) how="falls back to sk_run_filter()" pat=" verdict=$want jited=0 .* fallback=1 " ;;
		*) how="compiles" pat=" verdict=$want jited=1 .* fallback=0 " ;;
		esac
		check "guest: oldjit $how for $op on $flavour ($line)" \
			sh -c "echo '$line' | grep -q '$pat'"
	done <<-EOF
	hatype 0 { 0x20, 0, 0, 0xfffff01c },;{ 0x16, 0, 0, 0 },
	mod 1 { 0x00, 0, 0, 7 },;{ 0x94, 0, 0, 3 },;{ 0x16, 0, 0, 0 },
	EOF
fi

# A wrong expected verdict fails the run and clears the result.
set_knob_file prog "$FILTERS/fprog1.dd"
set_knob_file packet "$FILTERS/packets/tcp22-payload.hex"
set_knob engine new
set_knob expect 12345
if err=$(/bench/knob "$KNOBS/run" 1); then
	fail "guest: run with a wrong expect fails"
else
	pass "guest: run with a wrong expect fails ($err)"
fi
check "guest: a failed run leaves no result" sh -c "[ -z \"\$(cat $KNOBS/result)\" ]"


# Malformed writes: errno, and the previous value is untouched.
bad_write() { # knob value want-errno
	if why=$(write_refused "$1" "$2" "$3"); then
		pass "guest: $1 <- '$2' fails $3, value kept"
	else
		fail "guest: $1 <- '$2': $why"
	fi
}
set_knob skbs 7
set_knob samples 5
set_knob sample_us 1000
set_knob expect 262144
bad_write skbs 0 EINVAL
bad_write skbs 100001 EINVAL
bad_write skbs abc EINVAL
bad_write skbs -1 EINVAL
bad_write samples 0 EINVAL
bad_write samples 1001 EINVAL
bad_write sample_us 99 EINVAL
bad_write sample_us 1000001 EINVAL
bad_write expect x12 EINVAL
bad_write expect 4294967296 EINVAL
bad_write engine foo EINVAL
bad_write run 2 EINVAL
bad_write packet "zz" EINVAL
bad_write packet "0" EINVAL
# A frame under 14 bytes is for eval only (test_bpf's short frames): a
# timed run refuses it, and leaves no result.
if set_knob packet "00 11 22 33 44" && set_knob engine new; then
	err=$(/bench/knob "$KNOBS/run" 1) && err="errno=none"
else
	err="packet or engine write failed"
fi
check "guest: run on a 5-byte packet fails EINVAL ($err), no result" \
	sh -c "[ '$err' = errno=EINVAL ] && [ -z \"\$(cat $KNOBS/result)\" ]"
set_knob_file packet "$FILTERS/packets/tcp22-payload.hex"
# skb_meta: KEY=VALUE pairs, all or nothing.
set_knob skb_meta "mark=7 pkt_type=3"
bad_write skb_meta "mark" EINVAL
bad_write skb_meta "mark=1 mark=2" EINVAL
bad_write skb_meta "mark=1 colour=2" EINVAL
bad_write skb_meta "pkt_type=8" EINVAL
bad_write skb_meta "vlan_present=2" EINVAL
bad_write skb_meta "protocol=0x10000" EINVAL
bad_write skb_meta "ifindex=-1" EINVAL
bad_write skb_meta "hash=4294967296" EINVAL
check "guest: skb_meta kept 'pkt_type=3 mark=0x7'" grep -qx "pkt_type=3 mark=0x7" "$KNOBS/skb_meta"
set_knob skb_meta " "
check "guest: skb_meta of no pair restores the defaults" sh -c "[ -z \"\$(cat $KNOBS/skb_meta)\" ]"
bad_write prog "garbage" EINVAL
bad_write prog "{ 0x28, 0, 0, 0x0000000c }," EINVAL
bad_write prog "{ 0x15, 5, 0, 0x00000800 },
{ 0x6, 0, 0, 0x00040000 }," EINVAL
bad_write prog "{ 0x34, 0, 0, 0x00000000 },
{ 0x6, 0, 0, 0x00000000 }," EINVAL
check "guest: skbs kept 7" grep -qx 7 "$KNOBS/skbs"
check "guest: prog kept fprog1" sh -c "[ \"\$(cat $KNOBS/prog | wc -l)\" = \"$(wc -l < "$FILTERS/fprog1.dd")\" ]"

# Mixed traffic (frames, mix): the frame set validates; a run checks each
# call against its own frame's verdict, in the fixed shuffled order: every
# frame equally often (10000 skbs of 9 frames: the first 1112 times, the
# others 1111), and vm_insns is the mean over the skbs of the counts the
# one-packet cells above gave.
mix_frames fprog1 > /tmp/frames.ok
set_knob_file frames /tmp/frames.ok
bad_write frames "zz 0011" EINVAL
bad_write frames "262144" EINVAL
bad_write frames "262144 001122" EINVAL
bad_write frames "262144 0g" EINVAL
yes "$(head -1 /tmp/frames.ok)" | head -17 > /tmp/frames.17
err=$(/bench/knob "$KNOBS/frames" - < /tmp/frames.17) && err="errno=none"
check "guest: frames of 17 frames fails ($err), the 9 kept" \
	sh -c "[ '$err' = errno=E2BIG ] && [ \"\$(wc -l < $KNOBS/frames)\" = 9 ]"
bad_write mix 2 EINVAL
check "guest: frames kept the 9 frames of fprog1" sh -c "[ \"\$(wc -l < $KNOBS/frames)\" = 9 ]"
set_knob mix 1
set_knob skbs 10000
for e in $engines; do
	if [ "$(engine_attr "$e" checker 6.1)" = none ]; then
		err=$(/bench/knob "$KNOBS/engine" "$e" "$KNOBS/run" 1) && err="errno=none"
		check "guest: mix: $e, which runs no program, is refused (${err##* })" \
			sh -c "[ '${err##* }' = errno=EINVAL ]"
		continue
	fi
	line=
	if /bench/knob "$KNOBS/engine" "$e" "$KNOBS/run" 1 > /dev/null; then
		line=$(cat "$KNOBS/result")
	fi
	want=$(grep "^id=bench-$e-fprog1-.*-skbs1 " "$out/cells.txt" |
		awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			n = (v["packet"] == "tcp22-payload") ? 1112 : 1111; sum += n * v["vm_insns"] }
			END { q = int((sum * 1000 + 5000) / 10000)	# the module rounds so
				if (NR == 9) printf "%d.%03d", int(q / 1000), q % 1000 }')
	check "guest: mix: $e fprog1, 10000 skbs: 5556 accepted, vm_insns $want ($line)" \
		sh -c "echo ' $line ' | grep -q ' verdict=mix frames=9 accepted=5556 .* vm_insns=${want:-none} '"
done
# as many skbs as frames: each frame once
set_knob engine new
set_knob skbs 9
line=
if set_knob run 1; then line=$(cat "$KNOBS/result"); fi
check "guest: mix: 9 skbs of 9 frames hold each once: 5 accepted ($line)" \
	sh -c "echo ' $line ' | grep -q ' verdict=mix frames=9 accepted=5 '"
err=$(/bench/knob "$KNOBS/skbs" 8 "$KNOBS/run" 1) && err="errno=none"
check "guest: mix: fewer skbs than frames is refused (${err##* })" sh -c "[ '${err##* }' = errno=EINVAL ]"
# one frame's verdict wrong: the run fails and says which skb and verdict
sed '2s/^[0-9]* /7 /' /tmp/frames.ok > /tmp/frames.bad
set_knob_file frames /tmp/frames.bad
set_knob skbs 10000
dmesg -c > /dev/null
err=$(/bench/knob "$KNOBS/run" 1) && err="errno=none"
check "guest: mix: one frame's verdict wrong fails the run ($err), leaves no result, names the frame's verdict" \
	sh -c "[ '$err' = errno=EBADE ] && [ -z \"\$(cat $KNOBS/result)\" ] &&
		dmesg | grep -q 'new returned 262144 (0x40000) for skb [0-9]*, expected 7 (0x7)'"
printf '262144 %03030d\n' 0 > /tmp/frames.long	# 1515 zero bytes
err=$(/bench/knob "$KNOBS/frames" - < /tmp/frames.long) && err="errno=none"
check "guest: frames: a frame of 1515 bytes is refused ($err)" sh -c "[ '$err' = errno=E2BIG ]"
head -1 /tmp/frames.ok > /tmp/frames.one
set_knob_file frames /tmp/frames.one
err=$(/bench/knob "$KNOBS/run" 1) && err="errno=none"
check "guest: mix: a set of one frame is refused ($err)" sh -c "[ '$err' = errno=EINVAL ]"
set_knob frames " "
err=$(/bench/knob "$KNOBS/run" 1) && err="errno=none"
check "guest: mix: a run without a frame set is refused ($err)" sh -c "[ '$err' = errno=EINVAL ]"
set_knob mix 0

# Results parse: every key present and numeric, min <= median.
set_knob expect 262144
set_knob skbs 1
if line=$(cat "$KNOBS/result") && [ -z "$line" ] && set_knob run 1 && line=$(cat "$KNOBS/result"); then
	ok=1
	for k in engine skbs samples calls_per_sample min median mean stddev verdict jited insns image_bytes clock; do
		echo "$line" | grep -q "\(^\| \)$k=[^ ]" || ok=0
	done
	echo "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { exit !(v["min"] + 0 > 0 && v["min"] + 0 <= v["median"] + 0 && v["samples"] == 5) }' || ok=0
	if [ "$ok" = 1 ]; then pass "guest: result line parses ($line)"; else fail "guest: result line parses ($line)"; fi
else
	fail "guest: run after failed writes"
fi
if ! grep -qx old "$KNOBS/engines"; then bad_write engine old EOPNOTSUPP; fi

# The median's 95% CI: none with 5 samples, ranks 1 and 7 (98.4%) with 7.
check "guest: no CI with 5 samples" sh -c "! grep -q ci_lo= $KNOBS/result"
set_knob samples 7
if set_knob run 1 && line=$(cat "$KNOBS/result") &&
	echo "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { exit !(v["ci_level"] == "98.4" && v["ci_lo"] == v["min"] &&
			v["ci_lo"] + 0 <= v["median"] + 0 && v["median"] + 0 <= v["ci_hi"] + 0) }'; then
	pass "guest: 7 samples give a 98.4% CI from min to max around the median"
else
	fail "guest: 7 samples give a 98.4% CI from min to max around the median (${line:-})"
fi
# Placements: three runs, one line each, numbered, for mkcsv to combine.
set_knob samples 2
if line=$(BENCH_PLACEMENTS=3 run_cell new fprog1 tcp22-payload 1) &&
	[ "$(echo "$line" | grep -c '^id=bench-new-fprog1-tcp22-payload-skbs1 .* placements=3 .* samples=2 ')" = 3 ] &&
	[ "$(echo "$line" | sed -n 's/.* placement=\([0-9]*\) .*/\1/p' | tr '\n' ' ')" = "1 2 3 " ]; then
	pass "guest: 3 placements of 2 samples give 3 numbered lines"
else
	fail "guest: 3 placements of 2 samples give 3 numbered lines (${line:-})"
fi

# The quiet gate: a calibrated reference, then a cell that reports its waits.
if BENCH_GATE=1 gate_calibrate fprog1 tcp22-payload > /dev/null &&
	line=$(BENCH_GATE=1 BENCH_PLACEMENTS=2 run_cell new fprog1 tcp22-payload 1) &&
	echo "$line" | grep -q ' placements=2 .* gate_waits=[0-9][0-9]*$' &&
	[ "$(cat "$KNOBS/samples")" = 2 ]; then
	pass "guest: the quiet gate calibrates, counts its waits and restores samples"
else
	fail "guest: the quiet gate calibrates, counts its waits and restores samples (${line:-})"
fi

# perf (where the guest has it): counters and a report per cell, the JIT
# image's bare addresses folded into one named line.
if command -v perf > /dev/null; then
	PERF_OUT=/tmp/perf-check
	export PERF_OUT
	perf_setup
	set_knob sample_us 20000
	run_cell jit fprog2 tcp22-payload 1 > /dev/null || true
	cell=$PERF_OUT/bench-jit-fprog2-tcp22-payload-skbs1
	check "guest: perf stat of a cell counts task-clock" grep -q ',task-clock' "$cell.stat"
	check "guest: perf report names the JIT image and the harness loop" \
		sh -c "grep -q 'bpf jit image: [0-9]* addresses in 0x' '$cell.report' && grep -q 'bench_prog_loop' '$cell.report'"
	run_cell new fprog2 tcp22-payload 1 > /dev/null || true
	check "guest: perf report resolves ___bpf_prog_run" \
		grep -q '___bpf_prog_run' "$PERF_OUT/bench-new-fprog2-tcp22-payload-skbs1.report"
	unset PERF_OUT
	set_knob sample_us 200
fi

# The differential test of old vs new vs jit (eval knob, bpfdiff, fuzz).
/bench/plan-diff.sh "$out" || fail "guest: diff: plan-diff.sh ran to the end"
# lib/test_bpf.c's CLASSIC tests through every engine (plan-testbpf.sh).
/bench/plan-testbpf.sh "$out" || fail "guest: testbpf: plan-testbpf.sh ran to the end"
check "guest: bpf_bench unloads" rmmod bpf_bench

# The revived interpreter (sk_run_filter) and seccomp filters in the kernel:
# the classic engine's sysctl must exist (6.12's sysctl registration once
# refused it, and seccomp_engines left the engine out without a word).
if grep -q ' sk_run_filter$' /proc/kallsyms && [ -d /proc/sys/kernel/seccomp ]; then
	check "guest: seccomp: kernel.seccomp_classic_interp exists (the classic engine is measured)" \
		test -w "$SECCOMP_KNOB"
fi
# Seccomp: each filter allows and kills exactly what libseccomp says, under
# every engine (a forked child per case), and the timed call really runs
# the filter every time (its verdict still flips with the argument after
# 100000 allowed calls, which a per-syscall cache could not do).
for e in $(seccomp_engines); do
	seccomp_use "$e"
	while read -r f nr a0 want; do
		case "$f" in "#"*|"") continue ;; esac
		exp=$(seccomp_expect_class "$want")
		got=$(/bench/seccomp-bench --verdict "$SECCOMP/$f.bpf" "$nr" "$a0" 2>&1) || true
		case "$exp" in ALLOW) got=${got%% ret=*} ;; esac
		if [ "$got" = "$exp" ]; then
			pass "guest: seccomp $e $f syscall($nr, $a0) -> $want"
		else
			fail "guest: seccomp $e $f syscall($nr, $a0): got '$got', want '$exp'"
		fi
	done < "$SECCOMP/verdicts.txt"
	for f in short large; do
		if r=$(/bench/seccomp-bench --prove-uncached "$SECCOMP/$f.bpf" \
			"$SECCOMP_NR" "$SECCOMP_ARG" "$SECCOMP_DENY_ARG" 100000 2>&1) &&
			case "$r" in PROVEN*) true ;; *) false ;; esac; then
			pass "guest: seccomp $e $f: the timed call runs the filter every time"
		else
			fail "guest: seccomp $e $f: the timed call runs the filter every time ($r)"
		fi
	done
done
# A seccomp cell under perf: its files are named like the bench cells.
if command -v perf > /dev/null && seccomp_engines | grep -qx jit; then
	PERF_OUT=/tmp/perf-check
	export PERF_OUT
	seccomp_cell jit large 20000 1 > /dev/null || true
	cell=$PERF_OUT/seccomp-jit-large-nr199-skbs1
	check "guest: seccomp cell under perf stat and record" \
		sh -c "grep -q ',task-clock' '$cell.stat' && grep -q '%' '$cell.report'"
	unset PERF_OUT
fi
seccomp_use jit

# Paired mode (paired.sh): round_engines/rounds/run_rounds validate, and a
# run of every built-in engine gives parseable rounds with all of them.
# shellcheck source=/dev/null
. /bench/paired.sh
if load_bench_module; then
	all=$(tr '\n' , < "$KNOBS/engines" | sed 's/,$//')
	first=${all%%,*}
	set_knob samples 2
	set_knob sample_us 200
	set_knob round_engines "$all"
	set_knob rounds 4
	bad_write round_engines "$first,nosuch" EINVAL
	bad_write round_engines "$first,$first" EINVAL
	bad_write round_engines "$first" EINVAL
	bad_write round_engines "$first,,baseline" EINVAL
	if ! grep -qx old "$KNOBS/engines"; then bad_write round_engines "$first,old" EOPNOTSUPP; fi
	if ! grep -qx jit "$KNOBS/engines"; then bad_write round_engines "$first,jit" EOPNOTSUPP; fi
	bad_write rounds 0 EINVAL
	bad_write rounds 1001 EINVAL
	bad_write run_rounds 2 EINVAL
	check "guest: paired: round_engines kept $all" grep -qx "$all" "$KNOBS/round_engines"
	check "guest: paired: no rounds_result before a run" sh -c "[ -z \"\$(cat $KNOBS/rounds_result)\" ]"
	set_knob_file prog "$FILTERS/fprog1.dd"
	set_knob_file packet "$FILTERS/packets/tcp22-payload.hex"
	set_knob expect 1
	err=$(/bench/knob "$KNOBS/run_rounds" 1) && err="errno=none"
	check "guest: paired: a wrong expect fails EBADE ($err), no rounds_result" \
		sh -c "[ '$err' = errno=EBADE ] && [ -z \"\$(cat $KNOBS/rounds_result)\" ]"
	if lines=$(paired_cell fprog1 tcp22-payload 3 "$all" 7 2) &&
		echo "$lines" | awk -v all="$all" '
		BEGIN { k = split(all, e, ",") }
		/ round=/ {
			for (i = 1; i <= k; i++) {
				if (!match($0, " " e[i] "=[0-9]+\\.[0-9][0-9][0-9]( |$)")) exit 1
				v = substr($0, RSTART + length(e[i]) + 2, RLENGTH - length(e[i]) - 2) + 0
				if (v <= 0) exit 1
			}
			if ($0 !~ /^paired filter=fprog1 packet=tcp22-payload skbs=3 placement=[01] round=[0-6] /) exit 1
			n++
		}
		/ engines=/ { if ($0 !~ " engines=" all " rounds=7 order=rotate verdict=") exit 1; h++ }
		END { exit !(n == 14 && h == 2) }'; then
		pass "guest: paired: 2 placements x 7 rounds of $all parse, every engine in every round"
	else
		fail "guest: paired: 2 placements x 7 rounds of $all parse ($(echo "${lines:-}" | head -n 3))"
	fi
	rmmod bpf_bench || true
else
	fail "guest: paired: bpf_bench reloads"
fi
