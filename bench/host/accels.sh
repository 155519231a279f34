# shellcheck shell=sh
# The accelerators and kernel flavours, read from their records in
# bench/accels.conf and bench/flavours.conf (sourced by the host scripts,
# which set $here to bench/host).  Adding an accelerator is one record in
# accels.conf, a flavour one record in flavours.conf.
#   accel_attr ACCEL KEY  a key of the accelerator's record (fails if none)
#   flavour_attr FLAVOUR KEY  a key of the flavour's record
#   accel_flavour ACCEL   which kernel build it boots
#   accel_unit ACCEL      unit of the per-call figures
#   accel_kind ACCEL      hardware | counted | emulated (accels.conf's kinds)
#   accel_plan_args ACCEL plan options it defaults to (BENCH_ARGS override)
#   accel_boots ACCEL     boots make bench gives it
#   accel_layouts ACCEL [COMPARE]  code-layout variants make bench links for it
#   accel_variants ACCEL  what a variant boots: paired, bench or none
#   accel_layout_builds ACCEL  the flavours its variants are relinked from
#   accel_builds ACCEL    every flavour it boots (its own, its variants')
#   accel_unusable ACCEL  why it cannot run here (its needs), or fails
#   accel_host_txt ACCEL  the host.txt lines the records give (mkcsv)
#   flavour_kernel BUILD FLAVOUR   the kernel image a flavour boots
#   accel_boot ACCEL KERNEL INITRD DISK CMDLINE
#                         run the guest in the foreground, console on stdout
#                         (an accelerator with a model record: with the
#                         plugin MODEL_PLUGIN writing to MODEL_OUT)
#   accel_qemu_argv ACCEL KERNEL INITRD DISK CMDLINE
#                         its QEMU command line, one argument a line
#   accel_nested_by ACCEL the nested accelerator that runs ACCEL's line
#   console_silent LOG    the guest printed nothing to its console log
CONF_DIR=${CONF_DIR:-$(cd "${here:-$(dirname "$0")}/.." && pwd)}
ACCELS_CONF=${ACCELS_CONF:-$CONF_DIR/accels.conf}
FLAVOURS_CONF=${FLAVOURS_CONF:-$CONF_DIR/flavours.conf}
KERNELS_CONF=${KERNELS_CONF:-$CONF_DIR/kernels.conf}
TIMES_CONF=${TIMES_CONF:-$CONF_DIR/times.conf}
# the outer guest of the nested accelerators (bench/host/nested-outer.sh;
# run-bench.sh sets it to its BUILD's)
NESTED_DIR=${NESTED_DIR:-$(dirname "$CONF_DIR")/build/nested}

# conf_get FILE TYPE NAME KEY: KEY of record "TYPE NAME" (fails if absent).
conf_get() {
	awk -v t="$2" -v n="$3" -v k="$4" '
	/^[^ \t#]/ { rec = ($1 == t && $2 == n); next }
	rec && $1 == k { $1 = ""; sub(/^ +/, ""); print; found = 1 }
	END { exit !found }' "$1"
}

# conf_keys FILE TYPE NAME: "KEY VALUE" lines of record "TYPE NAME" (fails
# if there is no such record).
conf_keys() {
	awk -v t="$2" -v n="$3" '
	/^[^ \t#]/ { rec = ($1 == t && $2 == n); if (rec) found = 1; next }
	rec && NF && $1 !~ /^#/ { k = $1; $1 = ""; sub(/^ +/, ""); print k, $0 }
	END { exit !found }' "$1"
}

# conf_names FILE TYPE: the names of the records of TYPE, in file order.
conf_names() {
	awk -v t="$2" '/^[^ \t#]/ && $1 == t { print $2 }' "$1"
}

# In order of trust: hardware timing first, emulated timing last.
# shellcheck disable=SC2034
ACCELS=$(conf_names "$ACCELS_CONF" accel | tr '\n' ' ' | sed 's/ $//')
# shellcheck disable=SC2034
FLAVOURS=$(conf_names "$FLAVOURS_CONF" flavour | tr '\n' ' ' | sed 's/ $//')

# A record's key; the measured times and run_sd come from bench/times.conf,
# the times scaled to this host (host_scaled).
accel_attr() {
	case $2 in
	guest_s | boot_s | check_s) time_scaled accel "$1" "$2" ;;
	run_sd) conf_get "$TIMES_CONF" accel "$1" "$2" ;;
	*) conf_get "$ACCELS_CONF" accel "$1" "$2" ;;
	esac
}
flavour_attr() {
	case $2 in
	build_s | relink_s) time_scaled flavour "$1" "$2" ;;
	*) conf_get "$FLAVOURS_CONF" flavour "$1" "$2" ;;
	esac
}
kernel_attr() { conf_get "$KERNELS_CONF" kernel "$1" "$2"; }

