/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The draw: a seed, a limit and two flags -> the parameters of a workload
 * (docs/workload.md, "The space"), and the parameters -> one line of
 * key=value, or JSON.
 *
 * Everything is integer arithmetic on one xoshiro256** stream, each value
 * from exactly one step of it, in a fixed order: the same inputs give the
 * same parameters on every host.  The flags do not change what is drawn,
 * only how two values are read (the anonymous sizes' range under --swap; a
 * phase's cgroup coin under --no-cgroups), so a seed keeps its shape across
 * them and across limits.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/hash.h"
#include "workload/workload-local.h"

#define KIB		1024ull
#define MIB		(1024ull * KIB)
#define PAGE		RF_WORKLOAD_PAGE
#define ALIGN		RF_WORKLOAD_ALIGN

/* the probabilities of the space, in percent */
#define P_CGROUPS	30	/* a phase of >= 2 tasks puts each in a sibling cgroup */
#define P_HOT		40	/* a read or mmap stream has a hot set */
#define P_HINT		30	/* a stream (not write) gives the kernel a hint */

static const char *const kind_names[RF_WORKLOAD_NR_KINDS] = {
	[RF_WORKLOAD_READ_SEQ] = "read-seq",
	[RF_WORKLOAD_PREAD_RAND] = "pread-rand",
	[RF_WORKLOAD_MMAP_SEQ] = "mmap-seq",
	[RF_WORKLOAD_MMAP_RAND] = "mmap-rand",
	[RF_WORKLOAD_MMAP_STORE] = "mmap-store",
	[RF_WORKLOAD_WRITE] = "write",
	[RF_WORKLOAD_ANON] = "anon",
};

static const char *const hint_names[] = {
	[RF_WORKLOAD_HINT_NONE] = "none",
	[RF_WORKLOAD_HINT_SEQUENTIAL] = "sequential",
	[RF_WORKLOAD_HINT_RANDOM] = "random",
	[RF_WORKLOAD_HINT_WILLNEED] = "willneed",
	[RF_WORKLOAD_HINT_HUGEPAGE] = "hugepage",
};

/* 2^(k/64) in 32.32 fixed point, k = 0..63: log-uniform sizes without libm */
static const uint64_t exp2_64ths[64] = {
	0x100000000ull, 0x102c9a3e7ull, 0x1059b0d31ull, 0x108745187ull,
	0x10b5586d0ull, 0x10e3ec32dull, 0x111301d01ull, 0x11429aaebull,
	0x1172b83c8ull, 0x11a35beb7ull, 0x11d487317ull, 0x12063b886ull,
	0x12387a6e7ull, 0x126b4565eull, 0x129e9df52ull, 0x12d285a6eull,
	0x1306fe0a3ull, 0x133c08b26ull, 0x1371a7374ull, 0x13a7db34eull,
	0x13dea64c1ull, 0x14160a21full, 0x144e08606ull, 0x1486a2b5cull,
	0x14bfdad53ull, 0x14f9b276aull, 0x15342b56aull, 0x156f4736bull,
	0x15ab07dd5ull, 0x15e76f15bull, 0x16247eb04ull, 0x166238825ull,
	0x16a09e668ull, 0x16dfb23c6ull, 0x171f75e8full, 0x175feb564ull,
	0x17a11473full, 0x17e2f336dull, 0x182589995ull, 0x1868d99b4ull,
	0x18ace5423ull, 0x18f1ae991ull, 0x193737b0dull, 0x197d829feull,
	0x19c49182aull, 0x1a0c667b6ull, 0x1a5503b24ull, 0x1a9e6b558ull,
	0x1ae89f996ull, 0x1b33a2b85ull, 0x1b7f76f30ull, 0x1bcc1e905ull,
	0x1c199bdd8ull, 0x1c67f12e5ull, 0x1cb720dcfull, 0x1d072d4a0ull,
	0x1d5818dd0ull, 0x1da9e603eull, 0x1dfc97338ull, 0x1e502ee79ull,
	0x1ea4afa2aull, 0x1efa1bee6ull, 0x1f50765b7ull, 0x1fa7c181aull,
};

const char *rf_workload_kind_name(enum rf_workload_kind k)
{
	return (unsigned int)k < RF_WORKLOAD_NR_KINDS ? kind_names[k] : NULL;
}

uint64_t wl_task_seed(uint64_t seed, unsigned int phase, unsigned int task)
{
	return rf_hash2(rf_hash2(seed, phase + 1), task + 1);
}

static uint64_t round_down(uint64_t v)
{
	return v / ALIGN * ALIGN;
}

static uint64_t round_up(uint64_t v)
{
	return (v + ALIGN - 1) / ALIGN * ALIGN;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * Log-uniform in [@lo, @lo * 2^@octaves): one of 64 points an octave (1.1 %
 * apart), then rounded to 64 KiB within [@lo, @lo * 2^@octaves], both ends
 * rounded inwards (and never below 64 KiB).
 */
static uint64_t log_uniform(struct rf_xoshiro *r, uint64_t lo, unsigned int octaves)
{
	uint64_t x = wl_below(r, 64ull * octaves), hi = lo << octaves;
	unsigned __int128 v = (unsigned __int128)(lo << (x / 64)) * exp2_64ths[x % 64];
	uint64_t min = RF_MAX(round_up(lo), ALIGN);

	return clamp(round_down((uint64_t)(v >> 32) + ALIGN / 2), min, RF_MAX(round_down(hi), min));
}

static bool is_file_kind(enum rf_workload_kind k)
{
	return k != RF_WORKLOAD_ANON;
}

static bool is_read_kind(enum rf_workload_kind k)
{
	return k == RF_WORKLOAD_READ_SEQ || k == RF_WORKLOAD_PREAD_RAND;
}

static bool is_mmap_kind(enum rf_workload_kind k)
{
	return k == RF_WORKLOAD_MMAP_SEQ || k == RF_WORKLOAD_MMAP_RAND || k == RF_WORKLOAD_MMAP_STORE;
}

/* whether the stream walks its region in passes (else: independent random pages) */
static bool is_sequential(const struct rf_workload_stream *s)
{
	switch (s->kind) {
	case RF_WORKLOAD_PREAD_RAND:
	case RF_WORKLOAD_MMAP_RAND:
		return false;
	case RF_WORKLOAD_MMAP_STORE:
		return !s->random_order;
	default:
		return true;	/* anon in a random order still stores to each page once a pass */
	}
}

/* The region of a file stream: the whole file, or a range of at least a quarter of it. */
static void draw_region(struct rf_xoshiro *r, struct rf_workload_stream *s, uint64_t size)
{
	uint64_t min = RF_MIN(round_up(size / 4), size);

	s->whole = wl_below(r, 2) == 0;
	s->length = min + ALIGN * wl_below(r, (size - min) / ALIGN + 1);
	s->offset = ALIGN * wl_below(r, (size - s->length) / ALIGN + 1);
	s->whole |= s->length == size;		/* a range that is the whole file is said so */
	if (s->whole) {
		s->offset = 0;
		s->length = size;
	}
}

/* A hot range of 0.02 to 0.3 x the limit (at most the file) and the share of operations sent there. */
static void draw_hot(struct rf_xoshiro *r, struct rf_workload_stream *s, uint64_t limit, uint64_t size)
{
	uint64_t permille = 20 + wl_below(r, 281);
	unsigned __int128 len = (unsigned __int128)limit * permille / 1000;

	s->hot = wl_below(r, 100) < P_HOT;
	s->hot_length = clamp(round_down((uint64_t)len + ALIGN / 2), ALIGN, size);
	s->hot_offset = ALIGN * wl_below(r, (size - s->hot_length) / ALIGN + 1);
	s->hot_rate100 = 10 + (unsigned int)wl_below(r, 71);
	if (!s->hot)
		s->hot_offset = s->hot_length = s->hot_rate100 = 0;
}

static void draw_hint(struct rf_xoshiro *r, struct rf_workload_stream *s)
{
	bool on = wl_below(r, 100) < P_HINT;
	enum rf_workload_hint h = RF_WORKLOAD_HINT_SEQUENTIAL + (unsigned int)wl_below(r, 3);
	bool dontneed = wl_below(r, 2);

	if (!on)
		return;
	if (s->kind == RF_WORKLOAD_ANON) {
		s->hint = RF_WORKLOAD_HINT_HUGEPAGE;
	} else {
		s->hint = h;
		s->dontneed = is_read_kind(s->kind) && dontneed;
	}
}

static void draw_stream(struct rf_xoshiro *r, const struct rf_workload_params *p,
			struct rf_workload_stream *s)
{
	uint64_t limit = p->in.limit, pages;

	s->kind = (enum rf_workload_kind)wl_below(r, RF_WORKLOAD_NR_KINDS);
	if (is_file_kind(s->kind)) {
		s->file = (unsigned int)wl_below(r, p->nr_files);
		draw_region(r, s, p->file_size[s->file]);
	} else {
		/* [limit/16, limit/2), or with --swap [limit/16, 2 x limit): the phase caps the sum */
		s->whole = true;
		s->length = log_uniform(r, limit / 16, p->in.swap ? 5 : 3);
	}
	if (s->kind == RF_WORKLOAD_MMAP_STORE || s->kind == RF_WORKLOAD_ANON)
		s->random_order = wl_below(r, 2);
	pages = s->length / PAGE;
	if (is_sequential(s)) {
		s->passes = 1 + (unsigned int)wl_below(r, 3);
		s->nominal_ops = s->passes * pages;
	} else {
		s->factor100 = 50 + (unsigned int)wl_below(r, 251);
		s->nominal_ops = RF_MAX(pages * s->factor100 / 100, 1);
	}
	if (s->kind == RF_WORKLOAD_READ_SEQ || s->kind == RF_WORKLOAD_WRITE)
		s->chunk = 64 * KIB + 4 * KIB * wl_below(r, 49);
	if (s->kind == RF_WORKLOAD_WRITE && wl_below(r, 2))
		s->sync_every = (1 + wl_below(r, 8)) * MIB;
	if (is_read_kind(s->kind) || is_mmap_kind(s->kind))
		draw_hot(r, s, limit, p->file_size[s->file]);
	if (s->kind != RF_WORKLOAD_WRITE)
		draw_hint(r, s);
}

/*
 * Without --swap a phase's anonymous regions add up to at most limit/2 (they
 * cannot be reclaimed: more is the OOM killer's), with it to at most 2 x the
 * limit: a phase over that has its anonymous regions shrunk together.
 */
static void cap_anon(const struct rf_workload_params *p, struct rf_workload_phase *ph)
{
	uint64_t cap = p->in.swap ? 2 * p->in.limit : p->in.limit / 2, sum = 0;
	unsigned int t;

	for (t = 0; t < ph->nr_tasks; t++)
		if (ph->tasks[t].kind == RF_WORKLOAD_ANON)
			sum += ph->tasks[t].length;
	if (sum <= cap)
		return;
	for (t = 0; t < ph->nr_tasks; t++) {
		struct rf_workload_stream *s = &ph->tasks[t];

		if (s->kind != RF_WORKLOAD_ANON)
			continue;
		s->length = RF_MAX(round_down((uint64_t)((unsigned __int128)s->length * cap / sum)), ALIGN);
		s->nominal_ops = s->passes * (s->length / PAGE);
	}
}

/*
 * The budget: at most RF_WORKLOAD_BUDGET x the limit's pages x scale page
 * operations in all.  Each stream does its nominal operations x scale; when
 * they add up to more than the budget, each does its share of the budget
 * instead (nominal x budget / the nominal sum), at least one.
 */
static void apply_budget(struct rf_workload_params *p, uint64_t scale_ppm)
{
	unsigned int ph, t;
	uint64_t scaled;

	p->budget = (uint64_t)((unsigned __int128)RF_WORKLOAD_BUDGET * (p->in.limit / PAGE) *
			       scale_ppm / 1000000);
	p->budget = RF_MAX(p->budget, 1);
	p->nominal_ops = 0;
	for (ph = 0; ph < p->nr_phases; ph++)
		for (t = 0; t < p->phases[ph].nr_tasks; t++)
			p->nominal_ops += p->phases[ph].tasks[t].nominal_ops;
	scaled = (uint64_t)((unsigned __int128)p->nominal_ops * scale_ppm / 1000000);
	p->total_ops = 0;
	for (ph = 0; ph < p->nr_phases; ph++)
		for (t = 0; t < p->phases[ph].nr_tasks; t++) {
			struct rf_workload_stream *s = &p->phases[ph].tasks[t];
			unsigned __int128 ops = scaled > p->budget ?
				(unsigned __int128)s->nominal_ops * p->budget / p->nominal_ops :
				(unsigned __int128)s->nominal_ops * scale_ppm / 1000000;

			s->ops = RF_MAX((uint64_t)ops, 1);
			p->total_ops += s->ops;
		}
}

static int check_inputs(const struct rf_workload_inputs *in, uint64_t *scale_ppm, char *err,
			size_t errlen)
{
	if (in->limit < RF_WORKLOAD_MIN_LIMIT || in->limit > RF_WORKLOAD_MAX_LIMIT) {
		snprintf(err, errlen, "--limit %" PRIu64 " is outside 4M..1T", in->limit);
		return RF_ERR_RANGE;
	}
	/* !(a <= b) also refuses a NaN */
	if (!(in->scale >= 0.001 && in->scale <= RF_WORKLOAD_MAX_SCALE)) {
		snprintf(err, errlen, "--scale %g is outside 0.001..%g", in->scale,
			 RF_WORKLOAD_MAX_SCALE);
		return RF_ERR_RANGE;
	}
	*scale_ppm = (uint64_t)(in->scale * 1000000.0 + 0.5);
	return 0;
}

int rf_workload_draw(const struct rf_workload_inputs *in, struct rf_workload_params *p, char *err,
		     size_t errlen)
{
	uint64_t scale_ppm;
	struct rf_xoshiro r;
	unsigned int i, t;
	int ret = check_inputs(in, &scale_ppm, err, errlen);

	if (ret)
		return ret;
	memset(p, 0, sizeof(*p));
	p->in = *in;
	rf_xoshiro_seed(&r, in->seed);
	p->nr_files = 1 + (unsigned int)wl_below(&r, RF_WORKLOAD_MAX_FILES);
	for (i = 0; i < p->nr_files; i++)
		p->file_size[i] = log_uniform(&r, in->limit / 4, 4);
	p->nr_phases = 1 + (unsigned int)wl_below(&r, RF_WORKLOAD_MAX_PHASES);
	for (i = 0; i < p->nr_phases; i++) {
		struct rf_workload_phase *ph = &p->phases[i];
		bool coin;

		ph->nr_tasks = 1 + (unsigned int)wl_below(&r, RF_WORKLOAD_MAX_TASKS);
		coin = wl_below(&r, 100) < P_CGROUPS;
		ph->siblings = coin && ph->nr_tasks >= 2 && !in->no_cgroups;
		for (t = 0; t < ph->nr_tasks; t++) {
			draw_stream(&r, p, &ph->tasks[t]);
			ph->tasks[t].seed = wl_task_seed(in->seed, i, t);
		}
		cap_anon(p, ph);
	}
	apply_budget(p, scale_ppm);
	return 0;
}

/* ------------------------------------------------------------ the text */

/* A size exactly, in the largest unit that divides it: "32M", "24896K", "1000000". */
static const char *size_str(uint64_t v, char *buf, size_t len)
{
	if (v && v % (1ull << 30) == 0)
		snprintf(buf, len, "%" PRIu64 "G", v >> 30);
	else if (v && v % MIB == 0)
		snprintf(buf, len, "%" PRIu64 "M", v >> 20);
	else if (v && v % KIB == 0)
		snprintf(buf, len, "%" PRIu64 "K", v >> 10);
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

/* The summary's hint names: the advice and the hint ("fadvise-willneed", "madvise-hugepage"). */
enum { F_SEQ, F_RAND, F_WILLNEED, F_DONTNEED, M_SEQ, M_RAND, M_WILLNEED, M_HUGEPAGE, NR_HINTS };
static const char *const hint_keys[NR_HINTS] = {
	"fadvise-sequential", "fadvise-random", "fadvise-willneed", "fadvise-dontneed",
	"madvise-sequential", "madvise-random", "madvise-willneed", "madvise-hugepage",
};

static const char *advice(const struct rf_workload_stream *s)
{
	if (s->hint == RF_WORKLOAD_HINT_NONE)
		return NULL;
	return is_read_kind(s->kind) ? "fadvise" : "madvise";
}

struct summary {
	bool kinds[RF_WORKLOAD_NR_KINDS];
	bool hints[NR_HINTS];
	unsigned int tasks_max;
	bool siblings, hot;
	uint64_t max_file;
};

static void summarize(const struct rf_workload_params *p, struct summary *sum)
{
	unsigned int i, t;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < p->nr_files; i++)
		sum->max_file = RF_MAX(sum->max_file, p->file_size[i]);
	for (i = 0; i < p->nr_phases; i++) {
		const struct rf_workload_phase *ph = &p->phases[i];

		sum->tasks_max = RF_MAX(sum->tasks_max, ph->nr_tasks);
		sum->siblings |= ph->siblings;
		for (t = 0; t < ph->nr_tasks; t++) {
			const struct rf_workload_stream *s = &ph->tasks[t];

			sum->kinds[s->kind] = true;
			sum->hot |= s->hot;
			if (s->hint == RF_WORKLOAD_HINT_HUGEPAGE)
				sum->hints[M_HUGEPAGE] = true;
			else if (s->hint)
				sum->hints[(is_read_kind(s->kind) ? F_SEQ : M_SEQ) + s->hint -
					   RF_WORKLOAD_HINT_SEQUENTIAL] = true;
			sum->hints[F_DONTNEED] |= s->dontneed;
		}
	}
}

/* largest file / limit, rounded to hundredths: "%u.%02u" of this */
static uint64_t ratio100(uint64_t size, uint64_t limit)
{
	return (uint64_t)(((unsigned __int128)size * 100 + limit / 2) / limit);
}

struct out {
	char *buf;
	size_t len, off;
	bool overflow;
};

static void __attribute__((format(printf, 2, 3))) put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + RF_MIN(o->off, o->len), o->off < o->len ? o->len - o->off : 0, fmt, ap);
	va_end(ap);
	if (n < 0 || o->off + (size_t)n >= o->len)
		o->overflow = true;
	o->off += n > 0 ? (size_t)n : 0;
}

