/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LKP's noise rules on constructed samples: for each rule, a change that
 * must show and one that must not.  And the number formats of the table.
 */
#include "config.h"

#include <string.h>

#include "compare/compare-local.h"
#include "tests/lib/tap.h"

static struct rf_compare_verdict judge(const char *name, const double *b, size_t nb, bool be,
				       const double *n, size_t nn, bool ne)
{
	struct rf_compare_verdict v;

	if (compare_judge(name, b, nb, be, n, nn, ne, &v))
		memset(&v, 0, sizeof(v));
	return v;
}

static void test_sample_count(void)
{
	double b[] = { 100 }, n[] = { 200 };
	double b3[] = { 100, 101, 99 }, n1[] = { 200 };

	ok(!judge("vmstat.pgscan_kswapd", b, 1, false, n, 1, false).compared,
	   "measured stat, 1 run each side: not compared (LKP wants 3 runs on one side)");
	ok(judge("cost.estimated_ns", b, 1, true, n, 1, true).changed,
	   "exact model counter, 1 run each side: +100%% shows");
	ok(judge("run.wall_seconds", b3, 3, false, n1, 1, false).changed,
	   "3 base runs against 1: +100%% shows");
}

static void test_separation(void)
{
	double base[] = { 100, 102, 98, 101, 99 };
	double apart[] = { 110, 111, 109, 112, 110 };
	double overlap[] = { 100, 130, 97, 125, 101 };

	ok(judge("cost.estimated_ns", base, 5, false, apart, 5, false).changed,
	   "samples beyond each other's median: +10%% shows");
	ok(!judge("cost.estimated_ns", base, 5, false, overlap, 5, false).separated,
	   "new samples straddle the base median: mean +10%% does not show");
}

static void test_trimming(void)
{
	double base[40], new[40];
	size_t i;

	/* 40 samples: margin 40 >> 5 = 1, so one wild sample per end is dropped */
	for (i = 0; i < 40; i++) {
		base[i] = 1000 + (double)(i % 5);
		new[i] = 1100 + (double)(i % 5);
	}
	new[0] = 10;
	ok(judge("cost.estimated_ns", base, 40, false, new, 40, false).changed,
	   "one outlier in 40 runs is trimmed: +10%% still shows");
	new[1] = 20;
	ok(!judge("cost.estimated_ns", base, 40, false, new, 40, false).changed,
	   "two outliers at the same end in 40 runs are not all trimmed: does not show");
}

static void test_ratio(void)
{
	double b[] = { 100000 }, small[] = { 100900 }, big[] = { 101100 };

	ok(!judge("cost.estimated_ns", b, 1, true, small, 1, true).changed,
	   "exact +0.9%%: below the 1.01 ratio, does not show");
	ok(judge("cost.estimated_ns", b, 1, true, big, 1, true).changed,
	   "exact +1.1%%: above the 1.01 ratio, shows");
	ok(!judge("slabinfo.dentry.num_objs", b, 1, true, (double[]){ 104000 }, 1, true).changed,
	   "non-perf stat +4%%: below the 1.05 ratio, does not show");
	ok(judge("slabinfo.dentry.num_objs", b, 1, true, (double[]){ 106000 }, 1, true).changed,
	   "non-perf stat +6%%: shows");
}

static void test_thresholds(void)
{
	double b[] = { 300, 310, 290 }, n[] = { 600, 610, 590 };
	double bb[] = { 3000, 3100, 2900 }, nb[] = { 6000, 6100, 5900 };

	ok(!judge("vmstat.pgactivate", b, 3, false, n, 3, false).changed,
	   "measured proc-vmstat counter at max 610 (< 1000): hidden as noise");
	ok(judge("vmstat.pgactivate", bb, 3, false, nb, 3, false).changed,
	   "measured proc-vmstat counter at max 6100: shows");
	ok(judge("vmstat.pgactivate", (double[]){ 300 }, 1, true, (double[]){ 600 }, 1, true).changed,
	   "exact model counter at 600: shows (no noise to hide)");
	ok(!judge("vmstat.nr_active_file", (double[]){ 40, 41, 39 }, 3, false,
		  (double[]){ 90, 91, 89 }, 3, false).changed,
	   "measured nr_* under the threshold of 100: hidden");
}

