/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-model: a deterministic model of Linux page reclaim (classic
 * two-list LRU, workingset refault detection, memcg, per-CPU LRU batches).
 *
 * A configuration is a profile (a kernel version: "v4.6", "v6.18", ...) plus
 * switch overrides ("memory=4G", "pagevec=pre-8f18", "cost.lru_lock=40").
 * A model is built from a configuration, fed trace events in trace order and
 * read back as counters with the kernel's names.  There is no global mutable
 * state: several models run side by side.  The same configuration and the
 * same events give the same counters, always.  docs/model.md lists the rules
 * and the simplifications.
 *
 * Conventions: 0 on success, negative enum rf_err on failure; nothing prints.
 */
#ifndef REFAULT_MODEL_H
#define REFAULT_MODEL_H

#include <refault/api.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <refault/errors.h>
#include <refault/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rf_model_config;

/* NULL-terminated list of profile names ("v4.5", "v4.6", ...), for --help. */
RF_API const char *const *rf_model_profiles(void);

/* One line that says what a profile models, or NULL for an unknown name. */
RF_API const char *rf_model_profile_summary(const char *profile);

/*
 * rf_model_profile_for_release() - the profile for a trace recorded on
 * kernel @release (as uname -r says it: "6.18.4-arch1")
 *
 * The profile of that major.minor release, else the nearest older one, else
 * (older than every profile) the oldest; a release that does not start with
 * "<major>.<minor>", or NULL, gets the newest.  Only profiles of plain
 * releases are picked ("v4.6+55779ec" never is).  @why (@whylen bytes)
 * says in one line which of these it was.
 * Return: a profile name (static), never NULL.
 */
RF_API const char *rf_model_profile_for_release(const char *release, char *why, size_t whylen);

/**
 * rf_model_config_new() - a configuration with @profile's switches
 * Return: 0, RF_ERR_CONFIG for an unknown profile, RF_ERR_NOMEM.
 */
RF_API int rf_model_config_new(struct rf_model_config **out, const char *profile);

/**
 * rf_model_config_load() - a configuration from a profile file
 * @path: lines "name NAME" (a name no built-in profile has, 1 to 31
 *        characters, none of ' ,=|/\"'), "base PROFILE" (a built-in
 *        profile), "description TEXT" (optional), then "KEY = VALUE" lines
 *        of rf_model_config_set()'s keys, applied in order on the base;
 *        '#' starts a comment (docs/model.md, "Your patch in the model")
 * @err: on failure, a message naming the file, the line and what is wrong
 * Return: 0; RF_ERR_CONFIG (the file cannot be read, or a line is wrong);
 * RF_ERR_NOMEM.  The configuration's profile is the file's name;
 * rf_model_config_describe() gives its base as "base".
 */
RF_API int rf_model_config_load(struct rf_model_config **out, const char *path, char *err,
				size_t errlen);

/* Whether @c models the multi-gen LRU (its lru_gen key is not 0). */
RF_API bool rf_model_config_lru_gen(const struct rf_model_config *c);

/* A deep copy of @c.  Return: 0 or RF_ERR_NOMEM. */
RF_API int rf_model_config_dup(struct rf_model_config **out, const struct rf_model_config *c);

/**
 * rf_model_config_set() - override one switch
 * @key: "memory", "cpus", "swap", "swappiness", "pagevec", "pagevec_size",
 *       "swap_account", "drain", "limit./path", "memsw./path",
 *       "cost.<op>", ... (rf_model_config_keys() lists them all); a
 *       per-cgroup key's cgroup is a path from the root ("limit./a/b") or
 *       the recorded cgroup by its role ("limit.recorded",
 *       "limit.recorded/child"; see rf_model_config_resolve_cgroups())
 * @err: on failure, a message that names the key and says what it takes
 * Return: 0, RF_ERR_CONFIG (unknown key, bad value), RF_ERR_NOMEM.
 */
RF_API int rf_model_config_set(struct rf_model_config *c, const char *key, const char *value,
			char *err, size_t errlen);

