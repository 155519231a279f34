#!/bin/sh
# Host tests of the estimates' scaling to this host (accels.sh
# host_speed_probe, host_scaled; estimate.sh): a host whose control loop
# reads twice the reference's gets twice bench/times.conf's figures.
#
# usage: tests-estimate.sh TOP
# prints PASS:/FAIL: lines (bench/host/testlib.sh)
set -eu
top=$(cd "$1" && pwd)
here=$top/bench/host
TEST_PREFIX="estimate: "
# shellcheck source=bench/host/testlib.sh
. "$here/testlib.sh"
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# make check probes this host and exports the scale: these tests set their own
unset HOST_SCALE_PCT HOST_SPEED
fails() { ! "$@"; }

ref=$(conf_get "$TIMES_CONF" host reference control_ns)
x86=$(conf_get "$TIMES_CONF" flavour x86_64 build_s)
# fake_control NS: a control loop whose median reads NS (the line format of
# bench/host/control.c)
fake_control() {
	mkdir -p "$tmp/$1"
	# shellcheck disable=SC2016 # the fake's own $1
	printf '#!/bin/sh\necho "tag=control filter=$1 packet=none engine=native skbs=1 samples=11 calls_per_sample=8192 min=%s median=%s mean=%s"\n' \
		"$1" "$1" "$1" > "$tmp/$1/control"
	chmod +x "$tmp/$1/control"
	echo "$tmp/$1/control"
}
slow=$(awk -v r="$ref" 'BEGIN { printf "%.3f", 2 * r }')
fc=$(fake_control "$slow")
expect "a control loop of twice the reference's median ($slow ns against $ref) scales by 200%" \
	test "$( (host_speed_probe "$fc"; echo "${HOST_SCALE_PCT:-}") )" = 200
expect "scaled by 200%, flavour x86_64's build_s is twice times.conf's ($x86 s)" \
	test "$(HOST_SCALE_PCT=200 flavour_attr x86_64 build_s)" = $((2 * x86))
expect "unscaled (no probe), the figure as measured" \
	test "$(flavour_attr x86_64 build_s)" = "$x86"
expect "a time key a record lacks still fails (relink_s of flavour debug)" \
	fails flavour_attr debug relink_s
expect "no control loop: HOST_SCALE_PCT stays unset" \
	test -z "$( (unset HOST_SCALE_PCT; host_speed_probe /nonexistent; echo "${HOST_SCALE_PCT:-}") )"
# make bench's plan on a host twice as slow: the x86_64 kernel's minutes doubled
mkdir -p "$tmp/build/tools"
cp "$(fake_control "$slow")" "$tmp/build/tools/control"
expect "make bench's estimate on a host twice as slow: x86_64 ~$(((2 * x86 + 59) / 60)) min, says x2.00" \
	sh -c "ACCEL=icount '$here/estimate.sh' '$tmp/build' > '$tmp/est.txt' &&
		grep -q 'x86_64 ~$(((2 * x86 + 59) / 60)) min clean' '$tmp/est.txt' && grep -q 'times x2.00' '$tmp/est.txt'"
test_summary
