/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The header of a recording's trace: the host, the scope and the cgroup
 * recorded, the command line, the sources the recorder enabled, the time
 * resolution and what identifies a folio (docs/trace-format.md, "Header").
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "recorder/record-local.h"
#include "recorder/session.h"

/* smaps' "Anonymous:" of the mapping that starts at @start, in kB; -1 if not found. */
static long smaps_anon_kb(uintptr_t start)
{
	char line[512], want[32];
	bool in = false;
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps", "re");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)start);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, strlen(want)))
			in = true;
		else if (in && sscanf(line, "Anonymous: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/*
 * What a read fault of anonymous memory never written does on this kernel
 * (the header's host.zero_page).  Linux maps the shared zero page
 * (do_anonymous_page(): "Use the zero-page for reads"), unless
 * mm_forbids_zeropage(), and some kernels built for virtual machines
 * allocate a page instead (6.18 on a PVM guest: 32 MiB read, 32 MiB of
 * anonymous pages).  Probed in the recorder, not in the host description
 * every reader of /proc shares: 64 base pages of a fresh mapping loaded,
 * and smaps counts its anonymous pages (the zero page is not one).
 */
static uint32_t probe_zero_page(void)
{
	const size_t n = 64;
	long pg = sysconf(_SC_PAGESIZE), kb;
	volatile const char *a;
	char *m;
	size_t i;
	unsigned int sum = 0;

	if (pg <= 0)
		return RF_ZERO_PAGE_UNKNOWN;
	m = mmap(NULL, n * (size_t)pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return RF_ZERO_PAGE_UNKNOWN;
	madvise(m, n * (size_t)pg, MADV_NOHUGEPAGE);	/* base pages: the huge zero page is THP's */
	a = m;
	for (i = 0; i < n; i++)
		sum += (unsigned char)a[i * (size_t)pg];
	kb = smaps_anon_kb((uintptr_t)m);
	munmap(m, n * (size_t)pg);
	if (kb < 0 || sum)
		return RF_ZERO_PAGE_UNKNOWN;
	/* all of them, or none; a half is neither */
	if (kb * 1024 >= (long)(n * (size_t)pg) * 3 / 4)
		return RF_ZERO_PAGE_NONE;
	return kb * 1024 <= (long)(n * (size_t)pg) / 4 ? RF_ZERO_PAGE_MAPS : RF_ZERO_PAGE_UNKNOWN;
}

/* "-a", "-G /grp", "-p 123", "-- cmd args", or a scope bounded by a command: "-a -- sleep 5". */
static void describe(const struct rf_record_session_opts *o, char *scope, size_t len)
{
	size_t off = 0;
	int i;

	scope[0] = 0;
	switch (o->rec.scope) {
	case RF_SCOPE_ALL: off = snprintf(scope, len, "-a "); break;
	case RF_SCOPE_CGROUP: off = snprintf(scope, len, "-G %s ", o->rec.cgroup); break;
	case RF_SCOPE_PID:
		if (!o->argv || o->bounded)
			off = snprintf(scope, len, "-p %d ", (int)o->rec.pid);
		break;
	}
	if (o->argv && off < len)
		off += snprintf(scope + off, len - off, "--");
	for (i = 0; o->argv && i < o->argc && off < len; i++)
		off += snprintf(scope + off, len - off, " %s", o->argv[i]);
	if (!o->argv && off && off <= len)
		scope[off - 1] = 0;	/* the space before a command there is not */
}

/*
 * The command line, with record's --params TEXT as "--params ...": TEXT is
 * the header's params, and in full it would push the command past the end
 * of the field.
 */
static void join_argv(const struct rf_record_session_opts *o, char *buf, size_t len)
{
	size_t off = snprintf(buf, len, "refault");
	bool value = false, options = true;
	int i;

	for (i = 0; i < o->cmdline_argc && off < len; i++) {
		const char *a = o->cmdline[i];

		if (value)
			a = "...";
		else if (options && !strncmp(a, "--params=", 9))
			a = "--params=...";
		else if (!strcmp(a, "--"))
			options = false;
		value = !value && options && !strcmp(a, "--params");
		off += snprintf(buf + off, len - off, " %s", a);
	}
}

/* The memory cgroup recorded (-G, or --memcg-limit's @memcg_rel), as "/path" below the root; else "". */
static void recorded_cgroup(const struct rf_record_session_opts *o, const char *memcg_rel,
			    char *buf, size_t len)
{
	const char *g = o->rec.cgroup;
	size_t n;

	buf[0] = 0;
	if (o->rec.scope != RF_SCOPE_CGROUP && !memcg_rel[0])
		return;
	g = memcg_rel[0] ? memcg_rel : g;
	if (!g)
		return;
	if (snprintf(buf, len, "%s%s", *g == '/' ? "" : "/", g) >= (int)len)
		buf[len - 1] = 0;	/* a path of RF_MAX_STRING: cut, as every header string */
	for (n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = 0;
}

void rec_header_fill(struct rf_trace_header *h, const struct rf_record_session_opts *o,
		     const char *memcg_rel, const char *sources)
{
	bool v2;

	rf_trace_header_init(h, "refault record");
	rf_trace_header_fill_host(h);
	h->host.zero_page = probe_zero_page();
	if (!rec_memcg_mount(h->host.cgroup_mount, sizeof(h->host.cgroup_mount), &v2))
		h->host.cgroup_version = v2 ? 2 : 1;
	h->created = time(NULL);
	snprintf(h->clock, sizeof(h->clock), "mono");
	h->time_resolution = o->time_resolution;
	snprintf(h->sources, sizeof(h->sources), "%s", sources);
	describe(o, h->scope, sizeof(h->scope));
	recorded_cgroup(o, memcg_rel, h->cgroup, sizeof(h->cgroup));
	join_argv(o, h->command, sizeof(h->command));
	if (o->params)
		snprintf(h->params, sizeof(h->params), "%s", o->params);
	snprintf(h->pfns, sizeof(h->pfns), "%s", o->kernel_pfns ? "kernel" : "ids");
}
