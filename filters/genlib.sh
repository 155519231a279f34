# shellcheck shell=sh
# What filters/gen.sh and filters/diff/gen.sh share: the install step and
# the command line.  Sourced by both; uses the sourcing script's SRC (the
# directory of the committed files), die() and its generate, compare and
# install_gen.

# install_files OUTDIR "FILE...": copy each generated OUTDIR/FILE that
# differs from the committed SRC/FILE over it, saying so.
install_files() {
	for gf in $2; do
		[ -f "$1/$gf" ] || die "$1/$gf: not generated"
		if ! cmp -s "$1/$gf" "$SRC/$gf" 2>/dev/null; then
			cp "$1/$gf" "$SRC/$gf"
			printf 'updated %s\n' "$gf"
		fi
	done
}

# gen_main GENERATOR ARG...: run the command ARG... of gen.sh (generate
# GENERATOR OUTDIR, compare OUTDIR or install OUTDIR).
gen_main() {
	gen=$1
	shift
	[ $# -ge 2 ] || die "usage: gen.sh generate $gen OUTDIR | compare OUTDIR | install OUTDIR"
	case $1 in
	generate)
		[ $# -eq 3 ] || die "usage: gen.sh generate $gen OUTDIR"
		generate "$2" "$3"
		;;
	compare) compare "$2" ;;
	install) install_gen "$2" ;;
	*) die "unknown command $1" ;;
	esac
}
