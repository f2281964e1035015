/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault record: capture page references, cgroup and reclaim events from
 * the running kernel into a refault trace.  The work is in librefault-record
 * (recorder/); this file parses the command line, runs the command, drives
 * the poll loop and reports.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <refault/trace.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/clock.h"
#include "lib/outfile.h"
#include "recorder/perfstack.h"
#include "recorder/record.h"

#define VERB "record"
/*
 * Event times are written rounded down to 1 us: the replay follows file order
 * (the merge of the exact timestamps), perf script and ftrace print times to
 * the microsecond, and the nanoseconds were a quarter of the trace's bytes
 * (docs/trace-format.md, "Time resolution").
 */
#define DEFAULT_TIME_RESOLUTION	1000u
#define CAP_PERFMON_BIT 38

struct record_cmd {
	struct rf_record_opts opts;
	const char *out;
	uint64_t memcg_limit;
	uint64_t time_resolution;	/* ns */
	char **argv;			/* -- COMMAND ARGS */
	int argc;
	char **all_argv;		/* the whole command line, for the header */
	int all_argc;
	bool quiet;
	bool kernel_pfns;		/* --pfns kernel: the kernel's pfns, not folio ids */
	/* run state */
	struct rf_recorder *rec;
	struct rf_trace_writer *w;
	struct rf_trace_header hdr;
	struct rf_writer_options wopts;
	struct rf_outfile out_file;	/* written under a temporary name, renamed when done */
	int out_fd;
	int close_err;			/* closing the writer failed (e.g. ENOSPC on its last chunk) */
	off_t out_size;			/* the trace's size, said once it has its name */
	bool started;			/* the recording began: what it wrote is kept */
	bool as_root;			/* --as-root: run COMMAND as root under sudo */
	bool bounded;			/* -a/-G/-p -- COMMAND: the command only says when to stop */
	uint64_t duration_ns;		/* --duration: stop after this long (0: no limit) */
	uint64_t flushed;		/* when a chunk was last written (flush_due()) */
	unsigned int since_check;	/* events since flush_due() last looked */
	int sig_fd;
	struct rf_workload *wl;		/* -- COMMAND */
	int signals;			/* stop signals received */
	char memcg_dir[4096];
	char memcg_rel[4096];
	char werr[512];
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault record [-a | -G CGROUP | -p PID] [options] [-- COMMAND ARGS...]\n"
		"\n"
		"Record page references, cgroup and reclaim events of the running kernel.\n"
		"\n"
		"  -a                      every task on the system (the default without a command)\n"
		"  -G, --cgroup CGROUP     tasks in this memory cgroup (path below the hierarchy root)\n"
		"  -p, --pid PID           this process and the tasks it forks; stops when it exits\n"
		"  -- COMMAND ARGS         run COMMAND (no shell) and record it and what it forks; stop\n"
		"                          when it exits.  After -a, -G or -p, record that scope while\n"
		"                          COMMAND runs (as perf record -a -- sleep 5).  Under sudo it\n"
		"                          runs as the user who ran sudo\n"
		"      --duration T        stop after T (e.g. 30s, 2m); a COMMAND still running gets\n"
		"                          SIGTERM, and the recording ends when it exits\n"
		"      --as-root           under sudo, run COMMAND as root\n"
		"  -o, --output FILE       trace file (default refault.trace); written under a temporary\n"
		"                          name and renamed when the recording ends, the file it\n"
		"                          replaces kept as FILE.old; under sudo created as the user\n"
		"  -m, --buffer-size SIZE  ring buffer per CPU (default 8M)\n"
		"      --memcg-limit SIZE  run COMMAND in a fresh memory cgroup with this limit\n"
		"  -e, --events LIST       groups or events, comma-separated, as perf record -e (default\n"
		"                          all; --list-events names them: -e refs,vmscan)\n"
		"      --kprobes WHEN      read hits and faults from kprobe events: auto (default: where\n"
		"                          this kernel lacks the filemap tracepoints, before 6.11),\n"
		"                          always (also where it has them), never (tracepoints only)\n"
		"      --snapshot-interval T  counters and limits every T (e.g. 1s; default start and end)\n"
		"      --damon[=S,A]       sample the recorded process's accessed bits with DAMON (its\n"
		"                          kdamond, vaddr, every S; regions counted every A; default\n"
		"                          5ms,100ms): references to mapped pages that raise no fault\n"
		"      --call-graph dwarf[,SIZE]  the user call stack of every read and fault, as perf\n"
		"                          record --call-graph dwarf: SIZE bytes of stack per sample\n"
		"                          (default 8192), unwound and named on this host as it records\n"
		"  -z, --compression-level N  zstd level of the trace's chunks, 1 (fastest) to 19\n"
		"                          (smallest; default 3: a few ns an event, see docs/recording.md)\n"
		"      --time-resolution NS  write event times rounded down to NS nanoseconds (default 1000:\n"
		"                          the microseconds perf script and ftrace print; 1 keeps every\n"
		"                          nanosecond at ~1.5x the bytes; event order is kept either way)\n"
		"      --pfns MODE         what identifies a folio in the page-cache and LRU events:\n"
		"                          ids (default: numbered 1, 2, ... as first seen; a half to\n"
		"                          three quarters of the bytes) or kernel (the page frame\n"
		"                          numbers the kernel chose)\n"
		"      --tracefs DIR       tracefs mount (default: found by libtracefs)\n"
		"      --list-events       print the groups and events and exit\n"
		"  -q, --quiet             no summary\n"
		"\n"
		"Needs root, or CAP_PERFMON with write access to tracefs.  SIGINT, SIGTERM or SIGHUP\n"
		"stop the recording (a COMMAND gets the signal first, its whole process group; a\n"
		"second one kills it); the trace is complete either way.  SIGINT and SIGTERM do so\n"
		"even when the recorder was started with them ignored (a shell's background job):\n"
		"it and COMMAND start with their default actions.  A SIGHUP ignored at the start\n"
		"(nohup) stays ignored, for both.\n"
		"Exit status: 0 recorded, 1 failed, 2 bad command line.\n");
}

