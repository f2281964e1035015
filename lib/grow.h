/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Growing an array in place: the one realloc-growth rule of the tree.
 *
 *	struct item *items; size_t nr, cap;
 *	if (RF_GROW(items, cap, nr + 1))
 *		return RF_ERR_NOMEM;
 *	items[nr++] = x;
 *
 * The capacity grows by half again (at least to what is asked, at least 8
 * elements), so a long run of appends costs amortised O(1) and leaves at
 * most a third of the array unused.  On failure (no memory, or a size that
 * would overflow size_t) nothing changes and the old array stays valid.
 * New elements are not initialised.
 */
#ifndef REFAULT_LIB_GROW_H
#define REFAULT_LIB_GROW_H

#include <stddef.h>

/*
 * rf_grow() - make room for @need elements of @size bytes
 * @pp: address of the array pointer (any object pointer type; NULL for none yet)
 * @cap: its capacity in elements, updated
 * Return: 0, or RF_ERR_NOMEM.
 */
int rf_grow(void *pp, size_t *cap, size_t need, size_t size);

/* The same, zeroing the elements it adds (from the old capacity on). */
int rf_grow_zero(void *pp, size_t *cap, size_t need, size_t size);

#define RF_GROW(arr, cap, need) rf_grow(&(arr), &(cap), (need), sizeof(*(arr)))
#define RF_GROW_ZERO(arr, cap, need) rf_grow_zero(&(arr), &(cap), (need), sizeof(*(arr)))

#endif /* REFAULT_LIB_GROW_H */
