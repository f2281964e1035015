/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Event schema: for each type, the fields besides the common type, time,
 * cpu and pid, in their order: a 3.x chunk's columns of the type by these
 * names, a 1.x or 2.x event array's values after [type, dt, cpu, pid].  A
 * newer minor version may append fields to a type (old readers skip them)
 * or add types (old readers skip the events); it never reorders or removes
 * one.  How a delta field is coded in a chunk of arrays depends on its
 * encoding (format-local.h): pfn is plain in 1.x chunks and delta-coded in
 * 2.x ones; a 3.x chunk codes each integer column as its writer found best.
 * docs/trace-format.md documents this table field by field.
 */
#include <stddef.h>

#include "formats/format-local.h"

#define MEMBER_SIZE(m) sizeof(((struct rf_event *)0)->u.m)
#define FLD(n, k, m) { n, k, MEMBER_SIZE(m), offsetof(struct rf_event, u.m), 0 }
#define U(n, m) FLD(n, RF_FK_UINT, m)
#define I(n, m) FLD(n, RF_FK_INT, m)
#define S(n, m) FLD(n, RF_FK_STR, m)
#define PFN(m) FLD("pfn", RF_FK_DELTA_PFN, m)
/* Since 2.6, the last field of the reference types: written only when not 0. */
#define STACK { "stack", RF_FK_UINT, sizeof(uint32_t), offsetof(struct rf_event, stack), 0 }
#define ARR(n, k, m, cnt) { n, k, MEMBER_SIZE(m), offsetof(struct rf_event, u.m), \
			    offsetof(struct rf_event, u.cnt) }

static const struct fmt_field file_range[] = {
	U("dev", file.dev), U("ino", file.ino), FLD("index", RF_FK_DELTA_INDEX, file.index),
	U("nr", file.nr), STACK,
};
/*
 * Since 3.4 a file_write says its folio's order (the folio it dirtied: a
 * 3.3 reader skips the column); a 2.x chunk's array keeps file_range's.
 */
