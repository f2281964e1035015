/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The folios the kernel reads for itself.  A file system's metadata (inode
 * tables, directories, bitmaps, extent blocks) lives in the page cache of
 * the block device: sb_bread() and __getblk() add its folios, charged to
 * the memcg of the task that needed them, and every buffer lookup marks
 * them accessed (touch_buffer(), mark_buffer_accessed(): v6.18
 * fs/buffer.c).  The trace sees their adds and insertions, never a
 * reference: nothing a task reads names the block device.  After `record
 * --cold` an exec alone reads some hundreds of them into the recorded
 * memcg, on the active list (accessed twice before the CPU's batch
 * drained), and a recorded memcg with active file pages is one whose
 * refaults can be activated (workingset_refault(): the refault distance
 * against the workingset, active file pages included); a model without
 * them starts with no active list and keeps none for a while.
 *
 * The scan (replay_warm_scan()) keeps each add of a file until its
 * insertion, and takes the insertion's list as the accesses the trace
 * cannot carry: on the active file list (enum lru_list: LRU_ACTIVE_FILE,
 * 3) two, else one; a multi-gen LRU recording always reports the inactive
 * list (lru_gen_add_folio() clears PG_active), so one.  A file that any
 * reference or readahead of the trace names is the workload's, and none of
 * its adds are kept.  A write names the pages it dirtied only: the file
 * system dirties its metadata in the block device's cache from the task that
 * changed an inode (mark_buffer_dirty(): a file_write of one block), which
 * leaves the block device's other folios the kernel's own; once the writes
 * of a file have named more than KREAD_WRITE_PAGES pages, they name the
 * whole file, as a reference does (and the pages kept stay that many a
 * file).  At each kept add the model reads the folio in with those accesses
 * (rf_model_kernel_read()), so its own policy puts it where the accesses
 * take it.
 */
#include <stdlib.h>

#include <refault/errors.h>

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "replayer/replay/replay-local.h"

/* An add waiting for its insertion: its folio. */
struct kread_add {
	uint64_t space_key;
	uint64_t first;
	uint8_t order;
};

/* A kept add, by kread_key(): its file's key, its first page, its order << 2 | accesses. */
struct kread_verdict {
	uint64_t space_key;
	uint64_t first;
	uint8_t v;
};

