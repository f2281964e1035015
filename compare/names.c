/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a metric is, by its name, following lkp-tests: etc/perf-metrics-prefixes,
 * etc/perf-metrics-threshold.yaml, the failure/pass stat lists and
 * reasonable_perf_change?().  The rules look at the LKP spelling of a name,
 * so our "vmstat.workingset_refault_file" is judged as LKP's
 * "proc-vmstat.workingset_refault_file".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

const char *compare_lkp_name(const char *name, char *buf, size_t len)
{
	if (starts(name, "vmstat.") && !strchr(name + 7, '.')) {
		snprintf(buf, len, "proc-%s", name);
		return buf;
	}
	return name;
}

const char *compare_from_lkp_name(const char *name, char *buf, size_t len)
{
	if (starts(name, "proc-vmstat.") && !strchr(name + 12, '.')) {
		snprintf(buf, len, "%s", name + 5);
		return buf;
	}
	return name;
}

/* etc/failure and etc/pass, reduced to the patterns that name whole families. */
bool compare_is_function_stat(const char *name)
{
	static const char *const prefixes[] = { "dmesg.", "kmsg.", "last_state.", "stderr." };
	static const char *const suffixes[] = { ".fail", ".pass", ".error", ".warn" };
	size_t i;

	if (strstr(name, ".time.") || strstr(name, ".timestamp:") || strstr(name, ".bootstage:"))
		return false;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (starts(name, prefixes[i]))
			return true;
	for (i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends(name, suffixes[i]))
			return true;
	return false;
}

bool compare_is_test_group(const char *group)
{
	static const char *const tests[] = {
		"cost", "vm-scalability", "will-it-scale", "stress-ng", "fio-basic", "unixbench",
		"hackbench", "netperf", "ebizzy", "fileio", "aim7", "aim9", "reaim", "pft",
		"pbzip2", "fsmark", "filebench", "phoronix-test-suite", "kernbench", "pmbench",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tests); i++)
		if (!strcmp(group, tests[i]))
			return true;
	return false;
}

static size_t group_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

/* etc/perf-metrics-prefixes, plus every benchmark's own stats, plus refault's own groups. */
bool compare_is_perf_metric(const char *name)
{
	static const char *const prefixes[] = {
		"boot-time.", "boot-slabinfo.", "energy.", "iostat.", "perf-stat.", "pmeter.",
		"proc-vmstat.", "vmstat.cpu.", "vmstat.io.", "vmstat.swap.", "vmstat.system.",
		"interrupts.CAL:Function_call_interrupts", "turbostat.PkgWatt",
		"turbostat.RAMWatt", "turbostat.%Busy", "turbostat.Bzy_MHz",
		/* refault's own: the model is the benchmark */
		"cost.", "memcg.", "gauge.", "replay.", "run.",
	};
	char buf[512], group[128];
	const char *lkp = compare_lkp_name(name, buf, sizeof(buf));
	size_t i, g = group_len(lkp);

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (starts(lkp, prefixes[i]))
			return true;
	if (g >= sizeof(group))
		return false;
	memcpy(group, lkp, g);
	group[g] = 0;
	return compare_is_test_group(group);
}

bool compare_is_absolute_change(const char *name)
{
	return starts(name, "perf-profile") || ends(name, "%");
}

/* etc/perf-metrics-threshold.yaml: four of its entries (docs/compare.md), first match wins. */
static bool threshold_for(const char *lkp, double *v, bool *integer)
{
	const char *vm = strstr(lkp, "vmstat");

	*integer = true;
	if (vm && strstr(vm, "nr_")) {
		*v = 100;		/* .*vmstat.*nr_.* */
		return true;
	}
	if (!strcmp(lkp, "proc-vmstat.allocstall") || starts(lkp, "interrupts.")) {
		*v = 100;
		return true;
	}
	if (starts(lkp, "perf-profile.")) {
		*v = 1;
		return true;
	}
	return false;
}

/* lkp-tests/lib/stats.rb reasonable_perf_change?(name, delta, max). */
bool compare_reasonable_change(const char *name, double delta, double max)
{
	char buf[512];
	const char *lkp = compare_lkp_name(name, buf, sizeof(buf));
	double v;
	bool integer;

	if (threshold_for(lkp, &v, &integer))
		return !(max < v) && !(integer && delta < v / 2);
	if (starts(lkp, "iostat"))
		return max > 1;
	if (starts(lkp, "pagetypeinfo") || starts(lkp, "buddyinfo") || starts(lkp, "slabinfo"))
		return delta > 100;
	if (starts(lkp, "proc-vmstat") || strstr(lkp, "meminfo"))
		return max > 1000;
	if (starts(lkp, "lock_stat"))
		return delta > 10000;
	if (starts(lkp, "interrupts") || starts(lkp, "softirqs"))
		return max > 10000;
	return true;
}