static const struct fmt_field file_write[] = {
	U("dev", file.dev), U("ino", file.ino), FLD("index", RF_FK_DELTA_INDEX, file.index),
	U("nr", file.nr), U("order", file.order), STACK,
};
static const struct fmt_field file_fault[] = {
	U("dev", file.dev), U("ino", file.ino), FLD("index", RF_FK_DELTA_INDEX, file.index),
	U("order", file.order), U("flags", file.flags), U("mm", file.mm), STACK,
};
/* New in 1.1, so no delta register: a 1.0 reader skips the type without following it. */
static const struct fmt_field file_readahead[] = {
	U("dev", file.dev), U("ino", file.ino), U("index", file.index), U("nr", file.nr),
	U("order", file.order),
};
/* mm comes before addr: in encoding 2 it picks addr's register. */
static const struct fmt_field anon_fault[] = {
	U("mm", anon.mm), FLD("addr", RF_FK_DELTA_ADDR, anon.addr), U("order", anon.order),
	U("flags", anon.flags), STACK,
};
static const struct fmt_field access[] = {
	FLD("key", RF_FK_DELTA_KEY, access.key), U("order", access.order), U("flags", access.flags),
};
static const struct fmt_field pte_young[] = {
	U("mm", young.mm), U("start", young.start), U("end", young.end), U("dev", young.dev),
	U("ino", young.ino), U("index", young.index),
};
static const struct fmt_field damon_region[] = {
	U("mm", damon.mm), U("start", damon.start), U("end", damon.end),
	U("nr_accesses", damon.nr_accesses), U("max_nr_accesses", damon.max_nr_accesses),
	U("age", damon.age),
};
static const struct fmt_field mmap_f[] = {
	U("mm", vma.mm), U("addr", vma.addr), U("len", vma.len), U("prot", vma.prot),
	U("flags", vma.flags), U("dev", vma.dev), U("ino", vma.ino), U("pgoff", vma.pgoff),
};
static const struct fmt_field munmap_f[] = {
	U("mm", vma.mm), U("addr", vma.addr), U("len", vma.len),
};
static const struct fmt_field madvise_f[] = {
	U("mm", vma.mm), U("addr", vma.addr), U("len", vma.len), U("advice", vma.advice),
};
static const struct fmt_field fadvise_f[] = {
	U("dev", file.dev), U("ino", file.ino), FLD("index", RF_FK_DELTA_INDEX, file.index),
	U("nr", file.nr), U("advice", file.advice),
};
static const struct fmt_field file_sync_f[] = {
	U("dev", file.dev), U("ino", file.ino), U("index", file.index), U("nr", file.nr),
	U("flags", file.flags),
};
static const struct fmt_field file_written_f[] = {
	U("dev", file.dev), U("ino", file.ino), FLD("index", RF_FK_DELTA_INDEX, file.index),
	U("nr", file.nr),
};
static const struct fmt_field truncate_f[] = {
	U("dev", file.dev), U("ino", file.ino), U("index", file.index), U("flags", file.flags),
};
static const struct fmt_field fork_f[] = {
	I("child", task.pid), I("tgid", task.tgid), U("mm", task.mm), U("flags", task.flags),
};
static const struct fmt_field exec_f[] = {
	U("mm", task.mm), S("comm", task.comm),
};
static const struct fmt_field exit_f[] = {
	U("mm", task.mm),
};
static const struct fmt_field cg_mkdir[] = {
	U("id", cgroup.id), U("parent", cgroup.parent), S("path", cgroup.path),
};
static const struct fmt_field cg_rmdir[] = {
	U("id", cgroup.id),
};
static const struct fmt_field cg_attach[] = {
	U("id", cgroup.id), I("target", cgroup.pid),
};
static const struct fmt_field cg_limit[] = {
	U("id", cgroup.id), U("kind", cgroup.kind), U("value", cgroup.value),
};
static const struct fmt_field name_file[] = {
	U("dev", name_file.dev), U("ino", name_file.ino), U("size", name_file.size),
	S("path", name_file.path),
};
static const struct fmt_field name_pid[] = {
	I("target", task.pid), I("tgid", task.tgid), U("mm", task.mm), U("cgroup", task.cgroup),
	S("comm", task.comm),
};
static const struct fmt_field name_stack[] = {
	U("id", stack.id), ARR("frames", RF_FK_FRAMES, stack.frames, stack.nr_frames),
};
static const struct fmt_field name_frame[] = {
	U("id", frame.id), S("dso", frame.dso), S("build_id", frame.build_id), U("addr", frame.addr),
	S("symbol", frame.symbol), S("file", frame.file), U("line", frame.line),
};
static const struct fmt_field pc_add[] = {
	U("dev", file.dev), U("ino", file.ino), FLD("index", RF_FK_DELTA_INDEX, file.index),
	U("order", file.order), PFN(file.pfn), U("cgroup", file.cgroup),
};
static const struct fmt_field pc_del[] = {
	U("dev", file.dev), U("ino", file.ino), FLD("index", RF_FK_DELTA_INDEX, file.index),
	U("order", file.order), PFN(file.pfn),
};
static const struct fmt_field lru_add[] = {
	PFN(lru.pfn), U("order", lru.order), U("lru", lru.lru), U("cgroup", lru.cgroup),
};
static const struct fmt_field lru_activate[] = {
	PFN(lru.pfn), U("order", lru.order),
};
static const struct fmt_field reclaim[] = {
	U("cgroup", reclaim.cgroup), U("kind", reclaim.kind), U("nid", reclaim.nid),
	I("priority", reclaim.priority), U("file", reclaim.file),
	U("nr_scanned", reclaim.nr_scanned), U("nr_reclaimed", reclaim.nr_reclaimed),
	U("nr_activated", reclaim.nr_activated), U("nr_deactivated", reclaim.nr_deactivated),
	U("list", reclaim.list),	/* since 2.1 */
};
static const struct fmt_field counters[] = {
	U("source", counters.source), U("cgroup", counters.cgroup),
	ARR("entries", RF_FK_COUNTERS, counters.entries, counters.nr),
};
static const struct fmt_field lost[] = {
	U("lost_cpu", lost.cpu), U("count", lost.count), U("t_begin", lost.t_begin),
	U("t_end", lost.t_end),
};
static const struct fmt_field marker[] = {
	S("text", marker.text),
};
static const struct fmt_field end[] = {
	U("nr_events", end.nr_events), U("nr_lost", end.nr_lost),
};

