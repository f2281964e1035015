/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page-request streams for cache simulators: libCacheSim's oracleGeneral
 * binary format and a plain csv, in both directions.
 *
 * Trace -> requests: every base page a reference event touches is one
 * request of one page.  Its obj_id is the access key for 'access' events
 * (key + i for the i-th page of a folio), and a hash of the page's identity
 * for the others: file pages (dev, ino, index), anonymous pages (mm, virtual
 * page number).  docs/refault-trace.md gives the hash, so other tools can
 * compute the same ids.
 *
 * oracleGeneral's next_access_vtime needs the future: records are written
 * with -1 first, then a pass from the end of the file backwards fills it in
 * with a map of obj_id -> request number of its next access (memory: one
 * entry per distinct page).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/tools/convert-local.h"
#include "lib/hash.h"
#include "lib/term.h"

#define ORACLE_RECORD	24
#define REVERSE_BLOCK	65536u		/* records per block of the backward pass */
#define CSV_HEADER	"time,obj_id,size,op"

/* ------------------------------------------------------------ page identity */

/*
 * rf_hash64 is splitmix64's finaliser, as docs/refault-trace.md gives it: ids
 * must not change.  They are a published format's, computed by other tools,
 * not the replay's page keys (rf_page_key()), whose values are no one's but
 * the replay's.
 */
static uint64_t page_id(uint64_t tag, uint64_t a, uint64_t b, uint64_t page)
{
	return rf_hash64(rf_hash64(rf_hash64(tag ^ a) ^ b) ^ page);
}

#define TAG_FILE 0x66696c6500000000ull	/* "file" */
#define TAG_ANON 0x616e6f6e00000000ull	/* "anon" */

/* The page requests a reference event makes (see docs/refault-trace.md, "convert"). */
struct page_req {
	uint64_t obj_id;
	bool write;
};

/*
 * Expand @ev into page requests: calls @fn for each page, in address order.
 * Returns 0, 1 for an event that is not a reference (nothing done), or
 * RF_ERR_RANGE when it covers more than PAGES_PER_EVENT_MAX pages.
 *
 * The pages are docs/refault-trace.md's table, which is not quite what
 * rf_event_pages() gives the replay, so this reads the type table itself:
 * a read or write of nr 0 requests no page here (the model reads it as the
 * page at index), and an access of order k requests keys key .. key + 2^k
 * - 1 (the model's folio is the aligned one around key).  Both are what
 * convert always wrote; changing them changes its output.
 */