/*
 * The headline counters a kernel developer reads first: refaults, scans,
 * steals and activations, of the whole model (vmstat.*, today's names in
 * every profile) and of the recorded cgroup (memcg.recorded.*).
 */
static const char *const headline[] = {
	"workingset_refault_file", "workingset_refault_anon", "pgscan_kswapd", "pgscan_direct",
	"pgsteal_kswapd", "pgsteal_direct", "pgactivate", "workingset_activate_file",
	"workingset_activate_anon",
};

int compare_headline_rank(const char *name)
{
	static const char *const scopes[] = { "vmstat.", "memcg.recorded." };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(scopes); i++) {
		if (!starts(name, scopes[i]))
			continue;
		for (j = 0; j < ARRAY_SIZE(headline); j++)
			if (!strcmp(name + strlen(scopes[i]), headline[j]))
				return (int)(i * ARRAY_SIZE(headline) + j);
	}
	return -1;
}

bool compare_is_decision_stat(const char *name)
{
	return !starts(name, "cost.") && !starts(name, "replay.") && !starts(name, "run.");
}

static const char *find_any(const struct rf_compare_side *sides, size_t nsides, const char *name)
{
	size_t i;

	for (i = 0; i < nsides; i++) {
		const struct rf_compare_metric *m = compare_side_find(&sides[i], name);

		if (m)
			return m->name;
	}
	return NULL;
}

/* A profile's kernel name for a metric the results store under today's name. */
static const char *find_alias(const struct rf_compare_side *sides, size_t nsides, const char *name)
{
	size_t i, j;

	for (i = 0; i < nsides; i++)
		for (j = 0; j < sides[i].nalias; j++)
			if (!strcmp(sides[i].alias[j].kernel_name, name))
				return find_any(sides, nsides, sides[i].alias[j].name);
	return NULL;
}

/* @full is "<something>.@name" */
static bool ends_at_dot(const char *full, const char *name)
{
	size_t a = strlen(full), b = strlen(name);

	return a > b && full[a - b - 1] == '.' && !strcmp(full + a - b, name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_candidate(char *cands, size_t len, const char *full)
{
	size_t used = len ? strlen(cands) : 0;

	if (used + 1 < len)
		snprintf(cands + used, len - used, "%s%s", used ? ", " : "", full);
}

const char *compare_resolve(const struct rf_compare_side *sides, size_t nsides, const char *name,
			    char *cands, size_t len)
{
	static const char *const preferred[] = { "memcg.recorded.%s", "vmstat.%s" };
	const char *found = NULL, *hit, **all;
	size_t i, j, n = 0, k = 0, total = 0;
	char full[512];

	if (len)
		cands[0] = 0;
	hit = find_any(sides, nsides, name);
	if (!hit)
		hit = find_alias(sides, nsides, name);
	for (i = 0; !hit && i < ARRAY_SIZE(preferred); i++) {
		snprintf(full, sizeof(full), preferred[i], name);
		hit = find_any(sides, nsides, full);
		if (!hit)
			hit = find_alias(sides, nsides, full);
	}
	if (hit)
		return hit;
	/* the metrics it ends, each once however many columns have it: sorted, n log n */
	for (i = 0; i < nsides; i++)
		total += sides[i].nm;
	all = calloc(total + 1, sizeof(*all));
	if (!all)
		return NULL;
	for (i = 0; i < nsides; i++)
		for (j = 0; j < sides[i].nm; j++)
			if (ends_at_dot(sides[i].m[j].name, name))
				all[k++] = sides[i].m[j].name;
	qsort(all, k, sizeof(*all), name_cmp);
	for (i = 0; i < k; i++) {
		if (i && !strcmp(all[i], all[i - 1]))
			continue;
		found = all[i];
		n++;
		add_candidate(cands, len, all[i]);
	}
	free(all);
	if (n == 1 && len)
		cands[0] = 0;
	if (n == 1)
		return found;
	return NULL;
}
