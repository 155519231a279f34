#!/bin/sh
# make bench: boot the benchmark guest under each chosen accelerator, run the
# plan, and turn what came back into results/<run-id>/{results.csv,table.txt}.
#
# usage: run-bench.sh TOP BUILD KOBJ
# env:   ACCEL=auto|kvm|tcg|icount|"tcg icount"...   (default auto: KVM when
#        a probe boot succeeds within KVM_PROBE_TIMEOUT seconds, else TCG;
#        icount is always added)
#        BENCH_ARGS="bench.samples=21 bench.sample_us=20000 ..." (to the plan)
set -eu

top=$1 build=$2 kobj=$3
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
kernel=$kobj/arch/x86/boot/bzImage
initrd=$build/initramfs.cpio.gz
accel=${ACCEL:-auto}

if [ "$accel" = auto ]; then
	probe=$build/kvm-probe
	rm -rf "$probe"
	if [ -w /dev/kvm ] && TIMEOUT=${KVM_PROBE_TIMEOUT:-30} \
		"$here/run-guest.sh" kvm probe "$probe" "$kernel" "$initrd" >/dev/null 2>&1; then
		echo "[bench] KVM probe boot succeeded: using kvm"
		accel="kvm icount"
	else
		echo "[bench] KVM unusable here (no /dev/kvm, or a probe boot failed within ${KVM_PROBE_TIMEOUT:-30}s): using TCG (emulated) and icount (counted)"
		accel="tcg icount"
	fi
fi

run_id=$(date -u +%Y%m%d-%H%M%S)
dir=$top/results/$run_id
mkdir -p "$dir"
cp "$kobj/.config" "$dir/kernel.config"
{
	echo "run_id=$run_id"
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host_cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "kernel=$(make -s -C "$build/linux" kernelversion)"
	echo "debian_version=$(dpkg-query -W -f '${Version}' linux-source-6.1)"
	echo "config_hash=$(sha1sum < "$kobj/.config" | cut -c1-12)"
	echo "series_hash=$(sed -n 's/^applied_hash=//p' "$build/linux/.git/bench-series")"
	echo "accels=$accel"
} > "$dir/run.txt"

for a in $accel; do
	accel_qemu_args "$a" >/dev/null || { echo "[bench] unknown accelerator '$a' (know: $ACCELS)" >&2; exit 2; }
	mkdir -p "$dir/$a"
	printf 'accel=%s\nunit=%s\nkind=%s\n' "$a" "$(accel_unit "$a")" "$(accel_kind "$a")" > "$dir/$a/host.txt"
	# shellcheck disable=SC2086
	"$here/run-guest.sh" "$a" bench "$dir/$a" "$kernel" "$initrd" ${BENCH_ARGS:-}
done

"$build/tools/mkcsv" "$dir" > "$dir/results.csv"
"$build/tools/mktable" "$dir/results.csv" > "$dir/table.txt"
ln -sfn "$run_id" "$top/results/latest"
echo "[bench] results in results/$run_id (results.csv, table.txt)"
echo
cat "$dir/table.txt"
