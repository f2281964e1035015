/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-model: what the Linux reclaim model costs, against plain LRU on the
 * same page stream (issue 3, "Measured").
 *
 * The stream is generated in memory, seeded: files read twice from start
 * to end by four concurrent readers (one per CPU), mixed with single-page
 * reads of a hot file whose pages are drawn from a Zipf distribution.  Every
 * reference is a one-page RF_EV_FILE_READ fed straight to the model (no
 * trace file: the numbers are the model's, not the decoder's).  Memory is
 * 25% of the distinct pages.  One model lives at a time; its memory is the
 * peak growth of the process's RSS (/proc/self/statm, sampled every 2^20
 * events) over the RSS before it was built.
 *
 * Targets: the model at most 2x plain LRU's time per event, and at most 80
 * bytes per resident page plus 16 per shadow entry.  Missed targets are
 * printed, not fatal (exit 1 only on errors, or with -S).
 *
 * With -w, the same stream is written as a refault trace instead (the host's
 * memory in its header: those 25%), for bench-cachesim.sh to replay and to
 * convert for libCacheSim.
 *
 *   bench-model [-n REFS] [-s SEED] [-p PROFILE]... [-r ROUNDS] [-S]
 *   bench-model [-n REFS] [-s SEED] -w TRACE
 */
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <refault/model.h>
#include <refault/refpolicy.h>
#include <refault/trace.h>

#include "tests/bench/bench-stream.h"

#define DEFAULT_REFS	(22u << 20)	/* >= 20 M references */
#define READERS		4u		/* concurrent sequential readers = CPUs */
#define MAX_FILE_PAGES	65536u		/* 256 MiB files */
#define ZIPF_S		0.8
#define SAMPLE_EVERY	(1u << 20)
#define PAGE_SHIFT	12
#define HOT_INO		1u
#define MAX_PROFILES	32

/* One reference, compact: the event is built from it on the fly. */
struct ref {
	uint32_t ino;
	uint32_t index;
};

struct stream {
	struct ref *refs;
	size_t nr;
	uint64_t hot_pages, file_pages, nr_files;	/* planned */
	uint64_t hot_touched, file_touched;		/* distinct pages referenced */
};

struct result {
	const char *name;
	double seconds;			/* CPU time feeding the stream */
	double wall;
	uint64_t rss_before, peak_growth;
	uint64_t resident, shadows, shadow_nodes;
	uint64_t misses, refaults, activations;
	bool have_memory;
};

struct options {
	uint64_t refs;
	uint64_t seed;
	unsigned int rounds;
	const char *profiles[MAX_PROFILES];
	unsigned int nr_profiles;
	bool strict;
	const char *write;		/* -w: write the stream as this trace */
};

/* ------------------------------------------------------------ the stream */

struct reader {
	uint32_t ino;		/* 0: done */
	uint32_t index;
	unsigned int pass;	/* 0 or 1: read twice */
};

/* Reader @r moves to its next page, or to the next file nobody has read yet. */
static void reader_step(struct reader *r, uint32_t *next_file, uint32_t last_file,
			uint32_t file_pages)
{
	if (++r->index < file_pages)
		return;
	r->index = 0;
	if (++r->pass < 2)
		return;
	r->pass = 0;
	r->ino = *next_file <= last_file ? (*next_file)++ : 0;
}

/*
 * A fraction of the references go to the hot set, the rest to the readers
 * in turn.  File pages: about 80% of the distinct pages, each read twice.
 */
