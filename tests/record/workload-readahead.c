/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The workload test-record-readahead.sh records: read READ_FILE cold with
 * read(), 64 KiB at a time, then again warm; then touch every page of
 * MMAP_FILE, cold, through a shared mapping; then write WRITE_FILE anew with
 * write() (page-cache adds that are no readahead).  "Cold": the clean pages are
 * dropped first, so the kernel reads every page in, by readahead.
 *
 * usage: workload-readahead READ_FILE MMAP_FILE WRITE_FILE
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int die(const char *what)
{
	perror(what);
	exit(1);
}

static int open_cold(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		die(path);
	fdatasync(fd);	/* dirty pages would survive the DONTNEED */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return fd;
}

static void read_twice(const char *path)
{
	static char buf[64 << 10];
	int fd = open_cold(path), p;

	for (p = 0; p < 2; p++) {
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

static void touch_mapping(const char *path)
{
	volatile const char *p;
	long pg = sysconf(_SC_PAGESIZE), i;
	unsigned long sum = 0;
	struct stat st;
	int fd = open_cold(path);

	if (fstat(fd, &st))
		die(path);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	for (i = 0; i < st.st_size / pg; i++)
		sum += p[i * pg];
	munmap((void *)p, st.st_size);
	close(fd);
	if (sum == 1)
		printf("\n");	/* keep the loads */
}

static void write_new(const char *path)
{
	static char buf[64 << 10];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), i;

	if (fd < 0)
		die(path);
	for (i = 0; i < 64; i++)	/* 4 MiB */
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write");
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s READ_FILE MMAP_FILE WRITE_FILE\n", argv[0]);
		return 2;
	}
	read_twice(argv[1]);
	touch_mapping(argv[2]);
	write_new(argv[3]);
	return 0;
}
