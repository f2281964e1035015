/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault lab: a kernel under qemu, built from source with patches or
 * taken from a Debian package, records a command (docs/lab.md).  This file
 * parses and checks the command line, refault record's options with
 * record's own parser, before anything boots; then it runs the lab's driver
 * (lab/refault-lab, installed in $(pkglibexecdir)) with the line normalized:
 * sizes in MiB, record's options as --record-arg, its own binary as the
 * guest's refault.  The driver is a shell program, as qemu, cpio, mke2fs,
 * debugfs and the kernel's make are programs: it strings them together.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/compiler.h"
#include "lib/units.h"

#define VERB "lab"
#define MAX_ARGS 4096

static const char usage_top[] =
	"usage: refault lab build SRC [--patch FILE]... [--config-fragment FILE]... [-o BZIMAGE]\n"
	"       refault lab record KERNEL [GUEST] [RECORD OPTIONS] -o OUT.rft -- COMMAND ARGS...\n"
	"       refault lab run SPEC -o DIR\n"
	"\n"
	"A kernel under qemu (KVM where it works, else TCG): built from source with your\n"
	"patches, or a Debian package; your command recorded in it by refault record.\n"
	"run records it on two kernels, several times each, and puts the kernel's change\n"
	"beside the models'.  See refault lab build|record|run --help, docs/lab.md.\n";

static const char usage_run[] =
	"usage: refault lab run SPEC -o DIR\n"
	"\n"
	"The pre/post loop: the same command recorded on two kernels or more (a kernel and its\n"
	"guest settings a side), several runs each; every trace replayed through every side's\n"
	"profile; then, for each side against the first, the change table of refault compare\n"
	"--change: the kernel's change per counter (LKP's noise rules over the runs) beside the\n"
	"models' from each side's recordings, and whether they agree.  SPEC, a line each (#\n"
	"comments; words split at blanks, no quoting):\n"
	"\n"
	"  side NAME OPTIONS...    a kernel and its guest, as refault lab record takes them\n"
	"                          (side B --build linux-source-6.12 --patch my.patch), after\n"
	"                          the lab lines' options\n"
	"  profile NAME PROFILE    the model of side NAME's kernel (profile B v6.12+mine)\n"
	"  runs N                  recordings a side (default 3, what LKP's rules need)\n"
	"  lab OPTIONS...          refault lab record's options for every side\n"
	"  command WORDS...        the command (a program of this host)\n"
	"  workload NAME [swap] [RECORD OPTIONS] -- COMMAND ARGS...\n"
	"                          instead of command, several: each side one boot of them all\n"
	"\n"
	"  -o, --output DIR        NAME-I.rft, NAME.lab/ (logs), NAME-I.json (replays),\n"
	"                          change-NAME.txt, .json and .html; with workloads, NAME/ (its\n"
	"                          traces, replays, logs), change-NAME-WORKLOAD.txt, .json, .html\n"
	"      --cache DIR         the lab's cache (default $REFAULT_LAB_CACHE, ~/.cache/refault-lab)\n"
	"      --reuse             boot only for the sides whose traces are not all in DIR (a run\n"
	"                          cut short, a side added); replay every trace again through the\n"
	"                          spec's profiles and remake the tables (a model changed)\n"
	"\n"
	"Exit status: 0 done, 1 a side or a step failed (named, with its log), 2 bad command line.\n";

static const char usage_build[] =
	"usage: refault lab build SRC [--patch FILE]... [--config-fragment FILE]... [-o BZIMAGE]\n"
	"\n"
	"Build a kernel for the lab: SRC is a kernel source tree (left as it is: the lab builds\n"
	"a copy), a tarball, a linux-source-X.Y .deb, or the package's name (linux-source-6.12:\n"
	"/usr/src/linux-source-6.12.tar.xz, else apt-get download).  The configuration is the\n"
	"tree's tinyconfig, then lab/lab.config (what a guest and refault record need), then\n"
	"your fragments.  Cached by source, patches and configuration: the same build again is\n"
	"free, and the objects are kept, so a new patch rebuilds what it touches.\n"
	"\n"
	"      --patch FILE        apply FILE (patch -p1) on the source; repeatable, in order.  A\n"
	"                          patch that does not apply is an error naming its hunks\n"
	"      --config-fragment FILE  Kconfig lines merged after lab/lab.config\n"
	"  -o, --output BZIMAGE    copy the image there (and its configuration to BZIMAGE.config);\n"
	"                          the image's path in the cache is printed either way\n"
	"  -j, --jobs N            make -j N (default: the CPUs)\n"
	"      --cache DIR         the lab's cache (default $REFAULT_LAB_CACHE, ~/.cache/refault-lab)\n"
	"\n"
	"Exit status: 0 built, 1 failed (the message names the log), 2 bad command line, 3 a\n"
	"source package neither installed nor downloadable.\n";