static int make_stream(struct stream *s, uint64_t nr_refs, uint64_t seed)
{
	uint64_t distinct_goal = nr_refs / 5, rng = seed, i, stream_refs;
	uint32_t file_pages = MAX_FILE_PAGES, next_file, last_file, turn = 0;
	struct reader rd[READERS];
	double *cdf, hot_share;
	uint8_t *seen;

	while (file_pages > 16 && (uint64_t)file_pages * 64 > distinct_goal)
		file_pages /= 2;
	s->nr_files = (distinct_goal * 4 / 5 + file_pages - 1) / file_pages;
	s->file_pages = s->nr_files * file_pages;
	s->hot_pages = distinct_goal > s->file_pages + 64 ? distinct_goal - s->file_pages : 64;
	stream_refs = 2 * s->file_pages;
	if (stream_refs >= nr_refs)
		return fprintf(stderr, "bench-model: -n %llu is too small\n",
			       (unsigned long long)nr_refs), -1;
	hot_share = (double)(nr_refs - stream_refs) / (double)nr_refs;
	s->refs = malloc(nr_refs * sizeof(*s->refs));
	seen = calloc(s->hot_pages, 1);
	cdf = zipf_cdf(s->hot_pages, ZIPF_S);
	if (!s->refs || !seen || !cdf)
		return fprintf(stderr, "bench-model: out of memory\n"), -1;
	next_file = HOT_INO + 1;
	last_file = HOT_INO + (uint32_t)s->nr_files;
	for (i = 0; i < READERS; i++)
		rd[i] = (struct reader){ .ino = next_file <= last_file ? next_file++ : 0 };
	for (s->nr = 0; s->nr < nr_refs;) {
		struct reader *r = &rd[turn];
		bool hot = rand01(&rng) < hot_share || !r->ino;

		if (!r->ino)	/* this reader is done: the others go on */
			turn = (turn + 1) % READERS;
		if (hot) {
			uint32_t page = (uint32_t)zipf_draw(cdf, s->hot_pages, rand01(&rng));

			s->hot_touched += !seen[page];
			seen[page] = 1;
			s->refs[s->nr++] = (struct ref){ .ino = HOT_INO, .index = page };
			continue;
		}
		s->refs[s->nr++] = (struct ref){ .ino = r->ino, .index = r->index };
		s->file_touched += r->pass == 0;
		reader_step(r, &next_file, last_file, file_pages);
		turn = (turn + 1) % READERS;
	}
	free(cdf);
	free(seen);
	return 0;
}

/* ------------------------------------------------------------ measuring */

static uint64_t rss_bytes(void)
{
	char buf[128];
	unsigned long long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu %llu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * CPU time of this (single-threaded) process: on a shared machine wall time
 * mostly measures the neighbours.  Wall time is reported beside it.
 */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void event_of(struct rf_event *ev, const struct ref *r)
{
	ev->time += 1000;
	ev->cpu = r->ino % READERS;
	ev->pid = 1000 + (int32_t)ev->cpu;
	ev->u.file.ino = r->ino;
	ev->u.file.index = r->index;
}

static void event_init(struct rf_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = RF_EV_FILE_READ;
	ev->u.file.dev = 8u << 20 | 1;
	ev->u.file.nr = 1;
}

/* Feeds [from, to) to the model or to the policy; the time taken is added to *@seconds. */
typedef int (*feed_fn)(void *target, const struct stream *s, size_t from, size_t to,
		       struct rf_event *ev);

static int feed_model(void *target, const struct stream *s, size_t from, size_t to,
		      struct rf_event *ev)
{
	size_t i;
	int r;

	for (i = from; i < to; i++) {
		event_of(ev, &s->refs[i]);
		r = rf_model_feed(target, ev);
		if (r)
			return r;
	}
	return 0;
}

static int feed_policy(void *target, const struct stream *s, size_t from, size_t to,
		       struct rf_event *ev)
{
	size_t i;
	int r;

	for (i = from; i < to; i++) {
		event_of(ev, &s->refs[i]);
		r = rf_refpolicy_feed_event(target, ev, PAGE_SHIFT);
		if (r)
			return r;
	}
	return 0;
}

/* The whole stream in blocks; RSS is sampled between blocks, off the clock. */
static int replay(void *target, feed_fn feed, const struct stream *s, struct result *res)
{
	struct rf_event ev;
	size_t at;
	int r;

	event_init(&ev);
	for (at = 0; at < s->nr; at += SAMPLE_EVERY) {
		size_t to = at + SAMPLE_EVERY < s->nr ? at + SAMPLE_EVERY : s->nr;
		double t0 = cpu_now(), w0 = now();
		uint64_t rss;

		r = feed(target, s, at, to, &ev);
		res->seconds += cpu_now() - t0;
		res->wall += now() - w0;
		if (r)
			return r;
		rss = rss_bytes();
		if (rss > res->rss_before && rss - res->rss_before > res->peak_growth)
			res->peak_growth = rss - res->rss_before;
	}
	return 0;
}

static int policy_run(enum rf_refpolicy_kind kind, const struct stream *s, uint64_t pages,
		      struct result *res)
{
	struct rf_refpolicy *p;
	struct rf_refpolicy_stats st;
	double t0, w0;
	int r;

	res->name = rf_refpolicy_name(kind);
	res->rss_before = rss_bytes();
	r = rf_refpolicy_new(&p, kind, pages);
	if (r)
		return r;
	r = replay(p, feed_policy, s, res);
	t0 = cpu_now();
	w0 = now();
	if (!r)
		r = rf_refpolicy_finish(p);	/* OPT simulates here */
	res->seconds += cpu_now() - t0;
	res->wall += now() - w0;
	rf_refpolicy_stats(p, &st);
	res->resident = st.resident_pages;
	res->misses = st.misses;
	res->have_memory = kind != RF_REFPOLICY_OPT;
	rf_refpolicy_free(p);
	malloc_trim(0);
	return r;
}

struct gather {
	struct result *res;
	uint64_t nr_file, nr_anon;
};

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int gather_cb(const char *key, uint64_t v, void *ctx)
{
	struct gather *g = ctx;

	if (!strcmp(key, "vmstat.nr_file_pages"))
		g->nr_file = v;
	else if (!strcmp(key, "vmstat.nr_anon_pages"))
		g->nr_anon = v;
	else if (!strcmp(key, "model.nr_shadow"))
		g->res->shadows = v;
	else if (!strcmp(key, "model.nr_shadow_nodes"))
		g->res->shadow_nodes = v;
	else if (starts(key, "vmstat.pgsteal_kswapd") || starts(key, "vmstat.pgsteal_direct"))
		g->res->misses += v;
	else if (!strcmp(key, "vmstat.workingset_refault") ||
		 !strcmp(key, "vmstat.workingset_refault_file"))
		g->res->refaults = v;
	else if (!strcmp(key, "vmstat.workingset_activate") ||
		 !strcmp(key, "vmstat.workingset_activate_file"))
		g->res->activations = v;
	return 0;
}

static int model_run(const char *profile, const struct stream *s, uint64_t pages,
		     struct result *res)
{
	struct rf_model_config *c;
	struct rf_model *m;
	struct gather g = { .res = res };
	char val[32], err[256] = "";
	int r;

	res->name = profile;
	res->have_memory = true;
	r = rf_model_config_new(&c, profile);
	if (r)
		return fprintf(stderr, "bench-model: profile %s: %s\n", profile, rf_strerror(r)), r;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)(pages << PAGE_SHIFT));
	r = rf_model_config_set(c, "memory", val, err, sizeof(err));
	res->rss_before = rss_bytes();
	if (!r)
		r = rf_model_new(&m, c, err, sizeof(err));
	rf_model_config_free(c);
	if (r)
		return fprintf(stderr, "bench-model: %s: %s\n", profile, err), r;
	r = replay(m, feed_model, s, res);
	if (!r)
		r = rf_model_finish(m);
	rf_model_counters(m, gather_cb, &g);
	res->resident = g.nr_file + g.nr_anon;
	res->misses += g.nr_file + g.nr_anon;	/* every page ever added: evicted or still here */
	rf_model_free(m);
	malloc_trim(0);
	if (r)
		fprintf(stderr, "bench-model: %s: %s\n", profile, rf_strerror(r));
	return r;
}

