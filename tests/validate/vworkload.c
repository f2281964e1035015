/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The workloads of the validation suite: small, deterministic page-cache
 * and anonymous-memory patterns that make a 64 MiB memory cgroup reclaim
 * many times within a second or two.  refault record runs one of them in a
 * fresh cgroup; refault validate then compares the kernel with the model.
 *
 *   vworkload drop FILE...                  sync, then drop FILE's clean cache
 *   vworkload read FILE PASSES              read() it whole PASSES times, 64 KiB a call
 *   vworkload mmap FILE PASSES              mmap it, read a byte of every page PASSES times
 *   vworkload anon MIB PASSES [FILE]        dirty MIB of anonymous memory PASSES times,
 *                                           reading FILE once in between (file pressure)
 *   vworkload aread MIB                     load a byte of every page of MIB of fresh
 *                                           anonymous memory (the zero page), store into
 *                                           the first half, load them all again, wait
 *                                           300 ms (for the recorder's snapshots), unmap
 *   vworkload thp MIB PASSES [FILE]         as anon, in a 2 MiB-aligned range advised
 *                                           MADV_HUGEPAGE (transparent huge pages where the
 *                                           kernel has them on); says how many it got on
 *                                           stdout: "AnonHugePages: N kB"
 *   vworkload write FILE MIB PASSES         write MIB to FILE with pwrite(), 64 KiB a call,
 *                                           fdatasync() after each MiB, then read() it
 *                                           back whole, PASSES times (a rewrite after the
 *                                           first)
 *   vworkload nwrite FILE MIB               write MIB to FILE with pwrite(), 64 KiB a call,
 *                                           no sync, then read it back whole
 *   vworkload mwrite FILE                   map FILE shared and store a byte into every page
 *                                           (page_mkwrite), then msync() it
 *   vworkload cow FILE                      map FILE private, store a byte into every page
 *                                           of its first half (copies on write), load one
 *                                           of every page of the second, wait 300 ms
 *   vworkload willneed FILE                 posix_fadvise(POSIX_FADV_WILLNEED) the whole
 *                                           FILE, then read() it once
 *   vworkload vread FILE PASSES             read it whole PASSES times, 64 KiB a call, the
 *                                           calls in turn readv() (two iovecs), preadv(),
 *                                           preadv2() and sendfile() to /dev/null
 *   vworkload hot FILE HOT_MIB ROUNDS       random 4 KiB preads of the first HOT_MIB while
 *                                           streaming the rest of FILE, ROUNDS times
 *   vworkload mhot FILE HOT_MIB ROUNDS      as hot, but the stream is mapped: a byte of every
 *                                           page of the rest of FILE through mmap
 *   vworkload hmap FILE HOT_MIB ROUNDS      as hot, but the hot set is mapped: four loads of a
 *                                           byte of random hot pages per 64 KiB of stream
 *   vworkload rmap FILE LOADS               map FILE (MADV_RANDOM) and load a byte of LOADS
 *                                           random pages, uniform, from a fixed seed
 *   vworkload compete FILE_A FILE_B PASSES  two children, each in its own child cgroup of
 *                                           ours (vworkload-a, -b: left for the caller to
 *                                           remove), read their file PASSES times at once
 *                                           (cgroup v1 "memory" hierarchy or cgroup2)
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK (64 << 10)

static void die(const char *what)
{
	fprintf(stderr, "vworkload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_ro(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	return fd;
}

static void drop(int argc, char **argv)
{
	int i;

	sync();
	for (i = 0; i < argc; i++) {
		int fd = open_ro(argv[i]);

		if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
			die("posix_fadvise");
		close(fd);
	}
}

static void read_passes(const char *path, long passes)
{
	static char buf[CHUNK];
	int fd = open_ro(path);
	ssize_t n;
	long p;

	for (p = 0; p < passes; p++) {
		if (lseek(fd, 0, SEEK_SET))
			die("lseek");
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0)
			die("read");
	}
	close(fd);
}

static void write_passes(const char *path, long mib, long passes)
{
	static char buf[CHUNK];
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	size_t off, len = (size_t)mib << 20;
	long p;

	if (fd < 0)
		die(path);
	for (p = 0; p < passes; p++) {
		memset(buf, (int)(p + 1), sizeof(buf));
		for (off = 0; off < len; off += sizeof(buf)) {
			if (pwrite(fd, buf, sizeof(buf), (off_t)off) != (ssize_t)sizeof(buf))
				die("pwrite");
			if ((off + sizeof(buf)) % (1 << 20) == 0 && fdatasync(fd))
				die("fdatasync");
		}
		read_passes(path, 1);
	}
	close(fd);
}

/* write @mib MiB and read them back, no sync: the flusher's and reclaim's business */
static void write_nosync(const char *path, long mib)
{
	static char buf[CHUNK];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t off, len = (size_t)mib << 20;

	if (fd < 0)
		die(path);
	memset(buf, 1, sizeof(buf));
	for (off = 0; off < len; off += sizeof(buf))
		if (pwrite(fd, buf, sizeof(buf), (off_t)off) != (ssize_t)sizeof(buf))
			die("pwrite");
	close(fd);
	read_passes(path, 1);
}

static void willneed(const char *path)
{
	int fd = open_ro(path);

	if (posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED))
		die("posix_fadvise");
	close(fd);
	read_passes(path, 1);
}

