/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Captures -> rows.  A cgroup's row counts its whole subtree, on both
 * sides: memory.stat's total_* are hierarchical, and limit reclaim, which
 * the trace can only pin on the reclaiming task, stays inside the subtree
 * of the cgroup over its limit.  A row is within tolerance when
 * |model - kernel| <= tolerance * kernel + slack; the phase where a row
 * diverges is the first capture at which its cumulative numbers (or its
 * gauge) are outside that bound.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/compiler.h"
#include "lib/grow.h"
#include "replayer/validate/validate-local.h"

enum side { KERNEL, MODEL };

enum scope_kind { SC_CGROUP, SC_TRACE, SC_HOST };

struct scope {
	enum scope_kind kind;
	size_t cg;			/* SC_CGROUP */
	bool recorded;			/* SC_CGROUP: the recorded cgroup (recorded_cg()) */
	bool root;			/* SC_CGROUP: the hierarchy's root ("/", an -a trace's) */
};

/*
 * The cgroup tree, in one pass each way.  A cgroup's parent is always made
 * known before it (librefault-observe takes the parent's index when the
 * child arrives), so parent_idx < idx: ascending indices visit parents
 * before their children, descending ones children before their parents.
 * A parent index that breaks this (none does) is taken as a root.
 */
static int parent_of(const struct rf_observe *k, size_t i)
{
	int p = rf_observe_cgroup(k, i)->parent_idx;

	return p >= 0 && (size_t)p < i ? p : -1;
}

/*
 * @sub[i * RF_OBS_NR + q] = the sum of @local over i's subtree (i and every
 * cgroup below it), for the first @n cgroups: one bottom-up pass.
 */
static void subtree_sums(const struct rf_observe *k, size_t n, const uint64_t *local,
			 uint64_t *sub)
{
	size_t i, q;

	memcpy(sub, local, n * RF_OBS_NR * sizeof(*sub));
	for (i = n; i-- > 1;) {
		int p = parent_of(k, i);

		if (p >= 0)
			for (q = 0; q < RF_OBS_NR; q++)
				sub[(size_t)p * RF_OBS_NR + q] += sub[i * RF_OBS_NR + q];
	}
}

/* Both sides' subtree sums of every capture (validate_capture.k_sub, .m_sub). */
static int capture_sums(struct rf_validation *v)
{
	size_t c;

	for (c = 0; c < v->nr_caps; c++) {
		struct validate_capture *x = &v->caps[c];
		size_t n = x->nr_cg ? x->nr_cg : 1;

		free(x->k_sub);
		free(x->m_sub);
		x->k_sub = calloc(n * RF_OBS_NR, sizeof(*x->k_sub));
		x->m_sub = calloc(n * RF_OBS_NR, sizeof(*x->m_sub));
		if (!x->k_sub || !x->m_sub)
			return RF_ERR_NOMEM;
		subtree_sums(v->kernel, x->nr_cg, x->k, x->k_sub);
		subtree_sums(v->kernel, x->nr_cg, x->m, x->m_sub);
	}
	return 0;
}

/*
 * @above[i]: a cgroup of index 1 or more above i (a proper ancestor) had
 * memory.stat at capture @end: one top-down pass.
 */
static void stat_above(const struct rf_observe *k, const struct validate_capture *end, bool *above)
{
	size_t i;

	for (i = 0; i < end->nr_cg; i++) {
		int p = parent_of(k, i);

		above[i] = p >= 0 && ((p >= 1 && end->k_statmask[p]) || above[p]);
	}
}

/* The kernel's number for @q in @s at @c: false when the trace has none. */
static bool value(const struct validate_capture *c, const struct scope *s, enum rf_obs_q q,
		  enum side side, uint64_t *out)
{
	uint64_t sum = 0;
	size_t j;

