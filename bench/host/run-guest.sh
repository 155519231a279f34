#!/bin/sh
# Boot the benchmark kernel (QEMU or UML, see accels.sh), run one plan, and collect what the
# guest wrote to /out into OUTDIR.  Prints the guest's progress lines,
# kills a hung guest after TIMEOUT seconds, and exits non-zero unless the
# guest reported status=ok.  A failure is one line on stderr, also in
# OUTDIR/failure.txt (run-bench.sh puts it in the run's INCOMPLETE): the
# accelerator, the plan and what happened (hung, panicked with the
# console's panic line, its results did not fit or could not be unpacked,
# the plan's status).
#
# usage: run-guest.sh ACCEL PLAN OUTDIR BZIMAGE INITRAMFS [bench.KEY=VALUE...]
#        (the bench.* words are checked against bench/args.conf; any other
#        word is passed on as a kernel argument)
# env:   TIMEOUT (seconds, default 900), GUEST_MEM (MiB, default 1024),
#        GUEST_DISK_SIZE (the results image, default 256M; allocated up
#        front, so a full disk is found before the boot), MODEL_PLUGIN
#        (bpfmodel.so, for an accelerator with a model record), SILENT_S
#        (seconds of CPU time a guest may print nothing for, default the
#        record's silent_s or 60; see the watchdog below), GUEST_INPUT (a
#        file the plan reads: below)
set -eu

accel=$1 plan=$2 outdir=$3 kernel=$4 initrd=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# shellcheck source=bench/host/benchargs.sh
. "$here/benchargs.sh"
# A debug kernel (KASAN, lockdep, kmemleak, ...) is many times slower and
# differently slow per engine: its figures would mean nothing.
if [ "$(accel_attr "$accel" debug || echo 0)" = 1 ]; then
	case "$plan" in
	bench | paired)
		echo "run-guest.sh: $accel boots a debug kernel (accels.conf: debug 1): it runs correctness plans only, never the timing plan '$plan'" >&2
		exit 2 ;;
	esac
fi
extra=$(flavour_attr "$(accel_flavour "$accel")" cmdline || true)
extra="$extra${extra:+ }$(accel_attr "$accel" cmdline || true)"
timeout=${TIMEOUT:-900}
size=${GUEST_DISK_SIZE:-256M}

# die WHY: the one-line failure, on stderr and (when it can be written)
# in OUTDIR/failure.txt.
die() {
	echo "[run] $*" >&2
	echo "$*" > "$outdir/failure.txt" 2> /dev/null || true
	exit 1
}

accel_kind "$accel" > /dev/null 2>&1 || { echo "[run] unknown accelerator '$accel' (known: $ACCELS)" >&2; exit 2; }
[ -f "$here/../guest/plan-$plan.sh" ] || { echo "[run] unknown plan '$plan' (bench/guest/plan-*.sh)" >&2; exit 2; }
for w in "$@"; do
	case "$w" in bench.*) why=$(bench_arg_check "$w") || { echo "[run] $why" >&2; exit 2; } ;; esac
done
for file in "$kernel" "$initrd"; do
	[ -f "$file" ] || { echo "[run] $accel: no $file (make initramfs-$(accel_flavour "$accel"))" >&2; exit 2; }
done

mkdir -p "$outdir" || { echo "[run] cannot create $outdir" >&2; exit 1; }
rm -f "$outdir/failure.txt"
# How the guest's /out comes back (accels.conf out): a raw disk image, or
# (out console) as base64 of a tar on the console after the plan, with no
# disk: a disk's I/O completes in host time, and so moves every later
# event of an icount guest.
out=$(accel_attr "$accel" out || echo disk)
disk=
if [ "$out" = console ]; then
	extra="$extra${extra:+ }bench.out=console"
else
	disk=$outdir/.out.img
	rm -f "$disk"
	# The whole image is allocated now (fallocate; truncate where the file
	# system cannot): a disk too full for it fails here, not in the guest.
	err=
	if ! err=$(fallocate -l "$size" "$disk" 2>&1); then
		case "$err" in
		*"not supported"*) err=$(truncate -s "$size" "$disk" 2>&1) && err= ;;
		esac
	fi
	if [ -n "$err" ]; then
		rm -f "$disk"
		die "$accel guest plan=$plan: cannot create the $size results image $disk: $err"
	fi
