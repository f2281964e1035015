/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Small language helpers every part of refault uses.  No functions, no state.
 */
#ifndef REFAULT_LIB_COMPILER_H
#define REFAULT_LIB_COMPILER_H

#include <stddef.h>

/* The number of elements of a true array (a compile error for a pointer, as the kernel's). */
#define RF_MUST_BE_ARRAY(a) \
	(sizeof(char[1 - 2 * __builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))]) - 1)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + RF_MUST_BE_ARRAY(a))

#define RF_MIN(a, b) ((a) < (b) ? (a) : (b))
#define RF_MAX(a, b) ((a) > (b) ? (a) : (b))

#define rf_likely(x) __builtin_expect(!!(x), 1)
#define rf_unlikely(x) __builtin_expect(!!(x), 0)
/* a function kept out of its caller: the caller's fast path then pays none of its prologue */
#define rf_noinline __attribute__((noinline))

#endif /* REFAULT_LIB_COMPILER_H */
