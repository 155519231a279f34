#!/bin/sh
# ancillary.sh - the ancillary-load corpus of the differential test: every
# SKF_AD_* load v3.14 or 6.1 knows, on frames built to be hostile to the
# netlink ones (nests and attributes of every length 0..8, at and past the
# end of the frame).  gen.sh generate writes its output into
# ancillary.dd and ancillary-packets.txt; plan-diff.sh runs every program
# on every frame on every engine (bpfdiff run: 0 unexplained).
#
#   ancillary.sh programs   the programs, as programs.dd ("# NAME" lines,
#                           then "{ code, jt, jf, k }," lines)
#   ancillary.sh packets    the frames, as packets.txt ("NAME HEX")
#
# Programs: "ld #A; ldx #X; ld{,h,b} [SKF_AD_OFF + n]; ret A" for each
# load n at each width (A = X = 0); the word loads of SKF_AD_NLATTR and
# SKF_AD_NLATTR_NEST with A at 0, 12, 14, 16, 40, 60, 61, 63, 64, 1500 and
# 0xfffffff0 (at and past the end of every frame) and X of 0, 1, 2 and
# 0xffff (the types the frames hold, and one none does), their half-word
# and byte loads with A = 14, X = 1.
set -eu

# the loads: offset from SKF_AD_OFF and name (bench/guest/bpfdiff.c AD_*)
loads="0:protocol 4:pkttype 8:ifindex 12:nlattr 16:nlattr_nest 20:mark
24:queue 28:hatype 32:rxhash 36:cpu 40:alu_xor_x 44:vlan_tag
48:vlan_tag_present 52:pay_offset 56:random 60:vlan_tpid"

# prog NAME A X CODE N: one program
prog() {
	printf '# %s\n{ 0x0, 0, 0, 0x%08x },\n{ 0x1, 0, 0, 0x%08x },\n' "$1" "$2" "$3"
	printf '{ 0x%x, 0, 0, 0x%08x },\n{ 0x16, 0, 0, 0x00000000 },\n' "$4" $((0xfffff000 + $5))
}

programs() {
	for l in $loads; do
		n=${l%%:*} name=${l#*:}
		for w in 20:w 28:h 30:b; do
			code=$((0x${w%%:*}))
			case $name$w in
			nlattr*20:w)
				for a in 0 12 14 16 40 60 61 63 64 1500 4294967280; do
					for x in 0 1 2 65535; do
						prog "ld${w#*:} [$name] A=$a X=$x" "$a" "$x" "$code" "$n"
					done
				done ;;
			nlattr*) prog "ld${w#*:} [$name] A=14 X=1" 14 1 "$code" "$n" ;;
			*) prog "ld${w#*:} [$name]" 0 0 "$code" "$n" ;;
			esac
		done
	done
}

# le16 N: N as 4 hex digits, little-endian (nlattr fields are host-endian;
# every architecture the harness boots is little-endian)
le16() { printf '%02x%02x' $(($1 & 255)) $(($1 >> 8)); }

# frame NAME LEN [OFF:NLALEN:TYPE]...: a frame of LEN bytes, zeros but for
# an Ethernet header (IPv4) and an nlattr header at each OFF
frame() {
	name=$1 len=$2
	shift 2
	printf '%s ' "$name"
	awk -v len="$len" -v hdrs="$*" 'BEGIN {
		h = "020000000002020000000001" "0800"
		for (i = 0; i < len; i++) b[i] = i < 14 ? substr(h, 2 * i + 1, 2) : "00"
		n = split(hdrs, f, " ")
		for (j = 1; j <= n; j++) {
			split(f[j], p, ":")
			o = p[1] + 0; l = p[2] + 0; t = p[3] + 0
			v[0] = l % 256; v[1] = int(l / 256); v[2] = t % 256; v[3] = int(t / 256)
			for (k = 0; k < 4; k++) if (o + k < len) b[o + k] = sprintf("%02x", v[k])
		}
		for (i = 0; i < len; i++) printf "%s", b[i]
		print ""
	}'
}

packets() {
	frame plain-14 14
	frame plain-60 60
	for l in 0 1 2 3 4 5 6 7 8; do
		# a nest of length l at 14 holding an attribute of type 1, and an
		# attribute of length l where the stream starts
		frame "nest$l-at14" 64 "14:$l:1" "18:8:1"
		frame "attr$l-at14" 64 "14:$l:1" "$((14 + ((l + 3) / 4) * 4)):8:2"
		# the same at the frame's last 4 bytes, and cut by the end
		frame "nest$l-at60" 64 "60:$l:1"
		frame "nest$l-at62" 64 "62:$l:1"
	done
	# a nest as long as the frame, one a byte longer; attributes that
	# chain to the end exactly, and one past it
	frame nest-fills 64 "14:50:1" "18:8:2" "26:8:1"
	frame nest-past 64 "14:51:1" "18:8:2"
	frame chain-end 64 "14:4:3" "18:4:3" "22:42:1"
	frame chain-past 64 "14:4:3" "18:4:3" "22:43:1"
	frame attr-max 64 "14:65535:1" "18:65535:2"
}

case "${1:-}" in
programs) programs ;;
packets) packets ;;
*) echo "usage: ancillary.sh programs|packets" >&2; exit 2 ;;
esac
