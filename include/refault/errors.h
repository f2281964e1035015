/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault error codes, shared by every refault library.
 *
 * Functions return 0 (or a count) on success and a negative enum rf_err on
 * failure.  The list lives in errors.def so that the enum and the messages
 * behind rf_strerror() cannot drift apart.  Codes start at -1000 so they
 * never collide with a negated errno, which functions may also return.
 */
#ifndef REFAULT_ERRORS_H
#define REFAULT_ERRORS_H

#include <refault/api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rf_err {
	RF_OK = 0,
	RF_ERR_BASE_ = -1000,
#define RF_ERROR(code, msg) RF_ERR_##code,
#include <refault/errors.def>
#undef RF_ERROR
	RF_ERR_LAST_
};

/**
 * rf_strerror() - message for a refault error code or a negated errno
 * @err: negative value returned by a refault function
 *
 * Return: a static string; never NULL, must not be freed.
 */
RF_API const char *rf_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* REFAULT_ERRORS_H */