# job_attr KIND: the seconds a make check pool job of KIND (its name up to
# the first colon: compare, nested, ...) took, times.conf's job record,
# scaled to this host.
job_attr() { time_scaled job "$1" check_s 2> /dev/null; }

# This host's speed against the one bench/times.conf's figures were
# measured on (its "host" record): HOST_SCALE_PCT, the control loop's
# median here (bench/host/control.c) over that host's, in percent; 100
# (the figures as measured) until host_speed_probe ran.  A slower host
# gets longer estimates up front (estimate.sh, run-check.sh).
host_scaled() {
	awk -v p="${HOST_SCALE_PCT:-100}" '{ print int($1 * p / 100 + 0.5) }'
}
# time_scaled TYPE NAME KEY: a time of bench/times.conf, scaled; fails when
# the record lacks it.
time_scaled() { ts_v=$(conf_get "$TIMES_CONF" "$1" "$2" "$3") && echo "$ts_v" | host_scaled; }
# host_speed_probe CONTROL: set and export HOST_SCALE_PCT from the control
# loop CONTROL (the best of three medians: a busy host reads slow) and
# HOST_SPEED, the line that says so; nothing when CONTROL or the record
# is missing.
host_speed_probe() {
	hp_ref=$(conf_get "$TIMES_CONF" host reference control_ns 2> /dev/null) || return 0
	[ -x "$1" ] || return 0
	hp_m=$(for hp_i in 1 2 3; do "$1" probe-$hp_i; done |
		sed -n 's/.* median=\([0-9.]*\) .*/\1/p' | sort -n | head -n 1)
	[ -n "$hp_m" ] || return 0
	HOST_SCALE_PCT=$(awk -v m="$hp_m" -v r="$hp_ref" 'BEGIN { print int(100 * m / r + 0.5) }')
	HOST_SPEED="control loop ${hp_m} ns here, ${hp_ref} ns on $(conf_get "$TIMES_CONF" host reference cpuid) where bench/times.conf was measured: times x$(awk -v p="$HOST_SCALE_PCT" 'BEGIN { printf "%.2f", p / 100 }')"
	export HOST_SCALE_PCT HOST_SPEED
}

# The kernel trees (bench/kernels.conf): KERNEL_DEFAULT, the one with
# "default 1"; CHECKABLE_KERNELS, the others make check builds and boots
# (a "check" key: their accelerators): those named in CHECK_KERNELS
# (default: all of them; "none": the default tree only; docs/kernels.md).
# shellcheck disable=SC2034
KERNEL_DEFAULT=$(for k in $(conf_names "$KERNELS_CONF" kernel); do
	[ "$(kernel_attr "$k" default || true)" != 1 ] || echo "$k"
done | head -n 1)
# shellcheck disable=SC2034
CHECKABLE_KERNELS=$(for k in $(conf_names "$KERNELS_CONF" kernel); do
	[ -z "$(kernel_attr "$k" check || true)" ] || echo "$k"
done | tr '\n' ' ' | sed 's/ $//')
# check_kernels: the trees besides the default make check builds and boots.
check_kernels() {
	case "${CHECK_KERNELS:-}" in
	none) ;;
	'') echo "$CHECKABLE_KERNELS" ;;
	*) echo "$CHECK_KERNELS" ;;
	esac
}
# check_kernels_check: why CHECK_KERNELS is bad (on stdout, exit 1).
check_kernels_check() {
	for k in $(check_kernels); do
		case " $CHECKABLE_KERNELS " in
		*" $k "*) ;;
		*) echo "CHECK_KERNELS: '$k' is not a tree make check can boot (bench/kernels.conf records with a check key: $CHECKABLE_KERNELS; none: the default tree only)"; return 1 ;;
		esac
	done
}
# kernel_out BUILD KERNEL: where its kernels, modules and initramfs are
# (bench/kernels.mk KOUT_DIR: BUILD for the default, BUILD/kernel-<NAME>).
kernel_out() {
	if [ "$2" = "$KERNEL_DEFAULT" ]; then echo "$1"; else echo "$1/kernel-$2"; fi
}

