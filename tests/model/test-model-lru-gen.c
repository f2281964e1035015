/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multi-gen LRU profiles, one hand-made event sequence per rule; the
 * expected numbers are derived in the comments from the v6.12.117 function
 * each rule models (mm/vmscan.c, mm/workingset.c, mm/swap.c,
 * include/linux/mm_inline.h).  A new lruvec has max_seq 3 and min_seq 0
 * (lru_gen_init_lruvec(): max_seq = MIN_NR_GENS + 1), so gen0 below is seq
 * 3, gen2 seq 1.
 */
#include "model-helpers.h"

#define MADV_PAGEOUT 21

static const char *const quiet[] = { "memory=256M", "cpus=1", "pagevec_size=1", NULL };

static void fault_flags(struct rf_model *m, int pid, uint64_t mm, uint64_t ino, uint64_t index,
			uint8_t flags)
{
	struct rf_event ev = { .pid = pid, .type = RF_EV_FILE_FAULT };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.mm = mm;
	ev.u.file.flags = flags;
	feed(m, &ev);
}

/*
 * lru_gen_add_folio(), v6.12.117 with 08148805: a read's folio goes to
 * min_seq + 1 (seq 1: inactive) while min_seq + MIN_NR_GENS < max_seq; a
 * fault sets PG_active (folio_add_lru(), lru_gen_in_fault()) and the folio
 * joins max_seq (active); a fault in a VM_SEQ_READ mapping has no recency
 * (lru_gen_enter_fault(): vma_has_recency()), so it lands as a read does.
 */
static void test_placement(void)
{
	struct rf_model *m = mk("v6.12-mglru", quiet);

	read_pages(m, 0, 1, 1, 0, 1);
	is_int(C(m, "memcg./.lru_gen.gen2_file"), 1, "a read's folio: min_seq + 1 (seq 1)");
	is_int(C(m, "vmstat.nr_inactive_file"), 1, "... which is inactive");
	mmap_file(m, 2, 7, 0x100000, 16, 2);
	file_fault(m, 0, 2, 7, 2, 0);
	is_int(C(m, "memcg./.lru_gen.gen0_file"), 1, "a faulted folio: max_seq");
	is_int(C(m, "vmstat.nr_active_file"), 1, "... which is active");
	fault_flags(m, 2, 7, 2, 1, RF_REF_SEQ);
	is_int(C(m, "memcg./.lru_gen.gen2_file"), 2, "a fault in a VM_SEQ_READ mapping: as a read");
	anon_fault(m, 0, 2, 7, 0x900000, 0);
	is_int(C(m, "memcg./.lru_gen.gen0_anon"), 1, "an anon fault: max_seq");
	is_int(C(m, "memcg./.lru_gen.max_seq") * 100 + C(m, "memcg./.lru_gen.min_seq_file"), 300,
	       "no reclaim: max_seq 3, min_seq 0");
	rf_model_free(m);
}

/*
 * folio_inc_refs() (v6.12.117) and sort_folio(): five reads by five readers
 * take a folio to PG_referenced, PG_workingset, then refs bits 1, 2, 3:
 * folio_lru_refs() = 3 + 1 = 4 = BIT(LRU_REFS_WIDTH), saturated, which
 * sort_folio() protects whatever tier_idx says: once (folio_inc_gen() clears
 * its refs), so pgrefill (sorted pages) counts it once while a stream of
 * once-read pages (tier 0) pushes everything out.  Read twice (refs 1,
 * tier 1) it is not protected: without refaults get_tier_idx() returns 3,
 * and no tier is above that.
 */
static uint64_t pgrefill_after_stream(const char *profile, int reads, uint64_t *activate)
{
	const char *const small[] = { "memory=4M", "cpus=1", "pagevec_size=1", NULL };
	struct rf_model *m = mk(profile, small);
	uint64_t v;
	int i;

	for (i = 0; i < reads; i++)
		read_pages(m, 0, 10 + i, 1, 0, 1);
	for (i = 0; i < 8192; i++)
		read_pages(m, 0, 99, 2, (uint64_t)i, 1);
	v = C(m, "vmstat.pgrefill");
	if (activate)
		*activate = C(m, "vmstat.workingset_activate_file");
	if (C(m, "vmstat.pgsteal_kswapd") + C(m, "vmstat.pgsteal_direct") < 4096)
		diag("%s: the stream did not reclaim", profile);
	rf_model_free(m);
	return v;
}

/*
 * v6.1.192 has the same refs and the same protection (its sort_folio()
 * has the saturation test too), and counts the protection as a workingset
 * activation, which v6.12 counts at a recent refault instead.
 */
