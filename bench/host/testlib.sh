# shellcheck shell=sh
# What the host test scripts share (sourced): a scratch directory removed
# on exit, and one "PASS: <prefix>name" / "FAIL: <prefix>name" line per
# test, which run-check.sh collects and counts.
#   TEST_PREFIX   prepended to every test name (set before sourcing)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS: ${TEST_PREFIX:-}$*"; }
fail() { echo "FAIL: ${TEST_PREFIX:-}$*"; }
# expect NAME COMMAND...: one test from one command's exit status.
expect() {
	name=$1; shift
	if "$@" > /dev/null 2>&1; then pass "$name"; else fail "$name"; fi
}
