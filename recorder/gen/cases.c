/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The case table, parameter checks, sizing helpers and the header of a
 * generated trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "recorder/gen/cases.h"

struct gen_case {
	struct rf_gen_case_info info;
	int (*build)(struct gen_plan *plan);
	uint32_t default_tasks;		/* 0: one task per CPU, as lkp's nr_task */
	uint32_t min_tasks;
};

static const struct gen_case gen_cases[] = {
	{ { "lru-file-readtwice", "N sparse files (4*mem*scale in all), each read by two racing dd bs=4k: every page read twice, then streamed out" },
	  gen_case_lru_file_readtwice, 0, 1 },
	{ { "lru-file-readonce", "N sparse files (4*mem*scale in all), one dd bs=4k each: every page read once (use-once streaming)" },
	  gen_case_lru_file_readonce, 0, 1 },
	{ { "lru-memcg", "lru-file-readonce inside memcg /vmscale limited to mem/3: the same stream under limit reclaim" },
	  gen_case_lru_memcg, 0, 1 },
	{ { "lru-file-mmap-read", "N usemem each map a sparse file (4*mem*scale in all) and fault its pages once, in order" },
	  gen_case_lru_file_mmap_read, 0, 1 },
	{ { "lru-file-mmap-read-rand", "as lru-file-mmap-read with 4 references per page at random pages: refaults of mapped file pages" },
	  gen_case_lru_file_mmap_read_rand, 0, 1 },
	{ { "mmap-stream-read-hot", "3/4 of N usemem fault 4*mem*scale of files once through mmap while the rest re-read mem/4 with dd: classic and MGLRU part ways" },
	  gen_case_mmap_stream_read_hot, 0, 2 },
	{ { "anon-w-seq", "N usemem each write a private anonymous region (mem/2*scale in all) once, in order: no reclaim" },
	  gen_case_anon_w_seq, 0, 1 },
	{ { "anon-w-rand", "as anon-w-seq with 4 writes per page at random pages" },
	  gen_case_anon_w_rand, 0, 1 },
	{ { "swap-w-seq", "N usemem write 3/4*(MemAvailable+swap)*scale anonymous once, swap = mem: oldest pages swapped out once" },
	  gen_case_swap_w_seq, 0, 1 },
	{ { "swap-w-rand", "as swap-w-seq with 4 writes per page at random pages: swap-ins and anonymous refaults" },
	  gen_case_swap_w_rand, 0, 1 },
	{ { "noswap-pageout", "in memcg /bench: map mem/2*scale anonymous, fill, MADV_PAGEOUT, refill (seed 001)" },
	  gen_case_noswap_pageout, 1, 1 },
	{ { "pvec-thp-mix", "N threads x 10 rounds map, touch, unmap mem/2*scale, alternating 4 KiB and 2 MiB pages, then exit (seed 004)" },
	  gen_case_pvec_thp_mix, 0, 1 },
	{ { "cgroup-thrash", "memcg /stream reads 4*mem*scale of files once while /hot re-reads mem/4 that fits (23047a96)" },
	  gen_case_cgroup_thrash, 0, 2 },
};

#define GEN_NR_CASES	ARRAY_SIZE(gen_cases)

const struct rf_gen_case_info *rf_gen_case_at(size_t i)
{
	return i < GEN_NR_CASES ? &gen_cases[i].info : NULL;
}

void rf_gen_params_init(struct rf_gen_params *p)
{
	memset(p, 0, sizeof(*p));
	p->seed = RF_GEN_DEFAULT_SEED;
	p->mem_bytes = RF_GEN_DEFAULT_MEM;
	p->cpus = RF_GEN_DEFAULT_CPUS;
	p->scale = 1.0;
}

static const struct gen_case *find_case(const char *name)
{
	size_t i;

	for (i = 0; name && i < GEN_NR_CASES; i++)
		if (!strcmp(gen_cases[i].info.name, name))
			return &gen_cases[i];
	return NULL;
}

uint64_t gen_scaled(const struct gen_plan *plan, uint64_t pages)
{
	return (uint64_t)((double)pages * plan->params->scale);
}

int gen_per_task(struct gen_plan *plan, uint64_t total, uint32_t tasks, const char *what,
		 uint64_t *out)
{
	*out = total / tasks;
	if (*out)
		return 0;
	return gen_plan_error(plan, RF_ERR_RANGE,
			      "%s of %llu pages leaves less than a page for each of %u tasks; raise --mem or --scale, or lower --tasks",
			      what, (unsigned long long)total, tasks);
}

