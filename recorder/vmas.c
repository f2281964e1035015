/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-process mapping tables: what a faulting user address means.  Seeded
 * from /proc/PID/maps, then kept current from mmap/munmap syscalls, so a
 * page_fault_user address resolves to (dev, ino, page index) or anonymous.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <refault/errors.h>

#include "recorder/internal.h"

uint32_t rf_kdev(dev_t dev)
{
	return (uint32_t)(major(dev) << 20 | minor(dev));
}

static int reserve(struct rf_vmas *t, size_t n)
{
	struct rf_vma *v;
	size_t ncap;

	if (t->nr + n <= t->cap)
		return 0;
	ncap = t->cap ? t->cap * 2 : 32;
	while (ncap < t->nr + n)
		ncap *= 2;
	v = realloc(t->v, ncap * sizeof(*v));
	if (!v)
		return RF_ERR_NOMEM;
	t->v = v;
	t->cap = ncap;
	return 0;
}

/* First vma whose end is above @addr. */
static size_t lower_bound(const struct rf_vmas *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct rf_vma *rf_vmas_find(const struct rf_vmas *t, uint64_t addr)
{
	size_t i = lower_bound(t, addr);

	return i < t->nr && t->v[i].start <= addr ? &t->v[i] : NULL;
}

static void insert_at(struct rf_vmas *t, size_t i, const struct rf_vma *vma)
{
	memmove(&t->v[i + 1], &t->v[i], (t->nr - i) * sizeof(*t->v));
	t->v[i] = *vma;
	t->nr++;
}

/* Cut [start, end) out of the table, splitting vmas that straddle it. */
void rf_vmas_remove(struct rf_vmas *t, uint64_t start, uint64_t end)
{
	size_t i = lower_bound(t, start);

	while (i < t->nr && t->v[i].start < end) {
		struct rf_vma *v = &t->v[i];

		if (v->start < start && v->end > end) {
			struct rf_vma tail = *v;

			if (reserve(t, 1))
				return;
			v = &t->v[i];
			tail.pgoff += (end - v->start) / (uint64_t)getpagesize();
			tail.start = end;
			v->end = start;
			insert_at(t, i + 1, &tail);
			return;
		}
		if (v->start < start) {
			v->end = start;
			i++;
		} else if (v->end > end) {
			if (v->ino)
				v->pgoff += (end - v->start) / (uint64_t)getpagesize();
			v->start = end;
			return;
		} else {
			memmove(v, v + 1, (t->nr - i - 1) * sizeof(*v));
			t->nr--;
		}
	}
}

int rf_vmas_insert(struct rf_vmas *t, const struct rf_vma *vma)
{
	int err;

	if (vma->end <= vma->start)
		return RF_ERR_INVAL;
	rf_vmas_remove(t, vma->start, vma->end);
	err = reserve(t, 1);
	if (err)
		return err;
	insert_at(t, lower_bound(t, vma->start), vma);
	return 0;
}

static int parse_line(const char *line, struct rf_vma *v)
{
	unsigned long long start, end, off, ino;
	unsigned int maj, mnr;
	char perms[8];

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &start, &end, perms, &off, &maj, &mnr,
		   &ino) != 7)
		return RF_ERR_CORRUPT;
	v->start = start;
	v->end = end;
	v->ino = ino;
	v->dev = ino ? (maj << 20 | mnr) : 0;
	v->pgoff = off / (uint64_t)getpagesize();
	v->flags = perms[3] == 's' ? RF_VMA_SHARED : 0;
	return 0;
}

int rf_vmas_load(struct rf_vmas *t, pid_t tgid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tgid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	t->nr = 0;
	while (!err && getline(&line, &cap, f) > 0) {
		struct rf_vma v;

		if (parse_line(line, &v))
			continue;
		err = reserve(t, 1);
		if (!err)
			t->v[t->nr++] = v;	/* maps is sorted and disjoint */
	}
	free(line);
	fclose(f);
	return err;
}

void rf_vmas_free(struct rf_vmas *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