/* the name of the count of a stream's operations, as the kind does them */
static const char *ops_name(enum rf_workload_kind k)
{
	switch (k) {
	case RF_WORKLOAD_PREAD_RAND: return "preads";
	case RF_WORKLOAD_MMAP_SEQ:
	case RF_WORKLOAD_MMAP_RAND: return "loads";
	case RF_WORKLOAD_MMAP_STORE:
	case RF_WORKLOAD_ANON: return "stores";
	default: return "pages";
	}
}

static void put_stream(struct out *o, const struct rf_workload_stream *s)
{
	char a[32], b[32];

	put(o, "%s:", kind_names[s->kind]);
	if (s->kind == RF_WORKLOAD_ANON)
		put(o, "%s", size_str(s->length, a, sizeof(a)));
	else if (s->whole)
		put(o, "f%u", s->file + 1);
	else
		put(o, "f%u:%s@%s", s->file + 1, size_str(s->length, a, sizeof(a)),
		    size_str(s->offset, b, sizeof(b)));
	put(o, ":%s=%" PRIu64, ops_name(s->kind), s->ops);
	if (s->kind == RF_WORKLOAD_MMAP_STORE || s->kind == RF_WORKLOAD_ANON)
		put(o, ":%s", s->random_order ? "rand" : "seq");
	if (s->chunk)
		put(o, ":chunk=%s", size_str(s->chunk, a, sizeof(a)));
	if (s->sync_every)
		put(o, ":sync=%s", size_str(s->sync_every, a, sizeof(a)));
	if (s->hot)
		put(o, ":hot=%s@%s/0.%02u", size_str(s->hot_length, a, sizeof(a)),
		    size_str(s->hot_offset, b, sizeof(b)), s->hot_rate100);
	if (s->hint)
		put(o, ":%s=%s%s", advice(s), hint_names[s->hint], s->dontneed ? "+dontneed" : "");
}

