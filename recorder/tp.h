/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracepoints refault record uses and the fields it reads of each, in the
 * kernel's names: one table, RF_TRACEPOINTS, from which everything else is
 * made.  A row is
 *
 *	TP(system, event, group, F(field) F(field) ...)
 *
 * and makes the tracepoint's id, TP_<event> (enum rf_tp_id), its entry in
 * tp.c's table (the names libtraceevent resolves at start-up), and the
 * indexes of its fields: TPF(event, field).  Code reads a field as
 *
 *	rec_tp_u64(tp, TPF(mm_filemap_add_to_page_cache, pfn), raw->data)
 *
 * so a misspelt field, or one the event does not have, is a compile error,
 * and reordering a row changes nothing.  Every field listed is required: a
 * kernel whose event lacks one fails at start-up (rec_tp_resolve()); an event
 * the kernel lacks is left out of the default set.
 */
#ifndef REFAULT_RECORDER_TP_H
#define REFAULT_RECORDER_TP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_handle;
struct tep_event;
struct tep_format_field;

/*
 * The --events groups, in the order --list-events gives them; damon only comes
 * with --damon (it needs the kdamond that option starts).
 */
#define RF_TP_GROUPS(G) G(refs) G(tasks) G(cgroup) G(lru) G(vmscan) G(damon)