static void test_refs_protection(void)
{
	uint64_t act;

	is_int(pgrefill_after_stream("v6.12-mglru", 5, &act), 1,
	       "refs saturated (5 reads): protected once (pgrefill 1)");
	is_int(act, 0, "... v6.12: not an activation");
	is_int(pgrefill_after_stream("v6.12-mglru", 2, NULL), 0,
	       "read twice (tier 1) with no refaults: not protected");
	is_int(pgrefill_after_stream("v6.12-mglru", 1, NULL), 0, "read once: not protected");
	is_int(pgrefill_after_stream("v6.1-mglru", 5, &act), 1,
	       "v6.1: refs saturated, protected once");
	is_int(act, 1, "... v6.1: counted as a workingset activation");
}

/*
 * lru_gen_eviction() / lru_gen_test_recent(), v6.12.117: the shadow holds
 * min_seq at eviction; the refault is recent (an activation,
 * workingset_activate_file) iff min_seq is unchanged.  MADV_PAGEOUT evicts
 * a mapped folio without moving min_seq; a stream afterwards moves it.
 */
static void refault_after(const char *profile, bool stream, uint64_t *refault,
			  uint64_t *activate)
{
	const char *const small[] = { "memory=4M", "cpus=1", "pagevec_size=1", NULL };
	struct rf_model *m = mk(profile, small);
	int i;

	mmap_file(m, 1, 7, 0x100000, 1, 1);
	file_fault(m, 0, 1, 7, 1, 0);
	madvise(m, 0, 1, 7, 0x100000, 1, MADV_PAGEOUT);
	if (stream)
		for (i = 0; i < 4096; i++)
			read_pages(m, 0, 99, 2, (uint64_t)i, 1);
	read_pages(m, 0, 2, 1, 0, 1);
	*refault = C(m, "vmstat.workingset_refault_file");
	*activate = C(m, "vmstat.workingset_activate_file");
	rf_model_free(m);
}

static void test_recent(void)
{
	uint64_t refault, activate;

	refault_after("v6.12-mglru", false, &refault, &activate);
	is_int(refault * 10 + activate, 11,
	       "refault while min_seq is still the eviction's: counted and recent");
	refault_after("v6.12-mglru", true, &refault, &activate);
	is_int(refault * 10 + activate, 10,
	       "refault after min_seq moved on: counted, not recent");
	/* v6.1.192 lru_gen_refault(): nothing unless recent, and no activation */
	refault_after("v6.1-mglru", false, &refault, &activate);
	is_int(refault * 10 + activate, 10, "v6.1: a recent refault is counted, not activated");
	refault_after("v6.1-mglru", true, &refault, &activate);
	is_int(refault * 10 + activate, 0, "v6.1: a refault that is not recent is not counted");
}

/*
 * Aging: try_to_inc_max_seq() runs when the evictable type is down to
 * MIN_NR_GENS generations (should_run_aging()).  A stream of reads never
 * gets there: with three generations left a read's folio joins min_seq
 * itself (lru_gen_add_folio(): min_seq + MIN_NR_GENS >= max_seq), which
 * reclaim empties and refills.  Faulted folios join max_seq, so the older
 * generations run dry and reclaim must age.  Every min_seq advance keeps
 * the window within [MIN_NR_GENS, MAX_NR_GENS] (seq_is_valid()).
 */
static void aging(const char *profile)
{
	const char *const small[] = { "memory=4M", "cpus=1", "pagevec_size=1", NULL };
	struct rf_model *m = mk(profile, small);
	uint64_t max, min;
	int i;

	diag("%s", profile);
	for (i = 0; i < 8192; i++)
		read_pages(m, 0, 99, 2, (uint64_t)i, 1);
	is_int(C(m, "memcg./.lru_gen.max_seq"), 3, "a stream of reads through 4M: no aging");
	is_int(C(m, "memcg./.lru_gen.min_seq_file"), 1, "... it evicts from min_seq 1");
	mmap_file(m, 1, 7, 0x10000000, 8192, 3);
	for (i = 0; i < 8192; i++)
		file_fault(m, 0, 1, 7, 3, (uint64_t)i);
	max = C(m, "memcg./.lru_gen.max_seq");
	min = C(m, "memcg./.lru_gen.min_seq_file");
	ok(max > 3, "faults through 4M age: max_seq %llu > 3", (unsigned long long)max);
	ok(max - min + 1 >= 2 && max - min + 1 <= 4, "file generations within [2, 4]: %llu",
	   (unsigned long long)(max - min + 1));
	ok(C(m, "memcg./.lru_gen.min_seq_anon") <= min,
	   "anon's min_seq never passes file's (try_to_inc_min_seq())");
	rf_model_free(m);
}

/* v6.1.192 ages in kswapd (lru_gen_age_node()) and in direct reclaim below DEF_PRIORITY */
static void test_aging(void)
{
	aging("v6.12-mglru");
	aging("v6.1-mglru");
}