static const char usage_record[] =
	"usage: refault lab record KERNEL [GUEST] [RECORD OPTIONS] -o OUT.rft -- COMMAND ARGS...\n"
	"       refault lab record KERNEL [GUEST] [RECORD OPTIONS] -o DIR --job-file FILE\n"
	"\n"
	"Boot KERNEL under qemu, run COMMAND (a program of this host, copied into the guest with\n"
	"the libraries ldd names; no shell needed) under refault record in the guest, and bring\n"
	"the trace back as OUT.rft (an existing one is kept as OUT.rft.old).  The logs go to\n"
	"OUT.lab/: the console, the guest's kernel and settings, refault record's messages\n"
	"(OUT.err), COMMAND's output (OUT.out), summary.txt.\n"
	"\n"
	"With --job-file, several commands in one boot, in order: FILE has a line each (#\n"
	"comments; words split at blanks, no quoting)\n"
	"    NAME [cold] [swap] [bare] [RECORD OPTIONS] -- COMMAND ARGS...\n"
	"recorded into DIR/NAME.rft with the line's record options after the command line's;\n"
	"cold: the page cache dropped first; swap: the --swap file on while it runs only (off\n"
	"for the others); bare: run, not recorded (a setup or a check).  The logs go to DIR/.\n"
	"\n"
	"KERNEL, one of:\n"
	"      --kernel-pkg NAME   a Debian linux-image package (downloaded into the cache)\n"
	"      --kernel BZIMAGE    a kernel image; with --modules DIR (its lib/modules/RELEASE)\n"
	"                          unless ext4, virtio_blk and virtio_pci are built in\n"
	"      --build SRC         build it first, as refault lab build SRC does, with these:\n"
	"      --patch FILE, --config-fragment FILE, -j, --jobs N  as for refault lab build\n"
	"GUEST:\n"
	"      --cgroup v1|v2      the memory cgroup hierarchy (default v1 where the kernel has it)\n"
	"      --mglru on|off      the multi-gen LRU (default: as the kernel boots)\n"
	"      --thp MODE          transparent_hugepage= always, madvise (default) or never\n"
	"      --sysctl KEY=VALUE  set before the recording (vm.swappiness=10); repeatable\n"
	"      --mem SIZE          the guest's memory (default 1G)\n"
	"      --cpus N            its CPUs (default 2)\n"
	"      --swap SIZE         a swap file of SIZE on its disk\n"
	"      --file PATH[:GUESTPATH]  a file COMMAND reads, copied as it is onto the guest's\n"
	"                          disk, every block written (never sparse); GUESTPATH relative\n"
	"                          is from COMMAND's directory (default: PATH); repeatable\n"
	"      --cold              drop the page cache and its shadow entries before COMMAND\n"
	"      --repeat N          N recordings in one boot, OUT-1.rft ... OUT-N.rft, each from a\n"
	"                          cold start\n"
	"      --job-file FILE     the jobs of one boot (above), instead of -- COMMAND\n"
	"RECORD OPTIONS: refault record's, checked here and passed to it in the guest:\n"
	"      -m, --buffer-size, --memcg-limit, -e, --events, --kprobes, --snapshot-interval,\n"
	"      --time-resolution, -z, --compression-level, --pfns, --duration, --damon,\n"
	"      --idle-pages,\n"
	"      --call-graph, -q, --quiet (refault record --help); the scope is COMMAND (no -a,\n"
	"      -G or -p)\n"
	"The lab:\n"
	"      --budget T          a boot's time (default 30m); past it qemu is killed\n"
	"      --accel auto|kvm|tcg  auto (default): KVM when a probe boot reaches init\n"
	"      --tcg-threads single|multi  qemu's TCG threads (default single)\n"
	"      --retries N         boot again for the recordings not done when the kernel dies\n"
	"                          (default 0)\n"
	"      --append ARGS       more kernel command line\n"
	"      --keep              keep the work directory (initramfs, disk image) and say where\n"
	"      --cache DIR         the lab's cache (default $REFAULT_LAB_CACHE, ~/.cache/refault-lab)\n"
	"  -o, --output OUT.rft    the trace (with --job-file: DIR, the traces and logs)\n"
	"\n"
	"Exit status: 0 recorded, 1 failed (the message names the console log or refault record's\n"
	"messages), 2 bad command line, 3 a kernel package neither cached nor downloadable.\n";

/*
 * The driver's command line, built as the options are read.  Static: the
 * process ends in exec() or exit(), and what it points to stays reachable.
 */
