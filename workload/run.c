/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The running of a drawn workload: its files (prepare, clean) and its
 * phases, each one's tasks forked at once, one access stream each
 * (docs/workload.md, "The space").
 *
 * A task's syscalls are a function of its stream: every choice it makes
 * comes from its own generator, seeded from (seed, phase, task), in a fixed
 * order (a hot coin and a hot page per operation where the stream has a hot
 * set; a uniform page per random operation; a key per pass of a random
 * anonymous order).  A task that fails writes one sentence into a pipe to
 * the driver and exits 1; the driver waits for all of a phase's tasks
 * before it says which failed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/compiler.h"
#include "lib/hash.h"
#include "workload/workload-local.h"

#define PAGE		RF_WORKLOAD_PAGE
#define NO_PAGE		UINT64_MAX
#define FILL_CHUNK	(1u << 20)
#define HUGE_ALIGN	(2ull << 20)

/* the seed of file @i's contents */
static uint64_t file_seed(uint64_t seed, unsigned int i)
{
	return rf_hash2(seed, 0x66696c6500000000ull + i);	/* "file" */
}

int rf_workload_file_path(const struct rf_workload_params *p, const char *dir, unsigned int i,
			  char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/refault-workload-%" PRIu64 "-f%u", dir, p->in.seed, i + 1) >=
	    (int)len)
		return RF_ERR_RANGE;
	return 0;
}

static int path_of(const struct rf_workload_params *p, const char *dir, unsigned int i,
		   char *buf, size_t len, char *err, size_t errlen)
{
	int ret = rf_workload_file_path(p, dir, i, buf, len);

	if (ret)
		snprintf(err, errlen, "%s: the directory's path is too long", dir);
	return ret;
}

/* ---------------------------------------------------------------- files */

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* File @i of @size bytes at @path: its generator's bytes, write(), fsync(). */
static int make_file(const struct rf_workload_params *p, unsigned int i, const char *path,
		     uint64_t size, char *err, size_t errlen)
{
	uint64_t *buf = malloc(FILL_CHUNK), done;
	struct rf_xoshiro r;
	int fd, ret = 0;
	size_t k;

	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return RF_ERR_NOMEM;
	}
	rf_xoshiro_seed(&r, file_seed(p->in.seed, i));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "creating %s: %s", path, strerror(errno));
		free(buf);
		return ret;
	}
	for (done = 0; done < size && !ret; done += FILL_CHUNK) {
		size_t n = (size_t)RF_MIN(size - done, FILL_CHUNK);

		for (k = 0; k < FILL_CHUNK / sizeof(*buf); k++)
			buf[k] = rf_xoshiro_next(&r);
		if (write_all(fd, (const char *)buf, n))
			ret = -errno;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "writing %s: %s", path, strerror(-ret));
	free(buf);
	return ret;
}

int rf_workload_prepare(const struct rf_workload_params *p, const char *dir, unsigned int *made,
			char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned int i;
	int ret;

	if (made)
		*made = 0;
	for (i = 0; i < p->nr_files; i++) {
		ret = path_of(p, dir, i, path, sizeof(path), err, errlen);
		if (ret)
			return ret;
		if (!stat(path, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size == p->file_size[i])
			continue;
		if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s is there and is not a regular file", path);
			return -EEXIST;
		}
		ret = make_file(p, i, path, p->file_size[i], err, errlen);
		if (ret)
			return ret;
		if (made)
			++*made;
	}
	return 0;
}

int rf_workload_check_files(const struct rf_workload_params *p, const char *dir, char *err,
			    size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned int i;
	int ret;

	for (i = 0; i < p->nr_files; i++) {
		ret = path_of(p, dir, i, path, sizeof(path), err, errlen);
		if (ret)
			return ret;
		if (stat(path, &st)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return RF_ERR_STATE;
		}
		if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < p->file_size[i]) {
			snprintf(err, errlen, "%s: %" PRIu64 " bytes, the draw's file has %" PRIu64,
				 path, (uint64_t)st.st_size, p->file_size[i]);
			return RF_ERR_STATE;
		}
	}
	return 0;
}

