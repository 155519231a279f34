#!/bin/sh
# make bench: boot the benchmark guest under each chosen accelerator, run the
# plan, and turn what came back into results/<run-id>/{results.csv,table.txt}.
#
# usage: run-bench.sh TOP BUILD
# env:   ACCEL=auto | a list of bench/accels.conf's, e.g. "uml icount" (default
#        auto: each accelerator's auto rule there; today kvm and uml when a
#        probe boot succeeds within PROBE_TIMEOUT seconds, plus icount, plus
#        tcg when kvm is unusable)
#        BENCH_ARGS="bench.samples=21 bench.sample_us=20000 ..." (to the plan)
set -eu

top=$1 build=$2
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
accel=${ACCEL:-auto}

kernel_of() { flavour_kernel "$build" "$(accel_flavour "$1")"; }
initrd_of() { echo "$build/initramfs-$(accel_flavour "$1").cpio.gz"; }

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

run_id=$(date -u +%Y%m%d-%H%M%S)
dir=$top/results/$run_id
mkdir -p "$dir"
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
	echo "repeat=${REPEAT:-1}"
	echo "bench_args=${BENCH_ARGS:-}"
} > "$dir/run.txt"

# run_plan DIR ACCEL: one boot of the bench plan into DIR/ACCEL.
run_plan() {
	f=$(accel_flavour "$2")
	mkdir -p "$1/$2"
	{
		accel_host_txt "$2"
		echo "config_hash=$(sha1sum < "$build/obj-$f/.config" | cut -c1-12)"
		echo "pinned_cpu=$(accel_pin "$2")"
		# UML runs on the host CPU but its /proc/cpuinfo does not say which.
		if [ "$(flavour_attr "$f" host_cpu || true)" = 1 ]; then
			echo "cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo) (host)"
		fi
	} > "$1/$2/host.txt"
	host_control "$1/$2" "$2" before
	# Both lists are split into kernel arguments on purpose.
	# shellcheck disable=SC2046,SC2086
	"$here/run-guest.sh" "$2" bench "$1/$2" "$(kernel_of "$2")" "$(initrd_of "$2")" \
		$(accel_plan_args "$2") ${BENCH_ARGS:-}
	"$here/disasm-images.sh" "$1/$2" "$(flavour_attr "$f" disasm || true)"
	host_control "$1/$2" "$2" after
}

# host_control DIR ACCEL LABEL: for a pinned guest (pin=1, hardware timing), time the
# native control loop (bench/host/control.c) on the CPU the guest runs on,
# so the tables can show how steady the host itself was around the boot.
host_control() {
	[ "$(accel_attr "$2" pin || true)" = 1 ] || return 0
	pin=$(accel_pin "$2")
	if [ -n "$pin" ]; then
		taskset -c "$pin" "$build/tools/control" "$3" >> "$1/control.txt"
	else
		"$build/tools/control" "$3" >> "$1/control.txt"
	fi
}

repeat=${REPEAT:-1}
case "$repeat" in '' | *[!0-9]* | 0) echo "[bench] REPEAT must be a positive number" >&2; exit 2 ;; esac
for a in $accel; do
	accel_kind "$a" > /dev/null || { echo "[bench] unknown accelerator '$a' (know: $ACCELS)" >&2; exit 2; }
done
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
# The tables stage, the same one `make tables RUN=results/<id>` runs.
"$top/results/mktables.sh" "$dir" "$build/tools"

ln -sfn "$run_id" "$top/results/latest"
echo "[bench] results in results/$run_id (results.csv, table.txt, plots/)"
echo
cat "$dir/table.txt"
