# cut.awk - cut the CLASSIC entries of lib/test_bpf.c's tests[] out of the
# tree's file (they are never stored in this repository), as C:
#   static struct bpf_test tests[] = { <the CLASSIC entries, verbatim> };
#   static const int test_index[] = { <each one's index in test_bpf's tests[]> };
#   static const int tests_total = <entries of test_bpf's tests[]>;
# An entry is CLASSIC when its text outside strings and comments names
# CLASSIC (its .aux); every other entry is an INTERNAL (eBPF) one.
# Braces are counted outside strings, character constants and comments.
function code_of(s,    t, i) {
	t = s
	if (in_comment) {
		if ((i = index(t, "*/")) == 0)
			return ""
		t = substr(t, i + 2)
		in_comment = 0
	}
	gsub(/"([^"\\]|\\.)*"/, "\"\"", t)
	gsub(/'([^'\\]|\\.)*'/, "''", t)
	gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", t)
	sub(/\/\/.*/, "", t)
	if ((i = index(t, "/*")) > 0) {
		t = substr(t, 1, i - 1)
		in_comment = 1
	}
	return t
}
function depth_of(t,    c, i, n) {
	n = 0
	for (i = 1; i <= length(t); i++) {
		c = substr(t, i, 1)
		if (c == "{")
			n++
		else if (c == "}")
			n--
	}
	return n
}
/^static struct bpf_test tests\[\] = \{/ {
	inarr = 1
	d = 1
	print "static struct bpf_test tests[] = {"
	next
}
!inarr { next }
{
	code = code_of($0)
	nd = d + depth_of(code)
	if (d == 1 && nd > 1 && entry == "") {
		entry = $0 "\n"
		ecode = code " "
	} else if (entry != "") {
		entry = entry $0 "\n"
		ecode = ecode code " "
	}
	d = nd
	if (d == 1 && entry != "") {
		if (ecode ~ /(^|[^A-Za-z0-9_])CLASSIC([^A-Za-z0-9_]|$)/) {
			printf "%s", entry
			idx[nclassic++] = ntests
		}
		ntests++
		entry = ""
	}
	if (d == 0) {
		done = 1
		exit
	}
}
END {
	if (!done || entry != "") {
		print "cut.awk: " FILENAME ": tests[] not found or unbalanced" > "/dev/stderr"
		exit 1
	}
	print "};"
	printf "static const int test_index[] = {"
	for (i = 0; i < nclassic; i++)
		printf "%s%s%d", i ? "," : "", i % 16 ? " " : "\n\t", idx[i]
	print "\n};"
	printf "static const int tests_total = %d;\n", ntests
}
