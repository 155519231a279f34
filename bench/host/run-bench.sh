#!/bin/sh
# make bench: boot the benchmark guest under each chosen accelerator, run the
# plan, and turn what came back into results/<run-id>/{results.csv,table.txt}.
#
# usage: run-bench.sh TOP BUILD [--check]
#        --check: only refuse bad ACCEL, REPEAT or BENCH_ARGS (make bench
#        runs it before building anything)
# env:   ARCHES  the architectures ACCEL=auto covers (default all: x86_64
#                i386 arm32; bench/flavours.conf ref2014_arch)
#        ACCEL=auto | a list of bench/accels.conf's, e.g. "uml icount" (default
#        auto: each accelerator's auto rule there, on ARCHES; today kvm, uml
#        and kvm-i386 when a probe boot succeeds within PROBE_TIMEOUT seconds,
#        plus icount, icount-i386 and icount-arm)
#        BENCH_ARGS="bench.samples=21 bench.sample_us=20000 ..." (to the plan;
#        the options and their ranges: bench/args.conf)
#        RESULTS_DIR  where the run directories go (default TOP/results)
#        BOOTS  boots of every accelerator (default: its accels.conf boots,
#               1 where it has none).  The first boot runs the bench plan,
#               the others the paired plan into ACCEL/boot-K/; each boot
#               gets a layout seed of its own (bench.seed, recorded in its
#               host.txt; a bench.seed in BENCH_ARGS fixes it for all).
#               The ratios are formed over the boots (docs/statistics.md).
#
# A run that does not get to the end (a boot fails, hangs or panics, the
# tables stage fails, an interrupt) is marked incomplete: RUN/INCOMPLETE
# holds the reason, results/latest is not moved to it, and the tables
# stage, mktable, mkcover and the plots refuse it.
set -eu

top=$1 build=$2
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# shellcheck source=bench/host/benchargs.sh
. "$here/benchargs.sh"
accel=${ACCEL:-auto}
results=${RESULTS_DIR:-$top/results}

die() { echo "[bench] $*" >&2; exit 2; }
kernel_of() { flavour_kernel "$build" "$(accel_flavour "$1")"; }
initrd_of() { echo "$build/initramfs-$(accel_flavour "$1").cpio.gz"; }

# Bad input is refused here, before anything is built or booted.
repeat=${REPEAT:-1}
case "$repeat" in '' | *[!0-9]* | 0) die "REPEAT=$repeat: must be a positive number" ;; esac
boots=${BOOTS:-1}
case "$boots" in '' | *[!0-9]* | 0*) boots=x ;; esac
if [ "$boots" = x ] || [ "${#boots}" -gt 4 ] || [ "$boots" -gt 1024 ]; then
	die "BOOTS=${BOOTS:-}: must be a number from 1 to 1024"
fi
if [ "$accel" != auto ]; then
	[ -n "$(echo "$accel" | tr -d ' ')" ] || die "ACCEL is empty (auto, or some of: $ACCELS)"
	for a in $accel; do
		accel_kind "$a" > /dev/null 2>&1 ||
			die "unknown accelerator '$a' in ACCEL (known: auto $ACCELS)"
	done
	# Named explicitly but cannot run here: say so before anything is built.
	for a in $accel; do
		why=$(accel_unusable "$a") && die "ACCEL=$a: $why (leave ACCEL unset: auto picks what runs here)"
	done
fi
why=$(arches_check) || die "$why"
set -f
# shellcheck disable=SC2086 # BENCH_ARGS is a list of words
why=$(bench_args_check ${BENCH_ARGS:-}) || die "BENCH_ARGS: $why"
set +f
[ "${3:-}" != --check ] || exit 0

# probe ACCEL: does a trivial guest boot and hand back its files in time?
probe() {
	rm -rf "$build/probe-$1"
	TIMEOUT=${PROBE_TIMEOUT:-30} "$here/run-guest.sh" "$1" probe "$build/probe-$1" \
		"$(kernel_of "$1")" "$(initrd_of "$1")" > /dev/null 2>&1
}

if [ "$accel" = auto ]; then
	accel=$(accel_auto probe)
	echo "[bench] accelerators: $accel"
fi
# Every accelerator's kernel flavour must be built (make builds the default
# flavours only; the opt-in ones are make initramfs-FLAVOUR).
for a in $accel; do
	f=$(accel_flavour "$a")
	for file in "$(kernel_of "$a")" "$(initrd_of "$a")"; do
		[ -f "$file" ] ||
			die "ACCEL=$a boots kernel flavour $f, which is not built (no $file): make initramfs-$f"
	done
done

run_id=$(date -u +%Y%m%d-%H%M%S)
dir=$results/$run_id
err=$(mkdir -p "$dir" 2>&1) || die "cannot create the run directory $dir: ${err##*: }"

