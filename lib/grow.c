/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/grow.h"

static int grow(void *pp, size_t *cap, size_t need, size_t size, size_t *old_cap)
{
	size_t ncap = *cap;
	void *p, *n;

	*old_cap = *cap;
	if (need <= *cap)
		return 0;
	if (!size)
		return RF_ERR_NOMEM;
	ncap = ncap + ncap / 2;
	if (ncap < need)
		ncap = need;
	if (ncap < 8)
		ncap = 8;
	if (ncap > SIZE_MAX / size)
		ncap = need;
	if (ncap > SIZE_MAX / size)
		return RF_ERR_NOMEM;
	/* The pointer is read and written as bytes: @pp may point to any object pointer type. */
	memcpy(&p, pp, sizeof(p));
	n = realloc(p, ncap * size);
	if (!n)
		return RF_ERR_NOMEM;
	memcpy(pp, &n, sizeof(n));
	*cap = ncap;
	return 0;
}

int rf_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t old;

	return grow(pp, cap, need, size, &old);
}

int rf_grow_zero(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t old;
	char *p;
	int rc = grow(pp, cap, need, size, &old);

	if (rc || *cap == old)
		return rc;
	memcpy(&p, pp, sizeof(p));
	memset(p + old * size, 0, (*cap - old) * size);
	return 0;
}
