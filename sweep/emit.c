/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A plan for the engines other people run (docs/sweeps.md, "Engines"):
 * GNU parallel's command list, one `refault sweep task PLAN I` a line, and
 * Slurm's job array, whose element I runs task I.  Nothing runs between the
 * engine and the task: the task is the same command everywhere.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sweep/sweep-local.h"

/* @s in single quotes for sh(1). */
static void quote(FILE *out, const char *s)
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

int rf_sweep_emit_parallel(const struct rf_sweep_plan *p, FILE *out)
{
	size_t i;

	for (i = 0; i < p->nr_tasks; i++) {
		if (rf_sweep_task_state(p, i, NULL, 0) == RF_SWEEP_DONE)
			continue;
		quote(out, p->refault);
		fputs(" sweep task ", out);
		quote(out, p->path);
		fprintf(out, " %zu\n", i);
	}
	return fflush(out) || ferror(out) ? RF_ERR_IO : 0;
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
	fprintf(out, "#!/bin/sh\n"
		"# refault sweep: %s, %zu task%s as one Slurm job array (refault %s).\n"
		"#   sbatch THIS-FILE     submit it; sbatch's own options (--partition, --account,\n"
		"#                        --mem ...) on its command line win over the lines below\n"
		"#   refault sweep merge PLAN -o SWEEP.json   then, or at any time: what is not done\n"
		"#                        is listed as missing or failed, with why\n"
		"# A task already done ends at once; a task's results, log and status are in\n"
		"# %s (a filesystem every node sees).  Memory and time: the plan's largest task.\n",
		p->path, p->nr_tasks, p->nr_tasks == 1 ? "" : "s", PACKAGE_VERSION, p->store);
	fprintf(out, "#SBATCH --job-name=refault-sweep\n");
	if (p->nr_tasks)
		fprintf(out, "#SBATCH --array=0-%zu", p->nr_tasks - 1);
	if (p->nr_tasks && max_running)
		fprintf(out, "%%%u", max_running);
	fprintf(out, "\n#SBATCH --cpus-per-task=%u\n", p->threads);
	fprintf(out, "#SBATCH --mem=%lluM\n", (unsigned long long)((bytes + (1 << 20) - 1) >> 20));
	fprintf(out, "#SBATCH --time=%llu\n", (unsigned long long)((seconds + 59) / 60));
	fprintf(out, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", p->store);
	fputs("exec ", out);
	quote(out, p->refault);
	fputs(" sweep task ", out);
	quote(out, p->path);
	fputs(" \"$SLURM_ARRAY_TASK_ID\"\n", out);
	return fflush(out) || ferror(out) ? RF_ERR_IO : 0;
}
