/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --idle-pages: the accessed bits of the recorded processes' mapped pages,
 * from idle page tracking (Documentation/admin-guide/mm/idle_page_tracking.rst,
 * mm/page_idle.c, CONFIG_IDLE_PAGE_TRACKING).  A mapped page touched again
 * while its PTE is present raises no fault; only its PTE's accessed bit says
 * so, and reclaim reads that bit.  Each scan walks every process of the
 * scope: /proc/PID/maps for its mappings, /proc/PID/pagemap for the frame of
 * each present page, then /sys/kernel/mm/page_idle/bitmap (one bit a frame,
 * 64-bit words) for the frames the scan before marked idle: a frame whose
 * bit is clear now was accessed since (page_idle_bitmap_read() clears it for
 * a young PTE or folio, page_idle_clear_pte_refs()).  Runs of such pages are
 * pte_young events of the process's address space.  Then every present frame
 * is marked idle again (page_idle_bitmap_write()), which moves each young
 * PTE bit to the folio's own young flag, where folio_referenced() still
 * finds it: the marking does not change what reclaim decides (the
 * multi-gen LRU's page-table walk, which reads PTEs alone, is the
 * exception; docs/recording.md).  Frames are read with CAP_SYS_ADMIN only
 * (pagemap hides them otherwise), so the recorder, which runs as root, can.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refault/errors.h>

#include "lib/clock.h"
#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "recorder/idle.h"
#include "recorder/record-local.h"

#define IDLE_BITMAP		"/sys/kernel/mm/page_idle/bitmap"
#define PM_PRESENT		(1ull << 63)
#define PM_FILE			(1ull << 61)	/* a page-cache page (or shared anonymous) */
#define PM_MMAP_EXCLUSIVE	(1ull << 56)	/* mapped once */
#define PM_PFN_MASK		((1ull << 55) - 1)
#define PAGEMAP_BATCH		4096u		/* entries read at once: 32 KiB */

/* frame -> the identity of the page it held when marked (page_key()) */
RF_HASHMAP_DEFINE(pfn_set, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 50)
RF_HASHMAP_DEFINE(word_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 50)

/* A present page of a process: its address, frame, and the vma it is in (its file, if a file page). */
struct present {
	uint64_t addr;
	uint64_t pfn;
	uint32_t vma;		/* index in rec_idle.vmas */
	bool file;
};

struct rec_idle {
	int bitmap;			/* IDLE_BITMAP, read-write */
	unsigned int page_shift;
	struct pfn_set marked;		/* the frames the scan before marked idle, and their pages */
	struct pfn_set next;		/* those this scan marks */
	struct word_map to_mark;	/* bitmap word -> the bits this scan sets */
	struct present *pages;		/* of the process being scanned */
	size_t nr, cap;
	struct rec_vmas vmas;		/* its mappings */
	uint64_t *words;		/* sorted word indexes, for reads and writes */
	size_t nr_words, cap_words;
	uint64_t *buf;			/* pagemap entries, bitmap words */
	struct rf_idle_stats st;
};

int rec_idle_open(struct rec_idle **out, char *msg, size_t len)
{
	struct rec_idle *ix;

	*out = NULL;
	ix = calloc(1, sizeof(*ix));
	if (!ix)
		return RF_ERR_NOMEM;
	ix->buf = malloc(PAGEMAP_BATCH * sizeof(*ix->buf));
	if (!ix->buf) {
		free(ix);
		return RF_ERR_NOMEM;
	}
	ix->page_shift = (unsigned int)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE));
	ix->bitmap = open(IDLE_BITMAP, O_RDWR | O_CLOEXEC);
	if (ix->bitmap < 0) {
		int e = errno;

		snprintf(msg, len, "--idle-pages: cannot open %s: %s%s", IDLE_BITMAP, strerror(e),
			 e == ENOENT ? " (this kernel has no idle page tracking: "
				       "CONFIG_IDLE_PAGE_TRACKING; refault lab's kernels have it)" :
				       e == EACCES || e == EPERM ? " (it needs root)" : "");
		free(ix->buf);
		free(ix);
		return -e;
	}
	*out = ix;
	return 0;
}