/* One 64 KiB chunk at @off by the @k-th of the other read syscalls; the bytes read. */
static ssize_t vread_chunk(int fd, int null, off_t off, unsigned int k)
{
	static char a[CHUNK / 2], b[CHUNK / 2];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	off_t at = off;

	switch (k % 4) {
	case 0:
		if (lseek(fd, off, SEEK_SET) != off)
			die("lseek");
		return readv(fd, iov, 2);
	case 1: return preadv(fd, iov, 2, off);
	case 2: return preadv2(fd, iov, 2, off, 0);
	default: return sendfile(null, fd, &at, CHUNK);
	}
}

static void vread_passes(const char *path, long passes)
{
	int fd = open_ro(path), null = open("/dev/null", O_WRONLY);
	unsigned int k = 0;
	ssize_t n = 0;
	off_t off;
	long p;

	if (null < 0)
		die("/dev/null");
	for (p = 0; p < passes; p++)
		for (off = 0; (n = vread_chunk(fd, null, off, k++)) > 0; off += n)
			;
	if (n < 0)
		die("vread");
	close(null);
	close(fd);
}

static void mmap_passes(const char *path, long passes)
{
	long pg = sysconf(_SC_PAGESIZE), p;
	volatile const char *m;
	unsigned long sum = 0;
	struct stat st;
	off_t i;
	int fd = open_ro(path);

	if (fstat(fd, &st))
		die("fstat");
	m = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die("mmap");
	for (p = 0; p < passes; p++)
		for (i = 0; i < st.st_size; i += pg)
			sum += m[i];
	munmap((void *)m, st.st_size);
	close(fd);
	if (sum == 1)	/* keep the loads */
		puts("");
}

static void mwrite(const char *path)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct stat st;
	char *m;
	off_t i;
	int fd = open(path, O_RDWR);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	m = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die("mmap");
	for (i = 0; i < st.st_size; i += pg)
		m[i] = 1;
	if (msync(m, st.st_size, MS_SYNC))
		die("msync");
	munmap(m, st.st_size);
	close(fd);
}

/*
 * cow FILE: map FILE private and store a byte into every page of its first
 * half (a copy on write each: the file page read, an anonymous copy mapped),
 * load a byte of every page of its second half, wait 300 ms (for the
 * recorder's snapshots), unmap.
 */
static void cow(const char *path)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile unsigned long sum = 0;
	struct stat st;
	char *m;
	off_t i;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	m = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		die("mmap");
	for (i = 0; i < st.st_size / 2; i += pg)
		m[i] = 1;
	for (; i < st.st_size; i += pg)
		sum += (unsigned char)((volatile char *)m)[i];
	printf("cow: %lu\n", sum);
	fflush(stdout);
	usleep(300 * 1000);
	munmap(m, st.st_size);
	close(fd);
}

