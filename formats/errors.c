/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>
#include <string.h>

#include "formats/format-local.h"

static const char *const messages[] = {
#define RF_ERROR(code, msg) msg,
#include <refault/errors.def>
#undef RF_ERROR
};

const char *rf_strerror(int err)
{
	if (err == 0)
		return "success";
	if (err > RF_ERR_BASE_ && err < RF_ERR_LAST_)
		return messages[err - RF_ERR_BASE_ - 1];
	if (err < 0 && err > -4096)
		return strerror(-err);
	return "unknown error";
}

int fmt_fail(char *buf, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

void fmt_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (!len)
		return;
	n = src ? strnlen(src, len - 1) : 0;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}