void rec_idle_free(struct rec_idle *ix)
{
	if (!ix)
		return;
	close(ix->bitmap);
	pfn_set_destroy(&ix->marked);
	pfn_set_destroy(&ix->next);
	word_map_destroy(&ix->to_mark);
	free(ix->pages);
	rec_vmas_free(&ix->vmas);
	free(ix->words);
	free(ix->buf);
	free(ix);
}

const struct rf_idle_stats *rec_idle_stats(const struct rec_idle *ix)
{
	return &ix->st;
}

/*
 * The present pages of vma @vi from pagemap @fd, appended to ix->pages.  A
 * page that is neither a page-cache page nor mapped once is not one of the
 * LRU's: the zero page, a special mapping's ([vdso]), or an anonymous page
 * shared since a fork (left out: its sharers would all report it).
 */
static int read_range(struct rec_idle *ix, int fd, uint32_t vi)
{
	const struct rec_vma *v = &ix->vmas.v[vi];
	uint64_t vpn = v->start >> ix->page_shift, last = v->end >> ix->page_shift;

	while (vpn < last) {
		size_t want = last - vpn < PAGEMAP_BATCH ? (size_t)(last - vpn) : PAGEMAP_BATCH, i;
		ssize_t got = pread(fd, ix->buf, want * sizeof(*ix->buf),
				    (off_t)(vpn * sizeof(*ix->buf)));

		if (got <= 0)
			return 0;	/* the mapping went away, or the process did */
		for (i = 0; i < (size_t)got / sizeof(*ix->buf); i++) {
			uint64_t e = ix->buf[i];

			if (!(e & PM_PRESENT) || !(e & PM_PFN_MASK) ||
			    !(e & (PM_FILE | PM_MMAP_EXCLUSIVE)))
				continue;	/* not present, the frame hidden, or not the LRU's */
			if (RF_GROW(ix->pages, ix->cap, ix->nr + 1))
				return RF_ERR_NOMEM;
			ix->pages[ix->nr++] = (struct present){
				.addr = (vpn + i) << ix->page_shift, .pfn = e & PM_PFN_MASK,
				.vma = vi, .file = (e & PM_FILE) && v->ino };
		}
		vpn += (size_t)got / sizeof(*ix->buf);
	}
	return 0;
}

