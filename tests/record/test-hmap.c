/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recorder's hash map against a plain array, under the churn it sees:
 * page-cache pfns added and deleted in bursts, keys that cluster.  Deletion
 * moves entries back (no tombstones), so every lookup after any sequence of
 * puts and deletes must still find exactly what is there.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "recorder/internal.h"
#include "tests/lib/tap.h"

#define KEYS	4096u
#define STEPS	400000u

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(void)
{
	static uint64_t val[KEYS];
	static bool in[KEYS];
	struct rf_hmap h = { 0 };
	uint64_t seed = 88172645463325252ULL, v;
	size_t live = 0, wrong = 0, i, step;

	plan(3);
	for (step = 0; step < STEPS; step++) {
		uint64_t r = next(&seed);
		size_t k = r % KEYS;
		uint64_t key = 0x100000 + k * 512;	/* pfn-like: one bit pattern, clustered */

		if (r >> 60 < 9) {
			if (rf_hmap_put(&h, key, r) == 0) {
				live += !in[k];
				in[k] = true;
				val[k] = r;
			}
		} else if (rf_hmap_del(&h, key) != in[k]) {
			wrong++;
		} else if (in[k]) {
			in[k] = false;
			live--;
		}
		if (step % 997 == 0)
			for (i = 0; i < KEYS; i++) {
				bool got = rf_hmap_get(&h, 0x100000 + i * 512, &v);

				wrong += got != in[i] || (got && v != val[i]);
			}
	}
	is_int(wrong, 0, "every get and delete agrees with the reference after %u steps",
	       STEPS);
	is_int(h.used, live, "the map holds the %zu live keys", live);
	ok(h.cap <= 4 * 2 * KEYS, "it did not grow past twice the keys' need (capacity %zu)", h.cap);
	rf_hmap_free(&h);
	return done_testing();
}
