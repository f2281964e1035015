/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading a JSON file that a person or a program supplied (a results file,
 * an LKP stats.json): bounded, and with an error that says where and what.
 * (Here and not in lib/: the installed libraries take lib/ whole, and do
 * not link json-c for it.)  librefault-compare's, read by librefault-sweep
 * and librefault-report too: RF_API.
 */
#ifndef REFAULT_COMPARE_JSONFILE_H
#define REFAULT_COMPARE_JSONFILE_H

#include <stddef.h>

#include <json-c/json.h>

#include <refault/api.h>

/* The largest file read (bytes) and the deepest nesting accepted. */
#define RF_JSON_MAX_BYTES	(1ull << 31)
#define RF_JSON_MAX_DEPTH	64

/*
 * rf_json_read_object() - parse @path, whose root must be a JSON object
 * @what: what the file should be, for messages ("a refault results file or
 *        an LKP stats.json/matrix.json")
 * Return: 0 with *@out owned by the caller (json_object_put()), or a negative
 * rf_err with a message naming @path and, for bad JSON, the byte offset:
 * RF_ERR_IO (unreadable), RF_ERR_TOO_LARGE (over RF_JSON_MAX_BYTES),
 * RF_ERR_CORRUPT (not JSON, nested too deep, more than one value, not an
 * object, or a refault trace given where JSON was expected).
 */
RF_API int rf_json_read_object(const char *path, const char *what, json_object **out, char *err,
			       size_t errlen);

/* The member @key of object @o if it is of @type; NULL otherwise (or when @o is NULL). */
static inline json_object *rf_json_get(json_object *o, const char *key, enum json_type type)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

#endif /* REFAULT_COMPARE_JSONFILE_H */