#define SCHEMA(t, f) [t] = { f, ARRAY_SIZE(f), ARRAY_SIZE(f), false }
/* A type whose fields after the first @req came with a later minor version: absent reads 0. */
#define SCHEMA_SINCE(t, f, req) [t] = { f, ARRAY_SIZE(f), req, false }
/* A reference type: its last field, the stack, is optional and left out when 0. */
#define SCHEMA_REF(t, f) [t] = { f, ARRAY_SIZE(f), ARRAY_SIZE(f) - 1, true }
/* The same, with fields before the stack from @req on appended by a later minor version. */
#define SCHEMA_REF_SINCE(t, f, req) [t] = { f, ARRAY_SIZE(f), req, true }

static const struct fmt_schema schemas[RF_EV_TYPE_MAX] = {
	SCHEMA_REF(RF_EV_FILE_READ, file_range),
	SCHEMA_REF_SINCE(RF_EV_FILE_WRITE, file_write, 4),
	SCHEMA_REF(RF_EV_FILE_FAULT, file_fault),
	SCHEMA_REF(RF_EV_ANON_FAULT, anon_fault),
	SCHEMA(RF_EV_ACCESS, access),
	SCHEMA(RF_EV_FILE_READAHEAD, file_readahead),
	SCHEMA(RF_EV_DAMON_REGION, damon_region),
	SCHEMA(RF_EV_PTE_YOUNG, pte_young),
	SCHEMA(RF_EV_MMAP, mmap_f),
	SCHEMA(RF_EV_MUNMAP, munmap_f),
	SCHEMA(RF_EV_MADVISE, madvise_f),
	SCHEMA(RF_EV_FADVISE, fadvise_f),
	SCHEMA(RF_EV_TRUNCATE, truncate_f),
	SCHEMA(RF_EV_FORK, fork_f),
	SCHEMA(RF_EV_EXEC, exec_f),
	SCHEMA(RF_EV_EXIT, exit_f),
	SCHEMA(RF_EV_CGROUP_MKDIR, cg_mkdir),
	SCHEMA(RF_EV_CGROUP_RMDIR, cg_rmdir),
	SCHEMA(RF_EV_CGROUP_ATTACH, cg_attach),
	SCHEMA(RF_EV_CGROUP_LIMIT, cg_limit),
	SCHEMA(RF_EV_NAME_FILE, name_file),
	SCHEMA(RF_EV_NAME_PID, name_pid),
	SCHEMA(RF_EV_NAME_STACK, name_stack),
	SCHEMA(RF_EV_NAME_FRAME, name_frame),
	SCHEMA(RF_EV_FILE_SYNC, file_sync_f),
	SCHEMA(RF_EV_FILE_WRITTEN, file_written_f),
	SCHEMA(RF_EV_PAGECACHE_ADD, pc_add),
	SCHEMA(RF_EV_PAGECACHE_DEL, pc_del),
	SCHEMA(RF_EV_LRU_ADD, lru_add),
	SCHEMA(RF_EV_LRU_ACTIVATE, lru_activate),
	SCHEMA_SINCE(RF_EV_RECLAIM, reclaim, 9),
	SCHEMA(RF_EV_COUNTERS, counters),
	SCHEMA(RF_EV_LOST, lost),
	SCHEMA(RF_EV_MARKER, marker),
	SCHEMA(RF_EV_END, end),
};

const struct fmt_schema *fmt_schema_of(unsigned int type)
{
	if (type >= RF_EV_TYPE_MAX || !schemas[type].fields)
		return NULL;
	return &schemas[type];
}

/* A 2.x chunk's arrays are positional: a type's fields as 2.6 had them. */
static const struct fmt_schema schema_v2_file_write = {
	file_range, ARRAY_SIZE(file_range), ARRAY_SIZE(file_range) - 1, true
};

const struct fmt_schema *fmt_schema_v2_of(unsigned int type)
{
	return type == RF_EV_FILE_WRITE ? &schema_v2_file_write : fmt_schema_of(type);
}
