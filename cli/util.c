/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "cli/util.h"
#include "replayer/replay/replay.h"

/* "refault <verb>: <message>[; see 'refault <verb> --help']", after what stdout holds so far. */
static void message(const char *verb, bool see_help, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "refault %s: ", verb);
	vfprintf(stderr, fmt, ap);
	if (see_help)
		fprintf(stderr, "; see 'refault %s --help'", verb);
	fputc('\n', stderr);
}

void rf_err(const char *verb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(verb, false, fmt, ap);
	va_end(ap);
}

int rf_usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(verb, true, fmt, ap);
	va_end(ap);
	return RF_EXIT_USAGE;
}

int rf_getopt(const char *verb, int argc, char **argv, const char *shortopts,
	      const struct option *longopts, int *longindex, bool *first)
{
	int c, before;

	if (*first) {
		optind = 0;	/* glibc: start over, including its internal state */
		*first = false;
	}
	before = optind ? optind : 1;
	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, longindex);
	if (c == ':') {
		rf_usage_error(verb, "option '%s' needs an argument", argv[optind - 1]);
		return '?';
	}
	if (c == '?') {
		/* a short option inside "-xyz" leaves optind on that word */
		if (optopt && optopt < 256 && (optind == before || argv[optind - 1][1] != '-'))
			rf_usage_error(verb, "unknown option '-%c'", optopt);
		else
			rf_usage_error(verb, "unknown option '%s'", argv[optind - 1]);
	}
	return c;
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
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
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

unsigned int rf_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (unsigned int)n;
}

int rf_parse_threads(const char *verb, const char *arg, unsigned int *threads)
{
	uint64_t v;

	if (rf_parse_u64(arg, &v) || v < 1 || v > 256) {
		rf_err(verb, "--threads wants a number from 1 to 256, not '%s'", arg);
		return RF_EXIT_USAGE;
	}
	*threads = (unsigned int)v;
	return 0;
}

int rf_parse_compression_level(const char *verb, const char *arg, int *level)
{
	uint64_t v;

	if (rf_parse_u64(arg, &v) || v < 1 || v > RF_MAX_COMPRESSION_LEVEL) {
		rf_err(verb, "--compression-level wants a zstd level from 1 (fastest) to %d (smallest), not '%s'",
		       RF_MAX_COMPRESSION_LEVEL, arg);
		return RF_EXIT_USAGE;
	}
	*level = (int)v;
	return 0;
}

int rf_add_set(const char *verb, char **sets, size_t *nr, char *arg)
{
	if (*nr == RF_CLI_MAX_SETS) {
		rf_err(verb, "more than %d --set options", RF_CLI_MAX_SETS);
		return RF_EXIT_USAGE;
	}
	sets[(*nr)++] = arg;
	return 0;
}

void rf_cli_replay_progress(const struct rf_replay_progress *p, void *ctx)
{
	(void)ctx;
	if (p->total_chunks)
		fprintf(stderr, "\rreplay: chunk %llu/%llu, %.1f M events/s, ETA %.0f s   ",
			(unsigned long long)p->chunks, (unsigned long long)p->total_chunks,
			p->events_per_s / 1e6, p->eta_s);
	else
		fprintf(stderr, "\rreplay: chunk %llu, %.1f M events/s   ",
			(unsigned long long)p->chunks, p->events_per_s / 1e6);
	if (p->final)
		fputc('\n', stderr);
}
