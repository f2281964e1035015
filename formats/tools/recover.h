/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace recover`: a truncated or damaged trace rebuilt.  The frames
 * are walked without the index, past damage (the reader looks for the next
 * zstd magic number); every chunk that decompresses with a good checksum
 * and decodes is copied verbatim into a new trace with a fresh index and
 * footer.
 */
#ifndef REFAULT_FORMATS_TOOLS_RECOVER_H
#define REFAULT_FORMATS_TOOLS_RECOVER_H

#include "formats/tools/tools.h"

struct rf_tools_recover_result {
	uint64_t good_chunks;
	uint64_t good_events;
	uint64_t bad_frames;	/* damaged frames skipped */
	uint64_t bad_bytes;	/* sizes of the frames that failed to decode */
	uint64_t good_end;	/* end of the last good chunk */
	uint64_t file_size;	/* of the input */
	bool had_index;		/* the input ends with a sound index and footer */
	uint64_t indexed_events;	/* events the old index lists */
};

/*
 * rf_tools_recover() - copy the good chunks of the trace @in to a new trace
 * @out (lib/outfile.h: not written at all on failure), into @res
 *
 * Each damaged frame is said (the first 50, then "more damage not shown").
 * Return: 0 when at least one chunk was recovered and @out written, else a
 * negative rf_err after a message (RF_ERR_CORRUPT: no good chunk found).
 */
RF_API int rf_tools_recover(const char *in, const char *out, struct rf_tools_recover_result *res,
			    const struct rf_tools_log *log);

#endif /* REFAULT_FORMATS_TOOLS_RECOVER_H */