/*
 * rf_model_config_resolve_cgroups() - name the cgroups the per-cgroup keys
 * ("limit.CGROUP", "memsw.CGROUP"...) set, before a model is made of @c
 * @cb: called once per such key, in the order set, with the key
 *      ("limit.recorded") and its cgroup as set ("recorded", "recorded/x",
 *      "/a/b"); writes the path of the trace's cgroup it names ("/a/b") into
 *      @path[@len], or returns a negative rf_err with a message in @err
 * @err: on failure, the callback's message, or one naming the keys
 * Return: 0; the callback's error; RF_ERR_CONFIG when two keys of a kind
 * name one cgroup; RF_ERR_NOMEM.  rf_model_new() refuses a configuration
 * with a key set by role ("limit.recorded") that was not named so; the
 * replay engine names them from the trace.  rf_model_config_describe()
 * gives the keys as set.
 */
typedef int (*rf_model_cgroup_cb)(const char *key, const char *cgroup, char *path, size_t len,
				  void *ctx, char *err, size_t errlen);
RF_API int rf_model_config_resolve_cgroups(struct rf_model_config *c, rf_model_cgroup_cb cb,
					   void *ctx, char *err, size_t errlen);

/*
 * Take memory, swap, CPUs and page size from the trace's host, each unless
 * set explicitly or the header has none (0) or one the model cannot take
 * (memory below 1M, a page size not a power of two >= 4096).
 */
RF_API void rf_model_config_from_header(struct rf_model_config *c, const struct rf_trace_header *h);

/*
 * Every effective key and value, in a fixed order: "profile" first, then
 * every key of rf_model_config_keys() but the per-cgroup ones, then the
 * per-cgroup limits set, in the order they were set.  @overridden is true
 * for values set with rf_model_config_set() or taken from a trace header
 * (for "pagevec": when it differs from the profile's).  A non-zero return
 * from @cb stops the walk and is returned.
 */
typedef int (*rf_model_describe_cb)(const char *key, const char *value, bool overridden,
				    void *ctx);
RF_API int rf_model_config_describe(const struct rf_model_config *c, rf_model_describe_cb cb,
				    void *ctx);

/* The kind of value a configuration key takes. */
enum rf_model_key_type {
	RF_MODEL_KEY_SIZE = 0,	/* bytes: 65536, 64K, 512M, 4G (powers of 1024; KiB, kb too) */
	RF_MODEL_KEY_UINT = 1,	/* a decimal integer */
	RF_MODEL_KEY_ENUM = 2,	/* one of the names in values */
};

#define RF_MODEL_KEY_PER_CGROUP	0x1u	/* the key is name + a cgroup path: "limit./a/b" */
#define RF_MODEL_KEY_UNLIMITED	0x2u	/* SIZE: "max" (no limit) is taken too */
#define RF_MODEL_KEY_POW2	0x4u	/* UINT: a power of two */
#define RF_MODEL_KEY_PROFILE_MAX 0x8u	/* UINT: the profile sets a lower maximum (swappiness) */

/* One key rf_model_config_set() takes. */
struct rf_model_key {
	const char *name;		/* "memory", "cost.lru_lock"; "limit." for limit.<path> */
	enum rf_model_key_type type;
	unsigned int flags;		/* RF_MODEL_KEY_* */
	uint64_t min, max;		/* SIZE, UINT: the range taken */
	const char *const *values;	/* ENUM: the names taken, NULL-terminated; else NULL */
	const char *help;		/* one line: what the key sets, and its default */
};

/*
 * rf_model_config_keys() - call @cb for every key rf_model_config_set()
 * takes, in the order rf_model_config_describe() lists them (per-cgroup
 * keys last).  The keys and their strings are static.  A non-zero return
 * from @cb stops the walk and is returned.
 */
typedef int (*rf_model_key_cb)(const struct rf_model_key *key, void *ctx);
RF_API int rf_model_config_keys(rf_model_key_cb cb, void *ctx);

/* Free @c (NULL is fine). */
RF_API void rf_model_config_free(struct rf_model_config *c);

struct rf_model;