static void put_list(struct out *o, const char *key, const bool *on, const char *const *names,
		     size_t nr)
{
	const char *sep = "";
	size_t i;

	put(o, " %s=", key);
	for (i = 0; i < nr; i++)
		if (on[i]) {
			put(o, "%s%s", sep, names[i]);
			sep = ",";
		}
	if (!*sep)
		put(o, "none");
}

int rf_workload_describe(const struct rf_workload_params *p, char *buf, size_t len)
{
	struct out o = { buf, len, 0, false };
	struct summary sum;
	unsigned int i, t;
	char a[32];
	uint64_t r;

	if (len)
		buf[0] = 0;
	put(&o, "seed=%" PRIu64 " limit=%s swap=%s no_cgroups=%s scale=%g files=%u", p->in.seed,
	    size_str(p->in.limit, a, sizeof(a)), yes(p->in.swap), yes(p->in.no_cgroups), p->in.scale,
	    p->nr_files);
	for (i = 0; i < p->nr_files; i++)
		put(&o, " f%u=%s", i + 1, size_str(p->file_size[i], a, sizeof(a)));
	put(&o, " phases=%u", p->nr_phases);
	for (i = 0; i < p->nr_phases; i++) {
		if (p->phases[i].siblings)
			put(&o, " p%u.cgroups=siblings", i + 1);
		for (t = 0; t < p->phases[i].nr_tasks; t++) {
			put(&o, " p%u.t%u=", i + 1, t + 1);
			put_stream(&o, &p->phases[i].tasks[t]);
		}
	}
	summarize(p, &sum);
	put_list(&o, "kinds", sum.kinds, kind_names, RF_WORKLOAD_NR_KINDS);
	r = ratio100(sum.max_file, p->in.limit);
	put(&o, " max_file_ratio=%" PRIu64 ".%02u tasks_max=%u cgroups=%s hot=%s", r / 100,
	    (unsigned int)(r % 100), sum.tasks_max, sum.siblings ? "siblings" : "one", yes(sum.hot));
	put_list(&o, "hints", sum.hints, hint_keys, NR_HINTS);
	put(&o, " writes=%s anon=%s ops=%" PRIu64 " budget=%" PRIu64,
	    yes(sum.kinds[RF_WORKLOAD_WRITE] || sum.kinds[RF_WORKLOAD_MMAP_STORE]),
	    yes(sum.kinds[RF_WORKLOAD_ANON]), p->total_ops, p->budget);
	if (o.overflow)
		return RF_ERR_TOO_LARGE;
	return (int)o.off;
}

