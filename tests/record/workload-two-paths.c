/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program with two known call paths to the same read loop, for the call
 * stacks of `refault record --call-graph dwarf` and `refault report --by
 * callsite`:
 *
 *   main -> reread_big -> read_file -> read_chunk (inlined): reads BIG from start to end,
 *                                     4 MiB at a time, PASSES times
 *   main -> read_hot   -> read_file -> read_chunk (inlined): reads HOT whole after every 4 MiB
 *                                     of BIG
 *
 * Under a memory limit smaller than BIG, BIG's pages are evicted before
 * the next pass reads them again: its refaults are reread_big's; HOT stays
 * cached.  Built with the project's flags (-O2, no frame pointers).
 *   workload-two-paths BIG HOT PASSES
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK	(256 * 1024)
#define SEGMENT	(4 << 20)

static char buf[CHUNK];
static volatile unsigned long sink;

/* one pread into buf, inlined into read_file: a frame only the debug information knows */
static inline __attribute__((always_inline)) ssize_t read_chunk(int fd, size_t len, off_t off)
{
	return pread(fd, buf, len, off);
}

/* pread @len bytes of @fd from @off: the one place both paths read through */
static __attribute__((noinline)) long read_file(int fd, off_t off, size_t len)
{
	long done = 0;

	while ((size_t)done < len) {
		ssize_t n = read_chunk(fd, len - (size_t)done < CHUNK ? len - (size_t)done : CHUNK,
				       off + done);

		if (n <= 0)
			break;
		sink += (unsigned char)buf[0];
		done += n;
	}
	return done;
}

static __attribute__((noinline)) long read_hot(int fd, off_t size)
{
	long n = read_file(fd, 0, (size_t)size);

	sink += (unsigned long)n;
	return n;
}

/* the next SEGMENT bytes of BIG from @off */
static __attribute__((noinline)) long reread_big(int big, off_t off)
{
	long total = 0;
	off_t o;

	for (o = off; o < off + SEGMENT; o += CHUNK)
		total += read_file(big, o, CHUNK);
	sink += (unsigned long)total;
	return total;
}

int main(int argc, char **argv)
{
	struct stat sb, sh;
	int big, hot, passes, p;

	if (argc != 4) {
		fprintf(stderr, "usage: workload-two-paths BIG HOT PASSES\n");
		return 2;
	}
	big = open(argv[1], O_RDONLY);
	hot = open(argv[2], O_RDONLY);
	passes = atoi(argv[3]);
	if (big < 0 || hot < 0 || fstat(big, &sb) || fstat(hot, &sh) || passes <= 0) {
		perror("workload-two-paths");
		return 1;
	}
	for (p = 0; p < passes; p++) {
		off_t off;

		for (off = 0; off < sb.st_size; off += SEGMENT) {
			reread_big(big, off);
			read_hot(hot, sh.st_size);
		}
	}
	return 0;
}