enum {
	OPT_MEMCG = 256, OPT_SNAP, OPT_TRACEFS, OPT_LIST, OPT_TIMERES, OPT_AS_ROOT,
	OPT_DURATION, OPT_KPROBES, OPT_DAMON, OPT_CALL_GRAPH, OPT_PFNS,
};

static const struct option longopts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "pid", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "buffer-size", required_argument, NULL, 'm' },
	{ "memcg-limit", required_argument, NULL, OPT_MEMCG },
	{ "events", required_argument, NULL, 'e' },
	{ "snapshot-interval", required_argument, NULL, OPT_SNAP },
	{ "time-resolution", required_argument, NULL, OPT_TIMERES },
	{ "compression-level", required_argument, NULL, 'z' },
	{ "pfns", required_argument, NULL, OPT_PFNS },
	{ "tracefs", required_argument, NULL, OPT_TRACEFS },
	{ "list-events", no_argument, NULL, OPT_LIST },
	{ "as-root", no_argument, NULL, OPT_AS_ROOT },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "kprobes", required_argument, NULL, OPT_KPROBES },
	{ "damon", optional_argument, NULL, OPT_DAMON },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int bad(const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, arg);
	rf_err(VERB, "%s", msg);
	return RF_EXIT_USAGE;
}

static int set_scope(struct record_cmd *c, enum rf_record_scope s, int *nscopes)
{
	c->opts.scope = s;
	return ++*nscopes > 1 ? bad("%s", "-a, -G and -p exclude each other (a -- COMMAND may follow "
				    "one of them)") : 0;
}

/* --damon[=SAMPLE,AGGR]: DAMON's sampling and aggregation intervals, in microseconds. */
static int parse_damon(struct record_cmd *c, const char *arg)
{
	char buf[64], *comma;
	uint64_t s = 5000ull * 1000, a = 100000ull * 1000;

	if (arg) {
		snprintf(buf, sizeof(buf), "%s", arg);
		comma = strchr(buf, ',');
		if (comma)
			*comma = '\0';
		if (strlen(arg) >= sizeof(buf) || rf_parse_duration(buf, &s) ||
		    (comma && rf_parse_duration(comma + 1, &a)))
			return bad("invalid --damon '%s' (SAMPLE,AGGR, e.g. 5ms,100ms)", arg);
	}
	if (s < 1000 || a < s || a / s > 1000000)
		return bad("invalid --damon '%s' (the sampling interval at least 1us, the aggregation "
			   "one at least that and at most a million of them)", arg ?: "");
	c->opts.damon_sample_us = s / 1000;
	c->opts.damon_aggr_us = a / 1000;
	return 0;
}

