#!/bin/sh
# Pack Debian's perf for another architecture (linux-perf:DEBARCH, the 6.1
# perf the x86_64 guests carry, built for i386 or armhf), the shared
# libraries it needs and the dynamic loader into a cpio archive that is
# appended to that flavour's initramfs.  Everything comes from Debian's
# archive (multiarch download, nothing from elsewhere):
#   1. linux-perf:DEBARCH;
#   2. every NEEDED entry (readelf -d) of every packed ELF file is looked
#      up where the loader looks (/lib/<triplet>, /usr/lib/<triplet>, /lib,
#      /usr/lib) in the packages fetched so far; one no package provides
#      yet fetches the Depends of the package whose file needs it (deeper
#      only if those do not have it), until the closure is complete;
#   3. each library is packed at the path the loader finds it, the loader
#      at perf's PT_INTERP path (/lib/ld-linux.so.2, /lib/ld-linux-armhf.so.3).
# The .debs stay in the cache directory: a second run downloads nothing
# unless apt's candidate version changed.  Uses the kernel's own
# usr/gen_init_cpio, like mkperfcpio.sh (the host's perf, x86_64).
#
# usage: foreign-perf.sh DEBARCH KOBJ OUT.cpio.gz
#        e.g. foreign-perf.sh armhf build/obj-arm build/perf-arm.cpio.gz
# env:   PERF_DEBS  the .deb cache (default: OUT's directory/debs/DEBARCH)
# Needs root the first time (dpkg --add-architecture, apt-get update);
# otherwise prints the commands to run as root.
set -eu

[ $# = 3 ] || { echo "usage: $0 DEBARCH KOBJ OUT.cpio.gz" >&2; exit 2; }
arch=$1 kobj=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/debarch.sh
. "$here/debarch.sh"
gen=$kobj/usr/gen_init_cpio
[ -x "$gen" ] || { echo "missing $gen (build the kernel first)" >&2; exit 1; }
cache=${PERF_DEBS:-$(dirname "$out")/debs/$arch}
debarch_enable "$arch" perf
multi=$(dpkg-architecture -a "$arch" -qDEB_HOST_MULTIARCH 2> /dev/null)
libdirs="/lib/$multi /usr/lib/$multi /lib /usr/lib"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir "$root"
: > "$tmp/owners"	# PATH PACKAGE, every path a fetched package ships
: > "$tmp/fetched"	# the packages extracted into $root
: > "$tmp/deps"	# PACKAGE DEPENDENCY...
: > "$tmp/expanded"	# the packages whose Depends were fetched
: > "$tmp/packed"	# GUEST_PATH ROOT_PATH: the archive's files
downloaded=0 version=""

die() { echo "foreign-perf.sh: $*" >&2; exit 1; }

# fetch PKG...: download (unless cached) and extract the packages of this
# architecture not extracted yet (names without a candidate of this
# architecture, arch-all and virtual ones, are left out).
fetch() {
	new=""
	for p in "$@"; do
		case " $new " in *" $p "*) continue ;; esac
		grep -qx "$p" "$tmp/fetched" || new="$new $p"
	done
	[ -n "$new" ] || return 0
	# shellcheck disable=SC2086 # a word list
	deb_files "$arch" $new > "$tmp/files"
	get=""
	while read -r p f; do
		[ -f "$cache/$f" ] || get="$get $p"
	done < "$tmp/files"
	if [ -n "$get" ]; then
		# shellcheck disable=SC2086 # a word list
		deb_download "$cache" "$arch" $get || die "cannot download$get for $arch"
		downloaded=$((downloaded + $(echo "$get" | wc -w)))
	fi
	while read -r p f; do
		dpkg-deb -X "$cache/$f" "$root" |
			sed -e 's|^\./|/|' -e 's|/$||' -e "s|\$| $p|" >> "$tmp/owners"
		echo "$p" >> "$tmp/fetched"
		# its Pre-Depends and Depends, alternatives included, :any left out
		echo "$p $(dpkg-deb -f "$cache/$f" Pre-Depends Depends |
			sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' | tr ',|' '\n' |
			sed -e 's/([^)]*)//' -e 's/\[[^]]*\]//' -e 's/<[^>]*>//' |
			awk '$1 !~ /:/ { print $1 }' | tr '\n' ' ')" >> "$tmp/deps"
		[ "$p" != linux-perf ] || version=$(dpkg-deb -f "$cache/$f" Version)
	done < "$tmp/files"
}

