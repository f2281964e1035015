/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The verb as a library: rf_compare_verb() (compare/compare.h) called as a
 * program calls it, with an options struct and a log, without the refault
 * command.  Its messages come through the log, whole, of the kind the command
 * prints them by, escaped for a terminal, in order with its output (flushed
 * before each message); nothing reaches the standard output or error; the
 * statuses are the command's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/compare.h"
#include "tests/lib/tap.h"

#define RESULTS(fp, refaults, lost)							\
	"{\"format\":\"refault-results\",\"version\":[1,0],\"trace\":{\"path\":\"t.rft\","	\
	"\"fingerprint\":\"" fp "\",\"events\":10,\"lost_events\":" lost "},"		\
	"\"configs\":[{\"name\":\"v4.6\",\"profile\":\"v4.6\",\"stats\":{"		\
	"\"vmstat.workingset_refault_file\":" refaults ",\"vmstat.pgscan_kswapd\":1000,"	\
	"\"cost.estimated_ns\":12345}}]}"

/* What the log was told: each message, its kind, and how much output preceded it. */
struct said {
	enum rf_compare_say kind[16];
	char *text[16];
	long out_before[16];
	size_t n;
	FILE *out;
};

static void say(void *arg, enum rf_compare_say kind, const char *text)
{
	struct said *s = arg;
	struct stat st;

	if (s->n == 16)
		return;
	s->kind[s->n] = kind;
	s->text[s->n] = strdup(text);
	s->out_before[s->n] = fstat(fileno(s->out), &st) ? -1 : (long)st.st_size;
	s->n++;
}

static void said_reset(struct said *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->text[i]);
	s->n = 0;
}

static int stray;		/* bytes the last run wrote to the standard output or error */

/*
 * rf_compare_verb(@o) with its output into a fresh file (@s->out) and the
 * standard output and error into a memfd, counted in @stray.
 */
