/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Events as text lines and JSON lines.  The text form walks the event's JSON
 * object so that it names every field exactly as the JSON form and
 * docs/trace-format.md do, and cannot fall behind the schema.
 */
#include <inttypes.h>
#include <string.h>

#include <refault/trace-json.h>

#include "formats/tools/tools-local.h"
#include "lib/term.h"
#include "lib/utf8.h"

/* Fields that read better in hex: addresses, page frames, address spaces. */
static bool hex_field(const char *name)
{
	static const char *const names[] = { "addr", "mm", "pfn", "flags", "prot", "len" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * A string from the file, quoted: inside the quotes, lib/term.h's rule (the
 * one every verb uses for text a file supplies: controls, C1 and ill-formed
 * bytes escaped, the backslash doubled), and \" for a quote, which would
 * otherwise end the value early.
 */
static void print_string(FILE *out, const char *s)
{
	const char *quote;

	fputc('"', out);
	while ((quote = strchr(s, '"'))) {
		rf_term_escape(out, s, (size_t)(quote - s));
		fputs("\\\"", out);
		s = quote + 1;
	}
	rf_term_escape_str(out, s);
	fputc('"', out);
}

static void print_value(FILE *out, const char *name, json_object *v)
{
	struct json_object_iterator it, end;
	size_t i, n;

	switch (json_object_get_type(v)) {
	case json_type_null:
		fputs("-", out);
		break;
	case json_type_string:
		print_string(out, json_object_get_string(v));
		break;
	case json_type_array:
		n = json_object_array_length(v);
		fputc('[', out);
		/* name_stack's frames: name_frame ids since 2.6 */
		for (i = 0; i < n; i++)
			fprintf(out, "%s%" PRIu64, i ? "," : "",
				json_object_get_uint64(json_object_array_get_idx(v, i)));
		fputc(']', out);
		break;
	case json_type_object:
		it = json_object_iter_begin(v);
		end = json_object_iter_end(v);
		fputc('{', out);
		/* a counters event's names come from the file */
		for (i = 0; !json_object_iter_equal(&it, &end); json_object_iter_next(&it), i++) {
			fputs(i ? "," : "", out);
			rf_term_escape_str(out, json_object_iter_peek_name(&it));
			fprintf(out, "=%" PRIu64,
				json_object_get_uint64(json_object_iter_peek_value(&it)));
		}
		fputc('}', out);
		break;
	case json_type_int:
		if (!strcmp(name, "dev")) {
			uint64_t dev = json_object_get_uint64(v);

			/* kernel s_dev: major << 20 | minor */
			fprintf(out, "%" PRIu64 ":%" PRIu64, dev >> 20, dev & 0xfffff);
		} else if (json_object_get_int64(v) < 0) {
			fprintf(out, "%" PRId64, json_object_get_int64(v));
		} else if (hex_field(name)) {
			fprintf(out, "0x%" PRIx64, json_object_get_uint64(v));
		} else {
			fprintf(out, "%" PRIu64, json_object_get_uint64(v));
		}
		break;
	default:
		fputs(json_object_to_json_string_ext(v, TOOLS_JSON_FLAGS), out);
		break;
	}
}

/* cgroup_limit reads better with the knob's name and "max" for no limit. */
static bool print_limit_field(FILE *out, const struct rf_event *ev, const char *name)
{
	if (ev->type != RF_EV_CGROUP_LIMIT)
		return false;
	if (!strcmp(name, "kind") && rf_limit_kind_name(ev->u.cgroup.kind)) {
		fputs(rf_limit_kind_name(ev->u.cgroup.kind), out);
		return true;
	}
	if (!strcmp(name, "value") && ev->u.cgroup.value == RF_UNLIMITED) {
		fputs("max", out);
		return true;
	}
	return false;
}

static bool common_key(const char *k)
{
	return !strcmp(k, "t") || !strcmp(k, "cpu") || !strcmp(k, "pid") || !strcmp(k, "type");
}

void tools_print_field(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=", name);
	print_string(out, value);
}

int tools_print_event(FILE *out, const struct rf_event *ev, const struct tools_names *names)
{
	struct json_object_iterator it, end;
	json_object *o = rf_event_to_json(ev);
	const char *name;

	if (!o)
		return RF_ERR_NOMEM;
	fprintf(out, "%6" PRIu64 ".%09" PRIu64 " [%03u] %6d %-14s", ev->time / 1000000000u,
		ev->time % 1000000000u, ev->cpu, ev->pid, rf_event_type_name(ev->type));
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		name = json_object_iter_peek_name(&it);
		if (common_key(name))
			continue;
		fprintf(out, " %s=", name);
		if (!print_limit_field(out, ev, name))
			print_value(out, name, json_object_iter_peek_value(&it));
	}
	if (names)
		tools_names_print(out, names, ev);
	fputc('\n', out);
	json_object_put(o);
	return 0;
}

int tools_print_event_json(FILE *out, const struct rf_event *ev, bool strict)
{
	json_object *o = rf_event_to_json(ev);
	const char *text;

	if (!o)
		return RF_ERR_NOMEM;
	text = json_object_to_json_string_ext(o, TOOLS_JSON_FLAGS);
	if (!text) {
		json_object_put(o);
		return RF_ERR_NOMEM;
	}
	if (strict)
		rf_utf8_json_write(text, out);	/* a write error shows in ferror(@out) */
	else
		fputs(text, out);
	fputc('\n', out);
	json_object_put(o);
	return 0;
}