#define RF_TRACEPOINTS(TP, F)								\
	TP(filemap, mm_filemap_get_pages, refs, F(i_ino) F(s_dev) F(index) F(last_index))	\
	TP(filemap, mm_filemap_add_to_page_cache, refs,					\
	   F(pfn) F(i_ino) F(index) F(s_dev) F(order))					\
	TP(filemap, mm_filemap_delete_from_page_cache, refs,				\
	   F(pfn) F(i_ino) F(index) F(s_dev) F(order))					\
	TP(exceptions, page_fault_user, refs, F(address) F(ip) F(error_code))		\
	TP(exceptions, page_fault_kernel, refs, F(address) F(ip) F(error_code))		\
	TP(kmem, mm_page_alloc, refs, F(pfn) F(order))					\
	TP(syscalls, sys_enter_read, refs, F(fd) F(count))				\
	TP(syscalls, sys_exit_read, refs, F(ret))					\
	TP(syscalls, sys_enter_pread64, refs, F(fd) F(count) F(pos))			\
	TP(syscalls, sys_exit_pread64, refs, F(ret))					\
	TP(syscalls, sys_enter_readv, refs, F(fd))					\
	TP(syscalls, sys_exit_readv, refs, F(ret))					\
	TP(syscalls, sys_enter_preadv, refs, F(fd) F(pos_l))				\
	TP(syscalls, sys_exit_preadv, refs, F(ret))					\
	TP(syscalls, sys_enter_preadv2, refs, F(fd) F(pos_l))				\
	TP(syscalls, sys_exit_preadv2, refs, F(ret))					\
	TP(syscalls, sys_enter_sendfile64, refs, F(in_fd) F(count))			\
	TP(syscalls, sys_exit_sendfile64, refs, F(ret))					\
	TP(syscalls, sys_enter_splice, refs, F(fd_in) F(len))				\
	TP(syscalls, sys_exit_splice, refs, F(ret))					\
	TP(syscalls, sys_enter_copy_file_range, refs, F(fd_in) F(len))			\
	TP(syscalls, sys_exit_copy_file_range, refs, F(ret))				\
	TP(syscalls, sys_enter_mmap, refs, F(addr) F(len) F(prot) F(flags) F(fd) F(off))	\
	TP(syscalls, sys_exit_mmap, refs, F(ret))					\
	TP(syscalls, sys_enter_munmap, refs, F(addr) F(len))				\
	TP(syscalls, sys_enter_madvise, refs, F(start) F(len_in) F(behavior))		\
	TP(syscalls, sys_exit_madvise, refs, F(ret))					\
	TP(syscalls, sys_enter_fadvise64, refs, F(fd) F(offset) F(len) F(advice))	\
	TP(syscalls, sys_exit_fadvise64, refs, F(ret))					\
	TP(syscalls, sys_enter_readahead, refs, F(fd) F(offset) F(count))		\
	TP(syscalls, sys_exit_readahead, refs, F(ret))					\
	TP(syscalls, sys_enter_fsync, refs, F(fd))					\
	TP(syscalls, sys_enter_fdatasync, refs, F(fd))					\
	TP(syscalls, sys_enter_sync_file_range, refs, F(fd) F(offset) F(nbytes) F(flags))	\
	TP(syscalls, sys_enter_msync, refs, F(start) F(len) F(flags))			\
	TP(syscalls, sys_enter_syncfs, refs, F(fd))					\
	TP(syscalls, sys_enter_sync, refs, F(__syscall_nr))				\
	TP(ext4, ext4_sync_file_enter, refs, F(dev) F(ino) F(datasync))		\
	TP(xfs, xfs_file_fsync, refs, F(dev) F(ino))					\
	TP(refault, folio_end_writeback, refs, F(i_ino) F(s_dev) F(index) F(mapping))	\
	TP(filemap, mm_filemap_fault, refs, F(i_ino) F(s_dev) F(index))			\
	TP(writeback, writeback_dirty_folio, refs, F(name) F(ino) F(index))		\
	TP(filemap, mm_filemap_map_pages, refs, F(i_ino) F(s_dev) F(index) F(last_index))	\
	TP(task, task_newtask, tasks, F(pid) F(comm) F(clone_flags))			\
	TP(sched, sched_process_exec, tasks, F(filename) F(pid) F(old_pid))		\
	TP(sched, sched_process_exit, tasks, F(comm) F(pid))				\
	TP(cgroup, cgroup_mkdir, cgroup, F(root) F(id) F(path))				\
	TP(cgroup, cgroup_rmdir, cgroup, F(root) F(id) F(path))				\
	TP(cgroup, cgroup_attach_task, cgroup, F(dst_root) F(dst_id) F(pid) F(dst_path))	\
	TP(pagemap, mm_lru_insertion, lru, F(pfn) F(lru))				\
	TP(pagemap, mm_lru_activate, lru, F(pfn))					\
	TP(vmscan, mm_vmscan_lru_shrink_inactive, vmscan,				\
	   F(nid) F(nr_scanned) F(nr_reclaimed) F(nr_activate0) F(nr_activate1)		\
	   F(priority) F(reclaim_flags))						\
	TP(vmscan, mm_vmscan_lru_shrink_active, vmscan,					\
	   F(nid) F(nr_taken) F(nr_active) F(nr_deactivated) F(priority) F(reclaim_flags))	\
	TP(vmscan, mm_vmscan_reclaim_pages, vmscan,					\
	   F(nid) F(nr_scanned) F(nr_reclaimed) F(nr_activate0) F(nr_activate1))	\
	TP(vmscan, mm_vmscan_direct_reclaim_begin, vmscan, F(order))			\
	TP(vmscan, mm_vmscan_direct_reclaim_end, vmscan, F(nr_reclaimed))		\
	TP(vmscan, mm_vmscan_memcg_reclaim_begin, vmscan, F(order))			\
	TP(vmscan, mm_vmscan_memcg_reclaim_end, vmscan, F(nr_reclaimed))		\
	TP(damon, damon_aggregated, damon,						\
	   F(target_id) F(start) F(end) F(nr_accesses) F(age))

#define RF_TP_MAX_FIELDS 8

#define RF_TP_GROUP_ID_(g) RF_TPG_##g,
enum rf_tp_group { RF_TP_GROUPS(RF_TP_GROUP_ID_) RF_TPG_MAX };

#define RF_TP_ID_(system, event, group, fields) TP_##event,
enum rf_tp_id { RF_TRACEPOINTS(RF_TP_ID_, ) TP_MAX };

/*
 * One struct per tracepoint with a char member per field, in the row's order:
 * a field's offset is its index.  Never instantiated.
 */
