# Cut definitions out of a kernel C file (the tree's lib/test_bpf.c and the
# prandom code), never stored in this repository.
#   -v what=prelude   the #defines, the flags enum and struct bpf_test: from
#                     "#define MAX_SUBTESTS" to the "};" closing the struct
#   -v what=populate  populate_skb()'s plain "skb->FIELD = VALUE;" lines
#   -v names="f g"    the definitions of the functions f and g, in file
#                     order (from the line naming one at the start of a
#                     definition to the next "}" in column 0)
# Fails when something asked for is not found.
what == "prelude" && /^#define MAX_SUBTESTS/ { on = 1 }
what == "prelude" && on {
	print
	if (/^struct bpf_test \{/)
		instruct = 1
	if (instruct && /^};/) {
		found = 1
		exit
	}
	next
}
what == "populate" && /^static struct sk_buff \*populate_skb\(/ { on = 1; next }
what == "populate" && on {
	if (/^}/) {
		exit
	}
	if ($0 ~ /^[ \t]*skb->[a-z_>-]+ = [^;]*;$/) {
		print
		found++
	}
	next
}
what == "" && !on && /^[a-z]/ {
	for (n in want)
		if (index($0, " " n "(") || index($0, "*" n "(") || index($0, n "(") == 1) {
			on = 1
			got[n] = 1
		}
}
what == "" && on {
	print
	if (/^}/) {
		on = 0
		print ""
	}
}
BEGIN {
	if (what == "") {
		nw = split(names, w, " ")
		for (i = 1; i <= nw; i++)
			want[w[i]] = 1
	}
}
END {
	if (what == "") {
		for (n in want)
			if (!(n in got)) {
				printf "cutdefs.awk: %s: no definition of %s\n", FILENAME, n > "/dev/stderr"
				exit 1
			}
	} else if (!found) {
		printf "cutdefs.awk: %s: %s not found\n", FILENAME, what > "/dev/stderr"
		exit 1
	}
}
