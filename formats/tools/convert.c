/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace convert IN OUT`: between refault traces, JSON lines,
 * libCacheSim oracleGeneral and csv.  A source yields events, a sink takes
 * them; this file has the trace and JSON-lines ones and the driver.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <refault/trace-json.h>

#include "formats/tools/convert-local.h"
#include "lib/term.h"

static const char verb[] = "trace convert";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault trace convert IN OUT [--from FMT] [--to FMT] [--chunk-events N]\n"
		"                             [--format-version MAJOR] [-z LEVEL] [--pfns ids]\n"
		"                             [--object-size folio|unit|pages]\n\n"
		"Convert IN to OUT.  Formats (from the file name when not given):\n"
		"  trace    a refault trace (any other name)\n"
		"  jsonl    JSON lines: the header object first, then one event per line, as\n"
		"           'dump --json' prints them (*.jsonl); both directions are lossless\n"
		"  oracle   libCacheSim oracleGeneral: packed little-endian records {u32 clock_time\n"
		"           (s since the first reference); u64 obj_id; u32 obj_size; i64\n"
		"           next_access_vtime (1-based number of the next request of the object,\n"
		"           -1 if none)} (*.oracleGeneral, *.bin)\n"
		"  csv      'time,obj_id,size,op' with a header line; time in ns (*.csv)\n"
		"  --chunk-events N  events per chunk of a trace output (default 65536, at most\n"
		"                    262144)\n"
		"  --format-version MAJOR  the trace output's format: 3 (default, columns) or 2\n"
		"                    (2.6, for refault 2.x readers)\n"
		"  -z, --compression-level N  zstd level of a trace output's chunks, 1 (fastest)\n"
		"                    to 19 (smallest; default 3)\n"
		"  --pfns ids        the page-cache and LRU events' pfns as folio ids, numbered 1,\n"
		"                    2, ... as first seen, as refault record writes them by default\n"
		"                    (the joins on them unchanged; a recorded trace takes a half\n"
		"                    to three quarters of the bytes)\n"
		"  --object-size MODE  from oracle and csv, what a request's object size becomes:\n"
		"                    folio (default) a power-of-two number of pages is one folio\n"
		"                    of that order, any other size one page; unit every object\n"
		"                    one page (libCacheSim's --ignore-obj-size 1: object-count\n"
		"                    miss ratios); pages its size rounded up to whole pages, each\n"
		"                    page an access of a key range the object has to itself.\n"
		"                    How many sizes the trace does not keep is said on stderr\n"
		"To oracle and csv, every page a reference event touches becomes one request of\n"
		"one page; other events are left out.  From oracle and csv, every request becomes\n"
		"an 'access' event whose key is obj_id (--object-size pages: one per page, the\n"
		"objects numbered as first seen).  See docs/refault-trace.md for the page\n"
		"identities (obj_id).\n\n"
		"On damaged input, what was read before the damage is converted and the exit\n"
		"status is 1.\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 bad command line.\n");
}

static int parse_format(const char *s, enum conv_format *fmt)
{
	static const struct { const char *name; enum conv_format fmt; } names[] = {
		{ "trace", FMT_TRACE }, { "jsonl", FMT_JSONL }, { "oracle", FMT_ORACLE },
		{ "oracleGeneral", FMT_ORACLE }, { "csv", FMT_CSV },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].name)) {
			*fmt = names[i].fmt;
			return 0;
		}
	return -1;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static enum conv_format format_of_name(const char *path)
{
	if (ends_with(path, ".jsonl"))
		return FMT_JSONL;
	if (ends_with(path, ".oracleGeneral") || ends_with(path, ".bin"))
		return FMT_ORACLE;
	if (ends_with(path, ".csv"))
		return FMT_CSV;
	return FMT_TRACE;
}

void conv_write_error(const char *path, int err)
{
	rf_err(verb, "%s: %s%s", path, rf_strerror(err), err == -ENOSPC || err == -EDQUOT ?
	       "; free some space or choose another place (an existing file of that name is kept)" :
	       "");
}

/* ------------------------------------------------------------ trace in/out */

static int trace_src_next(struct conv_source *src, struct rf_event *ev)
{
	struct rf_trace_reader *r = src->priv;
	int rc = rf_trace_reader_next(r, ev);

	if (rc < 0)
		rf_err(verb, "%s: %s", src->path,
		       *rf_trace_reader_errmsg(r) ? rf_trace_reader_errmsg(r) : rf_strerror(rc));
	return rc;
}

static void trace_src_close(struct conv_source *src)
{
	rf_trace_reader_close(src->priv);
}

static int trace_source_open(struct conv_source *src, const char *path)
{
	struct rf_trace_reader *r = trace_open(verb, path, 0);

	if (!r)
		return -1;
	src->hdr = *rf_trace_reader_header(r);
	src->next = trace_src_next;
	src->close = trace_src_close;
	src->priv = r;
	return 0;
}

struct trace_sink {
	struct rf_trace_writer *w;
	uint64_t events;
};

static int trace_sink_put(struct conv_sink *sink, const struct rf_event *ev)
{
	struct trace_sink *ts = sink->priv;
	int err = rf_trace_writer_append(ts->w, ev);

	if (err)
		rf_err(verb, "%s: %s", sink->path, *rf_trace_writer_errmsg(ts->w) ?
		       rf_trace_writer_errmsg(ts->w) : rf_strerror(err));
	ts->events += !err;
	return err;
}

static int trace_sink_finish(struct conv_sink *sink)
{
	struct trace_sink *ts = sink->priv;
	int err = rf_trace_writer_close(ts->w);

	if (err)
		rf_err(verb, "%s: closing the trace: %s", sink->path, rf_strerror(err));
	return err ? -1 : 0;
}

static void trace_sink_abort(struct conv_sink *sink)
{
	struct trace_sink *ts = sink->priv;

	rf_trace_writer_abandon(ts->w);
}

static void trace_sink_summary(struct conv_sink *sink)
{
	struct trace_sink *ts = sink->priv;

	fprintf(stderr, "%s: %" PRIu64 " events\n", sink->path, ts->events);
}

static int trace_sink_open(struct conv_sink *sink, const char *path,
			   const struct rf_trace_header *h, const struct rf_writer_options *wo)
{
	struct trace_sink *ts = calloc(1, sizeof(*ts));
	int err;

	sink->priv = ts;
	if (!ts || out_file_open(&sink->of, path, verb))
		return -1;
	err = rf_trace_writer_fdopen(&ts->w, sink->of.fd, h, wo);
	if (err) {
		rf_err(verb, "%s: %s", path, rf_strerror(err));
		return -1;
	}
	sink->put = trace_sink_put;
	sink->finish = trace_sink_finish;
	sink->abort = trace_sink_abort;
	sink->summary = trace_sink_summary;
	return 0;
}

/* ------------------------------------------------------------ JSON lines */

struct jsonl_src {
	FILE *fp;
	char *line;
	size_t cap;
	uint64_t lineno;
	json_tokener *tok;
	json_object *cur;		/* the event's strings point into it */
	struct rf_json_scratch *scratch;
	json_object *pending;		/* a first line that was an event, not a header */
};

/* The next non-blank line parsed: 1, 0 at the end, -1 after a message. */
static int jsonl_read(struct conv_source *src, struct jsonl_src *js, json_object **out)
{
	enum json_tokener_error jerr;
	ssize_t n;

	for (;;) {
		errno = 0;
		n = getline(&js->line, &js->cap, js->fp);
		if (n < 0) {
			if (errno) {
				rf_err(verb, "%s: line %" PRIu64 ": %s", src->path,
				       js->lineno + 1, strerror(errno));
				return -1;
			}
			return 0;
		}
		js->lineno++;
		while (n > 0 && (js->line[n - 1] == '\n' || js->line[n - 1] == '\r' ||
				 js->line[n - 1] == ' ' || js->line[n - 1] == '\t'))
			js->line[--n] = '\0';
		if (!n)
			continue;
		json_tokener_reset(js->tok);
		if (n > INT32_MAX) {
			rf_err(verb, "%s: line %" PRIu64 ": over 2 GiB", src->path, js->lineno);
			return -1;
		}
		*out = json_tokener_parse_ex(js->tok, js->line, (int)n);
		jerr = json_tokener_get_error(js->tok);
		if (jerr == json_tokener_success &&
		    json_tokener_get_parse_end(js->tok) == (size_t)n)
			return 1;
		/* what the tokener made is freed here and nowhere else: the caller keeps *out */
		json_object_put(*out);
		*out = NULL;
		if (jerr == json_tokener_success) {
			rf_err(verb, "%s: line %" PRIu64 ": more than one JSON value", src->path,
			       js->lineno);
		} else {
			rf_err(verb, "%s: line %" PRIu64 ": not JSON: %s", src->path, js->lineno,
			       jerr == json_tokener_continue ? "the value is cut short" :
			       json_tokener_error_desc(jerr));
		}
		return -1;
	}
}

/* What is wrong with the line just read: @why may quote the file (a type name), escaped. */
static void bad_line(struct conv_source *src, struct jsonl_src *js, const char *why)
{
	char *text = rf_term_escaped(why);

	rf_err(verb, "%s: line %" PRIu64 ": %s", src->path, js->lineno, text ? text : why);
	free(text);
}

static int jsonl_src_next(struct conv_source *src, struct rf_event *ev)
{
	struct jsonl_src *js = src->priv;
	char why[256];
	int rc;

	json_object_put(js->cur);
	js->cur = NULL;
	if (js->pending) {
		js->cur = js->pending;
		js->pending = NULL;
	} else {
		rc = jsonl_read(src, js, &js->cur);
		if (rc <= 0)
			return rc;
	}
	rc = rf_event_from_json(js->cur, ev, &js->scratch, why, sizeof(why));
	if (rc) {
		bad_line(src, js, why);
		return rc;
	}
	return 1;
}

static void jsonl_src_close(struct conv_source *src)
{
	struct jsonl_src *js = src->priv;

	if (js->fp && js->fp != stdin)
		fclose(js->fp);
	free(js->line);
	json_tokener_free(js->tok);
	json_object_put(js->cur);
	json_object_put(js->pending);
	rf_json_scratch_free(js->scratch);
	free(js);
}

/* The first line is the header object when it has no "type"; else it is the first event. */
static int jsonl_header(struct conv_source *src, struct jsonl_src *js)
{
	json_object *first = NULL, *type;
	char why[256];
	int rc;

	rf_trace_header_init(&src->hdr, "refault trace convert");
	rc = jsonl_read(src, js, &first);
	if (rc <= 0)
		return rc;
	if (json_object_is_type(first, json_type_object) &&
	    !json_object_object_get_ex(first, "type", &type)) {
		rc = rf_header_from_json(first, &src->hdr, why, sizeof(why));
		json_object_put(first);
		if (rc) {
			bad_line(src, js, why);
			return -1;
		}
		return 0;
	}
	js->pending = first;
	return 0;
}

static int jsonl_source_open(struct conv_source *src, const char *path)
{
	struct jsonl_src *js = calloc(1, sizeof(*js));

	if (!js) {
		rf_err(verb, "out of memory");
		return -1;
	}
	src->priv = js;
	src->close = jsonl_src_close;
	src->next = jsonl_src_next;
	js->fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	js->tok = json_tokener_new();
	if (!js->fp || !js->tok) {
		rf_err(verb, "%s: %s", path, js->fp ? "out of memory" : strerror(errno));
		jsonl_src_close(src);
		return -1;
	}
	if (jsonl_header(src, js) < 0) {
		jsonl_src_close(src);
		return -1;
	}
	return 0;
}

struct jsonl_sink {
	FILE *fp;
	uint64_t events;
};

static int jsonl_sink_put(struct conv_sink *sink, const struct rf_event *ev)
{
	struct jsonl_sink *js = sink->priv;
	int err = trace_print_event_json(js->fp, ev, false);

	/* a full disk shows when the stream writes its buffer: stop there, not at the end */
	if (!err && ferror(js->fp))
		err = errno ? -errno : RF_ERR_IO;
	if (err)
		conv_write_error(sink->path, err);
	js->events += !err;
	return err;
}

static void jsonl_sink_summary(struct conv_sink *sink)
{
	struct jsonl_sink *js = sink->priv;

	fprintf(stderr, "%s: header and %" PRIu64 " events\n", sink->path, js->events);
}

static int jsonl_sink_open(struct conv_sink *sink, const char *path,
			   const struct rf_trace_header *h)
{
	struct jsonl_sink *js = calloc(1, sizeof(*js));
	json_object *o;

	sink->priv = js;
	if (!js || out_file_open(&sink->of, path, verb))
		return -1;
	js->fp = out_file_stdio(&sink->of, verb);
	o = rf_header_to_json(h);
	if (!js->fp || !o) {
		json_object_put(o);
		return -1;
	}
	fprintf(js->fp, "%s\n", json_object_to_json_string_ext(o, TRACE_JSON_FLAGS));
	json_object_put(o);
	sink->put = jsonl_sink_put;
	sink->summary = jsonl_sink_summary;
	return 0;
}

/* ---------------------------------------------------------------- driver */

static int source_open(struct conv_source *src, enum conv_format fmt, const char *path,
		       enum conv_object_size obj_size)
{
	memset(src, 0, sizeof(*src));
	src->path = path;
	switch (fmt) {
	case FMT_TRACE:
		return trace_source_open(src, path);
	case FMT_JSONL:
		return jsonl_source_open(src, path);
	default:
		return page_source_open(src, fmt, path, obj_size);
	}
}

static int sink_open(struct conv_sink *sink, enum conv_format fmt, const char *path,
		     const struct rf_trace_header *h, const struct rf_writer_options *wo)
{
	memset(sink, 0, sizeof(*sink));
	sink->path = path;
	sink->of.fd = -1;	/* no file yet: discarding it does nothing */
	switch (fmt) {
	case FMT_TRACE:
		return trace_sink_open(sink, path, h, wo);
	case FMT_JSONL:
		return jsonl_sink_open(sink, path, h);
	default:
		return page_sink_open(sink, fmt, path, h);
	}
}

static int convert(const char *in, enum conv_format ifmt, const char *out, enum conv_format ofmt,
		   const struct rf_writer_options *wo, bool pfn_ids, enum conv_object_size obj_size)
{
	struct rf_trace_folio_ids *ids = NULL;
	struct conv_source src;
	struct conv_sink sink;
	struct rf_event ev;
	int rc, status;
	bool bad;

	if (source_open(&src, ifmt, in, obj_size))
		return RF_EXIT_FAILURE;
	/* a trace of folio ids already: numbering them again would give the same ids */
	pfn_ids = pfn_ids && strcmp(src.hdr.pfns, "ids");
	if (pfn_ids) {
		snprintf(src.hdr.pfns, sizeof(src.hdr.pfns), "ids");
		ids = rf_trace_folio_ids_new();
		if (!ids) {
			rf_err(verb, "%s: folio ids: %s", out, rf_strerror(RF_ERR_NOMEM));
			src.close(&src);
			return RF_EXIT_FAILURE;
		}
	}
	if (sink_open(&sink, ofmt, out, &src.hdr, wo)) {
		rf_trace_folio_ids_free(ids);
		out_file_discard(&sink.of);
		free(sink.priv);
		src.close(&src);
		return RF_EXIT_FAILURE;
	}
	while ((rc = src.next(&src, &ev)) == 1) {
		if (ids && rf_trace_folio_ids_apply(ids, &ev)) {
			rf_err(verb, "%s: folio ids: %s", out, rf_strerror(RF_ERR_NOMEM));
			break;
		}
		if (sink.put(&sink, &ev))
			break;
	}
	rf_trace_folio_ids_free(ids);
	if (rc == 1) {
		/* the output failed: what it holds is of no use */
		if (sink.abort)
			sink.abort(&sink);
		out_file_discard(&sink.of);
		status = RF_EXIT_FAILURE;
	} else {
		/*
		 * damaged input: keep what came before the damage, and, since the run
		 * fails, the file it replaces too (OUT.old)
		 */
		bad = sink.finish && sink.finish(&sink);
		if (rc < 0)
			sink.of.flags |= RF_OUTFILE_KEEP_OLD;
		if (bad)
			out_file_discard(&sink.of);
		else
			bad = out_file_commit(&sink.of, verb) != 0;
		status = bad || rc < 0 ? RF_EXIT_FAILURE : RF_EXIT_OK;
		/* what was written, said only of an output that was (the old one is kept otherwise) */
		if (!bad && src.summary)
			src.summary(&src);
		if (!bad && sink.summary)
			sink.summary(&sink);
	}
	src.close(&src);
	free(sink.priv);
	return status;
}

int trace_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "chunk-events", required_argument, NULL, 'c' },
		{ "format-version", required_argument, NULL, 'V' },
		{ "compression-level", required_argument, NULL, 'z' },
		{ "pfns", required_argument, NULL, 'P' },
		{ "object-size", required_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	enum conv_object_size obj_size = OBJ_SIZE_FOLIO;
	bool have_obj_size = false;
	enum conv_format ifmt = FMT_TRACE, ofmt = FMT_TRACE;
	struct rf_writer_options wo = { 0 };
	uint64_t v;
	bool first = true, have_in = false, have_out = false, pfn_ids = false;
	int c, idx;

	while ((c = rf_getopt(verb, argc, argv, ":hz:", longopts, &idx, &first)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return RF_EXIT_OK;
		case 'f':
		case 't':
			if (parse_format(optarg, c == 'f' ? &ifmt : &ofmt))
				return rf_usage_error(verb, "unknown format (trace, jsonl, "
						      "oracle, csv)");
			*(c == 'f' ? &have_in : &have_out) = true;
			break;
		case 'c':
			if (rf_parse_u64(optarg, &v) || !v || v > RF_MAX_CHUNK_EVENTS)
				return rf_usage_error(verb, "--chunk-events needs a number from 1 to 262144");
			wo.chunk_events = (uint32_t)v;
			break;
		case 'V':
			if (rf_parse_u64(optarg, &v) || (v != 2 && v != RF_TRACE_VERSION_MAJOR))
				return rf_usage_error(verb, "--format-version is 2 or 3");
			wo.version_major = (uint32_t)v;
			break;
		case 'z':
			if (rf_parse_compression_level(verb, optarg, &wo.level))
				return RF_EXIT_USAGE;
			break;
		case 'P':
			if (strcmp(optarg, "ids"))
				return rf_usage_error(verb, "--pfns takes ids (a trace's kernel pfns "
						      "cannot be had back from its folio ids)");
			pfn_ids = true;
			break;
		case 'O':
			if (conv_parse_object_size(optarg, &obj_size))
				return rf_usage_error(verb, "--object-size is folio, unit or pages");
			have_obj_size = true;
			break;
		default:
			return RF_EXIT_USAGE;
		}
	}
	if (optind != argc - 2)
		return rf_usage_error(verb, "give IN and OUT");
	if (!have_in)
		ifmt = format_of_name(argv[optind]);
	if (!have_out)
		ofmt = format_of_name(argv[optind + 1]);
	if (same_file(argv[optind], argv[optind + 1]))
		return rf_usage_error(verb, "OUT must not be IN");
	if (!strcmp(argv[optind + 1], "-") && (ofmt == FMT_ORACLE || ofmt == FMT_TRACE))
		return rf_usage_error(verb, "trace and oracle output need a file, not '-'");
	if (have_obj_size && ifmt != FMT_ORACLE && ifmt != FMT_CSV)
		return rf_usage_error(verb, "--object-size is for oracle and csv input (their "
				      "object sizes)");
	return convert(argv[optind], ifmt, argv[optind + 1], ofmt, &wo, pfn_ids, obj_size);
}
