/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rf_report_run(): the sources read (the kernel's pass over the trace, the
 * models' replay), their tables joined by key name and sorted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/compiler.h"
#include "report/report-local.h"

static const char *const by_names[RF_REPORT_BY_NR] = { "file", "cgroup", "pid", "comm",
							  "callsite", "symbol" };
static const char *const metric_names[RF_REPORT_NR_METRICS] = { "refaults", "misses", "evictions",
								 "activations" };

const char *rf_report_by_name(enum rf_report_by by)
{
	return by < RF_REPORT_BY_NR ? by_names[by] : "?";
}

/* The index of @name among the @n of @names; @n if it is none of them. */
static unsigned int index_of(const char *const *names, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n && strcmp(name, names[i]); i++)
		;
	return i;
}

enum rf_report_by rf_report_by_from_name(const char *name)
{
	return index_of(by_names, RF_REPORT_BY_NR, name);
}

const char *rf_report_metric_name(enum rf_report_metric m)
{
	return m < RF_REPORT_NR_METRICS ? metric_names[m] : "?";
}

enum rf_report_metric rf_report_metric_from_name(const char *name)
{
	return index_of(metric_names, RF_REPORT_NR_METRICS, name);
}

/* The kernel's pass: every event of the trace in file order. */
static int kernel_pass(const struct rf_report_opts *o, struct report_kernel *k, char *err,
		       size_t errlen)
{
	struct rf_trace_reader *rd = NULL;
	struct rf_event ev;
	int r;

	r = rf_trace_reader_open(&rd, o->trace_path, o->skip_damaged ? RF_READ_SKIP_DAMAGED : 0);
	if (r) {
		snprintf(err, errlen, "%s: %s", o->trace_path,
			 rd && rf_trace_reader_errmsg(rd)[0] ? rf_trace_reader_errmsg(rd) :
			 rf_strerror(r));
		rf_trace_reader_close(rd);
		return r;
	}
	for (;;) {
		r = rf_trace_reader_next(rd, &ev);
		if (r < 0 && o->skip_damaged && r != RF_ERR_NOMEM)
			continue;
		if (r <= 0)
			break;
		r = report_kernel_feed(k, &ev);
		if (r)
			break;
	}
	if (r < 0)
		snprintf(err, errlen, "%s: %s", o->trace_path,
			 r != RF_ERR_NOMEM && rf_trace_reader_errmsg(rd)[0] ?
			 rf_trace_reader_errmsg(rd) : rf_strerror(r));
	rf_trace_reader_close(rd);
	report_kernel_end(k);
	return r < 0 ? r : 0;
}

/* "kernel,v6.18" into its entries (at most MAX_SOURCES, none empty or listed twice). */
static int split_sources(const char *list, char *buf, size_t buflen, const char **out,
			 size_t *nr, char *err, size_t errlen)
{
	char *p, *save = NULL;
	size_t i;

	if (strlen(list) >= buflen) {
		snprintf(err, errlen, "the source list is longer than %zu bytes", buflen - 1);
		return RF_ERR_CONFIG;
	}
	strcpy(buf, list);
	*nr = 0;
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (*nr == MAX_SOURCES) {
			snprintf(err, errlen, "more than %d sources", MAX_SOURCES);
			return RF_ERR_CONFIG;
		}
		for (i = 0; i < *nr; i++)
			if (!strcmp(out[i], p)) {
				snprintf(err, errlen, "source '%s' is listed twice", p);
				return RF_ERR_CONFIG;
			}
		out[(*nr)++] = p;
	}
	if (!*nr) {
		snprintf(err, errlen, "no source in '%s'", list);
		return RF_ERR_CONFIG;
	}
	return 0;
}

/* (name, source, key) triples, sorted by name: the join. */
struct cell {
	const char *name;
	size_t src, key;
};

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* a source's keys of one name in the order they were first counted: the first names the row */
	if (!c)
		c = (x->src > y->src) - (x->src < y->src);
	return c ? c : (x->key > y->key) - (x->key < y->key);
}

