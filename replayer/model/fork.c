/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tasks: which memcg a pid charges and which mm it uses.  FORK
 * (kernel/fork.c: copy_process()), EXEC (fs/exec.c: exec_mmap()), EXIT
 * (kernel/exit.c: exit_mm()) and the recorder's NAME_PID.
 */
#include <stdlib.h>

#include "lib/grow.h"
#include "model-local.h"
#include "filemap.h"
#include "memcg.h"
#include "mm.h"

/* The memcg @pid charges: the root for an unknown task or one left in a removed cgroup. */
uint32_t task_memcg(struct rf_model *m, int32_t pid)
{
	uint32_t i = RF_NONE;

	/* a task's index never changes (none is removed): the last one found, for streams */
	if (pid > 0 && pid == m->pid_hit) {
		i = m->pid_hit_index;
	} else if (pid > 0) {
		i = id_map_find(&m->pid_index, (uint64_t)pid);
		if (i != RF_NONE) {
			m->pid_hit = pid;
			m->pid_hit_index = i;
		}
	}

	/* a task left behind in a removed cgroup charges the root (the trace lost its move) */
	if (i == RF_NONE || !m->memcgs[m->pids[i].memcg]->online)
		return 0;
	return m->pids[i].memcg;
}

/* The task @pid, made (in the root memcg, no mm) at its first use; NULL without memory. */
struct rf_pid *pid_get(struct rf_model *m, int32_t pid)
{
	uint32_t i = id_map_find(&m->pid_index, (uint64_t)pid);

	if (i != RF_NONE)
		return &m->pids[i];
	if (RF_GROW(m->pids, m->cap_pids, m->nr_pids + 1))
		return NULL;
	if (id_map_put(&m->pid_index, (uint64_t)pid, m->nr_pids))
		return NULL;
	m->pids[m->nr_pids].memcg = 0;
	m->pids[m->nr_pids].mm = 0;
	return &m->pids[m->nr_pids++];
}

/*
 * @t uses @mm.  @born: the task forked or exec'd, so an mm without users is
 * new (or an exited one's id, reused), and every page it gets is in the
 * trace; a task named as running before the trace brings an mm that may
 * hold pages from before.
 */
static void bind_pid_mm(struct rf_model *m, struct rf_pid *t, uint64_t mm, bool born)
{
	struct rf_mm *x;

	if (!mm || t->mm == mm)
		return;
	x = mm_get(m, mm);
	if (!x) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	if (!x->users)
		x->born = born;
	x->users++;
	t->mm = mm;
}

/*
 * FORK: the child charges the parent's memcg and shares or gets its mm.
 * EXEC: the task leaves its old mm (mm_put()) for the new one.  EXIT: the
 * task's mm loses a user, and the files it read forget it (readpos.c).
 * NAME_PID: the recorder names a task that was running before the trace.
 */
void task_event(struct rf_model *m, const struct rf_event *ev)
{
	struct rf_pid *t = NULL;

	switch (ev->type) {
	case RF_EV_FORK: {
		uint32_t memcg = task_memcg(m, ev->pid);

		t = pid_get(m, ev->u.task.pid);
		if (!t)
			break;
		t->memcg = memcg;
		bind_pid_mm(m, t, ev->u.task.mm, true);
		break;
	}
	case RF_EV_EXEC:
		t = pid_get(m, ev->pid);
		if (!t || t->mm == ev->u.task.mm)
			break;
		if (t->mm) {
			uint64_t old = t->mm;

			t->mm = 0;
			mm_put(m, old);
		}
		bind_pid_mm(m, t, ev->u.task.mm, true);
		break;
	case RF_EV_EXIT: {
		uint32_t i = ev->pid > 0 ? id_map_find(&m->pid_index, (uint64_t)ev->pid) : RF_NONE;
		uint64_t mm = ev->u.task.mm;

		if (i != RF_NONE && m->pids[i].mm) {
			mm = m->pids[i].mm;
			m->pids[i].mm = 0;
		}
		if (mm)
			mm_put(m, mm);
		read_state_forget(m, ev->pid);
		break;
	}
	case RF_EV_NAME_PID: {
		uint32_t slot = memcg_slot_by_cgid(m, ev->u.task.cgroup);

		t = pid_get(m, ev->u.task.pid);
		if (!t)
			break;
		if (slot != RF_NONE)
			t->memcg = slot;
		bind_pid_mm(m, t, ev->u.task.mm, false);
		break;
	}
	default:
		break;
	}
	if (!t && !m->error && ev->type != RF_EV_EXIT && ev->type != RF_EV_EXEC)
		m->error = RF_ERR_NOMEM;
}
