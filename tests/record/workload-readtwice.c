/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The workload refault record's tests record: read a file twice with read(),
 * read then mmap a second file and touch one byte every STRIDE pages, dirty
 * an anonymous region and MADV_PAGEOUT it.  What the kernel must have done
 * is known from this program alone, so the trace can be checked against it.
 *
 * usage: workload-readtwice READ_FILE MMAP_FILE ANON_MIB STRIDE
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static int die(const char *what)
{
	perror(what);
	exit(1);
}

/* Drop the file's clean pages so the first pass is cold, then read it whole. */
static void read_file(const char *path, int passes)
{
	static char buf[64 << 10];
	int fd = open(path, O_RDWR), p;

	if (fd < 0)
		die(path);
	fdatasync(fd);	/* dirty pages would survive the DONTNEED */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (p = 0; p < passes; p++) {
		ssize_t n;

		if (lseek(fd, 0, SEEK_SET))
			die("lseek");
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0)
			die("read");
	}
	close(fd);
}

static void touch_mapping(const char *path, long stride)
{
	volatile const char *p;
	long pg = sysconf(_SC_PAGESIZE), i;
	unsigned long sum = 0;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	close(fd);	/* the mapping must resolve without the fd */
	for (i = 0; i < st.st_size / pg; i += stride)
		sum += p[i * pg];
	munmap((void *)p, st.st_size);
	if (sum == 1)
		printf("\n");	/* keep the loads */
}

static void anon(size_t mib)
{
	size_t len = mib << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap anon");
	memset(p, 1, len);
	if (madvise(p, len, MADV_PAGEOUT))
		perror("madvise(MADV_PAGEOUT)");
	munmap(p, len);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s READ_FILE MMAP_FILE ANON_MIB STRIDE\n", argv[0]);
		return 2;
	}
	read_file(argv[1], 2);
	read_file(argv[2], 1);
	touch_mapping(argv[2], atol(argv[4]));
	anon(atol(argv[3]));
	return 0;
}