#define PAGES_PER_EVENT_MAX (1u << 24)
static int page_requests(const struct rf_event *ev, unsigned int page_shift,
			 int (*fn)(void *arg, const struct page_req *req), void *arg)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);
	uint64_t first, count, tag = 0, a = 0, b = 0, i;
	struct page_req req = { 0 };
	unsigned int order = 0;
	bool flat = false;
	int err;

	if (!ti || !ti->touches)
		return 1;
	/* the pages the event touches, by how the type gives them (enum rf_page_keys) */
	switch (ti->pages) {
	case RF_PAGES_FILE_RANGE:
		first = ev->u.file.index;
		count = ev->u.file.nr;
		tag = TAG_FILE, a = ev->u.file.dev, b = ev->u.file.ino;
		req.write = ev->type == RF_EV_FILE_WRITE;	/* ranges carry no flags */
		break;
	case RF_PAGES_FILE_FOLIO:
		order = ev->u.file.order;
		first = ev->u.file.index;
		tag = TAG_FILE, a = ev->u.file.dev, b = ev->u.file.ino;
		req.write = ev->u.file.flags & RF_REF_WRITE;
		break;
	case RF_PAGES_ANON:
		order = ev->u.anon.order;
		first = ev->u.anon.addr >> page_shift;
		tag = TAG_ANON, a = ev->u.anon.mm;
		req.write = ev->u.anon.flags & RF_REF_WRITE;
		break;
	case RF_PAGES_ACCESS:
		order = ev->u.access.order;
		first = ev->u.access.key;
		flat = true;
		req.write = ev->u.access.flags & RF_REF_WRITE;
		break;
	default:
		return 1;
	}
	if (ti->pages != RF_PAGES_FILE_RANGE) {
		if (order > 24)
			return RF_ERR_RANGE;
		count = 1ull << order;
		/* a folio covers the naturally aligned range around the page */
		if (!flat)
			first &= ~(count - 1);
	}
	if (count > PAGES_PER_EVENT_MAX)
		return RF_ERR_RANGE;
	for (i = 0; i < count; i++) {
		req.obj_id = flat ? first + i : page_id(tag, a, b, first + i);
		err = fn(arg, &req);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------ the sinks */

struct page_sink {
	enum rf_tools_format fmt;
	FILE *fp;
	unsigned int page_shift;
	uint32_t page_size;
	bool have_t0;
	uint64_t t0;		/* oracle clock_time 0: the first reference */
	const struct rf_event *ev;	/* being expanded */
	uint64_t requests;
	uint64_t references;
	uint64_t others;
};

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int emit(void *arg, const struct page_req *req)
{
	struct page_sink *ps = arg;
	uint8_t rec[ORACLE_RECORD];
	uint64_t secs;

	ps->requests++;
	if (ps->fmt == RF_TOOLS_CSV) {
		/* a full disk shows when the stream writes its buffer: stop there, not at the end */
		if (fprintf(ps->fp, "%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",%s\n", ps->ev->time,
			    req->obj_id, ps->page_size, req->write ? "write" : "read") < 0 ||
		    ferror(ps->fp))
			return errno ? -errno : RF_ERR_IO;
		return 0;
	}
	secs = ps->ev->time > ps->t0 ? (ps->ev->time - ps->t0) / 1000000000u : 0;
	put_le32(rec, secs > UINT32_MAX ? UINT32_MAX : (uint32_t)secs);
	put_le64(rec + 4, req->obj_id);
	put_le32(rec + 12, ps->page_size);
	put_le64(rec + 16, (uint64_t)-1);	/* filled in by the backward pass */
	if (fwrite(rec, sizeof(rec), 1, ps->fp) != 1 || ferror(ps->fp))
		return errno ? -errno : RF_ERR_IO;
	return 0;
}

static int page_sink_put(struct conv_sink *sink, const struct rf_event *ev)
{
	struct page_sink *ps = sink->priv;
	int rc;

	if (rf_event_class(ev->type) != RF_CLASS_REFERENCE) {
		ps->others++;
		return 0;
	}
	if (!ps->have_t0) {
		ps->t0 = ev->time;
		ps->have_t0 = true;
	}
	ps->ev = ev;
	rc = page_requests(ev, ps->page_shift, emit, ps);
	if (rc == 1) {		/* a reference that requests no page (file_readahead) */
		ps->others++;
		return 0;
	}
	ps->references++;
	if (rc == RF_ERR_RANGE)
		tools_err(sink->log, "%s event at %" PRIu64 " ns covers more than %u pages: "
			  "refusing to expand it", rf_event_type_name(ev->type), ev->time,
			  PAGES_PER_EVENT_MAX);
	else if (rc < 0)
		conv_write_error(sink, rc);
	return rc < 0 ? rc : 0;
}

/* Fill in next_access_vtime in @fd, walking the records from the last to the first. */
static int oracle_backward_pass(struct page_sink *ps, const struct conv_sink *sink)
{
	uint8_t *buf = malloc((size_t)REVERSE_BLOCK * ORACLE_RECORD);
	uint64_t end = ps->requests, start, i, next;
	struct u64_map next_of = { 0 };
	const uint64_t *known;
	int err = 0;
	size_t len;

	if (!buf)
		return RF_ERR_NOMEM;
	while (!err && end > 0) {
		start = end > REVERSE_BLOCK ? end - REVERSE_BLOCK : 0;
		len = (size_t)(end - start) * ORACLE_RECORD;
		if (pread(sink->of.fd, buf, len, (off_t)(start * ORACLE_RECORD)) != (ssize_t)len) {
			err = errno ? -errno : RF_ERR_IO;
			break;
		}
		for (i = end; i-- > start && !err;) {
			uint8_t *rec = buf + (i - start) * ORACLE_RECORD;
			uint64_t obj = get_le64(rec + 4);

			known = u64_map_get(&next_of, obj);
			next = known ? *known : (uint64_t)-1;
			put_le64(rec + 16, next);
			/* libCacheSim numbers requests from 1 */
			err = u64_map_put(&next_of, obj, i + 1);
		}
		if (!err && pwrite(sink->of.fd, buf, len, (off_t)(start * ORACLE_RECORD)) != (ssize_t)len)
			err = errno ? -errno : RF_ERR_IO;
		end = start;
	}
	if (err)
		tools_err(sink->log, "%s: computing next_access_vtime: %s", sink->path,
			  rf_strerror(err));
	u64_map_destroy(&next_of);
	free(buf);
	return err;
}

static int page_sink_finish(struct conv_sink *sink)
{
	struct page_sink *ps = sink->priv;

	if (fflush(ps->fp)) {
		tools_err(sink->log, "%s: %s", sink->path, strerror(errno));
		return -1;
	}
	if (ps->fmt == RF_TOOLS_ORACLE && oracle_backward_pass(ps, sink))
		return -1;
	return 0;
}

static void page_sink_summary(struct conv_sink *sink)
{
	struct page_sink *ps = sink->priv;

	tools_note(sink->log, "%s: %" PRIu64 " page requests from %" PRIu64 " reference events; %"
		   PRIu64 " other events left out", sink->path, ps->requests, ps->references,
		   ps->others);
}

int conv_page_sink_open(struct conv_sink *sink, enum rf_tools_format fmt,
			const struct rf_trace_header *h)
{
	struct page_sink *ps = calloc(1, sizeof(*ps));
	uint32_t page = h->host.page_size ? h->host.page_size : 4096;

	sink->priv = ps;
	if (!ps) {
		tools_err(sink->log, "out of memory");
		return -1;
	}
	if (page & (page - 1)) {
		tools_err(sink->log, "the header's page size %u is not a power of two", page);
		return -1;
	}
	ps->fmt = fmt;
	ps->page_size = page;
	while ((1u << ps->page_shift) < page)
		ps->page_shift++;
	if (tools_out_open(&sink->of, sink->path, sink->log))
		return -1;
	ps->fp = tools_out_stdio(&sink->of, sink->log);
	if (!ps->fp)
		return -1;
	if (fmt == RF_TOOLS_CSV)
		fprintf(ps->fp, CSV_HEADER "\n");
	sink->put = page_sink_put;
	sink->finish = page_sink_finish;
	sink->summary = page_sink_summary;
	return 0;
}

/* ------------------------------------------------------------ the sources */

/*
 * What an object's size becomes (--object-size; docs/refault-trace.md): each
 * request is an 'access' event of key obj_id and a folio order (folio, unit),
 * or one event of order 0 for each page of a range of keys of its own (pages).
 */
struct page_src {
	enum rf_tools_format fmt;
	enum rf_tools_object_size obj_size;
	FILE *fp;
	uint32_t page_size;
	uint64_t nr;		/* records or lines read */
	char *line;
	size_t cap;
	int col_time, col_obj, col_size, col_op;
	/* what the sizes became, said in a note (page_src_summary()) */
	uint64_t requests;
	uint64_t rounded;	/* requests whose size the trace does not keep */
	uint64_t larger;	/* ... of them, larger than a page */
	/* pages: the object's number as first seen, and the request's pages not yet given */
	struct u64_map number;
	uint64_t next_number;
	struct rf_event expand;	/* the next page's event */
	uint64_t expand_left;
};

/* pages: the keys of object number N are N << OBJ_KEY_SHIFT .. + its pages - 1 */
#define OBJ_KEY_SHIFT	24
#define OBJ_PAGES_MAX	(1ull << OBJ_KEY_SHIFT)

/* The order of a folio of @size bytes, or -1 when it is not a power-of-two number of pages. */
static int order_of_size(uint64_t size, uint32_t page)
{
	int order = 0;

	if (!size || size % page)
		return -1;
	size /= page;
	if (size & (size - 1))
		return -1;
	while (size > 1) {
		size >>= 1;
		order++;
	}
	return order;
}

static void access_event(struct rf_event *ev, uint64_t time, uint64_t key, unsigned int order,
			 bool write)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = RF_EV_ACCESS;
	ev->time = time;
	ev->u.access.key = key;
	ev->u.access.order = (uint8_t)order;
	ev->u.access.flags = write ? RF_REF_WRITE : 0;
}

