/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Chunk encoding 3 (format 3.0): a chunk's events as columns; what
 * columns_encode.c and columns_decode.c share.
 *
 * After the chunk's header map comes one more map: the columns every event
 * has ("type", "time" in the chunk's time units, "cpu", "pid"), then per
 * event type present a map of its fields (schema.c's names and order), each
 * a column of the values of that type's events, in event order.  A column
 * is [mode, width, base, step, data] (docs/trace-format.md), of codes c:
 *
 *   mode 0  plain: value = base + c (modulo 2^64; the writer's base is the
 *           least value, a frame of reference)
 *   mode 1  delta: value = previous value + step + unzigzag(c), the first's
 *           previous being base (the writer's step is the middle of the
 *           differences)
 *   mode 2  delta per slot: as 1, one register per (the type's first
 *           field) mod 16, each from base (anon_fault's addr by its mm)
 *   mode 3  values: data is an array of msgpack values (strings, stack
 *           frames, counter maps)
 *   width 0      data is one unsigned integer: every code is it
 *   width 1..8   data is a bin of width byte planes: plane k holds byte k
 *                (least significant first) of every code
 *
 * So a column of a sequential stream (every step the same) is five small
 * integers whatever the chunk's length, and the others decode in loops of a
 * few hundred values with no branch per value: decoding is bounded by zstd
 * and by the writes of the events.  The writer picks per column the mode
 * whose codes need the fewest bits (plain for random keys, whose
 * differences need one more bit each; delta for streams).
 */
#ifndef REFAULT_FORMAT_COLUMNS_H
#define REFAULT_FORMAT_COLUMNS_H

#include "formats/format-local.h"

enum { COL_TYPE, COL_TIME, COL_CPU, COL_PID, COL_COMMON };
/* The columns every event has, in the order the writer writes them. */
static const char *const fmt_col_common_names[COL_COMMON] = { "type", "time", "cpu", "pid" };

enum { MODE_PLAIN, MODE_DELTA, MODE_SLOT, MODE_VALUES, MODE_NR };
#define COL_SLOTS		16u
/* Events assembled at a time: the block's values and events stay in L1/L2. */
#define COL_BLOCK	256

static inline uint64_t zz(uint64_t v)
{
	return v << 1 ^ (uint64_t)((int64_t)v >> 63);
}

static inline uint64_t unzz(uint64_t c)
{
	return c >> 1 ^ (0 - (c & 1));
}

/* Bytes of @v, 0 for 0. */
static inline unsigned int bytes_of(uint64_t v)
{
	return v ? (unsigned int)(64 - __builtin_clzll(v) + 7) / 8 : 0;
}

static inline unsigned int bits_of(uint64_t v)
{
	return v ? (unsigned int)(64 - __builtin_clzll(v)) : 0;
}

static inline bool field_is_int(const struct fmt_field *f)
{
	return f->kind != RF_FK_STR && f->kind != RF_FK_FRAMES && f->kind != RF_FK_COUNTERS;
}

#endif /* REFAULT_FORMAT_COLUMNS_H */
