/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The input files of one comparison, each parsed once: "results.json" of
 * 20,000 configurations is 20,000 sides that name one file, and a sweep's
 * workloads are tables over one file.  The parsed files are kept, the least
 * recently used let go once those kept pass RF_COMPARE_FILES_BYTES (the one
 * asked for last always stays); a file's configurations are found by name
 * through an index sorted by name, made the first time one is asked for.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "compare/compare-local.h"
#include "compare/jsonfile.h"
#include "lib/grow.h"

#define MAX_FILES	256

struct rf_compare_files {
	struct rf_compare_file *f;
	size_t n, cap;
	size_t bytes;			/* of the files kept */
	uint64_t clock;
};

struct rf_compare_files *compare_files_new(void)
{
	return calloc(1, sizeof(struct rf_compare_files));
}

static void file_release(struct rf_compare_file *f)
{
	free(f->path);
	json_object_put(f->root);
	free(f->index);
	memset(f, 0, sizeof(*f));
}

void compare_files_free(struct rf_compare_files *files)
{
	size_t i;

	if (!files)
		return;
	for (i = 0; i < files->n; i++)
		file_release(&files->f[i]);
	free(files->f);
	free(files);
}

/* Let the least recently used file go. */
static void evict_one(struct rf_compare_files *files)
{
	size_t i, lru = 0;

	for (i = 1; i < files->n; i++)
		if (files->f[i].used < files->f[lru].used)
			lru = i;
	files->bytes -= files->f[lru].bytes;
	file_release(&files->f[lru]);
	files->f[lru] = files->f[--files->n];
}

int compare_files_get(struct rf_compare_files *files, const char *path, const char *what,
		      struct rf_compare_file **out, char *err, size_t errlen)
{
	struct rf_compare_file *f;
	json_object *root;
	struct stat st;
	size_t i, bytes;
	int ret;

	for (i = 0; i < files->n; i++)
		if (!strcmp(files->f[i].path, path)) {
			files->f[i].used = ++files->clock;
			*out = &files->f[i];
			return 0;
		}
	ret = rf_json_read_object(path, what, &root, err, errlen);
	if (ret)
		return ret;
	bytes = stat(path, &st) ? 0 : (size_t)st.st_size;
	while (files->n && (files->n >= MAX_FILES || files->bytes + bytes > RF_COMPARE_FILES_BYTES))
		evict_one(files);
	if (RF_GROW(files->f, files->cap, files->n + 1)) {
		json_object_put(root);
		return RF_ERR_NOMEM;
	}
	f = &files->f[files->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path) {
		json_object_put(root);
		return RF_ERR_NOMEM;
	}
	f->root = root;
	f->bytes = bytes;
	f->used = ++files->clock;
	files->n++;
	files->bytes += bytes;
	*out = f;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	const struct rf_compare_config_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static void make_index(struct rf_compare_file *file, json_object *configs)
{
	size_t i, n = json_object_array_length(configs);

	file->indexed = true;
	file->index = calloc(n + 1, sizeof(*file->index));
	if (!file->index)
		return;			/* found by a scan instead */
	for (i = 0; i < n; i++) {
		json_object *name = rf_json_get(json_object_array_get_idx(configs, i), "name",
						json_type_string);

		if (name)
			file->index[file->nindex++] = (struct rf_compare_config_name){
				.name = json_object_get_string(name), .idx = i };
	}
	qsort(file->index, file->nindex, sizeof(*file->index), name_cmp);
}

json_object *compare_file_config(struct rf_compare_file *file, json_object *configs,
				 const char *name)
{
	size_t lo = 0, hi, mid, i, n = json_object_array_length(configs);

	if (!file->indexed)
		make_index(file, configs);
	if (!file->index) {
		for (i = 0; i < n; i++) {
			json_object *c = json_object_array_get_idx(configs, i);
			json_object *nm = rf_json_get(c, "name", json_type_string);

			if (nm && !strcmp(json_object_get_string(nm), name))
				return c;
		}
		return NULL;
	}
	/* the first entry not below @name: the lowest index of that name */
	hi = file->nindex;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(file->index[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == file->nindex || strcmp(file->index[lo].name, name))
		return NULL;
	return json_object_array_get_idx(configs, file->index[lo].idx);
}

bool compare_fill_ok(uint64_t made, uint64_t given)
{
	return made <= RF_COMPARE_FILL_FLOOR || made / RF_COMPARE_FILL_FACTOR <= given;
}

uint64_t compare_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
