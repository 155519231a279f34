/*
 * bpfrun - reference classic-BPF interpreter for the host tests.
 *
 *   bpfrun PROG.dd PACKET.hex
 *
 * Reads a program in `tcpdump -dd` format and a frame in the
 * packets/<name>.hex format, validates the program like the kernel's
 * sk_chk_filter() (opcode known, jumps in range, scratch index < 16, ends
 * in ret), runs it on the frame with the kernel's classic semantics
 * (out-of-bounds load or division by zero returns 0, LEN is the frame
 * length) and prints the 32-bit return value in decimal.  Exit 0 on
 * success, 2 on bad input.
 *
 * Used by tests.sh to check that each .dd, run on each .hex, returns exactly
 * the verdict in verdicts.txt (which tcpdump itself decided).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXINSNS	4096		/* BPF_MAXINSNS */
#define MEMWORDS	16		/* BPF_MEMWORDS */
#define MAXPKT		65536

struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "bpfrun: %s: %s\n", what, msg);
	exit(2);
}

static size_t load_prog(const char *path, struct insn *p)
{
	FILE *fp = fopen(path, "r");
	char line[256];
	size_t n = 0;

	if (!fp)
		die(path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		unsigned code, jt, jf;
		unsigned long k;
		char end;

		if (sscanf(line, " { %x , %u , %u , %lx } %c", &code, &jt, &jf,
			   &k, &end) != 5 || end != ',')
			die(path, "line is not in tcpdump -dd format");
		if (n >= MAXINSNS)
			die(path, "more than 4096 instructions");
		if (code > 0xffff || jt > 255 || jf > 255 || k > 0xffffffffUL)
			die(path, "field out of range");
		p[n].code = (uint16_t)code;
		p[n].jt = (uint8_t)jt;
		p[n].jf = (uint8_t)jf;
		p[n].k = (uint32_t)k;
		n++;
	}
	fclose(fp);
	if (n == 0)
		die(path, "empty program");
	return n;
}

static size_t load_hex(const char *path, uint8_t *b)
{
	FILE *fp = fopen(path, "r");
	unsigned v;
	size_t n = 0;
	int r;

	if (!fp)
		die(path, strerror(errno));
	while ((r = fscanf(fp, "%2x", &v)) == 1) {
		if (n >= MAXPKT)
			die(path, "frame too long");
		b[n++] = (uint8_t)v;
	}
	if (r != EOF)
		die(path, "not hex bytes");
	fclose(fp);
	return n;
}

/* Opcode classes/fields, include/uapi/linux/filter.h */
#define CLASS(c)	((c) & 0x07)
#define SIZE(c)		((c) & 0x18)
#define MODE(c)		((c) & 0xe0)
#define OP(c)		((c) & 0xf0)
#define SRC(c)		((c) & 0x08)
#define RVAL(c)		((c) & 0x18)
#define MISCOP(c)	((c) & 0xf8)

enum { LD, LDX, ST, STX, ALU, JMP, RET, MISC };
#define W 0x00
#define H 0x08
#define B 0x10
#define IMM 0x00
#define ABS 0x20
#define IND 0x40
#define MEM 0x60
#define LEN 0x80
#define MSH 0xa0
#define K_ 0x00
#define X_ 0x08
#define A_ 0x10

static void check(const char *path, const struct insn *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned c = p[i].code;
		int ok = 1;

		switch (CLASS(c)) {
		case LD:
			ok = (MODE(c) == IMM || MODE(c) == MEM || MODE(c) == LEN)
				? c == (unsigned)MODE(c)
				: (MODE(c) == ABS || MODE(c) == IND) &&
				  SIZE(c) != 0x18;
			if (MODE(c) == MEM && p[i].k >= MEMWORDS)
				ok = 0;
			break;
		case LDX:
			ok = c == (LDX | W | IMM) || c == (LDX | W | MEM) ||
			     c == (LDX | W | LEN) || c == (LDX | B | MSH);
			if (c == (LDX | W | MEM) && p[i].k >= MEMWORDS)
				ok = 0;
			break;
		case ST:
		case STX:
			ok = (c == ST || c == STX) && p[i].k < MEMWORDS;
			break;
		case ALU:
			ok = (c & 0x07) == ALU && OP(c) <= 0xa0 &&
			     (c & ~0xf8u) == ALU;
			if (OP(c) == 0x30 && !SRC(c) && p[i].k == 0)
				ok = 0;		/* div by constant 0 */
			break;
		case JMP:
			if (OP(c) == 0x00) {	/* ja */
				ok = c == JMP && p[i].k < n - i - 1;
			} else {
				ok = OP(c) <= 0x40 &&
				     (size_t)p[i].jt < n - i - 1 &&
				     (size_t)p[i].jf < n - i - 1;
			}
			break;
		case RET:
			ok = RVAL(c) == K_ || RVAL(c) == A_;
			break;
		case MISC:
			ok = c == (MISC | 0x00) || c == (MISC | 0x80);
			break;
		}
		if (!ok) {
			fprintf(stderr, "bpfrun: %s: insn %zu (code %#x) invalid\n",
				path, i, c);
			exit(2);
		}
	}
	if (CLASS(p[n - 1].code) != RET)
		die(path, "last instruction is not ret");
}

