# shellcheck shell=sh
# cpio_bin_lines BIN DEST: the gen_init_cpio lines that put the program BIN
# at DEST, with every shared library it links against (ldd) at the path
# the dynamic loader looks for it, and the directories they need.
# Sourced by mkperfcpio.sh (perf) and nested-outer.sh (QEMU).  Duplicate
# lines of several programs are left for the caller to drop (awk
# '!seen[$0]++').
cpio_bin_lines() {
	cpio_dirs_of "$(dirname "$2")"
	echo "file $2 $(readlink -f "$1") 0755 0 0"
	for lib in $(ldd "$1" | awk '/=> \// { print $3 } /^\t\/[^ ]*ld-linux/ { print $1 }'); do
		cpio_dirs_of "$(dirname "$lib")"
		echo "file $lib $(readlink -f "$lib") 0755 0 0"
	done
}

# cpio_dirs_of DIR: "dir" lines for DIR and each of its parents, top first.
cpio_dirs_of() {
	p=""
	for part in $(echo "$1" | tr / ' '); do
		p="$p/$part"
		echo "dir $p 0755 0 0"
	done
}
