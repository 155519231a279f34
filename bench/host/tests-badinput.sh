#!/bin/sh
# Host tests of bad input: each case must end in one line naming the
# problem, a non-zero exit, and no table presented as a result (a run that
# did not get to the end is marked RUN/INCOMPLETE, results/latest is not
# moved to it, and the table tools refuse it).
#
# usage: tests-badinput.sh TOP TOOLS_DIR
#            BENCH_ARGS, ACCEL, REPEAT; bad run directories for make
#            tables / plots and mkcover; and make bench's runner on a fake
#            UML "kernel" (a shell script) that hangs, panics, or whose
#            results fill the disk: no kernel needed
#        tests-badinput.sh TOP TOOLS_DIR guest BUILD ACCEL
#            a real ACCEL guest that hangs, panics, or whose results do not
#            fit in its results image (the built kernel and initramfs)
# prints PASS:/FAIL: lines (bench/host/testlib.sh)
set -eu
top=$(cd "$1" && pwd)
tools=$(cd "$2" && pwd)
mode=${3:-host}
TEST_PREFIX="badinput: "
# shellcheck source=bench/host/testlib.sh
. "$top/bench/host/testlib.sh"
here=$top/bench/host
fixtures=$top/results/fixtures

# no_tables DIR: no results.csv or table.txt in DIR.
no_tables() { [ ! -e "$1/results.csv" ] && [ ! -e "$1/table.txt" ]; }
# runs DIR: the run directories under DIR (not latest), one per line.
runs() { find "$1" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort; }

if [ "$mode" = guest ]; then
	build=$4 accel=$5
	# shellcheck source=bench/host/accels.sh
	. "$here/accels.sh"
	kernel=$(flavour_kernel "$build" "$(accel_flavour "$accel")")
	initrd=$build/initramfs-$(accel_flavour "$accel").cpio.gz
	# An /init that sleeps: the guest never powers off.
	refused "guest($accel): a hung guest is killed after TIMEOUT; the runner names accel and plan" \
		"^\[run\] $accel guest plan=probe hung: killed after 20s" \
		env TIMEOUT=20 "$here/run-guest.sh" "$accel" probe "$tmp/g" "$kernel" "$initrd" \
		rdinit=/bin/busybox -- sleep 600
	expect "guest($accel): the hang's one line is in OUTDIR/failure.txt" \
		grep -q "plan=probe hung" "$tmp/g/failure.txt"
	# The same guest, silent: declared hung after SILENT_S, not TIMEOUT.
	# (its CPU time, after the boot, a small part of the wall time: blocked)
	refused "guest($accel): a guest that prints nothing is declared hung after SILENT_S" \
		"^\[run\] $accel guest plan=probe hung: printed nothing, blocked: [0-9.]+ s of CPU time in [0-9]+ s wall \(SILENT_S; [0-9]+ s since the start\)" \
		env SILENT_S=8 TIMEOUT=300 "$here/run-guest.sh" "$accel" probe "$tmp/g" "$kernel" "$initrd" \
		rdinit=/bin/busybox -- sleep 600
	# An /init that exits: the kernel panics (Attempted to kill init!).
	refused "guest($accel): a panic is reported with the console's panic line" \
		"^\[run\] $accel guest plan=probe panicked after [0-9]+s: Kernel panic - not syncing: Attempted to kill init" \
		env TIMEOUT=60 "$here/run-guest.sh" "$accel" probe "$tmp/g" "$kernel" "$initrd" \
		rdinit=/bin/busybox -- true
	# A results image too small for what the guest wrote to /out.
	refused "guest($accel): results that do not fit in the results image (GUEST_DISK_SIZE=4K)" \
		"^\[run\] $accel guest plan=probe: its results did not fit in the 4K results image \(GUEST_DISK_SIZE\): cannot write the results to /dev/" \
		env TIMEOUT=60 GUEST_DISK_SIZE=4K "$here/run-guest.sh" "$accel" probe "$tmp/g" "$kernel" "$initrd"
	# the same guest with room for its results (control)
	# (its last lines and the console's shown when it fails)
	if "$here/run-guest.sh" "$accel" probe "$tmp/g" "$kernel" "$initrd" > "$tmp/out" 2>&1; then
		pass "guest($accel): the same plan with the default image succeeds"
	else
		fail "guest($accel): the same plan with the default image succeeds"
		tail -n 8 "$tmp/out" | sed 's/^/    /'
		tail -n 8 "$tmp/g/console.log" 2> /dev/null | sed 's/^/    console: /'
	fi
	test_summary
	exit