struct lab_cmd {
	const char *argv[MAX_ARGS];
	size_t n;
	const char *rec[MAX_ARGS];	/* refault record's options, to check them */
	size_t nrec;
	int kernels;			/* --kernel-pkg, --kernel, --build seen */
	bool build, image, patched, modules, out;
	const char *job_file;		/* --job-file, absolute */
	char names[64][40];		/* the driver's option names drv_name() made */
	size_t nnames;
};

static struct lab_cmd lab;

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int push(struct lab_cmd *c, const char *a)
{
	if (c->n + 1 >= MAX_ARGS)
		return rf_usage_error(VERB, "more than %d words", MAX_ARGS);
	c->argv[c->n++] = a;
	return 0;
}

static int push2(struct lab_cmd *c, const char *opt, const char *v)
{
	return push(c, opt) ? RF_EXIT_USAGE : push(c, v);
}

static char *fmt(const char *f, unsigned long long v)
{
	char *s = NULL;

	if (asprintf(&s, f, v) < 0) {
		rf_err(VERB, "out of memory");
		exit(RF_EXIT_FAILURE);
	}
	return s;
}

/* @v a whole number from @lo to @hi, as text for the driver; else a usage error. */
static int number(struct lab_cmd *c, const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
	uint64_t n;

	if (rf_parse_u64(v, &n) || n < lo || n > hi)
		return rf_usage_error(VERB, "%s takes a number from %llu to %llu, not '%s'", opt,
				      (unsigned long long)lo, (unsigned long long)hi, v);
	return push2(c, opt, fmt("%llu", n));
}

/* @v a size from @lo_mib to @hi_mib MiB: --NAME-mib for the driver. */
static int size_mib(struct lab_cmd *c, const char *opt, const char *drv, const char *v,
		    uint64_t lo_mib, uint64_t hi_mib)
{
	uint64_t b;

	if (rf_parse_size(v, &b) || b < (lo_mib << 20) || b > (hi_mib << 20))
		return rf_usage_error(VERB, "%s takes a size from %lluM to %lluG (1G, 512M), not '%s'",
				      opt, (unsigned long long)lo_mib,
				      (unsigned long long)(hi_mib >> 10), v);
	return push2(c, drv, fmt("%llu", (b + (1u << 20) - 1) >> 20));
}

/* @v one of the words of @list ("a|b|c"). */
static int word(struct lab_cmd *c, const char *opt, const char *v, const char *list)
{
	size_t n = strlen(v);
	const char *p = list;

	while (n && (p = strstr(p, v))) {
		if ((p == list || p[-1] == '|') && (p[n] == '|' || !p[n]))
			return push2(c, opt, v);
		p++;
	}
	return rf_usage_error(VERB, "%s takes %s, not '%s'", opt, list, v);
}

/* A readable file (a patch, a fragment, an image), absolute for the driver. */
static int file(struct lab_cmd *c, const char *opt, const char *v, bool dir)
{
	char *abs = realpath(v, NULL);
	const char *why = NULL;

	if (!abs || access(abs, R_OK))
		why = strerror(errno);
	else if (!dir && is_dir(abs))
		why = "a directory, not a file";
	else if (dir && !is_dir(abs))
		why = "not a directory";
	if (why) {
		free(abs);
		return rf_usage_error(VERB, "%s %s: %s", opt, v, why);
	}
	return push2(c, opt, abs);
}

/* No newline or control byte: the value goes into a line of the guest's files. */
static int text(const char *opt, const char *v)
{
	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return rf_usage_error(VERB, "%s: a control character in '%s'", opt, v);
	return 0;
}

/* --sysctl KEY=VALUE: KEY a name of /proc/sys with dots (vm.swappiness). */
static int sysctl(struct lab_cmd *c, const char *v)
{
	const char *eq = strchr(v, '=');
	size_t i;

	if (!eq || eq == v || text("--sysctl", v))
		return eq && eq != v ? RF_EXIT_USAGE :
		       rf_usage_error(VERB, "--sysctl KEY=VALUE (vm.swappiness=10), not '%s'", v);
	for (i = 0; v + i < eq; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_.-", v[i]) ||
		    (v[i] == '.' && (!i || v[i + 1] == '.' || v + i + 1 == eq)))
			return rf_usage_error(VERB, "--sysctl: '%.*s' is not a key of /proc/sys "
					      "(vm.swappiness, vm.vfs_cache_pressure)", (int)(eq - v), v);
	return push2(c, "--sysctl", v);
}

