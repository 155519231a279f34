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
#        LAYOUTS  code-layout variants of every accelerator whose flavour
#               relinks (default: its accels.conf layouts; 1: none).
#               Each variant is the kernel relinked with a seeded padding
#               in front of every object (bench/host/layout-link.sh); the
#               paired boots 2.. go round-robin over the variants and the
#               ratios' CIs are formed over variants (docs/statistics.md,
#               "Code layout").  LAYOUT_SEEDS="S1 S2 ..." fixes the seeds
#               (default: drawn per run; of several kernels, the same
#               seeds for each).  The variants are relinked in turn from
#               the builds of the accelerator's layout_builds (uml: its
#               own and the one with every function on a 64-byte line;
#               LAYOUT_BUILDS="FLAVOUR ..." overrides), so the CIs cover
#               another function alignment too ("Function alignment").
#        KERNELS="NAME=OUT ..."  boot several kernels (make compare,
#               bench/host/run-compare.sh): NAME's kernel and initramfs
#               are OUT/obj-<flavour>/ and OUT/initramfs-<flavour>.cpio.gz,
#               its boots go into RUN/NAME/ (a run directory of its own,
#               OUT/tree.txt's lines added to its run.txt).  Boot K of
#               every kernel comes before boot K+1 of any, in the order
#               A B, B A, A B, ... (drift in the host falls on both alike),
#               with the same layout seed; the tables stage is then
#               results/mkcompare.sh.  Default: one kernel, KOUT's.
#        KTREE, KPACKAGE, KOUT  the kernel source tree, its Debian package
#               and the directory of its obj-<flavour>/ and initramfs
#               (the Makefile's, from KERNEL; default BUILD/linux, the
#               package of bench/kernels.conf's default tree, BUILD)
#
# A run that does not get to the end (a boot fails, hangs or panics, the
# tables stage fails, an interrupt) is marked incomplete: RUN/INCOMPLETE
# holds the reason, results/latest is not moved to it, and the tables
# stage, mktable, mkcover and the plots refuse it.
set -eu

top=$1 build=$2
here=$top/bench/host
# The kernel source tree (make KERNEL=..., bench/kernels.conf): its tree,
# Debian package and the directory of its kernels and initramfs.
# the model plugin of the modeled accelerators (make model-tools)
export MODEL_PLUGIN="${MODEL_PLUGIN:-$build/tools/bpfmodel.so}"
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
ktree=${KTREE:-$build/linux} kout=${KOUT:-$build}
kpackage=${KPACKAGE:-$(kernel_attr "$KERNEL_DEFAULT" package)}
# shellcheck source=bench/host/benchargs.sh
. "$here/benchargs.sh"
accel=${ACCEL:-auto}
results=${RESULTS_DIR:-$top/results}

die() { echo "[bench] $*" >&2; exit 2; }
# The registries (bench/*.conf, or the *_CONF files) before anything else.
"$here/regcheck.sh" "$top" "$build/tools" "$top/build/tools" ||
	die "the registries have a broken record or reference (FILE:LINE above; docs/extending.md)"
# kernel_of ACCEL [OUT], initrd_of ACCEL [OUT]: what ACCEL boots (OUT: a
# kernel of KERNELS; default BUILD's).
kernel_of() { flavour_kernel "${2:-$kout}" "$(accel_flavour "$1")"; }
initrd_of() { echo "${2:-$kout}/initramfs-$(accel_flavour "$1").cpio.gz"; }
kernels=${KERNELS:-}

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
		nested=$(accel_nested_by "$a")
		why=$(accel_unusable "$a") && die "ACCEL=$a: $why (leave ACCEL unset: auto picks what runs here${nested:+; its path runs under nested TCG: ACCEL=$nested})"
	done
