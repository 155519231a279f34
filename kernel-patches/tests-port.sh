#!/bin/sh
# The 6.12 series against 6.1's (port-check.sh): the live series differ
# only by the recorded port differences; on copies of the series, a
# one-line change made in one series and not the other fails naming the
# patch, the file and the hunk, a record taken out of the list fails, a
# record no difference matches fails, and what a port moves (line numbers,
# index lines, a patch's number) passes.  Nothing is built.
#
# usage: tests-port.sh TOP     prints PASS:/FAIL: lines
set -eu
top=$(cd "$1" && pwd)
TEST_PREFIX="port: "
# shellcheck source=bench/host/testlib.sh
. "$top/bench/host/testlib.sh"
kp=$top/kernel-patches
check=$kp/port-check.sh
live=$kp/6.12/port-differences.txt
n=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$live")

expect "the 6.12 series differs from 6.1's by the $n recorded port differences only" "$check"
cp "$live" "$tmp/list"
"$check" --update "$kp" "$kp/6.12" "$tmp/list" > /dev/null
expect "--update rewrites the list as it is (every record found, every reason kept)" cmp "$live" "$tmp/list"
rc=0
"$check" -x > /dev/null 2>&1 || rc=$?
is "$rc" 2 "a usage error exits 2"

# copy NAME: both series and the list in $tmp/NAME and $tmp/NAME/6.12.
copy() {
	rm -rf "${tmp:?}/$1"
	mkdir -p "$tmp/$1/6.12"
	cp "$kp"/[0-9][0-9][0-9][0-9]-*.patch "$tmp/$1/"
	cp "$kp"/6.12/[0-9][0-9][0-9][0-9]-*.patch "$live" "$tmp/$1/6.12/"
}
# edit FILE SED: FILE through sed(1); a FAIL when it changes nothing (the
# series no longer has the line a test edits).
edit() {
	sed "$2" "$1" > "$1.new"
	if cmp -s "$1" "$1.new"; then fail "the test's edit '$2' changes $(basename "$1")"; fi
	mv "$1.new" "$1"
}

# What a port moves: other line numbers in the @@ lines and other index
# lines; a change made in both series; a patch renumbered (paired by its
# subject).
copy moved
edit "$tmp"/moved/6.12/0001-*.patch 's/^@@ -571,6 +571,7 @@/@@ -601,6 +602,7 @@/; s/^index 6bc3dc998\.\.0ed1be647/index 1234567..89abcde/'
for p in "$tmp"/moved/0006-*.patch "$tmp"/moved/6.12/0006-*.patch; do
	edit "$p" 's|^+/\* sk_run_filter(), adding the number of instructions run to \*@insn_cnt \*/$|+/* sk_run_filter(), adding the instructions it runs to *@insn_cnt */|'
done
mv "$tmp"/moved/6.12/0006-*.patch "$tmp/moved/6.12/0016-renumbered.patch"
expect "other @@ line numbers and index lines, a change made in both series and a renumbered patch pass" \
	"$check" "$tmp/moved" "$tmp/moved/6.12"

# A one-line change in one hunk of the 6.1 series, not in 6.12's.
copy fix61
edit "$tmp"/fix61/0003-*.patch 's/^\(+ \* Kept only as a benchmark baseline for the eBPF interpreter and\) JIT\.$/\1 JITs./'
refused "a one-line change in 6.1's 0003 not made in 6.12's fails, naming the patch, file and hunk" \
	"^port-check: 0003 kernel/seccomp.c hunk 3 \(6\.1 @@ -388,6 \+394,84 @@.*a difference not recorded" \
	"$check" "$tmp/fix61" "$tmp/fix61/6.12"
expect "the failure shows the changed line of both series" grep -q '^    > + \* Kept only .* JIT\.$' "$tmp/out"
# --update records it, with the reason given; the other reasons are kept.
"$check" --update -m "a test's deliberate change" "$tmp/fix61" "$tmp/fix61/6.12" > /dev/null
is "$(grep -c "^0003 kernel/seccomp.c 3 -1/+1 [0-9a-f]* a test's deliberate change\$" "$tmp/fix61/6.12/port-differences.txt") $(grep -c -v '^#' "$tmp/fix61/6.12/port-differences.txt")" \
	"1 $((n + 1))" "--update adds the new difference with -m's reason"
expect "after --update the changed copy passes" "$check" "$tmp/fix61" "$tmp/fix61/6.12"
grep -v '^0003 kernel/seccomp.c 3 -1/+1 ' "$tmp/fix61/6.12/port-differences.txt" > "$tmp/kept"
expect "--update keeps every other record and its reason" cmp "$live" "$tmp/kept"

# A one-line change in 6.12 only, next to a recorded difference: the record
# no longer matches (stale) and the changed difference is not recorded.
copy fix612
edit "$tmp"/fix612/6.12/0004-*.patch 's/^+\t\tBUILD_BUG_ON(sizeof_field(struct sk_buff, vlan_all) != 4);$/+\t\tBUILD_BUG_ON(sizeof_field(struct sk_buff, vlan_all) != sizeof(u32));/'
refused "a one-line change in 6.12's 0004 next to a recorded difference fails, naming the patch, file and hunk" \
	"^port-check: 0004 arch/x86/net/bpf_classic_jit.c hunk 1 .*a difference not recorded" \
	"$check" "$tmp/fix612" "$tmp/fix612/6.12"
expect "... and names the record it no longer matches (stale)" \
	grep -q "recorded difference 0004 arch/x86/net/bpf_classic_jit.c 1 -0/+1 3709a41c found in no patch" "$tmp/out"

# The list: a record taken out, a record of no difference.
copy list
grep -v '^0002 net/Kconfig ' "$live" > "$tmp/list/6.12/port-differences.txt"
refused "a recorded difference removed from the list fails, naming its patch, file and hunk" \
	"^port-check: 0002 net/Kconfig hunk 1 .*a difference not recorded" \
	"$check" "$tmp/list" "$tmp/list/6.12"
copy stale
echo "0001 kernel/bpf/core.c 1 -1/+1 0badc0de not a difference" >> "$tmp/stale/6.12/port-differences.txt"
refused "a record no difference matches fails (stale), naming its line" \
	"port-differences.txt:$(wc -l < "$tmp/stale/6.12/port-differences.txt"): recorded difference 0001 kernel/bpf/core.c 1 -1/\+1 0badc0de found in no patch" \
	"$check" "$tmp/stale" "$tmp/stale/6.12"

# A patch of one series only.
copy only
rm "$tmp"/only/6.12/0006-*.patch
refused "a patch missing from 6.12 fails, naming it" \
	"^port-check: 0006 \(patch\): in the 6\.1 series only, a difference not recorded" \
	"$check" "$tmp/only" "$tmp/only/6.12"

test_summary
