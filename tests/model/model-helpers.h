/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event builders and model shortcuts for the model tests. */
#ifndef REFAULT_TESTS_MODEL_HELPERS_H
#define REFAULT_TESTS_MODEL_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/model.h>

#include "lib/compiler.h"
#include "tests/lib/tap.h"

#define PAGE 4096ull

/* A model of @profile with "key=value" overrides; NULL-terminated. */
static inline struct rf_model *mk(const char *profile, const char *const *kv)
{
	struct rf_model_config *c;
	struct rf_model *m;
	char err[256];

	if (rf_model_config_new(&c, profile)) {
		diag("unknown profile %s", profile);
		exit(2);
	}
	for (; kv && *kv; kv++) {
		char key[128];
		const char *eq = strchr(*kv, '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		if (rf_model_config_set(c, key, eq + 1, err, sizeof(err))) {
			diag("config %s: %s", *kv, err);
			exit(2);
		}
	}
	if (rf_model_new(&m, c, err, sizeof(err))) {
		diag("model: %s", err);
		exit(2);
	}
	rf_model_config_free(c);
	return m;
}

static inline uint64_t C(const struct rf_model *m, const char *key)
{
	uint64_t v = 0;

	if (!rf_model_counter(m, key, &v)) {
		diag("no counter %s", key);
		return UINT64_MAX;
	}
	return v;
}

static inline void feed(struct rf_model *m, const struct rf_event *ev)
{
	int r = rf_model_feed(m, ev);

	if (r) {
		diag("feed type %u: error %d", ev->type, r);
		exit(2);
	}
}

static inline void read_pages(struct rf_model *m, int cpu, int pid, uint64_t ino, uint64_t index,
			      uint64_t nr)
{
	struct rf_event ev = { .cpu = cpu, .pid = pid, .type = RF_EV_FILE_READ };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	feed(m, &ev);
}

static inline void mmap_file(struct rf_model *m, int pid, uint64_t mm, uint64_t addr,
			     uint64_t pages, uint64_t ino)
{
	struct rf_event ev = { .pid = pid, .type = RF_EV_MMAP };

	ev.u.vma.mm = mm;
	ev.u.vma.addr = addr;
	ev.u.vma.len = pages * PAGE;
	ev.u.vma.ino = ino;
	ev.u.vma.dev = ino ? 8 : 0;
	ev.u.vma.prot = 1;
	feed(m, &ev);
}

static inline void file_fault(struct rf_model *m, int cpu, int pid, uint64_t mm, uint64_t ino,
			      uint64_t index)
{
	struct rf_event ev = { .cpu = cpu, .pid = pid, .type = RF_EV_FILE_FAULT };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.mm = mm;
	feed(m, &ev);
}

/* Task 2 faults pages 0 .. @n - 1 of file @ino (device 8) through mm @mm, in order, on CPU 0. */
static inline void fault_pages(struct rf_model *m, uint64_t mm, uint64_t ino, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		file_fault(m, 0, 2, mm, ino, i);
}

/*
 * A 4 MiB model of @profile (one CPU, batches of one page) with 64 pages of
 * file 2 mapped at @addr of mm @mm by task 2: the accessed-bit tests' start.
 */
static inline struct rf_model *small_mapped(const char *profile, uint64_t mm, uint64_t addr)
{
	const char *const small[] = { "memory=4M", "cpus=1", "pagevec_size=1", NULL };
	struct rf_model *m = mk(profile, small);

	mmap_file(m, 2, mm, addr, 64, 2);
	return m;
}

static inline void anon_fault(struct rf_model *m, int cpu, int pid, uint64_t mm, uint64_t addr,
			      int order)
{
	struct rf_event ev = { .cpu = cpu, .pid = pid, .type = RF_EV_ANON_FAULT };

	ev.u.anon.mm = mm;
	ev.u.anon.addr = addr;
	ev.u.anon.order = order;
	ev.u.anon.flags = RF_REF_WRITE;
	feed(m, &ev);
}

static inline void madvise(struct rf_model *m, int cpu, int pid, uint64_t mm, uint64_t addr,
			   uint64_t pages, int advice)
{
	struct rf_event ev = { .cpu = cpu, .pid = pid, .type = RF_EV_MADVISE };

	ev.u.vma.mm = mm;
	ev.u.vma.addr = addr;
	ev.u.vma.len = pages * PAGE;
	ev.u.vma.advice = advice;
	feed(m, &ev);
}

static inline void cg_mkdir(struct rf_model *m, uint64_t id, uint64_t parent, const char *path)
{
	struct rf_event ev = { .type = RF_EV_CGROUP_MKDIR };

	ev.u.cgroup.id = id;
	ev.u.cgroup.parent = parent;
	ev.u.cgroup.path = path;
	feed(m, &ev);
}

static inline void cg_simple(struct rf_model *m, int type, uint64_t id, int pid, uint32_t kind,
			     uint64_t value)
{
	struct rf_event ev = { .type = type };

	ev.u.cgroup.id = id;
	ev.u.cgroup.pid = pid;
	ev.u.cgroup.kind = kind;
	ev.u.cgroup.value = value;
	feed(m, &ev);
}

static inline void task_event(struct rf_model *m, int type, int cpu, int pid, int child,
			      uint64_t mm)
{
	struct rf_event ev = { .cpu = cpu, .pid = pid, .type = type };

	ev.u.task.pid = child;
	ev.u.task.mm = mm;
	feed(m, &ev);
}

#endif /* REFAULT_TESTS_MODEL_HELPERS_H */