fi
why=$(arches_check) || die "$why"
for k in $kernels; do
	case "$k" in
	[a-z]*=/*) ;;
	*) die "KERNELS: '$k' is not NAME=/ABSOLUTE/OUT" ;;
	esac
done
[ -z "$kernels" ] || [ "$repeat" = 1 ] || die "REPEAT=$repeat: not with KERNELS (more boots: BOOTS)"
case "${LAYOUTS:-1}" in '' | *[!0-9]* | 0*) die "LAYOUTS=${LAYOUTS:-}: must be a number from 1 to 64" ;; esac
[ "${LAYOUTS:-1}" -le 64 ] || die "LAYOUTS=$LAYOUTS: must be a number from 1 to 64"
for s in ${LAYOUT_SEEDS:-}; do
	case "$s" in *[!0-9]*) die "LAYOUT_SEEDS: '$s' is not a number" ;; esac
	[ "${#s}" -le 18 ] || die "LAYOUT_SEEDS: '$s' has more than 18 digits"
done
for f in ${LAYOUT_BUILDS:-}; do
	[ "$(flavour_attr "$f" relink 2> /dev/null || true)" = 1 ] ||
		die "LAYOUT_BUILDS: '$f' is not a flavour whose variants relink (flavours.conf relink 1: $(for g in $FLAVOURS; do [ "$(flavour_attr "$g" relink || true)" != 1 ] || printf '%s ' "$g"; done | sed 's/ $//'))"
done
set -f
# shellcheck disable=SC2086 # BENCH_ARGS is a list of words
why=$(bench_args_check ${BENCH_ARGS:-}) || die "BENCH_ARGS: $why"
set +f
# FILTERS, PCAP: the capture workload (docs/capture.md): a user's filters
# on a user's capture instead of the 2014 programs, one boot of every
# accelerator; the expressions compiled by tcpdump for the capture's link
# type here, before anything is built.  CAPTURE_MAX: the frames a QEMU
# guest takes (every Nth frame; UML streams every frame from the host);
# CAPTURE_SHUFFLE=SEED: the frames in a shuffled order.
capture=
if [ -n "${FILTERS:-}${PCAP:-}" ]; then
	capture=1
	cap_filters=${FILTERS:-$top/filters/user/default.filters}
	cap_pcap=${PCAP:-$top/filters/user/default.pcap}
	pcapdiff=$build/diff/pcapdiff
	[ -z "$kernels" ] || die "FILTERS, PCAP: make compare does not take a capture workload yet"
	[ "$repeat" = 1 ] || die "REPEAT=$repeat: not with FILTERS or PCAP (more rounds: BENCH_ARGS=bench.capture_rounds=N)"
	case "${CAPTURE_MAX:-20000}" in '' | *[!0-9]* | 0*) die "CAPTURE_MAX=${CAPTURE_MAX:-}: must be a number of frames from 1" ;; esac
	case "${CAPTURE_SHUFFLE:-}" in *[!0-9]*) die "CAPTURE_SHUFFLE=$CAPTURE_SHUFFLE: must be a seed (a number)" ;; esac
	[ "$(printf %s "${CAPTURE_SHUFFLE:-}" | wc -c)" -le 18 ] || die "CAPTURE_SHUFFLE: more than 18 digits"
	if [ "$accel" != auto ]; then
		for a in $accel; do
			[ "$(accel_kind "$a")" != modeled ] ||
				die "ACCEL=$a: the capture workload (FILTERS, PCAP) has no modelled cells yet: timed and counted accelerators only"
		done
	fi
	[ -x "$pcapdiff" ] || die "FILTERS, PCAP: no $pcapdiff (make bench builds it before this check)"
	"$top/filters/user/workload.sh" check "$cap_filters" "$cap_pcap" "$pcapdiff" || exit 2
fi
[ "${3:-}" != --check ] || exit 0

# probe ACCEL: does a trivial guest boot and hand back its files in time
# (PROBE_TIMEOUT, else the record's probe_s, else 30 seconds)?
probe_s() { echo "${PROBE_TIMEOUT:-$(accel_attr "$1" probe_s || echo 30)}"; }
probe() {
	pd=$build/probe-$1.$$
	rm -rf "$pd"
	TIMEOUT=$(probe_s "$1") "$here/run-guest.sh" "$1" probe "$pd" \
		"$(kernel_of "$1")" "$(initrd_of "$1")" > /dev/null 2>&1 || return 1
	# kept where it failed: its console names why
	rm -rf "$pd"
}

if [ "$accel" = auto ]; then
	accel=$(accel_auto probe)
	# the capture workload: no modelled cells
	[ -z "$capture" ] || accel=$(for a in $accel; do [ "$(accel_kind "$a")" = modeled ] || printf '%s ' "$a"; done | sed 's/ $//')
	echo "[bench] accelerators: $accel"
fi
# run_builds ACCEL, run_layouts ACCEL: the kernel builds ACCEL boots and its
# code-layout variants, in this run (of several kernels, accel_layouts' 1;
# the capture workload boots the kernel as built, no variant).
run_builds() {
	if [ -n "$capture" ]; then
		accel_flavour "$1"
	else
		accel_builds "$1" "$( [ -z "$kernels" ] || echo 1)"
	fi
}
run_layouts() {
	if [ -n "$capture" ]; then
		echo 1
	else
		accel_layouts "$1" "$( [ -z "$kernels" ] || echo 1)"
	fi
}
# Every accelerator's kernel flavour must be built (make builds the default
# flavours only; the opt-in ones are make initramfs-FLAVOUR).
# The kernels: NAME=OUT each, NAME empty for the one kernel of make bench.
sides=${kernels:-=$kout}
# side_dir DIR NAME: the run directory of kernel NAME in run directory DIR.
side_dir() { echo "$1${2:+/$2}"; }
for a in $accel; do
	for f in $(run_builds "$a"); do
		[ "$f" = "$(accel_flavour "$a")" ] ||
			{ [ "$(flavour_attr "$f" arch 2> /dev/null || true)" = "$(flavour_attr "$(accel_flavour "$a")" arch)" ] &&
				[ "$(flavour_attr "$f" relink || true)" = 1 ]; } ||
			die "ACCEL=$a: its code-layout variants cannot be relinked from flavour $f (layout_builds, LAYOUT_BUILDS: a flavour of $(flavour_attr "$(accel_flavour "$a")" arch) with relink 1)"
		for s in $sides; do
			for file in "$(flavour_kernel "${s#*=}" "$f")" "${s#*=}/initramfs-$f.cpio.gz"; do
				[ -f "$file" ] ||
					die "ACCEL=$a boots kernel flavour $f, which is not built (no $file): make initramfs-$f"
			done
		done
	done
done

# A nested accelerator's outer guest (nested-outer.sh: Debian's kernel and
# QEMU, packed once under BUILD/nested).
export NESTED_DIR="$build/nested"
for a in $accel; do
	case "$(accel_attr "$a" boot)" in
	nested*) "$here/nested-outer.sh" "$top" "$NESTED_DIR" "$kout/obj-$(accel_flavour "$a")" ||
		die "ACCEL=$a: its outer guest cannot be made (bench/host/nested-outer.sh)" ;;
	esac
done
# Named explicitly, an accelerator with a probe (auto probe, or probe_s)
# is probed before its boots: one that cannot run here stops the run in
# one line (a /dev/kvm that runs no stock guest prints nothing).
if [ "${ACCEL:-auto}" != auto ]; then
	for a in $accel; do
		[ "$(accel_attr "$a" auto || true)" = probe ] || accel_attr "$a" probe_s > /dev/null || continue
		echo "[bench] $a: probe boot (at most $(probe_s "$a")s)"
		probe "$a" && continue
		why=$(head -n 1 "$pd/failure.txt" 2> /dev/null || echo "the probe boot failed")
		! console_silent "$pd/console.log" ||
			why="a probe guest printed nothing within $(probe_s "$a")s (console in $pd/console.log)"
		nested=$(accel_nested_by "$a")
		die "ACCEL=$a cannot run here: $why${nested:+; its path runs under nested TCG: ACCEL=$nested}"
	done
fi

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
	# the capture workload's frames files (of any size) go with the run
	[ -z "${fdir:-}" ] || rm -rf "$fdir"
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

# The first boot's plan: the bench plan, or the capture workload's.
first_plan=bench
[ -z "$capture" ] || first_plan=capture

# plan_boots ACCEL: its boots (accel_boots); of several kernels, a counted
# accelerator's figures do not vary: one boot of each.
plan_boots() {
	if [ -n "$kernels" ] && [ "$(accel_kind "$1")" = counted ]; then
		echo 1
	else
		accel_boots "$1"
	fi
}
for s in $sides; do
	sdir=$(side_dir "$dir" "${s%%=*}")
	mkdir -p "$sdir"
	for f in $(for a in $accel; do run_builds "$a"; done | sort -u); do
		cp "${s#*=}/obj-$f/.config" "$sdir/kernel-$f.config"
		# a kernel configured from Debian's file: what differs from it
		[ ! -f "${s#*=}/obj-$f/debian-config.diff" ] ||
			cp "${s#*=}/obj-$f/debian-config.diff" "$sdir/kernel-$f.debian-diff"
	done
	{
		echo "run_id=$run_id"
		echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "host_cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
		echo "host_cpu_id=$(host_cpu_id)"
		echo "kernel=$(make -s -C "$ktree" kernelversion)"
		echo "debian_package=$kpackage"
		echo "debian_version=$(dpkg-query -W -f '${Version}' "$kpackage")"
		echo "series_hash=$(sed -n 's/^applied_hash=//p' "$ktree/.git/bench-series")"
		echo "accels=$accel"
		echo "arches=${ARCHES:-$ALL_ARCHES}"
		echo "repeat=${REPEAT:-1}"
		echo "boots=$(for a in $accel; do printf '%s:%s ' "$a" "$(plan_boots "$a")"; done | sed 's/ $//')"
		echo "bench_args=${BENCH_ARGS:-}"
		# a kernel of KERNELS: its tree and patches (run-compare.sh)
		[ -z "${s%%=*}" ] || cat "${s#*=}/tree.txt"
	} > "$sdir/run.txt"
done

# The capture workload: the filters compiled for the capture (workload/:
# names, NAME.expr, NAME.dd, NAME.txt) and what the capture holds
# (workload.txt), and the frames files the guests read, with libpcap's
# verdicts (pcapdiff --capture): every frame for UML, a sample of at most
# CAPTURE_MAX frames and about 128 MiB for the QEMU guests (which hold it
# in memory), under BUILD/capture/RUN_ID (removed after the run).
fdir=$build/capture/$run_id
# capture_input ACCEL: the frames file ACCEL's guest reads: all (UML streams
# it from the host) or sample (a QEMU guest holds it in memory)
capture_input() {
	if [ "$(accel_attr "$1" boot)" = uml ]; then echo all; else echo sample; fi
}
if [ -n "$capture" ]; then
	step="preparing the capture workload"
	wdir=$dir/workload
	"$top/filters/user/workload.sh" make "$cap_filters" "$cap_pcap" "$pcapdiff" "$wdir"
	mkdir -p "$fdir"
	echo "[bench] capture workload: $(wc -l < "$wdir/names") filter(s) on $cap_pcap ($(wc -c < "$cap_pcap") bytes): libpcap's verdicts of every frame"
	shuf=
	[ -z "${CAPTURE_SHUFFLE:-}" ] || shuf="--shuffle $CAPTURE_SHUFFLE"
	# each frames file the run's guests read, once (a large capture is read
	# once for each)
	for kind in $(for a in $accel; do capture_input "$a"; done | sort -u); do
		opts=$shuf
		[ "$kind" = all ] || opts="$opts --max ${CAPTURE_MAX:-20000} --max-bytes $((128 << 20))"
		# shellcheck disable=SC2086 # options and their values
		"$pcapdiff" --capture "$cap_pcap" "$wdir" "$fdir/$kind.bin" $opts > "$fdir/$kind.txt" ||
			{ why="pcapdiff --capture could not read $cap_pcap (above)"; exit 1; }
	done
	{
		echo "pcap=$(cd "$(dirname "$cap_pcap")" && pwd)/$(basename "$cap_pcap")"
		echo "pcap_sha256=$(sha256sum < "$cap_pcap" | cut -d' ' -f1)"
		if [ -f "$cap_filters" ]; then echo "filters_file=$cap_filters"; else echo "filters=$cap_filters"; fi
		echo "tcpdump=$(tcpdump --version 2>&1 | head -n 2 | tr '\n' ' ' | sed 's/ $//')"
		for kind in all sample; do
			[ ! -f "$fdir/$kind.txt" ] || sed "s/^/$kind./" "$fdir/$kind.txt"
		done
	} > "$wdir/workload.txt"
fi

# The boot's layout seed: BENCH_ARGS's bench.seed, else a random one.
boot_seed() {
	fixed=$(echo " ${BENCH_ARGS:-} " | sed -n 's/.* bench\.seed=\([0-9]*\) .*/\1/p')
	echo "${fixed:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
}

