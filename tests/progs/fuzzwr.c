// SPDX-License-Identifier: GPL-2.0
/*
 * fuzzwr: feed one writable sched_shadow debugfs file edge-case and random
 * inputs and check each answer against docs/debugfs.md.
 *
 *   fuzzwr -k reset|enable|dump_every [-n N] [-S SEED] [-m N] FILE
 *
 * The documented inputs (a trailing "\n" is optional in each):
 *   reset          "1"                      -> accepted (count returned)
 *   enable         "0" or "1"               -> accepted; reading returns it
 *   dump_every     a decimal 0..1000000000  -> accepted; reading returns it
 * anything else  -> EINVAL, and what the file reads back does not change.
 * A number with leading zeros ("007", "01") is invalid everywhere: the
 * documentation gives every value one spelling.
 *
 * Inputs: a fixed list of edge cases (empty, newline only, negative, signs,
 * spaces, hex, exponent, words, embedded NULs, CR/LF, 2^64 and neighbours,
 * huge strings up to 1 MiB), then random ones (random bytes, mutated valid
 * values, long digit strings).  Each input is written in one of several
 * ways: a plain write(2); a write whose count is shorter than the buffer;
 * a pwrite(2) at a non-zero offset; two writes on one descriptor (each
 * half judged on its own); a buffer that runs into an unmapped page
 * (expected EFAULT, or EINVAL when the count alone is too long: never
 * accepted).
 *
 * Prints problems ("fuzzwr: MISMATCH ...", at most -m, default 10) and one
 * summary line:
 *   fuzzwr: file=F inputs=N writes=W accepted=A einval=E efault=F other=O
 *           mismatches=M readback_bad=R lenient=L
 * and restores the file's original value.  Exit 0 when mismatches and
 * readback_bad are 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum kind { K_RESET, K_ENABLE, K_DUMP };
enum expect { E_INVAL, E_ACCEPT, E_EITHER };

static enum kind kind;
static const char *file;
static long max_msgs = 10, nmsgs;
static uint64_t rng = 88172645463325252ULL;
static unsigned long long cur_val;	/* what the file should read back */
static int has_val;

static struct {
	long inputs, writes, accepted, einval, efault, other, mismatches, readback_bad, lenient;
} st;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned long rnd_below(unsigned long n)
{
	return n ? (unsigned long)(rnd() % n) : 0;
}

static const char *ename(int e)
{
	static char b[16];

	switch (e) {
	case 0: return "ok";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EIO: return "EIO";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	default: snprintf(b, sizeof(b), "errno%d", e); return b;
	}
}

