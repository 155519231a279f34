#!/bin/sh
# Host tests of the guest's shell helpers (lib.sh), run with the busybox
# the guest runs: fold_jit_samples on a made-up perf report.
# usage: tests.sh [TOOLS]   prints PASS:/FAIL: lines; with TOOLS (the
#        host build of the guest tools) knob's pairs mode too
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TEST_PREFIX="guest-lib: "
# shellcheck source=bench/host/testlib.sh
. "$here/../host/testlib.sh"

# The guest's awk is busybox's: test with it.
mkdir -p "$tmp/bin"
ln -s "$(command -v busybox)" "$tmp/bin/awk"
cat > "$tmp/report" <<'X'
# Samples: 2K of event 'cpu-clock'
#
# Overhead  Symbol
# ........  ......
#
    12.00%  [k] bpf_skb_load_helper_16
     9.00%  [k] 0xffffffffa0007010
     8.00%  [k] 0xffffffffa0007020
     7.50%  [k] bench_prog_loop
     6.00%  [k] 0xffffffffa00070ff
     0.90%  [k] 0xffffffffa0007100
     0.80%  [k] 0xffffffffa0006fff


#
# (Cannot load tips.txt file, please install perf!)
#
X
# shellcheck source=bench/guest/lib.sh
PATH=$tmp/bin:$PATH sh -c ". '$here/lib.sh'; fold_jit_samples 0xffffffffa0007000 0xffffffffa0007100" \
	< "$tmp/report" > "$tmp/folded"
expect "fold: the image's addresses become one line, first by share" \
	sh -c "sed -n 6p '$tmp/folded' | grep -q '^ *23.00%  \[k\] \[bpf jit image: 3 addresses in 0xffffffffa0007000-0xffffffffa0007100\]$'"
expect "fold: the rest stays in order of share" \
	sh -c "sed -n '7,8p' '$tmp/folded' | tr -s ' ' | tr '\n' '|' | grep -qx ' 12.00% \[k\] bpf_skb_load_helper_16| 7.50% \[k\] bench_prog_loop|'"
expect "fold: addresses just outside the image are kept (end is exclusive)" \
	sh -c "grep -q '0xffffffffa0007100$' '$tmp/folded' && grep -q '0xffffffffa0006fff$' '$tmp/folded'"
expect "fold: the header is kept, perf's tip dropped" \
	sh -c "head -n 1 '$tmp/folded' | grep -q '^# Samples: 2K' && ! grep -q tips.txt '$tmp/folded' && test \$(wc -l < '$tmp/folded') = 10"
PATH=$tmp/bin:$PATH sh -c ". '$here/lib.sh'; fold_jit_samples '' ''" < "$tmp/report" > "$tmp/plain"
expect "fold: without a range (no JIT) every line stays" \
	test "$(grep -c '%' "$tmp/plain")" = 7
# A 32-bit guest's perf (i386, arm) prints 8 hex digits, the module 16.
cat > "$tmp/report32" <<'X'
# Samples: 1K of event 'cpu-clock'
#
    40.00%  [k] 0xbf0a1010
    30.00%  [k] ___bpf_prog_run
    20.00%  [k] 0xbf0a10ff
     6.00%  [k] 0xbf0a0fff
     4.00%  [k] 0xbf0a1100
X
PATH=$tmp/bin:$PATH sh -c ". '$here/lib.sh'; fold_jit_samples 0x00000000bf0a1000 0x00000000bf0a1100" \
	< "$tmp/report32" > "$tmp/folded32"
expect "fold: 32-bit perf's 8-digit addresses in the module's 16-digit range" \
	sh -c "sed -n 3p '$tmp/folded32' | grep -q '^ *60.00%  \[k\] \[bpf jit image: 2 addresses in 0x00000000bf0a1000-0x00000000bf0a1100\]$' && grep -q '0xbf0a0fff$' '$tmp/folded32' && grep -q '0xbf0a1100$' '$tmp/folded32' && test \$(wc -l < '$tmp/folded32') = 6"