static int cmp_row(const void *a, const void *b)
{
	const struct rowref *x = a, *y = b;
	size_t s;

	for (s = 0; s < x->nr_src; s++)
		if (x->v[s][x->sort] != y->v[s][x->sort])
			return x->v[s][x->sort] < y->v[s][x->sort] ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int join(struct rf_report *r)
{
	struct cell *cells;
	size_t n = 0, s, i, row, m;

	for (s = 0; s < r->nr_src; s++)
		n += r->src[s]->nr_keys;
	cells = calloc(n ? n : 1, sizeof(*cells));
	r->keys = calloc(n ? n : 1, sizeof(*r->keys));
	r->v = calloc((n ? n : 1) * r->nr_src, sizeof(*r->v));
	r->self = calloc((n ? n : 1) * r->nr_src, sizeof(*r->self));
	r->order = calloc(n ? n : 1, sizeof(*r->order));
	if (!cells || !r->keys || !r->v || !r->self || !r->order) {
		free(cells);
		return RF_ERR_NOMEM;
	}
	n = 0;
	for (s = 0; s < r->nr_src; s++)
		for (i = 0; i < r->src[s]->nr_keys; i++)
			cells[n++] = (struct cell){ .name = r->src[s]->keys[i].name, .src = s, .key = i };
	qsort(cells, n, sizeof(*cells), cmp_cell);
	for (i = 0; i < n; i++) {
		if (!i || strcmp(cells[i].name, cells[i - 1].name)) {
			/* the first source's stack names the row's frames: any would, alike */
			r->order[r->nr_rows] = (struct rowref){
				.stacks = &r->src[cells[i].src]->names.stacks,
				.stack = r->src[cells[i].src]->keys[cells[i].key].stack,
				.frame = r->src[cells[i].src]->keys[cells[i].key].frame };
			r->keys[r->nr_rows++] = cells[i].name;
		}
		row = r->nr_rows - 1;
		/* a source's keys apart with one name (two files with one path) are one row */
		for (m = 0; m < RF_REPORT_NR_METRICS; m++) {
			r->v[row * r->nr_src + cells[i].src][m] +=
				r->src[cells[i].src]->keys[cells[i].key].v[m];
			r->self[row * r->nr_src + cells[i].src][m] +=
				r->src[cells[i].src]->keys[cells[i].key].self[m];
		}
	}
	free(cells);
	for (i = 0; i < r->nr_rows; i++) {
		r->order[i].key = r->keys[i];
		r->order[i].v = (const void *)r->v[i * r->nr_src];
		r->order[i].self = (const void *)r->self[i * r->nr_src];
		r->order[i].nr_src = r->nr_src;
		r->order[i].sort = r->sort;
	}
	qsort(r->order, r->nr_rows, sizeof(*r->order), cmp_row);
	return 0;
}

/* Sources that one reading of the trace made, in the order asked. */
struct reading {
	struct report_kernel *kernel;
	struct report_source *src[MAX_SOURCES];
	size_t nr;
};

static void reading_free(struct reading *rd)
{
	size_t i;

	for (i = 0; i < rd->nr; i++)
		if (rd->src[i] && (!rd->kernel || rd->src[i] != report_kernel_source(rd->kernel))) {
			report_source_free(rd->src[i]);
			free(rd->src[i]);	/* the first member of the model's source */
		}
	report_kernel_free(rd->kernel);
	memset(rd, 0, sizeof(*rd));
}

/*
 * Every source of @names ("kernel" or a profile) reads the trace: the
 * kernel's pass, then every model in one replay.  @heat: the grid each
 * fills, NULL for none.
 */
static int read_sources(const struct rf_report_opts *o, const char *const *names, size_t nr,
			const struct report_heat *heat, struct reading *rd, char *err,
			size_t errlen)
{
	const char *models[MAX_SOURCES];
	struct report_source *msrc[MAX_SOURCES] = { 0 };
	size_t nr_models = 0, i, m = 0;
	int rc = 0;

	memset(rd, 0, sizeof(*rd));
	for (i = 0; i < nr; i++)
		if (strcmp(names[i], RF_REPORT_KERNEL))
			models[nr_models++] = names[i];
	if (nr_models < nr) {
		rc = report_kernel_new(&rd->kernel, o, heat);
		if (!rc)
			rc = kernel_pass(o, rd->kernel, err, errlen);
	}
	if (!rc && nr_models)
		rc = report_models_run(o, models, nr_models, heat, msrc, err, errlen);
	for (i = 0; i < nr; i++)
		rd->src[rd->nr++] = strcmp(names[i], RF_REPORT_KERNEL) ? msrc[m++] :
				    rd->kernel ? report_kernel_source(rd->kernel) : NULL;
	for (i = m; i < MAX_SOURCES; i++)
		if (msrc[i]) {		/* made before a failure, not placed */
			report_source_free(msrc[i]);
			free(msrc[i]);
		}
	for (i = 0; !rc && i < rd->nr; i++)
		rc = rd->src[i] ? rd->src[i]->error : RF_ERR_NOMEM;
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* What the heatmap's axes cover: decisions' times and pages. */
struct span {
	bool seen;
	uint64_t t0, t1, lo, hi;
};

/* @k's decisions of metric @m widen @sp. */
static void widen(struct span *sp, const struct report_key *k, int m)
{
	if (!k->v[m])
		return;
	if (!sp->seen || k->t_first[m] < sp->t0)
		sp->t0 = k->t_first[m];
	if (!sp->seen || k->t_last[m] > sp->t1)
		sp->t1 = k->t_last[m];
	if (!sp->seen || k->index_lo[m] < sp->lo)
		sp->lo = k->index_lo[m];
	if (!sp->seen || k->index_hi[m] > sp->hi)
		sp->hi = k->index_hi[m];
	sp->seen = true;
}

/*
 * The heatmap's second reading: its key's grid from every source, moved into
 * @r's.  The grid's keys are the first reading's of the row's name (by their
 * identities, which the second reading makes alike); its time axis spans
 * their decisions of the sort metric (any decision if there is none), not the
 * trace: where the data are.
 */
/*
 * The ids of file @key in every source, sorted, into @ids (@nr_ids), with the
 * spans of the sort metric's decisions (@metric) and of any (@any), and the
 * time the sources cover, into @proto.  RF_ERR_NOMEM, or 0.
 */
static int heat_keys(const struct rf_report *r, const char *key, struct report_heat *proto,
		     struct span *metric, struct span *any, uint64_t **ids, size_t *nr_ids)
{
	bool started = false;
	size_t i, k;
	int m;

	for (i = 0; i < r->nr_src; i++) {
		struct report_source *s = r->src[i];

		for (k = 0; k < s->nr_keys; k++) {
			if (strcmp(s->keys[k].name, key))
				continue;
			if (!(*nr_ids & (*nr_ids + 1))) {
				uint64_t *n = realloc(*ids, (2 * *nr_ids + 1) * sizeof(**ids));

				if (!n)
					return RF_ERR_NOMEM;
				*ids = n;
			}
			(*ids)[(*nr_ids)++] = s->keys[k].id;
			proto->key = s->keys[k].name;
			widen(metric, &s->keys[k], r->sort);
			for (m = 0; m < RF_REPORT_NR_METRICS; m++)
				widen(any, &s->keys[k], m);
		}
		if (s->started) {
			proto->t_origin = !started || s->t_start < proto->t_origin ? s->t_start :
					  proto->t_origin;
			proto->t_end = !started || s->t_end > proto->t_end ? s->t_end : proto->t_end;
			started = true;
		}
	}
	if (*nr_ids)
		qsort(*ids, *nr_ids, sizeof(**ids), cmp_u64);
	return 0;
}

/*
 * The heatmap's axes: the sort metric's decisions, where the data are (damo's
 * heatmaps zoom alike); a file with none of it: its decisions of any.
 */
static void heat_axes(struct report_heat *proto, struct span metric, const struct span *any)
{
	uint64_t q;

	proto->metric_seen = metric.seen;
	if (!metric.seen)
		metric = *any;
	/* decisions before the first event (--warm-cache's pages) are at it, for the axis */
	proto->t0 = metric.t0 > proto->t_origin ? metric.t0 : proto->t_origin;
	proto->t1 = metric.t1 > proto->t0 ? metric.t1 : proto->t0;
	proto->index_start = metric.lo;
	proto->index_end = metric.hi > metric.lo ? metric.hi : metric.lo + 1;
	/*
	 * pages out to a power of two, an eighth of a row at most, that makes the
	 * edges round: 0 to 8192, not 1 to 8191
	 */
	for (q = 1; q <= (proto->index_end - proto->index_start) / proto->rows / 16; q <<= 1)
		;
	proto->index_start -= proto->index_start % q;
	if (proto->index_end % q && proto->index_end <= UINT64_MAX - q)
		proto->index_end += q - proto->index_end % q;
	proto->file_end = any->hi;
	/* a cell is at least a nanosecond and a page */
	if (proto->t1 - proto->t0 < proto->cols)
		proto->cols = (unsigned int)(proto->t1 - proto->t0 + 1);
	if (proto->index_end - proto->index_start < proto->rows)
		proto->rows = (unsigned int)(proto->index_end - proto->index_start);
}

static int heat_pass(const struct rf_report_opts *o, struct rf_report *r, const char *const *names,
		     size_t nr, char *err, size_t errlen)
{
	struct report_heat proto = { .cols = o->heat_cols, .rows = o->heat_rows };
	struct span metric = { 0 }, any = { 0 };
	const char *key = o->heat_key;
	struct reading rd;
	uint64_t *ids = NULL;
	size_t nr_ids = 0, i;
	int rc;

	if (o->by != RF_REPORT_BY_FILE) {
		snprintf(err, errlen, "a heatmap is of a file's pages: --by file, not --by %s",
			 rf_report_by_name(o->by));
		return RF_ERR_CONFIG;
	}
	if (!key && r->nr_rows)
		key = r->order[0].key;
	if (!key) {
		r->heat_none = true;	/* no row: nothing to draw, and nothing wrong */
		return 0;
	}
	rc = heat_keys(r, key, &proto, &metric, &any, &ids, &nr_ids);
	if (!rc && !nr_ids) {
		snprintf(err, errlen, "no file '%s' among the report's rows (its first column names "
			 "them)", key);
		rc = RF_ERR_CONFIG;
	}
	if (rc) {
		free(ids);
		return rc;
	}
	heat_axes(&proto, metric, &any);
	proto.ids = ids;
	proto.nr_ids = nr_ids;
	rc = read_sources(o, names, nr, &proto, &rd, err, errlen);
	for (i = 0; !rc && i < r->nr_src; i++) {
		r->src[i]->heat = rd.src[i]->heat;
		r->src[i]->heat->ids = NULL;	/* freed here */
		r->src[i]->heat->nr_ids = 0;
		rd.src[i]->heat = NULL;
	}
	reading_free(&rd);
	free(ids);
	if (!rc)
		r->heat_key = key;
	return rc;
}

/* Options that contradict each other or are out of range: RF_ERR_CONFIG, why in @err. */
static int check_opts(const struct rf_report_opts *o, char *err, size_t errlen)
{
	if (o->by >= RF_REPORT_BY_NR || o->sort >= RF_REPORT_NR_METRICS)
		return RF_ERR_CONFIG;
	if (o->callsite_depth && o->by != RF_REPORT_BY_CALLSITE) {
		snprintf(err, errlen, "a call-site depth is of the callsite view, not --by %s",
			 rf_report_by_name(o->by));
		return RF_ERR_CONFIG;
	}
	if (o->children && o->by != RF_REPORT_BY_SYMBOL) {
		snprintf(err, errlen, "children are of the symbol view (--by symbol), not --by %s",
			 rf_report_by_name(o->by));
		return RF_ERR_CONFIG;
	}
	if (o->heatmap && (!o->heat_cols || !o->heat_rows || o->heat_cols > 1024 ||
			   o->heat_rows > 1024)) {
		snprintf(err, errlen, "a heatmap of 1 to 1024 columns and rows, not %ux%u",
			 o->heat_cols, o->heat_rows);
		return RF_ERR_CONFIG;
	}
	return 0;
}

/*
 * The sources to read, into @names (@nr): the options' entries, each once, or
 * their list of sources split in @buf (@len), or the kernel's account alone.
 */
static int source_names(const struct rf_report_opts *o, char *buf, size_t len,
			const char **names, size_t *nr, char *err, size_t errlen)
{
	size_t i;

	*nr = 0;
	if (o->sources && !o->entries)
		return split_sources(o->sources, buf, len, names, nr, err, errlen);
	if (!o->entries) {
		names[(*nr)++] = RF_REPORT_KERNEL;
		return 0;
	}
	if (!o->nr_entries || o->nr_entries > MAX_SOURCES) {
		snprintf(err, errlen, "1 to %d sources, not %zu", MAX_SOURCES, o->nr_entries);
		return RF_ERR_CONFIG;
	}
	for (; *nr < o->nr_entries; (*nr)++) {
		for (i = 0; i < *nr; i++)
			if (!strcmp(names[i], o->entries[*nr])) {
				snprintf(err, errlen, "source '%s' is listed twice", names[i]);
				return RF_ERR_CONFIG;
			}
		names[*nr] = o->entries[*nr];
	}
	return 0;
}

int rf_report_run(const struct rf_report_opts *o, struct rf_report **out, char *err,
		  size_t errlen)
{
	const char *names[MAX_SOURCES];
	char buf[4096];
	size_t nr = 0, i;
	struct rf_report *r;
	struct reading rd = { 0 };
	int rc;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	rc = check_opts(o, err, errlen);
	if (!rc)
		rc = source_names(o, buf, sizeof(buf), names, &nr, err, errlen);
	if (rc)
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return RF_ERR_NOMEM;
	r->sort = o->sort;
	r->by = o->by;
	r->children = o->children;
	r->trace = strdup(o->trace_path);
	if (!r->trace) {
		free(r);
		return RF_ERR_NOMEM;
	}
	rc = read_sources(o, names, nr, NULL, &rd, err, errlen);
	if (!rc && !o->sources && !o->entries && !report_kernel_has_observations(rd.kernel)) {
		/* a generated trace: the model is all there is to ask */
		reading_free(&rd);
		names[0] = "v6.18";
		rc = read_sources(o, names, nr, NULL, &rd, err, errlen);
	}
	if (rc) {
		reading_free(&rd);
		goto fail;
	}
	r->kernel = rd.kernel;
	for (i = 0; i < rd.nr; i++)
		r->src[r->nr_src++] = rd.src[i];
	if (r->kernel)
		r->counted = report_kernel_counted(r->kernel, &r->counted_refault_file);
	rc = join(r);
	if (!rc && o->heatmap)
		rc = heat_pass(o, r, names, nr, err, errlen);
	if (rc)
		goto fail;
	*out = r;
	return 0;
fail:
	rf_report_free(r);
	if (err && errlen && !err[0])
		snprintf(err, errlen, "%s", rf_strerror(rc));
	return rc;
}

bool report_row_blank(const struct rf_report *r, size_t i)
{
	size_t s;
	int m;

	for (s = 0; s < r->nr_src; s++)
		for (m = 0; m < RF_REPORT_NR_METRICS; m++)
			if ((r->nr_src == 1 || m == (int)r->sort) && r->order[i].v[s][m])
				return false;
	return true;
}

size_t report_nr_blank(const struct rf_report *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr_rows; i++)
		n += report_row_blank(r, i);
	return n;
}

void rf_report_free(struct rf_report *r)
{
	struct reading rd = { 0 };
	size_t i;

	if (!r)
		return;
	rd.kernel = r->kernel;
	for (i = 0; i < r->nr_src; i++)
		rd.src[rd.nr++] = r->src[i];
	reading_free(&rd);
	free(r->keys);
	free(r->v);
	free(r->self);
	free(r->order);
	free(r->trace);
	free(r);
}

size_t rf_report_nr_sources(const struct rf_report *r)
{
	return r->nr_src;
}

const char *rf_report_source(const struct rf_report *r, size_t i)
{
	return r->src[i]->name;
}

bool rf_report_find_source(const struct rf_report *r, const char *name, size_t *i)
{
	for (*i = 0; *i < r->nr_src; (*i)++)
		if (!strcmp(r->src[*i]->name, name))
			return true;
	return false;
}

size_t rf_report_nr_rows(const struct rf_report *r)
{
	return r->nr_rows;
}

struct rf_report_row rf_report_row(const struct rf_report *r, size_t i)
{
	return (struct rf_report_row){ .key = r->order[i].key, .v = r->order[i].v,
				       .self = r->order[i].self };
}

const uint64_t *rf_report_total(const struct rf_report *r, size_t i)
{
	return r->src[i]->total;
}

const uint64_t *rf_report_unattributed(const struct rf_report *r, size_t i)
{
	return r->src[i]->unattributed;
}

bool rf_report_kernel_counted(const struct rf_report *r, uint64_t *refault_file)
{
	if (r->counted)
		*refault_file = r->counted_refault_file;
	return r->counted;
}

bool rf_report_children(const struct rf_report *r)
{
	return r->children;
}