/* Where the request just read is: its record (oracle) or line (csv). */
static const char *where(const struct page_src *ps, char *buf, size_t len)
{
	if (ps->fmt == RF_TOOLS_ORACLE)
		snprintf(buf, len, "record %" PRIu64 " at offset %" PRIu64, ps->nr - 1,
			 (ps->nr - 1) * ORACLE_RECORD);
	else
		snprintf(buf, len, "line %" PRIu64, ps->nr);
	return buf;
}

/*
 * A request of @obj, @size bytes: its event in @ev (the first of them, for
 * pages).  1, or negative after a message naming its record or line.
 */
static int request(struct conv_source *src, struct page_src *ps, struct rf_event *ev,
		   uint64_t time, uint64_t obj, uint64_t size, bool write)
{
	uint64_t page = ps->page_size, pages, *num;
	char at[64];
	int order = order_of_size(size, ps->page_size);
	bool fresh;

	ps->requests++;
	switch (ps->obj_size) {
	case RF_TOOLS_OBJ_FOLIO:
		/* a power-of-two number of pages is one folio; any other size one page */
		ps->rounded += order < 0;
		ps->larger += order < 0 && size > page;
		access_event(ev, time, obj, order < 0 ? 0 : (unsigned int)order, write);
		return 1;
	case RF_TOOLS_OBJ_UNIT:
		ps->rounded += size != page;
		ps->larger += size > page;
		access_event(ev, time, obj, 0, write);
		return 1;
	case RF_TOOLS_OBJ_PAGES:
		break;
	}
	pages = size / page + (size % page != 0);
	ps->rounded += size % page != 0 || !pages;
	ps->larger += size % page != 0 && size > page;
	if (!pages)		/* a csv size of 0: one page, as the other modes make it */
		pages = 1;
	if (pages > OBJ_PAGES_MAX) {
		tools_err(src->log, "%s: %s: an object of %" PRIu64 " bytes is over %llu pages: "
			  "--object-size pages cannot give it its keys (unit or folio can)",
			  src->path, where(ps, at, sizeof(at)), size, OBJ_PAGES_MAX);
		return RF_ERR_RANGE;
	}
	num = u64_map_slot(&ps->number, obj, &fresh);
	if (!num) {
		tools_err(src->log, "%s: %s: out of memory numbering the objects", src->path,
			  where(ps, at, sizeof(at)));
		return RF_ERR_NOMEM;
	}
	if (fresh)
		*num = ps->next_number++;
	if (*num >= 1ull << (64 - OBJ_KEY_SHIFT)) {
		tools_err(src->log, "%s: %s: over 2^%d objects: --object-size pages cannot give "
			  "them keys of their own", src->path, where(ps, at, sizeof(at)),
			  64 - OBJ_KEY_SHIFT);
		return RF_ERR_RANGE;
	}
	access_event(ev, time, *num << OBJ_KEY_SHIFT, 0, write);
	ps->expand = *ev;
	ps->expand_left = pages - 1;
	return 1;
}