int gen_add_files(struct gen_plan *plan, const char *stem, uint32_t nr, uint64_t total)
{
	uint64_t per;
	uint32_t i;
	int ret;

	ret = gen_per_task(plan, total, nr, "the file set", &per);
	for (i = 0; !ret && i < nr; i++) {
		ret = gen_add_file(plan, GEN_LOOP_DEV, per, "%s/sparse-%s-%u", GEN_SPARSE_ROOT, stem, i);
		ret = ret < 0 ? ret : 0;
	}
	return ret;
}

int gen_add_stream_hot_files(struct gen_plan *plan, const char *stem, struct gen_stream_hot *sh)
{
	int ret;

	sh->n_hot = plan->tasks_wanted / 4 ? plan->tasks_wanted / 4 : 1;
	sh->n_stream = plan->tasks_wanted - sh->n_hot;
	sh->first_stream = plan->nr_files;
	ret = gen_add_files(plan, stem, sh->n_stream,
			    gen_scaled(plan, GEN_ROTATE_MEMS * plan->host.mem_pages));
	sh->first_hot = plan->nr_files;
	if (!ret)
		ret = gen_add_files(plan, "hot", sh->n_hot, plan->host.mem_pages / 4);
	if (ret)
		return ret;
	sh->stream_per = plan->files[sh->first_stream].pages;
	sh->hot_per = plan->files[sh->first_hot].pages;
	return 0;
}

int gen_add_reader(struct gen_plan *plan, uint32_t file, uint64_t passes, uint32_t cgroup,
		   uint64_t delay)
{
	struct gen_task *t = gen_add_process(plan, "dd", cgroup);
	int ret;

	if (!t)
		return RF_ERR_NOMEM;
	t->delay = delay;
	ret = gen_step_read(plan, t, file, passes);
	return ret ? ret : gen_step_exit(plan, t);
}

int gen_add_mapper(struct gen_plan *plan, uint32_t file, uint64_t addr, bool random,
		   uint64_t refs)
{
	struct gen_task *t = gen_add_process(plan, "usemem", 0);
	uint64_t bytes = plan->files[file].pages * RF_GEN_PAGE_SIZE;
	int ret;

	if (!t)
		return RF_ERR_NOMEM;
	ret = gen_step_mmap_file(plan, t, addr, file);
	if (!ret)
		ret = gen_step_file_faults(plan, t, file, random, refs);
	if (!ret)
		ret = gen_step_munmap(plan, t, addr, bytes);
	return ret ? ret : gen_step_exit(plan, t);
}

static int check_params(struct gen_plan *plan, const struct gen_case *c)
{
	const struct rf_gen_params *p = plan->params;

	if (p->mem_bytes < RF_GEN_MIN_MEM || p->mem_bytes > RF_GEN_MAX_MEM)
		return gen_plan_error(plan, RF_ERR_INVAL, "--mem %llu is outside %llu (4M) .. %llu (1T)",
				      (unsigned long long)p->mem_bytes,
				      (unsigned long long)RF_GEN_MIN_MEM,
				      (unsigned long long)RF_GEN_MAX_MEM);
	if (p->mem_bytes % RF_GEN_PAGE_SIZE)
		return gen_plan_error(plan, RF_ERR_INVAL, "--mem %llu is not a multiple of the %u-byte page",
				      (unsigned long long)p->mem_bytes, RF_GEN_PAGE_SIZE);
	if (p->cpus < 1 || p->cpus > RF_GEN_MAX_CPUS)
		return gen_plan_error(plan, RF_ERR_INVAL, "--cpus %u is outside 1 .. %u", p->cpus,
				      RF_GEN_MAX_CPUS);
	if (p->tasks > RF_GEN_MAX_TASKS || (p->tasks && p->tasks < c->min_tasks))
		return gen_plan_error(plan, RF_ERR_INVAL, "--tasks %u is outside %u .. %u for %s",
				      p->tasks, c->min_tasks, RF_GEN_MAX_TASKS, c->info.name);
	if (!isfinite(p->scale) || p->scale <= 0 || p->scale > RF_GEN_MAX_SCALE)
		return gen_plan_error(plan, RF_ERR_INVAL, "--scale %g is outside (0, %g]", p->scale,
				      RF_GEN_MAX_SCALE);
	return 0;
}

static uint64_t plan_events(const struct gen_plan *plan)
{
	uint64_t n = 2ull * plan->nr_cgroups + plan->nr_files + 8;
	uint32_t i, j;

	for (i = 0; i < plan->nr_tasks; i++)
		for (j = 0; j < plan->tasks[i].nr_steps; j++)
			n += plan->tasks[i].steps[j].refs;
	return n;
}

