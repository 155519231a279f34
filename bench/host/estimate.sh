#!/bin/sh
# Before make bench builds anything: how long the run will take, from the
# times measured on a 2-core machine and kept in bench/times.conf
# (build_s: a clean kernel build with an empty ccache; guest_s:
# one boot of the bench plan with its defaults, boot_s: each further boot
# of the paired plan).  A flavour already built costs (almost) nothing;
# REPEAT multiplies the guest phase.
#
# make compare (COMPARE=1) boots two kernels: a counted accelerator once
# each, a timed one BOOTS times each; the patched kernels compile through
# the baseline's ccache hits (measured: half a clean build's time), once
# their objects exist only what the patches change.
#
# usage: estimate.sh BUILD     env: ACCEL, ARCHES, REPEAT, BOOTS (as make
#                              bench), COMPARE=1 for make compare
set -eu

build=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# the figures scaled to this host (its control loop, once the tools are built)
host_speed_probe "$build/tools/control"

accel=${ACCEL:-auto}
if [ "$accel" = auto ]; then
	list=
	for a in $ACCELS; do
		accel_in_arches "$a" || continue
		case "$(accel_attr "$a" auto || true)" in
		probe) list="$list $a?" ;;
		always) list="$list $a" ;;
		esac
	done
else
	list=$accel
fi
repeat=${REPEAT:-1}
case "$repeat" in '' | *[!0-9]*) repeat=1 ;; esac
compare=0
[ "${COMPARE:-0}" = 0 ] || compare=1

total=0 unknown=
flavours=
guests=
for a in $list; do
	maybe=
	case "$a" in *\?) a=${a%\?} maybe=" if its probe boots" ;; esac
	accel_kind "$a" > /dev/null 2>&1 || continue
	f=$(accel_flavour "$a")
	# its own flavour and those its code-layout variants are relinked from
	for b in $(accel_builds "$a" "$compare"); do
		case " $flavours " in *" $b "*) ;; *) flavours="$flavours $b" ;; esac
	done
	s=$(accel_attr "$a" guest_s 2> /dev/null || true)
	nb=$(accel_boots "$a")
	case "$nb" in '' | *[!0-9]*) nb=1 ;; esac
	[ "$compare" = 0 ] || [ "$(accel_kind "$a")" != counted ] || nb=1
	# code-layout variants: the paired boots rounded up to a multiple of
	# them (run-bench.sh run_plan), and a relink of each per kernel
	nl=$(accel_layouts "$a" "$compare")
	link=0
	if [ "$nl" -gt 1 ]; then
		per=$(( (nb - 1 + nl - 1) / nl ))
		[ "$per" -ge 1 ] || per=1
		nb=$((1 + per * nl))
		link=$((nl * $(flavour_attr "$f" relink_s 2> /dev/null || echo 5)))
	fi
	if [ -n "$s" ]; then
		s=$(((s + link + (nb - 1) * $(accel_attr "$a" boot_s 2> /dev/null || echo 0)) * repeat * (compare + 1)))
		guests="$guests, $a$( [ "$nb" = 1 ] || echo " ($nb boots$( [ "$nl" = 1 ] || echo " over $nl code layouts"))") ~$(((s + 59) / 60)) min$maybe"
		total=$((total + s))
	else
		guests="$guests, $a (no estimate)$maybe"
		unknown=" + what has no estimate"
	fi
done
kernels=
for f in $flavours; do
	if [ -f "$(flavour_kernel "$build" "$f")" ] && [ -f "$build/initramfs-$f.cpio.gz" ]; then
		kernels="$kernels, $f built"
		continue
	fi
	s=$(flavour_attr "$f" build_s 2> /dev/null || true)
	if [ -n "$s" ]; then
		kernels="$kernels, $f ~$(((s + 59) / 60)) min clean (less with ccache hits)"
		total=$((total + s))
	else
		kernels="$kernels, $f (no estimate)"
		unknown=" + what has no estimate"
	fi
done
for f in $flavours; do
	[ "$compare" = 1 ] || break
	if [ -f "$(flavour_kernel "$build/compare/patched" "$f")" ]; then
		kernels="$kernels, patched $f: what the patches change"
	else
		s=$(flavour_attr "$f" build_s 2> /dev/null || echo 0)
		kernels="$kernels, patched $f ~$(((s / 2 + 59) / 60)) min"
		total=$((total + s / 2))
	fi
done
echo "[bench] plan: kernels: ${kernels#, }"
echo "[bench] plan: guests$( [ "$repeat" = 1 ] || echo " x$repeat runs (REPEAT)")$( [ "$compare" = 0 ] || echo ", two kernels each"): ${guests#, }"
echo "[bench] plan: about $(((total + 59) / 60)) min in all$unknown (bench/times.conf, measured on 2 cores; ${HOST_SPEED:-not scaled to this host: no control loop built yet})"