	if (s->kind == SC_HOST) {
		if (!c->host_have || rf_obs_q_is_gauge(q) || q == RF_OBS_ADD || q == RF_OBS_DEL)
			return false;
		*out = side == KERNEL ? c->host_k[q] : c->host_m[q];
		return true;
	}
	if (s->kind == SC_TRACE && side == MODEL) {
		*out = c->m_global[q];
		return true;
	}
	if (side == KERNEL && s->kind == SC_CGROUP && s->cg < c->nr_cg &&
	    (c->k_statmask[s->cg] & 1u << q)) {
		*out = c->k_stat[s->cg * RF_OBS_NR + q];
		return true;
	}
	if (side == KERNEL && (rf_obs_q_is_gauge(q) || q == RF_OBS_REFAULT_FILE || q == RF_OBS_REFAULT_ANON))
		return false;	/* only memory.stat (and debugfs) has them */
	if (rf_obs_q_is_gen(q)) {	/* the cgroup's own lruvec, not its subtree */
		if (s->kind != SC_CGROUP || s->cg >= c->nr_cg)
			return false;
		*out = c->m[s->cg * RF_OBS_NR + q];
		return true;
	}
	if (s->kind == SC_CGROUP) {
		/* a cgroup made after this capture, and so its subtree, had nothing yet */
		*out = s->cg >= c->nr_cg ? 0 :
		       side == KERNEL ? c->k_sub[s->cg * RF_OBS_NR + q] : c->m_sub[s->cg * RF_OBS_NR + q];
		return true;
	}
	for (j = 0; j < c->nr_cg; j++)
		sum += side == KERNEL ? c->k[j * RF_OBS_NR + q] : c->m[j * RF_OBS_NR + q];
	*out = sum;
	return true;
}

static bool within(uint64_t k, uint64_t m, double tol, uint64_t slack)
{
	double d = fabs((double)m - (double)k);

	return d <= tol * (double)k + (double)slack + 1e-9;
}

/*
 * memory.stat is flushed from the per-CPU counters only once more than
 * MEMCG_CHARGE_BATCH (64) updates per CPU are pending (mm/memcontrol.c,
 * memcg_vmstats_needs_flush(), since aa48e47e3906): a value read from it
 * may lag by that much, which a row from memory.stat gets as extra slack.
 */
static uint64_t row_slack(const struct rf_validation *v, const struct scope *s, enum rf_obs_q q,
			  const struct validate_capture *c)
{
	bool stat = s->kind == SC_CGROUP && s->cg < c->nr_cg && (c->k_statmask[s->cg] & 1u << q);

	if (rf_obs_q_is_gen(q))
		return 0;	/* generations, not pages */
	return v->slack + (stat ? v->stat_slack : 0) +
	       (q == RF_OBS_ACTIVE_FILE || q == RF_OBS_INACTIVE_FILE ? v->folio_slack : 0);
}

static int first_bad_phase(const struct rf_validation *v, const struct scope *s, enum rf_obs_q q)
{
	size_t i;

	for (i = 0; i < v->nr_caps; i++) {
		uint64_t k, m;

		if (value(&v->caps[i], s, q, KERNEL, &k) && value(&v->caps[i], s, q, MODEL, &m) &&
		    !within(k, m, v->tolerance, row_slack(v, s, q, &v->caps[i])))
			return (int)i;
	}
	return -1;
}

static bool is_reclaim_q(enum rf_obs_q q)
{
	return q == RF_OBS_PGACTIVATE || q == RF_OBS_PGREFILL || (q >= RF_OBS_SCAN_FILE && q <= RF_OBS_STEAL_ANON);
}

/*
 * The recorded cgroup: one with memory.stat snapshots and no snapshotted
 * cgroup above it (the recorder of format 2.1 snapshots every cgroup below
 * the recorded one too).  Reclaim is gated there only: below it, limit
 * reclaim is pinned on the reclaiming task's cgroup, not on the pages' own.
 */
static bool recorded_cg(const struct validate_capture *end, const bool *above, size_t i)
{
	return end->k_statmask[i] && !above[i];
}