/* ------------------------------------------------------------ reporting */

#define MIB(x) ((double)(x) / 1048576.0)

static void print_header(const struct stream *s, uint64_t pages, uint64_t seed,
			 unsigned int rounds)
{
	uint64_t distinct = s->hot_touched + s->file_touched;

	printf("bench-model: %zu page references over %llu distinct pages (%llu file pages in "
	       "%llu files read twice by %u readers, %llu of %llu hot pages, Zipf s=%.1f), "
	       "seed %llu\n",
	       s->nr, (unsigned long long)distinct, (unsigned long long)s->file_touched,
	       (unsigned long long)s->nr_files, READERS, (unsigned long long)s->hot_touched,
	       (unsigned long long)s->hot_pages, ZIPF_S, (unsigned long long)seed);
	printf("memory: %llu pages (%.0f MiB) = 25%% of the distinct pages; one-page file_read "
	       "events, 4 CPUs; best of %u round%s\n\n", (unsigned long long)pages,
	       MIB(pages << PAGE_SHIFT), rounds, rounds == 1 ? "" : "s");
	printf("%-13s %8s %7s %6s %7s %9s %10s %10s %9s %8s %9s %s\n", "model", "Mev/s", "ns/ev",
	       "xLRU", "wall s", "peak MiB", "resident", "shadows", "B/page", "budget", "misses",
	       "targets");
}

/* Memory target: 80 bytes per resident page plus 16 per shadow entry. */
static uint64_t budget(const struct result *r)
{
	return 80 * r->resident + 16 * r->shadows;
}