fi

# --- BENCH_ARGS, ACCEL, REPEAT: refused before anything is created ---
res=$tmp/results
# bench VAR=VALUE... [--check]: make bench's runner with that environment
bench() {
	(
		while [ $# -gt 0 ] && [ "$1" != --check ]; do
			export "${1?}"
			shift
		done
		RESULTS_DIR=$res exec "$here/run-bench.sh" "$top" "$tmp/nobuild" "$@"
	)
}
barg() { # NAME ARGS PATTERN
	refused "BENCH_ARGS=\"$2\": $1" "^\[bench\] BENCH_ARGS: $3" bench "BENCH_ARGS=$2" ACCEL=tcg
}
barg "unknown key" "bench.samples=5 bench.sampels=5" "unknown option bench.sampels \(known: bench.samples "
barg "not bench.KEY=VALUE" "samples=5" "'samples=5' is not bench.KEY=VALUE"
barg "no value" "bench.samples=" "bench.samples= has no value"
barg "no key" "bench.=5" "'bench.=5': '' is not an option name"
barg "no =" "bench.samples" "'bench.samples' is not bench.KEY=VALUE"
barg "not a number" "bench.samples=many" "bench.samples=many: not a number \(1..1000: samples per cell\)"
barg "below the range" "bench.sample_us=10" "bench.sample_us=10: out of range, must be a number 100..1000000"
barg "above the range" "bench.samples=1001" "bench.samples=1001: out of range, must be a number 1..1000"
barg "a list item out of range" "bench.skbs=1,200000" "bench.skbs=1,200000: '200000' out of range, each must be a number 1..100000"
barg "an empty list item" "bench.skbs=1,,10" "bench.skbs=1,,10: an empty item in the list"
barg "not 0 or 1" "bench.perf=yes" "bench.perf=yes: must be 0 or 1"
barg "an unknown engine" "bench.engines=old,nwe" "bench.engines=old,nwe: unknown engine 'nwe' \(known: old new "
barg "an unknown filter" "bench.filters=fprog3" "bench.filters=fprog3: unknown filter 'fprog3' \(known: fprog1 fprog2"
barg "a glob" "bench.skbs=*" "bench.skbs=\*: only letters, digits"
barg "the runner's own key" "bench.plan=check" "bench.plan is set by the runner"
refused "ACCEL=bogus: unknown accelerator" \
	"^\[bench\] unknown accelerator 'bogus' in ACCEL \(known: auto kvm uml icount tcg" bench "ACCEL=tcg bogus"
refused "REPEAT=0: refused" "^\[bench\] REPEAT=0: must be a positive number" bench REPEAT=0 ACCEL=tcg
for b in 0 1025 x 08 -1; do
	refused "BOOTS=$b: refused" "^\[bench\] BOOTS=$b: must be a number from 1 to 1024" bench "BOOTS=$b" ACCEL=tcg
done
expect "BOOTS=1024 passes the check" bench BOOTS=1024 ACCEL=tcg --check
for l in 0 65 x 08 -1; do
	refused "LAYOUTS=$l: refused" "^\[bench\] LAYOUTS=$l: must be a number from 1 to 64" bench "LAYOUTS=$l" ACCEL=tcg
done
refused "LAYOUT_SEEDS with a word that is no number: refused" \
	"^\[bench\] LAYOUT_SEEDS: '1x' is not a number" bench "LAYOUT_SEEDS=5 1x" ACCEL=tcg
refused "LAYOUT_SEEDS with a seed of 19 digits: refused" \
	"^\[bench\] LAYOUT_SEEDS: '1234567890123456789' has more than 18 digits" \
	bench "LAYOUT_SEEDS=1234567890123456789" ACCEL=tcg
refused "LAYOUT_BUILDS naming a flavour that does not relink: refused with the ones that do" \
	"^\[bench\] LAYOUT_BUILDS: 'arm' is not a flavour whose variants relink \(flavours.conf relink 1: x86_64 um um-align64 i386" \
	bench "LAYOUT_BUILDS=um arm" ACCEL=tcg
expect "LAYOUTS=64 LAYOUT_SEEDS='1 2' pass the check" bench LAYOUTS=64 "LAYOUT_SEEDS=1 2" ACCEL=tcg --check
# An accelerator named in ACCEL whose needs (/dev/kvm) is not there stops
# before anything is built, whatever this machine has: a fixture registry
# whose kvm needs a path that does not exist.
sed "s|/dev/kvm|$tmp/no-such-kvm|" "$top/bench/accels.conf" > "$tmp/accels-nokvm.conf"
refused "ACCEL=kvm without its device: one line, before any build" \
	"^\[bench\] ACCEL=kvm: kvm needs $tmp/no-such-kvm, which this machine does not have \(leave ACCEL unset" \
	bench "ACCELS_CONF=$tmp/accels-nokvm.conf" ACCEL=kvm
refused "make bench ACCEL=kvm-i386 without its device stops in bench-input" \
	"^\[bench\] ACCEL=kvm-i386: kvm-i386 needs $tmp/no-such-kvm" \
	make -s -C "$top" bench BUILD="$tmp/nobuild" ACCEL=kvm-i386 ACCELS_CONF="$tmp/accels-nokvm.conf"
refused "ARCHES=sparc: unknown architecture" \
	"^\[bench\] unknown architecture 'sparc' in ARCHES \(known: x86_64 i386 arm32\)" bench "ARCHES=x86_64 sparc"
expect "refusals create no results directory" test ! -e "$res"
expect "valid BENCH_ARGS and ACCEL pass the check (--check)" \
	bench "BENCH_ARGS=bench.samples=5 bench.skbs=1,10000 bench.engines=old,new bench.perf=0" \
	"ACCEL=tcg icount" --check
refused "make bench refuses a bad BENCH_ARGS before building (bench-input)" \
	"^\[bench\] BENCH_ARGS: bench.samples=0: out of range" \
	make -s -C "$top" bench BUILD="$tmp/nobuild" BENCH_ARGS=bench.samples=0
expect "make bench built nothing" test ! -e "$tmp/nobuild"
refused "run-guest.sh refuses a bad bench.* argument" "^\[run\] bench.rounds=0: out of range" \
	"$here/run-guest.sh" tcg bench "$tmp/g" "$tmp/nobuild/bzImage" "$tmp/nobuild/initrd" bench.rounds=0
refused "run-guest.sh refuses an unknown plan" "^\[run\] unknown plan 'bogus'" \
	"$here/run-guest.sh" tcg bogus "$tmp/g" "$tmp/nobuild/bzImage" "$tmp/nobuild/initrd"
refused "run-guest.sh refuses an unknown accelerator" "^\[run\] unknown accelerator 'kvmm'" \
	"$here/run-guest.sh" kvmm bench "$tmp/g" "$tmp/nobuild/bzImage" "$tmp/nobuild/initrd"

# --- a fake build: a UML "kernel" that is a shell script (FAKE_GUEST) ---
fb=$tmp/build
mkdir -p "$fb/obj-um" "$fb/obj-i386" "$fb/linux/.git" "$tmp/files"
ln -s "$tools" "$fb/tools"
echo "CONFIG_FAKE=y" > "$fb/obj-um/.config"
: > "$fb/initramfs-um.cpio.gz"
printf 'kernelversion:\n\t@echo 6.1.0-fake\n' > "$fb/linux/Makefile"
echo "applied_hash=fake" > "$fb/linux/.git/bench-series"
# FAKE_GUEST: ok (hands back FAKE_FILES), hang, panic (the bench plan; a
# probe boots fine); and silent from the start: spin (a busy loop), block
# (sleeps), slow (burns FAKE_BURN_CS hundredths of a second of CPU time in
# its own shell, then says for how long it was silent and does what ok
# does)
cat > "$fb/obj-um/linux" <<'EOF'
#!/bin/sh
disk=
for a in "$@"; do case "$a" in ubd0=*) disk=${a#ubd0=} ;; esac; done
# burn CS: busy until this shell used CS hundredths of a second of CPU
burn() {
	want=$1 hz=$(getconf CLK_TCK)
	while :; do
		i=0
		while [ $i -lt 2000 ]; do i=$((i + 1)); done
		read -r st < /proc/$$/stat
		set -- ${st##*) }
		[ $(((${12} + ${13}) * 100 / hz)) -lt "$want" ] || return 0
	done
}
case "$FAKE_GUEST" in
spin) while :; do :; done ;;
block) exec sleep 600 ;;
slow)
	read -r t0 _ < /proc/uptime
	burn "$FAKE_BURN_CS"
	read -r t1 _ < /proc/uptime
	echo "fake: silent for $((${t1%.*}${t1#*.} - ${t0%.*}${t0#*.})) cs" ;;