# The EXIT trap marks a run that did not get to the end: the reason is
# the failed boot's one line (run-guest.sh's OUTDIR/failure.txt) or the
# step that failed.
step="setting up the run" boot_dir="" why=""
show=${dir#"$top"/}
incomplete() {
	rc=$?
	[ "$rc" != 0 ] || return 0
	reason=$why
	if [ -z "$reason" ] && [ -n "$boot_dir" ]; then
		reason=$(head -n 1 "$boot_dir/failure.txt" 2> /dev/null || true)
	fi
	[ -n "$reason" ] || reason="$step failed (exit $rc)"
	if echo "$reason" > "$dir/INCOMPLETE"; then
		echo "[bench] run incomplete: $show/INCOMPLETE: $reason" >&2
	else
		echo "[bench] run incomplete, and $dir/INCOMPLETE cannot be written: $reason" >&2
	fi
}
trap incomplete EXIT
trap 'why="interrupted during $step"; exit 130' INT TERM HUP

for f in $(for a in $accel; do accel_flavour "$a"; done | sort -u); do
	cp "$build/obj-$f/.config" "$dir/kernel-$f.config"
done
{
	echo "run_id=$run_id"
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host_cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "kernel=$(make -s -C "$build/linux" kernelversion)"
	echo "debian_version=$(dpkg-query -W -f '${Version}' linux-source-6.1)"
	echo "series_hash=$(sed -n 's/^applied_hash=//p' "$build/linux/.git/bench-series")"
	echo "accels=$accel"
	echo "arches=${ARCHES:-$ALL_ARCHES}"
	echo "repeat=${REPEAT:-1}"
	echo "boots=$(for a in $accel; do printf '%s:%s ' "$a" "$(accel_boots "$a")"; done | sed 's/ $//')"
	echo "bench_args=${BENCH_ARGS:-}"
} > "$dir/run.txt"

# The boot's layout seed: BENCH_ARGS's bench.seed, else a random one.
boot_seed() {
	fixed=$(echo " ${BENCH_ARGS:-} " | sed -n 's/.* bench\.seed=\([0-9]*\) .*/\1/p')
	echo "${fixed:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
}

# boot DIR ACCEL PLAN [SEED]: one boot of PLAN into DIR.
boot() {
	f=$(accel_flavour "$2")
	step="the $2 boot (plan $3)" boot_dir=$1
	mkdir -p "$1"
	{
		accel_host_txt "$2"
		echo "config_hash=$(sha1sum < "$build/obj-$f/.config" | cut -c1-12)"
		echo "pinned_cpu=$(accel_pin "$2")"
		echo "seed=${4:-}"
		# UML runs on the host CPU but its /proc/cpuinfo does not say which.
		if [ "$(flavour_attr "$f" host_cpu || true)" = 1 ]; then
			echo "cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo) (host)"
		fi
	} > "$1/host.txt"
	# Both lists are split into kernel arguments on purpose.
	# shellcheck disable=SC2046,SC2086
	"$here/run-guest.sh" "$2" "$3" "$1" "$(kernel_of "$2")" "$(initrd_of "$2")" \
		$(accel_plan_args "$2") ${4:+bench.seed=$4} ${BENCH_ARGS:-}
	boot_dir=""
}

# The host control loop and the boot-level quiet gate.
# shellcheck source=bench/host/quiet.sh
. "$here/quiet.sh"

# run_plan DIR ACCEL: the boots of ACCEL into DIR/ACCEL: the bench plan,
# then (accel_boots) the paired plan into DIR/ACCEL/boot-2, boot-3, ...
# Each boot passes the quiet gate (quiet_after) or is booted again.
run_plan() {
	nb=$(accel_boots "$2")
	seed=
	[ "$nb" = 1 ] || seed=$(boot_seed)
	[ "$nb" = 1 ] || echo "[bench] $2 boot 1/$nb: plan bench, seed $seed"
	mkdir -p "$1/$2"
	quiet_ref=
	host_control "$1/$2" "$2" before
	t0=$(date +%s)
	# the bench plan's boot is not booted again (the gate records only)
	boot "$1/$2" "$2" bench "$seed"
	redo=0
	quiet_after "$1/$2" "$2" 1 0 || true
	"$here/disasm-images.sh" "$1/$2" "$(flavour_attr "$(accel_flavour "$2")" disasm || true)"
	k=2 t1=$(date +%s)
	while [ "$k" -le "$nb" ]; do
		seed=$(boot_seed)
		left=
		[ "$k" = 2 ] || left=", about $(( ($(date +%s) - t1) * (nb - k + 1) / (k - 2) ))s left"
		echo "[bench] $2 boot $k/$nb: plan paired, seed $seed$left (first boot took $((t1 - t0))s)"
		redo=0
		while :; do
			boot "$1/$2/boot-$k" "$2" paired "$seed"
			quiet_after "$1/$2/boot-$k" "$2" "$k" && break
			redo=$((redo + 1))
			rm -rf "$1/$2/boot-$k"
		done
		k=$((k + 1))
	done
	host_control "$1/$2" "$2" after
}

for a in $accel; do
	run_plan "$dir" "$a"
done
# REPEAT=n: n-1 more boots of every accelerator, into repeat-2.. (the
# tables stage shows each cell's spread over the n boots).
i=2
while [ "$i" -le "$repeat" ]; do
	rep=$dir/repeat-$i
	mkdir -p "$rep"
	cp "$dir/run.txt" "$rep/run.txt"
	for a in $accel; do
		echo "[bench] repeat $i/$repeat: $a"
		run_plan "$rep" "$a"
	done
	i=$((i + 1))
done
# The tables stage, the same one `make tables RUN=results/<id>` runs; its
# messages after it, the first one the reason if it fails.
step="the tables stage (results/mktables.sh)"
if ! "$top/results/mktables.sh" "$dir" "$build/tools" 2> "$dir/tables.err"; then
	cat "$dir/tables.err" >&2
	why="the tables stage failed: $(grep -v '^\[' "$dir/tables.err" | head -n 1)"
	rm -f "$dir/tables.err"
	exit 1
fi
cat "$dir/tables.err" >&2
rm -f "$dir/tables.err"

ln -sfn "$run_id" "$results/latest"
echo "[bench] results in $show (results.csv, table.txt, plots/)"
echo
cat "$dir/table.txt"