/* ------------------------------------------------------------ the JSON */

static json_object *hundredths(unsigned int v)
{
	char s[16];

	snprintf(s, sizeof(s), "%u.%02u", v / 100, v % 100);
	return json_object_new_double_s(v / 100.0, s);
}

static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static json_object *range(uint64_t offset, uint64_t length)
{
	json_object *o = json_object_new_object();

	add(o, "offset", u64(offset));
	add(o, "length", u64(length));
	return o;
}

static json_object *stream_json(const struct rf_workload_stream *s, unsigned int phase,
				unsigned int task)
{
	json_object *o = json_object_new_object(), *hot = NULL;
	char name[32];

	snprintf(name, sizeof(name), "p%u.t%u", phase + 1, task + 1);
	add(o, "name", json_object_new_string(name));
	add(o, "kind", json_object_new_string(kind_names[s->kind]));
	snprintf(name, sizeof(name), "f%u", s->file + 1);
	add(o, "file", is_file_kind(s->kind) ? json_object_new_string(name) : NULL);
	add(o, "region", range(s->offset, s->length));
	add(o, "whole", json_object_new_boolean(s->whole));
	/* the order of the pages: anon's passes may each be in a random order */
	add(o, "order", json_object_new_string(s->kind == RF_WORKLOAD_ANON ?
					       (s->random_order ? "rand" : "seq") :
					       is_sequential(s) ? "seq" : "rand"));
	add(o, "passes", s->passes ? json_object_new_int((int)s->passes) : NULL);
	add(o, "factor", s->factor100 ? hundredths(s->factor100) : NULL);
	add(o, "nominal_ops", u64(s->nominal_ops));
	add(o, "ops", u64(s->ops));
	add(o, "chunk", s->chunk ? u64(s->chunk) : NULL);
	add(o, "sync_every", s->kind == RF_WORKLOAD_WRITE ? u64(s->sync_every) : NULL);
	if (s->hot) {
		hot = range(s->hot_offset, s->hot_length);
		add(hot, "rate", hundredths(s->hot_rate100));
	}
	add(o, "hot", hot);
	add(o, "advice", advice(s) ? json_object_new_string(advice(s)) : NULL);
	add(o, "hint", s->hint ? json_object_new_string(hint_names[s->hint]) : NULL);
	add(o, "dontneed", json_object_new_boolean(s->dontneed));
	add(o, "seed", u64(s->seed));
	return o;
}

