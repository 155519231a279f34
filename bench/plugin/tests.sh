#!/bin/sh
# The branch and cache model (bpfmodel.so) on programs whose answers are
# known (modelcheck.c), run under QEMU's user-mode emulators with the
# plugin: x86-64 with core zen5, 32-bit ARM (Thumb) with core a15 of
# bench/cores.conf.  Each window's counters must fall within the bounds
# below.  Same plugin, same TCG as the system guests; no kernel booted.
# usage: tests.sh PLUGIN MODELCHECK_X86_64 MODELCHECK_ARM
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TEST_PREFIX="model: "
# shellcheck source=bench/host/testlib.sh
. "$here/../host/testlib.sh"
[ $# = 3 ] || { echo "usage: tests.sh PLUGIN MODELCHECK_X86_64 MODELCHECK_ARM" >&2; exit 2; }
plugin=$1

# window FILE NAME KEY: KEY of window NAME; its number comes from the
# program's own line "window=K name=NAME ..." (FILE.prog)
window() {
	k=$(sed -n "s/^window=\([0-9]*\) name=$2 .*/\1/p" "$1.prog")
	sed -n "s/^window=$k .* $3=\([0-9]*\).*/\1/p" "$1"
}

# within FILE NAME "EXPR" TEXT: awk EXPR over the window's counters (n:
# the program's iterations, acc: its loads) holds
within() {
	line=$(grep "^window=$(sed -n "s/^window=\([0-9]*\) name=$2 .*/\1/p" "$1.prog") " "$1")
	prog=$(grep " name=$2 " "$1.prog")
	echo "$prog $line" | awk -v e="$3" '
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	END {
		n = v["n"]; acc = v["accesses"]
		# none (fall-through) misses every taken branch: cond_taken
		if (e == "taken") ok = v["cond_miss"] <= 0.01 * n && v["cond_miss_bimodal"] <= 0.01 * n &&
			v["cond_miss_tage"] <= 0.01 * n && v["cond_taken"] >= 0.99 * n
		else if (e == "alternate") ok = v["cond_miss"] <= 0.02 * n && v["cond_miss_tage"] <= 0.02 * n &&
			v["cond_miss_bimodal"] >= 0.45 * n
		else if (e == "random") ok = v["cond_miss"] >= 0.4 * n && v["cond_miss"] <= 0.6 * n &&
			v["cond_miss_bimodal"] >= 0.4 * n && v["cond_miss_bimodal"] <= 0.6 * n &&
			v["cond_miss_tage"] >= 0.4 * n && v["cond_miss_tage"] <= 0.6 * n
		else if (e == "indirect") ok = v["ind"] >= n && v["ind_miss_btb"] >= 0.95 * n &&
			v["ind_miss"] <= 0.05 * n && v["ind_miss_ittage"] <= 0.05 * n
		# 8 x A, 8 x B: the BTB misses each change (1/8), the target
		# cache (last 4 targets) also after AAAA -> A (1/4), ITTAGE learns it
		else if (e == "indirect-long") ok = v["ind"] >= n && v["ind_miss_btb"] >= 0.12 * n &&
			v["ind_miss_btb"] <= 0.13 * n && v["ind_miss"] >= 0.24 * n && v["ind_miss"] <= 0.26 * n &&
			v["ind_miss_ittage"] <= 0.01 * n
		# the exit of a 24-iteration loop: gshare (16 bits) misses it, TAGE does not
		else if (e == "period") ok = v["cond_miss"] >= 0.03 * n && v["cond_miss_bimodal"] >= 0.03 * n &&
			v["cond_miss_tage"] <= 0.002 * n
		else if (e == "big") ok = v["l1d_acc"] >= acc && v["l1d_miss"] >= 0.95 * acc
		else if (e == "small") ok = v["l1d_acc"] >= acc && v["l1d_miss"] <= 0.01 * acc
		# per iteration 3.5 returns (4 kinds, predicated or not), an
		# indirect call, 4 conditional branches (3 predicated)
		else if (e == "arm-pred") ok = v["ret"] == 3.5 * n && v["ret_miss"] <= 0.001 * n &&
			v["ind"] == n && v["cond"] == 4 * n
		else if (e == "restart") ok = v["restarts"] == 1 && v["insns"] == 2 * n
		# the big stride missing a small L2: leading misses (l2_lead)
		else if (e == "lead-all") ok = v["l2_lead"] == v["l1d_miss"] && v["l2_lead"] >= 0.95 * acc
		else if (e == "lead-20") ok = v["l2_lead"] * 20 >= 0.95 * v["l1d_miss"] && v["l2_lead"] * 20 <= 1.05 * v["l1d_miss"]
		exit !ok
	}'
}

# run ARCH QEMU CORE BINARY
run() {
	arch=$1 qemu=$2 core=$3 bin=$4 out=$tmp/$1
	l1d=$("$here/core-args.sh" -k l1d "$core" | cut -d: -f1)
	if ! "$qemu" -plugin "$plugin,out=$out,$("$here/core-args.sh" "$core")" "$bin" "$l1d" > "$out.prog" 2> "$out.err"; then
		fail "$arch ($core): modelcheck ran under $qemu with the plugin: $(tail -n 1 "$out.err")"
		return
	fi
	windows=$(grep -c '^window=' "$out.prog")
	expect "$arch ($core): one counter line per window ($windows)" \
		test "$(grep -c '^window=' "$out")" = "$windows" -a "$windows" -ge 9
	expect "$arch ($core): an always-taken loop branch: <= 1% mispredicted after warm-up (gshare, bimodal, TAGE), >= 99% with no predictor" \
		within "$out" taken taken
	expect "$arch ($core): a branch alternating taken/not taken: gshare and TAGE learn it (<= 2%), bimodal does not (>= 45% of its runs)" \
		within "$out" alternate alternate
	expect "$arch ($core): a branch on an LFSR bit: 40-60% mispredicted by gshare, bimodal and TAGE" \
		within "$out" random random
	expect "$arch ($core): an indirect jump cycling over 4 targets: the last-target BTB misses >= 95%, the target cache and ITTAGE <= 5%" \
		within "$out" indirect indirect
	expect "$arch ($core): an indirect jump 8 times to A, 8 to B: BTB 12-13%, target cache (4 targets of path) 24-26%, ITTAGE <= 1%" \
		within "$out" indirect-long indirect-long
	expect "$arch ($core): the exit of a 24-iteration loop: gshare and bimodal miss it (>= 3% of the branches), TAGE <= 0.2%" \
		within "$out" period period
	expect "$arch ($core): a 64-byte stride over 4x the L1D: >= 95% of the loads miss" \
		within "$out" stride-big big
	expect "$arch ($core): the same within half the L1D, warmed outside any window: <= 1% miss" \
		within "$out" stride-small small
	expect "$arch ($core): a start marker inside an open window is counted (restarts=1), not obeyed (the window counts from the first)" \
		within "$out" restart restart
	# shellcheck disable=SC2016
	expect "$arch ($core): a function retranslated 1000 times shares its instruction records (translations - records >= 1000)" \
		awk '/^end / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		     END { exit !(v["insn_translations"] - v["insn_records"] >= 1000) }' "$out"
	if [ "$arch" = arm ]; then
		expect "$arch ($core): ARM-state bxeq lr, popne {r4, pc}, ldr pc, [sp], #4 are returns, blx r9 an indirect call, the predicated ones conditional branches; no return mispredicted" \
			within "$out" arm-pred arm-pred
	fi
	expect "$arch ($core): counts nothing outside the windows (the taken loop: 2 instructions per iteration)" \
		test "$(window "$out" taken insns)" = "$(($(window "$out" taken cond) * 2))"
}

run x86_64 qemu-x86_64 zen5 "$2"
run arm qemu-arm a15 "$3"

# Several cores side by side (core=NAME, accels.conf model_also): each
# core's lines are those of a plugin modelling it alone.
qemu-x86_64 -plugin "$plugin,out=$tmp/two,core=zen5,$("$here/core-args.sh" zen5),core=a15,$("$here/core-args.sh" a15)" \
	"$2" 49152 > /dev/null 2>&1 || true
for c in zen5 a15; do
	qemu-x86_64 -plugin "$plugin,out=$tmp/one-$c,core=$c,$("$here/core-args.sh" "$c")" "$2" 49152 > /dev/null 2>&1 || true
	expect "two cores in one run: $c's window lines are those of $c modelled alone" \
		test -s "$tmp/one-$c" -a "$(grep "^window=.* core=$c " "$tmp/two")" = "$(grep '^window=' "$tmp/one-$c")"
done
# The reorder buffer's overlap of misses beyond the L2 (l2_lead): the big
# stride with an L2 of 64 KiB (every load misses it) and 5 instructions a
# load: with rob=1 every data miss leads; with rob=100 one in 20 does.
for rob in 1 100; do
	qemu-x86_64 -plugin "$plugin,out=$tmp/lead$rob,$("$here/core-args.sh" zen5),l2=65536:4:64,rob=$rob" \
		"$2" 49152 > "$tmp/lead$rob.prog" 2> /dev/null || true
done
expect "rob=1: every load of the big stride misses an L2 of 64 KiB and leads (l2_lead = l1d_miss >= 95% of the loads)" \
	within "$tmp/lead1" stride-big lead-all
expect "rob=100: one data miss in 20 leads (5 instructions a load; l2_lead = l1d_miss / 20 +-5%)" \
	within "$tmp/lead100" stride-big lead-20

# profile=: a line per instruction a window executed, the input of mcabase
qemu-x86_64 -plugin "$plugin,out=$tmp/pw,profile=$tmp/pw.prof,$("$here/core-args.sh" zen5)" \
	"$2" 49152 > "$tmp/pw.prog" 2> /dev/null || true
# shellcheck disable=SC2016
expect "profile=: each window's executions sum to its insns= (every window)" \
	awk -v prof="$tmp/pw.prof" '
	BEGIN { while ((getline l < prof) > 0) { split(l, f, /[ =]/); sum[f[2]] += f[8] } }
	/^window=/ { split($0, f, /[ =]/); n++; if (sum[f[2]] != f[8]) bad++ }
	END { exit bad || n < 9 }' "$tmp/pw"
k=$(sed -n 's/^window=\([0-9]*\) name=taken .*/\1/p' "$tmp/pw.prog")
expect "profile=: the taken loop's window is its two instructions, 20000 times each, the second a branch taken all but once" \
	test "$(grep "^window=$k " "$tmp/pw.prof" | sed 's/ addr=[0-9a-f]* size=[0-9]*//; s/ insn=.*//')" = \
	"$(printf 'window=%s count=20000 branch=0 taken=0\nwindow=%s count=20000 branch=1 taken=19999' "$k" "$k")"

# The interval model's base cost (mcabase, llvm-mca-19) on profiles whose
# answers are known: 4 independent 1-cycle adds a block (1 cycle an
# execution), a chain of 4 imuls (3 cycles each), two blocks of other
# counts in one window, an instruction llvm-mca cannot parse (dropped,
# counted), and the line of another core untouched.
mcabase=$(dirname "$plugin")/mcabase
cat > "$tmp/prof" << 'PROF'
window=0 addr=1000 size=3 count=1000 branch=0 taken=0 insn=addq $1, %rax
window=0 addr=1003 size=3 count=1000 branch=0 taken=0 insn=addq $1, %rbx
window=0 addr=1006 size=3 count=1000 branch=0 taken=0 insn=addq $1, %rcx
window=0 addr=1009 size=3 count=1000 branch=0 taken=0 insn=addq $1, %rdx
window=1 addr=2000 size=4 count=1000 branch=0 taken=0 insn=imulq %rax, %rax
window=1 addr=2004 size=4 count=1000 branch=0 taken=0 insn=imulq %rax, %rax
window=1 addr=2008 size=4 count=1000 branch=0 taken=0 insn=imulq %rax, %rax
window=1 addr=200c size=4 count=1000 branch=0 taken=0 insn=imulq %rax, %rax
window=2 addr=3000 size=4 count=500 branch=0 taken=0 insn=frobq %rax
window=2 addr=3004 size=3 count=500 branch=0 taken=0 insn=addq $1, %rax
window=3 addr=4000 size=4 count=100 branch=0 taken=0 insn=imulq %rax, %rax
window=3 addr=4004 size=2 count=100 branch=1 taken=99 insn=jne 0x4000
window=3 addr=5000 size=4 count=10 branch=0 taken=0 insn=imulq %rbx, %rbx
PROF
for w in 0 1 2 3; do
	echo "window=$w core=zen5 arch=x86_64 insns=1 restarts=0"
	echo "window=$w core=a15 arch=x86_64 insns=1 restarts=0"
done > "$tmp/model"
# base W: window W's base= of core zen5
base() {
	sed -n "s/^window=$1 core=zen5 .* base=\([0-9.]*\) base_dropped=\([0-9]*\)$/\1 \2/p" "$tmp/model"
}
# near W CYCLES DROPPED: window W costs CYCLES +-10%, DROPPED dropped
near() {
	base "$1" | awk -v c="$2" -v d="$3" '{ exit !($1 >= 0.9 * c && $1 <= 1.1 * c && $2 == d) }'
}
expect "mcabase: adds a base to each window line of its core" \
	sh -c "'$mcabase' zen5 znver5 '$tmp/prof' '$tmp/model' && test \$(grep -c ' base=' '$tmp/model') = 4"
expect "mcabase: 4 independent adds, 1000 times: 1000 cycles (+-10%) on znver5" near 0 1000 0
expect "mcabase: a chain of 4 imuls, 1000 times: 12000 cycles (3 each, +-10%)" near 1 12000 0
expect "mcabase: an instruction llvm-mca cannot parse is dropped and counted (500 executions)" near 2 500 500
expect "mcabase: blocks of 100 and 10 executions in one window: 330 cycles (3 an imul, +-10%)" near 3 330 0
expect "mcabase: another core's lines are left as they were" \
	test "$(grep -c '^window=[0-9] core=a15 arch=x86_64 insns=1 restarts=0$' "$tmp/model")" = 4
expect "mcabase: refuses to add a second base" \
	sh -c "! '$mcabase' zen5 znver5 '$tmp/prof' '$tmp/model' 2> '$tmp/err' && grep -q 'have a base= already' '$tmp/err'"
printf '%s\n' 'window=0 addr=1000 size=1 count=1000 branch=0 taken=0 insn=nop' \
	'window=0 addr=1001 size=2 count=1000 branch=1 taken=1000 insn=jmp 0x1000' \
	'window=1 addr=2000 size=1 count=1000 branch=0 taken=0 insn=nop' \
	'window=1 addr=2001 size=2 count=1000 branch=1 taken=0 insn=jne 0x3000' > "$tmp/prof-t"
printf 'window=%s core=glc arch=x86_64 insns=1 restarts=0\n' 0 1 > "$tmp/model-t"
# shellcheck disable=SC2016
expect "mcabase -t 2: an execution that branches away costs at least 2 cycles (nop; jmp, 1000 times: 2000), one that falls through llvm-mca's cost (nop; jne not taken: under 1000)" \
	sh -c "'$mcabase' -t 2 glc sapphirerapids '$tmp/prof-t' '$tmp/model-t' && grep -q '^window=0 .* base=2000.0 base_dropped=0$' '$tmp/model-t' &&
		awk '/^window=1 / { sub(/.* base=/, \"\"); exit !(\$1 + 0 > 0 && \$1 + 0 < 1000) }' '$tmp/model-t'"
echo "window=9 core=glc arch=x86_64 insns=1 restarts=0" > "$tmp/model9"
expect "mcabase: refuses a window the profile has no instruction of, naming it" \
	sh -c "! '$mcabase' glc sapphirerapids '$tmp/prof' '$tmp/model9' 2> '$tmp/err' && grep -q 'no instruction of window 9' '$tmp/err'"
expect "mcabase: without llvm-mca it fails naming the package (llvm-19)" \
	sh -c "! TMPDIR='$tmp' '$mcabase' -l '$tmp/no-llvm-mca' glc sapphirerapids '$tmp/prof-t' '$tmp/model9' 2> '$tmp/err' && grep -q 'apt-get install llvm-19' '$tmp/err'"
echo "window=0 addr=zz" > "$tmp/badprof"
expect "mcabase: refuses a line that is no profile line, naming file:line" \
	sh -c "! '$mcabase' glc sapphirerapids '$tmp/badprof' '$tmp/model9' 2> '$tmp/err' && grep -q 'badprof:1: not a profile line' '$tmp/err'"

# Bad arguments are refused by name, before the guest runs.
# shellcheck disable=SC2016
expect "the plugin refuses an unknown argument, naming it" \
	sh -c 'qemu-x86_64 -plugin "$1,out=$2/x,l1x=1" "$3" 4096 2>&1 | grep -q "unknown argument .l1x."' sh "$plugin" "$tmp" "$2"
# shellcheck disable=SC2016
expect "the plugin refuses a cache of no power-of-2 line" \
	sh -c 'qemu-x86_64 -plugin "$1,out=$2/x,l1d=32768:8:48" "$3" 4096 2>&1 | grep -q "l1d=32768:8:48: want SIZE:WAYS:LINE"' sh "$plugin" "$tmp" "$2"
# shellcheck disable=SC2016
expect "the plugin refuses a TAGE of 0 tables" \
	sh -c 'qemu-x86_64 -plugin "$1,out=$2/x,tage=0:10:640" "$3" 4096 2>&1 | grep -q "tage=0:10:640: want TABLES:BITS:LONGEST"' sh "$plugin" "$tmp" "$2"
test_summary