/* --file PATH[:GUESTPATH]: PATH a readable file here (a PATH holding ':' is taken whole). */
static int guest_file(struct lab_cmd *c, const char *v)
{
	char *host, *colon, *abs;
	const char *guest;

	if (text("--file", v))
		return RF_EXIT_USAGE;
	host = strdup(v);
	if (!host)
		return RF_EXIT_FAILURE;
	colon = access(v, R_OK) ? strchr(host, ':') : NULL;
	if (colon)
		*colon = '\0';
	guest = colon ? colon + 1 : host;
	abs = realpath(host, NULL);
	if (!abs || access(abs, R_OK) || is_dir(abs)) {
		rf_usage_error(VERB, "--file %s: no such readable file", host);
	} else if (!*guest || strstr(guest, "..") || !strncmp(guest, "/proc", 5) ||
		   !strncmp(guest, "/sys", 4) || !strncmp(guest, "/dev", 4) ||
		   !strncmp(guest, "/lab", 4)) {
		rf_usage_error(VERB, "--file %s: '%s' is not a place for it in the guest (a path "
			       "without '..', outside /proc, /sys, /dev and /lab)", v, guest);
	} else {
		return push2(c, "--file", abs) ? RF_EXIT_USAGE : push2(c, "--file-guest", guest);
	}
	free(abs);
	free(host);
	return RF_EXIT_USAGE;
}

/* ---------------------------------------------------------- the options */

struct lab_opt;
typedef int (*lab_parse_fn)(struct lab_cmd *c, const struct lab_opt *o, const char *v);

/* An option of refault lab: its getopt_long() entry's name and argument, its handler. */
struct lab_opt {
	const char *name;
	int has_arg;
	lab_parse_fn parse;
	const char *words;		/* opt_word(): the choices */
	uint64_t lo, hi;		/* opt_number(), opt_size(): the range (MiB for sizes) */
	const char *drv;		/* the driver's option, when it is not --NAME */
};

/* The driver's name of option @o: --NAME but where it differs (--mem-mib). */
static const char *drv_name(struct lab_cmd *c, const struct lab_opt *o)
{
	size_t i;

	if (o->drv)
		return o->drv;
	for (i = 0; i < c->nnames; i++)
		if (!strcmp(c->names[i] + 2, o->name))
			return c->names[i];
	if (c->nnames == ARRAY_SIZE(c->names))
		return "--?";
	snprintf(c->names[c->nnames], sizeof(c->names[0]), "--%s", o->name);
	return c->names[c->nnames++];
}

static int opt_word(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	return word(c, drv_name(c, o), v, o->words);
}

static int opt_number(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	return number(c, drv_name(c, o), v, o->lo, o->hi);
}

static int opt_size(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", o->name);
	return size_mib(c, opt, o->drv, v, o->lo, o->hi);
}

static int opt_text(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	return text(drv_name(c, o), v) ? RF_EXIT_USAGE : push2(c, drv_name(c, o), v);
}

static int opt_flag(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	(void)v;
	return push(c, drv_name(c, o));
}

static int opt_budget(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	uint64_t ns;

	(void)o;
	if (rf_parse_duration(v, &ns) || ns < 1000000000ull || ns > 7 * 86400000000000ull)
		return rf_usage_error(VERB, "--budget takes a time from 1s to 7d (30m, 90s), not '%s'", v);
	return push2(c, "--budget", fmt("%llu", ns / 1000000000ull));
}