esac
echo "Linux version 6.1.0-fake (tests-badinput.sh)"
# the probe an explicit ACCEL=uml gets first (run-bench.sh) boots fine
case " $* " in
*" bench.plan=probe "*)
	p=$(mktemp -d)
	echo "status=ok" > "$p/status"
	tar -cf "$disk" -C "$p" .
	rm -rf "$p"
	echo "[guest] plan probe finished: ok"
	exit 0 ;;
esac
echo "[guest] cell 1/4: engine=old filter=fprog1 skbs=1"
case "$FAKE_GUEST" in
hang) exec sleep 600 ;;
panic)
	echo "[    2.345678] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100"
	exit 0 ;;
esac
tar -cf "$disk" -C "$FAKE_FILES" .
echo "[guest] plan bench finished: ok"
EOF
chmod +x "$fb/obj-um/linux"
cp -R "$fixtures/paired/uml/." "$tmp/files/"
rm -f "$tmp/files/host.txt"
echo "status=ok" > "$tmp/files/status"
# (one build, LAYOUTS=1: the fake build has no objects to relink)
fake() { # FAKE_GUEST [VAR=VALUE...]: make bench's runner, ACCEL=uml, on the fake build
	m=$1
	shift
	env FAKE_GUEST="$m" FAKE_FILES="$tmp/files" RESULTS_DIR="$res" ACCEL=uml LAYOUTS=1 \
		PLOTS=0 PIN_CPU=none "$@" "$here/run-bench.sh" "$top" "$fb"
}
refused "ACCEL=icount-i386: its flavour is not built" \
	"^\[bench\] ACCEL=icount-i386 boots kernel flavour i386, which is not built \(no .*/obj-i386/arch/x86/boot/bzImage\): make initramfs-i386" \
	env ACCEL=icount-i386 RESULTS_DIR="$res" "$here/run-bench.sh" "$top" "$fb"