/*
 * The memcg LRU's random bins come from lru_gen.seed: the same seed gives
 * the same numbers; the model has no other randomness.
 */
static uint64_t two_memcgs(const char *seed)
{
	const char *const kv[] = { "memory=4M", "cpus=1", seed, NULL };
	struct rf_model *m = mk("v6.12-mglru", kv);
	uint64_t v;
	int i;

	cg_mkdir(m, 2, 1, "/a");
	cg_mkdir(m, 3, 1, "/b");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 2, 10, 0, 0);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 3, 11, 0, 0);
	for (i = 0; i < 6000; i++)
		read_pages(m, 0, i % 2 ? 10 : 11, (uint64_t)(1 + i % 2), (uint64_t)i, 1);
	v = C(m, "memcg./a.pgsteal_kswapd") + C(m, "memcg./a.pgsteal_direct");
	v = v * 100000 + C(m, "memcg./b.pgsteal_kswapd") + C(m, "memcg./b.pgsteal_direct");
	rf_model_free(m);
	return v;
}

static void test_seeded(void)
{
	uint64_t a = two_memcgs("lru_gen.seed=1"), b = two_memcgs("lru_gen.seed=1");

	ok(a == b && a > 0, "the same seed, the same per-memcg reclaim (%llu)",
	   (unsigned long long)a);
}

/*
 * v6.18.2 (lru_gen_folio_seq()): a fault's folio without PG_workingset goes
 * to max_seq - 1 (gen1, still active), a read's to min_seq (with four
 * generations, seq max(3 - 4 + 1, 0) = 0: gen3).  lru_gen_inc_refs(): five
 * reads saturate the refs (PG_referenced + 3) and set PG_workingset: refs +
 * workingset = BIT(LRU_REFS_WIDTH) + 1, protected once (pgrefill 1), as the
 * workingset being lazily promoted.  Reads join min_seq itself, which
 * reclaim empties and refills: four generations stay, and nothing ages (v6.12
 * moves min_seq to 1 first).  A read refault counts, and is an activation
 * only in a fault.
 */
static void test_v618(void)
{
	struct rf_model *m = mk("v6.18-mglru", quiet);
	uint64_t refault, activate;

	read_pages(m, 0, 1, 1, 0, 1);
	is_int(C(m, "memcg./.lru_gen.gen3_file"), 1, "v6.18: a read's folio joins min_seq");
	mmap_file(m, 2, 7, 0x100000, 16, 2);
	file_fault(m, 0, 2, 7, 2, 0);
	is_int(C(m, "memcg./.lru_gen.gen1_file"), 1, "v6.18: a fault's folio joins max_seq - 1");
	is_int(C(m, "vmstat.nr_active_file"), 1, "... which is active");
	rf_model_free(m);
	is_int(pgrefill_after_stream("v6.18-mglru", 5, NULL), 1,
	       "v6.18: refs saturated and workingset: protected once");
	is_int(pgrefill_after_stream("v6.18-mglru", 2, NULL), 0, "v6.18: read twice: not protected");
	m = mk("v6.18-mglru", (const char *const[]){ "memory=4M", "cpus=1", "pagevec_size=1",
						    NULL });
	for (int i = 0; i < 8192; i++)
		read_pages(m, 0, 99, 2, (uint64_t)i, 1);
	is_int(C(m, "memcg./.lru_gen.max_seq") * 100 + C(m, "memcg./.lru_gen.min_seq_file"), 300,
	       "v6.18: a stream of reads stays in min_seq 0: four generations, no aging");
	rf_model_free(m);
	refault_after("v6.18-mglru", false, &refault, &activate);
	is_int(refault * 10 + activate, 10, "v6.18: a read refault: counted, not an activation");
}

/* cfg_validate(): the multi-gen LRU exists from v6.1 on */
static void test_config(void)
{
	struct rf_model_config *c;
	struct rf_model *m;
	char err[256];

	rf_model_config_new(&c, "v5.10");
	rf_model_config_set(c, "lru_gen", "7", err, sizeof(err));
	ok(rf_model_new(&m, c, err, sizeof(err)) == RF_ERR_CONFIG && strstr(err, "-mglru"),
	   "lru_gen=7 on v5.10 refused, naming the -mglru profiles: %s", err);
	rf_model_config_free(c);
	rf_model_config_new(&c, "v6.12");
	ok(!rf_model_config_lru_gen(c), "v6.12 is classic");
	rf_model_config_set(c, "lru_gen", "7", err, sizeof(err));
	ok(rf_model_config_lru_gen(c), "v6.12 with lru_gen=7 models the multi-gen LRU");
	rf_model_config_free(c);
}

int main(void)
{
	test_placement();
	test_refs_protection();
	test_recent();
	test_aging();
	test_seeded();
	test_v618();
	test_config();
	return done_testing();
}