# perf_profile: a report without a named kernel symbol is recorded again.
# A stand-in perf: "record" runs the command, "report" prints unresolved
# samples the first time and resolved ones after.
cat > "$tmp/bin/perf" <<'X'
#!/bin/sh
case "$1" in
record) shift; while [ "$1" != -- ]; do shift; done; shift; "$@" ;;
report)
	n=$(cat "$PERF_FAKE_STATE" 2>/dev/null || echo 0)
	echo $((n + 1)) > "$PERF_FAKE_STATE"
	echo "# Samples: 10"
	if [ "$n" = 0 ]; then echo "    90.00%  [k] 0x000000000000015d"; else echo "    90.00%  [k] bench_baseline_loop"; fi ;;
esac
X
chmod +x "$tmp/bin/perf"
PERF_FAKE_STATE=$tmp/perf.state PATH=$tmp/bin:$PATH sh -c \
	". '$here/lib.sh'; no_range() { echo; }; perf_profile '$tmp/profile' no_range true" > "$tmp/profile.out" 2>&1
expect "perf_profile: an unresolved report is recorded again" \
	sh -c "grep -q 'recording again' '$tmp/profile.out' && grep -q 'bench_baseline_loop' '$tmp/profile' && test \"\$(cat '$tmp/perf.state')\" = 2"
rm -f "$tmp/perf.state"
PERF_FAKE_STATE=$tmp/perf.state PATH=$tmp/bin:$PATH sh -c \
	"echo 1 > '$tmp/perf.state'; . '$here/lib.sh'; no_range() { echo; }; perf_profile '$tmp/profile' no_range true" > "$tmp/profile.out" 2>&1
expect "perf_profile: a resolved report is recorded once" \
	sh -c "! grep -q 'recording again' '$tmp/profile.out' && test \"\$(cat '$tmp/perf.state')\" = 2"

# The registry as the guest reads it: attributes, and the expected eval
# lines built from the engine list (plan-diff.sh's want).  The live
# bench/engines.conf (the guest's /bench/engines.conf) with one edit: jit's
# label rewritten with runs of blanks and a tab inside it, for the
# squeezing test.  The facts asserted are those of named engines; the list
# of all engines is read from the file, so adding an engine breaks no test.
live_engines=$(cd "$here/.." && pwd)/engines.conf
sed '/^engine jit$/,/^[^ \t#]/s/^\tlabel\t.*/\tlabel\t\tnew  BPF \t jit/' "$live_engines" > "$tmp/engines.conf"
reg() { PATH=$tmp/bin:$PATH ENGINES_CONF="$tmp/engines.conf" sh -c ". '$here/lib.sh'; $1"; }
expect "registry: engine_attr reads a key, squeezing blanks" \
	test "$(reg 'engine_attr jit label')" = "new BPF jit"
expect "registry: engine_attr gives the default for an unknown engine or key" \
	test "$(reg 'engine_attr zzz checker 6.1; engine_attr old crosscheck 0')" = "6.1
0"
expect "registry: registry_engines: every engine record, in table order" \
	test "$(reg 'registry_engines | tr "\n" " "')" = "$(sed -n 's/^engine[ \t][ \t]*\([^ \t]*\).*/\1/p' "$live_engines" | tr '\n' ' ')"
profiles=$(reg 'engine_profiles baseline old new new2014 oldjit jit zzz')
expect "registry: engine_profiles skips the loop-only baseline, takes an unknown engine for 6.1" \
	test "$profiles" = "old 3.14 3.14
new 6.1 6.1
new2014 6.1 2014
oldjit 3.14 3.14
jit 6.1 6.1
zzz 6.1 6.1"
expect "registry: want_eval: a checker's errno wins, else the semantics" \
	test "$(reg "want_eval '3.14=2 6.1=-22' '$profiles'")" = "old=2 new=-22 new2014=-22 oldjit=2 jit=-22 zzz=-22"
expect "registry: want_eval: a runtime difference follows the semantics" \
	test "$(reg "want_eval '3.14=0 6.1=42' '$profiles'")" = "old=0 new=42 new2014=42 oldjit=0 jit=42 zzz=42"
expect "registry: want_eval: a version SPEC does not name (2014) takes the 6.1 value" \
	test "$(reg "want_eval '3.14=0 6.1=1' '$profiles'")" = "old=0 new=1 new2014=1 oldjit=0 jit=1 zzz=1"
expect "registry: want_eval: a version SPEC names (2014=V) is taken" \
	test "$(reg "want_eval '3.14=0 6.1=1 2014=0' '$profiles'")" = "old=0 new=1 new2014=0 oldjit=0 jit=1 zzz=1"
