/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Leave activations in CPU 0's per-CPU batch for another task to drain:
 * read PAGES base pages of FILE (readahead off, so no large folio skips the
 * batch), put them on the LRU (an munmap of a touched page drains this CPU's
 * batches: free_pages_and_swap_cache() -> lru_add_drain()), read them again
 * through a new open file, which queues each for activation (folio_activate():
 * fewer than a batch, so none is moved yet), then wait without draining
 * anything until GO_FILE exists (READY_FILE says it is waiting).  The test
 * runs short tasks on CPU 0 meanwhile: their exit_mmap() drains the batch in
 * their context, where `refault record -- COMMAND` used to see nothing.
 *
 * usage: workload-drain FILE PAGES READY_FILE GO_FILE
 */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int die(const char *what)
{
	perror(what);
	exit(1);
}

static void read_pages(const char *path, char *buf, size_t len, int drop)
{
	int fd = open(path, drop ? O_RDWR : O_RDONLY);

	if (fd < 0)
		die(path);
	if (drop) {
		fdatasync(fd);	/* dirty pages would survive the DONTNEED */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);	/* no readahead: base pages */
	if (pread(fd, buf, len, 0) != (ssize_t)len)
		die("pread");
	close(fd);
}

static void drain_own_cpu(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	p[0] = 1;
	munmap(p, pg);
}

int main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000 * 1000 };
	cpu_set_t cpu0;
	size_t len;
	char *buf;
	int fd, i;

	if (argc != 5)
		return 2;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die("sched_setaffinity");
	len = (size_t)atoi(argv[2]) * sysconf(_SC_PAGESIZE);
	buf = malloc(len);
	if (!buf)
		die("malloc");
	read_pages(argv[1], buf, len, 1);	/* cached, referenced once */
	drain_own_cpu();			/* on the LRU */
	read_pages(argv[1], buf, len, 0);	/* referenced again: queued for activation */
	fd = open(argv[3], O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		die(argv[3]);
	close(fd);
	for (i = 0; i < 10000 && access(argv[4], F_OK); i++)
		nanosleep(&ms, NULL);
	return 0;
}