/* --call-graph dwarf[,SIZE], as perf record's (frame pointers and LBR are not offered). */
static int parse_call_graph(struct record_cmd *c, const char *arg)
{
	uint64_t size = RF_STACK_BYTES_DEFAULT;
	const char *comma = strchr(arg, ',');

	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
		return bad("--call-graph '%s': only dwarf[,SIZE] is supported (DWARF unwinding of a "
			   "copy of the user stack; frame pointers are not needed)", arg);
	if (comma && (rf_parse_size(comma + 1, &size) || size < 8 || size > RF_STACK_BYTES_MAX))
		return bad("--call-graph '%s': SIZE is bytes of stack per sample, 8 to 65528 "
			   "(e.g. dwarf,16K)", arg);
	c->opts.stack_bytes = (uint32_t)(size + 7) / 8 * 8;
	if (c->opts.stack_bytes > RF_STACK_BYTES_MAX)
		c->opts.stack_bytes = RF_STACK_BYTES_MAX;
	return 0;
}

static int parse_opt(struct record_cmd *c, int opt, int *nscopes)
{
	uint64_t v;
	char msg[512];

	switch (opt) {
	case 'a': return set_scope(c, RF_SCOPE_ALL, nscopes);
	case 'G': c->opts.cgroup = optarg; return set_scope(c, RF_SCOPE_CGROUP, nscopes);
	case 'p':
		if (rf_parse_u64(optarg, &v) || !v || v > INT32_MAX)
			return bad("invalid pid '%s'", optarg);
		c->opts.pid = v;
		return set_scope(c, RF_SCOPE_PID, nscopes);
	case 'o': c->out = optarg; return 0;
	case 'm':
		if (rf_parse_size(optarg, &v) || v < 4096)
			return bad("invalid --buffer-size '%s' (at least 4K, e.g. 8M)", optarg);
		c->opts.buffer_bytes = v;
		return 0;
	case OPT_MEMCG:
		if (rf_parse_size(optarg, &v) || !v)
			return bad("invalid --memcg-limit '%s' (e.g. 256M)", optarg);
		c->memcg_limit = v;
		return 0;
	case 'e':
		if (rf_record_check_events(optarg, msg, sizeof(msg)))
			return bad("%s", msg);
		c->opts.events = optarg;
		return 0;
	case OPT_SNAP:
		if (rf_parse_duration(optarg, &v) || !v)
			return bad("invalid --snapshot-interval '%s' (e.g. 1s, 500ms)", optarg);
		c->opts.snapshot_ns = v;
		return 0;
	case OPT_TIMERES:
		if (rf_parse_u64(optarg, &v) || !v || v > RF_MAX_TIME_RESOLUTION)
			return bad("invalid --time-resolution '%s' (nanoseconds, 1 to 1000000000)", optarg);
		c->time_resolution = v;
		return 0;
	case 'z': return rf_parse_compression_level(VERB, optarg, &c->wopts.level);
	case OPT_TRACEFS: c->opts.tracefs_dir = optarg; return 0;
	case OPT_AS_ROOT: c->as_root = true; return 0;
	case OPT_DURATION:
		if (rf_parse_duration(optarg, &v) || !v)
			return bad("invalid --duration '%s' (e.g. 30s, 2m)", optarg);
		c->duration_ns = v;
		return 0;
	case OPT_KPROBES:
		if (!strcmp(optarg, "auto"))
			c->opts.kprobes = RF_KPROBES_AUTO;
		else if (!strcmp(optarg, "always"))
			c->opts.kprobes = RF_KPROBES_ALWAYS;
		else if (!strcmp(optarg, "never"))
			c->opts.kprobes = RF_KPROBES_NEVER;
		else
			return bad("invalid --kprobes '%s' (auto, always or never)", optarg);
		return 0;
	case OPT_PFNS:
		if (strcmp(optarg, "ids") && strcmp(optarg, "kernel"))
			return bad("invalid --pfns '%s' (ids or kernel)", optarg);
		c->kernel_pfns = !strcmp(optarg, "kernel");
		return 0;
	case OPT_DAMON: return parse_damon(c, optarg);
	case OPT_CALL_GRAPH: return parse_call_graph(c, optarg);
	case 'q': c->quiet = true; return 0;
	default: return RF_EXIT_USAGE;
	}
}

