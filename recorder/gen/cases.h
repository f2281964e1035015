/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cases: each builds a plan (plan.h) from plan->host and
 * plan->tasks_wanted.  cases.c holds the table, sizing and validation.
 */
#ifndef REFAULT_GEN_CASES_H
#define REFAULT_GEN_CASES_H

#include "recorder/gen/plan.h"

/* Where lkp's vm-scalability keeps its sparse files (a loop-mounted xfs inside tmpfs). */
#define GEN_SPARSE_ROOT		"/tmp/vm-scalability-tmp/vm-scalability"
/* The streamed file sets are this many times RAM (times --scale): case-lru-file.c says why. */
#define GEN_ROTATE_MEMS		4u

/* vm-scalability page-cache cases (case-lru-file.c) */
int gen_case_lru_file_readtwice(struct gen_plan *plan);
int gen_case_lru_file_readonce(struct gen_plan *plan);
int gen_case_lru_memcg(struct gen_plan *plan);
int gen_case_cgroup_thrash(struct gen_plan *plan);
/* vm-scalability mapped-file cases (case-mmap.c) */
int gen_case_lru_file_mmap_read(struct gen_plan *plan);
int gen_case_lru_file_mmap_read_rand(struct gen_plan *plan);
/* vm-scalability anonymous cases (case-anon.c) */
int gen_case_anon_w_seq(struct gen_plan *plan);
int gen_case_anon_w_rand(struct gen_plan *plan);
int gen_case_swap_w_seq(struct gen_plan *plan);
int gen_case_swap_w_rand(struct gen_plan *plan);
/* cases that tell reclaim policies apart (case-policy.c) */
int gen_case_mmap_stream_read_hot(struct gen_plan *plan);
/* the seeds' own benchmarks (case-seeds.c) */
int gen_case_noswap_pageout(struct gen_plan *plan);
int gen_case_pvec_thp_mix(struct gen_plan *plan);

/* Sizing helpers (cases.c). */
/* @pages * --scale, rounded down. */
uint64_t gen_scaled(const struct gen_plan *plan, uint64_t pages);
/* @total / tasks; an error (plan->err names @what) when a task would get no page. */
int gen_per_task(struct gen_plan *plan, uint64_t total, uint32_t tasks, const char *what,
		 uint64_t *out);

/* Tasks and files the cases share (cases.c); each returns 0 or an RF_ERR_* code. */
/* @nr sparse files "GEN_SPARSE_ROOT/sparse-@stem-I" of @total / @nr pages each. */
int gen_add_files(struct gen_plan *plan, const char *stem, uint32_t nr, uint64_t total);
/*
 * A stream beside hot sets (cgroup-thrash, mmap-stream-read-hot): of the tasks,
 * max(1, N/4) are hot and the rest stream; the streamers' files
 * "sparse-@stem-I" hold GEN_ROTATE_MEMS x RAM (x --scale) in all, the hot ones'
 * "sparse-hot-I" a quarter of RAM.  Fills @sh.
 */
struct gen_stream_hot {
	uint32_t n_stream, n_hot;
	uint32_t first_stream, first_hot;	/* plan->files indexes */
	uint64_t stream_per, hot_per;		/* pages of each file */
};
int gen_add_stream_hot_files(struct gen_plan *plan, const char *stem, struct gen_stream_hot *sh);
/* One dd bs=4k of @file, @passes times over, in @cgroup, @delay ns after its fork slot. */
int gen_add_reader(struct gen_plan *plan, uint32_t file, uint64_t passes, uint32_t cgroup,
		   uint64_t delay);
/* One usemem in the root cgroup: map @file at @addr, @refs faults (in order or @random), unmap. */
int gen_add_mapper(struct gen_plan *plan, uint32_t file, uint64_t addr, bool random,
		   uint64_t refs);

/* Build the plan of case @name (cases.c); @p must stay valid while @plan is used. */
int gen_plan_build(struct gen_plan *plan, const char *name, const struct rf_gen_params *p,
		   char *err, size_t errlen);
void gen_plan_header(const struct gen_plan *plan, const char *name, struct rf_trace_header *h);

#endif /* REFAULT_GEN_CASES_H */
