#!/bin/sh
# make bench: boot the benchmark guest under each chosen accelerator, run the
# plan, and turn what came back into results/<run-id>/{results.csv,table.txt}.
#
# usage: run-bench.sh TOP BUILD
# env:   ACCEL=auto | a list from accels.sh, e.g. "uml icount" (default auto:
#        kvm and uml when a probe boot of each succeeds within PROBE_TIMEOUT
#        seconds, plus icount, plus tcg when kvm is unusable)
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
	accel=""
	if [ -w /dev/kvm ] && probe kvm; then
		echo "[bench] KVM probe boot succeeded: kvm gives hardware timings"
		accel="kvm"
	else
		echo "[bench] KVM unusable here (no /dev/kvm, or a probe boot failed within ${PROBE_TIMEOUT:-30}s)"
	fi
	if probe uml; then
		accel="$accel uml"
	else
		echo "[bench] User-mode Linux failed to boot a probe guest: no uml table"
	fi
	accel="$accel icount"
	case " $accel " in *" kvm "*) ;; *) accel="$accel tcg" ;; esac
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
} > "$dir/run.txt"

# run_plan DIR ACCEL: one boot of the bench plan into DIR/ACCEL.
run_plan() {
	f=$(accel_flavour "$2")
	mkdir -p "$1/$2"
	{
		echo "accel=$2"
		echo "unit=$(accel_unit "$2")"
		echo "kind=$(accel_kind "$2")"
		echo "flavour=$f"
		echo "config_hash=$(sha1sum < "$build/obj-$f/.config" | cut -c1-12)"
		echo "pinned_cpu=$(accel_pin "$2")"
		# UML runs on the host CPU but its /proc/cpuinfo does not say which.
		if [ "$f" = um ]; then
			echo "cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo) (host)"
		fi
	} > "$1/$2/host.txt"
	host_control "$1/$2" "$2" before
	# Both lists are split into kernel arguments on purpose.
	# shellcheck disable=SC2046,SC2086
	"$here/run-guest.sh" "$2" bench "$1/$2" "$(kernel_of "$2")" "$(initrd_of "$2")" \
		$(accel_plan_args "$2") ${BENCH_ARGS:-}
	"$here/disasm-images.sh" "$1/$2"
	host_control "$1/$2" "$2" after
}

# host_control DIR ACCEL LABEL: for a hardware-timing guest, time the
# native control loop (bench/host/control.c) on the CPU the guest runs on,
# so the tables can show how steady the host itself was around the boot.
host_control() {
	[ "$(accel_kind "$2")" = hardware ] || return 0
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
"$build/tools/mkcsv" "$dir" > "$dir/results.csv"
"$build/tools/mktable" "$dir/results.csv" > "$dir/table.txt"

# REPEAT=n: n-1 more boots of every accelerator; then each cell's median
# over all n boots and their spread, (max - min) / min (run-to-run spread).
i=2
runs="$dir/results.csv"
while [ "$i" -le "$repeat" ]; do
	rep=$dir/repeat-$i
	mkdir -p "$rep"
	cp "$dir/run.txt" "$rep/run.txt"
	for a in $accel; do
		echo "[bench] repeat $i/$repeat: $a"
		run_plan "$rep" "$a"
	done
	"$build/tools/mkcsv" "$rep" > "$rep/results.csv"
	runs="$runs $rep/results.csv"
	i=$((i + 1))
done
if [ "$repeat" -gt 1 ]; then
	limit=${SPREAD_LIMIT:-5}
	{
		echo "== median per cell in each of the $repeat boots (first = results.csv), spread = (max - min) / min"
		# shellcheck disable=SC2086
		"$build/tools/cmpruns" $runs "$limit" || true
	} > "$dir/spread.txt"
	{
		echo "run-to-run spread of the medians over $repeat boots (results/$run_id/spread.txt):"
		tail -n 1 "$dir/spread.txt"
		grep -- '> limit' "$dir/spread.txt" | grep -v '/control/' | sed 's/^/  /' || true
		if grep -q '/control/' "$dir/spread.txt"; then
			echo "the host's native control loop over the same boots (machine noise, not the guest's):"
			grep '/control/' "$dir/spread.txt" | sed 's/^/  /'
		fi
		echo
	} >> "$dir/table.txt"
fi

ln -sfn "$run_id" "$top/results/latest"
echo "[bench] results in results/$run_id (results.csv, table.txt)"
echo
cat "$dir/table.txt"