/*
 * The tracepoint a quantity's kernel number comes from when memory.stat does not give it, and
 * whether the trace recorded it: a trace recorded with --events that left it out has no number
 * (the header's sources say; a trace whose header says none, or whose list was cut, is taken
 * to have them all).
 */
static bool source_recorded(const struct rf_validation *v, enum rf_obs_q q)
{
	static const char *const needs[RF_OBS_NR] = {
		[RF_OBS_ADD] = "mm_filemap_add_to_page_cache",
		[RF_OBS_DEL] = "mm_filemap_delete_from_page_cache",
		[RF_OBS_PGACTIVATE] = "mm_lru_activate",
		[RF_OBS_PGREFILL] = "mm_vmscan_lru_shrink_active",
		[RF_OBS_SCAN_FILE] = "mm_vmscan_lru_shrink_inactive",
		[RF_OBS_SCAN_ANON] = "mm_vmscan_lru_shrink_inactive",
		[RF_OBS_STEAL_FILE] = "mm_vmscan_lru_shrink_inactive",
		[RF_OBS_STEAL_ANON] = "mm_vmscan_lru_shrink_inactive",
	};

	size_t n = strlen(v->header.sources);

	/* recorders before the header kept 4096 bytes of sources cut theirs at 511: unknown */
	return !n || n == 511 || !needs[q] || strstr(v->header.sources, needs[q]);
}

/* @readahead: the trace names what the kernel read ahead (file_readahead) */
static const char *row_note(const struct scope *s, enum rf_obs_q q, bool memstat_cg, bool below,
			    bool readahead)
{
	if (s->kind == SC_HOST)
		return "/proc/vmstat counts every process on the host: not gated";
	if (s->kind == SC_TRACE)
		return "every process the trace saw, every cgroup: not gated";
	if (is_reclaim_q(q) && !memstat_cg)
		return "v1 vmscan events carry no memcg: reclaim is pinned on the reclaiming "
		       "task's cgroup; compare it on the cgroup that holds the limit: not gated";
	if (rf_obs_q_is_gen(q))
		return "a sequence number of the cgroup's own lruvec (debugfs lru_gen_full), in "
		       "generations: aging and eviction passes, not pages";
	if (rf_obs_q_is_gauge(q) && s->root)
		return "the root's list sizes hold the whole host's pages, the model's only what the "
		       "trace loaded: shown, not gated";
	if (rf_obs_q_is_gauge(q) && below)
		return "a list size below the recorded cgroup: how a shared limit's pages split "
		       "between children at the end depends on the order reclaim visits them "
		       "and their reads complete, which the trace does not carry: not gated";
	if (q == RF_OBS_ADD && !readahead)
		return "kernel readahead inserts pages no reference names (the model reads none "
		       "ahead)";
	return NULL;
}

/*
 * @memstat: the kernel's number came from memory.stat (else from tracepoints or /proc/vmstat);
 * @scope: kept, not copied: the kernel side's cgroup path or a literal, which live as long as @v.
 */
static int push_row(struct rf_validation *v, const char *scope, enum rf_obs_q q, uint64_t k,
		    uint64_t m, bool gated, const char *note, const struct scope *s, bool memstat)
{
	struct validate_row *r;

	if (RF_GROW(v->rows, v->cap_rows, v->nr_rows + 1))
		return RF_ERR_NOMEM;
	r = &v->rows[v->nr_rows];
	memset(r, 0, sizeof(*r));
	r->scope = scope;
	v->nr_rows++;
	r->cg = s->kind == SC_CGROUP ? (long)s->cg : -1;
	r->q = q;
	r->kernel = k;
	r->model = m;
	r->gated = gated;
	r->slack = row_slack(v, s, q, &v->caps[v->nr_caps - 1]);
	r->ok = within(k, m, v->tolerance, r->slack);
	r->err_pct = k ? ((double)m - (double)k) * 100.0 / (double)k : (m ? INFINITY : 0.0);
	r->phase = r->ok ? -1 : first_bad_phase(v, s, q);
	r->source = s->kind == SC_HOST ? "/proc/vmstat" :
		rf_obs_q_source(q, s->kind == SC_CGROUP && memstat);
	r->note = note;
	/* held by the absolute slack alone: say so beside the row */
	if (r->ok && !note && v->slack && !within(k, m, v->tolerance, r->slack - v->slack))
		r->note = "within the tolerance by the absolute slack alone (--slack): a count this "
			  "small is mostly pages no trace shows (the program's text, its libraries)";
	if (gated && !r->ok)
		v->nr_bad++;
	return 0;
}