static json_object *names_json(const bool *on, const char *const *names, size_t nr)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < nr; i++)
		if (on[i])
			json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

static json_object *summary_json(const struct rf_workload_params *p)
{
	json_object *o = json_object_new_object();
	struct summary sum;
	char s[32];
	uint64_t r;

	summarize(p, &sum);
	r = ratio100(sum.max_file, p->in.limit);
	snprintf(s, sizeof(s), "%" PRIu64 ".%02u", r / 100, (unsigned int)(r % 100));
	add(o, "kinds", names_json(sum.kinds, kind_names, RF_WORKLOAD_NR_KINDS));
	add(o, "max_file_ratio", json_object_new_double_s((double)r / 100, s));
	add(o, "tasks_max", json_object_new_int((int)sum.tasks_max));
	add(o, "cgroups", json_object_new_string(sum.siblings ? "siblings" : "one"));
	add(o, "hot", json_object_new_boolean(sum.hot));
	add(o, "hints", names_json(sum.hints, hint_keys, NR_HINTS));
	add(o, "writes", json_object_new_boolean(sum.kinds[RF_WORKLOAD_WRITE] ||
						 sum.kinds[RF_WORKLOAD_MMAP_STORE]));
	add(o, "anon", json_object_new_boolean(sum.kinds[RF_WORKLOAD_ANON]));
	add(o, "ops", u64(p->total_ops));
	add(o, "nominal_ops", u64(p->nominal_ops));
	add(o, "budget", u64(p->budget));
	return o;
}