int rf_workload_clean(const struct rf_workload_params *p, const char *dir, unsigned int *removed,
		      char *err, size_t errlen)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret;

	if (removed)
		*removed = 0;
	for (i = 0; i < p->nr_files; i++) {
		ret = path_of(p, dir, i, path, sizeof(path), err, errlen);
		if (ret)
			return ret;
		if (!unlink(path)) {
			if (removed)
				++*removed;
		} else if (errno != ENOENT) {
			ret = -errno;
			snprintf(err, errlen, "removing %s: %s", path, strerror(errno));
			return ret;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- a task */

struct task {
	const struct rf_workload_stream *s;
	const char *path;		/* the file of a file kind */
	uint64_t file_size;
	struct rf_xoshiro rng;
	char *err;
	size_t errlen;
};

static int fail(struct task *t, const char *what)
{
	int e = errno;

	snprintf(t->err, t->errlen, "%s: %s", what, strerror(e));
	return -e;
}

/*
 * The next operation's hot page (a page index of the file), or NO_PAGE for
 * the stream's own: two draws an operation where the stream has a hot set.
 */
static uint64_t hot_page(struct task *t)
{
	const struct rf_workload_stream *s = t->s;
	uint64_t coin, page;

	if (!s->hot)
		return NO_PAGE;
	coin = wl_below(&t->rng, 100);
	page = s->hot_offset / PAGE + wl_below(&t->rng, s->hot_length / PAGE);
	return coin < s->hot_rate100 ? page : NO_PAGE;
}

/* a uniform page of the region */
static uint64_t random_page(struct task *t)
{
	return t->s->offset / PAGE + wl_below(&t->rng, t->s->length / PAGE);
}

static int fadvice(enum rf_workload_hint h)
{
	switch (h) {
	case RF_WORKLOAD_HINT_SEQUENTIAL: return POSIX_FADV_SEQUENTIAL;
	case RF_WORKLOAD_HINT_RANDOM: return POSIX_FADV_RANDOM;
	case RF_WORKLOAD_HINT_WILLNEED: return POSIX_FADV_WILLNEED;
	default: return POSIX_FADV_NORMAL;
	}
}

static int madvice(enum rf_workload_hint h)
{
	switch (h) {
	case RF_WORKLOAD_HINT_SEQUENTIAL: return MADV_SEQUENTIAL;
	case RF_WORKLOAD_HINT_RANDOM: return MADV_RANDOM;
	case RF_WORKLOAD_HINT_WILLNEED: return MADV_WILLNEED;
	case RF_WORKLOAD_HINT_HUGEPAGE: return MADV_HUGEPAGE;
	default: return MADV_NORMAL;
	}
}

static int open_file(struct task *t, int flags)
{
	int fd = open(t->path, flags | O_CLOEXEC);

	if (fd < 0)
		fail(t, "open");
	return fd;
}

static int fadvise_region(struct task *t, int fd, int advice, const char *name)
{
	int e = posix_fadvise(fd, (off_t)t->s->offset, (off_t)t->s->length, advice);

	if (!e)
		return 0;
	errno = e;
	return fail(t, name);
}

/* read-seq: read() chunks over the region, wrapping, a share of the calls a hot pread() instead */
static int read_seq(struct task *t, int fd, char *buf)
{
	const struct rf_workload_stream *s = t->s;
	uint64_t done = 0, pos = s->offset, end = s->offset + s->length, hot;
	ssize_t n;

	if (lseek(fd, (off_t)pos, SEEK_SET) < 0)
		return fail(t, "lseek");
	while (done < s->ops) {
		if ((hot = hot_page(t)) != NO_PAGE) {
			if (pread(fd, buf, PAGE, (off_t)(hot * PAGE)) < 0)
				return fail(t, "pread");
			done++;
			continue;
		}
		n = read(fd, buf, (size_t)RF_MIN(RF_MIN(s->chunk, end - pos), (s->ops - done) * PAGE));
		if (n < 0)
			return fail(t, "read");
		if (n == 0) {
			errno = ENODATA;
			return fail(t, "read: the file ends before the region");
		}
		pos += (uint64_t)n;
		done += ((uint64_t)n + PAGE - 1) / PAGE;
		if (pos >= end) {
			pos = s->offset;
			if (lseek(fd, (off_t)pos, SEEK_SET) < 0)
				return fail(t, "lseek");
		}
	}
	return 0;
}

/* pread-rand: one page a pread() at uniform pages of the region, or of the hot range */
static int pread_rand(struct task *t, int fd, char *buf)
{
	uint64_t i, page;

	for (i = 0; i < t->s->ops; i++) {
		page = hot_page(t);
		if (page == NO_PAGE)
			page = random_page(t);
		if (pread(fd, buf, PAGE, (off_t)(page * PAGE)) < 0)
			return fail(t, "pread");
	}
	return 0;
}

static int run_read(struct task *t)
{
	const struct rf_workload_stream *s = t->s;
	char *buf = malloc(RF_MAX(s->chunk, PAGE));
	int fd, ret;

	if (!buf) {
		errno = ENOMEM;
		return fail(t, "malloc");
	}
	fd = open_file(t, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	ret = s->hint ? fadvise_region(t, fd, fadvice(s->hint), "posix_fadvise") : 0;
	if (!ret)
		ret = s->kind == RF_WORKLOAD_READ_SEQ ? read_seq(t, fd, buf) : pread_rand(t, fd, buf);
	if (!ret && s->dontneed)
		ret = fadvise_region(t, fd, POSIX_FADV_DONTNEED, "posix_fadvise DONTNEED");
	close(fd);
	free(buf);
	return ret;
}

/* The page of operation @i of a mapped stream: hot, in order over the region, or uniform. */
static uint64_t map_page(struct task *t, uint64_t *cursor)
{
	const struct rf_workload_stream *s = t->s;
	uint64_t page = hot_page(t);

	if (page != NO_PAGE)
		return page;
	if (s->kind == RF_WORKLOAD_MMAP_RAND ||
	    (s->kind == RF_WORKLOAD_MMAP_STORE && s->random_order))
		return random_page(t);
	page = s->offset / PAGE + *cursor;
	*cursor = (*cursor + 1) % (s->length / PAGE);
	return page;
}

/* mmap-seq, mmap-rand, mmap-store: the whole file mapped shared, a load or a store a page */
static int run_mmap(struct task *t)
{
	const struct rf_workload_stream *s = t->s;
	bool store = s->kind == RF_WORKLOAD_MMAP_STORE;
	uint64_t i, cursor = 0, len = t->file_size;
	volatile unsigned char *m;
	int fd = open_file(t, store ? O_RDWR : O_RDONLY), ret = 0;
	void *map;

	if (fd < 0)
		return -1;
	map = mmap(NULL, (size_t)len, PROT_READ | (store ? PROT_WRITE : 0), MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return fail(t, "mmap");
	if (s->hint && madvise(map, (size_t)len, madvice(s->hint)))
		ret = fail(t, "madvise");
	m = map;
	for (i = 0; i < s->ops && !ret; i++) {
		uint64_t off = map_page(t, &cursor) * PAGE;

		if (store)
			m[off] = (unsigned char)rf_xoshiro_next(&t->rng);
		else
			(void)m[off];
	}
	munmap(map, (size_t)len);
	return ret;
}

/* write: write() chunks over the region, wrapping; fdatasync() every sync_every bytes */
static int run_write(struct task *t)
{
	const struct rf_workload_stream *s = t->s;
	uint64_t done = 0, pos = s->offset, end = s->offset + s->length, since = 0, k;
	uint64_t *buf = malloc(s->chunk);
	int fd, ret = 0;

	if (!buf) {
		errno = ENOMEM;
		return fail(t, "malloc");
	}
	for (k = 0; k < s->chunk / sizeof(*buf); k++)
		buf[k] = rf_xoshiro_next(&t->rng);
	fd = open_file(t, O_WRONLY);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	if (lseek(fd, (off_t)pos, SEEK_SET) < 0)
		ret = fail(t, "lseek");
	while (!ret && done < s->ops) {
		size_t n = (size_t)RF_MIN(RF_MIN(s->chunk, end - pos), (s->ops - done) * PAGE);

		if (write_all(fd, (const char *)buf, n)) {
			ret = fail(t, "write");
			break;
		}
		pos += n;
		since += n;
		done += (n + PAGE - 1) / PAGE;
		if (s->sync_every && since >= s->sync_every) {
			since = 0;
			if (fdatasync(fd))
				ret = fail(t, "fdatasync");
		}
		if (pos >= end) {
			pos = s->offset;
			if (lseek(fd, (off_t)pos, SEEK_SET) < 0)
				ret = fail(t, "lseek");
		}
	}
	if (close(fd) && !ret)
		ret = fail(t, "close");
	free(buf);
	return ret;
}

/*
 * A random order of [0, n): a balanced four-round Feistel network on the
 * smallest even number of bits that holds n, keyed, walked until it lands
 * below n (fewer than four steps on average).  No table: a region of
 * millions of pages costs nothing to shuffle.
 */
struct perm {
	uint64_t n, key, mask;
	unsigned int half;
};

static void perm_init(struct perm *pm, uint64_t n, uint64_t key)
{
	unsigned int bits = 2;

	while (bits < 62 && (1ull << bits) < n)
		bits++;
	bits += bits & 1;
	pm->n = n;
	pm->key = key;
	pm->half = bits / 2;
	pm->mask = (1ull << pm->half) - 1;
}

static uint64_t perm_at(const struct perm *pm, uint64_t i)
{
	unsigned int round;

	do {
		uint64_t l = i >> pm->half, r = i & pm->mask, f;

		for (round = 0; round < 4; round++) {
			f = rf_hash2(pm->key + round, r) & pm->mask;
			f ^= l;
			l = r;
			r = f;
		}
		i = (l << pm->half) | r;
	} while (i >= pm->n);
	return i;
}

/* anon: a store to each page of a private anonymous region a pass, in order or each pass shuffled */
static int run_anon(struct task *t)
{
	const struct rf_workload_stream *s = t->s;
	bool huge = s->hint == RF_WORKLOAD_HINT_HUGEPAGE;
	size_t len = (size_t)s->length, map_len = len + (huge ? HUGE_ALIGN : 0);
	uint64_t pages = len / PAGE, i, page;
	unsigned char *map, *a;
	struct perm pm = { 0 };

	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return fail(t, "mmap anonymous");
	a = huge ? (unsigned char *)(((uintptr_t)map + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1)) :
		   map;
	/* EINVAL: a kernel without transparent huge pages; the pages are small then */
	if (huge && madvise(a, len, MADV_HUGEPAGE) && errno != EINVAL) {
		munmap(map, map_len);
		return fail(t, "madvise MADV_HUGEPAGE");
	}
	for (i = 0; i < s->ops; i++) {
		page = i % pages;
		if (s->random_order) {
			if (page == 0)
				perm_init(&pm, pages, rf_xoshiro_next(&t->rng));
			page = perm_at(&pm, page);
		}
		a[page * PAGE] = (unsigned char)(i / pages + 1);
	}
	munmap(map, map_len);
	return 0;
}

static int run_stream(struct task *t)
{
	switch (t->s->kind) {
	case RF_WORKLOAD_READ_SEQ:
	case RF_WORKLOAD_PREAD_RAND:
		return run_read(t);
	case RF_WORKLOAD_MMAP_SEQ:
	case RF_WORKLOAD_MMAP_RAND:
	case RF_WORKLOAD_MMAP_STORE:
		return run_mmap(t);
	case RF_WORKLOAD_WRITE:
		return run_write(t);
	case RF_WORKLOAD_ANON:
		return run_anon(t);
	default:
		errno = EINVAL;
		return fail(t, "unknown stream kind");
	}
}

/* ---------------------------------------------------------------- phases */

struct phase_run {
	const struct rf_workload_params *p;
	unsigned int phase;			/* 0-based */
	char paths[RF_WORKLOAD_MAX_FILES][PATH_MAX];
	struct wl_cgroups *cg;			/* NULL: the phase has no sibling cgroups */
	pid_t pid[RF_WORKLOAD_MAX_TASKS];
	int pipe[RF_WORKLOAD_MAX_TASKS];	/* the read end of the task's message pipe */
};

/* In the child: task @i of the phase, then _exit(). */
static void __attribute__((noreturn)) child(struct phase_run *r, unsigned int i, int wfd,
					    const sigset_t *mask)
{
	const struct rf_workload_stream *s = &r->p->phases[r->phase].tasks[i];
	char msg[RF_WORKLOAD_ERRLEN] = "", name[32];	/* PR_SET_NAME keeps 15 bytes: "wl-p3.t4" */
	struct task t = { .s = s, .err = msg, .errlen = sizeof(msg) };
	int ret = 0;

	sigprocmask(SIG_SETMASK, mask, NULL);
	/* the task's comm, for refault report --by comm */
	snprintf(name, sizeof(name), "wl-p%u.t%u", r->phase + 1, i + 1);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	if (r->cg)
		ret = wl_cgroups_enter(r->cg->child[i], msg, sizeof(msg));
	if (!ret) {
		t.path = r->paths[s->file];
		t.file_size = r->p->file_size[s->file];
		rf_xoshiro_seed(&t.rng, s->seed);
		ret = run_stream(&t);
	}
	if (ret) {
		ssize_t n;

		if (!msg[0])
			snprintf(msg, sizeof(msg), "failed");
		n = write(wfd, msg, strlen(msg));	/* less than PIPE_BUF: all or nothing */
		(void)n;
	}
	_exit(ret ? 1 : 0);
}

/* What task @i's pipe says, and how it ended, into @err (the first failure only). */
static void task_result(struct phase_run *r, unsigned int i, int status, int *ret, char *err,
			size_t errlen)
{
	const struct rf_workload_stream *s = &r->p->phases[r->phase].tasks[i];
	char msg[RF_WORKLOAD_ERRLEN] = "", what[PATH_MAX + 64];
	ssize_t n = read(r->pipe[i], msg, sizeof(msg) - 1);

	msg[n > 0 ? n : 0] = 0;
	if (*ret || (WIFEXITED(status) && !WEXITSTATUS(status)))
		return;
	*ret = RF_ERR_IO;
	if (s->kind == RF_WORKLOAD_ANON)
		snprintf(what, sizeof(what), "p%u.t%u (anon)", r->phase + 1, i + 1);
	else
		snprintf(what, sizeof(what), "p%u.t%u (%s of %s)", r->phase + 1, i + 1,
			 rf_workload_kind_name(s->kind), r->paths[s->file]);
	if (WIFSIGNALED(status))
		snprintf(err, errlen, "%s was killed by signal %d (%s)%s", what, WTERMSIG(status),
			 strsignal(WTERMSIG(status)), WTERMSIG(status) == SIGKILL ?
			 ": the OOM killer, if the limit does not hold the draw's anonymous memory" : "");
	else
		snprintf(err, errlen, "%s: %s", what, msg[0] ? msg : "exited with an error");
}

/* Fork the phase's tasks, wait for every one; 0, or the first failure in @err. */
static int fork_and_wait(struct phase_run *r, const sigset_t *old, char *err, size_t errlen)
{
	unsigned int i, n = r->p->phases[r->phase].nr_tasks, forked = 0;
	int ret = 0, status, fds[2];

	for (i = 0; i < n; i++) {
		if (pipe2(fds, O_CLOEXEC)) {
			ret = -errno;
			snprintf(err, errlen, "pipe: %s", strerror(errno));
			break;
		}
		r->pid[i] = fork();
		if (r->pid[i] < 0) {
			ret = -errno;
			snprintf(err, errlen, "fork: %s", strerror(errno));
			close(fds[0]);
			close(fds[1]);
			break;
		}
		if (!r->pid[i]) {
			close(fds[0]);
			child(r, i, fds[1], old);
		}
		close(fds[1]);
		r->pipe[i] = fds[0];
		forked++;
	}
	for (i = 0; i < forked; i++) {
		while (waitpid(r->pid[i], &status, 0) < 0)
			if (errno != EINTR) {
				status = 0;
				break;
			}
		task_result(r, i, status, &ret, err, errlen);
		close(r->pipe[i]);
	}
	return ret;
}

/*
 * One phase: the stop signals held (the tasks get them; the driver takes
 * them once the phase's cgroups are gone), the cgroups made, the tasks run,
 * the cgroups removed.
 */
static int run_phase(struct phase_run *r, char *err, size_t errlen)
{
	char msg[RF_WORKLOAD_ERRLEN];
	sigset_t stop, old;
	int ret = 0, e;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	if (r->cg)
		ret = wl_cgroups_make(r->cg, r->phase + 1, r->p->phases[r->phase].nr_tasks, err,
				      errlen);
	if (!ret)
		ret = fork_and_wait(r, &old, err, errlen);
	if (r->cg) {
		e = wl_cgroups_remove(r->cg, msg, sizeof(msg));
		if (e && !ret) {
			ret = e;
			snprintf(err, errlen, "%s", msg);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static bool any_siblings(const struct rf_workload_params *p)
{
	unsigned int i;

	for (i = 0; i < p->nr_phases; i++)
		if (p->phases[i].siblings)
			return true;
	return false;
}

int rf_workload_run(const struct rf_workload_params *p, const char *dir, char *err, size_t errlen)
{
	struct phase_run r = { .p = p };
	struct wl_cgroups *cg = NULL;
	unsigned int i;
	int ret = rf_workload_check_files(p, dir, err, errlen);

	if (ret)
		return ret;
	for (i = 0; i < p->nr_files; i++)
		rf_workload_file_path(p, dir, i, r.paths[i], sizeof(r.paths[i]));
	if (any_siblings(p)) {
		cg = malloc(sizeof(*cg));
		if (!cg) {
			snprintf(err, errlen, "out of memory");
			return RF_ERR_NOMEM;
		}
		ret = wl_cgroups_find(cg, err, errlen);
	}
	for (i = 0; i < p->nr_phases && !ret; i++) {
		r.phase = i;
		r.cg = p->phases[i].siblings ? cg : NULL;
		ret = run_phase(&r, err, errlen);
	}
	free(cg);
	return ret;
}
