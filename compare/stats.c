/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LKP's statistics (lkp-tests/lib/statistics.rb, lkp-tests/lib/stats.rb, lkp-tests/lib/changed_stat.rb):
 * the displayed mean and population stddev, and the "is this a real
 * change?" decision on sorted, trimmed samples and their medians.
 *
 * One adaptation, for refault's deterministic model counters: LKP ignores a
 * regular stat unless one side has at least 3 runs, because fewer runs say
 * nothing about noise.  An exact counter has no noise, so one sample of it
 * is as good as any number: two exact sides are compared whatever the run
 * count.  Everything else is LKP's rule unchanged.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

#define MARGIN_SHIFT	5
#define MAX_RATIO	5.0

double compare_mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : 0;
}

double compare_stddev(const double *v, size_t n)
{
	double mean = compare_mean(v, n), var = 0;
	size_t i;

	if (n < 2)
		return -1;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	return sqrt(var / (double)n);
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* sort_remove_margin() + min_mean_max(): "mean" there is the middle element. */
int compare_summarize(struct rf_compare_summary *s, const double *v, size_t n, size_t max_margin)
{
	size_t margin = n >> MARGIN_SHIFT;

	memset(s, 0, sizeof(*s));
	if (margin > max_margin)
		margin = max_margin;
	s->sorted = malloc((n ? n : 1) * sizeof(*s->sorted));
	if (!s->sorted)
		return RF_ERR_NOMEM;
	memcpy(s->sorted, v, n * sizeof(*v));
	qsort(s->sorted, n, sizeof(*v), dbl_cmp);
	if (n <= 2 * margin) {
		s->n = 0;
		return 0;
	}
	memmove(s->sorted, s->sorted + margin, (n - 2 * margin) * sizeof(*v));
	s->n = n - 2 * margin;
	s->min = s->sorted[0];
	s->median = s->sorted[s->n / 2];
	s->max = s->sorted[s->n - 1];
	return 0;
}

void compare_summary_release(struct rf_compare_summary *s)
{
	free(s->sorted);
	s->sorted = NULL;
}

/* LKP::ChangedStat#change? without options: each side lies beyond the other's median. */
static bool separated(const struct rf_compare_summary *a, const struct rf_compare_summary *b)
{
	return (b->min > a->median && b->median > a->max) ||
	       (a->min > b->median && a->median > b->max);
}

/* calc_stats_metrics(): ratio and delta of the medians, high over low. */
static void magnitude(const struct rf_compare_summary *a, const struct rf_compare_summary *b,
		      struct rf_compare_verdict *out)
{
	const struct rf_compare_summary *hi = a->median > b->median ? a : b;
	const struct rf_compare_summary *lo = hi == a ? b : a;

	out->delta = hi->median - lo->median;
	out->ratio = lo->median > 0 ? hi->median / lo->median : MAX_RATIO;
	if (out->ratio > MAX_RATIO)
		out->ratio = MAX_RATIO;
}

/* skip_small_change?(): the minimum ratios, then the absolute thresholds. */
static const char *small_change(const char *name, const struct rf_compare_verdict *v, double max,
				bool exact)
{
	if (!(v->ratio > 1.01))
		return "ratio of medians <= 1.01";
	if (!(v->ratio > 1.05) && !compare_is_perf_metric(name))
		return "ratio of medians <= 1.05 (not a perf metric)";
	/* The absolute floors hide small noisy counters; exact counters are not noisy. */
	if (!exact && !compare_reasonable_change(name, v->delta, max))
		return "below LKP's absolute threshold for this stat";
	return NULL;
}

static int judge_summaries(const char *name, const struct rf_compare_summary *sb,
			   const struct rf_compare_summary *sn, bool exact,
			   struct rf_compare_verdict *out)
{
	const char *small;

	out->compared = true;
	magnitude(sn, sb, out);
	if (compare_is_function_stat(name)) {
		out->separated = sn->max != sb->max;
		out->changed = out->separated;
		out->why = out->changed ? "appears on one side only" : "same failure count";
		return 0;
	}
	out->separated = separated(sn, sb);
	if (!out->separated) {
		out->why = "samples overlap the other side's median";
		return 0;
	}
	small = small_change(name, out, sn->max > sb->max ? sn->max : sb->max, exact);
	out->changed = !small;
	out->why = small ? small : "separated and large enough";
	return 0;
}

/*
 * Fewer than 3 runs on both sides: LKP judges nothing, for it cannot tell
 * a change from noise.  Yet when the samples (3 at least, both sides'
 * together: one against one says nothing of its spread) lie apart and the
 * change passes LKP's ratio and floors, it is shown as apparent, marked as
 * not judged against noise, rather than hidden as if nothing differed.
 */
static int judge_few(const char *name, const double *base, size_t nbase, const double *new,
		     size_t nnew, struct rf_compare_verdict *out)
{
	struct rf_compare_summary sb, sn;
	const char *small;
	int ret;

	out->few_runs = true;
	out->why = "fewer than 3 runs on both sides";
	if (!nbase || !nnew || nbase + nnew < 3)
		return 0;
	ret = compare_summarize(&sb, base, nbase, 0);
	if (ret)
		return ret;
	ret = compare_summarize(&sn, new, nnew, 0);
	if (!ret) {
		magnitude(&sn, &sb, out);
		out->separated = separated(&sn, &sb);
		small = out->separated ? small_change(name, out, fmax(sn.max, sb.max), false) :
			"samples overlap the other side's median";
		out->apparent = !small;
		out->why = small ? "fewer than 3 runs on both sides" :
			"fewer than 3 runs on both sides, so not judged against noise: the samples "
			"lie apart and past LKP's ratio and floors";
	}
	compare_summary_release(&sb);
	compare_summary_release(&sn);
	return ret;
}

int compare_judge(const char *name, const double *base, size_t nbase, bool base_exact,
		  const double *new, size_t nnew, bool new_exact, struct rf_compare_verdict *out)
{
	bool function = compare_is_function_stat(name);
	bool exact = base_exact && new_exact;
	size_t margin = function ? 0 : 3;
	struct rf_compare_summary sb, sn;
	int ret;

	memset(out, 0, sizeof(*out));
	out->ratio = 1;
	if (!function && !exact && nbase < 3 && nnew < 3)
		return judge_few(name, base, nbase, new, nnew, out);
	ret = compare_summarize(&sb, base, nbase, margin);
	if (!ret)
		ret = compare_summarize(&sn, new, nnew, nbase <= 3 && margin > 1 ? 1 : margin);
	else
		return ret;
	if (!ret && sb.n && sn.n)
		ret = judge_summaries(name, &sb, &sn, exact, out);
	else if (!ret)
		out->why = "no samples";
	compare_summary_release(&sb);
	compare_summary_release(&sn);
	return ret;
}
