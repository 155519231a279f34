# shellcheck shell=sh
# The shell reader of a run's key=value files (run.txt, <accel>/host.txt,
# meta.txt), sourced by mktables.sh and mkcompare.sh; the C tools read them
# with lib/run.c.
# kv FILE KEY: the value of FILE's first KEY= line; empty when the file or
# the key is missing.
kv() { sed -n "s/^$2=//p" "$1" 2> /dev/null | head -n 1; }
