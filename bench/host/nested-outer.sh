#!/bin/sh
# The outer guest of the nested accelerators (accels.conf "boot nested"):
# Debian's own amd64 kernel of the same version as the linux-source
# package (fetched with apt-get download, unpacked here, never installed on
# the host), its kvm, kvm-amd and virtio modules, and Debian's QEMU
# (qemu-system-x86_64 and qemu-system-i386 with their shared libraries and
# firmware), packed as an initramfs whose /init (bench/guest/nested-init.sh)
# loads kvm-amd and runs the inner QEMU command line.  Under QEMU TCG with
# -cpu EPYC,+svm the outer kernel gets /dev/kvm ("Nested Paging enabled"),
# and the inner QEMU runs the kvm accelerators' own command line
# (docs/accelerators.md, "The kvm path under nested TCG").
#
# Debian's kernel is used, not one built from our tree: it is the kernel a
# kvm host of our users runs, its KVM is configured as Debian ships it, and
# it costs a 70 MB download instead of a third x86_64 kernel build.
#
# usage: nested-outer.sh TOP OUTDIR KOBJ
#        OUTDIR gets vmlinuz, outer.cpio.gz, gen_init_cpio and outer.txt
#        (what it holds); KOBJ is a built x86_64 object tree (its
#        usr/gen_init_cpio packs the archive).  Nothing is redone while
#        outer.txt's stamp (package, QEMU, init script) is current.
# env:   KPACKAGE  the linux-source package (default: bench/kernels.conf's
#        default tree's)
set -eu

top=$1 out=$2 kobj=$3
# one maker at a time (make check's jobs may both want it)
mkdir -p "$(dirname "$out")"
exec 9> "$out.lock"
flock 9
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# shellcheck source=bench/host/cpio-libs.sh
. "$here/cpio-libs.sh"
gen=$kobj/usr/gen_init_cpio
[ -x "$gen" ] || { echo "[nested] missing $gen (make kernel-x86_64)" >&2; exit 1; }
kpackage=${KPACKAGE:-$(kernel_attr "$KERNEL_DEFAULT" package)}
version=$(dpkg-query -W -f '${Version}' "$kpackage" 2> /dev/null) ||
	{ echo "[nested] $kpackage is not installed (make tree installs it)" >&2; exit 1; }
# linux-image-amd64 of that version depends on the versioned image package
meta=$(apt-cache show "linux-image-amd64=$version" 2> /dev/null) ||
	{ echo "[nested] apt knows no linux-image-amd64 $version (the version of $kpackage): apt-get update" >&2; exit 1; }
image=$(echo "$meta" | sed -n 's/^Depends:.*\(linux-image-[0-9][^ ,]*-amd64\).*/\1/p' | head -n 1)
[ -n "$image" ] || { echo "[nested] linux-image-amd64 $version names no kernel image package" >&2; exit 1; }
qemu_version=$(dpkg-query -W -f '${Version}' qemu-system-x86)
stamp="$image $version qemu $qemu_version init $(sha1sum < "$top/bench/guest/nested-init.sh" | cut -c1-12) pack $(sha1sum < "$0" | cut -c1-12)"
if [ "$(sed -n 's/^stamp=//p' "$out/outer.txt" 2> /dev/null)" = "$stamp" ]; then
	exit 0
fi

echo "[nested] outer guest: Debian's $image $version and QEMU $qemu_version, into ${out#"$top"/}"
rm -rf "$out"
mkdir -p "$out/deb"
(cd "$out/deb" && apt-get download "$image=$version" > /dev/null 2>&1) ||
	{ echo "[nested] apt-get download $image=$version failed" >&2; exit 1; }
dpkg-deb -x "$out"/deb/*.deb "$out/deb/root"
kver=$(ls "$out/deb/root/lib/modules")
cp "$out/deb/root/boot/vmlinuz-$kver" "$out/vmlinuz"
cp "$gen" "$out/gen_init_cpio"

# The modules /init loads, dependencies first (modinfo's depends).
modules=$out/modules.order
: > "$modules"
# ko_of NAME: the file of module NAME (its file may spell _ as -).
ko_of() {
	find "$out/deb/root/lib/modules/$kver" \( -name "$1.ko" -o -name "$(echo "$1" | tr _ -).ko" \) | head -n 1
}
add_module() {
	grep -qx "$1" "$modules" && return 0
	ko=$(ko_of "$1")
	[ -n "$ko" ] || { echo "[nested] $image has no module $1" >&2; exit 1; }
	for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
		add_module "$dep"
	done
	echo "$1" >> "$modules"
}
for m in virtio_pci virtio_blk kvm-amd; do add_module "$m"; done

list=$out/outer.list
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	for d in /bin /sbin /usr /usr/bin /usr/sbin /proc /sys /tmp /nested /nested/modules /inner; do
		echo "dir $d 0755 0 0"
	done
	echo "file /bin/busybox $(command -v busybox) 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $top/bench/guest/nested-init.sh 0755 0 0"
	echo "file /nested/modules.order $modules 0644 0 0"
	while read -r m; do
		echo "file /nested/modules/$m.ko $(ko_of "$m") 0644 0 0"
	done < "$modules"
	# Debian's qemu-system-i386 is a shell wrapper around /usr/libexec's
	for f in x86_64 i386; do
		bin=$(command -v "qemu-system-$f")
		[ "$(head -c 4 "$bin" | tr -d '\177')" = ELF ] || bin=/usr/libexec/qemu-system-$f
		cpio_bin_lines "$bin" "/usr/bin/qemu-system-$f"
	done
	# the firmware a default pc machine loads (BIOS, option ROMs, VGA BIOS)
	for f in /usr/share/seabios/bios-256k.bin /usr/share/seabios/vgabios-stdvga.bin \
		/usr/share/qemu/kvmvapic.bin /usr/share/qemu/linuxboot_dma.bin \
		/usr/lib/ipxe/qemu/efi-e1000.rom; do
		cpio_dirs_of "$(dirname "$f")"
		echo "file $f $(readlink -f "$f") 0644 0 0"
	done
} | awk '!seen[$0]++' > "$list"
"$gen" "$list" | gzip -n -6 > "$out/outer.cpio.gz"
rm -rf "$out/deb"
{
	echo "stamp=$stamp"
	echo "outer_kernel=$image $version ($kver)"
	echo "outer_qemu=qemu-system-x86 $qemu_version"
	echo "outer_modules=$(tr '\n' ' ' < "$modules" | sed 's/ $//')"
} > "$out/outer.txt"
echo "[nested] outer guest ready: $(grep -c '^file' "$list") files, $(wc -c < "$out/outer.cpio.gz") bytes packed"
