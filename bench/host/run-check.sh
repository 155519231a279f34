#!/bin/bash
# make check: host tests, build, in-guest tests, and the icount
# reproducibility checks.  Every test prints one "PASS: ..." or "FAIL: ..."
# line; the last line is "N passed, N failed".
#
# usage: run-check.sh TOP BUILD
# env:   CHECK_KERNELS (trees of bench/kernels.conf besides the default to
#        build and boot under their check accelerators, default every one
#        with a check key, "none" for none),
#        CHECK_ACCELS (accelerators for the in-guest tests, default those
#        whose bench/accels.conf record says check 1: one per flavour),
#        CHECK_DEBUG (0: not the debug kernel and its short campaign,
#        default 1; make fuzz runs the long one), CHECK_DEBIAN (1: build
#        the Debian-configuration kernel and boot it, default 0),
#        CHECK_JOBS (guests and other single-threaded tests run at a time,
#        default nproc)
set -eu

top=$1 build=$2
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# ACCEL[@KERNEL]: the accelerator on the default tree's kernel, or on
# another tree's of bench/kernels.conf (build/kernel-<KERNEL>/).
accel_of() { echo "${1%@*}"; }
kout_of() { case "$1" in *@*) kernel_out "$build" "${1#*@}" ;; *) echo "$build" ;; esac; }
kernel_of() { flavour_kernel "$(kout_of "$1")" "$(accel_flavour "$(accel_of "$1")")"; }
initrd_of() { echo "$(kout_of "$1")/initramfs-$(accel_flavour "$(accel_of "$1")").cpio.gz"; }
why=$(check_kernels_check) || { echo "[check] $why" >&2; exit 2; }
mkdir -p "$build"
log=$build/check.log
out=$build/check.out
: > "$log"
cd "$top"
# The one test protocol (testlib.sh); every line also into the log, whose
# PASS:/FAIL: lines, those of every sub-suite included, summary counts.
# shellcheck disable=SC2034 # read by testlib.sh
TEST_LOG=$log TEST_TMP=0
# shellcheck source=bench/host/testlib.sh
. "$here/testlib.sh"

t0=$(date +%s)
stage() { echo "[check] $* (at $(( $(date +%s) - t0 )) s)"; }
# t NAME COMMAND...: one test from one command's exit status.
t() {
	name=$1; shift
	if "$@" > "$out" 2>&1; then
		pass "$name"
	else
		fail "$name"
		tail -n 15 "$out" | sed 's/^/    /'
	fi
}
# test_lines: the PASS/FAIL lines of a sub-suite (a job's, collected later).
test_lines() { grep -E '^(PASS|FAIL): ' || true; }
# collect: keep the PASS/FAIL lines of a sub-suite.
collect() { test_lines | tee -a "$log"; }
summary() {
	p=$(grep -c '^PASS: ' "$log" || true)
	f=$(grep -c '^FAIL: ' "$log" || true)
	echo "$p passed, $f failed"
	[ "$f" = 0 ]
}

