/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The trace tools' library (formats/tools/) as a program other than the
 * refault command calls it: convert, dump, verify, slice and recover do
 * their work, return an error code when it fails, and say what they have to
 * say through the caller's struct rf_tools_log, the same words the command
 * prints, never on standard error (which this test watches) and never by
 * exiting.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/tools/convert.h"
#include "formats/tools/dump.h"
#include "formats/tools/recover.h"
#include "formats/tools/slice.h"
#include "formats/tools/verify.h"
#include "tests/lib/tap.h"

#define MAX_SAID 64

/* What the tools said: each message, and its kind. */
struct said {
	size_t nr;
	enum rf_tools_say kind[MAX_SAID];
	char *text[MAX_SAID];
};

static void say(void *arg, enum rf_tools_say kind, const char *text)
{
	struct said *s = arg;

	if (s->nr < MAX_SAID) {
		s->kind[s->nr] = kind;
		s->text[s->nr++] = strdup(text);
	}
}

static void forget(struct said *s)
{
	while (s->nr)
		free(s->text[--s->nr]);
}

static char dir[64];

static const char *in_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static size_t lines_of(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* small.jsonl to a trace: the sink's note, nothing else; a bad csv: the error, its words. */
static void test_convert(const char *jsonl, const char *trace, struct rf_tools_log *log,
			 struct said *s)
{
	struct rf_tools_convert_opts o = { .in = jsonl, .out = trace, .from = RF_TOOLS_JSONL };
	char csv[128], out[128], want[512];
	int rc;

	rc = rf_tools_convert(&o, log);
	snprintf(want, sizeof(want), "%s: 13 events", trace);
	ok(rc == 0 && s->nr == 1 && s->kind[0] == RF_TOOLS_NOTE && !strcmp(s->text[0], want),
	   "convert jsonl -> trace: 0, and one note, \"OUT: 13 events\" (%zu said: %s)", s->nr,
	   s->nr ? s->text[0] : "");
	forget(s);

	in_dir(csv, sizeof(csv), "bad.csv");
	write_file(csv, "time,obj_id,size,op\n1,2,4096,read\n2,x,4096,read\n");
	o = (struct rf_tools_convert_opts){ .in = csv, .out = in_dir(out, sizeof(out), "bad.rft"),
					    .from = RF_TOOLS_CSV, .to = RF_TOOLS_TRACE };
	rc = rf_tools_convert(&o, log);
	snprintf(want, sizeof(want), "%s: line 3: expected numbers in the time, obj_id and size "
		 "columns", csv);
	ok(rc < 0 && s->nr >= 1 && s->kind[0] == RF_TOOLS_ERROR && !strcmp(s->text[0], want),
	   "a bad csv line: an error code, and the error naming the file and the line");
	ok(access(out, F_OK) == 0, "... the requests before it written (the output committed)");
	forget(s);

	rc = rf_tools_convert(&o, NULL);
	ok(rc < 0, "a log that says nothing: the same error code, nothing said anywhere");
}

static void test_dump(const char *trace, struct rf_tools_log *log, struct said *s)
{
	struct rf_tools_filter f;
	struct rf_tools_dump_opts o = { .path = trace, .names = true, .limit = UINT64_MAX,
					.filter = &f };
	struct rf_trace_reader *r = rf_tools_open(log, trace, 0);
	char *text = NULL;
	size_t len = 0;
	bool damaged = true;
	FILE *mem = open_memstream(&text, &len);
	int rc;

	rf_tools_filter_init(&f);
	rc = r && mem ? rf_tools_dump(r, &o, mem, log, &damaged) : -1;
	if (mem)
		fclose(mem);
	ok(rc == 0 && !damaged && text && lines_of(text) == 13 && s->nr == 0,
	   "dump: the 13 events on the stream given, one a line, nothing said");
	ok(text && strstr(text, "file_read") && strstr(text, "comm=\""),
	   "... as text, with the names the events gave (comm=)");
	free(text);
	rf_trace_reader_close(r);
	ok(rf_tools_filter_option(&f, log, "type", "nosuch") == -1 && s->nr == 1 &&
	   s->kind[0] == RF_TOOLS_ERROR && !strncmp(s->text[0], "--type: unknown event type "
						      "'nosuch' (", 27),
	   "a bad --type: -1 and the error, through the log");
	forget(s);
	rf_tools_filter_free(&f);
}

/* A copy of @trace cut short: verify sees problems, recover keeps the good chunks. */
static void test_damage(const char *trace, struct rf_tools_log *log, struct said *s)
{
	struct rf_tools_verify_result v;
	struct rf_tools_recover_result rec;
	char cut[128], out[128], cmd[512];
	struct stat st;
	int rc;

	rc = rf_tools_verify(trace, &v, log);
	ok(rc == 0 && v.problems == 0 && v.events == 13 && s->nr == 0,
	   "verify of a whole trace: no problem, 13 events, nothing said");
	in_dir(cut, sizeof(cut), "cut.rft");
	if (stat(trace, &st) == 0)
		snprintf(cmd, sizeof(cmd), "head -c %lld '%s' > '%s'", (long long)st.st_size - 10,
			 trace, cut);
	ok(system(cmd) == 0, "a copy without its last 10 bytes");
	rc = rf_tools_verify(cut, &v, log);
	ok(v.problems > 0 && s->nr == v.problems && s->kind[0] == RF_TOOLS_NOTE &&
	   !strncmp(s->text[0], cut, strlen(cut)),
	   "verify of it: each problem a note naming the file (%zu notes, %llu problems, rc %d)",
	   s->nr, (unsigned long long)v.problems, rc);
	forget(s);
	rc = rf_tools_recover(cut, in_dir(out, sizeof(out), "rec.rft"), &rec, log);
	ok(rc == 0 && rec.good_chunks == 1 && rec.good_events == 13 && !rec.had_index,
	   "recover of it: the good chunk and its 13 events, into a new trace");
	forget(s);
}

static void test_slice(const char *trace, struct rf_tools_log *log, struct said *s)
{
	struct rf_tools_slice_result res;
	struct rf_tools_filter f;
	struct rf_trace_reader *r = rf_tools_open(log, trace, 0);
	char out[128];
	int rc = -1;

	rf_tools_filter_init(&f);
	if (r && rf_tools_filter_option(&f, log, "type", "file_read") == 1 &&
	    !rf_tools_filter_resolve(&f, log, r))
		rc = rf_tools_slice(r, trace, in_dir(out, sizeof(out), "slice.rft"), &f, &res, log);
	ok(rc == 0 && res.written && res.kept >= 2 && s->nr == 0,
	   "slice --type file_read: written, %llu events kept, nothing said",
	   (unsigned long long)res.kept);
	rf_tools_filter_free(&f);
	rf_trace_reader_close(r);
	forget(s);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	struct said s = { 0 };
	struct rf_tools_log log = { say, &s };
	char jsonl[4096], trace[128], errpath[128];
	int saved, fd;
	struct stat st;

	plan(13);
	snprintf(jsonl, sizeof(jsonl), "%s/tests/cli/data/small.jsonl", top ? top : ".");
	snprintf(dir, sizeof(dir), "%s/tracetools.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		 "/tmp");
	if (!mkdtemp(dir))
		return 1;
	/* standard error into a file of its own: the library must leave it empty */
	in_dir(errpath, sizeof(errpath), "stderr");
	fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	saved = dup(STDERR_FILENO);
	if (fd < 0 || saved < 0 || dup2(fd, STDERR_FILENO) < 0)
		return 1;
	close(fd);
	test_convert(jsonl, in_dir(trace, sizeof(trace), "small.rft"), &log, &s);
	test_dump(trace, &log, &s);
	test_damage(trace, &log, &s);
	test_slice(trace, &log, &s);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	ok(stat(errpath, &st) == 0 && st.st_size == 0,
	   "nothing written to standard error by the library (%lld bytes)", (long long)st.st_size);
	snprintf(jsonl, sizeof(jsonl), "rm -rf '%s'", dir);
	if (system(jsonl))
		return 1;
	return done_testing();
}
