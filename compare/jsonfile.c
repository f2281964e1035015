/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <refault/errors.h>

#include "compare/jsonfile.h"

static int slurp(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return RF_ERR_IO;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		fclose(f);
		return RF_ERR_IO;
	}
	if ((unsigned long long)st.st_size > RF_JSON_MAX_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes, over the %llu a JSON input may have", path,
			 (long long)st.st_size, (unsigned long long)RF_JSON_MAX_BYTES);
		fclose(f);
		return RF_ERR_TOO_LARGE;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		fclose(f);
		return RF_ERR_NOMEM;
	}
	n = fread(*buf, 1, (size_t)st.st_size, f);
	fclose(f);
	(*buf)[n] = '\0';
	*len = n;
	return 0;
}

static const char *type_name(json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

int rf_json_read_object(const char *path, const char *what, json_object **out, char *err,
			size_t errlen)
{
	static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	struct json_tokener *tok;
	json_object *root = NULL;
	enum json_tokener_error e;
	size_t len, off;
	char *buf;
	int rc;

	*out = NULL;
	rc = slurp(path, &buf, &len, err, errlen);
	if (rc)
		return rc;
	if (len >= 4 && !memcmp(buf, zstd_magic, 4)) {
		snprintf(err, errlen, "%s is a refault trace, not JSON: this wants %s (from "
			 "'refault replay TRACE -o RESULTS.json')", path, what);
		free(buf);
		return RF_ERR_CORRUPT;
	}
	tok = json_tokener_new_ex(RF_JSON_MAX_DEPTH);
	if (!tok) {
		free(buf);
		return RF_ERR_NOMEM;
	}
	root = json_tokener_parse_ex(tok, buf, (int)(len > (size_t)INT32_MAX ? INT32_MAX : len));
	e = json_tokener_get_error(tok);
	off = json_tokener_get_parse_end(tok);
	rc = RF_ERR_CORRUPT;
	if (e == json_tokener_continue)
		snprintf(err, errlen, "%s: not JSON: it ends inside a value (at byte %zu)", path, len);
	else if (e != json_tokener_success)
		snprintf(err, errlen, "%s: not JSON at byte %zu: %s", path, off,
			 json_tokener_error_desc(e));
	else if (off + strspn(buf + off, " \t\r\n") < len)
		snprintf(err, errlen, "%s: more than one JSON value (the second at byte %zu)", path,
			 off + strspn(buf + off, " \t\r\n"));
	else if (!json_object_is_type(root, json_type_object))
		snprintf(err, errlen, "%s: a JSON %s, not an object: this wants %s", path,
			 type_name(root), what);
	else
		rc = 0;
	json_tokener_free(tok);
	free(buf);
	if (rc) {
		json_object_put(root);
		return rc;
	}
	*out = root;
	return 0;
}