# Jobs: the host tests beside the build (stage 1), and every guest boot
# and the other long single-threaded tests (stage 3) are independent jobs
# (own output directory, own files): CHECK_JOBS of them at a time in stage
# 3 (default: one per core; a guest is one QEMU or UML thread).
# A job's PASS/FAIL lines go to its own file and are collected in the
# order the jobs were listed, so the log does not depend on which job
# finished first.
jobs_dir=$build/check-jobs
rm -rf "$jobs_dir"
mkdir -p "$jobs_dir"
njobs=${CHECK_JOBS:-$(nproc)}
case "$njobs" in '' | *[!0-9]* | 0) echo "[check] CHECK_JOBS=$njobs: not a positive number" >&2; exit 2 ;; esac
declare -A job_name=() job_start=() job_slot=() job_took=()
job_list="" job_total=0 job_done=0
# Each running job holds a slot, and each slot one CPU of those this
# process may run on (slot i: the i-th, modulo their count): a job whose
# guests pin (accels.conf pin 1: the timed accelerators) pins them to its
# slot's CPU (PIN_CPU), so two jobs side by side never share one CPU
# while another idles (make bench pins its one timed guest to the last).
read -ra pool_cpus <<< "$("$here/pool-cpus.sh" list)"
declare -a slot_pid=()
# free_slot: the lowest slot no running job holds.
free_slot() {
	local i=0
	while [ -n "${slot_pid[$i]:-}" ]; do i=$((i + 1)); done
	echo "$i"
}
# reap: wait for one job to end and say so, with the time it ended (the
# job writes NAME.end: the host tests' job is reaped long after).
reap() {
	local pid rc=0 end
	# one of the jobs only: another tree's kernels also compile in the
	# background (tree_build), and their end is waited for by pid
	wait -n -p pid "${!job_name[@]}" || rc=$?
	job_done=$((job_done + 1))
	echo "$rc" > "$jobs_dir/${job_name[$pid]}.rc"
	end=$(cat "$jobs_dir/${job_name[$pid]}.end" 2> /dev/null || date +%s)
	job_took[${job_name[$pid]}]=$((end - job_start[$pid]))
	echo "[check] job ${job_name[$pid]} ended in $((end - job_start[$pid])) s, exit $rc ($job_done/$job_total done, at $((end - t0)) s)"
	unset "slot_pid[${job_slot[$pid]}]" "job_name[$pid]" "job_start[$pid]" "job_slot[$pid]"
}
# job NAME FUNCTION ARGS...: FUNCTION's stdout (PASS/FAIL lines) to
# NAME.out, everything else it prints to NAME.log.
job() {
	local name=$1 slot cpu
	shift
	while [ "${#job_name[@]}" -ge "$njobs" ]; do reap; done
	slot=$(free_slot)
	cpu=${pool_cpus[$((slot % ${#pool_cpus[@]}))]}
	echo "$cpu" > "$jobs_dir/$name.cpu"
	# TEST_LOG and out are read by testlib.sh and t; the .end file is named
	# now, not on exit (t sets its own $name)
	# shellcheck disable=SC2034,SC2064
	( trap "date +%s > '$jobs_dir/$name.end'" EXIT; PIN_CPU=$cpu TEST_LOG='' out=$jobs_dir/$name.cmd "$@" ) > "$jobs_dir/$name.out" 2> "$jobs_dir/$name.log" &
	job_name[$!]=$name
	job_start[$!]=$(date +%s)
	job_slot[$!]=$slot
	slot_pid[slot]=$!
	echo "[check] job $name started (slot $slot, host cpu $cpu)"
}
# collect_job NAME: its PASS/FAIL lines into the log; the end of its
# output under a failure.
collect_job() {
	collect < "$jobs_dir/$1.out"
	# a job that died without saying why
	if [ "$(cat "$jobs_dir/$1.rc")" != 0 ] && ! grep -q "^FAIL: " "$jobs_dir/$1.out"; then
		fail "check: job $1 exited with status $(cat "$jobs_dir/$1.rc") and no failed test"
	fi
	if grep -q '^FAIL: ' "$jobs_dir/$1.out"; then
		echo "    (job $1, last lines of $jobs_dir/$1.log:)"
		tail -n 15 "$jobs_dir/$1.log" | sed 's/^/    /'
	fi
}

stage "1/5 host tests: shell scripts, filters, result formatting (the filters here, the rest beside stage 2)"
make -s tools > "$out" 2>&1 || { cat "$out"; fail "host: build tools"; summary; }
# The estimates: bench/times.conf's figures scaled to this host by its
# control loop, the pool's jobs as an earlier make check measured them on
# a host of this CPUID (written after the pool into HOST_TIMES_DIR, default
# ~/.cache/bpf-rework-bench: every clone reads it, as ccache).
host_speed_probe "$build/tools/control"
host_times=${HOST_TIMES_DIR:-${XDG_CACHE_HOME:-${HOME:-$build}/.cache}/bpf-rework-bench}/host-times-$(host_cpu_id | tr ' ' '-').conf
echo "[check] host $(host_cpu_id): ${HOST_SPEED:-no control loop: the times as measured}"
# the registries first: a broken record or reference stops make check here (FILE:LINE)
if "$build/tools/regcheck" > "$out" 2>&1; then
	pass "host: registries: every record has its keys, every reference resolves (results/regcheck)"
else
	cat "$out"
	fail "host: registries: a broken record or reference (results/regcheck, FILE:LINE above)"
	summary
fi
# the branch and cache model's plugin and validation programs (arm: cross)
if make -s model-tools > "$out" 2>&1; then
	pass "host: build the QEMU plugin bpfmodel.so (its qemu_plugin_* calls exported by qemu-system-x86_64 and -arm) and modelcheck"
else
	cat "$out"
	fail "host: build the QEMU plugin bpfmodel.so and modelcheck"
fi
# host_tests: the host tests that read only the committed files, the host
# tools and scratch directories of their own; a job beside the build (its
# lines are collected before stage 3).
host_tests() {
	# shellcheck disable=SC2046
	t "host: shellcheck on every shell script" shellcheck -x \
		$(find bench filters results plots kernel-patches .ci -type f \( -name '*.sh' -o -name run \) 2>/dev/null)
	# the pool check fails on 9284453's pinning (two guests on one CPU)
	t "host: pool-cpus.sh check fails on two guests pinned to one CPU while the other idles" \
		sh -c "! '$here/pool-cpus.sh' check '$here/fixtures/pool-cpus/one-cpu.txt'"
	t "host: pool-cpus.sh check passes the same guests on one CPU each" \
		"$here/pool-cpus.sh" check "$here/fixtures/pool-cpus/two-cpus.txt"
	# Each suite prints its PASS/FAIL lines and exits non-zero on a FAIL:
	# every suite runs whatever the one before it found.
	{
		"$top/bench/guest/tests.sh" "$build/tools" || true
		# knobfuzz's model of the module's parsers, against the documented errors
		ENGINES_CONF="$top/bench/engines.conf" "$build/tools/knobfuzz" -T || true
		"$top/bench/plugin/tests.sh" "$build/tools/bpfmodel.so" "$build/tools/modelcheck" \
			"$build/tools-arm/modelcheck" || true
		"$top/results/tests.sh" "$build/tools" || true
		"$top/results/tests-cover.sh" "$build/tools" || true
		"$top/results/tests-paired.sh" "$build/tools" || true
		"$top/results/tests-compare.sh" "$build/tools" || true
		"$top/results/tests-model.sh" "$build/tools" || true
		"$top/results/tests-pmu.sh" "$build/tools" || true
		"$top/results/tests-registry.sh" "$build/tools" || true
		"$here/tests-badinput.sh" "$top" "$build/tools" || true
		# the capture workload's input checks and frames files
		"$here/tests-capture.sh" "$top" "$build" host || true
		# the estimates scaled to this host (its control loop)
		"$here/tests-estimate.sh" "$top" || true
		# a made-up architecture added by records only (fixtures/arch)
		"$here/tests-arch.sh" "$top" "$build/tools" || true
		# the kernel trees (KERNEL=6.1|6.12) by their records
		"$here/tests-kernels.sh" "$top" || true
		# the 6.12 series against 6.1's: every difference a recorded port difference
		"$top/kernel-patches/tests-port.sh" "$top" || true
		# README.md and docs/ name only files, targets and columns that exist
		"$here/tests-docs.sh" "$top" || true
	} | test_lines
}
job_total=1
job host host_tests
# The filters' tests regenerate into build/filters, build/seccomp and
# build/diff, which the build's own `make filters` rewrites: before it.
make -s -C filters check 2>&1 | collect
make -s -C filters/seccomp check 2>&1 | collect
make -s -C filters/diff check 2>&1 | collect

stage "2/5 build: tree, kernels of every flavour side by side ($(nproc) job slots shared), modules, initramfs (bench/times.conf build_s: each alone, with an empty ccache)"
# One make for every flavour (the debug kernel too, unless CHECK_DEBUG=0:
# CI exercises the module under the sanitizers, docs/build-times.md):
# the kernels share its job slots (build-kernel.sh), so one's link runs
# while another compiles.  -k: a flavour that fails to build does not stop
# the others; each is judged by the initramfs it wrote.
build_flavours=$DEFAULT_FLAVOURS
[ "${CHECK_DEBUG:-1}" != 1 ] || build_flavours="$build_flavours debug"
[ "${CHECK_DEBIAN:-0}" != 1 ] || build_flavours="$build_flavours x86_64-debian"
# The longest first (build_s), so that the last to end is a short one.
build_flavours=$(for f in $build_flavours; do echo "$(flavour_attr "$f" build_s 2> /dev/null || echo 0) $f"; done |
	sort -s -k1,1nr | cut -d" " -f2 | tr "\n" " ")
rc=$build/check.rc
started=$build/check.started
touch "$started"
# tree_sanitize K: tree K's debug accelerators make check boots (its
# record's sanitize; none with CHECK_DEBUG=0).
tree_sanitize() { [ "${CHECK_DEBUG:-1}" != 1 ] || kernel_attr "$1" sanitize 2> /dev/null || true; }
# tree_flavours K: the flavours of tree K's check and sanitize accelerators.
tree_flavours() { for a in $(kernel_attr "$1" check) $(tree_sanitize "$1"); do accel_flavour "$a"; done | sort -u | tr '\n' ' '; }
# The other trees' kernels (CHECK_KERNELS) compile beside the default
# tree's, in a make of their own: their jobs fill the others' single-
# threaded links, modpost and tree extraction.  Their modules and
# initramfs, which share the tools, come after the default tree's build.
# The build's estimate: every kernel's build_s, each alone on 2 cores with
# an empty ccache (side by side they share the cores), scaled to this host.
est=0
for f in $build_flavours; do est=$((est + $(flavour_attr "$f" build_s 2> /dev/null || echo 0))); done
for k in $(check_kernels); do
	for f in $(tree_flavours "$k"); do est=$((est + $(flavour_attr "$f" build_s 2> /dev/null || echo 0))); done
done
est=$((est * 2 / $(nproc)))
echo "[check] estimate: the kernels ~$(((est + 59) / 60)) min with an empty ccache (much less with hits; measured on 2 cores, this host has $(nproc))"
# What the build stage took in the last make check on a host of this
# CPUID (host_times' build record, with its share of ccache hits): the
# control loop's scale does not say how fast a host compiles.
if last=$(conf_get "$host_times" build stage build_s 2> /dev/null); then
	echo "[check] the build stage took $(((last + 59) / 60)) min in the last make check on a host of this CPUID, $(conf_get "$host_times" build stage ccache_hit_pct 2> /dev/null || echo "?")% of its compiles ccache hits ($host_times)"
fi
# ccache_counts: the hits and misses ccache has counted so far, "HITS MISSES"
ccache_counts() {
	ccache --print-stats 2> /dev/null | awk -F'\t' '
		$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
		$1 == "cache_miss" { m += $2 }
		END { print h + 0, m + 0 }'
}
build_t0=$(date +%s) build_cc0=$(ccache_counts)
declare -A tree_build=()
for k in $(check_kernels); do
	# shellcheck disable=SC2046 # a word list
	make -s -k -j"$(nproc)" KERNEL="$k" $(for f in $(tree_flavours "$k"); do echo "kernel-$f"; done) \
		> "$build/check-kernels-$k.log" 2>&1 &
	tree_build[$k]=$!
	echo "[check] tree $k: its kernels compile beside ($build/check-kernels-$k.log)"
done
# shellcheck disable=SC2046 # a word list
{ make -s -k -j"$(nproc)" $(for f in $build_flavours; do echo "initramfs-$f"; done) 2>&1; echo $? > "$rc"; } | tee "$out"
# The host tests' lines first (that job ended long before the build).
while [ "${#job_name[@]}" -gt 0 ]; do reap; done
collect_job host
built=""
for f in $build_flavours; do
	if [ "$build/initramfs-$f.cpio.gz" -nt "$started" ]; then
		pass "build: $f: kernel, module and initramfs"
		built="$built $f"
	else
		fail "build: $f: kernel, module and initramfs"
	fi
done
[ "$(cat "$rc")" = 0 ] || fail "build: make -k of every flavour's initramfs exited $(cat "$rc")"
# The other trees make check boots (CHECK_KERNELS): the
# flavours of their accelerators, after the default tree's (their builds
# share nothing but the tools and filters, which that one made).
for k in $(check_kernels); do
	fl=$(tree_flavours "$k")
	kr="compiled beside"
	wait "${tree_build[$k]}" || kr="failed beside ($build/check-kernels-$k.log), made again"
	stage "2/5 build: tree $k ($(kernel_attr "$k" package)), flavours $fl (kernels $kr)"
	touch "$started"
	# shellcheck disable=SC2046 # a word list
	make -s -k -j"$(nproc)" KERNEL="$k" $(for f in $fl; do echo "initramfs-$f"; done) 2>&1 | tee "$out"
	for f in $fl; do
		t "build: $f on tree $k: kernel, module and initramfs" test "$(kernel_out "$build" "$k")/initramfs-$f.cpio.gz" -nt "$started"
	done
done
# the build stage's time and ccache hits, for the next estimate here
build_s=$(($(date +%s) - build_t0))
build_hit_pct=$(echo "$build_cc0 $(ccache_counts)" | awk '{ h = $3 - $1; m = $4 - $2; print h + m ? int(100 * h / (h + m) + 0.5) : 0 }')
# is_built FLAVOUR: its initramfs was written by this make check.
is_built() { case " $built " in *" $1 "*) return 0 ;; esac; return 1; }
# Every guest but the debug one needs its flavour (the icount runs and
# perf32 x86_64's): stop here unless all were built.
for f in $DEFAULT_FLAVOURS; do
	is_built "$f" || { summary; exit 1; }
done

# build_checks: what reads the tree and the built objects, single-threaded,
# run as one job of stage 3.
build_checks() {
	# lib/test_bpf.c's CLASSIC tests as cut from the tree.
	make -s -C filters/testbpf check 2>&1 | test_lines
	local f p p5
	for f in $DEFAULT_FLAVOURS; do
		t "build: bench module for $f is W=1 warning-free" \
			sh -c "make -s -C '$build/obj-$f' ARCH=$(flavour_attr "$f" arch) $(flavour_attr "$f" cross | sed 's/^-$//; s/./CROSS_COMPILE=&/') M='$build/module-$f' W=1 clean modules 2>&1 | tee /dev/stderr | (! grep -q 'warning:')"
	done
	# build-kernel.sh's nm (kernel-nm.sh: gcc's LTO plugin only) must list
	# what the toolchain's plain nm lists, on objects kbuild ran it on.
	local cross nm o
	for f in $DEFAULT_FLAVOURS; do
		cross=$(flavour_attr "$f" cross | sed 's/^-$//')
		nm=$("$here/kernel-nm.sh" "$cross")
		for o in net/core/filter.o kernel/bpf/core.o; do
			t "build: $f: kbuild's nm ($nm) lists $o's symbols as ${cross}nm does" \
				sh -c "[ -s '$build/obj-$f/$o' ] && $nm '$build/obj-$f/$o' > '$build/nm-plugin.txt' &&
					${cross}nm '$build/obj-$f/$o' > '$build/nm-plain.txt' &&
					[ -s '$build/nm-plain.txt' ] && cmp -s '$build/nm-plain.txt' '$build/nm-plugin.txt'"
		done
	done
	# checkpatch --strict on every patch; kernel-patches/checkpatch-exceptions
	# lists the only reports accepted (upstream code a patch moves), and a
	# report outside it must fail.
	for p in "$top"/kernel-patches/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$p" ] || continue
		case "$p" in */0000-*) continue ;; esac
		t "build: checkpatch --strict $(basename "$p")" \
			"$top/kernel-patches/checkpatch.sh" "$build/linux" "$p"
	done
	for p5 in "$top"/kernel-patches/0005-*.patch; do
		[ -f "$p5" ] || continue
		cp "$p5" "$build/0099-exceptions-are-per-patch.patch"
		t "build: checkpatch.sh fails on reports no exception covers" \
			sh -c "! '$top/kernel-patches/checkpatch.sh' '$build/linux' '$build/0099-exceptions-are-per-patch.patch'"
	done
	# Engine new is unperturbed by the patch that adds new2014: its
	# interpreter compiles to the same code before and after it.
	t "build: the 6.1 interpreter (engine new) compiles to the same code with and without 0005" \
		"$top/kernel-patches/cmp-interp-code.sh" "$build/linux" "$build/obj-x86_64" "$build/cmp-interp-code"
	t "build: checkpatch --strict bench/module" \
		sh -c "perl '$build/linux/scripts/checkpatch.pl' --strict -q --no-tree -f '$top'/bench/module/*.c 2>/dev/null | (! grep -E '^(ERROR|WARNING|CHECK)')"
}

# check_guest ACCEL: the check plan, and the engines' verdicts on the
# tcpdump corpus against libpcap's bpf_filter().
check_guest() {
	local a=$1
	rm -rf "$build/check-$a"
	# shellcheck disable=SC2046 # its check_args are words
	if TIMEOUT=900 "$here/run-guest.sh" "$(accel_of "$a")" check "$build/check-$a" "$(kernel_of "$a")" "$(initrd_of "$a")" \
		$(accel_attr "$(accel_of "$a")" check_args 2> /dev/null || true) >&2; then
		pass "guest($a): check plan ran to the end"
	else
		fail "guest($a): check plan ran to the end"
	fi
	sed -n "s/^\(PASS\|FAIL\): guest:/\1: guest($a):/p" "$build/check-$a/tests.txt" 2>/dev/null || true
	if [ -f "$build/check-$a/diff-tcpdump.txt" ]; then
		"$build/diff/pcapdiff" filters/diff/programs.dd filters/diff/packets.txt \
			"$build/check-$a/diff-tcpdump.txt" "$a" > "$build/check-$a/pcapdiff.txt" 2>&1 || true
		test_lines < "$build/check-$a/pcapdiff.txt"
	else
		fail "host($a): the guest wrote diff-tcpdump.txt for the libpcap comparison"
	fi
}

# counted_run ACCEL N PLAN_OPTION...: the bench plan under a counted
# accelerator, shortened by the options, run N of two; the two runs are
# compared after the jobs, their paired ratios too unless bench.paired=0.
counted_run() {
	local a=$1 i=$2 d=$build/check-$1-$2 k=$KERNEL_DEFAULT
	shift 2
	case "$i" in *@*) k=${i#*@} ;; esac
	rm -rf "$d"
	mkdir -p "$d/$a"
	printf 'run_id=check-%s-%s\nkernel=%s\ndebian_version=check\nconfig_hash=check\nseries_hash=check\n' "$a" "$i" "$k" > "$d/run.txt"
	accel_host_txt "$a" > "$d/$a/host.txt"
	t "$a: bench plan run $i" env TIMEOUT=900 "$here/run-guest.sh" "$a" bench "$d/$a" \
		"$(kernel_of "$a@$k")" "$(initrd_of "$a@$k")" "$@"
	t "$a: run $i results parse" sh -c "'$build/tools/mkcsv' '$d' > '$d/results.csv'"
	case " $* " in
	*" bench.paired=0 "*) ;;
	*) t "$a: run $i paired ratios parse" sh -c "'$build/tools/mkratios' -a '$a' '$d/$a/paired.txt' > '$d/ratios.csv'" ;;
	esac
}
# the modeled accelerators (kind modeled) whose flavour this check built
# (not the opt-in Debian-configuration ones): make bench's plan of each,
# as its record has it
export MODEL_PLUGIN=$build/tools/bpfmodel.so
model_accels=$(for a in $ACCELS; do
	if [ "$(accel_kind "$a")" = modeled ] && is_built "$(accel_flavour "$a")"; then printf '%s ' "$a"; fi
done)
model_run() {
	# shellcheck disable=SC2046 # the record's plan options are words
	counted_run "$1" "$2" $(accel_plan_args "$1")
}
# plan_args_of ACCEL: the plan options of its counted runs: its record's
# check_plan (make check's shortened plan), else make bench's.
plan_args_of() { accel_attr "$1" check_plan 2> /dev/null || accel_plan_args "$1"; }
counted_checks=$(accel_counted_checks)

# boots_run: make bench's runner on uml with two code-layout variants
# (LAYOUT_SEEDS; relinked from uml's two layout_builds in turn) and BOOTS=3, shortened: the first boot runs the bench plan
# on the kernel as built, the others the paired plan, one on each variant,
# each boot with a seed of its own, and the ratios come out over the
# variants.
boots_run() {
	local d=$build/check-boots r k
	rm -rf "$d"
	mkdir -p "$d"
	k=$(sha1sum < "$build/obj-um/linux")
	# the quiet gate runs, with no wait and one boot again at most (make
	# check's other jobs keep the host busy)
	t "boots: make bench's runner, ACCEL=uml BOOTS=3 LAYOUT_SEEDS='11 22' (shortened)" env RESULTS_DIR="$d" ACCEL=uml BOOTS=3 \
		LAYOUT_SEEDS="11 22" QUIET="25 0 1" \
		BENCH_ARGS="bench.placements=1 bench.samples=3 bench.perf=0 bench.rounds=7 bench.paired_placements=1" \
		"$here/run-bench.sh" "$top" "$build"
	r=$(find "$d" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	t "boots: boots 2 and 3 ran the paired plan into uml/boot-2, uml/boot-3" \
		test -s "$r/uml/boot-2/paired.txt" -a -s "$r/uml/boot-3/paired.txt" -a ! -e "$r/uml/boot-2/cells.txt"
	# shellcheck disable=SC2016
	t "boots: three seeds, each the guest's own (host.txt = meta.txt), not all equal" sh -c '
		for b in "$1/uml" "$1/uml/boot-2" "$1/uml/boot-3"; do
			h=$(sed -n "s/^seed=//p" "$b/host.txt"); g=$(sed -n "s/^seed=//p" "$b/meta.txt")
			[ -n "$h" ] && [ "$h" = "$g" ] || exit 1; echo "$h"
		done | sort -u | awk "END { exit NR < 2 }"' sh "$r"
	# shellcheck disable=SC2016
	t "boots: boot 2 booted variant 11, boot 3 variant 22, sk_run_filter at two addresses" sh -c '
		[ "$(sed -n "s/^layout=//p" "$1/uml/boot-2/host.txt")" = 11 ] &&
		[ "$(sed -n "s/^layout=//p" "$1/uml/boot-3/host.txt")" = 22 ] &&
		a=$(sed -n "s/^layout_addr_sk_run_filter=//p" "$1/uml/boot-2/host.txt") &&
		b=$(sed -n "s/^layout_addr_sk_run_filter=//p" "$1/uml/boot-3/host.txt") &&
		[ -n "$a" ] && [ "$a" != - ] && [ -n "$b" ] && [ "$a" != "$b" ]' sh "$r"
	# shellcheck disable=SC2016
	t "boots: variant 11 relinked from um, 22 from um-align64 (every function on a 64-byte line: sk_run_filter and ___bpf_prog_run at 0 mod 64)" sh -c '
		h2=$1/uml/boot-2/host.txt h3=$1/uml/boot-3/host.txt
		[ "$(sed -n "s/^layout_build=//p" "$h2")" = um ] &&
		[ "$(sed -n "s/^layout_build=//p" "$h3")" = um-align64 ] &&
		[ "$(sed -n "s/^layout_config_hash=//p" "$h3")" != "$(sed -n "s/^layout_config_hash=//p" "$h2")" ] &&
		for s in sk_run_filter ___bpf_prog_run; do
			a=$(sed -n "s/^layout_addr_$s=//p" "$h3") && [ -n "$a" ] && [ $((0x$a % 64)) = 0 ] || exit 1
		done' sh "$r"
	t "boots: the kernel as built is untouched (its image, no padding in its vmlinux.a)" sh -c \
		"[ '$(sha1sum < "$build/obj-um/linux")' = '$k' ] && ! ar t '$build/obj-um/vmlinux.a' | grep -q layout"
	# shellcheck disable=SC2016
	t "boots: every ratios.csv row of uml is over the 2 paired boots of 2 code layouts (ci_over=layouts)" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "uml" { n++; if ($c["boots"] != 2 || $c["layouts"] != 2 || $c["ci_over"] != "layouts" || $c["ci_lo"] == "") bad++ }
		END { exit bad || !n }' "$r/ratios.csv"
	t "boots: table.txt says the uml ratios are over 2 boots of 2 code layouts" \
		grep -q "paired ratios t_A/t_B over 2 boots of 2 code layouts" "$r/table.txt"
	# shellcheck disable=SC2016
	t "boots: the quiet gate's control loop after each boot (host.txt control_ns)" \
		sh -c 'for b in "$1/uml" "$1/uml/boot-2" "$1/uml/boot-3"; do grep -q "^control_ns=[0-9]" "$b/host.txt" || exit 1; done' sh "$r"
}

accels=${CHECK_ACCELS:-$(accel_check_list)}
# The debug kernel (built unless CHECK_DEBUG=0; failed to build: a FAIL
# above) and its campaign.
! is_built debug || job_list="debug"
for a in $accels; do job_list="$job_list check-$a"; done
# The other trees (CHECK_KERNELS): each accelerator's check plan
# and one counted bench run (its record's check_plan, as on the default
# tree), compared with the default tree's in stage 4.
other_runs=""
for k in $(check_kernels); do
	for a in $(kernel_attr "$k" check); do
		job_list="$job_list check-$a@$k bench-$a@$k"
		other_runs="$other_runs $a@$k"
	done
	# its sanitizer pass: the debug plan's short campaign, as on the default tree
	for a in $(tree_sanitize "$k"); do job_list="$job_list sanitize:$a@$k"; done
done
# The 32-bit guests' perf (Debian's linux-perf:i386 and :armhf with their
# libraries, foreign-perf.sh) packed and run under qemu-user, no guest
# booted; needs a kernel's usr/gen_init_cpio.  The .debs are cached in
# build/debs/.
# make compare on its fixture patches (icount, uml; the patched kernels
# start from copies of the baseline's objects, run-compare.sh).
# The capture workload (FILTERS, PCAP) end to end on uml and icount
# (tests-capture.sh).
job_list="$job_list buildcheck perf32 badinput boots compare capture"
# The Debian-configuration kernel (flavour x86_64-debian): its
# configuration derived and checked, not built (tests-debian-config.sh);
# CHECK_DEBIAN=1 builds it too (about 19 min of 2 cores, cold:
# docs/build-times.md) and boots it under its icount accelerators
# (tests-debian-boot.sh).
job_list="$job_list debian-config"
[ "${CHECK_DEBIAN:-0}" != 1 ] || job_list="$job_list debian-boot"
# The counted accelerators' two runs of make check's shortened plan
# (accels.conf check_plan: icount, icount-arm).
for a in $counted_checks; do job_list="$job_list counted:$a:1 counted:$a:2"; done
# The branch and cache model in the guests: two boots of each modeled
# accelerator with make bench's plan (identical counts; the invariants of
# results/tests-model.sh).
for a in $model_accels; do job_list="$job_list model:$a:1 model:$a:2"; done
# Each of them that boots code-layout variants (accels.conf layouts, kind
# variants bench): make bench's runner over one variant, the range of its
# figures and claims over the two layouts (tests-model-layouts.sh).
for a in $model_accels; do
	[ "$(accel_layouts "$a")" = 1 ] || job_list="$job_list layouts:$a"
done
# The kvm path end to end under its nested accelerators (accels.conf boot
# nested): make bench's runner, the tables and the cover letter
# (tests-nested.sh); make compare on one in tests-make-compare.sh.
for a in $ACCELS; do
	case "$(accel_attr "$a" boot)" in nested*) job_list="$job_list nested:$a" ;; esac
done
# job_s JOB: the seconds JOB takes in make check's pool on this host: as an
# earlier make check here measured it (host_times, written after the
# pool), else bench/times.conf's figure (the boots of an accelerator: its
# check_s; the other jobs by kind: its job records) scaled by this host's
# control loop (HOST_SCALE_PCT); unknown: 60.  The pool starts the
# longest first: it ends when its last job does.
job_s() {
	local s=
	if s=$(conf_get "$host_times" job "$1" check_s 2> /dev/null); then
		echo "$s"
		return
	fi
	case "$1" in
	debug) s=$(accel_attr debug check_s || true) ;;
	sanitize:*) a=${1#sanitize:}; s=$(accel_attr "${a%@*}" check_s || true) ;;
	check-*@*) s=$(job_attr check-tree) ;;
	bench-*@*) s=$(job_attr bench-tree) ;;
	check-*) s=$(accel_attr "${1#check-}" check_s || true) ;;
	*) s=$(job_attr "${1%%:*}") ;;
	esac
	echo "${s:-60}"
}
run_order=$(for j in $job_list; do echo "$(job_s "$j") $j"; done | sort -s -k1,1nr | cut -d" " -f2 | tr "\n" " ")
job_done=0 job_total=0
for j in $job_list; do job_total=$((job_total + 1)); done
# The pool's estimate: its jobs, longest first, each on the slot that
# frees first.
est=$(for j in $run_order; do job_s "$j"; done | awk -v n="$njobs" '
	{ m = 1; for (i = 2; i <= n; i++) if (load[i] < load[m]) m = i; load[m] += $1 }
	END { for (i = 1; i <= n; i++) if (load[i] > e) e = load[i]; print e + 0 }')
echo "[check] estimate: the pool ~$(((est + 59) / 60)) min ($([ -f "$host_times" ] && echo "its jobs as measured on this host, $host_times" || echo "bench/times.conf scaled to this host"))"
stage "3/5 guests and other single-threaded tests, $njobs at a time, longest first: $run_order"
# What CPU each running guest may use, every 5 s (pool-cpus.sh): checked
# after the pool, two pinned to one CPU fail.
"$here/pool-cpus.sh" sample "$jobs_dir/cpus.txt" 5 &
sampler=$!
for j in $run_order; do
	case "$j" in
	# The debug kernel (KASAN, UBSAN, lockdep, kmemleak): its .config
	# checked, booted with the short campaign (make fuzz: the long one).
	debug) job "$j" env DEBUG_BUILT=1 "$here/debug-campaign.sh" "$top" "$build" check ;;
	# another tree's sanitizer pass (kernels.conf sanitize)
	sanitize:*)
		a=${j#sanitize:}
		job "$j" env DEBUG_BUILT=1 DEBUG_ACCEL="${a%@*}" DEBUG_KERNEL="${a#*@}" "$here/debug-campaign.sh" "$top" "$build" check ;;
	check-*) job "$j" check_guest "${j#check-}" ;;
	# another tree's counted run: the default tree's plan for that accelerator
	bench-*@*)
		a=${j#bench-}
		# shellcheck disable=SC2046 # plan options are words
		job "$j" counted_run "${a%@*}" "1@${a#*@}" $(plan_args_of "${a%@*}") ;;
	buildcheck) job "$j" build_checks ;;
	perf32) job "$j" "$here/tests-foreign-perf.sh" "$top" "$build" "$build/obj-x86_64" ;;
	counted:*)
		a=${j#counted:}
		# shellcheck disable=SC2046 # plan options are words
		job "$j" counted_run "${a%:*}" "${j##*:}" $(plan_args_of "${a%:*}") ;;
	model:*) a=${j#model:}; job "$j" model_run "${a%:*}" "${j##*:}" ;;
	layouts:*) job "$j" "$here/tests-model-layouts.sh" "$top" "$build" "${j#layouts:}" ;;
	boots) job "$j" boots_run ;;
	debian-config) job "$j" "$here/tests-debian-config.sh" "$top" "$build" "$build/linux" ;;
	debian-boot) job "$j" "$here/tests-debian-boot.sh" "$top" "$build" ;;
	nested:*) job "$j" "$here/tests-nested.sh" "$top" "$build" "${j#nested:}" ;;
	compare) job "$j" "$here/tests-make-compare.sh" "$top" "$build" ;;
	capture) job "$j" "$here/tests-capture.sh" "$top" "$build" guest ;;
	# A real guest that hangs, panics or overflows its results image.
	badinput) job "$j" "$here/tests-badinput.sh" "$top" "$build/tools" guest "$build" tcg ;;
	esac