expect "registry: want_eval: an engine named in SPEC is a documented exception" \
	test "$(reg "want_eval '3.14=1 6.1=-22 new2014=1' '$profiles'")" = "old=1 new=-22 new2014=1 oldjit=1 jit=-22 zzz=-22"
expect "registry: want_eval: all=V for every engine" \
	test "$(reg "want_eval 'all=7' 'old 3.14 3.14
new 6.1 6.1'")" = "old=7 new=7"
mixed="odd 3.14 6.1"
expect "registry: want_eval: a 3.14 checker with 6.1 semantics rejects like 3.14, runs like 6.1" \
	test "$(reg "want_eval '3.14=-22 6.1=0' '$mixed'; want_eval '3.14=0 6.1=42' '$mixed'")" = "odd=-22
odd=42"

# The accelerators and flavours as bench/host/accels.sh reads their records:
# the live registries (bench/accels.conf, bench/flavours.conf), also for the
# host scripts these tests run.  What is asserted of a named record is that
# record's real value; a list of every record is read from the files (an
# independent sed), so adding an accelerator or flavour breaks no test.
hostdir=$here/../host
ACCELS_CONF=$(cd "$here/.." && pwd)/accels.conf
FLAVOURS_CONF=$(cd "$here/.." && pwd)/flavours.conf
export ACCELS_CONF FLAVOURS_CONF
# shellcheck disable=SC2016
acc() { sh -c "here='$hostdir'; . '$hostdir/accels.sh'; $1"; }
# names FILE TYPE: the names of FILE's records of TYPE, in file order, one line.
names() { sed -n "s/^$2[ \t][ \t]*\([^ \t]*\).*/\1/p" "$1" | tr '\n' ' ' | sed 's/ $//'; }
# shellcheck disable=SC2016
expect "accels: the accelerators and the flavours are their records in file order; the default flavours all but debug (default check)" \
	test "$(acc 'echo "$ACCELS / $FLAVOURS / $DEFAULT_FLAVOURS"')" = "$(names "$ACCELS_CONF" accel) / $(names "$FLAVOURS_CONF" flavour) / $(default_flavours "$FLAVOURS_CONF")"
# shellcheck disable=SC2016
expect "accels: in order of trust: hardware timing first (kvm, uml), then icount, then tcg" \
	sh -c 'case "$1 " in "kvm uml icount tcg "*) ;; *) exit 1 ;; esac' sh "$(acc 'echo "$ACCELS"')"
expect "accels: the debug accelerator boots flavour debug with slub_debug, 2 GiB, never timed" \
	test "$(acc 'accel_flavour debug; accel_attr debug debug; accel_attr debug cmdline; accel_attr debug mem' | tr "\n" " ")" = "debug 1 slub_debug=FZPU kasan_multi_shot 2048 "
# shellcheck disable=SC2016
expect "accels: the debug flavour (no ACPI) ends its boots with a reboot, the others have no words of their own" \
	test "$(acc 'for f in $FLAVOURS; do c=$(flavour_attr $f cmdline || true); [ -z "$c" ] || echo "$f=$c"; done' | tr "\n" " ")" = "debug=bench.exit=reboot "
# shellcheck disable=SC2016
expect "accels: the debug flavour merges the x86_64 fragment, then its own" \
	test "$(acc 'flavour_attr debug fragment; flavour_attr debug default' | tr "\n" " ")" = "bench/kernel-omit.config bench/kernel-x86_64.config bench/kernel-debug.config check "
# shellcheck disable=SC2016
expect "accels: run-guest.sh refuses the timing plans on a debug accelerator" \
	sh -c "for p in bench paired; do ! '$hostdir/run-guest.sh' debug \$p /nonexistent/x k i 2>&1 | grep -q 'correctness plans only' && exit 1; done; exit 0"
expect "accels: an accelerator's flavour, unit, kind and host.txt lines" \
	test "$(acc 'accel_host_txt icount | tr "\n" " "')" = "accel=icount unit=insns kind=counted flavour=x86_64 "
