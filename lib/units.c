/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Numbers as people write them: sizes, durations, counts (and sizes back into words). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/units.h"

int rf_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int rf_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGTP";
	const char *u;
	unsigned long long v;
	char *end;
	int shift;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (!*end || ((*end == 'B' || *end == 'b') && !end[1])) {
		*out = v;	/* "4096", "4096B" */
		return 0;
	}
	u = strchr(units, *end & ~0x20);
	if (!u || !*u)
		return -1;
	end++;
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -1;
	shift = 10 * (int)(u - units + 1);
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int rf_parse_duration(const char *s, uint64_t *out_ns)
{
	static const struct { const char *suffix; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
		{ "", 1e9 },
	};
	double v;
	char *end;
	size_t i;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (v * units[i].ns >= 1.8e19)
			return -1;
		*out_ns = (uint64_t)llround(v * units[i].ns);
		return 0;
	}
	return -1;
}

const char *rf_format_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	unsigned int i = 0;

	while (v >= 1024 && i + 1 < ARRAY_SIZE(units)) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, units[i]);
	return buf;
}

uint64_t rf_int_sqrt(uint64_t x)
{
	uint64_t r = 0, b = 1ull << 62;

	while (b > x)
		b >>= 2;
	while (b) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
		b >>= 2;
	}
	return r;
}
