# testbpf2dd.awk - print one classic test of lib/test_bpf.c in the format of
# tcpdump -dd, so it can be compared with our generated .dd files.
#
#   awk -v test='tcpdump port 22' -f testbpf2dd.awk lib/test_bpf.c
#
# Understands the BPF_STMT(code, k) / BPF_JUMP(code, k, jt, jf) macros with
# codes written as BPF_* names joined by '|', and decimal or hex numbers.
# Exits 2 if the test is not found or uses something it does not know.

function fail(msg) {
	print "testbpf2dd.awk: " msg > "/dev/stderr"
	failed = 1
	exit 2
}

function trim(s) {
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	return s
}

function num(s,    n, i, c) {
	s = trim(s)
	if (s ~ /^0[xX][0-9a-fA-F]+$/) {
		n = 0
		for (i = 3; i <= length(s); i++) {
			c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			n = n * 16 + c
		}
		return n
	}
	if (s ~ /^[0-9]+$/)
		return s + 0
	fail("line " NR ": cannot evaluate '" s "'")
}

function code(s,    parts, n, i, p, v) {
	n = split(s, parts, "|")
	v = 0
	for (i = 1; i <= n; i++) {
		p = trim(parts[i])
		if (!(p in sym))
			fail("line " NR ": unknown opcode part '" p "'")
		v += sym[p]
	}
	return v
}

function hex(n, width,    s, d) {
	s = ""
	while (n > 0) {
		d = n % 16
		s = substr("0123456789abcdef", d + 1, 1) s
		n = (n - d) / 16
	}
	if (s == "")
		s = "0"
	while (length(s) < width)
		s = "0" s
	return "0x" s
}

BEGIN {
	# include/uapi/linux/filter.h (classic BPF) values, in decimal
	# because mawk does not read hex constants in programs
	sym["BPF_LD"] = 0; sym["BPF_LDX"] = 1; sym["BPF_ST"] = 2
	sym["BPF_STX"] = 3; sym["BPF_ALU"] = 4; sym["BPF_JMP"] = 5
	sym["BPF_RET"] = 6; sym["BPF_MISC"] = 7
	sym["BPF_W"] = 0; sym["BPF_H"] = 8; sym["BPF_B"] = 16
	sym["BPF_IMM"] = 0; sym["BPF_ABS"] = 32; sym["BPF_IND"] = 64
	sym["BPF_MEM"] = 96; sym["BPF_LEN"] = 128; sym["BPF_MSH"] = 160
	sym["BPF_ADD"] = 0; sym["BPF_SUB"] = 16; sym["BPF_MUL"] = 32
	sym["BPF_DIV"] = 48; sym["BPF_OR"] = 64; sym["BPF_AND"] = 80
	sym["BPF_LSH"] = 96; sym["BPF_RSH"] = 112; sym["BPF_NEG"] = 128
	sym["BPF_MOD"] = 144; sym["BPF_XOR"] = 160
	sym["BPF_JA"] = 0; sym["BPF_JEQ"] = 16; sym["BPF_JGT"] = 32
	sym["BPF_JGE"] = 48; sym["BPF_JSET"] = 64
	sym["BPF_K"] = 0; sym["BPF_X"] = 8; sym["BPF_A"] = 16
	sym["BPF_TAX"] = 0; sym["BPF_TXA"] = 128
	if (test == "")
		fail("usage: awk -v test=NAME -f testbpf2dd.awk test_bpf.c")
	state = 0	# 0 looking for name, 1 for insns, 2 in insns, 3 done
	count = 0
}

state == 0 && index($0, "\"" test "\",") {
	state = 1
	next
}

state == 1 && /\.u\.insns = \{/ {
	state = 2
	next
}

state == 2 {
	line = $0
	sub(/\/\*.*\*\//, "", line)
	if (line ~ /^[ \t]*\},?[ \t]*$/) {
		state = 3
		exit 0
	}
	if (line !~ /BPF_(STMT|JUMP)\(/)
		next
	kind = line
	sub(/^[ \t]*/, "", kind)
	kind = substr(kind, 1, 8)
	args = line
	sub(/^[^(]*\(/, "", args)
	sub(/\)[ \t]*,?[ \t]*$/, "", args)
	n = split(args, a, ",")
	if (kind == "BPF_STMT" && n == 2)
		printf "{ %s, 0, 0, %s },\n", hex(code(a[1]), 0), hex(num(a[2]), 8)
	else if (kind == "BPF_JUMP" && n == 4)
		printf "{ %s, %d, %d, %s },\n", hex(code(a[1]), 0), num(a[3]),
			num(a[4]), hex(num(a[2]), 8)
	else
		fail("line " NR ": cannot parse: " $0)
	count++
}

END {
	if (failed)
		exit 2
	if (state != 3 || count == 0) {
		print "testbpf2dd.awk: test '" test "' not found" > "/dev/stderr"
		exit 2
	}
}
