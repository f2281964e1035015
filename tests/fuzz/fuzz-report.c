/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for `refault report`'s attribution (report/): the input
 * is a program of events, 12 bytes each, over a few pids, files, pages,
 * pfns and cgroups, so that adds, deletes, activations, invalidations,
 * renames and reclaim meet in every order.  They are written as a trace
 * (in a memfd) and reported for the kernel and the v6.18 model in the view
 * the first byte picks.  Beyond "no crash", the target aborts when the
 * report breaks a promise of report.h: a source's totals are its rows'
 * sums plus what it left unattributed, and rows come sorted.
 *
 *   byte 0      view (mod 4), sort metric (>> 2, mod 4), a heatmap of 1 to 8 columns and
 *               rows (bit 4) when the view is by file
 *   then        [kind pid ino idx_lo idx_hi order pfn_lo pfn_hi cgroup nr advice x]...
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refault/trace.h>

#include "report/report.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REC	12u

static void check(bool cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz-report: broken promise: %s\n", what);
		abort();
	}
}

static const char *const names[] = { "a", "bb", "ccc", "\x1b[31m", "d\xff", "", "e/f", "g" };

/* One record into an event; false for none. */
static bool decode(const uint8_t *b, uint64_t t, struct rf_event *ev, struct rf_counter *c)
{
	static const uint16_t kinds[] = {
		RF_EV_PAGECACHE_ADD, RF_EV_PAGECACHE_ADD, RF_EV_PAGECACHE_DEL, RF_EV_PAGECACHE_DEL,
		RF_EV_LRU_ACTIVATE, RF_EV_FILE_READ, RF_EV_FILE_FAULT, RF_EV_ANON_FAULT,
		RF_EV_FADVISE, RF_EV_TRUNCATE, RF_EV_NAME_PID, RF_EV_NAME_FILE, RF_EV_CGROUP_MKDIR,
		RF_EV_FORK, RF_EV_EXEC, RF_EV_COUNTERS, RF_EV_EXIT, RF_EV_MMAP,
	};
	uint64_t idx = b[3] | (uint64_t)b[4] << 8, pfn = b[6] | (uint64_t)b[7] << 8;

	*ev = (struct rf_event){ .time = t, .cpu = b[11] & 1, .pid = b[1] & 15,
				 .type = kinds[b[0] % (sizeof(kinds) / sizeof(kinds[0]))] };
	switch (ev->type) {
	case RF_EV_LRU_ACTIVATE:
		ev->u.lru.pfn = pfn;
		ev->u.lru.order = b[5] % 12;
		return true;
	case RF_EV_ANON_FAULT:
		ev->u.anon.mm = 1 + (b[2] & 3);
		ev->u.anon.addr = idx << 12;
		ev->u.anon.order = b[5] % 12 > 9 ? 9 : 0;
		return true;
	case RF_EV_NAME_PID:
	case RF_EV_FORK:
	case RF_EV_EXEC:
	case RF_EV_EXIT:
		ev->u.task.pid = b[2] & 15;
		ev->u.task.tgid = ev->u.task.pid;
		ev->u.task.mm = 1 + (b[3] & 3);
		ev->u.task.cgroup = b[8] & 7;
		ev->u.task.comm = names[b[10] & 7];
		return true;
	case RF_EV_NAME_FILE:
		ev->u.name_file.dev = 1;
		ev->u.name_file.ino = b[2] & 7;
		ev->u.name_file.path = names[b[10] & 7];
		return true;
	case RF_EV_CGROUP_MKDIR:
		ev->u.cgroup.id = b[8] & 7;
		ev->u.cgroup.parent = b[9] & 7;
		ev->u.cgroup.path = names[b[10] & 7];
		return true;
	case RF_EV_COUNTERS:
		c->name = b[10] & 1 ? "workingset_refault_file" : "pgsteal_kswapd";
		c->value = idx << (b[5] & 31);
		ev->u.counters.entries = c;
		ev->u.counters.nr = 1;
		ev->u.counters.source = b[9] % 3;
		ev->u.counters.cgroup = b[8] & 7;
		return true;
	case RF_EV_MMAP:
		ev->u.vma.mm = 1 + (b[2] & 3);
		ev->u.vma.addr = idx << 12;
		ev->u.vma.len = (uint64_t)(b[9] + 1) << 12;
		ev->u.vma.ino = b[3] & 7;
		ev->u.vma.dev = 1;
		return true;
	default:	/* the file events */
		ev->u.file.dev = 1;
		ev->u.file.ino = b[2] & 7;
		ev->u.file.index = idx;
		ev->u.file.order = b[5] % 24;	/* past the largest folio: clamped */
		ev->u.file.pfn = pfn;
		ev->u.file.cgroup = b[8] & 7;
		ev->u.file.nr = b[9];
		ev->u.file.advice = b[10] & 7;
		ev->u.file.mm = 1 + (b[11] & 3);
		return true;
	}
}

static void check_report(const struct rf_report *r, enum rf_report_metric sort)
{
	size_t s, i, m, n = rf_report_nr_rows(r);

	for (s = 0; s < rf_report_nr_sources(r); s++) {
		const uint64_t *t = rf_report_total(r, s), *u = rf_report_unattributed(r, s);
		uint64_t sum[RF_REPORT_NR_METRICS] = { 0 };

		for (i = 0; i < n; i++)
			for (m = 0; m < RF_REPORT_NR_METRICS; m++)
				sum[m] += rf_report_row(r, i).v[s][m];
		for (m = 0; m < RF_REPORT_NR_METRICS; m++)
			check(sum[m] + u[m] == t[m], "totals are the rows plus the unattributed");
	}
	for (i = 1; i < n; i++)
		check(rf_report_row(r, i - 1).v[0][sort] >= rf_report_row(r, i).v[0][sort],
		      "rows sorted by the baseline's metric");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rf_trace_header h;
	struct rf_trace_writer *w = NULL;
	struct rf_report *r = NULL;
	struct rf_report_opts o = { .sources = "kernel,v6.18", .threads = 1 };
	struct rf_counter c;
	struct rf_event ev;
	char path[64], err[512];
	size_t i;
	int fd;

	if (!size || size > 64 * 1024)
		return 0;
	o.by = data[0] % RF_REPORT_BY_NR;
	o.sort = (data[0] >> 2) % RF_REPORT_NR_METRICS;
	o.heatmap = o.by == RF_REPORT_BY_FILE && (data[0] & 0x10);
	o.heat_cols = 1 + (data[0] >> 5);
	o.heat_rows = 1 + (size & 7);
	fd = memfile(NULL, 0, path, sizeof(path));
	check(fd >= 0, "a memfd");
	rf_trace_header_init(&h, "fuzz-report");
	h.host.page_size = 4096;
	h.host.cpus = 2;
	h.host.mem_bytes = 16u << 20;	/* small: reclaim runs */
	check(!rf_trace_writer_fdopen(&w, fd, &h, NULL), "a trace writer");
	for (i = 1; i + REC <= size; i += REC)
		if (decode(data + i, i, &ev, &c))
			check(!rf_trace_writer_append(w, &ev), "a valid event written");
	check(!rf_trace_writer_close(w), "the trace closed");
	o.trace_path = path;
	if (!rf_report_run(&o, &r, err, sizeof(err))) {
		struct quiet q = quiet_begin();

		check_report(r, o.sort);
		rf_report_print(r, stdout, 0);
		rf_report_print_heatmap(r, stdout);
		rf_report_print_json(r, stdout);
		quiet_end(q);
	}
	rf_report_free(r);
	close(fd);
	return 0;
}
