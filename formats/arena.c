/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Chunk-lifetime storage for decoded strings, counter lists and stack
 * frames.  Blocks are kept across resets so a reader that decodes chunk
 * after chunk stops allocating once it has seen its largest chunk.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/format-local.h"

struct fmt_arena_block {
	struct fmt_arena_block *next;
	size_t size;
	size_t used;
	max_align_t data[];
};

#define ARENA_MIN_BLOCK (64u << 10)

void fmt_arena_init(struct fmt_arena *a)
{
	a->head = NULL;
	a->used_total = 0;
}

static struct fmt_arena_block *arena_grow(struct fmt_arena *a, size_t need)
{
	struct fmt_arena_block *b;
	size_t size = need > ARENA_MIN_BLOCK ? need : ARENA_MIN_BLOCK;

	b = malloc(sizeof(*b) + size);
	if (!b)
		return NULL;
	b->size = size;
	b->used = 0;
	b->next = a->head;
	a->head = b;
	return b;
}

void *fmt_arena_alloc(struct fmt_arena *a, size_t size, size_t align)
{
	struct fmt_arena_block *b;
	size_t off;

	/* Look for room in any block: after a reset, all of them are empty. */
	for (b = a->head; b; b = b->next) {
		off = (b->used + align - 1) & ~(align - 1);
		if (off + size <= b->size)
			break;
	}
	if (!b) {
		b = arena_grow(a, size + align);
		if (!b)
			return NULL;
		off = 0;
	}
	b->used = off + size;
	a->used_total += size;
	return (char *)b->data + off;
}

char *fmt_arena_strndup(struct fmt_arena *a, const char *s, size_t len)
{
	char *d = fmt_arena_alloc(a, len + 1, 1);

	if (!d)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

void fmt_arena_reset(struct fmt_arena *a)
{
	struct fmt_arena_block *b;

	for (b = a->head; b; b = b->next)
		b->used = 0;
	a->used_total = 0;
}

void fmt_arena_free(struct fmt_arena *a)
{
	struct fmt_arena_block *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
	a->used_total = 0;
}