json_object *rf_workload_json(const struct rf_workload_params *p)
{
	json_object *o = json_object_new_object(), *files, *phases;
	char text[RF_WORKLOAD_TEXT_MAX], name[16], sc[32];
	unsigned int i, t;

	if (!o)
		return NULL;
	snprintf(sc, sizeof(sc), "%g", p->in.scale);
	add(o, "seed", u64(p->in.seed));
	add(o, "limit", u64(p->in.limit));
	add(o, "swap", json_object_new_boolean(p->in.swap));
	add(o, "no_cgroups", json_object_new_boolean(p->in.no_cgroups));
	add(o, "scale", json_object_new_double_s(p->in.scale, sc));
	files = json_object_new_array();
	for (i = 0; i < p->nr_files; i++) {
		json_object *f = json_object_new_object();

		snprintf(name, sizeof(name), "f%u", i + 1);
		add(f, "name", json_object_new_string(name));
		add(f, "size", u64(p->file_size[i]));
		json_object_array_add(files, f);
	}
	add(o, "files", files);
	phases = json_object_new_array();
	for (i = 0; i < p->nr_phases; i++) {
		json_object *ph = json_object_new_object(), *tasks = json_object_new_array();

		snprintf(name, sizeof(name), "p%u", i + 1);
		add(ph, "name", json_object_new_string(name));
		add(ph, "cgroups", json_object_new_string(p->phases[i].siblings ? "siblings" : "one"));
		for (t = 0; t < p->phases[i].nr_tasks; t++)
			json_object_array_add(tasks, stream_json(&p->phases[i].tasks[t], i, t));
		add(ph, "tasks", tasks);
		json_object_array_add(phases, ph);
	}
	add(o, "phases", phases);
	add(o, "summary", summary_json(p));
	if (rf_workload_describe(p, text, sizeof(text)) >= 0)
		add(o, "text", json_object_new_string(text));
	return o;
}