static int parse_args(struct record_cmd *c, int argc, char **argv)
{
	char list[8192];
	int opt, nscopes = 0, ret;
	bool first = true;

	while ((opt = rf_getopt(VERB, argc, argv, "+:aG:p:o:m:e:z:qh", longopts, NULL, &first)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return -1;
		}
		if (opt == OPT_LIST) {
			rf_record_list_events(list, sizeof(list));
			fputs(list, stdout);
			return -1;
		}
		ret = parse_opt(c, opt, &nscopes);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		c->argv = argv + optind;
		c->argc = argc - optind;
		c->bounded = nscopes > 0;
		ret = c->bounded ? 0 : set_scope(c, RF_SCOPE_PID, &nscopes);
		if (ret)
			return ret;
	}
	if (c->memcg_limit && c->bounded)
		return bad("%s", "--memcg-limit records its command in a fresh cgroup: drop -a, -G or -p");
	/* a process gone is the state of the system, as a cgroup gone is: a failure, not usage */
	if (c->opts.scope == RF_SCOPE_PID && (!c->argv || c->bounded) && kill(c->opts.pid, 0) &&
	    errno == ESRCH) {
		rf_err(VERB, "no process %d", (int)c->opts.pid);
		return RF_EXIT_FAILURE;
	}
	if (c->memcg_limit && !c->argv)
		return bad("%s", "--memcg-limit needs a command: refault record --memcg-limit 256M -- COMMAND");
	if (c->as_root && !c->argv)
		return bad("%s", "--as-root is about a command: refault record --as-root -- COMMAND");
	if (c->opts.damon_sample_us && c->opts.scope != RF_SCOPE_PID)
		return bad("%s", "--damon samples the accessed bits of one process: it needs -p PID "
			   "or -- COMMAND");
	return 0;
}

/* ---------------------------------------------------------- privileges */

static bool has_cap(int bit)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps & (1ULL << bit);
}

static int check_privileges(void)
{
	if (geteuid() == 0 || has_cap(CAP_PERFMON_BIT))
		return 0;
	rf_err(VERB, "needs root, or CAP_PERFMON and write access to tracefs (try: sudo refault record ...)");
	return RF_EXIT_FAILURE;
}

/* ---------------------------------------------------------------- sink */

/* "-a", "-G /grp", "-p 123", "-- cmd args", or a scope bounded by a command: "-a -- sleep 5". */
static void describe(struct record_cmd *c, char *scope, size_t len)
{
	size_t off = 0;
	int i;

	scope[0] = 0;
	switch (c->opts.scope) {
	case RF_SCOPE_ALL: off = snprintf(scope, len, "-a "); break;
	case RF_SCOPE_CGROUP: off = snprintf(scope, len, "-G %s ", c->opts.cgroup); break;
	case RF_SCOPE_PID:
		if (!c->argv || c->bounded)
			off = snprintf(scope, len, "-p %d ", (int)c->opts.pid);
		break;
	}
	if (c->argv && off < len)
		off += snprintf(scope + off, len - off, "--");
	for (i = 0; c->argv && i < c->argc && off < len; i++)
		off += snprintf(scope + off, len - off, " %s", c->argv[i]);
	if (!c->argv && off && off <= len)
		scope[off - 1] = 0;	/* the space before a command there is not */
}

static void join_argv(const struct record_cmd *c, char *buf, size_t len)
{
	size_t off = snprintf(buf, len, "refault");
	int i;

	for (i = 0; i < c->all_argc && off < len; i++)
		off += snprintf(buf + off, len - off, " %s", c->all_argv[i]);
}

