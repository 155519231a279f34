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
	expect=$(expected_verdict "$filter" "$packet") ||
		{ say "no verdict for $filter/$packet"; return 1; }
	set_knob_file prog "$FILTERS/$filter.dd" &&
	set_knob_file packet "$FILTERS/packets/$packet.hex" &&
	set_knob expect "$expect" &&
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
