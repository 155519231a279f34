#!/bin/sh
# Prove that the patch moving the eBPF interpreter into kernel/bpf/interp.h
# (0005, CONFIG_BPF_CONVERT_2014) leaves engine `new` alone: compile
# kernel/bpf/core.c as it was before that patch and as it is at the top of
# the series, with the very command line kbuild used for the flavour's
# kernel, and compare the machine code of the interpreter's functions
# (___bpf_prog_run, __bpf_prog_run<N>, __bpf_prog_run_args<N>) and of the
# jump table the interpreter dispatches through.
#
# usage: cmp-interp-code.sh TREE OBJ WORK
#   TREE  the patched tree (build/linux, the series as commits on pristine)
#   OBJ   a built object directory of it (build/obj-x86_64)
#   WORK  scratch directory (emptied)
# Prints one line per function; exits 1 on any difference.
set -eu

[ $# = 3 ] || { echo "usage: cmp-interp-code.sh TREE OBJ WORK" >&2; exit 2; }
tree=$1 obj=$(cd "$2" && pwd) work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The patch is the commit that adds kernel/bpf/interp.h.
p=$(git -C "$tree" log --format=%H --diff-filter=A pristine..HEAD -- kernel/bpf/interp.h)
[ -n "$p" ] || { echo "cmp-interp-code: no commit adds kernel/bpf/interp.h in $tree" >&2; exit 1; }
cmdfile=$obj/kernel/bpf/.core.o.cmd
[ -f "$cmdfile" ] || { echo "cmp-interp-code: $cmdfile missing (build the kernel first)" >&2; exit 1; }
# The compile command alone (objtool, after the ';', does not change code);
# 6.1 names it cmd_<object>, 6.12 savedcmd_<object>.
cmd=$(sed -n 's/^\(saved\)\{0,1\}cmd_kernel\/bpf\/core\.o := //p' "$cmdfile" | sed 's/;.*//')
case "$cmd" in
*" -c -o kernel/bpf/core.o ../kernel/bpf/core.c"*) ;;
*) echo "cmp-interp-code: unexpected compile command in $cmdfile" >&2; exit 1 ;;
esac

# build NAME REV: core.c, interp.h and include/linux/filter.h of REV in
# WORK/NAME, compiled to WORK/NAME/core.o; filter.h is found first.
build() {
	d=$work/$1
	mkdir -p "$d/include/linux"
	git -C "$tree" show "$2:kernel/bpf/core.c" > "$d/core.c"
	git -C "$tree" show "$2:include/linux/filter.h" > "$d/include/linux/filter.h"
	git -C "$tree" show "$2:kernel/bpf/interp.h" > "$d/interp.h" 2> /dev/null || rm -f "$d/interp.h"
	c=$(echo "$cmd" | sed -e "s| -Wp,-MMD,kernel/bpf/.core.o.d | -Wp,-MMD,$d/core.o.d -I$d/include |" \
		-e "s| -c -o kernel/bpf/core.o ../kernel/bpf/core.c| -c -o $d/core.o $d/core.c|")
	(cd "$obj" && eval "$c") || { echo "cmp-interp-code: compiling core.c of $2 failed" >&2; exit 1; }
}
build before "$p^"
build after HEAD

# listing OBJECT FUNCTION: its instructions without addresses, branch
# targets as offsets in the function, relocations by symbol name.
listing() {
	objdump -dr --no-show-raw-insn "--disassemble=$2" "$1" | awk -v f="$2" '
	$0 ~ "^[0-9a-f]+ <" f ">:$" { on = 1; next }
	on && /^$/ { exit }
	on {
		sub(/^[ \t]*[0-9a-f]+:[ \t]*/, "")
		gsub(/[ \t][0-9a-f]+ </, " <")
		gsub(/\.(text|rodata|data|bss)[.a-z_]*(\+0x[0-9a-f]+)?/, "SECTION")
		print
	}'
}
# jumptable OBJECT FUNCTION: the entries of the jump table section pointing
# into FUNCTION or its cold part (FUNCTION.cold in .text.unlikely), as
# offsets from the part's start, in table order.
jumptable() {
	nm -S "$1" | awk -v f="$2" '$4 == f || $4 == f ".cold" { print $4, $1, $2 }' > "$work/parts"
	# __annotate_jump_table's section: .rodata..c_jump_table on 6.1,
	# .data.rel.ro.c_jump_table on 6.12
	sect=$(objdump -h "$1" | awk '$2 ~ /c_jump_table$/ { print $2; exit }')
	objdump -r -j "$sect" "$1" | awk -v f="$2" '
	function hex(o,   v, i) {
		v = 0
		for (i = 1; i <= length(o); i++)
			v = v * 16 + index("0123456789abcdef", substr(o, i, 1)) - 1
		return v
	}
	NR == FNR { lo[$1] = hex($2); hi[$1] = hex($2) + hex($3); next }
	$3 ~ /^\.text(\.unlikely)?\+0x/ {
		split($3, t, /[+]/); sub(/^0x/, "", t[2])
		p = t[1] == ".text" ? f : f ".cold"
		v = hex(t[2])
		if ((p in lo) && v >= lo[p] && v < hi[p])
			print p, v - lo[p]
	}' "$work/parts" -
}

fns=$(nm "$work/before/core.o" | awk '$3 ~ /^(___bpf_prog_run|__bpf_prog_run(_args)?[0-9]+)$/ { print $3 }' | sort)
[ -n "$fns" ] || { echo "cmp-interp-code: no interpreter functions in core.o" >&2; exit 1; }
bad=0 n=0
for f in $fns; do
	n=$((n + 1))
	listing "$work/before/core.o" "$f" > "$work/$f.before"
	listing "$work/after/core.o" "$f" > "$work/$f.after"
	if [ ! -s "$work/$f.after" ]; then
		echo "cmp-interp-code: $f: missing after $(git -C "$tree" log -1 --format=%s "$p")"
		bad=$((bad + 1))
	elif cmp -s "$work/$f.before" "$work/$f.after"; then
		echo "cmp-interp-code: $f: same $(wc -l < "$work/$f.before") instructions"
	else
		echo "cmp-interp-code: $f: DIFFERENT code ($work/$f.before vs .after)"
		bad=$((bad + 1))
	fi
done
jumptable "$work/before/core.o" ___bpf_prog_run > "$work/jumptable.before"
jumptable "$work/after/core.o" ___bpf_prog_run > "$work/jumptable.after"
if [ -s "$work/jumptable.before" ] && cmp -s "$work/jumptable.before" "$work/jumptable.after"; then
	echo "cmp-interp-code: ___bpf_prog_run jump table: same $(wc -l < "$work/jumptable.before") entries"
else
	echo "cmp-interp-code: ___bpf_prog_run jump table: DIFFERENT or empty"
	bad=$((bad + 1))
fi
echo "cmp-interp-code: $n functions compared, $bad different"
[ "$bad" = 0 ]