/**
 * rf_model_new() - a model in the initial state of @c (copied: @c may be
 * freed or changed afterwards)
 * Return: 0; RF_ERR_CONFIG, with the message in @err, for what no single
 *         key could refuse: no CPU, kswapd_cpu not below cpus, a node below
 *         256 pages, a memory limit below one page; RF_ERR_NOMEM.
 */
RF_API int rf_model_new(struct rf_model **out, const struct rf_model_config *c, char *err,
			size_t errlen);

/**
 * rf_model_feed() - apply one trace event, in trace order
 *
 * What changes the model:
 *   - references: FILE_READ, FILE_WRITE, FILE_FAULT, ANON_FAULT, ACCESS
 *     (pages inserted, charged and marked accessed; reclaim when the node
 *     or a memcg limit runs short); DAMON_REGION and PTE_YOUNG (accessed
 *     bits of mapped pages: docs/model.md);
 *   - FILE_READAHEAD: held, and applied when the next event that is not
 *     ignored (below) arrives, the read or fault it was for, or at
 *     rf_model_finish();
 *   - MMAP, MUNMAP, MADVISE (DONTNEED, FREE, PAGEOUT), FADVISE (DONTNEED),
 *     TRUNCATE;
 *   - FORK, EXEC, EXIT, NAME_PID (which memcg and mm a pid uses), and
 *     CGROUP_MKDIR, _RMDIR, _ATTACH, _LIMIT (a limit the configuration
 *     sets wins over the trace's);
 *   - COUNTERS read from a cgroup's memory.stat: with memcg_stats=flushed
 *     (v6.18) the read flushes that cgroup's statistics, as it did in the
 *     kernel, and later refault and reclaim decisions read them.
 * Every event, whatever its type, also moves the model's clock: with
 * memcg_stats=flushed the statistics of every memcg are flushed each 2 s
 * of event time (counted from the first event).  Other COUNTERS and every
 * other type (the recorder's observations PAGECACHE_*, LRU_*, RECLAIM; the
 * NAME_FILE, NAME_STACK names; LOST, MARKER, END; unknown types) change
 * nothing else, leave a held readahead held and are counted in
 * model.events_ignored, as all COUNTERS are.  Values out of range are
 * bounded, not trusted: orders above 9 count as 9 (PMD); a read, write or
 * readahead covers at most MAX_RW_COUNT bytes and no page at or past
 * MAX_LFS_FILESIZE; a cgroup nested more than 256 levels deep, or past the
 * 65535th, is folded into its parent (its mkdir counted as ignored, its
 * limits too); unknown pids, mms and cgroups fall back to the root memcg or
 * are ignored.
 * Return: 0; RF_ERR_STATE after rf_model_finish(); RF_ERR_NOMEM (the model
 *         is then unusable: every later call returns it).
 */
RF_API int rf_model_feed(struct rf_model *m, const struct rf_event *ev);

/*
 * rf_model_plant_shadow() - a shadow entry the page cache held before the trace
 *
 * The folio of 2^@order pages (bounded as rf_model_feed() bounds orders) at
 * @index of file (@dev, @ino) left a shadow before the trace, which the
 * recording kernel found when it read the folio again: a refault, @recent
 * or not by the kernel's test, whose workingset (every memcg's pages) the
 * model does not have.  Its slot gets that shadow; reading the folio in
 * again counts the refault in the memcg it is charged to and, if @recent,
 * activates it as workingset_refault() does (the multi-gen LRU:
 * lru_gen_refault()).  Nothing else changes: no counter, no age.  A range
 * that holds any page or entry is left as it is.  Replay's warm stage calls
 * it at the kernel's add of such a folio (replayer/replay/warm.c).
 * Return: 0; RF_ERR_STATE after rf_model_finish(); RF_ERR_NOMEM (the model
 *         is then unusable).
 */
RF_API int rf_model_plant_shadow(struct rf_model *m, uint32_t dev, uint64_t ino, uint64_t index,
				 unsigned int order, bool recent);

