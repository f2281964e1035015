/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rf_model_feed_hinted(): whatever the hint says, the counters are
 * rf_model_feed()'s.  One seeded stream of file reads and faults over a few
 * files, with truncations and fadvise(DONTNEED) that free tree nodes and a
 * memory small enough that reclaim frees more (and shadow nodes go), fed
 * plainly and with hints that are right (the replay's stages: 16, 12 and 4
 * events ahead), stale (all stages 300 events early), another event's, and
 * random; per profile, classic and multi-gen.
 */
#include "model-helpers.h"

#define NR_EVENTS	60000
#define STALE		300

static const char *const small[] = { "memory=8M", "cpus=2", NULL };

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void make_stream(struct rf_event *evs, size_t n)
{
	uint64_t s = 0x9e3779b97f4a7c15ull, seq[4] = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		struct rf_event *ev = &evs[i];
		uint64_t r = rnd(&s) % 100, f = rnd(&s) % 4;

		memset(ev, 0, sizeof(*ev));
		ev->time = i * 1000;
		ev->cpu = rnd(&s) % 2;
		ev->pid = 1 + f;
		ev->type = RF_EV_FILE_READ;
		ev->u.file.dev = 8;
		ev->u.file.ino = 1 + f;
		ev->u.file.nr = 1;
		if (r < 50) {			/* four sequential readers */
			ev->u.file.index = seq[f]++ % 6000;
		} else if (r < 90) {		/* a hot set */
			ev->u.file.ino = 9;
			ev->u.file.index = rnd(&s) % 3000;
		} else if (r < 96) {
			ev->type = RF_EV_FILE_FAULT;
			ev->u.file.index = rnd(&s) % 6000;
		} else if (r < 98) {
			ev->type = RF_EV_FADVISE;
			ev->u.file.index = rnd(&s) % 6000;
			ev->u.file.nr = 512;
			ev->u.file.advice = 4;	/* POSIX_FADV_DONTNEED */
		} else {
			ev->type = RF_EV_TRUNCATE;
			ev->u.file.index = 1000 + rnd(&s) % 5000;
		}
	}
}

struct digest {
	uint64_t h;
	size_t n;
};

static int add_counter(const char *key, uint64_t value, void *ctx)
{
	struct digest *d = ctx;
	char line[512];
	size_t i, len = (size_t)snprintf(line, sizeof(line), "%s=%llu\n", key,
					 (unsigned long long)value);

	for (i = 0; i < len && i < sizeof(line); i++)
		d->h = (d->h ^ (uint8_t)line[i]) * 0x100000001b3ull;
	d->n++;
	return 0;
}

static struct digest digest_of(struct rf_model *m)
{
	struct digest d = { 0xcbf29ce484222325ull, 0 };

	rf_model_finish(m);
	rf_model_counters(m, add_counter, &d);
	rf_model_free(m);
	return d;
}

static void hinted(struct rf_model *m, const struct rf_event *ev, const struct rf_model_prefetch *st)
{
	int r = rf_model_feed_hinted(m, ev, st);

	if (r) {
		diag("feed type %u: error %d", ev->type, r);
		exit(2);
	}
}

static void all_stages(const struct rf_model *m, const struct rf_event *ev, struct rf_model_prefetch *st)
{
	rf_model_prefetch(m, ev, RF_PREFETCH_INDEX, st);
	rf_model_prefetch(m, ev, RF_PREFETCH_NODE, st);
	rf_model_prefetch(m, ev, RF_PREFETCH_PAGE, st);
}

static void run(const char *profile, const struct rf_event *evs)
{
	static struct rf_model_prefetch st[NR_EVENTS];
	struct rf_model_prefetch ring[32], r;
	struct digest want, got;
	struct rf_model *m;
	uint64_t s = 42, steal;
	size_t i;

	m = mk(profile, small);
	for (i = 0; i < NR_EVENTS; i++)
		feed(m, &evs[i]);
	steal = C(m, "vmstat.pgsteal_kswapd") + C(m, "vmstat.pgsteal_direct");
	want = digest_of(m);
	ok(want.n > 50 && steal > 10000, "%s: %zu counters, %llu pages reclaimed", profile, want.n,
	   (unsigned long long)steal);

	/* as the replay hints: each stage some events ahead, the state in a ring */
	m = mk(profile, small);
	for (i = 0; i < 16; i++)
		rf_model_prefetch(m, &evs[i], RF_PREFETCH_INDEX, &ring[i % 32]);
	for (i = 0; i < NR_EVENTS; i++) {
		if (i + 16 < NR_EVENTS)
			rf_model_prefetch(m, &evs[i + 16], RF_PREFETCH_INDEX, &ring[(i + 16) % 32]);
		if (i + 12 < NR_EVENTS)
			rf_model_prefetch(m, &evs[i + 12], RF_PREFETCH_NODE, &ring[(i + 12) % 32]);
		if (i + 4 < NR_EVENTS)
			rf_model_prefetch(m, &evs[i + 4], RF_PREFETCH_PAGE, &ring[(i + 4) % 32]);
		hinted(m, &evs[i], &ring[i % 32]);
	}
	got = digest_of(m);
	ok(got.h == want.h && got.n == want.n, "%s: the replay's hints change no counter", profile);

	/* every stage 300 events early: nodes freed and taken again since */
	m = mk(profile, small);
	for (i = 0; i < NR_EVENTS; i++) {
		if (i + STALE < NR_EVENTS)
			all_stages(m, &evs[i + STALE], &st[i + STALE]);
		hinted(m, &evs[i], i < STALE ? NULL : &st[i]);
	}
	got = digest_of(m);
	ok(got.h == want.h && got.n == want.n, "%s: stale hints change no counter", profile);

	/* the next event's hint: a live node, of another page */
	m = mk(profile, small);
	for (i = 0; i < NR_EVENTS; i++) {
		if (i + 1 < NR_EVENTS) {
			all_stages(m, &evs[i + 1], &r);
			hinted(m, &evs[i], &r);
		} else {
			hinted(m, &evs[i], NULL);
		}
	}
	got = digest_of(m);
	ok(got.h == want.h && got.n == want.n, "%s: another event's hints change no counter", profile);

	/* made up, from the first event (no tree node yet), node 0 (none) among them */
	m = mk(profile, small);
	for (i = 0; i < NR_EVENTS; i++) {
		r.mapping = rnd(&s) % 8 ? (uint32_t)(rnd(&s) % 12) : UINT32_MAX;
		r.node = rnd(&s) % 8 ? (uint32_t)(rnd(&s) % (i < 100 ? 2 : 3000)) : UINT32_MAX;
		r.base = rnd(&s) % 200;
		r.hash = rnd(&s);
		hinted(m, &evs[i], &r);
	}
	got = digest_of(m);
	ok(got.h == want.h && got.n == want.n, "%s: random hints change no counter", profile);
}

int main(void)
{
	static const char *const profiles[] = { "v6.18", "v4.9", "v6.12-mglru" };
	struct rf_event *evs = calloc(NR_EVENTS, sizeof(*evs));
	size_t p;

	if (!evs)
		return 2;
	plan(5 * 3);
	make_stream(evs, NR_EVENTS);
	for (p = 0; p < 3; p++)
		run(profiles[p], evs);
	free(evs);
	return done_testing();
}