static bool is_scan_steal(enum rf_obs_q q)
{
	return q >= RF_OBS_SCAN_FILE && q <= RF_OBS_STEAL_ANON;
}

/*
 * The multi-gen LRU's evict_folios() of v6.1.192 emits neither
 * mm_vmscan_lru_isolate nor mm_vmscan_lru_shrink_inactive (v6.12.117's
 * does): with the multi-gen LRU on, a host that reclaimed (/proc/vmstat
 * pgsteal) while the trace saw no scan or steal at all says its kernel is
 * such a one, and the trace has no per-cgroup scan and steal to compare.
 */
static bool eviction_unseen(const struct rf_validation *v, const struct validate_capture *end)
{
	uint64_t seen = 0;
	size_t j;
	int q;

	if (!rf_trace_host_lru_gen_on(&v->header.host) || !end->host_have ||
	    !(end->host_k[RF_OBS_STEAL_FILE] + end->host_k[RF_OBS_STEAL_ANON]))
		return false;
	for (j = 0; j < end->nr_cg; j++)
		for (q = RF_OBS_SCAN_FILE; q <= RF_OBS_STEAL_ANON; q++)
			seen += end->k[j * RF_OBS_NR + q];
	return !seen;
}

static int scope_rows(struct rf_validation *v, const struct scope *s, const char *name)
{
	const struct validate_capture *end = &v->caps[v->nr_caps - 1];
	bool memstat = s->kind == SC_CGROUP && end->k_statmask[s->cg];
	bool recorded = s->kind == SC_CGROUP && s->recorded;
	bool below = memstat && !recorded;	/* snapshotted below the recorded cgroup */
	int q, e = 0;

	for (q = 0; q < RF_OBS_NR && !e; q++) {
		uint64_t k, m;
		const char *note = row_note(s, q, recorded, below, rf_observe_has_readahead(v->kernel));
		bool gated = s->kind == SC_CGROUP && !(is_reclaim_q(q) && !recorded) &&
			     !(rf_obs_q_is_gauge(q) && (below || s->root));
		bool stat_q = s->kind == SC_CGROUP && (end->k_statmask[s->cg] & 1u << q);

		if (!value(end, s, q, KERNEL, &k) || !value(end, s, q, MODEL, &m))
			continue;
		if (!stat_q && s->kind != SC_HOST && !source_recorded(v, q)) {
			e = push_row(v, name, q, 0, m, false, "the trace did not record this quantity's "
				     "tracepoint (recorded with --events): not recorded, not gated", s,
				     false);
			if (!e)
				v->rows[v->nr_rows - 1].not_recorded = true;
			continue;
		}
		if (!stat_q && s->kind != SC_HOST && is_scan_steal(q) && v->evict_unseen) {
			e = push_row(v, name, q, 0, m, false, "this kernel's multi-gen LRU evicts "
				     "without the vmscan tracepoints (6.1's evict_folios(); 6.12's has "
				     "them): not observed, not gated", s, false);
			if (!e)
				v->rows[v->nr_rows - 1].not_recorded = true;
			continue;
		}
		/* a memory.stat row needs no excuse, unless it is not gated: then say why */
		if (stat_q)
			note = q == RF_OBS_ADD || !gated || rf_obs_q_is_gen(q) ? note : NULL;
		e = push_row(v, name, q, k, m, gated, note, s, stat_q);
	}
	return e;
}