/*
 * rf_model_kernel_read() - a folio the kernel read for itself
 *
 * The recording kernel added the folio of 2^@order pages at @index of file
 * (@dev, @ino), charged to the trace's cgroup @cgroup, and no reference of
 * the trace names that file: a file system's metadata in the block
 * device's page cache (sb_bread(), __getblk() and the buffer lookups that
 * mark it accessed: touch_buffer(), mark_buffer_accessed()), or a file read
 * by a path the recorder does not see.  Read it in as a read of no task
 * would, charged to that cgroup's memcg (the root's if the model does not
 * know it), and mark it accessed @accesses times (at most 2 count: the
 * second activates it, as folio_mark_accessed() does): the trace cannot
 * carry those accesses, only the list the kernel inserted the folio on.  A
 * folio the model holds is only marked accessed.  Replay's warm stage calls
 * it at each kernel add of such a file's folios (replayer/replay/warm.c).
 * Return: 0; RF_ERR_STATE after rf_model_finish(); RF_ERR_NOMEM (the model
 *         is then unusable).
 */
RF_API int rf_model_kernel_read(struct rf_model *m, uint64_t cgroup, uint32_t dev, uint64_t ino,
				uint64_t index, unsigned int order, unsigned int accesses);

/* The stages of rf_model_prefetch(), each reading what the one before loaded. */
enum rf_prefetch_stage {
	RF_PREFETCH_INDEX = 0,	/* the slot of the node index */
	RF_PREFETCH_NODE = 1,	/* through it, the tree node's slot */
	RF_PREFETCH_PAGE = 2,	/* through that, the page struct */
};

/* What rf_model_prefetch() found of an event, from one stage to the next; the caller's. */
struct rf_model_prefetch {
	uint64_t hash;		/* the node index's hash of the event's first page */
	uint64_t base;		/* its index >> the tree's shift */
	uint32_t mapping;	/* the file's mapping; UINT32_MAX: nothing to follow */
	uint32_t node;		/* the tree node holding it; UINT32_MAX: none yet */
};

/*
 * rf_model_prefetch() - a hint that @ev will be fed soon
 *
 * Starts loading what the page-cache lookup of a file read's or fault's
 * first page will read, one step of it a call (enum rf_prefetch_stage):
 * the index stage fills *@st, each later stage reads what the one before
 * found in *@st and started loading, so a caller that calls each stage for
 * the same event some events apart, the index first and far ahead, waits
 * on no load and computes no hash twice.  Changes no state of @m and no
 * result.
 */
RF_API void rf_model_prefetch(const struct rf_model *m, const struct rf_event *ev,
			      unsigned int stage, struct rf_model_prefetch *st);

/*
 * rf_model_feed_hinted() - rf_model_feed() of an event rf_model_prefetch() was called for
 * @st: what the hint's stages found of @ev (NULL: none)
 *
 * The model takes the mapping and the tree node the hint found instead of
 * looking them up again, where it can tell they still hold: a node freed or
 * reused since is looked up as without the hint.  Whatever @st holds, the
 * result is rf_model_feed()'s, byte for byte.
 * Return: as rf_model_feed().
 */
RF_API int rf_model_feed_hinted(struct rf_model *m, const struct rf_event *ev,
				const struct rf_model_prefetch *st);

/*
 * End of trace: apply a readahead still held and freeze the *_at_exit
 * gauges (e.g. pages stranded at exit).  Later feeds are refused; counters
 * can still be read.  Calling it again changes nothing.
 * Return: 0, or the error that made the model unusable.
 */
RF_API int rf_model_finish(struct rf_model *m);

/*
 * Every counter, in this fixed order: "vmstat.<name>" (global, gated as the
 * profile's /proc/vmstat, named as today's kernel names it whatever the
 * profile: see rf_model_aliases()), "gauge.<name>", "model.<name>"
 * (the model's own: events, alloc failures, watermarks, shadows...),
 * "cost.<op>" and "cost.estimated_ns", then per memcg in creation order
 * "memcg.<path>.<name>" and "model.memcg.<path>.<name>".  Counts of pages
 * are in base pages, except where the profile's kernel counts a huge page
 * once (v4.x pgactivate, pgscan, pgrefill).  A non-zero return from @cb
 * stops the walk and is returned.
 */
