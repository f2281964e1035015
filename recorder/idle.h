/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --idle-pages (idle.c): scans of the recorded processes' mapped pages for
 * the accessed bits that raise no fault, by idle page tracking, written as
 * pte_young events.
 */
#ifndef REFAULT_RECORDER_IDLE_H
#define REFAULT_RECORDER_IDLE_H

#include <stddef.h>
#include <stdint.h>

struct rf_norm;
struct rec_idle;

struct rf_idle_stats {
	uint64_t scans;
	uint64_t pages;		/* present pages scanned, over all scans */
	uint64_t young;		/* of them found accessed since the scan before */
	uint64_t ns;		/* the scans' time */
};

/*
 * Open the idle page bitmap (read-write: root); 0, or a negative errno with
 * @msg saying why (no CONFIG_IDLE_PAGE_TRACKING: ENOENT).
 */
int rec_idle_open(struct rec_idle **out, char *msg, size_t len);
/*
 * One scan of every process of @n's scope: pte_young events (through
 * rec_norm_emit()) for the pages accessed since the scan before, then every
 * present page marked idle for the next.  The first scan only marks.
 */
int rec_idle_scan(struct rec_idle *ix, struct rf_norm *n);
const struct rf_idle_stats *rec_idle_stats(const struct rec_idle *ix);
void rec_idle_free(struct rec_idle *ix);

#endif /* REFAULT_RECORDER_IDLE_H */