/* The process's AnonHugePages line of /proc/self/smaps_rollup, on stdout. */
static void say_huge(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "AnonHugePages:", 14))
			fputs(line, stdout);
	if (f)
		fclose(f);
	fflush(stdout);
}

static void anon_passes(long mib, long passes, const char *file, bool huge)
{
	const size_t pmd = 2 << 20;
	size_t len = (size_t)mib << 20, i, map = huge ? len + pmd : len;
	long pg = sysconf(_SC_PAGESIZE), p;
	char *m = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *a;

	if (m == MAP_FAILED)
		die("mmap anon");
	a = huge ? (char *)(((uintptr_t)m + pmd - 1) & ~(uintptr_t)(pmd - 1)) : m;
	/* EINVAL: a kernel without transparent huge pages; the pages are small then */
	if (huge && madvise(a, len, MADV_HUGEPAGE) && errno != EINVAL)
		die("madvise MADV_HUGEPAGE");
	for (p = 0; p < passes; p++) {
		for (i = 0; i < len; i += pg)
			a[i] = (char)(p + 1);
		if (file && p == 0)
			read_passes(file, 1);
	}
	if (huge)
		say_huge();
	munmap(m, map);
}

/*
 * aread MIB: load a byte of every page of fresh anonymous memory (each load
 * maps the shared zero page: no page is allocated), store to the first half
 * (each store copies the zero page into a new page), then load every page
 * again: MIB / 2 of anonymous pages in the end.
 */
static void anon_reads(long mib)
{
	size_t len = (size_t)mib << 20, i;
	long pg = sysconf(_SC_PAGESIZE);
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile unsigned long sum = 0;

	if (a == MAP_FAILED)
		die("mmap anon");
	/* the zero page is not used where THP may map the range: keep it base pages */
	if (madvise(a, len, MADV_NOHUGEPAGE) && errno != EINVAL)
		die("madvise MADV_NOHUGEPAGE");
	for (i = 0; i < len; i += pg)
		sum += (unsigned char)((volatile char *)a)[i];
	for (i = 0; i < len / 2; i += pg)
		a[i] = 1;
	for (i = 0; i < len; i += pg)
		sum += (unsigned char)((volatile char *)a)[i];
	printf("aread: %lu\n", sum);
	fflush(stdout);
	usleep(300 * 1000);	/* a counter snapshot or two before the pages go */
	munmap(a, len);
}

/* A small deterministic generator: the same pages every run. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Four random 4 KiB reads of the hot set per 64 KiB of stream, as hot and mhot do: preads,
 * or loads of a byte of each page through @hmap (hmap).
 */
static unsigned long hot_reads(int rfd, off_t hot_pages, long pg, uint64_t *seed,
			       volatile const char *hmap)
{
	static char page[CHUNK];
	unsigned long sum = 0;
	int k;

	for (k = 0; k < 4; k++) {
		off_t n = (off_t)(next_rand(seed) % (uint64_t)hot_pages);

		if (hmap)
			sum += hmap[n * pg];
		else if (pread(rfd, page, (size_t)pg, n * pg) < 0)
			die("pread hot");
	}
	return sum;
}

/*
 * hot (@mapped false) streams through read(), mhot through a shared read-only mapping;
 * hmap (@hot_mapped) reads the hot set through one.
 */
