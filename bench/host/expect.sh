# shellcheck shell=sh
# make check's expected values (bench/check-expect.conf), for the scripts
# that assert them (sourced by run-check.sh and the tests it runs): each
# record's value, tolerance and why.  Needs accels.sh's conf_get.
expect_conf=${CHECK_EXPECT_CONF:-$(cd "$(dirname "$0")/../.." && pwd)/bench/check-expect.conf}
# xv NAME KEY: the record's KEY.
xv() { conf_get "$expect_conf" expect "$1" "$2"; }
# tol_pct NAME: the N of the record's "pct N" tolerance.
tol_pct() { xv "$1" tol | awk '$1 == "pct" { print $2 }'; }
