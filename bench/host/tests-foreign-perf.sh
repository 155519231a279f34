#!/bin/sh
# Host tests of the perf packed into the 32-bit guests (foreign-perf.sh),
# booting no system guest: for every flavour whose record has a debarch and
# "perf 1", take the archive make packed of linux-perf:DEBARCH (BUILD/perf-
# FLAVOUR.cpio.gz; packed here when missing), pack it again from the .deb
# cache (the same bytes, nothing downloaded), unpack it into a scratch root
# and run the packed perf there under qemu-user (qemu-i386, qemu-arm: the
# flavour's qemu-system-X less "system-"; the host kernel need not run
# 32-bit binaries itself).  Under qemu-user perf_event_open is not
# available, so perf stat can only be shown to start and report its event.
#
# usage: tests-foreign-perf.sh TOP BUILD KOBJ
#        KOBJ: a kernel object tree with usr/gen_init_cpio (make check:
#        BUILD/obj-x86_64); the .debs are cached in BUILD/debs/DEBARCH, as
#        make's own builds of the archive keep them
# prints PASS:/FAIL: lines (bench/host/testlib.sh)
set -eu
top=$(cd "$1" && pwd)
build=$2 kobj=$3
TEST_PREFIX="perf32: "
# shellcheck source=bench/host/testlib.sh
. "$top/bench/host/testlib.sh"
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"

# note FILE: the last lines of FILE under a failed test.
note() { tail -n 5 "$1" | sed 's/^/    /'; }

for f in $FLAVOURS; do
	a=$(flavour_attr "$f" debarch 2> /dev/null) || continue
	if [ "$a" = - ] || [ "$(flavour_attr "$f" perf)" != 1 ]; then continue; fi
	q=qemu-$(flavour_attr "$f" qemu | sed 's/^qemu-system-//')
	cpio=$tmp/perf-$f.cpio.gz log=$tmp/$f.log root=$tmp/root-$f
	cache=$build/debs/$a
	if ! command -v "$q" > /dev/null; then
		fail "$f: $q (qemu-user) is installed (bench/host/deps.sh check)"
		continue
	fi

	# The archive make built for the flavour (from the same .deb cache) is
	# the first run when there is one; else this script packs it.
	built=$build/perf-$f.cpio.gz
	if [ -f "$built" ]; then
		cp "$built" "$cpio"
		pass "$f: make packed linux-perf:$a into $(basename "$built") ($(wc -c < "$cpio") bytes)"
	elif PERF_DEBS=$cache "$here/foreign-perf.sh" "$a" "$kobj" "$cpio" > "$log" 2>&1; then
		pass "$f: foreign-perf.sh packs linux-perf:$a ($(wc -c < "$cpio") bytes)"
	else
		fail "$f: foreign-perf.sh packs linux-perf:$a"
		note "$log"
		continue
	fi

	# A second run reuses every cached .deb and makes the same archive.
	ls -l --full-time "$cache" > "$tmp/cache1"
	PERF_DEBS=$cache "$here/foreign-perf.sh" "$a" "$kobj" "$cpio.2" > "$log.2" 2>&1 || true
	ls -l --full-time "$cache" > "$tmp/cache2"
	expect "$f: a second run downloads nothing and makes the same archive" \
		sh -c "grep -q '(0 downloaded' '$log.2' && cmp -s '$tmp/cache1' '$tmp/cache2' && cmp -s '$cpio' '$cpio.2'"

	mkdir -p "$root"
	(cd "$root" && gzip -dc "$cpio" | cpio -id --quiet 2> /dev/null) || true
	nfiles=$(find "$root" -type f | wc -l)
	# The guest has no /etc/ld.so.cache; without an (empty, ignored) one
	# in the root, qemu-user's -L would let the loader read the host's.
	mkdir -p "$root/etc"
	: > "$root/etc/ld.so.cache"

	# perf --version: the version of apt's candidate linux-perf:DEBARCH
	# (what the script fetches), in the 6.1 series of the guest kernel.
	v=$(apt-cache show --no-all-versions "linux-perf:$a" | sed -n 's/^Version: //p' |
		sed -e 's/^[0-9]*://' -e 's/-[^-]*$//')
	got=$("$q" -L "$root" "$root/usr/bin/perf" --version 2>&1) || true
	case $v in 6.1.*) ok=0 ;; *) ok=1 ;; esac
	[ "$got" = "perf version $v" ] || ok=1
	ok "$ok" "$f: packed perf runs under $q: '$got' (linux-perf:$a candidate $v)"

	# Every object the loader maps is a file of the archive: none is
	# missing, none comes from the host, and nothing else is packed.
	"$q" -L "$root" -E LD_TRACE_LOADED_OBJECTS=1 "$root/usr/bin/perf" > "$tmp/trace" 2>&1 || true
	awk '{ print ($2 == "=>") ? $3 : $1 }' "$tmp/trace" > "$tmp/paths"
	ok=0
	grep -q 'not found' "$tmp/trace" && ok=1
	while read -r p; do
		if [ ! -f "$root$p" ] || [ -L "$root$p" ]; then
			echo "    not in the archive: $p"
			ok=1
		fi
	done < "$tmp/paths"
	[ "$(($(wc -l < "$tmp/paths") + 1))" = "$nfiles" ] ||
		{ echo "    $(wc -l < "$tmp/paths") objects mapped, $nfiles files packed"; ok=1; }
	ok "$ok" "$f: the loader maps $(wc -l < "$tmp/paths") objects, each one packed; the archive holds them and perf only"

	# perf stat starts, runs the workload and reports its event (a count,
	# or <not supported> where perf_event_open is missing, as here).
	"$q" -L "$root" "$root/usr/bin/perf" stat -e task-clock true > "$tmp/stat" 2>&1 && rc=0 || rc=$?
	if [ "$rc" = 0 ] && grep -q "Performance counter stats for 'true'" "$tmp/stat" &&
		grep -Eq '^ *([0-9.,]+|<not supported>) +msec +task-clock' "$tmp/stat"; then
		pass "$f: perf stat -e task-clock true starts under $q ($(grep -Eo '([0-9.,]+|<not supported>) +msec' "$tmp/stat" | head -n 1))"
	else
		fail "$f: perf stat -e task-clock true starts under $q (exit $rc)"
		note "$tmp/stat"
	fi
done
test_summary
