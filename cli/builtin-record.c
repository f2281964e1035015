/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault record: capture page references, cgroup and reclaim events from
 * the running kernel into a refault trace.  The work is in librefault-record
 * (recorder/session.h); this file takes the stop signals, parses the command
 * line, checks the privileges, runs the session and prints its summary.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <refault/trace.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "recorder/record.h"
#include "recorder/session.h"

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
	struct rf_record_session_opts o;	/* o.rec: the recorder's */
	bool quiet;
	char params[sizeof(((struct rf_trace_header *)0)->params)];	/* --params @FILE's text */
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
		"      --cold              a known start: sync, then drop the page cache and the unused\n"
		"                          inodes with their shadow entries (drop_caches 3, system-wide,\n"
		"                          as MMTests does between iterations) before recording\n"
		"  -o, --output FILE       trace file (default refault.trace); written under a temporary\n"
		"                          name and renamed when the recording ends, the file it\n"
		"                          replaces kept as FILE.old; under sudo created as the user\n"
		"  -m, --buffer-size SIZE  ring buffer per CPU (default 8M)\n"
		"      --memcg-limit SIZE  run COMMAND in a fresh memory cgroup with this limit\n"
		"      --params TEXT       put TEXT (what COMMAND was drawn from: refault workload\n"
		"                          --describe) into the trace header's params; @FILE: FILE's\n"
		"                          text (its last newline dropped), read when recording starts\n"
		"  -e, --events LIST       groups or events, comma-separated, as perf record -e (default\n"
		"                          all; --list-events names them: -e refs,vmscan)\n"
		"      --kprobes WHEN      read hits and faults from kprobe events: auto (default: where\n"
		"                          this kernel lacks the filemap tracepoints, before 6.11),\n"
		"                          always (also where it has them), never (tracepoints only)\n"
		"      --snapshot-interval T  counters and limits every T (e.g. 1s; default start and end)\n"
		"      --damon[=S,A]       sample the recorded process's accessed bits with DAMON (its\n"
		"                          kdamond, vaddr, every S; regions counted every A; default\n"
		"                          5ms,100ms): references to mapped pages that raise no fault\n"
		"      --idle-pages[=T]    scan the recorded processes' mapped pages every T (default\n"
		"                          250ms) for those accessed since the scan before, by idle\n"
		"                          page tracking (CONFIG_IDLE_PAGE_TRACKING, refault lab's\n"
		"                          kernels): page by page, the references that raise no fault\n"
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
	OPT_DURATION, OPT_KPROBES, OPT_DAMON, OPT_CALL_GRAPH, OPT_PFNS, OPT_COLD, OPT_IDLE,
	OPT_PARAMS,
};

const struct option rf_cli_record_longopts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "pid", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "buffer-size", required_argument, NULL, 'm' },
	{ "memcg-limit", required_argument, NULL, OPT_MEMCG },
	{ "params", required_argument, NULL, OPT_PARAMS },
	{ "events", required_argument, NULL, 'e' },
	{ "snapshot-interval", required_argument, NULL, OPT_SNAP },
	{ "time-resolution", required_argument, NULL, OPT_TIMERES },
	{ "compression-level", required_argument, NULL, 'z' },
	{ "pfns", required_argument, NULL, OPT_PFNS },
	{ "tracefs", required_argument, NULL, OPT_TRACEFS },
	{ "list-events", no_argument, NULL, OPT_LIST },
	{ "as-root", no_argument, NULL, OPT_AS_ROOT },
	{ "cold", no_argument, NULL, OPT_COLD },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "kprobes", required_argument, NULL, OPT_KPROBES },
	{ "damon", optional_argument, NULL, OPT_DAMON },
	{ "idle-pages", optional_argument, NULL, OPT_IDLE },
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
	c->o.rec.scope = s;
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
	c->o.rec.damon_sample_us = s / 1000;
	c->o.rec.damon_aggr_us = a / 1000;
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
	c->o.rec.stack_bytes = (uint32_t)(size + 7) / 8 * 8;
	if (c->o.rec.stack_bytes > RF_STACK_BYTES_MAX)
		c->o.rec.stack_bytes = RF_STACK_BYTES_MAX;
	return 0;
}