static void hot(const char *path, long hot_mib, long rounds, bool mapped, bool hot_mapped)
{
	static char buf[CHUNK];
	long pg = sysconf(_SC_PAGESIZE), r;
	off_t hot_pages = ((off_t)hot_mib << 20) / pg, pos, i;
	int rfd = open_ro(path), sfd = open_ro(path);
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	volatile const char *m = NULL, *hm = NULL;
	unsigned long sum = 0;
	struct stat st;

	/* the hot reads must not read ahead; the stream should */
	if (fstat(sfd, &st) || posix_fadvise(rfd, 0, 0, POSIX_FADV_RANDOM) || pg > CHUNK)
		die("hot setup");
	if (mapped) {
		m = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, sfd, 0);
		if (m == MAP_FAILED)
			die("mmap stream");
	}
	if (hot_mapped) {
		hm = mmap(NULL, (size_t)hot_mib << 20, PROT_READ, MAP_SHARED, rfd, 0);
		if (hm == MAP_FAILED || madvise((void *)hm, (size_t)hot_mib << 20, MADV_RANDOM))
			die("mmap hot set");
	}
	for (r = 0; r < rounds; r++) {
		for (pos = (off_t)hot_mib << 20; pos < st.st_size; pos += CHUNK) {
			if (!mapped && pread(sfd, buf, CHUNK, pos) < 0)
				die("pread stream");
			for (i = pos; mapped && i < pos + CHUNK && i < st.st_size; i += pg)
				sum += m[i];
			sum += hot_reads(rfd, hot_pages, pg, &seed, hm);
		}
	}
	if (mapped)
		munmap((void *)m, st.st_size);
	if (hot_mapped)
		munmap((void *)hm, (size_t)hot_mib << 20);
	close(rfd);
	close(sfd);
	if (sum == 1)	/* keep the loads */
		puts("");
}

static void rmap_loads(const char *path, long loads)
{
	long pg = sysconf(_SC_PAGESIZE), i;
	uint64_t seed = 0x2545f4914f6cdd1dULL, pages;
	volatile const char *m;
	unsigned long sum = 0;
	struct stat st;
	int fd = open_ro(path);

	if (fstat(fd, &st) || st.st_size < pg)
		die("fstat");
	pages = (uint64_t)(st.st_size / pg);
	m = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED || madvise((void *)m, st.st_size, MADV_RANDOM))
		die("mmap");
	for (i = 0; i < loads; i++)
		sum += m[(off_t)(next_rand(&seed) % pages) * pg];
	munmap((void *)m, st.st_size);
	close(fd);
	if (sum == 1)	/* keep the loads */
		puts("");
}

/*
 * Our memory cgroup's directory: the v1 "memory" mount plus /proc/self/cgroup's path; where
 * there is no v1 memory hierarchy, the cgroup2 mount plus the "0::PATH" line.  1 on cgroup2.
 */
static int own_memcg(char *dir, size_t len)
{
	char line[4096], mnt[2048] = "", mnt2[2048] = "", rel[2048] = "", rel2[2048] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int v2;

	while (f && fgets(line, sizeof(line), f)) {
		char point[2048], opts[2048];

		if (strstr(line, " - cgroup ") &&
		    sscanf(line, "%*s %*s %*s %*s %2047s", point) == 1 &&
		    sscanf(strstr(line, " - cgroup ") + 10, "%*s %2047s", opts) == 1 &&
		    (strstr(opts, ",memory") || !strncmp(opts, "memory", 6)))
			snprintf(mnt, sizeof(mnt), "%s", point);
		else if (strstr(line, " - cgroup2 ") && !mnt2[0] &&
			 sscanf(line, "%*s %*s %*s %*s %2047s", point) == 1)
			snprintf(mnt2, sizeof(mnt2), "%s", point);
	}
	if (f)
		fclose(f);
	f = fopen("/proc/self/cgroup", "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		c2[strcspn(c2, "\n")] = '\0';
		if (strstr(c1, "memory") && strstr(c1, "memory") < c2)
			snprintf(rel, sizeof(rel), "%s", c2 + 1);
		else if (!strncmp(line, "0::", 3))
			snprintf(rel2, sizeof(rel2), "%s", c2 + 1);
	}
	if (f)
		fclose(f);
	v2 = !mnt[0];
	if (v2) {
		if (!mnt2[0] || !rel2[0])
			die("no v1 memory cgroup mount and no cgroup2 mount");
		snprintf(mnt, sizeof(mnt), "%s", mnt2);
		snprintf(rel, sizeof(rel), "%s", rel2);
	}
	snprintf(dir, len, "%s%s", mnt, strcmp(rel, "/") ? rel : "");
	return v2;
}

static void enter(const char *dir)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "we");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
		die(path);
}