# The flavours make kernel/initramfs, bench and check build: all but those
# whose record says "default 0" (opt-in) or "default check" (make check
# builds it in a stage of its own).
# shellcheck disable=SC2034
DEFAULT_FLAVOURS=$(for f in $FLAVOURS; do
	case $(flavour_attr "$f" default || echo 1) in 0 | check) ;; *) echo "$f" ;; esac
done | tr '\n' ' ' | sed 's/ $//')

# The architecture of the 2014 table a flavour is compared with
# (flavours.conf ref2014_arch, default the flavour's name).
flavour_arch() { flavour_attr "$1" ref2014_arch || echo "$1"; }
# ALL_ARCHES: the architectures of the default flavours, in file order
# (x86_64 i386 arm32).  ARCHES (default all of them) narrows what make
# bench builds and what ACCEL=auto picks.
# shellcheck disable=SC2034
ALL_ARCHES=$(for f in $DEFAULT_FLAVOURS; do flavour_arch "$f"; done |
	awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')

# arches_check: why ARCHES is bad (on stdout, exit 1), or nothing (unset
# or empty: all of them).
arches_check() {
	for x in ${ARCHES:-}; do
		case " $ALL_ARCHES " in
		*" $x "*) ;;
		*) echo "unknown architecture '$x' in ARCHES (known: $ALL_ARCHES)"; return 1 ;;
		esac
	done
}

# accel_in_arches ACCEL: its flavour's architecture is one of ARCHES.
accel_in_arches() {
	case " ${ARCHES:-$ALL_ARCHES} " in
	*" $(flavour_arch "$(accel_flavour "$1")") "*) return 0 ;;
	esac
	return 1
}

# bench_flavours: the kernel flavours make bench builds: those of the
# accelerators named in ACCEL, or with ACCEL=auto those of every
# accelerator auto may pick on ARCHES.
bench_flavours() {
	if [ "${ACCEL:-auto}" = auto ]; then
		for a in $ACCELS; do
			[ -n "$(accel_attr "$a" auto || true)" ] && accel_in_arches "$a" &&
				accel_builds "$a"
		done
	else
		for a in $ACCEL; do accel_builds "$a"; done
	fi | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//'
}

# accel_check_list: the accelerators make check boots with the check plan
# (records with check 1), one line.
accel_check_list() {
	for a in $ACCELS; do
		[ "$(accel_attr "$a" check || true)" = 1 ] && printf '%s ' "$a"
	done | sed 's/ $//'
}

