# shellcheck shell=sh
# Seccomp in the guest (sourced by the plans after lib.sh).  The engine a
# filter runs on is chosen when it is attached: new = eBPF interpreter
# (bpf_jit_enable=0), jit = the kernel's eBPF JIT (bpf_jit_enable=1), old = the
# revived classic interpreter when the kernel has the seccomp_engine knob.
# The filters are the guest arch's (bench/host/mkinitramfs.sh packs
# filters/seccomp/short<-arch>.bpf as short.bpf, ...): no arch here.
# The constants are used by the plans that source this file.
# shellcheck disable=SC2034
SECCOMP=/bench/filters/seccomp
SECCOMP_KNOB=/proc/sys/kernel/seccomp_classic_interp
# The timed call: syscall(199, 100) (199: fremovexattr on x86_64, getuid32
# on i386 and arm EABI), allowed only after an argument test,
# so 6.1's seccomp action cache cannot skip the filter (filters/seccomp/README.md).
SECCOMP_NR=199
SECCOMP_ARG=100
SECCOMP_DENY_ARG=0
# x86-64 module mapping space, where 6.1 allocates BPF JIT images (perf
# folding only, module_area).
MODULE_AREA_START=0xffffffffa0000000
MODULE_AREA_END=0xffffffffff000000

# seccomp_engines: the engines to attach filters with, in registry order:
# those whose engines.conf record says how a seccomp filter runs on them
# (seccomp classic, interp or jit) and that this kernel offers; none
# without CONFIG_SECCOMP_FILTER.
seccomp_engines() {
	[ -f /proc/sys/kernel/seccomp/actions_avail ] || return 0
	for e in $(registry_engines); do
		case $(engine_attr "$e" seccomp) in
		classic) if [ -w "$SECCOMP_KNOB" ]; then echo "$e"; fi ;;
		jit) if [ -w /proc/sys/net/core/bpf_jit_enable ]; then echo "$e"; fi ;;
		interp) echo "$e" ;;
		esac
	done
}

# seccomp_use ENGINE: make filters attached from now on run on ENGINE
# (its record's seccomp key: the revived classic interpreter, 6.1's
# interpreter or 6.1's JIT).
seccomp_use() {
	old=0 jit=0
	case $(engine_attr "$1" seccomp) in
	classic) old=1 ;;
	jit) jit=1 ;;
	interp) ;;
	*) say "engine $1: no seccomp key in $ENGINES_CONF"; return 1 ;;
	esac
	if [ -w "$SECCOMP_KNOB" ]; then echo "$old" > "$SECCOMP_KNOB"; fi
	if [ -w /proc/sys/net/core/bpf_jit_enable ]; then
		echo "$jit" > /proc/sys/net/core/bpf_jit_enable
	fi
}

# seccomp_expect_class ACTION: what seccomp-bench --verdict prints for it.
seccomp_expect_class() {
	case "$1" in
	ALLOW) echo ALLOW ;;
	KILL_PROCESS | KILL_THREAD) echo "KILLED sig=31" ;;
	TRAP) echo TRAPPED ;;
	ERRNO\(*\)) n=${1#ERRNO(}; echo "ERRNO ${n%)}" ;;
	*) echo "unsupported $1" ;;
	esac
}

# seccomp_perf CELL FILE CALLS: one more run of CALLS calls under perf stat
# and one under perf record, named like the bench cells
# (<tag>-<engine>-<filter>-<packet>-skbs<N>) so that mkcsv and mkcover find
# them.  A seccomp JIT image has no kallsyms entry and its address is not
# known here: bare addresses in the module area (where 6.1 x86-64 puts JIT
# images; this module's own symbols resolve) are folded as the JIT image.
seccomp_perf() {
	perf_wanted || return 0
	perf stat -x, -o "$PERF_OUT/$1.stat" -e "$PERF_EVENTS" -- \
		/bench/seccomp-bench "$2" "$SECCOMP_NR" "$SECCOMP_ARG" "$3" > /dev/null 2>&1 ||
		say "perf stat of $1 failed"
	perf_profile "$PERF_OUT/$1.report" module_area \
		/bench/seccomp-bench "$2" "$SECCOMP_NR" "$SECCOMP_ARG" "$3"
}

# module_area: the JIT image range perf folds, on x86-64 only; elsewhere
# none (no folding: the addresses stay as perf prints them).
module_area() {
	case $(uname -m) in
	x86_64) echo "$MODULE_AREA_START $MODULE_AREA_END" ;;
	esac
}

# seccomp_cell ENGINE FILTER CALLS RUNS: time RUNS runs of CALLS calls and
# print one cells.txt line per run (ns per syscall; placement=K
# placements=RUNS: mkcsv combines them into the cell's median, on the host).
# shellcheck disable=SC2154 # id, prefix: set by lib.sh's cell_prefix
seccomp_cell() {
	engine=$1 filter=$2 calls=$3 runs=$4
	cell_prefix "$engine" "$filter" nr199 1 seccomp
	file=$SECCOMP/$filter.bpf
	[ "$filter" = none ] && file=none
	seccomp_use "$engine" || return 1
	jited=$(engine_attr "$engine" jited 0)
	i=0
	while [ "$i" -lt "$runs" ]; do
		line=$(/bench/seccomp-bench "$file" "$SECCOMP_NR" "$SECCOMP_ARG" "$calls") ||
			{ say "seccomp-bench $filter failed: $line"; return 1; }
		ns=$(echo "$line" | sed -n 's/.* ns_per_call=\([0-9.]*\).*/\1/p')
		i=$((i + 1))
		echo "$prefix engine=$engine skbs=1 placement=$i placements=$runs samples=1 calls_per_sample=$calls min=$ns median=$ns mean=$ns stddev=0 verdict=ALLOW jited=$jited insns=0 image_bytes=0 clock=monotonic"
	done
	seccomp_perf "$id" "$file" "$calls"
}
