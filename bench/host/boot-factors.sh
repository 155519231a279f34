#!/bin/sh
# What moves a timed accelerator's paired ratios from one boot to the next?
# Boots the paired plan N times with one factor varied per boot and the
# others held, and prints, per cell and pair, the boots' medians' spread:
# the standard deviation of their logs (in %), the factor's share of the
# between-boot variance (docs/statistics.md).
#
# usage: boot-factors.sh TOP BUILD ACCEL FACTOR N [bench.KEY=VALUE...]
#   FACTOR  none    nothing varied: seed 0 (no pad), the pinned CPU, GUEST_MEM
#           seed    the layout seed (bench.seed: pages held before the
#                   module loads), a random one per boot
#           cpu     the host CPU the guest is pinned to, boot k on k mod nproc
#           mem     the guest's memory, 1024 + 64 * (k mod 8) MiB
# Prints "[factors] boot k/N ..." as it goes, then one line per cell and
# pair: FACTOR cell pair n_boots geomean sd_log_pct min max.
set -eu

[ $# -ge 5 ] || { echo "usage: boot-factors.sh TOP BUILD ACCEL FACTOR N [bench.KEY=VALUE...]" >&2; exit 2; }
top=$1 build=$2 accel=$3 factor=$4 n=$5
shift 5
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
case "$factor" in none | seed | cpu | mem) ;; *) echo "boot-factors.sh: unknown factor '$factor' (none seed cpu mem)" >&2; exit 2 ;; esac
case "$n" in '' | *[!0-9]* | 0 | 1) echo "boot-factors.sh: N must be a number >= 2" >&2; exit 2 ;; esac
f=$(accel_flavour "$accel")
kernel=$(flavour_kernel "$build" "$f")
initrd=$build/initramfs-$f.cpio.gz
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

k=1
while [ "$k" -le "$n" ]; do
	seed=0 cpu=${PIN_CPU:-} mem=${GUEST_MEM:-}
	case "$factor" in
	seed) seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ') ;;
	cpu) cpu=$((k % $(nproc))) ;;
	mem) mem=$((1024 + 64 * (k % 8))) ;;
	esac
	echo "[factors] $accel $factor boot $k/$n: seed $seed${cpu:+ cpu $cpu}${mem:+ mem ${mem}M}"
	# shellcheck disable=SC2046,SC2086 # the plan arguments are words
	PIN_CPU=$cpu GUEST_MEM=$mem "$here/run-guest.sh" "$accel" paired "$out/$k" "$kernel" "$initrd" \
		$(accel_plan_args "$accel") bench.seed="$seed" "$@" > "$out/$k.log" 2>&1 ||
		{ tail -n 5 "$out/$k.log" >&2; exit 1; }
	"$build/tools/mkratios" -s "$out/$k/paired.txt" > "$out/$k.csv"
	k=$((k + 1))
done
# per cell and pair: the boots' medians (column ratio of each one-boot row)
for k in $(seq 1 "$n"); do tail -n +2 "$out/$k.csv"; done | awk -F, -v fac="$factor" '
	{ key = $2 " skbs=" $4 " " $5; v = log($6); n[key]++; s[key] += v; ss[key] += v * v
	  if (!(key in lo) || $6 < lo[key]) lo[key] = $6
	  if (!(key in hi) || $6 > hi[key]) hi[key] = $6
	  if (!(key in seen)) { seen[key] = 1; order[++m] = key } }
	END { for (i = 1; i <= m; i++) { k = order[i]; mean = s[k] / n[k]
		var = (ss[k] - n[k] * mean * mean) / (n[k] - 1); if (var < 0) var = 0
		printf "%s %s %d %.4f %.2f %.4f %.4f\n", fac, k, n[k], exp(mean), 100 * sqrt(var), lo[k], hi[k] } }'
