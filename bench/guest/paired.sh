# shellcheck shell=sh
# Paired, interleaved engine comparisons (sourced after lib.sh; busybox sh).
#
# paired_cell FILTER PACKET SKBS ENGINES ROUNDS [PLACEMENTS]
#   ENGINES is a comma-separated list (old,new,...).  Each placement is a
#   fresh run_rounds (new skbs, new programs); each run measures ROUNDS
#   rounds of one sample per engine, back to back (see the module's
#   README).  Prints one line per placement and then one per round:
#     paired filter=F packet=P skbs=S placement=N engines=old,new rounds=R
#         order=rotate verdict=V calls=C1,C2 jited=J1,J2 insns=I1,I2
#     paired filter=F packet=P skbs=S placement=N round=R old=NS new=NS
#   values in ns per call (instructions under icount), three decimals.
#   results/mkratios turns them into ratios with confidence intervals.
paired_cell() {
	filter=$1 packet=$2 skbs=$3 engines=$4 rounds=$5 placements=${6:-1}
	set_knob_file prog "$FILTERS/$filter.dd" &&
	set_cell_traffic "$filter" "$packet" &&
	set_knob round_engines "$engines" &&
	set_knob rounds "$rounds" &&
	set_knob skbs "$skbs" || return 1
	placement=0
	while [ "$placement" -lt "$placements" ]; do
		set_knob run_rounds 1 || return 1
		# the header's skbs is already in the prefix
		sed -e "s/ skbs=[0-9]*//" \
			-e "s/^/paired filter=$filter packet=$packet skbs=$skbs placement=$placement /" \
			"$KNOBS/rounds_result"
		placement=$((placement + 1))
	done
}

# paired_cells OUT ENGINES PACKET FILTER...: the table's paired cells (1 and
# 10000 skbs; BENCH_SKBS narrows or widens them) of ENGINES (every engine
# that runs a program when empty: not the loop-only baseline, registry
# checker none) into OUT.  BENCH_ROUNDS, BENCH_PAIRED_PLACEMENTS: rounds
# per placement and placements per cell (default 30, 3; accels.conf sets
# them per accelerator); BENCH_PAIRED_SAMPLE_US: the sample length in the
# rounds (default: the module's): short samples, many rounds, so that the
# engines of a round see the same moment of the machine.  Its variables
# are pc_*: the plans' own (out, engines, f, s) are left alone.
paired_cells() {
	pc_out=$1 pc_engines=$2 pc_packet=$3
	shift 3
	if [ -z "$pc_engines" ]; then
		# shellcheck disable=SC2013 # the knob is one line of words
		for pc_e in $(cat "$KNOBS/engines"); do
			[ "$(engine_attr "$pc_e" checker 6.1)" = none ] ||
				pc_engines=${pc_engines:+$pc_engines,}$pc_e
		done
	fi
	: > "$pc_out"
	case $pc_engines in
	*,*) ;;
	*) say "paired cells: fewer than two engines ($pc_engines), none"; return 0 ;;
	esac
	pc_us=$(cat "$KNOBS/sample_us")
	if [ -n "${BENCH_PAIRED_SAMPLE_US:-}" ]; then
		set_knob sample_us "$BENCH_PAIRED_SAMPLE_US" || return 1
	fi
	for pc_f in "$@"; do
		for pc_s in $(echo "${BENCH_SKBS:-1,10000}" | tr ',' ' '); do
			case $pc_s in 1 | 10000) ;; *) continue ;; esac
			# mixed traffic (plan-bench.sh) needs many skbs: 10000 only
			[ "$pc_packet/$pc_s" != mix/1 ] || continue
			say "paired cell: filter=$pc_f skbs=$pc_s engines=$pc_engines"
			paired_cell "$pc_f" "$pc_packet" "$pc_s" "$pc_engines" \
				"${BENCH_ROUNDS:-30}" "${BENCH_PAIRED_PLACEMENTS:-3}" \
				>> "$pc_out" || return 1
		done
	done
	set_knob sample_us "$pc_us"
}
