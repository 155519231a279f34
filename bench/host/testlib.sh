# shellcheck shell=sh
# The one test protocol of the project (sourced by every host and guest
# test script; in the guest it is /bench/testlib.sh): one line per test,
# "PASS: <prefix>name" or "FAIL: <prefix>name" ("SKIP: name" for a test that
# cannot run here, not counted), one counter, and test_summary's closing
# "N passed, N failed".  make check (bench/host/run-check.sh) collects the
# PASS:/FAIL: lines of every suite and counts them in one place.
#   TEST_PREFIX   prepended to every test name (set before sourcing)
#   TEST_LOG      a file every line is appended to as well (the guest's
#                 tests.txt)
#   TEST_TMP=0    no scratch directory; else $tmp, removed on exit
test_npass=0 test_nfail=0
if [ "${TEST_TMP:-1}" != 0 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi
test_line() {
	echo "$1: ${TEST_PREFIX:-}$2"
	if [ -n "${TEST_LOG:-}" ]; then echo "$1: ${TEST_PREFIX:-}$2" >> "$TEST_LOG"; fi
}
pass() { test_line PASS "$*"; test_npass=$((test_npass + 1)); }
fail() { test_line FAIL "$*"; test_nfail=$((test_nfail + 1)); }
skip() { test_line SKIP "$*"; }
# ok STATUS NAME: one test from a status computed before (0 = pass).
ok() { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi; }
# expect NAME COMMAND...: one test from one command's exit status.
expect() {
	test_name=$1; shift
	if "$@" > /dev/null 2>&1; then pass "$test_name"; else fail "$test_name"; fi
}
# succeeds NAME OUT COMMAND...: one test from COMMAND's exit status, its
# output in the file OUT; a FAIL names the output's last 5 lines.
succeeds() {
	test_name=$1 test_out=$2
	shift 2
	if "$@" > "$test_out" 2>&1; then
		pass "$test_name"
	else
		fail "$test_name: $(tail -n 5 "$test_out")"
	fi
}
# refused NAME PATTERN COMMAND...: COMMAND exits non-zero and its output
# has a line matching PATTERN (grep -E); the output is in $tmp/out.
refused() {
	test_name=$1 pattern=$2
	shift 2
	rc=0
	"$@" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" != 0 ] && grep -Eq -- "$pattern" "$tmp/out"; then
		pass "$test_name"
	else
		fail "$test_name (exit $rc)"
		tail -n 5 "$tmp/out" | sed 's/^/    /'
	fi
}
# test_summary: "N passed, N failed"; fails if any test failed.
# is GOT WANT NAME: one test of a value.
is() {
	if [ "$1" = "$2" ]; then pass "$3"; else fail "$3 (got '$1', want '$2')"; fi
}

# makevar DIR VAR [MAKEVAR=VALUE...]: VAR as the Makefile in DIR computes
# it from the registries (FLAVOURS_CONF when set); no recipe runs.
makevar() {
	mv_dir=$1 mv_var=$2
	shift 2
	# shellcheck disable=SC2016 # make expands it
	make -s --no-print-directory -C "$mv_dir" ${FLAVOURS_CONF:+FLAVOURS_CONF="$FLAVOURS_CONF"} "$@" \
		--eval 'print-var-%: ; @echo $($*)' "print-var-$mv_var"
}

# default_flavours CONF [REF_ARCH]: the flavour records of CONF that make
# builds by default (no default 0 or check), in file order, one line; with
# REF_ARCH only those of that 2014 architecture (ref2014_arch, default the
# flavour's name).  Read from the records, so that a new flavour changes
# the expectation with them.
default_flavours() {
	awk -v want="${2:-}" '
	function flush() {
		if (name != "" && def != "0" && def != "check" && (want == "" || ref == want))
			out = out (out == "" ? "" : " ") name
		name = ""
	}
	/^[^ \t#]/ { flush() }
	/^flavour[ \t]/ { name = $2; def = ""; ref = $2 }
	/^[ \t]+default[ \t]/ { def = $2 }
	/^[ \t]+ref2014_arch[ \t]/ { ref = $2 }
	END { flush(); print out }' "$1"
}

test_summary() {
	echo "$test_npass passed, $test_nfail failed"
	[ "$test_nfail" = 0 ]
}

# series_tree DIR: a tree with a pristine tag and a two-patch series
series_tree() {
	git init -q "$1"
	git -C "$1" config user.name "A. U. Thor"
	git -C "$1" config user.email "author@example.org"
	echo base > "$1/a.c"
	git -C "$1" add a.c
	git -C "$1" commit -q -m "base"
	git -C "$1" tag pristine
	echo one >> "$1/a.c"
	git -C "$1" commit -q -am "bpf: revive the 3.14 classic BPF interpreter"
	echo two > "$1/b.c"
	git -C "$1" add b.c
	git -C "$1" commit -q -m "bpf: export the interpreters to the bench module"
}
