/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A tiny TAP producer for C tests, run by automake's tap-driver.sh.
 * Header-only so each test is one .c file; state is per test program.
 */
#ifndef REFAULT_TESTS_TAP_H
#define REFAULT_TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tap_state {
	int planned;
	int run;
	int failed;
};

static struct tap_state tap_;

static inline void plan(int n)
{
	tap_.planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline void skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	fflush(stdout);
	exit(0);
}

static inline int __attribute__((format(printf, 2, 3))) ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_.run++;
	if (!cond)
		tap_.failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

static inline void __attribute__((format(printf, 2, 3))) skip(int n, const char *fmt, ...)
{
	va_list ap;
	char why[256];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	while (n-- > 0)
		printf("ok %d # SKIP %s\n", ++tap_.run, why);
	fflush(stdout);
}

static inline void __attribute__((format(printf, 1, 2))) diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

#define is_int(got, want, ...)							\
	({									\
		long long got_ = (long long)(got), want_ = (long long)(want);	\
		int r_ = ok(got_ == want_, __VA_ARGS__);			\
		if (!r_)							\
			diag("  %s:%d: got %lld, want %lld", __FILE__, __LINE__, got_, want_); \
		r_;								\
	})

#define is_str(got, want, ...)							\
	({									\
		const char *got_ = (got), *want_ = (want);			\
		int r_ = ok(got_ && want_ && !strcmp(got_, want_), __VA_ARGS__); \
		if (!r_)							\
			diag("  %s:%d: got \"%s\", want \"%s\"", __FILE__, __LINE__, \
			     got_ ? got_ : "(null)", want_ ? want_ : "(null)");	\
		r_;								\
	})

/* Exit status for main(): non-zero when a test failed or the plan was not met. */
static inline int done_testing(void)
{
	if (!tap_.planned)
		printf("1..%d\n", tap_.run);
	else if (tap_.planned != tap_.run)
		diag("planned %d tests but ran %d", tap_.planned, tap_.run);
	fflush(stdout);
	return tap_.failed || (tap_.planned && tap_.planned != tap_.run);
}

#endif /* REFAULT_TESTS_TAP_H */
