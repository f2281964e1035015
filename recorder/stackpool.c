/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fixed-size blocks for the copied user stacks (stackpool.h says why). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/grow.h"
#include "recorder/stackpool.h"

#define BLOCKS_A_CHUNK	256u	/* 2 MiB of 8 KiB blocks: one mmap() a ~250 samples */

void rec_stack_pool_init(struct rf_stack_pool *p, size_t block)
{
	memset(p, 0, sizeof(*p));
	p->block = (block + 63) & ~(size_t)63;
	if (p->block < sizeof(void *))
		p->block = 64;
	p->chunk_bytes = p->block * BLOCKS_A_CHUNK;
}

static int grow(struct rf_stack_pool *p)
{
	uint8_t *c;
	size_t i;

	if (RF_GROW(p->chunks, p->cap_chunks, p->nr_chunks + 1))
		return -1;
	c = mmap(NULL, p->chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		 -1, 0);
	if (c == MAP_FAILED)
		return -1;
	p->chunks[p->nr_chunks++] = c;
	for (i = BLOCKS_A_CHUNK; i-- > 0;)
		rec_stack_pool_put(p, c + i * p->block);
	return 0;
}

uint8_t *rec_stack_pool_get(struct rf_stack_pool *p)
{
	uint8_t *b;

	if (!p->free && grow(p))
		return NULL;
	b = p->free;
	memcpy(&p->free, b, sizeof(p->free));
	return b;
}

void rec_stack_pool_put(struct rf_stack_pool *p, uint8_t *b)
{
	if (!b)
		return;
	memcpy(b, &p->free, sizeof(p->free));
	p->free = b;
}

void rec_stack_pool_destroy(struct rf_stack_pool *p)
{
	size_t i;

	for (i = 0; i < p->nr_chunks; i++)
		munmap(p->chunks[i], p->chunk_bytes);
	free(p->chunks);
	memset(p, 0, sizeof(*p));
}
