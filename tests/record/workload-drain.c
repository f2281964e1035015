/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Leave activations in CPU 0's per-CPU batch for another task to drain:
 * read PAGES base pages of FILE, a page a pread() (readahead off, so no large
 * folio skips the batch), put them on the LRU (by filling this CPU's add
 * batch), read them again through a new open file, which queues each for
 * activation (folio_activate(): fewer than a batch, so none is moved yet),
 * then wait without draining anything until GO_FILE exists (READY_FILE says
 * it is waiting).  The test meanwhile runs `workload-drain drain` outside the
 * recording's scope: it drains CPU 0's batches in its own context
 * (madvise(MADV_COLD) starts with lru_add_drain()), where `refault record --
 * COMMAND` used to see nothing.
 *
 * usage: workload-drain FILE PAGES READY_FILE GO_FILE
 *        workload-drain drain
 */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_COLD
#define MADV_COLD 20
#endif

static int die(const char *what)
{
	perror(what);
	exit(1);
}

static void read_pages(const char *path, char *buf, size_t len, int drop)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), off;
	int fd = open(path, drop ? O_RDWR : O_RDONLY);

	if (fd < 0)
		die(path);
	if (drop) {
		fdatasync(fd);	/* dirty pages would survive the DONTNEED */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);	/* no readahead: base pages */
	/*
	 * A page a read: filemap_read() marks only the first folio of each batch
	 * it gets accessed, and a read of several pages is one batch.
	 */
	for (off = 0; off < len; off += pg)
		if (pread(fd, buf + off, pg, (off_t)off) != (ssize_t)pg)
			die("pread");
	close(fd);
}

/*
 * Put the file's pages on the LRU: fault in more anonymous pages than the
 * per-CPU add batch holds (PAGEVEC_SIZE, 31), so that it is moved at least
 * once after them, in this task's context.
 */
static void fill_add_batch(void)
{
	long pg = sysconf(_SC_PAGESIZE), i;
	char *p = mmap(NULL, 64 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	for (i = 0; i < 64; i++)
		p[i * pg] = 1;
}

/* On CPU 0: madvise(MADV_COLD) drains this CPU's LRU batches first. */
static int drain_cpu0(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	p[0] = 1;
	if (madvise(p, pg, MADV_COLD))
		die("madvise");
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000 * 1000 };
	cpu_set_t cpu0;
	size_t len;
	char *buf;
	int fd, i;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die("sched_setaffinity");
	if (argc == 2 && !strcmp(argv[1], "drain"))
		return drain_cpu0();
	if (argc != 5)
		return 2;
	len = (size_t)atoi(argv[2]) * sysconf(_SC_PAGESIZE);
	buf = malloc(len);
	if (!buf)
		die("malloc");
	read_pages(argv[1], buf, len, 1);	/* cached, referenced once */
	fill_add_batch();			/* on the LRU */
	read_pages(argv[1], buf, len, 0);	/* referenced again: queued for activation */
	fd = open(argv[3], O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		die(argv[3]);
	close(fd);
	for (i = 0; i < 10000 && access(argv[4], F_OK); i++)
		nanosleep(&ms, NULL);
	free(buf);
	return 0;
}