expect "accels: a timed accelerator's host.txt carries its run_sd and boots" \
	test "$(acc 'accel_host_txt uml | grep ^run_sd=; accel_boots uml; BOOTS=3 accel_boots uml; accel_boots icount')" = "run_sd=$(acc 'accel_attr uml run_sd' | tr -d ' \t')
$(acc 'accel_attr uml boots')
3
1"
expect "accels: the kernel image of a flavour" \
	test "$(acc 'flavour_kernel B um; flavour_kernel B x86_64')" = "B/obj-um/linux
B/obj-x86_64/arch/x86/boot/bzImage"
expect "accels: an unknown accelerator fails" sh -c "! sh -c \"here='$hostdir'; . '$hostdir/accels.sh'; accel_kind foo\""
expect "accels: plan defaults, pinning only where pin=1" \
	test "$(acc 'accel_plan_args icount; PIN_CPU=1 accel_pin kvm; accel_pin tcg')" = "bench.skbs=1,10000 bench.seccomp_calls=20000 bench.seccomp_runs=3 bench.samples=5 bench.sample_us=5000 bench.rounds=7 bench.paired_placements=1
1"
expect "accels: auto picks the icount accelerators alone when no probe boots (tcg is opt-in)" \
	test "$(acc 'no() { return 1; }; accel_auto no 2>/dev/null')" = "icount icount-i386 icount-arm"
# shellcheck disable=SC2016
expect "accels: auto picks uml when its probe boots" \
	test "$(acc 'only_uml() { [ "$1" = uml ]; }; accel_auto only_uml 2>/dev/null')" = "uml icount icount-i386 icount-arm"

# shellcheck disable=SC2016
expect "accels: ARCHES narrows auto to its architectures (um counts as x86_64)" \
	test "$(acc 'only_uml() { [ "$1" = uml ]; }; ARCHES=x86_64 accel_auto only_uml 2>/dev/null; ARCHES="arm32 i386" accel_auto only_uml 2>/dev/null')" = "uml icount
icount-i386 icount-arm"
# shellcheck disable=SC2016
expect "accels: the architectures of the 2014 tables, from the default flavours" \
	test "$(acc 'echo "$ALL_ARCHES"; flavour_arch um; flavour_arch arm')" = "x86_64 i386 arm32
x86_64
arm32"
expect "accels: a bad ARCHES is refused with the known ones" \
	test "$(acc 'ARCHES="x86_64 sparc" arches_check; ARCHES=" " arches_check && ARCHES=arm32 arches_check && echo ok')" = "unknown architecture 'sparc' in ARCHES (known: x86_64 i386 arm32)
ok"
expect "bench-flavours: auto builds every architecture's flavours (uml's variants' too), ARCHES narrows, ACCEL names its own, LAYOUTS=1 no variants" \
	test "$(ACCEL=auto ARCHES='' "$hostdir/bench-flavours.sh"; ACCEL=auto ARCHES=x86_64 "$hostdir/bench-flavours.sh"; ACCEL="tcg-arm icount" ARCHES=i386 "$hostdir/bench-flavours.sh"; ACCEL=uml LAYOUTS=1 "$hostdir/bench-flavours.sh")" = "$(default_flavours "$FLAVOURS_CONF")
$(default_flavours "$FLAVOURS_CONF" x86_64)
arm x86_64
um"

# shellcheck disable=SC2016
expect "accels: make check boots one check accelerator per flavour it builds" \
	test "$(acc 'accel_check_list; echo; for a in $(accel_check_list); do accel_flavour "$a"; done | sort | tr "\n" " "')" = "uml tcg tcg-i386 tcg-arm
arm i386 um x86_64 "

# Seccomp on every flavour: its filters' arch (flavours.conf seccomp_arch),
# packed under the generic names the plans use; the 32-bit accelerators
# run seccomp cells (no bench.seccomp_calls=0).
# shellcheck disable=SC2016
expect "seccomp: each flavour's seccomp_arch" \
	test "$(acc 'for f in x86_64 um i386 arm debug; do printf "%s=%s " $f $(flavour_attr $f seccomp_arch); done')" = "x86_64=x86_64 um=x86_64 i386=i386 arm=arm debug=x86_64 "