static int parse_opt(struct record_cmd *c, int opt, int *nscopes)
{
	uint64_t v;
	char msg[512];

	switch (opt) {
	case 'a': return set_scope(c, RF_SCOPE_ALL, nscopes);
	case 'G': c->o.rec.cgroup = optarg; return set_scope(c, RF_SCOPE_CGROUP, nscopes);
	case 'p':
		if (rf_parse_u64(optarg, &v) || !v || v > INT32_MAX)
			return bad("invalid pid '%s'", optarg);
		c->o.rec.pid = v;
		return set_scope(c, RF_SCOPE_PID, nscopes);
	case 'o': c->o.out = optarg; return 0;
	case 'm':
		if (rf_parse_size(optarg, &v) || v < 4096)
			return bad("invalid --buffer-size '%s' (at least 4K, e.g. 8M)", optarg);
		c->o.rec.buffer_bytes = v;
		return 0;
	case OPT_MEMCG:
		if (rf_parse_size(optarg, &v) || !v)
			return bad("invalid --memcg-limit '%s' (e.g. 256M)", optarg);
		c->o.memcg_limit = v;
		return 0;
	case 'e':
		if (rf_record_check_events(optarg, msg, sizeof(msg)))
			return bad("%s", msg);
		c->o.rec.events = optarg;
		return 0;
	case OPT_SNAP:
		if (rf_parse_duration(optarg, &v) || !v)
			return bad("invalid --snapshot-interval '%s' (e.g. 1s, 500ms)", optarg);
		c->o.rec.snapshot_ns = v;
		return 0;
	case OPT_TIMERES:
		if (rf_parse_u64(optarg, &v) || !v || v > RF_MAX_TIME_RESOLUTION)
			return bad("invalid --time-resolution '%s' (nanoseconds, 1 to 1000000000)", optarg);
		c->o.time_resolution = v;
		return 0;
	case 'z': return rf_parse_compression_level(VERB, optarg, &c->o.writer.level);
	case OPT_TRACEFS: c->o.rec.tracefs_dir = optarg; return 0;
	case OPT_AS_ROOT: c->o.as_root = true; return 0;
	case OPT_COLD: c->o.cold = true; return 0;
	case OPT_PARAMS:
		if (strlen(optarg) >= sizeof(((struct rf_trace_header *)0)->params))
			return bad("%s", "--params: at most 4095 bytes (the trace header's params)");
		c->o.params = optarg;
		return 0;
	case OPT_DURATION:
		if (rf_parse_duration(optarg, &v) || !v)
			return bad("invalid --duration '%s' (e.g. 30s, 2m)", optarg);
		c->o.duration_ns = v;
		return 0;
	case OPT_KPROBES:
		if (!strcmp(optarg, "auto"))
			c->o.rec.kprobes = RF_KPROBES_AUTO;
		else if (!strcmp(optarg, "always"))
			c->o.rec.kprobes = RF_KPROBES_ALWAYS;
		else if (!strcmp(optarg, "never"))
			c->o.rec.kprobes = RF_KPROBES_NEVER;
		else
			return bad("invalid --kprobes '%s' (auto, always or never)", optarg);
		return 0;
	case OPT_PFNS:
		if (strcmp(optarg, "ids") && strcmp(optarg, "kernel"))
			return bad("invalid --pfns '%s' (ids or kernel)", optarg);
		c->o.kernel_pfns = !strcmp(optarg, "kernel");
		return 0;
	case OPT_DAMON: return parse_damon(c, optarg);
	case OPT_IDLE:
		c->o.rec.idle_ns = 250ull * 1000 * 1000;
		if (optarg && (rf_parse_duration(optarg, &c->o.rec.idle_ns) ||
			       c->o.rec.idle_ns < 1000ull * 1000))
			return bad("invalid --idle-pages '%s' (an interval of 1ms or more, e.g. 250ms)",
				   optarg);
		return 0;
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

	while ((opt = rf_getopt(VERB, argc, argv, "+:aG:p:o:m:e:z:qh", rf_cli_record_longopts, NULL,
			       &first)) != -1) {
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
		c->o.argv = argv + optind;
		c->o.argc = argc - optind;
		c->o.bounded = nscopes > 0;
		ret = c->o.bounded ? 0 : set_scope(c, RF_SCOPE_PID, &nscopes);
		if (ret)
			return ret;
	}
	if (c->o.memcg_limit && c->o.bounded)
		return bad("%s", "--memcg-limit records its command in a fresh cgroup: drop -a, -G or -p");
	/* a process gone is the state of the system, as a cgroup gone is: a failure, not usage */
	if (c->o.rec.scope == RF_SCOPE_PID && (!c->o.argv || c->o.bounded) &&
	    kill(c->o.rec.pid, 0) && errno == ESRCH) {
		rf_err(VERB, "no process %d", (int)c->o.rec.pid);
		return RF_EXIT_FAILURE;
	}
	if (c->o.memcg_limit && !c->o.argv)
		return bad("%s", "--memcg-limit needs a command: refault record --memcg-limit 256M -- COMMAND");
	if (c->o.as_root && !c->o.argv)
		return bad("%s", "--as-root is about a command: refault record --as-root -- COMMAND");
	if (c->o.rec.damon_sample_us && c->o.rec.scope != RF_SCOPE_PID)
		return bad("%s", "--damon samples the accessed bits of one process: it needs -p PID "
			   "or -- COMMAND");
	if (c->o.rec.idle_ns && c->o.rec.scope == RF_SCOPE_ALL)
		return bad("%s", "--idle-pages scans the recorded processes' page tables: it needs "
			   "-p PID, -G CGROUP or -- COMMAND");
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

/* ------------------------------------------------------------- session */

/* What the session tells the user while it runs: notes and warnings, as the recorder's own. */
static void note(void *ctx, const char *msg)
{
	(void)ctx;
	rf_err(VERB, "%s", msg);
}

/* What was recorded, said once the trace has its name (rf_record_session_close()). */
static void summary(const struct record_cmd *c, const struct rf_record_session_stats *ss)
{
	const struct rf_record_stats *st = &ss->rec;
	uint64_t refs;
	char size[32];

	refs = st->by_type[RF_EV_FILE_READ] + st->by_type[RF_EV_FILE_FAULT] +
	       st->by_type[RF_EV_ANON_FAULT];
	fprintf(stderr, "refault record: %llu tracepoint records -> %llu events (%llu references), "
		"%llu lost; %s in %s (%.2f bytes/event)\n",
		(unsigned long long)st->records, (unsigned long long)st->events,
		(unsigned long long)refs, (unsigned long long)st->lost,
		rf_format_bytes(ss->out_bytes, size, sizeof(size)), c->o.out,
		st->events ? (double)ss->out_bytes / st->events : 0.0);
	if (st->lost)
		fprintf(stderr, "refault record: the kernel dropped %llu records: use a larger --buffer-size\n",
			(unsigned long long)st->lost);
	if (st->large_late)
		fprintf(stderr, "refault record: %llu large anonymous folios were allocated after "
			"their fault was written, as one page each (the kernel compacted memory "
			"inside the fault)\n", (unsigned long long)st->large_late);
	if (c->o.rec.idle_ns)
		fprintf(stderr, "refault record: idle pages: %llu scans of %llu present pages in all "
			"(%.1f ms), %llu found accessed without a fault\n",
			(unsigned long long)st->idle_scans, (unsigned long long)st->idle_pages,
			(double)st->idle_ns / 1e6, (unsigned long long)st->idle_young);
	if (c->o.rec.stack_bytes)
		fprintf(stderr, "refault record: stacks: %llu samples (%s), %llu lost; %llu unwound to the "
			"outermost frame, %llu truncated, %llu failed; %llu of %llu references have one\n",
			(unsigned long long)st->stack_samples,
			rf_format_bytes(st->stack_bytes, size, sizeof(size)),
			(unsigned long long)st->stack_lost, (unsigned long long)st->stack_unwound,
			(unsigned long long)st->stack_truncated, (unsigned long long)st->stack_failed,
			(unsigned long long)st->stack_refs,
			(unsigned long long)(st->stack_refs + st->stack_refs_without));
	if (c->o.rec.stack_bytes && st->stack_lost && !st->stack_realtime)
		fprintf(stderr, "refault record: stacks: the ring thread ran at ordinary priority "
			"(SCHED_FIFO needs CAP_SYS_NICE), behind the machine's other tasks\n");
}

/*
 * --params @FILE: the text of FILE (a job file of refault lab gives one word
 * an option, so a description with blanks comes as a file copied into the
 * guest).  Read here, not when the options are parsed: refault lab checks a
 * job's options on the host, where FILE is not.
 */
static int read_params(struct record_cmd *c)
{
	const char *path = c->o.params + 1;
	bool more;
	size_t n;
	FILE *f;
	int e;

	f = fopen(path, "r");
	if (!f) {
		rf_err(VERB, "--params @%s: %s", path, strerror(errno));
		return RF_EXIT_USAGE;
	}
	n = fread(c->params, 1, sizeof(c->params), f);
	more = n == sizeof(c->params) && getc(f) != EOF;
	e = ferror(f) ? errno : 0;
	fclose(f);
	if (e) {
		rf_err(VERB, "--params @%s: %s", path, strerror(e));
		return RF_EXIT_USAGE;
	}
	if (n && c->params[n - 1] == '\n' && !more)
		n--;
	if (more || n >= sizeof(c->params)) {
		rf_err(VERB, "--params @%s: more than %zu bytes (the trace header's params)", path,
		       sizeof(c->params) - 1);
		return RF_EXIT_USAGE;
	}
	if (memchr(c->params, 0, n)) {
		rf_err(VERB, "--params @%s: a NUL byte at offset %zu: the params are text", path,
		       (size_t)((char *)memchr(c->params, 0, n) - c->params));
		return RF_EXIT_USAGE;
	}
	c->params[n] = 0;
	c->o.params = c->params;
	return 0;
}

/*
 * Open, run and close the session, each error said as it comes (a failed run
 * and then a trace that could not be closed are two); the summary once the
 * trace has its name; then the instance and the memcg removed.
 */
static int record(struct record_cmd *c)
{
	struct rf_record_session_stats st;
	struct rf_record_session *s;
	char msg[16384];
	int ret;

	if (c->o.params && c->o.params[0] == '@' && (ret = read_params(c)))
		return ret;
	if (rf_record_session_open(&s, &c->o, msg, sizeof(msg))) {
		rf_err(VERB, "%s", msg);
		return RF_EXIT_FAILURE;
	}
	ret = RF_EXIT_OK;
	if (rf_record_session_run(s, msg, sizeof(msg))) {
		rf_err(VERB, "%s", msg);
		ret = RF_EXIT_FAILURE;
	}
	if (rf_record_session_close(s, msg, sizeof(msg))) {
		rf_err(VERB, "%s", msg);
		ret = RF_EXIT_FAILURE;
	}
	rf_record_session_stats(s, &st);
	if (ret == RF_EXIT_OK && !c->quiet)
		summary(c, &st);
	rf_record_session_free(s);
	if (ret == RF_EXIT_OK && st.cmd_exited &&
	    !(WIFEXITED(st.cmd_status) && !WEXITSTATUS(st.cmd_status)))
		rf_err(VERB, "note: the command exited with status %d", WIFEXITED(st.cmd_status) ?
		       WEXITSTATUS(st.cmd_status) : 128 + WTERMSIG(st.cmd_status));
	return ret;
}

/*
 * The stop signals, before anything else, as a daemon takes them: blocked
 * first, so that one sent from here on waits, pending, for the recording
 * loop (recorder/session.c), which reads it from a signalfd; then their
 * default action back: a shell's background job ignores SIGINT (and
 * SIGQUIT), and a command forked with an ignored SIGINT or SIGTERM would
 * never stop when the recorder passes the signal on.  (A blocked signal is queued even while
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

int rf_cli_record_check(int argc, char **argv)
{
	struct record_cmd c = { .o = { .out = "refault.trace",
				       .time_resolution = DEFAULT_TIME_RESOLUTION } };
	int ret = parse_args(&c, argc, argv);

	return ret < 0 ? RF_EXIT_USAGE : ret;
}

int cmd_record(int argc, char **argv)
{
	struct record_cmd c = { .o = { .out = "refault.trace",
				       .time_resolution = DEFAULT_TIME_RESOLUTION } };
	sigset_t stop, old;
	int ret;

	take_signals(&stop, &old);
	c.o.cmdline_argc = argc;
	c.o.cmdline = argv;
	ret = parse_args(&c, argc, argv);
	if (ret)
		return ret < 0 ? RF_EXIT_OK : ret;
	if (check_privileges())
		return RF_EXIT_FAILURE;
	/* a command gone before exec makes the release write fail with EPIPE, not kill us */
	signal(SIGPIPE, SIG_IGN);
	c.o.stop_signals = &stop;
	c.o.cmd_sigmask = &old;
	c.o.note = note;
	return record(&c);
}
