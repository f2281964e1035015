/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pages the kernel touches for a task: read() a file whole into an anonymous
 * buffer the program has not touched, so that every page of the buffer is
 * faulted in by the read's copy_to_user() (exceptions:page_fault_kernel), then
 * load a byte of each page (no fault: they are mapped by then).  The buffer's
 * first address and length go to stdout.  1 MiB of initialized data puts the
 * page exec's padzero() clears (the end of .data, where .bss begins) 1 MiB
 * into the program's file, past what exec's read of its header brought in.
 *
 * usage: workload-kfault FILE
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

char kfault_data[1 << 20] = { 1 };

static int die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile const char *v;
	unsigned long sum = 0;
	struct stat st;
	size_t len, off = 0;
	char *buf;
	int fd;

	if (argc != 2) {
		fputs("usage: workload-kfault FILE\n", stderr);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(argv[1]);
	len = (size_t)st.st_size;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		die("mmap");
	/* pages, not a THP's 512 at once: the test counts them */
	if (madvise(buf, len, MADV_NOHUGEPAGE))
		die("madvise");
	while (off < len) {
		ssize_t n = read(fd, buf + off, len - off);

		if (n <= 0)
			die("read");
		off += (size_t)n;
	}
	for (v = buf, off = 0; off < len; off += (size_t)pg)
		sum += (unsigned char)v[off];
	printf("%#lx %zu\n", (unsigned long)buf, len);
	close(fd);
	return sum == 1 && kfault_data[0];	/* keep the loads */
}
