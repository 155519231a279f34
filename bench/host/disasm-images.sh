#!/bin/sh
# Disassemble the JIT images a bench guest saved (image-ENGINE-FILTER.hex,
# hex bytes as the bpf_bench `image` knob prints them) next to them, as
# image-ENGINE-FILTER.dis: the raw bytes from offset 0, listed by the
# flavour's objdump (bench/flavours.conf `disasm`, e.g. "objdump
# -mi386:x86-64", "arm-linux-gnueabihf-objdump -marm").
#
# usage: disasm-images.sh DIR "OBJDUMP -mMACHINE"
#        (an empty second argument: the flavour has none, images stay hex)
set -eu

[ $# = 2 ] || { echo "usage: disasm-images.sh DIR \"OBJDUMP -mMACHINE\"" >&2; exit 2; }
dir=$1 disasm=$2
ls "$dir"/image-*.hex > /dev/null 2>&1 || exit 0
if [ -z "$disasm" ]; then
	echo "[bench] no disassembler for this flavour (bench/flavours.conf disasm): JIT images in $dir left as hex" >&2
	exit 0
fi
tool=${disasm%% *}
for t in xxd "$tool"; do
	if ! command -v "$t" > /dev/null; then
		echo "[bench] $t not found: JIT images in $dir left as hex" >&2
		exit 0
	fi
done
for hex in "$dir"/image-*.hex; do
	bin=${hex%.hex}.bin
	xxd -r -p "$hex" > "$bin"
	if [ -s "$bin" ]; then
		# by its name, so the listing names no directory of this machine;
		# the -m option is split off the tool on purpose
		# shellcheck disable=SC2086
		(cd "$dir" && $disasm -D -b binary "$(basename "$bin")") > "${hex%.hex}.dis"
		name=$(basename "${hex%.hex}")
		echo "[bench] JIT image ${name#image-}: $(wc -c < "$bin") bytes," \
			"$(grep -c '^ *[0-9a-f]*:' "${hex%.hex}.dis") instructions listed in ${hex%.hex}.dis"
	else
		echo "(no JIT image: the engine did not compile the program)" > "${hex%.hex}.dis"
	fi
	rm -f "$bin"
done