for a in x86_64 i386 arm; do
	sfx=-$a
	expect "seccomp: mkinitramfs.sh packs the $a filters and verdicts as short.bpf, large.bpf, verdicts.txt" \
		test "$("$hostdir/mkinitramfs.sh" --seccomp-files "$a" | sed "s|$(cd "$here/../.." && pwd)/||" | tr '\n' '|')" = "file /bench/filters/seccomp/short.bpf filters/seccomp/short$sfx.bpf 0644 0 0|file /bench/filters/seccomp/large.bpf filters/seccomp/large$sfx.bpf 0644 0 0|file /bench/filters/seccomp/verdicts.txt filters/seccomp/verdicts$sfx.txt 0644 0 0|"
done
expect "seccomp: mkinitramfs.sh refuses a seccomp arch without filters" \
	sh -c "! SECCOMP_ARCH=sparc '$hostdir/mkinitramfs.sh' '$tmp/x.cpio.gz' '$tmp' '$tmp' 2>&1 | grep -q 'no short.bpf for seccomp arch .sparc.' && exit 1; test ! -e '$tmp/x.cpio.gz'"
# shellcheck disable=SC2016
expect "seccomp: the 32-bit accelerators run seccomp cells, icount's 3 x 20000 calls" \
	test "$(acc 'for a in kvm-i386 icount-i386 tcg-i386 icount-arm tcg-arm; do accel_plan_args $a | grep -o "bench.seccomp_[a-z]*=[0-9]*" | tr "\n" " "; echo "/"; done' | tr -d '\n')" = "/bench.seccomp_calls=20000 bench.seccomp_runs=3 //bench.seccomp_calls=20000 bench.seccomp_runs=3 //"
sc() { PATH=$tmp/bin:$PATH sh -c ". '$here/lib.sh'; . '$here/seccomp.sh'; uname() { echo $1; }; module_area"; }
expect "seccomp: perf folds the x86-64 module area on x86_64 only (i686, armv7l: no range)" \
	test "$(sc x86_64)/$(sc i686)/$(sc armv7l)" = "0xffffffffa0000000 0xffffffffff000000//"
# The boot-level quiet gate (bench/host/quiet.sh) with a made-up control
# loop: each call prints the next median of $tmp/ctl.seq (the first: the
# "before" figure, 10.0 ns).
cat > "$tmp/ctl" <<'X'
#!/bin/sh
n=$(cat "$CTL_N" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$CTL_N"
echo "tag=control filter=$1 packet=none engine=native skbs=1 samples=11 median=$(sed -n "${n}p" "$CTL_SEQ") clock=monotonic"
X
chmod +x "$tmp/ctl"
# gate "MEDIANS" REDO [QUIET]: quiet_after of boot 5 with $redo=REDO: its
# return value, then host.txt's lines, then how often the loop ran.
gate() {
	printf '10.0 %s\n' "$1" | tr ' ' '\n' > "$tmp/ctl.seq"
	rm -rf "$tmp/ctl.n" "$tmp/gate"
	mkdir -p "$tmp/gate"
	: > "$tmp/gate/host.txt"
	CONTROL=$tmp/ctl CTL_SEQ=$tmp/ctl.seq CTL_N=$tmp/ctl.n QUIET=${3:-10 10 2} sh -c '
		accel_attr() { case $2 in pin) echo 1 ;; quiet) echo 10 10 2 ;; esac; }
		accel_pin() { :; }
		sleep() { :; }
		. "$0/quiet.sh"
		host_control "$1" x before
		redo=$2
		quiet_after "$1" x 5 > /dev/null
		echo "rc=$?"' "$hostdir" "$tmp/gate" "$2"
	tr '\n' ' ' < "$tmp/gate/host.txt"
	echo "calls=$(cat "$tmp/ctl.n")"
}
expect "quiet gate: a quiet host (10.5 ns after 10.0): the boot is kept" \
	test "$(gate 10.5 0)" = "rc=0
control_ns=10.5 quiet_ref_ns=10.0 quiet_rule=10,10,2 redone=0 calls=2"
expect "quiet gate: busy (12 ns), quiet again after a wait: boot again" \
	test "$(gate '12.0 12.5 10.2' 0)" = "rc=1
control_ns=12.0 quiet_ref_ns=10.0 quiet_rule=10,10,2 calls=4"
expect "quiet gate: busy and booted again REDO (2) times: kept, marked busy" \
	test "$(gate 12.0 2)" = "rc=0
