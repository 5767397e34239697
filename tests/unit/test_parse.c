// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of module/core/parse.c (debugfs input). */
#include <string.h>
#include "tap.h"
#include "parse.c"

static int parses(const char *s, unsigned long len, u64 max, u64 want)
{
	u64 v = 12345;

	return shadow_parse_uint(s, len, max, &v) && v == want;
}

static int rejects(const char *s, unsigned long len, u64 max)
{
	u64 v = 777;

	return !shadow_parse_uint(s, len, max, &v) && v == 777;
}

int main(void)
{
	char big[64];

	tap_begin("parse");
	tap_ok(parses("1", 1, 1, 1), "'1' accepted");
	tap_ok(parses("1\n", 2, 1, 1), "'1\\n' accepted");
	tap_ok(parses("0\n", 2, 1, 0), "'0\\n' accepted");
	tap_ok(rejects("2", 1, 1), "'2' above max 1 rejected");
	tap_ok(rejects("", 0, 1), "empty rejected");
	tap_ok(rejects("\n", 1, 1), "lone newline rejected");
	tap_ok(rejects("-1", 2, 1), "negative rejected");
	tap_ok(rejects("+1", 2, 1), "sign rejected");
	tap_ok(rejects(" 1", 2, 1), "leading space rejected");
	tap_ok(rejects("1 ", 2, 1), "trailing space rejected");
	tap_ok(rejects("1x", 2, 1), "trailing garbage rejected");
	tap_ok(rejects("abc", 3, 1), "non-numeric rejected");
	tap_ok(rejects("1\n\n", 3, 1), "two newlines rejected");
	tap_ok(rejects("1\0", 2, 1), "embedded NUL rejected");
	tap_ok(rejects("\0" "1", 2, 1), "leading NUL rejected");
	tap_ok(parses("18446744073709551615", 20, ~0ULL, ~0ULL), "u64 max accepted when allowed");
	tap_ok(rejects("18446744073709551616", 20, ~0ULL), "u64 overflow rejected");
	memset(big, '1', sizeof(big));
	tap_ok(rejects(big, sizeof(big), ~0ULL), "64 digits rejected");
	tap_ok(parses("1000000", 7, 1000000, 1000000) && rejects("1000001", 7, 1000000),
	       "limit is inclusive");
	tap_ok(rejects("007", 3, 10) && rejects("01", 2, 1) && rejects("00\n", 3, 1),
	       "leading zeros rejected (one spelling per value)");
	tap_ok(parses("0", 1, 0, 0) && parses("10", 2, 10, 10), "a lone 0 and a trailing 0 are fine");
	return tap_end();
}
