/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CLOCK_MONOTONIC, read for elapsed times (progress, a task's wall time) and
 * for event times of the recorder (tracefs's trace_clock "mono" is
 * ktime_get_mono_fast_ns(), the same clock).
 */
#ifndef REFAULT_LIB_CLOCK_H
#define REFAULT_LIB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t rf_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double rf_mono_seconds(void)
{
	return (double)rf_mono_ns() / 1e9;
}

#endif
