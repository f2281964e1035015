/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Counter snapshots: /proc/vmstat and a cgroup's memory.stat are both
 * "name value" per line; one snapshot becomes one COUNTERS event.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "recorder/record-local.h"

static int add(struct rf_counter_snap *c, size_t *cap, size_t *names_len, size_t *names_cap,
	       const char *name, uint64_t value)
{
	size_t n = strlen(name) + 1;

	if (RF_GROW(c->entries, *cap, c->nr + 1) || RF_GROW(c->names, *names_cap, *names_len + n))
		return RF_ERR_NOMEM;
	memcpy(c->names + *names_len, name, n);
	/* names may move on realloc: store the offset now, pointers at the end */
	c->entries[c->nr].name = (const char *)(uintptr_t)*names_len;
	c->entries[c->nr].value = value;
	c->nr++;
	*names_len += n;
	return 0;
}

int rec_counters_read(struct rf_counter_snap *c, const char *path)
{
	size_t cap = 0, names_len = 0, names_cap = 0, lcap = 0;
	char *line = NULL, name[128];
	unsigned long long v;
	uint32_t i;
	FILE *f;
	int err = 0;

	memset(c, 0, sizeof(*c));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!err && getline(&line, &lcap, f) > 0)
		if (sscanf(line, "%127s %llu", name, &v) == 2)
			err = add(c, &cap, &names_len, &names_cap, name, v);
	free(line);
	fclose(f);
	for (i = 0; i < c->nr; i++)
		c->entries[i].name = c->names + (uintptr_t)c->entries[i].name;
	if (err)
		rec_counters_free(c);
	return err;
}

void rec_counters_free(struct rf_counter_snap *c)
{
	free(c->entries);
	free(c->names);
	memset(c, 0, sizeof(*c));
}