/* pages: the next page of the request being expanded, if any is left. */
static bool next_page(struct page_src *ps, struct rf_event *ev)
{
	if (!ps->expand_left)
		return false;
	ps->expand_left--;
	ps->expand.u.access.key++;
	*ev = ps->expand;
	return true;
}

static int oracle_next(struct conv_source *src, struct page_src *ps, struct rf_event *ev)
{
	uint8_t rec[ORACLE_RECORD];
	size_t n;

	for (;;) {
		n = fread(rec, 1, sizeof(rec), ps->fp);
		if (n == 0 && !ferror(ps->fp))
			return 0;
		if (n != sizeof(rec)) {
			tools_err(src->log, "%s: record %" PRIu64 " at offset %" PRIu64 ": %s",
				  src->path, ps->nr, ps->nr * ORACLE_RECORD,
				  ferror(ps->fp) ? strerror(errno) :
				  "truncated (the file size is not a multiple of 24 bytes)");
			return RF_ERR_TRUNCATED;
		}
		ps->nr++;
		/* libCacheSim skips records of size 0 too */
		if (!get_le32(rec + 12))
			continue;
		return request(src, ps, ev, (uint64_t)get_le32(rec) * 1000000000u,
			       get_le64(rec + 4), get_le32(rec + 12), false);
	}
}