/* The present pages of process @tgid's mappings, in address order, into ix->pages. */
static int read_process(struct rec_idle *ix, int32_t tgid)
{
	char path[64];
	uint32_t i;
	int fd, err = 0;

	ix->nr = 0;
	rec_vmas_free(&ix->vmas);
	if (rec_vmas_load(&ix->vmas, tgid))
		return 0;	/* gone */
	snprintf(path, sizeof(path), "/proc/%" PRId32 "/pagemap", tgid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	for (i = 0; fd >= 0 && !err && i < ix->vmas.nr; i++)
		if (ix->vmas.v[i].end > ix->vmas.v[i].start &&
		    ix->vmas.v[i].start < 0xffff800000000000ull)	/* not [vsyscall] */
			err = read_range(ix, fd, i);
	if (fd >= 0)
		close(fd);
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The bitmap words of ix->words (sorted, unique) read into ix->buf's place
 * for each, or written from @vals, in runs of adjacent words.
 */
static int bitmap_io(struct rec_idle *ix, uint64_t *vals, bool write)
{
	size_t i = 0, j;

	while (i < ix->nr_words) {
		ssize_t n;

		for (j = i + 1; j < ix->nr_words && ix->words[j] == ix->words[j - 1] + 1 &&
		     j - i < PAGEMAP_BATCH; j++)
			;
		n = write ? pwrite(ix->bitmap, vals + i, (j - i) * 8, (off_t)(ix->words[i] * 8)) :
			    pread(ix->bitmap, vals + i, (j - i) * 8, (off_t)(ix->words[i] * 8));
		if (n < 0 && errno != ENXIO)
			return -errno;
		if (n < (ssize_t)((j - i) * 8) && !write)	/* past the last frame: not idle */
			memset(vals + i + (n > 0 ? n / 8 : 0), 0,
			       (j - i - (size_t)(n > 0 ? n / 8 : 0)) * 8);
		i = j;
	}
	return 0;
}

static int push_word(struct rec_idle *ix, uint64_t w)
{
	if (RF_GROW(ix->words, ix->cap_words, ix->nr_words + 1))
		return RF_ERR_NOMEM;
	ix->words[ix->nr_words++] = w;
	return 0;
}

/*
 * What page frame @p holds, as a key: the file page (device, inode, index)
 * or the anonymous page (address space, address).  A frame the scan before
 * marked may have been freed since and given to another page, whose bit
 * reads "not idle" (a new folio's flags start clear): only a frame that
 * still holds the page it held then says that page was accessed.
 */
static uint64_t page_key(const struct rec_idle *ix, const struct present *p, uint64_t mm)
{
	const struct rec_vma *v = &ix->vmas.v[p->vma];

	if (p->file)
		return rf_hash64(rf_hash64(((uint64_t)v->dev << 32) ^ v->ino) ^
				 (v->pgoff + ((p->addr - v->start) >> ix->page_shift))) | 1;
	return rf_hash64(rf_hash64(mm) ^ p->addr) | 1;
}

/* The sorted, unique words of the frames of ix->pages that the scan before marked. */
static int marked_words(struct rec_idle *ix)
{
	size_t i, k = 0;

	ix->nr_words = 0;
	for (i = 0; i < ix->nr; i++)
		if (pfn_set_get(&ix->marked, ix->pages[i].pfn) && push_word(ix, ix->pages[i].pfn >> 6))
			return RF_ERR_NOMEM;
	if (!ix->nr_words)
		return 0;
	qsort(ix->words, ix->nr_words, sizeof(*ix->words), cmp_u64);
	for (i = 1; i < ix->nr_words; i++)
		if (ix->words[i] != ix->words[k])
			ix->words[++k] = ix->words[i];
	ix->nr_words = k + 1;
	return 0;
}

/* The bitmap word of @pfn among ix->words (read into @vals): whether its bit says idle. */
static bool is_idle(const struct rec_idle *ix, const uint64_t *vals, uint64_t pfn)
{
	size_t lo = 0, hi = ix->nr_words;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->words[mid] < pfn >> 6)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->nr_words && ix->words[lo] == pfn >> 6 && (vals[lo] >> (pfn & 63) & 1);
}

/* The run [@start, @end) of accessed pages, all of @first's kind and vma. */
static int emit_run(struct rec_idle *ix, struct rf_norm *n, int32_t tgid, uint64_t mm,
		    uint64_t time, const struct present *first, uint64_t end)
{
	struct rf_event ev = { .time = time, .pid = tgid, .type = RF_EV_PTE_YOUNG };
	const struct rec_vma *v = &ix->vmas.v[first->vma];

	ev.u.young.mm = mm;
	ev.u.young.start = first->addr;
	ev.u.young.end = end;
	if (first->file) {
		ev.u.young.dev = v->dev;
		ev.u.young.ino = v->ino;
		ev.u.young.index = v->pgoff + ((first->addr - v->start) >> ix->page_shift);
	}
	return rec_norm_emit(n, &ev);
}

/*
 * Is @p's frame still mapped at its address?  The bitmap is read after the
 * whole of pagemap: reclaim that evicts the page meanwhile frees its frame,
 * whose bit then reads "not idle" (page_idle_get_folio() finds no folio on
 * an LRU), as it does for a frame a new page got.  On a sequential mapped
 * read through a memcg, runs of up to 285 pages behind the reader, which
 * reclaim was evicting, were reported so; only a frame pagemap still shows
 * after the read is.  @fd: the process's pagemap, opened on first use.
 */
static bool still_mapped(const struct rec_idle *ix, int32_t tgid, int *fd,
			 const struct present *p)
{
	uint64_t e = 0;

	if (*fd < 0) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%" PRId32 "/pagemap", tgid);
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		if (*fd < 0)
			return false;	/* gone */
	}
	if (pread(*fd, &e, sizeof(e), (off_t)((p->addr >> ix->page_shift) * sizeof(e))) !=
	    (ssize_t)sizeof(e))
		return false;
	return (e & PM_PRESENT) && (e & PM_PFN_MASK) == p->pfn;
}