/* The header needs the sources, known once the recorder is started: open on first event. */
/* The memory cgroup recorded (-G, or --memcg-limit's), as "/path" below the root; else "". */
static void recorded_cgroup(const struct record_cmd *c, char *buf, size_t len)
{
	const char *g = c->opts.cgroup;
	size_t n;

	buf[0] = 0;
	if (c->opts.scope != RF_SCOPE_CGROUP && !c->memcg_rel[0])
		return;
	g = c->memcg_rel[0] ? c->memcg_rel : g;
	if (!g)
		return;
	if (snprintf(buf, len, "%s%s", *g == '/' ? "" : "/", g) >= (int)len)
		buf[len - 1] = 0;	/* a path of RF_MAX_STRING: cut, as every header string */
	for (n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = 0;
}

static int open_writer(struct record_cmd *c)
{
	struct rf_trace_header *h = &c->hdr;
	bool v2;
	int err;

	rf_trace_header_init(h, "refault record");
	rf_trace_header_fill_host(h);
	/* docs/recording.md, "Known limits": an anonymous THP fault is recorded as one page */
	if (!strcmp(h->host.thp_mode, "always"))
		rf_err(VERB, "warning: transparent huge pages are 'always': an anonymous fault the "
		       "kernel serves with a 2 MiB folio is recorded as one page, so a replay "
		       "undercounts anonymous memory (echo madvise > "
		       "/sys/kernel/mm/transparent_hugepage/enabled to record without)");
	if (!rf_memcg_mount(h->host.cgroup_mount, sizeof(h->host.cgroup_mount), &v2))
		h->host.cgroup_version = v2 ? 2 : 1;
	h->created = time(NULL);
	snprintf(h->clock, sizeof(h->clock), "mono");
	h->time_resolution = c->time_resolution;
	snprintf(h->sources, sizeof(h->sources), "%s", rf_recorder_sources(c->rec));
	describe(c, h->scope, sizeof(h->scope));
	recorded_cgroup(c, h->cgroup, sizeof(h->cgroup));
	join_argv(c, h->command, sizeof(h->command));
	snprintf(h->pfns, sizeof(h->pfns), "%s", c->kernel_pfns ? "kernel" : "ids");
	c->wopts.folio_ids = !c->kernel_pfns;	/* the writer numbers the folios */
	err = rf_trace_writer_fdopen(&c->w, c->out_fd, h, &c->wopts);
	if (err)
		snprintf(c->werr, sizeof(c->werr), "%s: %s", c->out, rf_strerror(err));
	return err;
}

/*
 * The events written so far go to disk as a chunk at least once a second,
 * so a recorder killed (SIGKILL, a crash, the machine's OOM killer) loses
 * at most the last second: the chunks before read back (refault trace
 * recover), as perf's periodic writes do for perf.data.  Checked between
 * polls and every FLUSH_CHECK_EVENTS events within one (a busy machine keeps
 * a poll reading for longer than that).
 */
#define FLUSH_INTERVAL_NS	1000000000ull
#define FLUSH_CHECK_EVENTS	4096

static int flush_due(struct record_cmd *c)
{
	uint64_t now = rf_mono_ns();
	int err;

	if (!c->w || now - c->flushed < FLUSH_INTERVAL_NS)
		return 0;
	c->flushed = now;
	err = rf_trace_writer_flush(c->w);
	if (err)
		snprintf(c->werr, sizeof(c->werr), "%s: %s", c->out, rf_trace_writer_errmsg(c->w));
	return err;
}

/*
 * --duration: at the end of it the recording stops; a command still running
 * is sent SIGTERM, as a stop signal would be, and SIGKILL 5 s later.
 */
static bool duration_over(struct record_cmd *c, uint64_t start)
{
	uint64_t now = rf_mono_ns();

	if (!c->duration_ns || now - start < c->duration_ns)
		return false;
	if (!c->wl)
		return true;
	if (c->signals == 0 || (c->signals == 1 && now - start >= c->duration_ns + 5000000000ull))
		rf_workload_kill(c->wl, c->signals++ ? SIGKILL : SIGTERM);
	return false;
}

static int sink_event(void *ctx, const struct rf_event *ev)
{
	struct record_cmd *c = ctx;
	int err;

	if (!c->w) {
		err = open_writer(c);
		if (err)
			return err;
	}
	err = rf_trace_writer_append(c->w, ev);
	if (err)
		snprintf(c->werr, sizeof(c->werr), "%s: %s", c->out, rf_trace_writer_errmsg(c->w));
	else if (++c->since_check >= FLUSH_CHECK_EVENTS) {
		c->since_check = 0;
		err = flush_due(c);
	}
	return err;
}

/*
 * An interrupted recording (the recorder killed) leaves its trace under the
 * temporary name: say so, it is the user's to keep (refault trace recover).
 */
static void note_leftovers(const char *out)
{
	const char *slash = strrchr(out, '/');
	char dir[4096], prefix[512];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out) : 1, slash ? out : ".");
	snprintf(prefix, sizeof(prefix), ".%s.tmp-", slash ? slash + 1 : out);
	d = opendir(dir[0] ? dir : "/");
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    !st.st_size)
			rf_err(VERB, "note: %s/%s is what an interrupted recording left before its "
			       "first event: nothing; remove it", dir, de->d_name);
		else
			rf_err(VERB, "note: %s/%s is the trace of an interrupted recording: "
			       "'refault trace recover %s/%s FILE' makes what it holds whole; or "
			       "remove it", dir, de->d_name, dir, de->d_name);
	}
	closedir(d);
}

