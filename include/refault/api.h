/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RF_API marks the functions a refault library exports.  Every library is
 * built with -fvisibility=hidden, so a function without the mark stays
 * inside its library, whatever its name: a program that links librefault-*
 * sees the documented API and nothing of the model's kernel-named internals.
 */
#ifndef REFAULT_API_H
#define REFAULT_API_H

#if defined(__GNUC__) || defined(__clang__)
#define RF_API __attribute__((visibility("default")))
#else
#define RF_API
#endif

#endif /* REFAULT_API_H */