control_ns=12.0 quiet_ref_ns=10.0 quiet_rule=10,10,2 redone=2 busy=1 calls=2"
expect "quiet gate: QUIET=\"0 0 0\": off, the loop not even run" \
	test "$(gate 12.0 0 '0 0 0')" = "rc=0
calls=1"

# How a filter runs on an engine is its record's seccomp key (seccomp.sh
# maps it to the sysctls; only a guest runs seccomp_use: it writes
# /proc/sys).
# shellcheck disable=SC2016
expect "seccomp: the registry's seccomp keys: old classic, new interp, jit jit, none for new2014" \
	test "$(reg 'for e in old new new2014 jit; do printf "%s=%s " $e $(engine_attr $e seccomp -); done')" = "old=classic new=interp new2014=- jit=jit "

# The JIT image listings: the flavour's objdump (flavours.conf disasm).
mkdir -p "$tmp/img"
printf '55 48 89 e5 c9 c3\n' > "$tmp/img/image-jit-fprog1.hex"
x86dis=$(acc 'flavour_attr x86_64 disasm')
expect "disasm: x86_64's objdump lists a JIT image by its file name" \
	sh -c "'$hostdir/disasm-images.sh' '$tmp/img' '$x86dis' &&
		grep -q 'push *%rbp' '$tmp/img/image-jit-fprog1.dis' && grep -q 'file format binary' '$tmp/img/image-jit-fprog1.dis' &&
		! grep -q '$tmp' '$tmp/img/image-jit-fprog1.dis'"
rm -f "$tmp/img/image-jit-fprog1.dis"
expect "disasm: a flavour without a disassembler leaves the images as hex, and says so" \
	sh -c "'$hostdir/disasm-images.sh' '$tmp/img' '' 2>&1 | grep -q 'no disassembler for this flavour' &&
		test ! -e '$tmp/img/image-jit-fprog1.dis'"
expect "disasm: i386 lists with -mi386, arm with the cross objdump" \
	test "$(acc 'flavour_attr i386 disasm; flavour_attr arm disasm')" = "objdump -mi386
arm-linux-gnueabihf-objdump -marm"

# make check's pool orders its jobs by the records' check_s (run-check.sh).
# shellcheck disable=SC2016 # expanded by acc's shell
expect "accels: every accelerator make check boots, and the debug campaign's, has a check_s in seconds" \
	test "$(acc 'for a in $(accel_check_list) debug; do accel_attr $a check_s || echo none; done' | grep -cvx '[0-9][0-9]*')" = 0
# check_args are plan options args.conf knows, in range (benchargs.sh);
# the slow check boots shorten the random programs and the fuzzing.
expect "accels: every check_args option is a known plan option in range" \
	acc ". '$hostdir/benchargs.sh'; for a in \$(accel_check_list); do bench_args_check \$(accel_attr \$a check_args 2> /dev/null || true) || exit 1; done"
expect "accels: the uml and tcg-arm check boots take 100 random programs and 10 s of fuzzing" \
	test "$(acc 'accel_attr uml check_args; accel_attr tcg-arm check_args' | sort -u)" = "bench.diff_random=100 bench.diff_fuzz=10"

# make bench's estimate (bench/host/estimate.sh), from the records' times:
# the paired boots rounded up to a multiple of the code-layout variants,
# a relink of each (flavours.conf relink_s) before them.
s_uml=$(acc 'accel_attr uml guest_s')
b_um=$(acc 'flavour_attr um build_s')
b_um64=$(acc 'flavour_attr um-align64 build_s')
n_uml=$(acc 'accel_boots uml')
t_uml=$(acc 'accel_attr uml boot_s')
l_uml=$(acc 'accel_layouts uml')
r_um=$(acc 'flavour_attr um relink_s || echo 5')
bl_uml="$n_uml boots"
if [ "$l_uml" -gt 1 ]; then
	n_uml=$((1 + (n_uml - 1 + l_uml - 1) / l_uml * l_uml))
	bl_uml="$n_uml boots over $l_uml code layouts"
	s_uml=$((s_uml + l_uml * r_um))