done
while [ "${#job_name[@]}" -gt 0 ]; do reap; done
kill "$sampler" 2> /dev/null || true
wait "$sampler" 2> /dev/null || true
for j in $job_list; do collect_job "$j"; done
# This host's pool times for the next make check's order and estimate:
# every job that passed (a failed one may have ended early: its earlier
# figure is kept).
mkdir -p "$(dirname "$host_times")" && {
	echo "# make check's build stage and pool jobs on a host of CPUID $(host_cpu_id), measured $(date -u +%Y-%m-%dT%H:%M:%SZ) by bench/host/run-check.sh"
	printf 'build stage\n\tbuild_s\t%s\n\tccache_hit_pct\t%s\n' "$build_s" "$build_hit_pct"
	for j in $job_list; do
		s=${job_took[$j]:-}
		if [ "$(cat "$jobs_dir/$j.rc" 2> /dev/null)" != 0 ] || grep -q '^FAIL: ' "$jobs_dir/$j.out" 2> /dev/null; then
			s=$(conf_get "$host_times" job "$j" check_s 2> /dev/null) || continue
		fi
		printf 'job %s\n\tcheck_s\t%s\n' "$j" "$s"
	done
} > "$host_times.tmp" && mv "$host_times.tmp" "$host_times" || echo "[check] could not write $host_times" >&2
t "check: no two of the pool's guests pinned to one of its CPUs (${pool_cpus[*]}) at once (pool-cpus.sh check)" \
	"$here/pool-cpus.sh" check "$jobs_dir/cpus.txt"