static int opt_kernel(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	c->kernels++;
	if (!strcmp(o->name, "kernel-pkg")) {
		for (const char *p = v; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789.+-", *p))
				return rf_usage_error(VERB, "--kernel-pkg %s: not a Debian package name "
						      "(linux-image-6.12.117+deb12-amd64)", v);
		return push2(c, "--kernel-pkg", v);
	}
	if (!strcmp(o->name, "kernel")) {
		c->image = true;
		return file(c, "--kernel", v, false);
	}
	c->build = true;
	/* a tree, a tarball, a .deb; or a package's name (linux-source-6.12) */
	if (!access(v, F_OK))
		return file(c, "--build", v, is_dir(v));
	return push2(c, "--build", v);
}

static int opt_source_file(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	if (!strcmp(o->name, "modules")) {
		c->modules = true;
		return file(c, "--modules", v, true);
	}
	if (!strcmp(o->name, "patch"))
		c->patched = true;
	else
		c->patched |= !strcmp(o->name, "config-fragment");
	return file(c, drv_name(c, o), v, false);
}

static int opt_sysctl(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	(void)o;
	return sysctl(c, v);
}

static int opt_file(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	(void)o;
	return guest_file(c, v);
}

static int opt_out(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	(void)o;
	if (!*v || text("-o", v))
		return rf_usage_error(VERB, "-o takes a file name");
	c->out = true;
	return push2(c, "-o", v);
}

static int opt_job_file(struct lab_cmd *c, const struct lab_opt *o, const char *v)
{
	(void)o;
	if (file(c, "--job-file", v, false))
		return RF_EXIT_USAGE;
	c->job_file = c->argv[c->n - 1];
	return 0;
}

#define WORD(n, w)	{ n, required_argument, opt_word, w, 0, 0, NULL }
#define NUMBER(n, lo, hi)	{ n, required_argument, opt_number, NULL, lo, hi, NULL }
#define SIZE(n, lo, hi, d)	{ n, required_argument, opt_size, NULL, lo, hi, d }

/* refault lab record's own options, in --help's order. */
static const struct lab_opt record_opts[] = {
	{ "kernel-pkg", required_argument, opt_kernel, NULL, 0, 0, NULL },
	{ "kernel", required_argument, opt_kernel, NULL, 0, 0, NULL },
	{ "modules", required_argument, opt_source_file, NULL, 0, 0, NULL },
	{ "build", required_argument, opt_kernel, NULL, 0, 0, NULL },
	{ "patch", required_argument, opt_source_file, NULL, 0, 0, NULL },
	{ "config-fragment", required_argument, opt_source_file, NULL, 0, 0, NULL },
	NUMBER("jobs", 1, 1024),
	WORD("cgroup", "v1|v2"),
	WORD("mglru", "on|off"),
	WORD("thp", "always|madvise|never"),
	{ "sysctl", required_argument, opt_sysctl, NULL, 0, 0, NULL },
	SIZE("mem", 128, 1 << 20, "--mem-mib"),
	NUMBER("cpus", 1, 64),
	SIZE("swap", 1, 1 << 20, "--swap-mib"),
	{ "file", required_argument, opt_file, NULL, 0, 0, NULL },
	{ "cold", no_argument, opt_flag, NULL, 0, 0, NULL },
	NUMBER("repeat", 1, 1000),
	{ "job-file", required_argument, opt_job_file, NULL, 0, 0, NULL },
	{ "budget", required_argument, opt_budget, NULL, 0, 0, NULL },
	WORD("accel", "auto|kvm|tcg"),
	WORD("tcg-threads", "single|multi"),
	NUMBER("retries", 0, 10),
	{ "append", required_argument, opt_text, NULL, 0, 0, NULL },
	{ "keep", no_argument, opt_flag, NULL, 0, 0, NULL },
	{ "cache", required_argument, opt_text, NULL, 0, 0, NULL },
	{ "output", required_argument, opt_out, NULL, 0, 0, NULL },
	{ "help", no_argument, NULL, NULL, 0, 0, NULL },
};

/* refault lab build's. */
static const struct lab_opt build_opts[] = {
	{ "patch", required_argument, opt_source_file, NULL, 0, 0, NULL },
	{ "config-fragment", required_argument, opt_source_file, NULL, 0, 0, NULL },
	NUMBER("jobs", 1, 1024),
	{ "cache", required_argument, opt_text, NULL, 0, 0, NULL },
	{ "output", required_argument, opt_out, NULL, 0, 0, NULL },
	{ "help", no_argument, NULL, NULL, 0, 0, NULL },
};

/* refault lab run's. */
static const struct lab_opt run_opts[] = {
	{ "cache", required_argument, opt_text, NULL, 0, 0, NULL },
	{ "reuse", no_argument, opt_flag, NULL, 0, 0, NULL },
	{ "output", required_argument, opt_out, NULL, 0, 0, NULL },
	{ "help", no_argument, NULL, NULL, 0, 0, NULL },
};

/* refault record's options that make no sense in the lab: the scope is the command. */
static const char *const record_refused[] = {
	"all", "cgroup", "pid", "output", "list-events", "tracefs", "as-root", "help",
};

static bool refused(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(record_refused); i++)
		if (!strcmp(name, record_refused[i]))
			return true;
	return false;
}

/* ---------------------------------------------------------- the parser */

#define REC_BASE 2000		/* getopt's value of refault record's option i */

/*
 * getopt_long()'s table: @own's options (their index as value), then, with
 * @rec, refault record's but those the lab refuses (REC_BASE + their index).
 */
static struct option *merged(const struct lab_opt *own, size_t n, bool rec)
{
	const struct option *r = rf_cli_record_longopts;
	size_t nr = 0, i, k = 0;
	struct option *t;

	while (rec && r[nr].name)
		nr++;
	t = calloc(n + nr + 1, sizeof(*t));
	if (!t) {
		rf_err(VERB, "out of memory");
		exit(RF_EXIT_FAILURE);
	}
	for (i = 0; i < n; i++)
		t[k++] = (struct option){ own[i].name, own[i].has_arg, NULL, (int)i };
	for (i = 0; i < nr; i++)
		if (!refused(r[i].name))
			t[k++] = (struct option){ r[i].name, r[i].has_arg, NULL, REC_BASE + (int)i };
	return t;
}