# boot DIR ACCEL PLAN SEED OUT [LAYOUT]: one boot of PLAN into DIR, OUT's
# kernel (LAYOUT: FLAVOUR/SEED, the code-layout variant of that seed
# relinked from OUT's FLAVOUR build, layout-link.sh).
boot() {
	f=$(accel_flavour "$2")
	step="the $2 boot (plan $3)" boot_dir=$1
	kernel=$(kernel_of "$2" "$5") initrd=$(initrd_of "$2" "$5") vdir=
	if [ -n "${6:-}" ]; then
		vdir=$5/obj-${6%/*}/layout/${6#*/}
		kernel=$vdir/$(basename "$kernel") initrd=$5/initramfs-${6%/*}.cpio.gz
	fi
	mkdir -p "$1"
	{
		accel_host_txt "$2"
		echo "config_hash=$(sha1sum < "$5/obj-$f/.config" | cut -c1-12)"
		echo "pinned_cpu=$(accel_pin "$2")"
		echo "seed=${4:-}"
		echo "host_cpu_id=$(host_cpu_id)"
		# UML runs on the host CPU but its /proc/cpuinfo does not say which.
		if [ "$(flavour_attr "$f" host_cpu || true)" = 1 ]; then
			echo "cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo) (host)"
		fi
		# a nested accelerator: the CPU its guest names is the outer
		# guest's emulated one; and what the outer guest is
		case "$(accel_attr "$2" boot)" in
		nested*)
			echo "cpu=QEMU TCG's $(accel_attr "$2" boot | sed 's/.*-cpu \([^, ]*\).*/\1/') (outer guest) with KVM nested in it; host: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
			grep -v '^stamp=' "$NESTED_DIR/outer.txt" ;;
		esac
		[ -z "$capture" ] || echo "capture_input=$(capture_input "$2")"
		# the variant: the build it is relinked from (its configuration's
		# hash), its seed, padding and where the interpreters landed
		if [ -n "$vdir" ]; then
			echo "layout_build=${6%/*}"
			echo "layout_config_hash=$(sha1sum < "$5/obj-${6%/*}/.config" | cut -c1-12)"
			sed 's/^seed=/layout=/; /^layout=/!s/^/layout_/' "$vdir/layout.txt"
		fi
	} > "$1/host.txt"
	# the capture workload's frames; a counted accelerator's rounds are
	# alike: 3 of them unless BENCH_ARGS says
	input="" cargs=""
	if [ -n "$capture" ]; then
		input=$fdir/$(capture_input "$2").bin
		[ "$(accel_kind "$2")" != counted ] || cargs=bench.capture_rounds=3
	fi
	# Both lists are split into kernel arguments on purpose.
	# shellcheck disable=SC2046,SC2086
	GUEST_INPUT=$input "$here/run-guest.sh" "$2" "$3" "$1" "$kernel" "$initrd" \
		$(accel_plan_args "$2") ${4:+bench.seed=$4} $cargs ${BENCH_ARGS:-}
	boot_dir=""
}

# The host control loop and the boot-level quiet gate.
# shellcheck source=bench/host/quiet.sh
. "$here/quiet.sh"

# boot_k DIR ACCEL K SEED OUT PLAN [LAYOUT]: boot K of ACCEL, OUT's kernel:
# K = 1 the bench plan into DIR/ACCEL (the kernel as built), else PLAN
# (paired; on a code-layout variant of a kind whose variants boot the
# bench plan, bench) into DIR/ACCEL/boot-K (code-layout variant LAYOUT,
# if any), which passes the quiet gate (quiet_after) or is booted again.
boot_k() {
	redo=0
	if [ "$3" = 1 ]; then
		# the bench plan's boot is not booted again (the gate records only)
		boot "$1/$2" "$2" "$first_plan" "$4" "$5"
		quiet_after "$1/$2" "$2" 1 0 || true
		"$here/disasm-images.sh" "$1/$2" "$(flavour_attr "$(accel_flavour "$2")" disasm || true)"
		return 0
	fi
	while :; do
		boot "$1/$2/boot-$3" "$2" "$6" "$4" "$5" "${7:-}"
		quiet_after "$1/$2/boot-$3" "$2" "$3" && break
		redo=$((redo + 1))
		# kept for the audit, out of the boots the figures are formed over
		mkdir -p "$1/$2/busy"
		rm -rf "$1/$2/busy/boot-$3.$redo"
		mv "$1/$2/boot-$3" "$1/$2/busy/boot-$3.$redo"
	done
}

# layout_seeds N: the seeds of N variants, LAYOUT_SEEDS's or drawn from
# /dev/urandom.
layout_seeds() {
	if [ -n "${LAYOUT_SEEDS:-}" ]; then
		echo "$LAYOUT_SEEDS"
		return 0
	fi
	i=0
	while [ "$i" -lt "$1" ]; do
		od -An -N4 -tu4 /dev/urandom | tr -d ' '
		i=$((i + 1))
	done
}

# layout_variants ACCEL SEED...: the variants, FLAVOUR/SEED each: the
# seeds dealt in turn to the builds of ACCEL's layout_builds.
layout_variants() {
	builds=$(accel_layout_builds "$1")
	shift
	printf '%s\n' "$@" | awk -v b="$builds" 'BEGIN { n = split(b, f, " ") }
		{ printf "%s/%s ", f[(NR - 1) % n + 1], $0 }' | sed 's/ $//'
}

# link_layouts VARIANT...: the variants (FLAVOUR/SEED) of every kernel of
# the run, each build's seeds in one batch (layout-link.sh).
link_layouts() {
	all=$*
	# shellcheck disable=SC2086 # lists of words
	for f in $(printf '%s\n' $all | sed 's|/.*||' | awk '!seen[$0]++'); do
		fseeds=$(printf '%s\n' $all | sed -n "s|^$f/||p" | tr '\n' ' ')
		step="linking the code-layout variants of the $f kernel"
		for s in $sides; do
			name=${s%%=*}
			echo "[bench] ${name:+$name }$f kernel: $(echo $fseeds | wc -w) code-layout variant(s), relinked with seeded padding"
			"$here/layout-link.sh" "$top" "${s#*=}/obj-$f" "$f" $fseeds
		done
	done
}

# run_plan DIR ACCEL: the boots of ACCEL (accel_boots), of every kernel
# into its run directory in DIR: boot K of each kernel (A B, then B A,
# ...) with one seed, then boot K + 1.  With code-layout variants
# (accel_layouts) the paired boots 2.. go round-robin over them, as many
# of each variant (the boots are rounded up to 1 + a multiple of the
# variants); boot K of every kernel boots its variant of the same seed.
run_plan() {
	nb=$(plan_boots "$2")
	nl=$(run_layouts "$2") seeds='' vplan=$(accel_variants "$2")
	# the capture workload: one boot
	[ -z "$capture" ] || nb=1
	[ "$vplan" = bench ] || vplan=paired
	if [ "$nl" -gt 1 ]; then
		per=$(( (nb - 1 + nl - 1) / nl ))
		[ "$per" -ge 1 ] || per=1
		nb=$((1 + per * nl))
		# shellcheck disable=SC2046 # a list of seeds
		seeds=$(layout_variants "$2" $(layout_seeds "$nl"))
		# shellcheck disable=SC2086 # a list of variants
		link_layouts $seeds
		echo "[bench] $2: $nl code-layout variants ($(accel_layout_builds "$2" | sed 's/ /, /g') in turn) x $per $vplan-plan boot(s) each, after the bench plan's boot"
	fi
	quiet_ref=
	for s in $sides; do
		mkdir -p "$(side_dir "$1" "${s%%=*}")/$2"
		host_control "$(side_dir "$1" "${s%%=*}")/$2" "$2" before
	done
	k=1 order=$sides t0=$(date +%s) t1=
	while [ "$k" -le "$nb" ]; do
		seed='' left='' plan=paired lay=''
		# a seed of its own for each boot (what the module allocates lands
		# elsewhere), except where the variants boot the bench plan of a
		# deterministic kind: there only the code layout moves
		[ "$nb" = 1 ] || [ "$vplan" = bench ] || seed=$(boot_seed)
		# shellcheck disable=SC2086 # a list of seeds
		[ "$k" = 1 ] || [ -z "$seeds" ] || lay=$(printf '%s\n' $seeds | sed -n "$(( (k - 2) % nl + 1 ))p")
		[ "$k" = 1 ] || [ -z "$seeds" ] || plan=$vplan
		[ "$k" != 1 ] || plan=bench
		[ "$k" -le 2 ] || left=", about $(( ($(date +%s) - t1) * (nb - k + 1) / (k - 2) ))s left"
		[ "$k" != 2 ] || left=" (boot 1 took $((t1 - t0))s)"
		for s in $order; do
			name=${s%%=*}
			if [ "$nb" != 1 ] || [ -n "$name" ]; then
				echo "[bench] $2 boot $k/$nb${name:+ of $name}: plan $plan${seed:+, seed $seed}${lay:+, layout $lay}$left"
			fi
			boot_k "$(side_dir "$1" "$name")" "$2" "$k" "$seed" "${s#*=}" "$plan" "$lay"
		done
		[ -n "$t1" ] || t1=$(date +%s)
		# shellcheck disable=SC2086 # a list of NAME=OUT words
		order=$(printf '%s\n' $order | tac)
		k=$((k + 1))
	done
	for s in $sides; do
		host_control "$(side_dir "$1" "${s%%=*}")/$2" "$2" after
	done
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
# The tables stage, the same one `make tables RUN=results/<id>` runs (of
# several kernels: results/mkcompare.sh); its messages after it, the first
# one the reason if it fails.
stage=mktables.sh latest=latest table=table.txt
[ -z "$kernels" ] || stage=mkcompare.sh latest=latest-compare table=compare.txt
[ -z "$capture" ] || stage=mkcapture.sh
step="the tables stage (results/$stage)"
# (make bench's run gets its cover letter, RUN/cover-letter.patch, as make
# tables gives one)
set -- "$dir" "$build/tools"
[ -n "$kernels$capture" ] || set -- "$@" "$ktree" "$dir/cover-letter.patch"
if ! "$top/results/$stage" "$@" 2> "$dir/tables.err"; then
	cat "$dir/tables.err" >&2
	why="the tables stage failed: $(grep -v '^\[' "$dir/tables.err" | head -n 1)"
	rm -f "$dir/tables.err"
	exit 1
fi
cat "$dir/tables.err" >&2
rm -f "$dir/tables.err"

ln -sfn "$run_id" "$results/$latest"
extra=", cover-letter.patch" csvs=results.csv
[ -z "$kernels$capture" ] || extra=
[ -z "$capture" ] || csvs="capture.csv, capture-ratios.csv"
echo "[bench] results in $show ($table, $csvs, plots/$extra)"
echo
cat "$dir/$table"
