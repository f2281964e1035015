/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace verify`: the header checked by opening the trace; the
 * frames walked without the index, every chunk decompressed (zstd content
 * checksum) and decoded; the index compared with what the chunks hold.  A
 * trace is whole when all of that holds and the index and footer are
 * present.
 */
#ifndef REFAULT_FORMATS_TOOLS_VERIFY_H
#define REFAULT_FORMATS_TOOLS_VERIFY_H

#include "formats/tools/tools.h"

struct rf_tools_verify_result {
	uint64_t problems;	/* 0: whole */
	bool incomplete;	/* out of memory: no verdict */
	uint64_t chunks;	/* frames walked */
	uint64_t events;	/* in the good chunks */
	size_t good_chunks;
};

/*
 * rf_tools_verify() - check the trace @path, into @res
 *
 * Each problem is a note "PATH: what and where" (the first 50, then "PATH:
 * more problems not shown"); what stops the check is an error.
 * Return: 0 when the check ran to its end (@res->problems says whether the
 * trace is whole), else a negative rf_err (the trace cannot be read to the
 * end: not whole; with @res->incomplete, no verdict).
 */
RF_API int rf_tools_verify(const char *path, struct rf_tools_verify_result *res,
			   const struct rf_tools_log *log);

#endif /* REFAULT_FORMATS_TOOLS_VERIFY_H */
