/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A u64 -> u64 hash map (open addressing, linear probing).  Slot key 0
 * marks an empty slot, so key 0 itself is kept beside the table.
 */
#include <stdlib.h>

#include "cli/trace/trace-local.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void u64_map_init(struct u64_map *m)
{
	*m = (struct u64_map){ 0 };
}

void u64_map_free(struct u64_map *m)
{
	free(m->keys);
	free(m->vals);
	u64_map_init(m);
}

static void insert(uint64_t *keys, uint64_t *vals, size_t cap, uint64_t key, uint64_t val)
{
	size_t i = slot_of(key, cap);

	while (keys[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = val;
}

static int grow(struct u64_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024, i;
	uint64_t *keys = calloc(cap, sizeof(*keys)), *vals = malloc(cap * sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return RF_ERR_NOMEM;
	}
	for (i = 0; i < m->cap; i++)
		if (m->keys[i])
			insert(keys, vals, cap, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int u64_map_put(struct u64_map *m, uint64_t key, uint64_t val)
{
	size_t i;

	if (!key) {
		m->has_zero = true;
		m->zero_val = val;
		return 0;
	}
	/* keep the load under 3/4 so probes stay short */
	if ((m->nr + 1) * 4 > m->cap * 3 && grow(m))
		return RF_ERR_NOMEM;
	i = slot_of(key, m->cap);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i])
		m->nr++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

bool u64_map_get(const struct u64_map *m, uint64_t key, uint64_t *val)
{
	size_t i;

	if (!key) {
		if (m->has_zero)
			*val = m->zero_val;
		return m->has_zero;
	}
	if (!m->cap)
		return false;
	for (i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return true;
		}
	return false;
}