# depends PKG...: what the fetched PKG... depend on (their .debs' fields).
depends() {
	for p in "$@"; do
		awk -v p="$p" '$1 == p { $1 = ""; print }' "$tmp/deps"
	done
}

# resolve PATH: the file PATH (in $root) is, following symlinks in $root.
resolve() {
	r=$1 hops=0
	while [ -L "$root$r" ]; do
		t=$(readlink "$root$r")
		case $t in
		/*) r=$t ;;
		*) r=$(realpath -m -s "$(dirname "$r")/$t") ;;
		esac
		hops=$((hops + 1))
		[ "$hops" -lt 20 ] || return 1
	done
	[ -f "$root$r" ] && echo "$r"
}

# find_lib SONAME: where the loader finds it (first of $libdirs).
find_lib() {
	for d in $libdirs; do
		if resolve "$d/$1" > /dev/null; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

needed() { readelf -d "$root$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }
owner() { awk -v f="$1" '$1 == f { print $2; exit }' "$tmp/owners"; }

fetch linux-perf
[ -n "$version" ] || die "no Debian package linux-perf:$arch"
# Debian 12's /usr/bin/perf is perf itself; a wrapper script (as linux-base
# once shipped) would need what it execs packed instead.
perf=$(resolve /usr/bin/perf) || die "linux-perf:$arch has no /usr/bin/perf"
[ "$(head -c 4 "$root$perf" | od -An -c | tr -d ' ')" = '177ELF' ] ||
	die "/usr/bin/perf of linux-perf:$arch is not an ELF file (a wrapper?)"
interp=$(readelf -l "$root$perf" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
[ -n "$interp" ] || die "/usr/bin/perf of linux-perf:$arch names no loader (PT_INTERP)"
echo "/usr/bin/perf $perf" > "$tmp/packed"

# The closure: scan the newly packed files; a soname no fetched package
# has fetches the Depends of its user's package, and the user is scanned again.
scan=$perf
while [ -n "$scan" ]; do
	next="" users="" missing=""
	for f in $scan; do
		for s in $(needed "$f"); do
			# the loader is already mapped: its soname needs no file
			[ "$s" != "$(basename "$interp")" ] || continue
			grep -qF "/$s " "$tmp/packed" && continue
			if lib=$(find_lib "$s"); then
				real=$(resolve "$lib")
				echo "$lib $real" >> "$tmp/packed"
				next="$next $real"
			else
				case " $users " in *" $f "*) ;; *) users="$users $f" ;; esac
				missing="$missing $s"
			fi
		done
	done
	if [ -n "$users" ]; then
		# Expand the users' packages; when they all were, every package
		# fetched so far (the closure, one level at a time).
		expand=""
		for f in $users; do
			p=$(owner "$f")
			grep -qx "$p" "$tmp/expanded" || expand="$expand $p"
		done
		[ -n "$expand" ] || expand=$(grep -vxF -f "$tmp/expanded" "$tmp/fetched" | tr '\n' ' ') || true
		[ -n "$expand" ] || die "no Debian package of $arch found for$missing (needed by$users)"
		# shellcheck disable=SC2086 # a word list
		printf "%s\n" $expand >> "$tmp/expanded"
		# shellcheck disable=SC2046,SC2086 # word lists
		fetch $(depends $expand)
		next="$next $users"
	fi
	scan=$next
done
ld=$(resolve "$interp") || die "the loader $interp is in no fetched package"
echo "$interp $ld" >> "$tmp/packed"

list=$tmp/list
while read -r dest src; do
	p=""
	for part in $(dirname "$dest" | tr / ' '); do
		p="$p/$part"
		echo "dir $p 0755 0 0"
	done
	echo "file $dest $root$src 0755 0 0"
done < "$tmp/packed" | awk '!seen[$0]++' > "$list"
mkdir -p "$(dirname "$out")"
# every entry dated like perf itself: the same .debs give the same archive
"$gen" -t "$(stat -c %Y "$root$perf")" "$list" | gzip -n -6 > "$out.tmp"
mv "$out.tmp" "$out"
bytes=$(awk '{ print $2 }' "$tmp/packed" | sed "s|^|$root|" | xargs cat | wc -c)
echo "[perf] $out: linux-perf:$arch $version, $(wc -l < "$tmp/packed") files ($bytes bytes unpacked) from $(wc -l < "$tmp/fetched") packages ($downloaded downloaded, the rest cached in $cache), $(wc -c < "$out") bytes"