static int open_output(struct record_cmd *c)
{
	char msg[1024];
	struct stat st;

	note_leftovers(c->out);
	if (rf_outfile_open(&c->out_file, c->out, RF_OUTFILE_KEEP_OLD, msg, sizeof(msg))) {
		rf_err(VERB, "%s", msg);
		return RF_EXIT_FAILURE;
	}
	c->out_fd = c->out_file.fd;
	if (fstat(c->out_fd, &st)) {
		rf_err(VERB, "%s: %s", c->out, strerror(errno));
		return RF_EXIT_FAILURE;
	}
	c->opts.out_dev = st.st_dev;
	c->opts.out_ino = st.st_ino;
	return 0;
}

/*
 * The end of the output: a recording that began is kept, even a failed one
 * (the writer indexed what it had); one that never began leaves the old
 * file as it was.  A trace that could not be closed stays under its
 * temporary name, for `refault trace recover`.
 */
static int close_output(struct record_cmd *c, int ret)
{
	char msg[1024];
	int closed = c->close_err;

	if (c->w) {
		closed = rf_trace_writer_close(c->w);	/* index what we have */
		c->w = NULL;
	}
	if (c->out_fd < 0)
		return ret;
	c->out_fd = -1;
	if (!c->started) {
		rf_outfile_abandon(&c->out_file);
		return ret;
	}
	if (closed) {
		rf_err(VERB, "%s: not written (an existing one is kept); the trace so far is in %s: %s "
		       "(refault trace recover reads it)", c->out, c->out_file.tmp, rf_strerror(closed));
		rf_outfile_leave(&c->out_file);
		return RF_EXIT_FAILURE;
	}
	if (rf_outfile_commit(&c->out_file, msg, sizeof(msg))) {
		rf_err(VERB, "%s", msg);
		return RF_EXIT_FAILURE;
	}
	return ret;
}

/* ------------------------------------------------------------- command */

static int spawn(struct record_cmd *c, const sigset_t *old)
{
	struct rf_workload_opts o = {
		.memcg_dir = c->memcg_dir[0] ? c->memcg_dir : NULL, .sigmask = old,
		.flags = c->as_root ? RF_WORKLOAD_AS_ROOT : 0,
	};
	char msg[512];

	if (rf_workload_spawn(&c->wl, c->argv, &o, msg, sizeof(msg))) {
		rf_err(VERB, "%s", msg);
		return RF_EXIT_FAILURE;
	}
	if (!c->bounded) {
		c->opts.pid = rf_workload_pid(c->wl);
		c->opts.stacks_on_exec = true;	/* held before its exec */
	}
	return 0;
}

/* Let the command go; 0 once it has exec'd. */
static int release(struct record_cmd *c)
{
	char msg[512];

	if (rf_workload_release(c->wl, msg, sizeof(msg), c->argv[0])) {
		rf_err(VERB, "%s", msg);
		return RF_EXIT_FAILURE;
	}
	return 0;
}

static int make_memcg(struct record_cmd *c)
{
	char msg[512], mount[4096];
	bool v2;

	if (rf_memcg_create(c->memcg_dir, sizeof(c->memcg_dir), c->memcg_limit, msg, sizeof(msg))) {
		c->memcg_dir[0] = '\0';
		rf_err(VERB, "%s", msg);
		return RF_EXIT_FAILURE;
	}
	if (!rf_memcg_mount(mount, sizeof(mount), &v2))
		snprintf(c->memcg_rel, sizeof(c->memcg_rel), "%s", c->memcg_dir + strlen(mount));
	c->opts.cgroup = c->memcg_rel;
	return 0;
}

/* ----------------------------------------------------------------- loop */

static bool target_gone(struct record_cmd *c)
{
	if (c->wl)
		return rf_workload_exited(c->wl);
	return c->opts.scope == RF_SCOPE_PID && kill(c->opts.pid, 0) && errno == ESRCH;
}