/* One process: its accessed pages since the scan before as pte_young runs; its frames to mark. */
static int scan_process(struct rec_idle *ix, struct rf_norm *n, int32_t tgid, uint64_t mm,
			uint64_t time)
{
	uint64_t *vals = NULL, run_end = 0, page = 1ull << ix->page_shift;
	const struct present *run = NULL;
	size_t i;
	int err = read_process(ix, tgid), pm = -1;

	if (!err)
		err = marked_words(ix);
	if (!err && ix->nr_words) {
		vals = calloc(ix->nr_words, sizeof(*vals));
		err = vals ? bitmap_io(ix, vals, false) : RF_ERR_NOMEM;
	}
	for (i = 0; i < ix->nr && !err; i++) {
		const struct present *p = &ix->pages[i];
		bool fresh;
		uint64_t *mask = word_map_slot(&ix->to_mark, p->pfn >> 6, &fresh);
		uint64_t key = page_key(ix, p, mm);
		const uint64_t *was = pfn_set_get(&ix->marked, p->pfn);

		if (!mask || pfn_set_put(&ix->next, p->pfn, key)) {
			err = RF_ERR_NOMEM;
			break;
		}
		*mask |= 1ull << (p->pfn & 63);
		ix->st.pages++;
		if (!vals || !was || *was != key || is_idle(ix, vals, p->pfn) ||
		    !still_mapped(ix, tgid, &pm, p))
			continue;	/* not marked, another page's then, idle, or gone */
		ix->st.young++;
		/* a run: adjacent pages of one vma and one kind */
		if (run && run_end == p->addr && run->vma == p->vma && run->file == p->file) {
			run_end += page;
			continue;
		}
		if (run)
			err = emit_run(ix, n, tgid, mm, time, run, run_end);
		run = p;
		run_end = p->addr + page;
	}
	if (!err && run)
		err = emit_run(ix, n, tgid, mm, time, run, run_end);
	if (pm >= 0)
		close(pm);
	free(vals);
	return err;
}

struct scan_ctx {
	struct rec_idle *ix;
	struct rf_norm *n;
	uint64_t time;
};

static int scan_one(void *vctx, int32_t tgid, uint64_t mm)
{
	struct scan_ctx *c = vctx;

	return scan_process(c->ix, c->n, tgid, mm, c->time);
}

/* Every frame this scan found present, marked idle: the next scan reads them. */
static int mark_all(struct rec_idle *ix)
{
	struct word_map_slot *s = NULL;
	uint64_t *vals;
	size_t i;
	int err;

	ix->nr_words = 0;
	while ((s = word_map_next(&ix->to_mark, s)) != NULL)
		if (push_word(ix, s->key))
			return RF_ERR_NOMEM;
	if (!ix->nr_words)
		return 0;
	qsort(ix->words, ix->nr_words, sizeof(*ix->words), cmp_u64);
	vals = malloc(ix->nr_words * sizeof(*vals));
	if (!vals)
		return RF_ERR_NOMEM;
	for (i = 0; i < ix->nr_words; i++)
		vals[i] = *word_map_get(&ix->to_mark, ix->words[i]);
	err = bitmap_io(ix, vals, true);
	free(vals);
	return err;
}

int rec_idle_scan(struct rec_idle *ix, struct rf_norm *n)
{
	uint64_t t0 = rf_mono_ns();
	struct scan_ctx c = { .ix = ix, .n = n, .time = t0 };
	struct pfn_set tmp;
	int err;

	word_map_destroy(&ix->to_mark);
	pfn_set_destroy(&ix->next);
	err = rec_norm_each_process(n, scan_one, &c);
	if (!err)
		err = mark_all(ix);
	tmp = ix->marked;
	ix->marked = ix->next;
	ix->next = tmp;
	ix->st.scans++;
	ix->st.ns += rf_mono_ns() - t0;
	return err;
}