static bool print_result(const struct result *r, const struct result *lru, size_t nr,
			 bool is_model)
{
	double ns = r->seconds * 1e9 / (double)nr, ratio = r->seconds / lru->seconds;
	bool time_ok = !is_model || ratio <= 2.0;
	bool mem_ok = !is_model || r->peak_growth <= budget(r);

	printf("%-13s %8.2f %7.1f %6.2f %7.2f ", r->name, (double)nr / r->seconds / 1e6, ns, ratio,
	       r->wall);
	if (r->have_memory)
		printf("%9.1f %10llu %10llu %9.1f %7.0f%% ", MIB(r->peak_growth),
		       (unsigned long long)r->resident, (unsigned long long)r->shadows,
		       r->resident ? (double)r->peak_growth / (double)r->resident : 0.0,
		       is_model ? 100.0 * (double)r->peak_growth / (double)budget(r) : 0.0);
	else
		printf("%9s %10llu %10s %9s %8s ", "-", (unsigned long long)r->resident, "-", "-",
		       "-");
	printf("%9llu %s\n", (unsigned long long)r->misses,
	       !is_model ? "(reference)" : time_ok && mem_ok ? "ok" :
	       !time_ok && !mem_ok ? "MISSED: time, memory" : !time_ok ? "MISSED: time" :
	       "MISSED: memory");
	return time_ok && mem_ok;
}

static void print_legend(void)
{
	printf("\nMev/s, ns/ev: CPU time of the feeding.  xLRU: that time per event over the "
	       "faster plain LRU run (target <= 2).\nwall s: wall-clock seconds of the same.  "
	       "peak MiB: peak RSS growth while the model lived.\nB/page: that growth per "
	       "resident page; budget: growth over 80 B x resident + 16 B x shadows at the end "
	       "(target <= 100%%).\n"
	       "misses: pages brought in (model: pgsteal + resident at the end).  "
	       "shadow nodes and refaults per profile follow.\n");
}

/* ------------------------------------------------------------ -w */

/* The stream as a trace: the events fed above, a header giving the memory of the runs. */
static int write_trace(const char *path, const struct stream *s, uint64_t pages, uint64_t seed)
{
	struct rf_trace_header h;
	struct rf_trace_writer *w;
	struct rf_event ev;
	size_t i;
	int r;

	rf_trace_header_init(&h, "bench-model");
	h.host.page_size = 1u << PAGE_SHIFT;
	h.host.mem_bytes = pages << PAGE_SHIFT;
	h.host.cpus = READERS;
	h.synthetic = true;
	snprintf(h.command, sizeof(h.command), "bench-model -n %zu -s %llu -w", s->nr,
		 (unsigned long long)seed);
	r = rf_trace_writer_open(&w, path, &h, NULL);
	if (r)
		return fprintf(stderr, "bench-model: %s: %s\n", path, rf_strerror(r)), r;
	event_init(&ev);
	for (i = 0; i < s->nr && !r; i++) {
		event_of(&ev, &s->refs[i]);
		r = rf_trace_writer_append(w, &ev);
	}
	if (r) {
		fprintf(stderr, "bench-model: %s: %s\n", path, rf_trace_writer_errmsg(w));
		rf_trace_writer_abandon(w);
		return r;
	}
	r = rf_trace_writer_close(w);
	if (r)
		fprintf(stderr, "bench-model: %s: %s\n", path, rf_strerror(r));
	return r;
}

/* ------------------------------------------------------------ main */

static int parse(int argc, char **argv, struct options *o)
{
	const char *const *names;
	int c;

	o->refs = DEFAULT_REFS;
	o->seed = 1;
	o->rounds = 1;
	while ((c = getopt(argc, argv, "n:s:p:r:Sw:h")) != -1) {
		switch (c) {
		case 'n':
			o->refs = strtoull(optarg, NULL, 0);
			break;
		case 's':
			o->seed = strtoull(optarg, NULL, 0);
			break;
		case 'p':
			if (o->nr_profiles == MAX_PROFILES)
				return fprintf(stderr, "bench-model: too many -p\n"), -1;
			o->profiles[o->nr_profiles++] = optarg;
			break;
		case 'r':
			o->rounds = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'S':
			o->strict = true;
			break;
		case 'w':
			o->write = optarg;
			break;
		default:
			fprintf(stderr, "usage: bench-model [-n REFS] [-s SEED] [-p PROFILE]... "
				"[-r ROUNDS] [-S]\n"
				"       bench-model [-n REFS] [-s SEED] -w TRACE\n"
				"  -n  page references (default %u; at least 20000)\n"
				"  -r  run everything ROUNDS times, keep each one's fastest "
				"(default 1)\n"
				"  -p  profile to run (repeatable; default: every profile)\n"
				"  -S  exit 1 when a model misses a target\n"
				"  -w  write the stream as a refault trace and exit\n", DEFAULT_REFS);
			return -1;
		}
	}
	if (!o->rounds || o->rounds > 100)
		return fprintf(stderr, "bench-model: -r wants 1..100\n"), -1;
	if (o->refs < 20000 || o->refs > UINT32_MAX)
		return fprintf(stderr, "bench-model: -n wants 20000..%u\n", UINT32_MAX), -1;
	if (o->nr_profiles)
		return 0;
	for (names = rf_model_profiles(); *names && o->nr_profiles < MAX_PROFILES; names++)
		o->profiles[o->nr_profiles++] = *names;
	return 0;
}