expect "fake guest: a good run makes its tables and moves latest (control)" fake ok
good=$(readlink "$res/latest" || true)
expect "fake guest: the good run has table.txt, no INCOMPLETE" \
	sh -c "[ -s '$res/$good/table.txt' ] && [ ! -e '$res/$good/INCOMPLETE' ]"
sleep 1	# run ids are seconds

# check_incomplete NAME PATTERN: the newest run is marked INCOMPLETE with a
# reason matching PATTERN, has no tables and latest still points at $good.
check_incomplete() {
	new=$(runs "$res" | tail -n 1)
	expect "$1: the run is marked INCOMPLETE with the reason" grep -Eq -- "$2" "$new/INCOMPLETE"
	expect "$1: no results.csv or table.txt in the run" no_tables "$new"
	expect "$1: results/latest is not moved" test "$(readlink "$res/latest")" = "$good"
	refused "$1: make tables refuses the incomplete run" "^mktables.sh: .* is marked incomplete: " \
		make -s -C "$top" tables RUN="$new"
	expect "$1: still no tables after make tables" no_tables "$new"
}
refused "fake guest: a hang is killed; the runner names accel and plan" \
	"^\[run\] uml guest plan=bench hung: killed after 2s \(TIMEOUT\)" fake hang TIMEOUT=2
expect "fake guest: the hang's run ends in one [bench] line" \
	grep -q '^\[bench\] run incomplete: .*/INCOMPLETE: uml guest plan=bench hung' "$tmp/out"
check_incomplete "fake guest hang" "^uml guest plan=bench hung: killed after 2s"
sleep 1
refused "fake guest: a panic is reported with its panic line" \
	"^\[run\] uml guest plan=bench panicked after [0-9]+s: Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100; console in " \
	fake panic
check_incomplete "fake guest panic" "panicked after [0-9]+s: Kernel panic - not syncing: Attempted to kill init!"
sleep 1
# the guest hands back a truncated cells.txt: the tables stage fails
head -c 300 "$fixtures/paired/uml/cells.txt" > "$tmp/files/cells.txt"
refused "fake guest: a truncated cells.txt fails the tables stage with file and line" \
	"^\[bench\] run incomplete: .*INCOMPLETE: the tables stage failed: mkcsv: .*/uml/cells.txt:2: truncated \(no newline at the end of the file\)" \
	fake ok