/* Split @line at commas into at most @max fields. */
static int split_csv(char *line, char **fields, int max)
{
	int n = 0;

	while (n < max) {
		fields[n++] = line;
		line = strchr(line, ',');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static int csv_line(struct page_src *ps)
{
	ssize_t n = getline(&ps->line, &ps->cap, ps->fp);

	if (n < 0)
		return 0;
	ps->nr++;
	while (n > 0 && (ps->line[n - 1] == '\n' || ps->line[n - 1] == '\r'))
		ps->line[--n] = '\0';
	return 1;
}

static int csv_next(struct conv_source *src, struct page_src *ps, struct rf_event *ev)
{
	char *f[16];
	uint64_t t, obj, size = ps->page_size;
	bool write = false;
	int n;

	do {
		if (!csv_line(ps))
			return ferror(ps->fp) ? RF_ERR_IO : 0;
	} while (!ps->line[0]);
	n = split_csv(ps->line, f, 16);
	if (n <= ps->col_time || n <= ps->col_obj || rf_parse_u64(f[ps->col_time], &t) ||
	    rf_parse_u64(f[ps->col_obj], &obj) ||
	    (ps->col_size >= 0 && (n <= ps->col_size || rf_parse_u64(f[ps->col_size], &size)))) {
		tools_err(src->log, "%s: line %" PRIu64 ": expected numbers in the time, obj_id "
			  "and size columns", src->path, ps->nr);
		return RF_ERR_INVAL;
	}
	if (ps->col_op >= 0 && n > ps->col_op) {
		if (!strcmp(f[ps->col_op], "write") || !strcmp(f[ps->col_op], "set"))
			write = true;
		else if (strcmp(f[ps->col_op], "read") && strcmp(f[ps->col_op], "get") &&
			 f[ps->col_op][0]) {
			char *op = rf_term_escaped(f[ps->col_op]);

			tools_err(src->log, "%s: line %" PRIu64 ": op '%s' is not read or write",
				  src->path, ps->nr, op ? op : "?");
			free(op);
			return RF_ERR_INVAL;
		}
	}
	return request(src, ps, ev, t, obj, size, write);
}

static int csv_columns(struct conv_source *src, struct page_src *ps)
{
	char *f[16];
	int n, i;

	if (!csv_line(ps)) {
		tools_err(src->log, "%s: empty: expected the header line '" CSV_HEADER "'",
			  src->path);
		return -1;
	}
	ps->col_time = ps->col_obj = ps->col_size = ps->col_op = -1;
	n = split_csv(ps->line, f, 16);
	for (i = 0; i < n; i++) {
		if (!strcmp(f[i], "time"))
			ps->col_time = i;
		else if (!strcmp(f[i], "obj_id"))
			ps->col_obj = i;
		else if (!strcmp(f[i], "size"))
			ps->col_size = i;
		else if (!strcmp(f[i], "op"))
			ps->col_op = i;
	}
	if (ps->col_time < 0 || ps->col_obj < 0) {
		tools_err(src->log, "%s: line 1: expected a header line with 'time' and 'obj_id' "
			  "columns (as in '" CSV_HEADER "')", src->path);
		return -1;
	}
	return 0;
}

static int page_src_next(struct conv_source *src, struct rf_event *ev)
{
	struct page_src *ps = src->priv;

	if (next_page(ps, ev))
		return 1;
	return ps->fmt == RF_TOOLS_ORACLE ? oracle_next(src, ps, ev) : csv_next(src, ps, ev);
}

static const char *const obj_size_names[] = {
	[RF_TOOLS_OBJ_FOLIO] = "folio", [RF_TOOLS_OBJ_UNIT] = "unit", [RF_TOOLS_OBJ_PAGES] = "pages",
};

int rf_tools_parse_object_size(const char *s, enum rf_tools_object_size *mode)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(obj_size_names); i++)
		if (!strcmp(s, obj_size_names[i])) {
			*mode = (enum rf_tools_object_size)i;
			return 0;
		}
	return -1;
}

