/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * write-sample: write a small trace of sample events (tests/format/sample.h)
 * for the shell tests and for the fuzz seed corpus.
 *
 *   write-sample [-n events] [-c events-per-chunk] [-x] [-l zstd-level] [-V major] FILE
 *
 * -x leaves the index out, as a writer that was killed would; -V 2 writes
 * format 2.6 (an array an event) instead of this library's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <refault/trace.h>

#include "tests/format/sample.h"

int main(int argc, char **argv)
{
	struct rf_writer_options opts = { .chunk_events = 100 };
	struct rf_trace_writer *w;
	struct rf_trace_header h;
	struct rf_event ev;
	unsigned long n = 1000, i;
	int c, err;

	while ((c = getopt(argc, argv, "n:c:xl:V:")) != -1) {
		switch (c) {
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'c': opts.chunk_events = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'x': opts.no_index = true; break;
		case 'l': opts.level = atoi(optarg); break;
		case 'V': opts.version_major = (uint32_t)strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: %s [-n events] [-c per-chunk] [-x] [-l level] [-V major] FILE\n", argv[0]);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "%s: one output file expected\n", argv[0]);
		return 2;
	}
	rf_trace_header_init(&h, "write-sample");
	h.synthetic = true;
	err = rf_trace_writer_open(&w, argv[optind], &h, &opts);
	for (i = 0; !err && i < n; i++) {
		sample_event(i, &ev);
		err = rf_trace_writer_append(w, &ev);
	}
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[optind],
			w ? rf_trace_writer_errmsg(w) : rf_strerror(err));
		rf_trace_writer_abandon(w);
		return 1;
	}
	err = rf_trace_writer_close(w);
	if (err) {
		fprintf(stderr, "%s: closing %s: %s\n", argv[0], argv[optind], rf_strerror(err));
		return 1;
	}
	return 0;
}
