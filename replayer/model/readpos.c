/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the previous read of a file ended: the f_ra.prev_pos that decides
 * whether a read's first folio is a new access (filemap_read(), v6.18;
 * do_generic_file_read(), v4.6.2; the rule itself is in filemap.c, file_rw()).
 *
 * The kernel keeps one position per open file.  A trace names the task and
 * the file, not the descriptor, and a task may read one file through several
 * (the validation suite's "hot" workload: a 64 KiB stream and random 4 KiB
 * reads, each on its own descriptor, in 2 MiB folios).  So each (pid,
 * mapping) keeps the end of its last READ_STREAMS reads, most recent first.
 * A read goes on from the most recent one if it starts in the folio that
 * read ended in: the kernel's rule, as if every read went through one
 * descriptor.  Else it goes on from a read whose sequential successor it is
 * (it starts on the next page; a stream on a descriptor of its own, other
 * reads in between), and is the same access only within the same folio.
 * With base pages a successor is never in the same folio, so only the most
 * recent read counts there: exactly the one-descriptor rule.  A read that
 * goes on from none takes the place of the least recent position nothing
 * went on from (random reads replace each other, a stream keeps its place),
 * else of the least recent.
 *
 * The positions live in a fixed table of READ_STATE_SLOTS entries, one per
 * slot of a hash of (pid, mapping), and a pair that lands on a used slot
 * takes it over: memory stays bounded, and a file whose slot was taken is
 * read as a fresh one.  That is part of what the model decides, so the
 * table is not a lib/hashmap.h map (which would keep every pair) and its
 * hash must stay as it is.
 */
#include <stdlib.h>
#include <string.h>

#include "model-local.h"
#include "filemap.h"

/* The entry of (@pid, @mapping), reset if another pair held its slot; NULL without memory. */
struct rf_read_state *read_state_get(struct rf_model *m, int32_t pid, uint32_t mapping)
{
	struct rf_read_state *rs = m->last_read_state;
	uint64_t h;

	if (rs && rs->mapping_plus1 == mapping + 1 && rs->pid == pid)
		return rs;
	if (!m->read_state) {
		m->read_state = calloc(READ_STATE_SLOTS, sizeof(*m->read_state));
		if (!m->read_state) {
			m->error = RF_ERR_NOMEM;
			return NULL;
		}
	}
	h = (uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ull ^
	    (uint64_t)mapping * 0xbf58476d1ce4e5b9ull;
	h ^= h >> 31;
	rs = &m->read_state[h & (READ_STATE_SLOTS - 1)];
	if (rs->mapping_plus1 != mapping + 1 || rs->pid != pid) {
		memset(rs, 0, sizeof(*rs));
		rs->mapping_plus1 = mapping + 1;
		rs->pid = pid;
	}
	m->last_read_state = rs;
	return rs;
}

/* Whether page @last, where a read ended, is in the folio @p (v6.18) or is page @index (v4.x). */
static bool same_unit(const struct rf_model *m, const struct rf_page *p, uint64_t index,
		      uint64_t last)
{
	if (m->p->read_same_folio)
		return last >= p->index && last - p->index < page_nr(p);
	return last == index;
}

/*
 * The position a read starting at page @index, in folio @folio, goes on
 * from, or -1 (a new one); *@skip says whether it continues the access that
 * read made, so its first folio is not marked.  The most recent read's if
 * it ended in that folio (read_same_folio, v6.18 pos_same_folio()) or that
 * page (v4.x/v5.10 prev_index): skipped.  Else a read this one is the
 * sequential successor of (it starts on the next page): skipped if that
 * page is in the same folio.
 */
int read_state_match(struct rf_model *m, const struct rf_read_state *rs, uint64_t index,
		     uint32_t folio, bool *skip)
{
	const struct rf_page *p = P(m, folio);
	unsigned int i;

	*skip = false;
	if (!rs->nr)
		return -1;
	if (same_unit(m, p, index, rs->last[0])) {
		*skip = true;
		return 0;
	}
	if (index == rs->last[0] + 1)
		return 0;	/* the next page: not in the same unit (checked above) */
	if (!m->p->read_same_folio || page_nr(p) == 1)
		return -1;	/* a successor is never in the same page: the most recent counts */
	for (i = 1; i < rs->nr; i++) {
		if (index == rs->last[i] + 1) {
			*skip = same_unit(m, p, index, rs->last[i]);
			return (int)i;
		}
	}
	return -1;
}

static void move_to_front(struct rf_read_state *rs, unsigned int i)
{
	uint64_t last = rs->last[i];
	unsigned int cont = (rs->continued >> i) & 1, low = (1u << i) - 1, j;

	for (j = i; j > 0; j--)
		rs->last[j] = rs->last[j - 1];
	rs->last[0] = last;
	rs->continued = (uint8_t)((rs->continued & ~(low | (1u << i))) |
				  ((rs->continued & low) << 1) | cont);
}

/*
 * The read ended in page @last; it went on from position @stream (-1: a
 * new one).  Without @streams (base pages only so far, or a profile without
 * the folio rule) only the most recent read can matter: it replaces it.
 */
void read_state_done(struct rf_read_state *rs, int stream, uint64_t last, bool streams)
{
	unsigned int i;

	if (stream == 0 || !streams) {	/* the most recent read goes on: the common case */
		if (!rs->nr)
			rs->nr = 1;
		if (stream)
			rs->continued &= (uint8_t)~1u;
		else
			rs->continued |= 1;
		rs->last[0] = last;
		return;
	}
	if (stream > 0) {
		i = (unsigned int)stream;
		rs->continued |= (uint8_t)(1u << i);
	} else if (rs->nr < READ_STREAMS) {
		i = rs->nr++;
		rs->continued &= (uint8_t)~(1u << i);
	} else {
		unsigned int never = (uint8_t)~rs->continued;	/* READ_STREAMS is 8: every bit */

		/* the least recent position nothing went on from, else the least recent */
		i = never ? 31u - (unsigned int)__builtin_clz(never) : READ_STREAMS - 1;
		rs->continued &= (uint8_t)~(1u << i);
	}
	rs->last[i] = last;
	move_to_front(rs, i);
}

void read_state_forget(struct rf_model *m, int32_t pid)
{
	unsigned int i;

	if (!m->read_state)
		return;
	for (i = 0; i < READ_STATE_SLOTS; i++)
		if (m->read_state[i].mapping_plus1 && m->read_state[i].pid == pid)
			memset(&m->read_state[i], 0, sizeof(m->read_state[i]));
	m->last_read_state = NULL;
}