tail -n 1 "$out"

stage "4/5 counted and modeled: the two runs' counts must agree"
# The expected values, their tolerances and why: bench/check-expect.conf.
CHECK_EXPECT_CONF=$top/bench/check-expect.conf
# shellcheck source=bench/host/expect.sh
. "$here/expect.sh"
# within GOT WANT TOL: GOT is WANT within TOL (exact, abs N or pct N).
within() {
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN {
		split(t, a, " "); d = g - w; if (d < 0) d = -d; m = w < 0 ? -w : w
		if (g == "") exit 1
		if (a[1] == "exact") exit !(d == 0)
		if (a[1] == "abs") exit !(d <= a[2])
		if (a[1] == "pct") exit !(d <= a[2] / 100 * m)
		exit 1 }'
}
# expect_values NAME GET: each KEY=WANT word of the record's value against
# what `GET KEY` prints, within the record's tolerance.
expect_values() {
	local w got tol bad=0
	tol=$(xv "$1" tol)
	for w in $(xv "$1" value); do
		got=$("$2" "${w%%=*}")
		within "$got" "${w#*=}" "$tol" ||
			{ echo "${w%%=*}: $got, expected ${w#*=} ($tol)"; bad=1; }
	done
	return "$bad"
}
for a in $counted_checks; do
	t "$a: $(xv counted-runs-agree what | sed 's/^[^:]*: //') within $(tol_pct counted-runs-agree)% ($(plan_args_of "$a" | grep -o 'bench.engines=[^ ]*' || echo 'every engine'))" \
		"$build/tools/cmpruns" "$build/check-$a-1/results.csv" "$build/check-$a-2/results.csv" "$(tol_pct counted-runs-agree)"
