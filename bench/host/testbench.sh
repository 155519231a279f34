# shellcheck shell=sh
# shellcheck disable=SC2154 # here, top, build: set by the sourcing script
# The set-up of a host test script that runs make bench's runner: the
# accelerators' records (accels.sh) and the test protocol (testlib.sh,
# with the script's TEST_PREFIX), sourced here, with $here, $top and
# $build set by the script.
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# shellcheck source=bench/host/testlib.sh
. "$here/testlib.sh"

# bench_run DIR WHAT NAME=VALUE...: make bench's runner (run-bench.sh TOP
# BUILD) as one test of a host test script, with RESULTS_DIR=DIR and the environment
# words given, its output in DIR.log: one PASS or FAIL "make bench's
# runner, WHAT"; sets $run to the run's directory, or, when it failed,
# ends the script with the summary.
bench_run() {
	br_dir=$1 br_what=$2
	shift 2
	rm -rf "$br_dir"
	mkdir -p "$br_dir"
	run=
	if env RESULTS_DIR="$br_dir" "$@" "$here/run-bench.sh" "$top" "$build" > "$br_dir.log" 2>&1; then
		# shellcheck disable=SC2034 # run: read by the sourcing script
		run=$(find "$br_dir" -mindepth 1 -maxdepth 1 -type d | head -n 1)
		pass "make bench's runner, $br_what"
	else
		fail "make bench's runner, $br_what: $(grep -v '^\[' "$br_dir.log" | tail -n 1)"
		test_summary
		exit 1
	fi
}