/* Job @j of a round: LRU, the profiles, LRU again, CLOCK, OPT. */
static int run_job(const struct options *o, unsigned int j, const struct stream *s,
		   uint64_t pages, struct result *res)
{
	memset(res, 0, sizeof(*res));
	if (j == 0 || j == o->nr_profiles + 1) {
		int r = policy_run(RF_REFPOLICY_LRU, s, pages, res);

		res->name = j ? "lru (again)" : "lru";
		return r;
	}
	if (j <= o->nr_profiles)
		return model_run(o->profiles[j - 1], s, pages, res);
	return policy_run(j == o->nr_profiles + 2 ? RF_REFPOLICY_CLOCK : RF_REFPOLICY_OPT, s, pages,
			  res);
}

/* Every job once per round; each keeps its fastest round (the least disturbed). */
static int run_rounds(const struct options *o, const struct stream *s, uint64_t pages,
		      struct result *res, unsigned int nr_jobs)
{
	unsigned int round, j;
	struct result one;

	for (round = 0; round < o->rounds; round++) {
		for (j = 0; j < nr_jobs; j++) {
			if (run_job(o, j, s, pages, &one))
				return -1;
			if (!round || one.seconds < res[j].seconds)
				res[j] = one;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct stream s = { 0 };
	struct result res[MAX_PROFILES + 4] = { 0 }, yardstick;
	unsigned int i, nr_jobs;
	uint64_t pages;
	bool all_ok = true;

	/*
	 * glibc raises its mmap threshold (up to 32 MiB) each time a large
	 * block is freed, after which realloc() copies instead of mremap()s
	 * and the next model's peak RSS doubles for reasons of its own.  Pin
	 * the threshold at its initial 128 KiB: every model then sees the
	 * allocator of a fresh process, as under `refault replay`.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (parse(argc, argv, &o) || make_stream(&s, o.refs, o.seed))
		return 2;
	pages = (s.hot_touched + s.file_touched) / 4;
	if (o.write) {
		int r;

		printf("bench-model: %zu page references over %llu distinct pages, memory %llu pages, "
		       "seed %llu: %s\n", s.nr, (unsigned long long)(s.hot_touched + s.file_touched),
		       (unsigned long long)pages, (unsigned long long)o.seed, o.write);
		r = write_trace(o.write, &s, pages, o.seed);
		free(s.refs);
		return r ? 1 : 0;
	}
	print_header(&s, pages, o.seed, o.rounds);
	/*
	 * LRU runs before and after the models, so that a neighbour's burst
	 * during one run moves the yardstick less: ratios use the faster.
	 */
	nr_jobs = o.nr_profiles + 4;
	if (run_rounds(&o, &s, pages, res, nr_jobs))
		return 1;
	yardstick = res[0];
	if (res[o.nr_profiles + 1].seconds < yardstick.seconds)
		yardstick = res[o.nr_profiles + 1];
	for (i = 0; i < nr_jobs; i++) {
		bool is_model = i >= 1 && i <= o.nr_profiles;
		bool good = print_result(&res[i], &yardstick, s.nr, is_model);

		all_ok &= good;
	}
	print_legend();
	for (i = 1; i <= o.nr_profiles; i++)
		printf("  %-13s shadow nodes %llu, workingset_refault %llu, "
		       "workingset_activate %llu\n",
		       res[i].name, (unsigned long long)res[i].shadow_nodes,
		       (unsigned long long)res[i].refaults, (unsigned long long)res[i].activations);
	free(s.refs);
	return o.strict && !all_ok ? 1 : 0;
}