#define RF_TP_FIELD_(field) char field;
#define RF_TP_FIELDS_(system, event, group, fields)					\
	struct rf_tpf_##event { fields };						\
	_Static_assert(sizeof(struct rf_tpf_##event) <= RF_TP_MAX_FIELDS,		\
		       #event ": more fields than RF_TP_MAX_FIELDS");
RF_TRACEPOINTS(RF_TP_FIELDS_, RF_TP_FIELD_)

/* The index of @field of tracepoint @event (a compile error if it has none). */
#define TPF(event, field) ((int)offsetof(struct rf_tpf_##event, field))
/*
 * The same for code that reads records of either of two tracepoints: @field
 * must be at one index in both (a compile error otherwise).
 */
#define TPF_SAME(a, b, field)									\
	(TPF(a, field) + 0 * (int)sizeof(char[TPF(a, field) == TPF(b, field) ? 1 : -1]))

struct rf_tp_desc {
	const char *system;
	const char *name;
	enum rf_tp_group group;		/* --events group it belongs to */
	const char *fields[RF_TP_MAX_FIELDS];
};

/* Where a number field sits in a raw record: from the format file, at start-up. */
struct rf_tp_num {
	uint16_t offset;
	uint8_t size;		/* 1, 2, 4 or 8; 0: let libtraceevent read it */
};

/*
 * One enabled tracepoint: its format, resolved once at start-up.  Its records
 * come from the tracepoint, or from a kprobe event of the same name and
 * fields in group @system (kprobes.c) on a kernel without it.
 */
struct rf_tp {
	const struct rf_tp_desc *desc;
	const char *system;		/* desc->system, or the kprobe group */
	struct tep_event *event;
	struct tep_format_field *field[RF_TP_MAX_FIELDS];
	struct rf_tp_num num[RF_TP_MAX_FIELDS];
	bool enabled;
};

/* The set of tracepoints a recording uses, and the id -> tracepoint map. */
struct rf_tp_set {
	struct rf_tp tp[TP_MAX];
	struct tep_format_field *common_type;
	struct tep_format_field *common_pid;
	struct rf_tp_num type_num;
	struct rf_tp_num pid_num;
	uint16_t *by_id;		/* event id -> enum rf_tp_id + 1, 0 = not ours */
	int max_id;
};

const struct rf_tp_desc *rec_tp_desc(enum rf_tp_id id);
const char *rec_tp_group_name(enum rf_tp_group group);
/* Select from an --events list (NULL = all groups but damon): sets @want[id]. */
int rec_tp_select(const char *list, bool want[TP_MAX], char *msg, size_t len);
/*
 * Resolve formats of the wanted events in @tep; missing ones are left
 * disabled.  @system[id], if @system and it are not NULL, is where event
 * @id is (a kprobe group) instead of its tracepoint's system.
 */
int rec_tp_resolve(struct rf_tp_set *set, struct tep_handle *tep, const bool want[TP_MAX],
		   const char *const *system, char *msg, size_t len);
void rec_tp_set_free(struct rf_tp_set *set);
/* The tracepoint of a raw record, or NULL; @pid gets common_pid. */
const struct rf_tp *rec_tp_of(const struct rf_tp_set *set, const void *data, int32_t *pid);
/* A number field (TPF()), zero-extended (as tep_read_number_field() would read it). */
uint64_t rec_tp_u64_slow(const struct rf_tp *tp, int field, const void *data);

/*
 * Every record goes through this several times: read fields of the host's byte order
 * straight from the offsets the format file gave, without a call into libtraceevent.
 */
static inline uint64_t rec_tp_num_read(struct rf_tp_num n, const void *data)
{
	const unsigned char *p = (const unsigned char *)data + n.offset;
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (n.size) {
	case 1: return *p;
	case 2: __builtin_memcpy(&v2, p, 2); return v2;
	case 4: __builtin_memcpy(&v4, p, 4); return v4;
	default: __builtin_memcpy(&v8, p, 8); return v8;
	}
}

static inline uint64_t rec_tp_u64(const struct rf_tp *tp, int field, const void *data)
{
	if (tp->num[field].size)
		return rec_tp_num_read(tp->num[field], data);
	return rec_tp_u64_slow(tp, field, data);
}
/* Copy a string field (TPF(); fixed array or __data_loc) into @buf, NUL-terminated. */
const char *rec_tp_str(const struct rf_tp *tp, int field, const void *data, int size,
		       char *buf, size_t len);

#endif /* REFAULT_RECORDER_TP_H */
