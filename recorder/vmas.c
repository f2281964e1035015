/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-process mapping tables: what a faulting user address means.  Seeded
 * from /proc/PID/maps, then kept current from mmap/munmap syscalls, so a
 * page_fault_user address resolves to (dev, ino, page index) or anonymous.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "recorder/record-local.h"

uint32_t rec_kdev(dev_t dev)
{
	return (uint32_t)(major(dev) << 20 | minor(dev));
}

static int reserve(struct rec_vmas *t, size_t n)
{
	return RF_GROW(t->v, t->cap, t->nr + n);
}

/* First vma whose end is above @addr. */
static size_t lower_bound(const struct rec_vmas *t, uint64_t addr)
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

const struct rec_vma *rec_vmas_find(const struct rec_vmas *t, uint64_t addr)
{
	size_t i = lower_bound(t, addr);

	return i < t->nr && t->v[i].start <= addr ? &t->v[i] : NULL;
}

static void insert_at(struct rec_vmas *t, size_t i, const struct rec_vma *vma)
{
	memmove(&t->v[i + 1], &t->v[i], (t->nr - i) * sizeof(*t->v));
	t->v[i] = *vma;
	t->nr++;
}

/* Cut [start, end) out of the table, splitting vmas that straddle it. */
void rec_vmas_remove(struct rec_vmas *t, uint64_t start, uint64_t end)
{
	size_t i = lower_bound(t, start);

	while (i < t->nr && t->v[i].start < end) {
		struct rec_vma *v = &t->v[i];

		if (v->start < start && v->end > end) {
			struct rec_vma tail = *v;

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

int rec_vmas_insert(struct rec_vmas *t, const struct rec_vma *vma)
{
	int err;

	if (vma->end <= vma->start)
		return RF_ERR_INVAL;
	rec_vmas_remove(t, vma->start, vma->end);
	err = reserve(t, 1);
	if (err)
		return err;
	insert_at(t, lower_bound(t, vma->start), vma);
	return 0;
}

/* Hex or decimal digits at *@p, advancing it; false if there were none. */
static bool parse_num(const char **p, unsigned int base, unsigned long long *out)
{
	const char *s = *p;
	unsigned long long v = 0;

	for (;; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		v = v * base + d;
	}
	if (s == *p)
		return false;
	*p = s;
	*out = v;
	return true;
}

static bool expect(const char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

/*
 * "start-end perms offset maj:min inode path": by hand, as sscanf cost more
 * than the rest of the recorder's work on a machine that starts many processes.
 */
static int parse_line(const char *line, struct rec_vma *v)
{
	unsigned long long start, end, off, maj, mnr, ino;
	const char *p = line;
	char shared;

	if (!parse_num(&p, 16, &start) || !expect(&p, '-') || !parse_num(&p, 16, &end) ||
	    !expect(&p, ' ') || !p[0] || !p[1] || !p[2] || !p[3])
		return RF_ERR_CORRUPT;
	shared = p[3];
	v->prot = (p[0] == 'r' ? PROT_READ : 0) | (p[1] == 'w' ? PROT_WRITE : 0) |
		  (p[2] == 'x' ? PROT_EXEC : 0);
	p += 4;
	if (!expect(&p, ' ') || !parse_num(&p, 16, &off) || !expect(&p, ' ') ||
	    !parse_num(&p, 16, &maj) || !expect(&p, ':') || !parse_num(&p, 16, &mnr) ||
	    !expect(&p, ' ') || !parse_num(&p, 10, &ino))
		return RF_ERR_CORRUPT;
	v->start = start;
	v->end = end;
	v->ino = ino;
	v->dev = ino ? (uint32_t)(maj << 20 | mnr) : 0;
	v->pgoff = off / (uint64_t)getpagesize();
	v->flags = shared == 's' ? RF_VMA_SHARED : 0;
	return 0;
}

/*
 * Read the lines of /proc/PID/maps in order, up to the first vma ending above
 * @stop (UINT64_MAX: all of them): the kernel formats only what is read.
 */
static int read_maps(struct rec_vmas *t, pid_t tgid, uint64_t stop)
{
	char path[64], buf[8192];
	size_t have = 0;
	int fd, err = 0;
	bool done = false;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tgid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	t->nr = 0;
	while (!err && !done) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *line = buf, *nl;

		if (n <= 0)
			break;
		have += n;
		buf[have] = '\0';
		while (!err && !done && (nl = strchr(line, '\n'))) {
			struct rec_vma v;

			*nl = '\0';
			if (!parse_line(line, &v)) {
				err = reserve(t, 1);
				if (!err)
					t->v[t->nr++] = v;	/* maps is sorted and disjoint */
				done = v.end > stop;
			}
			line = nl + 1;
		}
		have -= line - buf;
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* a line longer than the buffer: a path we do not need */
	}
	close(fd);
	return err;
}

int rec_vmas_load(struct rec_vmas *t, pid_t tgid)
{
	return read_maps(t, tgid, UINT64_MAX);
}

int rec_vmas_load_upto(struct rec_vmas *t, pid_t tgid, uint64_t addr)
{
	return read_maps(t, tgid, addr);
}

void rec_vmas_free(struct rec_vmas *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