int gen_plan_build(struct gen_plan *plan, const char *name, const struct rf_gen_params *p,
		   char *err, size_t errlen)
{
	const struct gen_case *c = find_case(name);
	uint64_t events;
	int ret;

	gen_plan_init(plan, p, err, errlen);
	if (!c)
		return gen_plan_error(plan, RF_ERR_INVAL,
				      "unknown case '%s'; 'refault gen --list' names them",
				      name ? name : "");
	ret = check_params(plan, c);
	if (ret)
		return ret;
	plan->host.mem_pages = p->mem_bytes / RF_GEN_PAGE_SIZE;
	plan->host.avail_pages = plan->host.mem_pages - plan->host.mem_pages / 16;
	plan->tasks_wanted = p->tasks ? p->tasks :
			     c->default_tasks ? c->default_tasks :
			     p->cpus > c->min_tasks ? p->cpus : c->min_tasks;
	ret = gen_add_cgroup(plan, "/", RF_UNLIMITED);
	if (ret >= 0)
		ret = c->build(plan);
	if (ret < 0) {
		gen_plan_release(plan);
		return ret;
	}
	events = plan_events(plan);
	if (events > RF_GEN_MAX_EVENTS) {
		gen_plan_release(plan);
		return gen_plan_error(plan, RF_ERR_RANGE,
				      "%s would write %llu events, over the limit of %llu; lower --mem or --scale",
				      name, (unsigned long long)events,
				      (unsigned long long)RF_GEN_MAX_EVENTS);
	}
	return 0;
}

/* --scale as written, so that parsing it back gives the same double. */
static void format_scale(double scale, char *buf, size_t len)
{
	snprintf(buf, len, "%g", scale);
	if (strtod(buf, NULL) != scale)
		snprintf(buf, len, "%.17g", scale);
}

void gen_plan_header(const struct gen_plan *plan, const char *name, struct rf_trace_header *h)
{
	const struct rf_gen_params *p = plan->params;
	char scale[32];

	rf_trace_header_init(h, "refault gen");
	snprintf(h->producer_version, sizeof(h->producer_version), "gen-%s", RF_GEN_VERSION);
	h->created = 0;
	snprintf(h->clock, sizeof(h->clock), "synthetic");
	h->synthetic = true;
	snprintf(h->sources, sizeof(h->sources), "gen");
	snprintf(h->scope, sizeof(h->scope), "-a");
	memset(&h->host, 0, sizeof(h->host));
	snprintf(h->host.hostname, sizeof(h->host.hostname), "synthetic");
	snprintf(h->host.thp_mode, sizeof(h->host.thp_mode), "%s", plan->thp_mode);
	h->host.mem_bytes = p->mem_bytes;
	h->host.swap_bytes = plan->host.swap_pages * RF_GEN_PAGE_SIZE;
	h->host.page_size = RF_GEN_PAGE_SIZE;
	h->host.cpus = p->cpus;
	h->host.numa_nodes = 1;
	format_scale(p->scale, scale, sizeof(scale));
	/* The command without -o: the output's name must not change its bytes. */
	snprintf(h->command, sizeof(h->command),
		 "refault gen %s --seed %llu --mem %llu --tasks %u --cpus %u --scale %s", name,
		 (unsigned long long)p->seed, (unsigned long long)p->mem_bytes,
		 plan->tasks_wanted, p->cpus, scale);
	snprintf(h->params, sizeof(h->params), "case=%s seed=%llu mem=%llu tasks=%u cpus=%u scale=%s",
		 name, (unsigned long long)p->seed, (unsigned long long)p->mem_bytes,
		 plan->tasks_wanted, p->cpus, scale);
}

int rf_gen_header(const char *name, const struct rf_gen_params *p, struct rf_trace_header *h,
		  char *err, size_t errlen)
{
	struct gen_plan plan;
	int ret = gen_plan_build(&plan, name, p, err, errlen);

	if (ret)
		return ret;
	gen_plan_header(&plan, name, h);
	gen_plan_release(&plan);
	return 0;
}

int rf_gen_run(const char *name, const struct rf_gen_params *p, rf_gen_sink_fn sink, void *ctx,
	       char *err, size_t errlen)
{
	struct gen_plan plan;
	int ret = gen_plan_build(&plan, name, p, err, errlen);

	if (ret)
		return ret;
	ret = gen_plan_run(&plan, sink, ctx);
	gen_plan_release(&plan);
	return ret;
}