static int run(struct rf_compare_opts *o, struct said *s, bool with_log)
{
	struct rf_compare_log log = { say, s };
	int sink = memfd_create("stdio", MFD_CLOEXEC), out_fd, err_fd, rc;

	said_reset(s);
	if (s->out)
		fclose(s->out);
	s->out = tmpfile();
	if (sink < 0 || !s->out)
		abort();
	o->out = s->out;
	fflush(stdout);
	out_fd = dup(STDOUT_FILENO);
	err_fd = dup(STDERR_FILENO);
	dup2(sink, STDOUT_FILENO);
	dup2(sink, STDERR_FILENO);
	rc = rf_compare_verb(o, with_log ? &log : NULL);
	fflush(stdout);
	fflush(stderr);
	dup2(out_fd, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	close(out_fd);
	close(err_fd);
	stray = (int)lseek(sink, 0, SEEK_END);
	close(sink);
	fflush(s->out);
	return rc;
}

static char *output(struct said *s)
{
	static char buf[65536];
	size_t n;

	rewind(s->out);
	n = fread(buf, 1, sizeof(buf) - 1, s->out);
	buf[n] = '\0';
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static long out_size(struct said *s)
{
	struct stat st;

	return fstat(fileno(s->out), &st) ? -1 : (long)st.st_size;
}

static void test_table_and_gate(struct said *s)
{
	char *specs[] = { "a.json", "b.json" };
	struct rf_compare_opts o = { .specs = specs, .nspecs = 2 };
	int rc;

	ok(!rf_compare_opts_add_gate(&o, "workingset_refault_file > +5%", NULL),
	   "a good gate is added");
	rc = run(&o, s, true);
	is_int(rc, RF_COMPARE_EXIT_GATE, "a gate that trips: status 3");
	ok(strstr(output(s), "%change") && strstr(output(s), "workingset_refault_file"),
	   "the table goes to the caller's FILE");
	is_int(stray, 0, "nothing on the standard output or error");
	is_int(s->n, 2, "two messages: the lost records, the gate");
	ok(s->n > 0 && s->kind[0] == RF_COMPARE_LINE && s->out_before[0] == 0 &&
	   !strcmp(s->text[0], "WARNING: a.json: the kernel lost 7 records while its trace was "
		   "recorded: its numbers are short"),
	   "the lost records: a line as it is, before any output");
	ok(s->n > 1 && s->kind[1] == RF_COMPARE_MESSAGE &&
	   !strncmp(s->text[1], "gate tripped: ", 14) && s->out_before[1] == out_size(s) &&
	   s->out_before[1] > 0,
	   "the gate: a message, after the whole table was written (flushed before it)");
	rf_compare_opts_release(&o);
	ok(!o.gates && !o.ngates, "the options' gates released");
}

static void test_traces(struct said *s)
{
	char *specs[] = { "b.json", "c.json" };
	struct rf_compare_opts o = { .specs = specs, .nspecs = 2 };
	int rc = run(&o, s, true);

	is_int(rc, RF_COMPARE_EXIT_FAILURE, "sides of different traces: status 1");
	ok(s->n == 2 && s->kind[0] == RF_COMPARE_MESSAGE && s->kind[1] == RF_COMPARE_MESSAGE &&
	   !strcmp(s->text[1], "the columns would not be comparable; pass --force to compare "
		   "anyway"),
	   "the reason, then what to do");
	ok(!out_size(s) && !stray, "no output, nothing on the standard error");
	o.force = true;
	rc = run(&o, s, true);
	ok(rc == RF_COMPARE_EXIT_OK && s->n == 1 && !strncmp(s->text[0], "warning: ", 9) &&
	   out_size(s) > 0, "with force: a warning, the table, status 0");
	o.force = false;
	rc = run(&o, s, false);
	ok(rc == RF_COMPARE_EXIT_FAILURE && !stray, "no log: the same status, nothing said");
}

static void test_usage(struct said *s)
{
	char *one[] = { "b.json" }, *two[] = { "a.json", "b.json" };
	struct rf_compare_opts o = { .specs = one, .nspecs = 1 };
	int rc = run(&o, s, true);

	ok(rc == RF_COMPARE_EXIT_USAGE && s->n == 1 && s->kind[0] == RF_COMPARE_USAGE_ERROR &&
	   !strcmp(s->text[0], "need a BASE and at least one NEW side"),
	   "one side of one configuration: a usage error");
	o = (struct rf_compare_opts){ .specs = two, .nspecs = 2, .json = true, .csv = true };
	rc = run(&o, s, true);
	ok(rc == RF_COMPARE_EXIT_USAGE && s->n == 1 && s->kind[0] == RF_COMPARE_MESSAGE &&
	   !strcmp(s->text[0], "--json and --csv are exclusive"), "--json with --csv: 2");
	o = (struct rf_compare_opts){ .out = s->out };
	said_reset(s);
	rc = rf_compare_opts_add_gate(&o, "nonsense", &(struct rf_compare_log){ say, s });
	ok(rc == RF_COMPARE_EXIT_USAGE && !o.ngates && s->n == 1 &&
	   !strncmp(s->text[0], "--fail-if 'nonsense': ", 22), "a bad gate: 2, said");
	rf_compare_opts_release(&o);
}

static void test_escapes(struct said *s)
{
	char *specs[] = { "a.json:\x1b]0;owned\x07", "b.json" };
	struct rf_compare_opts o = { .specs = specs, .nspecs = 2, .export_matrix = "no/m.json" };
	int rc = run(&o, s, true);

	ok(rc == RF_COMPARE_EXIT_FAILURE && s->n == 1 && strstr(s->text[0], "\\x1b]0;owned\\x07") &&
	   !strchr(s->text[0], '\x1b'), "a spec's bytes escaped in its message");
	specs[0] = "a.json";
	rc = run(&o, s, true);
	ok(rc == RF_COMPARE_EXIT_FAILURE && s->n == 2 && strstr(s->text[1], "no/m.json"),
	   "a matrix that cannot be written: 1, the message names it");
}

int main(void)
{
	char dir[] = "/tmp/test-compare-verb.XXXXXX";
	struct said s = { .n = 0 };

	if (!mkdtemp(dir) || chdir(dir))
		return 1;
	write_file("a.json", RESULTS("00000000000000aa", "100", "7"));
	write_file("b.json", RESULTS("00000000000000aa", "150", "0"));
	write_file("c.json", RESULTS("00000000000000bb", "150", "0"));
	test_table_and_gate(&s);
	test_traces(&s);
	test_usage(&s);
	test_escapes(&s);
	said_reset(&s);
	if (s.out)
		fclose(s.out);
	unlink("a.json");
	unlink("b.json");
	unlink("c.json");
	if (chdir("/") || rmdir(dir))
		diag("%s not removed", dir);
	return done_testing();
}