done
for c in fprog1,1 fprog1,10000 fprog2,1 fprog2,10000; do
	t "icount-arm: oldjit ran compiled, ${c%,*} skbs=${c#*,} (jited=1)" sh -c \
		"'$build/tools/csvget' '$build/check-icount-arm-1/results.csv' jited tag=bench engine=oldjit filter=${c%,*} skbs=${c#*,} | grep -qx 1"
done
# shellcheck disable=SC2016
t "$(xv icount-ratios-agree what) within $(tol_pct icount-ratios-agree)%" \
	awk -F, -v tol="$(tol_pct icount-ratios-agree)" 'NR == FNR { r[FNR] = $6; n = FNR; next }
		FNR > 1 { d = $6 - r[FNR]; if (d < 0) d = -d; if ($5 != "" && d > tol / 100 * $6) bad++ }
		END { exit (bad || FNR != n || n < 2) }' \
	"$build/check-icount-1/ratios.csv" "$build/check-icount-2/ratios.csv"
# ENGINE TEST FILTER of each test_bpf cross-check
for x in "new testbpf33 fprog1" "jit testbpf33 fprog1" "new testbpf34 testbpf34wrap" "jit testbpf34 testbpf34wrap"; do
	# shellcheck disable=SC2086 # three words
	set -- $x
	t "icount: the harness within $(tol_pct testbpf-crosscheck)% of test_bpf #${2#testbpf} ($1)" \
		"$build/tools/crosscheck" "$build/check-icount-1/results.csv" "$1" "$2" "$3" "$(tol_pct testbpf-crosscheck)"