accel_flavour() { accel_attr "$1" flavour; }
accel_unit() { accel_attr "$1" unit; }
accel_kind() { accel_attr "$1" kind; }
accel_plan_args() { accel_attr "$1" plan_args || true; }
# accel_counted_checks: the accelerators make check runs twice with its
# shortened bench plan (records with check_plan), one line.
accel_counted_checks() {
	for a in $ACCELS; do
		[ -z "$(accel_attr "$a" check_plan || true)" ] || printf '%s ' "$a"
	done | sed 's/ $//'
}
# accel_boots ACCEL: how many boots make bench gives it (BOOTS, else the
# record's boots, else 1): the unit of replication (docs/statistics.md).
accel_boots() { echo "${BOOTS:-$(accel_attr "$1" boots || echo 1)}"; }
# accel_variants ACCEL: what the boots of its code-layout variants run, its
# kind's variants key: paired (default), bench or none (accels.conf).
accel_variants() { conf_get "$ACCELS_CONF" kind "$(accel_kind "$1")" variants 2> /dev/null || echo paired; }
# accel_layouts ACCEL [COMPARE]: its code-layout variants (docs/statistics.md):
# the number of LAYOUT_SEEDS, else LAYOUTS, else the record's layouts, else 1;
# 1 where its flavour's record does not say "relink 1" or its kind's
# variants are none (an instruction count does not see the layout), and,
# in a make compare run (COMPARE 1), where they boot the bench plan
# (mkcompare compares the kernels as built).
accel_layouts() {
	[ "$(flavour_attr "$(accel_flavour "$1")" relink || true)" = 1 ] || { echo 1; return 0; }
	case "$(accel_variants "$1")/${2:-0}" in none/* | bench/1) echo 1; return 0 ;; esac
	if [ -n "${LAYOUT_SEEDS:-}" ]; then
		# shellcheck disable=SC2086 # a list of numbers
		set -- $LAYOUT_SEEDS
		echo "$#"
		return 0
	fi
	echo "${LAYOUTS:-$(accel_attr "$1" layouts || echo 1)}"
}
# accel_layout_builds ACCEL: the flavours its code-layout variants are
# relinked from, in turn, one line: LAYOUT_BUILDS, else the record's
# layout_builds, else its own flavour (docs/statistics.md, "Function
# alignment").
accel_layout_builds() { echo "${LAYOUT_BUILDS:-$(accel_attr "$1" layout_builds || accel_flavour "$1")}"; }
# accel_builds ACCEL [COMPARE]: every flavour ACCEL boots, its own first,
# then those of its code-layout variants (where it has more than one).
accel_builds() {
	accel_flavour "$1"
	[ "$(accel_layouts "$1" "${2:-0}")" = 1 ] || accel_layout_builds "$1" | tr ' ' '\n'
}
# console_silent LOG: the guest wrote nothing to its console log LOG: every
# line is the host's ("[run] ...") or QEMU's own ("qemu-system-x86_64: ...").
console_silent() {
	! grep -aqv -e '^\[run\] ' -e '^qemu-system-[a-z0-9_]*: ' "$1" 2> /dev/null
}

# accel_nested_by ACCEL: the nested accelerator whose outer guest runs
# ACCEL's command line (its record's nests), if any.
accel_nested_by() {
	for n_a in $ACCELS; do
		[ "$(accel_attr "$n_a" nests || true)" != "$1" ] || { echo "$n_a"; return 0; }
	done
}

# accel_unusable ACCEL: why ACCEL cannot run here (its record's needs is
# not a writable path), on stdout; fails when nothing is in the way.
accel_unusable() {
	needs=$(accel_attr "$1" needs || true)
	[ -n "$needs" ] && [ ! -w "$needs" ] || return 1
	if [ -e "$needs" ]; then
		echo "$1 needs $needs, which this user cannot open for writing"
	else
		echo "$1 needs $needs, which this machine does not have"
	fi
}

flavour_kernel() {
	image=$(flavour_attr "$2" image) || return 1
	echo "$1/obj-$2/$image"
}

# host_cpu_id: the host CPU's vendor, family, model and stepping as
# /proc/cpuinfo gives them ("GenuineIntel 6 167 1"): what keys a core
# record or a measured one (bench/measured.conf) to a host, where the
# model name may be a hypervisor's generic one
host_cpu_id() {
	awk -F': *' '/^vendor_id/ { v = $2 } /^cpu family/ { f = $2 } /^model[ \t]*:/ { m = $2 }
		/^stepping/ { s = $2 } /^$/ { exit } END { print v, f, m, s }' /proc/cpuinfo
}

accel_host_txt() {
	echo "accel=$1"
	echo "unit=$(accel_unit "$1")"
	echo "kind=$(accel_kind "$1")"
	echo "flavour=$(accel_flavour "$1")"
	if rsd=$(accel_attr "$1" run_sd); then echo "run_sd=$(echo "$rsd" | tr -d ' \t')"; fi
	if core=$(accel_attr "$1" model); then
		echo "model_core=$core"
		echo "model_title=$(core_attr "$core" title)"
		echo "model_args=$(core_plugin_args "$core" | tr , ' ')"
		echo "model_formula=$(core_attr "$core" cycles)"
		also=$(accel_attr "$1" model_also || true)
		[ -z "$also" ] || echo "model_also=$also"
		for c in $also; do
			echo "model_formula_$c=$(core_attr "$c" cycles)"
		done
	fi
}

# accel_cores ACCEL: the cores an accelerator's plugin models (model and
# model_also), one a line
accel_cores() {
	for ac_core in $(accel_attr "$1" model) $(accel_attr "$1" model_also || true); do
		echo "$ac_core"
	done
}

# accel_plugin_args ACCEL: the model plugin's arguments for an accelerator
# with a model record: each core of model and model_also, "core=NAME,..."
accel_plugin_args() {
	pa_sep=
	for pa_core in $(accel_cores "$1"); do
		printf '%score=%s,%s' "$pa_sep" "$pa_core" "$(core_plugin_args "$pa_core")" || return 1
		pa_sep=,
	done
	echo
}

# The core records of the model plugin (bench/cores.conf).
CORES_CONF=${CORES_CONF:-$CONF_DIR/cores.conf}
core_attr() { conf_get "$CORES_CONF" core "$1" "$2"; }
# core_plugin_args CORE: the plugin's arguments for a core record,
# "l1i=...,l1d=...,..." (every key the plugin takes: not arch, title,
# cycles, predictor, year, mcpu, taken)
core_plugin_args() {
	keys=$(conf_keys "$CORES_CONF" core "$1") || { echo "no core $1 in $CORES_CONF" >&2; return 1; }
	echo "$keys" | awk '$1 != "arch" && $1 != "title" && $1 != "cycles" && $1 != "predictor" && $1 != "year" && $1 != "mcpu" && $1 != "taken" { printf "%s%s=%s", n++ ? "," : "", $1, $2 } END { print "" }'
}

# accel_pin ACCEL: the host CPU a guest of an accelerator with pin=1 is
# pinned to (PIN_CPU, default the last one; "none" to not pin), empty if
# none.
accel_pin() {
	[ "$(accel_attr "$1" pin || true)" = 1 ] || return 0
	pin=${PIN_CPU:-$(( $(nproc) - 1 ))}
	[ "$pin" != none ] && command -v taskset > /dev/null && echo "$pin"
	return 0
}

# accel_qemu_argv ACCEL KERNEL INITRD DISK CMDLINE: the QEMU command line
# of a "boot qemu ..." accelerator, one argument a line (no argument holds
# a newline), the qemu-system binary first.  accel_boot runs it; a nested
# accelerator writes it into its outer guest, whose /init runs it
# (bench/guest/nested-init.sh).
accel_qemu_argv() {
	q_f=$(accel_flavour "$1")
	q_mem=${GUEST_MEM:-$(accel_attr "$1" mem || echo 1024)}
	q_boot=$(accel_attr "$1" boot) || return 1
	q_qemu=$(flavour_attr "$q_f" qemu) || return 1
	q_console=$(flavour_attr "$q_f" console || echo ttyS0)
	q_drive=$(flavour_attr "$q_f" qemu_drive || echo if=virtio)
	q_kernel=$2 q_initrd=$3 q_disk=$4 q_cmdline=$5
	q_core=$(accel_attr "$1" model || true) q_args=
	[ -z "$q_core" ] || q_args=$(accel_plugin_args "$1") || return 1
	# The record's arguments are split into words on purpose.
	# shellcheck disable=SC2086
	set -- ${q_boot#qemu}
	if [ -n "$q_core" ]; then
		[ -f "${MODEL_PLUGIN:-}" ] || { echo "[run] core $q_core: no model plugin '${MODEL_PLUGIN:-}' (make model-tools)" >&2; return 1; }
		set -- "$@" -plugin "$MODEL_PLUGIN,out=${MODEL_OUT:?}${MODEL_PROFILE:+,profile=$MODEL_PROFILE},$q_args"
	fi
	# no DISK: the results come back on the console (accels.conf out)
	[ -z "$q_disk" ] || set -- "$@" -drive "file=$q_disk,format=raw,$q_drive"
	printf '%s\n' "$q_qemu" "$@"
	qemu_guest_args "$q_mem" "$q_kernel" "$q_initrd" "console=$q_console $q_cmdline"
}

# qemu_guest_args MEM KERNEL INITRD APPEND: the arguments every guest of
# the harness boots with (one vCPU, no display, the serial console on
# stdio), one a line.
qemu_guest_args() {
	printf '%s\n' -m "$1" -smp 1 -no-reboot -display none -monitor none \
		-serial stdio -kernel "$2" -initrd "$3" -append "$4"
}

# accel_nested_initrd ACCEL KERNEL INITRD DISK CMDLINE OUT: the outer
# guest's initramfs of nested accelerator ACCEL, at OUT: the outer archive
# (nested-outer.sh, in NESTED_DIR) with the inner kernel, initramfs and
# QEMU command line (that of the accelerator ACCEL nests, DISK passed
# through as the outer guest's /dev/vda) appended.
accel_nested_initrd() {
	n_inner=$(accel_attr "$1" nests) || return 1
	n_dir=$NESTED_DIR
	[ -f "$n_dir/outer.cpio.gz" ] || { echo "[run] $1: no outer guest in $n_dir (bench/host/nested-outer.sh)" >&2; return 1; }
	n_stage=$6.d
	rm -rf "$n_stage"
	mkdir -p "$n_stage"
	accel_qemu_argv "$n_inner" /inner/kernel /inner/initrd "${4:+/dev/vda}" "$5" > "$n_stage/argv" || return 1
	printf '%s\n' "file /inner/kernel $2 0644 0 0" "file /inner/initrd $3 0644 0 0" \
		"file /inner/argv $n_stage/argv 0644 0 0" > "$n_stage/list"
	{ cat "$n_dir/outer.cpio.gz"; "$n_dir/gen_init_cpio" "$n_stage/list" | gzip -n -1; } > "$6"
	rm -rf "$n_stage"
}

accel_boot() {
	accel=$1 kernel=$2 initrd=$3 disk=$4 cmdline=$5
	mem=${GUEST_MEM:-$(accel_attr "$accel" mem || echo 1024)}
	pin=$(accel_pin "$accel")
	boot=$(accel_attr "$accel" boot) || return 1
	# Pin this shell, and so the guest it becomes (UML's processes,
	# QEMU's threads), to one CPU.
	if [ -n "$pin" ]; then
		taskset -cp "$pin" $$ > /dev/null ||
			echo "[run] could not pin to cpu $pin" >&2
		echo "[run] $accel guest pinned to host cpu $pin" >&2
	fi
	case "$boot" in
	qemu | "qemu "*)
		argv=$(accel_qemu_argv "$accel" "$kernel" "$initrd" "$disk" "$cmdline") || return 1 ;;
	nested | "nested "*)
		# the outer guest: TCG with SVM, Debian's kernel, QEMU inside
		# (nested-outer.sh); its memory holds the inner guest's and the
		# unpacked initramfs
		scratch=${BOOT_SCRATCH:?}
		accel_nested_initrd "$accel" "$kernel" "$initrd" "$disk" "$cmdline" "$scratch/outer.cpio.gz" || return 1
		mem=$(( ${GUEST_MEM:-$(accel_attr "$(accel_attr "$accel" nests)" mem || echo 1024)} + 1024 ))
		# shellcheck disable=SC2086 # the record's arguments
		argv=$(printf '%s\n' qemu-system-x86_64 ${boot#nested}
			[ -z "$disk" ] || printf '%s\n' -drive "file=$disk,format=raw,if=virtio"
			qemu_guest_args "$mem" "$NESTED_DIR/vmlinuz" "$scratch/outer.cpio.gz" \
				"console=ttyS0 quiet panic=-1") ;;
	uml)
		# UML keeps guest memory in an unlinked file under TMPDIR.  On
		# a disk file system (here /tmp is ext4) the host writes its
		# dirty pages back and the next guest store to each faults;
		# tmpfs has no writeback.
		# The command line is split into kernel arguments on purpose.
		if [ -z "${UML_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
			UML_TMPDIR=/dev/shm
		fi
		[ -n "${UML_TMPDIR:-}" ] && export TMPDIR="$UML_TMPDIR"
		echo "[run] uml guest memory under ${TMPDIR:-/tmp}" >&2
		# shellcheck disable=SC2086
		# GUEST_INPUT_DISK: a read-only second disk (run-guest.sh)
		exec "$kernel" mem="${mem}M" initrd="$initrd" ubd0="$disk" \
			${GUEST_INPUT_DISK:+ubd1r="$GUEST_INPUT_DISK"} \
			con=null con0=null,fd:1 $cmdline < /dev/null ;;
	*) return 1 ;;
	esac
	# a QEMU guest: its command line, one argument a line
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done <<EOA
$argv
EOA
	exec "$@" < /dev/null
}

# accel_auto PROBE: the accelerators ACCEL=auto picks, by each record's
# auto rule: probe (its needs path writable, then `PROBE ACCEL` succeeds),
# always, or unless:OTHER (when OTHER was not picked); only those whose
# flavour is of one of ARCHES.  Why on stderr.
accel_auto() {
	picked=""
	for a in $ACCELS; do
		accel_in_arches "$a" || continue
		rule=$(accel_attr "$a" auto || echo never)
		case "$rule" in
		probe)
			if ! accel_unusable "$a" > /dev/null && "$1" "$a"; then
				echo "[bench] $a: probe boot succeeded ($(accel_kind "$a"), $(accel_unit "$a"))" >&2
				picked="$picked $a"
			else
				n_by=$(accel_nested_by "$a")
				echo "[bench] $a unusable here ($(accel_unusable "$a" || echo "a probe boot failed within ${PROBE_TIMEOUT:-30}s"))${n_by:+; its path runs under nested TCG: ACCEL=$n_by}" >&2
			fi ;;
		always) picked="$picked $a" ;;
		unless:*)
			case " $picked " in
			*" ${rule#unless:} "*) ;;
			*) picked="$picked $a" ;;
			esac ;;
		esac
	done
	echo "${picked# }"
}