static bool local_activity(const struct validate_capture *end, size_t i)
{
	return end->k[i * RF_OBS_NR + RF_OBS_ADD] || end->m[i * RF_OBS_NR + RF_OBS_ADD] ||
	       end->m[i * RF_OBS_NR + RF_OBS_SCAN_ANON] || end->m[i * RF_OBS_NR + RF_OBS_INACTIVE_ANON] ||
	       end->m[i * RF_OBS_NR + RF_OBS_ACTIVE_ANON];
}

/*
 * The cgroups worth rows: those the recorder snapshotted (memory.stat) and
 * the ones below them where something happened; without any snapshot, the
 * cgroups where something happened.  Ancestors only repeat their subtree.
 */
static bool shown(const struct validate_capture *end, const bool *above, size_t i, bool any_stat)
{
	if (end->k_statmask[i])
		return true;
	return any_stat ? above[i] : local_activity(end, i);
}

static void add_notes(struct rf_validation *v)
{
	const struct rf_observe *k = v->kernel;
	uint64_t x;

#define NOTE(...) do { if (v->nr_notes < ARRAY_SIZE(v->notes)) \
		snprintf(v->notes[v->nr_notes++], sizeof(v->notes[0]), __VA_ARGS__); } while (0)
	if (v->precached && v->cold_cache)
		NOTE("%llu pages the trace reads were cached before it began (the program, its "
		     "libraries, files read earlier): hits for the kernel, misses for the model, "
		     "which starts empty (--cold-cache); they are added to the slack",
		     (unsigned long long)v->precached);
	else if (v->preloaded || v->precached)
		NOTE("%llu pages the trace reads were cached before it began (the program, its "
		     "libraries, files read earlier): the model starts with them, unreferenced, "
		     "charged to the root memcg, outside the recorded one (the kernel charged "
		     "them to whichever memcg read them first, and v1 never moves a charge); "
		     "they count in no row (the kernel side counted %llu such pages)",
		     (unsigned long long)v->preloaded, (unsigned long long)v->precached);
	if (v->folio_slack && rf_observe_has_readahead(k))
		NOTE("the kernel cached files in folios of up to %llu pages, which file_readahead "
		     "gives the model; a limit cuts the file lists at a folio, not a page, and "
		     "the two may cut at different folios: one such folio of slack",
		     (unsigned long long)v->folio_slack);
	else if (v->folio_slack)
		NOTE("the kernel cached files in folios of up to %llu pages; the model reads base "
		     "pages (read references carry no folio order): the file list sizes get one "
		     "such folio of slack", (unsigned long long)v->folio_slack);
	x = rf_observe_unknown_deletes(k);
	if (x)
		NOTE("%llu pages left the page cache that the trace never saw enter (cache older "
		     "than the recording, other processes' files): not in any row",
		     (unsigned long long)x);
	if (v->main_cg >= 0 && (x = rf_observe_initial_pages(k, v->main_cg)))
		NOTE("%s already had %llu pages charged at the first snapshot; the model starts "
		     "it empty", rf_observe_cgroup(k, v->main_cg)->path, (unsigned long long)x);
	x = rf_observe_reclaim_events(k, RF_RECLAIM_PAGEOUT);
	if (x && !v->madv_pageout)
		NOTE("%llu reclaim_pages() passes with no MADV_PAGEOUT in the trace: proactive "
		     "reclaim (DAMON pageout, memory.reclaim) the model cannot know of",
		     (unsigned long long)x);
	x = rf_observe_reclaim_events(k, RF_RECLAIM_KSWAPD) +
	    rf_observe_reclaim_events(k, RF_RECLAIM_DIRECT);
	if (x)
		NOTE("%llu global (kswapd/direct) reclaim passes: the host ran short of memory and "
		     "other processes' pages competed", (unsigned long long)x);
	x = rf_observe_lost_events(k);
	if (x)
		NOTE("%llu events were lost while recording: the model missed references",
		     (unsigned long long)x);
	if (v->capture_stride > 1)
		NOTE("the trace has %llu counter snapshots over %zu cgroups: 1 in %llu is a "
		     "phase here, which keeps the captures within %llu values (a phase spans "
		     "%llu snapshots)", (unsigned long long)v->snapshots,
		     rf_observe_nr_cgroups(k), (unsigned long long)v->capture_stride,
		     (unsigned long long)v->capture_values, (unsigned long long)v->capture_stride);