fi
g_uml=$((2 * (s_uml + (n_uml - 1) * t_uml)))
expect "estimate: REPEAT multiplies the guest phase, each further boot costs boot_s, each code layout a relink, a clean flavour (uml's two) its build" \
	sh -c "ACCEL=uml REPEAT=2 '$hostdir/estimate.sh' '$tmp/nobuild' > '$tmp/est' &&
		grep -q 'guests x2 runs (REPEAT): uml ($bl_uml) ~$(((g_uml + 59) / 60)) min$' '$tmp/est' &&
		grep -q 'kernels: um ~$(((b_um + 59) / 60)) min clean (less with ccache hits), um-align64 ~$(((b_um64 + 59) / 60)) min clean' '$tmp/est' &&
		grep -q 'about $(((g_uml + b_um + b_um64 + 59) / 60)) min in all (' '$tmp/est'"
mkdir -p "$tmp/built/obj-um"
: > "$tmp/built/obj-um/linux"
: > "$tmp/built/initramfs-um.cpio.gz"
expect "estimate: a built flavour costs nothing; auto marks the probed accelerators" \
	sh -c "ACCEL=auto '$hostdir/estimate.sh' '$tmp/built' > '$tmp/est' &&
		grep -q 'um built' '$tmp/est' && grep -q 'uml ([0-9]* boots[a-z0-9 ]*) ~[0-9]* min if its probe boots' '$tmp/est' &&
		! grep -q 'tcg' '$tmp/est'"

# kernel_reports: one line per report of a made-up debug kernel log.
cat > "$tmp/kernel.log" <<'X'
<6>[    0.000000] kasan: KernelAddressSanitizer initialized
<4>[   12.000000] bpf_bench: skbs: 'BUG: x' is not a decimal or 0x hex u32
<3>[   13.000000] BUG: KASAN: slab-out-of-bounds in bench_store_packet+0x1f/0x200 [bpf_bench]
<3>[   13.000001] Read of size 1 at addr ffff888003a1c000 by task knobfuzz/99
<4>[   14.000000] WARNING: possible circular locking dependency detected
<3>[   15.000000] UBSAN: shift-out-of-bounds in net/core/filter_classic.c:308:6
<4>[   16.000000] WARNING: CPU: 0 PID: 1 at kernel/module/main.c:1 bench_exit+0x1/0x2
<4>[   17.000000] Call Trace:
<6>[   18.000000] bpf_bench: run: interrupted
X
expect "kernel_reports: one line per KASAN, lockdep, UBSAN and WARN report, none of the module's lines" \
	sh -c "PATH='$tmp/bin':\$PATH sh -c \". '$here/lib.sh'; kernel_reports '$tmp/kernel.log'\" > '$tmp/reports' &&
		test \$(wc -l < '$tmp/reports') = 4 && ! grep -q 'bpf_bench: ' '$tmp/reports' && grep -q 'BUG: KASAN' '$tmp/reports'"
PATH=$tmp/bin:$PATH sh -c ". '$here/lib.sh'; kernel_reports /dev/null" > "$tmp/none"
expect "kernel_reports: a clean log has none" test ! -s "$tmp/none"

# knob FILE VALUE FILE VALUE...: the pairs in order, one process per cell
# (plan-check.sh); the first failure names its file and stops.
if [ -n "${1:-}" ]; then
	k=$1/knob
	: > "$tmp/k1"; : > "$tmp/k2"; : > "$tmp/k3"
	expect "knob: pairs: each file gets its value" \
		sh -c "'$k' '$tmp/k1' new '$tmp/k2' 3 && test \"\$(cat '$tmp/k1')|\$(cat '$tmp/k2')\" = 'new|3'"
	out=$(set +e; "$k" "$tmp/k1" old "$tmp/nodir/k" x "$tmp/k3" 1; echo "rc=$?")
	expect "knob: pairs: a failing pair is named, exit 1" \
		test "$out" = "$tmp/nodir/k: errno=ENOENT
rc=1"
	expect "knob: pairs: the pairs before it written, none after" \
		test "$(cat "$tmp/k1")|$(cat "$tmp/k3")" = "old|"
	expect "knob: one pair: errno without a file name" \
		test "$("$k" "$tmp/nodir/k" x)" = "errno=ENOENT"
	expect "knob: a file without a value is a usage error (exit 2)" \
		sh -c "'$k' '$tmp/k1' a '$tmp/k2' 2> /dev/null; test \$? = 2"
fi

test_summary