/*
 * A stop signal: without a command, the recording stops.  With one, the
 * command's process group gets the signal, as a user at a terminal expects,
 * and the recording goes on until it exits (its last events are in the
 * trace); a second signal kills it.
 */
static bool stop_requested(struct record_cmd *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->sig_fd, .events = POLLIN };
	struct signalfd_siginfo si;

	if (poll(&p, 1, timeout_ms) > 0 && read(c->sig_fd, &si, sizeof(si)) == sizeof(si) &&
	    si.ssi_signo != SIGCHLD) {
		if (!c->wl)
			return true;
		rf_workload_kill(c->wl, c->signals++ ? SIGKILL : (int)si.ssi_signo);
	}
	return target_gone(c);
}

static int record_loop(struct record_cmd *c)
{
	uint64_t start = rf_mono_ns();
	int err = 0;

	c->flushed = start;
	while (!err && !stop_requested(c, 20) && !duration_over(c, start)) {
		err = rf_recorder_poll(c->rec);
		if (!err)
			err = rf_recorder_tick(c->rec);
		if (!err)
			err = flush_due(c);
	}
	return err;
}

static int finish_trace(struct record_cmd *c)
{
	struct rf_event ev = { .type = RF_EV_END };
	struct rf_record_stats st;
	int err;

	rf_recorder_stats(c->rec, &st);
	ev.time = rf_mono_ns();
	ev.u.end.nr_events = st.events;
	ev.u.end.nr_lost = st.lost;
	err = sink_event(c, &ev);
	if (!err) {
		err = rf_trace_writer_close(c->w);
		c->w = NULL;
		c->close_err = err;
		if (err)
			snprintf(c->werr, sizeof(c->werr), "%s: %s", c->out, rf_strerror(err));
	}
	return err;
}

/* What was recorded, said once the trace has its name (close_output()). */
static void summary(struct record_cmd *c)
{
	struct rf_record_stats st;
	uint64_t refs;
	char size[32];

	if (c->quiet || !c->rec)
		return;
	rf_recorder_stats(c->rec, &st);
	refs = st.by_type[RF_EV_FILE_READ] + st.by_type[RF_EV_FILE_FAULT] +
	       st.by_type[RF_EV_ANON_FAULT];
	fprintf(stderr, "refault record: %llu tracepoint records -> %llu events (%llu references), "
		"%llu lost; %s in %s (%.2f bytes/event)\n",
		(unsigned long long)st.records, (unsigned long long)st.events,
		(unsigned long long)refs, (unsigned long long)st.lost,
		rf_format_bytes((uint64_t)c->out_size, size, sizeof(size)), c->out,
		st.events ? (double)c->out_size / st.events : 0.0);
	if (st.lost)
		fprintf(stderr, "refault record: the kernel dropped %llu records: use a larger --buffer-size\n",
			(unsigned long long)st.lost);
	if (c->opts.stack_bytes)
		fprintf(stderr, "refault record: stacks: %llu samples (%s), %llu lost; %llu unwound to the "
			"outermost frame, %llu truncated, %llu failed; %llu of %llu references have one\n",
			(unsigned long long)st.stack_samples,
			rf_format_bytes(st.stack_bytes, size, sizeof(size)),
			(unsigned long long)st.stack_lost, (unsigned long long)st.stack_unwound,
			(unsigned long long)st.stack_truncated, (unsigned long long)st.stack_failed,
			(unsigned long long)st.stack_refs,
			(unsigned long long)(st.stack_refs + st.stack_refs_without));
}

static int run(struct record_cmd *c, const sigset_t *old)
{
	struct rf_record_sink sink = { .event = sink_event, .ctx = c };
	struct stat sb;
	int err;

	if (c->memcg_limit && make_memcg(c))
		return RF_EXIT_FAILURE;
	if (c->argv && spawn(c, old))
		return RF_EXIT_FAILURE;
	err = rf_recorder_new(&c->rec, &c->opts, &sink);
	if (!err)
		err = rf_recorder_start(c->rec);
	if (err) {
		rf_err(VERB, "%s", c->werr[0] ? c->werr : rf_recorder_errmsg(c->rec));
		return RF_EXIT_FAILURE;
	}
	if (*rf_recorder_missing(c->rec))
		rf_err(VERB, "warning: this kernel has no %s, and no kprobe event stands in (kprobe "
		       "events and BTF needed, see --kprobes): the references they give are not "
		       "in the trace", rf_recorder_missing(c->rec));
	if (c->argv && release(c))
		return RF_EXIT_FAILURE;
	c->started = true;
	err = record_loop(c);
	if (!err)
		err = rf_recorder_stop(c->rec);
	if (!err)
		err = finish_trace(c);
	if (err) {
		rf_err(VERB, "%s", c->werr[0] ? c->werr : rf_recorder_errmsg(c->rec));
		return RF_EXIT_FAILURE;
	}
	if (!fstat(c->out_fd, &sb))
		c->out_size = sb.st_size;
	return RF_EXIT_OK;
}

