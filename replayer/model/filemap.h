/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page cache paths of file I/O (mm/filemap.c): insertion, reads,
 * writes and file faults (filemap.c), where a file's previous reads ended
 * (readpos.c: f_ra.prev_pos), and what takes pages out of a file: truncation
 * and invalidation (truncate.c, mm/truncate.c), POSIX_FADV_DONTNEED
 * (fadvise.c, mm/fadvise.c).  Readahead is readahead.h's.
 */
#ifndef REFAULT_MODEL_FILEMAP_H
#define REFAULT_MODEL_FILEMAP_H

#include "model-local.h"

/*
 * What a struct file's f_ra.prev_pos tells filemap_read(): where the
 * previous read of the open file ended (readpos.c).  The trace has neither
 * open-file identity nor descriptors, so (pid, mapping) stands for the task's
 * files of that mapping, with the end of its last READ_STREAMS reads (a task
 * may read one file through several descriptors: a stream and random
 * reads).  A fixed table, one entry per hash slot; a colliding (pid, mapping)
 * takes the slot over.
 */
#define READ_STATE_SLOTS	2048u
#define READ_STREAMS		8u	/* the bits of rf_read_state.continued */

struct rf_read_state {
	uint32_t mapping_plus1;		/* 0: slot unused */
	int32_t pid;
	uint64_t last[READ_STREAMS];	/* page index each stream's previous read ended in */
	uint8_t nr;			/* streams in use, most recent first */
	uint8_t continued;		/* bit per position: a read went on from it */
};

/*
 * The pages of a read, write or readahead event at @index, @nr long (0: one
 * page), bounded as the kernel bounds them: one read() or write() moves at
 * most MAX_RW_COUNT bytes (INT_MAX & PAGE_MASK, rw_verify_area(),
 * fs/read_write.c, v4.6.2 and v6.18), a file_readahead is the folios one
 * such read or one fault brought in (docs/recording.md), and no file has a
 * page at or past MAX_LFS_FILESIZE (LLONG_MAX bytes, include/linux/fs.h).
 * 0: the event is past the end of any file.
 */
static inline uint64_t file_range(const struct rf_model *m, uint64_t index, uint64_t nr)
{
	uint64_t max_rw = (uint64_t)INT32_MAX >> page_shift(m);
	uint64_t end = (uint64_t)INT64_MAX >> page_shift(m);

	if (index >= end)
		return 0;
	if (!nr)
		nr = 1;
	if (nr > max_rw)
		nr = max_rw;
	return nr < end - index ? nr : end - index;
}

/* ------------------------------------------------------------ filemap.c */

/* The mapping of file (@dev, @ino), made at its first use; RF_NONE (m->error) without memory. */
uint32_t file_mapping(struct rf_model *m, uint32_t dev, uint64_t ino);
/*
 * The checks of a public entry point given a folio of 2^@order pages at
 * *@index of file (@dev, @ino): its mapping, *@index aligned down to the
 * folio; RF_NONE with *@ret the entry point's return (m->error,
 * RF_ERR_STATE after rf_model_finish(), 0 for a folio past the largest
 * file) when there is nothing to do.
 */
uint32_t entry_folio_mapping(struct rf_model *m, uint32_t dev, uint64_t ino, uint64_t *index,
			     unsigned int order, int *ret);
/*
 * add_to_page_cache_lru() (filemap_add_folio()): a folio of 2^@order pages
 * at @index, charged to @memcg, into the tree and this CPU's batch, its
 * refault judged; @write: grab_cache_page_write_begin()'s.  The page, or
 * RF_NIL if its allocation or charge failed (@gfp) or without memory.
 */
uint32_t insert_folio(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		      uint32_t memcg, bool write, enum rf_gfp gfp);
/*
 * A read (@rs: the file's previous reads) or a write (@write, @rs NULL) of
 * @nr pages at @index: misses inserted (folios of 2^@order where the range
 * is free), each folio marked accessed once (filemap_read(),
 * generic_perform_write()).
 */
void file_rw(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr, unsigned int order,
	     uint32_t memcg, bool write, struct rf_read_state *rs);
/* The RF_REF_* flags of file fault @ev with its vma's read hint; *@exec (may be NULL): VM_EXEC. */
uint8_t file_fault_flags(const struct rf_model *m, const struct rf_event *ev, bool *exec);
/* filemap_fault(): a miss is a major fault; the page mapped, not marked accessed. */
void file_fault(struct rf_model *m, const struct rf_event *ev, uint32_t memcg);

/* ------------------------------------------------------------ readpos.c */

/* The entry of (@pid, @mapping), reset if another pair held its slot; NULL without memory. */
struct rf_read_state *read_state_get(struct rf_model *m, int32_t pid, uint32_t mapping);
/*
 * The position a read starting at page @index, in folio @folio, goes on
 * from, or -1 (a new one); *@skip: it continues the access that read made,
 * so its first folio is not marked.
 */
int read_state_match(struct rf_model *m, const struct rf_read_state *rs, uint64_t index,
		     uint32_t folio, bool *skip);
/* The read ended in page @last, going on from position @stream (-1: a new one). */
void read_state_done(struct rf_read_state *rs, int stream, uint64_t last, bool streams);
/* The task exited: its pid may come back as another task, which has read nothing. */
void read_state_forget(struct rf_model *m, int32_t pid);

/* ------------------------------------------------- truncate.c, fadvise.c */

/* invalidate_mapping_pages() on [@first, @last]: the number of pages a batch held (busy). */
uint32_t invalidate_mapping_pages(struct rf_model *m, uint32_t mapping, uint64_t first,
				  uint64_t last);
/* A truncate from page @start (the whole file with @unlink: truncate_inode_pages_final()). */
void truncate_inode_pages_range(struct rf_model *m, uint32_t mapping, uint64_t start, bool unlink);
/* generic_fadvise(): @advice (POSIX_FADV_*) on [@index, @index + @nr) (@nr 0: to the end). */
void generic_fadvise(struct rf_model *m, uint32_t mapping, uint32_t advice, uint64_t index,
		     uint64_t nr);

#endif /* REFAULT_MODEL_FILEMAP_H */
