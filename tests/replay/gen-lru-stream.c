/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A seeded stream of page references (file reads of several pages, file and
 * anonymous faults, synthetic accesses in both spaces) written as a trace,
 * and the misses of plain LRU on it at a few capacities, computed here by a
 * tiny LRU of its own: pages named by their identity tuples (not by
 * rf_refpolicy_page_refs()'s hashes), kept in an array in recency order, moved
 * to the front on use.  test-replay-policies.sh puts `refault replay
 * --profile lru` against it.
 *
 *   gen-lru-stream TRACE   prints "CAPACITY REFS MISSES EVICTIONS" per capacity
 *
 * The trace records cgroup "/w" with a memory limit of 1 MiB (256 pages).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/trace.h>

#define EVENTS	20000u

struct page {
	uint64_t space, a, b, c;
};

struct lru {
	struct page *p;		/* p[0] most recent */
	size_t n, cap;
	uint64_t refs, misses, evictions;
};

static void lru_ref(struct lru *l, struct page pg)
{
	size_t i;

	l->refs++;
	for (i = 0; i < l->n; i++)
		if (!memcmp(&l->p[i], &pg, sizeof(pg)))
			break;
	if (i == l->n) {
		l->misses++;
		if (l->n == l->cap) {
			l->evictions++;
			i = l->n - 1;
		} else {
			i = l->n++;
		}
	}
	memmove(&l->p[1], &l->p[0], i * sizeof(pg));
	l->p[0] = pg;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Mostly a hot few, sometimes anything up to @n. */
static uint64_t pick(uint64_t n)
{
	return next() % 4 ? next() % (n / 8 + 1) : next() % n;
}

int main(int argc, char **argv)
{
	static const size_t caps[] = { 64, 300, 1500 };
	struct lru lrus[3];
	struct rf_trace_header h;
	struct rf_trace_writer *w;
	struct rf_event ev;
	struct page pg;
	unsigned int e, k;
	uint64_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-lru-stream TRACE\n");
		return 2;
	}
	rf_trace_header_init(&h, "gen-lru-stream");
	h.host.page_size = 4096;
	h.host.mem_bytes = 64ull << 20;
	h.host.cpus = 1;
	h.synthetic = true;
	strcpy(h.cgroup, "/w");
	if (rf_trace_writer_open(&w, argv[1], &h, NULL)) {
		fprintf(stderr, "gen-lru-stream: cannot write %s\n", argv[1]);
		return 1;
	}
	/* the recorded cgroup "/w", limited to 1 MiB: a policy's capacity without "cache" */
	memset(&ev, 0, sizeof(ev));
	ev.time = 10;
	ev.type = RF_EV_CGROUP_MKDIR;
	ev.u.cgroup.id = 7;
	ev.u.cgroup.path = "/w";
	if (rf_trace_writer_append(w, &ev))
		return 1;
	ev.type = RF_EV_CGROUP_LIMIT;
	ev.u.cgroup.kind = RF_LIMIT_MEMORY;
	ev.u.cgroup.value = 1u << 20;
	ev.u.cgroup.path = NULL;
	if (rf_trace_writer_append(w, &ev))
		return 1;
	for (k = 0; k < 3; k++) {
		memset(&lrus[k], 0, sizeof(lrus[k]));
		lrus[k].cap = caps[k];
		lrus[k].p = calloc(caps[k], sizeof(struct page));
	}
	for (e = 0; e < EVENTS; e++) {
		memset(&ev, 0, sizeof(ev));
		ev.time = 1000 + e;
		ev.pid = 100;
		switch (next() % 5) {
		case 0:		/* a read of 1..8 pages of one of three files */
			ev.type = RF_EV_FILE_READ;
			ev.u.file.dev = 8 << 20 | 1;
			ev.u.file.ino = 1 + next() % 3;
			ev.u.file.index = pick(3000);
			ev.u.file.nr = 1 + next() % 8;
			break;
		case 1:		/* a fault on a page of the same files */
			ev.type = RF_EV_FILE_FAULT;
			ev.u.file.dev = 8 << 20 | 1;
			ev.u.file.ino = 1 + next() % 3;
			ev.u.file.index = pick(3000);
			ev.u.file.mm = 0x5000;
			break;
		case 2:
			ev.type = RF_EV_ANON_FAULT;
			ev.u.anon.mm = 0x5000;
			ev.u.anon.addr = 0x7f0000000000ull + pick(2000) * 4096 + next() % 4096;
			break;
		default:	/* a synthetic access, file or anonymous space */
			ev.type = RF_EV_ACCESS;
			ev.u.access.key = pick(2500);
			ev.u.access.flags = next() % 2 ? RF_REF_ANON : 0;
			break;
		}
		if (rf_trace_writer_append(w, &ev)) {
			fprintf(stderr, "gen-lru-stream: %s\n", rf_trace_writer_errmsg(w));
			return 1;
		}
		for (i = 0; i < (ev.type == RF_EV_FILE_READ ? ev.u.file.nr : 1); i++) {
			if (ev.type == RF_EV_FILE_READ || ev.type == RF_EV_FILE_FAULT)
				pg = (struct page){ 1, ev.u.file.dev, ev.u.file.ino, ev.u.file.index + i };
			else if (ev.type == RF_EV_ANON_FAULT)
				pg = (struct page){ 2, ev.u.anon.mm, ev.u.anon.addr / 4096, 0 };
			else
				pg = (struct page){ ev.u.access.flags & RF_REF_ANON ? 3 : 4, 0, 0,
						    ev.u.access.key };
			for (k = 0; k < 3; k++)
				lru_ref(&lrus[k], pg);
		}
	}
	if (rf_trace_writer_close(w)) {
		fprintf(stderr, "gen-lru-stream: cannot finish %s\n", argv[1]);
		return 1;
	}
	for (k = 0; k < 3; k++) {
		printf("%zu %llu %llu %llu\n", lrus[k].cap, (unsigned long long)lrus[k].refs,
		       (unsigned long long)lrus[k].misses, (unsigned long long)lrus[k].evictions);
		free(lrus[k].p);
	}
	return 0;
}
