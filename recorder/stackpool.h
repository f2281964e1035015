/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stackpool.c: the blocks perfstack.c copies the samples' user stacks into.
 *
 * Fixed-size blocks, carved from chunks mapped with their pages already
 * present (MAP_POPULATE) and reused through a free list: the ring thread must
 * copy faster than the kernel fills the rings (a program reading cached pages
 * makes ~250 MB/s of 8 KiB stacks on one CPU), and a fresh heap page faulted
 * in at each copy halved its rate.  Nothing is returned before
 * rec_stack_pool_destroy(): the pool holds its peak (the samples of the
 * half-second a sample waits for its reference), which the caller bounds.
 * Not thread-safe: the caller locks.
 */
#ifndef REFAULT_RECORDER_STACKPOOL_H
#define REFAULT_RECORDER_STACKPOOL_H

#include <stddef.h>
#include <stdint.h>

struct rf_stack_pool {
	size_t block;		/* bytes a block */
	void *free;		/* the free blocks, each linked through its first bytes */
	void **chunks;		/* mapped, to unmap */
	size_t nr_chunks, cap_chunks;
	size_t chunk_bytes;
};

/* A pool of @block-byte blocks (rounded up to 64). */
void rec_stack_pool_init(struct rf_stack_pool *p, size_t block);
/* A block of p->block bytes, or NULL (no memory). */
uint8_t *rec_stack_pool_get(struct rf_stack_pool *p);
/* Give back a block rec_stack_pool_get() gave; NULL is ignored. */
void rec_stack_pool_put(struct rf_stack_pool *p, uint8_t *b);
void rec_stack_pool_destroy(struct rf_stack_pool *p);

#endif /* REFAULT_RECORDER_STACKPOOL_H */
