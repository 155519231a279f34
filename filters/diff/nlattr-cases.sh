#!/bin/sh
# The SKF_AD_NLATTR_NEST regression cases of cases.txt (filters/diff/
# README.md): a nest shorter than its own 4-byte header holds nothing (A =
# 0 on every engine and tree, as in v3.14, where nla_len() of such a nest
# was negative).  Since v6.9 nla_len() is u16: 0 - 4 wraps to 65532, and an
# unchecked nla_find_nested() walks the heap past the packet.
#
# Program: ld #12; ldx #1; ld [SKF_AD_OFF + SKF_AD_NLATTR_NEST]; ret A.
# Frame (64 bytes): a nest header at 12 (nla_len N, type 1), an attribute
# header at 16, zeros after it.
#   nla-nest-lenN (N = 0..4): the attribute at 16 is {8, type 1}, the one
#     searched: the unchecked walk of a nest with N < 4 stops there, A = 16,
#     whatever the heap holds; N = 4 (an empty nest) is the control.
#   nla-nest-past-T (T = 192..1216 by 32): nest length 0, the attribute at
#     16 is {T - 16, type 2}: the unchecked walk's next read is at T, past
#     the 64-byte frame; one T lands in the redzone just past the skb head's
#     allocation (slab-out-of-bounds under KASAN, debug-campaign.sh).
# usage: nlattr-cases.sh > lines (compared with cases.txt by tests.sh)
set -eu
prog='{0x0,0,0,0xc},{0x1,0,0,0x1},{0x20,0,0,0xfffff010},{0x16,0,0,0x0}'
mac=020000000001020000000002
# le16 N: N as 4 hex digits, little-endian (nlattr fields are host-endian:
# every architecture the harness boots is little-endian)
le16() { printf '%02x%02x' $(($1 & 255)) $(($1 >> 8)); }
# frame NESTLEN ATTRLEN ATTRTYPE: the 64-byte frame, in hex
frame() { printf '%s%s0100%s%s%088d\n' "$mac" "$(le16 "$1")" "$(le16 "$2")" "$(le16 "$3")" 0; }
for n in 0 1 2 3 4; do
	echo "nla-nest-len$n 0 $(frame "$n" 8 1) $prog"
done
t=192
while [ "$t" -le 1216 ]; do
	echo "nla-nest-past-$t 0 $(frame 0 $((t - 16)) 2) $prog"
	t=$((t + 32))
done
