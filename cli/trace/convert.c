/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `refault trace convert IN OUT`: its options; formats/tools/convert.c converts. */
#include <getopt.h>
#include <string.h>

#include "cli/trace/trace-local.h"
#include "formats/tools/convert.h"

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

struct convert_args {
	struct rf_tools_convert_opts o;
	bool have_from;
	bool have_to;
	bool have_obj_size;
};

/* Option @c with optarg: -1 to go on, or an exit status. */
static int option(struct convert_args *a, int c)
{
	struct rf_tools_convert_opts *o = &a->o;
	uint64_t v;

	switch (c) {
	case 'h':
		usage(stdout);
		return RF_EXIT_OK;
	case 'f':
	case 't':
		if (rf_tools_parse_format(optarg, c == 'f' ? &o->from : &o->to))
			return rf_usage_error(verb, "unknown format (trace, jsonl, oracle, csv)");
		*(c == 'f' ? &a->have_from : &a->have_to) = true;
		return -1;
	case 'c':
		if (rf_parse_u64(optarg, &v) || !v || v > RF_MAX_CHUNK_EVENTS)
			return rf_usage_error(verb, "--chunk-events needs a number from 1 to 262144");
		o->wo.chunk_events = (uint32_t)v;
		return -1;
	case 'V':
		if (rf_parse_u64(optarg, &v) || (v != 2 && v != RF_TRACE_VERSION_MAJOR))
			return rf_usage_error(verb, "--format-version is 2 or 3");
		o->wo.version_major = (uint32_t)v;
		return -1;
	case 'z':
		return rf_parse_compression_level(verb, optarg, &o->wo.level) ? RF_EXIT_USAGE : -1;
	case 'P':
		if (strcmp(optarg, "ids"))
			return rf_usage_error(verb, "--pfns takes ids (a trace's kernel pfns cannot "
					      "be had back from its folio ids)");
		o->pfn_ids = true;
		return -1;
	case 'O':
		if (rf_tools_parse_object_size(optarg, &o->object_size))
			return rf_usage_error(verb, "--object-size is folio, unit or pages");
		a->have_obj_size = true;
		return -1;
	default:
		return RF_EXIT_USAGE;
	}
}

/* IN and OUT, and the formats they are of: -1 to go on, or an exit status. */
static int operands(struct convert_args *a, int argc, char **argv)
{
	struct rf_tools_convert_opts *o = &a->o;

	if (optind != argc - 2)
		return rf_usage_error(verb, "give IN and OUT");
	o->in = argv[optind];
	o->out = argv[optind + 1];
	if (!a->have_from)
		o->from = rf_tools_format_of_name(o->in);
	if (!a->have_to)
		o->to = rf_tools_format_of_name(o->out);
	if (trace_same_file(o->in, o->out))
		return rf_usage_error(verb, "OUT must not be IN");
	if (!strcmp(o->out, "-") && (o->to == RF_TOOLS_ORACLE || o->to == RF_TOOLS_TRACE))
		return rf_usage_error(verb, "trace and oracle output need a file, not '-'");
	if (a->have_obj_size && o->from != RF_TOOLS_ORACLE && o->from != RF_TOOLS_CSV)
		return rf_usage_error(verb, "--object-size is for oracle and csv input (their "
				      "object sizes)");
	return -1;
}

int trace_convert(int argc, char **argv)
{
	struct rf_tools_log log = trace_log(verb, false);
	struct convert_args a = { .o = { .from = RF_TOOLS_TRACE, .to = RF_TOOLS_TRACE,
					 .object_size = RF_TOOLS_OBJ_FOLIO } };
	bool first = true;
	int c, idx, status = -1;

	while (status < 0 && (c = rf_getopt(verb, argc, argv, ":hz:", longopts, &idx, &first)) != -1)
		status = option(&a, c);
	if (status < 0)
		status = operands(&a, argc, argv);
	if (status >= 0)
		return status;
	return rf_tools_convert(&a.o, &log) ? RF_EXIT_FAILURE : RF_EXIT_OK;
}
