/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the fuzz targets that drive a verb as a user would: the input as a
 * file the verb can open by name (a memfd, /proc/self/fd/N: a regular file,
 * no disk), and the verb's standard output and error sent nowhere.
 */
#ifndef REFAULT_TESTS_FUZZ_MEMFILE_H
#define REFAULT_TESTS_FUZZ_MEMFILE_H


#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* A memfd holding @size bytes of @data, its path in @path; -1 on failure. */
static inline int memfile(const void *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/*
 * Around a verb: its standard output and error go to /dev/null, and come
 * back after (the regression driver prints TAP on standard output).
 * FUZZ_VERBOSE keeps the verb's standard error.
 */
struct quiet {
	int out, err;
};

static inline struct quiet quiet_begin(void)
{
	struct quiet q = { -1, -1 };
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	fflush(stdout);
	fflush(stderr);
	if (null < 0)
		abort();
	q.out = dup(STDOUT_FILENO);
	dup2(null, STDOUT_FILENO);
	if (!getenv("FUZZ_VERBOSE")) {
		q.err = dup(STDERR_FILENO);
		dup2(null, STDERR_FILENO);
	}
	close(null);
	return q;
}

static inline void quiet_end(struct quiet q)
{
	fflush(stdout);
	fflush(stderr);
	dup2(q.out, STDOUT_FILENO);
	close(q.out);
	if (q.err >= 0) {
		dup2(q.err, STDERR_FILENO);
		close(q.err);
	}
}

#endif /* REFAULT_TESTS_FUZZ_MEMFILE_H */