#undef NOTE
}

int validate_rows_build(struct rf_validation *v)
{
	const struct rf_observe *k = v->kernel;
	const struct validate_capture *end;
	uint64_t best = 0;
	bool *above;
	size_t i;
	int e;

	if (!v->nr_caps)
		return 0;
	/*
	 * Pages cached before the trace: the model was given them (warm.c), or,
	 * with cold_cache, starts without them and must miss them: slack.
	 */
	v->precached = rf_observe_precached(k);
	if (v->cold_cache)
		v->slack += v->precached;
	v->stat_slack = 64ull * (v->header.host.cpus ? v->header.host.cpus : 1);
	/*
	 * The kernel inserts and evicts whole large folios.  Without
	 * file_readahead (1.0 traces) the model reads into base pages; with it,
	 * the model inserts the same folios but may evict another one first:
	 * where a limit cuts the file lists, they may differ by a folio.
	 */
	v->folio_slack = rf_observe_max_folio_order(k) ? 1ull << rf_observe_max_folio_order(k) : 0;
	end = &v->caps[v->nr_caps - 1];
	v->evict_unseen = eviction_unseen(v, end);
	e = capture_sums(v);
	above = calloc(end->nr_cg ? end->nr_cg : 1, sizeof(*above));
	if (e || !above) {
		free(above);
		return RF_ERR_NOMEM;
	}
	stat_above(k, end, above);
	for (i = 1; i < end->nr_cg; i++)
		if (recorded_cg(end, above, i) &&
		    (v->main_cg < 0 || end->k[i * RF_OBS_NR + RF_OBS_ADD] >= best)) {
			v->main_cg = (int)i;
			best = end->k[i * RF_OBS_NR + RF_OBS_ADD];
		}
	for (i = 1; i < end->nr_cg && !e; i++) {
		struct scope s = { .kind = SC_CGROUP, .cg = i, .recorded = recorded_cg(end, above, i),
				   .root = !strcmp(rf_observe_cgroup(k, i)->path, "/") };
		uint64_t kadd = 0, madd = 0;

		if (!shown(end, above, i, v->main_cg >= 0))
			continue;
		value(end, &s, RF_OBS_ADD, KERNEL, &kadd);
		value(end, &s, RF_OBS_ADD, MODEL, &madd);
		if (end->k_statmask[i] || kadd || madd || local_activity(end, i))
			e = scope_rows(v, &s, rf_observe_cgroup(k, i)->path);
	}
	if (!e) {
		struct scope s = { .kind = SC_TRACE };

		e = scope_rows(v, &s, "(trace)");
	}
	if (!e) {
		struct scope s = { .kind = SC_HOST };

		e = scope_rows(v, &s, "(host)");
	}
	free(above);
	add_notes(v);
	return e;
}

/* For output.c: the value of a row's quantity at capture @i, both sides. */
bool validate_row_at(const struct rf_validation *v, const struct validate_row *r, size_t i,
		     uint64_t *k, uint64_t *m)
{
	struct scope s = { .kind = SC_CGROUP };

	if (r->cg < 0)
		s.kind = r->scope[1] == 't' ? SC_TRACE : SC_HOST;
	else
		s.cg = (size_t)r->cg;
	return value(&v->caps[i], &s, r->q, KERNEL, k) && value(&v->caps[i], &s, r->q, MODEL, m);
}

const struct validate_row *validate_rows_find(const struct rf_validation *v, const char *scope,
					      const char *quantity)
{
	size_t i;

	for (i = 0; i < v->nr_rows; i++)
		if (!strcmp(v->rows[i].scope, scope) && !strcmp(rf_obs_q_name(v->rows[i].q), quantity))
			return &v->rows[i];
	return NULL;
}