/* refault record's option @i (or short @opt), with its value, for the guest's record. */
static int pass_record(struct lab_cmd *c, int opt)
{
	const struct option *r = rf_cli_record_longopts;
	int i = opt - REC_BASE;
	char *word;

	if (opt < REC_BASE)	/* a short one: -m, -e, -z, -q */
		for (i = 0; r[i].name && r[i].val != opt; i++)
			;
	if (!r[i].name || refused(r[i].name))
		return rf_usage_error(VERB, "-%c is not for the lab: the guest records the command "
				      "(no -a, -G or -p)", opt);
	if (r[i].has_arg == optional_argument && optarg) {
		if (asprintf(&word, "--%s=%s", r[i].name, optarg) < 0)
			word = NULL;
	} else if (asprintf(&word, "--%s", r[i].name) < 0) {
		word = NULL;
	}
	if (!word || c->nrec + 2 >= MAX_ARGS)
		return rf_usage_error(VERB, "too many options");
	c->rec[c->nrec++] = word;
	if (push2(c, "--record-arg", word))
		return RF_EXIT_USAGE;
	if (r[i].has_arg == required_argument) {
		c->rec[c->nrec++] = optarg;
		return push2(c, "--record-arg", optarg);
	}
	return 0;
}

static const struct lab_opt *find(const struct lab_opt *own, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n && strcmp(own[i].name, name); i++)
		;
	return i < n ? &own[i] : NULL;
}

/*
 * @argv's options by @own (and refault record's, with @rec) into @c; the
 * first word that is not an option at *@rest.  -1 after --help, else 0 or
 * the exit status.
 */
static int parse(struct lab_cmd *c, int argc, char **argv, const struct lab_opt *own, size_t n,
		 bool rec, const char *usage, int *rest)
{
	struct option *t = merged(own, n, rec);
	bool first = true;
	int opt, ret = 0;

	while (!ret && (opt = rf_getopt(VERB, argc, argv, rec ? "+:o:j:hm:e:z:qaG:p:" : ":o:j:h",
					t, NULL, &first)) != -1) {
		if (opt == '?') {
			ret = RF_EXIT_USAGE;
		} else if (opt == 'h' || (opt < (int)n && !own[opt].parse)) {
			fputs(usage, stdout);
			ret = -1;
		} else if (opt == 'o' || opt == 'j') {
			const struct lab_opt *o = find(own, n, opt == 'o' ? "output" : "jobs");

			ret = o ? o->parse(c, o, optarg) : rf_usage_error(VERB, "unknown option '-%c'",
									   opt);
		} else if (opt >= 0 && opt < (int)n) {
			ret = own[opt].parse(c, &own[opt], optarg);
		} else {
			ret = pass_record(c, opt);
		}
	}
	free(t);
	*rest = optind;
	return ret;
}

/* ---------------------------------------------------------- the driver */

/*
 * The driver's folder: $REFAULT_LAB_DIR; the installed one when this
 * program is the installed refault; else the source tree's lab/.
 */
static const char *driver_dir(void)
{
	const char *env = getenv("REFAULT_LAB_DIR");
	char *self = realpath("/proc/self/exe", NULL), *bindir = realpath(RF_BINDIR, NULL);
	size_t n = bindir ? strlen(bindir) : 0;
	bool installed = self && bindir && !strncmp(self, bindir, n) && self[n] == '/' &&
			 !strchr(self + n + 1, '/');

	free(self);
	free(bindir);
	if (env && *env)
		return env;
	return installed ? RF_LAB_LIBEXECDIR : RF_LAB_SRCDIR;
}

/* Run the driver with @c's line; returns only when it could not be run. */
static int run_driver(struct lab_cmd *c)
{
	char *path;

	if (asprintf(&path, "%s/refault-lab", driver_dir()) < 0)
		return RF_EXIT_FAILURE;
	if (access(path, R_OK)) {
		rf_err(VERB, "cannot run the lab's driver %s: %s (REFAULT_LAB_DIR names its folder; "
		       "make install puts it in %s)", path, strerror(errno), RF_LAB_LIBEXECDIR);
		free(path);
		return RF_EXIT_FAILURE;
	}
	c->argv[0] = "bash";
	c->argv[1] = path;
	c->argv[c->n] = NULL;
	fflush(NULL);
	execvp("bash", (char *const *)c->argv);
	rf_err(VERB, "cannot run the lab's driver: bash %s: %s (REFAULT_LAB_DIR names its folder)",
	       path, strerror(errno));
	return RF_EXIT_FAILURE;
}

/* ---------------------------------------------------------- the subcommands */

/* --refault: this program, the refault the guest runs. */
static int push_self(struct lab_cmd *c)
{
	char *self = realpath("/proc/self/exe", NULL);

	if (!self)
		return rf_err(VERB, "cannot find this program: /proc/self/exe: %s", strerror(errno)),
		       RF_EXIT_FAILURE;
	return push2(c, "--refault", self);
}

