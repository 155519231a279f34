#!/bin/sh
# /init of the guest that makes the default capture (mkdefault.sh):
# Debian's kernel, busybox and Debian's tcpdump.  Real clients and servers
# talk over the loopback interface while tcpdump captures it: busybox
# httpd and wget (HTTP over IPv4: 40 small pages, 5 misses, one 400 KB
# transfer; a refused IPv6 connection), nc (a 100 KB TCP stream), syslogd
# forwarding logger's messages and traceroute's probes (UDP to closed
# ports), ping and ping6, and DNS queries (nslookup) no server answers.  The capture comes back on
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
i=0
while [ "$i" -lt 40 ]; do
	wget -q -O /dev/null http://127.0.0.1:8080/index.html
	[ $((i % 8)) != 0 ] || wget -q -O /dev/null http://127.0.0.1:8080/missing || true
	i=$((i + 1))
done
wget -q -O /dev/null http://127.0.0.1:8080/blob
wget -q -O /dev/null 'http://[::1]:8080/index.html' || true
nc -l -p 5000 > /dev/null &
sleep 1
head -c 100000 /dev/urandom | nc 127.0.0.1 5000 || true
# UDP: syslogd forwards logger's messages to a remote syslog port (closed:
# ICMP port unreachable), traceroute sends its probes
syslogd -R 127.0.0.1:514
for i in 1 2 3 4 5 6 7 8; do logger "bpf-rework-bench message $i"; done
traceroute -n -m 2 -q 2 -w 1 127.0.0.1 > /dev/null 2>&1 || true
ping -c 30 -i 0.2 127.0.0.1 > /dev/null
ping6 -c 10 -i 0.2 ::1 > /dev/null
for name in example.com example.org kernel.org; do
	nslookup -timeout=1 "$name" 127.0.0.1 > /dev/null 2>&1 || true
done
sleep 1
kill "$dump"
wait "$dump" 2> /dev/null || true
echo "[capture] $(tr '\n' ' ' < /tmp/tcpdump.log)"
echo "[capture] begin"
base64 /tmp/cap.pcap
echo "[capture] end"
poweroff -f