static int load(const uint8_t *b, size_t len, uint32_t off, unsigned size,
		uint32_t *out)
{
	unsigned w = size == W ? 4 : size == H ? 2 : 1;
	unsigned i;
	uint32_t v = 0;

	if (off > len || len - off < w)
		return 0;
	for (i = 0; i < w; i++)
		v = v << 8 | b[off + i];
	*out = v;
	return 1;
}

static uint32_t run(const struct insn *p, const uint8_t *b, size_t len)
{
	uint32_t A = 0, X = 0, M[MEMWORDS] = { 0 }, v;
	size_t pc = 0;

	for (;;) {
		const struct insn *i = &p[pc++];
		unsigned c = i->code;
		uint32_t src = SRC(c) ? X : i->k;

		switch (CLASS(c)) {
		case LD:
			switch (MODE(c)) {
			case IMM: A = i->k; break;
			case MEM: A = M[i->k]; break;
			case LEN: A = (uint32_t)len; break;
			case ABS:
			case IND:
				if (!load(b, len, (MODE(c) == IND ? X : 0) + i->k,
					  SIZE(c), &v))
					return 0;
				A = v;
				break;
			}
			break;
		case LDX:
			switch (MODE(c)) {
			case IMM: X = i->k; break;
			case MEM: X = M[i->k]; break;
			case LEN: X = (uint32_t)len; break;
			case MSH:
				if (!load(b, len, i->k, B, &v))
					return 0;
				X = (v & 0xf) << 2;
				break;
			}
			break;
		case ST:
			M[i->k] = A;
			break;
		case STX:
			M[i->k] = X;
			break;
		case ALU:
			switch (OP(c)) {
			case 0x00: A += src; break;
			case 0x10: A -= src; break;
			case 0x20: A *= src; break;
			case 0x30: if (!src) return 0; A /= src; break;
			case 0x40: A |= src; break;
			case 0x50: A &= src; break;
			case 0x60: A = src >= 32 ? 0 : A << src; break;
			case 0x70: A = src >= 32 ? 0 : A >> src; break;
			case 0x80: A = (uint32_t)-A; break;
			case 0x90: if (!src) return 0; A %= src; break;
			case 0xa0: A ^= src; break;
			}
			break;
		case JMP:
			switch (OP(c)) {
			case 0x00: pc += i->k; break;
			case 0x10: pc += A == src ? i->jt : i->jf; break;
			case 0x20: pc += A > src ? i->jt : i->jf; break;
			case 0x30: pc += A >= src ? i->jt : i->jf; break;
			case 0x40: pc += (A & src) ? i->jt : i->jf; break;
			}
			break;
		case RET:
			return RVAL(c) == A_ ? A : i->k;
		case MISC:
			if (c & 0x80)
				A = X;	/* txa */
			else
				X = A;	/* tax */
			break;
		}
	}
}

int main(int argc, char **argv)
{
	static struct insn prog[MAXINSNS];
	static uint8_t pkt[MAXPKT];
	size_t n, len;

	if (argc != 3) {
		fputs("usage: bpfrun PROG.dd PACKET.hex\n", stderr);
		return 2;
	}
	n = load_prog(argv[1], prog);
	check(argv[1], prog, n);
	len = load_hex(argv[2], pkt);
	printf("%" PRIu32 "\n", run(prog, pkt, len));
	return 0;
}
