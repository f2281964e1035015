/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Describe the running host for a trace header: what a replay needs to size its model. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "formats/format-local.h"

static uint64_t meminfo_kb(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			sscanf(line + klen + 1, "%llu", &kb);
			break;
		}
	fclose(f);
	return kb;
}

static uint32_t count_numa_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	uint32_t n = 0;

	if (!d)
		return 1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9')
			n++;
	closedir(d);
	return n ? n : 1;
}

/* The bracketed word of "always [madvise] never". */
static void read_thp_mode(char *out, size_t len)
{
	char line[128], *open, *close;
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		open = strchr(line, '[');
		close = open ? strchr(open, ']') : NULL;
		if (close) {
			*close = '\0';
			fmt_strlcpy(out, open + 1, len);
		}
	}
	fclose(f);
}

/* The first line of a small sysfs file, without its newline; "" when it cannot be read. */
static void read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "re");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

bool rf_trace_host_lru_gen_on(const struct rf_trace_host *host)
{
	char *end;
	unsigned long v;

	if (!host->lru_gen[0])
		return false;
	v = strtoul(host->lru_gen, &end, 0);
	/* mm/vmscan.c enabled_show(): "0x%04x", bit 0 is LRU_GEN_CORE (6.1 .. 6.18) */
	return end != host->lru_gen && !*end && (v & 1);
}

void rf_trace_header_fill_host(struct rf_trace_header *h)
{
	struct rf_trace_host *host = &h->host;
	struct utsname u;
	long v;

	if (!uname(&u)) {
		fmt_strlcpy(host->hostname, u.nodename, sizeof(host->hostname));
		fmt_strlcpy(host->kernel_release, u.release, sizeof(host->kernel_release));
		fmt_strlcpy(host->arch, u.machine, sizeof(host->arch));
	}
	v = sysconf(_SC_PAGESIZE);
	host->page_size = v > 0 ? (uint32_t)v : 4096;
	v = sysconf(_SC_NPROCESSORS_ONLN);
	host->cpus = v > 0 ? (uint32_t)v : 1;
	host->mem_bytes = meminfo_kb("MemTotal") * 1024;
	host->swap_bytes = meminfo_kb("SwapTotal") * 1024;
	host->numa_nodes = count_numa_nodes();
	read_thp_mode(host->thp_mode, sizeof(host->thp_mode));
	read_line("/sys/kernel/mm/lru_gen/enabled", host->lru_gen, sizeof(host->lru_gen));
}