fi
log=$outdir/console.log
rcfile=$outdir/.qemu.rc
# the model plugin's counts (an accelerator with a model record), and
# its profile of each window when a core has an mcpu (the interval
# model's base cost: bench/plugin/mcabase.c, after the boot)
MODEL_PROFILE=
if accel_attr "$accel" model > /dev/null; then
	export MODEL_OUT="$outdir/model.txt"
	rm -f "$MODEL_OUT"
	for c in $(accel_cores "$accel"); do
		if core_attr "$c" mcpu > /dev/null; then
			MODEL_PROFILE=$outdir/.model-profile.txt
		fi
	done
fi
export MODEL_PROFILE
[ -z "$MODEL_PROFILE" ] || rm -f "$MODEL_PROFILE"

# A guest that prints nothing (lines of the host's own and QEMU's do not
# count: console_silent) and makes no progress is declared hung then, not
# after TIMEOUT: a foreign or broken accelerator (a /dev/kvm that runs no
# stock guest) says nothing at all while QEMU spins or blocks.  The limit,
# SILENT_S seconds (the record's silent_s, default 60), counts the guest's
# progress, not wall time: a guest whose CPU is shared (a slow model plugin
# beside another guest) is slow, not hung.  Every few seconds the watchdog
# reads the CPU time of the guest's process tree (the pid in GUEST_PIDFILE:
# QEMU, or the UML kernel and its processes) and kills it, still silent,
# when the tree has used SILENT_S seconds of CPU time (it spins), or used
# less than a tenth of the last SILENT_S seconds of wall time (it blocks).
silent=${SILENT_S:-$(accel_attr "$accel" silent_s || echo 60)}
case "$silent" in
'' | *[!0-9]* | 0) echo "[run] SILENT_S=$silent: must be a number of seconds > 0" >&2; exit 2 ;;
esac
poll=2
hz=$(getconf CLK_TCK 2> /dev/null || echo 100)
pidfile=$outdir/.guest.pid
rm -f "$pidfile" "$outdir/.silent"
# tree_cs PID: "NOW CPU": the host's uptime and the CPU time (user and
# system) PID and its descendants used, with that of the children they
# reaped, in hundredths of a second (/proc/PID/stat fields 14 to 17; a CPU
# time of 0 when PID is empty or gone)
tree_cs() {
	cat /proc/uptime /proc/[0-9]*/stat 2> /dev/null | awk -v root="$1" -v hz="$hz" '
	NR == 1 { now = int($1 * 100 + 0.5); next }
	{ pid = $1; sub(/^.*\) /, ""); ppid[pid] = $2; t[pid] = $12 + $13 + $14 + $15 }
	END {
		for (p in t) {
			if (root == "") break
			for (q = p; q != root && q in ppid && q + 0 > 1; q = ppid[q])
				;
			if (q == root) s += t[p]
		}
		printf "%d %d\n", now, int(s * 100 / hz)
	}'
}
# secs CS: CS hundredths of a second as seconds, one decimal
secs() { echo "$(($1 / 100)).$(($1 % 100 / 10))"; }
# the outer guest of a nested accelerator is packed here (accels.sh)
export BOOT_SCRATCH="$outdir/.scratch"
rm -rf "$BOOT_SCRATCH"
mkdir -p "$BOOT_SCRATCH"
# GUEST_INPUT: a file the plan reads (the capture workload's frames,
# plan-capture.sh): UML streams it from the host as its second disk,
# read-only (ubd1: /dev/ubdb); a QEMU guest gets it as /input/frames.bin
# of an archive appended to its initramfs (held in guest memory: the host
# passes such guests a sample of the capture, run-bench.sh).
if [ -n "${GUEST_INPUT:-}" ]; then
	[ -f "$GUEST_INPUT" ] || die "$accel guest plan=$plan: no input file $GUEST_INPUT"
	if [ "$(accel_attr "$accel" boot)" = uml ]; then
		export GUEST_INPUT_DISK="$GUEST_INPUT"
	else
		mkdir -p "$BOOT_SCRATCH/in/input"
		ln -f "$GUEST_INPUT" "$BOOT_SCRATCH/in/input/frames.bin" 2> /dev/null ||
			cp "$GUEST_INPUT" "$BOOT_SCRATCH/in/input/frames.bin"
		{
			cat "$initrd"
			(cd "$BOOT_SCRATCH/in" && printf '%s\n' input input/frames.bin |
				cpio -o -H newc -R 0:0 --quiet | gzip -n -1)
		} > "$BOOT_SCRATCH/initrd-input.cpio.gz" ||
			die "$accel guest plan=$plan: cannot append $GUEST_INPUT to the initramfs"
		rm -rf "$BOOT_SCRATCH/in"
		initrd=$BOOT_SCRATCH/initrd-input.cpio.gz
	fi