/* Whatever happened: no child, no instance, no cgroup left behind; the output kept or not. */
static int cleanup(struct record_cmd *c, int ret)
{
	rf_workload_free(c->wl);	/* a command not yet released exits; wait for it */
	ret = close_output(c, ret);
	if (ret == RF_EXIT_OK)
		summary(c);
	rf_recorder_free(c->rec);
	if (c->memcg_dir[0] && rf_memcg_remove(c->memcg_dir))
		rf_err(VERB, "warning: cannot remove memory cgroup %s", c->memcg_dir);
	if (c->sig_fd >= 0)
		close(c->sig_fd);
	return ret;
}

/*
 * The stop signals, before anything else, as a daemon takes them: blocked
 * first, so that one sent from here on waits, pending, for the recording
 * loop, which reads it from the signalfd; then their default action back:
 * a shell's background job ignores SIGINT (and SIGQUIT), and a command
 * forked with an ignored SIGINT or SIGTERM would never stop when the
 * recorder passes the signal on.  (A blocked signal is queued even while
 * ignored, and setting the default action does not discard one already
 * pending.)  SIGHUP is the exception: ignored at the start, it is what
 * nohup(1) asked for, and stays ignored for the recorder and its command
 * (nor is it read from the signalfd).  SIGCHLD wakes the loop when the
 * command exits; SIGTTOU is blocked for giving the terminal back from the
 * background (recorder/workload.c).  They stay blocked to the end: a signal
 * after the loop is too late to stop anything, and must not turn the exit
 * status of a finished recording into a death by signal.
 */
static void take_signals(sigset_t *stop, sigset_t *old)
{
	static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction hup;
	sigset_t block;
	size_t i;

	sigemptyset(stop);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(stop, stop_signals[i]);
	if (!sigaction(SIGHUP, NULL, &hup) && hup.sa_handler == SIG_IGN)
		sigdelset(stop, SIGHUP);
	sigaddset(stop, SIGCHLD);
	block = *stop;
	sigaddset(&block, SIGTTOU);
	sigprocmask(SIG_BLOCK, &block, old);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (sigismember(stop, stop_signals[i]))
			signal(stop_signals[i], SIG_DFL);
}

int cmd_record(int argc, char **argv)
{
	struct record_cmd c = { .out = "refault.trace", .out_fd = -1, .sig_fd = -1,
				.time_resolution = DEFAULT_TIME_RESOLUTION };
	sigset_t mask, old;
	int ret, status;

	take_signals(&mask, &old);
	c.all_argc = argc;
	c.all_argv = argv;
	ret = parse_args(&c, argc, argv);
	if (ret)
		return ret < 0 ? RF_EXIT_OK : ret;
	if (check_privileges())
		return RF_EXIT_FAILURE;
	/* what a recorder killed earlier left: its instances go at start, its memcg here */
	rf_memcg_remove_stale();
	if (open_output(&c))
		return RF_EXIT_FAILURE;
	/* a command gone before exec makes the release write fail with EPIPE, not kill us */
	signal(SIGPIPE, SIG_IGN);
	c.sig_fd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (c.sig_fd < 0)
		rf_err(VERB, "signalfd: %s", strerror(errno));
	ret = c.sig_fd < 0 ? RF_EXIT_FAILURE : run(&c, &old);
	status = c.wl && rf_workload_exited(c.wl) ? rf_workload_status(c.wl) : 0;
	ret = cleanup(&c, ret);
	if (ret == RF_EXIT_OK && !(WIFEXITED(status) && !WEXITSTATUS(status)))
		rf_err(VERB, "note: the command exited with status %d", WIFEXITED(status) ?
		       WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return ret;
}
