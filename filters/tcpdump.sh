# shellcheck shell=sh
# find_tcpdump: set TCPDUMP to the tcpdump binary (TCPDUMP if set, else
# tcpdump from PATH, else /usr/sbin/tcpdump); calls the sourcing script's
# die() when there is none.  Sourced by filters/gen.sh and filters/diff/gen.sh.
find_tcpdump() {
	if [ -n "${TCPDUMP:-}" ]; then
		:
	elif command -v tcpdump >/dev/null 2>&1; then
		TCPDUMP=$(command -v tcpdump)
	elif [ -x /usr/sbin/tcpdump ]; then
		TCPDUMP=/usr/sbin/tcpdump
	else
		die "tcpdump not found; install it (Debian/Ubuntu: apt-get install tcpdump)"
	fi
}
