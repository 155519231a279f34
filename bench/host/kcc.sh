#!/bin/sh
# The kernel's compiler through ccache (build-kernel.sh: CC="kcc.sh gcc"),
# except for an assembler source with an .incbin: ccache's depend mode
# (CCACHE_DEPEND, the Makefile) hashes the source and the headers the
# compiler names, never the binary an .incbin pulls in.  The kernel's
# arch/*/boot/compressed/piggy.S holds only the compressed kernel's sizes
# and an .incbin of it: two kernels of equal compressed size would share
# one cached piggy.o, and a bzImage would boot the other kernel.
#
# usage: kcc.sh COMPILER ARG...    (the source is the last argument)
set -eu
for src; do :; done
case "${src:-}" in
*.S)
	if grep -q '\.incbin' "$src" 2> /dev/null; then
		exec "$@"
	fi
	;;
esac
exec ccache "$@"
