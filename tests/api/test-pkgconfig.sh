#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The installed libraries as a program outside the tree uses them: `make install` into a
# DESTDIR, then a small program that reads a trace into JSON (refault/trace-json.h, whose json-c
# types need json-c in the .pc's public Requires) and feeds it to the model (refault/model.h),
# built with nothing but `pkg-config --cflags --libs refault-trace refault-model`, and run.
. "$top_srcdir/tests/lib/tap.sh"
command -v pkg-config > /dev/null || { skip_all "no pkg-config"; exit 0; }
command -v "${CC:-cc}" > /dev/null || { skip_all "no C compiler"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pkgconfig.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
make -C "$top_builddir" install DESTDIR="$tmp/root" > "$tmp/install.log" 2>&1
check "make install DESTDIR=... works" "[ $? -eq 0 ]"
pc=$(dirname "$(find "$tmp/root" -name refault-trace.pc | head -1)")
lib=$(dirname "$(find "$tmp/root" -name 'librefault-trace.so' | head -1)")
check "it installs refault-trace.pc and refault-model.pc" "[ -f '$pc/refault-trace.pc' ] && [ -f '$pc/refault-model.pc' ]"
cat > "$tmp/user.c" <<'C'
#include <stdio.h>
#include <refault/model.h>
#include <refault/trace-json.h>

int main(int argc, char **argv)
{
	struct rf_trace_reader *r;
	struct rf_model_config *c;
	struct rf_model *m;
	struct rf_event ev;
	char err[256];
	uint64_t v = 0;
	int n = 0;

	if (argc != 2 || rf_trace_reader_open(&r, argv[1], 0) || rf_model_config_new(&c, "v6.18"))
		return 1;
	rf_model_config_from_header(c, rf_trace_reader_header(r));
	if (rf_model_new(&m, c, err, sizeof(err)))
		return 1;
	while (rf_trace_reader_next(r, &ev) > 0) {
		json_object *o = rf_event_to_json(&ev);

		if (!n++)
			printf("%s\n", json_object_to_json_string(o));
		json_object_put(o);
		if (rf_model_feed(m, &ev))
			return 1;
	}
	rf_model_finish(m);
	rf_model_counter(m, "vmstat.workingset_refault_file", &v);
	printf("%d events, workingset_refault_file %llu\n", n, (unsigned long long)v);
	rf_model_free(m);
	rf_model_config_free(c);
	rf_trace_reader_close(r);
	return 0;
}
C
export PKG_CONFIG_SYSROOT_DIR="$tmp/root" PKG_CONFIG_PATH="$pc"
# shellcheck disable=SC2046
${CC:-cc} -o "$tmp/user" "$tmp/user.c" $(pkg-config --cflags --libs refault-trace refault-model) \
	> "$tmp/cc.log" 2>&1
st=$?
sed 's/^/# /' "$tmp/cc.log"
check "a program built with only pkg-config's flags compiles and links" "[ $st -eq 0 ]"
LD_LIBRARY_PATH="$lib" "$tmp/user" "$top_srcdir/traces/lru-file-readtwice.rft" > "$tmp/out" 2>&1
st=$?
sed 's/^/# /' "$tmp/out"
check "... and runs: reads the trace, prints JSON, replays it through the model" \
	"[ $st -eq 0 ] && grep -q 'events, workingset_refault_file' '$tmp/out'"
done_testing