/* What the sizes became, when the trace does not keep some. */
static void page_src_summary(struct conv_source *src)
{
	struct page_src *ps = src->priv;
	const char *what;

	if (!ps->rounded)
		return;
	switch (ps->obj_size) {
	case RF_TOOLS_OBJ_FOLIO:
		what = "not a power-of-two number of pages: each is one page in the trace "
		       "(--object-size folio; pages keeps sizes, rounded up to whole pages)";
		break;
	case RF_TOOLS_OBJ_UNIT:
		what = "not one page: each is one page in the trace, as --object-size unit asks";
		break;
	default:
		what = "not a whole number of pages: rounded up (--object-size pages)";
		break;
	}
	tools_note(src->log, "%s: %" PRIu64 " of the %" PRIu64 " requests are of an object whose "
		   "size (%" PRIu64 " of them larger than a page of %" PRIu32 " bytes) is %s",
		   src->path, ps->rounded, ps->requests, ps->larger, ps->page_size, what);
}

static void page_src_close(struct conv_source *src)
{
	struct page_src *ps = src->priv;

	if (ps->fp && ps->fp != stdin)
		fclose(ps->fp);
	free(ps->line);
	u64_map_destroy(&ps->number);
	free(ps);
}

int conv_page_source_open(struct conv_source *src, enum rf_tools_format fmt,
			  enum rf_tools_object_size obj_size)
{
	struct page_src *ps = calloc(1, sizeof(*ps));

	if (!ps) {
		tools_err(src->log, "out of memory");
		return -1;
	}
	src->priv = ps;
	src->next = page_src_next;
	src->close = page_src_close;
	src->summary = page_src_summary;
	ps->fmt = fmt;
	ps->obj_size = obj_size;
	ps->fp = strcmp(src->path, "-") ? fopen(src->path, "r") : stdin;
	if (!ps->fp) {
		tools_err(src->log, "%s: %s", src->path, strerror(errno));
		page_src_close(src);
		return -1;
	}
	rf_trace_header_init(&src->hdr, "refault trace convert");
	snprintf(src->hdr.clock, sizeof(src->hdr.clock), "synthetic");
	src->hdr.synthetic = true;
	snprintf(src->hdr.params, sizeof(src->hdr.params), "converted-from=%s object-size=%s",
		 fmt == RF_TOOLS_ORACLE ? "oracleGeneral" : "csv", obj_size_names[obj_size]);
	ps->page_size = src->hdr.host.page_size;
	if (fmt == RF_TOOLS_CSV && csv_columns(src, ps)) {
		page_src_close(src);
		return -1;
	}
	return 0;
}