check_incomplete "fake guest truncated cells.txt" "^the tables stage failed: mkcsv: .*cells.txt:2: truncated"
cp "$fixtures/paired/uml/cells.txt" "$tmp/files/cells.txt"

# The silence rule (run-guest.sh, SILENT_S): a guest that prints nothing is
# hung when it spins through SILENT_S seconds of CPU time, or blocks (uses
# less than a tenth of SILENT_S seconds of wall time); one that is merely
# slow, its CPU shared, is not.
silence() { # FAKE_GUEST OUTDIR [VAR=VALUE...]: run-guest.sh on the fake kernel (SILENT_S=4)
	m=$1 o=$2
	shift 2
	rm -rf "$o"
	env FAKE_GUEST="$m" FAKE_FILES="$tmp/files" PIN_CPU=none SILENT_S=4 TIMEOUT=30 "$@" \
		"$here/run-guest.sh" uml bench "$o" "$fb/obj-um/linux" "$fb/initramfs-um.cpio.gz"
}
refused "fake guest: silent and spinning: hung after SILENT_S seconds of its CPU time" \
	"^\[run\] uml guest plan=bench hung: printed nothing in 2 s of its CPU time \(SILENT_S; [0-9]+ s wall\), killed then; console in " \
	silence spin "$tmp/silent" SILENT_S=2
refused "fake guest: silent and blocked: hung after SILENT_S seconds of wall time" \
	"^\[run\] uml guest plan=bench hung: printed nothing, blocked: 0\.[0-9] s of CPU time in [2-4] s wall \(SILENT_S; [0-9]+ s since the start\), killed then; console in " \
	silence block "$tmp/silent" SILENT_S=2
