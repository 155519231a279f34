#!/bin/sh
# Disassemble the JIT images a bench guest saved (image-ENGINE-FILTER.hex,
# hex bytes as the bpf_bench `image` knob prints them) next to them, as
# image-ENGINE-FILTER.dis: objdump of the raw x86-64 bytes from offset 0.
#
# usage: disasm-images.sh DIR
set -eu

dir=$1
for tool in xxd objdump; do
	if ! command -v "$tool" > /dev/null; then
		echo "[bench] $tool not found: JIT images in $dir left as hex" >&2
		exit 0
	fi
done
for hex in "$dir"/image-*.hex; do
	[ -f "$hex" ] || continue
	bin=${hex%.hex}.bin
	xxd -r -p "$hex" > "$bin"
	if [ -s "$bin" ]; then
		# by its name, so the listing names no directory of this machine
		(cd "$dir" && objdump -D -b binary -mi386:x86-64 "$(basename "$bin")") \
			> "${hex%.hex}.dis"
	else
		echo "(no JIT image: the engine did not compile the program)" > "${hex%.hex}.dis"
	fi
	rm -f "$bin"
done
