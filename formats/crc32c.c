/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CRC-32C (Castagnoli), bitwise-reflected, for the index frame.  zstd
 * checksums its own frames but not skippable ones, and the index is small,
 * so a byte-at-a-time loop is plenty.
 */
#include "formats/format-local.h"

uint32_t fmt_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int k;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
	}
	return ~crc;
}