static void test_failure_stat(void)
{
	double none[] = { 0, 0, 0, 0 }, some[] = { 1, 0, 1, 1 };

	ok(judge("dmesg.WARNING:at_mm/vmscan.c", none, 4, false, some, 4, false).changed,
	   "failure stat that appears on one side: shows");
	ok(!judge("dmesg.WARNING:at_mm/vmscan.c", some, 4, false, some, 4, false).changed,
	   "failure stat on both sides: does not show");
}

static void test_formats(void)
{
	char buf[64];

	compare_format_value(buf, sizeof(buf), 30248004, 0);
	is_str(buf, "  30248004      ", "value 1000..1e8: %%10d, no stddev");
	compare_format_value(buf, sizeof(buf), 24.47, 0.1);
	is_str(buf, "     24.47      ", "value < 1000: %%10.2f; 0.4%% stddev hidden");
	compare_format_value(buf, sizeof(buf), 2.89e12, 2.89e12 * 0.18);
	is_str(buf, "  2.89e+12 \u00b1 18%", "value > 1e8: %%10.4g; stddev 18%%");
	compare_format_value(buf, sizeof(buf), 1250.9, -1);
	is_str(buf, "      1250      ", "Ruby's %%d truncates");
	compare_format_change(buf, sizeof(buf), 100, 83.96, false);
	is_str(buf, "     -16.0% ", "change: %%+10.1f%%");
	compare_format_change(buf, sizeof(buf), 24.47, 17.27, true);
	is_str(buf, "      -7.2  ", "absolute change for %% keys");
	/* where LKP's numbers mean nothing: "+1e+103%" from a zero base, "+1.2e+05%" */
	compare_format_change(buf, sizeof(buf), 0, 35, false);
	is_str(buf, "     from 0 ", "change from a zero base: 'from 0', not LKP's 1e-100 giant");
	compare_format_change(buf, sizeof(buf), 0, 0, false);
	is_str(buf, "      +0.0% ", "nothing against nothing: +0.0%%, not -100%%");
	compare_format_change(buf, sizeof(buf), 4, 5000, false);
	is_str(buf, "      x1250 ", "change >= 100000%%: the ratio, x1250");
	compare_format_change(buf, sizeof(buf), 1, 3.5e9, false);
	is_str(buf, "   x3.5e+09 ", "a ratio past 10^7 in %%g");
	compare_format_change(buf, sizeof(buf), 10, 9999.9, false);
	is_str(buf, "  +99899.0% ", "below 100000%%: LKP's %%+10.1f%%");
}

static void test_few_runs(void)
{
	double b2[] = { 76000, 77600 }, n2[] = { 33100, 34500 }, o2[] = { 70000, 80000 };
	double b1[] = { 100 }, n1[] = { 200 };
	struct rf_compare_verdict v;

	v = judge("vmstat.workingset_refault_file", b2, 2, false, n2, 2, false);
	ok(!v.compared && !v.changed && v.few_runs && v.apparent,
	   "2 runs against 2, apart, -56%%: not LKP's change, but apparent (shown, marked)");
	v = judge("vmstat.workingset_refault_file", b2, 2, false, o2, 2, false);
	ok(v.few_runs && !v.apparent, "2 runs against 2 that overlap: not apparent");
	v = judge("vmstat.pgactivate", (double[]){ 300, 310 }, 2, false,
		  (double[]){ 600, 610 }, 2, false);
	ok(v.few_runs && !v.apparent, "2 against 2 under LKP's floor (max 610 < 1000): not apparent");
	v = judge("run.wall_seconds", b1, 1, false, n1, 1, false);
	ok(v.few_runs && !v.apparent, "1 run against 1 says nothing of the spread: not apparent");
	v = judge("vmstat.pgscan_kswapd", (double[]){ 82184, 82177 }, 2, false,
		  (double[]){ 82184 }, 1, false);
	ok(v.few_runs && !v.apparent, "2 against 1, the same: not apparent");
}

int main(void)
{
	plan(35);
	test_sample_count();
	test_separation();
	test_trimming();
	test_ratio();
	test_thresholds();
	test_failure_stat();
	test_formats();
	test_few_runs();
	ok(compare_stddev((double[]){ 2, 4, 4, 4, 5, 5, 7, 9 }, 8) == 2.0,
	   "population stddev (divides by n)");
	ok(compare_stddev((double[]){ 5 }, 1) < 0, "one sample: no stddev");
	return done_testing();
}