RF_HASHMAP_DEFINE(kadd_map, uint64_t, struct kread_add, rf_hash64, RF_HASHMAP_EQ, 50)
RF_HASHMAP_DEFINE(kverdict_map, uint64_t, struct kread_verdict, rf_hash64, RF_HASHMAP_EQ, 50)
RF_HASHMAP_DEFINE(space_set, uint64_t, uint8_t, rf_hash64, RF_HASHMAP_EQ, 75)
RF_HASHMAP_DEFINE(space_count, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* As the warm stage's adds: more waiting means the insertions are not in the trace. */
#define MAX_WAITING		(1u << 16)
/* Writes of more pages of a file than this are a workload's, not metadata blocks'. */
#define KREAD_WRITE_PAGES	64u

struct replay_kread {
	struct kadd_map waiting;	/* pfn -> an add not yet inserted */
	struct kverdict_map kept;	/* kread_key() -> the add's verdict */
	struct space_set named;		/* files a reference, readahead or large write names */
	struct space_set written;	/* rf_page_key() of the pages small writes name */
	struct space_count written_pages;	/* a file's pages in written */
	uint64_t last_named;		/* the last file put there: most references repeat it */
	bool any_named;
	bool classic;
	uint64_t pages;			/* of the kept adds, after kread_finish() */
};

/* An add, by its folio's first page and its pfn: a later add of the page is another. */
static inline uint64_t kread_key(uint64_t space_key, uint64_t first, uint64_t pfn)
{
	return rf_hash2(rf_page_key(space_key, first), pfn);
}

struct replay_kread *replay_kread_new(bool classic)
{
	struct replay_kread *k = calloc(1, sizeof(*k));

	if (k)
		k->classic = classic;
	return k;
}

void replay_kread_free(struct replay_kread *k)
{
	if (!k)
		return;
	kadd_map_destroy(&k->waiting);
	kverdict_map_destroy(&k->kept);
	space_set_destroy(&k->named);
	space_set_destroy(&k->written);
	space_count_destroy(&k->written_pages);
	free(k);
}

int replay_kread_named(struct replay_kread *k, const struct rf_pages *p, bool write)
{
	const uint32_t *had;
	uint64_t i;

	if (k->any_named && p->space_key == k->last_named)
		return 0;
	had = write ? space_count_get(&k->written_pages, p->space_key) : NULL;
	if (write && p->nr <= KREAD_WRITE_PAGES - (had ? *had : 0)) {
		for (i = 0; i < p->nr; i++)
			if (space_set_put(&k->written, rf_page_key(p->space_key, p->first + i), 1))
				return RF_ERR_NOMEM;
		return space_count_put(&k->written_pages, p->space_key,
				       (uint32_t)((had ? *had : 0) + p->nr));
	}
	k->last_named = p->space_key;
	k->any_named = true;
	return space_set_put(&k->named, p->space_key, 1);
}

int replay_kread_add(struct replay_kread *k, const struct rf_event *ev, const struct rf_pages *p)
{
	if (!p->folio && p->nr > 1)
		return 0;		/* a range, not one folio: no insertion names it */
	if (space_set_get(&k->named, p->space_key))
		return 0;
	if (kadd_map_count(&k->waiting) >= MAX_WAITING)
		kadd_map_destroy(&k->waiting);
	return kadd_map_put(&k->waiting, ev->u.file.pfn, (struct kread_add){
		.space_key = p->space_key, .first = p->first, .order = p->folio ? p->order : 0 });
}

int replay_kread_insertion(struct replay_kread *k, const struct rf_event *ev)
{
	struct kread_add a;
	unsigned int accesses;

	if (!kadd_map_count(&k->waiting) || !kadd_map_del(&k->waiting, ev->u.lru.pfn, &a))
		return 0;
	/* the anonymous lists are not a file's */
	if (ev->u.lru.lru != RF_LRU_INACTIVE_FILE && ev->u.lru.lru != RF_LRU_ACTIVE_FILE)
		return 0;
	accesses = k->classic && ev->u.lru.lru == RF_LRU_ACTIVE_FILE ? 2 : 1;
	return kverdict_map_put(&k->kept, kread_key(a.space_key, a.first, ev->u.lru.pfn),
				(struct kread_verdict){ .space_key = a.space_key, .first = a.first,
							.v = (uint8_t)(a.order << 2 | accesses) });
}

void replay_kread_forget(struct replay_kread *k, const struct rf_event *ev)
{
	if (kadd_map_count(&k->waiting))
		kadd_map_del(&k->waiting, ev->u.file.pfn, NULL);
}

/* Did a small write name a page of the folio of @v? */
static bool kread_written(const struct replay_kread *k, const struct kread_verdict *v)
{
	uint64_t i, nr = 1ull << (v->v >> 2);

	for (i = 0; space_set_count(&k->written) && i < nr; i++)
		if (space_set_get(&k->written, rf_page_key(v->space_key, v->first + i)))
			return true;
	return false;
}

/*
 * The end of the scan: the adds of files the trace named after all, and of
 * pages a write named, are not the kernel's own.
 */
int replay_kread_finish(struct replay_kread *k)
{
	struct kverdict_map_slot *s = NULL;
	struct kverdict_map keep = { 0 };
	int e = 0;

	kadd_map_destroy(&k->waiting);
	while (!e && (s = kverdict_map_next(&k->kept, s)) != NULL) {
		if (space_set_get(&k->named, s->val.space_key) || kread_written(k, &s->val))
			continue;
		e = kverdict_map_put(&keep, s->key, s->val);
		k->pages += 1ull << (s->val.v >> 2);
	}
	kverdict_map_destroy(&k->kept);
	space_set_destroy(&k->named);
	space_set_destroy(&k->written);
	space_count_destroy(&k->written_pages);
	k->kept = keep;
	return e;
}

uint64_t replay_kread_pages(const struct replay_kread *k)
{
	return k ? k->pages : 0;
}

int replay_kread_plant(const struct replay_kread *k, struct rf_model *m, const struct rf_event *ev,
		       const struct rf_pages *p)
{
	const struct kread_verdict *v;

	if (!k || !kverdict_map_count(&k->kept) ||
	    !(v = kverdict_map_get(&k->kept, kread_key(p->space_key, p->first, ev->u.file.pfn))))
		return 0;
	return rf_model_kernel_read(m, ev->u.file.cgroup, p->space.dev, p->space.id, p->first,
				    v->v >> 2, v->v & 3u);
}
