#!/bin/sh
# make readme-results RUN="results/<id> ...": put runs' headline results
# into README.md, between the lines "<!-- reference-run: begin -->" and
# "<!-- reference-run: end -->": per run the machine, date and command,
# each accelerator's heading and paired ratio rows, the "2014 claims,
# re-tested" section and, for REPEAT runs, the ratios' spread over the
# boots beside the host control loop's, all cut from the run's table.txt
# (nothing typed by hand).  The rest of README.md is left as it is.
#
# usage: mkreadme.sh RUN_DIR... README
set -eu

[ $# -ge 2 ] || { echo "usage: mkreadme.sh RUN_DIR... README" >&2; exit 2; }
for readme; do :; done
begin='<!-- reference-run: begin -->'
end='<!-- reference-run: end -->'
if [ "$(grep -c -x -F "$begin" "$readme")" != 1 ] || [ "$(grep -c -x -F "$end" "$readme")" != 1 ]; then
	echo "mkreadme: $readme needs exactly one '$begin' and one '$end' line" >&2
	exit 1
fi
block=$(mktemp)
trap 'rm -f "$block" "$block.new"' EXIT

# one RUN_DIR: its part of the block.
one() {
	run=$1
	for f in "$run/run.txt" "$run/table.txt"; do
		[ -s "$f" ] || { echo "mkreadme: $f missing or empty (make tables RUN=$run first)" >&2; exit 1; }
	done
	if [ -e "$run/INCOMPLETE" ]; then
		echo "mkreadme: $run is marked incomplete ($(head -n 1 "$run/INCOMPLETE")): not a reference run" >&2
		exit 1
	fi
	kv() { sed -n "s/^$1=//p" "$run/run.txt" | head -n 1; }
	repeat=$(kv repeat)
	args=$(kv bench_args)
	echo "Reference run \`$(kv run_id)\`: \`make bench ACCEL=\"$(kv accels)\"$(
		[ -z "$repeat" ] || [ "$repeat" = 1 ] || echo " REPEAT=$repeat")$(
		[ -z "$args" ] || echo " BENCH_ARGS=\"$args\"")\` on $(kv date),"
	echo "host CPU $(kv host_cpu), Debian linux-source $(kv debian_version) (kernel"
	echo "$(kv kernel)), series $(kv series_hash)."
	echo
	echo '```'
	awk '
	/^--.*-- accel=/ { head = $0; cpu = ""; kern = ""; next }
	/^cpu: / { cpu = $0; next }
	/^kernel: / { kern = $0; next }
	/^paired ratios t_A\/t_B/ {
		print head; if (cpu != "") print cpu; if (kern != "") print kern
		# the heading in one line; the table from its column header on
		if (match($0, /over [0-9]+ boots/))
			print "paired ratios t_A/t_B " substr($0, RSTART, RLENGTH) ", 95% CI (> 1: the second engine is faster):"
		else
			print "paired ratios t_A/t_B, 95% CI within one boot (> 1: the second engine is faster):"
		on = 1; skip = 1; next
	}
	skip && !/fprog #1/ { next }
	{ skip = 0 }
	on { print }
	on && /^\([0-9]+ rounds per cell/ { on = 0; print "" }
	/^== 2014 claims, re-tested/ { claims = 1 }
	claims && (/^$/ || /^run-to-run spread/) { claims = 0 }
	claims { print }
	/^run-to-run spread of the paired ratios/ { spread = 1 }
	spread && /^$/ { spread = 0; print "" }
	spread { print }
	/^the host.s native control loop/ { ctl = 1; print; next }
	ctl && /^  / { print; next }
	{ ctl = 0 }
	' "$run/table.txt"
	echo '```'
	echo
}

runs=
while [ $# -gt 1 ]; do
	one "$1" >> "$block"
	runs="$runs $1"
	shift
done
echo "Re-made by \`make readme-results RUN=\"${runs# }\"\`." >> "$block"
awk -v b="$begin" -v e="$end" -v f="$block" '
	$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip { print }' "$readme" > "$block.new"
cat "$block.new" > "$readme"
echo "[readme] $readme: reference run(s)$runs ($(grep -c . "$block") lines)"