done
# vm_insns ENGINE FILTER: executed VM instructions per call (exact, whatever
# the accelerator) of the port-22 packet's cache-hit cell
vm_of() {
	"$build/tools/csvget" "$build/check-icount-1/results.csv" vm_insns tag=bench \
		engine="$1" filter="$2" packet=tcp22-payload skbs=1
}
vm_fprog1() { vm_of "$1" fprog1; }
vm_fprog2() { vm_of "$1" fprog2; }
vm_engine_filter() { vm_of "${1%.*}" "${1#*.}"; }
# engine new's guest instructions per call of FILTER, cache-hit
new_insns() {
	"$build/tools/csvget" "$build/check-icount-1/results.csv" median \
		tag=bench engine=new filter="$1" packet=tcp22-payload skbs=1
}
for e in vm-insns-fprog1:vm_fprog1 vm-insns-fprog2:vm_fprog2 vm-insns-jits:vm_engine_filter new-insns-per-call:new_insns; do
	t "$(xv "${e%:*}" what): $(xv "${e%:*}" value) ($(xv "${e%:*}" tol))" expect_values "${e%:*}" "${e#*:}"
done

# The other trees: every engine ran each cell (the x86_64 table filled),
# the same VM instructions per call as on the default tree (its conversion
# is unchanged: a change per call is the engine's cost per VM insn,
# docs/kernels.md), and the trend against it renders.
# cells_of FILE COLUMN: "ENGINE FILTER SKBS VALUE" of each bench cell of
# every engine and cell of bench/engines.conf the run has.
cells_of() {
	local e c v
	for e in $(conf_names "$top/bench/engines.conf" engine); do
		for c in $(conf_names "$top/bench/engines.conf" cell); do
			set -- "$1" "$2" "filter=$(conf_get "$top/bench/engines.conf" cell "$c" filter)" \
				"skbs=$(conf_get "$top/bench/engines.conf" cell "$c" skbs)"
			v=$("$build/tools/csvget" "$1" "$2" tag=bench engine="$e" "$3" "$4" 2> /dev/null) &&
				echo "$e ${3#*=} ${4#*=} $v"
		done
	done
}
for r in $other_runs; do
	a=${r%@*} k=${r#*@}
	d=$build/check-$a-1@$k
	mkdir -p "$d"
	cells_of "$build/check-$a-1/results.csv" vm_insns > "$d/vm-default.txt"
	cells_of "$d/results.csv" vm_insns > "$d/vm.txt"
	cut -d' ' -f1-3 "$d/vm-default.txt" > "$d/cells-default.txt"
	cut -d' ' -f1-3 "$d/vm.txt" > "$d/cells.txt"
	t "$a@$k: every engine and cell of the default tree's run ran ($(wc -l < "$d/cells.txt") cells, the table filled)" \
		sh -c "[ -s '$d/cells.txt' ] && cmp '$d/cells-default.txt' '$d/cells.txt'"
	t "$a@$k: vm_insns of every cell equal the default tree's (the same executed VM instructions)" \
		cmp "$d/vm-default.txt" "$d/vm.txt"
	t "$a@$k: the trend beside the default tree's run says the VM insns are the same" sh -c "
		'$build/tools/mktrend' '$a' '$build/check-$a-1' '$d' > '$d/trend.txt' &&
		grep -q '^  executed VM insns per call: the same on both kernels' '$d/trend.txt'"
done

# The window lines only: the plugin's "end" line counts QEMU's translations
# up to its exit, which the guest's shutdown moves (docs/model.md).
for a in $model_accels; do
	t "$a: two boots give the same model counts, window for window (model.txt)" sh -c "
		grep '^window=' '$build/check-$a-1/$a/model.txt' > '$build/check-$a-1/windows.txt' &&
		grep '^window=' '$build/check-$a-2/$a/model.txt' > '$build/check-$a-2/windows.txt' &&
		cmp '$build/check-$a-1/windows.txt' '$build/check-$a-2/windows.txt'"
	"$top/results/tests-model.sh" "$build/tools" "$build/check-$a-1" | collect || true
done

stage "5/5 summary"
summary
