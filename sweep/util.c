/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the sweep's files share: messages, whole files written atomically,
 * directories, logs, and the one rule for a path written into a script.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"
#include "sweep/sweep-local.h"

void rf_sweep_shell_quote(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/* @s holds @word in any case (sbatch's own test is strcasestr()). */
static bool holds_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return true;
	return false;
}

int sweep_check_path(const char *what, const char *path, bool store, char *err, size_t errlen)
{
	const unsigned char *s = (const unsigned char *)path;
	size_t i;

	if (path[0] != '/') {
		sweep_seterr(err, errlen, "%s '%s' is not an absolute path (`refault sweep plan` "
			     "writes absolute ones: plan again)", what, path);
		return RF_ERR_INVAL;
	}
	for (i = 0; s[i]; i++) {
		if (s[i] < 0x20 || s[i] == 0x7f) {
			sweep_seterr(err, errlen, "%s '%s' holds a control character (0x%02x at "
				     "byte %zu): a sweep writes its paths into shell scripts and "
				     "command lists, one command a line; rename it", what, path, s[i],
				     i);
			return RF_ERR_INVAL;
		}
		if (s[i] == '\\') {
			sweep_seterr(err, errlen, "%s '%s' holds a backslash (byte %zu), which "
				     "shells other than sh read inside quotes and sbatch reads in "
				     "--output as 'no patterns': rename it", what, path, i);
			return RF_ERR_INVAL;
		}
	}
	if (store && (holds_word(path, "hetjob") || holds_word(path, "packjob"))) {
		sweep_seterr(err, errlen, "%s '%s' holds 'hetjob' or 'packjob' (in any case), which "
			     "sbatch reads in a #SBATCH line as the start of another job component: "
			     "rename it", what, path);
		return RF_ERR_INVAL;
	}
	return 0;
}

void sweep_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int sweep_write_file(const char *path, const char *text, char *err, size_t errlen)
{
	struct rf_outfile o;
	size_t len = strlen(text), off = 0;
	ssize_t w;
	int rc = rf_outfile_open(&o, path, 0, err, errlen);

	if (rc)
		return rc;
	while (off < len) {
		w = write(o.fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			sweep_seterr(err, errlen, "%s: %s", path, strerror(-rc));
			rf_outfile_abandon(&o);
			return rc;
		}
		off += (size_t)w;
	}
	return rf_outfile_commit(&o, err, errlen);
}

int sweep_mkdir_p(const char *path, char *err, size_t errlen)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		sweep_seterr(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		goto fail;
	return 0;
fail:
	sweep_seterr(err, errlen, "%s: cannot make the directory: %s", buf, strerror(errno));
	return -errno;
}

/* The last non-empty line among the file's last 4 KiB. */
void sweep_last_line(const char *path, char *buf, size_t len)
{
	char tail[4097], *end, *start;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size;
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0 || !len)
		goto out;
	size = lseek(fd, 0, SEEK_END);
	n = size < 0 ? -1 : pread(fd, tail, sizeof(tail) - 1, size > 4096 ? size - 4096 : 0);
	if (n <= 0)
		goto out;
	tail[n] = '\0';
	for (end = tail + n; end > tail && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ');)
		*--end = '\0';
	start = strrchr(tail, '\n');
	start = start ? start + 1 : tail;
	snprintf(buf, len, "%s", start);
	for (end = buf; *end; end++)
		if ((unsigned char)*end < 0x20)
			*end = '?';
out:
	if (fd >= 0)
		close(fd);
}
