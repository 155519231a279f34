#!/bin/sh
# /init of the guest that makes the default capture (mkdefault.sh):
# Debian's kernel, busybox and Debian's tcpdump.  Real clients and servers
# talk over the loopback interface while tcpdump captures it: busybox
# httpd and wget (HTTP over IPv4, one small page and a long transfer, a
# refused IPv6 connection), nc (a raw TCP stream, and UDP), ping and ping6,
# and a DNS query (nslookup) no server answers.  The capture comes back on
# the console as base64 between [capture] begin/end lines.
set -eu
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
# tcpdump drops its privileges to a user: root, here
echo 'root:x:0:0:root:/:/bin/sh' > /etc/passwd
echo 'root:x:0:' > /etc/group
ip link set lo up
mkdir -p /tmp/www
echo '<html><body>bpf-rework-bench</body></html>' > /tmp/www/index.html
head -c 400000 /dev/urandom > /tmp/www/blob
tcpdump -i lo -s 0 -U -Z root -w /tmp/cap.pcap 2> /tmp/tcpdump.log &
dump=$!
sleep 2
httpd -p 127.0.0.1:8080 -h /tmp/www
wget -q -O /dev/null http://127.0.0.1:8080/index.html
wget -q -O /dev/null http://127.0.0.1:8080/blob
wget -q -O /dev/null http://127.0.0.1:8080/missing || true
wget -q -O /dev/null 'http://[::1]:8080/index.html' || true
nc -l -p 5000 > /dev/null &
sleep 1
head -c 100000 /dev/urandom | nc 127.0.0.1 5000 || true
echo datagram | nc -u -w 1 127.0.0.1 5001 || true
ping -c 8 -i 0.2 127.0.0.1 > /dev/null
ping6 -c 4 -i 0.2 ::1 > /dev/null
nslookup -timeout=1 example.com 127.0.0.1 > /dev/null 2>&1 || true
sleep 1
kill "$dump"
wait "$dump" 2> /dev/null || true
echo "[capture] $(tr '\n' ' ' < /tmp/tcpdump.log)"
echo "[capture] begin"
base64 /tmp/cap.pcap
echo "[capture] end"
poweroff -f
