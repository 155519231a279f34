# shellcheck shell=sh
# Debian packages of another architecture, for the 32-bit flavours (sourced
# by foreign-busybox.sh and foreign-perf.sh): multiarch downloads with
# apt-get download, extracted with dpkg-deb, never installed.
#   debarch_enable ARCH TAG   enable Debian architecture ARCH (dpkg
#                             --add-architecture, apt-get update); not as
#                             root, print the commands to run and fail
#   deb_files ARCH PKG...     "PKG FILE" for each PKG with a candidate of
#                             ARCH: the file name apt-get download gives it
#                             (epoch as %3a); arch-all, virtual and unknown
#                             names print nothing
#   deb_download DIR ARCH PKG...  apt-get download PKG:ARCH... into DIR
#   apt_update TAG            apt-get update; a list that fails to download
#                             (a mirror mid-sync) is reported and the lists
#                             apt has are used: what they lack fails later,
#                             by name

apt_update() {
	apt-get update -q > /dev/null ||
		echo "[$1] apt-get update failed for some package lists (above); going on with the lists apt has" >&2
}

debarch_enable() {
	dpkg-architecture -a "$1" -qDEB_HOST_ARCH > /dev/null 2>&1 ||
		{ echo "unknown Debian architecture '$1'" >&2; return 1; }
	[ "$1" != "$(dpkg --print-architecture)" ] || return 0
	! dpkg --print-foreign-architectures | grep -qx "$1" || return 0
	if [ "$(id -u)" != 0 ]; then
		echo "Debian architecture $1 is not enabled. As root, run:" >&2
		echo "  dpkg --add-architecture $1 && apt-get update" >&2
		return 1
	fi
	echo "[$2] enabling Debian architecture $1"
	dpkg --add-architecture "$1"
	apt_update "$2"
}

# One apt-cache call for all of them (each call reads the whole cache).
deb_files_once() {
	da=$1
	shift
	for dp in "$@"; do echo "$dp:$da"; done |
		xargs apt-cache show --no-all-versions 2> /dev/null | awk '
		function out() {
			if (p == "") return
			sub(/:/, "%3a", v)
			print p, p "_" v "_" a ".deb"
			p = ""
		}
		/^Package: / { out(); p = $2 } /^Version: / { v = $2 }
		/^Architecture: / { a = $2 }
		END { out() }'
}

deb_files() {
	df_out=$(deb_files_once "$@")
	if [ -z "$df_out" ] && [ "$(id -u)" = 0 ]; then
		# The package lists may predate the architecture being enabled.
		apt_update debs
		df_out=$(deb_files_once "$@")
	fi
	[ -z "$df_out" ] || echo "$df_out"
}

deb_download() {
	dd_dir=$1 dd_arch=$2
	shift 2
	mkdir -p "$dd_dir"
	# As root apt downloads as _apt, which cannot write to the directory.
	dd_opt=""
	[ "$(id -u)" != 0 ] || dd_opt="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2046,SC2086 # word lists
	(cd "$dd_dir" && apt-get download -q $dd_opt $(for p in "$@"; do echo "$p:$dd_arch"; done) > /dev/null)
}
