#!/bin/sh
# Does each installed QEMU given take the bpfmodel plugin?  Every
# qemu_plugin_* function the plugin calls must be exported by the binary
# (Debian's QEMU 7.2 exports 61; a QEMU built without --enable-plugins
# none), else this says which is missing and fails.
# usage: check-qemu.sh PLUGIN.so QEMU...
set -eu
[ $# -ge 2 ] || { echo "usage: check-qemu.sh PLUGIN.so QEMU..." >&2; exit 2; }
plugin=$1
shift
need=$(nm -D --undefined-only "$plugin" | awk '$2 ~ /^qemu_plugin_/ { print $2 }' | sort -u)
[ -n "$need" ] || { echo "check-qemu.sh: $plugin calls no qemu_plugin_* function" >&2; exit 1; }
for q in "$@"; do
	bin=$(command -v "$q") || { echo "[plugin] $q is not installed" >&2; exit 1; }
	# Debian's qemu-system-i386 is a shell wrapper that execs exe=PATH
	if [ "$(head -c 2 "$bin")" = '#!' ]; then
		bin=$(sed -n 's/^exe=//p' "$bin" | head -n 1)
		[ -x "$bin" ] || { echo "[plugin] $q is a script without an exe=BINARY line" >&2; exit 1; }
	fi
	have=$(nm -D --defined-only "$bin" | awk '{ print $3 }' | grep '^qemu_plugin_' | sort -u || true)
	if [ -z "$have" ]; then
		echo "[plugin] $bin exports no qemu_plugin_* function: this QEMU was built without plugin support" >&2
		exit 1
	fi
	missing=$(echo "$need" | while read -r f; do echo "$have" | grep -qx "$f" || echo "$f"; done)
	if [ -n "$missing" ]; then
		echo "[plugin] $bin lacks $(echo "$missing" | tr '\n' ' ')(the plugin's API is QEMU 7.2's)" >&2
		exit 1
	fi
done
echo "[plugin] $(basename "$plugin" .tmp): the $(echo "$need" | wc -l) qemu_plugin_* functions it calls are exported by $*"
