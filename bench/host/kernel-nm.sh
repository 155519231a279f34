#!/bin/sh
# Print the nm command kbuild should use (make NM=...) for a toolchain
# prefix.  binutils nm loads every plugin in /usr/lib/bfd-plugins; with
# clang installed (llvm-14-linker-tools puts LLVMgold there) each nm maps
# libLLVM and takes 66 ms instead of 8, and kbuild 6.1 runs nm on every
# object it compiles (scripts/check-local-export): a tenth of a cold
# x86_64 build here.  Naming the compiler's own LTO plugin makes nm load
# that one only; its output for the kernel's (non-LTO) objects is the
# same (make check compares the two on each flavour's objects).
#
# usage: kernel-nm.sh [CROSS_COMPILE]
set -eu

cross=${1:-}
plugin=$("${cross}gcc" -print-file-name=liblto_plugin.so)
if [ -f "$plugin" ]; then
	echo "${cross}nm --plugin $plugin"
else
	echo "${cross}nm"
fi
