/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace info`: what a trace holds, counted by the trace tools'
 * library (formats/tools/info.h) and printed here as text or JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <refault/trace-json.h>

#include "cli/trace/trace-local.h"
#include "formats/tools/info.h"
#include "lib/term.h"
#include "lib/utf8.h"

static const char verb[] = "trace info";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault trace info TRACE [--json] [--chunks]\n\n"
		"Print the header of TRACE (producer, version, host, clock, what was recorded),\n"
		"its duration, events per type and per class, chunks, file bytes and bytes per\n"
		"event, the lost-event total (sum of the counts of 'lost' events) and whether the\n"
		"index is present.  Every chunk is decoded; damaged chunks are reported (chunk and\n"
		"offset) and left out of the counts.  'events' (and bytes per event) leave out the\n"
		"end record, as record's summary and the end record's own count do; the per-type\n"
		"and per-class counts list it.\n\n"
		"  --json     one JSON object instead of text\n"
		"  --chunks   also list the chunks: offset, size, sequence number, first and last\n"
		"             time, events, references (from the index, or found by walking)\n\n"
		"Exit status: 0 the trace was read whole, 1 damage or I/O error, 2 bad command line.\n");
}

/*
 * Text the trace's header supplies, on standard output: escaped by lib/term.h's
 * rule, as everything a file says is before a terminal shows it.
 */
static void put(const char *s)
{
	rf_term_escape_str(stdout, s);
}

/* "LABEL" then @s escaped and a newline. */
static void put_line(const char *label, const char *s)
{
	fputs(label, stdout);
	put(s);
	fputc('\n', stdout);
}

/* @label then @list (escaped), cut at commas into lines of 100 columns, each continued under the first. */
static void print_wrapped(const char *label, const char *list)
{
	size_t indent = strlen(label), col = indent, n;
	char *text = rf_term_escaped(list);
	const char *p = text ? text : "?", *comma;

	fputs(label, stdout);
	while (*p) {
		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) + 1 : strlen(p);
		if (col > indent && col + n > 100) {
			printf("\n%*s", (int)indent, "");
			col = indent;
		}
		fwrite(p, 1, n, stdout);
		col += n;
		p += n;
	}
	fputc('\n', stdout);
	free(text);
}

static void print_header_text(const struct rf_trace_header *h)
{
	const struct rf_trace_host *host = &h->host;
	char when[64] = "?", mem[32], swap[32];
	time_t t = (time_t)h->created;
	struct tm tm;

	if (h->created && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("format:       %s %u.%u\n", RF_TRACE_FORMAT_NAME, h->version_major,
	       h->version_minor);
	fputs("producer:     ", stdout);
	put(h->producer);
	fputc(' ', stdout);
	put_line("", h->producer_version);
	printf("created:      %s\n", when);
	fputs("clock:        ", stdout);
	put(h->clock);
	printf("%s", h->synthetic ? " (synthetic)" : "");
	if (h->time_resolution > 1)
		printf(", times rounded down to %llu ns", (unsigned long long)h->time_resolution);
	printf("\n");
	if (*host->kernel_release || host->cpus) {
		fputs("host:         ", stdout);
		put(*host->hostname ? host->hostname : "?");
		fputs(", Linux ", stdout);
		put(host->kernel_release);
		fputc(' ', stdout);
		put(host->arch);
		printf(", %u CPUs, %u NUMA nodes, page size %u\n", host->cpus, host->numa_nodes,
		       host->page_size);
	} else {
		printf("host:         not recorded (%s), page size %u\n",
		       h->synthetic ? "a synthetic or converted trace" : "the producer did not say",
		       host->page_size);
	}
	printf("memory:       %s, swap %s, THP ", rf_format_bytes(host->mem_bytes, mem, sizeof(mem)),
	       rf_format_bytes(host->swap_bytes, swap, sizeof(swap)));
	put(*host->thp_mode ? host->thp_mode : "unknown");
	if (host->zero_page == RF_ZERO_PAGE_MAPS)
		fputs(", reads of untouched anonymous memory map the zero page", stdout);
	else if (host->zero_page == RF_ZERO_PAGE_NONE)
		fputs(", no zero page (a read of untouched anonymous memory allocates)", stdout);
	fputc('\n', stdout);
	if (host->lru_gen[0] || host->cgroup_version) {
		printf("reclaim:      %s%s", rf_trace_host_lru_gen_on(host) ? "multi-gen LRU" :
		       "classic LRU", host->lru_gen[0] ? " (lru_gen/enabled " : " (no multi-gen LRU");
		put(host->lru_gen);
		printf("), memory cgroup %s%s", host->cgroup_version == 2 ? "v2" :
		       host->cgroup_version == 1 ? "v1" : "none", host->cgroup_mount[0] ? " at " : "");
		put_line("", host->cgroup_mount);
	}
	print_wrapped("sources:      ", h->sources);
	put_line("scope:        ", h->scope);
	if (h->cgroup[0])
		put_line("cgroup:       ", h->cgroup);
	put_line("command:      ", h->command);
	if (!strcmp(h->pfns, "ids"))
		printf("pfns:         folio ids, numbered by the producer (not the kernel's)\n");
	else if (h->pfns[0])
		put_line("pfns:         ", h->pfns);
	if (*h->params)
		put_line("params:       ", h->params);
}

static void print_chunks_text(const struct rf_tools_info *in)
{
	long i;

	printf("chunk list:\n  %6s %12s %8s %6s %20s %20s %8s %8s\n", "chunk", "offset", "size",
	       "seq", "t_first", "t_last", "events", "refs");
	for (i = 0; i < in->chunks && in->chunk_list; i++) {
		const struct rf_chunk_info *c = &in->chunk_list[i];

		printf("  %6ld %12" PRIu64 " %8" PRIu64 " %6" PRIu64 " %20" PRIu64 " %20" PRIu64
		       " %8" PRIu64 " %8" PRIu64 "\n", i, c->offset, c->size, c->seq, c->t_first,
		       c->t_last, c->nr_events, c->nr_refs);
	}
}

static json_object *chunks_json(const struct rf_tools_info *in)
{
	json_object *a = json_object_new_array(), *c;
	long i;

	for (i = 0; a && i < in->chunks && in->chunk_list; i++) {
		const struct rf_chunk_info *ci = &in->chunk_list[i];

		c = json_object_new_object();
		json_object_object_add(c, "offset", json_object_new_uint64(ci->offset));
		json_object_object_add(c, "size", json_object_new_uint64(ci->size));
		json_object_object_add(c, "seq", json_object_new_uint64(ci->seq));
		json_object_object_add(c, "t_first", json_object_new_uint64(ci->t_first));
		json_object_object_add(c, "t_last", json_object_new_uint64(ci->t_last));
		json_object_object_add(c, "nr_events", json_object_new_uint64(ci->nr_events));
		json_object_object_add(c, "nr_refs", json_object_new_uint64(ci->nr_refs));
		json_object_array_add(a, c);
	}
	return a;
}

static void print_text(const struct rf_tools_info *in, struct rf_trace_reader *r, bool list_chunks)
{
	uint64_t size = rf_trace_reader_file_size(r);
	unsigned int t;
	int c;
	char buf[32];

	print_header_text(rf_trace_reader_header(r));
	printf("time:         %" PRIu64 ".%09" PRIu64 " .. %" PRIu64 ".%09" PRIu64 " s\n",
	       in->t_first / 1000000000u, in->t_first % 1000000000u, in->t_last / 1000000000u,
	       in->t_last % 1000000000u);
	printf("duration:     %.9f s\n", (double)(in->t_last - in->t_first) / 1e9);
	printf("events:       %" PRIu64 "\n", in->events);
	printf("chunks:       %ld\n", in->chunks < 0 ? 0 : in->chunks);
	printf("file size:    %" PRIu64 " bytes (%s)\n", size,
	       rf_format_bytes(size, buf, sizeof(buf)));
	printf("bytes/event:  %.3f\n", in->events ? (double)size / (double)in->events : 0.0);
	printf("lost events:  %" PRIu64 "\n", in->lost);
	if (in->has_end)
		printf("end record:   %" PRIu64 " events, %" PRIu64 " lost\n", in->end_events,
		       in->end_lost);
	if (in->has_stacks)
		printf("stacks:       %" PRIu64 " samples, %" PRIu64 " lost; %" PRIu64 " unwound to the "
		       "outermost frame, %" PRIu64 " failed; %" PRIu64 " of %" PRIu64 " references with "
		       "one\n", in->stacks[0], in->stacks[1], in->stacks[2], in->stacks[3], in->stacks[4],
		       in->stacks[4] + in->stacks[5]);
	printf("index:        %s%s%s\n", rf_trace_reader_has_index(r) ? "present" : "absent",
	       *rf_trace_reader_index_problem(r) ? ": " : "", rf_trace_reader_index_problem(r));
	if (in->damaged)
		printf("damaged:      %" PRIu64 " chunks skipped\n", in->damaged);
	printf("per class:\n");
	for (c = RF_CLASS_REFERENCE; c <= RF_CLASS_META; c++)
		printf("  %-20s %" PRIu64 "\n", rf_event_class_name((enum rf_event_class)c),
		       in->per_class[c]);
	printf("per type:\n");
	for (t = 1; t < RF_EV_TYPE_MAX; t++)
		if (in->per_type[t])
			printf("  %-20s %" PRIu64 "\n", rf_event_type_name(t), in->per_type[t]);
	if (list_chunks)
		print_chunks_text(in);
}

static json_object *info_json(const struct rf_tools_info *in, struct rf_trace_reader *r,
			     bool list_chunks)
{
	json_object *o = json_object_new_object(), *types, *classes, *index, *dmg;
	uint64_t size = rf_trace_reader_file_size(r);
	unsigned int t, k;
	int c;

	if (!o)
		return NULL;
	json_object_object_add(o, "header", rf_header_to_json(rf_trace_reader_header(r)));
	json_object_object_add(o, "t_first", json_object_new_uint64(in->t_first));
	json_object_object_add(o, "t_last", json_object_new_uint64(in->t_last));
	json_object_object_add(o, "duration_ns", json_object_new_uint64(in->t_last - in->t_first));
	json_object_object_add(o, "events", json_object_new_uint64(in->events));
	json_object_object_add(o, "chunks", json_object_new_int64(in->chunks < 0 ? 0 : in->chunks));
	json_object_object_add(o, "file_bytes", json_object_new_uint64(size));
	json_object_object_add(o, "bytes_per_event", json_object_new_double(
		in->events ? (double)size / (double)in->events : 0));
	json_object_object_add(o, "lost_events", json_object_new_uint64(in->lost));
	if (in->has_end) {
		json_object *end = json_object_new_object();

		json_object_object_add(end, "nr_events", json_object_new_uint64(in->end_events));
		json_object_object_add(end, "nr_lost", json_object_new_uint64(in->end_lost));
		json_object_object_add(o, "end", end);
	}
	if (in->has_stacks) {
		static const char *const keys[] = { "samples", "lost", "unwound", "failed", "refs",
						    "refs_without" };
		json_object *st = json_object_new_object();
		size_t q;

		for (q = 0; q < ARRAY_SIZE(keys); q++)
			json_object_object_add(st, keys[q], json_object_new_uint64(in->stacks[q]));
		json_object_object_add(o, "stacks", st);
	}
	index = json_object_new_object();
	json_object_object_add(index, "present",
			       json_object_new_boolean(rf_trace_reader_has_index(r)));
	json_object_object_add(index, "problem",
			       json_object_new_string(rf_trace_reader_index_problem(r)));
	json_object_object_add(o, "index", index);
	classes = json_object_new_object();
	for (c = RF_CLASS_REFERENCE; c <= RF_CLASS_META; c++)
		json_object_object_add(classes, rf_event_class_name((enum rf_event_class)c),
				       json_object_new_uint64(in->per_class[c]));
	json_object_object_add(o, "per_class", classes);
	types = json_object_new_object();
	for (t = 1; t < RF_EV_TYPE_MAX; t++)
		if (in->per_type[t])
			json_object_object_add(types, rf_event_type_name(t),
					       json_object_new_uint64(in->per_type[t]));
	json_object_object_add(o, "per_type", types);
	json_object_object_add(o, "damaged_chunks", json_object_new_uint64(in->damaged));
	dmg = json_object_new_array();
	for (k = 0; k < in->damaged && k < RF_TOOLS_INFO_DAMAGE; k++)
		json_object_array_add(dmg, json_object_new_string(in->damage[k]));
	json_object_object_add(o, "damage", dmg);
	if (list_chunks)
		json_object_object_add(o, "chunk_list", chunks_json(in));
	return o;
}

/* Print what @in counted of @r: text or JSON.  An exit status. */
static int show(const struct rf_tools_info *in, struct rf_trace_reader *r, bool json,
		bool list_chunks)
{
	json_object *o;

	if (!json) {
		print_text(in, r, list_chunks);
		return RF_EXIT_OK;
	}
	/* strict JSON: a byte of the header's strings that is not UTF-8 becomes U+FFFD */
	o = info_json(in, r, list_chunks);
	if (!o || rf_utf8_json_write(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), stdout) ||
	    fputc('\n', stdout) == EOF) {
		rf_err(verb, "%s", o ? strerror(errno) : "out of memory");
		json_object_put(o);
		return RF_EXIT_FAILURE;
	}
	json_object_put(o);
	return RF_EXIT_OK;
}

int trace_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "chunks", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct rf_tools_log log = trace_log(verb, false);
	struct rf_tools_info *in;
	struct rf_trace_reader *r;
	const char *path;
	bool first = true, json = false, list_chunks = false;
	int c, idx, status;

	while ((c = rf_getopt(verb, argc, argv, ":hj", longopts, &idx, &first)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return RF_EXIT_OK;
		}
		if (c != 'j' && c != 'c')
			return RF_EXIT_USAGE;
		*(c == 'j' ? &json : &list_chunks) = true;
	}
	path = trace_operand(verb, argc, argv);
	if (!path)
		return RF_EXIT_USAGE;
	r = rf_tools_open(&log, path, RF_READ_SKIP_DAMAGED);
	if (!r)
		return RF_EXIT_FAILURE;
	in = calloc(1, sizeof(*in));	/* the damage reports make it big for the stack */
	if (!in || rf_tools_info_scan(r, path, in, &log)) {
		if (!in)
			rf_err(verb, "out of memory");
		free(in);
		rf_trace_reader_close(r);
		return RF_EXIT_FAILURE;
	}
	status = show(in, r, json, list_chunks);
	if (status == RF_EXIT_OK && in->damaged)
		status = RF_EXIT_FAILURE;
	free(in);
	rf_trace_reader_close(r);
	return status;
}
