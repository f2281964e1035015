/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --damon: a DAMON monitor of the recorded process's virtual address space,
 * set up through the kernel's sysfs interface (mm/damon/sysfs.c, v5.18+:
 * /sys/kernel/mm/damon/admin/kdamonds/), whose damon:damon_aggregated
 * tracepoint (mm/damon/core.c kdamond_reset_aggregated()) the drain instance
 * records: per region and aggregation interval, how many of the sampled
 * accessed-bit checks (mm/damon/vaddr.c damon_va_check_accesses()) found the
 * region's sampled page accessed.  It is how refault learns of references to
 * mapped pages that raise no fault.
 *
 * The recorder takes the interface only when no kdamond is configured
 * (nr_kdamonds is 0: no other user), and gives it back at the end
 * (state off, nr_kdamonds 0).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <refault/errors.h>

#include "recorder/record-local.h"

#define DAMON_ADMIN	"/sys/kernel/mm/damon/admin/kdamonds"
#define KDAMOND		DAMON_ADMIN "/0"
#define CONTEXT		KDAMOND "/contexts/0"

/* Held while the recorder has DAMON's interface: rec_damon_stop() gives it back. */
struct rf_damon {
	pid_t pid;		/* the process its kdamond monitors */
};

/* A knob's value, its newline dropped. */
static int sysfs_read(const char *path, char *buf, size_t len)
{
	int err = rec_knob_read(path, buf, len);

	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/* Whether the space-separated list @list has the word @w. */
static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = strstr(list, w); p; p = strstr(p + 1, w))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* Give the interface back: the kdamond off (it stops synchronously), no kdamond left. */
static void release(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	rec_knob_write(KDAMOND "/state", "off");
	for (i = 0; i < 100 && rec_knob_write(DAMON_ADMIN "/nr_kdamonds", "0") == -EBUSY; i++)
		nanosleep(&ts, NULL);
}

/* Each step: a knob, the value; a message naming the file on failure. */
static int step(const char *file, const char *val, char *msg, size_t len)
{
	int err = rec_knob_write(file, val);

	if (err)
		snprintf(msg, len, "DAMON: cannot write '%s' to %s: %s", val, file,
			 rf_strerror(err));
	return err;
}

static int step_u64(const char *file, uint64_t v, char *msg, size_t len)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
	return step(file, val, msg, len);
}

int rec_damon_start(struct rf_damon **out, const struct rf_damon_cfg *cfg, char *msg, size_t len)
{
	char buf[256];
	int err;

	*out = NULL;
	if (!cfg->sample_us || cfg->aggr_us < cfg->sample_us) {
		snprintf(msg, len, "DAMON: the aggregation interval must be at least the sampling one");
		return RF_ERR_INVAL;
	}
	err = sysfs_read(DAMON_ADMIN "/nr_kdamonds", buf, sizeof(buf));
	if (err) {
		snprintf(msg, len, "--damon: this kernel has no DAMON sysfs interface (%s: %s; "
			 "CONFIG_DAMON_SYSFS, v5.18 and later)", DAMON_ADMIN "/nr_kdamonds",
			 rf_strerror(err));
		return err == -ENOENT ? RF_ERR_UNSUPPORTED : err;
	}
	if (strcmp(buf, "0")) {
		snprintf(msg, len, "--damon: DAMON's sysfs interface already has %s kdamond(s) set "
			 "up (another tool, or a recorder that was killed); refault record takes it "
			 "only when free ('echo off > %s/N/state; echo 0 > %s/nr_kdamonds' frees it)",
			 buf, DAMON_ADMIN, DAMON_ADMIN);
		return -EBUSY;
	}
	err = step(DAMON_ADMIN "/nr_kdamonds", "1", msg, len) ?:
	      step(KDAMOND "/contexts/nr_contexts", "1", msg, len);
	if (!err && !sysfs_read(CONTEXT "/avail_operations", buf, sizeof(buf)) &&
	    !has_word(buf, "vaddr")) {
		snprintf(msg, len, "--damon: this kernel's DAMON has no virtual address space "
			 "monitoring (avail_operations: %s; CONFIG_DAMON_VADDR)", buf);
		err = RF_ERR_UNSUPPORTED;
	}
	err = err ?: step(CONTEXT "/operations", "vaddr", msg, len);
	/* aggr_us before sample_us would not matter: DAMON checks them at "on" */
	err = err ?: step_u64(CONTEXT "/monitoring_attrs/intervals/sample_us", cfg->sample_us, msg,
			      len);
	err = err ?: step_u64(CONTEXT "/monitoring_attrs/intervals/aggr_us", cfg->aggr_us, msg, len);
	/* the regions follow the mappings at every aggregation: the workload execs after start */
	err = err ?: step_u64(CONTEXT "/monitoring_attrs/intervals/update_us", cfg->aggr_us, msg,
			      len);
	err = err ?: step(CONTEXT "/targets/nr_targets", "1", msg, len);
	err = err ?: step_u64(CONTEXT "/targets/0/pid_target", (uint64_t)cfg->pid, msg, len);
	err = err ?: step(KDAMOND "/state", "on", msg, len);
	if (err) {
		release();
		return err;
	}
	*out = calloc(1, sizeof(**out));
	if (!*out) {
		release();
		return RF_ERR_NOMEM;
	}
	(*out)->pid = cfg->pid;
	return 0;
}

void rec_damon_stop(struct rf_damon *d)
{
	if (!d)
		return;
	release();
	free(d);
}