static void compete(const char *a, const char *b, long passes)
{
	char own[4096], dirs[2][4200];
	const char *files[2] = { a, b };
	pid_t kids[2];
	int i, st, v2, failed = 0;

	v2 = own_memcg(own, sizeof(own));
	for (i = 0; i < 2; i++) {
		snprintf(dirs[i], sizeof(dirs[i]), "%s/vworkload-%c", own, 'a' + i);
		if (mkdir(dirs[i], 0755) && errno != EEXIST)
			die(dirs[i]);
	}
	if (v2) {
		/*
		 * cgroup2: a child cgroup has a memory controller of its own only when our
		 * cgroup (the recorder's --memcg-limit group) has "+memory" in its
		 * cgroup.subtree_control, and the no-internal-process rule refuses that
		 * (EBUSY) while a process is in it: we are its only one, so we move into
		 * vworkload-a first (all we do from here is fork and wait: a few pages of
		 * stack charged there), then enable the controller, then fork the children
		 * into vworkload-a and -b.  The limit stays on our cgroup, over both.  v1
		 * has neither rule: there we stay where we are.
		 */
		char knob[4300];
		FILE *f;

		enter(dirs[0]);
		snprintf(knob, sizeof(knob), "%s/cgroup.subtree_control", own);
		f = fopen(knob, "we");
		if (!f || fputs("+memory\n", f) < 0 || fclose(f))
			die(knob);
	}
	for (i = 0; i < 2; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (!kids[i]) {
			enter(dirs[i]);
			read_passes(files[i], passes);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++)
		if (waitpid(kids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	/*
	 * The child cgroups stay: v1 total_* in the parent's memory.stat count
	 * live children only, and the recorder reads it after we exit.  Whoever
	 * ran us removes them (tests/validate/cases.sh).
	 */
	if (failed)
		exit(1);
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < 0) {
		fprintf(stderr, "vworkload: not a count: %s\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "drop") && argc > 2)
		drop(argc - 2, argv + 2);
	else if (!strcmp(mode, "read") && argc == 4)
		read_passes(argv[2], num(argv[3]));
	else if (!strcmp(mode, "mmap") && argc == 4)
		mmap_passes(argv[2], num(argv[3]));
	else if (!strcmp(mode, "anon") && (argc == 4 || argc == 5))
		anon_passes(num(argv[2]), num(argv[3]), argc == 5 ? argv[4] : NULL, false);
	else if (!strcmp(mode, "write") && argc == 5)
		write_passes(argv[2], num(argv[3]), num(argv[4]));
	else if (!strcmp(mode, "nwrite") && argc == 4)
		write_nosync(argv[2], num(argv[3]));
	else if (!strcmp(mode, "mwrite") && argc == 3)
		mwrite(argv[2]);
	else if (!strcmp(mode, "willneed") && argc == 3)
		willneed(argv[2]);
	else if (!strcmp(mode, "vread") && argc == 4)
		vread_passes(argv[2], num(argv[3]));
	else if (!strcmp(mode, "cow") && argc == 3)
		cow(argv[2]);
	else if (!strcmp(mode, "aread") && argc == 3)
		anon_reads(num(argv[2]));
	else if (!strcmp(mode, "thp") && (argc == 4 || argc == 5))
		anon_passes(num(argv[2]), num(argv[3]), argc == 5 ? argv[4] : NULL, true);
	else if (!strcmp(mode, "hot") && argc == 5)
		hot(argv[2], num(argv[3]), num(argv[4]), false, false);
	else if (!strcmp(mode, "mhot") && argc == 5)
		hot(argv[2], num(argv[3]), num(argv[4]), true, false);
	else if (!strcmp(mode, "rmap") && argc == 4)
		rmap_loads(argv[2], num(argv[3]));
	else if (!strcmp(mode, "hmap") && argc == 5)
		hot(argv[2], num(argv[3]), num(argv[4]), false, true);
	else if (!strcmp(mode, "compete") && argc == 5)
		compete(argv[2], argv[3], num(argv[4]));
	else {
		fputs("usage: vworkload drop|read|vread|mmap|rmap|anon|aread|cow|thp|write|nwrite|mwrite|willneed|hot|mhot|hmap|compete ... (see the source)\n",
		      stderr);
		return 2;
	}
	return 0;
}
