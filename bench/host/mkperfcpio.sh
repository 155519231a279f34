#!/bin/sh
# Pack Debian's perf (linux-perf, the same 6.1 version as the guest kernel)
# and the shared libraries it links against into a cpio archive that is
# appended to the x86_64 initramfs (the kernel unpacks concatenated
# archives).  Choosing the packaged perf over building tools/perf keeps
# the build short and needs no extra -dev packages.
#
# usage: mkperfcpio.sh OUT.cpio.gz KOBJ
set -eu

out=$1 kobj=$2
gen=$kobj/usr/gen_init_cpio
[ -x "$gen" ] || { echo "missing $gen (build the kernel first)" >&2; exit 1; }
perf=$(command -v perf) || { echo "perf not found (apt-get install linux-perf)" >&2; exit 1; }

list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
	echo "dir /usr 0755 0 0"
	echo "dir /usr/bin 0755 0 0"
	echo "file /usr/bin/perf $perf 0755 0 0"
	dirs=""
	# Every library perf needs, at the path the dynamic loader looks for it.
	for lib in $(ldd "$perf" | awk '/=> \// { print $3 } /^\t\/[^ ]*ld-linux/ { print $1 }'); do
		d=$(dirname "$lib")
		case " $dirs " in *" $d "*) ;; *)
			dirs="$dirs $d"
			p=""
			for part in $(echo "$d" | tr / ' '); do
				p="$p/$part"
				echo "dir $p 0755 0 0"
			done ;;
		esac
		echo "file $lib $(readlink -f "$lib") 0755 0 0"
	done
} | awk '!seen[$0]++' > "$list"
"$gen" "$list" | gzip -n -6 > "$out.tmp"
mv "$out.tmp" "$out"
echo "[initramfs] $out: perf $(perf --version | cut -d' ' -f3) and $(grep -c '^file' "$list") files, $(wc -c < "$out") bytes"
