/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * convert's JSON lines: the header object first (a first line that has a
 * "type" is an event, and the header is convert's own), then one event per
 * line as 'dump --json' prints them, read and written losslessly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <refault/trace-json.h>

#include "formats/tools/convert-local.h"
#include "lib/term.h"

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
				tools_err(src->log, "%s: line %" PRIu64 ": %s", src->path,
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
			tools_err(src->log, "%s: line %" PRIu64 ": over 2 GiB", src->path, js->lineno);
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
			tools_err(src->log, "%s: line %" PRIu64 ": more than one JSON value",
				  src->path, js->lineno);
		} else {
			tools_err(src->log, "%s: line %" PRIu64 ": not JSON: %s", src->path,
				  js->lineno, jerr == json_tokener_continue ?
				  "the value is cut short" : json_tokener_error_desc(jerr));
		}
		return -1;
	}
}

/* What is wrong with the line just read: @why may quote the file (a type name), escaped. */
static void bad_line(struct conv_source *src, struct jsonl_src *js, const char *why)
{
	char *text = rf_term_escaped(why);

	tools_err(src->log, "%s: line %" PRIu64 ": %s", src->path, js->lineno, text ? text : why);
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

int conv_jsonl_source_open(struct conv_source *src)
{
	struct jsonl_src *js = calloc(1, sizeof(*js));

	if (!js) {
		tools_err(src->log, "out of memory");
		return -1;
	}
	src->priv = js;
	src->close = jsonl_src_close;
	src->next = jsonl_src_next;
	js->fp = strcmp(src->path, "-") ? fopen(src->path, "r") : stdin;
	js->tok = json_tokener_new();
	if (!js->fp || !js->tok) {
		tools_err(src->log, "%s: %s", src->path, js->fp ? "out of memory" : strerror(errno));
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
	int err = tools_print_event_json(js->fp, ev, false);

	/* a full disk shows when the stream writes its buffer: stop there, not at the end */
	if (!err && ferror(js->fp))
		err = errno ? -errno : RF_ERR_IO;
	if (err)
		conv_write_error(sink, err);
	js->events += !err;
	return err;
}

static void jsonl_sink_summary(struct conv_sink *sink)
{
	struct jsonl_sink *js = sink->priv;

	tools_note(sink->log, "%s: header and %" PRIu64 " events", sink->path, js->events);
}

int conv_jsonl_sink_open(struct conv_sink *sink, const struct rf_trace_header *h)
{
	struct jsonl_sink *js = calloc(1, sizeof(*js));
	json_object *o;

	sink->priv = js;
	if (!js || tools_out_open(&sink->of, sink->path, sink->log))
		return -1;
	js->fp = tools_out_stdio(&sink->of, sink->log);
	o = rf_header_to_json(h);
	if (!js->fp || !o) {
		json_object_put(o);
		return -1;
	}
	fprintf(js->fp, "%s\n", json_object_to_json_string_ext(o, TOOLS_JSON_FLAGS));
	json_object_put(o);
	sink->put = jsonl_sink_put;
	sink->summary = jsonl_sink_summary;
	return 0;
}
