/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for `refault report`'s attribution (report/): the input
 * is a program of events, 12 bytes each, over a few pids, files, pages,
 * pfns and cgroups, so that adds, deletes, activations, invalidations,
 * renames and reclaim meet in every order, and call stacks (a few frame
 * ids, stacks of 0 to 4 of them, named twice, or never, or after their use)
 * meet the views of stacks.  They are written as a trace (in a memfd) and
 * reported for the kernel and the v6.18 model in the view the first byte
 * picks, as a table, JSON, HTML and (views of stacks) folded stacks.
 * Beyond "no crash", the target aborts when the report breaks a promise of
 * report.h: a source's totals are its rows' sums plus what it left
 * unattributed (with --children, its rows' self counts', and no row's
 * children above the attributed total or below its self), rows come
 * sorted, and the folded stacks add up to the attributed total.
 *
 *   byte 0      bits 0-1: 0 the file view (bit 4: a heatmap of 1 + bits 5-7 columns and 1 to
 *               8 rows); else with bit 5 clear cgroup, pid, comm, with it set callsite (the
 *               innermost bits 6-7 frames, 0: all), symbol, symbol --children;
 *               bits 2-3 the sort metric
 *   then        [kind pid ino idx_lo idx_hi order pfn_lo pfn_hi cgroup nr advice x]...
 *               a reference's stack id: x bits 2-4 (0: none), UINT32_MAX less them when
 *               bits 5-7 are all set; name_frame: id ino & 7, dso idx_lo (bit 4: a
 *               library's), symbol advice, file idx_hi (bit 3 set: none), line nr;
 *               name_stack: id ino & 7 (past UINT32_MAX with advice bit 7), nr % 5
 *               frames, their ids idx_lo..pfn_hi & 7
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refault/trace.h>

#include "replayer/observe/observe.h"
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
/* frames' names: the keys' own separators and brackets, markup, bytes that are not UTF-8 */
static const char *const fnames[] = { "main", "f;g", "a <- b", "[no stack]", "<b>&amp;",
				      "", "\x1b[31m\xff", "read_file" };

static const char *fname(uint8_t b)
{
	return b & 8 ? NULL : fnames[b & 7];
}

/* One record into an event (@c and @frames hold what it points to); false for none. */
static bool decode(const uint8_t *b, uint64_t t, struct rf_event *ev, struct rf_counter *c,
		   uint64_t *frames)
{
	static const uint16_t kinds[] = {
		RF_EV_PAGECACHE_ADD, RF_EV_PAGECACHE_ADD, RF_EV_PAGECACHE_DEL, RF_EV_PAGECACHE_DEL,
		RF_EV_LRU_ACTIVATE, RF_EV_FILE_READ, RF_EV_FILE_FAULT, RF_EV_ANON_FAULT,
		RF_EV_FADVISE, RF_EV_TRUNCATE, RF_EV_NAME_PID, RF_EV_NAME_FILE, RF_EV_CGROUP_MKDIR,
		RF_EV_FORK, RF_EV_EXEC, RF_EV_COUNTERS, RF_EV_EXIT, RF_EV_MMAP,
		RF_EV_NAME_FRAME, RF_EV_NAME_STACK, RF_EV_FILE_WRITE,
	};
	unsigned int i;
	uint64_t idx = b[3] | (uint64_t)b[4] << 8, pfn = b[6] | (uint64_t)b[7] << 8;

	*ev = (struct rf_event){ .time = t, .cpu = b[11] & 1, .pid = b[1] & 15,
				 .type = kinds[b[0] % (sizeof(kinds) / sizeof(kinds[0]))] };
	if (ev->type == RF_EV_FILE_READ || ev->type == RF_EV_FILE_WRITE ||
	    ev->type == RF_EV_FILE_FAULT || ev->type == RF_EV_ANON_FAULT) {
		ev->stack = (b[11] >> 2) & 7;
		if ((b[11] >> 5) == 7)
			ev->stack = UINT32_MAX - ev->stack;
	}
	switch (ev->type) {
	case RF_EV_NAME_FRAME:
		ev->u.frame.id = b[2] & 7;
		ev->u.frame.addr = idx << 4;
		ev->u.frame.dso = b[3] & 16 ? "/usr/lib/libc.so.6" : fname(b[3]);
		ev->u.frame.symbol = fname(b[10]);
		ev->u.frame.file = fname(b[4]);
		ev->u.frame.line = b[9];
		return true;
	case RF_EV_NAME_STACK:
		ev->u.stack.id = (b[2] & 7) + (b[10] & 0x80 ? (uint64_t)UINT32_MAX : 0);
		ev->u.stack.nr_frames = b[9] % 5;
		for (i = 0; i < ev->u.stack.nr_frames; i++)
			frames[i] = b[3 + i] & 7;
		ev->u.stack.frames = frames;
		return true;
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

/* Source @s's folded stacks: their counts' sum, each line "STACK COUNT", no newline in STACK. */
static uint64_t folded_sum(const struct rf_report *r, size_t s)
{
	char *buf = NULL, *line, *save = NULL, *sp;
	size_t len = 0;
	uint64_t sum = 0;
	FILE *f = open_memstream(&buf, &len);

	check(f && !rf_report_print_folded(r, f, s), "folded stacks printed");
	check(!fclose(f), "folded stacks printed");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sp = strrchr(line, ' ');
		check(sp && sp > line && sp[1], "a folded line: STACK COUNT");
		sum += strtoull(sp + 1, NULL, 10);
	}
	free(buf);
	return sum;
}

static void check_report(const struct rf_report *r, enum rf_report_metric sort, bool stacks)
{
	size_t s, i, m, n = rf_report_nr_rows(r);
	bool children = rf_report_children(r);

	for (s = 0; s < rf_report_nr_sources(r); s++) {
		const uint64_t *t = rf_report_total(r, s), *u = rf_report_unattributed(r, s);
		uint64_t sum[RF_REPORT_NR_METRICS] = { 0 };

		for (i = 0; i < n; i++) {
			struct rf_report_row row = rf_report_row(r, i);

			for (m = 0; m < RF_REPORT_NR_METRICS; m++) {
				sum[m] += row.self[s][m];
				if (!children)
					check(row.self[s][m] == row.v[s][m], "self is the row itself");
				check(row.self[s][m] <= row.v[s][m] && row.v[s][m] <= t[m] - u[m],
				      "a row's self <= its count <= the attributed total");
			}
		}
		for (m = 0; m < RF_REPORT_NR_METRICS; m++)
			check(sum[m] + u[m] == t[m], "totals are the rows (self) plus the unattributed");
		if (stacks)
			check(folded_sum(r, s) == t[sort] - u[sort],
			      "the folded stacks add up to the attributed total");
	}
	for (i = 1; i < n; i++)
		check(rf_report_row(r, i - 1).v[0][sort] >= rf_report_row(r, i).v[0][sort],
		      "rows sorted by the baseline's metric");
}

/* byte 0's view (see the header) */
static void pick_view(uint8_t b, struct rf_report_opts *o)
{
	static const enum rf_report_by views[] = {
		RF_REPORT_BY_CGROUP, RF_REPORT_BY_PID, RF_REPORT_BY_COMM,
		RF_REPORT_BY_CALLSITE, RF_REPORT_BY_SYMBOL, RF_REPORT_BY_SYMBOL,
	};
	unsigned int v = b & 3;

	o->by = RF_REPORT_BY_FILE;
	if (v) {
		v = v - 1 + (b & 0x20 ? 3 : 0);
		o->by = views[v];
		o->children = v == 5;
		o->callsite_depth = o->by == RF_REPORT_BY_CALLSITE ? b >> 6 : 0;
	}
}

/*
 * The pages of the folios an event names, as the kernel's account counts them
 * (report/kernel.c folio_pages(): orders past RF_OBS_MAX_ORDER clamped).
 */
static uint64_t event_pages(const struct rf_event *ev)
{
	unsigned int order;

	switch (ev->type) {
	case RF_EV_LRU_ACTIVATE:
		order = ev->u.lru.order;
		break;
	case RF_EV_PAGECACHE_ADD:
	case RF_EV_PAGECACHE_DEL:
	case RF_EV_FILE_READ:
	case RF_EV_FILE_WRITE:
	case RF_EV_FILE_FAULT:
	case RF_EV_FADVISE:
	case RF_EV_TRUNCATE:
		order = ev->u.file.order;
		break;
	default:
		return 0;
	}
	return 1ull << (order > RF_OBS_MAX_ORDER ? RF_OBS_MAX_ORDER : order);
}

/*
 * Under libFuzzer (which calls LLVMFuzzerInitialize(); fuzz-regress.c does
 * not), at most 8,192 folio pages an input, counted as above, twice the
 * trace's 4 MiB of memory: programs of hundreds of events of folios up to
 * order 18 (262,144 pages, each charged, reclaimed and counted by the model
 * and the account, the account following the first 2^13 of each) took 50 ms
 * an execution, 20 a second; 150 a second with 65,536 pages and 16 MiB (200
 * from the 2026-12-04 corpus), 310 with these, reclaim as busy.  (Counting
 * only the pages the account follows admitted more of them: 63 a second.)
 * The regression run replays every seed and past finding whole (the
 * largest: 5.6 M pages), and so the clamp of orders past RF_OBS_MAX_ORDER
 * too.
 */
static uint64_t max_pages = UINT64_MAX;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	max_pages = 8192;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rf_trace_header h;
	struct rf_trace_writer *w = NULL;
	struct rf_report *r = NULL;
	struct rf_report_opts o = { .sources = "kernel,v6.18", .threads = 1 };
	struct rf_counter c;
	struct rf_event ev;
	uint64_t frames[4];
	char path[64], err[512];
	size_t i;
	int fd;

	uint64_t pages = 0;

	if (!size || size > 64 * 1024)
		return 0;
	for (i = 1; i + REC <= size; i += REC)
		if (decode(data + i, i, &ev, &c, frames) && (pages += event_pages(&ev)) > max_pages)
			return 0;
	pick_view(data[0], &o);
	o.sort = (data[0] >> 2) % RF_REPORT_NR_METRICS;
	o.heatmap = o.by == RF_REPORT_BY_FILE && (data[0] & 0x10);
	o.heat_cols = 1 + (data[0] >> 5);
	o.heat_rows = 1 + (size & 7);
	fd = memfile(NULL, 0, path, sizeof(path));
	check(fd >= 0, "a memfd");
	rf_trace_header_init(&h, "fuzz-report");
	h.host.page_size = 4096;
	h.host.cpus = 2;
	h.host.mem_bytes = 4u << 20;	/* small: reclaim runs */
	check(!rf_trace_writer_fdopen(&w, fd, &h, NULL), "a trace writer");
	for (i = 1; i + REC <= size; i += REC)
		if (decode(data + i, i, &ev, &c, frames))
			check(!rf_trace_writer_append(w, &ev), "a valid event written");
	check(!rf_trace_writer_close(w), "the trace closed");
	o.trace_path = path;
	if (!rf_report_run(&o, &r, err, sizeof(err))) {
		struct quiet q = quiet_begin();

		check_report(r, o.sort, o.by == RF_REPORT_BY_CALLSITE || o.by == RF_REPORT_BY_SYMBOL);
		rf_report_print(r, stdout, 0);
		rf_report_print_heatmap(r, stdout);
		rf_report_print_json(r, stdout);
		rf_report_write_html(r, stdout, 0);
		quiet_end(q);
	}
	rf_report_free(r);
	close(fd);
	return 0;
}
