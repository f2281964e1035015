/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A plan for the engines other people run (docs/sweeps.md, "Engines"):
 * GNU parallel's command list, one `refault sweep task PLAN I` a line, and
 * Slurm's job array, whose element I runs task I.  Nothing runs between the
 * engine and the task: the task is the same command everywhere.
 *
 * What a path may hold reaches three readers, each with its own rule: the
 * shell (every path a single-quoted word, rf_sweep_shell_quote()), sbatch's
 * reading of an #SBATCH line (a double-quoted word, '"' as \") with Slurm's
 * file name patterns ('%' as "%%"), and a person reading the
 * comments (lib/term.h's escaping, so that a comment stays one line).  The
 * plan's paths have no control character and no backslash (load.c).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/term.h"
#include "sweep/sweep-local.h"

void sweep_task_command(FILE *out, const struct rf_sweep_plan *p, const char *refault, size_t i)
{
	rf_sweep_shell_quote(out, refault);
	fputs(" sweep task ", out);
	rf_sweep_shell_quote(out, p->path);
	fprintf(out, " %zu\n", i);
}

int rf_sweep_emit_parallel(const struct rf_sweep_plan *p, FILE *out)
{
	size_t i;

	for (i = 0; i < p->nr_tasks; i++)
		if (rf_sweep_task_state(p, i, NULL, 0) != RF_SWEEP_DONE)
			sweep_task_command(out, p, p->refault, i);
	return fflush(out) || ferror(out) ? RF_ERR_IO : 0;
}

/*
 * @path, in double quotes, as sbatch reads an #SBATCH line's word (its
 * _get_argument(): within quotes a blank, a single quote and '#' are the
 * path's; a backslash takes the next byte as it is, so '"' is \"; outside
 * them a blank ends the word, escaped or not) naming a file (Slurm's
 * patterns: "%%" is '%').  The caller closes the quotes.
 */
static void sbatch_path(FILE *out, const char *path)
{
	fputc('"', out);
	for (; *path; path++) {
		if (*path == '%')
			fputc('%', out);
		else if (*path == '"' || *path == '\\')
			fputc('\\', out);
		fputc(*path, out);
	}
}

int rf_sweep_emit_slurm(const struct rf_sweep_plan *p, FILE *out, unsigned int max_running)
{
	uint64_t bytes = 0, seconds = 0;
	size_t i;

	for (i = 0; i < p->nr_tasks; i++) {
		if (p->tasks[i].memory_bytes > bytes)
			bytes = p->tasks[i].memory_bytes;
		if (p->tasks[i].seconds > seconds)
			seconds = p->tasks[i].seconds;
	}
	fputs("#!/bin/sh\n# refault sweep: ", out);
	rf_term_escape_str(out, p->path);
	fprintf(out, ", %zu task%s as one Slurm job array (refault %s).\n"
		"#   sbatch THIS-FILE     submit it; sbatch's own options (--partition, --account,\n"
		"#                        --mem ...) on its command line win over the lines below\n"
		"#   refault sweep merge PLAN -o SWEEP.json   then, or at any time: what is not done\n"
		"#                        is listed as missing or failed, with why\n"
		"# A task already done ends at once; a task's results, log and status are in\n# ",
		p->nr_tasks, p->nr_tasks == 1 ? "" : "s", PACKAGE_VERSION);
	rf_term_escape_str(out, p->store);
	fputs(" (a filesystem every node sees).  Memory and time: the plan's largest task.\n", out);
	fprintf(out, "#SBATCH --job-name=refault-sweep\n");
	if (p->nr_tasks)
		fprintf(out, "#SBATCH --array=0-%zu", p->nr_tasks - 1);
	if (p->nr_tasks && max_running)
		fprintf(out, "%%%u", max_running);
	fprintf(out, "\n#SBATCH --cpus-per-task=%u\n", p->threads);
	fprintf(out, "#SBATCH --mem=%lluM\n", (unsigned long long)((bytes + (1 << 20) - 1) >> 20));
	fprintf(out, "#SBATCH --time=%llu\n", (unsigned long long)((seconds + 59) / 60));
	fputs("#SBATCH --output=", out);
	sbatch_path(out, p->store);
	fputs("/slurm-%A_%a.out\"\n", out);
	fputs("exec ", out);
	rf_sweep_shell_quote(out, p->refault);
	fputs(" sweep task ", out);
	rf_sweep_shell_quote(out, p->path);
	fputs(" \"$SLURM_ARRAY_TASK_ID\"\n", out);
	return fflush(out) || ferror(out) ? RF_ERR_IO : 0;
}
