/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "cli/util.h"

void rf_err(const char *verb, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "refault %s: ", verb);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

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

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (!*end) {
		*out = v;
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
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
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

	while (v >= 1024 && i + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, units[i]);
	return buf;
}

/* Async-signal-safe enough: only write(2) and libunwind's local unwinder. */
static void write_str(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));

	(void)r;
}

static void crash_handler(int sig)
{
	unw_cursor_t cursor;
	unw_context_t ctx;
	char name[256], line[320];
	unw_word_t off, ip;
	int depth = 0;

	write_str("refault: fatal signal ");
	write_str(strsignal(sig));
	write_str("; backtrace:\n");
	if (!unw_getcontext(&ctx) && !unw_init_local(&cursor, &ctx)) {
		while (unw_step(&cursor) > 0 && depth++ < 64) {
			unw_get_reg(&cursor, UNW_REG_IP, &ip);
			if (unw_get_proc_name(&cursor, name, sizeof(name), &off))
				strcpy(name, "??");
			snprintf(line, sizeof(line), "  #%-2d 0x%016lx %s+0x%lx\n", depth,
				 (unsigned long)ip, name, (unsigned long)off);
			write_str(line);
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void rf_cli_install_crash_handler(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	size_t i;

	/* The sanitizers print better reports than we can; leave them the signals. */
	if (getenv("REFAULT_NO_CRASH_HANDLER"))
		return;
#if defined(__SANITIZE_ADDRESS__)
	return;
#endif
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], crash_handler);
}

int rf_cli_finish(int status)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		if (errno != EPIPE) {
			fprintf(stderr, "refault: error writing output: %s\n", strerror(errno));
			return status ? status : RF_EXIT_FAILURE;
		}
	}
	return status;
}