typedef int (*rf_model_counter_cb)(const char *key, uint64_t value, void *ctx);
RF_API int rf_model_counters(const struct rf_model *m, rf_model_counter_cb cb, void *ctx);

/*
 * A cheap subset for time series, named as rf_model_counters() names them:
 * the global list sizes, free, file and anon pages, the LRU, reclaim,
 * workingset, fault and swap events (not allocstall, pageoutrun,
 * slabs_scanned, pgfree), gauge.pvec_pages and gauge.stranded_pages; then,
 * for the first RF_MODEL_SAMPLE_MEMCGS cgroups besides the root, per cgroup
 * in creation order "memcg.<path>." inactive_file,
 * active_file, workingset_refault_file, workingset_activate_file,
 * pgscan_kswapd and pgscan_direct.  A cgroup made later adds its keys to
 * later samples.
 */
#define RF_MODEL_SAMPLE_MEMCGS	64
RF_API int rf_model_sample(const struct rf_model *m, rf_model_counter_cb cb, void *ctx);

/*
 * The profile's kernel's own name for each global counter whose name has
 * changed since (v4.6 "vmstat.pgscan_kswapd_normal" for
 * "vmstat.pgscan_kswapd", v4.x "vmstat.workingset_refault" for
 * "vmstat.workingset_refault_file"...), in a fixed order; none for a
 * profile of today's names.  A non-zero return from @cb stops the walk
 * and is returned.
 */
typedef int (*rf_model_alias_cb)(const char *kernel_name, const char *name, void *ctx);
RF_API int rf_model_aliases(const struct rf_model *m, rf_model_alias_cb cb, void *ctx);

/*
 * One counter by key, as rf_model_counters() names it or by its alias
 * (a walk of them all); false if unknown.
 */
RF_API bool rf_model_counter(const struct rf_model *m, const char *key, uint64_t *value);

/*
 * The model's decisions about single folios, for attribution (refault
 * report): the folio, and what happened to it.  A callback set with
 * rf_model_set_decision_cb() is called synchronously inside
 * rf_model_feed() (and rf_model_finish(), which may release a held
 * readahead), so the event being fed is the one the decision belongs to.
 *   RF_MODEL_INSERT    the folio entered memory: a page-cache insertion
 *                      (filemap_add_folio(): a read, fault, readahead or
 *                      write that missed) or a swap-in (do_swap_page())
 *   RF_MODEL_REFAULT   workingset_refault() found its shadow (counted as
 *                      workingset_refault_file/anon), after its INSERT
 *   RF_MODEL_ACTIVATE  counted as pgactivate (an activation batch drained,
 *                      or shrink_folio_list() keeping it active)
 *   RF_MODEL_EVICT     reclaimed: __remove_mapping() left a shadow or a
 *                      swap entry
 * Counts are base pages (@nr), whatever the profile's counters count.
 */
enum rf_model_decision {
	RF_MODEL_INSERT,
	RF_MODEL_REFAULT,
	RF_MODEL_ACTIVATE,
	RF_MODEL_EVICT,
	RF_MODEL_NR_DECISIONS
};

struct rf_model_folio {
	uint64_t ino;		/* file: inode number; anonymous: 0 */
	uint64_t mm;		/* anonymous: the address space; file: 0 */
	uint64_t index;		/* file: page index; anonymous: address >> page shift */
	uint64_t nr;		/* base pages */
	uint64_t cgroup;	/* the memcg charged: the trace's cgroup id (0: the root) */
	const char *memcg;	/* its path as the counters name it ("/", "/a/b") */
	uint32_t dev;
	bool anon;
};

typedef void (*rf_model_decision_cb)(enum rf_model_decision d, const struct rf_model_folio *f,
				     void *ctx);
/* Call @cb with @ctx for every decision from now on; NULL stops. */
RF_API void rf_model_set_decision_cb(struct rf_model *m, rf_model_decision_cb cb, void *ctx);

/* Free @m (NULL is fine). */
RF_API void rf_model_free(struct rf_model *m);

#ifdef __cplusplus
}
#endif

#endif /* REFAULT_MODEL_H */
