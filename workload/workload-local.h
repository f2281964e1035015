/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the files of workload/ share and nothing else includes: the seeded
 * generator (draw.c and the tasks of run.c) and the memory cgroups of a
 * phase (cgroup.c, for run.c).
 */
#ifndef REFAULT_WORKLOAD_LOCAL_H
#define REFAULT_WORKLOAD_LOCAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/prng.h"
#include "workload/workload.h"

/*
 * Uniform in [0, @n) (0 for @n 0) from exactly one draw of xoshiro256**, by the high half of
 * a 128-bit product (Lemire): a bias of at most n / 2^64, and every value
 * costs the same one step, so what follows a draw never depends on its value.
 */
static inline uint64_t wl_below(struct rf_xoshiro *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rf_xoshiro_next(r) * n) >> 64);
}

/* The seed of task @task (0-based) of phase @phase: a function of the draw's seed alone. */
uint64_t wl_task_seed(uint64_t seed, unsigned int phase, unsigned int task);

/* cgroup.c: a phase's tasks, each in its own child memory cgroup of the driver's. */
struct wl_cgroups {
	char own[PATH_MAX];		/* the driver's memory cgroup directory */
	int version;			/* 1 or 2 */
	bool own_is_root;		/* the hierarchy's root: no internal-process rule on v2 */
	char leaf[PATH_MAX];		/* v2: the child the driver moved into; "" none */
	bool enabled;			/* v2: we wrote +memory into own's cgroup.subtree_control */
	unsigned int nr;		/* children made */
	char child[RF_WORKLOAD_MAX_TASKS][PATH_MAX];
};

/*
 * wl_cgroups_find() - the driver's memory cgroup (/proc/self/cgroup under the
 * mount /proc/self/mountinfo gives: the v1 memory hierarchy, else cgroup2)
 * into @cg, and whether children of it can have a memory controller of their
 * own (v1: use_hierarchy; v2: "memory" in its cgroup.controllers) and may be
 * made (write access).  RF_ERR_UNSUPPORTED with @err saying what is missing.
 */
int wl_cgroups_find(struct wl_cgroups *cg, char *err, size_t errlen);
/*
 * wl_cgroups_make() - children "refault-workload-pP.tN" for the @nr tasks of
 * phase @phase (1-based) in @cg->child[]; on v2 the driver first moves into
 * the leaf "refault-workload-driver" and enables +memory in its cgroup's
 * cgroup.subtree_control (no internal processes).  RF_ERR_UNSUPPORTED with
 * @err; what was made is undone by wl_cgroups_remove() either way.
 */
int wl_cgroups_make(struct wl_cgroups *cg, unsigned int phase, unsigned int nr, char *err,
		    size_t errlen);
/* Move the calling process into @dir (its cgroup.procs); 0 or -errno with @err. */
int wl_cgroups_enter(const char *dir, char *err, size_t errlen);
/*
 * wl_cgroups_remove() - once the tasks are gone: the children removed, on v2
 * the controller disabled again if we enabled it and the driver back in its
 * own cgroup, the leaf removed.  0, or the first failure in @err (the rest
 * is still tried).
 */
int wl_cgroups_remove(struct wl_cgroups *cg, char *err, size_t errlen);

#endif /* REFAULT_WORKLOAD_LOCAL_H */