static int lab_build(int argc, char **argv)
{
	struct lab_cmd *c = &lab;
	int ret, rest;

	c->n = 2;
	push(c, "build");
	ret = parse(c, argc, argv, build_opts, ARRAY_SIZE(build_opts), false, usage_build, &rest);
	if (ret)
		return ret < 0 ? RF_EXIT_OK : ret;
	if (rest != argc - 1)
		return rf_usage_error(VERB, rest == argc ? "build SRC: a kernel tree, a tarball or "
				      "linux-source-X.Y" : "build takes one source");
	/* a tree, a tarball, a .deb; or a package's name (linux-source-6.12) */
	if (!access(argv[rest], F_OK))
		ret = file(c, "--source", argv[rest], is_dir(argv[rest]));
	else
		ret = push2(c, "--source", argv[rest]);
	return ret ? ret : run_driver(c);
}

/* The kernel options: exactly one kernel, and what goes with which. */
static int check_kernel(const struct lab_cmd *c)
{
	if (c->kernels != 1)
		return rf_usage_error(VERB, c->kernels ? "one kernel: --kernel-pkg, --kernel or --build" :
				      "which kernel? --kernel-pkg NAME, --kernel BZIMAGE or --build SRC");
	if (c->patched && !c->build)
		return rf_usage_error(VERB, "--patch and --config-fragment go with --build SRC");
	if (c->modules && !c->image)
		return rf_usage_error(VERB, "--modules goes with --kernel BZIMAGE");
	return 0;
}

/*
 * refault record's parser on "record", the command line's record options, then
 * @lead (if not NULL) and @words: nothing boots before they are checked.
 */
static int record_check(const struct lab_cmd *c, const char *lead, char *const *words, size_t n)
{
	static const char *check[MAX_ARGS];
	size_t k = 0, j;

	check[k++] = "record";
	for (j = 0; j < c->nrec && k < MAX_ARGS - 2; j++)
		check[k++] = c->rec[j];
	if (lead)
		check[k++] = lead;
	for (j = 0; j < n && k < MAX_ARGS - 1; j++)
		check[k++] = words[j];
	check[k] = NULL;
	return rf_cli_record_check((int)k, (char **)check);
}

/* refault record's options that a job may not have: the lab gives the scope and output. */
static bool job_refused(const char *w)
{
	static const char *const shorts = "aGpoh";
	size_t i, n;

	if (w[0] == '-' && w[1] && w[1] != '-')
		return strchr(shorts, w[1]) != NULL;
	if (strncmp(w, "--", 2))
		return false;
	n = strcspn(w + 2, "=");
	for (i = 0; i < ARRAY_SIZE(record_refused); i++)
		if (strlen(record_refused[i]) == n && !strncmp(w + 2, record_refused[i], n))
			return true;
	return false;
}

static bool job_flag(const char *w)
{
	return !strcmp(w, "cold") || !strcmp(w, "swap") || !strcmp(w, "bare");
}

/*
 * One line of a job file, split at blanks into @w (@n words): NAME [cold]
 * [swap] [bare] [RECORD-OPTIONS...] -- COMMAND ARGS...  Its record options
 * after the line's (@c->rec) go through refault record's own parser.
 */
static int check_job(const struct lab_cmd *c, const char *path, unsigned long line, char **w,
		     size_t n)
{
	const char *name = w[0];
	size_t i = 1, dd;
	bool bare = false;

	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:+-") !=
	    strlen(name) || name[0] == '.' || strlen(name) > 128)
		return rf_usage_error(VERB, "%s:%lu: a job's name is letters, digits, _ . : + - "
				      "(not first .), 128 at most, not '%s'", path, line, name);
	for (; i < n && job_flag(w[i]); i++)
		bare |= !strcmp(w[i], "bare");
	for (dd = i; dd < n && strcmp(w[dd], "--"); dd++)
		if (job_refused(w[dd]))
			return rf_usage_error(VERB, "%s:%lu: job %s: %s is not for the lab (the guest "
					      "records the command, into NAME.rft)", path, line, name,
					      w[dd]);
	if (dd + 1 >= n)
		return rf_usage_error(VERB, "%s:%lu: job %s has no command (NAME [cold] [swap] [bare] "
				      "[RECORD-OPTIONS] -- COMMAND ARGS)", path, line, name);
	if (bare && dd > i)
		return rf_usage_error(VERB, "%s:%lu: job %s is bare (not recorded): no record "
				      "options", path, line, name);
	if (record_check(c, NULL, w + i, n - i))
		return rf_usage_error(VERB, "%s:%lu: job %s: refault record's options (above)", path,
				      line, name);
	return 0;
}

