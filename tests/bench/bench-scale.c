/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-scale: a refault trace of any length over a bounded set of pages,
 * for bench-scale.sh (issue 18, "Scale"): does a replay's memory grow with
 * the distinct pages and its speed stay the same from the first event to
 * the last, however long the trace?
 *
 * The stream is bench-model's kind (four readers reading files twice from
 * start to end, one file each at a time, mixed with one-page reads of a hot
 * file drawn from a Zipf distribution), except that the readers go round a
 * fixed set of files instead of ever new ones: after warm-up every page has
 * been seen, and the rest of the trace only repeats the pattern.  It is
 * generated as it is written (nothing is held per event), seeded.  The
 * header gives 25 % of the distinct pages as memory.
 *
 *   bench-scale [-n EVENTS] [-f FILES] [-p FILE_PAGES] [-H HOT_PAGES] [-s SEED] TRACE
 *
 * Defaults: 10^8 events, 64 files of 16,384 pages and 1,048,576 hot pages
 * (2,097,152 distinct pages, 8 GiB of data).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refault/errors.h>
#include <refault/trace.h>

#include "tests/bench/bench-stream.h"

#define READERS		4u
#define HOT_INO		1u
#define HOT_SHARE	0.3	/* of the references */
#define ZIPF_S		0.8
#define PAGE_SHIFT	12

struct reader {
	uint32_t file;		/* 0 .. files-1 */
	uint32_t index;
	unsigned int pass;	/* 0 or 1: read twice */
};

static uint64_t number(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);

	/* 1e9 and 1000000000 alike */
	if (end == s || *end || v < 1 || v > 1e15) {
		fprintf(stderr, "bench-scale: %s: not a count: '%s'\n", what, s);
		exit(2);
	}
	return (uint64_t)v;
}

int main(int argc, char **argv)
{
	uint64_t events = 100000000, files = 64, file_pages = 16384, hot = 1u << 20, seed = 1;
	uint64_t rng, i, next_file, distinct;
	struct rf_trace_writer *w = NULL;
	struct reader rd[READERS];
	struct rf_trace_header h;
	struct rf_event ev;
	unsigned int turn = 0;
	double *cdf;
	int c, r = 0;

	while ((c = getopt(argc, argv, "n:f:p:H:s:")) != -1) {
		switch (c) {
		case 'n': events = number(optarg, "-n"); break;
		case 'f': files = number(optarg, "-f"); break;
		case 'p': file_pages = number(optarg, "-p"); break;
		case 'H': hot = number(optarg, "-H"); break;
		case 's': seed = number(optarg, "-s"); break;
		default:
			fprintf(stderr, "usage: bench-scale [-n EVENTS] [-f FILES] [-p FILE_PAGES] "
				"[-H HOT_PAGES] [-s SEED] TRACE\n");
			return 2;
		}
	}
	if (optind + 1 != argc || files < READERS || files > UINT32_MAX / 2 ||
	    file_pages > UINT32_MAX) {
		fprintf(stderr, "usage: bench-scale [-n EVENTS] [-f FILES >= %u] [-p FILE_PAGES] "
			"[-H HOT_PAGES] [-s SEED] TRACE\n", READERS);
		return 2;
	}
	cdf = zipf_cdf(hot, ZIPF_S);
	if (!cdf)
		return fprintf(stderr, "bench-scale: out of memory\n"), 1;
	distinct = files * file_pages + hot;
	rf_trace_header_init(&h, "bench-scale");
	h.host.page_size = 1u << PAGE_SHIFT;
	h.host.mem_bytes = distinct / 4 << PAGE_SHIFT;
	h.host.cpus = READERS;
	h.synthetic = true;
	snprintf(h.command, sizeof(h.command), "bench-scale -n %llu -f %llu -p %llu -H %llu -s %llu",
		 (unsigned long long)events, (unsigned long long)files,
		 (unsigned long long)file_pages, (unsigned long long)hot, (unsigned long long)seed);
	r = rf_trace_writer_open(&w, argv[optind], &h, NULL);
	if (r) {
		fprintf(stderr, "bench-scale: %s: %s\n", argv[optind], rf_strerror(r));
		free(cdf);
		return 1;
	}
	for (i = 0; i < READERS; i++)
		rd[i] = (struct reader){ .file = (uint32_t)i };
	next_file = READERS;
	rng = seed;
	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_FILE_READ;
	ev.u.file.dev = 8u << 20 | 1;
	ev.u.file.nr = 1;
	for (i = 0; i < events && !r; i++) {
		struct reader *rr = &rd[turn];

		ev.time += 1000;
		if (rand01(&rng) < HOT_SHARE) {
			ev.u.file.ino = HOT_INO;
			ev.u.file.index = zipf_draw(cdf, hot, rand01(&rng));
		} else {
			ev.u.file.ino = HOT_INO + 1 + rr->file;
			ev.u.file.index = rr->index;
			if (++rr->index == file_pages) {
				rr->index = 0;
				if (++rr->pass == 2) {	/* the set's next file, round and round */
					rr->pass = 0;
					rr->file = (uint32_t)(next_file++ % files);
				}
			}
			turn = (turn + 1) % READERS;
		}
		ev.cpu = (uint32_t)(ev.u.file.ino % READERS);
		ev.pid = 1000 + (int32_t)ev.cpu;
		r = rf_trace_writer_append(w, &ev);
	}
	free(cdf);
	if (r) {
		fprintf(stderr, "bench-scale: %s: %s\n", argv[optind], rf_trace_writer_errmsg(w));
		rf_trace_writer_abandon(w);
		return 1;
	}
	r = rf_trace_writer_close(w);
	if (r) {
		fprintf(stderr, "bench-scale: %s: %s\n", argv[optind], rf_strerror(r));
		return 1;
	}
	printf("bench-scale: %llu events over %llu distinct pages (%llu files of %llu, %llu hot), "
	       "memory %llu pages\n", (unsigned long long)events, (unsigned long long)distinct,
	       (unsigned long long)files, (unsigned long long)file_pages, (unsigned long long)hot,
	       (unsigned long long)(distinct / 4));
	return 0;
}