# throttle PIDFILE: stop the process in PIDFILE (the slow fake guest, which
# burns its CPU in its own shell) for 1 s, let it run for 2 s, and again
# (a CPU quota of 67%), until it is gone
throttle() {
	n=0
	while [ ! -s "$1" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	p=$(cat "$1" 2> /dev/null) || return 0
	while [ -f "$1" ] && kill -STOP "$p" 2> /dev/null; do
		sleep 1
		kill -CONT "$p" 2> /dev/null || break
		sleep 2
	done
	kill -CONT "$p" 2> /dev/null || true
}
# silent for 3.4 s of CPU time (0.85 SILENT_S) at 67%: 5 s of wall time or
# more, which the rule of wall time (before) declared hung after 4 s (with
# 3 s of CPU time one run here saw 399 cs of wall time: the throttle starts
# after the guest's first moments)
rm -rf "$tmp/slow"
throttle "$tmp/slow/.guest.pid" &
thr=$!
succeeds "fake guest: silent, slowed (stopped 1 s in 3): not hung before SILENT_S seconds of its CPU time" \
	"$tmp/slowout" silence slow "$tmp/slow" FAKE_BURN_CS=340
wait "$thr" || true
cs=$(sed -n 's/^fake: silent for \([0-9]*\) cs$/\1/p' "$tmp/slow/console.log" 2> /dev/null)
expect "fake guest: the slowed guest was silent longer than SILENT_S seconds of wall time (${cs:-?} cs)" \
	test "${cs:-0}" -gt 400
refused "run-guest.sh refuses a SILENT_S that is no number of seconds" \
	"^\[run\] SILENT_S=1m: must be a number of seconds > 0" silence ok "$tmp/silent" SILENT_S=1m
refused "RESULTS_DIR unwritable (under /dev/null): refused before the boot" \
	"^\[bench\] cannot create the run directory /dev/null/results/" \
	env FAKE_GUEST=ok FAKE_FILES="$tmp/files" RESULTS_DIR=/dev/null/results ACCEL=uml LAYOUTS=1 PLOTS=0 \
	"$here/run-bench.sh" "$top" "$fb"

# A full disk: a small tmpfs in a user and mount namespace of our own
# (unshare -r -m: no root, nothing mounted outside this test).
full() { # SIZE[,ro] COMMAND...: COMMAND with $tmp/full a tmpfs of SIZE
	o=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -r -m sh -c 'mount -t tmpfs -o "size=$0" tmpfs "$1" && shift && exec "$@"' \
		"$o" "$tmp/full" "$@"
}
mkdir -p "$tmp/full"
if full 64k true 2> /dev/null; then
	fres=$tmp/full/results
	# shellcheck disable=SC2016 # expanded by the inner sh
	infull() { # SIZE MODE [VAR=VALUE...]: the fake run into a tmpfs of SIZE; then its state
		s=$1 m=$2
		shift 2
		full "$s" sh -c 'st=$1; shift; "$@"; rc=$?; { find "$0"; cat "$0"/*/INCOMPLETE; } > "$st" 2>&1; exit $rc' \
			"$fres" "$tmp/fstate" env FAKE_GUEST="$m" FAKE_FILES="$tmp/files" RESULTS_DIR="$fres" ACCEL=uml LAYOUTS=1 \
			PLOTS=0 PIN_CPU=none "$@" "$here/run-bench.sh" "$top" "$fb"
	}
	refused "full disk: the results image cannot be allocated (256M on a 1M tmpfs)" \
		"^\[run\] uml guest plan=bench: cannot create the 256M results image .*/.out.img: .*No space left on device" \
		infull 1m ok
	expect "full disk: the run is marked INCOMPLETE with the reason" \
		grep -q "cannot create the 256M results image .*No space left on device" "$tmp/fstate"
	expect "full disk: no table.txt, no latest" sh -c "! grep -q 'table.txt\|latest' '$tmp/fstate'"
	# room for the image, not for unpacking what the guest wrote into it
	head -c 700000 /dev/zero | tr '\0' x > "$tmp/files/perf.txt"
	refused "full disk: the guest's results cannot be unpacked into the output directory" \
		"^\[run\] uml guest plan=bench: cannot unpack its results into .* \([0-9]+ KiB free there\): tar: " \
		infull 1200k ok GUEST_DISK_SIZE=800K
	expect "full disk (unpacking): the run is marked INCOMPLETE" \
		grep -q "cannot unpack its results" "$tmp/fstate"
	rm -f "$tmp/files/perf.txt"
	refused "read-only results directory: refused before the boot" \
		"^\[bench\] cannot create the run directory .*/full/results/" infull 64k,ro ok
else
	skip "full disk: unshare -r -m cannot mount a tmpfs here"
fi

# --- make tables / make plots / mkcover on missing or corrupt runs ---
tables() { make -s -C "$top" tables RUN="$1"; }
plots() { make -s -C "$top" plots RUN="$1"; }
cover() { "$tools/mkcover" "$1" "$tmp/notree" "$tmp/cover.patch"; }
# copy NAME: a fresh copy of the paired fixture run (raw output, results.csv,
# ratios.csv, table.txt) in $tmp/NAME
copy() { rm -rf "${tmp:?}/$1"; cp -R "$fixtures/paired" "$tmp/$1"; echo "$tmp/$1"; }

refused "make tables RUN=missing: no run directory" "^mktables.sh: no run directory $tmp/nope" tables "$tmp/nope"
refused "make plots RUN=missing: no run directory" "^render.sh: no run directory $tmp/nope" plots "$tmp/nope"
refused "mkcover on a missing run: no run directory" "^mkcover: no run directory: $tmp/nope" cover "$tmp/nope"
r=$(copy norun)
rm "$r/run.txt"
refused "make tables: no run.txt" "^mktables.sh: no $r/run.txt \(not a run directory\)" tables "$r"
refused "mkcover: no run.txt" "^mkcover: cannot read: $r/run.txt" cover "$r"
r=$(copy trunc)
head -c 500 "$fixtures/paired/uml/cells.txt" > "$r/uml/cells.txt"
refused "make tables: a truncated cells.txt (file and line)" \
	"^mkcsv: $r/uml/cells.txt:3: truncated \(no newline at the end of the file\)" tables "$r"
expect "make tables: a truncated cells.txt leaves no results.csv or table.txt" no_tables "$r"
r=$(copy garbled)
sed -i '2s/.*/\x01\x02garbage \xff/' "$r/uml/cells.txt"
sed -i '3s/median=[0-9.]*/median=7.5e/' "$r/uml/cells.txt"
refused "make tables: a garbled cells.txt line" "^mkcsv: $r/uml/cells.txt:2: not a result line" tables "$r"
expect "make tables: the garbled number is named too" grep -q "cells.txt:3: median=7.5e is not a number" "$tmp/out"
expect "make tables: a garbled cells.txt leaves no results.csv or table.txt" no_tables "$r"
r=$(copy ptrunc)
head -c 1000 "$fixtures/paired/uml/paired.txt" > "$r/uml/paired.txt"
refused "make tables: a truncated paired.txt (file and line)" \
	"^mkratios: $r/uml/paired.txt:[0-9]+: truncated \(no newline at the end of the file\)" tables "$r"
expect "make tables: a truncated paired.txt leaves no table.txt, results.csv, ratios.csv" \
	sh -c "[ ! -e '$r/ratios.csv' ] && [ ! -e '$r/table.txt' ] && [ ! -e '$r/results.csv' ]"
r=$(copy pgarbled)
sed -i '5s/.*/paired filter=fprog1 packet=tcp22-payload skbs=1 placement=0 round=3 old=2x.5 new=1.0/' "$r/uml/paired.txt"
refused "make tables: a garbled paired.txt round" "^mkratios: $r/uml/paired.txt:5: old=2x.5 is not a number > 0" tables "$r"
sed -i '5s/.*/#!garbage/' "$r/uml/paired.txt"
refused "make tables: a paired.txt line that is no paired line" "^mkratios: $r/uml/paired.txt:5: not a paired line" tables "$r"
expect "make tables: a garbled paired.txt leaves no tables" no_tables "$r"
r=$(copy empty)
: > "$r/uml/cells.txt"
refused "make tables: an empty cells.txt" "^mkcsv: $r/uml/cells.txt: no result lines" tables "$r"
rm "$r/uml/cells.txt"
refused "make tables: no cells.txt" "^mkcsv: $r/uml/cells.txt: missing \(the guest wrote no cells\)" tables "$r"
: > "$r/uml/paired.txt"
refused "make tables: an empty paired.txt" "^mkratios: no paired rounds in $r/uml/paired.txt" \
	sh -c "cp '$fixtures/paired/uml/cells.txt' '$r/uml/' && make -s -C '$top' tables RUN='$r'"
rm -rf "$r/uml" "$r/icount"
refused "make tables: a run with no accelerator's output" "^mkcsv: no <accel>/host.txt under $r" tables "$r"
expect "make tables: the empty run has no tables" no_tables "$r"
r=$(copy crashed)
echo "status=crashed" > "$r/uml/status"
refused "make tables: a guest whose plan did not end ok" \
	"^mkcsv: $r/uml/status:1: the guest's plan did not end ok \('status=crashed'\)" tables "$r"
r=$(copy csv)
head -c 2000 "$fixtures/paired/results.csv" > "$r/results.csv"
refused "make plots: a truncated results.csv (file and line)" \
	"^$r/results.csv:[0-9]+: truncated \(no newline at the end of the file\)" plots "$r"
refused "mkcover: a truncated results.csv" "^$r/results.csv:[0-9]+: truncated" cover "$r"
refused "mktable: a truncated results.csv" "^$r/results.csv:[0-9]+: truncated" "$tools/mktable" "$r/results.csv"
cp "$fixtures/paired/results.csv" "$r/results.csv"
sed -i '3s/,\([0-9.]*\),\([0-9.]*\),\([0-9.]*\),\([0-9.]*\),\(ns\|insns\),/,\1,abc,\3,\4,\5,/' "$r/results.csv"
refused "make plots: a garbled number in results.csv" "^$r/results.csv:3: median 'abc' is not a number" plots "$r"
cp "$fixtures/paired/results.csv" "$r/results.csv"
sed -i '4s/,[^,]*$//' "$r/results.csv"
refused "mktable: a results.csv row with a field missing" \
	"^$r/results.csv:4: [0-9]+ fields, the header has [0-9]+ \(truncated or garbled\)" "$tools/mktable" "$r/results.csv"
r=$(copy marked)
echo "uml guest plan=bench hung: killed after 900s (TIMEOUT)" > "$r/INCOMPLETE"
refused "make tables: a run marked INCOMPLETE is refused with its reason" \
	"^mktables.sh: $r is marked incomplete: uml guest plan=bench hung" tables "$r"
refused "make plots: a run marked INCOMPLETE" "^render.sh: $r is marked incomplete: uml guest plan=bench hung" plots "$r"
refused "mkcover: a run marked INCOMPLETE" \
	"^$r/results.csv: the run is marked incomplete \($r/INCOMPLETE: uml guest plan=bench hung" cover "$r"
refused "mktable: the results.csv of a run marked INCOMPLETE" \
	"^$r/results.csv: the run is marked incomplete" "$tools/mktable" "$r/results.csv"
expect "mkcover wrote no cover letter on any of these" test ! -e "$tmp/cover.patch"

test_summary