fi
echo "[run] booting $accel guest, plan=$plan (timeout ${timeout}s)"
start=$(date +%s)
(
	# samples "NOW:CPU", oldest first: the newest one at least SILENT_S
	# old, and the later ones
	now=$(tree_cs "")
	t0=${now% *} hist="$t0:0"
	while sleep "$poll" && console_silent "$log"; do
		pid=$(cat "$pidfile" 2> /dev/null || true)
		cpu=$(tree_cs "$pid")
		now=${cpu% *} cpu=${cpu#* } base='' later=''
		for h in $hist; do
			if [ $((now - ${h%:*})) -ge $((silent * 100)) ]; then base=$h; else later="$later $h"; fi
		done
		hist="$base$later $now:$cpu"
		why=''
		if [ "$cpu" -ge $((silent * 100)) ]; then
			why="printed nothing in ${silent} s of its CPU time (SILENT_S; $(((now - t0) / 100)) s wall)"
		elif [ -n "$base" ]; then
			used=$((cpu - ${base#*:})) span=$((now - ${base%:*}))
			[ "$used" -ge 0 ] || used=0
			[ $((used * 10)) -ge "$span" ] ||
				why="printed nothing, blocked: $(secs "$used") s of CPU time in $((span / 100)) s wall (SILENT_S; $(((now - t0) / 100)) s since the start)"
		fi
		if [ -n "$why" ] && [ -n "$pid" ] && kill -0 "$pid"; then
			echo "$why" > "$outdir/.silent"
			kill -TERM "$pid" || rm -f "$outdir/.silent"
			exit 0
		fi
	done
) > /dev/null 2>&1 &
watch=$!
{
	GUEST_PIDFILE=$pidfile timeout --foreground -k 5 "$timeout" "$here/boot-guest.sh" "$accel" \
		"$kernel" "$initrd" "$disk" \
		"panic=-1 quiet ${extra:+$extra }bench.plan=$plan bench.accel=$accel bench.flavour=$(accel_flavour "$accel") $*" 2>&1
	echo $? > "$rcfile"
} | tee "$log" | grep --line-buffered '^\[guest\]' || true
kill "$watch" 2> /dev/null || true
rm -rf "$pidfile" "$BOOT_SCRATCH"
rc=$(cat "$rcfile" 2> /dev/null || echo unknown)
# UML may leave the terminal in raw mode.
if [ -t 0 ]; then stty sane 2>/dev/null || true; fi
elapsed=$(( $(date +%s) - start ))

# what is left of the output directory when unpacking fails (a full disk);
# what tar said when it failed
free='' untar=''
# -m: the files get the host's time (an icount guest's clock runs ahead of it)
# console_tar: the tar the guest printed between its [bench-out] lines
console_tar() {
	tr -d '\r' < "$log" | sed -n '/^\[bench-out\] begin$/,/^\[bench-out\] end$/p' |
		grep -E '^[A-Za-z0-9+/=]+$' | base64 -d
}
if [ -z "$disk" ] && ! grep -aq '^\[bench-out\] end' "$log"; then
	echo "status=none (no [bench-out] tar on the console)" > "$outdir/status"
elif [ -z "$disk" ] && ! untar=$(console_tar | tar -m -xf - -C "$outdir" 2>&1); then
	untar=${untar:-tar failed}
	free=$(df -Pk "$outdir" 2> /dev/null | awk 'NR == 2 { print $4 }')
elif [ -n "$disk" ] && ! untar=$(tar -m -xf "$disk" -C "$outdir" 2>&1); then
	untar=${untar:-tar failed}
	free=$(df -Pk "$outdir" 2> /dev/null | awk 'NR == 2 { print $4 }')
else
	untar=	# a warning of a tar that succeeded is no failure
fi
rm -f "$rcfile" ${disk:+"$disk"}
status=$(sed -n 's/^status=//p' "$outdir/status" 2>/dev/null || true)
panic=$(grep -a -m 1 'Kernel panic' "$log" 2> /dev/null | tr -d '\r' | sed 's/^\[ *[0-9.]*\] //' || true)
if [ -n "$panic" ]; then
	die "$accel guest plan=$plan panicked after ${elapsed}s: $panic; console in $log"
fi
if [ -f "$outdir/.silent" ]; then
	why=$(cat "$outdir/.silent")
	rm -f "$outdir/.silent"
	die "$accel guest plan=$plan hung: $why, killed then; console in $log"
fi
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	die "$accel guest plan=$plan hung: killed after ${timeout}s (TIMEOUT); console in $log"
fi
full=$(grep -a -m 1 '^\[guest\] cannot write the results' "$log" 2> /dev/null | tr -d '\r' || true)
if [ -n "$full" ]; then
	die "$accel guest plan=$plan: its results did not fit in the $size results image (GUEST_DISK_SIZE): ${full#\[guest\] }"
fi
if [ -n "$untar" ]; then
	die "$accel guest plan=$plan: cannot unpack its results into $outdir (${free:-?} KiB free there): $(echo "$untar" | head -n 1)"
fi
if [ "$status" != ok ]; then
	tail -n 20 "$log" >&2
	# where the plan was (its last progress line: the cell names engine,
	# filter and skbs) and the module's complaint in the guest's kernel log
	# (a call that returned another verdict than tcpdump's), else the
	# guest's last failure
	at=$(grep -a '^\[guest\] \(cell [0-9]\|paired cell:\|seccomp:\|cross-check:\)' "$log" | tail -n 1 | tr -d '\r')
	why=$(grep -a 'bpf_bench: run' "$outdir/dmesg.txt" 2> /dev/null | tail -n 1 | sed 's/^\[ *[0-9.]*\] //' || true)
	[ -n "$why" ] || why=$(grep -a '^\[guest\] .*failed' "$log" | grep -v 'finished: failed' | tail -n 1 | tr -d '\r')
	die "$accel guest plan=$plan ended with status '${status:-none}' (exit $rc) after ${elapsed}s${at:+, at ${at#\[guest\] }}${why:+: ${why#\[guest\] }}; console in $log"
fi
echo "[run] $accel guest plan=$plan ok in ${elapsed}s"
if [ -n "$MODEL_PROFILE" ]; then
	# every core costed, or model.txt as the plugin wrote it
	mcabase=$(dirname "$MODEL_PLUGIN")/mcabase
	cp "$MODEL_OUT" "$MODEL_OUT.plugin"
	for c in $(accel_cores "$accel"); do
		mcpu=$(core_attr "$c" mcpu) || continue
		echo "[run] $accel: core $c: each window's base cost (llvm-mca-19 -mcpu=$mcpu)"
		if ! "$mcabase" -t "$(core_attr "$c" taken || echo 0)" "$c" "$mcpu" "$MODEL_PROFILE" "$MODEL_OUT"; then
			mv "$MODEL_OUT.plugin" "$MODEL_OUT"
			die "$accel: core $c: mcabase could not cost the windows of $MODEL_OUT (the profile: $MODEL_PROFILE)"
		fi
	done
	rm -f "$MODEL_PROFILE" "$MODEL_OUT.plugin"
fi