/* Every line of --job-file FILE, checked before anything boots (lab/refault-lab reads it). */
static int check_job_file(const struct lab_cmd *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *w[1024], *save, *t, **names = NULL;
	size_t cap = 0, n, nnames = 0, i;
	unsigned long line = 0;
	int ret = 0;

	if (!f)
		return rf_usage_error(VERB, "--job-file %s: %s", path, strerror(errno));
	while (!ret && getline(&buf, &cap, f) > 0) {
		line++;
		buf[strcspn(buf, "#\n")] = '\0';
		n = 0;
		for (t = strtok_r(buf, " \t", &save); t && n < ARRAY_SIZE(w); t = strtok_r(NULL, " \t", &save))
			w[n++] = t;
		if (!n)
			continue;
		if (t) {
			ret = rf_usage_error(VERB, "%s:%lu: more than %zu words", path, line,
					     ARRAY_SIZE(w));
			break;
		}
		for (i = 0; !ret && i < n; i++)
			ret = text("--job-file", w[i]);
		if (!ret)
			ret = check_job(c, path, line, w, n);
		for (i = 0; !ret && i < nnames; i++)
			if (!strcmp(names[i], w[0]))
				ret = rf_usage_error(VERB, "%s:%lu: job %s twice", path, line, w[0]);
		if (!ret) {
			char **nn = nnames < 10000 ? realloc(names, (nnames + 1) * sizeof(*names)) : NULL;

			if (!nn || !(nn[nnames] = strdup(w[0]))) {
				names = nn ? nn : names;
				ret = rf_usage_error(VERB, "%s: more than 10000 jobs, or out of memory",
						     path);
			} else {
				names = nn;
				nnames++;
			}
		}
	}
	if (!ret && ferror(f))
		ret = rf_usage_error(VERB, "--job-file %s: %s", path, strerror(errno));
	if (!ret && !nnames)
		ret = rf_usage_error(VERB, "--job-file %s: no job in it (NAME [cold] [swap] [bare] "
				     "[RECORD-OPTIONS] -- COMMAND ARGS, a line each)", path);
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(buf);
	fclose(f);
	return ret;
}

static int lab_record(int argc, char **argv)
{
	struct lab_cmd *c = &lab;
	size_t i;
	int ret, rest;

	c->n = 2;
	push(c, "record");
	ret = parse(c, argc, argv, record_opts, ARRAY_SIZE(record_opts), true, usage_record, &rest);
	if (ret)
		return ret < 0 ? RF_EXIT_OK : ret;
	ret = check_kernel(c);
	if (ret)
		return ret;
	if (!c->out)
		return rf_usage_error(VERB, c->job_file ? "where do the traces go? -o DIR" :
				      "where does the trace go? -o OUT.rft");
	if (c->job_file) {
		if (rest < argc)
			return rf_usage_error(VERB, "a command or --job-file, not both");
		ret = check_job_file(c, c->job_file);
		if (!ret)
			ret = push_self(c);
		return ret ? ret : run_driver(c);
	}
	if (rest >= argc)
		return rf_usage_error(VERB, "no command: refault lab record ... -- COMMAND ARGS");
	ret = record_check(c, "--", argv + rest, (size_t)(argc - rest));
	if (ret)
		return ret;
	ret = push_self(c);
	if (ret)
		return ret;
	if (push(c, "--"))
		return RF_EXIT_USAGE;
	for (i = (size_t)rest; i < (size_t)argc; i++)
		if (push(c, argv[i]))
			return RF_EXIT_USAGE;
	return run_driver(c);
}

static int lab_run(int argc, char **argv)
{
	struct lab_cmd *c = &lab;
	int ret, rest;

	c->n = 2;
	push(c, "run");
	ret = parse(c, argc, argv, run_opts, ARRAY_SIZE(run_opts), false, usage_run, &rest);
	if (ret)
		return ret < 0 ? RF_EXIT_OK : ret;
	if (rest != argc - 1)
		return rf_usage_error(VERB, rest == argc ? "run SPEC -o DIR: which spec?" :
				      "run takes one spec");
	if (!c->out)
		return rf_usage_error(VERB, "where do the traces and tables go? -o DIR");
	ret = file(c, "--spec", argv[rest], false);
	if (ret)
		return ret;
	ret = push_self(c);
	return ret ? ret : run_driver(c);
}

int cmd_lab(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_top, argc < 2 ? stderr : stdout);
		return argc < 2 ? RF_EXIT_USAGE : RF_EXIT_OK;
	}
	if (!strcmp(argv[1], "build"))
		return lab_build(argc - 1, argv + 1);
	if (!strcmp(argv[1], "record"))
		return lab_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return lab_run(argc - 1, argv + 1);
	return rf_usage_error(VERB, "unknown subcommand '%s' (build, record, run)", argv[1]);
}
