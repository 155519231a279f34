# shellcheck shell=sh
# The plan options (bench.KEY=VALUE) checked on the host against their
# records in bench/args.conf (sourced after accels.sh, which sets CONF_DIR).
#   bench_arg_check WORD   succeeds if WORD is a bench.KEY=VALUE option
#                          args.conf knows, with a value in its range; else
#                          prints why not (one line) and fails
#   bench_args_check WORD...  the same for every word; the first bad one
ARGS_CONF=${ARGS_CONF:-$CONF_DIR/args.conf}

arg_attr() { conf_get "$ARGS_CONF" arg "$1" "$2"; }
# arg_names: the options (not the runner's keys)
arg_names() {
	for a in $(conf_names "$ARGS_CONF" arg); do
		[ "$(arg_attr "$a" type)" = runner ] || echo "$a"
	done | tr "\n" " " | sed "s/ $//"
}

# arg_filters: the filters a cell can run (filters/NAME.dd)
arg_filters() {
	find "$CONF_DIR/../filters" -maxdepth 1 -name '*.dd' | sed 's|.*/||; s|\.dd$||' | sort | tr "\n" " " | sed "s/ $//"
}

# arg_uint VALUE MIN MAX: VALUE is a decimal number in MIN..MAX.
arg_uint() {
	case "$1" in '' | *[!0-9]*) return 1 ;; esac
	# longer than the largest max (10 digits) cannot be in range
	[ "${#1}" -le 10 ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

# arg_list VALUE: VALUE's comma-separated items, one per line; fails on an
# empty item (",," or a trailing comma).
arg_list() {
	case ",$1," in *,,*) return 1 ;; esac
	echo "$1" | tr ',' '\n'
}

# arg_item TYPE ITEM MIN MAX WHAT: ITEM is a valid item of a list option
# of TYPE (uints, engines, filters); else says why on stdout.
arg_item() {
	case "$1" in
	uints)
		arg_uint "$2" "$3" "$4" && return 0
		echo "'$2' out of range, each must be a number $3..$4 ($5)" ;;
	engines)
		known=$(conf_names "$CONF_DIR/engines.conf" engine | tr '\n' ' ' | sed 's/ $//')
		case " $known " in *" $2 "*) return 0 ;; esac
		echo "unknown engine '$2' (known: $known)" ;;
	filters)
		case "$2" in */* | .*) ;; *) [ -f "$CONF_DIR/../filters/$2.dd" ] && return 0 ;; esac
		echo "unknown filter '$2' (known: $(arg_filters))" ;;
	esac
	return 1
}

bench_arg_check() {
	case "$1" in
	bench.*=*) ;;
	*) echo "'$1' is not bench.KEY=VALUE"; return 1 ;;
	esac
	key=${1#bench.} val=${1#*=}
	key=${key%%=*}
	case "$key" in
	'' | *[!a-z0-9_]*) echo "'$1': '$key' is not an option name"; return 1 ;;
	esac
	case "$val" in
	*[!A-Za-z0-9_.,-]*) echo "bench.$key=$val: only letters, digits and _ . , - are allowed in a value"; return 1 ;;
	esac
	if ! type=$(arg_attr "$key" type); then
		echo "unknown option bench.$key (known: $(arg_names | sed 's/\([a-z0-9_]*\)/bench.\1/g'))"
		return 1
	fi
	what=$(arg_attr "$key" what || true)
	min=$(arg_attr "$key" min || echo 0) max=$(arg_attr "$key" max || echo 0)
	[ -n "$val" ] || { echo "bench.$key= has no value ($what)"; return 1; }
	case "$type" in
	runner)
		echo "bench.$key is set by the runner ($what), not by BENCH_ARGS"
		return 1 ;;
	bool)
		case "$val" in 0 | 1) return 0 ;; esac
		echo "bench.$key=$val: must be 0 or 1 ($what)"
		return 1 ;;
	uint)
		arg_uint "$val" "$min" "$max" && return 0
		case "$val" in *[!0-9]*)
			echo "bench.$key=$val: not a number ($min..$max: $what)"
			return 1 ;;
		esac
		echo "bench.$key=$val: out of range, must be a number $min..$max ($what)"
		return 1 ;;
	uints | engines | filters)
		items=$(arg_list "$val") ||
			{ echo "bench.$key=$val: an empty item in the list ($what)"; return 1; }
		for v in $items; do
			why=$(arg_item "$type" "$v" "$min" "$max" "$what") && continue
			echo "bench.$key=$val: $why"
			return 1
		done ;;
	*)
		echo "bench.$key: type '$type' in $ARGS_CONF is none of uint uints bool engines filters runner"
		return 1 ;;
	esac
}

bench_args_check() {
	for w in "$@"; do
		bench_arg_check "$w" || return 1
	done
}