/* printable form of an input (C escapes, at most 40 bytes shown) */
static const char *show(const char *b, size_t len)
{
	static char out[256];
	size_t i, o = 0;

	for (i = 0; i < len && i < 40 && o < sizeof(out) - 8; i++) {
		unsigned char c = (unsigned char)b[i];

		if (c == '\n')
			o += (size_t)sprintf(out + o, "\\n");
		else if (c == '\\')
			o += (size_t)sprintf(out + o, "\\\\");
		else if (c < 32 || c > 126)
			o += (size_t)sprintf(out + o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
	if (len > 40)
		snprintf(out + o, sizeof(out) - o, "...(%zu bytes)", len);
	return out;
}

static void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void msg(const char *fmt, ...)
{
	va_list ap;

	if (nmsgs++ >= max_msgs)
		return;
	va_start(ap, fmt);
	fputs("fuzzwr: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
	fflush(stdout);
}

/* What the documentation says about these bytes; *val gets the value. */
static enum expect oracle(const char *b, size_t len, unsigned long long *val)
{
	size_t i, n = len;
	unsigned long long v = 0;
	int over = 0;

	if (n && b[n - 1] == '\n')
		n--;
	if (!n)
		return E_INVAL;
	for (i = 0; i < n; i++) {
		if (b[i] < '0' || b[i] > '9')
			return E_INVAL;
		if (v > 1000000000ULL)
			over = 1;
		else
			v = v * 10 + (unsigned long long)(b[i] - '0');
	}
	if (over)
		v = ~0ULL;
	*val = v;
	switch (kind) {
	case K_RESET:
		return n == 1 && b[0] == '1' ? E_ACCEPT : E_INVAL;
	case K_ENABLE:
		return n == 1 && (b[0] == '0' || b[0] == '1') ? E_ACCEPT : E_INVAL;
	case K_DUMP:
		if (v > 1000000000ULL)
			return E_INVAL;
		if (n > 1 && b[0] == '0')
			return E_INVAL;
		return E_ACCEPT;
	}
	return E_INVAL;
}

static int read_back(unsigned long long *v)
{
	char b[64];
	ssize_t n;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n < 2 || b[n - 1] != '\n')
		return -1;
	b[n - 1] = '\0';
	for (ssize_t i = 0; i < n - 1; i++)
		if (b[i] < '0' || b[i] > '9')
			return -1;
	*v = strtoull(b, NULL, 10);
	return 0;
}

/* Judge one write of LEN bytes that returned RC (errno E). */
static void judge(const char *b, size_t len, ssize_t rc, int e, int fault)
{
	unsigned long long v = 0, rb;
	enum expect ex = fault ? E_INVAL : oracle(b, len, &v);
	int got_accept = rc >= 0;

	st.writes++;
	if (rc >= 0)
		st.accepted++;
	else if (e == EINVAL)
		st.einval++;
	else if (e == EFAULT)
		st.efault++;
	else
		st.other++;

	if (fault) {
		/* part of the buffer unmapped: EFAULT, or EINVAL if the count alone is too long */
		if (rc >= 0 || (e != EFAULT && e != EINVAL)) {
			st.mismatches++;
			msg("MISMATCH %s: write of %zu bytes running into an unmapped page got %s (want EFAULT/EINVAL)",
			    file, len, rc >= 0 ? "accepted" : ename(e));
		}
	} else if (ex == E_EITHER) {
		st.lenient++;
		if (!got_accept && e != EINVAL) {
			st.mismatches++;
			msg("MISMATCH %s: '%s' got %s (want accepted or EINVAL)", file, show(b, len), ename(e));
		}
	} else if (ex == E_ACCEPT && !(got_accept && (size_t)rc == len)) {
		st.mismatches++;
		msg("MISMATCH %s: documented input '%s' got %s (want %zu bytes accepted)", file,
		    show(b, len), rc >= 0 ? "a short count" : ename(e), len);
	} else if (ex == E_INVAL && !(rc < 0 && e == EINVAL)) {
		st.mismatches++;
		msg("MISMATCH %s: undocumented input '%s' got %s (want EINVAL)", file, show(b, len),
		    rc >= 0 ? "accepted" : ename(e));
	}
	if (got_accept && !fault && ex != E_INVAL)
		cur_val = v;
	if (has_val && got_accept && (fault || ex == E_INVAL)) {
		/* already counted as a mismatch: learn what it did, do not count twice */
		if (!read_back(&rb))
			cur_val = rb;
	} else if (has_val) {
		if (read_back(&rb) || rb != cur_val) {
			st.readback_bad++;
			msg("READBACK %s after '%s' (%s): reads %llu, want %llu", file, show(b, len),
			    got_accept ? "accepted" : ename(e), rb, cur_val);
			if (!read_back(&rb))
				cur_val = rb;	/* resynchronise: count each problem once */
		}
	}
}

static int open_w(void)
{
	int fd = open(file, O_WRONLY);

	if (fd < 0) {
		fprintf(stderr, "fuzzwr: open %s: %s\n", file, strerror(errno));
		exit(2);
	}
	return fd;
}

static char *fault_page;	/* a page followed by an unmapped page */
static long pagesz;

/*
 * One write of LEN bytes from WBUF on a fresh descriptor, judged as the
 * input JBUF/LEN (the same bytes, or what WBUF holds where it is mapped).
 */
static void write_once(const char *wbuf, const char *jbuf, size_t len, int fault)
{
	int fd = open_w();
	ssize_t rc = write(fd, wbuf, len);
	int e = errno;

	close(fd);
	judge(jbuf, len, rc, e, fault);
}

/* Write input B/LEN in the way MODE says. */
static void do_input(const char *b, size_t len, int mode)
{
	ssize_t rc;
	int fd, e;

	st.inputs++;
	switch (mode) {
	case 0:		/* plain */
	default:
		write_once(b, b, len, 0);
		break;
	case 1: {	/* count shorter than the buffer: the rest must not be read */
		char *c = malloc(len + 8);

		memcpy(c, b, len);
		memcpy(c + len, "9x \n\0zz", 8);
		write_once(c, c, len, 0);
		free(c);
		break;
	}
	case 2:		/* at an offset */
		fd = open_w();
		rc = pwrite(fd, b, len, (off_t)(1 + rnd_below(4096)));
		e = errno;
		if (rc < 0 && e == ESPIPE) {	/* not seekable: a plain write */
			rc = write(fd, b, len);
			e = errno;
		}
		close(fd);
		judge(b, len, rc, e, 0);
		break;
	case 3: {	/* two writes on one descriptor, each judged */
		size_t cut = len ? rnd_below(len + 1) : 0;

		fd = open_w();
		rc = write(fd, b, cut);
		e = errno;
		judge(b, cut, rc, e, 0);
		rc = write(fd, b + cut, len - cut);
		e = errno;
		judge(b + cut, len - cut, rc, e, 0);
		close(fd);
		break;
	}
	case 4: {	/* buffer runs into an unmapped page */
		size_t mapped = len > 1 ? 1 + rnd_below(len - 1) : 0;
		char *start = fault_page + pagesz - mapped;

		if (len == 0 || mapped > (size_t)pagesz) {
			do_input(b, len, 0);
			st.inputs--;
			return;
		}
		memcpy(start, b, mapped);
		write_once(start, b, len, 1);
		break;
	}
	}
}

static size_t gen_random(char *b, size_t cap)
{
	static const char alpha[] = "0123456789\n\t -+xX\0aZ.,\r\\e";
	static const char *valid[] = { "0", "1", "100", "1000000000", "7", "42" };
	size_t len, i;

	switch (rnd_below(4)) {
	case 0:		/* random bytes */
		len = rnd_below(41);
		for (i = 0; i < len; i++)
			b[i] = (char)rnd();
		return len;
	case 1: {	/* a valid value, mutated 0..3 times */
		int muts = (int)rnd_below(4);

		const char *v = valid[rnd_below(6)];

		len = strlen(v);
		memcpy(b, v, len);
		if (rnd_below(2))
			b[len++] = '\n';
		while (muts-- > 0 && len + 2 < cap) {
			size_t at = rnd_below(len + 1);
			char c = alpha[rnd_below(sizeof(alpha) - 1)];

			switch (rnd_below(3)) {
			case 0:	/* insert */
				memmove(b + at + 1, b + at, len - at);
				b[at] = c;
				len++;
				break;
			case 1:	/* replace */
				if (at < len)
					b[at] = c;
				break;
			case 2:	/* delete */
				if (at < len) {
					memmove(b + at, b + at + 1, len - at - 1);
					len--;
				}
				break;
			}
		}
		return len;
	}
	case 2: {	/* a number of 1..25 digits, maybe signed, maybe zero-padded */
		size_t digits = 1 + rnd_below(25);

		len = 0;
		if (!rnd_below(4))
			b[len++] = rnd_below(2) ? '-' : '+';
		if (!rnd_below(4))
			b[len++] = '0';
		for (i = 0; i < digits; i++)
			b[len++] = (char)('0' + rnd_below(10));
		if (rnd_below(2))
			b[len++] = '\n';
		return len;
	}
	default: {	/* long */
		static const size_t sizes[] = { 7, 8, 9, 11, 19, 20, 21, 22, 23, 24, 25, 64, 4095, 4096, 4097 };

		len = sizes[rnd_below(sizeof(sizes) / sizeof(sizes[0]))];
		if (len > cap)
			len = cap;
		for (i = 0; i < len; i++)
			b[i] = rnd_below(8) ? '0' : (char)('1' + rnd_below(9));
		return len;
	}
	}
}

int main(int argc, char **argv)
{
	static const struct { const char *s; size_t len; } edges[] = {
#define E(x) { x, sizeof(x) - 1 }
		E(""), E("\n"), E("0"), E("1"), E("0\n"), E("1\n"), E("2"), E("9"), E("10"),
		E("-1"), E("-0"), E("+1"), E("+0"), E(" 1"), E("1 "), E("\t1"), E("1\t"),
		E("1\n\n"), E("\n1"), E("\n\n"), E("01"), E("00"), E("001\n"), E("1\0"), E("\0"),
		E("\0001"), E("1\0\n"), E("0\0"), E("0x1"), E("0X0"), E("1e3"), E("1.0"), E("1,0"),
		E("one"), E("true"), E("false"), E("yes"), E("y"), E("on"), E("off"), E("1\r\n"),
		E("1\r"), E("\xff"), E("\xef\xbb\xbf" "1"), E("100"), E("1000000000"),
		E("1000000000\n"), E("1000000001"), E("999999999"), E("4294967295"),
		E("4294967296"), E("18446744073709551615"), E("18446744073709551616"),
		E("99999999999999999999"), E("-2147483648"), E("-9223372036854775808"),
		E("0000000000"), E("00000000000000000001"), E("000000000000000000001\n"),
		E("\\n"), E("1\\n"), E("%s%n%p"), E("1;"), E("1#"), E("7"),
#undef E
	};
	static const size_t huge[] = { 100, 4095, 4096, 4097, 65536, 1 << 20 };
	long n = 1000, i;
	unsigned long long orig = 0;
	char *b;
	int c, fd;

	while ((c = getopt(argc, argv, "k:n:S:m:h")) != -1) {
		switch (c) {
		case 'k':
			if (!strcmp(optarg, "reset"))
				kind = K_RESET;
			else if (!strcmp(optarg, "enable"))
				kind = K_ENABLE;
			else if (!strcmp(optarg, "dump_every"))
				kind = K_DUMP;
			else {
				fprintf(stderr, "fuzzwr: unknown kind %s\n", optarg);
				return 2;
			}
			break;
		case 'n': n = atol(optarg); break;
		case 'S': rng = strtoull(optarg, NULL, 0) | 1; break;
		case 'm': max_msgs = atol(optarg); break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: fuzzwr -k reset|enable|dump_every [-n N] [-S SEED] [-m N] FILE\n"
				"  N inputs (default 1000: the edge cases first, then random ones),\n"
				"  each answer checked against docs/debugfs.md; prints a summary line\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fuzzwr: one FILE expected (see -h)\n");
		return 2;
	}
	file = argv[optind];
	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesz = sysconf(_SC_PAGESIZE);
	fault_page = mmap(NULL, 2 * pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fault_page == MAP_FAILED || mprotect(fault_page + pagesz, pagesz, PROT_NONE)) {
		perror("fuzzwr: mmap");
		return 2;
	}
	b = malloc((1 << 20) + 16);
	if (!b)
		return 2;
	fd = open_w();
	close(fd);
	if (kind != K_RESET) {
		if (read_back(&orig)) {
			fprintf(stderr, "fuzzwr: cannot read %s back\n", file);
			return 2;
		}
		cur_val = orig;
		has_val = 1;
	}

	for (i = 0; st.inputs < n && i < (long)(sizeof(edges) / sizeof(edges[0])); i++)
		do_input(edges[i].s, edges[i].len, 0);
	for (i = 0; st.inputs < n && i < (long)(sizeof(huge) / sizeof(huge[0])); i++) {
		memset(b, '1', huge[i]);
		do_input(b, huge[i], 0);
	}
	/* the documented values through every write mode */
	for (i = 0; st.inputs < n && i < 5; i++) {
		do_input("1", 1, (int)i);
		do_input("0\n", 2, (int)i);
	}
	while (st.inputs < n) {
		size_t len = gen_random(b, 4200);
		int mode = (int)rnd_below(8);

		do_input(b, len, mode > 4 ? 0 : mode);
	}

	/* restore */
	if (kind != K_RESET) {
		char v[32];
		int l = snprintf(v, sizeof(v), "%llu\n", orig);

		fd = open_w();
		if (write(fd, v, (size_t)l) != l)
			msg("could not restore %s to %llu: %s", file, orig, strerror(errno));
		close(fd);
	}
	printf("fuzzwr: file=%s inputs=%ld writes=%ld accepted=%ld einval=%ld efault=%ld other=%ld "
	       "mismatches=%ld readback_bad=%ld lenient=%ld\n",
	       file, st.inputs, st.writes, st.accepted, st.einval, st.efault, st.other,
	       st.mismatches, st.readback_bad, st.lenient);
	return st.mismatches || st.readback_bad ? 1 : 0;
}
