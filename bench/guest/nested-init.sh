#!/bin/sh
# /init of the outer guest of a nested accelerator (bench/host/nested-outer.sh):
# load kvm-amd, then run the inner QEMU command line the host wrote to
# /inner/argv (one argument a line; accels.sh accel_qemu_argv, the same
# code that builds the kvm accelerators' command line), booting the bench
# kernel /inner/kernel with /inner/initrd, the run's results disk passed
# through as /dev/vda.  The inner guest's console is this one's: its
# lines reach the host's console log as they are; this script's own
# lines start with "[nested]".
export PATH=/bin:/sbin:/usr/bin
say() { echo "[nested] $*"; }
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

while read -r m; do
	insmod "/nested/modules/$m.ko" || say "insmod $m failed"
done < /nested/modules.order
if [ ! -c /dev/kvm ]; then
	say "outer guest has no /dev/kvm after loading kvm-amd: $(dmesg | grep -i -m 1 'svm\|kvm' || echo 'kvm-amd said nothing')"
	poweroff -f
fi
# the results disk (virtio) appears once virtio_blk has probed it
n=0
while grep -qx -- -drive /inner/argv && [ ! -b /dev/vda ] && [ "$n" -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
say "outer guest: Linux $(uname -r) on '$cpu', /dev/kvm ready ($(dmesg | grep -o -m 1 'Nested Paging enabled' || echo 'no nested paging'))"

set --
while IFS= read -r a; do
	set -- "$@" "$a"
done < /inner/argv
say "inner: $*"
"$@" < /dev/null
rc=$?
sync
say "inner QEMU exited with status $rc"
poweroff -f
